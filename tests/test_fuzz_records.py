"""Fuzz targets for the record readers and replay: any text or bytes gives records or a
RecordError (a GGNError), never another exception; a record read gives a game or a RecordError
when replayed; a record written back reads back to the same moves.

The inputs: real PGN files (tests/data/pgn) mutated (characters inserted, deleted, replaced,
runs duplicated or cut), text over PGN's alphabet, any text and any bytes. The budget scales
with HYPOTHESIS_PROFILE (conftest).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ggn.errors import GGNError, RecordError
from ggn.records import read, replay
from ggn.records.pgn import write_record
from support import examples

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget

DATA = Path(__file__).parent / "data" / "pgn"
SEEDS = [path.read_text(encoding="utf-8-sig") for path in sorted(DATA.glob("*.pgn"))]
PGN_ALPHABET = "abcdefghKQRBNPO0123456789-+#=x@*/.!?$ \n{}();[]\"%"


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "cut"]))
        piece = draw(st.text(PGN_ALPHABET, min_size=1, max_size=6))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        elif kind == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        elif kind == "repeat":
            text = text[:at] + text[at:at + 30] * draw(st.integers(2, 50)) + text[at:]
        else:
            text = text[:at]
    return text


def check(source: str | bytes) -> None:
    """Reading gives records or a RecordError; each record replays or raises a RecordError, and
    writes back to text that reads to the same moves."""
    try:
        records = list(read(source))
    except RecordError as error:
        assert error.game >= 1 and str(error).startswith(f"game {error.game}")
        return
    for record in records:
        again = next(read(write_record(record)))
        assert again.moves == record.moves
        try:
            replay(record)
        except RecordError as error:
            assert error.game == record.number
        except GGNError as error:  # pragma: no cover - a replay error is always a RecordError
            pytest.fail(f"replay raised {type(error).__name__}, not RecordError: {error}")


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_files_read_and_replay_or_raise_record_error(text: str) -> None:
    check(text)


@settings(max_examples=examples(150), deadline=None)
@given(st.text(PGN_ALPHABET, max_size=120))
def test_text_of_pgns_alphabet_reads_or_raises_record_error(text: str) -> None:
    check(text)


@settings(max_examples=examples(150), deadline=None)
@given(st.text(max_size=80))
def test_any_text_reads_or_raises_record_error(text: str) -> None:
    check(text)


@settings(max_examples=examples(100), deadline=None)
@given(st.binary(max_size=80))
def test_any_bytes_read_or_raise_record_error(data: bytes) -> None:
    check(data)
