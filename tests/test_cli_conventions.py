"""The conventions every command of ``ggn`` keeps (issue 10, section 4): ``--version``;
``--format text|json`` everywhere, JSON alone on stdout; built-in game names wherever a document
is read, names before files; a FEEN that starts with '-' as an argument or with ``--feen``;
``lint --board`` as a game, a shape or a FEEN; shell completion; examples in every command's
help. In-process through ``run``, and as real processes where the shell or the process matters."""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest

import ggn
import ggn.cli
from ggn import Ruleset, lint
from ggn.cli import run
from ggn.games import document
from ggn.rules import native_available

CHESS_START = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ROOK = {"C:R": {"a1": {"a4": [{"must": {"a2": "empty", "a3": "empty", "a4": "empty"}}]}}}
# Squares on and off the boards of several shapes: e9 is on 9x10 and off 8x8; j1 off both.
WIDE = {"C:R": {"a1": {"e9": [{"must": {"e9": "empty"}}], "j1": [{"must": {"j1": "empty"}}]}}}
DASHED = "-p^7/8/8/8/8/8/8/K^7 / C/c"  # a diminished piece on the first square
KING = {"C:K^": {"a1": {"a2": [{"must": {"a2": "empty"}}], "b1": [{"must": {"b1": "empty"}}]}}}
TINY_INI = ("[tinyhouse:crazyhouse]\nmaxRank = 6\n"
            "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n")
LEGACY = {"CHESS:PAWN": {"e2": {"e4": [{
    "board_check": {"e3": "empty", "e4": "empty"},
    "board_patch": {"e2": None, "e4": "CHESS:-PAWN"},
}]}}}

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))  # a UCI engine of the tests: e2e4


def call(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = ggn.cli._build_parser(io.StringIO(), io.StringIO())
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(commands.choices)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    written = {"rook": ROOK, "king": KING, "wide": WIDE, "legacy": LEGACY}
    paths = {}
    for name, value in written.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(value))
        paths[name] = str(path)
    (tmp_path / "tiny.ini").write_text(TINY_INI)
    paths["ini"] = str(tmp_path / "tiny.ini")
    (tmp_path / "game.pgn").write_text('[White "Tal"]\n1. e4 e5 2. Nf3 Nc6 1-0\n')
    paths["pgn"] = str(tmp_path / "game.pgn")
    return paths


# --- --version --------------------------------------------------------------------------------
def test_version_is_the_package_version_written_once() -> None:
    status, out, err = call("--version")
    assert (status, out.splitlines()[0], err) == (0, f"ggn {ggn.__version__}", "")
    assert importlib.metadata.version("ggn") == ggn.__version__  # the built package says the same
    result = subprocess.run([sys.executable, "-m", "ggn", "--version"], capture_output=True, text=True,
                            check=True, timeout=120)
    assert result.stdout == out


def test_version_says_which_engine_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    # The second line: the C kernel where it is built and on, else pure Python and why.
    kernel = "engine: the C kernel (ggn._native) for the games it plays, pure Python for the others"
    pure = {
        "GGN_PURE": "engine: pure Python (GGN_PURE is set: the C kernel is not used)",
        "unbuilt": "engine: pure Python (the C kernel is not built here)",
    }
    monkeypatch.delenv("GGN_PURE", raising=False)
    line = call("--version")[1].splitlines()[1]
    assert line.startswith(kernel) if native_available() else line == pure["unbuilt"]
    monkeypatch.setenv("GGN_PURE", "1")
    assert call("--version")[1].splitlines() == [f"ggn {ggn.__version__}", pure["GGN_PURE"]]


# --- --format text|json on every command --------------------------------------------------------
def test_every_command_takes_format_text_or_json_text_by_default() -> None:
    for name, parser in subparsers().items():
        found = [a for a in parser._actions if "--format" in a.option_strings]
        assert found, f"ggn {name} has no --format (every command takes text|json)"
        action = found[0]
        choices = list(action.choices or ())
        assert choices[:2] == ["text", "json"] and action.default == "text", name  # show: svg, png too


def json_runs(paths: dict[str, str]) -> dict[str, list[str]]:
    """A command line of each command that succeeds, given --format json."""
    return {
        "parse": ["parse", "pin", "-p"],
        "schema": ["schema", "stn"],
        "validate": ["validate", "chess"],
        "lint": ["lint", paths["wide"], "--board", "8x8"],
        "generate": ["generate", "makruk", "--indent", "0"],
        "convert": ["convert", paths["legacy"], "--mapping", "chess"],
        "demo": ["demo"],
        "moves": ["moves", paths["king"], DASHED],
        "apply": ["apply", DASHED, '{"toggle": true}'],
        "diff": ["diff", DASHED, CHESS_START],
        "variants": ["variants"],
        "legal": ["legal", "chess", "--fen", KIWIPETE, "--notation", "uci"],
        "perft": ["perft", "chess", "2", "--fen", KIWIPETE, "--divide", "--notation", "uci"],
        "play": ["play", "chess", "f2f3", "e7e5", "g2g4", "d8h4", "--notation", "uci"],
        "position": ["position", "chess", "--fen", KIWIPETE, "--to", "feen"],
        "replay": ["replay", paths["pgn"]],
        "record": ["record", "convert", paths["pgn"], "--to", "pgn"],
        "completion": ["completion", "bash"],
        "show": ["show", "shogi", "--moves-from", "c3"],
        "analyse": ["analyse", "chess", "--engine", FAKE_ENGINE, "--depth", "1"],
        "playout": ["playout", "chess", "--games", "3", "--seed", "5", "--max-plies", "10"],
    }


_NOT_RUN = {"serve"}  # it serves until stopped: its JSON line is tested on its own


@pytest.mark.parametrize("command", sorted(json_runs({"wide": "", "legacy": "", "king": "", "pgn": ""})))
def test_json_is_one_value_alone_on_stdout(command: str, files: dict[str, str]) -> None:
    argv = json_runs(files)[command]
    status, out, err = call(*argv, "--format", "json")
    assert status == 0, err
    value = json.loads(out)  # the whole of standard output is one JSON value
    assert out.endswith("\n") and "Traceback" not in err
    text_status, text, _ = call(*argv)
    assert text_status == 0
    if command in ("parse", "schema", "generate", "convert", "diff"):  # JSON either way
        assert json.loads(text) == value
    if command == "show":
        assert value["destinations"] == ["c4"] and value["svg"].startswith("<svg")
        assert value["game"] == "shogi" and value["moves_from"] == "c3"


def test_every_command_has_a_json_run() -> None:
    assert sorted(json_runs({"wide": "", "legacy": "", "king": "", "pgn": ""})) == sorted(
        set(subparsers()) - _NOT_RUN)


def test_serve_writes_its_url_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from ggn import web  # noqa: PLC0415

    def serve(initial: dict[str, Any], host: str, port: int, *, ready: Any, **_: Any) -> None:
        assert initial == {"game": "shogi", "position": None}
        ready(f"http://{host}:{port}/")

    monkeypatch.setattr(web, "serve", serve)
    assert call("serve", "shogi", "--port", "8123", "--format", "json") == (
        0, '{"url": "http://127.0.0.1:8123/"}\n', "")
    assert call("serve", "shogi", "--port", "8123")[1] == (
        "ggn explorer: http://127.0.0.1:8123/ (Ctrl-C stops it)\n")


def test_perft_json_matches_python_chess_divide() -> None:
    status, out, _ = call("perft", "chess", "2", "--fen", KIWIPETE, "--divide", "--notation", "uci",
                          "--format", "json")
    result = json.loads(out)
    board = chess.Board(KIWIPETE)
    expected = {}
    for move in list(board.legal_moves):
        board.push(move)
        expected[move.uci()] = board.legal_moves.count()
        board.pop()
    assert status == 0
    assert result["divide"] == expected
    assert result["nodes"] == sum(expected.values()) == 2039
    assert (result["game"], result["depth"]) == ("chess", 2)
    assert result["position"] == call("position", "chess", "--fen", KIWIPETE, "--to", "feen")[1].strip()
    # Without --divide: the count alone; at depth 0 and 1 too.
    for depth, nodes in (("0", 1), ("1", 48), ("3", 97862)):
        result = json.loads(call("perft", "chess", depth, "--fen", KIWIPETE, "--format", "json")[1])
        assert result["nodes"] == nodes and "divide" not in result
    text = call("perft", "chess", "2", "--fen", KIWIPETE, "--divide", "--notation", "uci")[1]
    assert text.splitlines()[-1] == "total: 2039"


def test_play_and_position_json() -> None:
    _, out, _ = call("play", "chess", "f2f3", "e7e5", "g2g4", "d8h4", "--format", "json")
    board = chess.Board()
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        board.push_uci(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is chess.BLACK
    assert json.loads(out) == {
        "game": "chess", "fen": board.fen(),
        "feen": "+rnb1+k^bn+r/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/+RNBQ+K^BN+R / C/c",
        "moves": ["f3", "e5", "g4", "Qh4#"], "outcome": {"result": outcome.result(), "reason": "checkmate"},
        "claim": None,
    }
    _, out, _ = call("play", "chess", "e2e4", "--notation", "uci", "--format", "json")
    assert json.loads(out)["outcome"] is None and json.loads(out)["moves"] == ["e2e4"]
    _, out, _ = call("position", "chess", "--fen", KIWIPETE, "--to", "fen", "--format", "json")
    assert json.loads(out) == {"game": "chess", "position": KIWIPETE, "to": "fen"}


def test_apply_and_demo_json() -> None:
    _, out, _ = call("apply", CHESS_START, '{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}',
                     "--format", "json")
    assert json.loads(out) == {"feen": "+rnbq+k^bn+r/pppppppp/8/8/4P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C"}
    demo = json.loads(call("demo", "--format", "json")[1])
    rules = Ruleset.from_value(demo["document"])
    assert [piece["qpi"] for piece in demo["pieces"]] == [str(piece) for piece in rules.pieces]
    assert demo["warnings"] == [{"path": w.path, "message": w.message, "rule": w.rule}
                                for w in lint(rules, (8, 8))]
    assert demo["broken"]["errors"] and all(e["path"] for e in demo["broken"]["errors"])


# --- built-in game names wherever a document is read -------------------------------------------
@pytest.mark.parametrize("game", ["chess", "minixiangqi"])
def test_validate_and_lint_take_a_game_name(game: str) -> None:
    assert call("validate", game) == (0, f"{game}: valid GGN document\n", "")
    status, out, _ = call("lint", game, "--format", "json")
    rules = Ruleset.from_value(document(game))
    shape = ggn.variants.registry.entry(game).shape
    expected = [{"path": w.path, "message": w.message, "rule": w.rule} for w in lint(rules, shape)]
    assert (status, json.loads(out)["warnings"]) == (0, expected)  # on the game's own board


def test_names_come_before_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("chess").write_text("{not json")
    assert call("validate", "chess")[0] == 0  # the game
    status, _, err = call("validate", "./chess")  # the file
    assert status == 1 and err.startswith("./chess: invalid GGN document")
    assert call("lint", "./chess")[0] == 1 and call("lint", "chess")[0] == 0
    assert call("moves", "./chess", CHESS_START)[0] == 1 and call("moves", "chess")[0] == 0
    assert call("show", "./chess", CHESS_START)[0] == 1 and call("show", "chess")[0] == 0
    for command in ("validate", "lint", "moves", "show", "serve"):
        _, text, _ = call(command, "--help")
        assert "names come before files" in " ".join(text.split()), command


def test_a_name_is_a_game_only_for_a_ggn_document(tmp_path: Path) -> None:
    status, _, err = call("validate", "--as", "stn", "chess")
    assert (status, err) == (2, "ggn validate: cannot read chess: No such file or directory\n")
    status, _, err = call("validate", "chesss")
    assert status == 2 and "'chesss' is neither a built-in game" in err
    status, _, err = call("lint", str(tmp_path / "none.json"))
    assert status == 2 and "cannot read" in err


def test_ini_variants_are_names_too(files: dict[str, str]) -> None:
    assert call("validate", "tinyhouse", "--ini", files["ini"]) == (0, "tinyhouse: valid GGN document\n", "")
    status, out, _ = call("lint", "tinyhouse", "--ini", files["ini"], "--format", "json")
    assert status == 0 and json.loads(out)["valid"] is True
    status, _, err = call("validate", "tinyhouse")
    assert status == 2 and "neither a built-in game" in err
    status, _, err = call("validate", "-", "--ini", "-", stdin=b"")
    assert status == 2 and "standard input is read once" in err


# --- a FEEN that starts with '-' --------------------------------------------------------------
def test_a_feen_starting_with_a_dash_is_an_argument(files: dict[str, str]) -> None:
    expected = "C:K^ a1-a2\nC:K^ a1-b1\n"
    assert call("moves", files["king"], DASHED) == (0, expected, "")
    assert call("moves", files["king"], "--", DASHED) == (0, expected, "")
    assert call("moves", files["king"], f"--feen={DASHED}") == (0, expected, "")
    assert call("moves", files["king"], "--feen", DASHED) == (0, expected, "")
    status, _, err = call("moves", files["king"], DASHED, "--feen", DASHED)
    assert status == 2 and "not both" in err
    assert call("apply", DASHED, '{"toggle": true}') == (0, "-p^7/8/8/8/8/8/8/K^7 / c/C\n", "")
    assert call("diff", DASHED, DASHED)[0] == 0
    # -h... once read as -h (help) with an argument: a usage error.
    assert call("apply", "-h7/8/8/8/8/8/8/8 / C/c", '{"toggle": true}') == (
        0, "-h7/8/8/8/8/8/8/8 / c/C\n", "")
    assert call("lint", files["king"], "--board", "-h7/8/8/8/8/8/8/8 / C/c")[0] == 0
    assert call("parse", "feen", "-h7/8 / C/c", "--format", "json")[0] == 0
    assert json.loads(call("parse", "--format", "json", "pin", "-p")[1])["state"] == "diminished"


def test_a_feen_starting_with_a_dash_for_a_game() -> None:
    shogi = "-p^8/9/9/9/9/9/9/9/4K^4 / S/s"
    listed = call("legal", "shogi", shogi)
    assert listed[0] == 0 and listed[1]
    assert call("legal", "shogi", "--feen", shogi) == listed
    assert call("legal", "shogi", "--", shogi) == listed
    assert call("play", "shogi", shogi, "S:K^ e1-e2")[0] == 0
    assert call("play", "shogi", "--feen", shogi, "S:K^ e1-e2") == call("play", "shogi", shogi, "S:K^ e1-e2")
    status, _, err = call("play", "shogi", shogi, "--feen", shogi)
    assert status == 2 and "not both" in err


def test_options_are_still_options() -> None:
    status, _, err = call("moves", "--nope")
    assert status == 2 and "unrecognized arguments: --nope" in err
    assert call("legal", "chess", "--format=json")[0] == 0
    assert call("perft", "chess", "1", "--fen=" + KIWIPETE) == (0, "48\n", "")


def test_help_says_how_to_give_a_feen_that_starts_with_a_dash() -> None:
    for command in ("moves", "legal", "play", "apply", "diff", "show", "serve"):
        _, text, _ = call(command, "--help")
        flat = " ".join(text.split())
        assert "starts with '-'" in flat and "--" in flat, command
    _, text, _ = call("--help")
    assert "--feen='-p^7/...'" in text


def test_a_dashed_feen_through_a_real_process(files: dict[str, str]) -> None:
    result = subprocess.run([sys.executable, "-m", "ggn", "moves", files["king"], DASHED],
                            capture_output=True, text=True, check=False, timeout=120)
    assert (result.returncode, result.stdout, result.stderr) == (0, "C:K^ a1-a2\nC:K^ a1-b1\n", "")


# --- lint --board: a game, a shape or a FEEN ---------------------------------------------------
@pytest.mark.parametrize(("board", "shape"), [
    ("8x8", (8, 8)), ("9x10", (9, 10)), ("8x8x8", (8, 8, 8)), ("8", (8,)), ("xiangqi", (9, 10)),
    ("chess", (8, 8)), ("8/8/8/8/8/8/8/8 / C/c", (8, 8)), ("9/9/9/9/9/9/9/9/9/9 / X/x", (9, 10)),
])
def test_lint_board_takes_a_game_a_shape_or_a_feen(board: str, shape: tuple[int, ...],
                                                    files: dict[str, str]) -> None:
    status, out, _ = call("lint", files["wide"], "--board", board, "--format", "json")
    expected = [{"path": w.path, "message": w.message, "rule": w.rule}
                for w in lint(Ruleset.from_value(WIDE), shape)]
    assert (status, json.loads(out)["warnings"]) == (0, expected)


def test_lint_board_flags_what_is_off_that_board(files: dict[str, str]) -> None:
    def off(board: str) -> list[str]:
        _, out, _ = call("lint", files["wide"], "--board", board, "--format", "json")
        return sorted({w["message"] for w in json.loads(out)["warnings"] if w["rule"] == "off-board"})

    assert off("8x8") == ["e9 is not a square of the 8x8 board", "j1 is not a square of the 8x8 board"]
    assert off("9x10") == ["j1 is not a square of the 9x10 board"]
    assert off("10x10") == []
    assert call("lint", "xiangqi", "--board", "8x8")[0] == 0  # a game linted on another board


@pytest.mark.parametrize(("board", "message"), [
    ("0x8", "'0x8' has a size of 0"),
    ("8x", "'8x' is no game's name, no shape"),
    ("8x8x8x8", "is no game's name, no shape"),
    ("nosuchgame", "is no game's name, no shape"),
    ("8/8 C/c", "--board: invalid FEEN"),
])
def test_lint_board_that_is_none_of_these_is_invalid_input(board: str, message: str,
                                                           files: dict[str, str]) -> None:
    status, out, err = call("lint", files["rook"], "--board", board)
    assert (status, out) == (1, "")
    assert err.startswith("ggn lint: --board: ") and message in err


# --- shell completion --------------------------------------------------------------------------
def test_bash_completion_is_valid_and_completes(tmp_path: Path) -> None:
    status, script, _ = call("completion", "bash")
    assert status == 0
    for name in subparsers():
        assert name in script
    path = tmp_path / "ggn.bash"
    path.write_text(script)
    subprocess.run(["bash", "-n", str(path)], check=True, timeout=60)
    driver = (f"source {shlex.quote(str(path))}\n"
              "complete_words() {\n"
              '  COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n'
              '  COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _shtab_ggn\n'
              '  echo "${COMPREPLY[*]}"\n'
              "}\n"
              "complete_words ggn per\n"
              "complete_words ggn perft xiang\n"
              "complete_words ggn legal chess --nota\n"
              'complete_words ggn legal chess --notation ""\n'
              f"complete_words ggn validate {shlex.quote(str(tmp_path / 'ggn.b'))}\n")
    result = subprocess.run(["bash", "-c", driver], capture_output=True, text=True, check=True, timeout=60)
    notations = ("san lan uci usi ggn shogi-hosking shogi-hodges shogi-hodges-number janggi wxf thai-san "
                 "thai-lan")
    assert result.stdout.splitlines() == ["perft", "xiangqi", "--notation", notations, str(path)]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completion_is_valid_and_loads(tmp_path: Path) -> None:
    status, script, _ = call("completion", "zsh")
    assert status == 0 and script.startswith("#compdef ggn")
    for name in subparsers():
        assert name in script
    path = tmp_path / "_ggn"
    path.write_text(script)
    subprocess.run(["zsh", "-n", str(path)], check=True, timeout=60)
    check = (f"fpath=({shlex.quote(str(tmp_path))} $fpath); autoload -Uz compinit; compinit -u -D; "
             "autoload -Uz _ggn; print -r -- ${_comps[ggn]}; _ggn_games() { :; }; whence -w _ggn")
    result = subprocess.run(["zsh", "-f", "-c", check], capture_output=True, text=True, check=True,
                            timeout=60, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.stdout.split() == ["_ggn", "_ggn:", "function"]


def test_completion_without_shtab_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "shtab", None)  # import shtab raises ImportError
    status, out, err = call("completion", "bash")
    assert (status, out) == (2, "")
    assert err == ("ggn completion: shell completion needs shtab, which the cli extra installs: "
                   "pip install 'ggn[cli]'\n")


# --- help that teaches ---------------------------------------------------------------------------
def _examples(command: str) -> list[str]:
    _, text, _ = call(command, "--help")
    assert "examples:\n" in text or "example:\n" in text, f"ggn {command} --help has no examples"
    block = text.split("example", 1)[1].split("\n", 1)[1]
    return [line.strip() for line in block.splitlines() if line.startswith("  ggn ")]


_NEEDS_A_FILE = (".json", ".ini", "...", "|", "<", ">", "@", "FEEN", "rules", "old", "./", ".pgn", ".kif",
                 ".csa")


@pytest.mark.parametrize("command", sorted(subparsers()))
def test_every_command_has_examples_and_those_that_need_no_file_run(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # what an example writes (show -o FILE) is written there
    examples = _examples(command)
    assert examples and all(line.startswith(f"ggn {command}") for line in examples), command
    if command in _NOT_RUN:
        return
    for example in examples:
        words = example.split("  #")[0]
        if any(part in words for part in _NEEDS_A_FILE):
            continue
        argv: list[Any] = shlex.split(words)[1:]
        status, _, err = call(*argv)
        assert status == 0, f"{example}: {err}"
