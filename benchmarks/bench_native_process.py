"""``ggn perft`` against Fairy-Stockfish's ``go perft``, each a whole process, in turn in one run.

Game by game (chess 5, shogi 5, xiangqi 4 and the ten others :mod:`benchmarks.bench_native`
counts), each round times two fresh processes from outside, one after the other (the order
alternating from round to round): Debian's Fairy-Stockfish (``/usr/games/fairy-stockfish``,
``uci``, ``setoption name UCI_Variant``, ``position startpos``, ``go perft DEPTH``, ``quit``)
and ``ggn perft GAME DEPTH`` (the console script beside this interpreter, as a user runs it),
their counts checked equal. Before the rounds, ``ggn perft`` runs once with a new, empty compile
cache (``GGN_CACHE_DIR`` of its own): the cold run, which makes the game's document, its move
generator and the kernel's tables and keeps them; the rounds then find them there (warm), as
every later run of a user does. Python runs as a user's would: bytecode written and reused (the
package compiled first).

Reported per game: nodes per second of each side, as the range over the rounds, by wall time
and by CPU time (user and system, where the system accounts a child's: not on Windows; on a
busy machine a process waits for a processor, which its wall time counts and its CPU time does
not), and ggn's over Fairy-Stockfish's round by round; the cold run's wall time; the machine's
load (:func:`os.getloadavg`) before and after each game.

Run from the repository root::

    python -m benchmarks.bench_native_process [--rounds N] [--quick] [--games chess,shogi] [--json]

Target (issue 20): ggn's nodes per second at least half of Fairy-Stockfish's, whole processes.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ggn
from benchmarks._arguments import _positive
from benchmarks.bench_native import CASES, FAIRY_STOCKFISH

__all__ = ["main", "measure"]

_MAIN = "import sys; from ggn.cli import main; sys.argv[0] = 'ggn'; sys.exit(main())"


def _ggn() -> list[str]:
    """The installed console script, else the same code through ``python -c``."""
    script = Path(sys.executable).with_name("ggn.exe" if os.name == "nt" else "ggn")
    return [str(script)] if script.is_file() else [sys.executable, "-c", _MAIN]


def _children_cpu() -> float | None:
    try:
        import resource  # noqa: PLC0415  (Unix only)
    except ImportError:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str], env: dict[str, str] | None, given: str | None) -> tuple[str, float, float | None]:
    """A whole process: its output, wall seconds and CPU seconds (None: not accounted)."""
    before = _children_cpu()
    began = time.perf_counter()
    done = subprocess.run(argv, input=given, env=env, capture_output=True, text=True, check=False,
                          timeout=900)
    wall = time.perf_counter() - began
    after = _children_cpu()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-500:]}")
    return done.stdout, wall, None if before is None or after is None else after - before


def _fsf(game: str, depth: int) -> tuple[int, float, float | None]:
    script = f"uci\nsetoption name UCI_Variant value {game}\nposition startpos\ngo perft {depth}\nquit\n"
    out, wall, cpu = _timed([FAIRY_STOCKFISH], None, script)
    found = re.search(r"Nodes searched: (\d+)", out)
    if found is None:
        raise SystemExit(f"Fairy-Stockfish gave no perft for {game}: {out[-300:]!r}")
    return int(found[1]), wall, cpu


def _ours(game: str, depth: int, env: dict[str, str]) -> tuple[int, float, float | None]:
    out, wall, cpu = _timed([*_ggn(), "perft", game, str(depth)], env, None)
    return int(out.strip()), wall, cpu


def _span(values: list[float]) -> list[float]:
    return [min(values), max(values)] if values else []


def measure(rounds: int, quick: bool, games: list[str] | None) -> dict[str, Any]:
    if shutil.which(FAIRY_STOCKFISH) is None and not Path(FAIRY_STOCKFISH).exists():
        raise SystemExit(f"{FAIRY_STOCKFISH} is missing: apt-get install fairy-stockfish")
    compileall.compile_dir(str(Path(ggn.__file__).parent), quiet=1)
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONDONTWRITEBYTECODE", "GGN_NO_CACHE", "GGN_PURE")}
    report: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                              "cpus": os.cpu_count(), "rounds": rounds, "games": []}
    directory = tempfile.mkdtemp(prefix="ggn-bench-process-")
    try:
        for game, deepest in CASES:
            if games is not None and game not in games:
                continue
            depth = deepest - 1 if quick else deepest
            env["GGN_CACHE_DIR"] = str(Path(directory) / game)  # a new cache: the first run is cold
            load_before = os.getloadavg()
            nodes, cold, _ = _ours(game, depth, env)
            rows: dict[str, list[float]] = {"fsf": [], "ggn": [], "fsf_cpu": [], "ggn_cpu": []}
            for number in range(rounds):
                for side in (("fsf", "ggn") if number % 2 == 0 else ("ggn", "fsf")):
                    found, wall, cpu = _fsf(game, depth) if side == "fsf" else _ours(game, depth, env)
                    if found != nodes:
                        raise SystemExit(f"{game} perft {depth}: {side} {found:,}, ggn's cold run {nodes:,}")
                    rows[side].append(nodes / wall)
                    if cpu:
                        rows[f"{side}_cpu"].append(nodes / cpu)
            ratio = [ours / theirs for ours, theirs in zip(rows["ggn"], rows["fsf"], strict=True)]
            ratio_cpu = [ours / theirs for ours, theirs in zip(rows["ggn_cpu"], rows["fsf_cpu"], strict=True)]
            row = {"game": game, "depth": depth, "nodes": nodes, "cold_seconds": cold,
                   **{key: _span(value) for key, value in rows.items()}, "ratio": _span(ratio),
                   "ratio_cpu": _span(ratio_cpu), "load_before": load_before, "load_after": os.getloadavg()}
            report["games"].append(row)
            _show(row)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return report


def _r(values: list[float], scale: float = 1.0, digits: int = 2) -> str:
    if not values:
        return "-"
    return f"{values[0] / scale:.{digits}f}-{values[1] / scale:.{digits}f}"


def _show(row: dict[str, Any]) -> None:
    load = " ".join(f"{value:.1f}" for value in row["load_before"][:1] + row["load_after"][:1])
    print(f"{row['game']:12} {row['depth']} {row['nodes']:>11,}  M nodes/s wall: FSF {_r(row['fsf'], 1e6)}, "
          f"ggn {_r(row['ggn'], 1e6)}, ggn/FSF {_r(row['ratio'])}; CPU: FSF {_r(row['fsf_cpu'], 1e6)}, "
          f"ggn {_r(row['ggn_cpu'], 1e6)}, ggn/FSF {_r(row['ratio_cpu'])}; "
          f"ggn cold {row['cold_seconds']:.2f} s; load {load}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=_positive, default=3, help="rounds of both (default 3)")
    parser.add_argument("--quick", action="store_true", help="perft one ply less")
    parser.add_argument("--games", help="only these games (comma-separated)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON at the end")
    args = parser.parse_args(argv)
    games = None if args.games is None else [name.strip() for name in args.games.split(",")]
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load "
          f"{' '.join(f'{value:.2f}' for value in os.getloadavg())}", flush=True)
    report = measure(args.rounds, args.quick, games)
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
