"""Chess: the generated GGN document, checked against python-chess on positions of random games."""

from __future__ import annotations

from collections import Counter
from typing import Any

import jsonschema
import pytest

from ggn import games
from ggn.errors import GGNError, NotationError
from ggn.evaluate import Move
from ggn.feen import Feen
from ggn.games.chess import START, document, from_fen, ruleset
from ggn.linter import lint
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.schemas import load_schema
from ggn.variants.pieces import Game, Movement, Piece, build, ranks, squares
from support import assert_compiled_matches_plain, assert_same_moves, pushed, random_positions

pytest.importorskip("chess")
import chess

from oracle_boards import chess_feen as feen_of

SEED = 20240601
POSITIONS = 2000  # positions of random games compared with python-chess
PLIES = 80  # a random game restarts after this many plies (or when it ends)
REFERENCE_EVERY = 7  # one position in this many is also checked against plain evaluation

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"

Pair = tuple[str, str]


# python-chess to FEEN straight from the board (independent of from_fen): oracle_boards.chess_feen
def random_boards(seed: int, count: int) -> list[chess.Board]:
    """``count`` positions of random games: each move drawn uniformly among the legal ones."""
    return random_positions(
        chess.Board(), lambda _: chess.Board(),
        lambda board, _: [] if board.is_game_over() else list(board.legal_moves), pushed,
        lambda board: board.copy(stack=False), count=count, seed=seed, plies=PLIES)


def their_pairs(board: chess.Board) -> set[Pair]:
    """python-chess's pseudo-legal moves as (source, destination); promotions collapse."""
    return {(chess.square_name(m.from_square), chess.square_name(m.to_square))
            for m in board.generate_pseudo_legal_moves()}


def our_moves(board: chess.Board) -> list[Move]:
    return ruleset().moves(Position.from_feen(feen_of(board)))


def pairs(moves: list[Move]) -> set[Pair]:
    return {(str(m.source), str(m.destination)) for m in moves}


def assert_agrees(board: chess.Board, moves: list[Move]) -> int:
    """Check our moves against python-chess's pseudo-legal ones; return how many castlings we
    list that python-chess refuses because of an attack (the only difference allowed)."""
    by_pair = {(str(m.source), str(m.destination)): m for m in moves}

    def explain(pair: Pair) -> str | None:
        return "castling refused" if castling_refused_for_attack(board, by_pair[pair]) else None

    ours = [(str(m.source), str(m.destination)) for m in moves]
    return assert_same_moves(ours, their_pairs(board), board.fen(), explain)["castling refused"]


def castling_refused_for_attack(board: chess.Board, move: Move) -> bool:
    """Whether ``move`` is a castling of the side to move that python-chess refuses because the
    king is in check, passes over an attacked square, or lands on one."""
    home, king = ("e1", "C:+K^") if board.turn == chess.WHITE else ("e8", "c:+k^")
    if str(move.source) != home or str(move.piece) != king:
        return False
    rank = home[1]
    passes = {"g": ("f", "g"), "c": ("d", "c")}.get(str(move.destination)[0])
    if passes is None or str(move.destination)[1] != rank:
        return False
    enemy = not board.turn
    attacked = [board.is_attacked_by(enemy, chess.parse_square(f + rank)) for f in passes]
    return board.is_check() or any(attacked)


@pytest.fixture(scope="module")
def boards() -> list[chess.Board]:
    return random_boards(SEED, POSITIONS)


# --- the document ---------------------------------------------------------------------------
def test_document_validates_and_round_trips() -> None:
    value = document()
    rules = Ruleset.from_value(value)
    assert rules.to_value() == value
    assert Ruleset.loads(rules.dumps()) == rules
    assert rules == ruleset()
    assert lint(rules, (8, 8)) == []
    # The published schema too, on a sample: it takes seconds on the whole document.
    sample = {piece: dict(list(sources.items())[::16]) for piece, sources in value.items()}
    jsonschema.Draft202012Validator(load_schema("ggn")).validate(sample)


def test_document_pieces_and_sources() -> None:
    value = document()
    white = ["K^", "+K^", "Q", "R", "+R", "B", "N", "P", "-P"]
    assert list(value) == [f"C:{pin}" for pin in white] + [f"c:{pin.lower()}" for pin in white]
    assert list(value["C:+K^"]) == ["e1"]
    assert list(value["c:+k^"]) == ["e8"]
    assert list(value["C:+R"]) == ["a1", "h1"]
    assert list(value["c:+r"]) == ["a8", "h8"]
    # A pawn stands anywhere but on its last rank, where it promotes (Fairy-Stockfish plays a
    # pawn a FEN puts on its first rank too, one step forward).
    assert len(value["C:P"]) == len(value["c:p"]) == 56
    assert {s[1] for s in value["C:P"]} == set("1234567")
    assert {s[1] for s in value["c:p"]} == set("2345678")
    assert value["C:-P"] == value["C:P"]
    assert value["c:-p"] == value["c:p"]
    for piece in ("C:K^", "C:Q", "C:R", "C:B", "C:N", "c:n"):
        assert len(value[piece]) == 64
    # Every destination of a non-pawn: a move onto empty, then a capture, along the same path.
    for piece in ("C:Q", "c:r", "C:N", "c:b", "C:K^"):
        for destinations in value[piece].values():
            for destination, (move, capture) in destinations.items():
                assert list(move["must"])[-1] == destination
                assert move["must"][destination] == "empty"
                assert capture["must"] == {**move["must"], destination: "enemy"}
    # Counted from the start: 8 + 13 + 14 squares from d1, e1, a1; 3 knight leaps from b1.
    assert len(value["C:K^"]["e1"]) == 5
    assert len(value["C:Q"]["d1"]) == 21
    assert len(value["C:R"]["a1"]) == 14
    assert sorted(value["C:N"]["b1"]) == ["a3", "c3", "d2"]


def test_document_follows_the_conventions() -> None:
    value = document()
    assert value["C:+K^"]["e1"]["g1"] == [{"must": {"f1": "empty", "g1": "empty", "h1": "C:+R"}}]
    assert value["C:+K^"]["e1"]["c1"] == [
        {"must": {"d1": "empty", "c1": "empty", "b1": "empty", "a1": "C:+R"}}]
    assert value["c:+k^"]["e8"]["g8"] == [{"must": {"f8": "empty", "g8": "empty", "h8": "c:+r"}}]
    assert value["c:+k^"]["e8"]["c8"] == [
        {"must": {"d8": "empty", "c8": "empty", "b8": "empty", "a8": "c:+r"}}]
    assert "g1" not in value["C:K^"]["e1"]
    assert value["C:P"]["e5"]["d6"] == [{"must": {"d6": "enemy"}}, {"must": {"d6": "empty", "d5": "c:-p"}}]
    assert value["c:p"]["d4"]["e3"] == [{"must": {"e3": "enemy"}}, {"must": {"e3": "empty", "e4": "C:-P"}}]
    assert value["C:P"]["e2"] == {
        "e3": [{"must": {"e3": "empty"}}],
        "e4": [{"must": {"e3": "empty", "e4": "empty"}}],
        "d3": [{"must": {"d3": "enemy"}}],
        "f3": [{"must": {"f3": "enemy"}}],
    }
    assert value["c:p"]["a2"] == {"a1": [{"must": {"a1": "empty"}}], "b1": [{"must": {"b1": "enemy"}}]}
    # A rider's conditions run along its ray from near to far.
    assert value["C:R"]["a1"]["a4"] == [
        {"must": {"a2": "empty", "a3": "empty", "a4": "empty"}},
        {"must": {"a2": "empty", "a3": "empty", "a4": "enemy"}},
    ]
    assert list(value["C:B"]["c1"]["h6"][0]["must"]) == ["d2", "e3", "f4", "g5", "h6"]


def test_document_is_a_fresh_copy_and_the_ruleset_is_built_once() -> None:
    first = document()
    first["C:K^"].clear()
    assert document()["C:K^"]
    assert ruleset() is ruleset()


# --- the games registry ---------------------------------------------------------------------
def test_games_registry() -> None:
    assert games.names()[0] == "chess"
    assert games.start("chess") == START
    # The registry's chess is made from its description: the same document as this module's.
    assert games.ruleset("chess") is games.ruleset("chess")
    assert games.ruleset("chess") == ruleset()
    assert games.document("chess") == document()
    assert Feen.parse(START).active == "first"
    for call in (games.start, games.ruleset, games.document):
        with pytest.raises(GGNError, match=r"no game 'go'; there are: chess"):
            call("go")


# --- FEN -------------------------------------------------------------------------------------
def test_from_fen() -> None:
    assert from_fen(chess.STARTING_FEN) == START
    assert from_fen(KIWIPETE) == "+r3+k^2+r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/+R3+K^2+R / C/c"
    assert from_fen("r3k2r/8/8/8/3pP3/8/8/R3K2R b Kq e3 0 1") == (
        "+r3+k^2r/8/8/8/3p-P3/8/8/R3+K^2+R / c/C")
    assert from_fen("4k3/8/8/2Pp4/8/8/8/4K3 w - d6 0 2") == "4k^3/8/8/2P-p4/8/8/8/4K^3 / C/c"


@pytest.mark.parametrize(("fen", "reason"), [
    ("", "expected 4 or 6 fields"),
    ("8/8/8/8/8/8/8/8 w - - 0", "expected 4 or 6 fields"),
    ("8/8/8/8/8/8/8 w - -", "expected 8 ranks"),
    ("8/8/8/8/8/8/8/9 w - -", "rank 1 '9' is not made of piece letters"),
    ("8/8/8/8/8/8/8/7 w - -", "rank 1 '7' covers 7 squares, not 8"),
    ("8/8/8/8/8/8/8/44k w - -", "rank 1 '44k' covers 9 squares, not 8"),
    ("8/8/8/8/8/8/8/8 x - -", "the side to move is 'w' or 'b'"),
    ("8/8/8/8/8/8/8/8 w qk -", "castling rights are '-' or some of 'KQkq'"),
    ("8/8/8/8/8/8/8/8 w  -", "castling rights are '-' or some of 'KQkq'"),
    ("8/8/8/8/8/8/8/R3K3 w K -", "castling right 'K' needs the king on e1 and a rook on h1"),
    ("8/8/8/8/8/8/8/8 w - e3", "a square of rank 6 with white to move"),
    ("8/8/8/8/8/8/8/8 w - e6", "en passant square e6 needs the pawn"),
    ("8/8/8/8/8/8/8/8 w - - 01 1", "a move counter is a number without leading zeros"),
])
def test_from_fen_errors(fen: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason) as caught:
        from_fen(fen)
    assert caught.value.notation == "FEN"
    assert caught.value.text == fen


# --- positions by hand ----------------------------------------------------------------------
def test_start_position() -> None:
    moves = ruleset().moves(Position.from_feen(START))
    assert len(moves) == 20
    assert pairs(moves) == their_pairs(chess.Board())


def test_kiwipete() -> None:
    board = chess.Board(KIWIPETE)
    assert board.legal_moves.count() == 48
    moves = ruleset().moves(Position.from_feen(from_fen(KIWIPETE)))
    assert pairs(moves) == their_pairs(board)
    assert {(chess.square_name(m.from_square), chess.square_name(m.to_square))
            for m in board.legal_moves} <= pairs(moves)
    assert {("e1", "g1"), ("e1", "c1")} <= pairs(moves)


@pytest.mark.parametrize("fen", [
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",  # en passant
    "4k3/8/8/8/4pP2/8/8/4K3 b - f3 0 2",  # en passant, the second side
    "4k3/8/8/3pPp2/8/8/8/4K3 w - f6 0 2",  # one pawn may be taken en passant, not the other
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",  # promotions; castling over an attacked f1
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1",  # promotions of the second side
    "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1",  # castling blocked on both wings
    "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1",  # a rook off its corner has no right
])
def test_positions_by_hand(fen: str) -> None:
    board = chess.Board(fen)
    assert from_fen(board.fen(en_passant="fen")) == feen_of(board)
    assert_agrees(board, our_moves(board))


def test_castling_through_check_is_pseudo_legal_here() -> None:
    # The f1 square is attacked: python-chess refuses e1-g1 already at the pseudo-legal level;
    # GGN cannot see attacks, so the document lists it and leaves it to the rule system.
    board = chess.Board("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1")
    moves = our_moves(board)
    [castling] = [m for m in moves if str(m.piece) == "C:+K^" and str(m.destination) == "g1"]
    assert pairs(moves) - their_pairs(board) == {("e1", "g1")}
    assert their_pairs(board) <= pairs(moves)
    assert castling_refused_for_attack(board, castling)


# --- the oracle: random games ---------------------------------------------------------------
def test_random_positions_against_python_chess(boards: list[chess.Board]) -> None:
    assert len(boards) >= 2000
    seen: Counter[str] = Counter()
    for board in boards:
        feen = feen_of(board)
        assert from_fen(board.fen(en_passant="fen")) == feen
        assert str(Feen.parse(feen)) == feen
        moves = ruleset().moves(Position.from_feen(feen))
        seen["castling refused for an attack"] += assert_agrees(board, moves)
        for theirs in board.generate_pseudo_legal_moves():
            seen["castling"] += board.is_castling(theirs)
            seen["en passant"] += board.is_en_passant(theirs)
            seen["promotion"] += theirs.promotion == chess.QUEEN
    # The games go through the cases that matter, so the comparison above means something.
    assert seen["castling"] >= 20
    assert seen["castling refused for an attack"] >= 5
    assert seen["en passant"] >= 5
    assert seen["promotion"] >= 5


def test_compiled_moves_match_plain_evaluation(boards: list[chess.Board]) -> None:
    sample = [Position.from_feen(feen_of(board)) for board in boards[::REFERENCE_EVERY]]
    assert assert_compiled_matches_plain(ruleset(), sample) >= 250


def test_possibilities_say_how(boards: list[chess.Board]) -> None:
    # A move's possibilities are the ways it happens: a capture holds "enemy" on its
    # destination, en passant names the pawn it takes, castling the rook.
    for board in boards[:500]:
        for move in our_moves(board):
            target = chess.parse_square(str(move.destination))
            conditions: list[dict[str, Any]] = [p.must.to_value() for p in move.possibilities]
            last = [c[str(move.destination)] for c in conditions]
            if board.piece_at(target) is not None:
                assert last == ["enemy"]
            else:
                assert len(last) == 1 and last[0] == "empty"


# --- the piece descriptions behind the document ---------------------------------------------
def test_piece_descriptions_frames_and_zones() -> None:
    # A piece that steps forward, seen by both sides, mirrored (chess) or rotated (shogi).
    step = Piece("S", (Movement(((0, 1), (1, 1))),), stands=squares("a1"))
    mirrored = build(Game("m", files=3, ranks=3, style="X", pieces=(step,), start=""))
    assert mirrored == {
        "X:S": {"a1": {"a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}],
                       "b2": [{"must": {"b2": "empty"}}, {"must": {"b2": "enemy"}}]}},
        "x:s": {"a3": {"a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}],
                       "b2": [{"must": {"b2": "empty"}}, {"must": {"b2": "enemy"}}]}},
    }
    rotated = build(Game("r", files=3, ranks=3, style="X", pieces=(step,), start="", frame="rotate"))
    assert rotated["X:S"] == mirrored["X:S"]
    assert list(rotated["x:s"]) == ["c3"]
    assert list(rotated["x:s"]["c3"]) == ["c2", "b2"]
    # A condition off the board drops the movement; the same conditions twice are listed once.
    edge = Piece("E", (Movement(((1, 0),), also=(((-1, 0), "p"),)), Movement(((1, 0),), mode="move"),
                       Movement(((1, 0),), first=1, last=1, mode="move")))
    value = build(Game("e", files=3, ranks=1, style="X", pieces=(edge,), start=""))["X:E"]
    assert value["a1"] == {"b1": [{"must": {"b1": "empty"}}]}
    assert value["b1"]["c1"] == [
        {"must": {"c1": "empty", "a1": "x:p"}}, {"must": {"c1": "enemy", "a1": "x:p"}},
        {"must": {"c1": "empty"}},
    ]
    assert ranks(3, 1, 3) == squares("a1", "b1", "c1", "a3", "b3", "c3")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"vectors": ()}, "non-zero vectors"),
    ({"vectors": ((0, 0),)}, "non-zero vectors"),
    ({"vectors": ((0, 1),), "first": 0}, "1 <= first <= last"),
    ({"vectors": ((0, 1),), "first": 3, "last": 2}, "1 <= first <= last"),
])
def test_movement_checks_itself(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Movement(**kwargs)
