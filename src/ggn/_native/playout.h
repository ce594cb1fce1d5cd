/* ggn's native playouts: N games played from one position with seeded random moves, each to
 * its end as ggn.game.Game finds it (docs/DECISIONS.md, "Playouts"), on the kernel's search
 * (kernel.h). Pure C99, no Python API (module.c binds it).
 *
 * The playout tables (int32 values) are made and checked by ggn.rules._native (its
 * PLAYOUT_FORMAT); the playout checks them again as it reads them. */
#ifndef GGN_PLAYOUT_H
#define GGN_PLAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

#define GGN_PLAYOUT_MAGIC 0x47504C34 /* "GPL4" */
#define GGN_PLAYOUT_MAX_COUNTER (1 << 24) /* the most a start's counter may be (checks left, a count) */
#define GGN_PLAYOUT_MAX_PLIES 1000000
#define GGN_PLAYOUT_MAX_WAYS 256 /* the most ways a marked piece may have come to a square (en passant) */

enum { GGN_POLICY_UNIFORM = 0, GGN_POLICY_CAPTURES = 1 };

/* How a game ended (the last value of a game's result). */
enum {
    GGN_END_NONE = 0,        /* unfinished at max_plies: '*' */
    GGN_END_CHECKMATE = 1,
    GGN_END_NO_MOVE = 2,     /* no legal move, not in check, lost */
    GGN_END_STALEMATE = 3,   /* no legal move, not in check, not lost */
    GGN_END_MOVE_RULE = 4,
    GGN_END_REPETITION = 5,
    GGN_END_PERPETUAL = 6,
    GGN_END_EXTINCT = 7,     /* a type extinct (extinctionValue) */
    GGN_END_FLAG_REACHED = 8,
    GGN_END_BARE_KING = 9,   /* an extinction of every piece but one ('*', extinctionPieceCount 1) */
    GGN_END_CHECKS = 10,     /* the last check given where checks are counted (checkCounting) */
    GGN_END_COUNTING = 11,   /* the count of the counting rules ran out (countingRule) */
    GGN_END_PASSES = 12,     /* two passes one after the other */
    GGN_END_BIKJANG = 13     /* the royal pieces facing each other after two plies in a row (bikjangRule) */
};

/* Winners: 0 the first player, 1 the second, 2 a draw, 3 none (unfinished). */

typedef struct {
    int32_t *pairs;  /* (move, play) pairs of every game played, game after game (malloc'd) */
    size_t used, cap;
} ggn_moves;

/* Play ``games`` games from ``position`` (ggn_position_size values), game i (0-based) with its
 * generator at the (first + i)-th output of a splitmix64 started at ``seed``. For each game,
 * three values go to out: winner, ending, length (plies). ``rule50`` is the start's halfmove
 * clock; ``counters``, the start's other counters (four values, 0 to GGN_PLAYOUT_MAX_COUNTER):
 * the checks each player has left to give (read where the tables count checks), the counting
 * rules' limit and the count's ply (both in plies, 0 and 0 where no count is under way; read
 * where the tables have the counting rules); NULL where they have neither. With ``moves`` not NULL, every game's plays are appended to it (free its pairs with
 * free()). On failure a message of at most errlen bytes goes to err. */
int ggn_playout(const ggn_game *game, const int32_t *tables, size_t tables_len, const int32_t *position,
                size_t len, uint64_t seed, uint64_t first, size_t games, int policy, int32_t max_plies,
                int32_t rule50, const int32_t *counters, int32_t *out, ggn_moves *moves, char *err, size_t errlen);

/* The repetition key the playouts give ``position`` (ggn_position_size values) with the
 * start's ``counters`` (as ggn_playout's): two positions have one key where Game's keys are
 * equal (docs/DECISIONS.md, "Playouts"), and, but for a 64-bit collision, only there. */
int ggn_playout_key(const ggn_game *game, const int32_t *tables, size_t tables_len, const int32_t *position,
                    size_t len, const int32_t *counters, uint64_t *key, char *err, size_t errlen);

#endif
