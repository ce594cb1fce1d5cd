"""Rule systems: legal moves, full transitions, the end of the game and perft.

Chess is checked against python-chess, an independent engine: on positions of seeded random
games (from the start and from the published perft test positions, which are rich in
promotions, castling and en passant), the legal moves agree exactly as (source, destination,
promotion piece), the position after each of our plays is python-chess's after the same move,
and check, checkmate and stalemate agree. Perft matches the published counts of
tests/vectors/perft.json (the deep ones under ``pytest -m full``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ggn.cell import Cell
from ggn.errors import GGNError
from ggn.games.chess import START, from_fen
from ggn.position import Position, piece_of
from ggn.rules import Ending, IllegalMoveError, Outcome, Play, RuleSystem, divide, perft, rule_system
from ggn.ruleset import Ruleset
from ggn.variants import registry
from support import assert_same_moves, perft_cases, perft_entries, pushed, random_positions, sizes

pytest.importorskip("chess")
import chess

from oracle_boards import chess_feen as feen_of
from oracle_boards import chess_tokens as tokens_of

SEED = 20240601

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
# The published perft test positions (chessprogramming.org, "Perft Results"), numbers 3 to 6.
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
PROMOTIONS = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"


@pytest.fixture(scope="module")
def rules() -> RuleSystem:
    return rule_system("chess")


# python-chess to FEEN straight from the board (independent of from_fen): oracle_boards
def our_tokens(position: Position) -> dict[int, str]:
    return {number: str(piece_of(code).pin) for number, code in enumerate(position.codes) if code}


Key = tuple[str, str, str]


def their_key(move: chess.Move) -> Key:
    promotion = chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return chess.square_name(move.from_square), chess.square_name(move.to_square), promotion


def our_key(play: Play) -> Key:
    return str(play.source), str(play.destination), play.choice.name if play.choice else ""


STARTS = [chess.STARTING_FEN, KIWIPETE + " 0 1", POSITION_3, POSITION_4, POSITION_5, POSITION_6, PROMOTIONS]


def preferred_moves(board: chess.Board, rng: random.Random) -> list[chess.Move]:
    """The legal moves, or a subset: an en passant capture, a promotion or a double step beside
    an enemy pawn 7 times in 10 when there is one, and a pawn move or a capture half of the time
    otherwise, so that positions with those moves come up often."""
    legal = list(board.legal_moves)
    if not legal:
        return legal
    special = [m for m in legal if board.is_en_passant(m) or m.promotion or offers_en_passant(board, m)]
    lively = [m for m in legal if board.piece_type_at(m.from_square) == chess.PAWN or board.is_capture(m)]
    if special and rng.random() < 0.7:
        return special
    if lively and rng.random() < 0.5:
        return lively
    return legal


def random_boards(seed: int, count: int) -> list[chess.Board]:
    """Positions of random games from the start and from the perft test positions (40 plies
    each), the moves drawn by :func:`preferred_moves`."""
    return random_positions(
        chess.Board(STARTS[0]), lambda rng: chess.Board(rng.choice(STARTS)), preferred_moves, pushed,
        lambda board: board.copy(stack=False), count=count, seed=seed, plies=40)


def offers_en_passant(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` is a pawn's double step to a square beside an enemy pawn."""
    if board.piece_type_at(move.from_square) != chess.PAWN or abs(move.to_square - move.from_square) != 16:
        return False
    file = chess.square_file(move.to_square)
    return any(board.piece_at(square) == chess.Piece(chess.PAWN, not board.turn)
               for square in (move.to_square - 1, move.to_square + 1)
               if 0 <= square < 64 and abs(chess.square_file(square) - file) == 1)


@pytest.fixture(scope="module", params=sizes(400, 4000))
def boards(request: pytest.FixtureRequest) -> list[chess.Board]:
    """Positions of random games compared with python-chess (4,000 under ``-m full``)."""
    return random_boards(SEED, request.param)


# --- against python-chess --------------------------------------------------------------------
def test_legal_moves_and_positions_after_agree_with_python_chess(
    rules: RuleSystem, boards: list[chess.Board]
) -> None:
    seen: Counter[str] = Counter()
    for board in boards:
        position = Position.from_feen(feen_of(board))
        plays = rules.legal_moves(position)
        theirs = {their_key(move): move for move in board.legal_moves}
        assert_same_moves([our_key(play) for play in plays], list(theirs), board.fen())
        ours = {our_key(play): play for play in plays}
        assert rules.in_check(position) == board.is_check(), board.fen()
        for key, move in theirs.items():
            play = ours[key]
            seen["promotion" if move.promotion else "castling" if board.is_castling(move)
                 else "en passant" if board.is_en_passant(move) else "other"] += 1
            after = position.apply(play.transition)
            board.push(move)
            expected = tokens_of(board)
            board.pop()
            # Chess keeps captured pieces in the capturer's hand; python-chess has no hands.
            assert our_tokens(after) == expected, f"{board.fen()} {move.uci()}: {after}"
            assert after.active == position.inactive
        outcome = rules.outcome(position)
        if board.is_checkmate():
            assert outcome == Outcome("second" if board.turn == chess.WHITE else "first", Ending.CHECKMATE)
        elif board.is_stalemate():
            assert outcome == Outcome(None, Ending.STALEMATE)
        else:
            assert outcome is None
    # The sample must keep exercising the special moves.
    assert min(seen["promotion"], seen["castling"], seen["en passant"]) >= 20, seen


def test_fast_path_and_transitions_agree(rules: RuleSystem, boards: list[chess.Board]) -> None:
    """The perft fast path makes the same positions as the readable plays' transitions, and a
    move without effects of its own (a plain piece, no '-' pawn to clear, no castling rook
    taken) keeps the GGN move's default transition."""
    plain = 0
    for board in boards[::4]:
        position = Position.from_feen(feen_of(board))
        plays = rules.legal_moves(position)
        assert list(rules._children(position)) == [position.apply(play.transition) for play in plays]
        dashed = any(piece.state == "diminished" for _, piece in position)
        for play in plays:
            taken = position.piece_at(play.destination) if isinstance(play.destination, Cell) else None
            # Taking the last '+' rook of a side also takes its king's '+': an effect of its own.
            if taken is not None and taken.state == "enhanced":
                continue
            if not dashed and play.piece.name in "QBNK" and play.piece.state == "normal":
                assert play.transition == play.move.transition(position), f"{board.fen()} {play}"
                plain += 1
    assert plain > 1000


# --- perft -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("feen", "depth", "count"), perft_cases("chess"))
def test_chess_perft(rules: RuleSystem, feen: str | None, depth: int, count: int) -> None:
    assert perft(rules, depth, feen) == count


def test_perft_by_name_depth_zero_and_divide(rules: RuleSystem) -> None:
    assert perft("chess", 0) == 1
    assert perft("chess", 1, START) == 20
    split = divide(rules, 2)
    assert len(split) == 20 and sum(count for _, count in split) == 400
    assert {str(play): count for play, count in split}["C:P e2-e4"] == 20
    with pytest.raises(GGNError, match="depth"):
        perft(rules, -1)
    with pytest.raises(GGNError, match="no game 'go'; there are: chess"):
        rule_system("go")


# --- plays, transitions and the end of the game ------------------------------------------------
def test_castling_moves_the_rook_and_ends_the_rights(rules: RuleSystem) -> None:
    position = rules.position(from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"))
    castle = next(p for p in rules.legal_moves(position) if str(p) == "C:+K^ e1-g1")
    assert str(castle.transition.board["f1"]) == "C:R" and castle.transition.board["h1"] is None
    assert rules.play(position, castle).to_feen() == "+r3+k^2+r/8/8/8/8/8/8/R4RK^1 / c/C"
    rook = rules.play(position, "C:+R a1-b1")
    assert rook.to_feen() == "+r3+k^2+r/8/8/8/8/8/8/1R2+K^2+R / c/C"
    # The last castling rook moves: the king's '+' goes too.
    assert rules.play(rules.play(rook, "c:+k^ e8-e7"), "C:+R h1-h2").to_feen() == (
        "r6r/4k^3/8/8/8/8/7R/1R2K^3 / c/C")


def test_castling_refused_out_of_and_through_check(rules: RuleSystem) -> None:
    through = rules.position(from_fen("4k3/8/8/8/8/8/5r2/R3K2R w KQ -"))
    names = {str(p) for p in rules.legal_moves(through)}
    assert "C:+K^ e1-g1" not in names and "C:+K^ e1-c1" in names
    check = rules.position(from_fen("4k3/8/8/8/8/8/4r3/R3K2R w KQ -"))
    assert not {"C:+K^ e1-g1", "C:+K^ e1-c1"} & {str(p) for p in rules.legal_moves(check)}


def test_en_passant_and_the_dash(rules: RuleSystem) -> None:
    position = rules.position(from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6"))
    capture = rules.play(position, "C:P e5-d6")
    assert capture.to_feen() == "4k^3/8/3P4/8/8/8/8/4K^3 -p/ c/C"
    # Any other move clears the '-' mark.
    assert rules.play(position, "C:K^ e1-e2").piece_at("d5") == rules.position(
        "8/8/8/3p4/8/8/8/8 / C/c").piece_at("d5")


def test_promotion_plays_and_str(rules: RuleSystem) -> None:
    position = rules.position("7k^/P7/8/8/8/8/8/K^7 / C/c")
    promotions = sorted(str(p) for p in rules.legal_moves(position) if str(p.source) == "a7")
    assert promotions == ["C:P a7-a8=C:B", "C:P a7-a8=C:N", "C:P a7-a8=C:Q", "C:P a7-a8=C:R"]
    assert rules.play(position, "C:P a7-a8=C:N").piece_at("a8") == rules.position(
        "N7/8/8/8/8/8/8/8 / C/c").piece_at("a8")
    with pytest.raises(IllegalMoveError, match=r"'C:P a7-a8' is not a legal move"):
        rules.play(position, "C:P a7-a8")


def test_checkmate_and_stalemate(rules: RuleSystem) -> None:
    mate = rules.play(rules.play(rules.play(rules.play(rules.position(),
        "C:P f2-f3"), "c:p e7-e5"), "C:P g2-g4"), "c:q d8-h4")
    assert rules.outcome(mate) == Outcome("second", Ending.CHECKMATE)
    assert str(rules.outcome(mate)) == "second player wins by checkmate"
    stalemate = rules.position("k^7/2Q5/8/8/8/8/8/K^7 / c/C")
    assert rules.legal_moves(stalemate) == [] and not rules.in_check(stalemate)
    assert str(rules.outcome(stalemate)) == "draw by stalemate"


def test_wrong_board_shape(rules: RuleSystem) -> None:
    with pytest.raises(GGNError, match="8x8"):
        rules.legal_moves(rules.position("k^8/9/9/9/9/9/9/K^8 / C/c"))


# --- the generic rule system on a document of one's own ---------------------------------------
def _steps(piece: str) -> dict[str, Any]:
    """A one-step orthogonal mover on a 3x3 board, onto an empty square or an enemy."""
    sources: dict[str, dict[str, Any]] = {}
    for file in range(3):
        for rank in range(3):
            here = f"{'abc'[file]}{rank + 1}"
            for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                f, r = file + df, rank + dr
                if 0 <= f < 3 and 0 <= r < 3:
                    there = f"{'abc'[f]}{r + 1}"
                    ways = [{"must": {there: "empty"}}, {"must": {there: "enemy"}}]
                    sources.setdefault(here, {})[there] = ways
    return {piece: sources}


def test_generic_rule_system_with_drops_that_capture() -> None:
    value = {**_steps("C:K^"), **_steps("c:k^")}
    # The first player may drop a rook from its hand onto any square holding an enemy piece.
    value["C:R"] = {"*": {f"{f}{r}": [{"must": {f"{f}{r}": "enemy"}}] for f in "abc" for r in "123"}}
    rules = RuleSystem(Ruleset.from_value(value))
    with pytest.raises(GGNError, match="no start position"):
        rules.position()
    plain = rules.position("k^2/3/2K^ / c/C")
    assert sorted(str(p) for p in rules.legal_moves(plain)) == ["c:k^ a3-a2", "c:k^ a3-b3"]
    # With a rook in the first player's hand, every square of the second's king is attacked.
    armed = rules.position("k^2/3/2K^ R/ c/C")
    assert rules.in_check(armed) and rules.legal_moves(armed) == []
    assert rules.outcome(armed) == Outcome("first", Ending.CHECKMATE)
    first = rules.position("k^2/3/2K^ R/ C/c")
    drop = rules.legal_moves(first)
    assert "C:R *-a3" in {str(p) for p in drop}
    # With no effects of its own, the generic system's transitions are the GGN defaults.
    assert all(p.transition == p.move.transition(first) for p in drop)
    assert all(p.transition == p.move.transition(plain) for p in rules.legal_moves(plain))
    captured = rules.play(rules.position("k^2/3/2K^ R/ C/c"), "C:R *-a3")
    assert captured.to_feen() == "R2/3/2K^ k^/ c/C"
    # No terminal piece left to the second player: nothing to protect, and no legal move left.
    assert rules.outcome(captured) == Outcome("first", Ending.NO_LEGAL_MOVE)


def test_perft_vectors_give_the_published_fen_as_feen() -> None:
    # The perft tests read FEEN from tests/vectors/perft.json; each is the published FEN's, read
    # as its game's FEN.
    published = [entry for entry in perft_entries() if "fen" in entry]
    assert len(published) >= 10
    for entry in published:
        read = from_fen if entry["game"] == "chess" else registry.entry(entry["game"]).to_feen
        assert read(entry["fen"]) == entry["feen"], (entry["game"], entry["name"])


def test_a_terminal_piece_the_document_does_not_name_is_protected_all_the_same() -> None:
    """The generic rule protects every terminal piece of the mover's, those that cannot move
    too: a document that gives the king no move still forbids exposing it, and a play next
    to it is checkmate (once, only the pieces the document names were terminal to the rule)."""
    rook = {"c:r": {"e8": {"e1": [{"must": {f"e{rank}": "empty" for rank in range(2, 8)}}]}}}
    rules = RuleSystem(Ruleset.from_value({"C:P": {"e2": {"d3": [{"must": {"d3": "empty"}}]}}, **rook}))
    pinned = rules.position("4r3/8/8/8/8/8/4P3/4K^3 / C/c")
    assert [str(move) for move in rules.ruleset.moves(pinned)] == ["C:P e2-d3"]  # pseudo-legal
    assert rules.legal_moves(pinned) == [] and rules.count(pinned) == 0 and perft(rules, 1, pinned) == 0
    assert rules.outcome(pinned) == Outcome("second", Ending.NO_LEGAL_MOVE)  # not in check: pinned
    exposed = rules.position("4r3/8/8/8/8/8/8/4K^3 / C/c")
    assert rules.in_check(exposed) and rules.outcome(exposed) == Outcome("second", Ending.CHECKMATE)
    # The same rook, from a position given as a Position and across a board of another shape.
    assert rules.legal_moves(Position.from_feen("4r3/8/8/8/8/8/4P3/4K^3 / C/c")) == []
    assert rules.in_check(rules.position("4r/5/5/5/5/5/5/4K^ / C/c"))
