"""The rule-system engine: the ``_ended`` hook and lazily built transitions.

``_ended`` is checked against Fairy-Stockfish (pyffish) on king of the hill, played here by a
chess rule system whose one addition is that hook: a game ends when the player who just moved
has its king on d4, e4, d5 or e5. Perft (a game that ended has no moves) and the outcome must
agree with pyffish's legal moves and its immediate game end.
"""

from __future__ import annotations

import pytest

from ggn.games.chess import from_fen
from ggn.position import Position
from ggn.rules import Chess, Ending, Outcome, RuleSystem, perft

pyffish = pytest.importorskip("pyffish")

_HILL = frozenset((27, 28, 35, 36))  # d4, e4, d5, e5: square indices, a1 = 0


class KingOfTheHill(Chess):
    """Chess, won at once by the player whose king reaches the centre."""

    def _ended(self, position: Position) -> Outcome | None:
        side = 1 if position.active == "first" else 0  # the player who just moved
        king = self._king[side], self._castling_king[side]
        for number in _HILL:
            if position._codes[number] in king:
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


def test_ended_is_asked_only_when_overridden() -> None:
    assert KingOfTheHill._ends
    assert not Chess._ends
    assert not RuleSystem._ends
    rules = KingOfTheHill()
    position = rules.position(from_fen("4k3/8/8/8/4K3/8/8/8 b - - 0 1"))
    rules._ends = False  # an instance whose game has no such end: the hook is not asked
    assert rules.count(position) == 5
    assert rules.outcome(position) is None


def test_outcome_words() -> None:
    assert str(Outcome("first", Ending.FLAG)) == "first player wins by reaching the goal"
    assert str(Outcome("second", Ending.EXTINCTION)) == "second player wins by extinction"
