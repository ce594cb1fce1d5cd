"""Fuzz target for every command of ``ggn``, run in-process (``ggn.cli.run``).

Command lines are built from the real commands and options (read from the command's own
argument parser, so that a new option is fuzzed as soon as it exists), with random values:
choices and junk, FEEN texts (valid, edited, of boards too big to hold), numbers out of range,
and files in a temporary directory holding test vectors, edited vectors, random bytes, a
directory, a missing file, the input given again as the output. Standard input is random bytes
or closed; standard output sometimes fails on every write, as a full disk does.

The property (fuzzing.check_cli): the exit status is 0, 1 or 2; standard error never holds a
traceback nor the command's last-resort "internal error" message (a crash it caught); exit 0
means something was printed; an output that could not be written means exit 2.
"""

from __future__ import annotations

import argparse
import io
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import DOCUMENTS, check_cli, document_seeds, edited_bytes, mutated, notation_seeds
from ggn import cli, games
from support import examples

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli._build_parser(cast(Any, io.StringIO()), cast(Any, io.StringIO()))
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(commands.choices)


# serve runs until stopped: tests/test_web_cli.py fuzzes its arguments with the server left out.
COMMANDS = {name: parser for name, parser in _commands().items() if name != "serve"}
# The costly commands (generate writes megabytes, perft and moves walk the games) come up less.
WEIGHTED = sorted(name for name in COMMANDS for _ in range(1 if name in ("generate", "perft") else 3))

GAMES = list(games.names())
FEENS = [*(games.start(name) for name in GAMES), *notation_seeds("FEEN"),
    "9999999 / C/c", "99999999999999999999 / C/c", "8/8/8/8/8/8/8/8 / C/c", "k^7/8/8/8/8/8/8/K^7 / C/c",
    "K^k^6 / C/c", "9/9/9/9/9/9/9/9/9 /p s/S", "",
]
STNS = ['{"toggle": true}', '{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}', "[]", "{}",
        '{"board_diff": {"z99": "C:P"}}', '{"first_player_hand_diff": {"c:p": -5}}', "1e999", "{"]
NUMBERS = ["0", "1", "2", "-1", "x", "", "1.5", "\u0663", "65", "99999999999999999999", "1" * 5000]
KINDS = tuple(DOCUMENTS)
FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "8/8/8/8/8/8/8/8 x - - 0 1", "4k3 w", "", "9999999 w - - 0 1"]
MOVES = ["e2e4", "C:P e2-e4", "P@e4", "e7e8q", "e2e9", "", "C:P e2-e4=C:Q", "a0a1", "x" * 300]


def _choices(action: argparse.Action) -> list[str]:
    return [str(choice) for choice in action.choices or ()]


def value_for(draw: st.DrawFn, action: argparse.Action, files: dict[str, str]) -> str:
    """A value for an argument: one of its choices or junk, else by what the argument is."""
    paths = st.sampled_from(sorted(files.values()))
    dest = action.dest
    if action.choices:
        return draw(st.one_of(st.sampled_from(_choices(action)), st.sampled_from(["", "nope", "CHESS"])))
    if dest == "text":
        notation = draw(st.sampled_from(["CELL", "HAND", "SIN", "PIN", "EPIN", "QPI", "GAN", "FEEN"]))
        return draw(st.one_of(st.sampled_from(notation_seeds(notation)), mutated(notation)))
    if dest in ("feen", "board", "before", "after"):
        return draw(st.one_of(st.sampled_from(FEENS), mutated("FEEN").filter(lambda text: len(text) < 300)))
    if dest == "depth":
        return draw(st.sampled_from(["0", "1", "2", "-1", "x", "65", "99999999999999999999", "\u0662"]))
    if dest in ("indent", "max_errors"):
        return draw(st.sampled_from([*NUMBERS, "16", "17", "100000000"]))
    if dest == "rules":
        return draw(st.one_of(st.sampled_from([*GAMES, "go"]), paths))
    if dest == "game":
        return draw(st.sampled_from([*GAMES, "go", ""]))
    if dest == "fen":
        return draw(st.sampled_from(FENS))
    if dest == "moves":
        return draw(st.sampled_from(MOVES))
    if dest == "stn":
        return draw(st.one_of(st.sampled_from(STNS), paths))
    if dest == "mapping":
        return draw(st.one_of(st.sampled_from([*GAMES, "go", ""]), paths))
    return draw(paths)  # file, effects and any argument added later: a path


@st.composite
def command_lines(draw: st.DrawFn, files: dict[str, str]) -> list[str]:
    name = draw(st.sampled_from(WEIGHTED))
    command = COMMANDS[name]
    argv = [name]
    options = [a for a in command._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]
    chosen = draw(st.lists(st.sampled_from(options), unique_by=id, max_size=len(options))) if options else []
    for action in chosen:
        flag = draw(st.sampled_from(action.option_strings))
        if action.nargs == 0:
            argv.append(flag)
        else:
            argv += [flag, value_for(draw, action, files)]
    for action in (a for a in command._actions if not a.option_strings):
        if action.nargs == "?" and not draw(st.booleans()):
            break
        if draw(st.integers(0, 19)) == 0:
            break  # a missing argument
        argv.append(value_for(draw, action, files))
    if draw(st.integers(0, 9)) == 0:  # something the command does not take
        junk = draw(st.sampled_from(["--nope", "-x", "--", "extra", "--format=xml", "-h", "--help", "-"]))
        argv.insert(draw(st.integers(0, len(argv))), junk)
    return argv


def _write_files(folder: Path, draw: Callable[[st.SearchStrategy[Any]], Any]) -> dict[str, str]:
    kind = draw(st.sampled_from(KINDS))
    seeds = st.sampled_from(document_seeds(kind))
    contents = draw(st.one_of(seeds, edited_bytes(kind), st.binary(max_size=40)))
    (folder / "doc.json").write_bytes(contents)
    mapping = draw(st.one_of(st.sampled_from([b'{"GAME:X": "G:X"}', b"{}", b"[]", b'{"GAME:X": 1}']),
                             st.binary(max_size=10)))
    (folder / "mapping.json").write_bytes(mapping)
    (folder / "old.json").write_text('{"kept": true}\n', encoding="utf-8")
    (folder / "dir").mkdir()
    named = {"doc": "doc.json", "mapping": "mapping.json", "old": "old.json", "new": "new.json", "dir": "dir",
             "missing": "no/such.json"}
    odd = {"stdin": "-", "empty": "", "nul": "a\x00b"}
    return {key: str(folder / name) for key, name in named.items()} | odd


@settings(max_examples=examples(200))
@given(data=st.data())
def test_any_command_line_exits_0_1_or_2_without_a_traceback(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        files = _write_files(folder, data.draw)
        argv = data.draw(command_lines(files), label="argv")
        inputs = st.one_of(st.none(), st.binary(max_size=20), st.sampled_from(document_seeds("ggn")))
        stdin = data.draw(inputs, label="stdin")
        writable = data.draw(st.integers(0, 7)) != 0
        before = (folder / "doc.json").read_bytes()
        status, _, _ = check_cli(argv, stdin, writable=writable)
        assert_input_kept(argv, files["doc"], before, status)


def assert_input_kept(argv: list[str], doc: str, before: bytes, status: int) -> None:
    """An output (``--effects``) that names a file the command reads (the document or the
    mapping) is refused, and that file left as it was."""
    if "--effects" not in argv or "-h" in argv or "--help" in argv:  # help runs nothing: exit 0
        return
    at = argv.index("--effects") + 1
    if argv[at] == doc and doc in argv[:at - 1] + argv[at + 1:]:
        assert Path(doc).read_bytes() == before, f"ggn {argv} wrote over its input"
        assert status != 0, f"ggn {argv} exit 0"


def test_an_effects_file_that_is_no_input_may_be_written() -> None:
    # The property above once held whenever --effects named doc.json, read or not: 'convert -
    # --mapping chess --effects doc.json' with '{}' on standard input writes doc.json and exits
    # 0, as it should, and was taken for a command writing over its input.
    with tempfile.TemporaryDirectory() as name:
        doc = Path(name) / "doc.json"
        doc.write_bytes(b"[]")
        argv = ["convert", "-", "--mapping", "chess", "--effects", str(doc)]
        status, _, _ = check_cli(argv, b"{}")
        assert status == 0 and doc.read_bytes() != b"[]"
        assert_input_kept(argv, str(doc), b"[]", status)
        doc.write_bytes(b"{}")
        for read in (["convert", str(doc)], ["convert", "-", "--mapping", str(doc)]):
            argv = [*read, "--effects", str(doc)]
            status, _, _ = check_cli(argv, b"{}")
            assert_input_kept(argv, str(doc), b"{}", status)


@pytest.mark.parametrize(("argv", "status"), [
    ([], 2), (["--help"], 0), (["--version"], 0), (["nope"], 2), (["parse"], 2), (["parse", "qpi", "-p"], 1),
    (["moves"], 0), (["demo"], 0), (["schema", "ggn"], 0), (["perft", "chess", "1"], 0),
    (["generate", "makruk", "--indent", "0"], 0),
])
def test_fixed_command_lines_exit_with_their_status_without_a_traceback(argv: list[str], status: int) -> None:
    # A fixed command line has one status (check_cli takes any of 0, 1 and 2); a command that
    # prints exits with 2 when its output cannot be written.
    for stdin in (b"", None):
        assert check_cli(argv, stdin)[0] == status, argv
        assert check_cli(argv, stdin, writable=False)[0] == (2 if status == 0 else status), argv
