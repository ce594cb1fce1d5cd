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

``--against SRC`` compares this tree with another copy of ggn (``SRC`` is its ``src`` folder, a
``git worktree`` of an earlier commit, say): each round times every game in a fresh process of
this tree and one of the other, in turn (which goes first alternates), for the games both play;
the table gives, per game, the range over the rounds of both speeds and of their ratio::

    git worktree add /tmp/before f5c489e
    python -m benchmarks.bench_variants --against /tmp/before/src --rounds 3
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
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


def _run(src: Path, games: Sequence[str], nodes: int, max_depth: int) -> dict[str, float]:
    """Nodes per second of each game, timed once in a fresh process with ``src`` first on the path."""
    root = Path(__file__).resolve().parent.parent
    environment = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "benchmarks.bench_variants", "--games", ",".join(games), "--nodes",
               str(nodes), "--max-depth", str(max_depth), "--repeat", "1", "--json"]
    done = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    return {result["game"]: result["nodes_per_s"] for result in figures["results"] if "error" not in result}


def _names(src: Path) -> list[str]:
    script = "import json; from ggn.variants import registry; print(json.dumps(list(registry.names())))"
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(src)},
                          capture_output=True, text=True, check=True)
    names: list[str] = json.loads(done.stdout)
    return names


def compare(other: Path, games: Sequence[str], rounds: int, nodes: int, max_depth: int) -> str:
    """This tree against the ggn of ``other`` (a ``src`` folder), game by game, for those of
    ``games`` both play: a text table."""
    here = Path(__file__).resolve().parent.parent / "src"
    known = set(_names(other))
    chosen = [name for name in games if name in known]
    missing = [name for name in games if name not in known]
    speeds: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in chosen}
    for number in range(rounds):
        order = ((0, here), (1, other)) if number % 2 == 0 else ((1, other), (0, here))
        for which, src in order:
            for name, speed in _run(src, chosen, nodes, max_depth).items():
                speeds[name][which].append(speed)
    lines = [f"perft nodes per second from the start, this tree against {other}, {rounds} rounds in turn "
             f"(one fresh process per tree a round), the range over the rounds", "",
             f"{'game':24} {'this tree':>21} {'the other':>21} {'ratio':>12}"]
    medians = []
    for name in chosen:
        ours, theirs = speeds[name]
        if len(ours) != rounds or len(theirs) != rounds:
            lines.append(f"{name:24} not measured in every round")
            continue
        ratios = [mine / other_speed for mine, other_speed in zip(ours, theirs, strict=True)]
        medians.append(statistics.median(ratios))
        lines.append(f"{name:24} {min(ours):10,.0f}-{max(ours):<10,.0f} "
                     f"{min(theirs):10,.0f}-{max(theirs):<10,.0f} {min(ratios):5.2f}-{max(ratios):<5.2f}")
    if missing:
        lines += ["", f"not in the other tree, not measured: {', '.join(missing)}"]
    if medians:
        lines += ["", f"{len(medians)} games: the median ratio of each game ranges {min(medians):.2f}-"
                      f"{max(medians):.2f}, their median {statistics.median(medians):.2f} "
                      "(above 1: this tree is faster)"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Perft nodes per second for every built-in game.")
    parser.add_argument("--games", help="comma-separated game names (default: every built-in game)")
    parser.add_argument("--nodes", type=_positive, default=20_000,
                        help="least paths a timed perft counts (20,000)")
    parser.add_argument("--max-depth", type=_positive, default=4, help="deepest perft (4)")
    parser.add_argument("--repeat", type=_positive, default=3, help="timed runs of each (best is kept; 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--against", type=Path, metavar="SRC",
                        help="compare with the ggn of another tree's src folder, game by game, in turn")
    parser.add_argument("--rounds", type=_positive, default=3, help="rounds of --against (3)")
    args = parser.parse_args(argv)
    games = args.games.split(",") if args.games else list(registry.names())
    unknown = [name for name in games if name not in registry.names()]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    if args.against is not None:
        if not (args.against / "ggn" / "__init__.py").is_file():
            parser.error(f"--against {args.against}: no ggn package there (give a tree's src folder)")
        print(compare(args.against, games, args.rounds, args.nodes, args.max_depth))
        return 0
    figures = measure(games, args.nodes, args.max_depth, args.repeat)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
