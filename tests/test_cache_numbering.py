"""The compile cache shared by processes that number the pieces otherwise.

:func:`ggn.position.code_of` numbers pieces in the order a process meets them, and the code
the compile cache keeps (move generators, attack tests) compares a board's codes with piece
codes. The code names the pieces by constants (``P0``, ``P1``...) that the process loading it
replaces by its own codes (:data:`ggn.compiled.Plan`; ``ggn.rules._attacks``), so processes
that met the pieces in other orders share it, and each compares right.

Before the numbering was taken into account, a clean-clone CI run failed once, depending on
the order of the tests
(tests/test_variants_fsf.py, ``random_games[coregal]``): coregal's document is chess's (its
royal queen is the rule system's, not the document's), so the attack tests of a process that
ran ``perft chess 3`` on the session's cache (tests/test_cli_progress.py), its pieces numbered
chess's first, were loaded by the test session, which had numbered shogi's first: the black
king in check from the rook on c8 read as not attacked, and ggn listed 20 moves where
Fairy-Stockfish has one.

Each test here runs child processes on one new cache directory: the first fills it, having
met the pieces in one order; the next reads it, having met them in another, and adds nothing
to the compiled code's entries; a third, without a cache, gives the answers both must give.
By default a handful of games with different pieces (the regression among them); under
``pytest -m full`` every built-in game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ggn.variants import registry

pytestmark = pytest.mark.slow  # not in the README's quick run: fresh processes share a cache

# The child: makes the games of argv[1] (a JSON list) in that order, and for each one plays a
# seeded random game of argv[2] plies by its legal moves, printing every position (FEEN) and
# its legal plays (sorted text) as JSON; with argv[3], a FEN of the last game, it prints that
# position's legal moves as UCI strings instead. The cache is written before it leaves.
_CHILD = """
import json, random, sys
from ggn import cache
from ggn.variants import registry
from ggn.variants.uci import moves
names, plies = json.loads(sys.argv[1]), int(sys.argv[2])
out = {}
for name in names:
    rules = registry.rules(name)
    rng = random.Random(name)
    position = rules.position()
    seen = []
    for _ in range(plies):
        plays = rules.legal_moves(position)
        seen.append((str(position), sorted(map(str, plays))))
        if not plays:
            break
        position = position.apply(rng.choice(plays).transition)
    out[name] = seen
if len(sys.argv) > 3:
    entry = registry.entry(names[-1])
    out = sorted(moves(entry.rules, entry.rules.position(entry.to_feen(sys.argv[3])), variant=entry.variant))
print(json.dumps(out))
cache.flush()
"""

# The CI failure's position: black is in check from the rook on c8 and has one move.
CHECKED = "2R1kb1r/4ppp1/3q4/7p/8/5NP1/2PPP2P/3QKB1R b Kk - 0 16"

# Games whose pieces differ (chess's, shogi's, xiangqi's, makruk's, fairy pieces, hands, a
# pseudo-royal queen), so that each order numbers most of them otherwise.
SOME = ["coregal", "shogi", "xiangqi", "crazyhouse", "makruk", "capablanca", "minixiangqi", "kingofthehill"]


def _run(cache_dir: Path | None, names: list[str], plies: int, *fen: str) -> Any:
    env = dict(os.environ)
    env.pop("GGN_NO_CACHE", None)
    if cache_dir is None:
        env["GGN_NO_CACHE"] = "1"
    else:
        env["GGN_CACHE_DIR"] = str(cache_dir)
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(names), str(plies), *fen], env=env,
                          capture_output=True, text=True, check=False, timeout=900)
    assert (done.returncode, done.stderr) == (0, "")
    return json.loads(done.stdout)


def test_a_game_made_after_others_leaves_no_tests_for_a_process_that_made_it_first(tmp_path: Path) -> None:
    sf = pytest.importorskip("pyffish")
    coregal = sorted(sf.legal_moves("coregal", CHECKED, []))
    chess = sorted(sf.legal_moves("chess", CHECKED, []))
    assert coregal == ["e8d7"] and chess == ["d6d8", "e8d7"]
    # The CI failure: chess alone fills the cache (coregal has the same document) ...
    assert _run(tmp_path, ["chess"], 1, CHECKED) == chess
    assert any(tmp_path.glob("attacks-*.ggnc")) and any(tmp_path.glob("moves-*.ggnc"))
    # ... and a process that numbered shogi's pieces first reads it for coregal.
    assert _run(tmp_path, ["shogi", "coregal"], 1, CHECKED) == coregal
    # Coregal made after other games, then read by a process that makes it first, and the
    # other way round.
    after, first = tmp_path / "after", tmp_path / "first"
    assert _run(after, ["shogi", "xiangqi", "chess", "coregal"], 1, CHECKED) == coregal
    assert _run(after, ["coregal"], 1, CHECKED) == coregal
    assert _run(first, ["coregal"], 1, CHECKED) == coregal
    assert _run(first, ["shogi", "xiangqi", "chess", "coregal"], 1, CHECKED) == coregal


def _compiled(cache_dir: Path) -> dict[str, bytes]:
    """The files of compiled code (move generators, attack tests) in a cache: their bytes by name."""
    return {path.name: path.read_bytes() for path in sorted(cache_dir.glob("*.ggnc"))
            if path.name.startswith(("moves-", "attacks-"))}


def _check_orders(tmp_path: Path, names: list[str], plies: int) -> None:
    fresh = _run(None, names, plies)
    assert _run(tmp_path, names, plies) == fresh  # fills the cache
    filled = _compiled(tmp_path)
    assert filled
    # Read by processes that numbered the pieces otherwise, the same code serves them: they
    # write no file and change none (when the numbering was in the keys, each order wrote its own).
    assert _run(tmp_path, names[::-1], plies) == fresh
    assert _run(tmp_path, names[1:] + names[:1], plies) == fresh
    assert _compiled(tmp_path) == filled


def test_games_read_a_cache_filled_by_a_process_that_met_the_pieces_in_another_order(tmp_path: Path) -> None:
    assert set(SOME) <= set(registry.names())
    _check_orders(tmp_path, SOME, 20)


@pytest.mark.full
def test_every_built_in_game_reads_a_cache_filled_in_another_order(tmp_path: Path) -> None:
    _check_orders(tmp_path, list(registry.names()), 30)
