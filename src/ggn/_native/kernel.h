/* ggn's native kernel: legal moves, counts and perft of a game given as flat integer tables.
 *
 * Pure C99, no Python API: tables in, counts and moves out (module.c binds it to Python; the
 * fuzz harness and the sanitizer builds drive it directly). The tables are made and checked
 * by ggn.rules._native (the format is written out there, in TABLE_FORMAT); the kernel checks
 * them again as it reads them and never trusts a size or an index it is given.
 *
 * Nothing here knows a game: squares are numbers 0..N-1, pieces are kinds 1..K-1, and every
 * rule comes from the tables (the document's moves with their conditions, and the effects the
 * rule system gives them: promotions, castling, en passant, captures to hand, drops).
 */
#ifndef GGN_KERNEL_H
#define GGN_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#define GGN_KERNEL_ABI 5
#define GGN_TABLE_MAGIC 0x474B4E31 /* "GKN1" */
#define GGN_MAX_SQUARES 4096
#define GGN_MAX_KINDS 4096
#define GGN_MAX_DEPTH 64

enum {
    GGN_OK = 0,
    GGN_EBADTABLE = 1,   /* the tables are malformed (the message says where) */
    GGN_EBADPOSITION = 2, /* the position does not fit the tables */
    GGN_ENOMEM = 3,
    GGN_EOVERFLOW = 4,    /* an output buffer is too small, or a count passed 2^64 */
    GGN_EBUSY = 5         /* a move list passed the kernel's bound per ply */
};

typedef struct ggn_game ggn_game;

/* The number of set bits of a word (portable: no instruction a build may lack). */
static inline int32_t ggn_bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int32_t)((x * 0x0101010101010101ULL) >> 56);
}

/* The place of the lowest set bit of a word (x != 0). */
static inline int32_t ggn_lowest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int32_t n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
#endif
}

/* The version of the tables' layout the kernel reads (GGN_KERNEL_ABI); ggn.rules._native checks it. */
int ggn_kernel_abi(void);

/* Read the tables (``len`` int32 values). On success *out holds a game to free with
 * ggn_game_free; on failure a message of at most errlen bytes is written to err. */
int ggn_game_new(const int32_t *tables, size_t len, ggn_game **out, char *err, size_t errlen);
void ggn_game_free(ggn_game *game);
int32_t ggn_game_squares(const ggn_game *game);
int32_t ggn_game_kinds(const ggn_game *game);

/* A position: [side to move (0 or 1), kind of each of the N squares, the first player's hand
 * (K counts), the second player's hand (K counts)]: 1 + N + 2K values. */
size_t ggn_position_size(const ggn_game *game);

/* The number of legal move paths of ``depth`` plies (0..GGN_MAX_DEPTH). */
int ggn_perft(const ggn_game *game, const int32_t *position, size_t len, int depth, uint64_t *count);

/* The legal plays of a position, as pairs (move number in the tables, the play's number among
 * the move's plays), written to out (room for cap pairs, 2*cap values); *found: how many. In a
 * game whose moves place walls, a play's number is its number among the move's plays times N
 * plus the square of its wall. */
int ggn_legal(const ggn_game *game, const int32_t *position, size_t len, int32_t *out, size_t cap,
              size_t *found);

/* The legal plays of ``count`` positions laid end to end (ggn_position_size values each):
 * counts[i] the number of plays of position i, their pairs written to out in turn (room for
 * cap pairs; *total: how many in all, more than cap when out was too small). */
int ggn_legal_many(const ggn_game *game, const int32_t *positions, size_t count, int32_t *out, size_t cap,
                   int32_t *counts, size_t *total);

/* Perft split by first play: for each legal play, (move, play, count of depth-1 below it),
 * written as three values each (room for cap triples). */
int ggn_divide(const ggn_game *game, const int32_t *position, size_t len, int depth, int64_t *out,
               size_t cap, size_t *found);

/* For playouts and other drivers on this API: */

/* The kind, source (-1: a drop from the hand) and destination of a move of the tables. */
int ggn_move_squares(const ggn_game *game, int32_t move, int32_t *kind, int32_t *source, int32_t *destination);
/* Whether a move of the tables is a sittuyin promotion (section SITT: its plays put the pawn's
 * promoted piece where it stands or a step away, each a promotion chosen). */
int ggn_move_sittuyin(const ggn_game *game, int32_t move, int *sittuyin);

/* Make a play (a move and its play number, as ggn_legal names it) on a position, in place: the
 * marks every move clears, the play's changes, the mover's hand, the side to move. The play
 * should be legal (ggn_legal listed it); any play the move has is made, legal or not. */
int ggn_make(const ggn_game *game, int32_t *position, size_t len, int32_t move, int32_t play);

/* Whether the side to move is in check as the rule system's in_check says: the other side can
 * move (or drop) onto a terminal piece of it, or, with pseudo-royal pieces, onto one of those
 * (duple check: onto all; with explosions, onto one not beside a pseudo-royal piece of the
 * other side's). */
int ggn_in_check(const ggn_game *game, const int32_t *position, size_t len, int *check);

/* A search kept open for many calls of one game (its buffers made once): ggn_search_legal is
 * ggn_legal on it. Not to be used by two threads at once. */
typedef struct ggn_search ggn_search;
ggn_search *ggn_search_new(const ggn_game *game);
void ggn_search_free(ggn_search *search);
int ggn_search_legal(ggn_search *search, const int32_t *position, size_t len, int32_t *out, size_t cap,
                     size_t *found);

/* For a driver that plays games on a search (playout.c): the search's position is loaded,
 * then changed by the plays made on it; its board (N kinds, then the side to move) and, where
 * the tables track them, its hands (2K counts) are read in place. */
enum { GGN_PLAY_CAPTURE = 1, GGN_PLAY_PROMOTION = 2, GGN_PLAY_DROP = 4, GGN_PLAY_PASS = 8 };

int ggn_search_load(ggn_search *search, const int32_t *position, size_t len);
const int32_t *ggn_search_board(const ggn_search *search);
const int32_t *ggn_search_hands(const ggn_search *search); /* NULL: hands not tracked */
/* The legal plays of the search's position as it stands, as ggn_legal lists them. */
int ggn_search_list(ggn_search *search, int32_t *out, size_t cap, size_t *found);
/* ggn_in_check on the search's position as it stands. */
int ggn_search_in_check(ggn_search *search, int *check);
/* Whether the game has ended before the side to move plays, as ggn_ended says, on the search's
 * position as it stands; *letter: for an extinction, its type's number among the extinction
 * types (sorted), else -1. */
int ggn_search_ended(ggn_search *search, int *ended, int *value, int *letter);
/* Whether the royal pieces face each other on the search's position as it stands (janggi's
 * bikjang: the first of each side's by square, on a file or a rank with nothing between); 0
 * in a game without bikjang. */
int ggn_search_facing(const ggn_search *search, int *facing);
/* Whether the game has janggi's bikjang (bikjangRule): else ggn_search_facing is always 0. */
int ggn_game_bikjang(const ggn_game *game);
/* Whether the game's tables hold an end before the last move (an extinction, a flag). */
int ggn_game_ends(const ggn_game *game);
/* Keep the squares each side's pieces stand on from make to make, for the listings on the
 * search (a driver that makes many plays on one search: a playout). */
int ggn_search_track(ggn_search *search);
/* Whether each play's legality in the game is its own (no forced captures or drops, no
 * bikjang, no walls): then ggn_search_pseudo and ggn_search_try may be used. */
int ggn_plays_alone(const ggn_game *game);
/* The pseudo-legal moves of the search's position (those the listing makes plays of, before
 * any play is tested), as triples (move, its plays' count, its source: N for the hand),
 * written to out (room for cap triples), grouped by source in ascending order, the hand
 * last; a game that has ended (an extinction, a flag) has none. If they do not all fit,
 * none is written: GGN_EOVERFLOW, and *found says how many there are. */
int ggn_search_pseudo(ggn_search *search, int32_t *out, size_t cap, size_t *found);
/* The same pseudo-legal moves told by source: triples (source: N for the hand, its moves'
 * plays, its moves) written to out (room for cap), sources ascending, the hand last; *found
 * says how many groups there are (GGN_EOVERFLOW if more than cap: out's content is then
 * unspecified). The moves themselves are kept in the search, the groups' in turn, for
 * ggn_search_pseudo_moves. */
int ggn_search_pseudo_groups(ggn_search *search, int32_t *out, size_t cap, size_t *found);
/* Moves first .. first + count - 1 of those the last ggn_search_pseudo_groups kept, as pairs
 * (move, its plays' count) written to out, while the search is in the position that listing
 * saw (else GGN_EBADPOSITION, as for a range past them). ggn_search_try may be used on them
 * as after ggn_search_pseudo. */
int ggn_search_pseudo_moves(ggn_search *search, size_t first, size_t count, int32_t *out);
/* Group ``group`` (from 0, as ggn_search_pseudo_groups told them) of the last grouped listing,
 * while the search is in the position it saw: *is_set 1 where its moves are known as a set of
 * destinations, one play each (a board of up to 64 squares, a piece whose moves are rays and
 * leaps), written to set (``words`` words, a bit a square, the rest 0); else *is_set 0 and
 * its moves are fetched by ggn_search_pseudo_moves. */
int ggn_search_pseudo_set(ggn_search *search, size_t group, uint64_t *set, size_t words, int *is_set);
/* The move of such a group onto square ``dst`` (one of its set's). */
int ggn_search_pseudo_onto(ggn_search *search, size_t group, int32_t dst, int32_t *move);
/* The legal plays of one pseudo-legal move of the search's position, as ggn_legal lists them
 * (pairs: move, play); only after ggn_search_pseudo listed that position. */
int ggn_search_try(ggn_search *search, int32_t move, int32_t *out, size_t cap, size_t *found);
/* Whether a play (of the side to move) captures: a square it changes held a piece of the
 * other side and holds nothing, or a piece of the mover's, after it. */
int ggn_search_captures(ggn_search *search, int32_t move, int32_t play, int *captures);
/* Make a play in place (as ggn_make); *flags: GGN_PLAY_CAPTURE, _PROMOTION (a board move leaving
 * another kind than its plain play), _DROP, _PASS (a board move onto its own source that
 * brings none of the mover's pieces anywhere: Game's pass). */
int ggn_search_make(ggn_search *search, int32_t move, int32_t play, int *flags);

/* What the last ggn_search_make changed, for a driver that keeps keys of its own (a playout's
 * Zobrist key): the squares whose piece it may have changed (its marks cleared, its changes; a
 * square may come twice, or hold what it held), and the hand counts it changed (indices into
 * the 2K counts). Valid until the next call on the search; none after a load. */
int ggn_search_changed(const ggn_search *search, const int32_t **squares, size_t *nsquares, const int32_t **hands,
                       size_t *nhands);

/* Whether the game has ended before the side to move plays, by the tables' ends: *ended
 * GGN_END_EXTINCTION (a type extinct, as extinctionValue counts), GGN_END_FLAG (a flag region
 * reached), or 0; *value the result for the side to move (1 a win, 0 a draw, -1 a loss). Such
 * a position has no legal play. A position without a legal play that has not ended so is 0
 * here: its result is the game's checkmate or stalemate, which the tables do not hold. */
enum { GGN_END_EXTINCTION = 1, GGN_END_FLAG = 2 };
int ggn_ended(const ggn_game *game, const int32_t *position, size_t len, int *ended, int *value);

#endif
