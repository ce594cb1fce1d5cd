"""Board pictures: a :class:`~ggn.position.Position` drawn as SVG, with no dependency.

:func:`board` draws any board FEEN can write: a row of squares (1D), a board of files and
ranks (2D), or one board per layer, side by side and labelled with the layer's letter (3D).
Beside the board it draws both hands, each kind of piece once with its count, and a dot by
the hand of the player to move; around it the squares' CELL names (files ``a`` to ``z``,
then ``aa``, ``ab``, ...; ranks ``1``, ``2``, ...). It can fill squares (``highlight``),
draw arrows for moves (``arrows``), leave out squares that are not part of the board
(``holes``, as Fairy-Stockfish's ``*``), and turn the board round (``flipped``).

Pieces are drawn by *family*, chosen by the piece's style letter (``families``): ``chess``
(figures drawn as SVG shapes, so no font is needed: king, queen, rook, bishop, knight and
pawn for ``K Q R B N P``), ``shogi`` (pentagons pointing at the opponent, with the piece's
kanji, red once promoted), ``xiangqi`` (discs with the piece's character, red for the first
player), ``janggi`` (octagons with the piece's character, blue for the first player, Cho,
red for the second, Han, the general largest and the advisors and soldiers smallest),
``makruk`` (the chess figures for ``K R N``, and the khon ``S``, the met ``M`` and
the bia ``P`` as shapes of their own) and ``letters``: a disc with the piece's letter, the
clear fallback of every other style, and of any letter a family has no glyph for. By default
the styles ``C``, ``S``, ``X`` and ``M`` are chess, shogi, xiangqi and makruk and the others
letters; :meth:`ggn.variants.registry.Entry.svg` chooses from the game's pieces instead.
Every character a picture writes (kanji, Chinese characters, letters, coordinates, counts) is
drawn as SVG paths, from outlines shipped with ggn (``ggn/_glyphs.json``, made from Noto Serif
CJK and DejaVu Sans: ``docs/pictures.md``), so a picture needs no font and looks the same in
every browser and renderer; ``letters=True`` draws the PIN letter instead of the characters;
``font`` writes the characters as ``<text>`` in a font named, for who wants one.

The marks of the notations are drawn on every piece, as small badges: ``+`` (enhanced: a
castling right, a promoted shogi piece shows its promoted character instead) and ``-``
(diminished: a pawn that may be taken en passant) at the top right, ``^`` (terminal: a royal
piece) at the top left, and ``'`` (a derived piece, of the other player's style) at the
bottom left. Each piece has a ``<title>``, its QPI and square.

The contract other tools rely on (the explorer of ``ggn serve`` does): every piece on the
board is an element with ``data-square`` (its CELL) and ``data-piece`` (its QPI); every kind
of piece in a hand is an element with ``data-hand`` (``first`` or ``second``),
``data-piece`` and ``data-count``. Each square is an element with ``data-cell``, and, drawn
last over everything, a transparent ``rect.square`` with ``data-square`` that takes the pointer
(the other parts take no pointer events). The picture is SVG 1.1 (``xmlns:xlink`` for
``<use>``), and every text in it is escaped.

``compact=True`` draws the same picture for a renderer rather than a browser, in fewer
elements: the squares of each colour as one path, the chess figures written out rather than
referred to by ``<use>``, and no titles, no per-square elements and no ``data-`` attributes (the contract
above is for the default). :func:`png` renders that with cairosvg, whose time follows the
number of elements drawn, and bounds it (:data:`MAX_PNG_ELEMENTS`).

>>> from ggn.position import Position
>>> picture = board(Position.from_feen("k^1K^/3 / C/c"), size=40)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> picture.count('data-piece="C:K^"'), picture.count('data-square="a2"')  # a piece, a target
(1, 2)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, Protocol

from ggn._glyphs import NUMERALS, RIVER, has, outline, path_data, place
from ggn._glyphs import width as _text_width
from ggn._types import Side, expect
from ggn.cell import Cell, Hand, parse_location
from ggn.errors import GGNError
from ggn.position import Position
from ggn.qpi import Qpi

__all__ = [
    "CHECK", "CONVENTIONS", "COORDINATES", "DEFAULT_FAMILIES", "FAMILIES", "HIGHLIGHT", "LAST",
    "MAX_DRAWN_SQUARES", "MAX_PNG_ELEMENTS", "MAX_PNG_PIXELS", "MAX_PNG_SIDE", "TARGET", "board",
    "drawn_elements", "family_of", "piece", "png",
]

FAMILIES: Final = ("chess", "shogi", "xiangqi", "janggi", "makruk", "letters")
"""The families of glyphs :func:`board` draws pieces with."""

COORDINATES: Final = ("game", "outside", "inside", "cell", "none")
"""The styles of coordinates :func:`board` writes: ``game``, the game's own (the default:
shogi's files 9 to 1 above the board and its ranks 一 to 九 on the right, xiangqi's files from
each player's right along its own edge, 九 to 一 for red and 1 to 9 for black, janggi's files 1
to 9 and ranks 1 to 0; every other board as ``outside``); ``outside``, the files' and ranks'
CELL names in the margins below and to the left (``a``, ``b``, ... and ``1``, ``2``, ...);
``inside``, the same names inside the edge squares (files along the bottom rank, ranks up the
left file, as lichess writes them); ``cell``, each square's whole CELL name in its corner; and
``none``."""

CONVENTIONS: Final = ("chess", "shogi", "xiangqi", "janggi")
"""The board conventions :func:`board` draws a board of files and ranks by: its look, its
coordinates (``game``) and where the hands go (shogi: the top player's at the top left, the
bottom player's at the bottom right). ``xiangqi`` draws the river with its words 楚河 漢界, the
palaces' diagonals and the marks of the soldiers' and cannons' points; ``janggi`` the palaces'
diagonals and no river."""

DEFAULT_FAMILIES: Final[Mapping[str, str]] = {"C": "chess", "S": "shogi", "X": "xiangqi", "M": "makruk"}
"""The family of each style letter when ``families`` does not say; any other style: letters."""

MAX_DRAWN_SQUARES: Final = 1 << 16
"""The most squares :func:`board` draws (65,536, a 256x256 board): a short FEEN can name a
board of millions of squares, whose picture would take hundreds of megabytes."""

MAX_PNG_ELEMENTS: Final = 10_000
"""The most elements :func:`png` has cairosvg draw (:func:`drawn_elements` of the compact
picture). cairosvg's time follows them, not the pixels: 0.2 to 0.6 ms each here (a text
costs about twice a rectangle), so at the bound a picture takes a few seconds. Before the
bound, a full 128x128 board at ``--size 8`` (about 2,100 pixels a side) took 18.9 s and
256x256 did not end in 180 s. Full boards of up to 57x57 shogi pieces, 70x70 lettered discs
or 33x33 chess queens are drawn (2.4 to 3 s each here); more than 5,000 pieces are refused
before their picture is made."""

MAX_PNG_SIDE: Final = 32767
"""The largest side of a picture cairo draws, in pixels."""

MAX_PNG_PIXELS: Final = 1 << 25
"""The most pixels of a picture :func:`png` draws (33,554,432: 5,792 a side, a surface of
128 MiB): cairo's time and memory follow them (chess at ``--size 512``, 4,710x4,454 pixels,
takes 2.5 s and 120 MB here)."""

HIGHLIGHT: Final = "#f4d03f"
"""The fill of a highlighted square (a square given without a colour)."""

TARGET: Final = "#5dade2"
"""A second fill for highlights, for the destinations of a piece (``ggn show --moves-from``)."""

LAST: Final = "#9bc700"
"""The tint of the last move's squares (``board(last=...)``), at 41% opacity, as lichess's."""

CHECK: Final = "#e70000"
"""The red of the glow under a royal piece in check (``board(check=...)``)."""

_FAMILY: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,63}")
_COLOUR: Final = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}|[a-zA-Z]{1,30}")
_SVG_NS: Final = "http://www.w3.org/2000/svg"
_XLINK_NS: Final = "http://www.w3.org/1999/xlink"
_CJK_FONT: Final = ("Noto Serif CJK JP, Noto Sans CJK JP, Source Han Serif, IPAMincho, IPAGothic, "
                    "Hiragino Mincho ProN, Yu Mincho, MS Mincho, SimSun, serif")


class _Move(Protocol):
    """Anything with a source and a destination: a :class:`~ggn.move.Move`, a rule system's
    ``Play``."""

    @property
    def source(self) -> Cell | Hand: ...
    @property
    def destination(self) -> Cell | Hand: ...


Square = Cell | str
Arrow = tuple[Cell | Hand | str, Cell | Hand | str] | _Move


# --- text ----------------------------------------------------------------------------------
def _escape(text: str) -> str:
    """Text for an attribute or an element: the five XML specials escaped, and characters XML
    1.0 cannot hold at all left out."""
    text = "".join(ch for ch in text if ch in "\t\n\r" or (ch >= " " and ch not in "\ufffe\uffff"))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _n(value: float, places: int = 2) -> str:
    """A number as SVG writes it: at most two decimals (or ``places``), no trailing zeros."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# --- families --------------------------------------------------------------------------------
def family_of(piece: Qpi, families: Mapping[str, str] | None = None) -> str:
    """The family of glyphs ``piece`` is drawn with: ``families`` (style letter to family, in
    either case) first, then :data:`DEFAULT_FAMILIES`, else ``letters``."""
    expect(piece, Qpi, "piece", "a Qpi")
    if families is not None:
        expect(families, Mapping, "families", "a mapping of style letters to families, or None")
    style = piece.sin.style
    if families:
        chosen = families.get(style) or families.get(style.lower())
        if chosen is not None:
            return chosen
    return DEFAULT_FAMILIES.get(style, "letters")


# Glyph drawings, in a box of 100 by 100 units. ``F`` is the fill of the piece's colour, ``L``
# its lines (dark on a light piece, light on a dark one), ``O`` its outline.
_CHESS: Final[Mapping[str, str]] = {
    "P": (
        '<path d="M34 70 Q36 56 44 50 L56 50 Q64 56 66 70 Z" fill="F" stroke="O" stroke-width="3"/>'
        '<rect x="25" y="70" width="50" height="14" rx="4" fill="F" stroke="O" stroke-width="3"/>'
        '<ellipse cx="50" cy="49" rx="14" ry="4.5" fill="F" stroke="O" stroke-width="3"/>'
        '<circle cx="50" cy="33" r="12" fill="F" stroke="O" stroke-width="3"/>'
    ),
    "R": (
        '<path d="M33 36 L35 74 L65 74 L67 36 Z" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M27 38 V18 H36 V25 H45 V18 H55 V25 H64 V18 H73 V38 Z" fill="F" stroke="O" '
        'stroke-width="3" stroke-linejoin="round"/>'
        '<rect x="23" y="73" width="54" height="13" rx="3" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M35 44 H65 M35.5 66 H64.5" stroke="L" stroke-width="2.5"/>'
    ),
    "B": (
        '<path d="M39 58 Q41 70 33 76 H67 Q59 70 61 58 Z" fill="F" stroke="O" stroke-width="3"/>'
        '<rect x="24" y="75" width="52" height="11" rx="4" fill="F" stroke="O" stroke-width="3"/>'
        '<ellipse cx="50" cy="57" rx="14" ry="5" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M50 16 C67 28 68 43 61 52 H39 C32 43 33 28 50 16 Z" fill="F" stroke="O" '
        'stroke-width="3" stroke-linejoin="round"/>'
        '<circle cx="50" cy="12" r="5" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M55 28 L46 40 M44 47 H56" stroke="L" stroke-width="3" stroke-linecap="round"/>'
    ),
    "N": (
        '<path d="M36 86 H77 Q80 58 72 42 Q64 25 49 20 L46 10 L39 19 Q31 23 27 33 L17 50 '
        'Q15 57 21 60 L27 59 Q31 63 37 59 L47 53 Q48 63 39 71 Q33 77 36 86 Z" fill="F" '
        'stroke="O" stroke-width="3" stroke-linejoin="round"/>'
        '<rect x="30" y="78" width="50" height="10" rx="3" fill="F" stroke="O" stroke-width="3"/>'
        '<circle cx="38" cy="33" r="3.2" fill="L"/>'
        '<path d="M22 52 L26 50 M58 24 Q70 36 71 60" stroke="L" stroke-width="2.5" fill="none" '
        'stroke-linecap="round"/>'
    ),
    "Q": (
        '<path d="M29 76 L21 34 L36 56 L37 24 L46 53 L50 18 L54 53 L63 24 L64 56 L79 34 L71 76 Z" '
        'fill="F" stroke="O" stroke-width="3" stroke-linejoin="round"/>'
        '<rect x="24" y="74" width="52" height="12" rx="4" fill="F" stroke="O" stroke-width="3"/>'
        '<circle cx="21" cy="32" r="4.5" fill="F" stroke="O" stroke-width="2.5"/>'
        '<circle cx="37" cy="22" r="4.5" fill="F" stroke="O" stroke-width="2.5"/>'
        '<circle cx="50" cy="15" r="4.5" fill="F" stroke="O" stroke-width="2.5"/>'
        '<circle cx="63" cy="22" r="4.5" fill="F" stroke="O" stroke-width="2.5"/>'
        '<circle cx="79" cy="32" r="4.5" fill="F" stroke="O" stroke-width="2.5"/>'
        '<path d="M31 67 Q50 61 69 67" stroke="L" stroke-width="2.5" fill="none"/>'
    ),
    "K": (
        '<path d="M28 76 Q19 56 28 46 Q39 37 50 50 Q61 37 72 46 Q81 56 72 76 Z" fill="F" '
        'stroke="O" stroke-width="3" stroke-linejoin="round"/>'
        '<ellipse cx="50" cy="44" rx="7.5" ry="9" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M46.5 9 H53.5 V16 H60 V23 H53.5 V34 H46.5 V23 H40 V16 H46.5 Z" fill="F" '
        'stroke="O" stroke-width="2.5" stroke-linejoin="round"/>'
        '<rect x="24" y="74" width="52" height="12" rx="4" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M30 67 Q50 60 70 67" stroke="L" stroke-width="2.5" fill="none"/>'
    ),
}

_MAKRUK: Final[Mapping[str, str]] = {
    "K": _CHESS["K"], "R": _CHESS["R"], "N": _CHESS["N"],
    "S": (  # khon: a temple's spire
        '<path d="M31 78 Q31 52 50 45 Q69 52 69 78 Z" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M43 47 L50 18 L57 47 Z" fill="F" stroke="O" stroke-width="3" stroke-linejoin="round"/>'
        '<circle cx="50" cy="16" r="4" fill="F" stroke="O" stroke-width="2.5"/>'
        '<rect x="24" y="76" width="52" height="10" rx="4" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M36 66 H64" stroke="L" stroke-width="2.5"/>'
    ),
    "M": (  # met: a low dome and a knob
        '<path d="M31 78 Q31 56 50 52 Q69 56 69 78 Z" fill="F" stroke="O" stroke-width="3"/>'
        '<circle cx="50" cy="43" r="9" fill="F" stroke="O" stroke-width="3"/>'
        '<rect x="24" y="76" width="52" height="10" rx="4" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M37 67 H63" stroke="L" stroke-width="2.5"/>'
    ),
    "P": (  # bia: a flat shell
        '<ellipse cx="50" cy="72" rx="26" ry="11" fill="F" stroke="O" stroke-width="3"/>'
        '<ellipse cx="50" cy="61" rx="19" ry="9" fill="F" stroke="O" stroke-width="3"/>'
        '<path d="M39 60 Q50 55 61 60" stroke="L" stroke-width="2.5" fill="none"/>'
    ),
}

# Shogi: the kanji of each piece, and of its promoted form; the first player's king is the
# jewel general, the second's the king general.
_SHOGI: Final[Mapping[str, str]] = {
    "P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛", "K": "玉",
    "k": "王", "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍",
    "H": "馬", "D": "龍",
}
_SHOGI_SCALE: Final[Mapping[str, float]] = {
    "K": 1.0, "R": 0.96, "B": 0.96, "G": 0.92, "S": 0.92, "N": 0.88, "L": 0.88, "P": 0.84,
}

# Xiangqi: the first player's (red) characters, then the second's (black).
_XIANGQI: Final[Mapping[str, tuple[str, str]]] = {
    "G": ("帥", "將"), "A": ("仕", "士"), "E": ("相", "象"), "H": ("馬", "馬"), "R": ("俥", "車"),
    "C": ("炮", "砲"), "P": ("兵", "卒"), "M": ("旗", "旗"),
}

# Janggi: the first player's (Cho, blue) characters, then the second's (Han, red), and the
# pieces' sizes (the general largest, the advisors and soldiers smallest), of a square's side.
_JANGGI: Final[Mapping[str, tuple[str, str]]] = {
    "G": ("楚", "漢"), "A": ("士", "士"), "E": ("象", "象"), "H": ("馬", "馬"), "R": ("車", "車"),
    "C": ("包", "包"), "P": ("卒", "兵"),
}
_JANGGI_SCALE: Final[Mapping[str, float]] = {
    "G": 0.96, "R": 0.84, "C": 0.84, "H": 0.84, "E": 0.84, "A": 0.7, "P": 0.7,
}

_LIGHT: Final = ("#fbfaf6", "#1b1b1b", "#1b1b1b")  # fill, lines, outline of a first-side figure
_DARK: Final = ("#2f2f2f", "#ececec", "#0d0d0d")
_RED: Final = "#b8202a"
_BLUE: Final = "#1f4e9c"
_INK: Final = "#1d1d1d"


class _Look:
    """The board's colours and lines, by the family of the first player's style."""

    def __init__(self, family: str) -> None:
        self.family = family
        self.grid = family in ("shogi", "makruk")  # plain wood, with lines between squares
        self.points = family in ("xiangqi", "janggi")  # pieces on the lines' crossings
        self.light, self.dark = {
            "chess": ("#eedcbb", "#b2875f"),
            "shogi": ("#eac98e", "#eac98e"),
            "makruk": ("#d8b886", "#d8b886"),
            "xiangqi": ("#efd49e", "#efd49e"),
            "janggi": ("#efd49e", "#efd49e"),
        }.get(family, ("#e3e7ec", "#9eabbb"))
        self.line = {"shogi": "#3c2a12", "makruk": "#4b3318", "xiangqi": "#4a2d12",
                     "janggi": "#4a2d12"}.get(family, "#555")


# --- the picture ---------------------------------------------------------------------------
class _Canvas:
    """The picture being written: its definitions (glyphs used, once each) and its body."""

    def __init__(self) -> None:
        self.defs: dict[str, str] = {}
        self.body: list[str] = []

    def add(self, text: str) -> None:
        self.body.append(text)

    def glyph(self, char: str, face: str) -> str:
        """The id of a character's outline, defined on first use (drawn by ``<use>``, in the
        fill the ``<use>`` gives)."""
        ident = f"ggn-{face}-{ord(char):x}"
        if ident not in self.defs:
            self.defs[ident] = f'<path id="{ident}" d="{path_data(char, face)}"/>'
        return ident


def _text(canvas: _Canvas, text: str, centre: tuple[float, float], size: float, *, face: str, fill: str,
          compact: bool, reuse: bool = False, attributes: str = "") -> str:
    """``text`` drawn as paths (no font needed), centred on ``centre``, ``size`` to the em. A
    piece's character (``reuse``: it stands on many squares) is defined once in the default
    picture and drawn by ``<use>``; the compact picture writes it out (cairosvg copies what a
    ``<use>`` names each time). The default picture says its text in ``data-text``."""
    x, y = centre
    if not compact:
        attributes += f' data-text="{_escape(text)}"'
    if compact or not reuse or len(text) != 1 or not path_data(text, face):
        return outline(text, x, y, size, fill=fill, face=face, attributes=attributes)
    ident = canvas.glyph(text, face)
    return (f'<use{attributes} xlink:href="#{ident}" transform="{place(text, x, y, size, face=face)}" '
            f'fill="{fill}"/>')


def _figure(canvas: _Canvas, table: Mapping[str, str], family: str, letter: str, side: Side) -> str:
    """The id of a figure's definition, defined on first use."""
    ident = f"ggn-{family}-{letter}-{side[0]}"
    if ident not in canvas.defs:
        canvas.defs[ident] = f'<g id="{ident}">{_drawing(table, letter, side)}</g>'
    return ident


def _drawing(table: Mapping[str, str], letter: str, side: Side) -> str:
    """A figure's shapes in the side's colours."""
    fill, lines, outline = _LIGHT if side == "first" else _DARK
    return (table[letter].replace('"F"', f'"{fill}"').replace('"L"', f'"{lines}"')
            .replace('"O"', f'"{outline}"'))


class _Glyphs:
    """How pieces are drawn: the options of :func:`board` that choose their glyphs."""

    def __init__(self, families: Mapping[str, str] | None, aliases: Mapping[str, str] | None,
                 letters: bool, font: str | None, *, upright: bool, compact: bool = False) -> None:
        self.compact = compact  # written out, without <use>, titles or data- attributes
        self.families = families
        self.aliases = aliases or {}
        self.letters = letters
        # A font asked for by name writes the characters as text in it; else they are paths.
        self.font = None if font is None else _escape(f"{font}, {_CJK_FONT}")
        self.upright = upright  # the first player at the bottom: shogi pieces point up

    def family(self, piece: Qpi) -> str:
        return family_of(piece, self.families)

    def key(self, piece: Qpi) -> str:
        """The letter of the family's glyph to draw ``piece`` with: its alias, or its own."""
        return self.aliases.get(f"{piece.sin.style}:{piece.name}", piece.name)


def _glyph(canvas: _Canvas, piece: Qpi, box: tuple[float, float, float], glyphs: _Glyphs) -> str:
    """The drawing of ``piece`` in the square ``box`` (its left, top and side): the glyph of
    its family for its letter (or its alias), else its own letter."""
    x, y, size = box
    family = glyphs.family(piece)
    key = glyphs.key(piece)
    if family in ("chess", "makruk"):
        table = _CHESS if family == "chess" else _MAKRUK
        if key in table:
            place = f'transform="translate({_n(x)} {_n(y)}) scale({_n(size / 100)})"'
            if glyphs.compact:  # cairosvg copies what a <use> names each time: dearer than its parts
                return f"<g {place}>{_drawing(table, key, piece.side)}</g>"
            ident = _figure(canvas, table, family, key, piece.side)
            return f'<use xlink:href="#{ident}" {place}/>'
    if family == "shogi":
        return _shogi(canvas, piece, key, box, glyphs)
    if family == "janggi":
        return _janggi(canvas, piece, key, box, glyphs)
    if family == "xiangqi":
        characters = None if glyphs.letters else _XIANGQI.get(key)
        if characters is not None:
            text = characters[0 if piece.side == "first" else 1]
            return _disc(canvas, piece, text, box, glyphs, xiangqi=True)
        return _disc(canvas, piece, piece.name, box, glyphs, xiangqi=True)
    return _disc(canvas, piece, piece.name, box, glyphs, xiangqi=False)


def _cjk_text(text: str, centre: tuple[float, float], em: float, fill: str, font: str) -> str:
    """Characters written as text in the font the caller named (``board``'s ``font``)."""
    x, y = centre
    return (f'<text x="{_n(x)}" y="{_n(y + em * 0.36)}" font-family="{font}" font-size="{_n(em)}" '
            f'font-weight="bold" text-anchor="middle" fill="{fill}">{_escape(text)}</text>')


def _shogi(canvas: _Canvas, piece: Qpi, key: str, box: tuple[float, float, float], glyphs: _Glyphs) -> str:
    x, y, size = box
    promoted = piece.state == "enhanced"
    kanji = "k" if key == "K" and piece.side == "second" else ("+" if promoted else "") + key
    text = None if glyphs.letters else _SHOGI.get(kanji)
    colour = _RED if promoted else _INK
    if text is None:
        text = ("+" if promoted else "") + piece.name
        em = 30 if len(text) > 1 else 40
        drawn = _text(canvas, text, (50, 52), em, face="sans-bold", fill=colour, compact=glyphs.compact,
                      reuse=True)
    elif glyphs.font is not None:
        drawn = _cjk_text(text, (50, 52), 44, colour, glyphs.font)
    else:
        drawn = _text(canvas, text, (50, 52), 44, face="ja", fill=colour, compact=glyphs.compact, reuse=True)
    scale = _SHOGI_SCALE.get(key, 0.9) * size / 100
    # The pentagon points away from its own player: up for the player at the bottom.
    turned = (piece.side == "first") != glyphs.upright
    rotate = " rotate(180 50 50)" if turned else ""
    offset = (size - scale * 100) / 2
    return (
        f'<g transform="translate({_n(x + offset)} {_n(y + offset)}) scale({_n(scale)}){rotate}">'
        '<path d="M50 6 L77 19 L88 93 L12 93 L23 19 Z" fill="#f4d9a6" stroke="#6d4c1d" '
        f'stroke-width="3" stroke-linejoin="round"/>{drawn}</g>'
    )


def _janggi(canvas: _Canvas, piece: Qpi, key: str, box: tuple[float, float, float], glyphs: _Glyphs) -> str:
    """An octagon with the piece's character, sized by its rank, in its side's colour."""
    x, y, size = box
    first = piece.side == "first"
    characters = None if glyphs.letters else _JANGGI.get(key)
    colour = _BLUE if first else _RED
    side = _JANGGI_SCALE.get(key, 0.84) * size
    cx, cy, r = x + size / 2, y + size / 2, side / 2
    # A regular octagon, flat at the top: its corners at 22.5 degrees and every 45 after.
    corners = " ".join(f"{_n(cx + r * math.cos(math.radians(22.5 + 45 * i)))},"
                       f"{_n(cy + r * math.sin(math.radians(22.5 + 45 * i)))}" for i in range(8))
    octagon = (f'<polygon points="{corners}" fill="#f6e7c6" stroke="#5b4220" '
               f'stroke-width="{_n(size * 0.03)}" stroke-linejoin="round"/>')
    if characters is None:
        text = piece.name
        drawn = _text(canvas, text, (cx, cy), side * 0.5, face="sans-bold", fill=colour,
                      compact=glyphs.compact, reuse=True)
    else:
        text = characters[0 if first else 1]
        em = side * 0.62
        drawn = (_cjk_text(text, (cx, cy), em, colour, glyphs.font) if glyphs.font is not None
                 else _text(canvas, text, (cx, cy), em, face="zh", fill=colour, compact=glyphs.compact,
                            reuse=True))
    return octagon + drawn


def _disc(canvas: _Canvas, piece: Qpi, text: str, box: tuple[float, float, float], glyphs: _Glyphs, *,
          xiangqi: bool) -> str:
    """A xiangqi disc with ``text`` (a Chinese character, or a letter), or the lettered
    fallback (``xiangqi`` false)."""
    x, y, size = box
    cx, cy, r = x + size / 2, y + size / 2, size * 0.42
    first = piece.side == "first"
    if xiangqi:
        colour = _RED if first else _INK
        letter = text.isascii()
        em = size * (0.42 if letter else 0.5)
        if letter or glyphs.font is None:
            drawn = _text(canvas, text, (cx, cy), em, face="sans-bold" if letter else "zh", fill=colour,
                          compact=glyphs.compact, reuse=True)
        else:
            drawn = _cjk_text(text, (cx, cy), em, colour, glyphs.font)
        return (
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="#f6e7c6" stroke="{colour}" '
            f'stroke-width="{_n(size * 0.035)}"/>'
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.8)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_n(size * 0.02)}"/>' + drawn
        )
    fill, ink = ("#fbfaf6", _INK) if first else ("#2f2f2f", "#f6f6f6")
    return (
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{fill}" stroke="#111" '
        f'stroke-width="{_n(size * 0.04)}"/>'
        + _text(canvas, text, (cx, cy), size * 0.46, face="sans-bold", fill=ink, compact=glyphs.compact,
                reuse=True)
    )


def _marks(piece: Qpi, x: float, y: float, size: float, glyphs: _Glyphs) -> str:
    """The badges of the piece's state, terminal status and derivation."""
    r = size * 0.1
    out: list[str] = []
    stroke = f'stroke="#fff" stroke-width="{_n(size * 0.035)}" stroke-linecap="round" fill="none"'

    def badge(cx: float, cy: float, colour: str, inside: str, mark: str) -> None:
        disc = (f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{colour}" stroke="#fff" '
                f'stroke-width="{_n(size * 0.015)}"/>{inside}')
        out.append(disc if glyphs.compact else f'<g class="mark" data-mark="{mark}">{disc}</g>')

    right, left, top, bottom = x + size - r * 1.15, x + r * 1.15, y + r * 1.15, y + size - r * 1.15
    shown_promotion = (glyphs.family(piece) == "shogi" and not glyphs.letters
                       and f"+{glyphs.key(piece)}" in _SHOGI)
    if piece.state == "enhanced" and not shown_promotion:
        d = r * 0.55
        badge(right, top, "#2e7d32", f'<path d="M{_n(right - d)} {_n(top)} H{_n(right + d)} '
              f'M{_n(right)} {_n(top - d)} V{_n(top + d)}" {stroke}/>', "+")
    elif piece.state == "diminished":
        d = r * 0.55
        badge(right, top, "#1565c0", f'<path d="M{_n(right - d)} {_n(top)} H{_n(right + d)}" {stroke}/>', "-")
    if piece.terminal:
        d = r * 0.55
        badge(left, top, "#b7791f", f'<path d="M{_n(left - d)} {_n(top + d * 0.5)} L{_n(left)} '
              f'{_n(top - d * 0.6)} L{_n(left + d)} {_n(top + d * 0.5)}" {stroke}/>', "^")
    if piece.derived:
        d = r * 0.5
        badge(left, bottom, "#6a1b9a", f'<path d="M{_n(left + d * 0.2)} {_n(bottom - d)} '
              f'L{_n(left - d * 0.2)} {_n(bottom + d * 0.4)}" {stroke}/>', "'")
    return "".join(out)


def _square_list(squares: Iterable[Square] | Mapping[Square, str], name: str) -> dict[Cell, str]:
    """Highlighted squares and their colours."""
    if isinstance(squares, str | Cell):
        squares = (squares,)
    pairs: Iterator[tuple[object, object]]
    if isinstance(squares, Mapping):
        pairs = iter(squares.items())
    else:
        expect(squares, Iterable, name, "an iterable of squares or a mapping of squares to colours")
        pairs = ((square, HIGHLIGHT) for square in squares)
    found: dict[Cell, str] = {}
    for square, colour in pairs:
        cell = square if isinstance(square, Cell) else Cell.parse(
            expect(square, str, name, "CELL strings or Cells"))
        expect(colour, str, f"the colour of {cell}", "a str")
        assert isinstance(colour, str)
        if not _COLOUR.fullmatch(colour):
            raise GGNError(f"{colour[:40]!r} is not a colour: give #rgb, #rrggbb or a colour's name")
        found[cell] = colour
    return found


def _ends(arrow: object, name: str = "arrows") -> tuple[Cell | Hand, Cell | Hand]:
    """The ends of an arrow (or of ``last``, the option ``name``)."""
    end_name = "an arrow's end" if name == "arrows" else f"an end of {name}"
    if isinstance(arrow, tuple) and len(arrow) == 2:
        ends = []
        for end in arrow:
            if isinstance(end, Cell | Hand):
                ends.append(end)
            else:
                ends.append(parse_location(expect(end, str, end_name, "a Cell, HAND or str")))
        return ends[0], ends[1]
    source, destination = getattr(arrow, "source", None), getattr(arrow, "destination", None)
    if isinstance(source, Cell | Hand) and isinstance(destination, Cell | Hand):
        return source, destination
    what = "pairs or moves" if name == "arrows" else "a pair or a move"
    raise TypeError(f"{name} must be (source, destination) {what} with a source and a destination, "
                    f"got {type(arrow).__name__}")


def board(
    position: Position,
    *,
    highlight: Iterable[Square] | Mapping[Square, str] = (),
    arrows: Iterable[Arrow] = (),
    coordinates: bool | str = True,
    flipped: bool = False,
    size: int = 48,
    hands: bool | None = None,
    holes: Iterable[Square] = (),
    families: Mapping[str, str] | None = None,
    aliases: Mapping[str, str] | None = None,
    letters: bool = False,
    marks: bool = True,
    font: str | None = None,
    compact: bool = False,
    conventions: str | None = None,
    last: Arrow | None = None,
    check: Iterable[Square] = (),
) -> str:
    """The SVG picture of ``position``, as a string.

    - ``highlight``: squares to fill, as CELL strings or :class:`~ggn.cell.Cell` values (filled
      with :data:`HIGHLIGHT`), or a mapping of squares to colours (``#rgb``, ``#rrggbb`` or a
      colour's name).
    - ``arrows``: moves to draw, each a ``(source, destination)`` pair (CELL strings, Cells,
      or ``*`` for the hand of the player to move) or anything with ``source`` and
      ``destination`` (a :class:`~ggn.move.Move`, a rule system's play).
    - ``coordinates``: the style of the squares' names, one of :data:`COORDINATES` (``True``:
      ``game``, the game's own; ``False``: ``none``). The layers' names above each board of a
      3D position are always written.
    - ``flipped``: the second player at the bottom (the board turned round).
    - ``size``: the side of a square, in pixels (8 to 512).
    - ``hands``: draw the hands (``None``: when either holds a piece).
    - ``holes``: squares that are not part of the board, drawn as gaps.
    - ``families``: the family of glyphs of each style letter (see the module's doc), over
      :data:`DEFAULT_FAMILIES`. ``aliases``: draw a piece of a family as another of its letters
      (``{"A:Q": "M"}``: the queen of style ``A`` drawn as the met); an alias the family has no
      glyph for (``"?"``) draws the piece with its own letter.
    - ``letters``: draw shogi and xiangqi pieces with their letter instead of their characters
      (and the game's coordinates with letters and figures: shogi's ranks ``a`` to ``i``).
    - ``marks``: draw the badges of ``+``, ``-``, ``^`` and ``'``.
    - ``font``: a font family to write kanji and Chinese characters in, as ``<text>``, before
      the usual ones (a renderer such as cairosvg takes only the first family it is given);
      ``None`` (the default): drawn as paths, which need no font. Letters, coordinates and
      counts are paths either way.
    - ``compact``: the same picture in fewer elements, for a renderer (see the module's doc):
      no titles, ``data-`` attributes, per-square elements or hit targets.
    - ``conventions``: the board's conventions, one of :data:`CONVENTIONS` (``None``: by the
      family of the first player's pieces: ``shogi``, ``xiangqi``, ``janggi``, else ``chess``).
    - ``last``: the last move, a ``(source, destination)`` pair as ``arrows`` takes them (or a
      move): both squares tinted under the pieces (:data:`LAST`), as game sites show it; a
      drop's source (``*``, the hand) is not marked. Their hit targets say
      ``data-last="from"`` and ``data-last="to"``.
    - ``check``: squares of royal pieces in check, each with a red glow under its piece (a
      circle of :data:`CHECK`, reaching past the discs of pieces on crossings); their hit
      targets say ``data-check="true"``.

    Raise :class:`TypeError` for an argument of the wrong type and
    :class:`~ggn.errors.GGNError` for a square that is not on the board, a colour that is not
    one, a style of coordinates or conventions that is not one, or a board of more than
    :data:`MAX_DRAWN_SQUARES` squares.
    """
    expect(position, Position, "position", "a Position")
    for flag, label in ((flipped, "flipped"), (letters, "letters"), (marks, "marks"), (compact, "compact")):
        expect(flag, bool, label, "a bool")
    style = _coordinates_style(coordinates)
    if conventions is not None:
        expect(conventions, str, "conventions", "a str or None")
        if conventions not in CONVENTIONS:
            raise GGNError(f"no board conventions {conventions[:40]!r}; there are: {', '.join(CONVENTIONS)}")
    if hands is not None:
        expect(hands, bool, "hands", "a bool or None")
    if font is not None and not _FAMILY.fullmatch(expect(font, str, "font", "a str or None")):
        raise GGNError(f"{font[:40]!r} is not a font family's name (letters, digits, spaces, - and _)")
    expect(size, int, "size", "an int")
    if not 8 <= size <= 512:
        raise GGNError(f"a square's size is 8 to 512 pixels, not {size}")
    for option, label in ((families, "families"), (aliases, "aliases")):
        if option is not None:
            expect(option, Mapping, label, "a mapping of str to str")
    if families:
        for kind, family in families.items():
            if family not in FAMILIES:
                raise GGNError(f"no family of glyphs {str(family)[:40]!r} (for style {str(kind)[:8]!r}); "
                               f"there are: {', '.join(FAMILIES)}")
    geometry = position._geometry
    if geometry.size > MAX_DRAWN_SQUARES:
        raise GGNError(f"a board of {geometry.size:,} squares is too large to draw (at most "
                       f"{MAX_DRAWN_SQUARES:,})")
    shape = geometry.shape
    files = shape[0]
    ranks = shape[1] if len(shape) > 1 else 1
    layers = shape[2] if len(shape) > 2 else 1

    def on_board(cell: Cell, what: str) -> int:
        number = geometry.index.get(cell)
        if number is None:
            raise GGNError(f"{what} {cell} is not a square of a board of shape "
                           f"{'x'.join(map(str, shape))}")
        return number

    fills = _square_list(highlight, "highlight")
    for cell in fills:
        on_board(cell, "the highlighted square")
    gaps = set(_square_list(holes, "holes"))
    for cell in gaps:
        on_board(cell, "the hole")
    moved: dict[Cell, str] = {}  # the last move's squares: "from", "to"
    if last is not None:
        source, destination = _ends(last, "last")
        for end, which in ((source, "from"), (destination, "to")):
            if isinstance(end, Cell):
                on_board(end, "the last move's square")
                moved[end] = which
    checked = list(_square_list(check, "check"))
    for cell in checked:
        on_board(cell, "the square in check")
    drawn_arrows = [_ends(arrow) for arrow in expect(arrows, Iterable, "arrows", "an iterable of moves")]
    for ends in drawn_arrows:
        for end in ends:
            if isinstance(end, Cell):
                on_board(end, "the arrow's square")

    feen = position.feen()
    held = {player: feen.hand(player) for player in ("first", "second")}
    show_hands = hands if hands is not None else bool(held["first"] or held["second"])
    family = family_of(Qpi.parse(f"{position.styles[0].letter}:K"), families)
    # The conventions of a board of files and ranks: a shogi or xiangqi board by its pieces'
    # family, unless the game names its own; every other board is named as CELL names it.
    if conventions is None:
        convention = family if family in ("shogi", "xiangqi", "janggi") else "chess"
        look = _Look(family)
    else:
        convention = conventions
        look = _Look(conventions if conventions != "chess" or family in ("shogi", "xiangqi", "janggi")
                     else family)
    if len(shape) != 2:
        convention = "chess"
    if style == "game" and convention == "chess":
        style = "outside"

    # -- layout ------------------------------------------------------------------------------
    s = float(size)
    pad = s * 0.15
    band = s * 0.55  # a margin that holds names
    edges = _EDGES.get((style, convention), frozenset())
    if style == "outside":
        edges = frozenset(("left", "bottom"))
    m_left = band if "left" in edges else pad
    m_right = band if "right" in edges else 0.0  # the turn's strip is there
    m_top = band if "top" in edges else pad
    m_bottom = band if "bottom" in edges else pad
    label_row = s * 0.5 if layers > 1 else 0.0
    gap = s * 0.6
    board_w, board_h = files * s, ranks * s
    boards_w = layers * board_w + (layers - 1) * gap
    strip = s * 0.5  # the turn's dot, between the boards and the hands
    # Each hand holds its kinds in columns of `rows` pieces, beside its half of the board:
    # both on the right, or (shogi) the top player's at the top left, the bottom player's at
    # the bottom right, as shogi's diagrams and boards have them.
    hand_half = max(board_h / 2, s)
    rows = max(1, int(hand_half // s))
    kinds = max(len(held["first"]), len(held["second"]), 1)
    columns = math.ceil(kinds / rows) if show_hands else 0
    hand_w = columns * s
    split_hands = convention == "shogi" and show_hands
    left_hand_x = pad
    left = (pad + hand_w + strip if split_hands else 0.0) + m_left
    top = m_top + label_row
    hands_x = left + boards_w + m_right + strip
    width = hands_x + hand_w + pad
    body_h = max(board_h, (hand_half if split_hands else 2 * hand_half) if show_hands else 0)
    height = top + body_h + m_bottom
    bottom_player: Side = "second" if flipped else "first"

    def origin(cell: Cell) -> tuple[float, float]:
        indices = cell.indices
        f = indices[0]
        r = indices[1] if len(indices) > 1 else 0
        layer = indices[2] if len(indices) > 2 else 0
        column = files - 1 - f if flipped else f
        row = r if flipped else ranks - 1 - r
        return left + layer * (board_w + gap) + column * s, top + row * s

    def hand_box(player: Side) -> tuple[float, float]:
        """The top left corner of a player's hand."""
        if split_hands:
            return (hands_x, top + body_h - hand_half) if player == bottom_player else (left_hand_x, top)
        return hands_x, top + (hand_half if player == bottom_player else 0.0)

    def dot_x(player: Side) -> float:
        """The middle of the strip beside a player's hand, where the turn's dot is."""
        if split_hands and player != bottom_player:
            return left_hand_x + hand_w + strip / 2
        return hands_x - strip / 2

    canvas = _Canvas()
    cells = geometry.cells
    codes = position._codes
    still = "" if compact else ' pointer-events="none"'  # under the squares' hit targets

    # -- boards ------------------------------------------------------------------------------
    for layer in range(layers):
        x0 = left + layer * (board_w + gap)
        canvas.add("<g>" if compact else f'<g class="board" data-layer="{layer}"{still}>')
        if layers > 1:
            name = str(Cell((0, 0, layer)))[2:]
            em = s * 0.34
            canvas.add(_text(canvas, f"layer {name}", (x0 + board_w / 2, top - s * 0.15 - em * 0.36), em,
                             face="sans-bold", fill="#333", compact=compact))
        if look.grid or look.points:
            canvas.add(f'<rect x="{_n(x0)}" y="{_n(top)}" width="{_n(board_w)}" height="{_n(board_h)}" '
                       f'fill="{look.light}"/>')
        if compact:  # the squares as one pattern of light and dark, the holes as one path
            if not (look.grid or look.points):
                a1 = Cell((0, 0, layer) if layers > 1 else (0, 0) if len(shape) > 1 else (0,))
                ax, ay = origin(a1)  # a dark square: (files + ranks) even
                ident = f"ggn-squares-{layer}"
                canvas.defs[ident] = (
                    f'<pattern id="{ident}" patternUnits="userSpaceOnUse" x="{_n(ax)}" y="{_n(ay)}" '
                    f'width="{_n(2 * s)}" height="{_n(2 * s)}">'
                    f'<rect width="{_n(2 * s)}" height="{_n(2 * s)}" fill="{look.light}"/>'
                    f'<rect width="{_n(s)}" height="{_n(s)}" fill="{look.dark}"/>'
                    f'<rect x="{_n(s)}" y="{_n(s)}" width="{_n(s)}" height="{_n(s)}" fill="{look.dark}"/>'
                    "</pattern>")
                canvas.add(f'<rect x="{_n(x0)}" y="{_n(top)}" width="{_n(board_w)}" height="{_n(board_h)}" '
                           f'fill="url(#{ident})"/>')
            holes_here = [cell for cell in gaps if layers == 1 or cell.indices[2] == layer]
            if holes_here:
                d = "".join(f"M{_n(x)} {_n(y)}h{_n(s)}v{_n(s)}h{_n(-s)}z" for x, y in map(origin, holes_here))
                canvas.add(f'<path d="{d}" fill="#ffffff"/>')
        for number in range(layer * files * ranks, (layer + 1) * files * ranks) if not compact else ():
            cell = cells[number]
            x, y = origin(cell)
            indices = cell.indices
            if cell in gaps:
                canvas.add(f'<rect data-cell="{cell}" class="hole" x="{_n(x)}" y="{_n(y)}" width="{_n(s)}" '
                           f'height="{_n(s)}" fill="#ffffff"/>')
                continue
            if not (look.grid or look.points):
                dark = (indices[0] + (indices[1] if len(indices) > 1 else 0)) % 2 == 0
                colour = look.dark if dark else look.light
                canvas.add(f'<rect data-cell="{cell}" x="{_n(x)}" y="{_n(y)}" width="{_n(s)}" '
                           f'height="{_n(s)}" fill="{colour}"/>')
            else:
                canvas.add(f'<rect data-cell="{cell}" x="{_n(x)}" y="{_n(y)}" width="{_n(s)}" '
                           f'height="{_n(s)}" fill="none"/>')
        if look.points:
            canvas.add(_xiangqi_lines((x0, top), files, ranks, s, look.line,
                                      river=convention != "janggi",
                                      points=convention == "xiangqi" and (files, ranks) == (9, 10)))
            if convention == "xiangqi" and ranks % 2 == 0 and ranks >= 4 and files >= 4:
                for text, cx in _river_words(x0, files, s):
                    canvas.add(_label(text, (cx, top + ranks / 2 * s), s * 0.5, fill=look.line, face="zh",
                                      compact=compact, css="river"))
        elif look.grid:
            lines = [f"M{_n(x0 + i * s)} {_n(top)} V{_n(top + board_h)}" for i in range(files + 1)]
            lines += [f"M{_n(x0)} {_n(top + j * s)} H{_n(x0 + board_w)}" for j in range(ranks + 1)]
            canvas.add(f'<path d="{" ".join(lines)}" stroke="{look.line}" '
                       f'stroke-width="{_n(max(1.0, s / 40))}" fill="none"/>')
        else:
            canvas.add(f'<rect x="{_n(x0)}" y="{_n(top)}" width="{_n(board_w)}" height="{_n(board_h)}" '
                       f'fill="none" stroke="#4a4a4a" stroke-width="{_n(max(1.0, s / 32))}"/>')
        canvas.add("</g>")

    for cell, colour in fills.items():
        x, y = origin(cell)
        label = "" if compact else f' class="highlight" data-cell="{cell}"{still}'
        if look.points:  # a point of the lines: a disc around it
            canvas.add(f'<circle{label} cx="{_n(x + s / 2)}" '
                       f'cy="{_n(y + s / 2)}" r="{_n(s * 0.5)}" fill="{colour}" fill-opacity="0.7"/>')
        else:
            canvas.add(f'<rect{label} x="{_n(x)}" y="{_n(y)}" '
                       f'width="{_n(s)}" height="{_n(s)}" fill="{colour}" fill-opacity="0.55"/>')

    for cell in moved:  # lichess's tint of the last move, under the pieces
        x, y = origin(cell)
        label = "" if compact else f' class="last" data-cell="{cell}"{still}'
        canvas.add(f'<rect{label} x="{_n(x)}" y="{_n(y)}" width="{_n(s)}" height="{_n(s)}" '
                   f'fill="{LAST}" fill-opacity="0.41"/>')
    if checked:
        canvas.defs["ggn-check"] = (
            '<radialGradient id="ggn-check"><stop offset="0%" stop-color="#ff0000" stop-opacity="1"/>'
            f'<stop offset="25%" stop-color="{CHECK}" stop-opacity="1"/>'
            '<stop offset="89%" stop-color="#a90000" stop-opacity="0"/></radialGradient>')
        # On the lines' crossings a disc covers most of its cell: the glow reaches past it.
        glow = s * (0.72 if look.points else 0.5)
        for cell in checked:
            x, y = origin(cell)
            label = "" if compact else f' class="check" data-cell="{cell}"{still}'
            canvas.add(f'<circle{label} cx="{_n(x + s / 2)}" cy="{_n(y + s / 2)}" r="{_n(glow)}" '
                       'fill="url(#ggn-check)"/>')

    # -- pieces ------------------------------------------------------------------------------
    glyphs = _Glyphs(families, aliases, letters, font, upright=not flipped, compact=compact)
    for number, code in enumerate(codes):
        if not code:
            continue
        cell = cells[number]
        piece = position.piece_at(cell)
        assert piece is not None
        x, y = origin(cell)
        if compact:
            canvas.add(_glyph(canvas, piece, (x, y, s), glyphs)
                       + (_marks(piece, x, y, s, glyphs) if marks else ""))
            continue
        canvas.add(
            f'<g class="piece" data-square="{_escape(str(cell))}" data-piece="{_escape(str(piece))}"{still}>'
            f'<title>{_escape(str(piece))} on {_escape(str(cell))}</title>'
            + _glyph(canvas, piece, (x, y, s), glyphs)
            + (_marks(piece, x, y, s, glyphs) if marks else "")
            + "</g>"
        )

    # -- coordinates -------------------------------------------------------------------------
    def middle(f: int, r: int = 0, layer: int = 0) -> tuple[float, float]:
        indices = (f, r, layer) if layers > 1 else (f, r) if len(shape) > 1 else (f,)
        x, y = origin(Cell(indices))
        return x + s / 2, y + s / 2

    def ink(indices: tuple[int, ...]) -> str:
        """Names on a square: in the other colour of a chequered board, else the lines'."""
        if look.grid or look.points:
            return look.line
        dark = (indices[0] + (indices[1] if len(indices) > 1 else 0)) % 2 == 0
        return look.light if dark else look.dark

    named: list[tuple[str, float, float, float, str, str]] = []  # text, middle x and y, em, fill, face

    def put(text: str, x: float, y: float, room: float, *, fill: str = "#555", face: str = "sans",
            em: float = s * 0.26) -> None:
        named.append((text, x, y, min(em, room * 0.9 / max(_text_width(text, face), 0.1)), fill, face))

    below, above = top + board_h + m_bottom / 2, top - m_top / 2
    beside = left + boards_w + m_right / 2
    if style == "outside":
        for layer in range(layers):
            for f in range(files):
                put(str(Cell((f,))), middle(f, 0, layer)[0], below, s)
        if len(shape) > 1:
            for r in range(ranks):
                put(str(r + 1), left - m_left / 2, middle(0, r)[1], m_left)
    elif style == "game" and convention == "shogi":
        # Files numbered from the first player's right, ranks from the second player's side
        # (a to i, or kanji numerals): 1a (1一) is the top right square as the first player sees it.
        for f in range(files):
            put(str(files - f), middle(f)[0], above, s, em=s * 0.3)
        for r in reversed(range(ranks)):
            rank = chr(ord("a") + ranks - 1 - r) if letters or ranks > 26 else _kanji(ranks - r)
            put(rank, beside, middle(0, r)[1], m_right, face="sans" if letters else "ja", em=s * 0.3)
    elif style == "game" and convention == "xiangqi":
        # Each player's files numbered from its own right, along its own edge: the first's
        # (red) in Chinese numerals, the second's (black) in figures.
        red, black = (above, below) if flipped else (below, above)
        for f in range(files):
            x = middle(f)[0]
            put(str(files - f) if letters else _kanji(files - f), x, red, s,
                 face="sans" if letters else "zh", em=s * 0.3)
            put(str(f + 1), x, black, s, em=s * 0.3)
    elif style == "game" and convention == "janggi":
        # Files 1 to 9 from the first player's left; ranks 1 to 9 and 0 from the second's side.
        for f in range(files):
            put(str(f + 1), middle(f)[0], below, s, em=s * 0.3)
        for r in reversed(range(ranks)):
            put(str((ranks - r) % 10), beside, middle(0, r)[1], m_right, em=s * 0.3)
    elif style == "inside":
        # As lichess: the files along the bottom rank, bottom right; the ranks up the left file,
        # top left; each in the other colour of its square.
        em = s * 0.22
        bottom_rank = ranks - 1 if flipped else 0
        left_file = files - 1 if flipped else 0
        for layer in range(layers):
            for f in range(files):
                indices = ((f, bottom_rank, layer) if layers > 1 else (f, bottom_rank) if len(shape) > 1
                           else (f,))
                text = str(Cell((f,)))
                fitted = min(em, s * 0.5 / (0.62 * len(text)))
                x, y = origin(Cell(indices))
                put(text, x + s * 0.94 - 0.31 * fitted * len(text), y + s * 0.94 - fitted * 0.5, s,
                    fill=ink(indices), em=fitted)
            for r in range(ranks) if len(shape) > 1 else ():
                indices = (left_file, r, layer) if layers > 1 else (left_file, r)
                text = str(r + 1)
                fitted = min(em, s * 0.5 / (0.62 * len(text)))
                x, y = origin(Cell(indices))
                put(text, x + s * 0.06 + 0.31 * fitted * len(text), y + s * 0.06 + fitted * 0.5, s,
                    fill=ink(indices), em=fitted)
    elif style == "cell":
        for cell in cells:  # each square's CELL name, at its bottom right
            if cell in gaps:
                continue
            text = str(cell)
            fitted = min(s * 0.2, s * 0.8 / (0.62 * len(text)))
            x, y = origin(cell)
            put(text, x + s * 0.95 - 0.31 * fitted * len(text), y + s * 0.95 - fitted * 0.5, s,
                fill=ink(cell.indices), em=fitted)
    if named:
        canvas.add("<g>" if compact else f'<g class="coordinates" data-style="{style}"{still}>')
        for text, x, y, em, fill, face in named:
            canvas.add(_label(text, (x, y), em, fill=fill, face=face, compact=compact, css="coordinate"))
        canvas.add("</g>")

    # -- hands and the turn ---------------------------------------------------------------
    for player in ("first", "second"):
        hx, hy = hand_box(player)
        if show_hands:
            canvas.add("<g>" if compact else f'<g class="hand" data-player="{player}">')
            canvas.add(f'<rect x="{_n(hx)}" y="{_n(hy + s * 0.05)}" width="{_n(max(columns, 1) * s)}" '
                       f'height="{_n(hand_half - s * 0.1)}" rx="{_n(s * 0.12)}" fill="#f1ede4" '
                       'stroke="#c9c0ad"/>')
            for slot, (piece, count) in enumerate(held[player].items()):
                column, row = divmod(slot, rows)
                if split_hands and player != bottom_player:  # the column by the board first
                    column = columns - 1 - column
                x = hx + column * s
                y = (hy + hand_half - (row + 1) * s) if player == bottom_player else hy + row * s
                if compact:
                    canvas.add(_glyph(canvas, piece, (x + s * 0.08, y + s * 0.08, s * 0.84), glyphs)
                               + (_marks(piece, x, y, s, glyphs) if marks else "")
                               + _count_badge(canvas, count, x, y, s, compact=True))
                    continue
                canvas.add(
                    f'<g class="held" data-hand="{player}" data-piece="{_escape(str(piece))}" '
                    f'data-count="{count}"><title>{_escape(str(piece))} x{count} in the {player} '
                    f"player's hand</title>"
                    + _glyph(canvas, piece, (x + s * 0.08, y + s * 0.08, s * 0.84), glyphs)
                    + (_marks(piece, x, y, s, glyphs) if marks else "")
                    + _count_badge(canvas, count, x, y, s, compact=False)
                    + "</g>"
                )
            canvas.add("</g>")
        if player == position.active:
            dot_y = hy + (hand_half - s * 0.3 if player == bottom_player else s * 0.3)
            if not show_hands:
                dot_y = top + board_h - s * 0.3 if player == bottom_player else top + s * 0.3
            fill = "#fbfaf6" if player == "first" else "#2f2f2f"
            dot = (f'cx="{_n(dot_x(player))}" cy="{_n(dot_y)}" r="{_n(s * 0.16)}" '
                   f'fill="{fill}" stroke="#111" stroke-width="{_n(s * 0.03)}"')
            canvas.add(f"<circle {dot}/>" if compact else
                       f'<circle class="turn" data-player="{player}" {dot}><title>{player} player to move'
                       "</title></circle>")

    # -- arrows ------------------------------------------------------------------------------
    def centre(end: Cell | Hand) -> tuple[float, float]:
        if isinstance(end, Cell):
            x, y = origin(end)
            return x + s / 2, y + s / 2
        hx, hy = hand_box(position.active)
        if not show_hands:
            return dot_x(position.active), (top + board_h - s / 2 if position.active == bottom_player
                                            else top + s / 2)
        return hx + hand_w / 2, hy + hand_half / 2

    if drawn_arrows:
        canvas.add("<g>" if compact else f'<g class="arrows"{still}>')
        for source, destination in drawn_arrows:
            canvas.add(_arrow(centre(source), centre(destination), s, f"{source}-{destination}"))
        canvas.add("</g>")

    # -- the squares' hit targets, last: each takes the clicks and drags on its square ---------
    if not compact:
        canvas.add('<g class="squares">')
        for cell in cells:
            if cell in gaps:
                continue
            x, y = origin(cell)  # on a board of lines, the square around its point
            said = "".join((f' data-last="{moved[cell]}"' if cell in moved else "",
                            ' data-check="true"' if cell in checked else ""))
            canvas.add(f'<rect class="square" data-square="{cell}"{said} x="{_n(x)}" y="{_n(y)}" '
                       f'width="{_n(s)}" height="{_n(s)}" fill="#000" fill-opacity="0"/>')
        canvas.add("</g>")

    defs = "".join(canvas.defs.values())
    # A picture of its own size that shrinks to a narrower page (a phone's) rather than scroll.
    scaled = "" if compact else ' style="max-width:100%;height:auto"'
    return (
        f'<svg xmlns="{_SVG_NS}" xmlns:xlink="{_XLINK_NS}" version="1.1" width="{_n(width)}" '
        f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}"{scaled}>'
        f"<desc>{_escape(position.to_feen())}</desc>"
        + (f"<defs>{defs}</defs>" if defs else "")
        + '<rect width="100%" height="100%" fill="#ffffff"/>'
        + "".join(canvas.body)
        + "</svg>"
    )


def _coordinates_style(coordinates: object) -> str:
    """A style of :data:`COORDINATES` from :func:`board`'s argument."""
    if isinstance(coordinates, bool):
        return "game" if coordinates else "none"
    expect(coordinates, str, "coordinates", "a bool or a str")
    assert isinstance(coordinates, str)
    if coordinates not in COORDINATES:
        raise GGNError(f"no style of coordinates {coordinates[:40]!r}; there are: {', '.join(COORDINATES)}")
    return coordinates


# The margins that hold the names of each style of coordinates and board conventions.
_EDGES: Final[Mapping[tuple[str, str], frozenset[str]]] = {
    ("game", "shogi"): frozenset(("top", "right")),
    ("game", "xiangqi"): frozenset(("top", "bottom")),
    ("game", "janggi"): frozenset(("bottom", "right")),
}


def _kanji(number: int) -> str:
    """A number in kanji numerals (十一 for 11, 二十 for 20), 1 to 99, where the pictures'
    outlines have every character of it; else in figures."""
    if not 1 <= number <= 99:
        return str(number)
    tens, units = divmod(number, 10)
    text = "" if tens == 0 else "十" if tens == 1 else NUMERALS[tens - 1] + "十"
    text += NUMERALS[units - 1] if units else ""
    return text if all(has(char, "ja") and has(char, "zh") for char in text) else str(number)


def _river_words(x0: float, files: int, s: float) -> list[tuple[str, float]]:
    """The river's words and the middle of each character: 楚河 in the left half, 漢界 in the right."""
    quarter = (files - 1) * s / 4
    middles = (x0 + s / 2 + quarter, x0 + s / 2 + 3 * quarter)
    return [(char, middle + (i - (len(word) - 1) / 2) * s)
            for word, middle in zip(RIVER, middles, strict=True) for i, char in enumerate(word)]


def _label(text: str, place: tuple[float, float], em: float, *, fill: str, face: str, compact: bool,
           css: str) -> str:
    """A name drawn as paths, centred on ``place``: ``face`` ``sans`` for letters and figures,
    ``ja`` or ``zh`` for kanji and Chinese characters. The default picture groups it in an
    element of class ``css`` whose ``translate`` is its middle, the path saying its text
    (``data-text``)."""
    x, y = place
    if compact:
        return outline(text, x, y, em, fill=fill, face=face)
    return (f'<g class="{css}" transform="translate({_n(x)} {_n(y)})">'
            + outline(text, 0, 0, em, fill=fill, face=face, attributes=f' data-text="{_escape(text)}"')
            + "</g>")


def _count_badge(canvas: _Canvas, count: int, x: float, y: float, s: float, *, compact: bool) -> str:
    if count < 2:
        return ""
    text = str(count)
    r = s * (0.15 if len(text) < 3 else 0.2)
    cx, cy = x + s - r - s * 0.02, y + s - r - s * 0.02
    em = r * (1.3 if len(text) == 1 else 1.0 if len(text) == 2 else 0.75)
    return (f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="#c62828" stroke="#fff" '
            f'stroke-width="{_n(s * 0.02)}"/>'
            + _text(canvas, text, (cx, cy), em, face="sans-bold", fill="#fff", compact=compact,
                    attributes="" if compact else ' class="count"'))


def _xiangqi_lines(corner: tuple[float, float], files: int, ranks: int, s: float, colour: str, *,
                   river: bool = True, points: bool = False) -> str:
    """Lines through the squares' centres, a river between the middle ranks (``river`` and an
    even number of ranks), a palace of three files in the middle (an odd number of files) at
    both ends, with its diagonals, and (``points``: xiangqi's 9x10 board) the marks of the
    soldiers' and cannons' points."""
    x0, y0 = corner
    half = s / 2
    left, right = x0 + half, x0 + files * s - half
    top, bottom = y0 + half, y0 + ranks * s - half
    gap = ranks // 2 if river and ranks % 2 == 0 and ranks >= 4 else None  # rows above the river
    d: list[str] = [f"M{_n(left)} {_n(y0 + half + j * s)} H{_n(right)}" for j in range(ranks)]
    for i in range(files):
        x = x0 + half + i * s
        if gap is None or i in (0, files - 1):
            d.append(f"M{_n(x)} {_n(top)} V{_n(bottom)}")
        else:
            d.append(f"M{_n(x)} {_n(top)} V{_n(y0 + half + (gap - 1) * s)}")
            d.append(f"M{_n(x)} {_n(y0 + half + gap * s)} V{_n(bottom)}")
    if files % 2 == 1 and files >= 3 and ranks >= 6:
        middle = files // 2
        a, b = x0 + half + (middle - 1) * s, x0 + half + (middle + 1) * s
        for start in (0, ranks - 3):
            ya, yb = y0 + half + start * s, y0 + half + (start + 2) * s
            d.append(f"M{_n(a)} {_n(ya)} L{_n(b)} {_n(yb)} M{_n(b)} {_n(ya)} L{_n(a)} {_n(yb)}")
    if points:  # the cannons' and soldiers' points, from the top row: corners around each
        near, far = s * 0.08, s * 0.22
        marked = [(i, j) for j in (2, 7) for i in (1, 7)] + [(i, j) for j in (3, 6) for i in range(0, 9, 2)]
        for i, j in marked:
            cx, cy = x0 + half + i * s, y0 + half + j * s
            d.extend(f"M{_n(cx + dx * near)} {_n(cy + dy * far)} V{_n(cy + dy * near)} H{_n(cx + dx * far)}"
                     for dx in (-1, 1) if 0 <= i + dx < files for dy in (-1, 1))
    out = (f'<path d="{" ".join(d)}" stroke="{colour}" stroke-width="{_n(max(1.0, s / 36))}" '
           'fill="none" stroke-linecap="square"/>')
    out += (f'<rect x="{_n(left - s * 0.08)}" y="{_n(top - s * 0.08)}" width="{_n(right - left + s * 0.16)}" '
            f'height="{_n(bottom - top + s * 0.16)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_n(max(1.5, s / 20))}"/>')
    return out


def _arrow(start: tuple[float, float], end: tuple[float, float], s: float, label: str) -> str:
    """An arrow from one centre to another, its head a polygon (no markers: every renderer
    draws it alike)."""
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    colour = 'fill="#1e8449" fill-opacity="0.7"'
    if length < 1e-6:  # a move onto its own square: a ring
        return (f'<circle class="arrow" data-move="{_escape(label)}" cx="{_n(x1)}" cy="{_n(y1)}" '
                f'r="{_n(s * 0.4)}" fill="none" stroke="#1e8449" stroke-opacity="0.7" '
                f'stroke-width="{_n(s * 0.08)}"/>')
    ux, uy = dx / length, dy / length
    head, half_width, shaft = min(s * 0.45, length * 0.6), s * 0.22, s * 0.08
    bx, by = x2 - ux * head, y2 - uy * head  # the head's base
    px, py = -uy, ux
    points = [
        (x1 + px * shaft, y1 + py * shaft), (bx + px * shaft, by + py * shaft),
        (bx + px * half_width, by + py * half_width), (x2, y2),
        (bx - px * half_width, by - py * half_width), (bx - px * shaft, by - py * shaft),
        (x1 - px * shaft, y1 - py * shaft),
    ]
    text = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    return f'<polygon class="arrow" data-move="{_escape(label)}" points="{text}" {colour}/>'




_START_TAG: Final = re.compile(r"<(?![/!?])")
_USE: Final = re.compile(r'<use xlink:href="#([^"]+)"')
_DEFINITION: Final = re.compile(r'<(?:g|path) id="([^"]+)"')


def drawn_elements(picture: str) -> int:
    """The number of elements a renderer draws for a picture of :func:`board`: its start tags,
    each ``<use>`` counted as the elements it names (a figure's parts), the definitions once."""
    expect(picture, str, "picture", "a str")
    count = len(_START_TAG.findall(picture))
    uses = _USE.findall(picture)
    if uses:
        sizes: dict[str, int] = {}
        defs_at = picture.find("<defs>")
        defs_end = picture.find("</defs>")
        if defs_at >= 0 and defs_end > defs_at:
            defs = picture[defs_at:defs_end]
            starts = [(found.start(), found[1]) for found in _DEFINITION.finditer(defs)]
            for (start, ident), (end, _) in zip(starts, [*starts[1:], (len(defs), "")], strict=True):
                sizes[ident] = len(_START_TAG.findall(defs, start, end))
        count += sum(sizes.get(ident, 1) for ident in uses)
    return count


def png(position: Position, *, max_elements: int | None = None, **options: Any) -> bytes:
    """The PNG picture of ``position``: :func:`board`'s ``compact`` picture (``options`` are
    :func:`board`'s), rendered by cairosvg (the ``[png]`` extra and the system's cairo library).

    Bounded by the work before any is done: a picture of more than ``max_elements`` drawn
    elements (:func:`drawn_elements`; ``None``: :data:`MAX_PNG_ELEMENTS`), more than
    :data:`MAX_PNG_PIXELS` pixels, or wider or taller than :data:`MAX_PNG_SIDE`, is a
    :class:`~ggn.errors.GGNError` naming the bound and the picture's count. A position whose
    pieces alone are over the bound (each draws two elements or more) is refused before its
    picture is made. Raise ``ImportError`` when cairosvg cannot be imported, ``OSError`` when
    it finds no cairo library."""
    expect(position, Position, "position", "a Position")
    if max_elements is None:
        max_elements = MAX_PNG_ELEMENTS
    elif type(max_elements) is not int:
        raise TypeError(f"max_elements must be an int or None, got {type(max_elements).__name__}")
    if "compact" in options:
        raise TypeError("png() draws the compact picture: compact is not one of its options")
    feen = position.feen()
    pieces = sum(1 for code in position._codes if code)
    pieces += len(feen.hand("first")) + len(feen.hand("second"))
    if 2 * pieces > max_elements:
        raise GGNError(f"a picture of {pieces:,} pieces (at least {2 * pieces:,} elements to draw) is too "
                       f"much work for PNG (at most {max_elements:,} elements): draw it as SVG "
                       f"(ggn show --format svg)")
    picture = board(position, compact=True, **options)
    width, height = _dimensions(picture)
    if max(width, height) > MAX_PNG_SIDE:
        raise GGNError(f"a picture of {width:,.0f}x{height:,.0f} pixels is too large for PNG (cairo draws "
                       f"at most {MAX_PNG_SIDE:,} a side): give a smaller size (ggn show --size), or "
                       "draw it as SVG")
    if math.ceil(width) * math.ceil(height) > MAX_PNG_PIXELS:
        raise GGNError(f"a picture of {width:,.0f}x{height:,.0f} pixels is too large for PNG (at most "
                       f"{MAX_PNG_PIXELS:,} pixels): give a smaller size (ggn show --size), or draw it "
                       "as SVG")
    drawn = drawn_elements(picture)
    if drawn > max_elements:
        raise GGNError(f"a picture of {drawn:,} elements ({pieces:,} pieces) is too much work for PNG "
                       f"(at most {max_elements:,} elements): draw it as SVG (ggn show --format svg)")
    import cairosvg  # noqa: PLC0415  (the optional [png] extra, on use)

    data: bytes = cairosvg.svg2png(bytestring=picture.encode("utf-8"))
    return data


def _dimensions(picture: str) -> tuple[float, float]:
    """The width and height a picture of :func:`board` states on its root."""
    found = re.match(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"', picture)
    if found is None:
        raise AssertionError("board writes its size on the <svg> element")
    return float(found[1]), float(found[2])


def piece(
    piece: Qpi | str,
    *,
    size: int = 48,
    families: Mapping[str, str] | None = None,
    aliases: Mapping[str, str] | None = None,
    letters: bool = False,
    marks: bool = True,
    font: str | None = None,
    flipped: bool = False,
) -> str:
    """The SVG picture of one piece (a QPI or its text), alone on a transparent square of
    ``size`` pixels, drawn as :func:`board` draws it with the same options (``flipped``: as the
    board turned round shows it, shogi's pieces of the first player pointing down): what a page
    shows on a button that offers a promotion's choices.

    >>> piece("C:Q").startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    """
    chosen = piece if isinstance(piece, Qpi) else Qpi.parse(
        expect(piece, str, "piece", "a Qpi or a QPI str"))
    for flag, label in ((letters, "letters"), (marks, "marks"), (flipped, "flipped")):
        expect(flag, bool, label, "a bool")
    expect(size, int, "size", "an int")
    if not 8 <= size <= 512:
        raise GGNError(f"a square's size is 8 to 512 pixels, not {size}")
    if font is not None and not _FAMILY.fullmatch(expect(font, str, "font", "a str or None")):
        raise GGNError(f"{font[:40]!r} is not a font family's name (letters, digits, spaces, - and _)")
    for option, label in ((families, "families"), (aliases, "aliases")):
        if option is not None:
            expect(option, Mapping, label, "a mapping of str to str")
    canvas = _Canvas()
    glyphs = _Glyphs(families, aliases, letters, font, upright=not flipped)
    s = float(size)
    drawn = _glyph(canvas, chosen, (0.0, 0.0, s), glyphs)
    if marks:
        drawn += _marks(chosen, 0.0, 0.0, s, glyphs)
    defs = "".join(canvas.defs.values())
    return (f'<svg xmlns="{_SVG_NS}" xmlns:xlink="{_XLINK_NS}" version="1.1" width="{_n(s)}" '
            f'height="{_n(s)}" viewBox="0 0 {_n(s)} {_n(s)}"><title>{_escape(str(chosen))}</title>'
            + (f"<defs>{defs}</defs>" if defs else "") + drawn + "</svg>")
