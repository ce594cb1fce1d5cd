"""Descriptions of Fairy-Stockfish variants as far as their FEN goes, for the FEN and UCI tests.

Each :class:`~ggn.variants.description.Variant` here holds only what the FEN and UCI modules
read: the board, the piece letters (with Fairy-Stockfish's piece names, which order the
hands), the royal piece, castling, double steps, drops, promotions and holes. (The built-in
descriptions, ``ggn.variants.registry``, are checked the same way in test_variant_fen.py.)
The pieces do not move (the rule systems under test come from elsewhere). The facts are
Fairy-Stockfish's (``src/variant.cpp``); the start positions are its FEN.
"""

from __future__ import annotations

from ggn.variants.description import Castling, DoubleStep, Drops, PieceType, Promotion, Region, Variant

_NAMES = {
    "p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king",
    "a": "archbishop", "c": "chancellor",
}


def _rank(files: int, *ranks: int) -> Region:
    return frozenset((file, rank) for file in range(files) for rank in ranks)


def _pieces(letters: str, **names: str) -> tuple[PieceType, ...]:
    return tuple(PieceType(letter, (), name=names.get(letter, _NAMES.get(letter))) for letter in letters)


def _holes(start: str) -> Region:
    """The squares a start FEN writes ``*`` (a test's own reading, to describe the boards)."""
    holes: set[tuple[int, int]] = set()
    rows = start.split(" ", maxsplit=1)[0].split("/")
    for number, row in enumerate(rows):
        rank, file, digits = len(rows) - 1 - number, 0, ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            file += int(digits or 0)
            digits = ""
            if ch == "*":
                holes.add((file, rank))
            if ch != " ":
                file += 1
    return frozenset(holes)


def _chess_like(name: str, files: int, ranks: int, letters: str, start: str, **options: object) -> Variant:
    double = options.pop("double_step", DoubleStep((_rank(files, 1), _rank(files, ranks - 2))))
    return Variant(name, files, ranks, _pieces(letters), start, double_step=double,  # type: ignore[arg-type]
                   **options)  # type: ignore[arg-type]


_CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_CAPA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
_CAPA_CASTLING = Castling(king_file=5, kingside_file=8, queenside_file=2)
_OMICRON = ("w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/"
            "W**********W w KQkq - 0 1")
_GUSTAV3 = "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1"
_TROITZKY = "****qk****/**rnbbnr**/*pppppppp*/*8*/10/10/*8*/*PPPPPPPP*/**RNBBNR**/****QK**** w - - 0 1"
_SHOGI = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"
_SHOGI_NAMES = {"p": "shogiPawn", "l": "lance", "n": "shogiKnight", "s": "silver", "g": "gold", "b": "bishop",
                "r": "rook", "k": "king"}
_SHOGI_PROMOTED = (("p", "g"), ("l", "g"), ("n", "g"), ("s", "g"), ("b", "h"), ("r", "d"))
_NO_ZONE: tuple[Region, Region] = (frozenset(), frozenset())
_PAWNS = Promotion((_rank(8, 7), _rank(8, 0)))  # chess's: a pawn on the last rank, to q, r, b or n

VARIANTS: dict[str, Variant] = {
    "chess": _chess_like("chess", 8, 8, "pnbrqk", _CHESS, castling=Castling()),
    "fischerandom": _chess_like("fischerandom", 8, 8, "pnbrqk", _CHESS, castling=Castling(), chess960=True),
    "crazyhouse": _chess_like("crazyhouse", 8, 8, "pnbrqk", _CHESS.replace(" w", "[] w"), castling=Castling(),
                              drops=Drops(captures_to_hand=True), promotion=_PAWNS),
    "loop": _chess_like("loop", 8, 8, "pnbrqk", _CHESS.replace(" w", "[] w"), castling=Castling(),
                        drops=Drops(captures_to_hand=True, loop=True), promotion=_PAWNS),
    "placement": _chess_like("placement", 8, 8, "pnbrqk",
                             "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
                             castling=Castling(), drops=Drops()),
    "horde": _chess_like(
        "horde", 8, 8, "pnbrqk", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        castling=Castling(), double_step=DoubleStep((_rank(8, 0, 1), _rank(8, 6)),
                                                    passant_regions=(_rank(8, 5), _rank(8, 2)))),
    "knightmate": Variant("knightmate", 8, 8, _pieces("pmbrqk", m="commoner"),
                          "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", castling=Castling(),
                          double_step=DoubleStep((_rank(8, 1), _rank(8, 6)))),
    "capablanca": _chess_like("capablanca", 10, 8, "pnbrqkac", _CAPA, castling=_CAPA_CASTLING),
    "caparandom": _chess_like("caparandom", 10, 8, "pnbrqkac", _CAPA, castling=_CAPA_CASTLING, chess960=True),
    "gothic": _chess_like("gothic", 10, 8, "pnbrqkac",
                          "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
                          castling=_CAPA_CASTLING),
    "shako": Variant(
        "shako", 10, 10, _pieces("pnbrqkec", e="fersAlfil", c="cannon"),
        "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",
        castling=Castling(rank=1, king_file=5, kingside_file=7, queenside_file=3, rook_files=(8, 1)),
        double_step=DoubleStep((_rank(10, 2), _rank(10, 7)))),
    "grand": _chess_like("grand", 10, 10, "pnbrqkac",
                         "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
                         double_step=DoubleStep((_rank(10, 2), _rank(10, 7)))),
    "omicron": Variant(
        "omicron", 12, 10, _pieces("pnbrqkcw", c="customPiece1", w="customPiece2"), _OMICRON,
        castling=Castling(rank=1, king_file=6, kingside_file=8, queenside_file=4),
        double_step=DoubleStep((_rank(12, 2), _rank(12, 7))), holes=_holes(_OMICRON)),
    "gustav3": _chess_like("gustav3", 10, 8, "pnbrqka", _GUSTAV3, holes=_holes(_GUSTAV3),
                           castling=Castling(king_file=5, kingside_file=7, queenside_file=3)),
    "troitzky": _chess_like("troitzky", 10, 10, "pnbrqk", _TROITZKY, holes=_holes(_TROITZKY),
                            double_step=DoubleStep((_rank(10, 2), _rank(10, 7)))),
    "courier": Variant("courier", 12, 8, _pieces("pnebmkwfr", e="alfil", m="commoner", w="wazir", f="fers"),
                       "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"),
    "makruk": Variant("makruk", 8, 8, _pieces("pnsrmk", s="silver", m="fers"),
                      "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"),
    "sittuyin": Variant("sittuyin", 8, 8, _pieces("pnsrfk", s="silver", f="fers"),
                        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1", drops=Drops()),
    "xiangqi": Variant(
        "xiangqi", 9, 10,
        (PieceType("r", (), name="rook"), PieceType("n", (), name="horse", pin="H", synonym="h"),
         PieceType("b", (), name="elephant", pin="E", synonym="e"), PieceType("a", (), name="fers"),
         PieceType("k", (), name="king", pin="G"), PieceType("c", (), name="cannon"),
         PieceType("p", (), name="soldier")),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    "janggi": Variant(
        "janggi", 9, 10,
        (PieceType("r", (), name="rook"), PieceType("n", (), name="horse"),
         PieceType("b", (), name="janggiElephant", synonym="e"), PieceType("a", (), name="wazir"),
         PieceType("k", (), name="king"), PieceType("c", (), name="janggiCannon"),
         PieceType("p", (), name="soldier")),
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"),
    "shogi": Variant("shogi", 9, 9, _pieces("plnsgbrk", **_SHOGI_NAMES), _SHOGI,
                     promotion=Promotion(_NO_ZONE, promoted=_SHOGI_PROMOTED),
                     drops=Drops(captures_to_hand=True)),
    "minishogi": Variant("minishogi", 5, 5, _pieces("psgbrk", **_SHOGI_NAMES), "rbsgk/4p/5/P4/KGSBR[-] w 0 1",
                         promotion=Promotion(_NO_ZONE, promoted=_SHOGI_PROMOTED[:1] + _SHOGI_PROMOTED[3:]),
                         drops=Drops(captures_to_hand=True)),
}
"""Fairy-Stockfish's variants by its names, as far as their FEN goes."""
