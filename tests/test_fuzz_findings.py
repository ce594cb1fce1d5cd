"""What the fuzz targets found, each as its minimal input, kept as a regression test.

All are fixed. A new finding goes here marked ``xfail(strict=True)`` until it is fixed: then
strict xfail turns its passing into a failure, and the mark is removed. The fuzz targets that
find such inputs are never weakened.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

import pytest

from fuzzing import MAX_MESSAGE, check_cli
from ggn import Conditions, Feen, Position, Ruleset, Sin
from ggn.errors import DocumentError, GGNError, NotationError
from ggn.rules import RuleSystem

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget


def test_finding_feen_hand_count_of_4301_digits_is_a_notation_error() -> None:
    # Found by test_fuzz_evaluation.py::test_any_feen_text_makes_a_position_or_raises_ggn_error
    # (a plain ValueError from int(), issue 8 row 12); fixed by its owner since.
    with pytest.raises(GGNError):
        Feen.parse("8/8 " + "1" * 4301 + "P/ C/c")


def test_finding_convert_effects_over_a_file_with_a_nul_input_name() -> None:
    # Found by test_fuzz_cli.py::test_any_command_line_exits_0_1_or_2_without_a_traceback: it ended
    # in the command's 'internal error' (ValueError: embedded null byte); fixed since.
    with tempfile.TemporaryDirectory() as folder:
        existing = Path(folder) / "doc.json"
        existing.write_text("{}", encoding="utf-8")
        status, _, said = check_cli(["convert", "--effects", str(existing), "a\x00b"], b"")
    assert status == 2 and "internal error" not in said, said
    assert "is not a file name" in said


def test_finding_notation_error_marker_is_bounded() -> None:
    # Found by test_fuzz_messages.py::test_notation_errors_quote_a_bounded_part_of_a_long_input
    # (the marker line was as long as the faulty span); fixed by its owner since.
    with pytest.raises(NotationError) as caught:
        Sin.parse("z" * 5000)
    assert len(str(caught.value)) <= MAX_MESSAGE


def test_finding_document_violation_quotes_a_bounded_value() -> None:
    # Found by test_fuzz_messages.py::test_document_errors_quote_a_bounded_part_of_a_long_value
    # (the state was quoted whole); fixed by its owner since.
    with pytest.raises(DocumentError) as caught:
        Conditions.from_value({"e2": "x" * 5000})
    assert len(caught.value.violations[0].message) <= 1000


def test_finding_ruleset_message_names_a_long_source_key_bounded() -> None:
    # Found by test_fuzz_messages.py::test_document_errors_quote_a_bounded_part_of_a_long_value:
    # a 5,000-letter source key whose value is not an object gave a 5,111-character message;
    # fixed by its owner since.
    with pytest.raises(DocumentError) as caught:
        Ruleset.from_value({"C:K": {"z" * 5000: 1}})
    assert all(len(violation.message) <= 1000 for violation in caught.value.violations)


def test_finding_a_null_move_does_not_copy_the_piece_into_the_hand() -> None:
    # Found by test_fuzz_evaluation.py::test_moves_agree_with_plain_evaluation_and_their_transitions_undo:
    # on a full board the copy was one piece too many, and applying the move raised PositionError;
    # fixed since (the source is emptied first, so the piece takes nothing).
    rules = Ruleset.from_value({"C:K": {"a": {"a": [{}]}}})
    position = Position.from_feen("K / C/c")
    [move] = rules.moves(position)
    assert position.apply(move.transition(position)).to_feen() == "K / c/C"


def test_finding_a_null_move_under_a_rule_system_takes_nothing() -> None:
    # The rule systems' inline paths read the destination's piece as a capture; a move onto its
    # own square goes the general way, with the same effect as its GGN default.
    rules = RuleSystem(Ruleset.from_value({"C:K^": {"a1": {"a1": [{}], "b1": [{"must": {"b1": "empty"}}]}}}))
    position = rules.position("2/K^1 / C/c")
    plays = {str(play): play for play in rules.legal_moves(position)}
    assert sorted(plays) == ["C:K^ a1-a1", "C:K^ a1-b1"]
    null = plays["C:K^ a1-a1"]
    assert null.transition == null.move.transition(position)
    assert rules.play(position, null).to_feen() == "2/K^1 / c/C"
    assert rules.count(position) == 2


def test_finding_the_cli_harness_reads_a_perft_depth_as_the_command_does() -> None:
    # Found by running fuzz/run.py cli: the harness took '²' for a digit (str.isdigit) and crashed
    # in int(); '+4' and '0004', which ggn reads as 4, were not seen as deep and ran perft 4.
    pytest.importorskip("atheris")
    path = Path(__file__).parent.parent / "fuzz" / "run.py"
    spec = importlib.util.spec_from_file_location("fuzz_run", path)
    assert spec is not None and spec.loader is not None
    harness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(harness)
    harness.cli(b"\x00perft\x1echess\x1e\xc2\xb2\x1f\x1f")  # ggn refuses the depth: exit 2, no crash
    deep = [harness._long_by_design(["perft", "chess", depth]) for depth in ("+4", "0004", "64", "3", "1000")]
    assert deep == [True, True, True, False, False]
