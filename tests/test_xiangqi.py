"""Xiangqi: the generated GGN document, checked against cchess (and pyffish) on random games.

By default a seeded subset of the positions runs; ``pytest -m full`` runs all of them.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import jsonschema
import pytest

from ggn import games
from ggn.errors import NotationError
from ggn.evaluate import Move
from ggn.feen import Feen
from ggn.games.xiangqi import START, document, from_fen, ruleset
from ggn.linter import lint
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.schemas import load_schema
from ggn.variants.pieces import Game, Movement, Piece, build, squares
from support import assert_compiled_matches_plain, assert_same_moves, random_positions, sizes

pytest.importorskip("cchess")
import cchess
from cchess import ChessBoard as Board

SEED = 20261123
FULL_POSITIONS = 1200  # positions of random games compared with cchess under -m full (200 else)
PLIES = 120  # a random game restarts after this many plies (or when it ends)
PSEUDO_SHARE = 0.5  # the share of moves drawn among the pseudo-legal ones
REFERENCE_EVERY = 5  # one position in this many is also checked against plain evaluation
FILES = "abcdefghi"

Pair = tuple[str, str]

# cchess's letters: k general, a advisor, b elephant, n horse, r chariot, c cannon, p soldier.
_OURS = {"k": "g^", "a": "a", "b": "e", "n": "h", "r": "r", "c": "c", "p": "p"}


def name(square: tuple[int, int]) -> str:
    """Our name of a cchess square ``(file, rank)``, both zero-based, red's first rank 0."""
    return f"{FILES[square[0]]}{square[1] + 1}"


# --- cchess to FEEN, straight from the board (independent of from_fen) -----------------------
def feen_of(board: Board) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, gap = "", 0
        for file in range(9):
            letter = board.get_fench((file, rank))
            if letter is None:
                gap += 1
                continue
            piece = _OURS[letter.lower()]
            row += (str(gap) if gap else "") + (piece.upper() if letter.isupper() else piece)
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    red = board.get_move_color() == cchess.RED
    return "/".join(rows) + (" / X/x" if red else " / x/X")


CchessMove = tuple[tuple[int, int], tuple[int, int]]


def _choices(board: Board, rng: random.Random) -> list[CchessMove]:
    """cchess's legal moves (pseudo-legal ones that do not leave the mover's general attacked,
    facing included), or, one time in ``1 / PSEUDO_SHARE``, all its pseudo-legal moves but the
    capture of a general, so that positions where a general can be taken (the facing generals
    among them) are compared too."""
    generals = {square for square in ((x, y) for x in range(3, 6) for y in (*range(3), *range(7, 10)))
                if (board.get_fench(square) or " ") in "Kk"}
    choices = [m for m in board.create_moves() if m[1] not in generals]
    if rng.random() >= PSEUDO_SHARE:
        choices = [m for m in choices if not board.is_checked_move(*m)]
    return choices


def _play(board: Board, move: CchessMove) -> Board:
    board.move(*move)
    board.next_turn()
    return board


def random_boards(seed: int, count: int) -> list[Board]:
    """``count`` positions of random games played by cchess, the moves drawn from :func:`_choices`."""
    return random_positions(Board(cchess.FULL_INIT_FEN), lambda _: Board(cchess.FULL_INIT_FEN), _choices,
                            _play, lambda board: board.copy(), count=count, seed=seed, plies=PLIES)


# Where each piece can be in a game, as cchess squares for red (black's are mirrored): the
# advisor's five points and the elephant's seven (cchess confines the advisor to its points,
# our document to the palace; they differ only on squares no game reaches).
_REACHABLE = {
    "k": [(x, y) for x in range(3, 6) for y in range(3)],
    "a": [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
    "b": [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
    "p": [(x, y) for x in range(0, 9, 2) for y in (3, 4)] + [(x, y) for x in range(9) for y in range(5, 10)],
    "n": [(x, y) for x in range(9) for y in range(10)],
}
_REACHABLE["r"] = _REACHABLE["c"] = _REACHABLE["n"]
_ARMY = "aabbnnrrccppppp"


def random_placements(seed: int, count: int) -> list[Board]:
    """``count`` sparse positions: both generals and a few random pieces of each side, each on
    a square it can reach in a game, either side to move. Open files and lines make facing
    generals, long cannon jumps and free horses frequent."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board("")
        for upper in (True, False):
            for letter in ("k", *rng.sample(_ARMY, rng.randint(1, 7))):
                free = [(x, y if upper else 9 - y) for x, y in _REACHABLE[letter]]
                free = [square for square in free if board.get_fench(square) is None]
                board.put_fench(letter.upper() if upper else letter, rng.choice(free))
        board.set_move_color(rng.choice((cchess.RED, cchess.BLACK)))
        boards.append(board)
    return boards


def their_pairs(board: Board) -> set[Pair]:
    """cchess's pseudo-legal moves as (source, destination)."""
    return {(name(source), name(destination)) for source, destination in board.create_moves()}


def pairs(moves: list[Move]) -> set[Pair]:
    return {(str(m.source), str(m.destination)) for m in moves}


def our_moves(feen: str) -> list[Move]:
    return ruleset().moves(Position.from_feen(feen))


@pytest.fixture(scope="module", params=sizes(200, FULL_POSITIONS))
def boards(request: pytest.FixtureRequest) -> list[Board]:
    return random_boards(SEED, request.param)


@pytest.fixture(scope="module", params=sizes(150, 1000))
def placements(request: pytest.FixtureRequest) -> list[Board]:
    """Sparse positions of pieces placed at random (1,000 under ``-m full``)."""
    return random_placements(SEED, request.param)


# --- the document ---------------------------------------------------------------------------
def test_document_validates_and_round_trips() -> None:
    value = document()
    rules = Ruleset.from_value(value)
    assert rules.to_value() == value  # (the dumps/loads round trip is chess's test's: it takes seconds)
    assert lint(rules, (9, 10)) == []
    sample = {piece: dict(list(sources.items())[::30]) for piece, sources in value.items()}
    jsonschema.Draft202012Validator(load_schema("ggn")).validate(sample)


def test_document_pieces_and_sources() -> None:
    value = document()
    red = ["G^", "A", "E", "H", "R", "C", "P"]
    assert list(value) == [f"X:{pin}" for pin in red] + [f"x:{pin.lower()}" for pin in red]
    palace = ["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"]
    assert sorted(value["X:G^"]) == sorted(value["X:A"]) == sorted(palace)
    assert sorted(value["x:g^"]) == sorted(f"{s[0]}{11 - int(s[1:])}" for s in palace)
    assert len(value["X:E"]) == len(value["x:e"]) == 45  # its own side of the river
    assert {s[1:] for s in value["X:E"]} == {"1", "2", "3", "4", "5"}
    assert {s[1:] for s in value["x:e"]} == {"6", "7", "8", "9", "10"}
    # Anywhere (Fairy-Stockfish plays a soldier a FEN puts behind its start rank too).
    assert len(value["X:P"]) == 90
    for piece in ("X:H", "X:R", "X:C", "x:h", "x:r", "x:c"):
        assert len(value[piece]) == 90
    assert sorted(value["X:H"]["b1"]) == ["a3", "c3", "d2"]
    assert len(value["X:R"]["a1"]) == 17


def test_document_follows_the_conventions() -> None:
    value = document()
    # The cannon: onto an empty square like the chariot; a capture over exactly one screen,
    # one possibility per place of the screen, the screen denied empty.
    assert value["X:C"]["b3"]["b5"] == [
        {"must": {"b4": "empty", "b5": "empty"}},
        {"must": {"b5": "enemy"}, "deny": {"b4": "empty"}},
    ]
    assert value["X:C"]["b3"]["b4"] == [{"must": {"b4": "empty"}}]
    assert value["x:c"]["h8"]["h1"][1:] == [
        {"must": {"h6": "empty", "h5": "empty", "h4": "empty", "h3": "empty", "h2": "empty",
                  "h1": "enemy"}, "deny": {"h7": "empty"}},
        *({"must": {s: "empty" for s in ("h7", "h6", "h5", "h4", "h3", "h2") if s != screen}
                   | {"h1": "enemy"}, "deny": {screen: "empty"}}
          for screen in ("h6", "h5", "h4", "h3", "h2")),
    ]
    assert len(value["x:c"]["h8"]["h1"]) == 1 + 6
    # The horse's leg: the orthogonal square next to it, toward the long side of the leap.
    assert value["X:H"]["b1"]["d2"] == [{"must": {"c1": "empty", "d2": "empty"}},
                                        {"must": {"c1": "empty", "d2": "enemy"}}]
    assert value["x:h"]["h10"]["g8"] == [{"must": {"h9": "empty", "g8": "empty"}},
                                         {"must": {"h9": "empty", "g8": "enemy"}}]
    # The elephant's eye, and the river it does not cross.
    assert value["X:E"]["c1"]["e3"] == [{"must": {"d2": "empty", "e3": "empty"}},
                                        {"must": {"d2": "empty", "e3": "enemy"}}]
    assert sorted(value["X:E"]["c5"]) == ["a3", "e3"]
    assert sorted(value["x:e"]["g6"]) == ["e8", "i8"]
    # The palace: the general steps orthogonally, the advisor diagonally, inside it.
    assert sorted(value["X:G^"]["d1"]) == ["d10", "d2", "d8", "d9", "e1"]  # facing ones too
    assert sorted(value["X:A"]["e2"]) == ["d1", "d3", "f1", "f3"]
    assert sorted(value["X:A"]["d3"]) == ["e2"]
    assert sorted(value["x:a"]["e9"]) == ["d10", "d8", "f10", "f8"]
    # The soldier: forward only on its own side, sideways too across the river.
    assert sorted(value["X:P"]["c4"]) == ["c5"]
    assert sorted(value["X:P"]["c5"]) == ["c6"]
    assert sorted(value["X:P"]["c6"]) == ["b6", "c7", "d6"]
    assert sorted(value["X:P"]["a10"]) == ["b10"]
    assert sorted(value["x:p"]["e5"]) == ["d5", "e4", "f5"]
    assert sorted(value["x:p"]["e6"]) == ["e5"]
    # The facing generals: the general's capture of the enemy general along the open file.
    assert value["X:G^"]["e1"]["e10"] == [{"must": {
        **{f"e{rank}": "empty" for rank in range(2, 10)}, "e10": "x:g^"}}]
    assert value["x:g^"]["d8"]["d3"] == [{"must": {"d7": "empty", "d6": "empty", "d5": "empty",
                                                   "d4": "empty", "d3": "X:G^"}}]
    assert sorted(value["X:G^"]["f2"]) == ["e2", "f1", "f10", "f3", "f8", "f9"]


def test_registry_and_start() -> None:
    assert "xiangqi" in games.names()
    assert games.start("xiangqi") == START
    assert games.ruleset("xiangqi") == ruleset()  # the registry's, made from its description
    assert Feen.parse(START).active == "first"
    moves = our_moves(START)
    assert len(moves) == 44
    assert pairs(moves) == their_pairs(Board(cchess.FULL_INIT_FEN))


# --- FEN -------------------------------------------------------------------------------------
def test_from_fen() -> None:
    assert from_fen(cchess.FULL_INIT_FEN) == START
    assert from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1") == START
    assert from_fen("3k5/9/9/9/9/9/9/9/9/4K4 r") == "3g^5/9/9/9/9/9/9/9/9/4G^4 / X/x"
    assert from_fen("3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 12") == "3g^5/4P4/9/9/9/9/9/9/9/4G^4 / x/X"


@pytest.mark.parametrize(("fen", "reason"), [
    ("", "expected the placement and the side to move"),
    ("9/9/9/9/9/9/9/9/9 w", "expected 10 ranks"),
    ("9/9/9/9/9/9/9/9/9/9x w", "rank 1 '9x' is not made of piece letters"),
    ("9/9/9/9/9/9/9/9/9/44 w", "rank 1 '44' covers 8 squares, not 9"),
    ("9/9/9/9/9/9/9/9/9/9k w", "rank 1 '9k' covers 10 squares, not 9"),
    ("9/9/9/9/9/9/9/9/9/9 x", "the side to move is 'w'"),
])
def test_from_fen_errors(fen: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason) as caught:
        from_fen(fen)
    assert caught.value.notation == "FEN"
    assert caught.value.text == fen


# --- positions by hand ----------------------------------------------------------------------
RANK_2 = ("a2", "b2", "c2", "d2", "f2", "g2", "h2", "i2")  # a cannon's moves from e2 along its rank


@pytest.mark.parametrize(("fen", "source", "wanted"), [
    # A cannon with a screen of its own side: it captures the enemy soldier beyond, only that.
    ("4k4/9/9/4p4/9/9/4P4/9/4C4/3K5 w", "e2", {"e1", "e3", "e7", *RANK_2}),
    # Two pieces beyond the screen: it captures the first one only.
    ("4k4/9/9/4p4/4p4/9/4P4/9/4C4/3K5 w", "e2", {"e1", "e3", "e6", *RANK_2}),
    # The horse's leg blocked on one side, the elephant's eye on another.
    ("4k4/9/9/9/9/9/9/9/1RR6/1N1BK4 w", "b1", {"d2"}),
    ("4k4/9/9/9/9/9/9/9/1RR6/1N1BK4 w", "d1", {"f3"}),
    # An elephant at the river does not cross it.
    ("4k4/9/9/9/9/2B6/9/9/9/4K4 w", "c5", {"a3", "e3"}),
    # The generals facing: each may capture the other along the open file, not past a piece.
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "e1", {"d1", "e2", "f1", "e10"}),
    ("4k4/9/9/9/9/9/9/9/9/4K4 b", "e10", {"d10", "e9", "f10", "e1"}),
    ("4k4/9/9/9/4p4/9/9/9/9/4K4 w", "e1", {"d1", "e2", "f1"}),
    # Soldiers: sideways across the river, at the last rank, at the edge; not back.
    ("P3k3P/9/9/4P4/9/9/9/9/9/3K5 w", "e7", {"d7", "e8", "f7"}),
    ("P3k3P/9/9/4P4/9/9/9/9/9/3K5 w", "a10", {"b10"}),
    ("P3k3P/9/9/4P4/9/9/9/9/9/3K5 w", "i10", {"h10"}),
    ("3k5/9/9/9/9/9/9/9/p7p/4K4 b", "a2", {"a1", "b2"}),
    ("3k5/9/9/9/9/p8/9/9/9/4K4 b", "a5", {"a4", "b5"}),
    ("3k5/9/9/9/p8/9/9/9/9/4K4 b", "a6", {"a5"}),
])
def test_positions_by_hand(fen: str, source: str, wanted: set[str]) -> None:
    board = Board(fen)
    feen = feen_of(board)
    assert from_fen(fen) == feen
    ours = pairs(our_moves(feen))
    assert ours == their_pairs(board)
    assert {d for s, d in ours if s == source} == wanted


# --- the oracle: random games ---------------------------------------------------------------
def agree(boards: list[Board]) -> Counter[str]:
    """Check that our moves are cchess's pseudo-legal moves on each board, as (source,
    destination) pairs with no difference allowed (the facing generals are a capture in both);
    count the cases that make the check mean something."""
    seen: Counter[str] = Counter()
    for board in boards:
        feen = feen_of(board)
        assert from_fen(board.to_fen()) == feen
        assert str(Feen.parse(feen)) == feen
        moves = our_moves(feen)
        assert_same_moves([(str(m.source), str(m.destination)) for m in moves], their_pairs(board),
                          board.to_fen())
        for move in moves:
            kind = move.piece.name.lower()
            source, destination = str(move.source), str(move.destination)
            distance = abs(int(source[1:]) - int(destination[1:]))
            if kind == "g" and source[0] == destination[0] and distance > 1:
                seen["facing generals"] += 1
            if kind == "c" and len(move.possibilities[0].deny) == 1:
                seen["cannon capture"] += 1
            if kind in "he" and len(move.possibilities[0].must) == 2:
                seen["leg or eye checked"] += 1
            if kind == "p" and source[1:] == destination[1:]:
                seen["soldier sideways"] += 1
        seen["positions"] += 1
        seen["moves"] += len(moves)
    return seen


def test_random_positions_against_cchess(boards: list[Board]) -> None:
    count = len(boards)
    seen = agree(boards)
    # The games go through the cases that matter, so the comparison above means something.
    assert seen["cannon capture"] >= count // 2
    assert seen["soldier sideways"] >= count // 5
    assert seen["leg or eye checked"] >= count * 3
    if count == FULL_POSITIONS:  # facing generals are rare in games: a few in a thousand positions
        assert seen["facing generals"] >= 1


def test_random_placements_against_cchess(placements: list[Board]) -> None:
    count = len(placements)
    seen = agree(placements)
    assert seen["facing generals"] >= count // 15
    assert seen["cannon capture"] >= count // 25
    assert seen["soldier sideways"] >= count // 2


def test_blocked_legs_and_eyes_are_seen(boards: list[Board]) -> None:
    # Horse and elephant leaps that a piece on the leg or the eye takes away: cchess refuses
    # them and so do we, and the random games meet enough of them for that to mean something.
    value = document()
    blocked = 0
    for board in boards[::4]:
        position = Position.from_feen(feen_of(board))
        ours = pairs(ruleset().moves(position))
        for square, piece in position:
            if piece.side != position.active or piece.name not in "HEhe":
                continue
            for destination, possibilities in value[str(piece)][str(square)].items():
                leg = next(iter(possibilities[0]["must"]))
                if position.piece_at(leg) is not None:
                    assert (str(square), destination) not in ours
                    blocked += 1
    assert blocked >= 20


def test_compiled_moves_match_plain_evaluation(boards: list[Board]) -> None:
    sample = [Position.from_feen(feen_of(board)) for board in boards[::REFERENCE_EVERY]]
    assert assert_compiled_matches_plain(ruleset(), sample) >= len(boards) // REFERENCE_EVERY


# --- a second opinion: pyffish --------------------------------------------------------------
# Fairy-Stockfish's xiangqi, with the general an ordinary piece confined to the palace, so
# that its legal moves are pseudo-legal (no check, no flying-general rule as legality).
PSEUDO = "xiangqi-pseudo"
_UCI = re.compile(r"([a-i](?:10|[1-9]))([a-i](?:10|[1-9]))")


@pytest.fixture(scope="module")
def pyffish() -> Any:
    """pyffish (skipped when it is not installed), with the variant above loaded."""
    engine = pytest.importorskip("pyffish")
    engine.load_variant_config(f"""
[{PSEUDO}:xiangqi]
king = -
customPiece1 = k:W
mobilityRegionWhiteCustomPiece1 = d1 e1 f1 d2 e2 f2 d3 e3 f3
mobilityRegionBlackCustomPiece1 = d8 e8 f8 d9 e9 f9 d10 e10 f10
extinctionValue = loss
extinctionPieceTypes = k
""")
    return engine


def pyffish_pairs(pyffish: Any, fen: str) -> set[Pair]:
    out: set[Pair] = set()
    for move in pyffish.legal_moves(PSEUDO, fen, []):
        found = _UCI.match(move)
        assert found is not None, move
        out.add((found[1], found[2]))
    return out


def facing_capture(move: Pair, position: Position) -> bool:
    """Whether a move is the general's capture of the facing enemy general along the file:
    Fairy-Stockfish makes facing generals a matter of legality (a rule the texts put in the
    rule system), not a capture, so its pseudo-legal moves leave it out."""
    piece = position.piece_at(move[0])
    taken = position.piece_at(move[1])
    return (piece is not None and taken is not None and piece.name in "Gg"
            and taken.name in "Gg" and move[0][0] == move[1][0]
            and abs(int(move[0][1:]) - int(move[1][1:])) > 1)


def against_pyffish(pyffish: Any, boards: list[Board]) -> Counter[str]:
    """Check that pyffish's moves are ours but the facing generals' capture; count those."""
    differences: Counter[str] = Counter()
    for board in boards:
        position = Position.from_feen(feen_of(board))
        ours = [(str(m.source), str(m.destination)) for m in ruleset().moves(position)]

        def explain(pair: Pair, position: Position = position) -> str | None:
            return "facing generals as a capture" if facing_capture(pair, position) else None

        differences += assert_same_moves(ours, pyffish_pairs(pyffish, board.to_full_fen()), board.to_fen(),
                                         explain)
    return differences


def test_random_positions_against_pyffish(pyffish: Any, boards: list[Board]) -> None:
    against_pyffish(pyffish, boards)


def test_random_placements_against_pyffish(pyffish: Any, placements: list[Board]) -> None:
    # The only difference, and the placements meet it often.
    differences = against_pyffish(pyffish, placements)
    assert differences["facing generals as a capture"] >= len(placements) // 15


# --- the piece descriptions behind the document ---------------------------------------------
def test_hoppers_lame_leaps_zones_and_targets() -> None:
    # A hopper over two pieces: one possibility for each choice of its screens, near to far.
    hopper = Piece("C", (Movement(((0, 1),), last=None, mode="capture", hops=2),), stands=squares("a1"))
    value = build(Game("h", files=1, ranks=5, style="X", pieces=(hopper,), start=""))["X:C"]["a1"]
    assert list(value) == ["a4", "a5"]  # a2 and a3 have fewer than two squares before them
    assert value["a4"] == [{"must": {"a4": "enemy"}, "deny": {"a2": "empty", "a3": "empty"}}]
    assert value["a5"] == [
        {"must": {"a4": "empty", "a5": "enemy"}, "deny": {"a2": "empty", "a3": "empty"}},
        {"must": {"a3": "empty", "a5": "enemy"}, "deny": {"a2": "empty", "a4": "empty"}},
        {"must": {"a2": "empty", "a5": "enemy"}, "deny": {"a3": "empty", "a4": "empty"}},
    ]
    # A lame rider: each step's leg, then its landing square, must be empty on the way.
    rider = Piece("N", (Movement(((1, 2),), last=None, mode="move", lame=True),), stands=squares("a1"))
    value = build(Game("l", files=5, ranks=5, style="X", pieces=(rider,), start=""))["X:N"]["a1"]
    assert value == {"b3": [{"must": {"a2": "empty", "b3": "empty"}}],
                     "c5": [{"must": {"a2": "empty", "b3": "empty", "b4": "empty", "c5": "empty"}}]}
    # A zone for the destinations, and a capture of one given piece, seen by both sides.
    king = Piece("K", (Movement(((0, 1), (1, 0)), within=squares("a1", "a2")),
                       Movement(((0, 1),), last=None, mode="capture", target="k", within=squares("a3"))))
    zoned = build(Game("z", files=2, ranks=3, style="X", pieces=(king,), start=""))
    assert zoned["X:K"]["a1"] == {"a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}],
                                  "a3": [{"must": {"a2": "empty", "a3": "x:k"}}]}
    assert "b1" not in zoned["X:K"]  # no destination in its zone: no source entry at all
    assert zoned["x:k"]["a3"]["a1"] == [{"must": {"a2": "empty", "a1": "X:K"}}]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"vectors": ((0, 1),), "target": "k"}, "with a target captures it: mode 'capture', not 'both'"),
    ({"vectors": ((0, 1),), "hops": -1}, "hops over 0 or more pieces, got -1"),
])
def test_movement_checks_its_new_fields(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Movement(**kwargs)
