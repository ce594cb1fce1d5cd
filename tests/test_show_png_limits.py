"""ggn show --format png of a picture larger than cairo draws: exit 1 saying why, not an
internal error."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ggn.cli import run

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
