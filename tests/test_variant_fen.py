"""Fairy-Stockfish's FEN of a variant, read into FEEN and written back (ggn.variants.fen),
checked against pyffish: every position of seeded random games (pyffish choosing the moves)
goes FEN -> FEEN -> FEN and comes back as pyffish wrote it, move counters aside.

By default a seeded subset of the games runs; ``pytest -m full`` runs more.
"""

from __future__ import annotations

import random
import re

import pytest

from fsf_fen_variants import VARIANTS
from ggn.errors import GGNError, NotationError
from ggn.feen import Feen
from ggn.game import Game
from ggn.position import Position
from ggn.variants import registry
from ggn.variants.description import Castling, Drops, PieceType, Promotion, Variant
from ggn.variants.fen import from_feen, is_feen, style, to_feen

pytest.importorskip("pyffish")
import pyffish

SEED = 20261123
CHESS = VARIANTS["chess"]


def _fields(fen: str) -> list[str]:
    """A FEN's fields but the two move counters."""
    return fen.split(" ")[:-2]


def _games(name: str, start: str, games: int, plies: int, seed: int, is960: bool = False) -> list[str]:
    """The FENs pyffish writes along seeded random games of ``name`` from ``start``."""
    rng = random.Random(f"{seed}:{name}:{start}")
    fens: list[str] = []
    for _ in range(games):
        fen = pyffish.get_fen(name, start, [], is960)
        for _ in range(rng.randrange(1, plies)):
            fens.append(fen)
            legal = pyffish.legal_moves(name, fen, [], is960)
            if not legal:
                break
            # One move at a time from the last FEN: pyffish replays a move list from its start.
            fen = pyffish.get_fen(name, fen, [rng.choice(sorted(legal))], is960)
    return fens


def _round_trip(variant: Variant, fens: list[str]) -> None:
    for fen in fens:
        if variant.history.check_counting:
            # The checks left are the game's (FEEN stands for the start's): its FEN goes
            # through the game.
            assert Game(registry.entry(variant.name).rules, fen=fen).fen() == fen
            continue
        feen = to_feen(variant, fen)
        halfmove, fullmove = (int(number) for number in fen.split(" ")[-2:])
        back = from_feen(variant, feen, halfmove=halfmove, fullmove=fullmove)
        assert back == fen, (fen, feen)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_start_position_as_pyffish_writes_it(name: str) -> None:
    variant = VARIANTS[name]
    start = pyffish.start_fen(name)
    assert _fields(from_feen(variant, to_feen(variant, start))) == _fields(pyffish.get_fen(name, start, []))


@pytest.mark.parametrize("name", ["crazyhouse", "placement", "shogi", "xiangqi", "omicron", "grand",
                                  "makruk"])
def test_random_games_round_trip(name: str) -> None:
    _round_trip(VARIANTS[name], _games(name, pyffish.start_fen(name), 2, 40, SEED))


@pytest.mark.full
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_random_games_round_trip_full(name: str) -> None:
    _round_trip(VARIANTS[name], _games(name, pyffish.start_fen(name), 40, 200, SEED + 1))


def _start960(rng: random.Random, pieces: str) -> str:
    files = len(pieces)
    while True:
        row = list(pieces)
        rng.shuffle(row)
        rooks = [file for file, letter in enumerate(row) if letter == "r"]
        if rooks[0] < row.index("k") < rooks[1]:
            break
    rights = f"{chr(65 + rooks[1])}{chr(65 + rooks[0])}{chr(97 + rooks[1])}{chr(97 + rooks[0])}"
    empty = "/".join([str(files)] * 4)
    return f"{''.join(row)}/{'p' * files}/{empty}/{'P' * files}/{''.join(row).upper()} w {rights} - 0 1"


@pytest.mark.parametrize(("name", "pieces"), [("fischerandom", "rnbqkbnr"), ("caparandom", "rnabqkbcnr")])
def test_chess960_games_round_trip(name: str, pieces: str) -> None:
    rng = random.Random(f"{SEED}:{name}")
    for _ in range(2):
        start = _start960(rng, pieces)
        _round_trip(VARIANTS[name], _games(name, start, 1, 60, SEED, is960=True))


# --- what the marks are ---------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "fen", "feen"), [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"),
    # An X-FEN file letter names the rook: here the h-file rook only.
    ("chess", "4k3/8/8/8/8/8/8/R3K2R w H - 0 1", "4k^3/8/8/8/8/8/8/R3+K^2+R / C/c"),
    ("chess", "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1", "4k^3/8/8/8/4-Pp2/8/8/4K^3 / c/C"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/Q~3K3[QPPnp] b - - 0 1", "4k^3/8/8/8/8/8/8/-Q3K^3 2PQ/np c/C"),
    # Lichess's crazyhouse FEN: the hands as one more rank.
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3/Pp w - - 0 1", "4k^3/8/8/8/8/8/8/4K^3 P/p C/c"),
    ("loop", "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", "4k^3/8/8/8/8/8/8/Q3K^3 / L/l"),
    ("shogi", "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/7R1/LN1GKGSNL[Bb] w - - 0 1",
     "lnsgk^2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/7R1/LN1GK^GSNL B/b S/s"),
    ("shogi", "4k4/9/9/9/4+p4/9/9/9/4K4[-] b 0 1", "4k^4/9/9/9/4+p4/9/9/9/4K^4 / s/S"),
    ("xiangqi", "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
     "rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x"),
    ("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
     "r8r/1nbqk^cabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQK^CABN1/R8R / G/g"),
    ("gustav3", "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1",
     "a+rnbq+k^bn+ra/1pppppppp1/10/10/10/10/1PPPPPPPP1/A+RNBQ+K^BN+RA / G/g"),
    # Fairy-Stockfish's counting limit stands where the en passant square would.
    ("makruk", "4k3/8/8/8/8/8/8/R3K3 b - 44 3 50", "4k^3/8/8/8/8/8/8/R3K^3 / m/M"),
    # As Fairy-Stockfish reads them: castling rights where the game has no castling are
    # ignored, and the placement alone is a position with white to move.
    ("xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 w KQkq - 0 1", "4g^4/9/9/9/9/9/9/9/9/4G^4 / X/x"),
    ("chess", "4k3/8/8/8/8/8/8/4K3", "4k^3/8/8/8/8/8/8/4K^3 / C/c"),
])
def test_marks(name: str, fen: str, feen: str) -> None:
    assert to_feen(VARIANTS[name], fen) == feen


def test_a_synonym_reads_as_its_type_and_is_never_written() -> None:
    variant = Variant("synonyms", 3, 2, (PieceType("n", (), pin="H", synonym="h"), PieceType("k", ())),
                      "k1K/3[] w - - 0 1", drops=Drops())
    assert to_feen(variant, "khK/3[HNh] w - - 0 1") == "k^hK^/3 2H/h S/s"
    assert from_feen(variant, "k^hK^/3 2H/h S/s") == "knK/3[NNn] w - - 0 1"


def test_hands_are_written_in_fairy_stockfishs_order_of_the_types_names() -> None:
    # Its enum, written from the last back: custom pieces (a type of no name it knows is one),
    # bers (also called dragon), silver (khon), fers, pawn; not the order of the pieces.
    pieces = (PieceType("x", ()), *(PieceType(letter, (), name=name) for letter, name in
                                    (("s", "khon"), ("d", "dragon"), ("f", "fers"), ("p", "pawn"))),
              PieceType("k", (), name="king"))
    variant = Variant("names", 5, 2, pieces, "k3K/5[] w - - 0 1", drops=Drops())
    assert from_feen(variant, to_feen(variant, "k3K/5[PSFDX] w - - 0 1")) == "k3K/5[XDSFP] w - - 0 1"


def test_from_feen_takes_a_feen_a_position_and_the_counters() -> None:
    feen = "4k^3/8/8/8/4-Pp2/8/8/4K^3 / c/C"
    fen = "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 7 31"
    for value in (feen, Feen.parse(feen), Position.from_feen(feen)):
        assert from_feen(CHESS, value, halfmove=7, fullmove=31) == fen


def test_en_passant_written_only_where_a_pawn_could_take() -> None:
    # Fairy-Stockfish writes the square after a double step only when a pawn stands beside.
    assert from_feen(CHESS, "4k^3/8/8/8/4-P3/8/8/4K^3 / c/C") == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"
    horde = VARIANTS["horde"]
    # Horde's white pawns double-step from the first rank too, but no one takes on the second.
    assert from_feen(horde, "4k^3/8/8/8/8/8/-P7/1p6 / h/H") == "4k3/8/8/8/8/8/P7/1p6 b - - 0 1"


def test_chess960_castling_names_the_rooks_files() -> None:
    variant = VARIANTS["fischerandom"]
    fen = "1rkr4/8/8/8/8/8/8/1RKR4 w DBdb - 0 1"
    feen = to_feen(variant, fen)
    assert feen == "1+r+k^+r4/8/8/8/8/8/8/1+R+K^+R4 / F/f"
    assert from_feen(variant, feen) == fen


def test_style() -> None:
    assert style(CHESS) == "C"
    assert style(Variant("5check", 8, 8, (), "8/8/8/8/8/8/8/8 w - - 0 1", style="T")) == "T"
    assert style(Variant("", 8, 8, (), "8/8/8/8/8/8/8/8 w - - 0 1")) == "V"


@pytest.mark.parametrize(("text", "expected"), [
    ("4k^3/8/8/8/8/8/8/4K^3 / C/c", True),
    ("8/8/8/8/8/8/8/8 P/p s/S", True),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", False),
    ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1", False),
    ("8/8 w -", False),
    ("8/8 / C/c ", False),
    (None, False),
])
def test_is_feen(text: object, expected: bool) -> None:
    assert is_feen(text) is expected


# --- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "fen", "reason", "span"), [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "expected 8 ranks separated by '/', got 7",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
     "rank 1 'RNBQKBN' covers 7 squares, not 8", "RNBQKBN"),
    ("chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "rank 6 '9': '9' is not a count of empty squares from 1 to 8", "9"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
     "rank 1 'RNBQKBNX': 'X' is not a piece letter of chess", "X"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
     "the side to move is 'w' or 'b', not 'x'", "x"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w Q - 0 1",
     "castling right 'Q' needs a castling rook on the queen's side of rank 1", "Q"),
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w X - 0 1",
     "'X' is not a castling right of chess: 'K', 'Q' or a file letter, uppercase for white", "X"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
     "en passant square e6 needs the piece that has just made its double step beyond it", "e6"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
     "the en passant field is '-' or squares of the board, not 'z9'", "z9"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 00 1",
     "a move counter is a number without leading zeros, not '00'", "00"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 1", "unexpected field after the two move counters", "1"),
    ("chess", "4k3/8/8/8/8/8/8/4K2R w K", "expected the en passant field after the castling rights", ""),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", "chess does not count checks ('3+3')", "3+3"),
    ("chess", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "chess has no pieces in hand", "P"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[P w - - 0 1",
     "the pieces in hand are written in brackets at the end of the placement: '[...]'", "[P"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Px] w - - 0 1", "'x' is not a piece letter of crazyhouse", "x"),
    ("chess", "4k3/8/8/8/8/8/8/+R3K3 w - - 0 1", "rank 1 '+R3K3': 'R' has no promoted form '+'", "+R"),
    ("shogi", "4k4/9/9/9/4+p~4/9/9/9/4K4[] w - - 0 1",
     "rank 5 '4+p~4': a piece is written '+x' or 'x~', not both", "+p~"),
    ("gustav3", "arnbqkbnra/1pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1",
     "rank 7 '1pppppppp*': a7 is a hole of gustav3's board, written '*'", "1"),
    ("gustav3", "arnbqkbnra/*pppppppp*/*8*/*8*/*7**/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1",
     "rank 4 '*7**': '*' on i4, which is not a hole of gustav3's board", "*"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ? - 0 1",
     "'?' is not a castling right: 'K', 'Q' or a file letter, uppercase for white", "?"),
    ("crazyhouse", "qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq[QQ] w - - 0 1",
     "66 pieces outnumber the 64 squares of a board of shape (8, 8)",
     "qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq[QQ]"),
])
def test_errors_point_at_the_field(name: str, fen: str, reason: str, span: str) -> None:
    with pytest.raises(NotationError) as caught:
        to_feen(VARIANTS[name], fen)
    error = caught.value
    assert (error.notation, error.text, error.reason) == ("FEN", fen, reason)
    assert fen[error.start:error.end] == span
    if span:
        # The span is the one occurrence the message is about (the last one, when it repeats).
        assert error.start in [match.start() for match in re.finditer(re.escape(span), fen)]


@pytest.mark.parametrize(("name", "feen", "reason"), [
    ("chess", "4k^3/8/8/8/8/8/4K^3 / C/c", "the board of chess is 8x8, not 8x7"),
    ("chess", "4k^3/8/8/8/8/8/8/4K^3 / X/x", "the styles of chess are C/c, not X/x"),
    ("chess", "4k^3/8/8/8/8/8/8/4K^2X / C/c", "'C:X' on h1 is no piece of chess"),
    ("chess", "4k^3/8/8/8/8/8/8/4K3 / C/c",
     "'C:K' on e1: in chess the royal piece, and only it, is marked '^'"),
    ("chess", "4k^3/8/8/8/8/8/8/4K^2+N / C/c", "'C:+N' on h1: chess gives '+' no meaning on this piece"),
    ("chess", "4k^3/8/8/8/8/8/8/4K^2-N / C/c", "'C:-N' on h1: chess gives '-' no meaning on this piece"),
    ("chess", "4k^3/8/8/8/8/8/8/4K^2+R / C/c", "castling rooks on rank 1 have rights ('+') but no king has"),
    ("chess", "4k^3/8/8/8/8/8/+R7/4K^3 / C/c", "a castling right ('+') on a2, off the castling rank 1"),
    ("chess", "4k^3/8/8/8/4-P3/8/8/4K^3 / C/c",
     "e4: only the side that has just moved has a piece marked '-' for its double step"),
    ("crazyhouse", "4k^3/8/8/8/8/8/8/4K^3 p/ C/c",
     "'c:p' in the first player's hand: in crazyhouse a hand holds its player's own plain pieces"),
    ("gustav3", "4k^5/10/10/10/10/10/R9/4K^5 / G/g", "a2 is a hole of gustav3's board, yet holds C:R"),
])
def test_feen_errors(name: str, feen: str, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        from_feen(VARIANTS[name], feen)
    assert (caught.value.notation, caught.value.text) == ("FEEN", feen)
    assert caught.value.reason == reason.replace("C:R", "G:R")


def test_wrong_types() -> None:
    with pytest.raises(TypeError, match="fen must be a str"):
        to_feen(CHESS, b"8/8 w")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="variant must be a Variant"):
        to_feen("chess", "8/8 w")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="feen_or_position must be"):
        from_feen(CHESS, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="halfmove must be an int"):
        from_feen(CHESS, "8/8/8/8/8/8/8/8 / C/c", halfmove=True)
    with pytest.raises(GGNError, match="fullmove number is 1 or more"):
        from_feen(CHESS, "8/8/8/8/8/8/8/8 / C/c", fullmove=0)


def test_a_description_that_needs_plus_twice_is_refused() -> None:
    variant = Variant("odd", 8, 8, (PieceType("r", ()), PieceType("k", ())), "8/8/8/8/8/8/8/8 w - - 0 1",
                      castling=Castling(), promotion=None)
    assert to_feen(variant, "8/8/8/8/8/8/8/8 w - - 0 1") == "8/8/8/8/8/8/8/8 / O/o"
    promotion = Promotion((frozenset(), frozenset()), promoted=(("r", "k"),))
    twice = Variant("twice", 8, 8, (PieceType("r", ()), PieceType("k", ())), "8/8/8/8/8/8/8/8 w - - 0 1",
                    castling=Castling(), promotion=promotion)
    with pytest.raises(GGNError, match="would need '\\+' both for castling and for its promoted form"):
        to_feen(twice, "8/8/8/8/8/8/8/8 w - - 0 1")


# --- every built-in variant ---------------------------------------------------------------------
BUILTINS = sorted(name for name in registry.names() if name in pyffish.variants())


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_variants_round_trip(name: str) -> None:
    variant = registry.variant(name)
    assert _fields(from_feen(variant, to_feen(variant, variant.start))) == \
        _fields(pyffish.get_fen(name, pyffish.start_fen(name), []))
    _round_trip(variant, _games(name, pyffish.start_fen(name), 1, 24, SEED))


@pytest.mark.full
@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_variants_round_trip_full(name: str) -> None:
    _round_trip(registry.variant(name), _games(name, pyffish.start_fen(name), 20, 200, SEED + 2))


def test_berolina_marks_the_diagonal_of_its_double_step() -> None:
    # '-' on the pawn: the square it passed over is on an earlier file; '+': a later one.
    berolina = registry.variant("berolina")
    for fen, feen in (("4k3/8/8/8/3pPp2/8/6P1/4K3 b - d3e4 0 1", "4k^3/8/8/8/3p-Pp2/8/6P1/4K^3 / b/B"),
                      ("4k3/8/8/8/3pPp2/8/2P5/4K3 b - f3e4 0 1", "4k^3/8/8/8/3p+Pp2/8/2P5/4K^3 / b/B"),
                      ("4k3/6p1/8/3PpP2/8/8/8/4K3 w - e5d6 0 2", "4k^3/6p1/8/3P-pP2/8/8/8/4K^3 / B/b"),
                      ("4k3/2p5/8/3PpP2/8/8/8/4K3 w - e5f6 0 2", "4k^3/2p5/8/3P+pP2/8/8/8/4K^3 / B/b")):
        assert to_feen(berolina, fen) == feen
        assert from_feen(berolina, feen, fullmove=int(fen[-1])) == fen
    with pytest.raises(NotationError, match="passed over on both sides"):
        to_feen(berolina, "4k3/8/8/8/3pPp2/8/8/4K3 b - d3e4f3 0 1")
