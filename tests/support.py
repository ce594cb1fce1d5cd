"""Helpers shared by the test modules (imported by ``conftest.py`` and by the tests).

- Hypothesis settings profiles (``ci``, the default; ``dev``; ``fuzz``) and :func:`examples`,
  which scales a test's example budget with the profile.
- :func:`sizes`: a default count and a bigger one marked ``full`` (``pytest -m full``).
- :func:`random_positions`: positions of seeded random games, for any oracle engine, and
  :func:`pushed` to play a python-chess or python-shogi move in them; :func:`fill_hands`, both
  players' hands of a random position for Hypothesis.
- :func:`assert_same_moves`, :func:`checked_moves` and :func:`assert_compiled_matches_plain`: the
  comparisons the oracle tests make on each position.
- :func:`perft_cases`: the perft counts of ``tests/vectors/perft.json`` as test parameters
  (:func:`perft_entries`, the file's entries).
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pytest
from _pytest.mark import ParameterSet
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ggn.evaluate import Move, reference_moves
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.ruleset import Ruleset
from ggn.variants.registry import Catalogue

if TYPE_CHECKING:
    from ggn._types import Side
    from ggn.rules import RuleSystem
    from ggn.ruleset import Possibility

__all__ = [
    "FUZZ_SCALE",
    "assert_compiled_matches_plain",
    "assert_same_moves",
    "checked_moves",
    "examples",
    "fill_hands",
    "game_positions",
    "ggn_holds",
    "loaded_in_both",
    "move_key",
    "perft_cases",
    "perft_entries",
    "pushed",
    "random_positions",
    "register_profiles",
    "sizes",
]

VECTORS = Path(__file__).parent / "vectors"

# --- Hypothesis profiles ------------------------------------------------------------------------

# Health checks that measure the machine, not the code: on a loaded 2-core CI machine input
# generation can be slow and a run can hit the data-size limit by chance. The other checks
# (filter_too_much, large_base_example, ...) stay on: they say something about a strategy.
_CHANCE = (HealthCheck.too_slow, HealthCheck.data_too_large)
FUZZ_SCALE = 50  # the fuzz profile runs each test's budget this many times over


def register_profiles() -> None:
    """Register ``ci``, ``dev`` and ``fuzz``, and load ``$HYPOTHESIS_PROFILE`` (default ``ci``).

    - ``ci``: the same examples on every run (``derandomize``), no database, no deadline and no
      timing health check, the failing example printed as a blob to reproduce it.
    - ``dev``: new random examples each run, failures kept in the local database and replayed.
    - ``fuzz``: like ``dev``, with :data:`FUZZ_SCALE` times each test's budget.
    """
    # Each profile starts from Hypothesis's own defaults, never from whatever is loaded: with a CI
    # variable in the environment, Hypothesis loads its own derandomized ``ci`` profile first, and a
    # profile registered without a parent would inherit it.
    base = settings.get_profile("default")
    common: dict[str, Any] = {"parent": base, "deadline": None, "suppress_health_check": _CHANCE}
    settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **common)
    settings.register_profile("dev", **common)
    settings.register_profile("fuzz", max_examples=100 * FUZZ_SCALE, print_blob=True, **common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(budget: int) -> int:
    """A test's ``max_examples``: ``budget`` under ``ci`` and ``dev``, more under ``fuzz``."""
    return budget * FUZZ_SCALE if settings.get_current_profile_name() == "fuzz" else budget


# --- default and full runs ------------------------------------------------------------------


def sizes(default: int, full: int) -> list[ParameterSet]:
    """Parameters for a count: ``default`` in every run, ``full`` only under ``pytest -m full``."""
    return [pytest.param(default, id=str(default)),
            pytest.param(full, id=str(full), marks=pytest.mark.full)]


# --- random games ---------------------------------------------------------------------------

B = TypeVar("B")
M = TypeVar("M")
S = TypeVar("S")


def random_positions(
    first: B,
    restart: Callable[[random.Random], B],
    moves: Callable[[B, random.Random], list[M]],
    play: Callable[[B, M], B],
    snapshot: Callable[[B], S],
    *,
    count: int,
    seed: int,
    plies: int,
) -> list[S]:
    """``count`` positions (``snapshot`` of each board) of seeded random games.

    A game starts from ``first``; at each position a move is drawn uniformly from
    ``moves(board, rng)`` (the engine's moves, or a subset it prefers, drawn with ``rng``) and
    played with ``play`` (which may change the board in place and return it). A game restarts
    from ``restart(rng)`` after ``plies`` moves, or when ``moves`` gives none.
    """
    rng = random.Random(seed)
    out: list[S] = []
    board, played = first, 0
    while len(out) < count:
        out.append(snapshot(board))
        choices = [] if played >= plies else moves(board, rng)
        if not choices:
            board, played = restart(rng), 0
            continue
        board = play(board, rng.choice(choices))
        played += 1
    return out


def game_positions(rules: RuleSystem, count: int, seed: int, *, plies: int = 39) -> list[Position]:
    """``count`` positions of seeded random games of ``rules``, by their legal moves, from the
    start position (again after ``plies`` moves, or at the end of a game)."""
    return random_positions(rules.position(), lambda _: rules.position(), lambda p, _: rules.legal_moves(p),
                            lambda p, play: p.apply(play.transition), lambda p: p,
                            count=count, seed=seed, plies=plies)


def ggn_holds(possibility: Possibility, active: Side, squares: Mapping[str, str]) -> bool:
    """GGN 1.0.0 evaluation, written out plainly: every must holds and no deny does (``squares``:
    what each square holds, as text; ``active``: the side to move)."""

    def one(cell: object, state: object) -> bool:
        held = squares.get(str(cell))
        if state == "empty":
            return held is None
        if state == "enemy":
            return held is not None and Qpi.parse(held).side != active
        return held == str(state)

    return all(one(c, s) for c, s in possibility.must.items()) and not any(
        one(c, s) for c, s in possibility.deny.items()
    )


class _Pushing(Protocol):
    def push(self, move: Any) -> Any: ...


P = TypeVar("P", bound=_Pushing)


def pushed(board: P, move: Any) -> P:
    """``board`` after ``move``, pushed in place: :func:`random_positions`' ``play`` for the
    boards of python-chess and python-shogi."""
    board.push(move)
    return board


def fill_hands(draw: st.DrawFn, pieces: Sequence[str], room: int, most: int) -> dict[str, dict[Qpi, int]]:
    """Both players' hands of a random position: up to ``most`` kinds of ``pieces`` each, up to
    ``most`` of a kind, as far as ``room`` (the squares the board leaves empty) allows."""
    hands: dict[str, dict[Qpi, int]] = {}
    for player in ("first", "second"):
        held: dict[Qpi, int] = {}
        for piece in draw(st.lists(st.sampled_from(pieces), max_size=most, unique=True)):
            count = min(draw(st.integers(1, most)), room)
            if count:
                held[Qpi.parse(piece)] = count
                room -= count
        hands[player] = held
    return hands


# --- comparisons ----------------------------------------------------------------------------

K = TypeVar("K", bound=Hashable)


def assert_same_moves(
    ours: Collection[K],
    theirs: Collection[K],
    where: str,
    explain: Callable[[K], str | None] | None = None,
) -> Counter[str]:
    """Assert that two engines list the same moves at ``where`` (a FEN, an SFEN).

    Each side's moves are keys (for example ``(source, destination)``); no key may be listed
    twice. A key only one side lists fails, unless it is ours alone and ``explain`` gives the
    reason it is allowed; the reasons are counted, so that a test can check they occurred.
    """
    mine, other = set(ours), set(theirs)
    assert len(mine) == len(ours), f"{where}: we list a move twice: {sorted(map(str, ours))}"
    assert len(other) == len(theirs), f"{where}: the engine lists a move twice"
    reasons: Counter[str] = Counter()
    missing = other - mine
    unexplained = []
    for key in mine - other:
        reason = explain(key) if explain is not None else None
        if reason is None:
            unexplained.append(key)
        else:
            reasons[reason] += 1
    assert not missing and not unexplained, (
        f"{where}: missing {sorted(missing, key=str)}, extra {sorted(unexplained, key=str)}")
    return reasons


def move_key(move: Move) -> tuple[str, str, str, tuple[str, ...]]:
    """A sort key for moves: piece, source, destination and possibilities, written out."""
    return (str(move.piece), str(move.source), str(move.destination),
            tuple(repr(p) for p in move.possibilities))


def checked_moves(rules: Ruleset, position: Position) -> list[Move]:
    """The compiled generator's moves on ``position``, sorted by :func:`move_key`, once asserted
    to be plain evaluation's, with the same possibilities."""
    fast = sorted(rules.moves(position), key=move_key)
    assert fast == sorted(reference_moves(rules, position), key=move_key), position.to_feen()
    return fast


def assert_compiled_matches_plain(rules: Ruleset, positions: Iterable[Position]) -> int:
    """:func:`checked_moves` on every position; return how many positions were compared."""
    compared = 0
    for position in positions:
        checked_moves(rules, position)
        compared += 1
    return compared


# --- perft ----------------------------------------------------------------------------------


@functools.cache
def perft_entries() -> tuple[dict[str, Any], ...]:
    """The entries of ``tests/vectors/perft.json`` (read once a session)."""
    return tuple(json.loads((VECTORS / "perft.json").read_text(encoding="utf-8"))["positions"])


def perft_cases(game: str) -> list[ParameterSet]:
    """The entries of ``tests/vectors/perft.json`` for ``game`` as ``(feen, depth, count)``
    parameters (``feen`` None for the game's start); the deep ones are marked ``full``."""
    cases = []
    for entry in perft_entries():
        if entry["game"] != game:
            continue
        marks = [pytest.mark.full] if entry.get("full", False) else []
        cases.append(pytest.param(entry["feen"], entry["depth"], entry["count"], marks=marks,
                                  id=f"{entry['name']}-{entry['depth']}"))
    assert cases, f"no perft counts for {game!r} in tests/vectors/perft.json"
    return cases


@functools.cache
def loaded_in_both(text: str, source: str) -> tuple[Catalogue, tuple[str, ...]]:
    """The sections of a variants.ini text loaded once into pyffish (its variants beside the
    built-in ones) and into a ggn catalogue of their own: the catalogue, and the names it took."""
    import pyffish  # noqa: PLC0415  (the test extra; only the oracle files ask)

    pyffish.load_variant_config(text)
    catalogue = Catalogue()
    return catalogue, catalogue.add_ini(text, source=source)
