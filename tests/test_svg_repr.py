"""Position._repr_svg_ in a notebook: a board too large to draw gives None (IPython then shows
the text form) rather than an error raised inside the notebook's display."""

from __future__ import annotations

from ggn import Position, svg


def test_a_board_too_large_to_draw_has_no_svg_form() -> None:
    files = svg.MAX_DRAWN_SQUARES // 2 + 1
    position = Position.from_feen(f"{files}/{files} / A/b")
    assert position._repr_svg_() is None


def test_the_largest_board_drawn_has_one() -> None:
    files = svg.MAX_DRAWN_SQUARES // 2
    position = Position.from_feen(f"{files}/{files} / A/b")
    picture = position._repr_svg_()
    assert picture is not None and picture == svg.board(position)
