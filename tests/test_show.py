"""ggn show: a position drawn as text, SVG or PNG, the game's start by default, with the
destinations of --moves-from highlighted."""

from __future__ import annotations

import io
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest

from ggn.cli import run
from ggn.svg import HIGHLIGHT, TARGET
from ggn.variants import registry

NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def call(*argv: str, stdin: bytes | None = None, stdout: Any = None) -> tuple[int, str, str]:
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue() if isinstance(out, io.StringIO) else "", err.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def highlights(picture: str) -> dict[str, str]:
    root = ET.fromstring(picture)
    return {e.get("data-cell", ""): e.get("fill", "") for e in root.iter() if e.get("class") == "highlight"}


def pieces(picture: str) -> dict[str, str]:
    root = ET.fromstring(picture)
    return {e.get("data-square", ""): e.get("data-piece", "") for e in root.iter()
            if e.get("class") == "piece"}


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG, from its IHDR chunk (checked by its CRC)."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16:16 + length]
    (crc,) = struct.unpack(">I", data[16 + length:20 + length])
    assert zlib.crc32(kind + body) == crc
    width, height = struct.unpack(">II", body[:8])
    return width, height


def test_text_is_the_default() -> None:
    status, out, err = call("show", "chess")
    assert (status, err) == (0, "")
    assert "+♔^" in out and "+♚^" in out and out.endswith("first to move\n")
    assert "\x1b[" not in out


def test_text_is_coloured_on_a_terminal_only() -> None:
    terminal = _Terminal()
    assert run(["show", "chess"], terminal, io.StringIO()) == 0
    assert "\x1b[48;5;" in terminal.getvalue()


def test_svg_of_a_games_start_with_its_hands() -> None:
    status, out, _ = call("show", "shogi", "--format", "svg")
    assert status == 0
    root = ET.fromstring(out)
    assert root.tag == f"{NS}svg"
    position = registry.entry("shogi").rules.position()
    assert pieces(out) == {str(cell): str(piece) for cell, piece in position}
    held = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL 2P/b s/S"
    status, out, _ = call("show", "shogi", held, "--format", "svg")
    assert status == 0
    hands = {(e.get("data-hand"), e.get("data-piece"), e.get("data-count"))
             for e in ET.fromstring(out).iter() if e.get("data-hand")}
    assert hands == {("first", "S:P", "2"), ("second", "s:b", "1")}


def test_a_position_given_as_fen() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    status, out, _ = call("show", "chess", "--fen", fen, "--format", "svg")
    assert status == 0
    assert pieces(out)["e4"] == "C:P" and "e2" not in pieces(out)
    status, _, err = call("show", "chess", registry.start("chess"), "--fen", fen)
    assert status == 2 and "not both" in err


def test_moves_from_highlights_the_legal_destinations() -> None:
    status, out, _ = call("show", "chess", "--moves-from", "g1", "--format", "svg")
    assert status == 0
    assert highlights(out) == {"g1": HIGHLIGHT, "f3": TARGET, "h3": TARGET}
    status, out, _ = call("show", "chess", "--moves-from", "g1")
    assert out.rstrip().endswith("moves from g1: Nh3, Nf3")
    status, out, _ = call("show", "chess", "--moves-from", "g1", "--notation", "uci")
    assert out.rstrip().endswith("moves from g1: g1h3, g1f3")
    status, out, _ = call("show", "chess", "7k^/1P6/8/8/8/8/8/K^7 / C/c", "--moves-from", "b7",
                          "--format", "json")
    answer = json.loads(out)
    assert (answer["destinations"], sorted(answer["moves"])) == (["b8"], ["b8=B", "b8=N", "b8=Q+", "b8=R+"])
    # A pinned piece has no legal destination: only its square.
    pinned = "4k^3/4r3/8/8/8/8/4N3/4K^3 / C/c"
    status, out, _ = call("show", "chess", pinned, "--moves-from", "e2", "--format", "svg")
    assert status == 0 and highlights(out) == {"e2": HIGHLIGHT}
    # Drops: the pieces in hand.
    crazy = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R N/ C/c"
    status, out, _ = call("show", "crazyhouse", crazy, "--moves-from", "*", "--format", "svg")
    assert status == 0 and len(highlights(out)) == 32


def test_moves_from_under_a_ggn_document_are_legal_under_the_generic_rule(tmp_path: Path) -> None:
    document = {"C:P": {"e2": {"e3": [{"must": {"e3": "empty"}}],
                               "e4": [{"must": {"e3": "empty", "e4": "empty"}}]}}}
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps(document))
    feen = "8/8/8/8/8/8/4P3/8 / C/c"
    status, out, err = call("show", str(rules), feen, "--moves-from", "e2", "--format", "svg")
    assert status == 0 and "names no terminal (^) piece" in err  # no play is illegal: said so
    assert highlights(out) == {"e2": HIGHLIGHT, "e3": TARGET, "e4": TARGET}
    # A pinned piece: its pseudo-legal moves expose the terminal piece behind it, so none is legal.
    pinned = tmp_path / "pinned.json"
    pinned.write_text(json.dumps({
        "C:P": {"e2": {"d3": [{"must": {"d3": "empty"}}]}},
        "c:r": {"e8": {"e1": [{"must": {f"e{rank}": "empty" for rank in range(2, 8)} | {"e1": "enemy"}}]}},
    }))
    status, out, err = call("show", str(pinned), "4r3/8/8/8/8/8/4P3/4K^3 / C/c", "--moves-from", "e2",
                            "--format", "json")
    answer = json.loads(out)
    assert (status, err, answer["destinations"]) == (0, "", [])
    assert (answer["game"], answer["document"], answer["terminal"], answer["note"]) == (
        None, str(pinned), True, None)
    assert call("moves", str(pinned), "4r3/8/8/8/8/8/4P3/4K^3 / C/c")[1] == "C:P e2-d3\n"  # pseudo-legal
    status, _, err = call("show", str(rules))
    assert status == 2 and "give a FEEN" in err
    status, _, err = call("show", str(rules), feen, "--fen", "8/8/8/8/8/8/8/8 w - - 0 1")
    assert status == 2 and "--fen" in err


def test_errors() -> None:
    status, _, err = call("show", "chesss")
    assert status == 2 and "no game 'chesss' (nor a GGN file of that name); did you mean chess" in err
    status, _, err = call("show", "chess", "--moves-from", "z9")
    assert status == 1 and "not a square" in err
    status, _, err = call("show", "chess", "--moves-from", "e")
    assert status == 1
    status, _, err = call("show", "chess", "--size", "2", "--format", "svg")
    assert status == 2 and "--size" in err
    status, _, err = call("show", "chess", "8/8 / C/c")
    assert status == 1 and "Traceback" not in err


def test_output_files(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    status, out, _ = call("show", "xiangqi", "--format", "svg", "-o", str(target))
    assert (status, out) == (0, "")
    assert len(pieces(target.read_text())) == 32
    status, _, err = call("show", "chess", "-o", str(tmp_path))
    assert status == 2 and "directory" in err
    status, _, err = call("show", "chess", "-o", str(tmp_path / "missing" / "board.txt"))
    assert status == 2 and "cannot write" in err


def test_png(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    target = tmp_path / "board.png"
    status, _, err = call("show", "shogi", "--format", "png", "-o", str(target), "--size", "40")
    assert (status, err) == (0, "")
    _, svg_text, _ = call("show", "shogi", "--format", "svg", "--size", "40")
    root = ET.fromstring(svg_text)
    width, height = png_size(target.read_bytes())
    assert (width, height) == (round(float(root.get("width", "0"))), round(float(root.get("height", "0"))))
    # To standard output, as bytes; never to a terminal.
    binary = io.BytesIO()
    text = io.TextIOWrapper(binary, encoding="utf-8")
    assert run(["show", "chess", "--format", "png"], text, io.StringIO()) == 0
    text.flush()
    assert png_size(binary.getvalue())[0] > 0
    status, _, err = call("show", "chess", "--format", "png", stdout=_Terminal())
    assert status == 2 and "-o FILE" in err


_TEXT_PATH = re.compile(  # a text drawn as a path: its outlines turned upright, scale(k -k)
    r'<path transform="translate\([^)]*\) scale\([0-9.]+ -[0-9.]+\)" d="[^"]*" fill="[^"]*"/>')


def _differing(one: Any, other: Any, box: tuple[int, int, int, int], shift: tuple[int, int] = (0, 0)) -> int:
    """The pixels of ``box`` in ``one`` that differ clearly from ``other``'s (its box moved by
    ``shift``): grey levels apart by more than 60."""
    from PIL import ImageChops  # noqa: PLC0415

    dx, dy = shift
    moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
    difference = ImageChops.difference(one.crop(box), other.crop(moved))
    return sum(difference.histogram()[61:])


@pytest.mark.parametrize(("game", "one", "other"), [("shogi", "d1", "c1"), ("xiangqi", "d1", "c1"),
                                                    ("shogi", "e9", "e1"), ("xiangqi", "e10", "e1")])
def test_png_draws_the_characters_with_no_font(game: str, one: str, other: str, tmp_path: Path) -> None:
    """On this machine no font has kanji (tests/test_glyphs.py says so, or skips saying it has):
    the characters are drawn all the same, each its own, and not as the boxes <text> gave."""
    cairosvg = pytest.importorskip("cairosvg")
    image_module = pytest.importorskip("PIL.Image")
    from ggn import svg  # noqa: PLC0415

    target = tmp_path / f"{game}.png"
    assert call("show", game, "--format", "png", "-o", str(target), "--size", "48")[:2] == (0, "")
    _, picture, _ = call("show", game, "--format", "svg", "--size", "48")
    boxes: dict[str, tuple[int, int, int, int]] = {}
    for element in ET.fromstring(picture).iter():
        if element.get("data-cell"):
            x, y = float(element.get("x", "0")), float(element.get("y", "0"))
            side = float(element.get("width", "0"))
            # the piece's middle, where its character is: a margin of the square left out
            boxes[element.get("data-cell", "")] = (round(x + side * 0.25), round(y + side * 0.25),
                                                   round(x + side * 0.75), round(y + side * 0.75))

    def render(text: str) -> Any:
        return image_module.open(io.BytesIO(cairosvg.svg2png(bytestring=text.encode("utf-8")))).convert("L")

    drawn = image_module.open(target).convert("L")
    entry = registry.entry(game)
    compact = svg.board(entry.position(), compact=True, size=48, **entry.drawing())
    assert _differing(drawn, render(compact), boxes[one]) == 0  # the picture ggn show drew
    blank = render(_TEXT_PATH.sub("", compact))
    in_font = render(svg.board(entry.position(), compact=True, size=48, font="Noto Serif CJK JP",
                               **entry.drawing()))
    area = (boxes[one][2] - boxes[one][0]) * (boxes[one][3] - boxes[one][1])
    for cell in (one, other):
        # The character's ink: without it the middle of the piece is bare.
        assert _differing(drawn, blank, boxes[cell]) > area // 10, cell
        # Not what a <text> drew in the fonts this machine has (a box where none has kanji).
        assert _differing(drawn, in_font, boxes[cell]) > area // 20, cell
    if one[1:] == other[1:]:  # two pieces of a rank: alike but for their characters
        shift = (boxes[other][0] - boxes[one][0], 0)
        assert _differing(blank, blank, boxes[one], shift) < area // 50
        assert _differing(drawn, drawn, boxes[one], shift) > area // 10


def test_png_without_cairosvg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg raises ImportError
    status, _, err = call("show", "chess", "--format", "png", "-o", str(tmp_path / "b.png"))
    assert status == 2
    assert "pip install 'ggn[png]'" in err
    assert not (tmp_path / "b.png").exists()


def coordinates(picture: str) -> list[str]:
    root = ET.fromstring(picture)
    return [e[0].get("data-text", "") for e in root.iter() if e.get("class") == "coordinate"]


def test_coordinates_styles(tmp_path: Path) -> None:
    found = {}
    for style in ("game", "outside", "inside", "cell", "none"):
        status, out, err = call("show", "shogi", "--format", "svg", "--coordinates", style)
        assert (status, err) == (0, "")
        found[style] = coordinates(out)
    assert found["game"][:9] == list("987654321") and found["game"][9:] == list("一二三四五六七八九")
    assert sorted(found["outside"]) == sorted([*"abcdefghi", *"123456789"])
    assert sorted(found["inside"]) == sorted(found["outside"])
    assert len(found["cell"]) == 81 and "a1" in found["cell"] and "i9" in found["cell"]
    assert found["none"] == []
    # The game's own is the default; --no-coordinates is --coordinates none.
    assert call("show", "shogi", "--format", "svg")[1] == call(
        "show", "shogi", "--format", "svg", "--coordinates", "game")[1]
    assert call("show", "shogi", "--format", "svg", "--no-coordinates")[1] == call(
        "show", "shogi", "--format", "svg", "--coordinates", "none")[1]
    _, out, _ = call("show", "xiangqi", "--format", "svg", "--flip")
    assert coordinates(out)[:2] == ["九", "1"]  # file a: red's 九 (above, flipped), black's 1
    _, out, _ = call("show", "shogi", "--format", "svg", "--letters")
    assert coordinates(out)[9:] == list("abcdefghi")
    _, out, _ = call("show", "shogi", "--format", "json", "--coordinates", "cell")
    assert len(coordinates(json.loads(out)["svg"])) == 81
    # The text board writes CELL names for any style but none.
    text = call("show", "shogi", "--coordinates", "game")[1]
    assert text == call("show", "shogi", "--coordinates", "outside")[1] and "a   b" in text
    assert "a   b" not in call("show", "shogi", "--coordinates", "none")[1]


def test_coordinates_errors() -> None:
    status, _, err = call("show", "shogi", "--coordinates", "kanji")
    assert status == 2
    assert "invalid choice: 'kanji' (choose from 'game', 'outside', 'inside', 'cell', 'none')" in err
    status, _, err = call("show", "shogi", "--coordinates", "cell", "--no-coordinates")
    assert status == 2 and "not allowed with argument" in err


def test_coordinates_in_png(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    sizes = set()
    for style in ("game", "inside", "cell", "none"):
        target = tmp_path / f"{style}.png"
        status, _, err = call("show", "xiangqi", "--format", "png", "-o", str(target), "--coordinates", style)
        assert (status, err) == (0, "")
        sizes.add(png_size(target.read_bytes()))
    assert len(sizes) == 2  # names in the margins (game) take room; on the squares none
