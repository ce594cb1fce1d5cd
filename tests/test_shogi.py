"""Shogi: the generated GGN document, checked against python-shogi on positions of random games,
and against cshogi as a second opinion.

The fast subset runs by default; ``pytest -m full tests/test_shogi.py`` runs the full
comparison (1,200 positions).
"""

from __future__ import annotations

from collections import Counter

import jsonschema
import pytest

from ggn import games
from ggn.errors import NotationError
from ggn.evaluate import Move
from ggn.feen import Feen
from ggn.games.shogi import START, document, from_sfen, ruleset
from ggn.linter import lint
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.schemas import load_schema
from ggn.variants.pieces import Drop, Game, Movement, Piece, build, ranks
from support import assert_compiled_matches_plain, assert_same_moves, pushed, random_positions, sizes

pytest.importorskip("shogi")
import shogi

from oracle_boards import shogi_cell as cell
from oracle_boards import shogi_feen as feen_of

SEED = 20240611
FULL_POSITIONS = 1200  # positions of random games compared with python-shogi under -m full (200 else)
PLIES = 160  # a random game restarts after this many plies (or when it ends)
REFERENCE_EVERY = 5  # one position in this many is also checked against plain evaluation

# A move as both sides can name it: (source square, destination) for a board move, promotion
# choices collapsed; ("*" + the dropped piece's letter, destination) for a drop.
Pair = tuple[str, str]

FILES = "abcdefghi"


# python-shogi to FEEN straight from the board (independent of from_sfen): oracle_boards
def random_boards(seed: int, count: int) -> list[shogi.Board]:
    """``count`` positions of random games: each move drawn uniformly among the legal ones."""
    return random_positions(shogi.Board(), lambda _: shogi.Board(), lambda board, _: list(board.legal_moves),
                            pushed, lambda board: shogi.Board(board.sfen()), count=count, seed=seed,
                            plies=PLIES)


def name_of(move: shogi.Move) -> Pair:
    if move.from_square is None:
        return "*" + shogi.PIECE_SYMBOLS[move.drop_piece_type].upper(), cell(move.to_square)
    return cell(move.from_square), cell(move.to_square)


def their_pairs(board: shogi.Board) -> set[Pair]:
    """python-shogi's pseudo-legal moves; a move with and without promotion counts once."""
    return {name_of(move) for move in board.pseudo_legal_moves}


def our_pair(move: Move) -> Pair:
    if str(move.source) == "*":
        return "*" + move.piece.pin.name.upper(), str(move.destination)
    return str(move.source), str(move.destination)


def our_moves(board: shogi.Board) -> list[Move]:
    return ruleset().moves(Position.from_feen(feen_of(board)))


@pytest.fixture(scope="module", params=sizes(200, FULL_POSITIONS))
def boards(request: pytest.FixtureRequest) -> list[shogi.Board]:
    return random_boards(SEED, request.param)


# --- the document ---------------------------------------------------------------------------
def test_document_validates_and_round_trips() -> None:
    value = document()
    rules = Ruleset.from_value(value)
    assert rules.to_value() == value
    assert rules == ruleset()
    assert lint(rules, (9, 9)) == []
    sample = {piece: dict(list(sources.items())[::20]) for piece, sources in value.items()}
    sample["S:P"]["*"] = value["S:P"]["*"]
    jsonschema.Draft202012Validator(load_schema("ggn")).validate(sample)


def test_document_pieces_and_sources() -> None:
    value = document()
    # The horse (H) and the dragon (D) are Fairy-Stockfish's types the promoted bishop and rook
    # move as; its FEN may place them as pieces of their own, so the document has them too.
    first = ["K^", "R", "B", "G", "S", "N", "L", "P", "H", "D", "+R", "+B", "+S", "+N", "+L", "+P"]
    assert list(value) == [f"S:{pin}" for pin in first] + [f"s:{pin.lower()}" for pin in first]
    # Pieces in hand are dropped; the king and the promoted pieces never are.
    for pin in first:
        assert ("*" in value[f"S:{pin}"]) == (pin in "RBGSNLPHD")
        assert ("*" in value[f"s:{pin.lower()}"]) == (pin in "RBGSNLPHD")
    assert value["S:+B"] == {square: ways for square, ways in value["S:H"].items() if square != "*"}
    assert value["s:+r"] == {square: ways for square, ways in value["s:d"].items() if square != "*"}
    # Where each piece may stand (81 squares and, for the droppable ones, the hand).
    sizes = {"S:K^": 81, "S:R": 82, "S:G": 82, "S:N": 64, "S:L": 73, "S:P": 73, "S:+P": 81}
    assert {piece: len(value[piece]) for piece in sizes} == sizes
    # Counted from the start: the rook's b8-b1 ... file and rank, the king's five neighbours.
    assert len(value["S:R"]["h2"]) == 16
    assert len(value["S:K^"]["e1"]) == 5
    assert sorted(value["S:N"]["b1"]) == ["a3", "c3"]
    assert sorted(value["S:S"]["e5"]) == ["d4", "d6", "e6", "f4", "f6"]


def test_drops_only_onto_empty_squares_and_the_pawn_file() -> None:
    value = document()
    for piece in ("S:R", "S:B", "S:G", "S:S", "s:r", "s:g"):
        drops = value[piece]["*"]
        assert len(drops) == 81
        assert all(possibilities == [{"must": {square: "empty"}}] for square, possibilities in drops.items())
    # No two unpromoted pawns of one side on a file: the drop denies the dropper's own pawn on
    # every other square of the destination's file (the opponent's pawns, the promoted ones,
    # do not count).
    file_e = [f"e{rank}" for rank in range(1, 10)]
    assert value["S:P"]["*"]["e5"] == [{"must": {"e5": "empty"},
                                        "deny": {s: "S:P" for s in file_e if s != "e5"}}]
    assert value["s:p"]["*"]["c2"] == [{"must": {"c2": "empty"},
                                        "deny": {f"c{rank}": "s:p" for rank in (9, 8, 7, 6, 5, 4, 3, 1)}}]
    # Never where the piece could not move again: P and L not on the last rank, N not on the
    # last two, as the first side or as the second one.
    assert {square[1] for square in value["S:P"]["*"]} == set("12345678")
    assert {square[1] for square in value["S:L"]["*"]} == set("12345678")
    assert {square[1] for square in value["S:N"]["*"]} == set("1234567")
    assert {square[1] for square in value["s:p"]["*"]} == set("23456789")
    assert {square[1] for square in value["s:l"]["*"]} == set("23456789")
    assert {square[1] for square in value["s:n"]["*"]} == set("3456789")


def test_last_ranks_are_entered_never_left() -> None:
    value = document()
    # No source on the last rank(s) for P, L, N ...
    assert {square[1] for square in value["S:P"] if square != "*"} == set("12345678")
    assert {square[1] for square in value["S:L"] if square != "*"} == set("12345678")
    assert {square[1] for square in value["S:N"] if square != "*"} == set("1234567")
    assert {square[1] for square in value["s:n"] if square != "*"} == set("3456789")
    # ... but the move into them is listed: the rule system completes it with the promotion.
    assert value["S:P"]["e8"] == {"e9": [{"must": {"e9": "empty"}}, {"must": {"e9": "enemy"}}]}
    assert value["s:p"]["e2"] == {"e1": [{"must": {"e1": "empty"}}, {"must": {"e1": "enemy"}}]}
    assert sorted(value["S:N"]["c7"]) == ["b9", "d9"]
    assert sorted(value["S:N"]["c6"]) == ["b8", "d8"]
    assert list(value["S:L"]["a1"]) == [f"a{rank}" for rank in range(2, 10)]
    assert value["S:L"]["a1"]["a4"] == [{"must": {"a2": "empty", "a3": "empty", "a4": "empty"}},
                                        {"must": {"a2": "empty", "a3": "empty", "a4": "enemy"}}]


def test_promoted_pieces() -> None:
    value = document()
    for pin in ("+S", "+N", "+L", "+P"):
        sources = {square: rules for square, rules in value["S:G"].items() if square != "*"}
        assert value[f"S:{pin}"] == sources
        assert value[f"s:{pin.lower()}"] == {s: r for s, r in value["s:g"].items() if s != "*"}
    assert sorted(value["S:+P"]["e5"]) == ["d5", "d6", "e4", "e6", "f5", "f6"]
    assert sorted(value["s:+p"]["e5"]) == ["d4", "d5", "e4", "e6", "f4", "f5"]
    # The dragon: the rook's lines and one diagonal step; the horse: the bishop's and one
    # orthogonal step.
    dragon, horse = value["S:+R"]["e5"], value["S:+B"]["e5"]
    assert set(dragon) == set(value["S:R"]["e5"]) | {"d4", "d6", "f4", "f6"}
    assert set(horse) == set(value["S:B"]["e5"]) | {"d5", "f5", "e4", "e6"}
    assert dragon["d6"] == [{"must": {"d6": "empty"}}, {"must": {"d6": "enemy"}}]


def test_the_second_side_is_rotated() -> None:
    value = document()
    # The second side's a1 is the board's i9: its knight on i9 (its own a1) leaps to h7 and
    # ... off the board; its pieces go down the board.
    assert sorted(value["s:n"]["i9"]) == ["h7"]
    assert sorted(value["s:n"]["a9"]) == ["b7"]
    assert sorted(value["s:s"]["e5"]) == ["d4", "d6", "e4", "f4", "f6"]
    assert sorted(value["s:g"]["e5"]) == ["d4", "d5", "e4", "e6", "f4", "f5"]
    assert list(value["s:l"]["i9"]) == [f"i{rank}" for rank in range(8, 0, -1)]
    # Conditions along a ray run from near to far in the mover's frame.
    assert list(value["s:r"]["e9"]["e5"][0]["must"]) == ["e8", "e7", "e6", "e5"]


def test_drop_descriptions_in_a_rotated_frame() -> None:
    # A lopsided piece dropped only on its own first two ranks and kept alone on a file: the
    # second side sees it rotated (its a1 is the board's c3, its step right goes to the left).
    piece = Piece("X", (Movement(((1, 1),)),), drop=Drop(squares=ranks(3, 1, 2), file_deny="X"))
    value = build(Game("x", files=3, ranks=3, style="Y", pieces=(piece,), start="", frame="rotate"))
    assert value["Y:X"]["a1"] == {"b2": [{"must": {"b2": "empty"}}, {"must": {"b2": "enemy"}}]}
    assert value["y:x"]["c3"] == {"b2": [{"must": {"b2": "empty"}}, {"must": {"b2": "enemy"}}]}
    assert "a3" not in value["y:x"] and "c1" not in value["Y:X"]
    assert list(value["Y:X"]["*"]) == ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert list(value["y:x"]["*"]) == ["a2", "b2", "c2", "a3", "b3", "c3"]
    assert value["Y:X"]["*"]["b2"] == [{"must": {"b2": "empty"}, "deny": {"b1": "Y:X", "b3": "Y:X"}}]
    assert value["y:x"]["*"]["a3"] == [{"must": {"a3": "empty"}, "deny": {"a2": "y:x", "a1": "y:x"}}]
    # Without a drop, no hand source; without squares, wherever the piece may stand.
    still = Piece("Z", (Movement(((0, 1),)),), stands=ranks(3, 1))
    assert "*" not in build(Game("z", 3, 3, "Y", (still,), ""))["Y:Z"]
    dropped = Piece("Z", (Movement(((0, 1),)),), stands=ranks(3, 1), drop=Drop())
    assert list(build(Game("z", 3, 3, "Y", (dropped,), "", "rotate"))["y:z"]["*"]) == ["a3", "b3", "c3"]


def test_document_is_a_fresh_copy_and_the_ruleset_is_built_once() -> None:
    first = document()
    first["S:K^"].clear()
    assert document()["S:K^"]
    assert ruleset() is ruleset()
    assert games.ruleset("shogi") == ruleset()  # the registry's, made from its description
    assert games.start("shogi") == START
    assert "shogi" in games.names()


# --- SFEN ------------------------------------------------------------------------------------
def test_from_sfen() -> None:
    assert from_sfen(shogi.STARTING_SFEN) == START
    assert from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -") == (
        START.replace("S/s", "s/S"))
    assert from_sfen("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124") == (
        "8l/1l+R2P3/p2pBG1pp/k^ps1p4/Nn1P2G2/P1P1P2PP/1PS6/1K^SG3+r1/LN2+p3L S/3pbgn s/S")
    assert from_sfen("9/9/9/9/9/9/9/9/9 b 18P2l -".replace(" -", "")) == "9/9/9/9/9/9/9/9/9 18P/2l S/s"


@pytest.mark.parametrize(("sfen", "reason"), [
    ("", "expected 3 or 4 fields"),
    ("9/9/9/9/9/9/9/9/9 b - 1 1", "expected 3 or 4 fields"),
    ("9/9/9/9/9/9/9/9 b -", "expected 9 ranks"),
    ("9/9/9/9/9/9/9/9/x8 b -", "rank i 'x8' is not made of piece letters"),
    ("9/9/9/9/9/9/9/9/+G8 b -", "rank i '\\+G8' is not made of piece letters"),
    ("9/9/9/9/9/9/9/9/0 b -", "rank i '0' is not made of piece letters"),
    ("9/9/9/9/9/9/9/9/8 b -", "rank i '8' covers 8 squares, not 9"),
    ("9/9/9/9/9/9/9/9/9k b -", "rank i '9k' covers 10 squares, not 9"),
    ("9/9/9/9/9/9/9/9/9 B -", "the side to move is 'b' \\(sente\\) or 'w'"),
    ("9/9/9/9/9/9/9/9/9 b K", "a hand is '-' or counts and letters"),
    ("9/9/9/9/9/9/9/9/9 b ", "a hand is '-' or counts and letters"),
    ("9/9/9/9/9/9/9/9/9 b 19P", "a hand is '-' or counts and letters"),
    ("9/9/9/9/9/9/9/9/9 b P2P", "the hand names 'P' twice"),
    ("9/9/9/9/9/9/9/9/9 b - 0", "the move number is a positive number"),
])
def test_from_sfen_errors(sfen: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason) as caught:
        from_sfen(sfen)
    assert caught.value.notation == "SFEN"
    assert caught.value.text == sfen


# --- positions by hand ----------------------------------------------------------------------
def test_start_position() -> None:
    board = shogi.Board()
    moves = our_moves(board)
    assert len(moves) == 30
    assert {our_pair(m) for m in moves} == their_pairs(board)


@pytest.mark.parametrize("sfen", [
    # Pawns in hand, one file blocked by an own pawn, another only by an enemy one and a
    # promoted pawn of one's own; a lance and a knight in hand.
    "4k4/9/9/9/4p4/9/2+P1P4/9/4K4 b PLN 1",
    "4k4/9/9/9/4p4/9/2+P1P4/9/4K4 w pln 1",
    # Pieces on the ranks before the last: moves into the last ranks are listed (promotions).
    "4k4/2P3P2/1L5N1/N8/9/9/9/9/4K4 b - 1",
    "4k4/9/9/9/9/n8/1n5l1/2p3p2/4K4 w - 1",
    # A king in check keeps every pseudo-legal move, one that leaves it attacked included.
    "4k4/9/9/9/4r4/9/9/4G4/4K4 b P 1",
])
def test_positions_by_hand(sfen: str) -> None:
    board = shogi.Board(sfen)
    assert from_sfen(board.sfen()) == feen_of(board)
    assert {our_pair(m) for m in our_moves(board)} == their_pairs(board)


def test_a_pawn_drop_mate_is_pseudo_legal() -> None:
    # Dropping the pawn on e8 mates (the gold on e7 guards it, the lances block the king's
    # rank): the rule system forbids it; GGN and python-shogi's pseudo-legal moves keep it.
    board = shogi.Board("3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1")
    drop = ("*P", "e8")
    assert drop in {our_pair(m) for m in our_moves(board)}
    assert drop in their_pairs(board)
    assert shogi.Move.from_usi("P*5b") not in board.legal_moves


# --- the oracle: random games ---------------------------------------------------------------
def test_random_positions_against_python_shogi(boards: list[shogi.Board]) -> None:
    positions = len(boards)
    seen: Counter[str] = Counter()
    for board in boards:
        feen = feen_of(board)
        assert from_sfen(board.sfen()) == feen
        assert str(Feen.parse(feen)) == feen
        theirs = their_pairs(board)
        # No difference remains: python-shogi's pseudo-legal moves leave out exactly what the
        # document leaves out (two pawns on a file, squares a piece could never leave), and
        # keep what the rule system removes (moves leaving the king attacked, pawn-drop mates).
        assert_same_moves({our_pair(m) for m in our_moves(board)}, theirs, board.sfen())
        seen["positions"] += 1
        seen["drops"] += sum(source.startswith("*") for source, _ in theirs)
        seen["positions with drops"] += any(source.startswith("*") for source, _ in theirs)
        pawns = board.pieces_in_hand[board.turn][shogi.PAWN]
        seen["pawn drops barred by the file"] += bool(pawns) and any(
            board.is_double_pawn(square, shogi.PAWN) for square in range(81)
            if board.piece_at(square) is None)
        seen["forced promotions"] += sum(
            1 for move in board.pseudo_legal_moves
            if move.promotion and not shogi.can_move_without_promotion(
                move.to_square, board.piece_type_at(move.from_square), board.turn))
        seen["in check"] += board.is_check()
        seen["second side to move"] += board.turn == shogi.WHITE
    # The games go through the cases that matter, so the comparison above means something.
    assert seen["positions with drops"] >= positions // 4
    assert seen["drops"] >= 5 * positions
    assert seen["pawn drops barred by the file"] >= positions // 5
    assert seen["forced promotions"] >= positions // 5
    assert seen["in check"] >= positions // 200
    assert seen["second side to move"] >= positions // 3


def test_compiled_moves_match_plain_evaluation(boards: list[shogi.Board]) -> None:
    sample = [Position.from_feen(feen_of(board)) for board in boards[::REFERENCE_EVERY]]
    assert assert_compiled_matches_plain(ruleset(), sample) >= len(boards) // REFERENCE_EVERY


# --- a second opinion: cshogi ----------------------------------------------------------------
def usi_cell(square: str) -> str:
    """Our name of a USI square: file digit 9 is our ``a``, rank letter ``a`` our rank 9."""
    return f"{FILES[9 - int(square[0])]}{9 - 'abcdefghi'.index(square[1])}"


def cshogi_pairs(sfen: str) -> set[Pair]:
    """cshogi's pseudo-legal moves, read from their USI spelling; promotions collapse."""
    cshogi = pytest.importorskip("cshogi")
    out: set[Pair] = set()
    for move in cshogi.Board(sfen).pseudo_legal_moves:
        usi = cshogi.move_to_usi(move)
        if usi[1] == "*":
            out.add(("*" + usi[0], usi_cell(usi[2:4])))
        else:
            out.add((usi_cell(usi[0:2]), usi_cell(usi[2:4])))
    return out


def is_pawn_drop_mate(board: shogi.Board, pair: Pair) -> bool:
    """Whether ``pair`` drops a pawn that mates: the rule system forbids it (uchifuzume)."""
    if pair[0] != "*P":
        return False
    file, rank = FILES.index(pair[1][0]), int(pair[1][1])
    after = shogi.Board(board.sfen())
    after.push(shogi.Move(None, (9 - rank) * 9 + file, False, shogi.PAWN))
    return bool(after.is_checkmate())


def test_random_positions_against_cshogi(boards: list[shogi.Board]) -> None:
    # cshogi's pseudo-legal moves already apply two rules of the rule system: in check it lists
    # only its evasions, and it leaves out a pawn drop that mates. Every move it lists, we list;
    # every move we list beyond it is one of those, confirmed by python-shogi's legal moves.
    seen: Counter[str] = Counter()
    for board in boards:
        # Listed only where they are read: python-shogi's legal moves are slow to list.
        legal = {name_of(move) for move in board.legal_moves} if board.is_check() else set()

        def explain(pair: Pair, board: shogi.Board = board, legal: set[Pair] = legal) -> str | None:
            if board.is_check():
                return "not an evasion of check" if pair not in legal else None
            return "pawn-drop mate" if is_pawn_drop_mate(board, pair) else None

        reasons = assert_same_moves({our_pair(m) for m in our_moves(board)}, cshogi_pairs(board.sfen()),
                                    board.sfen(), explain)
        seen.update(reasons)
        seen["same"] += not reasons
    assert seen["same"] >= len(boards) * 9 // 10
    assert seen["not an evasion of check"] >= 1
    if len(boards) == FULL_POSITIONS:  # the seeded games of the full run drop one mating pawn
        assert seen["pawn-drop mate"] >= 1
