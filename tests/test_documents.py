"""The document API: navigation, equality, dumping, bounded errors, and Hypothesis laws."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import (
    HAND,
    Cell,
    Conditions,
    DocumentError,
    LegacyRuleset,
    NotFoundError,
    Possibility,
    Qpi,
    Ruleset,
    Transition,
    Violation,
)
from ggn._document import Document
from support import examples

CASTLING = {"C:+K^": {"e1": {"g1": [{"must": {"f1": "empty", "g1": "empty", "h1": "C:+R"}}]}}}


# --- navigation -----------------------------------------------------------------------------

def test_navigation_by_string_and_by_value() -> None:
    rules = Ruleset.from_value(CASTLING)
    king = Qpi.parse("C:+K^")
    assert rules.pieces == (king,)
    assert rules.select("C:+K^") is rules.select(king) is rules[king]
    assert rules.select(king).sources == (Cell.parse("e1"),)
    assert rules.select(king).source("e1").destinations == (Cell.parse("g1"),)
    (possibility,) = rules.select(king).source("e1").destination("g1")
    assert possibility.must["h1"] == Qpi.parse("C:+R")
    assert possibility.must[Cell.parse("f1")] == "empty"
    assert not possibility.deny
    assert "e1" in rules[king] and Cell.parse("e1") in rules[king]
    assert "e2" not in rules[king] and "not a cell" not in rules[king]


def test_missing_piece_source_destination_are_named() -> None:
    rules = Ruleset.from_value(CASTLING)
    with pytest.raises(NotFoundError, match=r"no piece 'C:K\^' in the ruleset; there are: C:\+K\^"):
        rules.select("C:K^")
    with pytest.raises(NotFoundError, match=r"no source 'e2' for C:\+K\^; there are: e1"):
        rules.select("C:+K^").source("e2")
    with pytest.raises(NotFoundError, match=r"no destination 'c1' for C:\+K\^ from e1; there are: g1"):
        rules.select("C:+K^").source("e1").destination("c1")
    with pytest.raises(NotFoundError, match="'K' is not a piece: missing ':'"):
        rules.select("K")
    with pytest.raises(KeyError):  # NotFoundError is a KeyError too, for mapping code
        rules["c:k"]


def test_hand_is_a_source_and_a_destination() -> None:
    rules = Ruleset.from_value({"S:P": {"*": {"e5": []}, "e5": {"*": [{}]}}})
    assert rules["S:P"].sources == (HAND, Cell.parse("e5"))
    assert rules["S:P"]["*"]["e5"] == ()
    assert rules["S:P"]["e5"][HAND] == (Possibility(),)


def test_documents_are_read_only() -> None:
    rules = Ruleset.from_value(CASTLING)
    (possibility,) = rules["C:+K^"]["e1"]["g1"]
    with pytest.raises(AttributeError):
        possibility.must = Conditions.of()  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules["C:+K^"]["e1"]["g1"] = ()  # type: ignore[index]
    transition = Transition.of({"e4": "C:P"})
    with pytest.raises(AttributeError):
        transition.toggle = True  # type: ignore[misc]


def test_equality_ignores_spelling_of_empty_fields() -> None:
    bare = Ruleset.from_value({"C:K": {"e1": {"e2": [{}]}}})
    spelled = Ruleset.from_value({"C:K": {"e1": {"e2": [{"must": {}, "deny": {}}]}}})
    assert bare == spelled
    assert bare.to_value() == {"C:K": {"e1": {"e2": [{}]}}}
    assert spelled.to_value(explicit=True) == {"C:K": {"e1": {"e2": [{"must": {}, "deny": {}}]}}}
    assert Ruleset.from_value({"C:K": {"e1": {"e2": []}}}) != bare


def test_possibility_order_is_kept() -> None:
    doc = {"C:R": {"a1": {"a2": [{"must": {"a2": "enemy"}}, {"must": {"a2": "empty"}}]}}}
    rules = Ruleset.from_value(doc)
    assert rules.to_value() == doc
    assert [p.must["a2"] for p in rules["C:R"]["a1"]["a2"]] == ["enemy", "empty"]


def test_transition_of_and_accessors() -> None:
    t = Transition.of({"e5": "S:P"}, first_hand={"S:P": -1}, toggle=True)
    assert t.board["e5"] == Qpi.parse("S:P")
    assert t.hand("first")["S:P"] == -1
    assert not t.hand("second")
    assert t == Transition.loads(t.dumps())
    assert hash(t) == hash(Transition.loads(t.dumps()))
    assert not Transition()
    assert Transition.loads("{}") == Transition()
    with pytest.raises(DocumentError, match="non-zero"):
        Transition.of(first_hand={"S:P": 0})
    with pytest.raises(ValueError, match="'first' or 'second'"):
        t.hand("third")  # type: ignore[arg-type]


def test_conditions_of_validates() -> None:
    assert Conditions.of({"e4": "empty"})["e4"] == "empty"
    with pytest.raises(DocumentError) as caught:
        Conditions.of({"e4": "friend"})
    assert caught.value.path == "/e4"


# --- loading from every kind of source --------------------------------------------------------

def test_load_from_path_file_objects_text_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(CASTLING))
    expected = Ruleset.from_value(CASTLING)
    assert Ruleset.load(path) == expected
    assert Ruleset.load(str(path)) == expected
    with path.open("rb") as binary:
        assert Ruleset.load(binary) == expected
    with path.open(encoding="utf-8") as text:
        assert Ruleset.load(text) == expected
    assert Ruleset.loads(path.read_text()) == expected
    assert Ruleset.loads(path.read_bytes()) == expected
    assert Ruleset.loads(bytearray(path.read_bytes())) == expected
    out = io.StringIO()
    expected.dump(out)
    assert Ruleset.loads(out.getvalue()) == expected


def test_unreadable_file_is_a_document_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="cannot read"):
        Ruleset.load(tmp_path / "missing.json")
    with pytest.raises(DocumentError, match="cannot read"):
        Ruleset.load(tmp_path)


def test_size_limit() -> None:
    text = json.dumps(CASTLING)
    with pytest.raises(DocumentError, match="over the limit of 10 bytes"):
        Ruleset.loads(text, max_bytes=10)
    with pytest.raises(DocumentError, match="over the limit of 10 bytes"):
        Ruleset.load(io.BytesIO(text.encode()), max_bytes=10)
    assert Ruleset.loads(text, max_bytes=len(text)) == Ruleset.from_value(CASTLING)


def test_not_json_text() -> None:
    # A wrong Python type is the caller's error, not the document's (issue 8, row 17).
    with pytest.raises(TypeError, match=r"text must be JSON text \(str or bytes\), got dict"):
        Ruleset.loads(CASTLING)  # type: ignore[arg-type]


def test_errors_are_bounded_and_complete_below_the_bound() -> None:
    doc: dict[str, Any] = {"C:K": {f"z{i}": [] for i in range(1, 31)}}
    assert len(Ruleset.errors(doc)) == 30
    assert len(Ruleset.errors(doc, max_errors=7)) == 7
    with pytest.raises(DocumentError) as caught:
        Ruleset.from_value(doc, max_errors=5)
    assert caught.value.truncated
    assert len(caught.value.violations) == 5
    assert "and more, not reported" in str(caught.value)
    with pytest.raises(DocumentError) as caught:
        Ruleset.from_value(doc, max_errors=30)
    assert not caught.value.truncated
    assert not Ruleset.is_valid(doc)


def test_document_error_attributes_and_message() -> None:
    with pytest.raises(DocumentError) as caught:
        Ruleset.from_value({"C:R": {"a1": {"a4": [{"must": {"a1": "empty"}}]}}})
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.kind == "GGN"
    assert error.path == "/C:R/a1/a4/0/must/a1"
    assert error.violations == (Violation("/C:R/a1/a4/0/must/a1", error.message),)
    assert str(error).splitlines()[0] == "invalid GGN document: 1 violation"


def test_python_values_that_are_not_json() -> None:
    assert Ruleset.errors({1: {}})[0].message == "piece keys must be strings, got the integer 1"
    odd = {"C:K": {"e1": {"e2": [{"must": {"e2": object()}}]}}}
    assert "not a JSON value" in Ruleset.errors(odd)[0].message
    fraction = {"first_player_hand_diff": {"S:P": 1.5}}
    assert Transition.errors(fraction)[0].path == "/first_player_hand_diff/S:P"
    nested: list[Any] = []
    for _ in range(5000):
        nested = [nested]
    assert Ruleset.errors(nested)[0].path == ""


# --- Hypothesis ------------------------------------------------------------------------------

lower = st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=3)
upper = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=2)
number = st.integers(1, 300).map(str)
cells = st.one_of(
    st.tuples(lower, number).map("".join),
    st.tuples(lower, number, upper).map("".join),
    lower,
)
letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
qpis = st.builds(
    lambda s, st_, p, t: f"{s}:{st_}{p}{t}", letters, st.sampled_from(["", "+", "-"]), letters,
    st.sampled_from(["", "^"]),
)
states = st.one_of(st.sampled_from(["empty", "enemy"]), qpis)
conditions = st.dictionaries(cells, states, max_size=5)
possibilities = st.fixed_dictionaries({}, optional={"must": conditions, "deny": conditions})
locations = st.one_of(cells, st.just("*"))


@st.composite
def rulesets(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for piece in draw(st.lists(qpis, max_size=3, unique=True)):
        sources: dict[str, Any] = {}
        for source in draw(st.lists(locations, max_size=3, unique=True)):
            destinations: dict[str, Any] = {}
            for destination in draw(st.lists(locations, max_size=3, unique=True)):
                if source == destination == "*":
                    continue
                destinations[destination] = [
                    {k: {c: s for c, s in v.items() if c != source} for k, v in item.items()}
                    for item in draw(st.lists(possibilities, max_size=3))
                ]
            sources[source] = destinations
        doc[piece] = sources
    return doc


def _canonical(doc: dict[str, Any]) -> dict[str, Any]:
    return {
        piece: {
            source: {
                destination: [{k: v for k, v in item.items() if v} for item in items]
                for destination, items in destinations.items()
            }
            for source, destinations in sources.items()
        }
        for piece, sources in doc.items()
    }


@given(rulesets())
def test_ruleset_round_trip(doc: dict[str, Any]) -> None:
    rules = Ruleset.from_value(doc)
    assert Ruleset.loads(rules.dumps()) == rules
    assert Ruleset.loads(rules.dumps(explicit=True, indent=None)) == rules
    assert rules.to_value() == _canonical(doc)


transitions = st.fixed_dictionaries({}, optional={
    "board_diff": st.dictionaries(cells, st.one_of(st.none(), qpis), max_size=5),
    "first_player_hand_diff": st.dictionaries(qpis, st.integers().filter(bool), max_size=4),
    "second_player_hand_diff": st.dictionaries(qpis, st.integers().filter(bool), max_size=4),
    "toggle": st.booleans(),
})


@given(transitions)
def test_transition_round_trip(doc: dict[str, Any]) -> None:
    transition = Transition.from_value(doc)
    assert Transition.loads(transition.dumps()) == transition
    assert Transition.loads(transition.dumps(explicit=True)) == transition
    expected = {k: v for k, v in doc.items() if v}
    assert transition.to_value() == expected


@given(conditions)
def test_conditions_round_trip(doc: dict[str, str]) -> None:
    assert Conditions.from_value(doc).to_value() == doc
    assert Conditions.loads(Conditions.from_value(doc).dumps()) == Conditions.from_value(doc)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | cells | qpis | st.sampled_from(["*", "empty", "enemy", "must", "deny"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.one_of(st.text(max_size=4), cells, qpis, st.sampled_from(
        ["*", "must", "deny", "board_diff", "toggle", "first_player_hand_diff",
         "board_check", "board_patch", "CHESS:KING"])), children, max_size=4),
    max_leaves=30,
)
KINDS: list[type[Document]] = [Ruleset, Conditions, Transition, LegacyRuleset]


@settings(max_examples=examples(300))
@given(json_values)
def test_any_json_value_builds_or_raises_document_error(value: Any) -> None:
    for kind in KINDS:
        try:
            document = kind.from_value(value)
        except DocumentError as error:
            assert error.violations
            assert all(v.path == "" or v.path.startswith("/") for v in error.violations)
            assert kind.errors(value) == list(error.violations)
            assert not kind.is_valid(value)
        else:
            assert kind.loads(document.dumps()) == document
            assert kind.is_valid(value)


@given(st.one_of(st.text(max_size=60), st.binary(max_size=60)))
def test_any_text_or_bytes_loads_or_raises_document_error(data: str | bytes) -> None:
    for kind in KINDS:
        try:
            kind.loads(data)
        except DocumentError as error:
            assert error.violations


@given(rulesets(), st.data())
def test_mutated_document_points_at_the_fault(doc: dict[str, Any], data: st.DataObject) -> None:
    """Break one key of a valid document: the error path names exactly that member."""
    pieces = list(doc)
    if not pieces:
        return
    piece = data.draw(st.sampled_from(pieces))
    bad = data.draw(st.sampled_from(["e0", "E4", "a1 ", "", "**", "1a"]))
    doc[piece][bad] = {}
    errors = Ruleset.errors(doc)
    assert [e.path for e in errors] == [f"/{piece.replace('~', '~0').replace('/', '~1')}/{bad}"]
