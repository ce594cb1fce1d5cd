"""List the pseudo-legal moves of chess positions: this library against python-chess.

In one run, on the same positions (by default 2,000, from random games seeded as in
``tests/test_chess.py``: each move drawn uniformly among the legal ones, a game restarted
when it ends or after 80 plies), both sides' inputs built beforehand (python-chess
``Board`` objects, our ``Position`` objects from the FEEN of :func:`ggn.games.chess.from_fen`),
best of ``--repeat`` runs each, the two timed in turn, with :func:`time.perf_counter`:

- ours: ``rules.moves(position)`` for every position, with the chess ruleset already
  compiled (a list of ready-made ``Move`` values per position);
- python-chess: ``list(board.generate_pseudo_legal_moves())`` for every position.

They list the same moves (``tests/test_chess.py`` checks it) but for two differences:
python-chess lists a promotion once per promotion piece where ours lists the move once, and
refuses castling out of, through or into check, which GGN leaves to the rule system.

The one-off costs are timed apart, each on a fresh ruleset:

- load: ``document()`` (the GGN document as JSON-ready values) then ``Ruleset.from_value``;
- first pass: a fresh load, then one pass over every position, which compiles the
  generator of each (piece, source) the positions meet;
- compile all: a fresh load, then one pass over one-piece positions that put each piece of
  the document on each of its sources once, which compiles every generator.

Run from the repository root::

    python -m benchmarks.bench_moves [--repeat N] [--positions N] [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess

from ggn.cell import Cell
from ggn.feen import Feen
from ggn.games.chess import document, from_fen
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.sin import Sin

__all__ = ["main", "measure", "random_boards"]

SEED = 20240601  # the seed of tests/test_chess.py
PLIES = 80


def random_boards(seed: int, count: int) -> list[chess.Board]:
    """``count`` positions of random games, as in ``tests/test_chess.py``."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    board = chess.Board()
    while len(boards) < count:
        boards.append(board.copy(stack=False))
        if board.is_game_over() or board.ply() >= PLIES:
            board = chess.Board()
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return boards


def one_piece_positions(rules: Ruleset) -> list[Position]:
    """A position for each (piece, source) of the ruleset: that piece alone, its side to move."""
    styles = (Sin.parse("C"), Sin.parse("c"))
    positions = []
    for piece, sources in rules.items():
        for source in sources:
            if isinstance(source, Cell):
                board = {source: piece}
                positions.append(Position.from_feen(Feen((8, 8), board, None, piece.side, styles)))
    return positions


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The shortest of ``repeat`` timed calls of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def measure(repeat: int, count: int = 2000, seed: int = SEED) -> dict[str, Any]:
    """Build the positions, time both move generators and the one-off costs, return the figures."""
    boards = random_boards(seed, count)
    positions = [Position.from_feen(from_fen(board.fen(en_passant="fen"))) for board in boards]
    rules = Ruleset.from_value(document())

    def ours() -> None:
        moves = rules.moves
        for position in positions:
            moves(position)

    def theirs() -> None:
        for board in boards:
            list(board.generate_pseudo_legal_moves())

    # Untimed first runs: compile our generators, warm both up, and count the moves.
    counted = {
        "ggn": sum(len(rules.moves(position)) for position in positions),
        "python-chess": sum(len(list(board.generate_pseudo_legal_moves())) for board in boards),
    }
    # Timed in turn, ours then theirs, so that both meet the same moments of a shared machine.
    runs = (("ggn", "ggn Ruleset.moves", ours), ("python-chess", "python-chess pseudo-legal", theirs))
    best = dict.fromkeys([name for name, _, _ in runs], float("inf"))
    for _ in range(repeat):
        for name, _, run in runs:
            best[name] = min(best[name], best_of(1, run))
    results: dict[str, dict[str, Any]] = {}
    for name, label, _ in runs:
        seconds = best[name]
        results[name] = {
            "label": label, "seconds": seconds, "positions_per_s": count / seconds,
            "moves": counted[name], "moves_per_s": counted[name] / seconds,
        }

    def load() -> Ruleset:
        return Ruleset.from_value(document())

    def first_pass() -> None:
        fresh = load()
        for position in positions:
            fresh.moves(position)

    singles = one_piece_positions(rules)

    def compile_all() -> None:
        fresh = load()
        for position in singles:
            fresh.moves(position)

    once = min(repeat, 5)  # the one-off costs take up to a second a run: 5 runs are enough
    document_seconds = best_of(once, document)
    load_seconds = best_of(once, load)
    first_seconds = best_of(once, first_pass)
    all_seconds = best_of(once, compile_all)
    return {
        "positions": count,
        "seed": seed,
        "repeat": repeat,
        "results": results,
        "ratio": results["python-chess"]["seconds"] / results["ggn"]["seconds"],
        "one_off": {
            "document_s": document_seconds,
            "load_s": load_seconds,
            "first_pass_s": first_seconds,
            "first_pass_compile_s": first_seconds - load_seconds - results["ggn"]["seconds"],
            "compile_all_s": all_seconds,
            "compile_all_generators": len(singles),
        },
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "chess_version": metadata.version("chess"),
    }


def render(figures: dict[str, Any]) -> str:
    """The figures as a small text table."""
    one = figures["one_off"]
    lines = [
        f"{figures['positions']:,} positions of random chess games (seed {figures['seed']}), "
        f"best of {figures['repeat']} runs, {figures['implementation']} {figures['python']}, "
        f"python-chess {figures['chess_version']}",
        "",
        f"{'':28} {'seconds':>9} {'positions/s':>12} {'moves':>8} {'moves/s':>11}",
    ]
    lines.extend(
        f"{r['label']:28} {r['seconds']:9.4f} {r['positions_per_s']:12,.0f} {r['moves']:8,} "
        f"{r['moves_per_s']:11,.0f}"
        for r in figures["results"].values()
    )
    lines += [
        "",
        f"ggn lists the moves of a position {figures['ratio']:.2f}x as fast as python-chess",
        "",
        "one-off costs (seconds)",
        f"  document() alone                                   {one['document_s']:8.4f}",
        f"  load: document() + Ruleset.from_value              {one['load_s']:8.4f}",
        f"  load + first pass over the positions               {one['first_pass_s']:8.4f}"
        f"  (compiling: about {one['first_pass_compile_s']:.4f})",
        f"  load + compile all {one['compile_all_generators']} (piece, source) generators "
        f"{one['compile_all_s']:8.4f}",
    ]
    return "\n".join(lines)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time listing the pseudo-legal moves of chess positions: ggn against python-chess."
    )
    parser.add_argument("--repeat", type=_positive, default=15,
                        help="timed runs of each, in turn (best is kept; 15)")
    parser.add_argument("--positions", type=_positive, default=2000, help="positions (2000)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed of the random games ({SEED})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.repeat, args.positions, args.seed)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
