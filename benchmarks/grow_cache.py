"""Grow a compile cache as long use does, to time start-up on it (``ggn moves chess`` with a
much-used cache against a fresh one).

Many fresh processes, two at a time (so their saves meet, as a user's do), each playing one
seeded random game of a built-in game through ``legal_moves`` (every position's legal plays,
as a user's program or a test does), some with the kernel and some on the pure path
(``GGN_PURE=1``, whose attack tests have their own cache entry), then listing the pseudo-legal
moves of the positions met (``Ruleset.moves``, as ``ggn moves GAME FEEN`` does). Each process
saves what it compiled into the cache at its exit, merged with what the others saved. The
compile cache's directory is ``--directory`` (``GGN_CACHE_DIR``); the code is whatever
``ggn`` this interpreter imports (set ``PYTHONPATH`` for a checkout), so two versions of the
code can grow their own caches the same way.

Run from the repository root::

    python -m benchmarks.grow_cache --directory /tmp/grown/ggn [--games chess,shogi]
        [--processes 40] [--plies 300] [--seed 1]

It prints, at the end, the cache's files by kind: how many and their bytes, and the largest.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

__all__ = ["main"]

_CHILD = """
import random, sys
from ggn.rules import rule_system
name, seed, plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = rule_system(name)
rng = random.Random(seed)
position = rules.position()
met = []
for _ in range(plies):
    legal = rules.legal_moves(position)
    if not legal:
        position = rules.position()
        continue
    met.append(position)
    position = position.apply(rng.choice(legal).transition)
ruleset = rules.ruleset
for seen in met[::3]:
    ruleset.moves(seen)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grow_cache",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--directory", required=True, help="the compile cache's directory (GGN_CACHE_DIR)")
    parser.add_argument("--games", default="chess,shogi,xiangqi,crazyhouse,grand",
                        help="built-in games, comma-separated (default: %(default)s)")
    parser.add_argument("--processes", type=int, default=40, help="processes a game (default: %(default)s)")
    parser.add_argument("--plies", type=int, default=300, help="plies a process plays (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="the first process's seed (default: %(default)s)")
    arguments = parser.parse_args(argv)
    directory = Path(arguments.directory)
    games = [game for game in arguments.games.split(",") if game]
    runs = [(game, arguments.seed + number, number % 2 == 1)  # every other one on the pure path
            for number in range(arguments.processes) for game in games]
    pending = list(runs)
    running: list[subprocess.Popen[bytes]] = []
    failed = 0
    while pending or running:
        while pending and len(running) < 2:
            game, seed, pure = pending.pop(0)
            environment = {**os.environ, "GGN_CACHE_DIR": str(directory)}
            environment.pop("GGN_NO_CACHE", None)
            environment["GGN_PURE"] = "1" if pure else "0"
            running.append(subprocess.Popen(
                [sys.executable, "-c", _CHILD, game, str(seed), str(arguments.plies)], env=environment))
        finished = running.pop(0)
        failed += finished.wait() != 0
    sizes: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    largest: list[tuple[int, str]] = []
    for item in directory.iterdir():
        if item.suffix == ".ggnc":
            kind = item.name.rsplit("-", 1)[0]
            size = item.stat().st_size
            sizes[kind] += size
            counts[kind] += 1
            largest.append((size, item.name))
    print(f"{len(runs)} processes ({failed} failed); {sum(sizes.values()):,} bytes in "
          f"{sum(counts.values())} files")
    for kind in sorted(sizes):
        print(f"  {kind:16} {counts[kind]:5} files {sizes[kind]:12,} bytes")
    for size, name in sorted(largest)[-5:]:
        print(f"  largest: {name} {size:,}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
