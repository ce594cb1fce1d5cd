"""The native kernel against Fairy-Stockfish and python-chess, in one run: perft, batch legal
listing and random playouts.

- **perft**, game by game, in turn: Debian's Fairy-Stockfish (``/usr/games/fairy-stockfish``,
  ``setoption name UCI_Variant``, ``go perft DEPTH``: the whole process timed from outside, and
  its start-up alone, ``uci`` then ``quit``, timed the same way, so that its nodes per second are
  given both ways), then ``ggn perft`` (:func:`ggn.rules.perft` in this process: the native
  kernel where it plays the game, and the pure-Python path, one ply less, for reference). The
  counts must agree with Fairy-Stockfish's. Reported: each one's nodes per second over the
  rounds (their range) and ggn's over Fairy-Stockfish's, start-up included and not.
- **batch legal listing** against python-chess, on positions the code was not tuned on, made in
  the run from ``--seed``: positions of long random games and random placements (kings and a
  few pieces anywhere legal), as FEN lines; ggn lists them with :func:`ggn.batch.legal` (UCI
  strings, as a user reads them), python-chess with ``chess.Board(fen)`` and
  ``[move.uci() for move in board.legal_moves]``; the sets are compared, then timed: each
  round python-chess's pass between as many of ggn's before it as after, together about as
  long as it (ggn's rate their mean), so that both sides' figures come from the same seconds
  of the machine.
- **random playouts** of chess from the start: :func:`ggn.rules.playout` in the native kernel
  (``--games`` x 25 games a round, both policies) and on the pure path (``--games`` // 4, whose
  games must be the kernel's first ones), in plies per second of the wall clock and of this
  process's CPU time (on a loaded machine the second is the kernel's own speed); and each
  round, Fairy-Stockfish's ``go perft 5`` of chess in nodes per CPU second of its process
  (where it is installed), a gauge of the machine's speed at that moment: on a shared virtual
  machine both move together by a quarter or more from second to second.

Every figure is the range over ``--rounds`` rounds, each round running every contender in turn;
the machine's load (:func:`os.getloadavg`) is given before and after.

Run from the repository root::

    python -m benchmarks.bench_native [--rounds N] [--quick] [--seed S] [--json] [--only batch]

Targets (issue 20): ggn's perft nodes per second at least half of Fairy-Stockfish's on chess 5,
shogi 5, xiangqi 4 and ten other variants; batch legal listing at least 20x python-chess; chess
playouts at least 1 M plies per second on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Final

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess

import ggn
from benchmarks._arguments import _positive
from ggn import batch
from ggn.rules import native_available, native_support, perft, playout, use_native

__all__ = ["main"]

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"

# (game, depth): the three, and ten others with drops, hoppers and large boards.
CASES: list[tuple[str, int]] = [
    ("chess", 5), ("shogi", 5), ("xiangqi", 4),
    ("crazyhouse", 4), ("minishogi", 5), ("capablanca", 4), ("grand", 3), ("makruk", 5),
    ("minixiangqi", 5), ("capahouse", 4), ("shako", 4), ("euroshogi", 4), ("kyotoshogi", 5), ("judkins", 5),
]
"""Debian's Fairy-Stockfish 11.1 plays each (it takes an unknown UCI_Variant for chess: okisakishogi
and omicron are left out for that)."""


PARTS: Final = frozenset({"perft", "batch", "playouts"})


def _ranges(values: list[float]) -> tuple[float, float]:
    known = [value for value in values if value == value] or [float("nan")]  # NaN: not told
    return min(known), max(known)


def _fsf(game: str, depth: int) -> tuple[int, float]:
    """Fairy-Stockfish's ``go perft``: (nodes, seconds of the whole process)."""
    script = f"uci\nsetoption name UCI_Variant value {game}\nposition startpos\ngo perft {depth}\nquit\n"
    began = time.perf_counter()
    done = subprocess.run([FAIRY_STOCKFISH], input=script, capture_output=True, text=True, check=True,
                          timeout=600)
    seconds = time.perf_counter() - began
    found = re.search(r"Nodes searched: (\d+)", done.stdout)
    if found is None:
        raise SystemExit(f"Fairy-Stockfish gave no perft for {game}: {done.stdout[-300:]!r}")
    return int(found[1]), seconds


def _fsf_gauge() -> float:
    """Fairy-Stockfish's chess ``go perft 5`` in nodes per CPU second of its process (its
    start-up included: 4.9 M nodes make it small); NaN where it is not installed."""
    if shutil.which(FAIRY_STOCKFISH) is None and not Path(FAIRY_STOCKFISH).exists():
        return float("nan")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    nodes, _ = _fsf("chess", 5)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return nodes / max(cpu, 1e-9)


def _fsf_startup() -> float:
    began = time.perf_counter()
    subprocess.run([FAIRY_STOCKFISH], input="uci\nquit\n", capture_output=True, text=True, check=True,
                   timeout=60)
    return time.perf_counter() - began


def _ggn(game: str, depth: int, native: bool) -> tuple[int, float]:
    with use_native(native):
        began = time.perf_counter()
        nodes = perft(game, depth)
        return nodes, time.perf_counter() - began


def _positions(seed: int, count: int) -> list[str]:
    """FEN lines: positions of long random games (python-chess plays them) and random
    placements (kings and up to twelve pieces, kept where legal and not over)."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count // 2:
        board = chess.Board()
        for _ in range(rng.randrange(20, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.1 and not board.is_game_over():
                lines.append(board.fen())
    pieces = "PNBRQpnbrq"
    while len(lines) < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 14)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:2 + rng.randrange(13)]:
            symbol = rng.choice(pieces)
            if symbol in "Pp" and chess.square_rank(square) in (0, 7):
                continue
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.is_valid() and not board.is_game_over():
            lines.append(board.fen())
    return lines[:count]


def _python_chess_legal(lines: list[str]) -> list[list[str]]:
    return [[move.uci() for move in chess.Board(line).legal_moves] for line in lines]


def _ggn_legal(lines: list[str]) -> list[list[str]]:
    answers = []
    for result in batch.legal("chess", lines, notation="uci"):
        if not result.ok:
            raise SystemExit(f"ggn could not list line {result.line}: {result.error}")
        answers.append(result.value)
    return answers


def _timed(function: Any, *args: Any) -> tuple[Any, float]:
    began = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - began


def measure(rounds: int, quick: bool, seed: int, positions: int, games: int,
            parts: frozenset[str] = PARTS) -> dict[str, Any]:
    report: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                              "native": native_available(), "load_before": os.getloadavg(), "perft": [],
                              "seed": seed}
    if "perft" in parts:
        _perft_rows(report, rounds, quick)
    if "batch" in parts:
        _batch_row(report, rounds, seed, positions)
    if "playouts" in parts:
        _playout_row(report, rounds, seed, games)
    report["load_after"] = os.getloadavg()
    print(f"load average before {_load(report['load_before'])}, after {_load(report['load_after'])}")
    return report


def _perft_rows(report: dict[str, Any], rounds: int, quick: bool) -> None:
    if shutil.which(FAIRY_STOCKFISH) is None and not Path(FAIRY_STOCKFISH).exists():
        raise SystemExit(f"{FAIRY_STOCKFISH} is missing: apt-get install fairy-stockfish")
    startups = [_fsf_startup() for _ in range(rounds)]
    report["fsf_startup"] = _ranges(startups)
    for game, deepest in CASES:
        depth = deepest - 1 if quick else deepest
        kernel, why = native_support(game)
        perft(game, 2)  # the rule system made and compiled before timing
        rows: dict[str, list[float]] = {"fsf": [], "fsf_search": [], "ggn": [], "pure": []}
        nodes = 0
        for _ in range(rounds):
            nodes, seconds = _fsf(game, depth)
            rows["fsf"].append(nodes / seconds)
            # Without its start-up, where the search takes most of the process (else not told).
            searched = seconds - min(startups)
            rows["fsf_search"].append(nodes / searched if searched > seconds / 2 else float("nan"))
            ours, seconds = _ggn(game, depth, True)
            if ours != nodes:
                raise SystemExit(f"{game} perft {depth}: ggn {ours:,}, Fairy-Stockfish {nodes:,}")
            rows["ggn"].append(ours / seconds)
            pure, seconds = _ggn(game, depth - 1, False)
            rows["pure"].append(pure / seconds)
        ratio = [ggn / fsf for ggn, fsf in zip(rows["ggn"], rows["fsf"], strict=True)]
        ratio_search = [ggn / fsf for ggn, fsf in zip(rows["ggn"], rows["fsf_search"], strict=True)]
        report["perft"].append({"game": game, "depth": depth, "nodes": nodes, "engine": "native" if kernel
                                else f"pure ({why})", **{key: _ranges(value) for key, value in rows.items()},
                                "ratio": _ranges(ratio), "ratio_search": _ranges(ratio_search)})
        _show_perft(report["perft"][-1])


def _batch_row(report: dict[str, Any], rounds: int, seed: int, positions: int) -> None:
    lines = _positions(seed, positions)
    # The first pass in this process pays for the kernel's tables of chess, each generator's
    # order and the moves' strings (made as the lines need them): timed apart, and checked.
    first, first_time = _timed(_ggn_legal, lines)
    expected, theirs_first = _timed(_python_chess_legal, lines)
    if [sorted(moves) for moves in first] != [sorted(moves) for moves in expected]:
        raise SystemExit("ggn.batch.legal and python-chess list different moves")
    ours_rate: list[float] = []
    theirs_rate: list[float] = []
    cpu_ratio: list[float] = []  # on a shared machine the CPU time is the steadier figure
    # A pass of ggn takes a twentieth of python-chess's or less. The shared machine's speed
    # changes from one tenth of a second to the next (python-chess's rate in one process went
    # from 6,100 to 11,000 positions a second and back), so two figures timed apart swing a
    # ratio by a quarter. So a round takes turns at a fine grain: ggn's pass over all the
    # lines, then python-chess on the next slice of them, and so on, as many turns as make
    # ggn's passes about as long in all as python-chess's one pass over every line. Each
    # side's figure is its lines over its summed time: both come from the same seconds.
    _, warm = _timed(_ggn_legal, lines)
    turns = max(2, min(100, round(theirs_first / max(warm, 1e-9))))
    slices = [lines[turn * len(lines) // turns:(turn + 1) * len(lines) // turns] for turn in range(turns)]
    for _ in range(rounds):
        ours_time = ours_cpu = theirs_time = theirs_cpu = 0.0
        for part in slices:
            cpu = time.process_time()
            _, seconds = _timed(_ggn_legal, lines)
            ours_cpu += time.process_time() - cpu
            ours_time += seconds
            cpu = time.process_time()
            _, seconds = _timed(_python_chess_legal, part)
            theirs_cpu += time.process_time() - cpu
            theirs_time += seconds
        ours_rate.append(turns * len(lines) / ours_time)
        theirs_rate.append(len(lines) / theirs_time)
        cpu_ratio.append((turns * len(lines) / max(ours_cpu, 1e-9)) / (len(lines) / max(theirs_cpu, 1e-9)))
    report["batch_legal"] = {"positions": len(lines), "ggn": _ranges(ours_rate),
                             "python_chess": _ranges(theirs_rate),
                             "ratio": _ranges([a / b for a, b in zip(ours_rate, theirs_rate, strict=True)]),
                             "cpu_ratio": _ranges(cpu_ratio),
                             "first_pass": {"ggn": len(lines) / first_time,
                                            "python_chess": len(lines) / theirs_first}}
    print(f"batch legal, {len(lines):,} chess positions (seed {seed}), each line's UCI strings as a user "
          f"reads them: ggn {_r(ours_rate)} positions/s, python-chess {_r(theirs_rate)}, ratio "
          f"{_r(report['batch_legal']['ratio'], 2)}x (in CPU time {_r(cpu_ratio, 2)}x); the first pass "
          f"(the kernel's tables, generator orders and strings made) ggn {len(lines) / first_time:,.0f} "
          f"positions/s, python-chess {len(lines) / theirs_first:,.0f}", flush=True)


def _playout_row(report: dict[str, Any], rounds: int, seed: int, games: int) -> None:
    """Chess playouts from the start, each round the kernel (``games`` x 25 games, each policy)
    and the pure path (``games`` // 4 games, uniform) in turn, in plies a second of the wall
    clock and of this process's CPU time (their ranges, and in ``rounds`` each round's figure,
    so a reader sees which rounds are low); the pure path's games checked equal to the kernel's.
    The process's first call (``games`` games) is timed apart: it makes or reads the tables."""
    many, few = 25 * games, max(1, games // 4)
    rows: dict[str, list[float]] = {"native": [], "native_cpu": [], "captures": [], "captures_cpu": [],
                                    "pure": [], "pure_cpu": [], "fsf_gauge": []}
    engine = ""
    # The first call of a process makes or reads the kernel's tables: timed apart, as batch's first pass.
    first, first_seconds = _timed(lambda: playout("chess", games=games, seed=seed))
    for number in range(rounds):
        for key, policy in (("native", "uniform"), ("captures", "captures")):
            cpu = time.process_time()
            found, seconds = _timed(lambda n=number, p=policy: playout("chess", games=many, seed=seed + n,
                                                                         policy=p))
            rows[key].append(found.plies / seconds)
            rows[key + "_cpu"].append(found.plies / max(time.process_time() - cpu, 1e-9))
            engine = found.engine if key == "native" else engine
            if key == "native":
                kernel_games = found
        with use_native(False):
            cpu = time.process_time()
            pure, seconds = _timed(lambda n=number: playout("chess", games=few, seed=seed + n))
            rows["pure"].append(pure.plies / seconds)
            rows["pure_cpu"].append(pure.plies / max(time.process_time() - cpu, 1e-9))
        if (pure.results, pure.lengths) != (kernel_games.results[:few], kernel_games.lengths[:few]):
            raise SystemExit("the kernel's chess playouts are not the pure path's games")
        rows["fsf_gauge"].append(_fsf_gauge())
    report["playouts"] = {"games": many, "pure_games": few, "engine": engine,
                          "first_call_plies_per_second": first.plies / first_seconds,
                          **{f"{key}_plies_per_second": _ranges(value) for key, value in rows.items()},
                          "rounds": {key: [round(value) for value in values] for key, values in rows.items()}}
    print(f"chess playouts ({engine}), {many} games a round: {_r(rows['native'])} plies/s "
          f"({_r(rows['native_cpu'])} a CPU second); captures policy {_r(rows['captures'])} "
          f"({_r(rows['captures_cpu'])}); pure path, {few} games: {_r(rows['pure'])} "
          f"({_r(rows['pure_cpu'])}); the process's first call ({games} games, its tables made or read) "
          f"{first.plies / first_seconds:,.0f}; the machine's gauge, Fairy-Stockfish chess perft 5, "
          f"{_r(rows['fsf_gauge'])} nodes a CPU second", flush=True)
    print("  each round, kernel plies a CPU second (uniform, captures) : Fairy-Stockfish nodes a CPU second: "
          + ", ".join(f"({a / 1e6:.2f} M, {b / 1e6:.2f} M) : {c / 1e6:.1f} M"
                      for a, b, c in zip(rows["native_cpu"], rows["captures_cpu"], rows["fsf_gauge"],
                                             strict=True)),
          flush=True)


def _r(values: Any, digits: int = 0) -> str:
    low, high = _ranges(list(values))
    if low != low:
        return "-"
    return f"{low:,.{digits}f}-{high:,.{digits}f}"


def _load(load: tuple[float, float, float]) -> str:
    return " ".join(f"{value:.2f}" for value in load)


def _show_perft(row: dict[str, Any]) -> None:
    print(f"{row['game']:12} perft {row['depth']} = {row['nodes']:>12,}  FSF {_r(row['fsf'])} n/s "
          f"({_r(row['fsf_search'])} without its start-up), ggn {_r(row['ggn'])} n/s [{row['engine']}], "
          f"pure {_r(row['pure'])}; ggn/FSF {_r(row['ratio'], 2)} ({_r(row['ratio_search'], 2)})", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=_positive, default=3,
                        help="rounds of every contender (default 3)")
    parser.add_argument("--quick", action="store_true", help="perft one ply less")
    parser.add_argument("--seed", type=int, default=20,
                        help="the seed of the positions and playouts (default 20)")
    parser.add_argument("--positions", type=_positive, default=2000, help="batch positions (default 2000)")
    parser.add_argument("--games", type=_positive, default=20,
                        help="playouts a round: x25 in the kernel, /4 on the pure path (default 20)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON at the end")
    parser.add_argument("--only", choices=sorted(PARTS), action="append",
                        help="run this part only (perft, batch, playouts; may be repeated)")
    args = parser.parse_args(argv)
    # (which checkout is measured: run from another one, ``python -m`` finds the package installed)
    print(f"Python {platform.python_version()}, ggn from {Path(ggn.__file__).parent}, native kernel: "
          f"{native_available()}, load {_load(os.getloadavg())}", flush=True)
    report = measure(args.rounds, args.quick, args.seed, args.positions, args.games,
                     frozenset(args.only) if args.only else PARTS)
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
