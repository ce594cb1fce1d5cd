"""Fairy-Stockfish's ``variants.ini`` syntax, read into variant descriptions.

A text is a list of sections, one a variant: ``[name]`` starts from Fairy-Stockfish's template
(chess's rules, with no piece types), ``[name:parent]`` from the variant ``parent`` as it was
resolved, and each ``option = value`` line below changes one rule. Lines whose first non-blank
character is ``#`` or ``;`` are comments. This module reads the text as Fairy-Stockfish does:

- :func:`sections` reads the syntax only: the sections, their parents and their options, each
  with its line (an option written twice in a section counts once, as the last one, as in
  Fairy-Stockfish);
- :func:`load` resolves every section of a text into a
  :class:`~ggn.variants.description.Variant`, all of them or none;
- :func:`resolve` resolves one section among sections given by name (the built-in ones).

Inheritance is Fairy-Stockfish's: a child is its parent's rules with the child's options
applied on top, in Fairy-Stockfish's own order of options (so ``pawnTypes`` is applied before
``promotionPawnTypes``, whatever the order of the lines). Piece sets hold piece *types*, not
letters, as in Fairy-Stockfish: a child that gives the letter ``r`` to a custom piece removes
the rook, and a parent's ``castlingRookPieces`` still names the rook.

What Fairy-Stockfish would take with a warning, or ignore, is a
:class:`~ggn.errors.VariantError` here, naming the source, the line and the option: a line that
is no option, an option Fairy-Stockfish does not know, a value it could not read, a Betza
movement :func:`ggn.variants.betza.parse` refuses, and a rule the description cannot say
(gating, walls, passing without a king, flipping, two boards,
setup phases, ...; such an option set to its default value says nothing and is accepted). The
options that cannot change the legal moves from a position (piece values and XBoard's display
options) are recorded in :attr:`Variant.unapplied <ggn.variants.description.Variant.unapplied>`,
with why. The rules on a game's history (the n-move rule, repetitions, perpetual checks,
chasing, counting, adjudication by material) are read into
:attr:`Variant.history <ggn.variants.description.Variant.history>`, which
:class:`ggn.game.Game` applies.

Where Fairy-Stockfish keeps a rule per colour and the description once, the two must agree:
the castling pieces, the en passant takers, the flag piece (of the sides with a flag region);
and a region the description keeps in the mover's frame (a mobility region, the squares Betza's
``i`` moves start from) must be the second side's seen from its side, turned half a circle as
Fairy-Stockfish turns the first side's moves for the second. Else a VariantError says so. So
does a type that would both castle and have a shogi-style promoted form: FEEN writes both
``+``. Fairy-Stockfish's own rules of its predefined types are kept: its pawn promotes and takes
en passant whatever ``promotionPawnTypes`` and ``enPassantTypes`` say, its soldier steps
sideways only from ``soldierPromotionRank`` on, its janggi cannon neither hops over nor takes
another janggi cannon, and only its wazir, soldier, rook and janggi cannon (and a king that
moves as its wazir) move along ``diagonalLines``.

Three options are this library's own: ``pin = k:g b:e`` gives a piece type (by its FEN letter)
another letter in GGN, ``synonym = n:h`` another FEN letter read as the type
(:attr:`PieceType.pin <ggn.variants.description.PieceType.pin>`, ``synonym``), and
``kingType = wazir`` makes the king move as Fairy-Stockfish's wazir, as its own janggi's
does (:attr:`Variant.king_type <ggn.variants.description.Variant.king_type>`: the king's
steps along ``diagonalLines``, which a king given as ``king = k:W`` does not take).

>>> variants = load('''
... [mini]
... maxRank = 5
... maxFile = 5
... king = k
... rook = r
... startFen = 4k/5/5/5/R3K w - - 0 1
... castling = false
... ''', source="mini.ini")
>>> mini = variants["mini"]
>>> mini.files, mini.ranks, [piece.letter for piece in mini.pieces], mini.king
(5, 5, ['r', 'k'], 'k')
>>> load("[mine:chess]\\ncastlingWins = q\\n", known={"chess": sections("[chess]\\nking = k")[0]})
Traceback (most recent call last):
...
ggn.errors.VariantError: <ini>:2: [mine] castlingWins = 'q': castling as a way to win: a rule the \
description cannot say yet
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ggn._json import quote
from ggn._types import check_fields, expect
from ggn.errors import GGNError, NotationError, NotFoundError, VariantError
from ggn.variants import betza, fen
from ggn.variants.description import (
    Castling,
    DoubleStep,
    Drops,
    Ends,
    History,
    PieceType,
    Promotion,
    Region,
    Value,
    Variant,
    Walls,
)
from ggn.variants.pieces import Movement, Square

__all__ = [
    "MAX_DEPTH", "MAX_NAME", "MAX_OPTIONS", "MAX_SECTIONS", "MAX_VALUE", "Option", "Section", "load",
    "load_sections", "resolve", "sections",
]

# What one text may hold: far above what Fairy-Stockfish's own src/variants.ini needs (143
# sections, 1,240 options, chains of at most 2 parents below a built-in, names of at most 20
# characters, values of at most 200), and low enough that a hostile text is refused in a
# fraction of a second (each section is a variant resolved: about 2.5 ms).
MAX_SECTIONS: Final = 1_000
"""The most sections (variants) one text may hold."""
MAX_OPTIONS: Final = 50_000
"""The most ``option = value`` lines one text may hold."""
MAX_DEPTH: Final = 32
"""The most ancestors a section may have: ``[a:b]`` has one (``b``), more if ``b`` has a parent."""
MAX_NAME: Final = 100
"""The longest name of a section, of its parent or of an option, in characters."""
MAX_VALUE: Final = 10_000
"""The longest value of an option, in characters, except ``startFen``: the variant's board
bounds how much of a start position is read (a rank longer than the board is refused where it
is seen)."""

# Fairy-Stockfish's largest board (built with large boards, as pyffish is): 12 files, 10 ranks.
_FILES: Final = 12
_RANKS: Final = 10
_ALL: Final[Region] = frozenset((file, rank) for file in range(_FILES) for rank in range(_RANKS))
_CHESS_START: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_NAME: Final = re.compile(r"[^\s\[\]:#;=]+")
_NUMBER: Final = re.compile(r"[0-9]{1,6}")

# Fairy-Stockfish's piece types in the order of its enum (the order it reads them in: a later
# type given a letter already taken removes the earlier one): the predefined ones, which move as
# betza.PREDEFINED says and which it lists in that order, then its custom slots, then the king.
_PREDEFINED: Final = tuple(name for name in betza.PREDEFINED if name != "king")
_CUSTOM: Final = tuple(f"customPiece{number}" for number in range(1, 26))
_TYPES: Final = (*_PREDEFINED, *_CUSTOM, "king")
_ORDER: Final = {name: number for number, name in enumerate(_TYPES)}
_ANY: Final = "*"  # Fairy-Stockfish's ALL_PIECES in a piece set

# Fairy-Stockfish's built-in variants (pyffish 0.0.90's 121): a section may inherit from any of
# them in Fairy-Stockfish; one that ggn does not play is named as such when a section asks for it.
_FAIRY_STOCKFISH_NAMES: Final = """
    3check 5check ai-wok almost amazon amazons antichess armageddon asean ataxx atomar atomic berolina
    breakthrough bughouse cambodian capablanca capahouse caparandom centaur chancellor chaturanga checkshogi
    chess chessgi chigorin clobber clobber10 codrus coregal courier crazyhouse dobutsu dragon duck embassy
    euroshogi extinction fairy fischerandom flipello flipello10 flipersi fox-and-hounds gardner georgian
    giveaway gorogoro gothic grand grasshopper gustav3 hoppelpoppel horde isolation isolation7x7 janggi
    janggicasual janggimodern janggitraditional janus jesonmor joust judkins karouk kinglet kingofthehill
    knightmate koedem kyotoshogi legan loop losalamos losers makpong makruk manchu micro mini minishogi
    minixiangqi misere modern newzealand nightrider nocastle nocheckatomic normal okisakishogi omicron
    opulent paradigm pawnback pawnsideways perfect petrified placement pocketknight raazuvaa racingkings
    seirawan shako shatar shatranj shogi shoshogi shouse sittuyin snailtrail sortofalmost spartan suicide
    supply tencubed threekings torishogi torpedo troitzky wolf xiangqi yarishogi
"""
_FAIRY_STOCKFISH: Final = frozenset(_FAIRY_STOCKFISH_NAMES.split())


def _no_parent(child: Section, parent: str, later: bool = False) -> VariantError:
    """The error of ``child`` whose parent ``parent`` is no variant it can inherit from."""
    if later:
        why = " (it comes later: a parent must come first)"
    elif parent in _FAIRY_STOCKFISH:
        why = (f": {parent!r} is a built-in variant of Fairy-Stockfish that ggn does not play yet "
               "(docs/VARIANTS.md says what it lacks)")
    else:
        why = ""
    return VariantError(f"[{child.name}:{parent}]: no variant {parent!r} to inherit from{why}", child.source,
                        child.line)


# Piece types whose moves Fairy-Stockfish bends by rules the description has no words for.
_UNSUPPORTED_TYPES: Final[dict[str, str]] = {}


@dataclass(frozen=True, slots=True)
class Option:
    """One ``key = value`` line of a section: the key and the value as written (stripped), and
    the line's number (one-based)."""

    def __post_init__(self) -> None:
        check_fields(self)

    key: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class Section:
    """One ``[name]`` or ``[name:parent]`` section of a text: its options in the order written
    (an option written twice is there twice; the last one counts), the line of its header and
    the source it was read from."""

    def __post_init__(self) -> None:
        check_fields(self)

    name: str
    parent: str | None
    options: tuple[Option, ...]
    line: int
    source: str = "<ini>"

    def get(self, key: str) -> Option | None:
        """The option ``key`` as it counts (the last one written), or None."""
        for option in reversed(self.options):
            if option.key == key:
                return option
        return None

    def values(self) -> dict[str, Option]:
        """Every option as it counts, by key (the last one written of each)."""
        return {option.key: option for option in self.options}


def _shown(text: str) -> str:
    return quote(text, 60)


def sections(text: str, *, source: str = "<ini>") -> list[Section]:
    """The sections of ``variants.ini`` text, in order: syntax only (nothing is resolved).

    Blank lines and comments (``#`` or ``;`` first) are skipped; a header is ``[name]`` or
    ``[name:parent]`` (a comment may follow it); every other line is ``key = value`` inside a
    section, the key and value stripped of blanks. A byte-order mark (U+FEFF) at the start of
    the text is skipped, as a text editor writes one. Anything else is a
    :class:`~ggn.errors.VariantError` naming ``source`` and the line, and so is a text of more
    than :data:`MAX_SECTIONS` sections or :data:`MAX_OPTIONS` options, a name of more than
    :data:`MAX_NAME` characters, or a value (other than ``startFen``'s, which the board bounds)
    of more than :data:`MAX_VALUE`.

    >>> [(s.name, s.parent, [o.key for o in s.options]) for s in sections('''
    ... # a comment
    ... [tiny:chess]
    ... maxRank = 6   ; not a comment: the value is '6   ; not a comment'
    ... ''')]
    [('tiny', 'chess', ['maxRank'])]
    >>> sections("[tiny]\\nmaxRank 6", source="t.ini")
    Traceback (most recent call last):
    ...
    ggn.errors.VariantError: t.ini:2: expected 'option = value', '[name]' or a comment, got 'maxRank 6'
    """
    expect(text, str, "text", "a str")
    expect(source, str, "source", "a str")
    found: list[Section] = []
    name: str | None = None
    parent: str | None = None
    header = 0
    options: list[Option] = []
    count = 0  # the options of the whole text

    def close() -> None:
        if name is not None:
            found.append(Section(name, parent, tuple(options), header, source))

    for number, raw in _lines(text[1:] if text.startswith("\ufeff") else text):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            end = line.find("]")
            if end < 0:
                raise VariantError(f"a section header ends with ']': {_shown(line)}", source, number)
            rest = line[end + 1:].strip()
            if rest and rest[0] not in "#;":
                raise VariantError(f"text after the section header: {_shown(rest)}", source, number)
            inside = line[1:end]
            child, colon, base = inside.partition(":")
            if not _NAME.fullmatch(child):
                raise VariantError(f"a section name is letters, digits and signs without blanks or "
                                   f"':', got {_shown(child)}", source, number)
            if colon and not _NAME.fullmatch(base):
                raise VariantError(f"the parent of [{child}] is a name without blanks or ':', got "
                                   f"{_shown(base)}", source, number)
            for what, written in (("section name", child), ("parent's name", base)):
                if len(written) > MAX_NAME:
                    raise VariantError(f"a {what} is at most {MAX_NAME} characters, got {_shown(written)}",
                                       source, number)
            close()
            if len(found) == MAX_SECTIONS:
                raise VariantError(f"[{child}] is one section too many: a text holds at most "
                                   f"{MAX_SECTIONS:,} sections (ggn.variants.ini.MAX_SECTIONS)",
                                   source, number)
            name, parent, header, options = child, base if colon else None, number, []
            continue
        key, equals, value = line.partition("=")
        if not equals:
            raise VariantError(f"expected 'option = value', '[name]' or a comment, got {_shown(line)}",
                               source, number)
        key, value = key.strip(), value.strip()
        if name is None:
            raise VariantError(f"the option {_shown(key)} comes before any [section]", source, number)
        if not key:
            raise VariantError(f"no option name before '=' in {_shown(line)}", source, number)
        if not value:
            raise VariantError(f"the option {_shown(key)} has no value", source, number, key)
        if len(key) > MAX_NAME:
            raise VariantError(f"[{name}] an option's name is at most {MAX_NAME} characters, got "
                               f"{_shown(key)}", source, number)
        if len(value) > MAX_VALUE and key != "startFen":
            raise VariantError(f"[{name}] {key} = {_shown(value)}: a value is at most {MAX_VALUE:,} "
                               f"characters (ggn.variants.ini.MAX_VALUE)", source, number, key)
        count += 1
        if count > MAX_OPTIONS:
            raise VariantError(f"[{name}] {key}: one option too many: a text holds at most {MAX_OPTIONS:,} "
                               f"options (ggn.variants.ini.MAX_OPTIONS)", source, number, key)
        options.append(Option(key, value, number))
    close()
    return found


# A line that is neither blank nor a comment (from its first character that is no blank): the
# others are skipped by the regular expression, not one at a time.
_MEANING: Final = re.compile(r"^[^\S\n]*([^\s#;][^\n]*)", re.MULTILINE)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` that are neither blank nor comments, with their numbers (one-based),
    one at a time: a text of millions of lines is never a list of them."""
    number, last = 1, 0
    for match in _MEANING.finditer(text):
        number += text.count("\n", last, match.start())
        last = match.start()
        yield number, match[1]


# --- the state Fairy-Stockfish's parser works on ---------------------------------------------
# Values are Fairy-Stockfish's, with piece types by name: a piece set is a frozenset of type
# names (``"*"``: ALL_PIECES), a piece type a name, "*" or None, a bitboard a frozenset of
# squares on the 12x10 board, a rank or a file one-based (as written: maxRank 8 is 8 ranks), a
# pair (first's, second's) for options per colour.
_DEFAULTS: Final[dict[str, Any]] = {
    "maxRank": 8, "maxFile": 8, "chess960": False, "variantTemplate": None, "twoBoards": False,
    "startFen": _CHESS_START,
    "promotionRegion": (frozenset((f, 7) for f in range(_FILES)), frozenset((f, 0) for f in range(_FILES))),
    "promotionPawnTypes": (frozenset({"pawn"}), frozenset({"pawn"})),
    "promotionPieceTypes": (frozenset(), frozenset()),
    "sittuyinPromotion": False, "promotionLimit": (), "promotedPieceType": (),
    "piecePromotionOnCapture": False, "mandatoryPawnPromotion": True, "mandatoryPiecePromotion": False,
    "pieceDemotion": False, "blastOnCapture": False, "blastImmuneTypes": frozenset(),
    "mutuallyImmuneTypes": frozenset(), "petrifyOnCaptureTypes": frozenset(), "petrifyBlastPieces": False,
    "doubleStep": True,
    "doubleStepRegion": (frozenset((f, 1) for f in range(_FILES)), frozenset((f, 6) for f in range(_FILES))),
    "tripleStepRegion": (frozenset(), frozenset()), "enPassantRegion": (_ALL, _ALL),
    "enPassantTypes": (frozenset({"pawn"}), frozenset({"pawn"})),
    "castling": True, "castlingDroppedPiece": False, "castlingKingsideFile": 7, "castlingQueensideFile": 3,
    "castlingRank": 1, "castlingKingFile": 5, "castlingKingPiece": ("king", "king"),
    "castlingRookKingsideFile": _FILES, "castlingRookQueensideFile": 1,
    "castlingRookPieces": (frozenset({"rook"}), frozenset({"rook"})), "oppositeCastling": False,
    "checking": True, "dropChecks": True, "mustCapture": False, "mustDrop": False, "mustDropType": _ANY,
    "pieceDrops": False, "dropLoop": False, "capturesToHand": False, "firstRankPawnDrops": False,
    "promotionZonePawnDrops": False, "enclosingDrop": "none", "enclosingDropStart": frozenset(),
    "dropRegion": (_ALL, _ALL), "sittuyinRookDrop": False, "dropOppositeColoredBishop": False,
    "dropPromoted": False, "dropNoDoubled": None, "dropNoDoubledCount": 1, "immobilityIllegal": False,
    "gating": False, "wallingRule": "none", "wallingRegion": (_ALL, _ALL), "wallOrMove": False,
    "seirawanGating": False, "cambodianMoves": False, "diagonalLines": frozenset(),
    "pass": (False, False), "passOnStalemate": (False, False), "makpongRule": False,
    "flyingGeneral": False, "soldierPromotionRank": 1, "flipEnclosedPieces": "none",
    "stalemateValue": "draw", "stalematePieceCount": False, "checkmateValue": "loss",
    "shogiPawnDropMateIllegal": False, "shatarMateRule": False, "bikjangRule": False,
    "extinctionValue": None, "extinctionClaim": False, "extinctionPseudoRoyal": False, "dupleCheck": False,
    "extinctionPieceTypes": frozenset(), "extinctionPieceCount": 0, "extinctionOpponentPieceCount": 0,
    "flagPiece": (_ANY, _ANY), "flagRegion": (frozenset(), frozenset()), "flagPieceCount": 1,
    "flagPieceBlockedWin": False, "flagMove": False, "flagPieceSafe": False, "checkCounting": False,
    "connectN": 0, "connectPieceTypes": frozenset({_ANY}), "connectHorizontal": True,
    "connectVertical": True, "connectDiagonal": True, "connectRegion1": (frozenset(), frozenset()),
    "connectRegion2": (frozenset(), frozenset()), "connectNxN": 0, "collinearN": 0, "connectValue": "win",
    "castlingWins": frozenset(),
    "nMoveRuleTypes": (frozenset({"pawn"}), frozenset({"pawn"})), "nMoveRule": 50, "nFoldRule": 3,
    "nFoldValue": "draw", "nFoldValueAbsolute": False, "perpetualCheckIllegal": False,
    "moveRepetitionIllegal": False, "chasingRule": "none", "materialCounting": "none",
    "adjudicateFullBoard": False, "countingRule": "none", "kingType": None,
}
# The values of this library's own option kingType (Fairy-Stockfish's kingType, which its own
# built-in janggi sets and its ini syntax cannot): the type the royal piece moves as.
_KING_TYPES: Final = ("wazir", "king")

# Rules the description cannot say: the field, and the feature a rule system would need. A
# field at its default value says nothing, and is accepted.
_UNSUPPORTED: Final[dict[str, str]] = {
    "petrifyBlastPieces": "pieces an explosion turns into walls",
    "tripleStepRegion": "pawn triple steps",
    "enclosingDrop": "drops that must enclose or stack (reversi, connect four)",
    "enclosingDropStart": "drops that must enclose or stack (reversi, connect four)",
    "gating": "gating (pieces entering the board behind a piece that leaves its first rank)",
    "wallOrMove": "a wall placed instead of a move (wallOrMove)",
    "passOnStalemate": "passing a move",
    "flipEnclosedPieces": "flipping enclosed pieces (reversi, ataxx)",
    "castlingWins": "castling as a way to win",
}

_UNAPPLIED: Final[dict[str, str]] = {
    "pieceValueMg": "piece values, for an engine's evaluation",
    "pieceValueEg": "piece values, for an engine's evaluation",
    "pieceToCharTable": "XBoard's display only",
    "pocketSize": "XBoard's display only",
    "nnueAlias": "an engine's evaluation network",
}

# The options in Fairy-Stockfish's order of reading (src/parser.cpp), each with how its value
# is read and the fields it sets (``field`` or ``field.0``/``field.1`` for one colour). The
# pieces and their mobility regions are read first, apart. Kinds with no field are read (so a
# bad value is an error) and recorded as unapplied.
_READ: Final = """
maxRank rank maxRank
maxFile file maxFile
@pieces -
pieceValueMg values
pieceValueEg values
promotionRank rank @promotionRank
doubleStepRank rank @doubleStepRank
doubleStepRankMin rank @doubleStepRank
whiteFlag bitboard flagRegion.0
blackFlag bitboard flagRegion.1
castlingRookPiece pieceset castlingRookPieces.0 castlingRookPieces.1
whiteDropRegion bitboard dropRegion.0
blackDropRegion bitboard dropRegion.1
dropOnTop bool @dropOnTop
pawnTypes pieceset promotionPawnTypes.0 promotionPawnTypes.1 enPassantTypes.0 enPassantTypes.1
pawnTypes pieceset nMoveRuleTypes.0 nMoveRuleTypes.1
variantTemplate string variantTemplate
pieceToCharTable string
pocketSize int
nnueAlias string
chess960 bool chess960
twoBoards bool twoBoards
startFen string startFen
promotionRegionWhite bitboard promotionRegion.0
promotionRegionBlack bitboard promotionRegion.1
promotionPawnTypes pieceset promotionPawnTypes.0 promotionPawnTypes.1
promotionPawnTypesWhite pieceset promotionPawnTypes.0
promotionPawnTypesBlack pieceset promotionPawnTypes.1
promotionPieceTypes pieceset promotionPieceTypes.0 promotionPieceTypes.1
promotionPieceTypesWhite pieceset promotionPieceTypes.0
promotionPieceTypesBlack pieceset promotionPieceTypes.1
sittuyinPromotion bool sittuyinPromotion
promotionLimit limits promotionLimit
promotedPieceType promoted promotedPieceType
piecePromotionOnCapture bool piecePromotionOnCapture
mandatoryPawnPromotion bool mandatoryPawnPromotion
mandatoryPiecePromotion bool mandatoryPiecePromotion
pieceDemotion bool pieceDemotion
blastOnCapture bool blastOnCapture
blastImmuneTypes pieceset blastImmuneTypes
mutuallyImmuneTypes pieceset mutuallyImmuneTypes
petrifyOnCaptureTypes pieceset petrifyOnCaptureTypes
petrifyBlastPieces bool petrifyBlastPieces
doubleStep bool doubleStep
doubleStepRegionWhite bitboard doubleStepRegion.0
doubleStepRegionBlack bitboard doubleStepRegion.1
tripleStepRegionWhite bitboard tripleStepRegion.0
tripleStepRegionBlack bitboard tripleStepRegion.1
enPassantRegion bitboard enPassantRegion.0 enPassantRegion.1
enPassantRegionWhite bitboard enPassantRegion.0
enPassantRegionBlack bitboard enPassantRegion.1
enPassantTypes pieceset enPassantTypes.0 enPassantTypes.1
enPassantTypesWhite pieceset enPassantTypes.0
enPassantTypesBlack pieceset enPassantTypes.1
castling bool castling
castlingDroppedPiece bool castlingDroppedPiece
castlingKingsideFile file castlingKingsideFile
castlingQueensideFile file castlingQueensideFile
castlingRank rank castlingRank
castlingKingFile file castlingKingFile
castlingKingPiece piecetype castlingKingPiece.0 castlingKingPiece.1
castlingKingPieceWhite piecetype castlingKingPiece.0
castlingKingPieceBlack piecetype castlingKingPiece.1
castlingRookKingsideFile file castlingRookKingsideFile
castlingRookQueensideFile file castlingRookQueensideFile
castlingRookPieces pieceset castlingRookPieces.0 castlingRookPieces.1
castlingRookPiecesWhite pieceset castlingRookPieces.0
castlingRookPiecesBlack pieceset castlingRookPieces.1
oppositeCastling bool oppositeCastling
checking bool checking
dropChecks bool dropChecks
mustCapture bool mustCapture
mustDrop bool mustDrop
mustDropType piecetype mustDropType
pieceDrops bool pieceDrops
dropLoop bool dropLoop
capturesToHand bool capturesToHand
firstRankPawnDrops bool firstRankPawnDrops
promotionZonePawnDrops bool promotionZonePawnDrops
enclosingDrop enclosing enclosingDrop
enclosingDropStart bitboard enclosingDropStart
dropRegionWhite bitboard dropRegion.0
dropRegionBlack bitboard dropRegion.1
sittuyinRookDrop bool sittuyinRookDrop
dropOppositeColoredBishop bool dropOppositeColoredBishop
dropPromoted bool dropPromoted
dropNoDoubled piecetype dropNoDoubled
dropNoDoubledCount int dropNoDoubledCount
immobilityIllegal bool immobilityIllegal
gating bool gating
wallingRule walling wallingRule
wallingRegionWhite bitboard wallingRegion.0
wallingRegionBlack bitboard wallingRegion.1
wallingRegion bitboard wallingRegion.0 wallingRegion.1
wallOrMove bool wallOrMove
seirawanGating bool seirawanGating
cambodianMoves bool cambodianMoves
diagonalLines bitboard diagonalLines
pass bool pass.0 pass.1
passWhite bool pass.0
passBlack bool pass.1
passOnStalemate bool passOnStalemate.0 passOnStalemate.1
passOnStalemateWhite bool passOnStalemate.0
passOnStalemateBlack bool passOnStalemate.1
makpongRule bool makpongRule
flyingGeneral bool flyingGeneral
soldierPromotionRank rank soldierPromotionRank
flipEnclosedPieces enclosing flipEnclosedPieces
nMoveRuleTypes pieceset nMoveRuleTypes.0 nMoveRuleTypes.1
nMoveRuleTypesWhite pieceset nMoveRuleTypes.0
nMoveRuleTypesBlack pieceset nMoveRuleTypes.1
nMoveRule int nMoveRule
nFoldRule int nFoldRule
nFoldValue value nFoldValue
nFoldValueAbsolute bool nFoldValueAbsolute
perpetualCheckIllegal bool perpetualCheckIllegal
moveRepetitionIllegal bool moveRepetitionIllegal
chasingRule chasing chasingRule
stalemateValue value stalemateValue
stalematePieceCount bool stalematePieceCount
checkmateValue value checkmateValue
shogiPawnDropMateIllegal bool shogiPawnDropMateIllegal
shatarMateRule bool shatarMateRule
bikjangRule bool bikjangRule
extinctionValue value extinctionValue
extinctionClaim bool extinctionClaim
extinctionPseudoRoyal bool extinctionPseudoRoyal
dupleCheck bool dupleCheck
extinctionPieceTypes pieceset extinctionPieceTypes
extinctionPieceCount int extinctionPieceCount
extinctionOpponentPieceCount int extinctionOpponentPieceCount
flagPiece piecetype flagPiece.0 flagPiece.1
flagPieceWhite piecetype flagPiece.0
flagPieceBlack piecetype flagPiece.1
flagRegion bitboard flagRegion.0 flagRegion.1
flagRegionWhite bitboard flagRegion.0
flagRegionBlack bitboard flagRegion.1
flagPieceCount int flagPieceCount
flagPieceBlockedWin bool flagPieceBlockedWin
flagMove bool flagMove
flagPieceSafe bool flagPieceSafe
checkCounting bool checkCounting
connectN int connectN
connectPieceTypes pieceset connectPieceTypes
connectHorizontal bool connectHorizontal
connectVertical bool connectVertical
connectDiagonal bool connectDiagonal
connectRegion1White bitboard connectRegion1.0
connectRegion2White bitboard connectRegion2.0
connectRegion1Black bitboard connectRegion1.1
connectRegion2Black bitboard connectRegion2.1
connectNxN int connectNxN
collinearN int collinearN
connectValue value connectValue
materialCounting material materialCounting
adjudicateFullBoard bool adjudicateFullBoard
countingRule counting countingRule
castlingWins castlingrights castlingWins
"""
_TABLE: Final = tuple(
    (words[0], words[1], tuple(words[2:])) for words in (line.split() for line in _READ.strip().splitlines())
)
_ENUMS: Final[dict[str, tuple[str, ...]]] = {
    "material": ("janggi", "unweighted", "whitedrawodds", "blackdrawodds", "none"),
    "counting": ("makruk", "cambodian", "asean", "none"),
    "chasing": ("axf", "none"),
    "enclosing": ("reversi", "ataxx", "quadwrangle", "snort", "anyside", "top", "none"),
    "walling": ("arrow", "duck", "edge", "past", "static", "none"),
}
_VALUES: Final = ("win", "loss", "draw", "none")


def _mobility_key(name: str, colour: int) -> str:
    """The option of a piece type's mobility region for one colour (0: white)."""
    return f"mobilityRegion{('White', 'Black')[colour]}{name[0].upper()}{name[1:]}"


_MOBILITY: Final = frozenset(_mobility_key(name, colour) for name in _TYPES for colour in (0, 1))
_OWN: Final = ("pin", "synonym", "kingType")
_KNOWN: Final = frozenset({*(entry[0] for entry in _TABLE), *_TYPES, *_MOBILITY, *_OWN} - {"@pieces"})


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a value was set: the source, the line, the option, its value and the section."""

    source: str
    line: int
    option: str
    value: str
    section: str


class _State:
    """A variant as Fairy-Stockfish's parser builds it, option by option."""

    __slots__ = ("betza", "letters", "mobility", "pins", "set_at", "synonyms", "unapplied", "values")

    def __init__(self) -> None:
        self.values: dict[str, Any] = dict(_DEFAULTS)
        self.letters: dict[str, str] = {}  # type name -> FEN letter (lowercase)
        self.betza: dict[str, str] = {}  # custom type (and a custom king) -> Betza
        self.mobility: dict[tuple[str, int], Region] = {}
        self.pins: dict[str, str] = {}
        self.synonyms: dict[str, str] = {}
        self.set_at: dict[str, _Where] = {}
        self.unapplied: dict[str, str] = {}

    def copy(self) -> _State:
        other = _State()
        other.values = dict(self.values)
        other.letters = dict(self.letters)
        other.betza = dict(self.betza)
        other.mobility = dict(self.mobility)
        other.pins = dict(self.pins)
        other.synonyms = dict(self.synonyms)
        other.set_at = dict(self.set_at)
        other.unapplied = dict(self.unapplied)
        return other

    def type_of(self, letter: str) -> str | None:
        letter = letter.lower()
        return next((name for name, own in self.letters.items() if own == letter), None)

    def add(self, name: str, letter: str) -> None:
        clash = self.type_of(letter)
        if clash is not None:
            self.remove(clash)
        self.letters[name] = letter.lower()

    def remove(self, name: str) -> None:
        self.letters.pop(name, None)
        self.pins.pop(name, None)
        self.synonyms.pop(name, None)
        # Fairy-Stockfish drops a removed type from the promotion choices, and nowhere else.
        first, second = self.values["promotionPieceTypes"]
        self.values["promotionPieceTypes"] = (first - {name}, second - {name})


class _Reader:
    """Applies one section's options to a state, in Fairy-Stockfish's order."""

    def __init__(self, section: Section, state: _State) -> None:
        self.section = section
        self.state = state
        self.options = section.values()

    def error(self, option: Option, reason: str) -> VariantError:
        return VariantError(f"[{self.section.name}] {option.key} = {_shown(option.value)}: {reason}",
                            self.section.source, option.line, option.key)

    def where(self, option: Option) -> _Where:
        return _Where(self.section.source, option.line, option.key, option.value, self.section.name)

    def apply(self) -> None:
        for written in self.options.values():
            if written.key not in _KNOWN:
                raise self._unknown(written)
        for key, kind, fields in _TABLE:
            if key == "@pieces":
                self._pieces()
                continue
            option = self.options.get(key)
            if option is None:
                continue
            value = self._read(option, kind)
            if not fields:
                self.state.unapplied[key] = _UNAPPLIED[key]
                continue
            for target in fields:
                self._set(option, target, value)
        for key in _OWN:
            own = self.options.get(key)
            if own is not None:
                if key == "kingType":
                    self._king_type(own)
                else:
                    self._letters(own)

    def _unknown(self, option: Option) -> VariantError:
        import difflib  # noqa: PLC0415  (only for this message: slow to import)

        close = difflib.get_close_matches(option.key, sorted(_KNOWN), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return VariantError(f"[{self.section.name}] {_shown(option.key)} is not an option Fairy-Stockfish "
                            f"knows{hint}", self.section.source, option.line, option.key)

    def _set(self, option: Option, target: str, value: Any) -> None:
        state = self.state
        if target == "@promotionRank":
            ranks = state.values["maxRank"]
            state.values["promotionRegion"] = (_zone(value, ranks, 0), _zone(value, ranks, 1))
            state.set_at["promotionRegion"] = self.where(option)
            return
        if target == "@doubleStepRank":
            ranks = state.values["maxRank"]
            # Fairy-Stockfish's defaults for the one of the two not given: rank 2.
            given = {key: self._read(self.options[key], "rank")
                     for key in ("doubleStepRank", "doubleStepRankMin") if key in self.options}
            top, low = given.get("doubleStepRank", 2), given.get("doubleStepRankMin", 2)
            state.values["doubleStepRegion"] = tuple(
                frozenset(s for s in _zone(low, ranks, colour) if _relative(s[1], ranks, colour) <= top)
                for colour in (0, 1))
            state.set_at["doubleStepRegion"] = self.where(option)
            return
        if target == "@dropOnTop":
            if value:
                state.values["enclosingDrop"] = "top"
                state.set_at["enclosingDrop"] = self.where(option)
            return
        field, _, colour = target.partition(".")
        if colour:
            pair = list(state.values[field])
            pair[int(colour)] = value
            state.values[field] = tuple(pair)
        else:
            state.values[field] = value
        state.set_at[field] = self.where(option)

    # --- values -----------------------------------------------------------------------------
    def _read(self, option: Option, kind: str) -> Any:
        if kind in _ENUMS:
            if option.value not in _ENUMS[kind]:
                raise self.error(option, f"expected one of {', '.join(_ENUMS[kind])}")
            return option.value
        return _READERS[kind](self, option)

    def _string(self, option: Option) -> str:
        return option.value

    def _bool(self, option: Option) -> bool:
        if option.value not in ("true", "false"):
            raise self.error(option, "expected true or false")
        return option.value == "true"

    def _int(self, option: Option) -> int:
        if not _NUMBER.fullmatch(option.value):
            raise self.error(option, "expected a whole number (0 or more)")
        return int(option.value)

    def _rank(self, option: Option) -> int:
        if not _NUMBER.fullmatch(option.value) or not 1 <= int(option.value) <= _RANKS:
            raise self.error(option, f"expected a rank, a number from 1 to {_RANKS}")
        return int(option.value)

    def _file(self, option: Option) -> int:
        text = option.value
        if _NUMBER.fullmatch(text) and 1 <= int(text) <= _FILES:
            return int(text)
        if len(text) == 1 and "a" <= text <= chr(ord("a") + _FILES - 1):
            return ord(text) - ord("a") + 1
        raise self.error(option, f"expected a file, a letter from a to {chr(ord('a') + _FILES - 1)} or a "
                                 f"number from 1 to {_FILES}")

    def _value(self, option: Option) -> Value | None:
        if option.value not in _VALUES:
            raise self.error(option, "expected win, loss, draw or none")
        return None if option.value == "none" else option.value  # type: ignore[return-value]

    def _bitboard(self, option: Option) -> Region:
        squares: set[Square] = set()
        for symbol in option.value.split():
            if symbol == "-":
                break  # Fairy-Stockfish reads no further
            head, tail = symbol[0].lower(), symbol[1:]
            if symbol.endswith("*") and len(symbol) == 2 and "a" <= head <= "z":
                file = ord(head) - ord("a")
                if file >= _FILES:
                    raise self.error(option, f"{symbol!r}: no file {head!r} on a board of {_FILES} files")
                squares.update((file, rank) for rank in range(_RANKS))
            elif head == "*" and _NUMBER.fullmatch(tail) and 1 <= int(tail) <= _RANKS:
                squares.update((file, int(tail) - 1) for file in range(_FILES))
            elif "a" <= head <= "z" and _NUMBER.fullmatch(tail):
                file, rank = ord(head) - ord("a"), int(tail) - 1
                if file >= _FILES or not 0 <= rank < _RANKS:
                    raise self.error(option, f"{symbol!r} is off Fairy-Stockfish's largest board "
                                             f"({_FILES} files, {_RANKS} ranks)")
                squares.add((file, rank))
            else:
                raise self.error(option, f"{_shown(symbol)} is not a square (a1), a file (a*) or a rank (*1)")
        return frozenset(squares)

    def _piece(self, option: Option, letter: str, star: bool) -> str:
        if letter == "*" and star:
            return _ANY
        name = self.state.type_of(letter) if letter.isascii() and letter.isalpha() else None
        if name is None:
            raise self.error(option, f"{letter!r} is not the letter of a piece type of the variant")
        return name

    def _named(self, option: Option) -> list[str]:
        """The piece types (or ``"*"``) of a value's letters, blanks skipped, up to a ``-``."""
        letters = option.value.split("-", 1)[0]
        return [self._piece(option, letter, True) for letter in letters if not letter.isspace()]

    def _pieceset(self, option: Option) -> frozenset[str]:
        return frozenset(self._named(option))

    def _piecetype(self, option: Option) -> str | None:
        named = self._named(option)
        return named[-1] if named else None  # Fairy-Stockfish keeps the last one

    def _pairs(self, option: Option) -> Iterator[tuple[str, str]]:
        for token in option.value.split():
            left, colon, right = token.partition(":")
            if not colon or len(left) != 1 or not right:
                raise self.error(option, f"{_shown(token)} is not 'letter:value'")
            yield left, right

    def _limits(self, option: Option) -> tuple[tuple[str, int], ...]:
        limits = dict(self.state.values["promotionLimit"])
        for letter, count in self._pairs(option):
            if not _NUMBER.fullmatch(count):
                raise self.error(option, f"{count!r} is not a count")
            limits[self._piece(option, letter, False)] = int(count)
        return tuple(limits.items())

    def _promoted(self, option: Option) -> tuple[tuple[str, str], ...]:
        promoted = dict(self.state.values["promotedPieceType"])
        for letter, other in self._pairs(option):
            name = self._piece(option, letter, False)
            if other == "-":
                promoted.pop(name, None)
            elif len(other) == 1:
                promoted[name] = self._piece(option, other, False)
            else:
                raise self.error(option, f"{other!r} is not one piece letter")
        return tuple(promoted.items())

    def _piece_values(self, option: Option) -> None:
        for letter, value in self._pairs(option):
            self._piece(option, letter, False)
            if not re.fullmatch(r"-?[0-9]{1,6}", value):
                raise self.error(option, f"{value!r} is not a piece value")

    def _rights(self, option: Option) -> frozenset[str]:
        rights: set[str] = set()
        for letter in option.value:
            if letter == "-":
                break
            if letter not in "KQkq":
                raise self.error(option, f"{letter!r} is not a castling right (K, Q, k or q)")
            rights.add(letter)
        return frozenset(rights)

    # --- pieces -----------------------------------------------------------------------------
    def _pieces(self) -> None:
        state = self.state
        for name in _TYPES:
            option = self.options.get(name)
            if option is not None:
                value = option.value
                if value[0].isascii() and value[0].isalpha():
                    movement = value[2:] if len(value) > 1 else ""
                    if len(value) > 1 and value[1] != ":":
                        raise self.error(option, "expected a letter, or a letter, ':' and a Betza movement")
                    if name in _CUSTOM:
                        if not movement:
                            raise self.error(option, "a custom piece needs its movement in Betza: 'x:BETZA'")
                        state.betza[name] = movement
                        if "e" in movement:
                            # Fairy-Stockfish lets a piece whose Betza has 'e' take en passant.
                            first, second = state.values["enPassantTypes"]
                            state.values["enPassantTypes"] = (first | {name}, second | {name})
                    elif name == "king":
                        if movement:
                            state.betza[name] = movement
                        else:
                            state.betza.pop(name, None)
                    elif movement:
                        raise self.error(option, f"only custom pieces and the king take a movement; the "
                                                 f"{name} moves as {betza.PREDEFINED[name] or 'nothing'!r}")
                    state.add(name, value[0])
                elif value == "-":
                    state.remove(name)
                else:
                    raise self.error(option, "expected a piece letter, or '-' to remove the piece type")
                state.set_at[f"piece:{name}"] = self.where(option)
            for colour in (0, 1):
                key = _mobility_key(name, colour)
                region = self.options.get(key)
                if region is not None:
                    state.mobility[(name, colour)] = self._bitboard(region)
                    state.set_at[key] = self.where(region)

    def _king_type(self, option: Option) -> None:
        if option.value not in _KING_TYPES:
            raise self.error(option, f"expected one of {', '.join(_KING_TYPES)}")
        self.state.values["kingType"] = None if option.value == "king" else option.value
        self.state.set_at["kingType"] = self.where(option)

    def _letters(self, option: Option) -> None:
        table = self.state.pins if option.key == "pin" else self.state.synonyms
        table.clear()
        for letter, other in self._pairs(option):
            if len(other) != 1 or not (other.isascii() and other.isalpha()):
                raise self.error(option, f"{other!r} is not one letter")
            table[self._piece(option, letter, False)] = other.lower()
        self.state.set_at[option.key] = self.where(option)


# How each kind of value of _READ is read.
_READERS: Final[dict[str, Callable[[_Reader, Option], Any]]] = {
    "bool": _Reader._bool, "int": _Reader._int, "rank": _Reader._rank, "file": _Reader._file,
    "string": _Reader._string, "value": _Reader._value, "bitboard": _Reader._bitboard,
    "pieceset": _Reader._pieceset, "piecetype": _Reader._piecetype, "limits": _Reader._limits,
    "promoted": _Reader._promoted, "values": _Reader._piece_values, "castlingrights": _Reader._rights,
}


def _relative(rank: int, ranks: int, colour: int) -> int:
    """A rank (zero-based) as a colour counts it (one-based)."""
    return rank + 1 if colour == 0 else ranks - rank


def _zone(rank: int, ranks: int, colour: int) -> Region:
    """Fairy-Stockfish's zone_bb: the ranks from a relative rank (one-based) to the far end."""
    return frozenset((file, row) for file in range(_FILES) for row in range(ranks)
                     if _relative(row, ranks, colour) >= rank)


# --- from the state to a description -----------------------------------------------------------
class _Maker:
    """Turns a resolved state into a :class:`Variant`, or says why the description cannot."""

    def __init__(self, name: str, section: Section, state: _State) -> None:
        self.name = name
        self.section = section
        self.state = state
        self.values = state.values
        self.files: int = self.values["maxFile"]
        self.ranks: int = self.values["maxRank"]
        self.board: Region = frozenset((f, r) for f in range(self.files) for r in range(self.ranks))
        # The start's pieces and holes, read once for the castling king's file and the holes, no
        # further than the board: a rank wider than it is refused where it is seen.
        try:
            self.start_pieces, self.start_holes = _placement(self.values["startFen"], self.files, self.ranks)
        except _MisfitError as misfit:
            raise self.error("startFen", f"the start position does not fit the variant: {misfit}") from None

    def error(self, field: str, reason: str) -> VariantError:
        """The error of a value, at the line that set it (inherited: in its section), else at
        the section's header."""
        where = self.state.set_at.get(field)
        if where is None:
            return VariantError(f"[{self.name}] {reason}", self.section.source, self.section.line, field)
        inherited = f" (in [{where.section}])" if where.section != self.name else ""
        return VariantError(f"[{self.name}] {where.option} = {_shown(where.value)}{inherited}: {reason}",
                            where.source, where.line, where.option)

    def letter(self, name: str) -> str | None:
        return self.state.letters.get(name)

    def order(self, letter: str) -> int:
        """Fairy-Stockfish's number of the type of a letter, to list types in its order."""
        found = self.state.type_of(letter)
        assert found is not None
        return _ORDER[found]

    def letters(self, names: frozenset[str], field: str) -> frozenset[str]:
        if _ANY in names:
            raise self.error(field, "'*' (every piece type) means nothing here")
        return frozenset(self.state.letters[name] for name in names if name in self.state.letters)

    def clip(self, region: Region) -> Region:
        return region & self.board

    def turned(self, region: Region) -> Region:
        """A region seen from the other side: turned half a circle, as Fairy-Stockfish turns the
        first side's moves for the second (its Direction -d), and as the mover's frame does."""
        return frozenset((self.files - 1 - file, self.ranks - 1 - rank) for file, rank in region)

    def one_frame(self, pair: tuple[Region, Region], field: str, what: str) -> Region:
        """The first player's region, which the description keeps for both in the mover's frame:
        the second player's must be the same region seen from its side."""
        first, second = self.clip(pair[0]), self.clip(pair[1])
        if self.turned(second) != first:
            raise self.error(field, f"the two sides' regions are not mirror images (the second's turned half "
                                    f"a circle is not the first's), and the description keeps one region for "
                                    f"{what}, in the mover's frame")
        return first

    def make(self) -> Variant:
        values = self.values
        # Cambodian chess's first moves are played (gating's gates, on the king and the met);
        # without gating Fairy-Stockfish reads no gate, and cambodianMoves does nothing.
        cambodian = values["cambodianMoves"] and values["gating"] and not values["seirawanGating"]
        seirawan = values["seirawanGating"] and not values["cambodianMoves"]
        for field, feature in _UNSUPPORTED.items():
            if field == "gating" and (cambodian or seirawan):
                continue  # seirawan's gating rights, or cambodian chess's first moves: played
            if values[field] != _DEFAULTS[field]:
                raise self.error(field, f"{feature}: a rule the description cannot say yet")
        if values["twoBoards"] and not values["pieceDrops"]:
            raise self.error("twoBoards", "two boards without drops (the partner's pieces come only as "
                                          "drops): a rule the description cannot say yet")
        if values["seirawanGating"] and not values["gating"]:
            raise self.error("seirawanGating", "seirawan's gating without 'gating = true' (Fairy-Stockfish "
                                               "then keeps no gating rights): a rule the description "
                                               "cannot say yet")
        if values["capturesToHand"] and not values["pieceDrops"]:
            raise self.error("capturesToHand", "captured pieces held in hand without drops: a rule the "
                                               "description cannot say yet")
        for name, feature in _UNSUPPORTED_TYPES.items():
            if name in self.state.letters:
                raise self.error(f"piece:{name}", f"{feature}: a rule the description cannot say yet")
        for field in ("checkmateValue", "stalemateValue"):
            if values[field] is None:
                raise self.error(field, "'none' is no result: expected win, loss or draw")
        self.check_blast()
        pieces = tuple(self.piece(name) for name in sorted(self.state.letters, key=_ORDER.__getitem__))
        king = self.letter("king")
        if any(values["pass"]) and king is None:
            raise self.error("pass", "passing without a king (Fairy-Stockfish passes with the first piece "
                                     "of the player, a1 onward): a rule the description cannot say yet")
        variant = Variant(
            self.name, self.files, self.ranks, pieces, values["startFen"], king=king,
            promotion=self.promotion(), castling=self.castling(), double_step=self.double_step(),
            drops=self.drops(), ends=self.ends(), holes=self.holes(), walls=self.walls(),
            flying_general=values["flyingGeneral"], checking=values["checking"],
            immobility_illegal=values["immobilityIllegal"], must_capture=values["mustCapture"],
            chess960=values["chess960"], cambodian_moves=self.cambodian(cambodian),
            makpong=values["makpongRule"],
            blast_on_capture=values["blastOnCapture"],
            blast_immune_types=self.letters(values["blastImmuneTypes"], "blastImmuneTypes"),
            mutually_immune_types=self.letters(values["mutuallyImmuneTypes"], "mutuallyImmuneTypes"),
            gating=values["seirawanGating"],
            diagonal_lines=self.clip(values["diagonalLines"]), king_type=values["kingType"],
            passing=values["pass"], bikjang=values["bikjangRule"],
            template=values["variantTemplate"], history=self.history(),
            unapplied=tuple(self.state.unapplied.items()),
        )
        self.check_marks(variant)
        self.check_sittuyin(variant)
        self.check_start(variant)
        return variant

    def check_blast(self) -> None:
        """The explosions' options where Fairy-Stockfish plays them: it warns that it cannot use
        them with a royal king (``blastOnCapture``), nor with royal or pseudo-royal pieces
        (``blastImmuneTypes``, ``mutuallyImmuneTypes``); and the pieces an explosion removes
        going to hand (``capturesToHand``: to their opponents' hands, the mover's own too) is a
        rule the description cannot say yet."""
        values = self.values
        royal = "king" in self.state.letters
        if values["blastOnCapture"] and royal:
            raise self.error("blastOnCapture", "Fairy-Stockfish cannot use a royal king with explosions "
                                               "('Can not use kings with blastOnCapture'); a commoner with "
                                               "extinctionPseudoRoyal plays atomic's king")
        for field in ("blastImmuneTypes", "mutuallyImmuneTypes"):
            if values[field] and (royal or values["extinctionPseudoRoyal"]):
                raise self.error(field, f"Fairy-Stockfish cannot use royal or pseudo-royal pieces with "
                                        f"{field} ('Can not use kings or pseudo-royal with {field}')")
        if values["blastOnCapture"] and values["pieceDrops"] and values["capturesToHand"]:
            raise self.error("capturesToHand", "the pieces an explosion removes going to hand (each to its "
                                               "opponent's): a rule the description cannot say yet")

    def cambodian(self, played: bool) -> bool:
        """Whether cambodian chess's first moves are played: their gates stand on the first
        rank, and the castling field holds them, not castling rights."""
        values = self.values
        if not played:
            return False
        if values["castling"] and self.castling() is not None:
            raise self.error("cambodianMoves", "cambodian first moves with castling: the castling field "
                                               "would hold both gates and castling rights, a rule the "
                                               "description cannot say yet")
        if values["castlingRank"] != 1:
            raise self.error("castlingRank", "cambodian first moves from another rank than the first: a rule "
                                             "the description cannot say yet")
        return True

    def check_sittuyin(self, variant: Variant) -> None:
        """Sittuyin's promotion is played to pieces that move by single steps (its fers): the
        squares the new piece attacks do not depend on the pieces around it."""
        promotion = variant.promotion
        if promotion is None or not promotion.sittuyin:
            return
        kinds = {piece.letter: piece for piece in variant.pieces}
        for letter in sorted({*promotion.choices[0], *promotion.choices[1]} & kinds.keys()):
            if any(movement.last != 1 or movement.hops or movement.also
                   or movement.sources is not None for movement in kinds[letter].movements):
                raise self.error("sittuyinPromotion", f"sittuyin's promotion to {letter!r}, which does not "
                                                      "move by single steps only: a rule the description "
                                                      "cannot say yet")

    def check_marks(self, variant: Variant) -> None:
        """FEEN writes a castling right and a shogi-style promoted form both as ``+``: a type
        may have one or the other."""
        castling, promotion = variant.castling, variant.promotion
        if castling is None or promotion is None:
            return
        both = {castling.king, *castling.rooks} & {base for base, _ in promotion.promoted}
        if both:
            raise self.error("promotedPieceType", f"the type {min(both)!r} castles and has a promoted form, "
                                                  "which FEEN both writes '+': a limit of the notation")

    def piece(self, name: str) -> PieceType:
        state = self.state
        letter = state.letters[name]
        # Custom pieces always have their own Betza, the king may (or moves as kingType says).
        text = state.betza[name] if name in state.betza else betza.PREDEFINED[name]
        if name == "king" and self.values["kingType"] is not None:
            text = betza.PREDEFINED[self.values["kingType"]]
        initial = self.initial(name) if "i" in text else None
        try:
            movements = self.soldier() if name == "soldier" else betza.parse(text, initial=initial)
        except NotationError as error:
            raise self.error(f"piece:{name}", f"the movement is not one Fairy-Stockfish plays: "
                                              f"{error.reason} (at {error.start} in {text!r})") from None
        stands, each = self.stands(name)
        pin = state.pins.get(name)
        synonym = state.synonyms.get(name)
        return PieceType(letter, movements, betza=text, stands=stands, stands_each=each, name=name,
                         pin=pin.upper() if pin else None, synonym=synonym)

    def initial(self, name: str) -> Region:
        if not self.values["doubleStep"]:
            return frozenset()  # Fairy-Stockfish clears the regions when double steps are off
        return self.one_frame(self.values["doubleStepRegion"], "doubleStepRegion",
                              f"{name}'s initial moves (Betza 'i')")

    def soldier(self) -> tuple[Movement, ...]:
        """Fairy-Stockfish's soldier steps sideways only from its soldierPromotionRank on."""
        rank = self.values["soldierPromotionRank"]
        ahead = betza.parse("fW")
        if rank <= 1:
            return ahead + betza.parse("sW")
        beyond = frozenset((f, r) for f in range(self.files) for r in range(rank - 1, self.ranks))
        return ahead + tuple(replace(movement, sources=beyond) for movement in betza.parse("sW"))

    def stands(self, name: str) -> tuple[Region | None, tuple[Region | None, Region | None] | None]:
        """A type's mobility regions, as ``PieceType.stands`` and ``stands_each``: one region in
        the mover's frame where the two sides' are the same seen from each side, else each
        side's (an empty region, or none, is no restriction, as in Fairy-Stockfish)."""
        first = self.clip(self.state.mobility.get((name, 0), frozenset()))
        second = self.clip(self.state.mobility.get((name, 1), frozenset()))
        if not first and not second:
            return None, None
        if self.turned(second) == first:
            return first, None
        return None, (first or None, self.turned(second) or None)

    def promotion(self) -> Promotion | None:
        values = self.values
        # Fairy-Stockfish's pawn promotes whatever promotionPawnTypes says (its own move generator).
        pawn = frozenset(letter for letter in (self.letter("pawn"),) if letter)
        pawns = tuple(self.letters(names, "promotionPawnTypes") | pawn
                      for names in values["promotionPawnTypes"])
        promoted = tuple(
            (self.state.letters[base], self.state.letters[other])
            for base, other in values["promotedPieceType"]
            if base in self.state.letters and other in self.state.letters
        )
        if not any(pawns) and not promoted:
            return None
        choices = tuple(
            tuple(sorted(self.letters(names, "promotionPieceTypes"), key=self.order))
            for names in values["promotionPieceTypes"]
        )
        limits = tuple((self.state.letters[name], count) for name, count in values["promotionLimit"]
                       if count > 0 and name in self.state.letters)
        regions = values["promotionRegion"]
        return Promotion(
            (self.clip(regions[0]), self.clip(regions[1])), (pawns[0], pawns[1]), (choices[0], choices[1]),
            mandatory_pawn=values["mandatoryPawnPromotion"], limits=limits, promoted=promoted,
            mandatory_piece=values["mandatoryPiecePromotion"], on_capture=values["piecePromotionOnCapture"],
            demotion=values["pieceDemotion"], sittuyin=values["sittuyinPromotion"],
        )

    def castling(self) -> Castling | None:
        values = self.values
        if not values["castling"]:
            return None
        first, second = values["castlingKingPiece"]
        if first != second:
            raise self.error("castlingKingPiece", "the two sides castle with different piece types, and the "
                                                  "description keeps one")
        rooks = tuple(self.letters(names, "castlingRookPieces") for names in values["castlingRookPieces"])
        if rooks[0] != rooks[1]:
            raise self.error("castlingRookPieces", "the two sides castle with different rook types, and the "
                                                   "description keeps one set")
        if first is None or first == _ANY or first not in self.state.letters or not rooks[0]:
            return None  # no piece of the variant can castle
        king = self.state.letters[first]
        rank = values["castlingRank"] - 1
        if rank >= self.ranks:
            raise self.error("castlingRank", f"the board has {self.ranks} ranks")
        for field in ("castlingKingsideFile", "castlingQueensideFile", "castlingKingFile"):
            if values[field] > self.files:
                file = chr(ord("a") + values[field] - 1)
                fields = values["startFen"].split()
                rights = fields[2] if len(fields) > 2 and not fields[2].isdigit() else "-"
                if rights != "-":
                    raise self.error(field, f"{field} is file {file}, off the board of {self.files} files, "
                                            "and the start position gives castling rights")
                # A section of a smaller board that inherits chess's castling files (minihouse):
                # its start gives no castling rights, so no castling is ever played from it.
                self.state.unapplied[field] = (
                    f"file {file}, off the board of {self.files} files: no castling is played (the start "
                    "position gives no castling rights; a FEN giving some is read without them)")
                return None
        # Fairy-Stockfish looks for the rook from these files toward the king (the default: the
        # last file of its largest board, the description's None when no rook stands nearer).
        king_file = self.king_file(king, rank)
        edge = min(values["castlingRookKingsideFile"], self.files) - 1
        kingside = self.rook_file(rooks[0], rank, edge, king_file)
        queenside = self.rook_file(rooks[0], rank, values["castlingRookQueensideFile"] - 1, king_file)
        return Castling(
            king, rooks[0], rank, king_file, values["castlingKingsideFile"] - 1,
            values["castlingQueensideFile"] - 1,
            (None if kingside >= self.files - 1 else kingside, queenside), values["oppositeCastling"],
        )

    def rook_file(self, rooks: frozenset[str], rank: int, edge: int, king_file: int) -> int:
        """A castling rook's file, as Fairy-Stockfish finds it in the start position: the first
        castling rook of the first player met going from ``edge`` toward the king (gustav3's
        rooks stand inside its amazons), else ``edge`` itself."""
        step = 1 if edge < king_file else -1
        for file in range(edge, king_file, step):
            piece = self.start_pieces.get((file, rank))
            if piece is not None and piece.isupper() and piece.lower() in rooks:
                return file
        return edge

    def king_file(self, king: str, rank: int) -> int:
        """The castling king's file, as Fairy-Stockfish finds it in the start position: on
        castlingKingFile if a castling king stands there, else the first one on the rank."""
        default: int = self.values["castlingKingFile"] - 1
        start: str = self.values["startFen"]
        fields = start.split()
        rights = fields[2] if len(fields) > 2 and not fields[2].isdigit() else "-"
        found: list[int] = []
        for colour, letter in enumerate((king.upper(), king)):
            row = rank if colour == 0 else self.ranks - 1 - rank
            files = sorted(f for (f, r), piece in self.start_pieces.items() if r == row and piece == letter)
            # A side without castling rights at the start never castles: its king's file is moot.
            if files and any(right.isupper() == (colour == 0) for right in rights if right.isalpha()):
                found.append(default if default in files else files[0])
        if len(set(found)) > 1:
            raise self.error("startFen", "the two castling kings start on different files, and the "
                                         "description keeps one king file")
        return found[0] if found else default

    def double_step(self) -> DoubleStep | None:
        values = self.values
        regions = tuple(self.clip(region) for region in values["doubleStepRegion"])
        pawn = self.letter("pawn")
        initial = frozenset(self.state.letters[name] for name, text in self.state.betza.items()
                            if name in self.state.letters and "i" in text)
        if not values["doubleStep"] or not any(regions) or (pawn is None and not initial):
            return None
        # Fairy-Stockfish's pawn takes en passant whatever enPassantTypes says.
        takers = tuple(self.letters(names, "enPassantTypes") | ({pawn} if pawn else set())
                       for names in values["enPassantTypes"])
        if takers[0] != takers[1]:
            raise self.error("enPassantTypes", "the two sides' en passant types differ, and the description "
                                               "keeps one set")
        passant = tuple(self.clip(region) for region in values["enPassantRegion"])
        everywhere = all(region == self.board for region in passant)
        return DoubleStep(
            (regions[0], regions[1]), frozenset({pawn}) if pawn else frozenset(), takers[0],
            None if everywhere else (passant[0], passant[1]), initial_movers=initial,
        )

    def drops(self) -> Drops | None:
        values = self.values
        if not values["pieceDrops"] and not values["seirawanGating"]:
            return None  # no hands (Fairy-Stockfish keeps hands for drops and for gating)
        regions = tuple(None if self.clip(region) == self.board else self.clip(region)
                        for region in values["dropRegion"])
        must = values["mustDropType"]
        # A type the variant does not have is never in hand: no drop is forced (as in Fairy-Stockfish).
        must_type = _ANY if must == _ANY else self.letter(must) if must is not None else None
        doubled = values["dropNoDoubled"]
        if doubled == _ANY:
            raise self.error("dropNoDoubled", "'*' (every piece type) means nothing here")
        return Drops(
            captures_to_hand=values["capturesToHand"], loop=values["dropLoop"],
            regions=(regions[0], regions[1]), no_doubled=self.letter(doubled) if doubled else None,
            no_doubled_count=values["dropNoDoubledCount"],
            first_rank_pawn_drops=values["firstRankPawnDrops"],
            promotion_zone_pawn_drops=values["promotionZonePawnDrops"],
            pawn_drop_mate_illegal=values["shogiPawnDropMateIllegal"], checks=values["dropChecks"],
            promoted=values["dropPromoted"], two_boards=values["twoBoards"], piece_drops=values["pieceDrops"],
            must_drop=values["mustDrop"] and must_type is not None, must_drop_type=must_type or _ANY,
            opposite_bishops=self.letter("bishop") if values["dropOppositeColoredBishop"] else None,
            castling_dropped=values["castlingDroppedPiece"],
            first_rank_only=self.letter("rook") if values["sittuyinRookDrop"] else None,
        )

    def ends(self) -> Ends:
        values = self.values
        types: frozenset[str] = values["extinctionPieceTypes"]
        extinction = frozenset(self.state.letters[name] for name in types if name in self.state.letters)
        if _ANY in types:
            extinction |= {_ANY}
        regions = (self.clip(values["flagRegion"][0]), self.clip(values["flagRegion"][1]))
        # A side's flag piece counts only where that side has a flag region.
        flags = {values["flagPiece"][colour] for colour in (0, 1) if regions[colour]}
        if len(flags) > 1:
            raise self.error("flagPiece", "the two sides' flag pieces differ, and the description keeps "
                                          "one set")
        flag = flags.pop() if flags else None
        if flag == _ANY:
            flag_pieces = frozenset(self.state.letters.values())
        else:
            flag_pieces = frozenset({self.state.letters[flag]}) if flag in self.state.letters else frozenset()
        return Ends(
            checkmate=values["checkmateValue"], stalemate=values["stalemateValue"],
            stalemate_piece_count=values["stalematePieceCount"],
            extinction=values["extinctionValue"], extinction_types=extinction,
            extinction_count=values["extinctionPieceCount"],
            extinction_pseudo_royal=values["extinctionPseudoRoyal"],
            # Fairy-Stockfish looks for a duple check only among pseudo-royal pieces.
            duple_check=values["dupleCheck"] and values["extinctionPseudoRoyal"],
            shatar_mate=values["shatarMateRule"],
            extinction_opponent_count=values["extinctionOpponentPieceCount"],
            extinction_claim=values["extinctionClaim"],
            flag_pieces=flag_pieces, flag_regions=regions,
            flag_move=values["flagMove"], flag_count=values["flagPieceCount"],
            flag_blocked_win=values["flagPieceBlockedWin"], flag_safe=values["flagPieceSafe"],
            **self.connect(),
        )

    def connect(self) -> dict[str, Any]:
        """The connection rules (Fairy-Stockfish's ``connectN`` and friends), as ``Ends``' fields."""
        values = self.values
        types: frozenset[str] = values["connectPieceTypes"]
        letters = frozenset(self.state.letters[name] for name in types if name in self.state.letters)
        lines = frozenset(line for line, option in (("horizontal", "connectHorizontal"),
                                                      ("vertical", "connectVertical"),
                                                      ("diagonal", "connectDiagonal")) if values[option])
        regions = tuple((self.clip(values["connectRegion1"][side]), self.clip(values["connectRegion2"][side]))
                        for side in (0, 1))
        if values["connectValue"] is None:
            raise self.error("connectValue", "'none' is no result: expected win, loss or draw")
        return {
            "connect_n": values["connectN"], "connect_types": letters | ({_ANY} & types),
            "connect_lines": lines,
            "connect_regions": regions, "connect_square": values["connectNxN"],
            "collinear_n": values["collinearN"], "connect_value": values["connectValue"],
        }

    def history(self) -> History:
        values = self.values
        if values["nFoldValue"] is None:
            raise self.error("nFoldValue", "'none' is no result: expected win, loss or draw")
        types = values["nMoveRuleTypes"]
        return History(
            n_move_rule=values["nMoveRule"],
            n_move_types=(self.letters(types[0], "nMoveRuleTypes"), self.letters(types[1], "nMoveRuleTypes")),
            n_fold_rule=values["nFoldRule"], n_fold_value=values["nFoldValue"],
            n_fold_value_absolute=values["nFoldValueAbsolute"],
            perpetual_check_illegal=values["perpetualCheckIllegal"],
            move_repetition_illegal=values["moveRepetitionIllegal"],
            chasing_rule=None if values["chasingRule"] == "none" else values["chasingRule"],
            counting_rule=None if values["countingRule"] == "none" else values["countingRule"],
            material_counting=None if values["materialCounting"] == "none" else values["materialCounting"],
            adjudicate_full_board=values["adjudicateFullBoard"], check_counting=values["checkCounting"],
        )

    def holes(self) -> Region:
        # Fairy-Stockfish's '*' is a wall; walls that never go are the board's holes, but the
        # duck's move takes every wall away: there they are walls (FEN's '*' read as FEEN's).
        if self.values["wallingRule"] == "duck":
            return frozenset()
        return frozenset(self.start_holes)

    def walls(self) -> Walls | None:
        values = self.values
        rule = values["wallingRule"]
        petrify = self.letters(values["petrifyOnCaptureTypes"], "petrifyOnCaptureTypes")
        if rule == "none" and not petrify:
            return None
        if rule != "none":
            if values["pieceDrops"]:
                raise self.error("wallingRule", "walls and drops together (Fairy-Stockfish: \"pieceDrops and "
                                                "any walling are incompatible\")")
            if values["extinctionPseudoRoyal"]:
                raise self.error("wallingRule", "walls with pseudo-royal pieces (the wall a move places "
                                                "shields them): a rule the description cannot say yet")
        regions = tuple(None if self.clip(region) == self.board else self.clip(region)
                        for region in values["wallingRegion"])
        return Walls(None if rule == "none" else rule, (regions[0], regions[1]), petrify)

    def check_start(self, variant: Variant) -> None:
        try:
            fen.to_feen(variant, variant.start)
        except GGNError as error:
            message = str(error).split("\n", 1)[0]
            raise self.error("startFen", f"the start position does not fit the variant: {message}") from None


class _MisfitError(Exception):
    """A start position that does not fit the board: what, for :meth:`_Maker.error`."""


_TOKEN: Final = re.compile(r"[0-9]+|\*|\+?[A-Za-z]~?|.")


def _placement(start: str, files: int, ranks: int) -> tuple[dict[Square, str], set[Square]]:
    """The pieces (FEN letters, by case) and holes (``*``) of a FEN's placement, read leniently:
    what does not fit is left for the FEN reader to report, except a rank that covers more than
    ``files`` squares and more than ``ranks`` ranks (one more may be the hands, lichess-style),
    refused (:class:`_MisfitError`) where they are seen: the text is read no further than the board."""
    board: dict[Square, str] = {}
    holes: set[Square] = set()
    end = len(start)
    for stop in (" ", "["):
        found = start.find(stop, 0, end)
        end = found if found >= 0 else end
    position = 0
    for number in range(ranks + 1):
        slash = start.find("/", position, end)
        row_end = end if slash < 0 else slash
        if number == ranks:  # one more: the hands (lichess's crazyhouse FEN), for the FEN reader
            if slash >= 0:
                raise _MisfitError(f"the placement has more than {ranks} ranks (a '/' at character {slash} "
                                   "of the FEN)")
            break
        rank = ranks - 1 - number
        file = 0
        for match in _TOKEN.finditer(start, position, row_end):
            token = match.group()
            if token.isdigit():
                file += int(token[:3])
            else:
                if token == "*":  # noqa: S105 (a FEN token, no password)
                    holes.add((file, rank))
                elif token[-1:].isalpha() or token.endswith("~"):
                    board[(file, rank)] = token.strip("+~")
                file += 1
            if file > files:
                written = start[position:position + 41]  # not a copy of the whole rank
                written = quote(written) if row_end - position <= 40 else \
                    f"{written[:40]!r}... ({row_end - position:,} characters)"
                raise _MisfitError(f"rank {rank + 1} {written} covers more than {files} squares (from "
                                   f"{token[:3]!r} at character {match.start()} of the FEN)")
        if slash < 0:
            break
        position = slash + 1
    return board, holes


# --- resolution ---------------------------------------------------------------------------------
def _chain(name: str, lookup: Callable[[str], Section | None], cache: Mapping[str, _State]) -> list[Section]:
    """The sections from ``name`` up to its first ancestor already resolved (in ``cache``) or
    without a parent. Its ancestors are counted on to the first without a parent (at most
    :data:`MAX_DEPTH` + 1 looked up): a chain of more is an error."""
    chain: list[Section] = []
    seen: set[str] = set()
    current: str | None = name
    child: Section | None = None
    resolved = False  # past the first ancestor already resolved: counting only
    while current is not None:
        if current in seen:
            assert child is not None
            through = " <- ".join(section.name for section in chain)
            raise VariantError(f"[{child.name}] inherits from itself (through {through})", child.source,
                               child.line)
        seen.add(current)
        section = lookup(current)
        if section is None:
            assert child is not None
            raise _no_parent(child, current)
        if len(seen) > MAX_DEPTH + 1:
            first = lookup(name)
            assert first is not None
            raise VariantError(f"[{name}] has more than {MAX_DEPTH} ancestors (the variants it inherits "
                               f"from, one from another: [{name}:{first.parent}] and on); at most "
                               f"{MAX_DEPTH} (ggn.variants.ini.MAX_DEPTH)", first.source, first.line)
        if not resolved:
            chain.append(section)
            resolved = current in cache
        child, current = section, section.parent
    return chain


def _state(chain: list[Section], cache: dict[str, _State]) -> _State:
    """The state of ``chain[0]``: only the chain's last section may be resolved already."""
    state = cache.get(chain[-1].name)
    for section in reversed(chain if state is None else chain[:-1]):
        state = state.copy() if state is not None else _State()
        _Reader(section, state).apply()
        cache[section.name] = state
    assert state is not None
    return state


def resolve(name: str, sections: Mapping[str, Section]) -> Variant:
    """The variant of the section ``name``, its parents looked up in ``sections`` (by name).

    >>> found = {s.name: s for s in sections('''
    ... [base]
    ... king = k
    ... startFen = 8/8/8/8/8/8/8/K6k w - - 0 1
    ... [child:base]
    ... maxFile = 6
    ... startFen = 6/6/6/6/6/6/6/K4k w - - 0 1
    ... ''')}
    >>> resolve("child", found).files
    6
    """
    expect(name, str, "name", "a str")
    expect(sections, Mapping, "sections", "a mapping of names to Sections")
    if name not in sections:
        raise NotFoundError.unknown("variant", name, sorted(sections))
    return _resolve(name, sections.get, {})


def _resolve(name: str, lookup: Callable[[str], Section | None], cache: dict[str, _State]) -> Variant:
    chain = _chain(name, lookup, cache)
    state = _state(chain, cache)
    return _Maker(name, chain[0], state).make()


def load(
    text: str, *, source: str = "<ini>", known: Mapping[str, Section] | None = None
) -> dict[str, Variant]:
    """Every variant of ``variants.ini`` text, by name, in the order written: all or none.

    A section inherits from an earlier section of the text, or else from ``known`` (sections
    by name: the built-in ones), as Fairy-Stockfish lets a file inherit from earlier variants
    and its built-ins. Any fault is a :class:`~ggn.errors.VariantError` that names the source,
    the line and the option; then nothing is returned.
    """
    return load_sections(sections(text, source=source), known=known)


def load_sections(
    found: Sequence[Section], *, known: Mapping[str, Section] | None = None
) -> dict[str, Variant]:
    """The variants of the sections of one text (as :func:`sections` reads them), as :func:`load`
    makes them from the text: for a caller that keeps the sections too, without reading it twice.
    A fault names the source each section was read from.
    """
    expect(found, (list, tuple), "found", "a list of sections")
    for section in found:
        expect(section, Section, "found", "a list of sections")
    if known is not None:
        expect(known, Mapping, "known", "a mapping of names to sections, or None")
    before: dict[str, Section] = {}
    for section in found:
        if section.name in before:
            first = before[section.name].line
            raise VariantError(f"[{section.name}] is defined twice (first at line {first})",
                               section.source, section.line)
        if known is not None and section.name in known:
            raise VariantError(f"[{section.name}] is already a variant; give this one another name",
                               section.source, section.line)
        before[section.name] = section
    variants: dict[str, Variant] = {}
    cache: dict[str, _State] = {}
    earlier: dict[str, Section] = {}

    def lookup(wanted: str) -> Section | None:
        if wanted in earlier:
            return earlier[wanted]
        return known.get(wanted) if known is not None else None

    for section in found:
        if section.parent is not None and lookup(section.parent) is None:
            raise _no_parent(section, section.parent, later=section.parent in before)
        earlier[section.name] = section
        variants[section.name] = _resolve(section.name, lookup, cache)
    return variants
