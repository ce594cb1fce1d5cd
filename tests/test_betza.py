"""Betza notation (ggn.variants.betza) against Fairy-Stockfish: for every predefined piece and
many combinations of modifiers, the destinations the GGN document made from the parsed
movements allows, on boards with random blockers of both sides, equal pyffish's legal moves of
that piece in a variant loaded with ``pyffish.load_variant_config`` (no royal piece, so that
legality cannot interfere; the blockers are Fairy-Stockfish's immobile piece).

By default a seeded subset runs; ``pytest -m full`` runs more positions and board sizes.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from ggn.errors import NotationError
from ggn.evaluate import reference_moves
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.variants.betza import PREDEFINED, parse
from ggn.variants.pieces import Game, Movement, Piece, View, build, destinations
from oracle_boards import placement

pyffish = pytest.importorskip("pyffish")

SEED = 20260917
POSITIONS = 5  # random positions per Betza text and board in CI
FULL_POSITIONS = 25  # under -m full
BOARD = (10, 10)
FULL_BOARDS = ((8, 8), (12, 10), (7, 9), (10, 10))
INITIAL_RANKS = (2, 3)  # the double-step region (ranks counted from the mover) for 'i'

COMBINATIONS = (
    # directions on oblique atoms, as Fairy-Stockfish reads them
    "mfhNcfW", "hlN", "hrN", "fhN", "bhN", "lhN", "rhN", "lhW", "rhK", "mlhNcrhZ",
    "ffNfsN", "frN", "rfN", "flbN", "sN", "vN", "bbN", "fsN", "brN",
    "flF", "hlZ", "fhC", "frlbG", "bsA",
    # directions on orthogonal atoms, K and Q
    "fsK", "bsQ", "vR", "sR", "lrR", "frW", "fsD", "blH", "rfK", "sQ2",
    # pieces of Fairy-Stockfish's built-in variants
    "rflbB", "lfrbB", "fRrbBlbF", "fRlbBrbF", "KbRfBbF2", "fRffN", "fKbR", "WfFbR", "bFfD", "fAbD", "FsfW",
    "FvW", "fNsW", "FDH", "CF", "GH", "ZAD", "DAW", "mDmNmA", "NNQ", "BnN", "mfFcfeW", "mflFcflW",
    "mQmgQ", "mRmgQ", "mKmgQ", "mRpRmFpB2", "mBpBmWpR2", "gBgR", "mQ2cW", "mRcD", "mBcpB", "mQ3", "mfrWmrfF",
    # ranges and doubled riders
    "R4", "W2", "N3", "NN", "WW", "FF", "K2", "Q3", "fNN", "R0", "B1", "RR", "KK",
    # hoppers: cannons, grasshoppers and their ranges
    "pQ", "pB", "pK", "pW", "gQ", "gW", "gR2", "pR1", "gR0", "pR3", "sgR", "cpB", "mpR",
    # lame leapers
    "nZ", "nD", "nJ", "fnN", "bnA", "nNnA", "NnN", "mnNcN",
    # one table's lines reach what another movement of that table reaches (Fairy-Stockfish's masks)
    "fRbpR", "fgRbR", "fpRbR", "nDpR", "fnDbpR", "bNNfnN", "fBbgB", "fRbnD", "vRbW3",
    # modalities
    "mNcK", "cR", "mvR", "mcN", "cmB", "mmN", "LJ",
)
INITIAL = ("fmWfceFifmnD", "mfFcfeWimfnA", "KifmnD", "fKifmnD", "iR", "mWimfR2", "impR", "igQ", "iWcN")


def _cases() -> list[str]:
    return [*dict.fromkeys([*PREDEFINED.values(), *COMBINATIONS, *INITIAL])]


def _region(ranks: int, black: bool) -> str:
    return " ".join(f"*{ranks + 1 - rank if black else rank}" for rank in INITIAL_RANKS)


@cache
def _fsf_variant(text: str, files: int, ranks: int, predefined: str | None = None) -> str:
    """A variant of Fairy-Stockfish with one piece moving as ``text`` (letter a; or its
    ``predefined`` piece type of that name) and immobile blockers (x), no royal piece, loaded
    once."""
    name = f"betza{len(_LOADED)}"
    _LOADED.append(name)
    empty = "/".join([str(files)] * ranks)
    pyffish.load_variant_config(f"""
[{name}]
maxFile = {files}
maxRank = {ranks}
king = -
pawn = -
knight = -
bishop = -
rook = -
queen = -
{f"{predefined} = a" if predefined else f"customPiece1 = a:{text}"}
immobile = x
castling = false
checking = false
doubleStepRegionWhite = {_region(ranks, False)}
doubleStepRegionBlack = {_region(ranks, True)}
startFen = {empty} w - - 0 1
""")
    return name


_LOADED: list[str] = []


def _movements(text: str, files: int) -> tuple[Movement, ...]:
    return parse(text, initial=frozenset((file, rank - 1) for rank in INITIAL_RANKS for file in range(files)))


# Fairy-Stockfish turns the first side's moves half a circle for the second (its Direction -d):
# chiral pieces (hlN, rflbB) need the rotated view, as shogi's.
@cache
def _ruleset(text: str, files: int, ranks: int) -> Ruleset:
    """The whole document of the piece (every source), made by ``build``."""
    game = Game("betza", files, ranks, "B", (Piece("A", _movements(text, files)), Piece("X", ())), start="",
                frame="rotate")
    return Ruleset.from_value(build(game))


def _one_source(text: str, files: int, ranks: int, black: bool, square: tuple[int, int],
                holes: frozenset[tuple[int, int]] = frozenset()) -> Ruleset:
    """The document of the piece standing on ``square`` only, made by ``destinations``."""
    view = View(files, ranks, "B", black, rotate=True, holes=holes)
    source = next(mine for mine, name in view.names.items() if name == _square(*square))
    found = destinations(view, _movements(text, files), source)
    return Ruleset.from_value({view.qpi("A"): {view.names[source]: found}} if found else {})


def _square(file: int, rank: int) -> str:
    return f"{'abcdefghijkl'[file]}{rank + 1}"


def _compare(text: str, files: int, ranks: int, rng: random.Random, *, whole: bool = False,
             holes: bool = False, predefined: str | None = None) -> None:
    variant = _fsf_variant(text, files, ranks, predefined)
    squares = [(file, rank) for file in range(files) for rank in range(ranks)]
    density = rng.choice((0.0, 0.1, 0.25, 0.4, 0.6))
    black = rng.random() < 0.5
    mover = rng.choice(squares)
    board = {mover: "a" if black else "A"}
    for square in squares:
        if square != mover and rng.random() < density:
            board[square] = rng.choice("Xx**" if holes else "Xx")
    walls = frozenset(square for square, letter in board.items() if letter == "*")
    fsf = f"{placement(board, files, ranks)} {'b' if black else 'w'} - - 0 1"
    expected = set(pyffish.legal_moves(variant, fsf, []))
    # Fairy-Stockfish's walls (*) are holes of the board, empty squares in FEEN.
    pieces = {square: letter for square, letter in board.items() if letter != "*"}
    feen = f"{placement(pieces, files, ranks)} / {'b/B' if black else 'B/b'}"
    position = Position.from_feen(feen)
    if whole:
        moves = _ruleset(text, files, ranks).moves(position)
    else:
        moves = list(reference_moves(_one_source(text, files, ranks, black, mover, walls), position))
    found = {f"{move.source}{move.destination}" for move in moves}
    assert found == expected, (
        f"{text!r} on {files}x{ranks}, {feen!r}: only ggn {sorted(found - expected)}, "
        f"only Fairy-Stockfish {sorted(expected - found)}")


@pytest.mark.parametrize("text", _cases())
def test_destinations_equal_fairy_stockfish(text: str) -> None:
    rng = random.Random(f"{SEED} {text}")
    for _ in range(POSITIONS):
        _compare(text, *BOARD, rng)


@pytest.mark.full
@pytest.mark.parametrize("text", _cases())
def test_destinations_equal_fairy_stockfish_more(text: str) -> None:
    rng = random.Random(f"{SEED} full {text}")
    for files, ranks in FULL_BOARDS:
        for _ in range(FULL_POSITIONS):
            _compare(text, files, ranks, rng, whole=True)


# Predefined pieces with rules beyond their Betza in Fairy-Stockfish (promotion, the river, the
# janggi cannon's screens, royalty), and the blocker itself.
_SPECIAL = {"pawn", "soldier", "janggiCannon", "king", "immobile"}


@pytest.mark.parametrize("name", sorted(set(PREDEFINED) - _SPECIAL))
def test_predefined_pieces_move_as_fairy_stockfish_s_own(name: str) -> None:
    # Fairy-Stockfish's own piece type of that name (not a custom piece from our text).
    rng = random.Random(f"{SEED} predefined {name}")
    for _ in range(POSITIONS):
        _compare(PREDEFINED[name], *BOARD, rng, predefined=name)


def test_every_predefined_piece_of_fairy_stockfish() -> None:
    # variants.ini's list of predefined pieces, as Fairy-Stockfish's source adds them.
    assert len(PREDEFINED) == 37
    assert PREDEFINED["shogiKnight"] == "fN" and PREDEFINED["janggiElephant"] == "nZ"
    for name, text in PREDEFINED.items():
        assert bool(parse(text)) == (name != "immobile"), name  # every one moves, bar the immobile


@pytest.mark.parametrize(("text", "start", "end", "reason"), [
    ("fjN", 1, 2, "'j' means nothing"),
    ("Nf", 1, 2, "modifiers with no atom"),
    ("mcfN2cv", 5, 7, "modifiers with no atom"),
    ("R12", 1, 3, "one digit"),
    ("2N", 0, 1, "a range follows an atom"),
    ("mNq", 2, 3, "'q' is no atom"),
    ("K N", 1, 2, "' ' is no atom"),
    ("R\u00b2", 1, 2, "ranges are 0 to 9"),
    ("NnW", 1, 3, "no lame 'W'"),
    ("nK", 0, 2, "no lame 'K'"),
    ("fnR", 0, 3, "'n' (lame) applies to a leaper"),
    ("nNN", 0, 3, "'n' (lame) applies to a leaper"),
    ("pnW", 0, 3, "'n' (lame) applies to a leaper"),
    ("pN", 0, 2, "hops only along W and F"),
    ("BgA", 1, 3, "hops only along W and F"),
    ("DD", 0, 2, "rides only along W, F and N"),
    ("fRbD2", 2, 5, "rides only along W, F and N"),
    ("sbA", 0, 3, "the directions 'sb' select no move of 'A'"),
    ("WvsQ2", 1, 5, "the directions 'vs' select no move of 'Q'"),
    ("hfN", 0, 3, "the directions 'hf' select no move"),
    ("icW", 1, 2, "no initial captures"),
    ("Kimfc", 1, 5, "modifiers with no atom"),
])
def test_errors_point_at_the_fault(text: str, start: int, end: int, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text, initial=frozenset())
    error = caught.value
    assert (error.notation, error.text, error.start, error.end) == ("Betza", text, start, end), str(error)
    assert reason in error.reason
    assert str(error).startswith(f"invalid Betza {text!r}")


def test_initial_moves_need_their_squares() -> None:
    with pytest.raises(NotationError, match=r"needs the squares") as caught:
        parse("fmWifmnD")
    assert (caught.value.start, caught.value.end) == (3, 8)
    assert parse("fmW") == parse("fmW", initial=frozenset())


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="text"):
        parse(b"N")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="initial"):
        parse("N", initial={(0, 1)})  # type: ignore[arg-type]


def test_what_fairy_stockfish_reads_as_nothing_or_nothing_more() -> None:
    # The immobile piece has no moves; 'e' alone is no move; a doubled or ranged atom rides.
    assert parse("") == () and parse("e") == ()
    assert parse("WW") == parse("R") == parse("R0") == parse("RR")
    assert parse("FF") == parse("B") and parse("KK") == parse("Q")
    # A later atom replaces an earlier one of its table in the same direction.
    assert parse("NnN") == parse("nN") and parse("nNWN") == parse("NW") != parse("nNW")


def test_i_moves_are_moves_only() -> None:
    region = frozenset({(0, 1), (1, 1)})
    (step,), (double,) = parse("W", initial=region), parse("iW", initial=region)
    assert step.mode == "both" and step.sources is None
    assert double.mode == "move" and double.sources == region and double.vectors == step.vectors


def test_en_passant_marks_the_capture_only_movements() -> None:
    pawn = parse("mfFcfeWimfnA", initial=frozenset())
    assert [(m.mode, m.en_passant) for m in pawn] == [("move", False), ("capture", True), ("move", False)]
    assert not any(m.en_passant for m in parse("fmWfcF"))
    assert [m.en_passant for m in parse("fmWfceF")] == [False, True]


def test_en_passant_where_fairy_stockfish_takes_it() -> None:
    # Berolina chess (Fairy-Stockfish's built-in): the pawn steps diagonally, captures straight
    # forward, en passant too. After black's diagonal double step e7-c5 over d6, the white pawn
    # on d5 takes on d6: the destination of its movement marked en_passant.
    fen = "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1"
    moves = pyffish.legal_moves("berolina", fen, ["e7c5"])
    assert "d5d6" in moves
    view = View(8, 8, "B", False)
    marked = [m for m in parse("mfFcfeWimfnA", initial=frozenset()) if m.en_passant]
    found = destinations(view, marked, (3, 4))
    assert list(found) == ["d6"]


def test_lame_paths_are_fairy_stockfish_paths() -> None:
    # The janggi elephant (nZ) is blocked on the orthogonal square, then the diagonal one.
    view = View(9, 10, "J", False)
    found = destinations(view, parse("nZ"), (4, 0))
    assert found["g4"] == [{"must": {"e2": "empty", "f3": "empty", "g4": "empty"}},
                           {"must": {"e2": "empty", "f3": "empty", "g4": "enemy"}}]
    assert found["h3"] == [{"must": {"f1": "empty", "g2": "empty", "h3": "empty"}},
                           {"must": {"f1": "empty", "g2": "empty", "h3": "enemy"}}]


def test_grasshopper_lands_right_beyond_its_hurdle() -> None:
    view = View(8, 8, "C", False)
    (grasshopper,) = parse("fgR")
    found = destinations(view, [grasshopper], (0, 0))
    assert found["a4"] == [{"must": {"a2": "empty", "a4": "empty"}, "deny": {"a3": "empty"}},
                           {"must": {"a2": "empty", "a4": "enemy"}, "deny": {"a3": "empty"}}]
    assert "a2" not in found


def test_half_planes_as_fixed_fairy_stockfish() -> None:
    # lh and rh: the four moves toward one side (as Fairy-Stockfish reads them since
    # 2023-09-06, before which its sources swapped two of them; pyffish 0.0.90 has the fix).
    assert set(parse("lhN")[0].vectors) == {(-1, 2), (-2, 1), (-2, -1), (-1, -2)}
    assert set(parse("rhN")[0].vectors) == {(1, 2), (2, 1), (2, -1), (1, -2)}
    assert set(parse("fhN")[0].vectors) == {(-1, 2), (-2, 1), (2, 1), (1, 2)}
    assert set(parse("bhN")[0].vectors) == {(-1, -2), (-2, -1), (2, -1), (1, -2)}


def _random_texts(count: int, seed: str) -> list[str]:
    """Random Betza texts that :func:`parse` accepts: one to three atoms, each after random
    modifiers."""
    rng = random.Random(seed)
    texts: list[str] = []
    while len(texts) < count:
        text = ""
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            text += rng.choice(("", "", "", "m", "c", "mc", "im"))
            text += rng.choice(("", "", "", "", "p", "g", "n", "n"))
            text += "".join(rng.choice("fbvlrsh") for _ in range(rng.choice((0, 0, 1, 1, 2))))
            atom = rng.choice("WFDNAHCLJZGKRBQ")
            text += atom + rng.choice(("", "", "", atom, rng.choice("0123456789")))
        if text in texts:
            continue
        try:
            parse(text, initial=frozenset())
        except NotationError:
            continue
        texts.append(text)
    return texts


@pytest.mark.parametrize("text", _random_texts(20, f"{SEED} texts"))
def test_random_texts_equal_fairy_stockfish(text: str) -> None:
    rng = random.Random(f"{SEED} {text}")
    for _ in range(POSITIONS):
        _compare(text, *BOARD, rng)


@pytest.mark.full
@pytest.mark.parametrize("text", _random_texts(400, f"{SEED} full texts"))
def test_random_texts_equal_fairy_stockfish_more(text: str) -> None:
    rng = random.Random(f"{SEED} full {text}")
    for files, ranks in FULL_BOARDS:
        for _ in range(POSITIONS):
            _compare(text, files, ranks, rng)


@pytest.mark.parametrize("text", ["pR", "gQ", "mRcpR", "pB2", "gR2", "nZ", "nN", "Q", "NN", "KAD", "fRbpR"])
def test_holes_as_fairy_stockfish_walls(text: str) -> None:
    # Holes stop riders and lame leapers and are never reached; hoppers hop over them.
    rng = random.Random(f"{SEED} holes {text}")
    for _ in range(2 * POSITIONS):
        _compare(text, *BOARD, rng, holes=True)


def test_a_hopper_hops_over_a_hole() -> None:
    view = View(1, 5, "C", False, holes=frozenset({(0, 1)}))
    assert destinations(view, parse("R"), (0, 0)) == {}
    landing = [{"must": {"a3": "empty"}}, {"must": {"a3": "enemy"}}]
    assert destinations(view, parse("gR"), (0, 0)) == {"a3": landing}
    cannon = destinations(view, parse("pR"), (0, 0))
    assert cannon["a4"] == [{"must": {"a3": "empty", "a4": "empty"}},
                            {"must": {"a3": "empty", "a4": "enemy"}}]
    assert list(cannon) == ["a3", "a4", "a5"]
