"""Fuzz targets for the native kernel: hostile positions and variant descriptions, through the
kernel and through the pure-Python path, must give the same answers (``fuzzing.check_native``).

- Pieces placed anywhere from bytes (pieces of the kernel's tables and of no game, any side to
  move, hands of any size, in games that drop and games that do not).
- A FEEN of any text, edited from each game's start.
- Any ``variants.ini`` text, edited from small variants, whose first variant's start is played.

And the atheris harness of the same (``fuzz/run.py native``) runs its seeds. The C side of the
kernel has its own libFuzzer target (``fuzz/kernel_fuzz.c``, run by ``.ci/sanitize``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import (
    check_native,
    check_native_feen,
    check_native_ini,
    native_games,
    native_position,
    native_seeds,
)
from ggn.rules import rule_system
from support import examples

pytestmark = [
    pytest.mark.slow,  # not in the README's quick run: property tests at their whole budget
    pytest.mark.skipif(not native_games(), reason="the C kernel is not built here"),
]

GAMES = native_games()


@settings(max_examples=examples(60))
@given(st.integers(0, 10_000), st.binary(max_size=300))
def test_any_placed_position_is_agreed_on(which: int, data: bytes) -> None:
    rules = rule_system(GAMES[which % len(GAMES)])
    check_native(rules, native_position(rules, data))


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    for at, cut, put in edits:
        where = at % (len(text) + 1)
        text = text[:where] + put + text[where + cut:]
    return text


def _edits(alphabet: str, most: int) -> st.SearchStrategy[list[tuple[int, int, str]]]:
    """Edits of a text: where (wrapped to its length), how many characters cut, what put."""
    return st.lists(st.tuples(st.integers(0, 1_000), st.integers(0, 3), st.text(alphabet, max_size=3)),
                    max_size=most)


_EDITS = _edits("KkQqPpRr+-^12345/ *:wb", 4)


@settings(max_examples=examples(60))
@given(st.sampled_from([seed for seed in native_seeds() if seed[0] != "ini"]), _EDITS)
def test_any_feen_text_is_refused_or_agreed_on(seed: tuple[str, str],
                                              edits: list[tuple[int, int, str]]) -> None:
    name, feen = seed
    if name in GAMES:
        check_native_feen(name, _edited(feen, edits))


_INI_EDITS = _edits("0123456789=*abnrkq\n ", 3)


@settings(max_examples=examples(25))
@given(st.sampled_from([text for name, text in native_seeds() if name == "ini"]), _INI_EDITS)
def test_any_variants_ini_text_is_refused_or_agreed_on(text: str, edits: list[tuple[int, int, str]]) -> None:
    check_native_ini(_edited(text, edits))


def _harness() -> ModuleType:
    pytest.importorskip("atheris")
    path = Path(__file__).parent.parent / "fuzz" / "run.py"
    spec = importlib.util.spec_from_file_location("fuzz_run", path)
    assert spec is not None and spec.loader is not None
    harness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(harness)
    return harness


def test_the_atheris_harness_runs_its_seeds() -> None:
    harness = _harness()
    seeds = harness._seeds("native")
    assert len(seeds) >= 2 * len(GAMES)
    for seed in seeds:
        harness.native(seed)
    # The placed seeds read back as each game's start.
    for index, name in enumerate(GAMES):
        rules = rule_system(name)
        placed = next(seed for seed in seeds if seed[:2] == bytes([index, 0]))
        assert native_position(rules, placed[2:]).to_feen() == rules.position().to_feen()
