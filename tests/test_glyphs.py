"""The outlines that let pictures draw text with no font (ggn._glyphs, _glyphs.json): every
character the pictures write is there, in its face, drawn (not empty, not another's), placed as
a ``<text>`` was, and the data is what tools/make_glyphs.py makes from the fonts it names."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ggn import _glyphs, svg

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "ggn" / "_glyphs.json"
LICENCE = ROOT / "src" / "ggn" / "_glyphs.LICENSE"
ASCII = "".join(chr(code) for code in range(0x21, 0x7F))
_COMMAND = re.compile(r"[MmLlHhVvCcQqZz]")


def wanted() -> dict[str, str]:
    """The characters each face must have, from the tables that draw them."""
    shogi = "".join(svg._SHOGI.values()) + _glyphs.NUMERALS
    chinese = "".join(c for pair in [*svg._XIANGQI.values(), *svg._JANGGI.values()] for c in pair)
    chinese += _glyphs.NUMERALS + "".join(_glyphs.RIVER)
    return {"ja": shogi, "zh": chinese, "sans": ASCII, "sans-bold": ASCII}


def make_glyphs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_glyphs", ROOT / "tools" / "make_glyphs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("face", _glyphs.FACES)
def test_every_character_a_table_draws_is_in_its_face(face: str) -> None:
    missing = [char for char in wanted()[face] if not _glyphs.has(char, face)]
    assert not missing, f"run tools/make_glyphs.py: {face} lacks {''.join(missing)!r}"


@pytest.mark.parametrize("face", _glyphs.FACES)
def test_each_character_is_drawn_and_unlike_the_others(face: str) -> None:
    chars = sorted(set(wanted()[face]))
    drawn = {char: _glyphs.path_data(char, face) for char in chars}
    for char, d in drawn.items():
        assert d.startswith("M"), char
        assert len(_COMMAND.findall(d)) >= 3, f"{char!r} has almost no outline: {d!r}"
        assert "z" in d, f"{char!r}'s outline is not closed"
    assert len(set(drawn.values())) == len(drawn), "two characters have the same outline"


def test_a_path_is_numbers_after_commands_and_closes_each_outline() -> None:
    d = _glyphs.path_data("一", "zh")
    assert re.fullmatch(r"M-?\d+ -?\d+(?:[lhvcqmz]|[ -]?-?\d+)*", d), d
    # One rectangle: a move, lines round it, a close.
    assert d.count("z") == 1
    numbers = [int(n) for n in re.findall(r"-?\d+", d)]
    assert all(-1000 <= n <= 1000 for n in numbers)


def test_a_space_advances_without_ink_and_text_follows_advances() -> None:
    assert _glyphs.path_data(" ", "sans") == ""
    a, b = _glyphs.path_data("a", "sans"), _glyphs.path_data("b", "sans")
    both = _glyphs.path_data("ab", "sans")
    assert both.startswith(a)
    x, y, rest = re.match(r"M(-?\d+) (-?\d+)(.*)", b).groups()  # type: ignore[union-attr]
    advance = round(_glyphs.width("a", "sans") * 1000)
    assert both[len(a):] == f"M{int(x) + advance} {y}{rest}"
    assert _glyphs.width("ab", "sans") == pytest.approx(
        _glyphs.width("a", "sans") + _glyphs.width("b", "sans"))
    assert _glyphs.width("歩", "ja") == 1.0


def test_placement_centres_the_line_as_the_old_text_did() -> None:
    # A Latin line is centred on its capitals, about 0.36 em above the baseline, as <text> at
    # y + 0.36 size put it; an ideographic line on its em box (0.38 em).
    latin = _glyphs.place("A", 100, 50, 20, face="sans-bold")
    assert re.fullmatch(r"translate\([0-9.]+ 57\.\d+\) scale\(0\.02 -0\.02\)", latin), latin
    ideograph = _glyphs.place("歩", 100, 50, 20, face="ja")
    assert ideograph == "translate(90 57.6) scale(0.02 -0.02)"
    assert _glyphs.place("歩", 100, 50, 20, anchor="start", face="ja").startswith("translate(100 ")
    assert _glyphs.place("歩", 100, 50, 20, anchor="end", face="ja").startswith("translate(80 ")
    with pytest.raises(ValueError, match="anchor is start, middle or end"):
        _glyphs.place("a", 0, 0, 10, anchor="left")
    with pytest.raises(ValueError, match="no face 'mincho'"):
        _glyphs.path_data("a", "mincho")


def test_a_character_is_taken_from_another_face_else_drawn_as_a_box() -> None:
    assert not _glyphs.has("歩", "sans")
    assert _glyphs.path_data("歩", "sans") == _glyphs.path_data("歩", "ja")
    box = _glyphs.path_data("\u2603", "sans")  # a snowman: no face has it
    assert box == "M50 0v700h500v-700zm50 50h400v600h-400z"
    assert _glyphs.width("\u2603", "sans") == 0.6


def test_outline_is_one_path_element() -> None:
    element = _glyphs.outline("12", 10, 20, 30, fill="#fff", face="sans-bold",
                              attributes=' class="count"')
    shape = r'<path class="count" transform="translate\([^"]+\)" d="M[^"]+" fill="#fff"/>'
    assert re.fullmatch(shape, element)


def test_the_data_names_its_fonts_and_their_licence_goes_with_it() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    faces = data["faces"]
    assert set(faces) == set(_glyphs.FACES)
    licence = LICENCE.read_text(encoding="utf-8")
    for face in faces.values():
        assert face["units"] == 1000
        assert face["font"] in licence, face["font"]
        assert face["version"].split(";")[0] in licence
    assert faces["ja"]["font"] == "Noto Serif CJK JP Bold"
    assert faces["zh"]["font"] == "Noto Serif CJK TC Bold"
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Bitstream Vera Fonts Copyright" in licence
    assert DATA.stat().st_size < 300_000


def test_the_data_is_what_the_generator_makes_from_the_fonts(tmp_path: Path) -> None:
    pytest.importorskip("fontTools", reason="the glyphs extra (fonttools) is not installed")
    tool = make_glyphs()
    missing = [name for name in tool._FILES.values() if tool.find(name, tool.folders()) is None]
    if missing:
        pytest.skip(f"the generator's fonts are not here ({', '.join(missing)}): set GGN_GLYPH_FONTS "
                    "to their folders, or unpack fonts-noto-cjk in /tmp/noto (tools/make_glyphs.py)")
    output = tmp_path / "glyphs.json"
    ran = subprocess.run([sys.executable, str(ROOT / "tools" / "make_glyphs.py"), "-o", str(output)],
                         capture_output=True, text=True, timeout=120, check=False,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert ran.returncode == 0, ran.stderr
    assert output.read_bytes() == DATA.read_bytes(), \
        "run tools/make_glyphs.py and commit src/ggn/_glyphs.json"
    checked = subprocess.run([sys.executable, str(ROOT / "tools" / "make_glyphs.py"), "--check"],
                             capture_output=True, text=True, timeout=120, check=False,
                             env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_machine_has_no_cjk_font_or_says_so() -> None:
    """The picture tests prove something only where no font has kanji: say when one does."""
    lister = shutil.which("fc-list")
    if lister is None:
        pytest.skip("no fc-list: fontconfig is not installed, so no font at all")
    found = {lang: subprocess.run([lister, f":lang={lang}", "family"], capture_output=True, text=True,
                                  timeout=30, check=False).stdout.strip() for lang in ("ja", "zh")}
    if any(found.values()):
        pytest.skip(f"this machine has CJK fonts ({found}): the pictures would draw even with <text>")
    assert found == {"ja": "", "zh": ""}
