"""Fuzz targets for every document type (GGN ``Ruleset``, LCN ``Conditions``, STN ``Transition``,
``LegacyRuleset``), from decoded JSON values and from text: any input builds and round-trips, or
raises DocumentError with at most ``max_errors`` violations at JSON Pointers (fuzzing.py).

The values: the test vectors with one node replaced, removed or added; random JSON-like
structures (huge integers, floats with NaN and infinities, booleans, deep nesting, keys that
are not strings). The texts: the vectors' bytes edited (invalid UTF-8, a byte order mark,
repeated members), JSON written from the values above, and deeply nested or huge numbers.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import DOCUMENTS, check_document_text, check_document_value, document_values, edited_bytes
from support import examples

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget

KINDS = sorted(DOCUMENTS)

WORDS = [
    "*", "e4", "a1", "z99", "a1A", "aa10", "e0", "E4", "", " ", "C:K^", "c:+p", "S:P", "C:-P", "C:K^'",
    "empty", "enemy", "ally", "must", "deny", "board_diff", "first_player_hand_diff",
    "second_player_hand_diff", "toggle", "board_check", "board_patch", "in_hand_add", "in_hand_del",
    "CHESS:KING", "GAME:X", "+GAME:P", "GAME:P'", "~0/~1",
]
# Integers past the 4,300 digits Python writes by default: drawn by exponent, since the
# strategy's own repr could not write them.
huge = st.sampled_from([20, 63, 64, 4300, 5000]).map(lambda exponent: (-1) ** exponent * 10**exponent)
FLOATS = [0.0, -0.0, 1.5, 1e308, float("inf"), float("-inf"), float("nan"), 2.0]

leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), huge, st.sampled_from(FLOATS),
    st.floats(), st.sampled_from(WORDS), st.text(max_size=5),
)
keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=4))
odd_keys = st.one_of(st.integers(0, 3), st.none(), st.booleans(), st.tuples(st.integers(0, 1)))

json_values = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(keys, children, max_size=4),
    ),
    max_leaves=25,
)
# Python values that JSON cannot hold: keys that are not strings, tuples, sets, bytes.
python_values = st.recursive(
    st.one_of(leaves, st.binary(max_size=3), st.builds(object)),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.tuples(children), st.frozensets(st.integers(0, 3), max_size=2),
        st.dictionaries(st.one_of(keys, odd_keys), children, max_size=3),
    ),
    max_leaves=12,
)


def deep(value: Any, levels: int, as_dict: bool) -> Any:
    for _ in range(levels):
        value = {"must": value} if as_dict else [value]
    return value


@st.composite
def near_values(draw: st.DrawFn, kind: str) -> Any:
    """A decoded test vector with one to three nodes replaced, removed or added."""
    value = copy.deepcopy(draw(st.sampled_from(document_values(kind))))
    for _ in range(draw(st.integers(1, 3))):
        parent: Any = None
        key: Any = None
        node = value
        # Walk down a random path, then change what is there.
        for _ in range(draw(st.integers(0, 6))):
            if isinstance(node, dict) and node:
                parent, key = node, draw(st.sampled_from(sorted(node)))
            elif isinstance(node, list) and node:
                parent, key = node, draw(st.integers(0, len(node) - 1))
            else:
                break
            node = parent[key]
        edit = draw(st.sampled_from(["replace", "remove", "add"]))
        if parent is None:
            value = draw(json_values) if edit == "replace" else value
        elif edit == "replace":
            parent[key] = draw(json_values)
        elif edit == "remove":
            del parent[key]
        elif isinstance(parent, dict):
            parent[draw(keys)] = draw(json_values)
        else:
            parent.append(draw(json_values))
    return value


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(100))
@given(data=st.data())
def test_near_valid_values_build_or_raise_document_error(kind: str, data: st.DataObject) -> None:
    check_document_value(kind, data.draw(near_values(kind)), data.draw(st.sampled_from([1, 2, 5, 100])))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(60))
@given(value=json_values, max_errors=st.sampled_from([1, 3, 100]))
def test_random_json_values_build_or_raise_document_error(kind: str, value: Any, max_errors: int) -> None:
    check_document_value(kind, value, max_errors)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(30))
@given(value=python_values)
def test_python_values_json_cannot_hold_raise_document_error_or_type_error(kind: str, value: Any) -> None:
    check_document_value(kind, value)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("as_dict", [False, True])
@pytest.mark.parametrize("levels", [50, 3000, 100_000])
def test_deeply_nested_values_raise_document_error(kind: str, as_dict: bool, levels: int) -> None:
    assert check_document_value(kind, deep("e4", levels, as_dict)) is None


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(100))
@given(data=st.data())
def test_edited_vector_bytes_load_or_raise_document_error(kind: str, data: st.DataObject) -> None:
    raw = data.draw(edited_bytes(kind))
    check_document_text(kind, raw, data.draw(st.sampled_from([1, 100])))
    if data.draw(st.booleans()):
        check_document_text(kind, raw.decode("utf-8", "replace"))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(50))
@given(value=json_values, indent=st.sampled_from([None, 0, 2]))
def test_json_text_of_random_values_loads_or_raises_document_error(
    kind: str, value: Any, indent: int | None
) -> None:
    check_document_text(kind, _dumps(value, indent))


def _dumps(value: Any, indent: int | None) -> str:
    """JSON text of ``value``, its integers of more than 4,300 digits written in full (the
    library must read them without Python's limit on converting them)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(value, indent=indent)
    finally:
        sys.set_int_max_str_digits(limit)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    "1" * 5000,
    '{"e4": ' + "9" * 4400 + "}",
    '{"e4": 1e999}',
    '{"e4": NaN}',
    "\ufeff{}",
    "",
    '{"e4": "empty", "e4": "empty"}',
])
def test_hostile_texts_load_or_raise_document_error(kind: str, text: str) -> None:
    check_document_text(kind, text)
    check_document_text(kind, text.encode("utf-8"))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(30))
@given(data=st.one_of(st.none(), st.integers(), st.lists(st.integers(), max_size=2), st.dictionaries(
    st.text(max_size=2), st.integers(), max_size=2)))
def test_values_that_are_not_text_raise_type_error(kind: str, data: Any) -> None:
    # check_document_text would take a DocumentError too: a value that is not text is a wrong
    # type, named in the TypeError.
    with pytest.raises(TypeError, match=rf"got {type(data).__name__}$"):
        DOCUMENTS[kind].loads(data)


@pytest.mark.parametrize("kind", KINDS)
def test_every_valid_vector_round_trips(kind: str) -> None:
    built = [value for value in document_values(kind) if check_document_value(kind, value) is not None]
    assert built, f"no valid {kind} seed"
