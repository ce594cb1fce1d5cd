"""Legal perft: this library's rule systems against python-chess (and python-shogi), in one run.

Perft counts the legal move paths of a given depth from a position; the nodes per second it
reaches measure legal move generation, making and unmaking moves included. Each figure is
the best of ``--repeat`` timed runs (:func:`time.perf_counter`), after one untimed run that
compiles our generators and warms up, the runs of ours and the peers' taken in turn; the
counts are checked against the published ones, so a fast wrong answer cannot pass.

- chess, from the start (depth 4: 197,281) and from Kiwipete (depth 3: 97,862):
  ours, :func:`ggn.rules.perft` (legality by the terminal-piece rule, effects as square
  changes, positions rebuilt for each interior node; the last ply is counted, not made);
  python-chess, the classic recursive perft over ``board.legal_moves`` with ``push``/``pop``,
  in two forms: counting the last ply with ``legal_moves.count()`` (as ours does), and making
  every move down to the leaves;
- shogi (depth 3: 25,470) against python-shogi's ``legal_moves`` with ``push``/``pop``;
- xiangqi (depth 3: 79,666) and makruk (depth 3: 12,012), ours alone (pyffish is C++: its
  figures would not compare two Python implementations).

Run from the repository root::

    python -m benchmarks.bench_perft [--repeat N] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess
import shogi

from benchmarks._arguments import _positive
from ggn.games.chess import from_fen
from ggn.rules import perft, rule_system

__all__ = ["main", "measure"]

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"

# (game, label, FEN for python-chess or None, depth, published count)
CASES: list[tuple[str, str, str | None, int, int]] = [
    ("chess", "chess start", chess.STARTING_FEN, 4, 197_281),
    ("chess", "chess Kiwipete", KIWIPETE + " 0 1", 3, 97_862),
    ("shogi", "shogi start", None, 3, 25_470),
    ("xiangqi", "xiangqi start", None, 3, 79_666),
    ("makruk", "makruk start", None, 3, 12_012),
]
QUICK_DEPTH = {"chess start": 3, "chess Kiwipete": 2, "shogi start": 2, "xiangqi start": 2,
               "makruk start": 2}
QUICK_COUNT = {"chess start": 8_902, "chess Kiwipete": 2_039, "shogi start": 900,
               "xiangqi start": 1_920, "makruk start": 529}


def chess_perft_count(board: chess.Board, depth: int) -> int:
    """python-chess perft, the last ply counted with ``legal_moves.count()``."""
    if depth == 1:
        return int(board.legal_moves.count())
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft_count(board, depth - 1)
        board.pop()
    return nodes


def chess_perft_leaves(board: chess.Board, depth: int) -> int:
    """python-chess perft, every move made down to the leaves."""
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft_leaves(board, depth - 1)
        board.pop()
    return nodes


def shogi_perft(board: shogi.Board, depth: int) -> int:
    """python-shogi perft over ``legal_moves`` with ``push``/``pop``, the last ply counted."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    nodes = 0
    for move in moves:
        board.push(move)
        nodes += shogi_perft(board, depth - 1)
        board.pop()
    return nodes


def best_of(repeat: int, runs: dict[str, Callable[[], int]], expected: int, label: str) -> dict[str, float]:
    """The shortest of ``repeat`` timed calls of each run, taken in turn (ours, then each peer,
    then again) so that a slow spell of a shared machine weighs on all alike; each call must
    return ``expected``."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, run in runs.items():
            gc.collect()
            start = time.perf_counter()
            count = run()
            best[name] = min(best[name], time.perf_counter() - start)
            if count != expected:
                raise SystemExit(f"{label}, {name}: perft gave {count:,}, not the published {expected:,}")
    return best


def measure(repeat: int, quick: bool = False) -> dict[str, Any]:
    """Time every case, return the figures."""
    results: list[dict[str, Any]] = []
    for game, label, fen, full_depth, published in CASES:
        depth, count = (QUICK_DEPTH[label], QUICK_COUNT[label]) if quick else (full_depth, published)
        rules = rule_system(game)
        position = rules.position(from_fen(fen) if game == "chess" and fen else None)
        cold_start = time.perf_counter()
        perft(rules, depth, position)  # compiles the generators and attack tests
        cold = time.perf_counter() - cold_start
        runs: dict[str, Callable[[], int]] = {"ggn": partial(perft, rules, depth, position)}
        if game == "chess":
            assert fen is not None
            board = chess.Board(fen)
            runs["python-chess, last ply counted"] = partial(chess_perft_count, board, depth)
            runs["python-chess, moves made to the leaves"] = partial(chess_perft_leaves, board, depth)
        elif game == "shogi":
            runs["python-shogi, last ply counted"] = partial(shogi_perft, shogi.Board(), depth)
        times = best_of(repeat, runs, count, label)
        seconds = times.pop("ggn")
        results.append({
            "case": label, "depth": depth, "nodes": count, "seconds": seconds,
            "nodes_per_s": count / seconds, "first_run_s": cold,
            "peers": {name: {"seconds": s, "nodes_per_s": count / s, "ratio": s / seconds}
                      for name, s in times.items()},
        })
    return {
        "repeat": repeat,
        "results": results,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "chess_version": metadata.version("chess"),
        "shogi_version": metadata.version("python-shogi"),
    }


def render(figures: dict[str, Any]) -> str:
    """The figures as a small text table; a ratio above 1 means ggn is faster."""
    lines = [
        f"legal perft, best of {figures['repeat']} runs, {figures['implementation']} "
        f"{figures['python']}, python-chess {figures['chess_version']}, "
        f"python-shogi {figures['shogi_version']}",
        "",
        f"{'':42} {'depth':>5} {'nodes':>9} {'seconds':>8} {'nodes/s':>9} {'ggn is':>8}",
    ]
    for result in figures["results"]:
        lines.append(
            f"{'ggn ' + result['case']:42} {result['depth']:5} {result['nodes']:9,} "
            f"{result['seconds']:8.3f} {result['nodes_per_s']:9,.0f}"
            f"   (first run, compiling: {result['first_run_s']:.3f} s)")
        lines.extend(
            f"{'  ' + name:42} {'':5} {'':9} {peer['seconds']:8.3f} {peer['nodes_per_s']:9,.0f} "
            f"{peer['ratio']:7.2f}x"
            for name, peer in result["peers"].items()
        )
    lines += ["", "'ggn is': the peer's time over ours (above 1: ggn is faster)"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time legal perft: ggn's rule systems against python-chess and python-shogi."
    )
    parser.add_argument("--repeat", type=_positive, default=5, help="timed runs of each (best is kept; 5)")
    parser.add_argument("--quick", action="store_true", help="one ply less everywhere (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.repeat, args.quick)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
