"""Hostile inputs to the core library (issue 8): each test names the row of the issue's table
it guards. Inputs that once took quadratic time carry a hang guard far above their time now."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import pytest

from ggn.cell import Cell
from ggn.errors import DocumentError, GGNError
from ggn.lcn import Conditions
from ggn.qpi import Qpi
from ggn.ruleset import Ruleset
from ggn.stn import Transition


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


# --- rows 12 and 16: numbers in documents, and where malformed JSON is -------------------------
def test_row16_a_number_out_of_range_is_quoted_as_written() -> None:
    # It read as infinity, and the message said "got the number inf".
    with pytest.raises(DocumentError) as caught:
        Ruleset.loads('{"C:R": {"a1": {"a3": [{"must": {"a2": 1e999}}]}}}')
    (violation,) = caught.value.violations
    assert violation.path == "/C:R/a1/a3/0/must/a2"
    assert "got the number 1e999, beyond the range of a number" in violation.message
    assert "inf" not in violation.message.replace("infinity", "")


@pytest.mark.parametrize("sign", ["", "-"])
def test_row12_row16_a_5000_digit_integer_is_reported_at_its_path(sign: str) -> None:
    # int() refused it inside the JSON reader: "malformed JSON: Exceeds the limit (4300
    # digits) for integer string conversion ...", at the document, with no line or column.
    text = '{"first_player_hand_diff": {"C:P": %s}}' % (sign + "7" * 5_000)
    with pytest.raises(DocumentError) as caught:
        Transition.loads(text)
    (violation,) = caught.value.violations
    assert violation.path == "/first_player_hand_diff/C:P"
    assert f"got an integer of 5,000 digits ({sign}{'7' * (12 - len(sign))}...77777777777)" in (
        violation.message
    )
    assert "set_int_max_str_digits" not in violation.message


def test_row12_integers_up_to_the_bound_read_whatever_int_accepts() -> None:
    # The bound is the library's own: a count of 4,300 digits reads even when the process
    # has lowered int()'s limit (to 640, the least Python allows), and dumps back.
    limit = sys.get_int_max_str_digits()
    count = int("9" * 600) * 10**3_700 + 1
    try:
        sys.set_int_max_str_digits(640)
        transition = Transition.loads(
            '{"first_player_hand_diff": {"C:P": %s}}' % ("9" * 600 + "0" * 3_699 + "1")
        )
        assert transition.hand("first")["C:P"] == count
        assert Transition.loads(transition.dumps()) == transition
    finally:
        sys.set_int_max_str_digits(limit)


def test_row12_a_value_built_in_python_with_a_huge_integer_is_described_briefly() -> None:
    errors = Ruleset.errors({"C:R": {"a1": {"a2": [{"must": {"a3": -(10**5_000)}}]}}})
    assert [e.path for e in errors] == ["/C:R/a1/a2/0/must/a3"]
    assert "got the integer -10000000000...00000000000 (5,001 digits)" in errors[0].message


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"C:R": ', "line 1, column 9: Expecting value"),
        ('{"C:R": {},}', "line 1, column 12: Expecting property name"),
        ('{"C:R": {}} {}', "line 1, column 13: extra data after the document"),
        ('{"C:R": {"a1": {"a2": [01]}}}', "line 1, column 25: Expecting ','"),
        ("\n\n  tru", "line 3, column 3: Expecting value"),
        # Python's reader takes these words for numbers; the message said "malformed JSON:
        # NaN is not a JSON number", with no line or column.
        ('{\n  "C:R": {\n    "a1": NaN}}', "line 3, column 11: NaN is not a JSON number"),
        ('["NaN", "a \\" NaN",\n Infinity]', "line 2, column 2: Infinity is not a JSON number"),
        ('{"C:R":\n\n   -Infinity}', "line 3, column 4: -Infinity is not a JSON number"),
    ],
)
def test_row16_every_json_syntax_error_gives_line_and_column(text: str, where: str) -> None:
    with pytest.raises(DocumentError) as caught:
        Ruleset.loads(text)
    (violation,) = caught.value.violations
    assert violation.path == ""
    assert violation.message.startswith(f"malformed JSON at {where}")
    if "JSON number" not in where:  # the same place Python's reader names
        with pytest.raises(json.JSONDecodeError) as fault:
            json.loads(text)
        assert where.startswith(f"line {fault.value.lineno}, column {fault.value.colno}: ")


# --- row 17: wrong Python types are TypeError, naming the parameter ----------------------------
def wrong(value: object) -> Any:
    """A value of the wrong type, passed on as the caller that gets it wrong would."""
    return value


PATH_OR_FILE = "file must be a path (str or os.PathLike) or a file object"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Ruleset.load(wrong(None)), f"{PATH_OR_FILE}, got NoneType"),
        (lambda: Ruleset.load(wrong(5)), f"{PATH_OR_FILE}, got int"),
        (lambda: Transition.loads(wrong(None)), "text must be JSON text (str or bytes), got NoneType"),
        (lambda: Conditions.loads(wrong({})), "text must be JSON text (str or bytes), got dict"),
        (lambda: Ruleset.loads("{}", max_errors=wrong("9")), "max_errors must be an int, got str"),
        (lambda: Ruleset.errors({}, max_errors=wrong(True)), "max_errors must be an int, got bool"),
        (lambda: Ruleset.loads("{}", max_bytes=wrong(None)), "max_bytes must be an int, got NoneType"),
        (lambda: Ruleset.loads("{}").dumps(indent=wrong("  ")), "indent must be an int or None, got str"),
    ],
)
def test_row17_document_entry_points_name_the_wrong_type(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message


def test_row17_transition_constructors_name_the_wrong_type() -> None:
    pawn = Qpi.parse("C:P")
    with pytest.raises(TypeError, match=r"^board must be a mapping or None, got int$"):
        Transition.of(board=wrong(5))
    with pytest.raises(TypeError, match=r"^board.s keys must be Cell values \(.*\), got str$"):
        Transition(board=wrong({"e4": None}))
    with pytest.raises(TypeError, match=r"^board\[e4\] must be a Qpi or None, got str$"):
        Transition(board=wrong({Cell.parse("e4"): "C:P"}))
    with pytest.raises(TypeError, match=r"^first_hand\[C:P\] must be an int, got float$"):
        Transition(first_hand=wrong({pawn: 1.0}))
    with pytest.raises(TypeError, match=r"^toggle must be a bool, got int$"):
        Transition(toggle=wrong(1))
    with pytest.raises(GGNError, match=r"^second_hand\[C:P\] must be a non-zero count change"):
        Transition(second_hand={pawn: 0})
    # What a document cannot write, a transition does not hold: dumps() always loads back.
    with pytest.raises(GGNError, match=r"at most 4,300 digits .*, got 10000000000\.\.\."):
        Transition(first_hand={pawn: 10**4_300})
    assert Transition(first_hand={pawn: 10**4_300 - 1}).hand("first")[pawn] == 10**4_300 - 1
