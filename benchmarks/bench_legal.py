"""List the legal moves of chess positions: this library's rule system against python-chess.

In one run, on the same positions (by default 1,000, from random games seeded as in
``tests/test_chess.py``, made by :func:`benchmarks.bench_moves.random_boards`), both sides'
inputs built beforehand, best of ``--repeat`` runs each, the runs of ours and python-chess's
taken in turn, with :func:`time.perf_counter`:

- listing: ours, ``rules.legal_moves(position)`` (a list of :class:`~ggn.rules.Play`, each
  able to give its full STN transition); python-chess, ``list(board.legal_moves)``;
- counting: ours, ``rules.count(position)``; python-chess, ``board.legal_moves.count()``.

Both must find the same number of moves over all the positions (a promotion counts once per
piece), so a fast wrong answer cannot pass. A first untimed pass compiles our generators and
attack tests.

Run from the repository root::

    python -m benchmarks.bench_legal [--repeat N] [--positions N] [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._arguments import _positive
from benchmarks.bench_moves import SEED, random_boards
from ggn.games.chess import from_fen
from ggn.rules import rule_system

__all__ = ["main", "measure"]


def measure(repeat: int, count: int = 1000, seed: int = SEED) -> dict[str, Any]:
    """Build the positions, time both sides' listing and counting, return the figures."""
    boards = random_boards(seed, count)
    rules = rule_system("chess")
    positions = [rules.position(from_fen(board.fen(en_passant="fen"))) for board in boards]
    legal_moves, counted = rules.legal_moves, rules.count

    def ours_list() -> int:
        return sum(len(legal_moves(position)) for position in positions)

    def theirs_list() -> int:
        return sum(len(list(board.legal_moves)) for board in boards)

    def ours_count() -> int:
        return sum(counted(position) for position in positions)

    def theirs_count() -> int:
        return sum(board.legal_moves.count() for board in boards)

    expected = theirs_list()
    kinds: dict[str, dict[str, Callable[[], int]]] = {
        "list": {"ggn": ours_list, "python-chess": theirs_list},
        "count": {"ggn": ours_count, "python-chess": theirs_count},
    }
    results: dict[str, dict[str, Any]] = {}
    for kind, runs in kinds.items():
        for name, run in runs.items():  # untimed: compiles ours, warms both, checks the counts
            found = run()
            if found != expected:
                raise SystemExit(f"{kind}, {name}: {found:,} legal moves, python-chess lists {expected:,}")
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(repeat):
            for name, run in runs.items():
                gc.collect()
                start = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - start)
        results[kind] = {
            "seconds": best,
            "positions_per_s": {name: count / seconds for name, seconds in best.items()},
            "ratio": best["python-chess"] / best["ggn"],
        }
    return {
        "positions": count,
        "moves": expected,
        "seed": seed,
        "repeat": repeat,
        "results": results,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "chess_version": metadata.version("chess"),
    }


def render(figures: dict[str, Any]) -> str:
    """The figures as a small text table; a ratio above 1 means ggn is faster."""
    lines = [
        f"{figures['positions']:,} positions of random chess games (seed {figures['seed']}, "
        f"{figures['moves']:,} legal moves), best of {figures['repeat']} runs, "
        f"{figures['implementation']} {figures['python']}, python-chess {figures['chess_version']}",
        "",
        f"{'':44} {'seconds':>8} {'positions/s':>12} {'ggn is':>8}",
    ]
    labels = {
        "list": ("ggn rules.legal_moves(position)", "python-chess list(board.legal_moves)"),
        "count": ("ggn rules.count(position)", "python-chess board.legal_moves.count()"),
    }
    for kind, (ours, theirs) in labels.items():
        result = figures["results"][kind]
        seconds, rates = result["seconds"], result["positions_per_s"]
        lines.append(f"{ours:44} {seconds['ggn']:8.4f} {rates['ggn']:12,.0f} {result['ratio']:7.2f}x")
        lines.append(f"{theirs:44} {seconds['python-chess']:8.4f} {rates['python-chess']:12,.0f}")
    lines += ["", "'ggn is': python-chess's time over ours (above 1: ggn is faster)"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time legal move listing: ggn's chess rules against python-chess.")
    parser.add_argument("--repeat", type=_positive, default=7, help="timed runs of each (best is kept; 7)")
    parser.add_argument("--positions", type=_positive, default=1000, help="positions (1,000)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the random games' seed ({SEED})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.repeat, args.positions, args.seed)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
