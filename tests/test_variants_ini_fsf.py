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
from ggn.rules import Ending
from ggn.variants import ini
from ggn.variants.registry import Catalogue
from support import loaded_in_both

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
KNOWN: dict[str, str] = {}

# The fewest sections that must load and agree: a floor that only rises, as rules are added.
AGREE_AT_LEAST = 122


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


# Sections of this file's own, for the connection rules the sections of Fairy-Stockfish's file
# that ggn loads do not reach: regions joined, square blocks, pieces on a line with gaps.
OWN = """\
# Hex-like: immobile stones dropped anywhere; white joins the a- and e-files, black the first and
# fifth ranks, by chains along ranks and files only.
[ggn-joinup]
maxRank = 5
maxFile = 5
immobile = p
startFen = 5/5/5/5/5[PPPPPPPPPPPPpppppppppppp] w - - 0 1
pieceDrops = true
doubleStep = false
castling = false
stalemateValue = draw
connectRegion1White = a*
connectRegion2White = e*
connectRegion1Black = *1
connectRegion2Black = *5
connectDiagonal = false

# Stones on a 4x4 board: a square of two by two wins.
[ggn-blocks]
maxRank = 4
maxFile = 4
immobile = p
startFen = 4/4/4/4[PPPPPPPPpppppppp] w - - 0 1
pieceDrops = true
doubleStep = false
castling = false
connectNxN = 2

# Knights and rooks without kings on 6x6: three knights on one line, gaps allowed, lose.
[ggn-lines]
maxRank = 6
maxFile = 6
knight = n
rook = r
startFen = rnnnr1/6/6/6/6/1RNNNR w - - 0 1
doubleStep = false
castling = false
collinearN = 3
connectPieceTypes = n
connectValue = loss
connectHorizontal = false
"""
OWN_NAMES = ("ggn-joinup", "ggn-blocks", "ggn-lines")


def _own() -> Catalogue:
    catalogue, names = loaded_in_both(OWN, "test_variants_ini_fsf.py")
    assert names == OWN_NAMES
    return catalogue


@pytest.mark.parametrize("name", OWN_NAMES)
def test_connection_rules_play_as_pyffish(name: str) -> None:
    game = _Game(name, _own().entry(name))
    rng = random.Random(f"{SEED}:own:{name}")
    ended = 0
    for start in _starts(game, rng, 12):
        _, over = _play(game, start, 200, rng)
        ended += over
    assert ended >= 10


@pytest.mark.parametrize(("name", "fen", "winner"), [
    ("ggn-joinup", "5/5/5/1PPPP/PP3[PPPPPPpppppppppppp] b - - 0 1", "first"),
    # Joined only by a step south (b3 to b2), which Fairy-Stockfish's walk does not take.
    ("ggn-joinup", "5/P4/PP3/1PPPP/5[PPPPPPpppppppppppp] b - - 0 1", None),
    ("ggn-blocks", "4/1pp1/1pp1/PPP1[PPPPPpppp] w - - 0 1", "second"),
    # Three black knights on the b-file, gaps between them: a connection, which loses here.
    ("ggn-lines", "r4r/1n4/6/1n4/6/1nN2R w - - 0 1", "first"),
    ("ggn-lines", "r4r/6/1n4/3n2/6/1RNn1R w - - 0 1", None),
])
def test_a_connection_ends_the_game_as_in_pyffish(name: str, fen: str, winner: str | None) -> None:
    entry = _own().entry(name)
    outcome = entry.rules.outcome(entry.rules.position(entry.to_feen(fen)))
    ended, value = sf.is_immediate_game_end(name, fen, [])
    if winner is None:
        assert not ended and (outcome is None or outcome.ending is not Ending.CONNECTION)
        return
    assert outcome is not None and (outcome.winner, outcome.ending) == (winner, Ending.CONNECTION)
    mover = "first" if fen.split(" ")[1] == "w" else "second"
    assert ended and (value > 0) == (winner == mover)


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


def test_elgam_is_refused_for_a_lame_camel_pyffish_leaves_immobile() -> None:
    # Fairy-Stockfish reads elgam's `o:nC` but makes no generator of a lame camel (bitboard.cpp
    # knows lame nN, nA, nZ and nD only): an `o` alone beside the kings has no move in pyffish.
    # ggn refuses the section there rather than play a piece that does nothing.
    _pyffish()
    lone = "11/5k5/11/11/11/5O5/11/11/5K5/11[] w - - 0 1"
    assert {move[:2] for move in sf.legal_moves("elgam", lone, [])} == {"f2"}
    message = str(_fate("elgam").error)
    assert "no lame 'C': it gives one no moves" in message, message
    assert "customPiece1" in message or "piece:" in message, message


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


def test_each_section_loaded_says_where_its_playouts_run_as_its_rules_do() -> None:
    # ggn variants --format json says from a game's description alone whether the kernel plays
    # its playouts (playout_engine): the answer of the rule system that then plays them, for the
    # sections of a file no one here wrote. (The rule systems are those the tests above play;
    # whether the kernel plays a game at all, from its description, is tests/test_native.py's.)
    from ggn.rules._cplayout import description_playout_refusal, playout_refusal  # noqa: PLC0415
    from ggn.rules._native import description_refusal  # noqa: PLC0415

    answers: Counter[str] = Counter()
    for name in NAMES:
        fate = _fate(name)
        if fate.catalogue is None or description_refusal(variant := fate.catalogue.variant(name)):
            continue
        reason = playout_refusal(fate.catalogue.rules(name))
        assert description_playout_refusal(variant) == reason, name
        answers[reason or "native"] += 1
    assert answers["native"] >= 100, answers
    assert answers["perpetual chasing (chasingRule)"], answers


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


@pytest.mark.parametrize("moves", [("e1g1",), ("e1c1",), ("e1g1", "e8c8"), ("h1g1", "e8g8")])
def test_opposite_castling_takes_the_other_sides_wing(moves: tuple[str, ...]) -> None:
    # Fairy-Stockfish's own opposite-castling section: a castling takes the other side's right
    # on the same wing (its rook's '+', and its king's with the last one).
    fate = _fate("opposite-castling")
    assert fate.catalogue is not None
    _pyffish()
    entry = fate.catalogue.entry("opposite-castling")
    game = _Game("opposite-castling", entry)
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    position = game.position(fen)
    for move in moves:
        position = game.rules.play(position, game.strings(position)[move])
    after = sf.get_fen("opposite-castling", fen, list(moves))
    assert entry.from_feen(position).split(" ")[:4] == after.split(" ")[:4]
    assert set(game.strings(position)) == set(sf.legal_moves("opposite-castling", fen, list(moves)))
