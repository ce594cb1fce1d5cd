"""Seeds of the libFuzzer target on the C FEN reader (fuzz/lines_fuzz.c): real games' tables and lines.

    python fuzz/lines_seeds.py DIRECTORY

For games of every kind the reader reads (chess's castling and en passant, chess960's
castling letters, drops and their hands in brackets, shogi's promoted pieces, xiangqi, a 10x8
and a 10x10 board, berolina's diagonal double steps, makruk), writes the reader's table
(ggn.rules._lines.fen_table) and the kernel's tables to DIRECTORY/tables/GAME.fen and
GAME.tables (int32 little-endian: the target reads them at start from ``GGN_LINES_TABLES``),
and to DIRECTORY/seeds inputs of the target's form, no patch yet: the FEN of the start and of
positions of a seeded random game, and a few lines each reader leaves to Python.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
from pathlib import Path

from ggn.rules import _lines, _native, rule_system
from ggn.variants import registry
from ggn.variants.fen import from_feen

GAMES = ("berolina", "capablanca", "chess", "crazyhouse", "fischerandom", "grand", "makruk", "shogi",
         "xiangqi")
SEED = 20  # the random games' seed (issue 20)
OTHERS = ("", "8/8/8/8/8/8/8/8 w - - 0 1", "+k^7/8/8/8/8/8/8/7K^ / C/c", "1" * 40, "/" * 20)


def seeds() -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The tables by file name, and the seeds by file name."""
    tables: dict[str, bytes] = {}
    found: dict[str, bytes] = {}
    chooser = random.Random(SEED)  # noqa: S311  (reproducible games, not secrets)
    for number, name in enumerate(sorted(GAMES)):  # the target numbers the games by file name
        rules = rule_system(name)
        start = rules.position()
        lister = _lines.lister(rules, start, "uci", None)
        if lister is None or lister.fen is None or _native._game(rules, start) is None:
            sys.exit("lines_seeds: the C kernel does not run here (build it: pip install -e .)")
        kernel = list(_native._Builder(rules, start).build()[0])
        tables[f"{name}.tables"] = struct.pack(f"<{len(kernel)}i", *kernel)
        tables[f"{name}.fen"] = struct.pack(f"<{len(lister.fen)}i", *lister.fen)
        variant = registry.variant(name)
        lines = [from_feen(variant, start)]
        position = start
        for ply in range(40):
            plays = rules.legal_moves(position)
            if not plays:
                break
            position = rules.play(position, chooser.choice(plays))
            if ply % 8 == 7:
                lines.append(from_feen(variant, position))
        for which, line in enumerate([*lines, *OTHERS]):
            found[f"{name}-{which}"] = struct.pack("<BB", number, 0) + line.encode()
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
    print(f"lines_seeds: the tables of {len(tables) // 2} games and {len(made)} seeds in {args.directory}")


if __name__ == "__main__":
    main()
