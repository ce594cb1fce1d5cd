/* A libFuzzer target on the native playouts (src/ggn/_native/playout.c), without Python.
 *
 * A playout reads a game's kernel tables and its playout tables (both made and checked by
 * ggn.rules._native) and plays whole games on a position. This target hands it real games'
 * kernel tables with playout tables patched at random (or all its own) and positions of any
 * length, so that a playout that trusts a value it read shows up as a read or write out of
 * bounds, undefined behaviour, an abort or a hang. .ci/sanitize builds it with clang's
 * -fsanitize=fuzzer,address,undefined and runs it; fuzz/playout_seeds.py writes its seeds.
 *
 * An input: [game][policy][max plies, 2 bytes][seed, 8 bytes][patches n] then n patches of 8
 * bytes (offset, 4 bytes little-endian, taken modulo the playout tables' length; value,
 * int32), then the position (int32 little-endian, to the end). With the policy's bit 0x80 the
 * playout tables are the input's own instead: [length, 4 bytes][values] before the position.
 * The games' tables are read at start from GGN_PLAYOUT_TABLES: GAME.tables (the kernel's) and
 * GAME.playout (the playout's), in the order of their names.
 */
#define _DEFAULT_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "playout.h"
#include "tables_io.h"

#define ERRLEN 96
#define MAX_GAMES 32

typedef struct {
    ggn_game *game;
    int32_t *playout;
    size_t playout_length;
} entry_t;

static entry_t games[MAX_GAMES];
static size_t game_count;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *folder = getenv("GGN_PLAYOUT_TABLES");
    if (folder == NULL) return 0;
    char *names[MAX_GAMES];
    size_t named = named_files("playout_fuzz", "GGN_PLAYOUT_TABLES", folder, ".playout", names, MAX_GAMES);
    for (size_t i = 0; i < named; i++) {
        char path[4096];
        size_t stem = strlen(names[i]) - 8, length = 0;
        snprintf(path, sizeof path, "%s/%.*s.tables", folder, (int)stem, names[i]);
        int32_t *tables = read_file(path, &length);
        if (tables == NULL) abort();
        char err[ERRLEN];
        if (ggn_game_new(tables, length, &games[game_count].game, err, sizeof err) != GGN_OK) {
            fprintf(stderr, "playout_fuzz: %s: %s\n", path, err);
            exit(2);
        }
        free(tables);
        snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        games[game_count].playout = read_file(path, &games[game_count].playout_length);
        if (games[game_count].playout == NULL) abort();
        game_count++;
        free(names[i]);
    }
    fprintf(stderr, "playout_fuzz: the tables of %zu games from %s\n", game_count, folder);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 13 || game_count == 0) return 0;
    const entry_t *base = &games[data[0] % game_count];
    int policy = data[1] & 1;
    int32_t max_plies = (int32_t)(data[2] | data[3] << 8) % 600;
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) seed |= (uint64_t)data[4 + i] << (8 * i);
    int32_t *tables;
    size_t length;
    const uint8_t *rest;
    if (data[1] & 0x80) {
        if (size < 16) return 0;
        size_t words = (size - 16) / 4;
        length = (size_t)read_word(data + 12) & 0xFFFFFF;
        if (length > words) length = words;
        tables = copy_words(data + 16, length);
        rest = data + 16 + 4 * length;
    } else {
        size_t patches = data[12];
        if (size < 13 + 8 * patches) patches = (size - 13) / 8;
        length = base->playout_length;
        tables = malloc(length ? length * sizeof(int32_t) : 1);
        if (tables == NULL) abort();
        memcpy(tables, base->playout, length * sizeof(int32_t));
        for (size_t i = 0; i < patches && length > 0; i++) {
            const uint8_t *patch = data + 13 + 8 * i;
            tables[(uint32_t)read_word(patch) % length] = read_word(patch + 4);
        }
        rest = data + 13 + 8 * patches;
    }
    size_t position_length = (size_t)(data + size - rest) / 4;
    int32_t *position = copy_words(rest, position_length);
    int32_t out[3 * 2];
    ggn_moves moves = {NULL, 0, 0};
    char err[ERRLEN];
    memset(err, 'x', sizeof err);
    /* the checks left and a count under way, read where the tables count them */
    int32_t counters[4] = {(int32_t)(seed >> 8 & 7), (int32_t)(seed >> 11 & 7), (int32_t)(seed >> 14 & 127),
                           (int32_t)(seed >> 21 & 127)};
    int status = ggn_playout(base->game, tables, length, position, position_length, seed, 0, 2, policy, max_plies,
                             (int32_t)(seed % 120), counters, out, &moves, err, sizeof err);
    if (memchr(err, '\0', ERRLEN) == NULL) {
        fprintf(stderr, "the playout's message is not terminated within %d bytes\n", ERRLEN);
        abort();
    }
    if (status == GGN_OK) {
        size_t plies = 0;
        for (int g = 0; g < 2; g++) {
            if (out[3 * g] < 0 || out[3 * g] > 3 || out[3 * g + 1] < 0 || out[3 * g + 1] > GGN_END_BIKJANG || out[3 * g + 2] < 0 ||
                out[3 * g + 2] > max_plies) {
                fprintf(stderr, "a playout's game out of its bounds: %d %d %d\n", out[3 * g], out[3 * g + 1],
                        out[3 * g + 2]);
                abort();
            }
            plies += (size_t)out[3 * g + 2];
        }
        if (plies != moves.used) {
            fprintf(stderr, "the playout kept %zu plays for %zu plies\n", moves.used, plies);
            abort();
        }
    }
    free(moves.pairs);
    free(tables);
    free(position);
    return 0;
}
