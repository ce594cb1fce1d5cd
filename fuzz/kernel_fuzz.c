/* A libFuzzer target on the C kernel (src/ggn/_native/kernel.c), without Python.
 *
 * The kernel's inputs are a game's tables and positions, which ggn.rules._native makes and
 * checks; this target hands it tables and positions that no check of ggn's passed, so that a
 * kernel that trusts a size or an index it read shows up as a read or write out of bounds,
 * undefined behaviour, an abort or a hang. .ci/sanitize builds it with clang's
 * -fsanitize=fuzzer,address,undefined and runs it; fuzz/kernel_seeds.py writes its seeds.
 *
 * Real games' tables run to hundreds of thousands of values, which random mutation of whole
 * inputs would barely touch where it matters; so an input either patches a real game's tables
 * or brings its own:
 *
 * - patch (first byte & 0x40): [operation][depth][game][patches n] then n patches of 8 bytes
 *   (offset, 4 bytes little-endian, taken modulo the tables' length; value, int32) and the
 *   position (int32 little-endian, to the end). The games' tables are read at start from the
 *   files *.tables of the directory named by GGN_KERNEL_TABLES (kernel_seeds.py writes them).
 * - own: [operation][depth][length of the tables, 4 bytes little-endian][the tables][the position].
 *
 * The tables and the position are copied into buffers of exactly their size, so that
 * AddressSanitizer sees a read past either, and the tables are freed once the game is read
 * (the game must keep nothing of the caller's buffer). The operation picks perft (and the
 * game's end before the move), the legal plays (with room for 0 to 248 plays, so that too
 * small a buffer is tried too) or divide; the depth is 0 to 2, and the operation's high bit
 * tries the kernel's bounds on depth instead (GGN_MAX_DEPTH + 1, or -1).
 */
#define _DEFAULT_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "tables_io.h"

#define ERRLEN 96
#define MAX_GAMES 64

typedef struct {
    int32_t *values;
    size_t length;
} tables_t;

static tables_t games[MAX_GAMES];
static size_t game_count;

/* The real games' tables, in the order of their file names (so that a game's number in an
 * input means the same game from run to run). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *folder = getenv("GGN_KERNEL_TABLES");
    if (folder == NULL) return 0;
    char *names[MAX_GAMES];
    size_t named = named_files("kernel_fuzz", "GGN_KERNEL_TABLES", folder, ".tables", names, MAX_GAMES);
    for (size_t i = 0; i < named; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        games[game_count].values = read_file(path, &games[game_count].length);
        if (games[game_count].values == NULL) abort();
        game_count++;
        free(names[i]);
    }
    fprintf(stderr, "kernel_fuzz: the tables of %zu games from %s\n", game_count, folder);
    return 0;
}

/* A message the kernel wrote must end within the room it was given. */
static void check_message(const char *err) {
    if (memchr(err, '\0', ERRLEN) == NULL) {
        fprintf(stderr, "the kernel's message is not terminated within %d bytes\n", ERRLEN);
        abort();
    }
}

static int pair_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Listed plays (move, play pairs) as sorted keys, into keys (n of room). */
static void pair_keys(const int32_t *pairs, size_t n, uint64_t *keys) {
    for (size_t i = 0; i < n; i++) keys[i] = (uint64_t)(uint32_t)pairs[2 * i] << 32 | (uint32_t)pairs[2 * i + 1];
    qsort(keys, n, sizeof(uint64_t), pair_cmp);
}

static void run(uint8_t operation, int depth, const ggn_game *game, const int32_t *position, size_t length) {
    size_t cap = (size_t)((operation >> 1) & 0x1f) * 8;
    size_t found = 0;
    switch (operation % 3) {
    case 0: {
        uint64_t count = 0;
        (void)ggn_perft(game, position, length, depth, &count);
        int ended = 0, value = 0; /* the game's end before the move (the tables' ends) */
        if (ggn_ended(game, position, length, &ended, &value) == GGN_OK &&
            (ended < 0 || ended > GGN_END_FLAG || value < -1 || value > 1)) {
            fprintf(stderr, "ggn_ended gave end %d, result %d\n", ended, value);
            abort();
        }
        break;
    }
    case 1: {
        int32_t *out = malloc(cap ? 2 * cap * sizeof(int32_t) : 1);
        if (out == NULL) abort();
        int listed_rc = ggn_legal(game, position, length, out, cap, &found);
        if (listed_rc == GGN_OK && found > cap) {
            fprintf(stderr, "ggn_legal found %zu plays for room for %zu\n", found, cap);
            abort();
        }
        /* the batch's listing (ggn_search_legal: its order free, the plain ray sets' moves found
         * as sets): the same plays */
        ggn_search *batch = listed_rc == GGN_OK ? ggn_search_new(game) : NULL;
        if (batch) {
            int32_t *again = malloc(cap ? 2 * cap * sizeof(int32_t) : 1);
            uint64_t *keys = malloc(2 * (found ? found : 1) * sizeof(uint64_t));
            size_t nagain = 0;
            if (again == NULL || keys == NULL) abort();
            if (ggn_search_legal(batch, position, length, again, cap, &nagain) != GGN_OK || nagain != found) {
                fprintf(stderr, "ggn_search_legal found %zu plays, ggn_legal %zu\n", nagain, found);
                abort();
            }
            pair_keys(out, found, keys);
            pair_keys(again, found, keys + found);
            if (found && memcmp(keys, keys + found, found * sizeof(uint64_t)) != 0) {
                fprintf(stderr, "ggn_search_legal's plays are not ggn_legal's\n");
                abort();
            }
            free(keys);
            free(again);
            ggn_search_free(batch);
        }
        free(out);
        /* a playout's listings: the pseudo-legal moves, each one tried, and a move number of
         * any kind tried (refused, or its plays within the room) */
        ggn_search *search = ggn_search_new(game);
        if (search && ggn_plays_alone(game) && ggn_search_load(search, position, length) == GGN_OK) {
            int32_t moves[3 * 64], plays[2 * 64];
            size_t listed = 0, tried = 0;
            int rc = ggn_search_pseudo(search, moves, 64, &listed);
            for (size_t i = 0; rc == GGN_OK && i < listed; i++)
                if (ggn_search_try(search, moves[3 * i], plays, 64, &tried) == GGN_OK && tried > 64) abort();
            int32_t any = (int32_t)(operation * 977) - 3 * depth;
            if (ggn_search_try(search, any, plays, 64, &tried) == GGN_OK && tried > 64) abort();
            /* the same moves told by source: the groups' moves are the listing's, in its order;
             * a range past them refused */
            int32_t groups[3 * 64], pairs[2 * 64];
            size_t ngroups = 0, told = 0;
            if (rc == GGN_OK && ggn_search_pseudo_groups(search, groups, 64, &ngroups) == GGN_OK) {
                for (size_t g = 0; g < ngroups; g++) told += (size_t)groups[3 * g + 2];
                if (told != listed) abort();
                if (told <= 64 && ggn_search_pseudo_moves(search, 0, told, pairs) == GGN_OK)
                    for (size_t i = 0; i < told; i++)
                        if (pairs[2 * i] != moves[3 * i] || pairs[2 * i + 1] != moves[3 * i + 1]) abort();
                if (ggn_search_pseudo_moves(search, told, 1, pairs) != GGN_EBADPOSITION) abort();
                /* the same on the search keeping its squares (a playout's): the same groups and
                 * moves, and a group known as a set holds its moves' destinations, each asked
                 * back as one of its moves */
                int32_t again[3 * 64];
                size_t nagain = 0, first = 0;
                if (ggn_search_track(search) != GGN_OK) abort();
                if (ggn_search_pseudo_groups(search, again, 64, &nagain) != GGN_OK || nagain != ngroups ||
                    memcmp(again, groups, 3 * ngroups * sizeof(int32_t)) != 0)
                    abort();
                if (told <= 64 && ggn_search_pseudo_moves(search, 0, told, pairs) != GGN_OK) abort();
                for (size_t i = 0; told <= 64 && i < told; i++)
                    if (pairs[2 * i] != moves[3 * i] || pairs[2 * i + 1] != moves[3 * i + 1]) abort();
                for (size_t g = 0; told <= 64 && g < ngroups; first += (size_t)groups[3 * g + 2], g++) {
                    uint64_t set[4];
                    int is_set = 0;
                    if (ggn_search_pseudo_set(search, g, set, 4, &is_set) != GGN_OK) abort();
                    if (!is_set) continue;
                    int32_t bits = 0;
                    for (int32_t d = 0; d < 256; d++) {
                        int32_t move = -1, in = 0;
                        if (!(set[d >> 6] >> (d & 63) & 1)) continue;
                        bits++;
                        if (ggn_search_pseudo_onto(search, g, d, &move) != GGN_OK) abort();
                        for (int32_t k = 0; k < groups[3 * g + 2]; k++)
                            if (pairs[2 * (first + (size_t)k)] == move && pairs[2 * (first + (size_t)k) + 1] == 1) in = 1;
                        if (!in) abort();
                    }
                    if (bits != groups[3 * g + 2] || bits != groups[3 * g + 1]) abort();
                }
                if (ggn_search_pseudo_set(search, ngroups, (uint64_t[4]){0}, 4, &(int){0}) != GGN_EBADPOSITION) abort();
                /* each move tried on the search keeping its squares (its attack tests from the
                 * sets) gives the plays it gives on a search that does not */
                ggn_search *plain = ggn_search_new(game);
                int32_t mine[2 * 64], theirs[2 * 64];
                size_t nmine = 0, ntheirs = 0, relisted = 0;
                if (!plain || ggn_search_load(plain, position, length) != GGN_OK ||
                    ggn_search_pseudo(plain, moves, 64, &relisted) != GGN_OK || relisted != listed ||
                    ggn_search_pseudo(search, moves, 64, &relisted) != GGN_OK)
                    abort();
                for (size_t i = 0; i < listed; i++) {
                    int a = ggn_search_try(search, moves[3 * i], mine, 64, &nmine);
                    int b = ggn_search_try(plain, moves[3 * i], theirs, 64, &ntheirs);
                    if (a != b || nmine != ntheirs || (a == GGN_OK && memcmp(mine, theirs, 2 * nmine * sizeof(int32_t)) != 0))
                        abort();
                }
                ggn_search_free(plain);
            }
        }
        ggn_search_free(search);
        break;
    }
    default: {
        int64_t *out = malloc(cap ? 3 * cap * sizeof(int64_t) : 1);
        if (out == NULL) abort();
        if (ggn_divide(game, position, length, depth, out, cap, &found) == GGN_OK && found > cap) {
            fprintf(stderr, "ggn_divide found %zu plays for room for %zu\n", found, cap);
            abort();
        }
        free(out);
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 6) return 0;
    uint8_t operation = data[0];
    int depth = data[1] % 3;
    if (operation & 0x80) depth = (data[1] & 1) ? GGN_MAX_DEPTH + 1 : -1;
    int32_t *tables;
    size_t length;
    const uint8_t *rest;
    if ((operation & 0x40) && game_count > 0) {
        const tables_t *base = &games[data[2] % game_count];
        size_t patches = data[3];
        if (size < 4 + 8 * patches) patches = (size - 4) / 8;
        length = base->length;
        tables = malloc(length ? length * sizeof(int32_t) : 1);
        if (tables == NULL) abort();
        memcpy(tables, base->values, length * sizeof(int32_t));
        for (size_t i = 0; i < patches && length > 0; i++) {
            const uint8_t *patch = data + 4 + 8 * i;
            tables[(uint32_t)read_word(patch) % length] = read_word(patch + 4);
        }
        rest = data + 4 + 8 * patches;
    } else {
        size_t words = (size - 6) / 4;
        length = (size_t)data[2] | (size_t)data[3] << 8 | (size_t)data[4] << 16 | (size_t)data[5] << 24;
        if (length > words) length = words;
        tables = copy_words(data + 6, length);
        rest = data + 6 + 4 * length;
    }
    size_t position_length = (size_t)(data + size - rest) / 4;
    int32_t *position = copy_words(rest, position_length);

    ggn_game *game = NULL;
    char err[ERRLEN];
    memset(err, 'x', sizeof err);
    int status = ggn_game_new(tables, length, &game, err, sizeof err);
    free(tables);
    if (status != GGN_OK) {
        check_message(err);
        if (game != NULL) {
            fprintf(stderr, "ggn_game_new failed (%d) but gave a game\n", status);
            abort();
        }
    } else {
        run(operation, depth, game, position, position_length);
        ggn_game_free(game);
    }
    free(position);
    return 0;
}
