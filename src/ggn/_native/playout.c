/* ggn's native playouts (see playout.h; the contract is docs/DECISIONS.md, "Playouts").
 *
 * Each game is played on one kernel search (kernel.h), ply after ply: the candidates listed
 * (where each play is legal alone, ggn_plays_alone: the pseudo-legal plays; else the legal
 * plays), in the canonical order (source, the hand after the squares; destination; the dropped
 * piece's rank by its QPI text; the play's number), the policy's captures first; a draw of the
 * game's splitmix64 picking one, a pseudo-legal play tested (its move tried alone) and, if
 * illegal, struck and drawn again; the play made in place. Before each ply the game ends
 * as ggn.game.Game ends it, in its order: the last check given where checks are counted, an
 * extinction or a flag region reached, no legal move (checkmate, or the stalemate's value),
 * then the n-move rule (the halfmove clock: a capture, a drop, a promotion or an irreversible
 * move of a type of the rule starts it again), then an n-fold repetition (a 64-bit Zobrist key
 * of what Game's key compares: each square's piece as FEN writes it for the key, the castling
 * rights, the hands where the game has drops, the checks left where counted, the side to move
 * and the en passant files where a pawn could take; with perpetual checks lost), then the end
 * of a count of the counting rules (makruk's, cambodian's, asean's), then max_plies; a draw
 * goes to the side material names where the game counts it (armageddon's odds). Whatever
 * else a game's ends need, ggn.rules._native keeps to the pure path: it never makes tables for
 * such a game.
 */
#include "playout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAMMA 0x9E3779B97F4A7C15ULL
#define ZOBRIST_TABLE_MAX ((size_t)1 << 20)

/* The counting rules (ptab_t's counting), and the types they count (ptab_t's ctype). */
enum { COUNT_NONE, COUNT_MAKRUK, COUNT_CAMBODIAN, COUNT_ASEAN };
enum { CT_OTHER, CT_PAWN, CT_ROOK, CT_KHON, CT_KNIGHT };
/* How a draw is decided by material (materialCounting; ptab_t's material, the kinds' weight). */
enum { MATERIAL_NONE, MATERIAL_WHITE_ODDS, MATERIAL_BLACK_ODDS, MATERIAL_JANGGI, MATERIAL_UNWEIGHTED };
/* A kind's part in the castling rights of a game of gating rights (ptab_t's role). */
enum { ROLE_NONE, ROLE_KING, ROLE_ROOK };

typedef struct {
    int32_t N, K, M;
    int32_t mate, stale, piece_count, nmove, nfold, nfold_value, nfold_absolute, perpetual, whole, hands, demotion;
    int32_t bare; /* the extinction type whose end is a bare king's (its number), or -1 */
    int32_t checks; /* checks are counted (checkCounting): each player's left, in the key too */
    int32_t counting; /* the counting rules (countingRule): COUNT_MAKRUK, _CAMBODIAN, _ASEAN, or 0 */
    int32_t material; /* a draw decided by material (materialCounting): MATERIAL_..., or 0 */
    int32_t sittuyin; /* sittuyin's stalemate: a player with a king and a pawn left may claim a draw */
    int32_t gating; /* gating rights: the castling rights keyed from the marked kings and rooks (key_extra) */
    int32_t *side, *cls, *rank, *ep, *taker, *pin, *enhanced, *ctype, *weight, *spawn, *role, *alt; /* per kind */
    int32_t *stay_reset, *mkind, *mdst, *msittuyin;            /* per move */
    int32_t E;
    int32_t *always;                          /* per entry */
    int32_t *epoff;                           /* per entry, per square: where its ways start in epways */
    int32_t *epways;                          /* the ways, as read (ep_files) */
    uint64_t *mkey;                           /* per move: its canonical key, but the play's number */
    int32_t nclasses;
    int32_t alone;                            /* the game's plays are each legal alone: drawn among the pseudo-legal */
    int32_t ends;                             /* the game may end before the last move (ggn_game_ends) */
    uint64_t *zob;                            /* per class, per square (NULL: computed) */
} ptab_t;

static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t splitmix(uint64_t *state) {
    *state += GAMMA;
    return mix(*state);
}

static void ptab_free(ptab_t *t) {
    free(t->side); free(t->cls); free(t->rank); free(t->ep); free(t->taker); free(t->pin); free(t->enhanced); free(t->ctype); free(t->weight); free(t->spawn); free(t->role); free(t->alt);
    free(t->stay_reset); free(t->mkind); free(t->mdst); free(t->msittuyin); free(t->always); free(t->epoff); free(t->epways); free(t->mkey); free(t->zob);
}

typedef struct {
    const int32_t *p;
    size_t n, i;
    int bad;
    char *err;
    size_t errlen;
} preader_t;

static int32_t pread(preader_t *r, int32_t low, int32_t high, const char *what) {
    if (r->bad) return low;
    if (r->i >= r->n) {
        r->bad = 1;
        if (r->err && r->errlen) snprintf(r->err, r->errlen, "bad playout tables at value %zu: they end early", r->i);
        return low;
    }
    int32_t v = r->p[r->i++];
    if (v < low || v > high) {
        r->bad = 1;
        if (r->err && r->errlen) snprintf(r->err, r->errlen, "bad playout tables at value %zu: %s", r->i - 1, what);
        return low;
    }
    return v;
}

static int32_t *pints(size_t count) {
    return calloc(count ? count : 1, sizeof(int32_t));
}

static int ptab_read(ptab_t *t, const ggn_game *g, const int32_t *p, size_t n, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    preader_t r = {p, n, 0, 0, err, errlen};
    pread(&r, GGN_PLAYOUT_MAGIC, GGN_PLAYOUT_MAGIC, "not playout tables (magic)");
    int32_t N = ggn_game_squares(g), K = ggn_game_kinds(g);
    t->N = pread(&r, N, N, "the squares are not the game's");
    t->K = pread(&r, K, K, "the kinds are not the game's");
    t->M = pread(&r, 0, 1 << 28, "the moves' count");
    t->mate = pread(&r, -1, 1, "checkmate's value");
    t->stale = pread(&r, -1, 1, "stalemate's value");
    t->piece_count = pread(&r, 0, 1, "the stalemate piece count flag");
    t->nmove = pread(&r, 0, 1 << 30, "the n-move rule's plies");
    t->nfold = pread(&r, 0, 1 << 20, "the n-fold rule");
    t->nfold_value = pread(&r, -1, 1, "a repetition's value");
    t->nfold_absolute = pread(&r, 0, 1, "the absolute repetition flag");
    t->perpetual = pread(&r, 0, 1, "the perpetual check flag");
    t->whole = pread(&r, 0, 1, "the whole game's repetitions flag");
    t->hands = pread(&r, 0, 1, "the hands' flag");
    t->demotion = pread(&r, 0, 1, "the demotion flag");
    t->bare = pread(&r, -1, 63, "the bare king's extinction type");
    t->checks = pread(&r, 0, 1, "the checks counted flag");
    t->counting = pread(&r, COUNT_NONE, COUNT_ASEAN, "the counting rules");
    t->material = pread(&r, MATERIAL_NONE, MATERIAL_UNWEIGHTED, "the material counting");
    t->sittuyin = pread(&r, 0, 1, "sittuyin's stalemate flag");
    t->gating = pread(&r, 0, 1, "the gating flag");
    if (r.bad) return GGN_EBADTABLE;
    /* the moves: the tables' count is the game's */
    {
        int32_t kind, src, dst;
        if (t->M > 0 && ggn_move_squares(g, t->M - 1, &kind, &src, &dst) != GGN_OK) {
            if (err && errlen) snprintf(err, errlen, "bad playout tables: more moves than the game's");
            return GGN_EBADTABLE;
        }
        if (ggn_move_squares(g, t->M, &kind, &src, &dst) == GGN_OK) {
            if (err && errlen) snprintf(err, errlen, "bad playout tables: fewer moves than the game's");
            return GGN_EBADTABLE;
        }
    }
    t->side = pints((size_t)K); t->cls = pints((size_t)K); t->rank = pints((size_t)K);
    t->ep = pints((size_t)K); t->taker = pints((size_t)K); t->pin = pints((size_t)K); t->enhanced = pints((size_t)K);
    t->ctype = pints((size_t)K); t->weight = pints((size_t)K); t->spawn = pints((size_t)K);
    t->role = pints((size_t)K); t->alt = pints((size_t)K);
    t->stay_reset = pints((size_t)t->M); t->mkind = pints((size_t)t->M); t->mdst = pints((size_t)t->M);
    t->msittuyin = pints((size_t)t->M);
    t->mkey = calloc((size_t)t->M + 1, sizeof(uint64_t));
    if (!t->side || !t->cls || !t->rank || !t->ep || !t->taker || !t->pin || !t->enhanced || !t->ctype || !t->weight ||
        !t->spawn || !t->role || !t->alt || !t->msittuyin || !t->stay_reset ||
        !t->mkind || !t->mdst || !t->mkey)
        return GGN_ENOMEM;
    int32_t most = 0;
    for (int32_t k = 0; k < K; k++) {
        t->side[k] = pread(&r, 0, 1, "a kind's side");
        t->cls[k] = pread(&r, 0, 2 * K + 2, "a kind's key class");
        t->rank[k] = pread(&r, 0, K, "a kind's rank among dropped pieces");
        t->ep[k] = pread(&r, -1, K, "a kind's en passant entry");
        t->taker[k] = pread(&r, 0, 1, "a kind's taker flag");
        t->pin[k] = pread(&r, 0, K, "a kind's PIN letter");
        t->enhanced[k] = pread(&r, 0, 1, "a kind's enhanced flag");
        t->ctype[k] = pread(&r, 0, CT_KNIGHT, "a kind's type for the counting rules");
        t->weight[k] = pread(&r, 0, 1 << 10, "a kind's weight for the material counting");
        t->spawn[k] = pread(&r, 0, 1, "a kind's sittuyin pawn flag");
        t->role[k] = pread(&r, ROLE_NONE, ROLE_ROOK, "a kind's castling role");
        t->alt[k] = pread(&r, 0, 2 * K + 2, "a kind's plain key class");
        if (t->cls[k] > most) most = t->cls[k];
        if (t->alt[k] > most) most = t->alt[k];
    }
    if (!r.bad && (t->cls[0] != 0 || t->ep[0] != -1)) {
        r.bad = 1;
        if (err && errlen) snprintf(err, errlen, "bad playout tables: the empty square has a class");
    }
    t->nclasses = most + 1;
    t->alone = ggn_plays_alone(g);
    t->ends = ggn_game_ends(g);
    for (int32_t m = 0; m < t->M; m++) {
        t->stay_reset[m] = pread(&r, 0, 1, "a move's reset flag");
    }
    t->E = pread(&r, 0, K, "the en passant entries");
    if (r.bad) return GGN_EBADTABLE;
    for (int32_t k = 0; k < K && !r.bad; k++) {
        if (t->ep[k] >= t->E) {
            r.bad = 1;
            if (err && errlen) snprintf(err, errlen, "bad playout tables: an en passant entry out of range");
        }
    }
    if (r.bad) return GGN_EBADTABLE;
    t->always = pints((size_t)t->E);
    t->epoff = pints((size_t)t->E * (size_t)N);
    if (!t->always || !t->epoff) return GGN_ENOMEM;
    /* the ways are copied as read (each value checked): at most what is left of the tables */
    t->epways = pints(r.n > r.i ? r.n - r.i : 1);
    if (!t->epways) return GGN_ENOMEM;
    size_t w = 0;
    /* a value is kept only when read (never past what was read: the buffer's size) */
#define EP_KEEP(value) do { int32_t kept_ = (value); if (!r.bad) t->epways[w++] = kept_; } while (0)
    for (int32_t e = 0; e < t->E && !r.bad; e++) {
        t->always[e] = pread(&r, 0, 1, "an en passant entry's flag");
        for (int32_t q = 0; q < N && !r.bad; q++) {
            t->epoff[(size_t)e * (size_t)N + (size_t)q] = (int32_t)w;
            int32_t ways = pread(&r, 0, GGN_PLAYOUT_MAX_WAYS, "an en passant square's ways");
            EP_KEEP(ways);
            for (int32_t i = 0; i < ways && !r.bad; i++) {
                EP_KEEP(pread(&r, -1, N - 1, "a way's origin"));
                int32_t between = pread(&r, 0, N, "a way's squares between");
                EP_KEEP(between);
                for (int32_t j = 0; j < between && !r.bad; j++) EP_KEEP(pread(&r, 0, N - 1, "a square between"));
                int32_t files = pread(&r, 0, GGN_MAX_SQUARES, "a way's squares passed over");
                EP_KEEP(files);
                for (int32_t j = 0; j < files && !r.bad; j++) EP_KEEP(pread(&r, 0, 4095, "an en passant file"));
                EP_KEEP(pread(&r, -1, N - 1, "a taker's square"));
                EP_KEEP(pread(&r, -1, N - 1, "a taker's square"));
            }
        }
    }
#undef EP_KEEP
    if (!r.bad && r.i != r.n) {
        r.bad = 1;
        if (err && errlen) snprintf(err, errlen, "bad playout tables: values after their end");
    }
    if (r.bad) return GGN_EBADTABLE;
    /* the canonical keys: source (the hand after the squares), destination, dropped rank */
    for (int32_t m = 0; m < t->M; m++) {
        int32_t kind, src, dst;
        if (ggn_move_squares(g, m, &kind, &src, &dst) != GGN_OK) return GGN_EBADTABLE;
        t->mkind[m] = kind;
        t->mdst[m] = dst;
        int sittuyin = 0;
        if (ggn_move_sittuyin(g, m, &sittuyin) != GGN_OK) return GGN_EBADTABLE;
        t->msittuyin[m] = sittuyin;
        uint64_t s = src < 0 ? (uint64_t)N : (uint64_t)src;
        uint64_t rank = src < 0 ? (uint64_t)t->rank[kind] : 0;
        t->mkey[m] = (s << 48) | ((uint64_t)dst << 32) | (rank << 16);
    }
    if ((size_t)t->nclasses * (size_t)N <= ZOBRIST_TABLE_MAX) {
        t->zob = calloc((size_t)t->nclasses * (size_t)N, sizeof(uint64_t));
        if (!t->zob) return GGN_ENOMEM;
        for (size_t i = 0; i < (size_t)t->nclasses * (size_t)N; i++) t->zob[i] = mix(i * 0x2545F4914F6CDD1DULL + 0x1234567ULL);
    }
    return GGN_OK;
}

static inline uint64_t zsquare(const ptab_t *t, int32_t cls, int32_t q) {
    size_t i = (size_t)cls * (size_t)t->N + (size_t)q;
    return t->zob ? t->zob[i] : mix(i * 0x2545F4914F6CDD1DULL + 0x1234567ULL);
}

/* The en passant files a piece of en passant entry e standing on square q of b adds to the
 * key, ``side`` to move (the piece is the other side's, marked for its double step): the
 * first of the ways it may have come whose origin and squares between are empty is the way
 * it came; its squares passed over give their files, each flipping the key's (two squares of
 * one file cancel out, as in Game's key), when a pawn of the side to move could take en
 * passant over the first of them (or no pawn needs to). */
static uint64_t ep_files(const ptab_t *t, const int32_t *b, int32_t e, int32_t q, int side) {
    const int32_t *v = t->epways + t->epoff[(size_t)e * (size_t)t->N + (size_t)q];
    int32_t ways = *v++;
    for (int32_t i = 0; i < ways; i++) {
        int32_t origin = v[0], between = v[1];
        const int32_t *cells = v + 2, *files = v + 3 + between;
        int32_t nfiles = v[2 + between];
        const int32_t *takers = files + nfiles;
        v = takers + 2;
        int open = origin < 0 || !b[origin];
        for (int32_t j = 0; j < between && open; j++) open = !b[cells[j]];
        if (!open) continue;
        if (!nfiles) return 0;
        int takes = t->always[e];
        for (int j = 0; j < 2 && !takes; j++) {
            int32_t s = takers[j];
            if (s >= 0 && b[s] && t->taker[b[s]] && t->side[b[s]] == side) takes = 1;
        }
        if (!takes) return 0;
        uint64_t h = 0;
        for (int32_t j = 0; j < nfiles; j++) h ^= mix(0xE9A5ULL + (uint64_t)files[j]);
        return h;
    }
    return 0;
}

/* The key Game compares (see the head of this file), made whole: the key kept from ply to
 * ply (key_now) is checked against it in a build with GGN_PLAYOUT_CHECK_KEYS, and
 * ggn_playout_key gives it (with key_extra's parts). */
static uint64_t key_of(const ptab_t *t, const int32_t *b, const int32_t *hands) {
    int32_t N = t->N, K = t->K;
    int side = b[N] & 1;
    uint64_t h = side ? 0x6A09E667F3BCC908ULL : 0;
    for (int32_t q = 0; q < N; q++) {
        int32_t k = b[q];
        if (!k) continue;
        h ^= zsquare(t, t->cls[k], q);
        if (t->ep[k] >= 0 && t->side[k] != side) h ^= ep_files(t, b, t->ep[k], q, side);
    }
    if (t->hands && hands) {
        for (int32_t i = 0; i < 2 * K; i++) {
            int32_t c = hands[i];
            if (c) h ^= mix(((uint64_t)i << 32) + (uint64_t)(uint32_t)c + 0xC0FFEEULL * 0x100000001ULL);
        }
    }
    return h;
}

/* The parts of Game's key that are not a square's piece: the checks left where counted, and,
 * in a game of gating rights, the castling rights themselves. There a king and a rook keep
 * their marks for gating after castling is gone, and Game's key holds only the castling
 * letters (a right needs the king and that rook both marked): a marked king is keyed as its
 * plain kind (its class), and a marked castling rook as its plain kind (``alt``) while its
 * side has no marked castling king. */
static uint64_t key_extra(const ptab_t *t, const int32_t *b, const int32_t *left) {
    uint64_t h = 0;
    if (t->checks) h ^= mix(0xC4EC5ULL + ((uint64_t)(uint32_t)left[0] << 32 | (uint32_t)left[1]));
    if (t->gating) {
        int kings[2] = {0, 0};
        for (int32_t q = 0; q < t->N; q++) if (b[q] && t->role[b[q]] == ROLE_KING) kings[t->side[b[q]]] = 1;
        for (int32_t q = 0; q < t->N; q++) {
            int32_t k = b[q];
            if (k && t->role[k] == ROLE_ROOK && !kings[t->side[k]])
                h ^= zsquare(t, t->cls[k], q) ^ zsquare(t, t->alt[k], q);
        }
    }
    return h;
}

static inline uint64_t zpiece(const ptab_t *t, int32_t k, int32_t q) {
    return k ? zsquare(t, t->cls[k], q) : 0;
}

static inline uint64_t zhand(int32_t i, int32_t c) {
    return c ? mix(((uint64_t)i << 32) + (uint64_t)(uint32_t)c + 0xC0FFEEULL * 0x100000001ULL) : 0;
}

static int grow_moves(ggn_moves *mv, size_t more) {
    if (mv->used + more <= mv->cap) return 1;
    size_t want = mv->cap ? mv->cap : 1024;
    while (want < mv->used + more) want *= 2;
    if (want > ((size_t)1 << 34)) return 0;
    int32_t *bigger = realloc(mv->pairs, want * 2 * sizeof(int32_t));
    if (!bigger) return 0;
    mv->pairs = bigger;
    mv->cap = want;
    return 1;
}

typedef struct {
    uint64_t key;
    int32_t move, play;
} cand_t;

static int cand_cmp(const void *a, const void *b) {
    uint64_t x = ((const cand_t *)a)->key, y = ((const cand_t *)b)->key;
    return x < y ? -1 : x > y;
}

static void sort_cands(cand_t *c, size_t n) {
    if (n > 48) {
        qsort(c, n, sizeof *c, cand_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        cand_t v = c[i];
        size_t j = i;
        while (j > 0 && c[j - 1].key > v.key) { c[j] = c[j - 1]; j--; }
        c[j] = v;
    }
}

#define SOURCE_OF(key) ((key) >> 48)
#define UNLISTED SIZE_MAX /* a group whose candidates are not listed yet */
enum { GROUP_NEW, GROUP_SORTED, GROUP_MASKED, GROUP_SET }; /* a group's state (gsorted) */
#define MASK_WORDS 4 /* a group kept as a set of destinations: on boards of up to 256 squares */
#define TRIED_KEPT 16 /* the moves a ply keeps the tried plays of (more are tried again) */

/* The winner of a value for the player to move (1 win, 0 draw, -1 loss). */
static int32_t winner_of(int side, int32_t value) {
    if (value == 0) return 2;
    return value > 0 ? side : 1 - side;
}

typedef struct {
    ggn_search *s;
    const ptab_t *t;
    int bikjang; /* the game has janggi's bikjang (ggn_game_bikjang) */
    int32_t *list, *tlist;     /* from the kernel: a listing's pairs or triples, a try's pairs */
    size_t list_len, tlist_len; /* values */
    cand_t *cands, *spare;
    size_t cand_cap;
    /* The candidates' groups, in the canonical order (a source each, or one of all): group g
     * has gleft[g] candidates left, at cands + gat[g] once listed, sorted by the canonical key
     * once drawn from (gsorted[g] GROUP_SORTED). A group of the kernel's grouped pseudo listing
     * is UNLISTED until first drawn from: its moves are the kernel's kept moves gtrip[g] ..
     * gtrip[g + 1] - 1, then fetched as (move, plays) pairs to pairs + 2 * gtrip[g], and either
     * kept as the set of their destinations where each has one play and the destinations
     * differ (GROUP_MASKED, at gmask + MASK_WORDS * g: the canonical order within a source is
     * then the destinations'), or their plays listed at cands + cused and sorted. Where the
     * kernel knows the group as a set of destinations itself (ggn_search_pseudo_set), its
     * moves are not fetched: the set is kept so (GROUP_SET), and the drawn destination's move
     * asked (ggn_search_pseudo_onto). */
    size_t *gat, *gleft, *gtrip;
    uint8_t *gsorted;
    uint64_t *gmask;
    int32_t *pairs; /* the kernel's pseudo-legal moves as (move, plays) pairs, a group's when first drawn from */
    size_t pairs_len; /* values */
    size_t ngroups, cused;
    /* the moves whose plays were tried this ply, and their legal plays' numbers (a bit each,
     * below 64; ``all``: every legal play's number is in the mask) */
    struct { int32_t move, all; uint64_t legal; } tried[TRIED_KEPT];
    size_t ntried;
    uint64_t *keys;  /* per ply */
    uint8_t *checks; /* per ply */
    size_t hist_cap;
    /* the key kept from ply to ply (key_of's, made from what each make changed): the board's
     * part (each square's piece) and the hands', a copy of the board and hands they are of, and
     * the squares holding a piece with an en passant entry (where in eps: epat, 0 none) */
    uint64_t board_key, hand_key;
    int32_t *mirror, *hmirror, *eps, *epat;
    size_t neps;
    int32_t *before; /* the board before a make (the counting rules read what it took) */
} play_state_t;

static void ep_track(play_state_t *P, int32_t q, int32_t was, int32_t now) {
    const ptab_t *t = P->t;
    if (was && t->ep[was] >= 0 && P->epat[q]) {
        size_t at = (size_t)P->epat[q] - 1;
        int32_t last = P->eps[--P->neps];
        P->eps[at] = last;
        P->epat[last] = (int32_t)at + 1;
        P->epat[q] = 0;
    }
    if (now && t->ep[now] >= 0 && !P->epat[q]) {
        P->eps[P->neps++] = q;
        P->epat[q] = (int32_t)P->neps;
    }
}

/* The key of the loaded position, and the copies it is kept from. */
static void key_start(play_state_t *P, const int32_t *b, const int32_t *hands) {
    const ptab_t *t = P->t;
    P->board_key = 0;
    P->neps = 0;
    for (int32_t q = 0; q < t->N; q++) {
        P->epat[q] = 0;
        P->mirror[q] = b[q];
        P->board_key ^= zpiece(t, b[q], q);
        ep_track(P, q, 0, b[q]);
    }
    P->hand_key = 0;
    if (t->hands && hands) {
        for (int32_t i = 0; i < 2 * t->K; i++) {
            P->hmirror[i] = hands[i];
            P->hand_key ^= zhand(i, hands[i]);
        }
    }
}

/* The key after a make, from the squares and hand counts it changed. */
static int key_made(play_state_t *P, const int32_t *b, const int32_t *hands) {
    const ptab_t *t = P->t;
    const int32_t *squares, *counts;
    size_t nsquares, ncounts;
    int rc = ggn_search_changed(P->s, &squares, &nsquares, &counts, &ncounts);
    if (rc != GGN_OK) return rc;
    for (size_t i = 0; i < nsquares; i++) {
        int32_t q = squares[i];
        if (q < 0 || q >= t->N) return GGN_EBUSY;
        int32_t was = P->mirror[q], now = b[q];
        if (was == now) continue;
        P->board_key ^= zpiece(t, was, q) ^ zpiece(t, now, q);
        ep_track(P, q, was, now);
        P->mirror[q] = now;
    }
    if (t->hands && hands) {
        for (size_t i = 0; i < ncounts; i++) {
            int32_t at = counts[i];
            if (at < 0 || at >= 2 * t->K) return GGN_EBUSY;
            P->hand_key ^= zhand(at, P->hmirror[at]) ^ zhand(at, hands[at]);
            P->hmirror[at] = hands[at];
        }
    }
    return GGN_OK;
}

/* The key Game compares, as key_of makes it, from the parts kept. */
static uint64_t key_now(const play_state_t *P, const int32_t *b) {
    const ptab_t *t = P->t;
    int32_t N = t->N;
    int side = b[N] & 1;
    uint64_t h = (side ? 0x6A09E667F3BCC908ULL : 0) ^ P->board_key ^ P->hand_key;
    for (size_t i = 0; i < P->neps; i++) {
        int32_t q = P->eps[i], k = b[q];
        if (t->ep[k] >= 0 && t->side[k] != side) h ^= ep_files(t, b, t->ep[k], q, side);
    }
    return h;
}

static int ensure_history(play_state_t *P, size_t plies) {
    if (plies <= P->hist_cap) return GGN_OK;
    size_t want = P->hist_cap ? P->hist_cap : 1024;
    while (want < plies) want *= 2;
    uint64_t *keys = realloc(P->keys, want * sizeof(uint64_t));
    if (!keys) return GGN_ENOMEM;
    P->keys = keys;
    uint8_t *checks = realloc(P->checks, want);
    if (!checks) return GGN_ENOMEM;
    P->checks = checks;
    P->hist_cap = want;
    return GGN_OK;
}

typedef int (*lister_t)(ggn_search *, int32_t *, size_t, size_t *);

/* Room in a buffer of *len values for ``found`` items of ``width`` values (a listing said it
 * had more). */
static int grow_list(int32_t **list, size_t *len, size_t found, size_t width) {
    if (found > ((size_t)1 << 24)) return GGN_EBUSY;
    size_t want = *len * 2;
    while (want < found * width) want *= 2;
    int32_t *bigger = realloc(*list, want * sizeof(int32_t));
    if (!bigger) return GGN_ENOMEM;
    *list = bigger;
    *len = want;
    return GGN_OK;
}

/* A kernel listing (ggn_search_list, ggn_search_pseudo) into P->list, grown until its items
 * (``width`` values each) fit: how many in *found. */
static int list_into(play_state_t *P, lister_t list, size_t width, size_t *found) {
    for (;;) {
        int rc = list(P->s, P->list, P->list_len / width, found);
        if (rc != GGN_EOVERFLOW || (rc = grow_list(&P->list, &P->list_len, *found, width)) != GGN_OK) return rc;
    }
}

/* Room for n candidates (and as many spare, and as many groups), grown: room_for's. */
static int grow_room(play_state_t *P, size_t n) {
    if (n > ((size_t)1 << 24)) return GGN_EBUSY;
    if (n < 2 * P->cand_cap) n = 2 * P->cand_cap;
    cand_t *bigger = realloc(P->cands, n * sizeof(cand_t));
    if (!bigger) return GGN_ENOMEM;
    P->cands = bigger;
    bigger = realloc(P->spare, n * sizeof(cand_t));
    if (!bigger) return GGN_ENOMEM;
    P->spare = bigger;
    size_t **groups[3] = {&P->gat, &P->gleft, &P->gtrip};
    for (int i = 0; i < 3; i++) {
        size_t *more = realloc(*groups[i], (n + 1) * sizeof(size_t));
        if (!more) return GGN_ENOMEM;
        *groups[i] = more;
    }
    uint8_t *sorted = realloc(P->gsorted, n + 1);
    if (!sorted) return GGN_ENOMEM;
    P->gsorted = sorted;
    uint64_t *masks = realloc(P->gmask, (n + 1) * MASK_WORDS * sizeof(uint64_t));
    if (!masks) return GGN_ENOMEM;
    P->gmask = masks;
    P->cand_cap = n;
    return GGN_OK;
}

/* Room for n candidates (and as many spare, and as many groups). */
static inline int room_for(play_state_t *P, size_t n) {
    return n <= P->cand_cap ? GGN_OK : grow_room(P, n);
}

/* The legal plays of the search's position in the kernel's order, keyed by the canonical order:
 * how many (in P->cands). */
static int list_plays(play_state_t *P, size_t *count) {
    size_t found = 0;
    int rc = list_into(P, ggn_search_list, 2, &found);
    if (rc != GGN_OK) return rc;
    if ((rc = room_for(P, found)) != GGN_OK) return rc;
    const ptab_t *t = P->t;
    for (size_t i = 0; i < found; i++) {
        int32_t move = P->list[2 * i], play = P->list[2 * i + 1];
        if (move < 0 || move >= t->M || play < 0 || play > 0xFFFF) return GGN_EBUSY;
        P->cands[i] = (cand_t){t->mkey[move] | (uint64_t)play, move, play};
    }
    *count = found;
    return GGN_OK;
}

/* The pseudo-legal plays of the search's position (each play of each pseudo-legal move, legal
 * or not), how many in *count: with ``listed``, in P->cands in the kernel's order, keyed by
 * their source (their groups made by the caller); else only their groups made from the
 * kernel's (ggn_search_pseudo_groups: source by source, squares ascending, then the hand, the
 * canonical order's first key), each one's moves fetched when first drawn from. */
static int list_pseudo(play_state_t *P, int listed, size_t *count) {
    size_t found = 0;
    int rc = list_into(P, listed ? ggn_search_pseudo : ggn_search_pseudo_groups, 3, &found);
    if (rc != GGN_OK || (rc = room_for(P, found)) != GGN_OK) return rc;
    const ptab_t *t = P->t;
    size_t n = 0;
    if (listed) {
        for (size_t i = 0; i < found; i++) {
            const int32_t *q = P->list + 3 * i;
            int32_t move = q[0], np = q[1], source = q[2];
            if ((uint32_t)move >= (uint32_t)t->M || (uint32_t)np > 0xFFFF) return GGN_EBUSY;
            if (n + (size_t)np > P->cand_cap && (rc = room_for(P, n + (size_t)np)) != GGN_OK) return rc;
            cand_t *c = P->cands + n;
            uint64_t key = (uint64_t)source << 48;
            for (int32_t k = 0; k < np; k++) c[k] = (cand_t){key, move, k};
            n += (size_t)np;
        }
    } else { /* the kernel's groups, each its plays' count and its moves (kept: gtrip; room for
              * ``found`` groups made above) */
        size_t moves = 0;
        int32_t last = -1;
        for (size_t k = 0; k < found; k++) { /* (sources ascending, as the canonical order's) */
            const int32_t *q = P->list + 3 * k;
            if (q[0] <= last || q[0] > t->N || (uint32_t)q[1] > 0xFFFFFF || (uint32_t)q[2] > 0xFFFFFF) return GGN_EBUSY;
            last = q[0];
            P->gtrip[k] = moves;
            P->gleft[k] = (size_t)q[1];
            P->gat[k] = UNLISTED;
            P->gsorted[k] = GROUP_NEW;
            moves += (size_t)q[2];
            n += (size_t)q[1];
        }
        if (2 * moves > P->pairs_len && (rc = grow_list(&P->pairs, &P->pairs_len, moves, 2)) != GGN_OK) return rc;
        P->gtrip[found] = moves;
        P->ngroups = found;
        P->cused = 0;
        if ((rc = room_for(P, n)) != GGN_OK) return rc;
    }
    P->ntried = 0;
    *count = n;
    return GGN_OK;
}

/* Whether pseudo-legal play c is legal (its move's plays tried once a ply, where kept). */
static int is_legal(play_state_t *P, cand_t c, int *legal) {
    for (size_t i = 0; i < P->ntried; i++) {
        if (P->tried[i].move != c.move) continue;
        if (c.play < 64 && P->tried[i].all) {
            *legal = (int)(P->tried[i].legal >> c.play & 1);
            return GGN_OK;
        }
        break;
    }
    size_t found = 0;
    int rc;
    for (;;) { /* as list_into, with the move, into its own buffer (the listing's is kept) */
        rc = ggn_search_try(P->s, c.move, P->tlist, P->tlist_len / 2, &found);
        if (rc != GGN_EOVERFLOW || (rc = grow_list(&P->tlist, &P->tlist_len, found, 2)) != GGN_OK) break;
    }
    if (rc != GGN_OK) return rc;
    uint64_t mask = 0;
    int all = 1;
    *legal = 0;
    for (size_t j = 0; j < found; j++) {
        int32_t play = P->tlist[2 * j + 1];
        if (P->tlist[2 * j] != c.move) return GGN_EBUSY;
        if (play == c.play) *legal = 1;
        if (play >= 0 && play < 64) mask |= (uint64_t)1 << play;
        else all = 0;
    }
    if (P->ntried < TRIED_KEPT) {
        P->tried[P->ntried].move = c.move;
        P->tried[P->ntried].all = all;
        P->tried[P->ntried].legal = mask;
        P->ntried++;
    }
    return GGN_OK;
}


/* The groups of the candidates cands[base .. base + n), keyed by their source at least: a
 * source each, where they come so, sources ascending; else one group of all. None is sorted
 * yet. */
static void group(play_state_t *P, size_t base, size_t n) {
    const cand_t *c = P->cands + base;
    size_t g = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || SOURCE_OF(c[i].key) > SOURCE_OF(c[i - 1].key)) {
            P->gat[g++] = base + i;
        } else if (SOURCE_OF(c[i].key) < SOURCE_OF(c[i - 1].key)) {
            g = 1; /* not grouped: one group */
            break;
        }
    }
    if (g == 1) P->gat[0] = base;
    for (size_t k = 0; k < g; k++) {
        P->gleft[k] = (k + 1 < g ? P->gat[k + 1] : base + n) - P->gat[k];
        P->gsorted[k] = GROUP_NEW;
    }
    P->ngroups = g;
}

/* The group holding candidate ``index`` of the canonical order, and *at its place in it. */
static size_t group_of(const play_state_t *P, size_t index, size_t *at) {
    size_t g = 0;
    while (g + 1 < P->ngroups && index >= P->gleft[g]) index -= P->gleft[g++];
    *at = index;
    return g;
}

/* A pseudo listing's group g (one source) kept as the set of its destinations, where it can be
 * (each move one play, the destinations all different, on a board of up to 256 squares: the
 * canonical order is then the destinations'):
 * 1 if it is, 0 if it must be listed and sorted. */
static int mask_group(play_state_t *P, size_t g) {
    const ptab_t *t = P->t;
    if (t->N > 64 * MASK_WORDS) return 0;
    uint64_t *mask = P->gmask + MASK_WORDS * g;
    memset(mask, 0, MASK_WORDS * sizeof(uint64_t));
    for (size_t i = P->gtrip[g]; i < P->gtrip[g + 1]; i++) {
        const int32_t *q = P->pairs + 2 * i;
        if ((uint32_t)q[0] >= (uint32_t)t->M || q[1] != 1) return 0;
        int32_t d = t->mdst[q[0]];
        if ((uint32_t)d >= (uint32_t)t->N || (mask[d >> 6] >> (d & 63) & 1)) return 0;
        mask[d >> 6] |= (uint64_t)1 << (d & 63);
    }
    if (P->gtrip[g + 1] - P->gtrip[g] != P->gleft[g]) return 0;
    P->gsorted[g] = GROUP_MASKED;
    return 1;
}

/* The destination at place ``at`` (from 0, ascending) of a masked group's set (-1 past it). */
static int32_t masked_at(const uint64_t *mask, size_t at) {
    for (int w = 0; w < MASK_WORDS; w++) /* (a set holds one source's moves: few, stepped through) */
        for (uint64_t x = mask[w]; x; x &= x - 1)
            if (!at--) return (int32_t)(64 * w + ggn_lowest_bit(x));
    return -1;
}

/* A pseudo listing's group g kept as the kernel's set of its destinations, where the kernel
 * knows it so (ggn_search_pseudo_set; each move one play): 1 if it is, 0 if its moves must be
 * fetched; *rc an error. */
static int set_group(play_state_t *P, size_t g, int *rc) {
    const ptab_t *t = P->t;
    uint64_t *mask = P->gmask + MASK_WORDS * g;
    int is_set = 0;
    if ((*rc = ggn_search_pseudo_set(P->s, g, mask, MASK_WORDS, &is_set)) != GGN_OK || !is_set) return 0;
    size_t bits = 0;
    for (int w = 0; w < MASK_WORDS; w++) bits += (size_t)ggn_bit_count(mask[w]);
    /* (the set's squares on the board, one a move, one play each) */
    if (bits != P->gleft[g] || bits != P->gtrip[g + 1] - P->gtrip[g] || (t->N < 64 && mask[0] >> t->N)) {
        *rc = GGN_EBUSY;
        return 0;
    }
    P->gsorted[g] = GROUP_SET;
    return 1;
}

/* The candidate at ``index`` of the canonical order, in *chosen: its group listed (once) and
 * sorted (once), or kept as a set of destinations. */
static int pick_grouped(play_state_t *P, size_t index, cand_t *chosen) {
    size_t at, g = group_of(P, index, &at);
    const ptab_t *t = P->t;
    int rc = GGN_OK;
    if (P->gsorted[g] == GROUP_NEW && P->gat[g] == UNLISTED && !set_group(P, g, &rc)) {
        if (rc != GGN_OK) return rc;
        size_t first = P->gtrip[g], count = P->gtrip[g + 1] - first;
        if ((rc = ggn_search_pseudo_moves(P->s, first, count, P->pairs + 2 * first)) != GGN_OK) return rc;
    }
    if (P->gsorted[g] == GROUP_SET) { /* the kernel's move to the drawn destination */
        int32_t d = masked_at(P->gmask + MASK_WORDS * g, at), move = -1;
        if (d < 0) return GGN_EBUSY;
        if ((rc = ggn_search_pseudo_onto(P->s, g, d, &move)) != GGN_OK) return rc;
        if ((uint32_t)move >= (uint32_t)t->M || t->mdst[move] != d) return GGN_EBUSY;
        *chosen = (cand_t){t->mkey[move], move, 0};
        return GGN_OK;
    }
    if (P->gsorted[g] == GROUP_NEW && !(P->gat[g] == UNLISTED && mask_group(P, g))) {
        cand_t *c;
        size_t n = P->gleft[g];
        if (P->gat[g] == UNLISTED) { /* a pseudo listing's group: its kept moves' plays */
            c = P->cands + P->cused;
            size_t w = 0;
            for (size_t i = P->gtrip[g]; i < P->gtrip[g + 1]; i++) {
                const int32_t *q = P->pairs + 2 * i;
                int32_t move = q[0];
                if ((uint32_t)move >= (uint32_t)t->M || q[1] < 0 || (size_t)q[1] > n - w) return GGN_EBUSY;
                for (int32_t k = 0; k < q[1]; k++) c[w++] = (cand_t){t->mkey[move] | (uint64_t)k, move, k};
            }
            if (w != n) return GGN_EBUSY;
            P->gat[g] = P->cused;
            P->cused += w;
        } else {
            c = P->cands + P->gat[g];
            for (size_t i = 0; i < n; i++) c[i].key = t->mkey[c[i].move] | (uint64_t)c[i].play;
        }
        sort_cands(c, n);
        P->gsorted[g] = GROUP_SORTED;
    }
    if (P->gsorted[g] == GROUP_MASKED) { /* the group's kept move to that destination */
        int32_t d = masked_at(P->gmask + MASK_WORDS * g, at);
        for (size_t i = P->gtrip[g]; i < P->gtrip[g + 1]; i++) {
            int32_t move = P->pairs[2 * i];
            if (t->mdst[move] == d) {
                *chosen = (cand_t){t->mkey[move], move, 0};
                return GGN_OK;
            }
        }
        return GGN_EBUSY;
    }
    *chosen = P->cands[P->gat[g] + at];
    return GGN_OK;
}

/* Strike candidate ``index`` of the canonical order (drawn: its group listed, or masked). */
static void strike(play_state_t *P, size_t index) {
    size_t at, g = group_of(P, index, &at);
    if (P->gsorted[g] == GROUP_MASKED || P->gsorted[g] == GROUP_SET) {
        uint64_t *mask = P->gmask + MASK_WORDS * g;
        int32_t d = masked_at(mask, at); /* (drawn: in the set) */
        if (d >= 0) mask[d >> 6] &= ~((uint64_t)1 << (d & 63));
    } else {
        cand_t *c = P->cands + P->gat[g];
        memmove(c + at, c + at + 1, (P->gleft[g] - at - 1) * sizeof(cand_t));
    }
    P->gleft[g]--;
}

/* The captures of cands[0 .. n) moved first, each part in the kernel's order: how many. */
static int captures_first(play_state_t *P, size_t n, size_t *taking) {
    size_t w = 0, rest = 0;
    for (size_t i = 0; i < n; i++) {
        int captures = 0;
        int rc = ggn_search_captures(P->s, P->cands[i].move, P->cands[i].play, &captures);
        if (rc != GGN_OK) return rc;
        if (captures) P->cands[w++] = P->cands[i];
        else P->spare[rest++] = P->cands[i];
    }
    memcpy(P->cands + w, P->spare, rest * sizeof(cand_t));
    *taking = w;
    return GGN_OK;
}

/* Any other game: the play drawn among the legal ones (listed whole), once, in the canonical
 * order (the policy's captures if one is legal, else all); *got 0 when none is legal. */
static int draw_listed(play_state_t *P, uint64_t *state, int policy, int *got, cand_t *chosen) {
    size_t n = 0, from, taking = 0;
    int rc = list_plays(P, &n);
    if (rc != GGN_OK) return rc;
    *got = n > 0;
    if (!n) return GGN_OK;
    if (policy == GGN_POLICY_CAPTURES && (rc = captures_first(P, n, &taking)) != GGN_OK) return rc;
    from = taking ? taking : n;
    group(P, 0, from);
    uint64_t r = splitmix(state);
    return pick_grouped(P, (size_t)(((r >> 32) * (uint64_t)from) >> 32), chosen);
}

/* A game whose plays are each legal alone (ggn_plays_alone): the play drawn among the
 * pseudo-legal ones, each draw among the candidates left in the canonical order, an illegal
 * draw struck and drawn again (the policy's captures first, then every play left); *got 0
 * when no play is legal. */
static int draw_alone(play_state_t *P, uint64_t *state, int policy, int *got, cand_t *chosen) {
    size_t n = 0;
    int captures = policy == GGN_POLICY_CAPTURES;
    int rc = list_pseudo(P, captures, &n); /* the captures policy reads every play */
    if (rc != GGN_OK) return rc;
    /* the candidates: ``from`` left in the groups; with the captures policy, the captures
     * (cands[0 .. taking)) first, then the other plays (cands[taking .. n), never struck) */
    size_t from = n, taking = 0;
    if (captures && n) {
        if ((rc = captures_first(P, n, &taking)) != GGN_OK) return rc;
        if (taking) from = taking;
        group(P, 0, from);
    }
    for (;;) {
        if (!from) {
            if (!taking || taking == n) break;
            from = n - taking; /* no capture is legal: every play left */
            group(P, taking, from);
            taking = 0;
        }
        uint64_t r = splitmix(state);
        size_t index = (size_t)(((r >> 32) * (uint64_t)from) >> 32);
        cand_t c;
        int legal = 0;
        if ((rc = pick_grouped(P, index, &c)) != GGN_OK || (rc = is_legal(P, c, &legal)) != GGN_OK) return rc;
        if (legal) {
            *chosen = c;
            *got = 1;
            return GGN_OK;
        }
        strike(P, index);
        from--;
    }
    *got = 0;
    return GGN_OK;
}

/* What the counting rules count on a board: each side's pieces, all pieces, the pawns, and
 * each side's rooks, khons and knights (Game's _pieces and _count_type). */
typedef struct { int32_t pieces[2], total, pawns, rooks[2], khons[2], knights[2]; } census_t;

static void take_census(const ptab_t *t, const int32_t *b, census_t *c) {
    memset(c, 0, sizeof *c);
    for (int32_t q = 0; q < t->N; q++) {
        int32_t k = b[q];
        if (!k) continue;
        int s = t->side[k];
        c->pieces[s]++;
        c->total++;
        switch (t->ctype[k]) {
        case CT_PAWN: c->pawns++; break;
        case CT_ROOK: c->rooks[s]++; break;
        case CT_KHON: c->khons[s]++; break;
        case CT_KNIGHT: c->knights[s]++; break;
        default: break;
        }
    }
}

/* Fairy-Stockfish's count_limit (Game's _count_limit): the moves ``side`` counts to, 0 none. */
static int32_t count_limit(const census_t *c, int side, int32_t rule) {
    int other = 1 - side;
    int32_t own = c->pieces[side], theirs = c->pieces[other];
    int32_t rooks = c->rooks[other], khons = c->khons[other], knights = c->knights[other];
    if (rule == COUNT_MAKRUK) {
        if (c->pawns || theirs == 1) return 0;
        if (own > 1) return 64;
        return rooks > 1 ? 8 : rooks == 1 ? 16 : khons > 1 ? 22 : knights > 1 ? 32 : khons == 1 ? 44 : 64;
    }
    if (rule == COUNT_CAMBODIAN) {
        if (own > 3 || theirs == 1) return 0;
        if (own > 1) return 63;
        if (c->pawns) return 0;
        return rooks > 1 ? 7 : rooks == 1 ? 15 : khons > 1 ? 21 : knights > 1 ? 31 : khons == 1 ? 43 : 63;
    }
    if (c->pawns || own > 1) return 0;
    return rooks ? 16 : khons ? 44 : knights ? 64 : 0;
}

/* The counting rules' (limit, ply) after a play of ``mover`` (Game's _count, as Fairy-Stockfish's
 * do_move sets them): ``before`` the board before it, the search's board after it. */
static int count_after(play_state_t *P, const int32_t *before, const int32_t *b, int mover, int32_t move,
                       int flags, int32_t *limit, int32_t *counted) {
    const ptab_t *t = P->t;
    if (*limit && *counted < (1 << 30)) (*counted)++;
    const int32_t *squares, *counts;
    size_t nsquares, ncounts;
    int rc = ggn_search_changed(P->s, &squares, &nsquares, &counts, &ncounts);
    if (rc != GGN_OK) return rc;
    int32_t taken = -1; /* the type of the piece taken (CT_...), -1 none */
    for (size_t i = 0; i < nsquares && taken < 0; i++) {
        int32_t q = squares[i];
        if (q < 0 || q >= t->N) return GGN_EBUSY;
        int32_t was = before[q], now = b[q];
        if (was && t->side[was] != mover && (!now || t->side[now] == mover)) taken = t->ctype[was];
    }
    int promoted = (flags & GGN_PLAY_PROMOTION) && t->pin[b[t->mdst[move]]] != t->pin[t->mkind[move]];
    census_t c;
    take_census(t, b, &c);
    int other = 1 - mover;
    if (t->counting != COUNT_ASEAN && taken == CT_PAWN && c.pieces[mover] == 1 && !c.pawns) {
        int32_t mine = count_limit(&c, mover, t->counting);
        if (mine) {
            *limit = 2 * mine;
            *counted = 2 * c.total - 1;
        }
    }
    if (!*limit || ((taken >= 0 || promoted) && c.pieces[other] == 1)) {
        int32_t theirs = count_limit(&c, other, t->counting);
        if (theirs) {
            *limit = 2 * theirs;
            *counted = t->counting == COUNT_ASEAN || c.pieces[other] > 1 ? 0 : 2 * c.total;
        }
    }
    return GGN_OK;
}

/* A draw's winner: none (2), or the winner by material where the game counts it (Game's
 * _adjudicated, Fairy-Stockfish's material_counting_result). */
static int32_t adjudicated(const ptab_t *t, const int32_t *b) {
    if (t->material == MATERIAL_NONE) return 2;
    if (t->material == MATERIAL_WHITE_ODDS) return 0;
    if (t->material == MATERIAL_BLACK_ODDS) return 1;
    int64_t total[2] = {0, 0};
    for (int32_t q = 0; q < t->N; q++) if (b[q]) total[t->side[b[q]]] += t->weight[b[q]];
    if (t->material == MATERIAL_JANGGI) return total[0] - total[1] - 1 > 0 ? 0 : 1;
    return total[0] == total[1] ? 2 : total[0] > total[1] ? 0 : 1;
}

/* Sittuyin's stalemate (Game's _sittuyin_stalemate): the player to move has its king and one
 * pawn only, is not in check (``check``), and has no legal play but sittuyin's promotions: it
 * may claim a draw. The position's legal plays are listed (P->list) only when the rest holds. */
static int sittuyin_stalemate(play_state_t *P, const int32_t *b, int side, int check, int *claimed) {
    const ptab_t *t = P->t;
    *claimed = 0;
    if (check) return GGN_OK;
    int32_t mine = 0, pawns = 0;
    for (int32_t q = 0; q < t->N && mine <= 2; q++) {
        int32_t k = b[q];
        if (!k || t->side[k] != side) continue;
        mine++;
        pawns += t->spawn[k];
    }
    if (mine != 2 || pawns != 1) return GGN_OK;
    size_t found = 0;
    int rc = list_into(P, ggn_search_list, 2, &found);
    if (rc != GGN_OK) return rc;
    for (size_t i = 0; i < found; i++) {
        int32_t move = P->list[2 * i];
        if ((uint32_t)move >= (uint32_t)t->M) return GGN_EBUSY;
        if (!t->msittuyin[move]) return GGN_OK;
    }
    *claimed = 1;
    return GGN_OK;
}

/* The end of the game at ``ply`` by repetition, if any: *winner and *ending set. */
static int repeated(const play_state_t *P, size_t ply, int32_t rule50, int side, int32_t *winner, int32_t *ending) {
    const ptab_t *t = P->t;
    size_t end = t->whole ? ply : ((size_t)rule50 < ply ? (size_t)rule50 : ply);
    if (end < 4) return 0;
    const uint8_t *chk = P->checks;
    int perpetual = t->perpetual;
    int them = perpetual && chk[ply] && chk[ply - 2];
    int us = perpetual && chk[ply - 1] && chk[ply - 3];
    uint64_t key = P->keys[ply];
    int32_t count = 0;
    if (!perpetual) { /* the keys alone (the checks kept are not read) */
        size_t back = 4;
        for (; back <= end; back += 2)
            if (P->keys[ply - back] == key && ++count + 1 >= t->nfold) break;
        if (back > end) return 0;
        int32_t value = t->nfold_value;
        if (t->nfold_absolute && side == 1) value = -value;
        *winner = winner_of(side, value);
        *ending = GGN_END_REPETITION;
        return 1;
    }
    for (size_t back = 4; back <= end; back += 2) {
        them = them && chk[ply - back];
        if (P->keys[ply - back] == key) {
            count++;
            if (count + 1 >= t->nfold) {
                if (them || us) {
                    *ending = GGN_END_PERPETUAL;
                    if (!us) *winner = side;          /* the other player checked throughout */
                    else if (!them) *winner = 1 - side;
                    else { *winner = 2; *ending = GGN_END_REPETITION; }
                    return 1;
                }
                int32_t value = t->nfold_value;
                if (t->nfold_absolute && side == 1) value = -value;
                *winner = winner_of(side, value);
                *ending = GGN_END_REPETITION;
                return 1;
            }
        }
        if (back + 1 <= end) us = us && chk[ply - back - 1];
    }
    return 0;
}

static int play_game(play_state_t *P, uint64_t state, int policy, int32_t max_plies, int32_t rule50,
                     const int32_t *counters, int32_t *out, ggn_moves *moves) {
    const ptab_t *t = P->t;
    int32_t N = t->N;
    ggn_search *s = P->s;
    const int32_t *b = ggn_search_board(s);
    const int32_t *hands = ggn_search_hands(s);
    int keyed = t->nfold > 0;
    int rc;
    size_t ply = 0;
    /* the checks left (t->checks), and the counting rules' limit and ply (t->counting) */
    int32_t left[2] = {counters ? counters[0] : 0, counters ? counters[1] : 0};
    int32_t limit = counters ? counters[2] : 0, counted = counters ? counters[3] : 0;
    int passed[2] = {0, 0}; /* whether the last play and the one before were passes */
    int facing_before = 0;  /* whether the royal pieces faced each other before the last play */
    if (keyed) key_start(P, b, hands);
    for (;;) {
        int side = b[N] & 1;
        int check = -1; /* the side to move in check (-1: not asked yet) */
        if (t->checks) {
            /* Game's: a check given by the last play counts, and a player who has given its
             * last check has won, before all else */
            if (ply > 0) {
                if ((rc = ggn_search_in_check(s, &check)) != GGN_OK) return rc;
                if (check) left[1 - side]--;
            }
            if (left[1 - side] == 0) {
                out[0] = 1 - side;
                out[1] = GGN_END_CHECKS;
                break;
            }
        }
        /* Game's too, before the position's ends: two passes one after the other, or the
         * royal pieces facing each other before and after the last play (bikjang), decided by
         * material where the game counts it */
        if (ply >= 2 && passed[0] && passed[1]) {
            out[0] = adjudicated(t, b);
            out[1] = GGN_END_PASSES;
            break;
        }
        int facing_now = 0;
        if (P->bikjang && (rc = ggn_search_facing(s, &facing_now)) != GGN_OK) return rc;
        if (ply >= 1 && facing_now && facing_before) {
            out[0] = adjudicated(t, b);
            out[1] = GGN_END_BIKJANG;
            break;
        }
        facing_before = facing_now;
        int ended = 0, value = 0, letter = -1; /* an extinction or a flag: before all else */
        if (t->ends && (rc = ggn_search_ended(s, &ended, &value, &letter)) != GGN_OK) return rc;
        if (ended) {
            out[0] = winner_of(side, value);
            out[1] = ended == GGN_END_FLAG ? GGN_END_FLAG_REACHED
                     : letter >= 0 && letter == t->bare ? GGN_END_BARE_KING : GGN_END_EXTINCT;
            break;
        }
        if (keyed) {
            if ((rc = ensure_history(P, ply + 1)) != GGN_OK) return rc;
            P->keys[ply] = key_now(P, b);
#ifdef GGN_PLAYOUT_CHECK_KEYS
            if (P->keys[ply] != key_of(t, b, hands)) abort();
#endif
            P->keys[ply] ^= key_extra(t, b, left);
            P->checks[ply] = 0;
            if (t->perpetual) {
                if (check < 0 && (rc = ggn_search_in_check(s, &check)) != GGN_OK) return rc;
                P->checks[ply] = (uint8_t)check;
            }
        }
        int got = 0;
        cand_t chosen;
        rc = t->alone ? draw_alone(P, &state, policy, &got, &chosen) : draw_listed(P, &state, policy, &got, &chosen);
        if (rc != GGN_OK) return rc;
        if (!got) {
            if (check < 0 && (rc = ggn_search_in_check(s, &check)) != GGN_OK) return rc;
            if (check) {
                out[0] = winner_of(side, t->mate);
                out[1] = GGN_END_CHECKMATE;
            } else {
                int32_t value = t->stale;
                if (t->piece_count) {
                    int32_t mine = 0, theirs = 0;
                    for (int32_t q = 0; q < N; q++) {
                        if (!b[q]) continue;
                        if (t->side[b[q]] == side) mine++;
                        else theirs++;
                    }
                    value = mine == theirs ? 0 : mine < theirs ? value : -value;
                }
                out[0] = value ? winner_of(side, value) : adjudicated(t, b); /* a draw: by material? */
                out[1] = value < 0 ? GGN_END_NO_MOVE : GGN_END_STALEMATE;
            }
            break;
        }
        if (t->nmove && rule50 >= t->nmove) {
            out[0] = adjudicated(t, b);
            out[1] = GGN_END_MOVE_RULE;
            break;
        }
        if (keyed && repeated(P, ply, rule50, side, &out[0], &out[1])) {
            if (out[0] == 2) out[0] = adjudicated(t, b);
            break;
        }
        if (t->counting && limit && counted > limit) { /* claimed: the player has a move */
            out[0] = 2;
            out[1] = GGN_END_COUNTING;
            break;
        }
        if (t->sittuyin) {
            int claimed = 0;
            if (check < 0 && (rc = ggn_search_in_check(s, &check)) != GGN_OK) return rc;
            if ((rc = sittuyin_stalemate(P, b, side, check, &claimed)) != GGN_OK) return rc;
            if (claimed) {
                out[0] = 2;
                out[1] = GGN_END_STALEMATE;
                break;
            }
        }
        if (ply >= (size_t)max_plies) {
            out[0] = 3;
            out[1] = GGN_END_NONE;
            break;
        }
        int flags = 0;
        if (t->counting) memcpy(P->before, b, (size_t)N * sizeof(int32_t));
        if ((rc = ggn_search_make(s, chosen.move, chosen.play, &flags)) != GGN_OK) return rc;
        if (t->counting && (rc = count_after(P, P->before, b, side, chosen.move, flags, &limit, &counted)) != GGN_OK)
            return rc;
        if (keyed && (rc = key_made(P, b, hands)) != GGN_OK) return rc;
        int reset = (flags & (GGN_PLAY_CAPTURE | GGN_PLAY_DROP)) != 0;
        if (!reset && (flags & GGN_PLAY_PROMOTION)) {
            /* Game's: a promotion to another type starts the clock again, a shogi-style one
             * unless promoted pieces may demote, a demotion does not */
            int32_t from = t->mkind[chosen.move], to = b[t->mdst[chosen.move]];
            if (t->pin[to] != t->pin[from]) reset = 1;
            else if (t->enhanced[to] && !t->enhanced[from]) reset = !t->demotion;
        } else if (!reset) {
            reset = t->stay_reset[chosen.move];
        }
        rule50 = reset ? 0 : (rule50 < (1 << 30) ? rule50 + 1 : rule50);
        passed[1] = passed[0];
        passed[0] = (flags & GGN_PLAY_PASS) != 0;
        if (moves) {
            if (!grow_moves(moves, 1)) return GGN_ENOMEM;
            moves->pairs[2 * moves->used] = chosen.move;
            moves->pairs[2 * moves->used + 1] = chosen.play;
            moves->used++;
        }
        ply++;
    }
    out[2] = (int32_t)ply;
    return GGN_OK;
}

int ggn_playout(const ggn_game *g, const int32_t *tables, size_t tables_len, const int32_t *position,
                size_t len, uint64_t seed, uint64_t first, size_t games, int policy, int32_t max_plies,
                int32_t rule50, const int32_t *counters, int32_t *out, ggn_moves *moves, char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    if (!g || !tables || !position || (games && !out)) return GGN_EBADPOSITION;
    if (policy != GGN_POLICY_UNIFORM && policy != GGN_POLICY_CAPTURES) return GGN_EBADPOSITION;
    if (max_plies < 0 || max_plies > GGN_PLAYOUT_MAX_PLIES || rule50 < 0) return GGN_EBADPOSITION;
    ptab_t t;
    int rc = ptab_read(&t, g, tables, tables_len, err, errlen);
    if (rc != GGN_OK) {
        ptab_free(&t);
        return rc;
    }
    if (t.checks || t.counting) {
        for (int i = 0; i < 4 && rc == GGN_OK; i++)
            if (!counters || counters[i] < 0 || counters[i] > GGN_PLAYOUT_MAX_COUNTER) rc = GGN_EBADPOSITION;
        if (rc != GGN_OK) {
            ptab_free(&t);
            return rc;
        }
    }
    play_state_t P;
    memset(&P, 0, sizeof P);
    P.t = &t;
    P.bikjang = ggn_game_bikjang(g);
    P.list_len = 768;
    P.list = malloc(P.list_len * sizeof(int32_t));
    P.tlist_len = 64;
    P.tlist = malloc(P.tlist_len * sizeof(int32_t));
    P.pairs_len = 256;
    P.pairs = malloc(P.pairs_len * sizeof(int32_t));
    P.mirror = calloc((size_t)t.N, sizeof(int32_t));
    P.eps = calloc((size_t)t.N, sizeof(int32_t));
    P.epat = calloc((size_t)t.N, sizeof(int32_t));
    P.hmirror = calloc(2 * (size_t)t.K, sizeof(int32_t));
    P.before = calloc((size_t)t.N, sizeof(int32_t));
    if (!P.list || !P.tlist || !P.pairs || !P.mirror || !P.eps || !P.epat || !P.hmirror || !P.before) rc = GGN_ENOMEM;
    if (rc == GGN_OK) rc = room_for(&P, 64); /* the candidates and their groups: never NULL */
    if (rc == GGN_OK) {
        P.s = ggn_search_new(g);
        if (!P.s) rc = GGN_ENOMEM;
        else rc = ggn_search_track(P.s);
    }
    for (size_t i = 0; i < games && rc == GGN_OK; i++) {
        rc = ggn_search_load(P.s, position, len);
        if (rc != GGN_OK) break;
        /* game i's generator: the master's (first + i)-th output (a jump: the master's state
         * after k + 1 steps is seed + (k + 1) * gamma) */
        uint64_t master = seed + (first + i) * GAMMA;
        uint64_t state = splitmix(&master);
        rc = play_game(&P, state, policy, max_plies, rule50, t.checks || t.counting ? counters : NULL, out + 3 * i,
                       moves);
    }
    ggn_search_free(P.s);
    free(P.list); free(P.tlist); free(P.cands); free(P.spare); free(P.gat); free(P.gleft); free(P.gtrip); free(P.gsorted); free(P.gmask); free(P.pairs); free(P.keys); free(P.checks);
    free(P.mirror); free(P.eps); free(P.epat); free(P.hmirror); free(P.before);
    ptab_free(&t);
    if (rc != GGN_OK && err && errlen && !err[0]) snprintf(err, errlen, "the playout failed (kernel error %d)", rc);
    return rc;
}

int ggn_playout_key(const ggn_game *g, const int32_t *tables, size_t tables_len, const int32_t *position,
                    size_t len, const int32_t *counters, uint64_t *key, char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    if (!g || !tables || !position || !key) return GGN_EBADPOSITION;
    ptab_t t;
    int rc = ptab_read(&t, g, tables, tables_len, err, errlen);
    int32_t *b = NULL;
    if (rc == GGN_OK && len != ggn_position_size(g)) rc = GGN_EBADPOSITION;
    if (rc == GGN_OK && (position[0] != 0 && position[0] != 1)) rc = GGN_EBADPOSITION;
    for (int32_t q = 0; rc == GGN_OK && q < t.N; q++)
        if (position[1 + q] < 0 || position[1 + q] >= t.K) rc = GGN_EBADPOSITION;
    int32_t left[2] = {0, 0};
    if (rc == GGN_OK && t.checks) {
        if (!counters) rc = GGN_EBADPOSITION;
        else { left[0] = counters[0]; left[1] = counters[1]; }
    }
    if (rc == GGN_OK && !(b = malloc(((size_t)t.N + 1) * sizeof(int32_t)))) rc = GGN_ENOMEM;
    if (rc == GGN_OK) {
        memcpy(b, position + 1, (size_t)t.N * sizeof(int32_t));
        b[t.N] = position[0];
        *key = key_of(&t, b, position + 1 + t.N) ^ key_extra(&t, b, left);
    }
    free(b);
    ptab_free(&t);
    return rc;
}
