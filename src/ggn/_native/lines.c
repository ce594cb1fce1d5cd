/* Batch listing (ggn.batch.legal): a position's legal plays in the order the pure path lists
 * them, and, below, a reader of FEN lines into the kernel's positions.
 *
 * The pure path (RuleSystem.legal_moves) lists the moves of each square holding a piece of
 * the side to move, squares ascending, then those of each piece in the mover's hand, in the
 * hand's order, each (piece, source) in the order its compiled generator adds them
 * (ggn.compiled), each move's plays in the rule system's order. ggn.rules._lines works out
 * that generator order as a rank per move of the tables; here plays are sorted by (source,
 * rank, play number), a drop's source being its piece's place in the hand after every square.
 */
#include "lines.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int64_t key; size_t at; } keyed_t;

int ggn_order_plays(const ggn_game *g, int32_t *pairs, size_t count, const int32_t *rank, size_t nrank,
                    const int32_t *hand_order, size_t nkinds, int32_t *missing) {
    if (!g || (count && !pairs) || !missing) return GGN_EBADPOSITION;
    *missing = -1;
    if (count == 0) return GGN_OK;
    keyed_t small[256];
    int32_t stack[512];
    keyed_t *keys = count <= 256 ? small : malloc(count * sizeof(keyed_t));
    int32_t *copy = count <= 256 ? stack : malloc(2 * count * sizeof(int32_t));
    int rc = GGN_OK;
    if (!keys || !copy) { rc = GGN_ENOMEM; goto done; }
    int32_t squares = ggn_game_squares(g);
    for (size_t i = 0; i < count; i++) {
        int32_t move = pairs[2 * i], play = pairs[2 * i + 1], kind, source, destination;
        if (ggn_move_squares(g, move, &kind, &source, &destination) != GGN_OK || play < 0 || play >= (1 << 16)) {
            rc = GGN_EBADPOSITION;
            goto done;
        }
        if ((size_t)move >= nrank || rank[move] < 0 || rank[move] >= (1 << 24)) {
            *missing = move; /* the caller works out the rank of this move's group, and asks again */
            goto done;
        }
        int64_t where = source;
        if (source < 0) {
            if ((size_t)kind >= nkinds || hand_order[kind] < 0 || hand_order[kind] >= GGN_MAX_KINDS) {
                rc = GGN_EBADPOSITION;
                goto done;
            }
            where = (int64_t)squares + hand_order[kind];
        }
        keys[i].key = (where << 40) | ((int64_t)rank[move] << 16) | play; /* where < 2^13 */
        keys[i].at = i;
    }
    /* insertion sort: a position's plays come nearly in order (squares ascending already) */
    for (size_t i = 1; i < count; i++) {
        keyed_t item = keys[i];
        size_t j = i;
        while (j > 0 && (keys[j - 1].key > item.key || (keys[j - 1].key == item.key && keys[j - 1].at > item.at))) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = item;
    }
    memcpy(copy, pairs, 2 * count * sizeof(int32_t));
    for (size_t i = 0; i < count; i++) {
        pairs[2 * i] = copy[2 * keys[i].at];
        pairs[2 * i + 1] = copy[2 * keys[i].at + 1];
    }
done:
    if (keys && keys != small) free(keys);
    if (copy && copy != stack) free(copy);
    return rc;
}
