"""Text drawn as SVG paths, so that a picture needs no font: the outlines of every character
ggn's pictures write (kanji, Chinese characters, ASCII), shipped in ``_glyphs.json`` beside
this module and read on first use.

``tools/make_glyphs.py`` makes the data at build time from fonts whose licences allow it
(``_glyphs.LICENSE``): *faces* ``ja`` (Noto Serif CJK JP Bold: shogi), ``zh`` (Noto Serif CJK
TC Bold: xiangqi and janggi), ``sans`` and ``sans-bold`` (DejaVu Sans and DejaVu Sans Bold:
the printable ASCII characters). A character the face asked for lacks is taken from another
face that has it; one no face has is drawn as a font draws it, a hollow box.

>>> element = outline("歩", 50, 50, 40, face="ja", fill="#1d1d1d")
>>> element.startswith('<path transform="translate(') and 'fill="#1d1d1d"' in element
True
>>> round(width("ab", "sans"), 3)
1.248
"""

from __future__ import annotations

import functools
import json
import os
from typing import Final

__all__ = ["FACES", "NUMERALS", "RIVER", "has", "outline", "path_data", "place", "width"]

FACES: Final = ("ja", "zh", "sans", "sans-bold")
"""The faces of the data file, in the order a missing character is looked for."""

NUMERALS: Final = "一二三四五六七八九"
"""The numerals one to nine: shogi's ranks, xiangqi's files from the second player's side."""

RIVER: Final = ("楚河", "漢界")
"""The words written in xiangqi's river: "the river of Chu", "the border of Han"."""

_UNITS: Final = 1000  # to the em, in the data file
# A font's .notdef: a hollow box, for a character no face has (the outer and the inner
# outline turn opposite ways, so the inside stays empty under the nonzero rule).
_BOX: Final = (600, 50, 0, "v700h500v-700zm50 50h400v600h-400z")


@functools.cache
def _faces() -> dict[str, tuple[int, dict[str, tuple[int, int, int, str]]]]:
    """Each face's middle (the height a line is centred on, in thousandths of an em) and its
    glyphs (advance, the first point, the rest of the path), read once."""
    with open(os.path.join(os.path.dirname(__file__), "_glyphs.json"), encoding="utf-8") as file:
        data = json.load(file)
    faces: dict[str, tuple[int, dict[str, tuple[int, int, int, str]]]] = {}
    for name, face in data["faces"].items():
        glyphs = {char: (int(a), int(x), int(y), str(rest))
                  for char, (a, x, y, rest) in face["glyphs"].items()}
        faces[name] = (int(face["middle"]), glyphs)
    return faces


def _face(face: str) -> tuple[int, dict[str, tuple[int, int, int, str]]]:
    faces = _faces()
    if face not in faces:
        raise ValueError(f"no face {face!r}: there are {', '.join(FACES)}")
    return faces[face]


def _glyph(char: str, face: str) -> tuple[int, int, int, str]:
    """A character's glyph in ``face``, else in the first face that has it, else a box."""
    found = _face(face)[1].get(char)
    if found is not None:
        return found
    for other in FACES:
        found = _faces()[other][1].get(char)
        if found is not None:
            return found
    return _BOX


def has(char: str, face: str) -> bool:
    """Whether ``face`` has the character's outline."""
    return char in _face(face)[1]


def width(text: str, face: str = "sans") -> float:
    """The advance of ``text``, in ems."""
    return sum(_glyph(char, face)[0] for char in text) / _UNITS


def path_data(text: str, face: str = "sans") -> str:
    """The outlines of ``text`` as SVG path data: in thousandths of an em, y up, the first
    character's origin at 0 0 and the others after it, by their advances."""
    parts: list[str] = []
    pen = 0
    for char in text:
        advance, x, y, rest = _glyph(char, face)
        if rest:
            parts.append(f"M{x + pen} {y}{rest}")
        pen += advance
    return "".join(parts)


def _number(value: float, places: int) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def place(text: str, x: float, y: float, size: float, *, anchor: str = "middle",
          face: str = "sans") -> str:
    """The ``transform`` that puts :func:`path_data` of ``text`` at ``x`` (its start, middle or
    end: ``anchor``) with its line centred on ``y`` (capitals for a Latin face, the em box for
    an ideographic one, as a ``<text>`` written at ``y + 0.36 size`` was), ``size`` pixels to
    the em."""
    if anchor not in ("start", "middle", "end"):
        raise ValueError(f"anchor is start, middle or end, not {anchor!r}")
    middle = _face(face)[0]
    scale = size / _UNITS
    shift = {"start": 0.0, "middle": 0.5, "end": 1.0}[anchor] * width(text, face) * size
    return (f"translate({_number(x - shift, 2)} {_number(y + middle * scale, 2)}) "
            f"scale({_number(scale, 5)} {_number(-scale, 5)})")


def outline(text: str, x: float, y: float, size: float, *, anchor: str = "middle", fill: str = "#000",
            face: str = "sans", attributes: str = "") -> str:
    """A ``<path>`` element that draws ``text`` as :func:`place` puts it, filled with ``fill``
    (a colour written as it goes in the attribute); ``attributes`` are written in it too
    (``' class="count"'``)."""
    return (f'<path{attributes} transform="{place(text, x, y, size, anchor=anchor, face=face)}" '
            f'd="{path_data(text, face)}" fill="{fill}"/>')
