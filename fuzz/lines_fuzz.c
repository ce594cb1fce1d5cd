/* A libFuzzer target on the C FEN reader (src/ggn/_native/lines.c), without Python.
 *
 * ggn.batch.legal hands the reader every line of its input as it comes, so the reader's text is
 * the kernel's most hostile input: a line must be read into a position the kernel takes, or
 * left to the Python reader (0), never read or written out of bounds. Its table is made and
 * checked by ggn.rules._lines; the target patches it too, so that a check missing in
 * fen_table shows up. .ci/sanitize builds it with clang's -fsanitize=fuzzer,address,undefined
 * and runs it; fuzz/lines_seeds.py writes its seeds.
 *
 * An input: [game][patches n] then n patches of 8 bytes (offset, 4 bytes little-endian, taken
 * modulo the table's length; value, int32), then the line (the bytes to the end). The tables
 * are read at start from GGN_LINES_TABLES: GAME.fen (the reader's) and GAME.tables (the
 * kernel's), in the order of their names.
 *
 * Besides the sanitizers' faults, the target aborts where the reader and the kernel disagree
 * with an unpatched table: the table refused (-1), a line read into a position the kernel
 * refuses (GGN_EBADPOSITION) or a hand order outside -1..K-1, or the two ways in (ggn_read_fen,
 * ggn_fen_new and ggn_fen_read) reading one line differently.
 */
#define _DEFAULT_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "lines.h"
#include "tables_io.h"

#define ERRLEN 96
#define MAX_GAMES 32
#define LISTED 4096

typedef struct {
    ggn_game *game;
    int32_t *fen;
    size_t fen_length;
} entry_t;

static entry_t games[MAX_GAMES];
static size_t game_count;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *folder = getenv("GGN_LINES_TABLES");
    if (folder == NULL) return 0;
    char *names[MAX_GAMES];
    size_t named = named_files("lines_fuzz", "GGN_LINES_TABLES", folder, ".fen", names, MAX_GAMES);
    for (size_t i = 0; i < named; i++) {
        char path[4096];
        size_t stem = strlen(names[i]) - 4, length = 0;
        snprintf(path, sizeof path, "%s/%.*s.tables", folder, (int)stem, names[i]);
        int32_t *tables = read_file(path, &length);
        if (tables == NULL) abort();
        char err[ERRLEN];
        if (ggn_game_new(tables, length, &games[game_count].game, err, sizeof err) != GGN_OK) {
            fprintf(stderr, "lines_fuzz: %s: %s\n", path, err);
            exit(2);
        }
        free(tables);
        snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        games[game_count].fen = read_file(path, &games[game_count].fen_length);
        if (games[game_count].fen == NULL) abort();
        game_count++;
        free(names[i]);
    }
    fprintf(stderr, "lines_fuzz: the tables of %zu games from %s\n", game_count, folder);
    return 0;
}

static void fail(const char *why) {
    fprintf(stderr, "lines_fuzz: %s\n", why);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || game_count == 0) return 0;
    const entry_t *base = &games[data[0] % game_count];
    size_t patches = data[1];
    if (size < 2 + 8 * patches) patches = (size - 2) / 8;
    size_t length = base->fen_length;
    int32_t *table = malloc(length * sizeof(int32_t));
    if (table == NULL) abort();
    memcpy(table, base->fen, length * sizeof(int32_t));
    for (size_t i = 0; i < patches; i++) {
        const uint8_t *patch = data + 2 + 8 * i;
        table[(uint32_t)read_word(patch) % length] = read_word(patch + 4);
    }
    const char *text = (const char *)(data + 2 + 8 * patches);
    size_t text_length = size - 2 - 8 * patches;
    int32_t K = ggn_game_kinds(base->game);
    size_t plen = ggn_position_size(base->game);
    /* exactly the sizes the game asks for: ASan sees a write past either */
    int32_t *position = malloc(plen * sizeof(int32_t)), *again = malloc(plen * sizeof(int32_t));
    int32_t *hands = malloc((size_t)K * sizeof(int32_t)), *hands_again = malloc((size_t)K * sizeof(int32_t));
    if (!position || !again || !hands || !hands_again) abort();
    int read = ggn_read_fen(table, length, text, text_length, position, plen, hands, (size_t)K);
    ggn_fen *fen = ggn_fen_new(table, length);
    /* (a table ggn_fen_new takes may still not fit this game's positions: both read -1 then) */
    if (fen == NULL && read >= 0) fail("ggn_fen_new refused a table ggn_read_fen read with");
    if (fen != NULL) {
        int again_read = ggn_fen_read(fen, text, text_length, again, plen, hands_again, (size_t)K);
        if (again_read != read) fail("ggn_fen_read and ggn_read_fen read the line differently");
        if (read == 1 && (memcmp(position, again, plen * sizeof(int32_t)) != 0 ||
                          memcmp(hands, hands_again, (size_t)K * sizeof(int32_t)) != 0))
            fail("ggn_fen_read and ggn_read_fen made different positions");
        ggn_fen_free(fen);
    }
    if (patches == 0 && read < 0) fail("the game's own table was refused");
    if (read == 1) {
        int32_t listed[2 * LISTED];
        size_t found = 0;
        int rc = ggn_legal(base->game, position, plen, listed, LISTED, &found);
        if (patches == 0) {
            if (rc == GGN_EBADPOSITION) fail("a line read into a position the kernel refuses");
            for (int32_t k = 0; k < K; k++)
                if (hands[k] < -1 || hands[k] >= K) fail("a hand order outside -1..K-1");
        }
    }
    free(position);
    free(again);
    free(hands);
    free(hands_again);
    free(table);
    return 0;
}
