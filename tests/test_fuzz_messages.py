"""Fuzz targets for the length of error messages: an error quotes a bounded part of the input.

The project's rule for errors (a message that says where and why, quoting the input with
``!r``, bounded in length): a 300 KB input must not make a 300 KB message. Long inputs are
made of the test vectors with long runs inserted (notations) or with a long string put in
place of one value or key (documents); every refusal must say why in at most
``fuzzing.MAX_MESSAGE`` characters.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import DOCUMENTS, NOTATIONS, assert_bounded, document_values, notation_seeds
from ggn.errors import DocumentError, GGNError
from support import examples

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget

RUNS = ["z", "Z", "9", "0", "K", "+", "!", "/", " ", "\u00e9"]


@st.composite
def long_texts(draw: st.DrawFn, name: str) -> str:
    text = draw(st.sampled_from(notation_seeds(name)))
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.sampled_from(RUNS)) * draw(st.sampled_from([5000, 20_000])) + text[at:]


@pytest.mark.parametrize("name", sorted(NOTATIONS))
@settings(max_examples=examples(25))
@given(data=st.data())
def test_notation_errors_quote_a_bounded_part_of_a_long_input(name: str, data: st.DataObject) -> None:
    try:
        NOTATIONS[name](data.draw(long_texts(name)))
    except GGNError as error:
        assert_bounded(error)


@st.composite
def long_values(draw: st.DrawFn, kind: str) -> Any:
    """A decoded vector with one string value, or one key, replaced by a long string."""
    value = copy.deepcopy(draw(st.sampled_from(document_values(kind))))
    long = draw(st.sampled_from(RUNS)) * draw(st.sampled_from([5000, 20_000]))
    node = value
    for _ in range(draw(st.integers(0, 6))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if draw(st.integers(0, 3)) == 0:
                node[long] = node.pop(key)
                return value
            if not isinstance(node[key], (dict, list)):
                node[key] = long
                return value
            node = node[key]
        elif isinstance(node, list) and node:
            node = node[draw(st.integers(0, len(node) - 1))]
        else:
            break
    return {long: value}


@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
@settings(max_examples=examples(25))
@given(data=st.data())
def test_document_errors_quote_a_bounded_part_of_a_long_value(kind: str, data: st.DataObject) -> None:
    try:
        DOCUMENTS[kind].from_value(data.draw(long_values(kind)))
    except DocumentError as error:
        # A violation's path names a long key in full (a JSON Pointer must); its message need not.
        for violation in error.violations:
            assert violation.message
            assert len(violation.message) <= 1000, f"{violation.path[:80]}: {violation.message[:200]}..."
