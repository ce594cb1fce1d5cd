"""Batch listing of legal moves by the native kernel against python-chess.

In one run, on the same chess positions (by default 1,000, from random games seeded by
``--seed``, made by :func:`benchmarks.bench_moves.random_boards`), both sides' inputs built
beforehand, the runs taken in turn, best of ``--repeat``, in CPU time (:func:`time.process_time`: the
machine may be shared):

- ours: the kernel lists the legal plays of the whole batch in one call
  (``ggn._native.legal_many``: each position's plays as (move, play) numbers of the game's
  tables, which ``ggn.rules._native`` maps back to :class:`~ggn.rules.Play` objects on demand);
  also timed with the positions' encoding (``Position`` to the kernel's integers) included;
- python-chess: ``list(board.legal_moves)`` for each board.

Both must find the same number of legal moves (a promotion once per piece chosen, in both),
so a fast wrong answer cannot pass.

Run from the repository root::

    python -m benchmarks.bench_native_legal [--repeat N] [--positions N] [--seed N]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from array import array
from collections.abc import Callable
from pathlib import Path

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._arguments import _positive
from benchmarks.bench_moves import random_boards
from ggn.games.chess import from_fen
from ggn.rules import _native, rule_system

__all__ = ["main"]


def _best(function: Callable[[], int], repeat: int) -> tuple[float, int]:
    best, found = float("inf"), 0
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        found = function()
        best = min(best, time.process_time() - start)
    return best, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=_positive, default=5)
    parser.add_argument("--positions", type=_positive, default=1000)
    parser.add_argument("--seed", type=int, default=20261127)
    args = parser.parse_args(argv)
    if not _native.native_available():
        raise SystemExit("the C kernel is not built here (or GGN_PURE is set)")
    boards = random_boards(args.seed, args.positions)
    rules = rule_system("chess")
    positions = [rules.position(from_fen(board.fen(en_passant="fen"))) for board in boards]
    game = _native._game(rules, rules.position())
    assert game is not None
    kernel = _native._STATE.kernel
    assert kernel is not None
    encoded = array("i")
    for position in positions:
        one = _native._encode(game, position)
        assert one is not None
        encoded += one
    capsule = game.capsule

    def ours() -> int:
        counts, _ = kernel.legal_many(capsule, encoded)
        return sum(array("i", counts))

    def ours_encoding() -> int:
        batch = array("i")
        for position in positions:
            one = _native._encode(game, position)
            assert one is not None
            batch += one
        counts, _ = kernel.legal_many(capsule, batch)
        return sum(array("i", counts))

    def theirs() -> int:
        return sum(len(list(board.legal_moves)) for board in boards)

    rows = []
    for _ in range(2):  # in turn, twice
        rows.append(("ours (kernel, batch)", *_best(ours, args.repeat)))
        rows.append(("ours (with encoding)", *_best(ours_encoding, args.repeat)))
        rows.append(("python-chess", *_best(theirs, args.repeat)))
    found = {name: count for name, _, count in rows}
    if len(set(found.values())) != 1:
        raise SystemExit(f"moves differ: {found}")
    theirs_best = min(seconds for name, seconds, _ in rows if name == "python-chess")
    print(f"{len(boards):,} chess positions (seed {args.seed}), {found['python-chess']:,} legal moves; "
          f"best of {args.repeat} runs, each side twice in turn")
    for name in ("ours (kernel, batch)", "ours (with encoding)", "python-chess"):
        times = [seconds for row, seconds, _ in rows if row == name]
        print(f"  {name:22} {min(times) * 1e6 / len(boards):8.2f} us a position "
              f"({theirs_best / max(times):.1f}x-{theirs_best / min(times):.1f}x python-chess)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
