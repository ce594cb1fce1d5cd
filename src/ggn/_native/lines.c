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

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int64_t key; int32_t move, play; } keyed_t;

static int keyed_cmp(const void *a, const void *b) {
    const keyed_t *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return 0;
}

/* Sort keyed plays (the keys are distinct: a source's moves have distinct ranks) and write
 * their pairs in that order. A position's plays come nearly in order (the kernel lists them
 * source by source, squares ascending): an insertion sort, but for many plays. */
static void put_sorted(keyed_t *keys, size_t count, int32_t *pairs) {
    if (count > 64) {
        qsort(keys, count, sizeof *keys, keyed_cmp);
    } else {
        for (size_t i = 1; i < count; i++) {
            keyed_t item = keys[i];
            size_t j = i;
            while (j > 0 && keys[j - 1].key > item.key) { keys[j] = keys[j - 1]; j--; }
            keys[j] = item;
        }
    }
    for (size_t i = 0; i < count; i++) {
        pairs[2 * i] = keys[i].move;
        pairs[2 * i + 1] = keys[i].play;
    }
}

/* The sort key of a play (see ggn_order_plays): 1, 0 where its move's rank is not known, -1 bad. */
static inline int play_key(int32_t source, int32_t kind, int32_t move, int32_t play, int32_t squares, const int32_t *rank,
                           size_t nrank, const int32_t *hand_order, size_t nkinds, int64_t *key) {
    if (play < 0 || play >= (1 << 16)) return -1;
    if ((size_t)move >= nrank || rank[move] < 0 || rank[move] >= (1 << 24)) return 0;
    int64_t where = source;
    if (source < 0) {
        if (kind < 0 || (size_t)kind >= nkinds || hand_order[kind] < 0 || hand_order[kind] >= GGN_MAX_KINDS) return -1;
        where = (int64_t)squares + hand_order[kind];
    }
    *key = (where << 40) | ((int64_t)rank[move] << 16) | play; /* where < 2^13 */
    return 1;
}

int ggn_order_plays(const ggn_game *g, int32_t *pairs, size_t count, const int32_t *rank, size_t nrank,
                    const int32_t *hand_order, size_t nkinds, int32_t *missing) {
    if (!g || (count && !pairs) || !missing) return GGN_EBADPOSITION;
    *missing = -1;
    if (count == 0) return GGN_OK;
    keyed_t small[256];
    keyed_t *keys = count <= 256 ? small : malloc(count * sizeof(keyed_t));
    if (!keys) return GGN_ENOMEM;
    int rc = GGN_OK;
    int32_t squares = ggn_game_squares(g);
    for (size_t i = 0; i < count; i++) {
        int32_t move = pairs[2 * i], play = pairs[2 * i + 1], kind, source, destination;
        if (ggn_move_squares(g, move, &kind, &source, &destination) != GGN_OK) { rc = GGN_EBADPOSITION; break; }
        int got = play_key(source, kind, move, play, squares, rank, nrank, hand_order, nkinds, &keys[i].key);
        if (got < 0) { rc = GGN_EBADPOSITION; break; }
        if (got == 0) { *missing = move; break; } /* the caller works out the rank of this move's group, and asks again */
        keys[i].move = move;
        keys[i].play = play;
    }
    if (rc == GGN_OK && *missing < 0) put_sorted(keys, count, pairs);
    if (keys != small) free(keys);
    return rc;
}

int ggn_moves_keyed(const ggn_game *g, ggn_move_key *moves, size_t nmoves, const int32_t *bases, size_t nbases) {
    if (!g || (nmoves && !moves) || !bases) return GGN_EBADPOSITION;
    for (size_t m = 0; m < nmoves; m++) {
        int32_t destination;
        if (m > INT32_MAX || ggn_move_squares(g, (int32_t)m, &moves[m].kind, &moves[m].source, &destination) != GGN_OK)
            return GGN_EBADPOSITION;
        moves[m].key = -1;
        moves[m].base = m + 1 < nbases ? bases[m] : 0;
        moves[m].end = m + 1 < nbases ? bases[m + 1] : 0;
        if (moves[m].end < moves[m].base || moves[m].base < 0) moves[m].base = moves[m].end = 0;
    }
    return GGN_OK;
}

int ggn_order_keyed(const ggn_game *g, ggn_move_key *moves, size_t nmoves, int32_t *pairs, size_t count,
                    const int32_t *rank, size_t nrank, const int32_t *hand_order, size_t nkinds, int32_t *missing) {
    if (!g || (nmoves && !moves) || (count && !pairs) || !missing) return GGN_EBADPOSITION;
    *missing = -1;
    if (count == 0) return GGN_OK;
    keyed_t small[256];
    keyed_t *keys = count <= 256 ? small : malloc(count * sizeof(keyed_t));
    if (!keys) return GGN_ENOMEM;
    int rc = GGN_OK;
    int32_t squares = ggn_game_squares(g);
    for (size_t i = 0; i < count; i++) {
        int32_t move = pairs[2 * i], play = pairs[2 * i + 1];
        if (move < 0 || (size_t)move >= nmoves) { rc = GGN_EBADPOSITION; break; }
        ggn_move_key *known = &moves[move];
        if (known->key >= 0 && play >= 0 && play < (1 << 16)) {
            keys[i].key = known->key | play;
        } else {
            int got = play_key(known->source, known->kind, move, play, squares, rank, nrank, hand_order, nkinds,
                               &keys[i].key);
            if (got < 0) { rc = GGN_EBADPOSITION; break; }
            if (got == 0) { *missing = move; break; } /* the caller works out its group's rank, and asks again */
            if (known->source >= 0) known->key = keys[i].key & ~(int64_t)0xFFFF; /* (a rank once known stays) */
        }
        keys[i].move = move;
        keys[i].play = play;
    }
    if (rc == GGN_OK && *missing < 0) put_sorted(keys, count, pairs);
    if (keys != small) free(keys);
    return rc;
}

/* --- FEN lines read in C ------------------------------------------------------------------------
 * A line of Fairy-Stockfish's FEN read into the kernel's position as ggn.variants.fen.to_feen
 * and then Position.from_feen read it: the same pieces with the same marks (castling rights
 * '+' on the king and its rook, the double step's '-'), the hands in FEEN's canonical order.
 * The reader is table-driven (ggn.rules._lines makes the table from the game's FEN letters and
 * the kernel's kinds) and answers only what it is sure of: any line it does not read exactly so
 * (an error, a FEEN line, a field it does not handle) is left to the Python reader, which
 * answers it or words its error. */

#define FEN_MAGIC 0x47464E31 /* "GFN1" */
#define FEN_HEAD 11
#define F_DROPS 1
#define F_CASTLING 2
#define F_960 4
#define L_PROMOTED 1
#define L_TILDE 2
#define L_DOUBLE 4
#define L_ROOK 8
#define L_CROSSED 16
#define L_KING 32

typedef struct {
    const int32_t *t;
    int32_t files, ranks, N, K, flags, crank, kfile, rook_k, rook_q;
    const int32_t *square, *kinds, *type, *lflags, *hand_rank;
    signed char *letter, *side, *state; /* per (file, rank): type letter (-1 empty), 0/1, 0 normal 1 '+' 2 '-' */
} fen_t;

static int fen_holds(const fen_t *f, int32_t file, int32_t rank, int side, int32_t bit) {
    if (file < 0 || file >= f->files || rank < 0 || rank >= f->ranks) return 0;
    size_t at = (size_t)rank * (size_t)f->files + (size_t)file;
    return f->letter[at] >= 0 && f->side[at] == side && (f->lflags[f->letter[at]] & bit);
}

static int is_counter(const char *s, size_t n) {
    if (n == 0) return 0;
    if (s[0] == '0') return n == 1;
    for (size_t i = 0; i < n; i++) if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

static int lower_of(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : (c >= 'a' && c <= 'z' ? c - 'a' : -1); }

/* The castling field (to_feen's _castling); 1 read, 0 not sure. */
static int fen_castling(fen_t *f, const char *s, size_t n) {
    if (n == 1 && s[0] == '-') return 1;
    if (!(f->flags & F_CASTLING)) { /* read and ignored: letters only */
        for (size_t i = 0; i < n; i++) if (lower_of(s[i]) < 0) return 0;
        return 1;
    }
    int32_t last = f->files - 1;
    int have_king[2] = {0, 0};
    int32_t king_file[2] = {-1, -1};
    int32_t seen[64][2];
    int nseen = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if ((unsigned char)ch >= 0x80) return 0;
        int side = (ch >= 'A' && ch <= 'Z') ? 0 : 1;
        int32_t rank = side == 0 ? f->crank : f->ranks - 1 - f->crank;
        char upper = (ch >= 'a' && ch <= 'z') ? (char)(ch - 32) : ch;
        int32_t file = -1;
        if (upper == 'K' || upper == 'Q') {
            int32_t outer = upper == 'K' ? f->rook_k : f->rook_q;
            if (outer < 0) outer = last;
            if (upper == 'K') {
                for (int32_t g = outer < last ? outer : last; g >= 0; g--)
                    if (fen_holds(f, g, rank, side, L_ROOK)) { file = g; break; }
            } else {
                for (int32_t g = outer; g <= last; g++)
                    if (fen_holds(f, g, rank, side, L_ROOK)) { file = g; break; }
            }
            if (file < 0) return 0;
        } else if (upper >= 'A' && upper <= 'A' + last) {
            file = upper - 'A';
        } else {
            return 0;
        }
        if (!have_king[side]) {
            int32_t on_rank = -1, count = 0;
            for (int32_t g = 0; g < f->files; g++)
                if (fen_holds(f, g, rank, side, L_KING)) { if (on_rank < 0) on_rank = g; count++; }
            int32_t king;
            if ((f->flags & F_960) && fen_holds(f, file, rank, side, L_KING)) king = file;
            else if (count && (count == 1 || (f->flags & F_960))) king = on_rank;
            else king = f->kfile;
            king_file[side] = fen_holds(f, king, rank, side, L_KING) ? king : -1;
            have_king[side] = 1;
        }
        int32_t king = king_file[side];
        if (king == file && (f->flags & F_960)) continue;
        if (king < 0) return 0;
        if (!fen_holds(f, file, rank, side, L_ROOK)) return 0;
        for (int k = 0; k < nseen; k++) if (seen[k][0] == side && seen[k][1] == file) return 0;
        if (nseen >= 64) return 0;
        seen[nseen][0] = side;
        seen[nseen][1] = file;
        nseen++;
        f->state[(size_t)rank * (size_t)f->files + (size_t)king] = 1;
        f->state[(size_t)rank * (size_t)f->files + (size_t)file] = 1;
    }
    return 1;
}

/* The piece of the mover that may have made a double step, at (file, rank): its index, or -1. */
static long fen_mine(const fen_t *f, int32_t file, int32_t rank, int mover) {
    if (file < 0 || file >= f->files || rank < 0 || rank >= f->ranks) return -1;
    size_t at = (size_t)rank * (size_t)f->files + (size_t)file;
    if (f->letter[at] < 0 || f->side[at] != mover || !(f->lflags[f->letter[at]] & L_DOUBLE) || f->state[at] == 1)
        return -1;
    return (long)at;
}

/* The en passant field (to_feen's _en_passant); 1 read, 0 not sure. */
static int fen_en_passant(fen_t *f, const char *s, size_t n, int active) {
    if (n == 1 && s[0] == '-') return 1;
    int digits = n > 0;
    for (size_t i = 0; i < n; i++) if (s[i] < '0' || s[i] > '9') digits = 0;
    if (digits) return 1;
    int mover = 1 - active, forward = mover == 0 ? 1 : -1;
    int32_t squares[64][2];
    int count = 0;
    size_t i = 0;
    while (i < n) {
        if (s[i] < 'a' || s[i] > 'z') return 0;
        int32_t file = s[i] - 'a';
        size_t j = i + 1;
        while (j < n && s[j] >= '0' && s[j] <= '9') j++;
        size_t len = j - i - 1;
        if (len == 0 || len > 2 || s[i + 1] == '0') return 0;
        int32_t rank = 0;
        for (size_t k = i + 1; k < j; k++) rank = rank * 10 + (s[k] - '0');
        if (rank < 1 || rank > f->ranks || file >= f->files) return 0;
        rank -= 1;
        for (int k = 0; k < count; k++) if (squares[k][0] == file && squares[k][1] == rank) return 0;
        if (count >= 64) return 0;
        squares[count][0] = file;
        squares[count][1] = rank;
        count++;
        i = j;
    }
    for (int k = 0; k < count; k++) {
        long at = fen_mine(f, squares[k][0], squares[k][1], mover);
        if (at >= 0) {
            if (f->lflags[f->letter[at]] & L_CROSSED) return 0;
            f->state[at] = 2;
            return 1;
        }
    }
    static const int steps[4][2] = {{0, 1}, {0, 2}, {-1, 1}, {1, 1}};
    for (int k = 0; k < count; k++) {
        long beyond = -1;
        for (int st = 0; st < 4; st++) {
            int32_t file = squares[k][0] + steps[st][0], rank = squares[k][1] + steps[st][1] * forward;
            beyond = fen_mine(f, file, rank, mover);
            if (beyond >= 0) break;
            if (st == 0 && file >= 0 && file < f->files && rank >= 0 && rank < f->ranks &&
                f->letter[(size_t)rank * (size_t)f->files + (size_t)file] >= 0) break;
        }
        if (beyond < 0) return 0;
        if (f->lflags[f->letter[beyond]] & L_CROSSED) return 0;
        f->state[beyond] = 2;
    }
    return 1;
}

/* The table read into f (its values checked; f points into it): 1, or 0 for a bad table. */
static int fen_table(fen_t *f, const int32_t *table, size_t tlen) {
    if (!table || tlen < FEN_HEAD || table[0] != FEN_MAGIC) return 0;
    f->t = table;
    f->files = table[1]; f->ranks = table[2]; f->N = table[3]; f->K = table[4]; f->flags = table[5];
    f->crank = table[6]; f->kfile = table[7]; f->rook_k = table[8]; f->rook_q = table[9];
    if (f->files < 1 || f->ranks < 1 || f->files > 26 || (int64_t)f->files * f->ranks > GGN_MAX_SQUARES ||
        f->N < 1 || f->N > GGN_MAX_SQUARES || f->K < 2 || f->K > GGN_MAX_KINDS) return 0;
    size_t area = (size_t)f->files * (size_t)f->ranks;
    size_t need = FEN_HEAD + area + 26 * 6 + 26 + 26 + (size_t)f->K;
    if (tlen != need) return 0;
    if (f->crank < 0 || f->crank >= f->ranks || f->kfile < 0 || f->kfile >= f->files ||
        f->rook_k >= f->files || f->rook_q >= f->files) return 0;
    f->square = table + FEN_HEAD;
    f->kinds = f->square + area;
    f->type = f->kinds + 26 * 6;
    f->lflags = f->type + 26;
    f->hand_rank = f->lflags + 26;
    for (size_t q = 0; q < area; q++) if (f->square[q] < 0 || f->square[q] >= f->N) return 0;
    for (int k = 0; k < 26 * 6; k++) if (f->kinds[k] < -1 || f->kinds[k] >= f->K) return 0;
    for (int k = 0; k < 26; k++) if (f->type[k] < -1 || f->type[k] >= 26) return 0;
    for (int32_t k = 0; k < f->K; k++) if (f->hand_rank[k] < 0 || f->hand_rank[k] >= f->K) return 0;
    return 1;
}

struct ggn_fen {
    fen_t f;
    int32_t *table; /* the reader's own copy */
};

ggn_fen *ggn_fen_new(const int32_t *table, size_t tlen) {
    if (!table || tlen == 0 || tlen > ((size_t)1 << 24)) return NULL;
    ggn_fen *made = calloc(1, sizeof *made);
    if (!made) return NULL;
    made->table = malloc(tlen * sizeof(int32_t));
    if (!made->table) { free(made); return NULL; }
    memcpy(made->table, table, tlen * sizeof(int32_t));
    if (!fen_table(&made->f, made->table, tlen)) { ggn_fen_free(made); return NULL; }
    return made;
}

void ggn_fen_free(ggn_fen *fen) {
    if (!fen) return;
    free(fen->table);
    free(fen);
}

static int fen_line(fen_t *f, const char *text, size_t len, int32_t *position, size_t plen, int32_t *hand_order);

int ggn_fen_read(const ggn_fen *fen, const char *text, size_t len, int32_t *position, size_t plen,
                 int32_t *hand_order, size_t nkinds) {
    if (!fen || !text || !position || !hand_order) return -1;
    fen_t f = fen->f;
    if (plen != 1 + (size_t)f.N + 2 * (size_t)f.K || nkinds != (size_t)f.K) return -1;
    return fen_line(&f, text, len, position, plen, hand_order);
}

int ggn_read_fen(const int32_t *table, size_t tlen, const char *text, size_t len, int32_t *position,
                 size_t plen, int32_t *hand_order, size_t nkinds) {
    fen_t f;
    if (!text || !position || !hand_order || !fen_table(&f, table, tlen)) return -1;
    if (plen != 1 + (size_t)f.N + 2 * (size_t)f.K || nkinds != (size_t)f.K) return -1;
    return fen_line(&f, text, len, position, plen, hand_order);
}

/* A line read with a checked table (see ggn_read_fen). */
static int fen_line(fen_t *f, const char *text, size_t len, int32_t *position, size_t plen, int32_t *hand_order) {
    size_t area = (size_t)f->files * (size_t)f->ranks;
    /* the FEEN shape: exactly two spaces and a last field of two letters around '/' (Python reads it) */
    /* fields: split on single spaces, at most 7 (the rest one field more: an error); the
     * spaces counted for the FEEN shape (exactly two, and a last field of two letters around
     * '/': Python reads it) */
    /* not ASCII, or a control, anywhere: the Python reader words it. Eight bytes at a time: a
     * byte of 0x80 or more has its high bit set, and one below 0x20 (the bytes below it all
     * 0x20 or more, so that nothing is borrowed from it) has it set in the byte's difference
     * with 0x20; a borrow from a byte below 0x20 reaches only bytes above one found anyway */
    size_t at = 0;
    uint64_t high = 0;
    for (; at + 8 <= len; at += 8) {
        uint64_t w;
        memcpy(&w, text + at, 8);
        high |= (w - 0x2020202020202020ULL) | w;
    }
    if (high & 0x8080808080808080ULL) return 0;
    for (; at < len; at++) {
        unsigned char c = (unsigned char)text[at];
        if (c >= 0x80 || c < 0x20) return 0;
    }
    const char *field[7];
    size_t flen[7];
    int nfields = 0;
    size_t spaces = 0, last_space = 0;
    const char *start = text, *scan = text, *end = text + len;
    for (;;) {
        const char *space = memchr(scan, ' ', (size_t)(end - scan));
        if (!space) break;
        spaces++;
        last_space = (size_t)(space - text);
        if (nfields < 6) {
            field[nfields] = start;
            flen[nfields] = (size_t)(space - start);
            nfields++;
            start = space + 1;
        }
        scan = space + 1;
    }
    field[nfields] = start;
    flen[nfields] = (size_t)(end - start);
    nfields++;
    if (spaces == 2 && len - last_space - 1 == 3 && lower_of(text[last_space + 1]) >= 0 &&
        text[last_space + 2] == '/' && lower_of(text[last_space + 3]) >= 0) return 0;
    if (flen[0] == 0 || (nfields >= 2 && flen[1] == 0)) return 0;
    signed char scratch[3 * GGN_MAX_SQUARES];
    f->letter = scratch; f->side = scratch + area; f->state = scratch + 2 * area;
    memset(f->letter, -1, area); /* (side and state are set where a letter is, and read only there) */
    /* the placement, with the hands in brackets */
    const char *place = field[0];
    size_t plen0 = flen[0];
    const char *hand = NULL;
    size_t hlen = 0;
    const char *bracket = memchr(place, '[', plen0);
    if (bracket) { /* the hands, to a last ']' (any other bracket is no letter: refused as read) */
        size_t i = (size_t)(bracket - place);
        if (place[plen0 - 1] != ']' || i + 1 > plen0 - 1) return 0;
        hand = place + i + 1;
        hlen = plen0 - 1 - (i + 1);
        plen0 = i;
    }
    int32_t occupied[GGN_MAX_SQUARES];
    size_t noccupied = 0;
    /* (exactly f->ranks ranks: a '/' after the last one, or too few, is refused; lichess's
     * hands as one more rank are the Python reader's) */
    int32_t rank = f->ranks - 1, file = 0;
    for (size_t i = 0; i <= plen0; i++) {
        if (i == plen0 || place[i] == '/') {
            if (file != f->files || (i < plen0 && rank == 0)) return 0;
            rank--;
            file = 0;
            continue;
        }
        char c = place[i];
        if (c >= '0' && c <= '9') {
            size_t j = i;
            int32_t count = 0;
            while (j < plen0 && place[j] >= '0' && place[j] <= '9') { count = count * 10 + (place[j] - '0'); j++; if (j - i > 3) return 0; }
            if (c == '0' || count > f->files) return 0;
            file += count;
            i = j - 1;
            continue;
        }
        int plus = 0;
        if (c == '+') {
            plus = 1;
            if (i + 1 >= plen0) return 0;
            c = place[++i];
        }
        int letter = lower_of(c);
        if (letter < 0) return 0; /* '*' (holes, walls) and anything else: Python */
        int tilde = i + 1 < plen0 && place[i + 1] == '~';
        if (tilde) i++;
        if (file >= f->files) return 0;
        int type = f->type[letter];
        if (type < 0) return 0;
        size_t sq = (size_t)rank * (size_t)f->files + (size_t)file;
        file++;
        f->letter[sq] = (signed char)type;
        f->side[sq] = (signed char)(c >= 'a' ? 1 : 0);
        f->state[sq] = 0;
        occupied[noccupied++] = (int32_t)sq; /* (each square once: file only grows along a rank) */
        if (plus) {
            if (tilde || !(f->lflags[type] & L_PROMOTED)) return 0;
            f->state[sq] = 1;
        } else if (tilde && (f->lflags[type] & L_TILDE)) {
            f->state[sq] = 2;
        }
    }
    if (rank != -1) return 0;
    int32_t held[2][26];
    int any_held = 0;
    if (hand && hlen) {
        memset(held, 0, sizeof held);
        if (!(f->flags & F_DROPS)) return 0;
        if (!(hlen == 1 && hand[0] == '-')) {
            for (size_t i = 0; i < hlen; i++) {
                int letter = lower_of(hand[i]);
                if (letter < 0 || f->type[letter] < 0) return 0;
                if (++held[hand[i] >= 'a' ? 1 : 0][f->type[letter]] > (1 << 20)) return 0;
                any_held = 1;
            }
        }
    }
    int active = 0;
    if (nfields >= 2) {
        if (flen[1] != 1 || (field[1][0] != 'w' && field[1][0] != 'b')) return 0;
        active = field[1][0] == 'b';
    }
    int number = 2;
    if (number < nfields && flen[number] && !(field[number][0] >= '0' && field[number][0] <= '9')) {
        if (!fen_castling(f, field[number], flen[number])) return 0;
        number++;
        if (number >= nfields) return 0;
        if (!fen_en_passant(f, field[number], flen[number], active)) return 0;
        number++;
    }
    if (number < nfields) for (size_t i = 0; i < flen[number]; i++) if (field[number][i] == '+') return 0;
    for (int c = number; c < nfields; c++) {
        if (c >= number + 2) return 0;
        if (!is_counter(field[c], flen[c])) return 0;
    }
    /* the position: every piece a kind of the tables */
    memset(position, 0, plen * sizeof(int32_t));
    position[0] = active;
    int64_t pieces = (int64_t)noccupied;
    for (size_t i = 0; i < noccupied; i++) {
        int32_t q = occupied[i];
        int32_t kind = f->kinds[(f->letter[q] * 2 + f->side[q]) * 3 + f->state[q]];
        if (kind <= 0) return 0;
        position[1 + f->square[q]] = kind;
    }
    for (int s = 0; s < 2 && any_held; s++) {
        for (int letter = 0; letter < 26; letter++) {
            if (!held[s][letter]) continue;
            int32_t kind = f->kinds[(letter * 2 + s) * 3];
            if (kind <= 0) return 0;
            position[1 + f->N + s * f->K + kind] += held[s][letter];
            pieces += held[s][letter];
        }
    }
    if (pieces > (int64_t)area) return 0;
    /* the hand's order: count descending, then FEEN's order of the pieces (hand_rank) */
    const int32_t *mine = position + 1 + f->N + (size_t)active * (size_t)f->K;
    if (!any_held) { /* no hands: every kind out of the mover's (-1) */
        memset(hand_order, 0xFF, (size_t)f->K * sizeof(int32_t));
        return 1;
    }
    for (int32_t k = 0; k < f->K; k++) {
        if (!mine[k]) { hand_order[k] = -1; continue; }
        int32_t place = 0;
        for (int32_t o = 0; o < f->K; o++) {
            if (!mine[o] || o == k) continue;
            if (mine[o] > mine[k] || (mine[o] == mine[k] && f->hand_rank[o] < f->hand_rank[k])) place++;
        }
        hand_order[k] = place;
    }
    return 1;
}
