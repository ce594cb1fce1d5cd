"""Fairy-Stockfish variants written as :class:`~ggn.variants.description.Variant` records, by
hand, for the tests of the generic rule system (tests/test_variant_rules.py).

Each record follows Fairy-Stockfish's own definition (its ``src/variant.cpp``): the pieces are
its predefined types with their Betza (:data:`ggn.variants.betza.PREDEFINED`), the options its
C++ sets. Nothing here is read from ``variants.ini`` text, so these tests do not depend on the
ini reader; pyffish plays the same variants by their names.
"""

from __future__ import annotations

from dataclasses import replace

from ggn.variants.betza import PREDEFINED, parse
from ggn.variants.description import (
    Castling,
    DoubleStep,
    Drops,
    Ends,
    PieceType,
    Promotion,
    Region,
    Variant,
)
from ggn.variants.pieces import Movement

__all__ = ["PYFFISH_CONFIG", "RECORDS"]

_CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def ranks(files: int, *numbers: int) -> Region:
    """Every square of the given ranks (one-based) of a board ``files`` wide."""
    return frozenset((file, number - 1) for file in range(files) for number in numbers)


def squares(*names: str) -> Region:
    return frozenset((ord(name[0]) - ord("a"), int(name[1:]) - 1) for name in names)


def piece(letter: str, name: str, betza: str | None = None, **options: object) -> PieceType:
    """A piece type of Fairy-Stockfish's ``name`` (its Betza, or ``betza`` for a custom one)."""
    text = PREDEFINED[name] if betza is None else betza
    return PieceType(letter, parse(text), betza=text, name=name, **options)  # type: ignore[arg-type]


def _chess_pieces(*extra: PieceType, king: str = "K") -> tuple[PieceType, ...]:
    return (piece("k", "king", king), piece("q", "queen"), piece("r", "rook"), piece("b", "bishop"),
            piece("n", "knight"), piece("p", "pawn"), *extra)


def chess_like(name: str, files: int = 8, ranks_: int = 8, *, pieces: tuple[PieceType, ...] | None = None,
               start: str = _CHESS_START, choices: str = "qrbn", **options: object) -> Variant:
    """Fairy-Stockfish's chess template on a board ``files`` x ``ranks_``: promotion on the
    last rank, double steps from the second, castling as in chess."""
    promotion = Promotion((ranks(files, ranks_), ranks(files, 1)), choices=(tuple(choices), tuple(choices)))
    double = DoubleStep((ranks(files, 2), ranks(files, ranks_ - 1)))
    made: dict[str, object] = {"promotion": promotion, "castling": Castling(), "double_step": double}
    made.update(options)
    return Variant(name, files, ranks_, pieces if pieces is not None else _chess_pieces(), start,
                   **made)  # type: ignore[arg-type]


def _soldier(files: int, ranks_: int, from_rank: int) -> tuple[Movement, ...]:
    """Fairy-Stockfish's soldier: a step forward; a step sideways from ``from_rank`` on."""
    beyond = frozenset((f, r) for f in range(files) for r in range(from_rank - 1, ranks_))
    return parse("fW") + tuple(replace(movement, sources=beyond) for movement in parse("sW"))


_SHOGI_PIECES = (
    piece("k", "king"), piece("r", "rook"), piece("b", "bishop"), piece("g", "gold"), piece("s", "silver"),
    piece("n", "shogiKnight"), piece("l", "lance"), piece("p", "shogiPawn"), piece("h", "dragonHorse"),
    piece("d", "bers"),
)
_SHOGI_PROMOTED = (("p", "g"), ("l", "g"), ("n", "g"), ("s", "g"), ("b", "h"), ("r", "d"))
_NO_PAWNS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def _shogi(name: str, size: int, pieces: tuple[PieceType, ...], start: str, zone: int) -> Variant:
    promoted = tuple((base, to) for base, to in _SHOGI_PROMOTED if base in {p.letter for p in pieces})
    return Variant(
        name, size, size, pieces, start,
        promotion=Promotion(
            (ranks(size, *range(size - zone + 1, size + 1)), ranks(size, *range(1, zone + 1))),
            pawn_types=_NO_PAWNS, choices=((), ()), promoted=promoted),
        drops=Drops(captures_to_hand=True, no_doubled="p", pawn_drop_mate_illegal=True),
        ends=Ends(stalemate="loss"), immobility_illegal=True,
    )


_PALACE_FIRST = squares("d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3")
_XIANGQI = Variant(
    "xiangqi", 9, 10,
    (piece("k", "king", "W", pin="G", stands=_PALACE_FIRST), piece("a", "fers", stands=_PALACE_FIRST),
     piece("b", "elephant", pin="E", synonym="e", stands=ranks(9, 1, 2, 3, 4, 5)),
     piece("n", "horse", pin="H", synonym="h"), piece("r", "rook"), piece("c", "cannon"),
     PieceType("p", _soldier(9, 10, 6), name="soldier")),
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ends=Ends(stalemate="loss"), flying_general=True,
)
_MINI_PALACE = squares("c1", "d1", "e1", "c2", "d2", "e2", "c3", "d3", "e3")
_MINIXIANGQI = Variant(
    "minixiangqi", 7, 7,
    (piece("k", "king", "W", stands=_MINI_PALACE), piece("r", "rook"), piece("n", "horse", synonym="h"),
     piece("c", "cannon"), PieceType("p", _soldier(7, 7, 1), name="soldier")),
    "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1",
    ends=Ends(stalemate="loss"), flying_general=True,
)

def _custom(letter: str, number: int, betza: str) -> PieceType:
    return piece(letter, f"customPiece{number}", betza)


_TORI = (
    piece("k", "king"), piece("s", "shogiPawn"), _custom("f", 1, "FsfW"), _custom("c", 2, "FvW"),
    _custom("l", 3, "fRrbBlbF"), _custom("r", 4, "fRlbBrbF"), _custom("p", 5, "bFfD"),
    _custom("g", 6, "fAbD"), _custom("e", 7, "KbRfBbF2"),
)
_TORISHOGI = Variant(
    "torishogi", 7, 7, _TORI, "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1",
    promotion=Promotion((ranks(7, 6, 7), ranks(7, 1, 2)), pawn_types=_NO_PAWNS, choices=((), ()),
                        promoted=(("s", "g"), ("f", "e")), mandatory_piece=True),
    drops=Drops(captures_to_hand=True, no_doubled="s", no_doubled_count=2, pawn_drop_mate_illegal=True),
    ends=Ends(stalemate="loss"), immobility_illegal=True,
)
_EURO = (*_SHOGI_PIECES[:5], piece("p", "shogiPawn"), piece("h", "dragonHorse"), piece("d", "bers"),
         _custom("n", 1, "fNsW"))
_EUROSHOGI = _shogi("euroshogi", 8, _EURO, "1nbgkgn1/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/1NGKGBN1[-] w 0 1", 3)
assert _EUROSHOGI.promotion is not None
_EUROSHOGI = replace(_EUROSHOGI, promotion=replace(_EUROSHOGI.promotion, mandatory_piece=True))
_SHO = (piece("k", "commoner"), *_SHOGI_PIECES[1:], _custom("e", 1, "FsfW"))
_SHOSHOGI = Variant(
    "shoshogi", 9, 9, _SHO, "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1", king=None,
    promotion=Promotion((ranks(9, 7, 8, 9), ranks(9, 1, 2, 3)), pawn_types=_NO_PAWNS, choices=((), ()),
                        promoted=(*_SHOGI_PROMOTED, ("e", "k"))),
    ends=Ends(stalemate="loss", extinction="loss", extinction_types=frozenset("k"),
              extinction_pseudo_royal=True),
    immobility_illegal=True,
)
_COMMONERS = (piece("k", "commoner"), piece("q", "queen"), piece("r", "rook"), piece("b", "bishop"),
              piece("n", "knight"), piece("p", "pawn"))

_GRAND_CHOICES = "acqrbn"
RECORDS: dict[str, Variant] = {
    "chess": chess_like("chess"),
    "fischerandom": chess_like("fischerandom", chess960=True),
    "capablanca": chess_like(
        "capablanca", 10, 8, pieces=_chess_pieces(piece("a", "archbishop"), piece("c", "chancellor")),
        start="rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", choices="acqrbn",
        castling=Castling(king_file=5, kingside_file=8, queenside_file=2)),
    "crazyhouse": chess_like("crazyhouse", start=_CHESS_START.replace(" w", "[] w"),
                             drops=Drops(captures_to_hand=True)),
    "loop": chess_like("loop", start=_CHESS_START.replace(" w", "[] w"),
                       drops=Drops(captures_to_hand=True, loop=True)),
    "chessgi": chess_like("chessgi", start=_CHESS_START.replace(" w", "[] w"),
                          drops=Drops(captures_to_hand=True, loop=True, first_rank_pawn_drops=True)),
    "kingofthehill": chess_like("kingofthehill", ends=Ends(
        flag_pieces=frozenset("k"), flag_regions=(squares("d4", "e4", "d5", "e5"),) * 2)),
    "racingkings": chess_like(
        "racingkings", start="8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", castling=None, checking=False,
        ends=Ends(flag_pieces=frozenset("k"), flag_regions=(ranks(8, 8),) * 2, flag_move=True)),
    "knightmate": chess_like(
        "knightmate", pieces=(piece("k", "king", "N"), piece("q", "queen"), piece("r", "rook"),
                              piece("b", "bishop"), piece("m", "commoner"), piece("p", "pawn")),
        start="rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", choices="mqrb"),
    "horde": chess_like(
        "horde", start="rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        double_step=DoubleStep((ranks(8, 1, 2), ranks(8, 7)), passant_regions=(ranks(8, 6), ranks(8, 3))),
        ends=Ends(extinction="loss", extinction_types=frozenset("*"))),
    "grand": chess_like(
        "grand", 10, 10, pieces=_chess_pieces(piece("a", "archbishop"), piece("c", "chancellor")),
        start="r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1", castling=None,
        promotion=Promotion((ranks(10, 8, 9, 10), ranks(10, 1, 2, 3)), choices=(tuple(_GRAND_CHOICES),) * 2,
                            mandatory_pawn=False,
                            limits=(("a", 1), ("c", 1), ("q", 1), ("r", 2), ("b", 2), ("n", 2))),
        double_step=DoubleStep((ranks(10, 3), ranks(10, 8))), immobility_illegal=True),
    "makruk": Variant(
        "makruk", 8, 8,
        (piece("k", "king"), piece("m", "fers"), piece("s", "silver"), piece("n", "knight"),
         piece("r", "rook"), piece("p", "pawn")),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        promotion=Promotion((ranks(8, 6, 7, 8), ranks(8, 3, 2, 1)), choices=(("m",), ("m",)))),
    "shatranj": Variant(
        "shatranj", 8, 8,
        (piece("k", "king"), piece("q", "fers"), piece("r", "rook"), piece("b", "alfil"),
         piece("n", "knight"), piece("p", "pawn")),
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
        promotion=Promotion((ranks(8, 8), ranks(8, 1)), choices=(("q",), ("q",))),
        ends=Ends(stalemate="loss", extinction="loss", extinction_types=frozenset("*"), extinction_count=1,
                  extinction_opponent_count=2, extinction_claim=True)),
    "shogi": _shogi("shogi", 9, _SHOGI_PIECES,
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1", 3),
    "minishogi": _shogi("minishogi", 5, tuple(p for p in _SHOGI_PIECES if p.letter not in "nl"),
                        "rbsgk/4p/5/P4/KGSBR[-] w 0 1", 1),
    "torishogi": _TORISHOGI,
    "euroshogi": _EUROSHOGI,
    "shoshogi": _SHOSHOGI,
    "judkins": _shogi("judkins", 6, tuple(p for p in _SHOGI_PIECES if p.letter != "l"),
                           "rbnsgk/5p/6/6/P5/KGSNBR[-] w 0 1", 2),
    "extinction": chess_like(
        "extinction", pieces=_COMMONERS, king=None, choices="kqrbn",
        ends=Ends(extinction="loss", extinction_types=frozenset("kqrbnp"))),
    "threekings": chess_like(
        "threekings", pieces=_COMMONERS, king=None,
        start="knbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/KNBQKBNK w - - 0 1",
        ends=Ends(extinction="loss", extinction_types=frozenset("k"), extinction_count=2)),
    "pocketknight": chess_like(
        "pocketknight", start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1", drops=Drops()),
    "losalamos": chess_like(
        "losalamos", 6, 6, pieces=tuple(p for p in _chess_pieces() if p.letter != "b"), castling=None,
        start="rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", choices="qrn", double_step=None),
    "gardner": chess_like("gardner", 5, 5, start="rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1", castling=None,
                          double_step=None),
    "xiangqi": _XIANGQI,
    "minixiangqi": _MINIXIANGQI,
}
"""The variants, by Fairy-Stockfish's names."""

# Variants of our own, for options no built-in of pyffish plays alone: written here both ways,
# in Fairy-Stockfish's ini syntax for pyffish (``pyffish.load_variant_config``) and as records.
PYFFISH_CONFIG = """
[ggn-capture-promotion:minishogi]
piecePromotionOnCapture = true
pieceDemotion = true

[ggn-mandatory-promotion:minishogi]
mandatoryPiecePromotion = true
pieceDemotion = true
"""
_MINI = RECORDS["minishogi"]
assert _MINI.promotion is not None
RECORDS["ggn-capture-promotion"] = replace(
    _MINI, name="ggn-capture-promotion", style="M",
    promotion=replace(_MINI.promotion, on_capture=True, demotion=True))
RECORDS["ggn-mandatory-promotion"] = replace(
    _MINI, name="ggn-mandatory-promotion", style="M",
    promotion=replace(_MINI.promotion, mandatory_piece=True, demotion=True))
