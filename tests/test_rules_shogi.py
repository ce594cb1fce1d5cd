"""The shogi rule system against python-shogi, an independent engine.

On positions of seeded random games, our legal moves and python-shogi's ``legal_moves`` agree
exactly, promotion choices and drops included (python-shogi, like us, refuses the pawn-drop
mate and moves that leave the king attacked); the position after each of our plays, hands
included, is python-shogi's after the same move (every capture and promotion, one quiet move
or drop in six), so captured pieces are demoted and change side as they should; and check and
checkmate agree. Perft matches the published counts.
GGN_FULL=1 compares 2,000 positions instead of 300, and runs perft to depth 4.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
import shogi

from ggn.position import Position
from ggn.rules import Ending, Outcome, Play, RuleSystem, perft, rule_system
from oracle_boards import shogi_cell as cell
from oracle_boards import shogi_feen as feen_of

FULL = os.environ.get("GGN_FULL") == "1"
SEED = 20240611
POSITIONS = 2000 if FULL else 300

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


def random_boards(seed: int, count: int) -> list[shogi.Board]:
    """Positions of random games (restarted after 120 plies or at the end); a capture or a drop
    is preferred half of the time, so that hands fill and drops come up often."""
    rng = random.Random(seed)
    boards: list[shogi.Board] = []
    board = shogi.Board()
    plies = 0
    while len(boards) < count:
        boards.append(shogi.Board(board.sfen()))
        legal = list(board.legal_moves)
        if not legal or plies >= 120:
            board, plies = shogi.Board(), 0
            continue
        lively = [m for m in legal if m.from_square is None or board.piece_at(m.to_square) is not None]
        board.push(rng.choice(lively if lively and rng.random() < 0.5 else legal))
        plies += 1
    return boards


@pytest.fixture(scope="module")
def boards() -> list[shogi.Board]:
    return random_boards(SEED, POSITIONS)


def test_legal_moves_and_positions_after_agree_with_python_shogi(
    rules: RuleSystem, boards: list[shogi.Board]
) -> None:
    seen: Counter[str] = Counter()
    for board in boards:
        position = Position.from_feen(feen_of(board))
        plays = rules.legal_moves(position)
        ours = {our_key(play): play for play in plays}
        assert len(ours) == len(plays), f"{board.sfen()}: a move listed twice"
        theirs = {their_key(move): move for move in board.legal_moves}
        assert set(ours) == set(theirs), (
            f"{board.sfen()}: missing {sorted(set(theirs) - set(ours))}, "
            f"extra {sorted(set(ours) - set(theirs))}")
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


@pytest.mark.parametrize(("depth", "count"), [(1, 30), (2, 900), (3, 25_470)])
def test_shogi_perft(rules: RuleSystem, depth: int, count: int) -> None:
    assert perft(rules, depth) == count


@pytest.mark.skipif(not FULL, reason="deep perft: run with GGN_FULL=1")
def test_shogi_perft_deep(rules: RuleSystem) -> None:
    assert perft(rules, 4) == 719_731
