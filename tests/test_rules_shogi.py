"""The shogi rule system against python-shogi, an independent engine.

On positions of seeded random games, our legal moves and python-shogi's ``legal_moves`` agree
exactly, promotion choices and drops included (python-shogi, like us, refuses the pawn-drop
mate and moves that leave the king attacked); the position after each of our plays, hands
included, is python-shogi's after the same move (every capture and promotion, one quiet move
or drop in six), so captured pieces are demoted and change side as they should; and check and
checkmate agree. Perft matches the counts of tests/vectors/perft.json.
``pytest -m full`` compares 2,000 positions instead of 300, and runs perft to depth 4.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ggn.position import Position
from ggn.rules import Ending, Outcome, Play, RuleSystem, perft, rule_system
from support import assert_same_moves, perft_cases, pushed, random_positions, sizes

pytest.importorskip("shogi")
import shogi

from oracle_boards import shogi_cell as cell
from oracle_boards import shogi_feen as feen_of

SEED = 20240611

Key = tuple[str, str, str]


@pytest.fixture(scope="module")
def rules() -> RuleSystem:
    return rule_system("shogi")


def their_key(move: shogi.Move) -> Key:
    if move.from_square is None:
        return "*", cell(move.to_square), shogi.PIECE_SYMBOLS[move.drop_piece_type].upper()
    return cell(move.from_square), cell(move.to_square), "+" if move.promotion else ""


def our_key(play: Play) -> Key:
    if str(play.source) == "*":
        return "*", str(play.destination), play.piece.name
    return str(play.source), str(play.destination), "+" if play.choice is not None else ""


def lively_moves(board: shogi.Board, rng: random.Random) -> list[shogi.Move]:
    """The legal moves, or half of the time the captures and drops among them (when there are
    some), so that hands fill and drops come up often."""
    legal = list(board.legal_moves)
    lively = [m for m in legal if m.from_square is None or board.piece_at(m.to_square) is not None]
    return lively if lively and rng.random() < 0.5 else legal


def random_boards(seed: int, count: int) -> list[shogi.Board]:
    """Positions of random games (restarted after 120 plies or at the end)."""
    return random_positions(shogi.Board(), lambda _: shogi.Board(), lively_moves, pushed,
                            lambda board: shogi.Board(board.sfen()), count=count, seed=seed, plies=120)


@pytest.fixture(scope="module", params=sizes(300, 2000))
def boards(request: pytest.FixtureRequest) -> list[shogi.Board]:
    return random_boards(SEED, request.param)


def test_legal_moves_and_positions_after_agree_with_python_shogi(
    rules: RuleSystem, boards: list[shogi.Board]
) -> None:
    seen: Counter[str] = Counter()
    for board in boards:
        position = Position.from_feen(feen_of(board))
        plays = rules.legal_moves(position)
        theirs = {their_key(move): move for move in board.legal_moves}
        assert_same_moves([our_key(play) for play in plays], list(theirs), board.sfen())
        ours = {our_key(play): play for play in plays}
        assert rules.in_check(position) == board.is_check(), board.sfen()
        for number, (key, move) in enumerate(theirs.items()):
            kind = ("drop" if key[0] == "*" else "promotion" if key[2] else
                    "capture" if board.piece_at(move.to_square) else "other")
            seen[kind] += 1
            if kind in ("drop", "other") and number % 6:
                continue  # every capture and promotion, one quiet move or drop in six
            seen["compared"] += 1
            board.push(move)
            expected = Position.from_feen(feen_of(board))
            board.pop()
            after = position.apply(ours[key].transition)
            assert after == expected, f"{board.sfen()} {move.usi()}: {after} instead of {expected}"
        outcome = rules.outcome(position)
        if board.is_checkmate():
            seen["checkmate"] += 1
            assert outcome == Outcome(position.inactive, Ending.CHECKMATE), board.sfen()
        else:
            assert outcome is None, board.sfen()
    assert min(seen["drop"], seen["promotion"], seen["capture"]) >= 100, seen


def test_the_pawn_drop_mate_is_refused(rules: RuleSystem) -> None:
    # The gote king in the corner, its own knight beside it, a sente gold guarding a8 and b8.
    mate = rules.position("k^n7/9/1G7/9/9/9/9/9/4K^4 P/ S/s")
    drops = {str(play) for play in rules.legal_moves(mate) if str(play.source) == "*"}
    assert "S:P *-a8" not in drops and "S:P *-a7" in drops and len(drops) == 81 - 4 - 7 - 1
    # The same drop without the gold: the king takes the pawn, so the drop is legal.
    check = rules.position("k^n7/9/9/9/9/9/9/9/4K^4 P/ S/s")
    assert "S:P *-a8" in {str(play) for play in rules.legal_moves(check)}
    # A gold dropped there mates, and that is allowed.
    gold = rules.position("k^n7/9/1G7/9/9/9/9/9/4K^4 G/ S/s")
    assert str(rules.outcome(rules.play(gold, "S:G *-a8"))) == "first player wins by checkmate"
    board = shogi.Board("kn7/9/1G7/9/9/9/9/9/4K4 b P 1")
    assert shogi.Move.from_usi("P*9b") not in board.legal_moves


def test_forced_and_optional_promotion(rules: RuleSystem) -> None:
    position = rules.position("4k^4/2P6/9/9/N8/9/9/9/4K^4 / S/s")
    plays = {str(play) for play in rules.legal_moves(position)}
    assert "S:P c8-c9=S:+P" in plays and "S:P c8-c9" not in plays
    assert {"S:N a5-b7", "S:N a5-b7=S:+N"} <= plays
    after = rules.play(position, "S:P c8-c9=S:+P")
    assert after.to_feen() == "2+P1k^4/9/9/9/N8/9/9/9/4K^4 / s/S"


@pytest.mark.parametrize(("feen", "depth", "count"), perft_cases("shogi"))
def test_shogi_perft(rules: RuleSystem, feen: str | None, depth: int, count: int) -> None:
    assert perft(rules, depth, feen) == count
