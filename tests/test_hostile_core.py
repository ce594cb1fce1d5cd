"""Hostile inputs to the core library (issue 8): each test names the row of the issue's table
it guards. Inputs that once took quadratic time carry a hang guard far above their time now."""

from __future__ import annotations

import json

import pytest

from ggn.cell import Cell
from ggn.ruleset import Ruleset


# --- row 2: CELL letter runs convert in near-linear time ------------------------------------------
# The hang guards sit far above the time now (under a second) and below the old times
# (24 s and 27 s on the 2-core machine), so that the old code fails them.
@pytest.mark.timeout(15)
def test_row2_long_cell_letters_parse_linear() -> None:
    # 300,000 letters took 21 s to read (35 s through `ggn validate`); now well under a second.
    run = "z" * 300_000
    rules = Ruleset.loads(json.dumps({"C:R": {run + "1": {"a1": []}}}))
    (source,) = rules["C:R"].sources
    assert isinstance(source, Cell)
    assert source.indices[0] == 26 ** 300_000 * 26 // 25 - 2  # z...z is the last run of its length
    assert source.indices[1] == 0


@pytest.mark.timeout(15)
def test_row2_long_cell_letters_format_linear() -> None:
    # From indices back to letters: 150,000 letters took 27 s one letter at a time (a
    # division of the whole integer per letter).
    text = "ab" * 75_000 + "7" + "Q" * 1_000
    cell = Cell.parse(text)
    rebuilt = Cell(cell.indices)  # no text kept: the letters are made from the integers
    assert str(rebuilt) == text


@pytest.mark.parametrize("length", [1, 2, 31, 32, 33, 64, 65, 100])
def test_row2_letter_runs_at_the_split_lengths(length: int) -> None:
    # The halves join exactly at every length around the threshold of the plain loop,
    # including the first and last runs of each length (a...a and z...z).
    for run in ("a" * length, "z" * length, ("az" * length)[:length]):
        cell = Cell.parse(run + "1")
        assert str(Cell(cell.indices)) == run + "1"
        value = 0
        for ch in run:
            value = value * 26 + ord(ch) - 96
        assert cell.indices[0] == value - 1
