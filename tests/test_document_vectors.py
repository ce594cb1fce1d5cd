"""Every document vector under tests/vectors/<kind>/: valid ones load and round-trip,
invalid ones fail with exactly the listed paths, in order, each message saying why."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ggn import Conditions, DocumentError, LegacyRuleset, Ruleset, Transition
from ggn._document import Document
from ggn.cli import run
from ggn.legacy_gem import GemRuleset

VECTORS = Path(__file__).parent / "vectors"
KINDS: dict[str, type[Document]] = {
    "ggn": Ruleset,
    "lcn": Conditions,
    "stn": Transition,
    "ggn-legacy": LegacyRuleset,
    "ggn-gem": GemRuleset,
}


def _cases(validity: str) -> list[tuple[str, Path]]:
    cases: list[tuple[str, Path]] = []
    for kind in KINDS:
        folder = VECTORS / kind / validity
        cases.extend(
            (kind, path) for path in sorted(folder.glob("*.json")) if not path.name.endswith(".errors.json")
        )
    return cases


def _id(case: tuple[str, Path]) -> str:
    return f"{case[0]}/{case[1].stem}"


VALID = _cases("valid")
INVALID = _cases("invalid")


def test_every_kind_has_vectors() -> None:
    for kind in KINDS:
        assert any(k == kind for k, _ in VALID), kind
        assert any(k == kind for k, _ in INVALID), kind


@pytest.mark.parametrize("case", VALID, ids=_id)
def test_valid_vector_loads_and_round_trips(case: tuple[str, Path]) -> None:
    kind, path = case
    cls = KINDS[kind]
    document = cls.load(path)
    assert cls.loads(document.dumps()) == document
    assert cls.loads(document.dumps(explicit=True)) == document
    assert cls.loads(document.dumps(indent=None)) == document
    # The canonical form of a decoded value is that value, less empty optional fields.
    assert cls.from_value(document.to_value()).to_value() == document.to_value()
    assert cls.errors(json.loads(path.read_bytes())) == []
    assert cls.is_valid(json.loads(path.read_bytes()))


@pytest.mark.parametrize("case", VALID, ids=_id)
def test_valid_vector_through_the_command(case: tuple[str, Path]) -> None:
    kind, path = case
    out, err = io.StringIO(), io.StringIO()
    status = run(["validate", "--as", kind, "--format", "json", str(path)], out, err)
    assert (status, json.loads(out.getvalue()), err.getvalue()) == (0, {"valid": True, "errors": []}, "")


def _expected(path: Path) -> list[dict[str, str]]:
    expected: list[dict[str, str]] = json.loads(path.with_name(path.stem + ".errors.json").read_text())
    return expected


@pytest.mark.parametrize("case", INVALID, ids=_id)
def test_invalid_vector_reports_every_path(case: tuple[str, Path]) -> None:
    kind, path = case
    expected = _expected(path)
    with pytest.raises(DocumentError) as caught:
        KINDS[kind].load(path)
    got = caught.value.violations
    assert [v.path for v in got] == [e["path"] for e in expected]
    for violation, want in zip(got, expected, strict=True):
        assert want["message"] in violation.message
        assert "Traceback" not in violation.message


@pytest.mark.parametrize("case", INVALID, ids=_id)
def test_invalid_vector_through_the_command(case: tuple[str, Path]) -> None:
    kind, path = case
    out, err = io.StringIO(), io.StringIO()
    status = run(["validate", "--as", kind, "--format", "json", str(path)], out, err)
    report = json.loads(out.getvalue())
    assert status == 1
    assert report["valid"] is False
    assert [e["path"] for e in report["errors"]] == [e["path"] for e in _expected(path)]
    out, err = io.StringIO(), io.StringIO()
    assert run(["validate", "--as", kind, str(path)], out, err) == 1
    assert "invalid" in err.getvalue()
    for want in _expected(path):
        assert want["path"] or "(document)" in err.getvalue()
