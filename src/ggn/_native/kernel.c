/* ggn's native kernel (see kernel.h; the table format is written out in ggn/rules/_native.py).
 *
 * A position is walked as the pure rule system walks it (ggn/rules/_walk.py): the document's
 * pseudo-legal moves, each move's plays (its effects), and a play is legal when, after it, no
 * terminal piece of the mover can be reached by a pseudo-legal move of the other side (on the
 * board, or by a drop from its hand), and the game's own rules allow it (castling neither out
 * of nor through an attacked square, no pawn drop that mates).
 *
 * Speed comes from these things, all made from the tables when the game is read:
 * - the moves of a (kind, source) and the moves onto a square are ordered as trees of rays: a
 *   move whose conditions need a square empty comes under the move onto that square, so a
 *   blocker skips the rest of its ray at once (the document has no rays; they are found), and
 *   an entry whose path those skips already prove empty tests only its destination (quick);
 * - a position whose terminal piece is not attacked is *calm*: a play there can expose it only
 *   by changing a square where a move onto it fails now. The calm test of a count or a listing
 *   looks at every move onto the piece from a square holding its piece and keeps the squares
 *   where one fails, if it fails on at most two (a plain play changes two squares): a plain
 *   play touching none of them is legal without being made (where the test cannot be so
 *   precise, each square keeps the set of squares its attackers read, a bitset, instead);
 * - a lone terminal piece's plain step is tested on its destination alone, without its plays;
 * - the last ply is only counted, and plays are made and taken back in place;
 * - a playout (playout.c) lists a position's pseudo-legal moves only (the walk's first step),
 *   told by source (ggn_search_pseudo_groups: a source's plays counted as its pieces' moves are
 *   collected, the moves kept; a drawn source's fetched, ggn_search_pseudo_moves), and tries
 *   each move it draws alone (ggn_search_try: the walk on that one
 *   move, from what the listing found; a king's step or a plain move tested by the walk's
 *   shortcut without the walk), and its search keeps each side's squares from make to make
 *   (ggn_search_track), so no listing of it scans the board;
 * - on a board of up to 64 squares, a playout's search also keeps the occupied squares and each
 *   side's as words (search_t's occ, own): a (kind, source) whose walk is leaves and rays of
 *   entries of one play each (a ray set, rplan_t) has its moves found from them in a few
 *   operations, told as a set of destinations (ggn_search_pseudo_set: the playout draws from
 *   it without fetching the moves), and a tried play's attack tests find the attackers the
 *   reverse tree's walk would reach from the same words (attack sets, aplan_t);
 * - the batch's listing (ggn_search_legal), whose plays the batch sorts, keeps the same words
 *   for its one position: a plain ray set's moves that a calm position's count would take are
 *   listed from the set at once, the rest walked as every move is.
 */
#include "kernel.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#define EMPTY_STATE (-1)
#define ENEMY_STATE (-2)
#define SCAN_LIMIT 256 /* moves looked at past one when finding where a ray's blocker skips to */

typedef struct { int32_t sq, st; } cond_t;
typedef struct { int32_t must_off, nmust, deny_off, ndeny; } poss_t;

typedef struct {
    int32_t kind, src, dst, mtype;
    int32_t becomes;
    int32_t placed_off, nplaced; /* into ints */
    int32_t vict_off, nvict;     /* pairs (square, kind) into ints */
    int32_t plain;               /* a castling king's move: whether it has a plain play too */
    int32_t rook_off, nrooks;    /* pairs (rook square, square beside) into ints */
    int32_t safe_off, nsafe, shielded;
    int32_t poss_off, nposs;
    /* A simple move: every possibility needs the same squares empty (its path) and no more but
     * a state of its destination (dmask: 1 empty, 2 an enemy, 4 a friend may stand there). */
    int32_t simple, path_off, npath, dmask;
    int32_t royal; /* it moves or places a terminal piece */
    int32_t stays; /* its first plays, to which no promotion limit applies (the piece staying, drops) */
    int32_t limited; /* a play of it places a limited type */
    int32_t oncap;   /* promotion by capture (section ENDS): 1 its last play only when it takes, 3 and its first only when not */
} move_t;

typedef struct { int32_t src, ent_off, nent, skip; } rnode_t;

/* A forward walk's entry, packed (the move stack holds their numbers): the move, its
 * destination, where to go on when that is occupied, ``quick`` (0, or QUICK | its dmask when the
 * walk reaching it already knows its path empty: a simple move, its path the keys of entries an
 * occupied one would have skipped), its source, its plays' count, its first play's piece, and
 * its bits for walk's loop (hot): it may be counted without being made in a calm position
 * (HOT_FAST: a plain move or drop of the mover's own pieces with no effect beyond its two
 * squares), it is a terminal piece's plain step (HOT_KING: one play, that piece again on the
 * destination, no effect beyond its two squares), it has victims (en passant), a makpong or
 * no-doubled-drops rule reads it, it is a sittuyin promotion. */
typedef struct { int32_t mi, dst, skip, quick, src, nplaced, hot, placed; } fent_t;
#define QUICK 8
/* HOT_PLACED: the move's plays are its placed pieces, one each (a HOT_KING move, or HOT_FAST
 * without victims), as the pseudo listing counts them */
enum { HOT_FAST = 1, HOT_VICT = 2, HOT_RULES = 4, HOT_KING = 8, HOT_SITTUYIN = 16, HOT_PLACED = 32 };

typedef struct { int32_t sq, val; } chg_t;

/* Ray sets (boards of up to 64 squares, ray_plans): a (kind, source)'s entries as sets of
 * squares, for the grouped pseudo listing. Its walk is then a few operations on the board's
 * occupied squares (search_t's occ and own): its leaves (entries no occupied square skips past)
 * and, per chain (entries each under the one before: a ray, its squares ascending when ``up``
 * else descending), the chain's squares up to its first occupied one; of those, the squares
 * whose state the entry's dmask allows (oke empty, okx an enemy, okf a friend). */
typedef struct { uint64_t mask; int32_t up; } rchain_t;
/* ``plain``: each of its entries is a plain move of the board (HOT_FAST, one placed piece), none
 * a terminal piece's step, none with victims or a rule of its own (HOT_KING, HOT_VICT,
 * HOT_RULES, HOT_SITTUYIN): what walk's calm count takes without making it, as a set (the
 * batch listing's, ggn_search_legal) */
typedef struct { uint64_t leaves, oke, okx, okf; int32_t coff, nchains, plain; } rplan_t;
/* Attack sets, made with the ray sets (attack_plans): per attacking side and target, the
 * reverse tree's nodes as leaves and chains, so that the nodes an attack test looks at (the
 * occupied leaves, the first occupied node of each chain) come from the occupied squares. */
typedef struct { uint64_t leaves; int32_t coff, nchains; } aplan_t;

struct ggn_game {
    int32_t N, K, M, flags, words;
    int32_t *kside, *kterm, *unmark, *rookplain, *kingplain, *dropmate;
    int32_t *group;  /* per kind: the promotion-limited type it counts as (0 none) */
    int32_t ngroups, *limit; /* per group: how many of that type a side may have */
    int32_t *capmap; /* K*K (taken * K + mover) -> hand kind, 0 none; NULL: hands not tracked */
    int32_t castking[2], nhomes[2], nrank[2];
    int32_t *homes[2], *rank[2];
    move_t *moves;
    poss_t *poss;
    cond_t *conds;
    int32_t *ints;
    int32_t *paths; /* the simple moves' paths */
    /* forward: per (kind, source + 1) a range of forder; fskip parallel to forder */
    int32_t *gstart, *gcount;
    uint8_t *gone;   /* per (kind, source + 1): each of its entries' plays is its one placed piece (HOT_PLACED) */
    int32_t *forder, *fskip;
    fent_t *fent;    /* parallel to forder, packed for collect and walk */
    /* ray sets (see rplan_t): per (kind, source + 1) its plan's number (-1: none; NULL: none at all) */
    int32_t *rplan;
    rplan_t *rplans;
    rchain_t *rchains;
    uint8_t *rto;    /* per plan, per square: its entry onto the square (from the slot's first; 255 none) */
    /* attack sets (see aplan_t, with ray sets only): per side, per target its plan's number (-1
     * none); per plan, per square its node (from the target's first) */
    int32_t *aplan[2];
    aplan_t *aplans;
    rchain_t *achains;
    uint8_t *anode;
    /* with attack sets, where K <= 63, parallel to rnodes: per node, the kinds (bit k) one of whose
     * quick entries there holds when the target holds a piece of the other side (a king's test),
     * and bit 63 if an entry there is not quick (NULL: no attack sets, or K > 63) */
    uint64_t *rhit[2];
    int32_t *owner, *marked; /* per kind: its side (-1 for the empty square), whether unmarking changes it */
    uint8_t *kscan;  /* per kind, for walk's scan: bit s its side is s, bit 2 terminal, bit 3 marked */
    int32_t *fentry; /* per move: its entry in fent */
    int32_t *rkind[2], *rquick[2]; /* parallel to rents: each entry's kind, and its quick (as fent_t's) */
    /* reverse, per attacking side and target square: tree nodes and entries (move numbers) */
    int32_t *rstart[2], *rcount[2];
    rnode_t *rnodes[2];
    int32_t *rents[2];
    int32_t *dstart[2], *dcount[2], *dents[2]; /* drops onto a square that can take (hand attacks) */
    uint64_t *sens[2]; /* per target: the squares its attackers read (bitset, words each) */
    int32_t maxplays, perplay;
    /* walls (section WALL): the wall's kind (0: none), the walling rule (WALL_*), per square the
     * sides that may wall it (bits 0, 1) and whether it is near an edge or a hole (bit 2), its
     * orthogonal neighbours (4 each, -1 none), one step forward per side; arrows: groups of
     * paths per (kind, square) (wgkind, wgsq, wgoff, wgn; paths in wdata), per move its group */
    int32_t wall_kind, wall_rule, wfwd[2];
    int32_t *wflags, *wbeside;
    int32_t nwgroups, *wgkind, *wgsq, *wgoff, *wgn, *wdata, *marrow;
    /* janggi's cannons (section CANN): per kind whether it is one (NULL: none), per move of one
     * the squares strictly between its source and destination (mcan_n -1: not a cannon's) */
    int32_t *kcannon, *mcan_off, *mcan_n, *candata;
    /* bikjang (section BIKJ): the board's files and ranks, per square its file and rank, per
     * file and rank its square (-1 a hole), per kind whether it is royal */
    int32_t bikjang, files, ranks, *sqfile, *sqrank, *grid, *kroyal;
    /* cambodian chess's first moves (section LEAP): per side the kind of its king with its leap
     * and that king's plain kind, per square its file and rank, per move its flags (LEAP_*) */
    int32_t leapking[2], leapplain[2], *lfile, *lrank, *mleap;
    /* seirawan's gating (section GATE): whether captures go to hand (the rights then always
     * count), per side the pieces that may enter (kind, and per square whether it may) and the
     * rank whose rights an emptied hand takes, the castling king's home (-1 none) and the rook
     * homes, per kind the plain kind of a piece holding a gating right (0 none), per move
     * whether its piece holds one */
    int32_t gating, gate_to_hand, ngates[2], *gatekind[2], *gateok[2], ngrank[2], *grank[2];
    int32_t ghome[2], nghomes[2], *ghomes[2], *kgated, *mgate;
    /* explosions (section BLST): per kind its flags (BLAST_*) and its type (for mutual
     * immunity), per square the squares around it (a count, then 8) */
    int32_t blast, *kblast, *ktype, *around;
    /* the ends and legality rules beyond the terminal pieces' (section ENDS, read_ends; without
     * it none, and castling tested) */
    int32_t eflags, castle_check, nletters, ext_count, ext_opp, ext_claim, ext_value, flag_count, pseudo_limit;
    int32_t nregion[2], *region[2];
    uint8_t *inregion[2];      /* per square: in the side's flag region */
    int32_t *extmask, *kflag, *pgroup; /* per kind */
    int32_t doubled, *file; /* no doubled drops: how many of a kind a file may hold; each square's file */
    int32_t strict; /* a rule beyond the terminal pieces' may refuse a plain move (no fast count) */
    int32_t marks_keep_terms; /* unmarking never makes or unmakes a terminal piece (walk's kings stay) */
    /* placement's drop rules (section DRPS, read_drop_rules): per side the kind of its bishops
     * dropped on both colours (0 none) and its drop region (per square 0/1), per square its
     * colour (-1 none); per side its king's castling home (-1 none), the corners of its castling
     * rank and its castling king's kind; per kind its castling drop (DROP_*, NULL none) and the
     * kind it becomes with its right */
    int32_t drops_ruled, dbishop[2], *dcolour, dhome[2], ncorners[2], dcorner[2][2], dcastking[2];
    uint8_t *dregion[2];
    int32_t *kdrop, *kdropright;
    /* petrified's walls (section PTRF): the wall's kind, per kind its flags (PETRIFY_*, NULL none) */
    int32_t pwall, *kpetrify;
    /* sittuyin's promotions (moves of type MOVE_SITTUYIN, section SITT): per square the sides
     * whose promotion zone it is (bits 0, 1), per kind whether it is a promoting pawn (NULL none) */
    uint8_t *szone;
    int32_t *kspawn;
};

/* A move's type (move_t.mtype): plain (or a promotion, a drop), a castling king's, a castling
 * rook's, a pass, sittuyin's promotion (the pawn replaced where it stands or a step away). */
enum { MOVE_PLAIN, MOVE_CASTLING, MOVE_ROOK, MOVE_PASS, MOVE_SITTUYIN };

enum { DROP_KING = 1, DROP_ROOK = 2 };

enum { PETRIFY_TYPE = 1, PETRIFY_GUARDED = 2 };

enum { BLAST_IMMUNE = 1, BLAST_SPARED = 2, BLAST_MUTUAL = 4 };

enum { LEAP_NOT_IN_CHECK = 1, LEAP_AIMS = 2 };

enum { WALL_NONE, WALL_STATIC, WALL_PAST, WALL_EDGE, WALL_ARROW, WALL_DUCK };
#define SECTION_WALLS 0x57414C4C /* "WALL" */
#define SECTION_CANNONS 0x43414E4E /* "CANN" */
#define SECTION_BIKJANG 0x42494B4A /* "BIKJ" */
#define SECTION_LEAPS 0x4C454150 /* "LEAP" */
#define SECTION_GATING 0x47415445 /* "GATE" */
#define SECTION_BLAST 0x424C5354 /* "BLST" */
#define SECTION_ENDS 0x454E4453 /* "ENDS" */
#define SECTION_DROPS 0x44525053 /* "DRPS" */
#define SECTION_PETRIFY 0x50545246 /* "PTRF" */
#define SECTION_SITTUYIN 0x53495454 /* "SITT" */

/* The ends' flags (section ENDS, in ggn.rules._native's order). */
#define E_EXTINCTION 1
#define E_FLAG 2
#define E_CAPTURES 4
#define E_PSEUDO 8
#define E_DUPLE 16
#define E_NO_CHECKS 32
#define E_NO_DROP_CHECKS 64
#define E_FLAG_MOVE 128
#define E_FLAG_SAFE 256
#define E_FLAG_BLOCKED 512
#define E_FLAG_ROYAL 1024
#define E_DROPS_FORCED 2048
#define E_BLAST_ROYAL 4096 /* atomic's legality (blast_legal) instead of the pseudo-royal test */
#define E_ALL 8191
/* A kind's flags (kflag). */
#define K_FLAG 1
#define K_ROYAL 2
#define K_MAKPONG 4
#define K_UNDOUBLED 8
#define K_FORCED_DROP 16
#define MAX_LETTERS 30

/* --- reading the tables ------------------------------------------------------------------- */
typedef struct {
    const int32_t *p;
    size_t n, i;
    char *err;
    size_t errlen;
    int bad;
} reader_t;

static void fail(reader_t *r, const char *what) {
    if (!r->bad) {
        r->bad = 1;
        if (r->err && r->errlen) snprintf(r->err, r->errlen, "bad tables at value %zu: %s", r->i, what);
    }
}

static int32_t next(reader_t *r) {
    if (r->bad) return 0;
    if (r->i >= r->n) {
        fail(r, "the tables end early");
        return 0;
    }
    return r->p[r->i++];
}

static int32_t ranged(reader_t *r, int32_t low, int32_t high, const char *what) {
    int32_t v = next(r);
    if (!r->bad && (v < low || v > high)) fail(r, what);
    return r->bad ? low : v;
}

int ggn_kernel_abi(void) { return GGN_KERNEL_ABI; }

void ggn_game_free(ggn_game *g) {
    if (!g) return;
    free(g->kside); free(g->kterm); free(g->unmark); free(g->rookplain); free(g->kingplain);
    free(g->dropmate); free(g->capmap); free(g->group); free(g->limit);
    for (int s = 0; s < 2; s++) {
        free(g->homes[s]); free(g->rank[s]);
        free(g->rstart[s]); free(g->rcount[s]); free(g->rnodes[s]); free(g->rents[s]);
        free(g->dstart[s]); free(g->dcount[s]); free(g->dents[s]); free(g->sens[s]);
        free(g->rkind[s]); free(g->rquick[s]);
    }
    free(g->fent); free(g->owner); free(g->marked); free(g->kscan); free(g->fentry);
    free(g->moves); free(g->poss); free(g->conds); free(g->ints); free(g->paths);
    free(g->gstart); free(g->gcount); free(g->gone); free(g->forder); free(g->fskip);
    free(g->rplan); free(g->rplans); free(g->rchains); free(g->rto);
    free(g->aplan[0]); free(g->aplan[1]); free(g->aplans); free(g->achains); free(g->anode);
    free(g->rhit[0]); free(g->rhit[1]);
    free(g->wflags); free(g->wbeside); free(g->wgkind); free(g->wgsq); free(g->wgoff); free(g->wgn);
    free(g->wdata); free(g->marrow);
    free(g->kcannon); free(g->mcan_off); free(g->mcan_n); free(g->candata);
    free(g->sqfile); free(g->sqrank); free(g->grid); free(g->kroyal);
    free(g->lfile); free(g->lrank); free(g->mleap);
    for (int s = 0; s < 2; s++) { free(g->gatekind[s]); free(g->gateok[s]); free(g->grank[s]); free(g->ghomes[s]); }
    free(g->kgated); free(g->mgate);
    free(g->kblast); free(g->ktype); free(g->around);
    for (int s = 0; s < 2; s++) { free(g->region[s]); free(g->inregion[s]); }
    free(g->extmask); free(g->kflag); free(g->pgroup); free(g->file);
    free(g->dcolour); free(g->dregion[0]); free(g->dregion[1]); free(g->kdrop); free(g->kdropright);
    free(g->kpetrify); free(g->szone); free(g->kspawn);
    free(g);
}

int32_t ggn_game_squares(const ggn_game *g) { return g->N; }
int32_t ggn_game_kinds(const ggn_game *g) { return g->K; }
size_t ggn_position_size(const ggn_game *g) { return 1 + (size_t)g->N + 2 * (size_t)g->K; }

static void *alloc(size_t count, size_t size) {
    if (count == 0) count = 1;
    if (count > ((size_t)1 << 40) / size) return NULL;
    return calloc(count, size);
}

/* Whether every possibility of move m needs square sq empty. */
static int needs_empty(const ggn_game *g, const move_t *m, int32_t sq) {
    if (m->nposs == 0) return 1;
    for (int32_t p = 0; p < m->nposs; p++) {
        const poss_t *ps = &g->poss[m->poss_off + p];
        int found = 0;
        for (int32_t c = 0; c < ps->nmust; c++) {
            const cond_t *cd = &g->conds[ps->must_off + c];
            if (cd->sq == sq && cd->st == EMPTY_STATE) { found = 1; break; }
        }
        if (!found) return 0;
    }
    return 1;
}

/* The squares every possibility of m needs empty (at most cap), into out; how many. */
static int32_t common_empty(const ggn_game *g, const move_t *m, int32_t *out, int32_t cap) {
    int32_t n = 0;
    if (m->nposs == 0) return 0;
    const poss_t *first = &g->poss[m->poss_off];
    for (int32_t c = 0; c < first->nmust && n < cap; c++) {
        const cond_t *cd = &g->conds[first->must_off + c];
        if (cd->st == EMPTY_STATE && needs_empty(g, m, cd->sq)) out[n++] = cd->sq;
    }
    return n;
}

/* Order items (moves from one source, or sources onto one target) as a tree: an item's parent
 * is the item at the latest square its path needs empty, its path being the squares its
 * conditions need empty. ``key[i]`` is the item's own square, ``path`` its needed squares.
 * Writes the order (a permutation of 0..n-1) and each position's skip (where to go on when the
 * item's square is occupied: past its subtree). ``needs(i, sq)`` is asked through paths. */
typedef struct {
    int32_t n;
    const int32_t *key;
    const int32_t *path_off, *path_len, *paths;
} items_t;

static int item_needs(const items_t *it, int32_t i, int32_t sq) {
    for (int32_t k = 0; k < it->path_len[i]; k++)
        if (it->paths[it->path_off[i] + k] == sq) return 1;
    return 0;
}

static int tree_order(const items_t *it, int32_t *order, int32_t *skip) {
    int32_t n = it->n;
    if (n == 0) return 1;
    if (n > 512) { /* too many to order: no tree, no skips */
        for (int32_t p = 0; p < n; p++) { order[p] = p; skip[p] = p + 1; }
        return 1;
    }
    int32_t *parent = alloc((size_t)n, sizeof(int32_t));
    int32_t *first_child = alloc((size_t)n, sizeof(int32_t));
    int32_t *next_sib = alloc((size_t)n, sizeof(int32_t));
    int32_t *stack = alloc((size_t)n, sizeof(int32_t));
    if (!parent || !first_child || !next_sib || !stack) {
        free(parent); free(first_child); free(next_sib); free(stack);
        return 0;
    }
    /* parent: among items whose key is needed empty by i, the one with the longest path that
     * is itself needed (its key and its path within i's path). */
    for (int32_t i = 0; i < n; i++) {
        parent[i] = -1;
        first_child[i] = -1;
        next_sib[i] = -1;
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t best = -1, best_len = -1;
        if (it->path_len[i] == 0) continue;
        for (int32_t j = 0; j < n; j++) {
            if (j == i || !item_needs(it, i, it->key[j]) || it->path_len[j] >= it->path_len[i]) continue;
            int ok = 1;
            for (int32_t k = 0; k < it->path_len[j] && ok; k++)
                if (!item_needs(it, i, it->paths[it->path_off[j] + k])) ok = 0;
            if (ok && it->path_len[j] > best_len) { best = j; best_len = it->path_len[j]; }
        }
        parent[i] = best;
    }
    /* children in their original order: link from the back */
    for (int32_t i = n - 1; i >= 0; i--) {
        int32_t p = parent[i];
        if (p >= 0) { next_sib[i] = first_child[p]; first_child[p] = i; }
    }
    int32_t out = 0;
    for (int32_t root = 0; root < n; root++) {
        if (parent[root] >= 0) continue;
        int32_t top = 0;
        stack[top++] = root;
        while (top) {
            int32_t i = stack[--top];
            order[out++] = i;
            /* push children in reverse so the first comes out first */
            int32_t count = 0;
            for (int32_t c = first_child[i]; c >= 0; c = next_sib[c]) count++;
            int32_t base = top;
            top += count;
            int32_t k = top - 1;
            for (int32_t c = first_child[i]; c >= 0; c = next_sib[c]) stack[k--] = c;
            (void)base;
        }
    }
    /* skip: past the subtree, then on while the following items need the key empty too */
    int32_t *where = parent; /* reuse: position of each item in order */
    for (int32_t p = 0; p < n; p++) where[order[p]] = p;
    for (int32_t p = 0; p < n; p++) {
        int32_t i = order[p], q = p + 1, looked = 0;
        while (q < n && looked < SCAN_LIMIT && item_needs(it, order[q], it->key[i])) { q++; looked++; }
        skip[p] = q;
    }
    free(parent); free(first_child); free(next_sib); free(stack);
    return 1;
}

/* For a walk over n entries keyed by squares (from entry 0: at an entry whose key is occupied
 * on to skip[q], else to the next), mark in ``sure`` (n bytes) which entries come before p
 * whenever p is reached: none in a run (q, skip[q]) with skip[q] <= p, which a jump could pass. */
static void reached_before(const int32_t *skip, int32_t p, uint8_t *sure) {
    for (int32_t q = 0; q < p; q++) sure[q] = 1;
    int32_t reach = 0; /* the end of the runs so far that a jump can pass (from r+1 up to skip[r]) */
    for (int32_t r = 0; r < p; r++) {
        if (r < reach) sure[r] = 0;
        if (skip[r] <= p && skip[r] > reach) reach = skip[r];
    }
}

/* Whether reaching entry p means square x is empty: an entry q before it, keyed x, whose jump
 * passes p, and which is reached whenever p is (sure, from reached_before). */
static int known_empty(const int32_t *key, const int32_t *skip, const uint8_t *sure, int32_t p, int32_t x) {
    for (int32_t q = 0; q < p; q++) if (key[q] == x && skip[q] > p && sure[q]) return 1;
    return 0;
}

#define QUICK_MOST 256 /* the most entries of one walk whose quick flags are worked out */

/* A walk over n items keyed by squares (at most 64, different, each below 64: at an item whose
 * square is occupied on to skip[i], else to the next) as leaves and chains: from an item i,
 * every item up to skip[i] skips there too (a chain, its squares ascending or descending), or
 * skip[i] is the next (a leaf). The leaves' squares added to *leaves, the chains written (where
 * ``chains``): how many, -1 if the walk is not so. */
static int32_t chains_of(const int32_t *key, const int32_t *skip, int32_t n, uint64_t *leaves, rchain_t *chains) {
    int32_t nchains = 0;
    for (int32_t i = 0; i < n;) {
        int32_t to = skip[i];
        if (to <= i || to > n) return -1;
        uint64_t mask = (uint64_t)1 << key[i];
        if (to == i + 1) { /* a leaf */
            *leaves |= mask;
            i = to;
            continue;
        }
        int up = key[i + 1] > key[i];
        for (int32_t k = i + 1; k < to; k++) {
            if (skip[k] != to || (key[k] > key[k - 1]) != up) return -1;
            mask |= (uint64_t)1 << key[k];
        }
        if (chains) chains[nchains] = (rchain_t){mask, up};
        nchains++;
        i = to;
    }
    return nchains;
}

/* Whether the entries fent[a .. a + n) of one (kind, source) make a ray set (rplan_t): each
 * quick, its destinations different, its walk leaves and chains (chains_of). The chains' count
 * (-1: they do not); with ``plan``, the plan written (its chains in ``chains``). Whether each
 * entry has one play is the caller's (gone). */
static int32_t ray_plan(const ggn_game *g, int32_t a, int32_t n, rplan_t *plan, rchain_t *chains) {
    const fent_t *f = g->fent + a;
    int32_t key[64], skip[64];
    uint64_t seen = 0, leaves = 0;
    if (n > 64) return -1;
    if (plan) *plan = (rplan_t){0, 0, 0, 0, 0, 0, 1};
    for (int32_t i = 0; i < n; i++) {
        if (!(f[i].quick & QUICK) || f[i].dst < 0 || f[i].dst >= g->N || f[i].dst >= 64) return -1;
        if (plan && ((f[i].hot & (HOT_FAST | HOT_VICT | HOT_RULES | HOT_KING | HOT_SITTUYIN)) != HOT_FAST ||
                     f[i].nplaced != 1 || f[i].src < 0))
            plan->plain = 0;
        uint64_t bit = (uint64_t)1 << f[i].dst;
        if (seen & bit) return -1;
        seen |= bit;
        key[i] = f[i].dst;
        skip[i] = f[i].skip - a;
        if (!plan) continue;
        if (f[i].quick & 1) plan->oke |= bit;
        if (f[i].quick & 2) plan->okx |= bit;
        if (f[i].quick & 4) plan->okf |= bit;
    }
    int32_t nchains = chains_of(key, skip, n, &leaves, chains);
    if (plan) plan->leaves = leaves;
    return nchains;
}

/* Whether the reverse tree's nodes of side s onto target t make an attack set (aplan_t): at
 * most 64, their squares below 64 (different: a node a source). The chains' count (-1: they do
 * not); with ``plan``, the plan written (its chains in ``chains``). */
static int32_t attack_plan(const ggn_game *g, int s, int32_t t, aplan_t *plan, rchain_t *chains) {
    const rnode_t *nodes = g->rnodes[s] + g->rstart[s][t];
    int32_t n = g->rcount[s][t], key[64], skip[64];
    uint64_t seen = 0, leaves = 0;
    if (n > 64) return -1;
    for (int32_t i = 0; i < n; i++) {
        if (nodes[i].src < 0 || nodes[i].src >= 64 || (seen >> nodes[i].src & 1)) return -1;
        seen |= (uint64_t)1 << nodes[i].src;
        key[i] = nodes[i].src;
        skip[i] = nodes[i].skip;
    }
    int32_t nchains = chains_of(key, skip, n, &leaves, chains);
    if (plan) *plan = (aplan_t){leaves, 0, nchains};
    return nchains;
}

/* The attack sets of a game with ray sets (g->aplan; else none): every target's of each side
 * that makes one (attack_plan). 0 if out of memory. */
static int attack_plans(ggn_game *g) {
    int32_t N = g->N, nplans = 0, nchains = 0;
    if (!g->rplan) return 1;
    for (int s = 0; s < 2; s++)
        for (int32_t t = 0; t < N; t++) {
            int32_t c = attack_plan(g, s, t, NULL, NULL);
            if (c >= 0) { nplans++; nchains += c; }
        }
    g->aplan[0] = alloc((size_t)N + 1, 4);
    g->aplan[1] = alloc((size_t)N + 1, 4);
    g->aplans = alloc((size_t)nplans + 1, sizeof(aplan_t));
    g->achains = alloc((size_t)nchains + 1, sizeof(rchain_t));
    g->anode = alloc((size_t)nplans * 64 + 1, 1);
    if (!g->aplan[0] || !g->aplan[1] || !g->aplans || !g->achains || !g->anode) return 0;
    memset(g->anode, 255, (size_t)nplans * 64 + 1);
    int32_t at = 0, used = 0;
    for (int s = 0; s < 2; s++)
        for (int32_t t = 0; t < N; t++) {
            g->aplan[s][t] = -1;
            if (at == nplans) continue;
            aplan_t *plan = &g->aplans[at];
            int32_t c = attack_plan(g, s, t, plan, g->achains + used);
            if (c < 0 || used + c > nchains) continue;
            plan->coff = used;
            used += c;
            for (int32_t i = 0; i < g->rcount[s][t]; i++) /* (at most 64 nodes) */
                g->anode[(size_t)at * 64 + (size_t)g->rnodes[s][g->rstart[s][t] + i].src] = (uint8_t)i;
            g->aplan[s][t] = at++;
        }
    if (g->K > 63) return 1;
    for (int s = 0; s < 2; s++) {
        int32_t nodes = g->rstart[s][N - 1] + g->rcount[s][N - 1]; /* (the targets' nodes are consecutive) */
        g->rhit[s] = alloc((size_t)nodes + 1, 8);
        if (!g->rhit[s]) return 0;
        for (int32_t i = 0; i < nodes; i++) {
            const rnode_t *nd = &g->rnodes[s][i];
            uint64_t hit = 0;
            for (int32_t e = nd->ent_off; e < nd->ent_off + nd->nent; e++) {
                int32_t quick = g->rquick[s][e], kind = g->rkind[s][e];
                if (!quick) hit |= (uint64_t)1 << 63;
                else if ((quick & 2) && kind >= 0 && kind < 63) hit |= (uint64_t)1 << kind;
            }
            g->rhit[s][i] = hit;
        }
    }
    return 1;
}

/* The ray sets of a game on a board of up to 64 squares (g->rplan; else none): a (kind,
 * source) of the board has one where its entries make one (ray_plan) and each has one play. 0
 * if out of memory. */
static int ray_plans(ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (N > 64) return 1;
    size_t gsize = (size_t)K * (size_t)(N + 1);
    int32_t nplans = 0, nchains = 0;
    for (size_t slot = 0; slot < gsize; slot++) {
        if (slot % (size_t)(N + 1) == 0 || !g->gcount[slot] || !g->gone[slot]) continue; /* (the hand's: no) */
        int32_t c = ray_plan(g, g->gstart[slot], g->gcount[slot], NULL, NULL);
        if (c < 0) continue;
        nplans++;
        nchains += c;
    }
    g->rplan = alloc(gsize, 4);
    g->rplans = alloc((size_t)nplans + 1, sizeof(rplan_t));
    g->rchains = alloc((size_t)nchains + 1, sizeof(rchain_t));
    g->rto = alloc((size_t)nplans * 64 + 1, 1);
    if (!g->rplan || !g->rplans || !g->rchains || !g->rto) return 0;
    memset(g->rto, 255, (size_t)nplans * 64 + 1);
    int32_t at = 0, used = 0;
    for (size_t slot = 0; slot < gsize; slot++) {
        g->rplan[slot] = -1;
        if (slot % (size_t)(N + 1) == 0 || !g->gcount[slot] || !g->gone[slot] || at == nplans) continue;
        rplan_t *plan = &g->rplans[at];
        int32_t c = ray_plan(g, g->gstart[slot], g->gcount[slot], plan, g->rchains + used);
        if (c < 0 || used + c > nchains) continue;
        plan->coff = used;
        plan->nchains = c;
        used += c;
        for (int32_t i = 0; i < g->gcount[slot]; i++) /* (at most 64 entries: their squares differ) */
            g->rto[(size_t)at * 64 + (size_t)g->fent[g->gstart[slot] + i].dst] = (uint8_t)i;
        g->rplan[slot] = at++;
    }
    return 1;
}

static int read_conds(reader_t *r, ggn_game *g, int32_t count, int32_t *conds_used, int32_t conds_cap) {
    for (int32_t c = 0; c < count; c++) {
        if (*conds_used >= conds_cap) { fail(r, "more conditions than announced"); return 0; }
        cond_t *cd = &g->conds[(*conds_used)++];
        cd->sq = ranged(r, 0, g->N - 1, "a condition's square is off the board");
        cd->st = ranged(r, -2, g->K - 1, "a condition's state is no kind");
        if (cd->st == 0) fail(r, "a condition's state is no kind");
    }
    return !r->bad;
}

/* Find whether move m is simple (see move_t), its path kept in g->paths from *used. */
static void simplify(ggn_game *g, move_t *m, int32_t *used) {
    m->simple = 0;
    if (m->nposs == 0) return;
    const poss_t *first = &g->poss[m->poss_off];
    int32_t start = *used, npath = 0, dmask = 0;
    for (int32_t c = 0; c < first->nmust; c++) {
        const cond_t *cd = &g->conds[first->must_off + c];
        if (cd->sq == m->dst) continue;
        if (cd->st != EMPTY_STATE) return;
        g->paths[start + npath++] = cd->sq;
    }
    for (int32_t p = 0; p < m->nposs; p++) {
        const poss_t *ps = &g->poss[m->poss_off + p];
        if (ps->ndeny) return;
        int32_t others = 0, dst_state = 0;
        for (int32_t c = 0; c < ps->nmust; c++) {
            const cond_t *cd = &g->conds[ps->must_off + c];
            if (cd->sq == m->dst) {
                if (dst_state) return;
                dst_state = cd->st;
                continue;
            }
            if (cd->st != EMPTY_STATE) return;
            int in = 0;
            for (int32_t k = 0; k < npath && !in; k++) if (g->paths[start + k] == cd->sq) in = 1;
            if (!in) return;
            others++;
        }
        if (others != npath) return;
        if (dst_state == 0) dmask |= 7;
        else if (dst_state == EMPTY_STATE) dmask |= 1;
        else if (dst_state == ENEMY_STATE) dmask |= 2;
        else return;
    }
    m->simple = 1;
    m->path_off = start;
    m->npath = npath;
    m->dmask = dmask;
    *used += npath;
}

/* Whether m is a drop of side s with a possibility that does not need its destination empty. */
static int drop_takes(const ggn_game *g, const move_t *m, int s) {
    if (m->src >= 0 || g->kside[m->kind] != s) return 0;
    for (int32_t p = 0; p < m->nposs; p++) {
        const poss_t *ps = &g->poss[m->poss_off + p];
        int empty = 0;
        for (int32_t c = 0; c < ps->nmust; c++)
            if (g->conds[ps->must_off + c].sq == m->dst && g->conds[ps->must_off + c].st == EMPTY_STATE) empty = 1;
        if (!empty) return 1;
    }
    return 0;
}

/* --- sections after the moves: [tag, length, values], each a feature's own tables ---------- */

/* A group of arrow paths: -1 if none for (kind, square). */
static int32_t arrow_group(const ggn_game *g, int32_t kind, int32_t square) {
    int32_t low = 0, high = g->nwgroups - 1;
    while (low <= high) {
        int32_t mid = low + (high - low) / 2;
        int32_t k = g->wgkind[mid], q = g->wgsq[mid];
        if (k == kind && q == square) return mid;
        if (k < kind || (k == kind && q < square)) low = mid + 1;
        else high = mid - 1;
    }
    return -1;
}

/* WALL: the wall's kind, the walling rule, one step forward of each side (a difference of
 * squares), per square its flags (bit 0: the first player may wall it, bit 1: the second,
 * bit 2: beside an edge or a hole), per square its four orthogonal neighbours (-1 none), then
 * the arrows: a count of groups, each (kind, square, paths, each path (target, squares that
 * must be empty (count, squares), squares that must hold a piece (count, squares))), sorted by
 * kind then square: where a piece of that kind on that square could move without capturing. */
static void read_walls(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (g->wall_rule) { fail(r, "a second walls section"); return; }
    g->wall_kind = ranged(r, 1, K - 1, "the wall's kind");
    g->wall_rule = ranged(r, WALL_STATIC, WALL_DUCK, "the walling rule");
    for (int s = 0; s < 2; s++) g->wfwd[s] = ranged(r, -N, N, "a forward step");
    if (r->bad) return;
    g->wflags = alloc((size_t)N, 4);
    g->wbeside = alloc(4 * (size_t)N, 4);
    if (!g->wflags || !g->wbeside) { fail(r, "no memory for the walls"); return; }
    for (int32_t q = 0; q < N; q++) g->wflags[q] = ranged(r, 0, 7, "a square's wall flags");
    for (int32_t i = 0; i < 4 * N; i++) g->wbeside[i] = ranged(r, -1, N - 1, "a neighbour");
    size_t left = r->n > r->i ? r->n - r->i : 0;
    g->nwgroups = ranged(r, 0, (int32_t)(left / 3 < (1 << 24) ? left / 3 : (1 << 24)), "arrow groups");
    if (r->bad) return;
    size_t n = (size_t)g->nwgroups;
    g->wgkind = alloc(n, 4); g->wgsq = alloc(n, 4); g->wgoff = alloc(n, 4); g->wgn = alloc(n, 4);
    g->wdata = alloc(left, 4);
    g->marrow = alloc((size_t)g->M, 4);
    if (!g->wgkind || !g->wgsq || !g->wgoff || !g->wgn || !g->wdata || !g->marrow) { fail(r, "no memory for the walls"); return; }
    int32_t used = 0;
    for (int32_t i = 0; i < g->nwgroups && !r->bad; i++) {
        g->wgkind[i] = ranged(r, 1, K - 1, "an arrow group's kind");
        g->wgsq[i] = ranged(r, 0, N - 1, "an arrow group's square");
        if (!r->bad && i && (g->wgkind[i - 1] > g->wgkind[i] ||
                             (g->wgkind[i - 1] == g->wgkind[i] && g->wgsq[i - 1] >= g->wgsq[i])))
            fail(r, "arrow groups not sorted by kind and square");
        g->wgn[i] = ranged(r, 0, N, "an arrow group's paths");
        g->wgoff[i] = used;
        /* every value kept was read from the section, so used stays within left */
        for (int32_t p = 0; p < g->wgn[i] && !r->bad; p++) {
            g->wdata[used++] = ranged(r, 0, N - 1, "an arrow's target");
            for (int part = 0; part < 2 && !r->bad; part++) {
                int32_t count = ranged(r, 0, N, "an arrow's squares");
                g->wdata[used++] = count;
                for (int32_t k = 0; k < count && !r->bad; k++) g->wdata[used++] = ranged(r, 0, N - 1, "an arrow's square");
            }
        }
    }
    for (int32_t i = 0; i < g->M; i++) g->marrow[i] = r->bad ? -1 : arrow_group(g, g->moves[i].kind, g->moves[i].dst);
}

/* CANN: per kind whether it is a janggi cannon (one that neither hops over nor takes another),
 * then entries (move, count, squares strictly between its source and its destination, nearest
 * the source first) for moves of cannons, by increasing move number. */
static void read_cannons(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K, M = g->M;
    if (g->kcannon) { fail(r, "a second cannons section"); return; }
    g->kcannon = alloc((size_t)K, 4);
    g->mcan_off = alloc((size_t)M, 4);
    g->mcan_n = alloc((size_t)M, 4);
    size_t left = r->n > r->i ? r->n - r->i : 0;
    g->candata = alloc(left, 4);
    if (!g->kcannon || !g->mcan_off || !g->mcan_n || !g->candata) { fail(r, "no memory for the cannons"); return; }
    for (int32_t k = 0; k < K; k++) g->kcannon[k] = ranged(r, 0, 1, "a kind's cannon flag");
    if (!r->bad && g->kcannon[0]) fail(r, "the empty square is no cannon");
    for (int32_t i = 0; i < M; i++) g->mcan_n[i] = -1;
    int32_t used = 0, last = -1;
    while (!r->bad && r->i < r->n) {
        int32_t mi = ranged(r, 0, M - 1, "a cannon's move");
        if (!r->bad && mi <= last) fail(r, "cannon moves not in increasing order");
        if (!r->bad && !g->kcannon[g->moves[mi].kind]) fail(r, "a cannon move of a kind that is none");
        int32_t count = ranged(r, 0, N, "squares between");
        if (r->bad) return;
        last = mi;
        g->mcan_off[mi] = used;
        g->mcan_n[mi] = count;
        for (int32_t k = 0; k < count && !r->bad; k++) g->candata[used++] = ranged(r, 0, N - 1, "a square between");
    }
    for (int32_t i = 0; i < M && !r->bad; i++)
        if (g->kcannon[g->moves[i].kind] && g->moves[i].src >= 0 && g->mcan_n[i] < 0) fail(r, "a cannon move without its squares");
}

/* BIKJ: files, ranks, per square its file and rank, per kind whether it is royal (janggi's
 * bikjang: the royal pieces facing each other on a line with nothing between). */
static void read_bikjang(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (g->bikjang) { fail(r, "a second bikjang section"); return; }
    g->files = ranged(r, 1, N, "files");
    g->ranks = ranged(r, 1, N, "ranks");
    if (!r->bad && (int64_t)g->files * g->ranks > GGN_MAX_SQUARES) fail(r, "files times ranks too large");
    if (r->bad) return;
    size_t cells = (size_t)g->files * (size_t)g->ranks;
    g->sqfile = alloc((size_t)N, 4); g->sqrank = alloc((size_t)N, 4);
    g->grid = alloc(cells, 4); g->kroyal = alloc((size_t)K, 4);
    if (!g->sqfile || !g->sqrank || !g->grid || !g->kroyal) { fail(r, "no memory for bikjang"); return; }
    for (size_t c = 0; c < cells; c++) g->grid[c] = -1;
    for (int32_t q = 0; q < N && !r->bad; q++) {
        g->sqfile[q] = ranged(r, 0, g->files - 1, "a square's file");
        g->sqrank[q] = ranged(r, 0, g->ranks - 1, "a square's rank");
        size_t c = (size_t)g->sqrank[q] * (size_t)g->files + (size_t)g->sqfile[q];
        if (!r->bad && g->grid[c] >= 0) fail(r, "two squares on one file and rank");
        g->grid[c] = q;
    }
    for (int32_t k = 0; k < K; k++) g->kroyal[k] = ranged(r, 0, 1, "a kind's royal flag");
    if (!r->bad && g->kroyal[0]) fail(r, "the empty square is not royal");
    if (!r->bad) g->bikjang = 1;
}

/* LEAP: per side the kind of its king that keeps its leap (0 none) and the king's plain kind,
 * per square its file and rank, per move its flags (1: a leap, not made out of check; 2: a
 * move that takes the other king's leap when it ends on that king's file or rank). */
static void read_leaps(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K, M = g->M;
    if (g->mleap) { fail(r, "a second leaps section"); return; }
    for (int s = 0; s < 2; s++) {
        g->leapking[s] = ranged(r, 0, K - 1, "a leaping king");
        g->leapplain[s] = ranged(r, 0, K - 1, "a leaping king's plain kind");
        if (!r->bad && g->leapking[s] && (!g->leapplain[s] || g->kside[g->leapking[s]] != s ||
                                          g->kside[g->leapplain[s]] != s))
            fail(r, "a leaping king of the wrong side or without its plain kind");
    }
    if (r->bad) return;
    g->lfile = alloc((size_t)N, 4); g->lrank = alloc((size_t)N, 4); g->mleap = alloc((size_t)M, 4);
    if (!g->lfile || !g->lrank || !g->mleap) { fail(r, "no memory for the leaps"); return; }
    for (int32_t q = 0; q < N; q++) {
        g->lfile[q] = ranged(r, 0, N, "a square's file");
        g->lrank[q] = ranged(r, 0, N, "a square's rank");
    }
    for (int32_t i = 0; i < M; i++) {
        g->mleap[i] = ranged(r, 0, 3, "a move's leap flags");
        if (!r->bad && g->mleap[i] && (g->moves[i].src < 0 || g->moves[i].mtype != 0)) fail(r, "leap flags on a drop or a special move");
    }
}

/* GATE: whether captures go to hand, per side: the pieces that may enter (count, each its kind
 * and the squares it may enter (count, squares)), the rank whose gating rights an emptied hand
 * takes (count, squares), the castling king's home (-1 none), the rook homes (count, squares);
 * then per kind the plain kind of a piece that holds a gating right (0 none), per move whether
 * its piece holds one. */
static void read_gating(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K, M = g->M;
    if (g->gating) { fail(r, "a second gating section"); return; }
    if (!g->capmap) { fail(r, "gating without hands"); return; }
    g->gate_to_hand = ranged(r, 0, 1, "gating's hand flag");
    for (int s = 0; s < 2 && !r->bad; s++) {
        g->ngates[s] = ranged(r, 0, K, "gating pieces");
        g->gatekind[s] = alloc((size_t)g->ngates[s], 4);
        g->gateok[s] = alloc((size_t)g->ngates[s] * (size_t)N, 4);
        if (!g->gatekind[s] || !g->gateok[s]) { fail(r, "no memory for gating"); return; }
        for (int32_t i = 0; i < g->ngates[s] && !r->bad; i++) {
            g->gatekind[s][i] = ranged(r, 1, K - 1, "a gating piece");
            if (!r->bad && g->kside[g->gatekind[s][i]] != s) fail(r, "a gating piece of the other side");
            int32_t count = ranged(r, 0, N, "a gating piece's squares");
            for (int32_t k = 0; k < count && !r->bad; k++) g->gateok[s][(size_t)i * (size_t)N + (size_t)ranged(r, 0, N - 1, "a gating square")] = 1;
        }
        g->ngrank[s] = ranged(r, 0, N, "a gating rank");
        g->grank[s] = alloc((size_t)g->ngrank[s], 4);
        if (!g->grank[s]) { fail(r, "no memory for gating"); return; }
        for (int32_t i = 0; i < g->ngrank[s]; i++) g->grank[s][i] = ranged(r, 0, N - 1, "a gating rank's square");
        g->ghome[s] = ranged(r, -1, N - 1, "a castling king's home");
        g->nghomes[s] = ranged(r, 0, N, "rook homes");
        g->ghomes[s] = alloc((size_t)g->nghomes[s], 4);
        if (!g->ghomes[s]) { fail(r, "no memory for gating"); return; }
        for (int32_t i = 0; i < g->nghomes[s]; i++) g->ghomes[s][i] = ranged(r, 0, N - 1, "a rook home");
    }
    if (r->bad) return;
    g->kgated = alloc((size_t)K, 4); g->mgate = alloc((size_t)M, 4);
    if (!g->kgated || !g->mgate) { fail(r, "no memory for gating"); return; }
    for (int32_t k = 0; k < K; k++) {
        g->kgated[k] = ranged(r, 0, K - 1, "a gating right's plain kind");
        if (!r->bad && g->kgated[k] && (!k || g->kside[g->kgated[k]] != g->kside[k])) fail(r, "a gating right's plain kind");
    }
    for (int32_t i = 0; i < M; i++) {
        g->mgate[i] = ranged(r, 0, 1, "a move's gating flag");
        if (!r->bad && g->mgate[i] && g->moves[i].src < 0) fail(r, "a drop that gates");
    }
    if (!r->bad) g->gating = 1;
}

/* BLST: whether captures explode (0: only the mutual immunity), per kind its flags (1 immune to
 * explosions, 2 spared by them unless it captures, 4 may not take its own type) and its type,
 * per square the squares around it (count, squares), nearest first as the rule system lists
 * them. */
static void read_blast(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (g->kblast) { fail(r, "a second blast section"); return; }
    int32_t explodes = ranged(r, 0, 1, "the blast flag");
    g->kblast = alloc((size_t)K, 4); g->ktype = alloc((size_t)K, 4); g->around = alloc(9 * (size_t)N, 4);
    if (!g->kblast || !g->ktype || !g->around) { fail(r, "no memory for explosions"); return; }
    for (int32_t k = 0; k < K; k++) {
        g->kblast[k] = ranged(r, 0, 7, "a kind's blast flags");
        g->ktype[k] = ranged(r, 0, K, "a kind's type");
    }
    if (!r->bad && (g->kblast[0] || g->ktype[0])) fail(r, "the empty square in the blast");
    for (int32_t q = 0; q < N && !r->bad; q++) {
        int32_t n = ranged(r, 0, 8, "squares around");
        g->around[9 * q] = n;
        for (int32_t k = 0; k < n; k++) g->around[9 * q + 1 + k] = ranged(r, 0, N - 1, "a square around");
    }
    if (!r->bad) g->blast = explodes;
}

/* ENDS: the ends and legality rules beyond the terminal pieces' (ggn.rules._native's doc says
 * each value). The per-kind and per-square arrays are made (zeroed) before the sections. */
static void read_ends(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (g->eflags || g->castle_check != 1 || g->nletters) { fail(r, "a second ends section"); return; }
    g->eflags = ranged(r, 0, E_ALL, "the ends' flags");
    g->castle_check = ranged(r, 0, 2, "castling's safety test");
    g->nletters = ranged(r, 0, MAX_LETTERS, "extinction types");
    g->ext_count = ranged(r, 0, 1 << 20, "the extinction count");
    g->ext_opp = ranged(r, 0, 1 << 20, "the extinction opponent count");
    g->ext_claim = ranged(r, 0, 1, "the extinction claim");
    g->ext_value = ranged(r, -1, 1, "the extinction's result");
    g->flag_count = ranged(r, 0, N, "the flag count");
    for (int s = 0; s < 2 && !r->bad; s++) {
        g->nregion[s] = ranged(r, 0, N, "a flag region");
        g->region[s] = alloc((size_t)g->nregion[s], 4);
        if (!g->region[s]) { fail(r, "no memory for the flag regions"); return; }
        for (int32_t i = 0; i < g->nregion[s] && !r->bad; i++) {
            int32_t q = ranged(r, 0, N - 1, "a flag square");
            if (!r->bad && g->inregion[s][q]) fail(r, "a flag square twice");
            g->region[s][i] = q;
            g->inregion[s][q] = 1;
        }
    }
    g->pseudo_limit = ranged(r, 0, (1 << 20) + 1, "the pseudo-royal limit");
    g->doubled = ranged(r, 0, N, "the no-doubled count");
    for (int32_t q = 0; q < N && g->doubled && !r->bad; q++) g->file[q] = ranged(r, -1, N - 1, "a square's file");
    int32_t full = (int32_t)(((uint32_t)1 << g->nletters) - 1);
    for (int32_t k = 0; k < K && !r->bad; k++) {
        g->extmask[k] = ranged(r, 0, full, "a kind's extinction types");
        g->kflag[k] = ranged(r, 0, 31, "a kind's flag bits");
        g->pgroup[k] = ranged(r, 0, g->nletters, "a kind's pseudo-royal group");
        if (!r->bad && k == 0 && (g->extmask[0] || g->kflag[0] || g->pgroup[0])) fail(r, "kind 0 is the empty square");
    }
    /* the moves promoted only by a capture: (move number, rule) pairs, by move */
    int32_t count = ranged(r, 0, g->M, "moves promoted by capture");
    for (int32_t i = 0, last = -1; i < count && !r->bad; i++) {
        int32_t mi = ranged(r, 0, g->M - 1, "a move promoted by capture");
        int32_t rule = ranged(r, 1, 3, "a promotion by capture");
        if (r->bad) return;
        if (mi <= last) { fail(r, "moves promoted by capture not sorted"); return; }
        last = mi;
        move_t *m = &g->moves[mi];
        if (rule == 2 || m->src < 0 || m->mtype != 0 || m->nplaced < 1 || (rule == 3 && (m->nplaced < 2 || m->stays != 1))) {
            fail(r, "a promotion by capture without its plays");
            return;
        }
        m->oncap = rule;
    }
}

/* DRPS: placement's drop rules (ggn.rules._native's doc says each value). */
static void read_drop_rules(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (g->drops_ruled) { fail(r, "a second drop rules section"); return; }
    g->drops_ruled = 1;
    g->dcolour = alloc((size_t)N, 4);
    g->dregion[0] = alloc((size_t)N, 1); g->dregion[1] = alloc((size_t)N, 1);
    g->kdrop = alloc((size_t)K, 4); g->kdropright = alloc((size_t)K, 4);
    if (!g->dcolour || !g->dregion[0] || !g->dregion[1] || !g->kdrop || !g->kdropright) {
        fail(r, "no memory for the drop rules");
        return;
    }
    for (int s = 0; s < 2; s++) {
        g->dbishop[s] = ranged(r, 0, K - 1, "a side's bishops");
        if (!r->bad && g->dbishop[s] && g->kside[g->dbishop[s]] != s) fail(r, "bishops of the other side");
    }
    for (int32_t q = 0; q < N; q++) g->dcolour[q] = ranged(r, -1, 1, "a square's colour");
    for (int s = 0; s < 2 && !r->bad; s++) {
        int32_t n = ranged(r, 0, N, "a drop region");
        for (int32_t i = 0; i < n && !r->bad; i++) g->dregion[s][ranged(r, 0, N - 1, "a drop region's square")] = 1;
    }
    for (int s = 0; s < 2 && !r->bad; s++) {
        g->dhome[s] = ranged(r, -1, N - 1, "a castling home");
        g->ncorners[s] = ranged(r, 0, 2, "a castling rank's corners");
        for (int32_t i = 0; i < g->ncorners[s]; i++) g->dcorner[s][i] = ranged(r, 0, N - 1, "a corner");
        g->dcastking[s] = ranged(r, 0, K - 1, "a castling king");
        if (!r->bad && g->dcastking[s] && g->kside[g->dcastking[s]] != s) fail(r, "a castling king of the other side");
    }
    for (int32_t k = 0; k < K && !r->bad; k++) {
        g->kdrop[k] = ranged(r, 0, DROP_ROOK, "a kind's castling drop");
        g->kdropright[k] = ranged(r, 0, K - 1, "the kind with its right");
        if (r->bad) return;
        if (g->kdrop[k] && (k == 0 || !g->kdropright[k] || g->kside[g->kdropright[k]] != g->kside[k] ||
                            !g->dcastking[g->kside[k]]))
            fail(r, "a castling drop without its right");
    }
    for (int32_t i = 0; i < g->M && !r->bad; i++) {
        const move_t *m = &g->moves[i];
        if (m->src < 0 && g->kdrop[m->kind] && m->nplaced != 1) fail(r, "a castling drop of several plays");
    }
}

/* PTRF: petrified's walls. */
static void read_petrify(reader_t *r, ggn_game *g) {
    int32_t K = g->K;
    if (g->kpetrify) { fail(r, "a second petrify section"); return; }
    g->kpetrify = alloc((size_t)K, 4);
    if (!g->kpetrify) { fail(r, "no memory for petrify"); return; }
    g->pwall = ranged(r, 1, K - 1, "the wall's kind");
    for (int32_t k = 0; k < K; k++) g->kpetrify[k] = ranged(r, 0, PETRIFY_TYPE | PETRIFY_GUARDED, "a kind's petrify flags");
    if (!r->bad && g->kpetrify[0]) fail(r, "the empty square petrifies");
}

/* SITT: sittuyin's promotions (the moves of type MOVE_SITTUYIN are in the moves' records). */
static void read_sittuyin(reader_t *r, ggn_game *g) {
    int32_t N = g->N, K = g->K;
    if (g->kspawn) { fail(r, "a second sittuyin section"); return; }
    g->szone = alloc((size_t)N, 1);
    g->kspawn = alloc((size_t)K, 4);
    if (!g->szone || !g->kspawn) { fail(r, "no memory for sittuyin's promotions"); return; }
    for (int32_t q = 0; q < N; q++) g->szone[q] = (uint8_t)ranged(r, 0, 3, "a square's promotion zones");
    for (int32_t k = 0; k < K; k++) g->kspawn[k] = ranged(r, 0, 1, "a kind's sittuyin flag");
    if (!r->bad && g->kspawn[0]) fail(r, "the empty square promotes");
    for (int32_t i = 0; i < g->M && !r->bad; i++) {
        const move_t *m = &g->moves[i];
        if (m->mtype == MOVE_SITTUYIN && !g->kspawn[m->kind]) fail(r, "sittuyin's promotion of a kind that does not");
    }
}

/* Read the sections that follow the moves, to the tables' end. */
static void read_sections(reader_t *r, ggn_game *g) {
    while (!r->bad && r->i < r->n) {
        int32_t tag = next(r);
        int32_t length = ranged(r, 0, INT32_MAX, "a section's length");
        if (r->bad) return;
        if ((size_t)length > r->n - r->i) { fail(r, "a section runs past the tables' end"); return; }
        reader_t sub = *r;
        sub.n = r->i + (size_t)length;
        switch (tag) {
        case SECTION_WALLS: read_walls(&sub, g); break;
        case SECTION_CANNONS: read_cannons(&sub, g); break;
        case SECTION_BIKJANG: read_bikjang(&sub, g); break;
        case SECTION_LEAPS: read_leaps(&sub, g); break;
        case SECTION_GATING: read_gating(&sub, g); break;
        case SECTION_BLAST: read_blast(&sub, g); break;
        case SECTION_ENDS: read_ends(&sub, g); break;
        case SECTION_DROPS: read_drop_rules(&sub, g); break;
        case SECTION_PETRIFY: read_petrify(&sub, g); break;
        case SECTION_SITTUYIN: read_sittuyin(&sub, g); break;
        default: fail(&sub, "a section of an unknown kind"); break;
        }
        if (!sub.bad && sub.i != sub.n) fail(&sub, "a section's values left unread");
        if (sub.bad) { r->bad = 1; return; }
        r->i = sub.n;
    }
}

int ggn_game_new(const int32_t *tables, size_t len, ggn_game **out, char *err, size_t errlen) {
    reader_t rd = {tables, len, 0, err, errlen, 0};
    reader_t *r = &rd;
    *out = NULL;
    if (!tables) { fail(r, "no tables"); return GGN_EBADTABLE; }
    if (next(r) != GGN_TABLE_MAGIC) { fail(r, "not ggn kernel tables (magic)"); return GGN_EBADTABLE; }
    ggn_game *g = calloc(1, sizeof(ggn_game));
    if (!g) return GGN_ENOMEM;
    g->N = ranged(r, 1, GGN_MAX_SQUARES, "squares out of range");
    g->K = ranged(r, 2, GGN_MAX_KINDS, "kinds out of range");
    g->M = ranged(r, 0, 1 << 24, "moves out of range");
    g->flags = ranged(r, 0, 1, "flags out of range");
    int32_t npossall = ranged(r, 0, 1 << 26, "possibilities out of range");
    int32_t ncondsall = ranged(r, 0, 1 << 27, "conditions out of range");
    int32_t nintsall = ranged(r, 0, 1 << 26, "extra values out of range");
    if (r->bad) { ggn_game_free(g); return GGN_EBADTABLE; }
    int32_t N = g->N, K = g->K;
    g->words = (N + 63) / 64;
    g->kside = alloc((size_t)K, 4); g->kterm = alloc((size_t)K, 4); g->unmark = alloc((size_t)K, 4);
    g->rookplain = alloc((size_t)K, 4); g->kingplain = alloc((size_t)K, 4); g->dropmate = alloc((size_t)K, 4);
    g->group = alloc((size_t)K, 4);
    g->moves = alloc((size_t)g->M, sizeof(move_t));
    g->poss = alloc((size_t)npossall, sizeof(poss_t));
    g->conds = alloc((size_t)ncondsall, sizeof(cond_t));
    g->ints = alloc((size_t)nintsall, 4);
    if (!g->kside || !g->kterm || !g->unmark || !g->rookplain || !g->kingplain || !g->dropmate || !g->group ||
        !g->moves || !g->poss || !g->conds || !g->ints) {
        ggn_game_free(g);
        return GGN_ENOMEM;
    }
    /* kinds */
    for (int32_t k = 0; k < K; k++) {
        g->kside[k] = ranged(r, 0, 1, "a kind's side");
        g->kterm[k] = ranged(r, 0, 1, "a kind's terminal flag");
        g->unmark[k] = ranged(r, 0, K - 1, "a kind's unmarked kind");
        g->rookplain[k] = ranged(r, 0, K - 1, "a rook right's plain kind");
        g->kingplain[k] = ranged(r, 0, K - 1, "a castling king's plain kind");
        g->dropmate[k] = ranged(r, 0, 1, "a kind's drop-mate flag");
        g->group[k] = ranged(r, 0, K, "a kind's limited type");
    }
    if (!r->bad && (g->kterm[0] || g->unmark[0] || g->rookplain[0] || g->kingplain[0])) fail(r, "kind 0 is the empty square");
    for (int32_t k = 1; k < K && !r->bad; k++) {
        if (g->unmark[k] == 0) fail(r, "a kind unmarks to the empty square");
        else if (g->kside[g->unmark[k]] != g->kside[k]) fail(r, "a kind unmarks to the other side");
        if (g->rookplain[k] && g->kside[g->rookplain[k]] != g->kside[k]) fail(r, "a rook right of the other side");
        if (g->kingplain[k] && g->kside[g->kingplain[k]] != g->kside[k]) fail(r, "a king right of the other side");
    }
    g->marks_keep_terms = 1;
    for (int32_t k = 1; k < K && !r->bad; k++) if (g->kterm[g->unmark[k]] != g->kterm[k]) g->marks_keep_terms = 0;
    if (g->flags & 1) {
        g->capmap = alloc((size_t)K * (size_t)K, 4);
        if (!g->capmap) { ggn_game_free(g); return GGN_ENOMEM; }
        for (size_t i = 0; i < (size_t)K * (size_t)K && !r->bad; i++)
            g->capmap[i] = ranged(r, 0, K - 1, "a capture's hand kind");
    }
    for (int s = 0; s < 2 && !r->bad; s++) {
        g->castking[s] = ranged(r, 0, K - 1, "a castling king");
        g->nhomes[s] = ranged(r, 0, N, "castling homes");
        g->homes[s] = alloc((size_t)g->nhomes[s], 4);
        if (!g->homes[s]) { ggn_game_free(g); return GGN_ENOMEM; }
        for (int32_t i = 0; i < g->nhomes[s]; i++) g->homes[s][i] = ranged(r, 0, N - 1, "a castling home");
        g->nrank[s] = ranged(r, 0, N, "castling rank");
        g->rank[s] = alloc((size_t)g->nrank[s], 4);
        if (!g->rank[s]) { ggn_game_free(g); return GGN_ENOMEM; }
        for (int32_t i = 0; i < g->nrank[s]; i++) g->rank[s][i] = ranged(r, 0, N - 1, "a castling rank square");
        if (!r->bad && g->castking[s] && (g->kside[g->castking[s]] != s || !g->kingplain[g->castking[s]]))
            fail(r, "a castling king without its plain kind");
    }
    g->ngroups = ranged(r, 0, K, "limited types");
    g->limit = alloc((size_t)g->ngroups + 1, 4);
    if (!g->limit) { ggn_game_free(g); return GGN_ENOMEM; }
    for (int32_t i = 1; i <= g->ngroups; i++) g->limit[i] = ranged(r, 0, 1 << 20, "a type's limit");
    for (int32_t k = 0; k < K && !r->bad; k++) if (g->group[k] > g->ngroups) fail(r, "a kind's limited type is none");
    /* moves */
    int32_t pused = 0, cused = 0, iused = 0;
    int32_t maxplays = 1;
#define TAKE_INTS(count) \
    do { if ((count) < 0 || iused > nintsall - (count)) { fail(r, "more values than announced"); break; } } while (0)
    for (int32_t i = 0; i < g->M && !r->bad; i++) {
        move_t *m = &g->moves[i];
        m->kind = ranged(r, 1, K - 1, "a move's kind");
        m->src = ranged(r, -1, N - 1, "a move's source");
        m->dst = ranged(r, 0, N - 1, "a move's destination");
        m->mtype = ranged(r, 0, MOVE_SITTUYIN, "a move's type");
        m->becomes = ranged(r, 1, K - 1, "a move's placed kind");
        if (!r->bad && m->src == m->dst && m->mtype != 1 && m->mtype != 3 && m->mtype != MOVE_SITTUYIN)
            fail(r, "a move onto its own source (only castling, a pass and sittuyin's promotion may)");
        if (!r->bad && m->mtype == 3 && m->src != m->dst) fail(r, "a pass that moves");
        if (!r->bad && m->src < 0 && m->mtype != 0) fail(r, "a drop with a castling type");
        if (!r->bad && g->kside[m->becomes] != g->kside[m->kind]) fail(r, "a move places a piece of the other side");
        m->nplaced = ranged(r, 0, K, "a move's plays");
        TAKE_INTS(m->nplaced);
        m->placed_off = iused;
        for (int32_t k = 0; k < m->nplaced && !r->bad; k++) {
            int32_t v = ranged(r, 1, K - 1, "a play's placed kind");
            if (!r->bad && g->kside[v] != g->kside[m->kind]) fail(r, "a play places a piece of the other side");
            g->ints[iused++] = v;
        }
        m->nvict = ranged(r, 0, N, "en passant victims");
        TAKE_INTS(2 * m->nvict);
        m->vict_off = iused;
        for (int32_t k = 0; k < m->nvict && !r->bad; k++) {
            g->ints[iused++] = ranged(r, 0, N - 1, "a victim's square");
            g->ints[iused++] = ranged(r, 1, K - 1, "a victim's kind");
        }
        m->plain = ranged(r, 0, 1, "a castling move's plain flag");
        m->nrooks = ranged(r, 0, N, "castling rooks");
        TAKE_INTS(2 * m->nrooks);
        m->rook_off = iused;
        for (int32_t k = 0; k < 2 * m->nrooks && !r->bad; k++) g->ints[iused++] = ranged(r, 0, N - 1, "a rook square");
        m->nsafe = ranged(r, 0, N, "castling's safe squares");
        TAKE_INTS(m->nsafe);
        m->safe_off = iused;
        for (int32_t k = 0; k < m->nsafe && !r->bad; k++) g->ints[iused++] = ranged(r, 0, N - 1, "a safe square");
        m->shielded = ranged(r, 0, 1, "castling's shield flag");
        m->stays = ranged(r, 0, K, "a move's unlimited plays");
        m->nposs = ranged(r, 0, npossall, "a move's possibilities");
        if (!r->bad && pused > npossall - m->nposs) fail(r, "more possibilities than announced");
        m->poss_off = pused;
        for (int32_t p = 0; p < m->nposs && !r->bad; p++) {
            poss_t *ps = &g->poss[pused++];
            ps->nmust = ranged(r, 0, ncondsall, "must conditions");
            ps->must_off = cused;
            read_conds(r, g, ps->nmust, &cused, ncondsall);
            ps->ndeny = ranged(r, 0, ncondsall, "deny conditions");
            ps->deny_off = cused;
            read_conds(r, g, ps->ndeny, &cused, ncondsall);
        }
        if (!r->bad) {
            int32_t plays = m->mtype == 1 ? m->plain + m->nrooks : m->nplaced;
            if (m->mtype == 0 && m->nvict && plays < 1) plays = 1;
            if (m->mtype == 2 && plays < 1) plays = 1;
            if (plays > maxplays) maxplays = plays;
            if (m->mtype == 2 && !g->rookplain[m->kind]) fail(r, "a rook move of a kind without a right");
            if (m->mtype == 1 && !g->kingplain[m->kind]) fail(r, "a king move of a kind without a right");
        }
        if (!r->bad && i > 0) {
            const move_t *prev = &g->moves[i - 1];
            if (prev->kind > m->kind || (prev->kind == m->kind && prev->src > m->src)) fail(r, "moves not sorted by kind and source");
        }
    }
#undef TAKE_INTS
    /* the arrays of section ENDS, zeroed where the tables have none: no rule of its own */
    g->castle_check = 1;
    g->extmask = alloc((size_t)K, 4); g->kflag = alloc((size_t)K, 4); g->pgroup = alloc((size_t)K, 4);
    g->file = alloc((size_t)N, 4);
    g->inregion[0] = alloc((size_t)N, 1); g->inregion[1] = alloc((size_t)N, 1);
    if (!g->extmask || !g->kflag || !g->pgroup || !g->file || !g->inregion[0] || !g->inregion[1]) {
        ggn_game_free(g);
        return GGN_ENOMEM;
    }
    for (int32_t q = 0; q < N; q++) g->file[q] = -1;
    read_sections(r, g);
    for (int32_t i = 0; i < g->M && !r->bad; i++)
        if (g->moves[i].mtype == MOVE_SITTUYIN && !g->kspawn) fail(r, "sittuyin's promotion without its section");
    if (!r->bad && (g->eflags & E_BLAST_ROYAL) && !g->around) fail(r, "atomic's legality without its explosions");
    if (r->bad) { ggn_game_free(g); return GGN_EBADTABLE; }
    g->strict = (g->eflags & (E_PSEUDO | E_NO_CHECKS | E_NO_DROP_CHECKS)) != 0;
    g->paths = alloc((size_t)cused + 1, 4);
    if (!g->paths) { ggn_game_free(g); return GGN_ENOMEM; }
    {
        int32_t pathused = 0;
        for (int32_t i = 0; i < g->M; i++) {
            move_t *m = &g->moves[i];
            simplify(g, m, &pathused);
            m->royal = g->kterm[m->kind] || g->kterm[m->becomes];
            for (int32_t k = 0; k < m->nplaced; k++) if (g->kterm[g->ints[m->placed_off + k]]) m->royal = 1;
            if (m->mtype != 0) m->royal = 1;
            m->limited = 0;
            for (int32_t k = m->stays; k < m->nplaced; k++) if (g->group[g->ints[m->placed_off + k]]) m->limited = 1;
        }
    }
    g->owner = alloc((size_t)K, 4);
    g->marked = alloc((size_t)K, 4);
    g->kscan = alloc((size_t)K, 1);
    if (!g->owner || !g->marked || !g->kscan) { ggn_game_free(g); return GGN_ENOMEM; }
    for (int32_t k = 0; k < K; k++) {
        g->owner[k] = k ? g->kside[k] : -1;
        g->marked[k] = g->unmark[k] != k;
        g->kscan[k] = (uint8_t)((k ? 1 << g->kside[k] : 0) | (k && g->kterm[k] ? 4 : 0) | (g->marked[k] ? 8 : 0));
    }
    g->maxplays = maxplays;
    {
        int32_t nr = g->nrank[0] > g->nrank[1] ? g->nrank[0] : g->nrank[1];
        int32_t nh = g->nhomes[0] > g->nhomes[1] ? g->nhomes[0] : g->nhomes[1];
        g->perplay = 2 * nr + 2 * nh + 8;
        if (g->gating) { /* each play again with each piece entering each square it empties */
            int32_t most = g->ngates[0] > g->ngates[1] ? g->ngates[0] : g->ngates[1];
            int32_t gr = g->ngrank[0] > g->ngrank[1] ? g->ngrank[0] : g->ngrank[1];
            if ((int64_t)g->maxplays * (1 + 2 * (int64_t)most) > (1 << 24)) { fail(r, "plays too large"); ggn_game_free(g); return GGN_EBADTABLE; }
            g->maxplays *= 1 + 2 * most;
            g->perplay += 1 + gr;
        }
        if (g->blast) g->perplay += 9 + 2 * nr + 2 * nh; /* the pieces exploded, the rights they take */
        if (g->kpetrify) g->perplay += 1; /* the wall a petrifying capture leaves */
        if (g->kdrop) g->perplay += 3;    /* a castling drop's rights */
        if ((int64_t)g->maxplays * g->perplay > (1 << 24)) { fail(r, "plays too large"); ggn_game_free(g); return GGN_EBADTABLE; }
    }
    /* forward groups: per kind, per source + 1 */
    size_t gsize = (size_t)K * (size_t)(N + 1);
    g->gstart = alloc(gsize, 4); g->gcount = alloc(gsize, 4); g->gone = alloc(gsize, 1);
    g->forder = alloc((size_t)g->M, 4); g->fskip = alloc((size_t)g->M, 4);
    g->fent = alloc((size_t)g->M, sizeof(fent_t));
    g->fentry = alloc((size_t)g->M, 4);
    int32_t *keys = alloc((size_t)g->M, 4), *poff = alloc((size_t)g->M, 4), *plen = alloc((size_t)g->M, 4);
    int32_t *paths = alloc((size_t)g->M * 8 + 1, 4);
    int32_t *ord = alloc((size_t)g->M, 4), *skp = alloc((size_t)g->M, 4);
    if (!g->gstart || !g->gcount || !g->gone || !g->forder || !g->fskip || !g->fent || !g->fentry || !keys || !poff || !plen || !paths || !ord || !skp) {
        free(keys); free(poff); free(plen); free(paths); free(ord); free(skp);
        ggn_game_free(g);
        return GGN_ENOMEM;
    }
    /* A path is kept to at most 8 squares per item here (a longer ray is only split). */
    for (int32_t i = 0; i < g->M;) {
        int32_t j = i;
        while (j < g->M && g->moves[j].kind == g->moves[i].kind && g->moves[j].src == g->moves[i].src) j++;
        size_t slot = (size_t)g->moves[i].kind * (size_t)(N + 1) + (size_t)(g->moves[i].src + 1);
        g->gstart[slot] = i;
        g->gcount[slot] = j - i;
        int32_t n = j - i;
        for (int32_t a = 0; a < n; a++) {
            const move_t *m = &g->moves[i + a];
            keys[a] = m->dst;
            poff[a] = a * 8;
            plen[a] = common_empty(g, m, paths + (size_t)a * 8, 8);
        }
        items_t it = {n, keys, poff, plen, paths};
        if (!tree_order(&it, ord, skp)) {
            free(keys); free(poff); free(plen); free(paths); free(ord); free(skp);
            ggn_game_free(g);
            return GGN_ENOMEM;
        }
        /* A skip must be exact: every item skipped needs the key empty in every possibility
         * (the paths were cut at 8 squares, so check again on the moves themselves). */
        for (int32_t p = 0; p < n; p++) {
            g->forder[i + p] = i + ord[p];
            int32_t q = p + 1;
            while (q < skp[p] && needs_empty(g, &g->moves[i + ord[q]], g->moves[i + ord[p]].dst)) q++;
            g->fskip[i + p] = i + q;
        }
        /* packed, with what reaching each entry already knows empty */
        for (int32_t p = 0; p < n; p++) { poff[p] = g->moves[g->forder[i + p]].dst; plen[p] = g->fskip[i + p] - i; }
        for (int32_t p = 0; p < n; p++) {
            int32_t mi = g->forder[i + p];
            const move_t *m = &g->moves[mi];
            fent_t *f = &g->fent[i + p];
            g->fentry[mi] = i + p;
            f->mi = mi; f->dst = m->dst; f->skip = g->fskip[i + p]; f->quick = 0;
            f->src = m->src; f->nplaced = m->nplaced; f->hot = 0;
            int petrifies = g->kpetrify && (g->kpetrify[m->kind] & PETRIFY_TYPE);
            f->placed = m->nplaced ? g->ints[m->placed_off] : 0;
            if (m->src >= 0 && m->nplaced == 1 && g->kterm[m->kind] && g->kterm[f->placed] &&
                g->kside[f->placed] == g->kside[m->kind] && !m->oncap && !m->limited && m->mtype == 0 && !m->nvict &&
                !(g->mleap && g->mleap[mi]) && !(g->mgate && g->mgate[mi]) && !g->kblast && !petrifies)
                f->hot |= HOT_KING;
            int fast = !m->oncap && !m->royal && !m->limited && m->mtype == 0 && !(g->mleap && g->mleap[mi]) &&
                       !(g->mgate && g->mgate[mi]) && !g->kblast && !(m->src < 0 && g->dropmate[m->kind]) && !petrifies;
            for (int32_t k = 0; k < m->nplaced && fast; k++)
                if (g->kside[g->ints[m->placed_off + k]] != g->kside[m->kind]) fast = 0;
            if (fast) f->hot |= HOT_FAST;
            if (m->nvict) f->hot |= HOT_VICT;
            if (g->kflag[m->kind] & (K_MAKPONG | K_UNDOUBLED)) f->hot |= HOT_RULES;
            if (m->mtype == MOVE_SITTUYIN) f->hot |= HOT_SITTUYIN;
            if ((f->hot & HOT_KING) || (f->hot & (HOT_FAST | HOT_VICT)) == HOT_FAST) f->hot |= HOT_PLACED;
            if (p == 0) g->gone[slot] = 1;
            if (!(f->hot & HOT_PLACED) || f->nplaced != 1) g->gone[slot] = 0;
            if (n > QUICK_MOST || !m->simple || (g->kcannon && g->mcan_n[mi] >= 0)) continue;
            uint8_t sure[QUICK_MOST];
            reached_before(plen, p, sure);
            int all = 1;
            for (int32_t k = 0; k < m->npath && all; k++) all = known_empty(poff, plen, sure, p, g->paths[m->path_off + k]);
            if (all) f->quick = QUICK | m->dmask;
        }
        i = j;
    }
    if (!ray_plans(g)) { free(keys); free(poff); free(plen); free(paths); free(ord); free(skp); ggn_game_free(g); return GGN_ENOMEM; }
    /* reverse: per attacking side, per target, nodes grouped by source */
    int32_t *cnt = alloc((size_t)N, 4);
    if (!cnt) { free(keys); free(poff); free(plen); free(paths); free(ord); free(skp); ggn_game_free(g); return GGN_ENOMEM; }
    for (int s = 0; s < 2; s++) {
        g->rstart[s] = alloc((size_t)N + 1, 4); g->rcount[s] = alloc((size_t)N, 4);
        g->dstart[s] = alloc((size_t)N + 1, 4); g->dcount[s] = alloc((size_t)N, 4);
        g->sens[s] = alloc((size_t)N * (size_t)g->words, 8);
        g->rents[s] = alloc((size_t)g->M, 4);
        g->dents[s] = alloc((size_t)g->M, 4);
        g->rnodes[s] = alloc((size_t)g->M, sizeof(rnode_t));
        g->rkind[s] = alloc((size_t)g->M, 4);
        g->rquick[s] = alloc((size_t)g->M, 4);
        if (!g->rstart[s] || !g->rcount[s] || !g->dstart[s] || !g->dcount[s] || !g->sens[s] || !g->rents[s] ||
            !g->dents[s] || !g->rnodes[s] || !g->rkind[s] || !g->rquick[s]) {
            free(cnt); free(keys); free(poff); free(plen); free(paths); free(ord); free(skp);
            ggn_game_free(g);
            return GGN_ENOMEM;
        }
        /* entries by target, board moves of side s (counting sort by target) */
        memset(cnt, 0, (size_t)N * 4);
        for (int32_t i = 0; i < g->M; i++) {
            const move_t *m = &g->moves[i];
            if (g->kside[m->kind] == s && m->nposs > 0 && m->src >= 0 && m->mtype != MOVE_SITTUYIN) cnt[m->dst]++;
        }
        int32_t acc = 0;
        for (int32_t t = 0; t < N; t++) { g->rstart[s][t] = acc; acc += cnt[t]; cnt[t] = g->rstart[s][t]; }
        g->rstart[s][N] = acc;
        int32_t *tmp = alloc((size_t)acc + 1, 4);
        if (!tmp) { free(cnt); free(keys); free(poff); free(plen); free(paths); free(ord); free(skp); ggn_game_free(g); return GGN_ENOMEM; }
        for (int32_t i = 0; i < g->M; i++) {
            const move_t *m = &g->moves[i];
            if (g->kside[m->kind] == s && m->nposs > 0 && m->src >= 0 && m->mtype != MOVE_SITTUYIN) tmp[cnt[m->dst]++] = i;
        }
        /* per target: group by source into nodes, order the nodes as a tree */
        int32_t nodes_used = 0, ents_used = 0;
        for (int32_t t = 0; t < N; t++) {
            int32_t a = g->rstart[s][t], b = g->rstart[s][t + 1];
            uint64_t *bits = g->sens[s] + (size_t)t * (size_t)g->words;
            for (int32_t e = a; e < b; e++) {
                const move_t *m = &g->moves[tmp[e]];
                bits[m->src / 64] |= (uint64_t)1 << (m->src % 64);
                for (int32_t p = 0; p < m->nposs; p++) {
                    const poss_t *ps = &g->poss[m->poss_off + p];
                    for (int32_t c = 0; c < ps->nmust + ps->ndeny; c++) {
                        int32_t sq = g->conds[ps->must_off + c].sq;
                        if (c >= ps->nmust) sq = g->conds[ps->deny_off + c - ps->nmust].sq;
                        bits[sq / 64] |= (uint64_t)1 << (sq % 64);
                    }
                }
            }
            /* distinct sources, in order of first appearance */
            int32_t n = 0;
            int32_t first_node = nodes_used;
            for (int32_t e = a; e < b; e++) {
                int32_t src = g->moves[tmp[e]].src, found = -1;
                for (int32_t q = 0; q < n; q++) if (g->rnodes[s][first_node + q].src == src) { found = q; break; }
                if (found < 0) {
                    g->rnodes[s][first_node + n].src = src;
                    g->rnodes[s][first_node + n].nent = 0;
                    n++;
                }
            }
            /* entries of each node, contiguous */
            for (int32_t q = 0; q < n; q++) {
                rnode_t *nd = &g->rnodes[s][first_node + q];
                nd->ent_off = ents_used;
                for (int32_t e = a; e < b; e++)
                    if (g->moves[tmp[e]].src == nd->src) { g->rents[s][ents_used++] = tmp[e]; nd->nent++; }
            }
            /* a node's path: the squares all its entries need empty (at most 8) */
            for (int32_t q = 0; q < n; q++) {
                rnode_t *nd = &g->rnodes[s][first_node + q];
                keys[q] = nd->src;
                poff[q] = q * 8;
                int32_t got = common_empty(g, &g->moves[g->rents[s][nd->ent_off]], paths + (size_t)q * 8, 8);
                int32_t kept = 0;
                for (int32_t k = 0; k < got; k++) {
                    int all = 1;
                    for (int32_t e = 1; e < nd->nent && all; e++)
                        if (!needs_empty(g, &g->moves[g->rents[s][nd->ent_off + e]], paths[q * 8 + k])) all = 0;
                    if (all) paths[q * 8 + kept++] = paths[q * 8 + k];
                }
                plen[q] = kept;
            }
            items_t it = {n, keys, poff, plen, paths};
            if (!tree_order(&it, ord, skp)) {
                free(tmp); free(cnt); free(keys); free(poff); free(plen); free(paths); free(ord); free(skp);
                ggn_game_free(g);
                return GGN_ENOMEM;
            }
            /* reorder the nodes; exact skips (a node skipped: all its entries need the key empty) */
            rnode_t *copy = alloc((size_t)n, sizeof(rnode_t));
            if (!copy) { free(tmp); free(cnt); free(keys); free(poff); free(plen); free(paths); free(ord); free(skp); ggn_game_free(g); return GGN_ENOMEM; }
            for (int32_t q = 0; q < n; q++) copy[q] = g->rnodes[s][first_node + ord[q]];
            for (int32_t q = 0; q < n; q++) {
                int32_t end = q + 1;
                while (end < skp[q]) {
                    int all = 1;
                    for (int32_t e = 0; e < copy[end].nent && all; e++)
                        if (!needs_empty(g, &g->moves[g->rents[s][copy[end].ent_off + e]], copy[q].src)) all = 0;
                    if (!all) break;
                    end++;
                }
                copy[q].skip = end; /* relative to the target's first node */
                g->rnodes[s][first_node + q] = copy[q];
            }
            free(copy);
            /* each entry's kind, and what reaching its node already knows empty */
            for (int32_t q = 0; q < n; q++) { keys[q] = g->rnodes[s][first_node + q].src; poff[q] = g->rnodes[s][first_node + q].skip; }
            for (int32_t q = 0; q < n; q++) {
                const rnode_t *nd = &g->rnodes[s][first_node + q];
                uint8_t sure[QUICK_MOST];
                if (n <= QUICK_MOST) reached_before(poff, q, sure);
                for (int32_t e = 0; e < nd->nent; e++) {
                    int32_t mi = g->rents[s][nd->ent_off + e];
                    const move_t *m = &g->moves[mi];
                    g->rkind[s][nd->ent_off + e] = m->kind;
                    g->rquick[s][nd->ent_off + e] = 0;
                    if (n > QUICK_MOST || !m->simple || (g->kcannon && g->mcan_n[mi] >= 0)) continue;
                    int all = 1;
                    for (int32_t k = 0; k < m->npath && all; k++) all = known_empty(keys, poff, sure, q, g->paths[m->path_off + k]);
                    if (all) g->rquick[s][nd->ent_off + e] = QUICK | m->dmask;
                }
            }
            g->rstart[s][t] = first_node;
            g->rcount[s][t] = n;
            nodes_used += n;
        }
        free(tmp);
        /* drops that could land on an occupied square: hand attacks (by target) */
        memset(cnt, 0, (size_t)N * 4);
        for (int32_t i = 0; i < g->M; i++) if (drop_takes(g, &g->moves[i], s)) cnt[g->moves[i].dst]++;
        int32_t nd = 0;
        for (int32_t t = 0; t < N; t++) { g->dstart[s][t] = nd; g->dcount[s][t] = 0; nd += cnt[t]; }
        for (int32_t i = 0; i < g->M; i++) {
            const move_t *m = &g->moves[i];
            if (!drop_takes(g, m, s)) continue;
            int32_t t = m->dst;
            g->dents[s][g->dstart[s][t] + g->dcount[s][t]++] = i;
            uint64_t *bits = g->sens[s] + (size_t)t * (size_t)g->words;
            for (int32_t p = 0; p < m->nposs; p++) {
                const poss_t *ps = &g->poss[m->poss_off + p];
                for (int32_t c = 0; c < ps->nmust; c++) {
                    int32_t sq = g->conds[ps->must_off + c].sq;
                    bits[sq / 64] |= (uint64_t)1 << (sq % 64);
                }
                for (int32_t c = 0; c < ps->ndeny; c++) {
                    int32_t sq = g->conds[ps->deny_off + c].sq;
                    bits[sq / 64] |= (uint64_t)1 << (sq % 64);
                }
            }
        }
    }
    free(cnt); free(keys); free(poff); free(plen); free(paths); free(ord); free(skp);
    if (!attack_plans(g)) { ggn_game_free(g); return GGN_ENOMEM; }
    *out = g;
    return GGN_OK;
}

/* --- the walk ------------------------------------------------------------------------------ */
static inline int holds(const ggn_game *g, const int32_t *b, const cond_t *c, int side) {
    int32_t v = b[c->sq];
    if (c->st == EMPTY_STATE) return v == 0;
    if (c->st == ENEMY_STATE) return v != 0 && g->kside[v] != side;
    return v == c->st;
}

/* Whether a possibility holds for ``side`` (skip: leave out possibilities that need square
 * ``skip_empty`` empty, for the hand attacks; -1 none). */
static inline int move_holds(const ggn_game *g, const int32_t *b, const move_t *m, int side, int32_t skip_empty) {
    for (int32_t p = 0; p < m->nposs; p++) {
        const poss_t *ps = &g->poss[m->poss_off + p];
        int ok = 1;
        for (int32_t c = 0; c < ps->nmust; c++) {
            const cond_t *cd = &g->conds[ps->must_off + c];
            if (cd->sq == skip_empty && cd->st == EMPTY_STATE) { ok = 0; break; }
            if (!holds(g, b, cd, side)) { ok = 0; break; }
        }
        if (!ok) continue;
        for (int32_t c = 0; c < ps->ndeny; c++) {
            if (holds(g, b, &g->conds[ps->deny_off + c], side)) { ok = 0; break; }
        }
        if (ok) return 1;
    }
    return 0;
}

/* Whether move mi, a janggi cannon's, is barred on board b: onto a cannon, or over one (the
 * first piece between its squares). */
static inline int barred(const ggn_game *g, const int32_t *b, int32_t mi) {
    int32_t n = g->mcan_n[mi];
    if (n < 0) return 0;
    if (g->kcannon[b[g->moves[mi].dst]]) return 1;
    const int32_t *q = g->candata + g->mcan_off[mi];
    for (int32_t k = 0; k < n; k++) if (b[q[k]]) return g->kcannon[b[q[k]]];
    return 0;
}

#define BARRED(g, b, mi) ((g)->kcannon && barred(g, b, mi))

/* Whether the two sides' royal pieces (the first of each, by square) face each other on a file
 * or a rank with nothing between them (a hole stops the line as a piece does). */
static int facing(const ggn_game *g, const int32_t *b) {
    int32_t at[2] = {-1, -1};
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (k && g->kroyal[k] && at[g->kside[k]] < 0) at[g->kside[k]] = q;
    }
    if (at[0] < 0 || at[1] < 0) return 0;
    int32_t f = g->sqfile[at[0]], r = g->sqrank[at[0]], f1 = g->sqfile[at[1]], r1 = g->sqrank[at[1]];
    if (f != f1 && r != r1) return 0;
    int32_t df = (f1 > f) - (f1 < f), dr = (r1 > r) - (r1 < r);
    for (f += df, r += dr; f != f1 || r != r1; f += df, r += dr) {
        int32_t q = g->grid[(size_t)r * (size_t)g->files + (size_t)f];
        if (q < 0 || b[q]) return 0;
    }
    return 1;
}

/* A play: changes in order (applied after the node's prefix), a hand change of the mover. */
typedef struct {
    int32_t off, n;
    int32_t hk1, hd1, hk2, hd2;
    int32_t castle; /* a castling play: 1 */
    int32_t ordinal;
    int32_t king_moves; /* changes touch a terminal piece of the mover */
    int32_t gate; /* a gating play: the square its piece enters (-1 none) */
} play_t;

static inline int simple_holds(const ggn_game *g, const int32_t *b, const move_t *m, int side) {
    const int32_t *path = g->paths + m->path_off;
    for (int32_t k = 0; k < m->npath; k++) if (b[path[k]]) return 0;
    int32_t v = b[m->dst];
    if (!v) return m->dmask & 1;
    return g->kside[v] != side ? (m->dmask & 2) : (m->dmask & 4);
}

#define HOLDS(g, b, m, side) ((m)->simple ? simple_holds(g, b, m, side) : move_holds(g, b, m, side, -1))

/* A quick entry's test: its destination's state v against its dmask (its path known empty). */
#define QUICK_HOLDS(g, quick, v, side) (!(v) ? ((quick) & 1) : (g)->kside[v] != (side) ? ((quick) & 2) : ((quick) & 4))

/* A part of the grouped pseudo listing's kept moves (search_t's segs): a run of the entries in
 * search_t's kept (slot -1: kept[at .. at + n)), or a ray set's moves (its slot's entries whose
 * destination is in dests, in the slot's order: n of them). */
typedef struct { int32_t slot; size_t at, n; uint64_t dests; } kseg_t;

/* A plain ray set's moves in the batch listing's walk (search_t's lsets): the (kind, source)
 * slot, its plan, its source, the destinations of its moves that hold. */
typedef struct { int32_t slot, plan, src; uint64_t dests; } lset_t;

/* What a listing walk lists (search_t's pseudo). */
enum { PSEUDO_NONE, PSEUDO_LISTED, PSEUDO_GROUPED };

typedef struct {
    const ggn_game *g;
    int32_t *b;
    int32_t *hand[2]; /* K counts each (NULL when hands are not tracked) */
    int32_t *hands;
    /* per ply buffers */
    int32_t *pre;     /* (depth+2) * N: the board before a node's prefix */
    int32_t *mv;      /* move stack */
    size_t mv_cap, mv_used;
    chg_t *chg;       /* per ply: maxplays * perplay changes */
    play_t *plays;    /* per ply: maxplays */
    int plies;
    int32_t *undo;    /* per ply: perplay old values */
    int32_t *kings;   /* per ply: N */
    int32_t *trial;   /* N */
    int32_t *wt;      /* walls: per ply the squares a play's wall may go to (N) */
    chg_t *wundo;     /* walls: per ply what a wall's changes replaced (N + 2) */
    int32_t *wreach;  /* walls: N, the squares an arrow reaches */
    chg_t *bscratch;  /* explosions: one ply's changes, rewritten */
    int32_t *broyal;  /* atomic: per ply the pseudo-royal squares of the mover (N) and of the other side (N) */
    uint64_t *crit;   /* per ply: the critical squares of a calm position (words each) */
    chg_t *spare;     /* base_plays' scratch: 2 (N + 8) changes */
    int err;
    int no_ends;      /* walks below a flag move's test: the game's ends are not asked */
    int probe;        /* the next walk lists only captures, or forced drops (their tests); it clears it */
    int32_t only;     /* the next walk (a listing) tries one entry of g->fent alone (its number + 1; 0: all) */
    int pseudo;       /* the next walk (a listing) lists the pseudo-legal moves, not the legal plays
                       * (PSEUDO_LISTED: as triples; PSEUDO_GROUPED: their groups, the moves kept) */
    /* the moves of the last grouped pseudo listing (ggn_search_pseudo_groups), their entries'
     * numbers: nkept of them, kept_cap of room, of the position numbered kept_gen */
    int32_t *kept;
    size_t nkept, kept_cap;
    uint64_t kept_gen;
    kseg_t *segs;  /* the kept moves' parts, in order (nsegs; room for N + K) */
    size_t nsegs, segs_cap, nstacked; /* nstacked: the entries in kept */
    size_t kbase, kall; /* while a grouped listing walks: its first entry on the move stack, its moves so far */
    int32_t glast; /* the source of the listing's last group (group_note) */
    /* ggn_search_try's walks: the position is the last pseudo listing's (``known``, next walk
     * only), whose walk left its terminal pieces at ply 0, and their count and the marked
     * pieces' count; that listing saw the position numbered pseudo_gen, and every load and
     * make numbers it anew (gen) */
    int known;
    int32_t known_kings, known_prefix;
    int32_t ended_letter; /* game_ended's last extinction: the type's letter (its number), else -1 */
    uint64_t gen, pseudo_gen;
    /* a driver's search (ggn_search_track): the squares each side's pieces stand on, ascending
     * (owned, nowned; where the game has ray sets, on a board of up to 64 squares, the words
     * occ and own instead), which side's piece each square holds (where: side + 1, 0 none) and the
     * marked pieces' count, kept by ggn_search_make while ``tracked`` (made again by the first
     * walk after a load); ``top``: the next walk is a driver's call on the search's position */
    int track, tracked, top;
    int32_t *owned[2], nowned[2], *where, nmarked;
    uint64_t occ, own[2]; /* with tracked, where the game has ray sets: the occupied squares, each side's */
    int sets; /* ggn_search_try's tests of one play on the search's board (king_step, plain_alone),
               * and the batch listing's walk: occ and own are that board's (before the play), for
               * attacked_known */
    int setlist;   /* the next walk is ggn_search_legal's: the order of its plays is free (the batch
                    * sorts them), so on a board with ray sets it finds the plain sets' moves as sets */
    lset_t *lsets; /* that walk's plain ray sets (N of room, where the game has ray sets) */
} search_t;

/* Whether the piece ``occ`` of side ``a`` on node nd of the reverse tree onto t moves onto t. */
static inline int node_attacks(const ggn_game *g, const int32_t *b, const rnode_t *nd, int32_t occ, int32_t t, int a) {
    const int32_t *ents = g->rents[a], *kinds = g->rkind[a], *quicks = g->rquick[a];
    for (int32_t e = nd->ent_off; e < nd->ent_off + nd->nent; e++) {
        if (kinds[e] != occ) continue;
        int32_t quick = quicks[e];
        if (quick) {
            if (QUICK_HOLDS(g, quick, b[t], a)) return 1;
        } else {
            const move_t *m = &g->moves[ents[e]];
            if (HOLDS(g, b, m, a) && !BARRED(g, b, ents[e])) return 1;
        }
    }
    return 0;
}

/* Whether ``a`` can drop onto square t of board b from its hand. */
static inline int hand_attacks(const search_t *S, const int32_t *b, int32_t t, int a) {
    const ggn_game *g = S->g;
    if (!S->hand[a] || !g->dcount[a][t]) return 0;
    const int32_t *d = g->dents[a] + g->dstart[a][t];
    for (int32_t e = 0; e < g->dcount[a][t]; e++) {
        const move_t *m = &g->moves[d[e]];
        if (S->hand[a][m->kind] > 0 && move_holds(g, b, m, a, t)) return 1;
    }
    return 0;
}

/* Whether ``a`` can move onto square t of board b (or drop onto it from its hand). */
static int attacked(const search_t *S, const int32_t *b, int32_t t, int a, int with_hands) {
    const ggn_game *g = S->g;
    const rnode_t *nodes = g->rnodes[a] + g->rstart[a][t];
    int32_t n = g->rcount[a][t];
    int32_t i = 0;
    while (i < n) {
        const rnode_t *nd = &nodes[i];
        int32_t occ = b[nd->src];
        if (!occ) { i++; continue; }
        if (g->kside[occ] == a && node_attacks(g, b, nd, occ, t, a)) return 1;
        i = nd->skip;
    }
    return with_hands && hand_attacks(S, b, t, a);
}

static int any_terminal_attacked(const search_t *S, const int32_t *b, int side, int with_hands) {
    const ggn_game *g = S->g;
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (k && g->kterm[k] && g->kside[k] == side && attacked(S, b, q, 1 - side, with_hands)) return 1;
    }
    return 0;
}

/* For a calm position's fast count: whether move m of side ``a`` onto t holds on board b (1), and
 * if not, the squares where a possibility of it fails, added to crit when at most two fail (a
 * possibility failing on t, which the fast plays leave as it is, or on three squares or more,
 * cannot come to hold by one fast play, which changes two squares at most). ``drop``: a drop
 * onto an occupied t (possibilities needing t empty are left out, as attacked does). */
static int holds_or_critical(const ggn_game *g, const int32_t *b, const move_t *m, int a, int32_t t, int drop,
                             uint64_t *crit) {
    if (m->simple && !drop) { /* its path, and a state of t (which stays) */
        if (!QUICK_HOLDS(g, m->dmask, b[t], a)) return 0;
        const int32_t *path = g->paths + m->path_off;
        int32_t fail[2], nf = 0;
        for (int32_t k = 0; k < m->npath; k++) {
            if (!b[path[k]]) continue;
            if (nf == 2) return 0;
            fail[nf++] = path[k];
        }
        if (nf == 0) return 1;
        for (int32_t k = 0; k < nf; k++) crit[fail[k] / 64] |= (uint64_t)1 << (fail[k] % 64);
        return 0;
    }
    for (int32_t p = 0; p < m->nposs; p++) {
        const poss_t *ps = &g->poss[m->poss_off + p];
        int32_t fail[2], nf = 0, dead = 0;
        for (int32_t c = 0; c < ps->nmust + ps->ndeny && !dead; c++) {
            int must = c < ps->nmust;
            const cond_t *cd = &g->conds[must ? ps->must_off + c : ps->deny_off + c - ps->nmust];
            if (drop && must && cd->sq == t && cd->st == EMPTY_STATE) { dead = 1; break; }
            if (holds(g, b, cd, a) == must) continue;
            if (cd->sq == t || nf == 2) { dead = 1; break; }
            if (nf == 0 || fail[0] != cd->sq) fail[nf++] = cd->sq;
        }
        if (dead) continue;
        if (nf == 0) return 1;
        for (int32_t k = 0; k < nf; k++) crit[fail[k] / 64] |= (uint64_t)1 << (fail[k] % 64);
    }
    return 0;
}

/* Whether ``a`` attacks square t of board b (as attacked, hands included), and if not, the
 * squares whose change by one fast play could let it (holds_or_critical), added to crit. Every
 * move onto t from a square holding its piece is looked at, behind blockers too. */
static int attacked_or_critical(const search_t *S, const int32_t *b, int32_t t, int a, uint64_t *crit) {
    const ggn_game *g = S->g;
    const rnode_t *nodes = g->rnodes[a] + g->rstart[a][t];
    int32_t n = g->rcount[a][t];
    const int32_t *ents = g->rents[a], *kinds = g->rkind[a];
    for (int32_t i = 0; i < n; i++) {
        const rnode_t *nd = &nodes[i];
        int32_t occ = b[nd->src];
        if (g->owner[occ] != a) continue;
        for (int32_t e = nd->ent_off; e < nd->ent_off + nd->nent; e++)
            if (kinds[e] == occ && holds_or_critical(g, b, &g->moves[ents[e]], a, t, 0, crit)) return 1;
    }
    if (S->hand[a] && g->dcount[a][t]) {
        const int32_t *d = g->dents[a] + g->dstart[a][t];
        for (int32_t e = 0; e < g->dcount[a][t]; e++) {
            const move_t *m = &g->moves[d[e]];
            if (S->hand[a][m->kind] > 0 && holds_or_critical(g, b, m, a, t, 1, crit)) return 1;
        }
    }
    return 0;
}

#define KINGS_KEPT 8 /* the most terminal pieces whose squares a play's test keeps (more: the board is scanned) */

/* Whether a terminal piece of ``side`` is attacked on board b after a play: the terminal pieces
 * are those on the squares ``kings`` (the side's, before the play) that still hold one, and those
 * the play's changes chg[off .. off+n-1] put on a square (no scan of the board). */
static int kings_attacked_after(const search_t *S, const int32_t *b, int side, const int32_t *kings, int32_t nkings,
                                const chg_t *chg, int32_t off, int32_t n, int with_hands) {
    const ggn_game *g = S->g;
    for (int32_t k = 0; k < nkings; k++) {
        int32_t v = b[kings[k]];
        if (v && g->kterm[v] && g->kside[v] == side && attacked(S, b, kings[k], 1 - side, with_hands)) return 1;
    }
    for (int32_t c = 0; c < n; c++) {
        int32_t q = chg[off + c].sq, v = b[q];
        if (!v || !g->kterm[v] || g->kside[v] != side) continue;
        int seen = 0;
        for (int32_t k = 0; k < nkings && !seen; k++) seen = kings[k] == q;
        for (int32_t d = 0; d < c && !seen; d++) seen = chg[off + d].sq == q;
        if (!seen && attacked(S, b, q, 1 - side, with_hands)) return 1;
    }
    return 0;
}

/* The kernel's own bound on the plays of one move: maxplays from the tables. */

static int32_t rook_leaves(const ggn_game *g, const int32_t *pre, int side, int32_t square, chg_t *out) {
    for (int32_t h = 0; h < g->nhomes[side]; h++) {
        int32_t q = g->homes[side][h], k = pre[q];
        if (q != square && k && g->rookplain[k] && g->kside[k] == side) return 0;
    }
    int32_t king = g->castking[side];
    if (!king) return 0;
    int32_t n = 0;
    for (int32_t i = 0; i < g->nrank[side]; i++) {
        int32_t q = g->rank[side][i];
        if (pre[q] == king) { out[n].sq = q; out[n].val = g->kingplain[king]; n++; }
    }
    return n;
}

static int32_t rights_lost(const ggn_game *g, const int32_t *pre, int side, chg_t *out) {
    int32_t n = 0;
    for (int32_t h = 0; h < g->nhomes[side]; h++) {
        int32_t q = g->homes[side][h], k = pre[q];
        if (k && g->rookplain[k] && g->kside[k] == side) { out[n].sq = q; out[n].val = g->rookplain[k]; n++; }
    }
    return n;
}

/* The plays of move mi on a node whose board before its prefix is ``pre``; returns how many,
 * written to plays with their changes in chg. */
/* Whether ``side``'s gating rights count (seirawan): always where captures go to hand, else
 * while its hand holds a piece; then its castling rights stay when its king or rook moves. */
static int gates_live(const search_t *S, int side) {
    const ggn_game *g = S->g;
    if (!g->gating) return 0;
    if (g->gate_to_hand) return 1;
    const int32_t *hand = S->hand[side];
    if (!hand) return 0;
    for (int32_t k = 1; k < g->K; k++) if (hand[k] > 0) return 1;
    return 0;
}

static int32_t base_plays(const search_t *S, const int32_t *pre, int32_t mi, play_t *plays, chg_t *chg) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[mi];
    int side = g->kside[m->kind];
    int32_t used = 0, np = 0;
    if (m->src < 0) { /* a drop */
        for (int32_t k = 0; k < m->nplaced; k++) {
            play_t *p = &plays[np];
            p->off = used; p->n = 1; p->castle = 0; p->ordinal = np; p->king_moves = g->kterm[g->ints[m->placed_off + k]];
            p->gate = -1;
            chg[used].sq = m->dst; chg[used].val = g->ints[m->placed_off + k]; used++;
            p->hk1 = m->kind; p->hd1 = -1; p->hk2 = 0; p->hd2 = 0;
            np++;
        }
        return np;
    }
    int32_t taken = m->src == m->dst ? 0 : pre[m->dst];
    chg_t *clear = S->spare; /* N + 8 changes, and as many for ``lost`` (not on the stack: N may be 4096) */
    int32_t nclear = 0;
    if (taken && g->kside[taken] != side) {
        if (g->rookplain[taken]) nclear = gates_live(S, 1 - side) ? 0 : rook_leaves(g, pre, 1 - side, m->dst, clear);
        else if (taken == g->castking[1 - side]) nclear = rights_lost(g, pre, 1 - side, clear);
    }
    if (g->mleap && (g->mleap[mi] & LEAP_AIMS) && g->leapking[1 - side]) {
        /* the other king loses its leap if it stands on this move's file or rank */
        int32_t king = g->leapking[1 - side];
        for (int32_t q = 0; q < g->N; q++) {
            if (pre[q] != king) continue;
            if (g->lfile[q] == g->lfile[m->dst] || g->lrank[q] == g->lrank[m->dst]) {
                clear[nclear].sq = q; clear[nclear].val = g->leapplain[1 - side]; nclear++;
            }
            break;
        }
    }
    int32_t hk = 0;
    if (taken && g->capmap) hk = g->capmap[(size_t)taken * (size_t)g->K + (size_t)m->kind];
    int king_moves = g->kterm[m->kind];
#define OPEN(pp) do { (pp)->off = used; (pp)->castle = 0; (pp)->ordinal = np; (pp)->king_moves = king_moves; (pp)->gate = -1; \
        (pp)->hk1 = hk; (pp)->hd1 = hk ? 1 : 0; (pp)->hk2 = 0; (pp)->hd2 = 0; \
        for (int32_t c_ = 0; c_ < nclear; c_++) chg[used++] = clear[c_]; } while (0)
#define PUT(q, v) do { chg[used].sq = (q); chg[used].val = (v); used++; } while (0)
    if (m->mtype == 1) {
        chg_t *lost = S->spare + g->N + 8;
        int32_t nlost = gates_live(S, side) ? 0 : rights_lost(g, pre, side, lost);
        int32_t kp = g->kingplain[m->kind];
        if (m->plain) {
            play_t *p = &plays[np];
            OPEN(p);
            for (int32_t c = 0; c < nlost; c++) chg[used++] = lost[c];
            PUT(m->src, 0); PUT(m->dst, kp);
            p->n = used - p->off;
            np++;
        }
        for (int32_t r = 0; r < m->nrooks; r++) {
            int32_t rook = g->ints[m->rook_off + 2 * r], beside = g->ints[m->rook_off + 2 * r + 1];
            int32_t rk = pre[rook];
            if (!rk || !g->rookplain[rk] || g->kside[rk] != side) continue;
            play_t *p = &plays[np];
            OPEN(p);
            p->hk1 = 0; p->hd1 = 0; /* castling takes nothing */
            for (int32_t c = 0; c < nlost; c++) chg[used++] = lost[c];
            PUT(m->src, 0); PUT(rook, 0); PUT(m->dst, kp); PUT(beside, g->rookplain[rk]);
            p->castle = 1;
            p->n = used - p->off;
            np++;
        }
        return np;
    }
    if (m->mtype == 3) { /* a pass: nothing moves */
        play_t *p = &plays[np];
        OPEN(p);
        p->n = used - p->off;
        return 1;
    }
    if (m->mtype == 2) {
        play_t *p = &plays[np];
        OPEN(p);
        if (!gates_live(S, side)) used += rook_leaves(g, pre, side, m->src, chg + used);
        PUT(m->src, 0); PUT(m->dst, g->rookplain[m->kind]);
        p->n = used - p->off;
        return 1;
    }
    if (m->nvict && !taken) {
        for (int32_t v = 0; v < m->nvict; v++) {
            int32_t vq = g->ints[m->vict_off + 2 * v], vk = g->ints[m->vict_off + 2 * v + 1];
            if (pre[vq] != vk) continue;
            play_t *p = &plays[np];
            OPEN(p);
            if (g->capmap) { p->hk1 = g->capmap[(size_t)vk * (size_t)g->K + (size_t)m->kind]; p->hd1 = p->hk1 ? 1 : 0; }
            PUT(m->src, 0); PUT(m->dst, m->becomes); PUT(vq, 0);
            p->n = used - p->off;
            return 1;
        }
    }
    int took = taken && g->kside[taken] != side;
    for (int32_t k = 0; k < m->nplaced; k++) {
        int32_t placed = g->ints[m->placed_off + k];
        if (m->oncap && ((k == m->nplaced - 1 && !took) || (k == 0 && (m->oncap & 2) && took))) continue;
        if (m->limited && k >= m->stays && g->group[placed]) {
            /* a promotion into a limited type: only while the side has fewer than the limit */
            int32_t group = g->group[placed], have = 0;
            for (int32_t q = 0; q < g->N; q++) {
                int32_t v = pre[q];
                if (v && g->kside[v] == side && g->group[v] == group) have++;
            }
            if (have >= g->limit[group]) continue;
        }
        play_t *p = &plays[np];
        OPEN(p);
        PUT(m->src, 0); PUT(m->dst, placed);
        p->n = used - p->off;
        np++;
    }
    return np;
#undef OPEN
#undef PUT
}

/* The value square q holds after changes chg[off .. off+n-1] on board pre. */
static inline int32_t after_changes(const int32_t *pre, const chg_t *chg, int32_t off, int32_t n, int32_t q) {
    int32_t v = pre[q];
    for (int32_t c = 0; c < n; c++) if (chg[off + c].sq == q) v = chg[off + c].val;
    return v;
}

/* Seirawan's gating: after the move's own plays, for each of them, each square it empties (its
 * source; a castling's rook's too), each piece of the hand that may enter it, a play with that
 * piece entering (the rule system's _gate, in its order). Its changes are the play's, the
 * piece entering before the last; with the hand's last piece gone (captures not to hand),
 * every gating right on the side's rank but its castling rights goes with it (_gates_lost). */
static int32_t gate_plays(const search_t *S, const int32_t *pre, int32_t mi, play_t *plays, chg_t *chg, int32_t np) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[mi];
    int side = g->kside[m->kind];
    const int32_t *hand = S->hand[side];
    if (!hand || np <= 0) return np;
    int32_t distinct = 0;
    for (int32_t k = 1; k < g->K; k++) if (hand[k] > 0) distinct++;
    if (!distinct) return np;
    int32_t N = g->N, base = np;
    size_t room = (size_t)g->maxplays * (size_t)g->perplay;
    int32_t used = plays[np - 1].off + plays[np - 1].n;
    for (int32_t j = 0; j < base; j++) {
        const play_t b0 = plays[j];
        int32_t squares[2], nsq = 0;
        squares[nsq++] = m->src;
        for (int32_t c = 0; c < b0.n && nsq < 2; c++) {
            int32_t q = chg[b0.off + c].sq, k = pre[q];
            if (!chg[b0.off + c].val && q != m->src && k && g->rookplain[k] && g->kside[k] == side) squares[nsq++] = q;
        }
        for (int32_t si = 0; si < nsq; si++) {
            int32_t sq = squares[si];
            if (after_changes(pre, chg, b0.off, b0.n, sq) != 0) continue;
            for (int32_t gi = 0; gi < g->ngates[side]; gi++) {
                int32_t gk = g->gatekind[side][gi];
                if (hand[gk] <= 0 || !g->gateok[side][(size_t)gi * (size_t)N + (size_t)sq]) continue;
                if (np >= g->maxplays || (size_t)used + (size_t)b0.n + 1 + (size_t)g->ngrank[side] > room) return np;
                play_t *p = &plays[np];
                *p = b0;
                p->off = used;
                p->ordinal = np;
                p->gate = sq;
                p->hk2 = gk; p->hd2 = -1;
                for (int32_t c = 0; c < b0.n - 1; c++) chg[used++] = chg[b0.off + c];
                int32_t gate_at = used;
                chg[used].sq = sq; chg[used].val = gk; used++;
                chg[used++] = chg[b0.off + b0.n - 1];
                if (hand[gk] == 1 && distinct == 1 && !g->gate_to_hand) {
                    /* the rights the emptied hand takes, before the last two changes */
                    int32_t off = p->off, n = used - p->off, home = g->ghome[side], castles = 0;
                    chg_t tail[2] = {chg[gate_at], chg[gate_at + 1]};
                    if (home >= 0) {
                        int32_t kept = 0;
                        for (int32_t h = 0; h < g->nghomes[side]; h++) {
                            int32_t v = after_changes(pre, chg, off, n, g->ghomes[side][h]);
                            if (v && g->rookplain[v] && g->kside[v] == side) kept = 1;
                        }
                        castles = kept && after_changes(pre, chg, off, n, home) == g->castking[side];
                    }
                    used = gate_at;
                    for (int32_t i = 0; i < g->ngrank[side]; i++) {
                        int32_t q = g->grank[side][i], v = after_changes(pre, chg, off, n, q);
                        if (!v || !g->kgated[v]) continue;
                        if (castles) {
                            int keep = q == home;
                            for (int32_t h = 0; h < g->nghomes[side] && !keep; h++)
                                if (g->ghomes[side][h] == q && g->rookplain[v] && g->kside[v] == side) keep = 1;
                            if (keep) continue;
                        }
                        chg[used].sq = q; chg[used].val = g->kgated[v]; used++;
                    }
                    chg[used++] = tail[0];
                    chg[used++] = tail[1];
                }
                p->n = used - p->off;
                np++;
            }
        }
    }
    return np;
}

/* Whether play p of move m, by ``side``, captures (its changes on ``pre``, the board before the
 * play and its node's prefix): its destination held a piece of the other side, or it empties
 * one's square (en passant). Explosions and petrifying captures both follow it. */
static int play_takes(const ggn_game *g, const int32_t *pre, const move_t *m, const play_t *p, const chg_t *chg,
                      int side) {
    if (pre[m->dst] && g->kside[pre[m->dst]] != side) return 1;
    for (int32_t c = 0; c < p->n; c++) {
        int32_t q = chg[p->off + c].sq;
        if (!chg[p->off + c].val && pre[q] && g->kside[pre[q]] != side) return 1;
    }
    return 0;
}

/* The plays with their explosions (the rule system's _explode): a play that captures (its
 * destination held a piece of the other side, or it empties one's square) removes the piece on
 * its destination and those around it, but the immune ones and the spared (pawns), which stay
 * unless they made the capture; a castling king gone takes its rooks' rights, and the last
 * rook with a right gone takes its king's. */
static int32_t explode(const search_t *S, const int32_t *pre, int32_t mi, play_t *plays, chg_t *chg, int32_t np) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[mi];
    int side = g->kside[m->kind];
    chg_t *out = S->bscratch;
    size_t room = (size_t)g->maxplays * (size_t)g->perplay, used = 0;
    int32_t *board = S->trial;
    for (int32_t j = 0; j < np; j++) {
        play_t *p = &plays[j];
        int capture = play_takes(g, pre, m, p, chg, side);
        if (used + (size_t)p->n > room) return j; /* only with hostile tables */
        size_t off = used;
        for (int32_t c = 0; c < p->n; c++) out[used++] = chg[p->off + c];
        if (capture) {
            int32_t removed[9], before[9], nr = 0;
            for (int32_t q = 0; q < g->N; q++) board[q] = pre[q] ? g->unmark[pre[q]] : 0;
            for (int32_t c = 0; c < p->n; c++) board[chg[p->off + c].sq] = chg[p->off + c].val;
            const int32_t *ring = g->around + 9 * (size_t)m->dst;
            for (int32_t k = -1; k < ring[0]; k++) {
                int32_t q = k < 0 ? m->dst : ring[1 + k], v = board[q];
                if (!v || (g->kblast[v] & BLAST_IMMUNE) || (q != m->dst && (g->kblast[v] & BLAST_SPARED))) continue;
                removed[nr] = q; before[nr] = v; nr++;
            }
            for (int32_t k = 0; k < nr && used < room; k++) { out[used].sq = removed[k]; out[used].val = 0; used++; board[removed[k]] = 0; }
            for (int s = 0; s < 2 && g->castking[s]; s++) {
                int32_t king = g->castking[s], gone = 0, stands = 0, rights = 0;
                for (int32_t k = 0; k < nr; k++) if (before[k] == king) gone = 1;
                for (int32_t h = 0; h < g->nhomes[s]; h++) {
                    int32_t v = board[g->homes[s][h]];
                    if (v && g->rookplain[v] && g->kside[v] == s) rights = 1;
                }
                if (gone) {
                    for (int32_t h = 0; h < g->nhomes[s] && used < room; h++) {
                        int32_t q = g->homes[s][h], v = board[q];
                        if (v && g->rookplain[v] && g->kside[v] == s) { out[used].sq = q; out[used].val = g->rookplain[v]; used++; }
                    }
                    continue;
                }
                for (int32_t q = 0; q < g->N && !stands; q++) if (board[q] == king) stands = 1;
                if (!stands || rights) continue;
                for (int32_t i = 0; i < g->nrank[s] && used < room; i++) {
                    int32_t q = g->rank[s][i];
                    if (board[q] == king) { out[used].sq = q; out[used].val = g->kingplain[king]; used++; }
                }
            }
        }
        p->off = (int32_t)off;
        p->n = (int32_t)(used - off);
    }
    memcpy(chg, out, used * sizeof(chg_t));
    return np;
}

/* A drop of a castling king or rook (castlingDroppedPiece, the rule system's _castling_drop),
 * its one play's changes after the drop's own: a king dropped on its home with a rook (with
 * its right or plain) in a corner of the rank takes its right, and each plain rook there
 * takes its own; a rook dropped in a corner with the king (plain or with its right) at home
 * takes its right, and the king its own. */
static void castle_drop(const search_t *S, const int32_t *pre, const move_t *m, play_t *p, chg_t *chg) {
    const ggn_game *g = S->g;
    int32_t k = m->kind, dst = m->dst;
    int side = g->kside[k];
    int32_t home = g->dhome[side], castking = g->dcastking[side], n = p->n;
    if (home < 0 || p->n != 1) return;
    if (g->kdrop[k] == DROP_KING) {
        if (dst != home) return;
        int rooks = 0;
        for (int32_t i = 0; i < g->ncorners[side]; i++) {
            int32_t v = pre[g->dcorner[side][i]];
            if (v && g->kside[v] == side && (g->rookplain[v] || g->kdrop[v] == DROP_ROOK)) rooks = 1;
        }
        if (!rooks) return;
        chg[p->off].val = castking;
        for (int32_t i = 0; i < g->ncorners[side]; i++) {
            int32_t q = g->dcorner[side][i], v = pre[q];
            if (v && g->kside[v] == side && g->kdrop[v] == DROP_ROOK) { chg[p->off + n].sq = q; chg[p->off + n].val = g->kdropright[v]; n++; }
        }
    } else {
        int corner = 0;
        for (int32_t i = 0; i < g->ncorners[side]; i++) if (g->dcorner[side][i] == dst) corner = 1;
        int32_t v = pre[home];
        if (!corner || !v || g->kside[v] != side || (v != castking && g->kdrop[v] != DROP_KING)) return;
        chg[p->off].val = g->kdropright[k];
        chg[p->off + n].sq = home; chg[p->off + n].val = castking; n++;
    }
    p->n = n;
}

/* Petrified's walls (the rule system's _petrifies): a play of a petrifying piece that captures
 * (its destination held a piece of the other side, or it empties one's square) and leaves a
 * piece of a petrifying type on its destination leaves a wall there instead. */
static int32_t petrify(const search_t *S, const int32_t *pre, int32_t mi, play_t *plays, chg_t *chg, int32_t np) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[mi];
    int side = g->kside[m->kind];
    chg_t *out = S->bscratch;
    size_t room = (size_t)g->maxplays * (size_t)g->perplay, used = 0;
    for (int32_t j = 0; j < np; j++) {
        play_t *p = &plays[j];
        int capture = play_takes(g, pre, m, p, chg, side);
        int32_t last = 0; /* what the play leaves on its destination */
        for (int32_t c = 0; c < p->n; c++) if (chg[p->off + c].sq == m->dst) last = chg[p->off + c].val;
        if (used + (size_t)p->n + 1 > room) return j; /* only with hostile tables */
        size_t off = used;
        for (int32_t c = 0; c < p->n; c++) out[used++] = chg[p->off + c];
        if (capture && last && (g->kpetrify[last] & PETRIFY_TYPE)) { out[used].sq = m->dst; out[used].val = g->pwall; used++; }
        p->off = (int32_t)off;
        p->n = (int32_t)(used - off);
    }
    memcpy(chg, out, used * sizeof(chg_t));
    return np;
}

static int32_t plays_of(const search_t *S, const int32_t *pre, int32_t mi, play_t *plays, chg_t *chg) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[mi];
    if (g->kblast && (g->kblast[m->kind] & BLAST_MUTUAL) && m->src != m->dst && pre[m->dst] &&
        g->ktype[pre[m->dst]] == g->ktype[m->kind])
        return 0; /* mutually immune types: no capture of one's own type */
    int32_t np = base_plays(S, pre, mi, plays, chg);
    if (g->mgate && g->mgate[mi]) np = gate_plays(S, pre, mi, plays, chg, np);
    if (g->blast && m->src >= 0) np = explode(S, pre, mi, plays, chg, np);
    if (g->kpetrify && m->src >= 0 && (g->kpetrify[m->kind] & PETRIFY_TYPE)) np = petrify(S, pre, mi, plays, chg, np);
    if (g->kdrop && m->src < 0 && g->kdrop[m->kind] && np == 1) castle_drop(S, pre, m, &plays[0], chg);
    return np;
}

enum { MODE_COUNT, MODE_FIRST, MODE_PERFT, MODE_LIST, MODE_DIVIDE, MODE_REACH };

typedef struct {
    int32_t *out; /* list: pairs; divide: handled with out64 */
    int64_t *out64;
    size_t cap, found;
} sink_t;

static uint64_t walk(search_t *S, int ply, int depth, int mode, sink_t *sink);

/* Whether castling play p of move m is safe: the king not attacked on its source, nor on
 * the squares it crosses (its source still held), nor, with a shield, on its destination
 * with its rooks gone (the rule system's _castling_safe). */
static int castling_safe(search_t *S, int32_t *pre, const move_t *m, int side) {
    const ggn_game *g = S->g;
    if (attacked(S, pre, m->src, 1 - side, 0)) return 0;
    for (int32_t i = 0; i < m->nsafe; i++) {
        int32_t q = g->ints[m->safe_off + i];
        int32_t kept = pre[q];
        pre[q] = m->kind;
        int hit = attacked(S, pre, q, 1 - side, 0);
        pre[q] = kept;
        if (hit) return 0;
    }
    if (!m->shielded) return 1;
    int32_t *trial = S->trial;
    memcpy(trial, pre, (size_t)g->N * 4);
    for (int32_t r = 0; r < m->nrooks; r++) trial[g->ints[m->rook_off + 2 * r]] = 0;
    trial[m->dst] = m->kind;
    return !attacked(S, trial, m->dst, 1 - side, 0);
}

/* --- the ends and legality rules beyond the terminal pieces' (the tables' ends section) ---- */

/* Whether some pseudo-royal piece of ``side`` on b can be taken (its type's pieces are royal
 * while the side has at most pseudo_limit of them): the rule system's _pseudo_attacked. */
static int pseudo_attacked(const search_t *S, const int32_t *b, int side) {
    const ggn_game *g = S->g;
    int32_t count[MAX_LETTERS + 1] = {0};
    int any = 0;
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (k && g->pgroup[k] && g->kside[k] == side) { count[g->pgroup[k]]++; any = 1; }
    }
    if (!any) return 0;
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (k && g->pgroup[k] && g->kside[k] == side && count[g->pgroup[k]] <= g->pseudo_limit &&
            attacked(S, b, q, 1 - side, 0))
            return 1;
    }
    return 0;
}

/* Duple check: whether ``side`` has pieces of the pseudo-royal types on b and all can be taken. */
static int duple_attacked(const search_t *S, const int32_t *b, int side) {
    const ggn_game *g = S->g;
    int found = 0;
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (!k || !g->pgroup[k] || g->kside[k] != side) continue;
        if (!attacked(S, b, q, 1 - side, 0)) return 0;
        found = 1;
    }
    return found;
}

/* Whether square q of b holds a pseudo-royal piece of ``side``. */
static int pseudo_royal_at(const ggn_game *g, const int32_t *b, int side, int32_t q) {
    int32_t k = b[q];
    if (!k || !g->pgroup[k] || g->kside[k] != side) return 0;
    int32_t count = 0;
    for (int32_t x = 0; x < g->N; x++)
        if (b[x] && g->pgroup[b[x]] == g->pgroup[k] && g->kside[b[x]] == side) count++;
    return count <= g->pseudo_limit;
}

/* The board a move's legality tests the pseudo-royal pieces of ``side`` on: the other side's
 * pieces that would turn into walls by taking stand as walls (they attack nothing). */
static const int32_t *guarded_board(const search_t *S, const int32_t *b, int side) {
    const ggn_game *g = S->g;
    if (!g->kpetrify) return b;
    int32_t q = 0;
    for (; q < g->N; q++) if (b[q] && (g->kpetrify[b[q]] & PETRIFY_GUARDED) && g->kside[b[q]] != side) break;
    if (q == g->N) return b;
    int32_t *trial = S->trial;
    for (q = 0; q < g->N; q++) {
        int32_t v = b[q];
        trial[q] = v && (g->kpetrify[v] & PETRIFY_GUARDED) && g->kside[v] != side ? g->pwall : v;
    }
    return trial;
}

/* Petrified: whether move m of ``side`` is of a pseudo-royal piece that would turn into a wall
 * (on ``pre``, the board before the play and its node's prefix): such a play is illegal. */
static int petrify_guarded(const ggn_game *g, const int32_t *pre, const move_t *m, int side) {
    return g->kpetrify && m->src >= 0 && (g->kpetrify[m->kind] & PETRIFY_TYPE) && pseudo_royal_at(g, pre, side, m->src);
}

/* The game's own rules on a play made on b (``pre``: the board before the play and its node's
 * prefix): 1 if they refuse it (a check given where none may be, a pseudo-royal piece left to
 * be taken, every piece of the pseudo-royal types attacked). */
static int rules_refuse(const search_t *S, const int32_t *b, const move_t *m, int taken, int side) {
    const ggn_game *g = S->g;
    if (((g->eflags & E_NO_CHECKS) || ((g->eflags & E_NO_DROP_CHECKS) && m->src < 0)) &&
        any_terminal_attacked(S, b, 1 - side, 0))
        return 1;
    if (!(g->eflags & E_PSEUDO) || (g->eflags & E_BLAST_ROYAL)) return 0; /* atomic's: blast_legal */
    if (!taken && pseudo_attacked(S, guarded_board(S, b, side), side)) return 1;
    return m->src >= 0 && (g->eflags & E_DUPLE) && duple_attacked(S, b, side);
}

/* Whether play p of ``side`` takes a pseudo-royal piece of the other side off the board (leaves
 * its square empty: en passant), on ``pre``, the board before the play and its node's prefix:
 * then the play is legal whatever it leaves attacked. */
static int pseudo_takes(const ggn_game *g, const int32_t *pre, const play_t *p, const chg_t *chg, int side) {
    for (int32_t c = 0; c < p->n; c++) {
        int32_t q = chg[p->off + c].sq, k = pre[q];
        if (chg[p->off + c].val == 0 && k && g->pgroup[k] && pseudo_royal_at(g, pre, 1 - side, q)) return 1;
    }
    return 0;
}

/* A move's own rules, before its plays (the board ``pre``: before the node's prefix): a makpong
 * king in check moves only to take its one checker (the piece taken stands in for one of the
 * king's own); a drop of a no-doubled kind not onto a file holding as many of its kind. */
static int move_rules_allow(search_t *S, const int32_t *pre, const move_t *m, int side) {
    const ggn_game *g = S->g;
    if (m->src >= 0 && (g->kflag[m->kind] & K_MAKPONG)) {
        if (!attacked(S, pre, m->src, 1 - side, 0)) return 1;
        int32_t taken = pre[m->dst];
        if (m->src == m->dst || !taken || g->kside[taken] == side) return 0;
        memcpy(S->trial, pre, (size_t)g->N * 4);
        S->trial[m->dst] = m->kind;
        return !attacked(S, S->trial, m->src, 1 - side, 0);
    }
    if (m->src < 0 && (g->kflag[m->kind] & K_UNDOUBLED) && g->doubled) {
        int32_t file = g->file[m->dst], same = 0;
        if (file < 0) return 1;
        for (int32_t q = 0; q < g->N; q++) if (pre[q] == m->kind && g->file[q] == file) same++;
        return same < g->doubled;
    }
    return 1;
}

/* Placement's bishops (dropOppositeColoredBishop, the rule system's _bishops_placeable): a
 * bishop may not be dropped on a colour that holds half of its side's bishops (on the board,
 * ``pre``, and in hand, rounded up); another piece may not be dropped where the bishops still
 * to come would lack squares of either colour (their own, or empty ones of the drop region). */
static int bishops_allow(const search_t *S, const int32_t *pre, const move_t *m, int side) {
    const ggn_game *g = S->g;
    int32_t bishop = g->dbishop[side];
    if (!bishop || m->src >= 0) return 1;
    int32_t on[2] = {0, 0}, open[2] = {0, 0}, placed = 0;
    for (int32_t q = 0; q < g->N; q++) {
        int32_t v = pre[q], colour = g->dcolour[q];
        if (v == bishop) { placed++; if (colour >= 0) on[colour]++; }
        else if (!v && q != m->dst && colour >= 0 && g->dregion[side][q]) open[colour]++;
    }
    int64_t total = (int64_t)placed + (S->hand[side] ? S->hand[side][bishop] : 0);
    if (m->kind == bishop) {
        int32_t colour = g->dcolour[m->dst];
        return colour < 0 || on[colour] + 1 <= (total + 1) / 2;
    }
    for (int shade = 0; shade < 2; shade++) if (on[shade] + open[shade] < total / 2) return 0;
    return 1;
}

/* Sittuyin's promotion (the rule system's _extra_moves): of a pawn in its zone while its side
 * has more than one pawn on ``pre`` (the board before the node's prefix), any pawn else. Its
 * other conditions are the move's: its destination empty (unless it is the pawn's square), no
 * piece of the other side a step of the new piece away; its limit is the promotion's. */
static int sittuyin_allow(const ggn_game *g, const int32_t *pre, const move_t *m, int side) {
    if (g->szone[m->src] >> side & 1) return 1;
    int32_t pawns = 0;
    for (int32_t q = 0; q < g->N && pawns < 2; q++) {
        int32_t v = pre[q];
        if (v && g->kspawn[v] && g->kside[v] == side) pawns++;
    }
    return pawns <= 1;
}

/* Atomic's legality with explosions and pseudo-royal pieces (the rule system's _blast_legal). */

/* The squares of ``side``'s pseudo-royal pieces on b (its type's pieces while it has at most
 * pseudo_limit of them), written to out; how many. */
static int32_t pseudo_royals(const ggn_game *g, const int32_t *b, int side, int32_t *out) {
    int32_t count[MAX_LETTERS + 1] = {0}, n = 0;
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (k && g->pgroup[k] && g->kside[k] == side) count[g->pgroup[k]]++;
    }
    for (int32_t q = 0; q < g->N; q++) {
        int32_t k = b[q];
        if (k && g->pgroup[k] && g->kside[k] == side && count[g->pgroup[k]] <= g->pseudo_limit) out[n++] = q;
    }
    return n;
}

/* Whether the pseudo-royal piece of ``side`` on square q of b is in check: attacked, and not
 * beside one of the other side's (``theirs``, their squares; taking it would blow that one up). */
static int blast_checked(const search_t *S, const int32_t *b, int32_t q, const int32_t *theirs, int32_t ntheirs, int side) {
    const ggn_game *g = S->g;
    const int32_t *ring = g->around + 9 * (size_t)q;
    for (int32_t t = 0; t < ntheirs; t++)
        for (int32_t k = 0; k < ring[0]; k++) if (ring[1 + k] == theirs[t]) return 0;
    return attacked(S, b, q, 1 - side, 0);
}

/* A play of move m made on b (``mine``, ``theirs``: the pseudo-royal squares of the mover and of
 * the other side before it): the mover's must all stand (the moving one where it went); if one
 * of the other side's is gone it is legal; else none of the mover's may be in check. */
static int blast_legal(const search_t *S, const int32_t *b, const move_t *m, int side, const int32_t *mine,
                       int32_t nmine, const int32_t *theirs, int32_t ntheirs) {
    const ggn_game *g = S->g;
    for (int32_t i = 0; i < nmine; i++) {
        int32_t q = mine[i] == m->src ? m->dst : mine[i];
        if (!b[q] || g->kside[b[q]] != side) return 0;
    }
    for (int32_t i = 0; i < ntheirs; i++) if (!b[theirs[i]] || g->kside[b[theirs[i]]] == side) return 1;
    for (int32_t i = 0; i < nmine; i++) {
        int32_t q = mine[i] == m->src ? m->dst : mine[i];
        if (blast_checked(S, b, q, theirs, ntheirs, side)) return 0;
    }
    return 1;
}

/* Atomic's castling: the king may not start on nor cross a square in check (m's safe squares),
 * tested on ``pre`` (the board before the play) with its source emptied. */
static int blast_castle_safe(search_t *S, const int32_t *pre, const move_t *m, int side, const int32_t *theirs,
                             int32_t ntheirs) {
    const ggn_game *g = S->g;
    int32_t *trial = S->trial;
    memcpy(trial, pre, (size_t)g->N * 4);
    trial[m->src] = 0;
    for (int32_t i = 0; i < m->nsafe; i++) {
        int32_t q = g->ints[m->safe_off + i], kept = trial[q];
        trial[q] = m->kind;
        int checked = blast_checked(S, trial, q, theirs, ntheirs, side);
        trial[q] = kept;
        if (checked) return 0;
    }
    return 1;
}

/* Whether castling move m must be safe (its king royal, or pseudo-royal where it stands). */
static int castle_checked(const ggn_game *g, const int32_t *pre, const move_t *m, int side) {
    if (g->castle_check == 1) return 1;
    return g->castle_check == 2 && pseudo_royal_at(g, pre, side, m->src);
}

/* Whether move m of ``side`` takes a piece on board b (before the node's prefix): its
 * destination holds one of the other side's, or its en passant victim stands. */
static int move_captures(const ggn_game *g, const int32_t *b, const move_t *m, int side) {
    if (m->src == m->dst) return 0;
    int32_t v = b[m->dst];
    if (v) return g->kside[v] != side;
    if (m->src < 0 || m->mtype != 0) return 0;
    for (int32_t x = 0; x < m->nvict; x++)
        if (b[g->ints[m->vict_off + 2 * x]] == g->ints[m->vict_off + 2 * x + 1]) return 1;
    return 0;
}

enum { PROBE_NONE, PROBE_CAPTURES, PROBE_DROPS };

static int forced_drop(const ggn_game *g, const move_t *m) {
    return m->src < 0 && (g->kflag[m->kind] & K_FORCED_DROP);
}

/* Whether ``side``'s hand holds a piece whose drops are forced. */
static int holds_forced(const ggn_game *g, const int32_t *hand, int side) {
    for (int32_t k = 1; k < g->K; k++)
        if (hand[k] > 0 && g->kside[k] == side && (g->kflag[k] & K_FORCED_DROP)) return 1;
    return 0;
}

/* The side to move's check as the rule system's in_check reads it (with pseudo-royal pieces). */
static int in_check_full(const search_t *S, const int32_t *b, int side) {
    const ggn_game *g = S->g;
    if (any_terminal_attacked(S, b, side, 1)) return 1;
    if (!(g->eflags & E_PSEUDO)) return 0;
    if (g->eflags & E_BLAST_ROYAL) { /* atomic: one of its pseudo-royal pieces in check */
        int32_t *mine = S->broyal + (size_t)S->plies * 2 * (size_t)g->N, *theirs = mine + g->N;
        int32_t nmine = pseudo_royals(g, b, side, mine), ntheirs = pseudo_royals(g, b, 1 - side, theirs);
        for (int32_t i = 0; i < nmine; i++) if (blast_checked(S, b, mine[i], theirs, ntheirs, side)) return 1;
        return 0;
    }
    return pseudo_attacked(S, b, side) || ((g->eflags & E_DUPLE) && duple_attacked(S, b, side));
}

/* Whether ``side`` has reached its flag region on b (the rule system's _reached). */
static int flag_reached(const search_t *S, const int32_t *b, int side, int mover) {
    const ggn_game *g = S->g;
    int32_t there = 0;
    int full = 1;
    for (int32_t i = 0; i < g->nregion[side]; i++) {
        int32_t v = b[g->region[side][i]];
        if (!v) full = 0;
        else if (g->kside[v] == side && (g->kflag[v] & 1)) there++;
    }
    if (!there || !(there >= g->flag_count || ((g->eflags & E_FLAG_BLOCKED) && full))) return 0;
    if ((g->eflags & E_FLAG_SAFE) && there == g->flag_count && (!(g->eflags & E_FLAG_MOVE) || side != mover)) {
        for (int32_t i = 0; i < g->nregion[side]; i++) {
            int32_t q = g->region[side][i], v = b[q];
            if (v && g->kside[v] == side && (g->kflag[v] & 1) && attacked(S, b, q, 1 - side, 0)) return 0;
        }
    }
    return 1;
}

/* Whether the game has ended before the side to move plays, on b (before the node's prefix):
 * GGN_END_EXTINCTION (a type extinct: its letter's number in S->ended_letter) or GGN_END_FLAG
 * (a flag region reached), with the result for the side to move in *value (1 a win, 0 a draw,
 * -1 a loss), else 0 (the rule system's _ended). Walks at ``ply`` for a flag move's test. */
static int game_ended(search_t *S, int ply, int32_t *b, int *value) {
    const ggn_game *g = S->g;
    int32_t N = g->N;
    int mover = b[N] & 1;
    S->ended_letter = -1;
    if (g->eflags & E_EXTINCTION) {
        int32_t count[2][MAX_LETTERS] = {{0}};
        for (int32_t q = 0; q < N; q++) {
            int32_t k = b[q];
            if (!k || !g->extmask[k]) continue;
            for (int32_t i = 0; i < g->nletters; i++) if (g->extmask[k] >> i & 1) count[g->kside[k]][i]++;
        }
        if (S->hand[0]) {
            for (int s = 0; s < 2; s++)
                for (int32_t k = 1; k < g->K; k++) {
                    int32_t held = S->hand[s][k];
                    if (held <= 0 || g->kside[k] != s || !g->extmask[k]) continue;
                    for (int32_t i = 0; i < g->nletters; i++) if (g->extmask[k] >> i & 1) count[s][i] += held;
                }
        }
        for (int o = 0; o < 2; o++) { /* the other side first, as the rule system looks */
            int s = o ? mover : 1 - mover;
            for (int32_t i = 0; i < g->nletters; i++) {
                int32_t claim = g->ext_claim && s == mover ? 1 : 0;
                if (count[s][i] <= g->ext_count && count[1 - s][i] >= g->ext_opp + claim) {
                    *value = s == mover ? g->ext_value : -g->ext_value;
                    S->ended_letter = i;
                    return GGN_END_EXTINCTION;
                }
            }
        }
    }
    if (g->eflags & E_FLAG) {
        int fmove = g->eflags & E_FLAG_MOVE, fsafe = g->eflags & E_FLAG_SAFE, royal = g->eflags & E_FLAG_ROYAL;
        if ((fmove || fsafe) && flag_reached(S, b, mover, mover)) {
            int both = ((fmove && mover == 0 && royal) || (fsafe && !fmove)) && flag_reached(S, b, 1 - mover, mover);
            *value = both ? 0 : 1;
            return GGN_END_FLAG;
        }
        if ((!fmove || fsafe || royal) && flag_reached(S, b, 1 - mover, mover)) {
            if (fmove && royal && mover == 1 && !in_check_full(S, b, 1)) {
                /* the second player's royal piece may still reach its region: the game goes on */
                S->no_ends++;
                uint64_t reach = walk(S, ply, 1, MODE_REACH, NULL);
                S->no_ends--;
                if (reach) return 0;
            }
            *value = -1;
            return GGN_END_FLAG;
        }
    }
    return 0;
}


/* --- walls ---------------------------------------------------------------------------------- */

/* The squares the wall of a legal play of move mi may go to (the rule system's _wall_targets),
 * in order: empty after the play (board b), the mover's to wall, and as the walling rule says
 * (``pre``: the board before the play). Written to out; how many. */
static int32_t wall_targets(const search_t *S, const int32_t *pre, const int32_t *b, int32_t mi, int side,
                            int32_t *out) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[mi];
    int32_t N = g->N, n = 0, bit = 1 << side;
    if (g->wall_rule == WALL_PAST) {
        if (m->src >= 0 && !b[m->src] && (g->wflags[m->src] & bit)) out[n++] = m->src;
        return n;
    }
    int32_t *reach = S->wreach;
    if (g->wall_rule == WALL_ARROW) {
        /* where the piece could move on without capturing, from its destination, the board as
         * it was with its source emptied */
        memset(reach, 0, (size_t)N * 4);
        int32_t group = g->marrow[mi];
        if (group < 0) return 0;
        const int32_t *d = g->wdata + g->wgoff[group];
        for (int32_t p = 0; p < g->wgn[group]; p++) {
            int32_t target = *d++, ok = 1;
            int32_t count = *d++;
            for (int32_t k = 0; k < count; k++, d++) if (*d != m->src && pre[*d]) ok = 0;
            count = *d++;
            for (int32_t k = 0; k < count; k++, d++) if (*d == m->src || !pre[*d]) ok = 0;
            if (ok) reach[target] = 1;
        }
    }
    for (int32_t q = 0; q < N; q++) {
        if (b[q] || !(g->wflags[q] & bit)) continue;
        if (g->wall_rule == WALL_ARROW && !reach[q]) continue;
        if (g->wall_rule == WALL_EDGE && !(g->wflags[q] & 4)) {
            int near = 0;
            for (int k = 0; k < 4 && !near; k++) {
                int32_t o = g->wbeside[4 * q + k];
                if (o >= 0 && pre[o] == g->wall_kind) near = 1;
            }
            if (!near) continue;
        }
        out[n++] = q;
    }
    return n;
}

/* Put a play's wall on square t of board b (``pre``: the board before the play): the duck's
 * walls of before taken away, a double step over t no longer marked, the wall. What was
 * replaced goes to undo; how many changes. */
static int32_t wall_make(const ggn_game *g, const int32_t *pre, int32_t *b, int side, int32_t t, chg_t *undo) {
    int32_t N = g->N, n = 0, wall = g->wall_kind;
    if (g->wall_rule == WALL_DUCK) {
        for (int32_t q = 0; q < N; q++)
            if (pre[q] == wall && b[q] == wall) { undo[n].sq = q; undo[n].val = wall; n++; b[q] = 0; }
    }
    int32_t passed = t + g->wfwd[side];
    if (passed >= 0 && passed < N) {
        int32_t v = b[passed];
        if (v && g->unmark[v] != v) { undo[n].sq = passed; undo[n].val = v; n++; b[passed] = g->unmark[v]; }
    }
    undo[n].sq = t; undo[n].val = b[t]; n++;
    b[t] = wall;
    return n;
}

static void wall_unmake(int32_t *b, const chg_t *undo, int32_t n) {
    for (int32_t c = n - 1; c >= 0; c--) b[undo[c].sq] = undo[c].val;
}

/* A play made on the board, walked below (the other side to move) where perft or a deeper
 * divide asks, and written as divide's (move, play number, count) triple: its count below. */
static inline uint64_t descend(search_t *S, int ply, int depth, int mode, sink_t *sink, int32_t mi,
                               int64_t number, int side) {
    int32_t N = S->g->N;
    int32_t *b = S->b;
    uint64_t below = 1;
    if (mode == MODE_PERFT || depth > 1) {
        b[N] = 1 - side;
        below = walk(S, ply + 1, depth - 1, MODE_PERFT, NULL);
        b[N] = side;
    }
    if (mode == MODE_DIVIDE) {
        if (sink->found < sink->cap) {
            sink->out64[3 * sink->found] = mi;
            sink->out64[3 * sink->found + 1] = number;
            sink->out64[3 * sink->found + 2] = (int64_t)below;
        }
        sink->found++;
    }
    return below;
}

/* The plays a legal play (move mi, its play ``ordinal``) makes with its walls, as walk's mode
 * asks (counted, the first, perft below each, listed as (mi, ordinal * N + square)). */
static uint64_t walled(search_t *S, int ply, int depth, int mode, sink_t *sink, const int32_t *pre, int32_t mi,
                       int32_t ordinal, int side) {
    const ggn_game *g = S->g;
    int32_t N = g->N;
    int32_t *b = S->b;
    int32_t *targets = S->wt + (size_t)ply * (size_t)N;
    int32_t n = wall_targets(S, pre, b, mi, side, targets);
    if (!n) return 0;
    if (mode == MODE_COUNT || (mode == MODE_PERFT && depth <= 1)) return (uint64_t)n;
    if (mode == MODE_FIRST) return 1;
    if (mode == MODE_LIST) {
        for (int32_t i = 0; i < n; i++) {
            if (sink->found < sink->cap) {
                sink->out[2 * sink->found] = mi;
                sink->out[2 * sink->found + 1] = ordinal * N + targets[i];
            }
            sink->found++;
        }
        return (uint64_t)n;
    }
    uint64_t total = 0;
    chg_t *undo = S->wundo + (size_t)ply * (size_t)(N + 2);
    for (int32_t i = 0; i < n && !S->err; i++) {
        int32_t made = wall_make(g, pre, b, side, targets[i], undo);
        total += descend(S, ply, depth, mode, sink, mi, (int64_t)ordinal * N + targets[i], side);
        wall_unmake(b, undo, made);
    }
    return total;
}

/* A legal play already made on the board (or a pass, which changes nothing), counted, listed or
 * walked below as walk's mode asks. */
static uint64_t emit_walled(search_t *S, int ply, int depth, int mode, sink_t *sink, int32_t mi, int32_t ordinal,
                           int side) {
    return walled(S, ply, depth, mode, sink, S->pre + (size_t)ply * (size_t)(S->g->N + 1), mi, ordinal, side);
}

/* Inlined wherever it is called, where the compiler would not (emit, collect: a call each
 * costs a listing or a playout a few percent). */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE __forceinline
#else
#define ALWAYS_INLINE inline
#endif

/* (inline: a listing or a count emits most of its plays here, and a call each cost a sixth of
 * the walk's time) */
static ALWAYS_INLINE uint64_t emit(search_t *S, int ply, int depth, int mode, sink_t *sink, int32_t mi, int32_t ordinal,
                            int side) {
    if (S->g->wall_rule) return emit_walled(S, ply, depth, mode, sink, mi, ordinal, side);
    if (mode == MODE_LIST) {
        if (sink->found < sink->cap) {
            sink->out[2 * sink->found] = mi;
            sink->out[2 * sink->found + 1] = ordinal;
        }
        sink->found++;
        return 1;
    }
    if (mode == MODE_COUNT || mode == MODE_FIRST || (mode == MODE_PERFT && depth <= 1)) return 1;
    return descend(S, ply, depth, mode, sink, mi, ordinal, side);
}

/* Room for ``more`` moves on the move stack (it doubles; bounded). */
static int grow(search_t *S, size_t more) {
    size_t want = S->mv_cap;
    while (want < S->mv_used + more) want *= 2;
    if (want > (size_t)1 << 28) { S->err = GGN_EBUSY; return 0; }
    int32_t *bigger = realloc(S->mv, want * 4);
    if (!bigger) { S->err = GGN_ENOMEM; return 0; }
    S->mv = bigger;
    S->mv_cap = want;
    return 1;
}

/* The move of the move stack's entry x (it holds entries of g->fent). */
#define STACKED(S, x) ((S)->g->fent[(S)->mv[x]].mi)

/* Push on the move stack (as their entries' numbers) the moves of group ``slot`` (a kind on a square, or in hand) whose
 * conditions hold, walking each ray until its first occupied square (fskip). 0 if no room. */
static ALWAYS_INLINE int collect(search_t *S, const int32_t *b, int side, size_t slot) {
    const ggn_game *g = S->g;
    int32_t a = g->gstart[slot], n = g->gcount[slot];
    if (!n) return 1;
    if (S->mv_used + (size_t)n > S->mv_cap && !grow(S, (size_t)n)) return 0;
    int32_t end = a + n, i = a;
    const fent_t *ents = g->fent;
    while (i < end) {
        const fent_t *f = &ents[i];
        int32_t v = b[f->dst];
        if (f->quick) {
            if (QUICK_HOLDS(g, f->quick, v, side)) S->mv[S->mv_used++] = i;
        } else {
            const move_t *m = &g->moves[f->mi];
            if (HOLDS(g, b, m, side) && !BARRED(g, b, f->mi)) S->mv[S->mv_used++] = i;
        }
        i = v ? f->skip : i + 1;
    }
    return 1;
}

/* The owned squares of the search's position, from a scan (see search_t). */
static void track_build(search_t *S) {
    const ggn_game *g = S->g;
    S->nowned[0] = S->nowned[1] = 0;
    S->nmarked = 0;
    S->occ = S->own[0] = S->own[1] = 0;
    for (int32_t q = 0; q < g->N; q++) {
        int f = g->kscan[S->b[q]];
        S->nmarked += f >> 3;
        int32_t side = (f & 3) == 1 ? 0 : (f & 3) == 2 ? 1 : -1;
        S->where[q] = (side + 1) | (f & 8);
        if (side >= 0) S->owned[side][S->nowned[side]++] = q;
        if (g->rplan) { /* (N <= 64) */
            uint64_t bit = (uint64_t)1 << q;
            if (S->b[q]) S->occ |= bit;
            if (side >= 0) S->own[side] |= bit;
        }
    }
    S->tracked = 1;
}

/* Square q of the search's position may have changed: its owners' lists and the marked count
 * follow (where[q]: the owner + 1, and 8 if marked). */
static void track_square(search_t *S, int32_t q) {
    const ggn_game *g = S->g;
    int f = g->kscan[S->b[q]];
    int32_t now = (f & 3) == 1 ? 1 : (f & 3) == 2 ? 2 : 0, was = S->where[q] & 3;
    S->nmarked += (f & 8 ? 1 : 0) - (S->where[q] & 8 ? 1 : 0);
    S->where[q] = now | (f & 8);
    if (g->rplan) { /* (N <= 64: the words, no lists) */
        uint64_t bit = (uint64_t)1 << q, keep = ~bit;
        S->occ = (S->occ & keep) | (S->b[q] ? bit : 0);
        S->own[0] = (S->own[0] & keep) | (now == 1 ? bit : 0);
        S->own[1] = (S->own[1] & keep) | (now == 2 ? bit : 0);
        return;
    }
    if (now == was) return;
    if (was) { /* out of its list */
        int32_t *at = S->owned[was - 1], n = S->nowned[was - 1], i = 0;
        while (i < n && at[i] != q) i++;
        if (i < n) memmove(at + i, at + i + 1, (size_t)(n - i - 1) * sizeof(int32_t));
        S->nowned[was - 1] = n - 1;
    }
    if (now) { /* into its list, in order */
        int32_t *at = S->owned[now - 1], n = S->nowned[now - 1], i = n;
        while (i > 0 && at[i - 1] > q) i--;
        memmove(at + i + 1, at + i, (size_t)(n - i) * sizeof(int32_t));
        at[i] = q;
        S->nowned[now - 1] = n + 1;
    }
}

/* The plays' count of entry h's move in the search's position (plays_of's, its plays written to
 * plays and chg; a plain move's or drop's its placed pieces, without them). */
static inline int32_t entry_plays(search_t *S, const fent_t *h, play_t *plays, chg_t *chg) {
    return (h->hot & HOT_PLACED) ? h->nplaced : plays_of(S, S->b, h->mi, plays, chg);
}

/* The pseudo-legal moves on the move stack's entries x in [base, end), for ggn_search_pseudo:
 * (move, its plays' count, its source: N for the hand) each, in the stack's order (the plays
 * are those plays_of makes, legal or not; a plain move's or drop's are its placed pieces). */
static uint64_t pseudo_moves(search_t *S, int ply, size_t base, size_t end, sink_t *sink) {
    const ggn_game *g = S->g;
    play_t *plays = S->plays + (size_t)ply * (size_t)g->maxplays;
    chg_t *chg = S->chg + (size_t)ply * (size_t)g->maxplays * (size_t)g->perplay;
    /* written only if all fit (else only counted: the caller grows its buffer and asks again) */
    int fits = sink->found <= sink->cap && sink->cap - sink->found >= end - base;
    int32_t *o = fits ? sink->out + 3 * sink->found : NULL;
    for (size_t x = base; x < end; x++) {
        const fent_t *h = &g->fent[S->mv[x]];
        int32_t np = entry_plays(S, h, plays, chg);
        if (o) {
            o[0] = h->mi; o[1] = np; o[2] = h->src < 0 ? g->N : h->src;
            o += 3;
        }
    }
    sink->found += end - base;
    S->mv_used = base;
    return end - base;
}

/* ggn_search_pseudo_groups' walk: ``moves`` moves of source ``src`` (N for the hand), with
 * ``plays`` plays, told: a group (source, plays, moves) written while the groups fit, the
 * hand's kinds one group (sink->found counts the groups; the last one's source is S->glast). */
static inline void group_told(search_t *S, sink_t *sink, int32_t src, int32_t moves, int64_t plays) {
    if (!sink->found || S->glast != src) {
        if (sink->found < sink->cap) {
            int32_t *o = sink->out + 3 * sink->found;
            o[0] = src; o[1] = 0; o[2] = 0;
        }
        sink->found++;
        S->glast = src;
    }
    if (sink->found <= sink->cap) { /* (a sum past INT32_MAX kept at it: a table no game makes) */
        int32_t *o = sink->out + 3 * (sink->found - 1);
        int64_t all = (int64_t)o[1] + plays;
        o[1] = all > INT32_MAX ? INT32_MAX : (int32_t)all;
        o[2] += moves;
    }
}

/* A part of the kept moves (kseg_t) added after the others, a group each (the group's number
 * is its part's): 0 (S->err set) past its room. */
static inline int seg_add(search_t *S, int32_t slot, size_t at, size_t n, uint64_t dests) {
    if (S->nsegs >= S->segs_cap) { S->err = GGN_EBUSY; return 0; } /* (never: a part a source, N + K) */
    S->segs[S->nsegs++] = (kseg_t){slot, at, n, dests};
    S->kall += n;
    return 1;
}

/* ggn_search_pseudo_groups' walk, after the moves of group ``slot`` (source ``src``: N for the
 * hand) were pushed on the move stack from ``before``: their group told, their part kept. */
static inline void group_note(search_t *S, int ply, sink_t *sink, int32_t src, size_t slot, size_t before) {
    const ggn_game *g = S->g;
    int32_t moves = (int32_t)(S->mv_used - before); /* (at most the slot's entries: an int32_t) */
    int64_t plays = moves;
    if (!moves) return;
    if (!g->gone[slot]) {
        play_t *buf = S->plays + (size_t)ply * (size_t)g->maxplays;
        chg_t *chg = S->chg + (size_t)ply * (size_t)g->maxplays * (size_t)g->perplay;
        plays = 0;
        for (size_t x = before; x < S->mv_used; x++) {
            const fent_t *h = &g->fent[S->mv[x]];
            plays += entry_plays(S, h, buf, chg);
        }
    }
    int same = sink->found && S->glast == src; /* (the hand's kinds: one group, one part) */
    group_told(S, sink, src, moves, plays);
    if (same && S->nsegs && S->segs[S->nsegs - 1].slot < 0) { /* (the stack's entries follow on) */
        S->segs[S->nsegs - 1].n += (size_t)moves;
        S->kall += (size_t)moves;
    } else {
        seg_add(S, -1, before - S->kbase, (size_t)moves, 0); /* (kept from the listing's first entry) */
    }
}

/* The highest set bit of x (x != 0), as a word. */
static inline uint64_t highest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (uint64_t)1 << (63 - __builtin_clzll(x));
#else
    x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16; x |= x >> 32;
    return x ^ (x >> 1);
#endif
}

/* The destinations of ray set ``p``'s moves that hold, on a board whose occupied squares are
 * ``occ``, the mover's ``own``: what collect would push, as a set. */
static inline uint64_t ray_dests(const ggn_game *g, const rplan_t *p, uint64_t occ, uint64_t own) {
    uint64_t reach = p->leaves;
    const rchain_t *c = g->rchains + p->coff;
    for (int32_t k = 0; k < p->nchains; k++) {
        uint64_t mask = c[k].mask, hit = occ & mask;
        if (!hit) reach |= mask;
        else if (c[k].up) { uint64_t low = hit & (0 - hit); reach |= mask & (low | (low - 1)); }
        else reach |= mask & ~(highest_bit(hit) - 1);
    }
    return reach & ((p->oke & ~occ) | (p->okx & occ & ~own) | (p->okf & own));
}

/* attacked's answer, where the game has an attack set for ``a`` onto t (else attacked's walk)
 * and the caller knows board b's occupied squares (occ) and those of a's pieces (theirs): the
 * nodes the walk would find occupied, from the sets, each tested as the walk tests it. */
static int attacked_known(const search_t *S, const int32_t *b, int32_t t, int a, int with_hands, uint64_t occ,
                          uint64_t theirs) {
    const ggn_game *g = S->g;
    int32_t plan = g->aplan[a][t];
    if (plan < 0) return attacked(S, b, t, a, with_hands);
    const aplan_t *p = &g->aplans[plan];
    const rchain_t *c = g->achains + p->coff;
    uint64_t seen = p->leaves & occ;
    for (int32_t k = 0; k < p->nchains; k++) {
        uint64_t hit = occ & c[k].mask;
        if (hit) seen |= c[k].up ? hit & (0 - hit) : highest_bit(hit);
    }
    seen &= theirs;
    const rnode_t *nodes = g->rnodes[a] + g->rstart[a][t];
    const uint8_t *at = g->anode + (size_t)plan * 64;
    /* an enemy on t (a king's test): each node's quick entries answered by its kinds' bits */
    const uint64_t *hits = g->rhit[a] && b[t] && g->kside[b[t]] != a ? g->rhit[a] + g->rstart[a][t] : NULL;
    int found = 0;
    for (; seen && !found; seen &= seen - 1) {
        int32_t q = ggn_lowest_bit(seen), occ = b[q];
        if (hits) {
            uint64_t hit = hits[at[q]];
            if (hit >> occ & 1) { found = 1; break; }
            if (!(hit >> 63)) continue;
        }
        found = node_attacks(g, b, &nodes[at[q]], occ, t, a);
    }
    if (!found && with_hands) found = hand_attacks(S, b, t, a);
#ifdef GGN_PLAYOUT_CHECK_KEYS
    if (found != attacked(S, b, t, a, with_hands)) abort(); /* (the checking build) the walk's answer */
#endif
    return found;
}

/* attacked_known's answer for target t after a play made on board b (its n changes ``chg``),
 * where the search's words are the board's before the play (the batch listing's walk): the
 * words after it made from the changes. */
static int attacked_after(const search_t *S, const int32_t *b, int32_t t, int a, const chg_t *chg, int32_t n) {
    const ggn_game *g = S->g;
    uint64_t occ = S->occ, theirs = S->own[a];
    for (int32_t c = 0; c < n; c++) {
        int32_t v = chg[c].val;
        uint64_t bit = (uint64_t)1 << chg[c].sq;
        occ = v ? occ | bit : occ & ~bit;
        theirs = v && g->owner[v] == a ? theirs | bit : theirs & ~bit;
    }
    return attacked_known(S, b, t, a, 1, occ, theirs);
}

/* ggn_search_pseudo_groups' walk, for the piece on ``src`` whose (kind, source) ``slot`` has
 * ray set ``plan``: its moves that hold, told as a group (each one play) and kept as a set. */
static inline void ray_group(search_t *S, sink_t *sink, int32_t src, size_t slot, int32_t plan, int side) {
    const ggn_game *g = S->g;
    uint64_t dests = ray_dests(g, &g->rplans[plan], S->occ, S->own[side]);
#ifdef GGN_PLAYOUT_CHECK_KEYS
    { /* (the checking build) the set against collect's moves */
        size_t before = S->mv_used;
        uint64_t listed = 0;
        if (!collect(S, S->b, side, slot)) abort();
        for (size_t x = before; x < S->mv_used; x++) listed |= (uint64_t)1 << g->fent[S->mv[x]].dst;
        if (listed != dests || S->mv_used - before != (size_t)ggn_bit_count(dests)) abort();
        S->mv_used = before;
    }
#endif
    if (!dests) return;
    int32_t n = ggn_bit_count(dests);
    group_told(S, sink, src, n, n);
    seg_add(S, (int32_t)slot, 0, (size_t)n, dests);
}

/* ggn_search_pseudo_groups' walk, its groups told: the pseudo-legal moves on the move stack's
 * entries [base, end) kept (their entries' numbers) for ggn_search_pseudo_moves, with the ray
 * sets' parts (S->segs): how many moves in all. */
static uint64_t pseudo_kept(search_t *S, size_t base, size_t end) {
    size_t n = end - base, all = S->kall;
    S->mv_used = base;
    S->nkept = 0;
    S->kept_gen = 0;
    if (base != S->kbase) { S->err = GGN_EBUSY; return 0; } /* (never: the parts are kept from kbase) */
    if (n > S->kept_cap) {
        size_t want = S->kept_cap ? S->kept_cap : 64;
        while (want < n) want *= 2;
        int32_t *bigger = realloc(S->kept, want * sizeof(int32_t));
        if (!bigger) { S->err = GGN_ENOMEM; return 0; }
        S->kept = bigger;
        S->kept_cap = want;
    }
    if (n) memcpy(S->kept, S->mv + base, n * sizeof(int32_t)); /* (none kept yet: kept is NULL) */
    S->nstacked = n;
    S->nkept = all;
    S->kept_gen = S->gen;
    return all;
}

/* The walk's two shortcuts for a play it need not work out, each 1 when it decided the move
 * (*total counts its legal plays, emitted), 0 when the move must be made as every play is (a
 * rook taken with its rights changes the other side's marks). The board ``b`` is the search's,
 * after the prefix; ``pre`` before it. */

/* Whether taking ``taken`` changes its side's marks (a rook with its castling rights, or the
 * castling king): such a play is made as every play, not by a shortcut. */
static inline int takes_rights(const ggn_game *g, int32_t taken, int owner) {
    return taken && (g->rookplain[taken] || taken == g->castking[owner]);
}

/* A lone terminal piece's plain step: legal when the other side cannot reach its destination
 * with it there. */
static inline int king_step(search_t *S, int ply, int depth, int mode, sink_t *sink, const fent_t *h,
                            const int32_t *pre, int side, uint64_t *total) {
    const ggn_game *g = S->g;
    int32_t *b = S->b;
    int other = 1 - side;
    int32_t src = h->src, dst = h->dst, taken = pre[dst];
    if (takes_rights(g, taken, other)) return 0;
    int32_t was_src = b[src], was_dst = b[dst];
    b[src] = 0;
    b[dst] = h->placed;
    int exposed = S->sets ? attacked_known(S, b, dst, other, 1, (S->occ & ~((uint64_t)1 << src)) | (uint64_t)1 << dst,
                                           S->own[other] & ~((uint64_t)1 << dst))
                          : attacked(S, b, dst, other, 1);
    b[src] = was_src;
    b[dst] = was_dst;
    if (!exposed) *total += emit(S, ply, depth, mode, sink, h->mi, 0, side);
    return 1;
}

/* Whether entry h is a plain board move of the mover's own pieces with no effect beyond its
 * two squares, in a game with no rule beyond the plays' (plain_alone's moves). */
#define PLAIN_ALONE(g, h) (((h)->hot & (HOT_FAST | HOT_VICT)) == HOT_FAST && (h)->src >= 0 && !(g)->eflags)

/* One move tried alone (ggn_search_try), PLAIN_ALONE: each play made on its two squares and
 * the terminal pieces (known where they stand, and not moved by it) tested, without the plays
 * worked out. */
static inline int plain_alone(search_t *S, int ply, int depth, int mode, sink_t *sink, const fent_t *h,
                              const int32_t *pre, const int32_t *kings, int32_t nkings, int side, uint64_t *total) {
    const ggn_game *g = S->g;
    const move_t *m = &g->moves[h->mi];
    int32_t *b = S->b;
    int other = 1 - side;
    int32_t src = h->src, dst = h->dst, taken = pre[dst];
    if (takes_rights(g, taken, other)) return 0;
    int32_t was_src = b[src], was_dst = b[dst];
    /* (with sets: the board after the play, its pieces the mover's on dst) */
    uint64_t occ = S->sets ? (S->occ & ~((uint64_t)1 << src)) | (uint64_t)1 << dst : 0;
    uint64_t theirs = S->sets ? S->own[other] & ~((uint64_t)1 << dst) : 0;
    b[src] = 0;
    for (int32_t k = 0; k < h->nplaced; k++) {
        b[dst] = g->ints[m->placed_off + k];
        int exposed = 0;
        for (int32_t j = 0; j < nkings && !exposed; j++)
            exposed = S->sets ? attacked_known(S, b, kings[j], other, 1, occ, theirs) : attacked(S, b, kings[j], other, 1);
        if (!exposed) *total += emit(S, ply, depth, mode, sink, h->mi, k, side);
    }
    b[src] = was_src;
    b[dst] = was_dst;
    return 1;
}

static uint64_t walk(search_t *S, int ply, int depth, int mode, sink_t *sink) {
    const ggn_game *g = S->g;
    int32_t N = g->N, K = g->K;
    int32_t *b = S->b;
    int side = b[N] & 1; /* the side to move is kept past the board */
    int other = 1 - side;
    if (S->err) return 0;
    if (ply >= S->plies) { S->err = GGN_EBUSY; return 0; }
    int probe = S->probe; /* only the captures, or the forced drops, for their tests (this walk only) */
    S->probe = PROBE_NONE;
    int32_t only = S->only; /* this walk only too (ggn_search_try, ggn_search_pseudo) */
    int pseudo = S->pseudo, known = only && S->known, top = S->top;
    /* ggn_search_legal's walk, on a board with ray sets: the plain sets' moves found as sets,
     * those the calm count takes listed from them (the plays' order is free) */
    int lists = S->setlist && g->rplan && ply == 0 && mode == MODE_LIST && !only && !pseudo && !probe &&
                !(g->eflags & (E_CAPTURES | E_DROPS_FORCED));
    int32_t nlsets = 0;
    uint64_t rights = 0; /* (lists) the pieces whose taking changes the other side's marks (takes_rights) */
    S->setlist = 0;
    S->only = 0;
    S->pseudo = PSEUDO_NONE;
    S->known = 0;
    S->top = 0;
    int reach = mode == MODE_REACH; /* a flag move's test: the first legal play into the region */
    if (reach) mode = MODE_FIRST;
    int ended_value;
    if (pseudo == PSEUDO_GROUPED) { /* (kept again by pseudo_kept) */
        S->nsegs = S->kall = 0;
        S->kbase = S->mv_used;
        S->kept_gen = 0;
    }
    if ((g->eflags & (E_EXTINCTION | E_FLAG)) && !S->no_ends && !probe && game_ended(S, ply, b, &ended_value))
        return pseudo == PSEUDO_GROUPED ? pseudo_kept(S, S->mv_used, S->mv_used) : 0; /* (none kept) */
    /* 1. the mover's pieces, the marks the move clears (prefix), the terminal pieces */
    size_t mv_base = S->mv_used;
    int32_t *kings = S->kings + (size_t)ply * (size_t)N;
    int32_t nkings = 0, nprefix = 0;
    const uint8_t *scan = g->kscan;
    int owned = 1 << side;
    if (known) { /* the pseudo listing's */
        nkings = S->known_kings;
        nprefix = S->known_prefix;
    } else if (top && S->track) { /* the squares kept */
        if (!S->tracked) track_build(S);
        nprefix = S->nmarked;
        const int32_t *at = S->owned[side];
        const int32_t *rplan = pseudo == PSEUDO_GROUPED ? g->rplan : NULL; /* (ray sets: the grouped listing's) */
        /* the mover's squares ascending: from its word (boards of up to 64 squares), else its list */
        uint64_t mine = g->rplan ? S->own[side] : 0;
        for (int32_t i = 0; g->rplan ? mine != 0 : i < S->nowned[side]; i++) {
            int32_t q = g->rplan ? ggn_lowest_bit(mine) : at[i], k = b[q];
            mine &= mine - 1;
            size_t slot = (size_t)k * (size_t)(N + 1) + (size_t)q + 1, before = S->mv_used;
            if (scan[k] & 4) kings[nkings++] = q;
            if (rplan && rplan[slot] >= 0) {
                ray_group(S, sink, q, slot, rplan[slot], side);
                continue;
            }
            if (!only && !collect(S, b, side, slot)) return 0;
            if (pseudo == PSEUDO_GROUPED) group_note(S, ply, sink, q, slot, before);
        }
    } else if (lists) { /* the words (for the sets, and attacked_known), then the mover's pieces */
        uint64_t occ = 0, own[2] = {0, 0};
        for (int32_t q = 0; q < N; q++) {
            int32_t k = b[q];
            int f = scan[k];
            nprefix += f >> 3;
            if (!k) continue;
            uint64_t bit = (uint64_t)1 << q;
            occ |= bit;
            if (f & 1) own[0] |= bit;
            if (f & 2) own[1] |= bit;
            if (takes_rights(g, k, other)) rights |= bit;
        }
        S->occ = occ;
        S->own[0] = own[0];
        S->own[1] = own[1];
        S->sets = 1; /* (the game has attack sets: made with its ray sets) */
        for (uint64_t mine = own[side]; mine; mine &= mine - 1) {
            int32_t q = ggn_lowest_bit(mine), k = b[q];
            size_t slot = (size_t)k * (size_t)(N + 1) + (size_t)q + 1;
            int32_t plan = g->rplan[slot];
            if (scan[k] & 4) kings[nkings++] = q;
            if (plan >= 0 && g->rplans[plan].plain) {
                uint64_t dests = ray_dests(g, &g->rplans[plan], occ, own[side]);
                if (dests) S->lsets[nlsets++] = (lset_t){(int32_t)slot, plan, q, dests};
                continue;
            }
            if (!collect(S, b, side, slot)) return 0;
        }
    } else {
        for (int32_t q = 0; q < N; q++) {
            int32_t k = b[q];
            int f = scan[k];
            nprefix += f >> 3;
            if (!(f & owned)) continue;
            size_t slot = (size_t)k * (size_t)(N + 1) + (size_t)q + 1, before = S->mv_used;
            if (f & 4) kings[nkings++] = q;
            if (!only && !collect(S, b, side, slot)) return 0;
            if (pseudo == PSEUDO_GROUPED) group_note(S, ply, sink, q, slot, before);
        }
    }
    if (pseudo) {
        S->known_kings = nkings;
        S->known_prefix = nprefix;
        S->pseudo_gen = S->gen;
    }
    if (only) {
        if (S->mv_used + 1 > S->mv_cap && !grow(S, 1)) return 0;
        S->mv[S->mv_used++] = only - 1;
    } else if (S->hand[side]) {
        int32_t *hand = S->hand[side];
        for (int32_t k = 1; k < K; k++) {
            if (hand[k] <= 0) continue;
            size_t slot = (size_t)k * (size_t)(N + 1), before = S->mv_used;
            if (!collect(S, b, side, slot)) return 0;
            if (pseudo == PSEUDO_GROUPED) group_note(S, ply, sink, N, slot, before);
        }
    }
    size_t mv_end = S->mv_used;
    if (g->eflags & E_CAPTURES) {
        /* Captures are forced: while one is legal, only captures are (the walk's forced_captures). */
        size_t w = mv_base;
        for (size_t x = mv_base; x < mv_end; x++)
            if (move_captures(g, b, &g->moves[STACKED(S, x)], side)) w++;
        int keep = probe == PROBE_CAPTURES;
        if (!keep && w > mv_base) {
            S->probe = PROBE_CAPTURES;
            keep = walk(S, ply, 1, MODE_FIRST, NULL) > 0;
            if (S->err) { S->mv_used = mv_base; return 0; }
        }
        if (keep) {
            w = mv_base;
            for (size_t x = mv_base; x < mv_end; x++)
                if (move_captures(g, b, &g->moves[STACKED(S, x)], side)) S->mv[w++] = S->mv[x];
            mv_end = S->mv_used = w;
        }
    }
    if ((g->eflags & E_DROPS_FORCED) && S->hand[side] && probe != PROBE_CAPTURES && holds_forced(g, S->hand[side], side)) {
        /* Drops are forced: while the mover holds a piece whose drops are, it drops only such
         * pieces while one such drop is legal, else it moves a piece on the board (the walk's
         * forced_drops). */
        size_t w = mv_base;
        for (size_t x = mv_base; x < mv_end; x++)
            if (forced_drop(g, &g->moves[STACKED(S, x)])) w++;
        int drops = w > mv_base;
        if (drops && probe != PROBE_DROPS) {
            S->probe = PROBE_DROPS;
            uint64_t legal = walk(S, ply, 1, MODE_FIRST, NULL);
            if (S->err) { S->mv_used = mv_base; return 0; }
            if (!legal) drops = 0;
        }
        w = mv_base;
        for (size_t x = mv_base; x < mv_end; x++) {
            const move_t *m = &g->moves[STACKED(S, x)];
            if (drops || probe == PROBE_DROPS ? forced_drop(g, m) : m->src >= 0) S->mv[w++] = S->mv[x];
        }
        mv_end = S->mv_used = w;
    }
    if (pseudo == PSEUDO_GROUPED) return pseudo_kept(S, mv_base, mv_end);
    if (pseudo) return pseudo_moves(S, ply, mv_base, mv_end, sink);
    /* bikjang: while the royal pieces face each other, a play must end it, and the pass is
     * legal even in check (it comes last, if no pass was legal) */
    int bik = g->bikjang && facing(g, b), passed = 0;
    /* 2. the prefix: the board before it is kept, the marks cleared */
    int32_t *pre = b;
    if (nprefix || g->wall_rule) { /* walls read the board before the play too */
        pre = S->pre + (size_t)ply * (size_t)(N + 1);
        memcpy(pre, b, (size_t)(N + 1) * 4);
        for (int32_t q = 0; q < N; q++) if (b[q]) b[q] = g->unmark[b[q]];
    }
    /* 3. calm: the terminal pieces not attacked on the board after the prefix */
    /* the terminal pieces after a play are found from kings and the play's changes */
    int kings_known = g->marks_keep_terms && nkings <= KINGS_KEPT;
    int calm = nkings > 0;
    int leaf = mode == MODE_COUNT || (mode == MODE_PERFT && depth <= 1);
    /* counting or listing: the calm test also finds the squares a fast play must not change */
    uint64_t *crit = NULL;
    int32_t checked = -1; /* a terminal piece found attacked (its square), where one was */
    if ((leaf || mode == MODE_LIST) && !only && calm && !g->strict && !g->kcannon && !g->wall_rule && !bik && !g->kblast) {
        crit = S->crit + (size_t)ply * (size_t)g->words;
        memset(crit, 0, (size_t)g->words * 8);
        for (int32_t k = 0; k < nkings && calm; k++)
            if (attacked_or_critical(S, b, kings[k], other, crit)) { calm = 0; checked = kings[k]; }
    } else if (only) {
        calm = 0; /* one move's plays: each made and tested, one attack test each (no calm test first) */
    } else {
        for (int32_t k = 0; k < nkings && calm; k++) if (attacked(S, b, kings[k], other, 1)) { calm = 0; checked = kings[k]; }
    }
    /* In check, a play that changes no square an attack on the checked piece reads (sens: its
     * two squares, a plain move's or drop's, HOT_FAST without victims) leaves that attack as it
     * was: the play's own test below (the pieces' attack tests first) would find it exposed, so
     * it is passed over without being made. The other side's hands, which drops onto the piece
     * read, are not the mover's play's to change. */
    const uint64_t *check_reads = checked >= 0 ? g->sens[other] + (size_t)checked * (size_t)g->words : NULL;
    /* atomic: the pseudo-royal squares of both sides before the play */
    int32_t *mine = NULL, *theirs = NULL, nmine = 0, ntheirs = 0;
    if (g->eflags & E_BLAST_ROYAL) {
        mine = S->broyal + (size_t)ply * 2 * (size_t)N;
        theirs = mine + N;
        nmine = pseudo_royals(g, pre, side, mine);
        ntheirs = pseudo_royals(g, pre, other, theirs);
    }
    uint64_t total = 0;
    play_t *plays = S->plays + (size_t)ply * (size_t)g->maxplays;
    chg_t *chg = S->chg + (size_t)ply * (size_t)g->maxplays * (size_t)g->perplay;
    int32_t *undo = S->undo + (size_t)ply * (size_t)g->perplay;
    int32_t *hands = S->hand[0] ? S->hand[side] : NULL;
    /* the fast count: calm, counting or listing, and no rule of the game's beyond the plays' */
    int fast = (leaf || mode == MODE_LIST) && calm && !g->strict && !g->wall_rule && !bik;
    /* and a lone terminal piece's plain steps are tested without being made (calm or not) */
    int kingfast = (leaf || mode == MODE_LIST) && nkings == 1 && kings_known && !g->strict && !g->wall_rule && !bik;
    /* the plain sets' moves: those the calm count below would take (calm, its test found the
     * critical squares; neither of the move's squares critical, no terminal piece and no piece
     * with marks taken) listed from the set, the others stacked for the loop; each set's in the
     * loop, before the first move of a later source (the batch sorts the plays by source: the
     * fewer out of place, the fewer it moves); where the position is not calm, all stacked */
    int direct = nlsets && fast && crit;
    uint64_t bar = rights, critical = direct ? crit[0] : 0; /* (sets: N <= 64, one word) */
    for (int32_t k = 0; nlsets && k < nkings; k++) bar |= (uint64_t)1 << kings[k];
    int32_t li = 0; /* the next set listed in the loop */
    for (size_t x = mv_base; !S->err; x++) {
        if (li < nlsets) {
            int32_t upto = x < mv_end && g->fent[S->mv[x]].src >= 0 ? g->fent[S->mv[x]].src : INT32_MAX;
            for (; li < nlsets && S->lsets[li].src < upto; li++) {
                const lset_t *ls = &S->lsets[li];
                int32_t a = g->gstart[ls->slot];
                const uint8_t *to = g->rto + (size_t)ls->plan * 64;
                uint64_t now = direct && !(critical >> ls->src & 1) ? ls->dests & ~critical & ~bar : 0;
                uint64_t rest = ls->dests & ~now;
                for (uint64_t d = now; d; d &= d - 1)
                    total += emit(S, ply, depth, mode, sink, g->fent[a + to[ggn_lowest_bit(d)]].mi, 0, side);
                size_t n = (size_t)ggn_bit_count(rest);
                if (S->mv_used + n > S->mv_cap && !grow(S, n)) break; /* (S->err: the board is restored below) */
                for (; rest; rest &= rest - 1) S->mv[S->mv_used++] = a + to[ggn_lowest_bit(rest)];
            }
            mv_end = S->mv_used;
            if (S->err) break;
        }
        if (x >= mv_end) break;
        const fent_t *h = &g->fent[S->mv[x]];
        int32_t mi = h->mi;
        const move_t *m = &g->moves[mi];
        if (reach && !((g->kflag[m->kind] & K_ROYAL) && g->inregion[1][m->dst])) continue;
        if ((h->hot & HOT_RULES) && !move_rules_allow(S, pre, m, side)) continue;
        if (g->drops_ruled && h->src < 0 && !bishops_allow(S, pre, m, side)) continue;
        if ((h->hot & HOT_SITTUYIN) && !sittuyin_allow(g, pre, m, side)) continue;
        if (kingfast && (h->hot & HOT_KING) && king_step(S, ply, depth, mode, sink, h, pre, side, &total)) continue;
        if (fast && (h->hot & HOT_FAST)) {
            /* Counting only, calm: a plain move or drop whose squares no attack on a terminal
             * piece reads is legal, each of its plays (no need to make them). */
            int32_t src = h->src, dst = h->dst;
            int32_t taken = src >= 0 ? pre[dst] : 0;
            if (!((h->hot & HOT_VICT) && !taken) && !takes_rights(g, taken, other)) {
                int near = 0;
                if (crit) {
                    /* the play changes its source and destination only, and puts the mover's
                     * pieces there: it exposes nothing unless one of them is critical */
                    near = (crit[(uint32_t)dst / 64] >> ((uint32_t)dst % 64) & 1) ||
                           (src >= 0 && (crit[(uint32_t)src / 64] >> ((uint32_t)src % 64) & 1));
                    for (int32_t k = 0; k < nkings && !near; k++) near = kings[k] == dst;
                } else {
                    for (int32_t k = 0; k < nkings && !near; k++) {
                        const uint64_t *bits = g->sens[other] + (size_t)kings[k] * (size_t)g->words;
                        if (bits[dst / 64] >> (dst % 64) & 1) near = 1;
                        else if (src >= 0 && (bits[src / 64] >> (src % 64) & 1)) near = 1;
                    }
                }
                if (!near) {
                    for (int32_t k = 0; k < h->nplaced; k++) total += emit(S, ply, depth, mode, sink, mi, k, side);
                    continue;
                }
            }
        }
        if (check_reads && (h->hot & (HOT_FAST | HOT_VICT)) == HOT_FAST) {
            uint32_t src = (uint32_t)h->src, dst = (uint32_t)h->dst;
            if ((int32_t)dst != checked && !(check_reads[dst / 64] >> (dst % 64) & 1) &&
                (h->src < 0 || !(check_reads[src / 64] >> (src % 64) & 1)))
                continue;
        }
        if (only && PLAIN_ALONE(g, h) && kings_known && plain_alone(S, ply, depth, mode, sink, h, pre, kings, nkings, side, &total))
            continue;
        /* castling is checked on the board before the prefix (the rule system reads it so) */
        int32_t np = plays_of(S, pre, mi, plays, chg);
        for (int32_t j = 0; j < np; j++) {
            play_t *p = &plays[j];
            if (p->castle && castle_checked(g, pre, m, side) && !castling_safe(S, pre, m, side)) continue;
            if (p->castle && mine && !blast_castle_safe(S, pre, m, side, theirs, ntheirs)) continue;
            if (g->mleap && (g->mleap[mi] & LEAP_NOT_IN_CHECK) && !calm && attacked(S, pre, m->src, other, 0)) continue;
            int ptaken = (g->eflags & E_PSEUDO) && pseudo_takes(g, pre, p, chg, side);
            int stone = petrify_guarded(g, pre, m, side);
            /* make */
            int king_touched = 0;
            for (int32_t c = 0; c < p->n; c++) {
                chg_t *cg = &chg[p->off + c];
                int32_t old = b[cg->sq];
                undo[c] = old;
                if (old && g->kterm[old] && g->kside[old] == side) king_touched = 1;
                if (cg->val && g->kterm[cg->val] && g->kside[cg->val] == side) king_touched = 1;
                b[cg->sq] = cg->val;
            }
            if (hands) {
                if (p->hk1) hands[p->hk1] += p->hd1;
                if (p->hk2) hands[p->hk2] += p->hd2;
            }
            /* legal? */
            int exposed = 0;
            if (king_touched) {
                exposed = kings_known ? kings_attacked_after(S, b, side, kings, nkings, chg, p->off, p->n, 1)
                                      : any_terminal_attacked(S, b, side, 1);
            } else if (!calm) {
                for (int32_t k = 0; k < nkings && !exposed; k++)
                    exposed = lists ? attacked_after(S, b, kings[k], other, chg + p->off, p->n)
                                    : attacked(S, b, kings[k], other, 1);
            } else {
                for (int32_t k = 0; k < nkings && !exposed; k++) {
                    const uint64_t *bits = g->sens[other] + (size_t)kings[k] * (size_t)g->words;
                    int near = 0;
                    for (int32_t c = 0; c < p->n && !near; c++) {
                        int32_t q = chg[p->off + c].sq;
                        if (bits[q / 64] >> (q % 64) & 1) near = 1;
                    }
                    if (near && (lists ? attacked_after(S, b, kings[k], other, chg + p->off, p->n)
                                       : attacked(S, b, kings[k], other, 1)))
                        exposed = 1;
                }
            }
            if (!exposed && g->eflags && rules_refuse(S, b, m, ptaken, side)) exposed = 1;
            if (!exposed && stone && b[m->dst] == g->pwall) exposed = 1; /* a pseudo-royal piece turned to a wall */
            if (!exposed && mine && !blast_legal(S, b, m, side, mine, nmine, theirs, ntheirs)) exposed = 1;
            if (!exposed && m->mtype == MOVE_SITTUYIN && any_terminal_attacked(S, b, other, 0)) exposed = 1; /* no check by it */
            if (!exposed && m->src < 0 && g->dropmate[m->kind] && any_terminal_attacked(S, b, other, 0)) {
                /* a drop that gives check must leave the other side a legal play */
                if (ply + 1 >= S->plies) { S->err = GGN_EBUSY; exposed = 1; }
                else {
                    b[N] = other;
                    uint64_t replies = walk(S, ply + 1, 1, MODE_FIRST, NULL);
                    b[N] = side;
                    if (!replies) exposed = 1;
                }
            }
            if (!exposed && p->gate >= 0) {
                /* a gating play is legal only if it would be without its piece entering */
                int32_t kept = b[p->gate];
                b[p->gate] = 0;
                exposed = any_terminal_attacked(S, b, side, 0);
                b[p->gate] = kept;
            }
            if (!exposed && bik) {
                if (m->mtype == 3) passed = 1;
                else if (facing(g, b)) exposed = 1;
            }
            if (!exposed && g->wall_rule) {
                uint64_t got = walled(S, ply, depth, mode, sink, pre, mi, p->ordinal, side);
                if (mode == MODE_FIRST) { if (got) total = 1; }
                else total += got;
            } else if (!exposed) {
                if (mode == MODE_COUNT || (mode == MODE_PERFT && depth <= 1)) total++;
                else if (mode == MODE_FIRST) total = 1;
                else if (mode == MODE_PERFT) {
                    b[N] = other;
                    total += walk(S, ply + 1, depth - 1, MODE_PERFT, NULL);
                    b[N] = side;
                } else if (mode == MODE_LIST) {
                    if (sink->found < sink->cap) {
                        sink->out[2 * sink->found] = mi;
                        sink->out[2 * sink->found + 1] = p->ordinal;
                    }
                    sink->found++;
                    total++;
                } else { /* divide */
                    uint64_t below = 1;
                    if (depth > 1) {
                        b[N] = other;
                        below = walk(S, ply + 1, depth - 1, MODE_PERFT, NULL);
                        b[N] = side;
                    }
                    if (sink->found < sink->cap) {
                        sink->out64[3 * sink->found] = mi;
                        sink->out64[3 * sink->found + 1] = p->ordinal;
                        sink->out64[3 * sink->found + 2] = (int64_t)below;
                    }
                    sink->found++;
                    total += below;
                }
            }
            /* unmake */
            if (hands) {
                if (p->hk1) hands[p->hk1] -= p->hd1;
                if (p->hk2) hands[p->hk2] -= p->hd2;
            }
            for (int32_t c = p->n - 1; c >= 0; c--) b[chg[p->off + c].sq] = undo[c];
            if (mode == MODE_FIRST && total) break;
        }
        if (mode == MODE_FIRST && total) break;
    }
    if (bik && !passed && !S->err && !(mode == MODE_FIRST && total)) {
        for (size_t x = mv_base; x < mv_end; x++) {
            const move_t *m = &g->moves[STACKED(S, x)];
            if (m->mtype != 3) continue;
            if (reach && !((g->kflag[m->kind] & K_ROYAL) && g->inregion[1][m->dst])) break;
            total += emit(S, ply, depth, mode, sink, STACKED(S, x), 0, side);
            break;
        }
    }
    if (pre != b) memcpy(b, pre, (size_t)N * 4);
    S->mv_used = mv_base;
    return total;
}

/* Read a position into an open search (every value checked). */
/* The search's position changes: what the last pseudo listing saw is no more. */
static void moved(search_t *S) {
    S->gen++;
}

static int search_load(search_t *S, const int32_t *pos, size_t len) {
    const ggn_game *g = S->g;
    moved(S);
    S->tracked = 0;
    int32_t N = g->N, K = g->K;
    if (!pos || len != ggn_position_size(g)) return GGN_EBADPOSITION;
    if (pos[0] != 0 && pos[0] != 1) return GGN_EBADPOSITION;
    /* every value checked, none branched on (the loops vectorize): a bad one is told after,
     * and the board and hands it was copied into are emptied (no search reads a bad value) */
    uint32_t bad = 0;
    const int32_t *board = pos + 1, *held = pos + 1 + N; /* (read, then copied: no store between the reads) */
    for (int32_t q = 0; q < N; q++) bad |= (uint32_t)((uint32_t)board[q] >= (uint32_t)K);
    for (int32_t i = 0; i < 2 * K; i++) bad |= (uint32_t)((uint32_t)held[i] > (uint32_t)(1 << 24));
    memcpy(S->b, board, (size_t)N * sizeof(int32_t));
    memcpy(S->hands, held, 2 * (size_t)K * sizeof(int32_t));
    if (bad) {
        memset(S->b, 0, (size_t)N * sizeof(int32_t));
        memset(S->hands, 0, 2 * (size_t)K * sizeof(int32_t));
        return GGN_EBADPOSITION;
    }
    S->b[N] = pos[0];
    S->mv_used = 0;
    S->err = GGN_OK;
    return GGN_OK;
}

static int search_open(search_t *S, const ggn_game *g, const int32_t *pos, size_t len, int depth) {
    memset(S, 0, sizeof(*S));
    S->g = g;
    int32_t N = g->N, K = g->K;
    size_t plies = (size_t)depth + 19; /* pawn-drop mate tests walk below the last ply */
    S->plies = (int)plies;
    S->b = alloc((size_t)N + 1, 4);
    S->hands = alloc(2 * (size_t)K, 4);
    S->pre = alloc(plies * ((size_t)N + 1), 4);
    S->kings = alloc(plies * (size_t)N, 4);
    S->trial = alloc((size_t)N, 4);
    S->chg = alloc(plies * (size_t)g->maxplays * (size_t)g->perplay, sizeof(chg_t));
    S->plays = alloc(plies * (size_t)g->maxplays, sizeof(play_t));
    S->undo = alloc(plies * (size_t)g->perplay, 4);
    S->crit = alloc(plies * (size_t)g->words, 8);
    S->spare = alloc(2 * ((size_t)N + 8), sizeof(chg_t));
    S->mv_cap = 4096;
    S->mv = alloc(S->mv_cap, 4);
    S->segs_cap = (size_t)N + (size_t)K + 1;
    S->segs = alloc(S->segs_cap, sizeof(kseg_t));
    if (g->rplan && !(S->lsets = alloc((size_t)N, sizeof(lset_t)))) return GGN_ENOMEM;
    if (!S->segs ||
        !S->b || !S->hands || !S->pre || !S->kings || !S->trial || !S->chg || !S->plays || !S->undo || !S->mv || !S->crit || !S->spare)
        return GGN_ENOMEM;
    if (g->wall_rule) {
        S->wt = alloc(plies * (size_t)N, 4);
        S->wundo = alloc(plies * ((size_t)N + 2), sizeof(chg_t));
        S->wreach = alloc((size_t)N, 4);
        if (!S->wt || !S->wundo || !S->wreach) return GGN_ENOMEM;
    }
    if (g->eflags & E_BLAST_ROYAL) {
        S->broyal = alloc((plies + 1) * 2 * (size_t)N, 4); /* the last for in_check_full */
        if (!S->broyal) return GGN_ENOMEM;
    }
    if (g->blast || g->kpetrify) {
        S->bscratch = alloc((size_t)g->maxplays * (size_t)g->perplay, sizeof(chg_t));
        if (!S->bscratch) return GGN_ENOMEM;
    }
    if (g->capmap) { S->hand[0] = S->hands; S->hand[1] = S->hands + K; }
    return search_load(S, pos, len);
}

static void search_close(search_t *S) {
    free(S->b); free(S->hands); free(S->pre); free(S->kings); free(S->trial); free(S->chg); free(S->plays); free(S->undo); free(S->mv);
    free(S->crit); free(S->spare); free(S->kept); free(S->segs); free(S->lsets); free(S->owned[0]); free(S->owned[1]); free(S->where); free(S->wt); free(S->wundo); free(S->wreach); free(S->bscratch); free(S->broyal);
}

int ggn_perft(const ggn_game *g, const int32_t *pos, size_t len, int depth, uint64_t *count) {
    if (!g || !count || depth < 0 || depth > GGN_MAX_DEPTH) return GGN_EBADPOSITION;
    search_t S;
    int rc = search_open(&S, g, pos, len, depth);
    if (rc == GGN_OK) {
        *count = depth == 0 ? 1 : walk(&S, 0, depth, MODE_PERFT, NULL);
        rc = S.err;
    }
    search_close(&S);
    return rc;
}

int ggn_legal(const ggn_game *g, const int32_t *pos, size_t len, int32_t *out, size_t cap, size_t *found) {
    if (!g || !found) return GGN_EBADPOSITION;
    search_t S;
    int rc = search_open(&S, g, pos, len, 1);
    if (rc == GGN_OK) {
        sink_t sink = {out, NULL, out ? cap : 0, 0};
        walk(&S, 0, 1, MODE_LIST, &sink);
        *found = sink.found;
        rc = S.err;
        if (rc == GGN_OK && sink.found > sink.cap) rc = GGN_EOVERFLOW;
    }
    search_close(&S);
    return rc;
}

int ggn_divide(const ggn_game *g, const int32_t *pos, size_t len, int depth, int64_t *out, size_t cap, size_t *found) {
    if (!g || !found || depth < 1 || depth > GGN_MAX_DEPTH) return GGN_EBADPOSITION;
    search_t S;
    int rc = search_open(&S, g, pos, len, depth);
    if (rc == GGN_OK) {
        sink_t sink = {NULL, out, out ? cap : 0, 0};
        walk(&S, 0, depth, MODE_DIVIDE, &sink);
        *found = sink.found;
        rc = S.err;
        if (rc == GGN_OK && sink.found > sink.cap) rc = GGN_EOVERFLOW;
    }
    search_close(&S);
    return rc;
}

int ggn_move_squares(const ggn_game *g, int32_t move, int32_t *kind, int32_t *src, int32_t *dst) {
    if (!g || move < 0 || move >= g->M || !kind || !src || !dst) return GGN_EBADPOSITION;
    *kind = g->moves[move].kind;
    *src = g->moves[move].src;
    *dst = g->moves[move].dst;
    return GGN_OK;
}

int ggn_move_sittuyin(const ggn_game *g, int32_t move, int *sittuyin) {
    if (!g || move < 0 || move >= g->M || !sittuyin) return GGN_EBADPOSITION;
    *sittuyin = g->moves[move].mtype == MOVE_SITTUYIN;
    return GGN_OK;
}

int ggn_make(const ggn_game *g, int32_t *pos, size_t len, int32_t move, int32_t play) {
    if (!g || !pos || move < 0 || move >= g->M || play < 0) return GGN_EBADPOSITION;
    search_t S;
    int rc = search_open(&S, g, pos, len, 0);
    if (rc != GGN_OK) { search_close(&S); return rc; }
    int32_t N = g->N, K = g->K;
    int32_t *b = S.b;
    int side = b[N];
    const move_t *m = &g->moves[move];
    if (g->kside[m->kind] != side || (m->src >= 0 && b[m->src] != m->kind)) { search_close(&S); return GGN_EBADPOSITION; }
    memcpy(S.pre, b, (size_t)(N + 1) * 4);
    for (int32_t q = 0; q < N; q++) if (b[q]) b[q] = g->unmark[b[q]];
    int32_t np = plays_of(&S, S.pre, move, S.plays, S.chg);
    int32_t wall = -1; /* with walls, a play number is the play's times N plus its wall's square */
    if (g->wall_rule) { wall = play % N; play /= N; }
    if (play >= np) { search_close(&S); return GGN_EBADPOSITION; }
    const play_t *p = &S.plays[play];
    for (int32_t c = 0; c < p->n; c++) b[S.chg[p->off + c].sq] = S.chg[p->off + c].val;
    if (wall >= 0) wall_make(g, S.pre, b, side, wall, S.wundo);
    int32_t *hands = S.hands + (size_t)side * (size_t)K;
    if (g->capmap) {
        if (p->hk1) hands[p->hk1] += p->hd1;
        if (p->hk2) hands[p->hk2] += p->hd2;
    }
    for (int32_t i = 0; i < 2 * K; i++) if (S.hands[i] < 0) { search_close(&S); return GGN_EBADPOSITION; }
    pos[0] = 1 - side;
    memcpy(pos + 1, b, (size_t)N * 4);
    if (g->capmap) memcpy(pos + 1 + N, S.hands, 2 * (size_t)K * 4);
    search_close(&S);
    return GGN_OK;
}

int ggn_in_check(const ggn_game *g, const int32_t *pos, size_t len, int *check) {
    if (!g || !check) return GGN_EBADPOSITION;
    search_t S;
    int rc = search_open(&S, g, pos, len, 0);
    if (rc == GGN_OK) *check = in_check_full(&S, S.b, S.b[g->N]);
    search_close(&S);
    return rc;
}

int ggn_legal_many(const ggn_game *g, const int32_t *positions, size_t count, int32_t *out, size_t cap,
                   int32_t *counts, size_t *total) {
    if (!g || !total || !counts || (count && !positions)) return GGN_EBADPOSITION;
    size_t size = ggn_position_size(g);
    *total = 0;
    if (!count) return GGN_OK;
    search_t S;
    int rc = search_open(&S, g, positions, size, 1);
    size_t used = 0;
    for (size_t i = 0; i < count && rc == GGN_OK; i++) {
        if (i) rc = search_load(&S, positions + i * size, size);
        if (rc != GGN_OK) break;
        sink_t sink = {out ? out + 2 * (used < cap ? used : cap) : NULL, NULL, out && used < cap ? cap - used : 0, 0};
        walk(&S, 0, 1, MODE_LIST, &sink);
        rc = S.err;
        counts[i] = (int32_t)sink.found;
        used += sink.found;
    }
    search_close(&S);
    *total = used;
    if (rc == GGN_OK && used > cap) rc = GGN_EOVERFLOW;
    return rc;
}

/* A search kept open for many calls (batch listing, one position a call): its buffers made once.
 * A game played on it (ggn_search_make) keeps the squares that hold a marked piece (one whose
 * mark every move clears), so that a make clears those only, and what each make changed. */
struct ggn_search {
    search_t S;
    int32_t *marked;   /* the squares that may hold a marked piece (where marked_known) */
    size_t nmarked;
    int marked_known;  /* 0: not known (loaded, or listed by ggn_search_legal): a make scans the board */
    int idempotent;    /* the tables' unmark is (a kind unmarked is unmarked): else always scan */
    int32_t *changed;  /* the squares the last make changed */
    size_t nchanged;
    int32_t hchanged[2]; /* the hand counts it changed (indices into the 2K counts) */
    size_t nhchanged;
};

/* The room of an open search's lists of changed and marked squares: a play's changes, the
 * marks the play before placed, and a wall's changes (wall_make: the walls of before taken
 * away, a square unmarked and the wall: N + 2 at most). */
static size_t search_room(const ggn_game *g) {
    return (size_t)g->N + 2 * (size_t)g->maxplays * (size_t)g->perplay + (g->wall_rule ? (size_t)g->N + 2 : 0);
}

ggn_search *ggn_search_new(const ggn_game *g) {
    if (!g) return NULL;
    size_t size = ggn_position_size(g);
    int32_t *empty = calloc(size, sizeof(int32_t)); /* side 0, no piece, empty hands: a position that loads */
    ggn_search *s = calloc(1, sizeof(ggn_search));
    if (!empty || !s) { free(empty); free(s); return NULL; }
    int rc = search_open(&s->S, g, empty, size, 1);
    free(empty);
    /* a play's changes and the marks the play before placed each fit one ply's buffer (and
     * a wall's changes, where walls are placed: see wall_make) */
    size_t room = search_room(g);
    if (rc == GGN_OK) {
        s->marked = alloc(room, 4);
        s->changed = alloc(room, 4);
        if (!s->marked || !s->changed) rc = GGN_ENOMEM;
    }
    if (rc != GGN_OK) { search_close(&s->S); free(s->marked); free(s->changed); free(s); return NULL; }
    s->S.gen = 1;
    s->idempotent = 1;
    for (int32_t k = 1; k < g->K; k++) if (g->unmark[g->unmark[k]] != g->unmark[k]) s->idempotent = 0;
    return s;
}

void ggn_search_free(ggn_search *s) {
    if (!s) return;
    search_close(&s->S);
    free(s->marked);
    free(s->changed);
    free(s);
}

int ggn_search_legal(ggn_search *s, const int32_t *pos, size_t len, int32_t *out, size_t cap, size_t *found) {
    if (!s || !found) return GGN_EBADPOSITION;
    s->marked_known = 0;
    s->nchanged = s->nhchanged = 0;
    int rc = search_load(&s->S, pos, len);
    if (rc != GGN_OK) return rc;
    sink_t sink = {out, NULL, out ? cap : 0, 0};
    s->S.setlist = 1; /* (the batch sorts the plays) */
    walk(&s->S, 0, 1, MODE_LIST, &sink);
    s->S.setlist = s->S.sets = 0;
    *found = sink.found;
    rc = s->S.err;
    if (rc == GGN_OK && sink.found > sink.cap) rc = GGN_EOVERFLOW;
    return rc;
}

/* --- a search played from ply to ply (the playouts' driver, playout.c, plays on it) -------- */
int ggn_search_load(ggn_search *s, const int32_t *pos, size_t len) {
    if (!s) return GGN_EBADPOSITION;
    s->marked_known = 0;
    s->nchanged = s->nhchanged = 0;
    return search_load(&s->S, pos, len);
}

const int32_t *ggn_search_board(const ggn_search *s) { return s->S.b; }

const int32_t *ggn_search_hands(const ggn_search *s) { return s->S.hand[0] ? s->S.hands : NULL; }

/* A listing walk on the search's position as it stands, a driver's (top): what the one-shot
 * flags set before it ask (only, pseudo, known), all cleared after it, whether or not the walk
 * read them. */
static int top_listing(search_t *S, int32_t *out, size_t cap, size_t *found) {
    S->mv_used = 0;
    S->err = GGN_OK;
    S->top = 1;
    sink_t sink = {out, NULL, out ? cap : 0, 0};
    walk(S, 0, 1, MODE_LIST, &sink);
    S->only = 0;
    S->pseudo = PSEUDO_NONE;
    S->known = 0;
    S->top = 0;
    *found = sink.found;
    if (S->err != GGN_OK) return S->err;
    return sink.found > sink.cap ? GGN_EOVERFLOW : GGN_OK;
}

/* The legal plays of the search's position as it stands (loaded, then made), as ggn_legal lists them. */
int ggn_search_list(ggn_search *s, int32_t *out, size_t cap, size_t *found) {
    if (!s || !found) return GGN_EBADPOSITION;
    return top_listing(&s->S, out, cap, found);
}

int ggn_search_track(ggn_search *s) {
    if (!s) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    if (S->track) return GGN_OK;
    size_t n = (size_t)S->g->N;
    S->owned[0] = alloc(n, 4);
    S->owned[1] = alloc(n, 4);
    S->where = alloc(n, 4);
    if (!S->owned[0] || !S->owned[1] || !S->where) return GGN_ENOMEM; /* freed with the search */
    S->track = 1;
    S->tracked = 0;
    return GGN_OK;
}

static inline int plays_alone(const ggn_game *g) {
    return g && !(g->eflags & (E_CAPTURES | E_DROPS_FORCED)) && !g->bikjang && !g->wall_rule;
}

int ggn_plays_alone(const ggn_game *g) {
    return plays_alone(g);
}

int ggn_search_pseudo(ggn_search *s, int32_t *out, size_t cap, size_t *found) {
    if (!s || !found) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    if (!plays_alone(S->g)) return GGN_EBADPOSITION;
    S->pseudo = PSEUDO_LISTED;
    return top_listing(S, out, cap, found);
}

int ggn_search_pseudo_groups(ggn_search *s, int32_t *out, size_t cap, size_t *found) {
    if (!s || !found) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    if (!plays_alone(S->g)) return GGN_EBADPOSITION;
    S->pseudo = PSEUDO_GROUPED;
    return top_listing(S, out, cap, found);
}

int ggn_search_pseudo_moves(ggn_search *s, size_t first, size_t count, int32_t *out) {
    if (!s || (count && !out)) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    const ggn_game *g = S->g;
    if (S->kept_gen != S->gen || first > S->nkept || count > S->nkept - first) return GGN_EBADPOSITION;
    size_t from = 0; /* the first move of part k */
    for (size_t k = 0; k < S->nsegs && count; from += S->segs[k++].n) {
        const kseg_t *sg = &S->segs[k];
        if (first >= from + sg->n) continue;
        size_t skip = first - from, take = sg->n - skip < count ? sg->n - skip : count;
        if (sg->slot < 0) { /* kept entries */
            if (sg->at > S->nstacked || sg->n > S->nstacked - sg->at) return GGN_EBUSY; /* (never) */
            for (size_t i = 0; i < take; i++) {
                const fent_t *h = &g->fent[S->kept[sg->at + skip + i]];
                out[2 * i] = h->mi;
                out[2 * i + 1] = entry_plays(S, h, S->plays, S->chg);
            }
        } else { /* a ray set's: its slot's entries onto its set, in their order */
            int32_t a = g->gstart[sg->slot], end = a + g->gcount[sg->slot];
            size_t seen = 0, put = 0;
            for (int32_t i = a; i < end && put < take; i++) {
                const fent_t *h = &g->fent[i];
                if (!(sg->dests >> h->dst & 1) || seen++ < skip) continue;
                out[2 * put] = h->mi;
                out[2 * put + 1] = h->nplaced;
                put++;
            }
            if (put != take) return GGN_EBUSY; /* (never: the set's moves are the slot's) */
        }
        out += 2 * take;
        first += take;
        count -= take;
    }
    return count ? GGN_EBUSY : GGN_OK;
}

/* The part of the last grouped pseudo listing's kept moves that is group ``group``, while the
 * search is in the position that listing saw (else NULL). */
static const kseg_t *kept_group(const search_t *S, size_t group) {
    return S->kept_gen == S->gen && group < S->nsegs ? &S->segs[group] : NULL;
}

int ggn_search_pseudo_set(ggn_search *s, size_t group, uint64_t *set, size_t words, int *is_set) {
    if (!s || !set || !words || !is_set) return GGN_EBADPOSITION;
    const kseg_t *sg = kept_group(&s->S, group);
    if (!sg) return GGN_EBADPOSITION;
    *is_set = sg->slot >= 0;
    memset(set, 0, words * sizeof(uint64_t));
    if (sg->slot >= 0) set[0] = sg->dests; /* (boards of up to 64 squares) */
    return GGN_OK;
}

int ggn_search_pseudo_onto(ggn_search *s, size_t group, int32_t dst, int32_t *move) {
    if (!s || !move) return GGN_EBADPOSITION;
    const ggn_game *g = s->S.g;
    const kseg_t *sg = kept_group(&s->S, group);
    if (!sg || sg->slot < 0 || dst < 0 || dst >= 64 || !(sg->dests >> dst & 1)) return GGN_EBADPOSITION;
    int32_t plan = g->rplan[sg->slot];
    uint8_t at = g->rto[(size_t)plan * 64 + (size_t)dst];
    if (at >= g->gcount[sg->slot]) return GGN_EBUSY; /* (never: a set's squares are its entries') */
    *move = g->fent[g->gstart[sg->slot] + at].mi;
    return GGN_OK;
}

int ggn_search_try(ggn_search *s, int32_t move, int32_t *out, size_t cap, size_t *found) {
    if (!s || !found) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    const ggn_game *g = S->g;
    /* the position the last pseudo listing saw, and a pseudo-legal move of it: the mover's, its
     * piece where it moves from, its conditions held */
    if (!plays_alone(g) || S->pseudo_gen != S->gen || move < 0 || move >= g->M) return GGN_EBADPOSITION;
    const move_t *m = &g->moves[move];
    const int32_t *b = S->b;
    int side = b[g->N] & 1;
    if (g->kside[m->kind] != side) return GGN_EBADPOSITION;
    if (m->src >= 0 ? b[m->src] != m->kind : !S->hand[side] || S->hand[side][m->kind] <= 0) return GGN_EBADPOSITION;
    if (!HOLDS(g, b, m, side) || BARRED(g, b, move)) return GGN_EBADPOSITION;
    /* the walk's shortcuts for one move, without the walk, where it would take them at once (no
     * rule of the game's beyond the plays', no prefix, the terminal pieces known): the same
     * plays found */
    const fent_t *h = &g->fent[g->fentry[move]];
    int32_t nkings = S->known_kings;
    if (!g->eflags && !S->known_prefix && g->marks_keep_terms && nkings <= KINGS_KEPT && !(h->hot & (HOT_RULES | HOT_SITTUYIN))) {
        sink_t sink = {out, NULL, out ? cap : 0, 0};
        uint64_t total = 0;
        int done = 0;
        S->err = GGN_OK;
        S->sets = S->tracked && g->aplan[0]; /* (the board's squares kept, boards of up to 64 squares) */
        if ((h->hot & HOT_KING) && nkings == 1 && !g->strict && !g->wall_rule)
            done = king_step(S, 0, 1, MODE_LIST, &sink, h, S->b, side, &total);
        else if (PLAIN_ALONE(g, h))
            done = plain_alone(S, 0, 1, MODE_LIST, &sink, h, S->b, S->kings, nkings, side, &total);
        S->sets = 0;
        if (done) {
            *found = sink.found;
            if (S->err != GGN_OK) return S->err;
            return sink.found > sink.cap ? GGN_EOVERFLOW : GGN_OK;
        }
    }
    S->only = g->fentry[move] + 1;
    S->known = 1;
    return top_listing(S, out, cap, found);
}

int ggn_game_ends(const ggn_game *g) {
    return g && (g->eflags & (E_EXTINCTION | E_FLAG)) != 0;
}

int ggn_search_ended(ggn_search *s, int *ended, int *value, int *letter) {
    if (!s || !ended || !value || !letter) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    *ended = *value = 0;
    *letter = -1;
    if (!(S->g->eflags & (E_EXTINCTION | E_FLAG))) return GGN_OK;
    S->err = GGN_OK;
    S->mv_used = 0;
    *ended = game_ended(S, 0, S->b, value);
    *letter = S->ended_letter;
    return S->err;
}

int ggn_search_in_check(ggn_search *s, int *check) {
    if (!s || !check) return GGN_EBADPOSITION;
    *check = in_check_full(&s->S, s->S.b, s->S.b[s->S.g->N] & 1);
    return GGN_OK;
}

int ggn_game_bikjang(const ggn_game *g) {
    return g && g->bikjang;
}

int ggn_search_facing(const ggn_search *s, int *facing_now) {
    if (!s || !facing_now) return GGN_EBADPOSITION;
    *facing_now = s->S.g->bikjang && facing(s->S.g, s->S.b);
    return GGN_OK;
}

/* The plays of a move on the search's board (the move must be the side to move's, its piece
 * on its source): how many, or -1. Written to the search's first ply's buffers. */
static int32_t search_plays(search_t *S, int32_t move) {
    const ggn_game *g = S->g;
    if (move < 0 || move >= g->M) return -1;
    const move_t *m = &g->moves[move];
    int side = S->b[g->N] & 1;
    if (g->kside[m->kind] != side) return -1;
    if (m->src >= 0 ? S->b[m->src] != m->kind : (S->hand[side] && S->hand[side][m->kind] <= 0)) return -1;
    return plays_of(S, S->b, move, S->plays, S->chg);
}

/* Whether a play captures: a square it changes held a piece of the other side and holds
 * nothing, or a piece of the mover's, after it (the last change of a square is what it holds). */
static int play_captures(const search_t *S, const play_t *p, int side) {
    const ggn_game *g = S->g;
    const int32_t *b = S->b;
    for (int32_t c = p->n - 1; c >= 0; c--) {
        const chg_t *cg = &S->chg[p->off + c];
        int later = 0;
        for (int32_t d = c + 1; d < p->n && !later; d++) later = S->chg[p->off + d].sq == cg->sq;
        if (later) continue;
        int32_t before = b[cg->sq];
        if (before && g->kside[before] != side && (!cg->val || g->kside[cg->val] == side)) return 1;
    }
    return 0;
}

/* Whether move mi's plays are its plain ones (a board move, no victim, no rook or leap, no
 * gating, explosion or petrifying, every play placing a piece of the mover on its destination): then play
 * k places its k-th piece, and it captures exactly when its destination holds the other side's. */
static int plain_board_move(const ggn_game *g, int32_t mi) {
    const move_t *m = &g->moves[mi];
    if (m->src < 0 || m->src == m->dst || m->mtype != MOVE_PLAIN || m->nvict || m->oncap || m->limited || g->kblast || g->blast ||
        g->kpetrify)
        return 0;
    if ((g->mgate && g->mgate[mi]) || (g->mleap && g->mleap[mi])) return 0;
    int side = g->kside[m->kind];
    for (int32_t k = 0; k < m->nplaced; k++) {
        int32_t placed = g->ints[m->placed_off + k];
        if (!placed || g->kside[placed] != side) return 0;
    }
    return 1;
}

int ggn_search_captures(ggn_search *s, int32_t move, int32_t play, int *captures) {
    if (!s || !captures) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    const ggn_game *g = S->g;
    if (g->wall_rule) { /* a play number is the play's times N plus its wall's square: a wall takes nothing */
        if (play < 0) return GGN_EBADPOSITION;
        play /= g->N;
    }
    if (move >= 0 && move < g->M && plain_board_move(g, move)) {
        /* the changes need not be made: the rights a capture takes change only the other side's pieces */
        const move_t *m = &g->moves[move];
        int side = S->b[g->N] & 1;
        if (g->kside[m->kind] != side || S->b[m->src] != m->kind || play < 0 || play >= m->nplaced)
            return GGN_EBADPOSITION;
        int32_t taken = S->b[m->dst];
        *captures = taken && g->kside[taken] != side;
        return GGN_OK;
    }
    int32_t np = search_plays(S, move);
    if (np < 0 || play < 0 || play >= np) return GGN_EBADPOSITION;
    *captures = play_captures(S, &S->plays[play], S->b[S->g->N] & 1);
    return GGN_OK;
}

/* Play ``play`` of move ``move`` of the side to move, made as base_plays makes it, where that
 * is quick: a plain board move (plain_board_move) whose capture takes no castling right (its
 * destination not the other side's rook or castling king): the source emptied, the destination
 * the play's piece, the piece taken to the hand. Written as the search's first play; 0 where
 * the move's plays must be made whole (search_plays), or the move or play is not the mover's. */
static int plain_play(search_t *S, int32_t move, int32_t play) {
    const ggn_game *g = S->g;
    if (move < 0 || move >= g->M || !plain_board_move(g, move)) return 0;
    const move_t *m = &g->moves[move];
    const int32_t *b = S->b;
    int side = b[g->N] & 1;
    if (g->kside[m->kind] != side || b[m->src] != m->kind || play < 0 || play >= m->nplaced) return 0;
    int32_t taken = b[m->dst];
    if (taken && g->kside[taken] != side && takes_rights(g, taken, 1 - side)) return 0;
    int32_t hk = taken && g->capmap ? g->capmap[(size_t)taken * (size_t)g->K + (size_t)m->kind] : 0;
    play_t *p = &S->plays[0];
    p->off = 0; p->n = 2; p->castle = 0; p->ordinal = play; p->king_moves = g->kterm[m->kind]; p->gate = -1;
    p->hk1 = hk; p->hd1 = hk ? 1 : 0; p->hk2 = 0; p->hd2 = 0;
    S->chg[0].sq = m->src; S->chg[0].val = 0;
    S->chg[1].sq = m->dst; S->chg[1].val = g->ints[m->placed_off + play];
    return 1;
}

int ggn_search_make(ggn_search *s, int32_t move, int32_t play, int *flags) {
    if (!s || !flags) return GGN_EBADPOSITION;
    search_t *S = &s->S;
    const ggn_game *g = S->g;
    int32_t N = g->N;
    s->nchanged = s->nhchanged = 0;
    moved(S);
    int32_t wall = -1; /* with walls, a play number is the play's times N plus its wall's square */
    if (g->wall_rule) {
        if (play < 0) return GGN_EBADPOSITION;
        wall = play % N;
        play /= N;
        memcpy(S->wreach, S->b, (size_t)N * 4); /* the board before the play, for wall_make */
    }
    const play_t *p;
    if (plain_play(S, move, play)) {
        p = &S->plays[0];
    } else {
        int32_t np = search_plays(S, move);
        if (np < 0 || play < 0 || play >= np) return GGN_EBADPOSITION;
        p = &S->plays[play];
    }
    const move_t *m = &g->moves[move];
    int32_t *b = S->b;
    int side = b[N] & 1;
    int made = play_captures(S, p, side) ? GGN_PLAY_CAPTURE : 0;
    if (m->src < 0) made |= GGN_PLAY_DROP;
    if (m->src >= 0 && m->src == m->dst) { /* a pass: no piece of the mover's arrives anywhere */
        int arrives = 0;
        for (int32_t c = 0; c < p->n; c++) {
            int32_t v = S->chg[p->off + c].val;
            if (v && g->kside[v] == side) arrives = 1;
        }
        if (!arrives) made |= GGN_PLAY_PASS;
    }
    size_t room = search_room(g);
    if ((s->marked_known ? s->nmarked : (size_t)N) + (size_t)p->n + (g->wall_rule ? (size_t)N + 2 : 0) > room)
        return GGN_EBUSY; /* never: see search_room */
    int32_t *hand = S->hand[side];
    if (hand) {
        if ((p->hk1 && hand[p->hk1] + p->hd1 < 0) || (p->hk2 && hand[p->hk2] + p->hd2 < 0)) return GGN_EBADPOSITION;
        int32_t at = side * g->K;
        if (p->hk1) { hand[p->hk1] += p->hd1; s->hchanged[s->nhchanged++] = at + p->hk1; }
        if (p->hk2) { hand[p->hk2] += p->hd2; s->hchanged[s->nhchanged++] = at + p->hk2; }
    }
    /* the marks every move clears: on the squares known to hold marked pieces, else all */
    int32_t *changed = s->changed;
    size_t nc = 0;
    if (s->marked_known) {
        for (size_t i = 0; i < s->nmarked; i++) {
            int32_t q = s->marked[i];
            if (b[q]) b[q] = g->unmark[b[q]];
            changed[nc++] = q;
        }
    } else {
        for (int32_t q = 0; q < N; q++) {
            int32_t k = b[q];
            if (k && g->unmark[k] != k) { b[q] = g->unmark[k]; changed[nc++] = q; }
        }
    }
    /* the marked pieces after the play are those it places (every other mark is cleared) */
    s->nmarked = 0;
    for (int32_t c = 0; c < p->n; c++) {
        int32_t q = S->chg[p->off + c].sq, v = S->chg[p->off + c].val;
        b[q] = v;
        changed[nc++] = q;
        if (v && g->unmark[v] != v) s->marked[s->nmarked++] = q;
    }
    if (wall >= 0) { /* the play's wall (the duck's of before taken away, a square unmarked): its squares changed */
        chg_t *undo = S->wundo;
        int32_t walled = wall_make(g, S->wreach, b, side, wall, undo);
        for (int32_t c = 0; c < walled; c++) changed[nc++] = undo[c].sq;
    }
    s->nchanged = nc;
    s->marked_known = s->idempotent;
    if (S->tracked) {
        for (size_t i = 0; i < nc; i++) track_square(S, changed[i]);
#ifdef GGN_PLAYOUT_CHECK_KEYS
        /* (the checking build) the kept squares against a scan */
        int32_t seen[2] = {0, 0}, marks = 0;
        uint64_t occ = 0, own[2] = {0, 0};
        for (int32_t q = 0; q < N; q++) {
            int f = g->kscan[b[q]];
            marks += f >> 3;
            if (g->rplan && b[q]) occ |= (uint64_t)1 << q;
            int who = (f & 3) == 1 ? 0 : (f & 3) == 2 ? 1 : -1;
            if (who < 0) continue;
            if (g->rplan) { own[who] |= (uint64_t)1 << q; continue; } /* (the words, no lists) */
            if (seen[who] >= S->nowned[who] || S->owned[who][seen[who]] != q) abort();
            seen[who]++;
        }
        if (marks != S->nmarked) abort();
        if (g->rplan ? occ != S->occ || own[0] != S->own[0] || own[1] != S->own[1]
                     : seen[0] != S->nowned[0] || seen[1] != S->nowned[1])
            abort();
#endif
    }
    /* a promotion: a board move that leaves on its destination another kind than its plain
     * play leaves (castling and a castling rook's move leave theirs) */
    if ((m->mtype == MOVE_PLAIN && m->src >= 0 && b[m->dst] != m->becomes) || m->mtype == MOVE_SITTUYIN)
        made |= GGN_PLAY_PROMOTION;
    b[N] = 1 - side;
    *flags = made;
    return GGN_OK;
}

int ggn_search_changed(const ggn_search *s, const int32_t **squares, size_t *nsquares, const int32_t **hands,
                       size_t *nhands) {
    if (!s || !squares || !nsquares || !hands || !nhands) return GGN_EBADPOSITION;
    *squares = s->changed;
    *nsquares = s->nchanged;
    *hands = s->hchanged;
    *nhands = s->nhchanged;
    return GGN_OK;
}

int ggn_ended(const ggn_game *g, const int32_t *pos, size_t len, int *ended, int *value) {
    if (!g || !ended || !value) return GGN_EBADPOSITION;
    search_t S;
    int rc = search_open(&S, g, pos, len, 1);
    *ended = 0;
    *value = 0;
    if (rc == GGN_OK && (g->eflags & (E_EXTINCTION | E_FLAG))) {
        *ended = game_ended(&S, 0, S.b, value);
        rc = S.err;
    }
    search_close(&S);
    return rc;
}
