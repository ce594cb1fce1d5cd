"""Make ``src/ggn/_glyphs.json``: the outlines of every character ggn's pictures draw, as SVG
path data, so that a picture needs no font (``ggn.svg`` draws them with ``ggn._glyphs``).

Run at build time, never at run time (it needs fontTools: ``pip install 'ggn[glyphs]'``)::

    python tools/make_glyphs.py --cjk NotoSerifCJK-Bold.ttc --sans DejaVuSans.ttf \\
        --sans-bold DejaVuSans-Bold.ttf [-o src/ggn/_glyphs.json] [--check]

or with no font named: each font is looked for by its file name in the folders of the
environment variable ``GGN_GLYPH_FONTS`` (separated by ``:``), else in Debian's folders and
``/tmp/noto`` (``apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto``
unpacks Noto CJK there without installing it). ``--check`` writes nothing and exits 1 when the
file it would write differs from the one there.

The fonts and what each draws (``docs/pictures.md``):

- ``ja``: Noto Serif CJK JP Bold (SIL Open Font License 1.1), shogi's kanji and its ranks'
  numerals;
- ``zh``: Noto Serif CJK TC Bold (the same file's traditional Chinese face), xiangqi's and
  janggi's characters, the numerals of xiangqi's files and the river's words;
- ``sans`` and ``sans-bold``: DejaVu Sans and DejaVu Sans Bold (the Bitstream Vera licence),
  the printable ASCII characters: coordinates (``sans``), letters, counts (``sans-bold``).

The characters come from ggn's own tables (``ggn.svg``'s and ``ggn._glyphs``'), so that a
table that gains one fails ``tests/test_glyphs.py`` until this is run again. The output is
deterministic: the same fonts give the same bytes. Coordinates are in thousandths of an em,
rounded to integers, and each outline is written with relative commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ggn import _glyphs, svg  # noqa: E402  (this checkout's sources, above any installed ggn)

UNITS = 1000  # to the em, in the data file
# Debian's folders, and where the docs say to unpack Noto CJK without installing it.
_DEBIAN = ("/tmp/noto/usr/share/fonts/opentype/noto",  # noqa: S108
           "/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/dejavu")
_FILES = {"cjk": "NotoSerifCJK-Bold.ttc", "sans": "DejaVuSans.ttf", "sans_bold": "DejaVuSans-Bold.ttf"}


def characters() -> dict[str, str]:
    """The characters each face draws, from ggn's tables, sorted."""
    shogi = set(svg._SHOGI.values()) | set(_glyphs.NUMERALS)
    chinese = {char for pair in svg._XIANGQI.values() for char in pair}
    chinese |= {char for pair in svg._JANGGI.values() for char in pair}
    chinese |= set(_glyphs.NUMERALS) | set("".join(_glyphs.RIVER))
    latin = {chr(code) for code in range(0x20, 0x7F)}
    return {"ja": "".join(sorted(shogi)), "zh": "".join(sorted(chinese)),
            "sans": "".join(sorted(latin)), "sans-bold": "".join(sorted(latin))}


class _Pen(BasePen):  # type: ignore[misc]  # fontTools ships no types
    """Path data of an outline: integers in thousandths of an em, y up, relative commands
    after the first move, each command letter written once for a run of the same command."""

    def __init__(self, glyphs: Any, scale: float) -> None:
        super().__init__(glyphs)
        self.scale = scale
        self.parts: list[str] = []
        self.last = ""  # the last command letter written
        self.start: tuple[int, int] | None = None  # the first point of the outline
        self.current = (0, 0)
        self.subpath = (0, 0)

    def _point(self, point: tuple[float, float]) -> tuple[int, int]:
        return round(point[0] * self.scale), round(point[1] * self.scale)

    def _command(self, letter: str, numbers: Sequence[int]) -> None:
        text = ""
        for number in numbers:
            word = str(number)
            text += word if (not text or word.startswith("-")) else " " + word
        if letter == self.last:
            text = text if text.startswith("-") else " " + text
            self.parts.append(text)
        else:
            self.parts.append(letter + text)
        # After a move, pairs read as lines of the same kind: never written as a run of m.
        self.last = {"m": "l", "M": "l"}.get(letter, letter)

    def _relative(self, point: tuple[int, int]) -> list[int]:
        return [point[0] - self.current[0], point[1] - self.current[1]]

    def _moveTo(self, pt: tuple[float, float]) -> None:
        point = self._point(pt)
        if self.start is None:
            self.start = point  # written by the caller: the pen's place comes first
        else:
            self._command("m", self._relative(point))
        self.current = self.subpath = point

    def _lineTo(self, pt: tuple[float, float]) -> None:
        point = self._point(pt)
        dx, dy = self._relative(point)
        if (dx, dy) == (0, 0):
            return
        if dy == 0:
            self._command("h", [dx])
        elif dx == 0:
            self._command("v", [dy])
        else:
            self._command("l", [dx, dy])
        self.current = point

    def _curveToOne(self, pt1: tuple[float, float], pt2: tuple[float, float],
                    pt3: tuple[float, float]) -> None:
        a, b, c = self._point(pt1), self._point(pt2), self._point(pt3)
        self._command("c", [*self._relative(a), *self._relative(b), *self._relative(c)])
        self.current = c

    def _qCurveToOne(self, pt1: tuple[float, float], pt2: tuple[float, float]) -> None:
        a, b = self._point(pt1), self._point(pt2)
        self._command("q", [*self._relative(a), *self._relative(b)])
        self.current = b

    def _closePath(self) -> None:
        self.parts.append("z")
        self.last = "z"
        self.current = self.subpath

    _endPath = _closePath


def _face(font: TTFont, name: str, source: Path, chars: str) -> dict[str, Any]:
    """One face's entry of the data file: where it comes from, its metrics, its outlines."""
    upm = font["head"].unitsPerEm
    scale = UNITS / upm
    cmap = font.getBestCmap()
    glyph_set = font.getGlyphSet()
    os2 = font["OS/2"]
    if chars[0] >= "\u2e80":  # an ideographic face: centred on its em box
        middle = round((os2.sTypoAscender + os2.sTypoDescender) / 2 * scale)
    else:  # a Latin face: centred on its capitals
        bounds = _bounds(glyph_set, cmap[ord("H")])
        middle = round(bounds / 2 * scale)
    glyphs: dict[str, list[Any]] = {}
    for char in chars:
        glyph_name = cmap.get(ord(char))
        if glyph_name is None:
            raise SystemExit(f"{source}: the face {name!r} has no {char!r} (U+{ord(char):04X})")
        glyph = glyph_set[glyph_name]
        pen = _Pen(glyph_set, scale)
        glyph.draw(pen)
        advance = round(glyph.width * scale)
        if pen.start is None:  # a space: an advance, no outline
            glyphs[char] = [advance, 0, 0, ""]
        else:
            glyphs[char] = [advance, pen.start[0], pen.start[1], "".join(pen.parts)]
    names = font["name"]
    return {
        "font": names.getDebugName(4),
        "version": names.getDebugName(5),
        "copyright": names.getDebugName(0),
        "licence": names.getDebugName(13).split(". ")[0].strip().rstrip(".") + ".",
        "file": source.name,
        "units": UNITS,
        "middle": middle,
        "glyphs": glyphs,
    }


def _bounds(glyph_set: Any, glyph_name: str) -> float:
    from fontTools.pens.boundsPen import BoundsPen  # noqa: PLC0415

    pen = BoundsPen(glyph_set)
    glyph_set[glyph_name].draw(pen)
    assert pen.bounds is not None
    return float(pen.bounds[3])


def _cjk_face(path: Path, region: str) -> TTFont:
    """The face of a collection (or a single font) whose name ends with the region's code."""
    fonts = TTCollection(str(path)).fonts if path.suffix.lower() == ".ttc" else [TTFont(str(path))]
    for font in fonts:
        if f" {region} " in f" {font['name'].getDebugName(4)} ":
            return font
    raise SystemExit(f"{path}: no {region} face (faces: "
                     f"{', '.join(font['name'].getDebugName(4) for font in fonts)})")


def build(cjk: Path, sans: Path, sans_bold: Path) -> str:
    """The text of the data file."""
    chars = characters()
    faces = {
        "ja": _face(_cjk_face(cjk, "JP"), "ja", cjk, chars["ja"]),
        "zh": _face(_cjk_face(cjk, "TC"), "zh", cjk, chars["zh"]),
        "sans": _face(TTFont(str(sans)), "sans", sans, chars["sans"]),
        "sans-bold": _face(TTFont(str(sans_bold)), "sans-bold", sans_bold, chars["sans-bold"]),
    }
    data = {
        "about": ("Outlines of the characters ggn's pictures draw, made by tools/make_glyphs.py "
                  "from the fonts named in each face (path data in thousandths of an em, y up; "
                  "each glyph: advance, first point x and y, the rest of its path). The outlines "
                  "are the fonts' and keep their licences: see _glyphs.LICENSE beside this file."),
        "faces": faces,
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def find(name: str, folders: Iterable[str]) -> Path | None:
    """A font file by its name in the first folder that holds it."""
    for folder in folders:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


def folders() -> list[str]:
    """Where fonts are looked for: ``GGN_GLYPH_FONTS``'s folders, then Debian's."""
    given = os.environ.get("GGN_GLYPH_FONTS", "")
    return [folder for folder in given.split(":") if folder] + list(_DEBIAN)


def fonts(cjk: str | None = None, sans: str | None = None, sans_bold: str | None = None) -> dict[str, Path]:
    """The three fonts, given or found; SystemExit naming the missing ones."""
    given = {"cjk": cjk, "sans": sans, "sans_bold": sans_bold}
    found: dict[str, Path] = {}
    missing: list[str] = []
    for key, file_name in _FILES.items():
        chosen = given[key]
        path = Path(chosen) if chosen else find(file_name, folders())
        if path is None or not path.is_file():
            missing.append(chosen or file_name)
        else:
            found[key] = path
    if missing:
        raise SystemExit(f"fonts not found: {', '.join(missing)} (give them, or their folders in "
                         "GGN_GLYPH_FONTS)")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cjk", help=f"Noto Serif CJK Bold ({_FILES['cjk']})")
    parser.add_argument("--sans", help=f"DejaVu Sans ({_FILES['sans']})")
    parser.add_argument("--sans-bold", help=f"DejaVu Sans Bold ({_FILES['sans_bold']})")
    parser.add_argument("-o", "--output", default=str(ROOT / "src" / "ggn" / "_glyphs.json"))
    parser.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    args = parser.parse_args(argv)
    paths = fonts(args.cjk, args.sans, args.sans_bold)
    text = build(paths["cjk"], paths["sans"], paths["sans_bold"])
    output = Path(args.output)
    if args.check:
        same = output.is_file() and output.read_text(encoding="utf-8") == text
        print(f"{output}: {'up to date' if same else 'differs from what the fonts give'}")
        return 0 if same else 1
    output.write_text(text, encoding="utf-8")
    print(f"{output}: {len(text.encode('utf-8')):,} bytes, "
          f"{sum(len(face['glyphs']) for face in json.loads(text)['faces'].values())} glyphs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
