"""Seeds of the libFuzzer target on the native playouts (fuzz/playout_fuzz.c): real games' tables.

    python fuzz/playout_seeds.py DIRECTORY

For a few games the kernel's playout plays (chess's castling and en passant, drops and
repetitions over the whole game, shogi's perpetual checks, a large board, a flag region, an
extinction with forced captures, a bare king), writes the kernel's
tables and the playout tables ggn.rules._native makes of each to DIRECTORY/tables/GAME.tables
and GAME.playout (int32 little-endian: the target reads them at start from
``GGN_PLAYOUT_TABLES``), and to DIRECTORY/seeds inputs of the target's patch form, no patch
yet, with the start position and a position of a seeded random game, for both policies.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
from pathlib import Path

from ggn.game import Game
from ggn.rules import _native, rule_system
from ggn.rules._cplayout import _tables

GAMES = ("minishogi", "losalamos", "crazyhouse", "chess", "shogi", "capablanca", "chaturanga",
         "kingofthehill", "antichess", "shatranj", "3check", "makruk", "atomic",
         "berolina", "duck", "amazons", "janggi")
SEED = 20  # the random games' seed (issue 20)


def seeds() -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The tables by file name, and the seeds by file name."""
    tables: dict[str, bytes] = {}
    positions: dict[str, list[list[int]]] = {}
    chooser = random.Random(SEED)  # noqa: S311  (reproducible games, not secrets)
    for name in GAMES:
        rules = rule_system(name)
        start = rules.position()
        game = _native._game(rules, start)
        if game is None:
            sys.exit("playout_seeds: the C kernel does not run here (build it: pip install -e .)")
        made = _tables(rules, game, Game(rules).start)
        if isinstance(made, str):
            continue
        kernel = list(_native._Builder(rules, start).build()[0])
        tables[f"{name}.tables"] = struct.pack(f"<{len(kernel)}i", *kernel)
        tables[f"{name}.playout"] = struct.pack(f"<{len(made)}i", *made)
        position = start
        for _ in range(16):
            plays = rules.legal_moves(position)
            if not plays:
                break
            position = rules.play(position, chooser.choice(plays))
        encoded = (_native._encode(game, start), _native._encode(game, position))
        positions[name] = [list(words) for words in encoded if words is not None]
    found: dict[str, bytes] = {}
    for number, name in enumerate(sorted(positions)):  # the target numbers the games by file name
        for which, words in enumerate(positions[name]):
            for policy in (0, 1):
                found[f"{name}-{which}-{policy}"] = struct.pack(f"<BBHQB{len(words)}i", number, policy, 200,
                                                                SEED + which, 0, *words)
    return tables, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    tables, made = seeds()
    for folder, files in (("tables", tables), ("seeds", made)):
        (args.directory / folder).mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (args.directory / folder / name).write_bytes(data)
    print(f"playout_seeds: the tables of {len(tables) // 2} games and {len(made)} seeds in {args.directory}")


if __name__ == "__main__":
    main()
