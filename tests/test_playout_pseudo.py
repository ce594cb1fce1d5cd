"""The pseudo-legal plays a playout draws among (docs/DECISIONS.md, "Playouts"), the kernel's
against the pure walk's, on every game the kernel plays out.

- Which games draw so: the kernel's ``ggn_plays_alone`` and the pure path's
  :func:`ggn.rules._playout.plays_alone` agree on every game the kernel plays.
- What they draw among: for the start, positions of random games and random placements
  (seeds drawn once from os.urandom after the code was written), the kernel's pseudo-legal
  moves (``ggn_search_pseudo``, and the same told by source, ``ggn_search_pseudo_groups``,
  as a playout reads them) with their plays' counts are the pure walk's
  (:func:`ggn.rules._walk.pseudo_plays`), and each move's legal plays as the kernel tries it
  alone (``ggn_search_try``) are those the pure path's ``legal_moves`` lists, by number.
- The pure walk's pseudo-legal plays of chess are python-chess's pseudo-legal moves.
"""

from __future__ import annotations

import random
from collections import Counter

import chess
import pytest

from ggn.games.chess import from_fen
from ggn.position import Position
from ggn.rules import _native, rule_system, use_native
from ggn.rules._cplayout import playout_refusal
from ggn.rules._playout import legal_by_number, plays_alone
from ggn.rules._system import RuleSystem
from ggn.rules._walk import pseudo_plays
from ggn.variants import registry
from test_playout_native import _placement, _walked

SEEDS = (6260851, 14190530, 3518197)

pytestmark = pytest.mark.skipif(not _native.native_available(), reason="the C kernel is not built here")


def _played_out() -> list[str]:
    """The games whose playouts the kernel plays."""
    return [name for name in registry.names()
            if _native.native_support(rule_system(name))[0] and not playout_refusal(rule_system(name))]


Seen = dict[tuple[str, str, str], tuple[int, tuple[int, ...]]]
"""Per move (source, destination, piece): its plays' count and the numbers of its legal ones."""


def _kernel(rules: RuleSystem, position: Position) -> Seen | None:
    asked = _native._asked(rules, position)
    assert asked is not None
    kernel, game, encoded = asked
    listed = kernel.pseudo(game.capsule, encoded)
    if listed is None:
        return None
    found, told = listed
    # the same on a search that keeps its squares, as a playout's (where the kernel knows a
    # piece's moves as a set of destinations: a board of up to 64 squares, rays and leaps)
    tracked_found, tracked = kernel.pseudo(game.capsule, encoded, True)
    assert tracked_found == found
    assert [group[:3] for group in tracked] == [group[:3] for group in told]
    # told by source as a playout reads them (ggn_search_pseudo_groups, ggn_search_pseudo_moves):
    # the same moves with the same plays' counts, in the same order, a group a source, sources
    # ascending (the hand, numbered N, last), each group's counts its moves'
    pairs = [pair for _, _, moves, _ in told for pair in moves]
    assert pairs == [(number, plays) for number, plays, _ in found]
    sources = [source for source, _, _, _ in told]
    assert sources == sorted(set(sources)), sources
    for source, plays, moves, _ in told:
        assert moves and plays == sum(count for _, count in moves), (source, plays, moves)
        for number, _ in moves:  # the tables' own source of the move (-1: the hand)
            own = game.places[3 * number + 1]
            assert source == (own if own >= 0 else game.squares), (source, number)
    # a set (ggn_search_pseudo_set, ggn_search_pseudo_onto): its destinations are its moves',
    # each one move of one play, and the move asked for a destination is the one onto it
    for source, _, moves, onto in told + tracked:
        if onto is None:
            continue
        assert game.squares <= 64 and source < game.squares, (source, onto)
        assert sorted((number, 1) for _, number in onto) == sorted(moves), (source, onto, moves)
        for square, number in onto:
            assert game.places[3 * number + 2] == square, (source, square, number)
    seen: Seen = {}
    for number, plays, legal in found:
        if not plays:  # a move with no play (a capture a rule forbids): no candidate, nor in the pure walk
            assert not legal
            continue
        move = game.move(rules, number)
        assert move is not None
        key = (str(move.source), str(move.destination), str(move.piece))
        assert key not in seen, key
        seen[key] = (plays, tuple(legal))
    return seen


def _pure(rules: RuleSystem, position: Position) -> Seen:
    with use_native(False):
        legal = rules.legal_moves(position)
    pseudo = pseudo_plays(rules, position)
    numbered = legal_by_number(pseudo, legal)
    assert len(numbered) == len(legal)  # every legal play is a pseudo-legal one
    plays: Counter[tuple[str, str, str]] = Counter()
    legal_numbers: dict[tuple[str, str, str], list[int]] = {}
    for move, number, _ in pseudo:
        key = (str(move.source), str(move.destination), str(move.piece))
        plays[key] += 1
        legal_numbers.setdefault(key, [])
        if (id(move), number) in numbered:
            legal_numbers[key].append(number)
    return {key: (count, tuple(legal_numbers[key])) for key, count in plays.items()}


@pytest.mark.parametrize("name", _played_out() if _native.native_available() else [])
def test_the_kernel_s_pseudo_legal_plays_are_the_pure_walk_s(name: str) -> None:
    rules = rule_system(name)
    # which games draw among them: the kernel's ggn_plays_alone and the pure path's agree
    drawn = _kernel(rules, rules.position()) is not None
    assert drawn == plays_alone(rules), name
    if not drawn:
        return
    positions = [rules.position()]
    for number, seed in enumerate(SEEDS):
        positions.append(_walked(name, seed + len(name), 12 + 25 * number))
        placed = _placement(name, seed ^ len(name))
        if placed is not None:
            positions.append(placed)
    for position in positions:
        mine, theirs = _kernel(rules, position), _pure(rules, position)
        assert mine == theirs, (name, position.to_feen(), set(mine or {}) ^ set(theirs))


@pytest.mark.parametrize(("name", "feen", "kinds"), [
    ("crazyhouse", "r3k^2r/ppp2ppp/8/3p4/3P4/8/PPP2PPP/R3K^2R 2PBNQ/bnr C/c", 4),
    ("shogi", "lnsgk^gsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGK^GSNL BNP/p S/s", 3),
])
def test_a_hand_of_several_kinds_is_told_as_one_group(name: str, feen: str, kinds: int) -> None:
    """The hand's drops, kinds collected one by one, are one group (source N, last) in the
    grouped listing, and the moves are the pure walk's (``_kernel`` checks the groups)."""
    rules = rule_system(name)
    position = Position.from_feen(feen)
    asked = _native._asked(rules, position)
    assert asked is not None
    kernel, game, encoded = asked
    _, told = kernel.pseudo(game.capsule, encoded, True)
    hand = [group for group in told if group[0] == game.squares]
    assert len(hand) == 1 and told[-1] is hand[0], told
    dropped = {str(game.move(rules, number).piece) for number, _ in hand[0][2]}  # type: ignore[union-attr]
    assert len(dropped) == kinds, dropped
    assert _kernel(rules, position) == _pure(rules, position)


def test_the_pure_walk_s_pseudo_legal_chess_plays_are_python_chess_s() -> None:
    rules = rule_system("chess")
    chance = random.Random(SEEDS[0])
    board = chess.Board()
    for _ in range(60):
        position = Position.from_feen(_feen_of(board))
        mine = Counter(_uci(play) for _, _, play in pseudo_plays(rules, position))
        # python-chess lists castling only when legal, and never into or through check: its
        # pseudo-legal moves less castling, against ours less the king's two-square steps
        theirs = Counter(move.uci() for move in board.pseudo_legal_moves if not board.is_castling(move))
        kings = {uci for uci in mine if _castles(board, uci)}
        assert Counter({uci: n for uci, n in mine.items() if uci not in kings}) == theirs, board.fen()
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(chance.choice(legal))


def _feen_of(board: chess.Board) -> str:
    return from_fen(board.fen())


def _uci(play: object) -> str:
    text = str(play)  # "C:P e2-e4" or "C:P e7-e8=C:Q"
    squares = text.split(" ")[1]
    move, _, choice = squares.partition("=")
    source, destination = move.split("-")
    return source + destination + (choice.split(":")[1][-1].lower() if choice else "")


def _castles(board: chess.Board, uci: str) -> bool:
    king = board.king(board.turn)
    return king is not None and uci[:2] == chess.square_name(king) and abs(
        chess.parse_square(uci[2:4]) % 8 - king % 8) == 2


def test_a_playout_s_search_knows_rays_and_leaps_as_sets() -> None:
    """On a playout's search (its squares kept), the kernel tells a chess piece's moves as a set
    of destinations where each has one play and the piece's moves are rays and leaps; a pawn
    that promotes (several plays a move), a king with its castling (a move that is not a ray nor
    a leap) and a rook with its castling right (its moves take the king's right) are listed move
    by move. An untracked search lists every group move by move."""
    rules = rule_system("chess")
    position = Position.from_feen(from_fen("4k3/1P6/8/8/8/2n5/8/R3K2R w K - 0 1"))
    asked = _native._asked(rules, position)
    assert asked is not None
    kernel, game, encoded = asked
    _, told = kernel.pseudo(game.capsule, encoded, True)
    by_square = {source: onto for source, _, _, onto in told}
    # a1 (0), e1 (4), h1 (7), b7 (49): a1's rook, without a right, is a set of its destinations
    assert set(by_square) == {0, 4, 7, 49}, by_square
    assert by_square[4] is None and by_square[7] is None and by_square[49] is None
    rook = by_square[0]
    assert rook is not None and [square for square, _ in rook] == [1, 2, 3, 8, 16, 24, 32, 40, 48, 56]
    _, untracked = kernel.pseudo(game.capsule, encoded)
    assert [onto for _, _, _, onto in untracked] == [None] * 4
    assert [group[:3] for group in untracked] == [group[:3] for group in told]
    assert _kernel(rules, position) == _pure(rules, position)
