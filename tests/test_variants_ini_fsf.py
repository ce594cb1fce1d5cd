"""Fairy-Stockfish's own ``src/variants.ini``, section by section, in ggn and in pyffish.

The file (``tests/data/fairy-stockfish/variants.ini``, its source in the README beside it) holds
143 variants written by Fairy-Stockfish's authors and users. pyffish 0.0.90 loads every one of
them. Each section is loaded into ggn alone, with the sections it inherits from (its lines kept
at their places, so that every message names the file's own lines), and must either

- load, and then play as pyffish plays it: legal-move sets, the FEN after every move and the
  game's end along seeded random games, the same checks as ``tests/test_variants_fsf.py``'s; or
- be refused with a :class:`~ggn.errors.VariantError` that names the file and a line of the
  section or of one it inherits from, and says what ggn lacks.

Nothing else: no other exception, and no section that loads and plays otherwise. Run this file
as a script to print how each section fares (``python tests/test_variants_ini_fsf.py``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from ggn.errors import VariantError
from ggn.variants import ini
from ggn.variants.registry import Catalogue

pytestmark = pytest.mark.slow  # not in the README's quick run: 143 variants against pyffish

sf = pytest.importorskip("pyffish")

from test_variants_fsf import (  # noqa: E402
    FULL_GAMES,
    FULL_PLIES,
    PLIES,
    SEED,
    _fairy_stockfish_variants,
    _Game,
    _play,
    _starts,
)

FILE = Path(__file__).parent / "data" / "fairy-stockfish" / "variants.ini"
SOURCE = "variants.ini"
TEXT = FILE.read_text("utf-8")
SECTIONS = tuple(ini.sections(TEXT, source=SOURCE))
NAMES = tuple(section.name for section in SECTIONS)

# Sections that load in ggn and still play otherwise than pyffish: the section and the failing
# case. Each is a wrong answer of ggn, marked until it is fixed.
KNOWN: dict[str, str] = {
    "maharajah2": "a check by the royal queen is not seen: in '8/8/8/8/P3m3/8/1PPP1KPP/RNBQ1BNR w - - 0 7' "
                  "white is mated (pyffish: a loss), ggn says stalemate",
    "active": "a castling that moves the king one square is played as the king's step: d1a1 in "
              "'2b1qb3/1p1p5/4p4/2k2pBP1/9/3P5/P1P3P2/R2K1BN2 w Q - 0 19'",
    "diana": "a castling that moves the king one square is played as the king's step: d1f1 in "
             "'rbnkb1/Bppppr/6/3Pp1/PPP2P/RBNK1R w KQq - 0 4'",
    "haynie": "a castling that moves the king one square is played as the king's step: d6f6 in "
              "'rbqk1r/pp1ppb/2p3/2P2P/PP1PP1/R1QKBR b KQkq - 0 3'",
}

# The fewest sections that must load and agree: a floor that only rises, as rules are added.
AGREE_AT_LEAST = 74


@dataclass(frozen=True)
class _Fate:
    """How ggn takes a section: loaded (``entry`` set) or refused (``error`` set)."""

    name: str
    lines: frozenset[int]
    """The lines of the section and of the sections it inherits from in the file."""
    catalogue: Catalogue | None = None
    error: VariantError | None = None


def _spans() -> dict[str, range]:
    """Each section's lines: from its header to the line before the next section's."""
    ends = [section.line for section in SECTIONS[1:]] + [TEXT.count("\n") + 2]
    return {section.name: range(section.line, end) for section, end in zip(SECTIONS, ends, strict=True)}


@cache
def _fate(name: str) -> _Fate:
    """The section ``name`` loaded into a fresh catalogue with its ancestors in the file, each
    line of the text kept at its place (the others blank)."""
    by_name = {section.name: section for section in SECTIONS}
    spans = _spans()
    keep: set[int] = set()
    section = by_name[name]
    while True:
        keep.update(spans[section.name])
        if section.parent is None or section.parent not in by_name:
            break
        section = by_name[section.parent]
    text = "\n".join(line if number in keep else ""
                     for number, line in enumerate(TEXT.split("\n"), start=1))
    catalogue = Catalogue()
    try:
        catalogue.add_ini(text, source=SOURCE)
    except VariantError as error:
        return _Fate(name, frozenset(keep), error=error)
    return _Fate(name, frozenset(keep), catalogue=catalogue)


@cache
def _pyffish() -> None:
    """Load the whole file into pyffish once (it takes every section)."""
    sf.load_variant_config(TEXT)
    missing = set(NAMES) - set(sf.variants())
    assert not missing, f"pyffish {sf.version()} does not load {sorted(missing)}"


def _plays(name: str, games: int, plies: int, seed: int) -> int:
    """Play seeded random games of ``name`` in pyffish and ggn, checking every position; return
    the plies played."""
    fate = _fate(name)
    assert fate.catalogue is not None
    _pyffish()
    game = _Game(name, fate.catalogue.entry(name))
    rng = random.Random(f"{seed}:ini:{name}")
    played = 0
    for start in _starts(game, rng, games):
        count, _ = _play(game, start, plies, rng)
        played += count
    return played


def _cases() -> list[object]:
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN[name])) if name in KNOWN
            else name for name in NAMES]


def test_the_file_is_fairy_stockfishs_own() -> None:
    assert len(SECTIONS) == 143
    assert TEXT.startswith("# Fairy-Stockfish, a UCI chess variant playing engine derived from Stockfish")


def test_the_reader_knows_fairy_stockfishs_built_in_variants() -> None:
    # A section inheriting from one of them that ggn does not play is told so (test_ini.py).
    assert set(_fairy_stockfish_variants()) == ini._FAIRY_STOCKFISH


@pytest.mark.parametrize("name", NAMES)
def test_each_section_loads_or_is_refused_where_it_says(name: str) -> None:
    fate = _fate(name)
    if fate.error is None:
        return
    message = str(fate.error)
    where = re.match(rf"{re.escape(SOURCE)}:([0-9]+): ", message)
    assert where is not None, f"[{name}]: the message names no line of the file: {message}"
    assert int(where.group(1)) in fate.lines, f"[{name}]: the line named is not the section's: {message}"
    assert len(message) < 400, message


@pytest.mark.parametrize("name", _cases())
def test_each_section_loaded_plays_as_pyffish(name: str) -> None:
    if _fate(name).error is not None:
        pytest.skip(f"refused: {_fate(name).error}")
    assert _plays(name, 1, PLIES, SEED) >= 1


@pytest.mark.full
@pytest.mark.parametrize("name", _cases())
def test_each_section_loaded_plays_as_pyffish_full(name: str) -> None:
    if _fate(name).error is not None:
        pytest.skip(f"refused: {_fate(name).error}")
    assert _plays(name, FULL_GAMES, FULL_PLIES, SEED + 1) >= FULL_GAMES


def test_at_least_so_many_sections_agree() -> None:
    loaded = [name for name in NAMES if _fate(name).error is None and name not in KNOWN]
    assert len(loaded) >= AGREE_AT_LEAST, f"{len(loaded)} sections load and agree, not {AGREE_AT_LEAST}"


def main() -> None:
    """Print each section's fate: refused (with why), agrees, or disagrees (with where)."""
    fates: Counter[str] = Counter()
    for name in NAMES:
        fate = _fate(name)
        if fate.error is not None:
            fates["refused"] += 1
            print(f"refused   {name}: {fate.error}")
            continue
        try:
            plies = _plays(name, 1, PLIES, SEED)
        except AssertionError as error:
            fates["disagrees"] += 1
            print(f"disagrees {name}: {str(error).splitlines()[0][:300]}")
        else:
            fates["agrees"] += 1
            print(f"agrees    {name} ({plies} plies)")
    print(dict(fates), flush=True)


if __name__ == "__main__":
    main()
