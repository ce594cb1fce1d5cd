"""Fuzz targets for every string notation parser (CELL, HAND, SIN, PIN, EPIN, QPI, GAN, legacy
GAN, FEEN, and ``parse_location``): any input parses, is canonical and round-trips, or raises
GGNError with a message and a span inside the input (fuzzing.check_notation; the message's
length is test_fuzz_messages.py's).

The inputs: the test vectors mutated (characters inserted, deleted, replaced, runs duplicated,
digit and letter runs of up to thousands inserted), text over each notation's alphabet, any
text, and values that are not strings. The budget scales with HYPOTHESIS_PROFILE (conftest).
"""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import ALPHABETS, NOTATIONS, check_notation, mutated, notation_seeds
from support import examples

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget


@pytest.mark.parametrize("name", sorted(NOTATIONS))
@settings(max_examples=examples(150))
@given(data=st.data())
def test_mutated_vectors_parse_or_raise_ggn_error(name: str, data: st.DataObject) -> None:
    check_notation(name, data.draw(mutated(name)))


@pytest.mark.parametrize("name", sorted(NOTATIONS))
@settings(max_examples=examples(60))
@given(data=st.data())
def test_text_of_the_notations_alphabet_parses_or_raises_ggn_error(name: str, data: st.DataObject) -> None:
    check_notation(name, data.draw(st.text(ALPHABETS[name], max_size=40)))


@settings(max_examples=examples(150))
@given(st.sampled_from(sorted(NOTATIONS)), st.text(max_size=60))
def test_any_text_parses_or_raises_ggn_error(name: str, text: str) -> None:
    check_notation(name, text)


@settings(max_examples=examples(60))
@given(st.sampled_from(sorted(NOTATIONS)), st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=8),
    st.lists(st.text(string.ascii_letters, max_size=3), max_size=2), st.builds(object),
))
def test_values_that_are_not_strings_raise_type_error_or_ggn_error(name: str, value: Any) -> None:
    assert check_notation(name, value) is None


@pytest.mark.parametrize("name", sorted(NOTATIONS))
def test_every_valid_vector_round_trips(name: str) -> None:
    # The seeds themselves: the valid ones parse (the property is the same as for the mutants).
    parsed = [text for text in notation_seeds(name) if check_notation(name, text) is not None]
    assert parsed, f"no valid {name} seed"
