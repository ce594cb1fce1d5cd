"""Perft nodes per second for every built-in game: a table, one row a game.

For each game of :func:`ggn.variants.registry.names` (or those named with ``--games``), from its
start position: the rule system is made and a first perft at depth 1 compiles what it needs
(timed apart: "first run"); then the depth goes up from 1 until a perft counts at least
``--nodes`` paths (20,000) or reaches ``--max-depth`` (4); that perft is timed, best of
``--repeat`` runs (:func:`time.perf_counter`, a garbage collection before each). A game whose
rule system cannot be made, or whose perft fails, gets a row saying why instead of figures.

The counts are not checked here (the tests compare them with Fairy-Stockfish): this measures
speed only. Run from the repository root::

    python -m benchmarks.bench_variants [--games a,b,...] [--nodes N] [--max-depth D] [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._arguments import _positive
from ggn.errors import GGNError
from ggn.rules import perft
from ggn.variants import registry

__all__ = ["main", "measure", "measure_game"]


def measure_game(name: str, nodes: int, max_depth: int, repeat: int) -> dict[str, Any]:
    """The figures of one game (or the reason there are none)."""
    try:
        cold_start = time.perf_counter()
        rules = registry.rules(name)
        position = rules.position()
        perft(rules, 1, position)
        cold = time.perf_counter() - cold_start
        depth, count = 1, 0
        while True:
            count = perft(rules, depth, position)
            if count >= nodes or depth >= max_depth or count == 0:
                break
            depth += 1
        best = float("inf")
        for _ in range(repeat):
            gc.collect()
            start = time.perf_counter()
            perft(rules, depth, position)
            best = min(best, time.perf_counter() - start)
    except (GGNError, NotImplementedError) as error:
        return {"game": name, "error": str(error).splitlines()[0][:100]}
    return {"game": name, "depth": depth, "nodes": count, "seconds": best,
            "nodes_per_s": count / best if best > 0 else 0.0, "first_run_s": cold}


def measure(games: Sequence[str], nodes: int, max_depth: int, repeat: int) -> dict[str, Any]:
    """Time every game, return the figures."""
    return {
        "repeat": repeat,
        "nodes": nodes,
        "max_depth": max_depth,
        "results": [measure_game(name, nodes, max_depth, repeat) for name in games],
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
    }


def render(figures: dict[str, Any]) -> str:
    """The figures as a text table."""
    lines = [
        f"legal perft from the start, best of {figures['repeat']} runs, the first depth with at least "
        f"{figures['nodes']:,} paths (at most {figures['max_depth']}), {figures['implementation']} "
        f"{figures['python']}",
        "",
        f"{'game':24} {'depth':>5} {'nodes':>10} {'seconds':>8} {'nodes/s':>10} {'first run':>10}",
    ]
    for result in figures["results"]:
        if "error" in result:
            lines.append(f"{result['game']:24} not measured: {result['error']}")
            continue
        lines.append(f"{result['game']:24} {result['depth']:5} {result['nodes']:10,} "
                     f"{result['seconds']:8.3f} {result['nodes_per_s']:10,.0f} {result['first_run_s']:9.3f}s")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Perft nodes per second for every built-in game.")
    parser.add_argument("--games", help="comma-separated game names (default: every built-in game)")
    parser.add_argument("--nodes", type=_positive, default=20_000,
                        help="least paths a timed perft counts (20,000)")
    parser.add_argument("--max-depth", type=_positive, default=4, help="deepest perft (4)")
    parser.add_argument("--repeat", type=_positive, default=3, help="timed runs of each (best is kept; 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    games = args.games.split(",") if args.games else list(registry.names())
    unknown = [name for name in games if name not in registry.names()]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    figures = measure(games, args.nodes, args.max_depth, args.repeat)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
