"""List the pseudo-legal moves of chess positions and read them: this library against python-chess.

In one run, on the same positions, both sides' inputs built beforehand (python-chess
``Board`` objects, our ``Position`` objects from the FEEN of :func:`ggn.games.chess.from_fen`),
the two timed in turn with :func:`time.perf_counter`, best of ``--repeat`` passes each, and
all of it ``--runs`` times (the ratios are reported as their range over the runs). Four sets
of positions (2,000 each by default), each reported apart:

- ``games80``: random games seeded as in ``tests/test_chess.py`` (each move drawn uniformly
  among the legal ones, a game restarted when it ends or after 80 plies): the set the move
  generator was measured on while it was written;
- ``games120``: random games of up to 120 plies, another seed;
- ``captures120``: capture-minded games of up to 120 plies, another seed: where the side to
  move can capture, it does three times in four (the capture drawn among the captures), so
  the games reach open middlegames and endings with few pieces;
- ``placements``: random legal placements, another seed: each side's king and a random
  share of its other fifteen pieces on random squares (pawns off the first and last ranks),
  either side to move, no castling right and no en passant square, kept when python-chess's
  ``Board.is_valid`` accepts it.

The sets are made with python-chess; no line of this library was tuned on the last three.
Every move is read as a user reads it:

- ours: ``for move in rules.moves(position)``, reading ``move.source``,
  ``move.destination`` and ``move.possibilities`` (what the move is and why it is allowed),
  with the chess ruleset already compiled;
- python-chess: ``for move in board.generate_pseudo_legal_moves()``, reading
  ``move.from_square``, ``move.to_square`` and ``move.promotion``.

They list the same moves (``tests/test_chess.py`` checks it) but for two differences:
python-chess lists a promotion once per promotion piece where ours lists the move once, and
refuses castling out of, through or into check, which GGN leaves to the rule system.

The one-off costs are timed apart, each on a fresh ruleset, on the ``games80`` positions, with
the compile cache off (:func:`ggn.cache.configure`), so that compiling is what is timed:

- load: ``document()`` (the GGN document as JSON-ready values) then ``Ruleset.from_value``;
- first pass: a fresh load, then one pass over every position, which compiles the
  generator of each (piece, source) the positions meet;
- compile all: a fresh load, then one pass over one-piece positions that put each piece of
  the document on each of its sources once, which compiles every generator.

Run from the repository root::

    python -m benchmarks.bench_moves [--runs N] [--repeat N] [--positions N] [--seed N]
                                     [--set NAME ...] [--distinct N] [--no-one-off] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess

from benchmarks._arguments import _positive
from ggn import cache
from ggn.cell import Cell
from ggn.feen import Feen
from ggn.games.chess import document, from_fen
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.sin import Sin

__all__ = ["SETS", "main", "measure", "random_boards", "random_placements"]

SEED = 20240601  # the seed of tests/test_chess.py
PLIES = 80
LONG_PLIES = 120
CAPTURE_SHARE = 0.75  # how often a capture-minded player captures when it can


def random_boards(seed: int, count: int, plies: int = PLIES, captures: float = 0.0) -> list[chess.Board]:
    """``count`` positions of random games, as in ``tests/test_chess.py`` (with the defaults):
    each game restarted when it ends or after ``plies`` plies; where a capture is possible,
    one is chosen with probability ``captures``."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    board = chess.Board()
    while len(boards) < count:
        boards.append(board.copy(stack=False))
        if board.is_game_over() or board.ply() >= plies:
            board = chess.Board()
            continue
        legal = list(board.legal_moves)
        if captures:
            taking = [move for move in legal if board.is_capture(move)]
            if taking and rng.random() < captures:
                legal = taking
        board.push(rng.choice(legal))
    return boards


_MATERIAL = "QRRBBNNPPPPPPPP"  # a side's pieces besides its king


def random_placements(seed: int, count: int) -> list[chess.Board]:
    """``count`` random placements that python-chess says are valid: both kings and, for each
    side, a random number (0 to 15) of its other pieces drawn at random, on random free
    squares (pawns on ranks 2 to 7), either side to move, no castling or en passant."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    inner = [square for square in chess.SQUARES if 0 < chess.square_rank(square) < 7]
    while len(boards) < count:
        board = chess.Board(None)
        board.turn = rng.random() < 0.5
        free = set(chess.SQUARES)
        for color in (chess.WHITE, chess.BLACK):
            symbols = "K" + "".join(rng.sample(_MATERIAL, rng.randint(0, len(_MATERIAL))))
            for symbol in symbols:
                allowed = [s for s in (inner if symbol == "P" else chess.SQUARES) if s in free]
                square = rng.choice(allowed)
                free.discard(square)
                board.set_piece_at(square, chess.Piece.from_symbol(symbol if color else symbol.lower()))
        if board.is_valid():
            boards.append(board)
    return boards


SETS: dict[str, tuple[str, Callable[[int, int], list[chess.Board]]]] = {
    "games80": ("random games, restarted after 80 plies (the tests' games)",
                random_boards),
    "games120": ("random games of up to 120 plies",
                 lambda seed, count: random_boards(seed + 1, count, LONG_PLIES)),
    "captures120": ("capture-minded games of up to 120 plies",
                    lambda seed, count: random_boards(seed + 2, count, LONG_PLIES, CAPTURE_SHARE)),
    "placements": ("random legal placements",
                   lambda seed, count: random_placements(seed + 3, count)),
}
"""Each set: what it is, and how it is made from the seed and the count (each set its own seed)."""


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


def _passes(rules: Ruleset, positions: list[Position], boards: list[chess.Board]) -> tuple[
    Callable[[], None], Callable[[], None]
]:
    """One pass of each side over a set, every move read."""

    def ours() -> None:
        moves = rules.moves
        for position in positions:
            for move in moves(position):
                _source, _destination, _why = move.source, move.destination, move.possibilities

    def theirs() -> None:
        for board in boards:
            for move in board.generate_pseudo_legal_moves():
                _source, _destination, _why = move.from_square, move.to_square, move.promotion

    return ours, theirs


def measure(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """:func:`measure_sets` with the compile cache off (every generator compiled, none loaded)."""
    cache.configure(enabled=False)
    try:
        return measure_sets(*args, **kwargs)
    finally:
        cache.configure()  # back to the environment's setting


def measure_sets(
    repeat: int, count: int = 2000, seed: int = SEED, runs: int = 1,
    sets: Sequence[str] = tuple(SETS), one_off: bool = True, distinct: int | None = None,
) -> dict[str, Any]:
    """Build the sets, time both move generators on each, ``runs`` times, and the one-off
    costs; return the figures. With ``distinct``, each set is its first ``distinct`` positions
    repeated to ``count`` (a diagnosis: fewer distinct positions meet fewer generators and
    moves, which then stay in the processor's cache)."""
    rules = Ruleset.from_value(document())
    built: dict[str, tuple[list[chess.Board], list[Position]]] = {}
    figures: dict[str, dict[str, Any]] = {}
    for name in sets:
        description, make = SETS[name]
        boards = make(seed, count)
        if distinct is not None:
            boards = [boards[number % distinct] for number in range(count)]
        positions = [Position.from_feen(from_fen(board.fen(en_passant="fen"))) for board in boards]
        built[name] = boards, positions
        # Untimed first pass: compile our generators, warm both up, and count the moves.
        figures[name] = {
            "description": description,
            "positions": count,
            "pieces": sum(len(board.piece_map()) for board in boards) / count,
            "moves": {
                "ggn": sum(len(rules.moves(position)) for position in positions),
                "python-chess": sum(len(list(board.generate_pseudo_legal_moves())) for board in boards),
            },
            "runs": [],
        }
    for _ in range(runs):
        for name in sets:
            boards, positions = built[name]
            ours, theirs = _passes(rules, positions, boards)
            best = {"ggn": float("inf"), "python-chess": float("inf")}
            # In turn, ours then theirs, so that both meet the same moments of a shared machine.
            for _ in range(repeat):
                best["ggn"] = min(best["ggn"], best_of(1, ours))
                best["python-chess"] = min(best["python-chess"], best_of(1, theirs))
            figures[name]["runs"].append(
                {"ggn_s": best["ggn"], "python-chess_s": best["python-chess"],
                 "ratio": best["python-chess"] / best["ggn"]})
    for figure in figures.values():
        ratios = [run["ratio"] for run in figure["runs"]]
        figure["ratio_min"], figure["ratio_max"] = min(ratios), max(ratios)
        figure["ratio_median"] = statistics.median(ratios)
        for side in ("ggn", "python-chess"):
            figure[f"{side}_positions_per_s"] = count / min(run[f"{side}_s"] for run in figure["runs"])
    result: dict[str, Any] = {
        "positions": count,
        "distinct": distinct,
        "seed": seed,
        "repeat": repeat,
        "runs": runs,
        "sets": figures,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "chess_version": metadata.version("chess"),
    }
    if one_off:
        result["one_off"] = _one_off(repeat, built["games80"][1] if "games80" in built else
                                     next(iter(built.values()))[1], rules)
    return result


def _one_off(repeat: int, positions: list[Position], rules: Ruleset) -> dict[str, Any]:
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

    def listing() -> None:
        for position in positions:
            rules.moves(position)

    once = min(repeat, 5)  # the one-off costs take up to a second a run: 5 runs are enough
    document_seconds = best_of(once, document)
    load_seconds = best_of(once, load)
    first_seconds = best_of(once, first_pass)
    all_seconds = best_of(once, compile_all)
    return {
        "document_s": document_seconds,
        "load_s": load_seconds,
        "first_pass_s": first_seconds,
        "first_pass_compile_s": first_seconds - load_seconds - best_of(once, listing),
        "compile_all_s": all_seconds,
        "compile_all_generators": len(singles),
    }


def render(figures: dict[str, Any]) -> str:
    """The figures as a small text table."""
    distinct = figures.get("distinct")
    lines = [
        f"{figures['positions']:,} positions a set (seed {figures['seed']}"
        + (f"; its first {distinct:,} repeated" if distinct else "") + "), every move read; "
        f"{figures['runs']} runs, best of {figures['repeat']} passes a run, "
        f"{figures['implementation']} {figures['python']}, python-chess {figures['chess_version']}",
        "",
        f"{'set':12} {'pieces':>6} {'ggn moves':>9} {'p-c moves':>9} {'ggn pos/s':>10} "
        f"{'p-c pos/s':>10} {'ratio (range over runs, median)':>32}",
    ]
    for name, one in figures["sets"].items():
        lines.append(
            f"{name:12} {one['pieces']:6.1f} {one['moves']['ggn']:9,} {one['moves']['python-chess']:9,} "
            f"{one['ggn_positions_per_s']:10,.0f} {one['python-chess_positions_per_s']:10,.0f} "
            f"{one['ratio_min']:>14.2f} to {one['ratio_max']:.2f}x ({one['ratio_median']:.2f})"
        )
    lines += ["", "ratio: how many times as fast as python-chess's pseudo-legal listing "
                  "(p-c: python-chess; pos/s: the best pass of all runs)"]
    if "one_off" in figures:
        one = figures["one_off"]
        lines += [
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time listing and reading the pseudo-legal moves of chess positions: "
                    "ggn against python-chess."
    )
    parser.add_argument("--runs", type=_positive, default=5,
                        help="runs of the whole measurement; the ratios' range over them is given (5)")
    parser.add_argument("--repeat", type=_positive, default=10,
                        help="timed passes of each side a run, in turn (the best is kept; 10)")
    parser.add_argument("--positions", type=_positive, default=2000, help="positions a set (2000)")
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"seed of the first set; the others take the next ones ({SEED})")
    parser.add_argument("--distinct", type=_positive, default=None, metavar="N",
                        help="a diagnosis: each set's first N positions, repeated to --positions (the "
                             "fewer distinct positions, the fewer generators and moves a pass reads)")
    parser.add_argument("--set", dest="sets", action="append", choices=tuple(SETS),
                        help="a set to measure (repeatable; all by default)")
    parser.add_argument("--no-one-off", dest="one_off", action="store_false",
                        help="leave out the one-off costs of loading and compiling")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.distinct is not None and args.distinct > args.positions:
        parser.error(f"--distinct {args.distinct} is more than --positions {args.positions}")
    figures = measure(args.repeat, args.positions, args.seed, args.runs,
                      tuple(args.sets or SETS), args.one_off, args.distinct)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
