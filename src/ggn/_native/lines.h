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

/* Read a line of Fairy-Stockfish's FEN (``len`` bytes, not NUL-terminated) into a kernel position
 * (``plen`` values: 1 + N + 2K) and the mover's hand order (per kind: its place, -1 none), from
 * the table ggn.rules._lines makes (GFN1: its layout is written out there). 1: read; 0: a line
 * the reader is not sure of (an error, FEEN, a field it does not read), for the Python reader;
 * -1: a bad table. */
int ggn_read_fen(const int32_t *table, size_t tlen, const char *text, size_t len, int32_t *position,
                 size_t plen, int32_t *hand_order, size_t nkinds);

#endif
