"""What a fresh process imports and builds before its first answer (issue 11, start-up), and
the bounds that keep a long-running process from growing with every board shape it meets.

Speed itself is measured in benchmarks/bench_startup.py (ratios against ``import ggn``); these
tests check the structure that makes it fast: a command imports only its own module and what
the library needs for it.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import io
import marshal
import os
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest

from ggn import cache, cli
from ggn.cli._arguments import Commands
from ggn.errors import PositionError
from ggn.position import Position
from ggn.rules import RuleSystem
from ggn.ruleset import COMPILED_KEPT, Ruleset
from ggn.variants import registry
from ggn.variants.registry import Catalogue


def _choices(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    raise AssertionError("no commands")


def test_the_table_of_commands_names_what_each_module_registers() -> None:
    every = _choices(cli._build_parser(io.StringIO(), io.StringIO()))
    assert every == set(cli._COMMANDS)
    for name in cli._MODULES:
        parser = argparse.ArgumentParser()
        commands = Commands(parser.add_subparsers(dest="command"))
        importlib.import_module(f"ggn.cli.{name}").register(commands)
        assert _choices(parser) == {c for c, module in cli._COMMANDS.items() if module == name}, name


@pytest.mark.parametrize(
    ("arguments", "command"),
    [
        (["moves", "chess"], "moves"),
        (["--no-cache", "perft", "shogi", "2"], "perft"),
        (["--help"], None),
        (["-h", "moves"], None),
        ([], None),
        (["nope"], None),  # unknown: the whole parser says what there is
        (["--no-cache"], None),
    ],
)
def test_a_run_builds_the_parser_of_its_command_only(arguments: list[str], command: str | None) -> None:
    assert cli._command(arguments) == command


_IMPORTED = """
import sys
from ggn.cli import run
status = run(sys.argv[1:])
print(sorted(name for name in sys.modules if name.startswith("ggn")), file=sys.stderr)
"""


def _modules_after(cache_dir: Path, *arguments: str) -> set[str]:
    env = {**os.environ, "GGN_CACHE_DIR": str(cache_dir)}
    env.pop("GGN_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", _IMPORTED, *arguments], env=env, capture_output=True,
                          text=True, check=True, timeout=120)
    return set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))


def test_moves_of_a_built_in_game_imports_neither_the_converter_nor_the_other_front_ends(
    tmp_path: Path,
) -> None:
    cold = _modules_after(tmp_path, "moves", "chess")
    assert "ggn.variants.ini" in cold  # the first run reads the built-in file and keeps what it made
    imported = _modules_after(tmp_path, "moves", "chess")
    for unneeded in ("ggn.convert", "ggn.legacy_eval", "ggn.svg", "ggn.web", "ggn.cli._convert",
                     "ggn.cli._show", "ggn.cli._serve", "ggn.cli._documents", "ggn.variants.ini",
                     "ggn.games.shogi", "ggn.games.xiangqi"):
        assert unneeded not in imported, unneeded
    assert "ggn.cli._positions" in imported


# What `ggn moves` of a built-in game may import beyond `import ggn` (issue 16, item 4: its start
# within 2x of `import ggn`). Each module more costs a fresh process its import: a command module
# that needs another one for a single command imports it where that command runs
# (an import inside the function, marked PLC0415), and listing pseudo-legal moves makes no rule system.
MOVES_IMPORTS = {
    "ggn.cli", "ggn.cli._arguments", "ggn.cli._catalogue", "ggn.cli._inputs", "ggn.cli._parallel",
    "ggn.cli._positions", "ggn.cli._progress", "ggn.cli._streams", "ggn.compiled", "ggn.variants",
    "ggn.variants.registry",
}


def test_moves_of_a_built_in_game_imports_no_more_than_its_list(tmp_path: Path) -> None:
    _modules_after(tmp_path, "moves", "chess")  # fills the cache
    base = _modules_after(tmp_path, "--version")  # what the command line imports before a command
    imported = _modules_after(tmp_path, "moves", "chess")
    assert not imported - base - MOVES_IMPORTS, "ggn moves imports more than before: see MOVES_IMPORTS"
    for rules in ("ggn.rules", "ggn.rules._system", "ggn.rules.variant", "ggn.rules._walk",
                  "ggn.rules._attacks"):  # pseudo-legal moves need no rule system
        assert rules not in imported, rules
    for made in ("ggn.variants.description", "ggn.variants.pieces", "ggn.variants.document",
                 "ggn.variants.fen"):  # nor a description, once a process has made the game's document
        assert made not in imported, made
    assert "ggn.rules" in _modules_after(tmp_path, "legal", "chess")  # where it is needed, it is there


def test_a_games_document_made_without_its_rule_system_is_the_rule_systems_own() -> None:
    catalogue = Catalogue()  # a game of its own: the built-ins' entries are shared by the process
    catalogue.add_ini("[tinychess:chess]\nmaxRank = 6\n"
                      "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n")
    alone = catalogue.entry("tinychess")
    ruleset = alone.ruleset()
    assert alone._rules is None  # made without the rule system
    assert alone.rules.ruleset is ruleset and alone.ruleset() is ruleset
    assert alone.position() == alone.rules.position()
    with pytest.raises(PositionError, match=r"not one of shape \(8, 8\)"):
        alone.position("8/8/8/8/8/8/8/8 / C/c")
    with pytest.raises(PositionError, match="played in the styles T/t"):
        alone.position("8/8/8/8/8/8 / S/s")


def _refusal(position: Any, feen: str) -> str | None:
    try:
        position(feen)
    except PositionError as error:
        return str(error)
    return None


def test_a_built_in_games_moves_are_listed_from_its_summary_without_its_description(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.flush()  # what earlier tests made goes to their cache, not this one
    monkeypatch.setenv("GGN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("GGN_NO_CACHE", raising=False)
    cache.configure()
    try:
        for name in ("chess", "shogi", "xiangqi", "capablanca"):
            cold = registry._Builtins().entries[name]  # an entry as a new process has it
            ruleset = cold.ruleset()  # made from the description, and summarised for the next process
            warm = registry._Builtins().entries[name]
            assert (warm.ruleset(), warm.start, warm.shape) == (ruleset, cold.start, cold.shape)
            assert warm._variant is None  # its description never made
            rules = registry.rules(name)
            assert [str(m) for m in warm.ruleset().moves(warm.position())] == [
                str(m) for m in rules.ruleset.moves(rules.position())]
            for other in ("8/8/8/8/8/8/8/8 / C/c", "9/9/9/9/9/9/9/9/9 / C/c", "9/9/9/9/9/9/9/9/9/9 / S/s"):
                assert _refusal(warm.position, other) == _refusal(rules.position, other)  # None: taken
        chess = registry.rules("chess").ruleset
        for document in (tmp_path / "cache").glob("document-*.ggnc"):  # a summary whose document is gone
            document.unlink()
        again = registry._Builtins().entries["chess"]
        assert again.ruleset() == chess and again._variant is not None  # made again, from the description
        assert cache.store("builtin-game", registry._summary_key("chess"), marshal.dumps(("not", "one")))
        wrong = registry._Builtins().entries["chess"]
        assert wrong._summarised() is None and wrong.ruleset() == chess
    finally:
        cache.flush()
        cache.configure()


# --- bounded memory (issue 11, section 6) -----------------------------------------------------------
# Already tested elsewhere, each before a board is built or past its bound:
# tests/test_hostile_core.py, row 5: the geometries kept (GEOMETRIES_KEPT, SQUARES_KEPT) and a
# ruleset's compiled forms (COMPILED_KEPT, COMPILED_SQUARES_KEPT) are bounded, least recently used
# out, and made again alike; tests/test_hostile_rules.py and tests/test_hostile_cli.py, row 4: a
# game's board shape is checked before any board is built (a 13-byte FEEN of 4,194,304 squares).


def test_a_rule_system_of_no_fixed_shape_keeps_the_tables_of_a_bounded_number_of_shapes() -> None:
    ruleset = Ruleset.from_value({
        "C:K^": {"a1": {"a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}]}},
        "c:r": {"a3": {"a2": [{"must": {"a2": "empty"}}], "a1": [{"must": {"a2": "empty", "a1": "enemy"}}]}},
    })
    rules = RuleSystem(ruleset)  # no shape: any board
    positions = [Position.from_feen(f"r{width - 1}/{width}/K^{width - 1} / C/c") for width in range(2, 20)]
    counts = [rules.count(position) for position in positions]
    assert len(rules._tables) == COMPILED_KEPT
    assert list(rules._tables) == [p.shape for p in positions[-COMPILED_KEPT:]]
    assert counts == [RuleSystem(ruleset).count(position) for position in positions]
    assert rules.count(positions[0]) == counts[0]  # made again, alike
    assert list(rules._tables)[-1] == positions[0].shape
    assert len(rules._tables) == COMPILED_KEPT


def test_code_made_and_not_saved_yet_does_not_keep_its_compiled_form_alive() -> None:
    # The entries waiting for ggn.cache.flush are held weakly: a compiled form let go (its
    # board shape used long ago) goes, with what it made; the next process makes it again.
    ruleset = Ruleset.from_value({"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}})
    position = Position.from_feen("3/3/R2 / C/c")
    assert [str(move) for move in ruleset.moves(position)] == ["C:R a1-a2"]
    form = ruleset._compiled_for(position.shape, position._geometry)
    saved = form._saved
    assert saved is not None and saved in cache._dirty
    reference = weakref.ref(saved)
    del form, saved
    ruleset._compiled.clear()
    ruleset._last = None
    gc.collect()
    assert reference() is None
