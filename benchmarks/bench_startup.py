"""Start-up of a fresh process with a warm compile cache: ``ggn moves chess`` and ``ggn perft
shogi 2`` against ``python -c "import ggn"``, as ratios measured in one run.

Each round starts three fresh processes in turn (``python -c "import ggn"``, ``ggn moves
chess``, ``ggn perft shogi 2``, the last two through the installed console script, the ``ggn``
beside this interpreter, as a user runs them; the order rotates from round to round) and times
each whole process from outside, with :func:`time.perf_counter` around
:func:`subprocess.run`. The ratios are taken round by round (each command's time over the
``import ggn`` of the same round, so a machine whose speed drifts still compares like with
like), and their range is reported, with each command's times: its wall time, and (where the
system accounts it: not on Windows) its CPU time, user and system, which a busy machine
disturbs less, since the time a process waits for a processor is not in it.

The processes run as a user's would: bytecode written and reused (``PYTHONDONTWRITEBYTECODE``
unset, the package compiled before the first round), the compile cache in a new directory of
its own (``GGN_CACHE_DIR``), filled by untimed runs before the first round. With ``--cold``,
the same commands are timed with the cache off (``GGN_NO_CACHE=1``) too, for comparison.
Every run's output is checked: 20 moves, and 900 paths.

Run from the repository root::

    python -m benchmarks.bench_startup [--rounds N] [--cold] [--json]

Targets (issue 11): ``moves`` within 2x of ``import ggn``; ``perft shogi 2`` under 0.25 s.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ggn

__all__ = ["main", "measure"]

_MAIN = "import sys; from ggn.cli import main; sys.argv[0] = 'ggn'; sys.exit(main())"
"""What the ``ggn`` console script runs, for an environment without one."""


def _ggn() -> list[str]:
    """The installed console script (``ggn`` beside this interpreter, as a user runs it: its
    own file read, then ``ggn.cli.main``), else the same code through ``python -c``."""
    script = Path(sys.executable).with_name("ggn.exe" if os.name == "nt" else "ggn")
    return [str(script)] if script.is_file() else [sys.executable, "-c", _MAIN]


def commands() -> dict[str, list[str]]:
    """The timed commands, each a fresh Python process."""
    python = sys.executable
    return {
        "import ggn": [python, "-c", "import ggn"],
        "ggn moves chess": [*_ggn(), "moves", "chess"],
        "ggn perft shogi 2": [*_ggn(), "perft", "shogi", "2"],
    }


def _check(name: str, out: str) -> None:
    if name == "ggn moves chess" and len(out.splitlines()) != 20:
        raise SystemExit(f"{name}: expected 20 moves, got {out!r}")
    if name == "ggn perft shogi 2" and out.split() != ["900"]:
        raise SystemExit(f"{name}: expected 900, got {out!r}")


def _children_cpu() -> float | None:
    """The CPU seconds (user and system) of this process's finished children, where the
    system accounts them (not on Windows)."""
    try:
        import resource  # noqa: PLC0415  (Unix only)
    except ImportError:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], env: dict[str, str], name: str) -> tuple[float, float | None]:
    """The wall seconds of one run, and its CPU seconds (None where not accounted)."""
    before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = _children_cpu()
    if done.returncode != 0:
        raise SystemExit(f"{name} failed ({done.returncode}): {done.stderr}")
    _check(name, done.stdout)
    return elapsed, None if before is None or after is None else after - before


def _rounds(env: dict[str, str], rounds: int) -> dict[str, list[tuple[float, float | None]]]:
    timed = commands()
    names = list(timed)
    times: dict[str, list[tuple[float, float | None]]] = {name: [] for name in names}
    for round_number in range(rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(_run(timed[name], env, name))
    return times


def _figures(runs: list[float], base: list[float] | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"min": min(runs), "median": statistics.median(runs), "max": max(runs)}
    if base is not None:
        ratios = [t / b for t, b in zip(runs, base, strict=True)]
        entry["ratio"] = {"min": min(ratios), "median": statistics.median(ratios), "max": max(ratios)}
    return entry


def _summary(times: dict[str, list[tuple[float, float | None]]]) -> dict[str, Any]:
    """Each command's wall seconds (``min``, ``median``, ``max``, and ``ratio`` to ``import
    ggn`` round by round), and the same of its CPU seconds under ``cpu`` where accounted: on a
    busy machine a process waits for a processor, which its wall time counts and its CPU time
    does not."""
    base = times["import ggn"]
    out: dict[str, Any] = {}
    for name, runs in times.items():
        ours = name != "import ggn"
        entry = _figures([wall for wall, _ in runs], [wall for wall, _ in base] if ours else None)
        cpus = [cpu for _, cpu in runs]
        base_cpus = [cpu for _, cpu in base]
        if all(cpu is not None and cpu > 0 for cpu in [*cpus, *base_cpus]):
            entry["cpu"] = _figures([cpu for cpu in cpus if cpu is not None],
                                    [cpu for cpu in base_cpus if cpu is not None] if ours else None)
        out[name] = entry
    return out


def measure(rounds: int, cold: bool = False) -> dict[str, Any]:
    """Fill a new cache, time the rounds, return the figures (seconds, and ratios to import)."""
    package = Path(ggn.__file__).parent
    compileall.compile_dir(str(package), quiet=1)
    directory = tempfile.mkdtemp(prefix="ggn-bench-cache-")
    try:
        env = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONDONTWRITEBYTECODE", "GGN_NO_CACHE")}
        env["GGN_CACHE_DIR"] = str(Path(directory) / "ggn")
        for name, argv in commands().items():  # fill the cache (and the OS's file cache)
            _run(argv, env, name)
            _run(argv, env, name)
        figures: dict[str, Any] = {"warm": _summary(_rounds(env, rounds))}
        if cold:
            figures["cold"] = _summary(_rounds({**env, "GGN_NO_CACHE": "1"}, rounds))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    figures["rounds"] = rounds
    figures["python"] = platform.python_version()
    figures["machine"] = f"{platform.machine()}, {os.cpu_count()} CPUs"
    return figures


def _show(label: str, summary: dict[str, Any]) -> None:
    print(f"{label}:")
    for name, entry in summary.items():
        for kind, figures in (("wall", entry), ("cpu", entry.get("cpu"))):
            if figures is None:
                continue
            line = (f"  {name if kind == 'wall' else '':<18} {kind:<4} {figures['median'] * 1000:6.0f} ms "
                    f"median ({figures['min'] * 1000:.0f}-{figures['max'] * 1000:.0f})")
            if "ratio" in figures:
                ratio = figures["ratio"]
                line += (f"   x{ratio['median']:.2f} of import ggn "
                         f"({ratio['min']:.2f}-{ratio['max']:.2f})")
            print(line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the three commands (default 9)")
    parser.add_argument("--cold", action="store_true", help="time them with the cache off too")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    figures = measure(args.rounds, args.cold)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Python {figures['python']} on {figures['machine']}; {figures['rounds']} rounds, fresh processes")
    _show("warm cache", figures["warm"])
    if "cold" in figures:
        _show("cache off", figures["cold"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
