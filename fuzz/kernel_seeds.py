"""Seeds of the libFuzzer target on the C kernel (fuzz/kernel_fuzz.c): real games' tables.

    python fuzz/kernel_seeds.py DIRECTORY [--plies N]

For each game the kernel plays among a few of every kind (chess and its castling and en
passant, drops, hoppers, a 10x8 board, the ends and legality rules: dobutsu's extinction and
safe flag, forced captures, racing kings' flag move and checks refused, spartan's pseudo-royal
kings), writes the tables ggn.rules._native makes of it to
DIRECTORY/tables/GAME.tables (int32 little-endian: the target reads them at start from
``GGN_KERNEL_TABLES``), and to DIRECTORY/seeds inputs of the target's patch form, no patch
yet, with the start position and positions of a seeded random game, once for each operation
(perft 2, the legal plays, divide 1). The smallest game's tables also go whole into inputs of
the target's own-tables form. From there libFuzzer's mutations reach tables and positions
that are almost right, which random bytes never do.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
from pathlib import Path

from ggn.rules import _native, rule_system

# Small boards first: the target reads a game's tables on every input, so small games run
# many more inputs a second; the large ones bring what only they have (a 10x8 board, drops on
# 9x9, the xiangqi palace and cannons, castling and en passant on chess's board). A game the
# kernel does not play (yet) is left out: its tables cannot be made.
GAMES = ("dobutsu", "minishogi", "gardner", "losalamos", "minixiangqi", "kyotoshogi", "tencubed",
         "grasshopper", "berolina", "crazyhouse", "antichess", "racingkings", "spartan", "chess", "shogi",
         "xiangqi", "capablanca", "makruk", "manchu", "isolation7x7", "joust", "amazons", "janggi",
         "cambodian", "seirawan", "placement", "petrified", "sittuyin", "atomic")
PATCH = 0x40  # the target's patch form: [operation | PATCH][depth][game][patches]
OPERATIONS = ((0, 2), (1, 0), (2, 1))  # (operation, depth): perft 2, legal plays, divide 1
SEED = 20  # the random games' seed (issue 20)


def _own(operation: int, depth: int, tables: list[int], position: list[int]) -> bytes:
    words = [*tables, *position]
    return struct.pack(f"<BBI{len(words)}i", operation, depth, len(tables), *words)


def _patch(operation: int, depth: int, game: int, position: list[int]) -> bytes:
    return struct.pack(f"<BBBB{len(position)}i", operation | PATCH, depth, game, 0, *position)


def seeds(plies: int) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The games' tables by name, and the seeds by file name: positions along a random game."""
    played: dict[str, tuple[list[int], list[list[int]]]] = {}
    chooser = random.Random(SEED)  # noqa: S311  (reproducible games, not secrets)
    for name in GAMES:
        try:
            rules = rule_system(name)
        except KeyError:
            continue
        if not _native.native_support(rules)[0]:
            continue
        game = _native._game(rules, rules.position())
        if game is None:  # the kernel is not built, or switched off
            sys.exit("kernel_seeds: the C kernel does not run here (build it: pip install -e .)")
        tables = list(_native._Builder(rules, rules.position()).build()[0])
        positions: list[list[int]] = []
        position = rules.position()
        for ply in range(plies + 1):
            encoded = _native._encode(game, position)
            if encoded is not None and ply % 4 == 0:
                positions.append(list(encoded))
            plays = rules.legal_moves(position)
            if not plays or rules.outcome(position) is not None:
                break
            position = rules.play(position, chooser.choice(plays))
        played[name] = (tables, positions)
    found: dict[str, bytes] = {}
    for number, name in enumerate(sorted(played)):  # the target numbers the games by file name
        for ply, words in enumerate(played[name][1]):
            for operation, depth in OPERATIONS:
                found[f"{name}-{4 * ply:03d}-{operation}"] = _patch(operation, depth, number, words)
    smallest = min(played, key=lambda name: len(played[name][0]))
    tables, positions = played[smallest]
    for operation, depth in OPERATIONS:
        found[f"own-{smallest}-{operation}"] = _own(operation, depth, tables, positions[0])
    return {name: struct.pack(f"<{len(tables)}i", *tables) for name, (tables, _) in played.items()}, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--plies", type=int, default=24, help="plies of each random game (default 24)")
    args = parser.parse_args()
    tables, made = seeds(args.plies)
    for folder, files, suffix in (("tables", tables, ".tables"), ("seeds", made, "")):
        (args.directory / folder).mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (args.directory / folder / f"{name}{suffix}").write_bytes(data)
    print(f"kernel_seeds: the tables of {len(tables)} games ({', '.join(sorted(tables))}) and "
          f"{len(made)} seeds in {args.directory}")


if __name__ == "__main__":
    main()
