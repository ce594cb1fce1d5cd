"""ggn show --format png of a picture larger than cairo draws: exit 1 saying why, not an
internal error."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from ggn.cli import run
from ggn.position import Position

DOCUMENT = Path(__file__).parent / "vectors" / "ggn" / "valid" / "capture-to-hand.json"


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO())
    return status, out.getvalue(), err.getvalue()


def test_a_picture_wider_than_cairo_draws_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    target = tmp_path / "wide.png"
    status, out, err = call("show", str(DOCUMENT), "700 / A/b", "--format", "png", "-o", str(target))
    assert status == 1, err
    assert "too large for PNG" in err and "--size" in err and "internal error" not in err
    assert not target.exists()
    assert out == ""


def test_the_same_board_with_smaller_squares_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    target = tmp_path / "wide.png"
    status, _, err = call("show", str(DOCUMENT), "700 / A/b", "--format", "png", "--size", "8",
                          "-o", str(target))
    assert status == 0, err
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


# --- the work cairosvg takes: elements, not pixels ----------------------------------------------
def full_board(n: int, style: str = "S", letter: str = "P") -> str:
    return "/".join([letter * n] * n) + f" / {style}/{style.lower()}"


class Refused:
    """Stand-ins for the picture's making and drawing that fail the test if called."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import cairosvg  # noqa: PLC0415

        from ggn import svg  # noqa: PLC0415

        self.boards: list[int] = []
        original = svg.board

        def counted(*args: Any, **kwargs: Any) -> str:
            self.boards.append(1)
            return original(*args, **kwargs)

        def rendered(**kwargs: Any) -> bytes:
            raise AssertionError("cairosvg was called")

        monkeypatch.setattr(svg, "board", counted)
        monkeypatch.setattr(cairosvg, "svg2png", rendered)


def test_a_full_128x128_board_is_refused_by_its_count_before_its_picture_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cairosvg")
    from ggn.svg import MAX_PNG_ELEMENTS  # noqa: PLC0415

    refused = Refused(monkeypatch)
    target = tmp_path / "big.png"
    # 16,384 pieces, about 2,100 pixels a side: under the pixel bounds, 18.9 s in cairosvg before
    status, out, err = call("show", str(DOCUMENT), full_board(128), "--format", "png", "--size", "8",
                            "-o", str(target))
    assert status == 1, err
    assert "16,384 pieces" in err and "32,768 elements" in err
    assert f"at most {MAX_PNG_ELEMENTS:,} elements" in err
    assert "too much work for PNG" in err and "--format svg" in err and "internal error" not in err
    assert refused.boards == []  # counted from the position: no picture made
    assert not target.exists() and out == ""


def test_a_board_whose_picture_has_too_many_elements_is_refused_before_rendering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cairosvg")
    from ggn.svg import MAX_PNG_ELEMENTS, board, drawn_elements  # noqa: PLC0415

    # 1,600 chess queens: few enough pieces to make the picture, but each draws a figure of parts
    feen = full_board(40, "C", "Q")
    drawn = drawn_elements(board(Position.from_feen(feen), size=8, compact=True))
    assert 2 * 1600 < MAX_PNG_ELEMENTS < drawn
    refused = Refused(monkeypatch)
    status, _, err = call("show", str(DOCUMENT), feen, "--format", "png", "--size", "8",
                          "-o", str(tmp_path / "q.png"))
    assert status == 1, err
    assert f"a picture of {drawn:,} elements (1,600 pieces)" in err and f"at most {MAX_PNG_ELEMENTS:,}" in err
    assert refused.boards == [1]


def test_a_board_just_under_the_bound_is_drawn_and_one_element_more_is_not() -> None:
    pytest.importorskip("cairosvg")
    from ggn import svg  # noqa: PLC0415
    from ggn.errors import GGNError  # noqa: PLC0415

    # The largest full board of shogi pieces under the real bound (about 3 s of cairosvg here)
    n = 2
    while svg.drawn_elements(svg.board(Position.from_feen(full_board(n + 1)), size=8, compact=True)) \
            <= svg.MAX_PNG_ELEMENTS:
        n += 1
    position = Position.from_feen(full_board(n))
    drawn = svg.drawn_elements(svg.board(position, size=8, compact=True))
    assert svg.MAX_PNG_ELEMENTS * 0.95 < drawn <= svg.MAX_PNG_ELEMENTS
    assert svg.png(position, size=8).startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(GGNError, match=f"a picture of {drawn:,} elements"):
        svg.png(position, size=8, max_elements=drawn - 1)
    with pytest.raises(GGNError, match=f"a picture of {(n + 1) ** 2:,} pieces"):
        svg.png(Position.from_feen(full_board(n + 1)), size=8, max_elements=2 * (n + 1) ** 2 - 1)


def test_a_picture_of_too_many_pixels_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cairosvg")
    from ggn import svg  # noqa: PLC0415
    from ggn.errors import GGNError  # noqa: PLC0415

    Refused(monkeypatch)
    # 12x12 squares of 512 pixels: 6,400 a side, under cairo's 32,767, over 33.5 million pixels
    with pytest.raises(GGNError, match=r"too large for PNG \(at most 33,554,432 pixels\)"):
        svg.png(Position.from_feen("/".join(["12"] * 12) + " / C/c"), size=512)


def test_the_compact_picture_draws_what_the_full_one_draws_in_fewer_elements() -> None:
    from ggn import svg  # noqa: PLC0415
    from ggn.variants import registry  # noqa: PLC0415

    for name in ("chess", "shogi", "xiangqi", "makruk"):
        entry = registry.entry(name)
        position = entry.rules.position()
        full = svg.board(position, highlight=["a1"], **entry.drawing())
        compact = svg.board(position, highlight=["a1"], compact=True, **entry.drawing())
        assert svg.drawn_elements(compact) < svg.drawn_elements(full) * 0.6
        assert "<use" not in compact and "<title>" not in compact and "data-" not in compact
        # every letter, coordinate and character, drawn as paths (flipped upright: scale(k -k))
        texts = re.compile(r"scale\([0-9.]+ -[0-9.]+\)")
        assert len(texts.findall(compact)) == len(texts.findall(full)) > 0
        assert "<text" not in full and "<text" not in compact
        assert full.count('<use xlink:href="#ggn-chess') == 32 if name == "chess" else True
    big = Position.from_feen(full_board(64, "C", "P"))
    # 4,096 squares and pawns: each square was an element, and each pawn a <use> of 5
    assert svg.drawn_elements(svg.board(big, size=8)) > 4 * 4096 + 4096
    assert svg.drawn_elements(svg.board(big, size=8, compact=True)) < 6 * 4096


def test_drawn_elements_counts_what_a_use_draws() -> None:
    from ggn import svg  # noqa: PLC0415

    picture = svg.board(Position.from_feen("k^1K^/3 / C/c"))
    uses = picture.count("<use")
    assert uses == 2
    assert svg.drawn_elements(picture) > len(re.findall(r"<(?![/!?])", picture))
    with pytest.raises(TypeError):
        svg.drawn_elements(b"<svg/>")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        svg.png(Position.from_feen("3 / C/c"), compact=True)
