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

#endif
