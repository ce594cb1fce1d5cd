"""Perft across cores, and what a task costs on Dask: ratios measured in one run.

1. ``ggn perft chess 5`` (4,865,609 paths) as a user runs it, a fresh process each time:
   ``--jobs 1`` (counted in the process) against ``--jobs 2`` (two worker processes), the two
   taken in turn ``--repeat`` times after one untimed run of each (which fills the compile
   cache, as any earlier use does). Each pair gives a ratio (the time of ``--jobs 1`` over that
   of ``--jobs 2``); the report gives every ratio, their range and median. The times include
   everything the user waits for: the interpreter's start, the rules made or loaded, the
   workers started, the split, the count and the exit. The counts are checked.
2. With ``--dask`` (needs ``pip install 'ggn[dask]'``): a ``distributed.LocalCluster`` of two
   worker processes of one thread each on this machine. The cost of a task: ``--tasks``
   tasks that do nothing (a perft of depth 0 of the start position) sent through
   :func:`ggn.parallel.ordered`, their time over their number, beside the same tasks run in
   this process; and chess perft 4 on the cluster, beside the same count on a pool of two
   worker processes and in this process.

The machine's processors and load average (before and after) are printed with the figures: on
a machine shared with other work, a ratio says more than a time, and the range says how much
the sharing moved it.

Run from the repository root::

    python -m benchmarks.bench_parallel [--repeat N] [--quick] [--dask] [--tasks N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ggn import parallel
from ggn.rules import perft
from ggn.variants import registry

__all__ = ["main", "measure_dask", "measure_jobs"]

COUNTS = {4: 197_281, 5: 4_865_609}


def _load() -> list[float]:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # not on every platform
        return []


def _timed_perft(depth: int, jobs: int) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ggn", "perft", "chess", str(depth), "--jobs", str(jobs)],
                          capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or done.stdout != f"{COUNTS[depth]}\n":
        raise SystemExit(f"ggn perft chess {depth} --jobs {jobs}: exit {done.returncode}, "
                         f"{done.stdout!r} {done.stderr!r}")
    return elapsed


def measure_jobs(depth: int, repeat: int) -> dict[str, Any]:
    """``--jobs 1`` and ``--jobs 2`` in turn, ``repeat`` pairs after one untimed run each."""
    _timed_perft(depth, 1)
    _timed_perft(depth, 2)
    pairs = []
    for _ in range(repeat):
        one = _timed_perft(depth, 1)
        two = _timed_perft(depth, 2)
        pairs.append({"jobs 1 s": round(one, 3), "jobs 2 s": round(two, 3), "ratio": round(one / two, 3)})
    ratios = [pair["ratio"] for pair in pairs]
    return {"command": f"ggn perft chess {depth} --jobs 1|2", "nodes": COUNTS[depth], "pairs": pairs,
            "ratio min": min(ratios), "ratio median": statistics.median(ratios), "ratio max": max(ratios)}


def measure_dask(tasks: int, quick: bool) -> dict[str, Any]:
    """The cost of a task on a local Dask cluster, and perft 4 there, on a pool and here."""
    import importlib  # noqa: PLC0415  (only with --dask)
    import logging  # noqa: PLC0415

    distributed: Any = importlib.import_module("distributed")  # optional: the [dask] extra

    recipe = parallel.Recipe(game="chess")
    start = registry.start("chess")
    arguments = [(recipe, start, 0)] * tasks
    depth = 3 if quick else 4
    count = perft("chess", depth)  # made here first: the serial figure counts, not compiles
    began = time.perf_counter()
    assert sum(parallel._perft_task(*args) for args in arguments) == tasks
    here = time.perf_counter() - began
    began = time.perf_counter()
    assert perft("chess", depth) == count
    serial = time.perf_counter() - began
    with parallel.Pool(2) as pool:
        parallel.perft("chess", 2, jobs=pool)  # the workers started and their rules made
        began = time.perf_counter()
        assert parallel.perft("chess", depth, jobs=pool) == count
        pooled = time.perf_counter() - began
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.CRITICAL) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        assert list(parallel.ordered(parallel._perft_task, arguments[:20], scheduler=client)) == [1] * 20
        began = time.perf_counter()
        assert sum(parallel.ordered(parallel._perft_task, arguments, scheduler=client)) == tasks
        spread = time.perf_counter() - began
        parallel.perft("chess", 2, scheduler=client)
        began = time.perf_counter()
        assert parallel.perft("chess", depth, scheduler=client) == count
        on_dask = time.perf_counter() - began
    return {
        "tasks": tasks,
        "per task on the cluster ms": round(spread / tasks * 1e3, 3),
        "per task here ms": round(here / tasks * 1e3, 3),
        f"perft chess {depth} here s": round(serial, 3),
        f"perft chess {depth} pool of 2 s": round(pooled, 3),
        f"perft chess {depth} cluster of 2 s": round(on_dask, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed pairs of runs (default 5)")
    parser.add_argument("--quick", action="store_true", help="perft chess 4 instead of 5")
    parser.add_argument("--dask", action="store_true", help="also measure a local Dask cluster")
    parser.add_argument("--tasks", type=int, default=2000, help="tasks that do nothing, for --dask")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"processors": os.cpu_count(), "python": sys.version.split()[0],
                               "load before": _load()}
    figures["jobs"] = measure_jobs(4 if args.quick else 5, args.repeat)
    if args.dask:
        figures["dask"] = measure_dask(args.tasks, args.quick)
    figures["load after"] = _load()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    jobs = figures["jobs"]
    print(f"{figures['processors']} processors, Python {figures['python']}, load average "
          f"{figures['load before']} before, {figures['load after']} after")
    print(f"{jobs['command']} ({jobs['nodes']:,} nodes), {len(jobs['pairs'])} pairs in turn:")
    for pair in jobs["pairs"]:
        print(f"  jobs 1 {pair['jobs 1 s']:7.2f} s   jobs 2 {pair['jobs 2 s']:7.2f} s   "
              f"ratio {pair['ratio']:.2f}")
    print(f"  ratio (jobs 1 / jobs 2): {jobs['ratio min']:.2f} to {jobs['ratio max']:.2f}, "
          f"median {jobs['ratio median']:.2f}")
    if args.dask:
        for name, value in figures["dask"].items():
            print(f"  dask: {name}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
