/* Batch listing of legal moves (lines.c): the pure path's order, and FEN lines read in C. */
#ifndef GGN_LINES_H
#define GGN_LINES_H

#include "kernel.h"

/* Sort ``count`` (move, play) pairs of one position into the pure path's order: by source
 * (a square; a drop: the number of squares plus hand_order[kind], its piece's place in the
 * mover's hand), then rank[move], then play number. A move whose rank is unknown (below 0, or
 * past nrank) leaves the pairs as they were and is named in *missing (else -1). */
int ggn_order_plays(const ggn_game *game, int32_t *pairs, size_t count, const int32_t *rank, size_t nrank,
                    const int32_t *hand_order, size_t nkinds, int32_t *missing);

/* What ordering and writing a move's plays need, kept per move by a reader of many positions:
 * its kind and source (ggn_move_squares'), its sort key but the play number once its rank is
 * known (-1 before; a drop's depends on the hand and is not kept), the range of its strings
 * (bases[move] to bases[move + 1]). */
typedef struct { int64_t key; int32_t kind, source, base, end; } ggn_move_key;

/* Fill moves[0..nmoves) (the game's moves) with bases (nbases values, the last one past the
 * last move's strings). */
int ggn_moves_keyed(const ggn_game *game, ggn_move_key *moves, size_t nmoves, const int32_t *bases, size_t nbases);

/* ggn_order_plays with the moves keyed (the keys found kept in them: a rank, once known, must
 * not change). */
int ggn_order_keyed(const ggn_game *game, ggn_move_key *moves, size_t nmoves, int32_t *pairs, size_t count,
                    const int32_t *rank, size_t nrank, const int32_t *hand_order, size_t nkinds, int32_t *missing);

/* Read a line of Fairy-Stockfish's FEN (``len`` bytes, not NUL-terminated) into a kernel position
 * (``plen`` values: 1 + N + 2K) and the mover's hand order (per kind: its place, -1 none), from
 * the table ggn.rules._lines makes (GFN1: its layout is written out there). 1: read; 0: a line
 * the reader is not sure of (an error, FEEN, a field it does not read), for the Python reader;
 * -1: a bad table. */
int ggn_read_fen(const int32_t *table, size_t tlen, const char *text, size_t len, int32_t *position,
                 size_t plen, int32_t *hand_order, size_t nkinds);

/* A FEN reader's table checked once (a copy of it kept), for many lines: NULL for a bad table
 * (or no memory). ggn_fen_read reads a line as ggn_read_fen does. */
typedef struct ggn_fen ggn_fen;
ggn_fen *ggn_fen_new(const int32_t *table, size_t tlen);
void ggn_fen_free(ggn_fen *fen);
int ggn_fen_read(const ggn_fen *fen, const char *text, size_t len, int32_t *position, size_t plen,
                 int32_t *hand_order, size_t nkinds);

#endif
