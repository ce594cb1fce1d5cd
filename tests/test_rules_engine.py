"""The rule-system engine: the ``_ended`` hook and lazily built transitions.

``_ended`` is checked against Fairy-Stockfish (pyffish) on king of the hill, played here by a
chess rule system whose one addition is that hook: a game ends when the player who just moved
has its king on d4, e4, d5 or e5. Perft (a game that ended has no moves) and the outcome must
agree with pyffish's legal moves and its immediate game end.

The walk's shortcuts (calm positions, pins found once a source, the bare-board test, counting
by stand-ins, listing in one pass) are checked against a reference walk that has none: every
pseudo-legal move, its plays from the game's hooks, each made on a board of its own and kept
if no terminal piece of the mover is then attacked and the game allows it.

A :class:`Play` from ``legal_moves`` makes its STN transition when first read. On positions of
seeded random games of the four games, each play's transition is the one made at once from the
same play's effect (as perft's walk gives it, the path ``legal_moves`` took before), the
position it leads to is perft's child, and plays compare and hash by their fields.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

import ggn.rules._records as records
from ggn.errors import GGNError
from ggn.games.chess import from_fen
from ggn.move import Move
from ggn.position import Position, code_of
from ggn.qpi import Qpi
from ggn.rules import Chess, Ending, Makruk, Outcome, Play, RuleSystem, Shogi, Xiangqi, perft
from ggn.rules._records import SPECIAL, Effect, transition_of
from ggn.rules._walk import describe
from support import sizes

pyffish = pytest.importorskip("pyffish")

SEED = 20240909

_HILL = frozenset((27, 28, 35, 36))  # d4, e4, d5, e5: square indices, a1 = 0


# The codes of each side's king, with and without its castling right.
_KINGS = (frozenset(code_of(Qpi.parse(text)) for text in ("C:K^", "C:+K^")),
          frozenset(code_of(Qpi.parse(text)) for text in ("c:k^", "c:+k^")))


class KingOfTheHill(Chess):
    """Chess, won at once by the player whose king reaches the centre."""

    def __init__(self) -> None:
        super().__init__()
        self._ends = True  # (chess itself, with no such end, turns the hook off)

    def _ended(self, position: Position) -> Outcome | None:
        king = _KINGS[1 if position.active == "first" else 0]  # the player who just moved
        if any(position._codes[number] in king for number in _HILL):
            return Outcome(position.inactive, Ending.FLAG)
        return None


def their_perft(fen: str, depth: int, moves: list[str] | None = None) -> int:
    """Perft by pyffish's legal moves, a game that ended counting no moves."""
    moves = moves or []
    if depth == 0:
        return 1
    if pyffish.is_immediate_game_end("kingofthehill", fen, moves)[0]:
        return 0
    legal = pyffish.legal_moves("kingofthehill", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(their_perft(fen, depth - 1, [*moves, move]) for move in legal)


# (FEN, deepest perft compared)
POSITIONS = [
    ("4k3/8/8/8/8/3K4/8/8 w - - 0 1", 3),
    ("4k3/8/8/8/4K3/8/8/8 b - - 0 1", 3),
    ("r3k2r/8/8/3q4/8/2K5/8/R6R w kq - 0 1", 2),
    ("8/8/2k5/8/5n2/8/2K5/8 w - - 0 1", 3),
]


@pytest.mark.parametrize(("fen", "deepest"), POSITIONS)
def test_ended_agrees_with_fairy_stockfish(fen: str, deepest: int) -> None:
    rules = KingOfTheHill()
    position = rules.position(from_fen(fen))
    for depth in range(1, deepest + 1):
        assert perft(rules, depth, position) == their_perft(fen, depth), (fen, depth)
    ended, _ = pyffish.is_immediate_game_end("kingofthehill", fen, [])
    outcome = rules.outcome(position)
    if ended:
        assert outcome == Outcome(position.inactive, Ending.FLAG)
        assert rules.legal_moves(position) == []
        assert rules.count(position) == 0
    else:
        assert outcome is None or outcome.ending is not Ending.FLAG


class Quiet(RuleSystem):
    """A rule system with no hook of its own."""


def test_ended_is_asked_only_when_overridden() -> None:
    assert not RuleSystem._ends
    assert not Quiet._ends
    assert KingOfTheHill._ends
    rules = KingOfTheHill()
    position = rules.position(from_fen("4k3/8/8/8/4K3/8/8/8 b - - 0 1"))
    rules._ends = False  # an instance whose game has no such end: the hook is not asked
    assert rules.count(position) == 5
    assert rules.outcome(position) is None


def test_outcome_words() -> None:
    assert str(Outcome("first", Ending.FLAG)) == "first player wins by reaching the goal"
    assert str(Outcome("second", Ending.EXTINCTION)) == "second player wins by extinction"


# --- lazily made transitions ------------------------------------------------------------------
_MADE: dict[object, RuleSystem] = {}


def made(system: Callable[[], RuleSystem]) -> RuleSystem:
    """One rule system a class for the module (its document and compiled tables are shared)."""
    if system not in _MADE:
        _MADE[system] = system()
    return _MADE[system]


def game_positions(rules: RuleSystem, count: int, seed: int) -> list[Position]:
    """Positions of seeded random games (each play drawn uniformly; a game restarts after 60
    plies or when it ends)."""
    rng = random.Random(seed)
    out: list[Position] = []
    position = rules.position()
    played = 0
    while len(out) < count:
        out.append(position)
        plays = rules.legal_moves(position) if played < 60 else []
        if not plays:
            position, played = rules.position(), 0
            continue
        position = position.apply(rng.choice(plays).transition)
        played += 1
    return out


@pytest.mark.parametrize("count", sizes(24, 240))
@pytest.mark.parametrize("system", [Chess, Shogi, Xiangqi, Makruk], ids=lambda s: s.__name__)
def test_lazy_transitions_are_the_eager_ones(system: Callable[[], RuleSystem], count: int) -> None:
    rules = made(system)
    checked = 0
    for position in game_positions(rules, count, SEED):
        plays = rules.legal_moves(position)
        found = rules._legal(position)
        assert len(plays) == len(found) == rules.count(position)
        for play, (move, effect, child) in zip(plays, found, strict=True):
            assert play.move is move
            assert play.choice == effect[0]
            assert play.transition == transition_of(position, effect)
            assert position.apply(play.transition) == rules._child(position, effect, child)
            checked += 1
    assert checked > 20 * count


def test_listing_makes_no_transition_until_one_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    real = records.transition_of

    def counted(position: Position, effect: records.Effect) -> object:
        made.append(effect)
        return real(position, effect)

    monkeypatch.setattr(records, "transition_of", counted)
    rules = Chess()
    # Castling, en passant, promotions and captures: every kind of play the walk makes.
    position = rules.position(from_fen("r3k2r/pP1p2pp/8/2pP4/8/8/6PP/R3K2R w KQkq c6"))
    plays = rules.legal_moves(position)
    assert len(plays) == 32  # as python-chess counts them
    assert not made
    castle = next(play for play in plays if str(play) == "C:+K^ e1-g1")
    first = castle.transition
    assert len(made) == 1
    assert castle.transition is first  # kept, not made again
    assert len(made) == 1
    # The king and rook move, the other rook loses its right, the '-' pawn its mark.
    assert first.to_value() == {"board_diff": {"c5": "c:p", "a1": "C:R", "e1": None, "g1": "C:K^", "h1": None,
                                               "f1": "C:R"}, "toggle": True}
    en_passant = next(play for play in plays if str(play) == "C:P d5-c6")
    assert en_passant.transition.to_value()["board_diff"] == {"c5": None, "d5": None, "c6": "C:P"}
    assert en_passant.transition.to_value()["first_player_hand_diff"] == {"c:-p": 1}  # as it stood
    assert len(made) == 2


def test_plays_are_values() -> None:
    rules = Chess()
    position = rules.position()
    once, again = rules.legal_moves(position), rules.legal_moves(position)
    assert once == again and [hash(p) for p in once] == [hash(p) for p in again]
    assert len(set(once)) == 20
    assert once[0] != once[1]
    assert once[0] != str(once[0])
    play = once[0]
    built = Play(play.piece, play.source, play.destination, play.choice, play.transition, play.move)
    assert built == play and hash(built) == hash(play)
    assert repr(play) == ("Play(piece=Qpi.parse('C:N'), source=Cell.parse('b1'), "
                          "destination=Cell.parse('c3'), choice=None, transition=Transition.loads("
                          "'{\"board_diff\": {\"b1\": null, \"c3\": \"C:N\"}, \"toggle\": true}'))")
    assert copy.copy(play) is play and copy.deepcopy(play) is play
    for field in ("piece", "source", "destination", "choice", "transition", "move"):
        with pytest.raises(AttributeError):
            setattr(play, field, None)
    with pytest.raises(GGNError, match="a play's piece, source and destination are its move's"):
        Play(play.piece, play.destination, play.source, None, play.transition, play.move)
    with pytest.raises(TypeError, match="transition must be a Transition"):
        Play(play.piece, play.source, play.destination, None, "b1-c3", play.move)  # type: ignore[arg-type]


# --- the walk against a reference without shortcuts -------------------------------------------
def reference_plays(rules: RuleSystem, position: Position) -> list[tuple[int, Effect]]:
    """The legal plays of ``position`` the slow way: (the move's id, the play's effect)."""
    tables = rules._tables_for(position)
    rules._calm = None  # no hint: the hooks test everything
    prefix = rules._prepare(position, tables)
    side = 0 if position.active == "first" else 1
    codes = position._codes
    found = []
    for move in rules.ruleset.moves(position):
        info = describe(rules, tables, move)
        special = info.kind == SPECIAL or codes[info.destination] in rules._special_taken
        if special:
            effects = rules._effects(position, prefix, info)
        else:
            taken = codes[info.destination]
            hand = ((rules._captured(taken, move.piece), 1),) if taken else ()
            effects = [(None, (*prefix, (info.source, 0), (info.destination, info.placed)), hand)]
        for effect in effects:
            child = codes.copy()
            for number, value in effect[1]:
                child[number] = value
            if rules._threatened(position, tables, child, side):
                continue
            if special and not rules._allowed(position, prefix, info, effect, child):
                continue
            found.append((id(move), effect))
    return found


@pytest.mark.parametrize("count", sizes(40, 600))
@pytest.mark.parametrize("system", [Chess, Shogi, Xiangqi, Makruk], ids=lambda s: s.__name__)
def test_walk_agrees_with_a_reference_without_shortcuts(system: Callable[[], RuleSystem], count: int) -> None:
    rules = made(system)
    plays = 0
    for position in game_positions(rules, count, SEED + 1):
        expected = reference_plays(rules, position)
        listed = rules.legal_moves(position)
        assert [(id(play.move), play.transition) for play in listed] == [
            (key, transition_of(position, effect)) for key, effect in expected]
        assert [(id(move), effect) for move, effect, _ in rules._legal(position)] == expected
        assert rules.count(position) == len(expected)
        assert bool(rules._walk(position, None, 1)) == bool(expected)
        plays += len(expected)
    assert plays > 20 * count


class OwnWalk(Chess):
    """Chess whose walk is its own (here the generic one, counted): every listing goes through it."""

    walks = 0

    def _walk(self, position: Position, out: list[tuple[Move, Effect, list[int]]] | None, stop: int) -> int:
        OwnWalk.walks += 1
        return super()._walk(position, out, stop)


def test_a_walk_of_its_own_is_the_one_used() -> None:
    rules, plain = OwnWalk(), made(Chess)
    position = rules.position(from_fen("r3k2r/pP1p2pp/8/2pP4/8/8/6PP/R3K2R w KQkq c6"))
    listed = rules.legal_moves(position)
    assert OwnWalk.walks == 1
    assert listed == plain.legal_moves(position)
    assert [str(play) for play in listed] == [str(play) for play in plain.legal_moves(position)]
    assert rules.count(position) == 32 and perft(rules, 2, position) == perft(plain, 2, position)
    assert OwnWalk.walks > 30
