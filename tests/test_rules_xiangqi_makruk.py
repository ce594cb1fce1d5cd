"""The xiangqi and makruk rule systems against pyffish (Fairy-Stockfish), an independent engine.

On positions of seeded random games played by pyffish, our legal moves and pyffish's
``legal_moves`` agree exactly (makruk's promotion to a met included; in xiangqi, the facing
generals and moves into check are refused by the generic rule alone); the board after each of
our plays is pyffish's after the same move (every capture and promotion, one other move in
twelve); check and the end of the game agree (no legal move:
xiangqi loses either way, makruk loses when in check and draws otherwise). Perft matches the
counts of tests/vectors/perft.json. ``pytest -m full`` compares 2,000 positions per game instead
of 200, and runs perft to depth 4.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from ggn.games import makruk, xiangqi
from ggn.position import Position
from ggn.rules import Ending, Outcome, Play, RuleSystem, perft, rule_system
from support import assert_same_moves, perft_cases, random_positions, sizes

pytest.importorskip("pyffish")
import pyffish

pytestmark = pytest.mark.slow  # not in the README's quick run: random games against engines

SEED = 20240621
_UCI = re.compile(r"([a-i](?:10|[1-9]))([a-i](?:10|[1-9]))([a-z]?)")

Key = tuple[str, str, str]


def to_feen(game: str, fen: str) -> str:
    """Our FEEN of a pyffish FEN (pyffish, asked to, marks a promoted met ``~``: a met like any
    other for the rules, and in FEEN)."""
    return xiangqi.from_fen(fen) if game == "xiangqi" else makruk.from_fen(fen)


def their_key(move: str) -> Key:
    found = _UCI.fullmatch(move)
    assert found is not None, move
    return found[1], found[2], found[3]


def our_key(play: Play) -> Key:
    # pyffish writes the makruk promotion as a trailing 'm'.
    return str(play.source), str(play.destination), "m" if play.choice is not None else ""


def random_fens(game: str, seed: int, count: int) -> list[tuple[str, list[str]]]:
    """Positions of random games played by pyffish (restarted after 100 plies or at the end); a
    capture, or a pawn move in makruk, is preferred half of the time. Each with its legal moves."""

    # A game goes from (FEN, legal moves) to (FEN, legal moves): each position's moves are asked
    # of pyffish once, both to draw the next move and for the test.
    def lively(state: tuple[str, list[str]], rng: random.Random) -> list[str]:
        fen, legal = state
        board = Position.from_feen(to_feen(game, fen))
        moving = [m for m in legal if board.piece_at(their_key(m)[1]) is not None
                  or (game == "makruk" and str(board.piece_at(their_key(m)[0])).endswith(("P", "p")))]
        return moving if moving and rng.random() < 0.5 else legal

    def play(state: tuple[str, list[str]], move: str) -> tuple[str, list[str]]:
        fen = pyffish.get_fen(game, state[0], [move], False, False, True)
        return fen, pyffish.legal_moves(game, fen, [])

    start = pyffish.start_fen(game)
    first = (start, pyffish.legal_moves(game, start, []))
    return random_positions(first, lambda _: first, lively, play, lambda state: state,
                            count=count, seed=seed, plies=100)


@pytest.mark.parametrize("count", sizes(200, 2000))  # each pyffish call costs milliseconds
@pytest.mark.parametrize("game", ["xiangqi", "makruk"])
def test_legal_moves_and_positions_after_agree_with_pyffish(game: str, count: int) -> None:
    rules = rule_system(game)
    seen: Counter[str] = Counter()
    for fen, legal in random_fens(game, SEED, count):
        position = Position.from_feen(to_feen(game, fen))
        plays = rules.legal_moves(position)
        theirs = {their_key(move): move for move in legal}
        assert_same_moves([our_key(play) for play in plays], list(theirs), fen)
        ours = {our_key(play): play for play in plays}
        in_check = pyffish.gives_check(game, fen, [])
        assert rules.in_check(position) == in_check, fen
        for number, (key, move) in enumerate(theirs.items()):
            kind = "promotion" if key[2] else "capture" if position.piece_at(key[1]) else "other"
            seen[kind] += 1
            if kind == "other" and number % 12:
                continue  # every capture and promotion, one other move in twelve
            after = position.apply(ours[key].transition)
            fen_after = pyffish.get_fen(game, fen, [move], False, False, True)
            expected = Position.from_feen(to_feen(game, fen_after))
            # Captured pieces stay in the capturer's hand here; pyffish keeps no hands.
            assert (after.codes, after.active) == (expected.codes, expected.active), (
                f"{fen} {move}: {after} instead of {expected}")
        outcome = rules.outcome(position)
        if theirs:
            assert outcome is None, fen
        else:
            seen["end"] += 1
            if game == "makruk" and not in_check:
                assert outcome == Outcome(None, Ending.STALEMATE), fen
            else:
                ending = Ending.CHECKMATE if in_check else Ending.NO_LEGAL_MOVE
                assert outcome == Outcome(position.inactive, ending), fen
    assert seen["capture"] >= 100, seen
    if game == "makruk":
        assert seen["promotion"] >= 20, seen


def test_facing_generals_are_refused_by_the_generic_rule() -> None:
    rules = rule_system("xiangqi")
    # The red chariot on e5 is the only piece between the generals: it may not leave the file.
    position = rules.position("4g^4/9/9/9/9/4R4/9/9/9/4G^4 / X/x")
    chariot = {str(play.destination) for play in rules.legal_moves(position) if str(play.source) == "e5"}
    assert chariot == {"e2", "e3", "e4", "e6", "e7", "e8", "e9", "e10"}
    assert pyffish.legal_moves("xiangqi", "4k4/9/9/9/9/4R4/9/9/9/4K4 w - - 0 1", []).count("e5d5") == 0


def test_makruk_stalemate_is_a_draw_and_checkmate_a_loss() -> None:
    rules = rule_system("makruk")
    fen = "k7/8/2N5/8/8/8/8/1R2K3 b - - 0 1"
    assert pyffish.legal_moves("makruk", fen, []) == [] and not pyffish.gives_check("makruk", fen, [])
    assert rules.outcome(rules.position(to_feen("makruk", fen))) == Outcome(None, Ending.STALEMATE)
    mate = "k6R/8/2M5/1N6/8/8/8/4K3 b - - 0 1"
    assert pyffish.legal_moves("makruk", mate, []) == [] and pyffish.gives_check("makruk", mate, [])
    assert rules.outcome(rules.position(to_feen("makruk", mate))) == Outcome("first", Ending.CHECKMATE)


@pytest.mark.parametrize(("feen", "depth", "count"), perft_cases("xiangqi"))
def test_xiangqi_perft(feen: str | None, depth: int, count: int) -> None:
    rules: RuleSystem = rule_system("xiangqi")
    assert perft(rules, depth, feen) == count


@pytest.mark.parametrize(("feen", "depth", "count"), perft_cases("makruk"))
def test_makruk_perft(feen: str | None, depth: int, count: int) -> None:
    rules: RuleSystem = rule_system("makruk")
    assert perft(rules, depth, feen) == count


@pytest.mark.parametrize("game", ["xiangqi", "makruk"])
def test_legality_is_the_reverse_index_query_of_the_text(game: str) -> None:
    """The definition, through the ruleset's own reverse index: a pseudo-legal move is legal when,
    after its default transition, ``ruleset.moves(after, destination=square)`` is empty for every
    square holding a terminal piece of the mover (neither game has another legality rule)."""
    rules = rule_system(game)
    for fen, _ in random_fens(game, SEED + 1, 40):
        position = Position.from_feen(to_feen(game, fen))
        expected = set()
        for move in rules.ruleset.moves(position):
            after = position.apply(move.transition(position))
            kings = [cell for cell, piece in after if piece.terminal and piece.side == position.active]
            if not any(rules.ruleset.moves(after, destination=cell) for cell in kings):
                expected.add((str(move.source), str(move.destination)))
        assert {(str(p.source), str(p.destination)) for p in rules.legal_moves(position)} == expected, fen


# --- from_fen against the engines' own boards ----------------------------------------------------
# The tests above build both our position and the expected one with from_fen: here from_fen is
# checked, square by square, against a board read by another engine from the same FEN.
def _xiangqi_board(fen: str) -> tuple[dict[str, str], str]:
    """cchess's reading of a FEN: our token on each occupied square, and the side to move."""
    cchess = pytest.importorskip("cchess")
    board = cchess.ChessBoard(fen)
    ours = {"k": "g^", "a": "a", "b": "e", "n": "h", "r": "r", "c": "c", "p": "p"}
    squares = {}
    for file in range(9):
        for rank in range(10):
            letter = board.get_fench((file, rank))
            if letter is not None:
                token = ours[letter.lower()]
                squares[f"{'abcdefghi'[file]}{rank + 1}"] = token.upper() if letter.isupper() else token
    return squares, "first" if board.get_move_color() == cchess.RED else "second"


def _makruk_board(fen: str) -> tuple[dict[str, str], str]:
    """python-chess's reading of the placement (the met as a queen, the khon as a bishop; a met
    marked '~', promoted from a bia, is a met), and the side to move pyffish wrote."""
    chess = pytest.importorskip("chess")
    placement, turn = fen.split(" ")[:2]
    board = chess.BaseBoard(placement.translate(str.maketrans("msMS", "qbQB")))
    letters = {"k": "k^", "q": "m", "b": "s", "n": "n", "r": "r", "p": "p"}
    squares = {}
    for square, piece in board.piece_map().items():
        token = letters[piece.symbol().lower()]
        token = token.upper() if piece.color == chess.WHITE else token
        squares[chess.square_name(square)] = token
    return squares, "first" if turn == "w" else "second"


@pytest.mark.parametrize("game", ["xiangqi", "makruk"])
def test_from_fen_is_the_engines_board(game: str) -> None:
    read = _xiangqi_board if game == "xiangqi" else _makruk_board
    seen: Counter[str] = Counter()
    for fen, _ in random_fens(game, SEED + 2, 300):
        position = Position.from_feen(to_feen(game, fen))
        squares, active = read(fen)
        assert {str(cell): str(piece.pin) for cell, piece in position} == squares, fen
        assert position.active == active, fen
        seen[active] += 1
        seen["promoted"] += "~" in fen
        seen["pieces"] += len(squares)
    assert min(seen["first"], seen["second"]) >= 100, seen
    assert seen["pieces"] >= 300 * 12, seen
    if game == "makruk":
        assert seen["promoted"] >= 10, seen
