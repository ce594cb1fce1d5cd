"""The ``ggn`` command as an attacker uses it (issue 8): every input, argument and stream fault
ends in the exit contract (0 ok, 1 invalid input, 2 usage, unreadable input or unwritable
output) with one clean message, never a traceback. In-process through ``run`` unless a real
process is what is tested (a closed or full standard output, a reader that leaves)."""

from __future__ import annotations

import argparse
import errno
import io
import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

import ggn.cli
import ggn.cli._output
from ggn.cli import run
from ggn.errors import GGNError

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))  # a UCI engine of the tests: e2e4
CHESS_START = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
E2E4 = '{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}'
LEGACY = {"CHESS:PAWN": {"e2": {"e4": [{
    "board_check": {"e3": "empty", "e4": "empty"},
    "board_patch": {"e2": None, "e4": "CHESS:-PAWN"},
}]}}}


def call(*argv: str, stdin: IO[bytes] | bytes | None = None, stdout: Any = None) -> tuple[int, str, str]:
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO()
    stream = io.BytesIO(stdin) if isinstance(stdin, bytes) else stdin
    status = run(list(argv), out, err, stream)
    return status, out.getvalue() if isinstance(out, io.StringIO) and not out.closed else "", err.getvalue()


def clean(err: str) -> bool:
    return "Traceback" not in err and err.endswith("\n") and err.strip() != ""


# --- row 4: the game's board shape, checked before any board is built ---------------------------
@pytest.mark.timeout(60)
@pytest.mark.usefixtures("no_board_built")
def test_row4_moves_and_perft_check_the_shape_before_building_the_board() -> None:
    # Four million squares: 33 s and 1.5 GB to build before.
    status, out, err = call("moves", "chess", "4194304 / C/c")
    assert (status, out) == (1, "")
    assert err == "ggn moves: chess is played on a board of 8x8 squares, not one of shape (4194304,)\n"
    status, out, err = call("perft", "chess", "1", "--feen", "K^k^4194302 / C/c")
    assert (status, out) == (1, "")
    assert err == "ggn perft: chess is played on a board of 8x8 squares, not one of shape (4194304,)\n"
    status, _, err = call("moves", "shogi", CHESS_START)
    assert status == 1 and "shogi is played on a board of 9x9 squares, not one of shape (8, 8)" in err


# --- row 8: output files written whole, never over an input ----------------------------------
def _legacy(tmp_path: Path) -> Path:
    legacy = tmp_path / "old.json"
    legacy.write_text(json.dumps(LEGACY))
    return legacy


def test_row8_a_full_disk_leaves_the_old_effects_file_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    legacy = _legacy(tmp_path)
    effects = tmp_path / "effects.json"
    effects.write_text('{"old": true}\n')

    def full_disk(fd: int, data: bytes) -> None:
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(ggn.cli._output, "write_all", full_disk)
    status, out, err = call("convert", str(legacy), "--mapping", "chess", "--effects", str(effects))
    assert (status, out) == (2, "")
    assert err == f"ggn convert: cannot write --effects {effects}: No space left on device\n"
    assert effects.read_text() == '{"old": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["effects.json", "old.json"]  # no temporary left


def test_row8_the_effects_file_is_replaced_whole_keeping_its_permissions(tmp_path: Path) -> None:
    legacy = _legacy(tmp_path)
    effects = tmp_path / "effects.json"
    effects.write_text("old")
    effects.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(effects)
    status, _, err = call("convert", str(legacy), "--mapping", "chess", "--effects", str(link))
    assert status == 0 and f"effects written to {link}" in err
    assert link.is_symlink()  # the file the link names is replaced, not the link
    assert json.loads(effects.read_text())["C:P"]["e2"]["e4"][0]["toggle"] is True
    assert effects.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["effects.json", "link.json", "old.json"]


def test_row8_the_effects_file_never_overwrites_an_input(tmp_path: Path) -> None:
    legacy = _legacy(tmp_path)
    before = legacy.read_bytes()
    (tmp_path / "sub").mkdir()
    mapping = tmp_path / "pieces.json"
    mapping.write_text(json.dumps({"CHESS:PAWN": "C:P", "CHESS:-PAWN": "C:-P"}))
    link = tmp_path / "alias.json"
    link.symlink_to(legacy)
    for effects in (str(legacy), str(tmp_path / "sub" / ".." / "old.json"), str(link)):
        status, out, err = call("convert", str(legacy), "--mapping", "chess", "--effects", effects)
        assert (status, out) == (2, "")
        assert err == f"ggn convert: --effects {effects!r} is an input file: it would be overwritten\n"
    status, _, err = call("convert", str(legacy), "--mapping", str(mapping), "--effects", str(mapping))
    assert status == 2 and "is an input file" in err
    # Standard input redirected from the file (ggn convert - --effects old.json < old.json).
    with legacy.open("rb") as redirected:
        status, _, err = call("convert", "-", "--mapping", "chess", "--effects", str(legacy),
                              stdin=redirected)
    assert status == 2 and "is an input file" in err
    assert legacy.read_bytes() == before and json.loads(mapping.read_text())["CHESS:PAWN"] == "C:P"


def test_row8_a_built_in_mapping_is_no_input_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # --mapping chess names the built-in mapping: an --effects file called chess overwrites nothing.
    legacy = _legacy(tmp_path)
    monkeypatch.chdir(tmp_path)
    status, _, err = call("convert", str(legacy), "--mapping", "chess", "--effects", "chess")
    assert (status, err) == (0, "ggn convert: effects written to chess\n")
    assert json.loads(Path("chess").read_text())["C:P"]["e2"]["e4"][0]["toggle"] is True


def test_row8_effects_that_name_no_file_are_refused_before_any_work(tmp_path: Path) -> None:
    legacy = _legacy(tmp_path)
    status, _, err = call("convert", str(legacy), "--mapping", "chess", "--effects", "-")
    assert status == 2 and "--effects takes a file name: standard output holds the GGN document" in err
    status, _, err = call("convert", str(legacy), "--mapping", "chess", "--effects", str(tmp_path))
    assert (status, err) == (2, f"ggn convert: cannot write --effects {tmp_path}: it is a directory\n")
    for name in ("", "a\x00b"):  # names no file can have (ValueError, not OSError, from the system)
        status, _, err = call("convert", str(legacy), "--mapping", "chess", "--effects", name)
        assert (status, err) == (2, f"ggn convert: --effects: {name!r} is not a file name\n")
        assert call("validate", name) == (2, "", f"ggn validate: {name!r} is not a file name\n")
        assert call("apply", CHESS_START, "@" + name)[::2] == (2, f"ggn apply: {name!r} is not a file name\n")


# --- row 9: standard input that cannot be read -------------------------------------------------
def test_row9_closed_or_missing_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    closed = io.BytesIO(b"{}")
    closed.close()
    assert call("validate", "-", stdin=closed) == (
        2, "", "ggn validate: cannot read standard input: it is closed\n")
    monkeypatch.setattr(sys, "stdin", None)  # what a process started with <&- sees
    assert call("validate", "-") == (2, "", "ggn validate: cannot read standard input: it is closed\n")
    assert call("apply", CHESS_START, "-")[0] == 2
    assert call("convert", "-")[0] == 2
    assert call("moves", "-", CHESS_START)[0] == 2


def test_row9_standard_input_that_fails_to_read() -> None:
    class Unreadable(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))

    status, out, err = call("validate", "--as", "stn", "-", stdin=Unreadable())  # type: ignore[arg-type]
    assert (status, out) == (2, "")
    assert "cannot read" in err and "Is a directory" in err and clean(err)


def test_standard_input_is_read_once(tmp_path: Path) -> None:
    status, _, err = call("convert", "-", "--mapping", "-", stdin=b"{}")
    assert status == 2 and "standard input is read once" in err


# --- row 10: standard output that cannot be written, for every command, in one place ------------
class _Failing(io.StringIO):
    """A stream whose writes (or only its flush, as a full disk's buffered stream) fail."""

    def __init__(self, error: OSError, *, at_flush: bool = False) -> None:
        super().__init__()
        self.error = error
        self.at_flush = at_flush

    def write(self, text: str) -> int:
        if not self.at_flush:
            raise self.error
        return super().write(text)

    def flush(self) -> None:
        raise self.error


EVERY_COMMAND = [
    ("parse", "cell", "a1"),
    ("validate", "--as", "stn", "-"),
    ("lint", "-"),
    ("schema", "ggn"),
    ("demo",),
    ("moves",),
    ("apply", CHESS_START, E2E4),
    ("diff", CHESS_START, CHESS_START),
    ("generate", "makruk"),
    ("convert", "-", "--mapping", "chess"),
    ("perft", "chess", "1"),
    ("playout", "chess", "--games", "2", "--max-plies", "4"),
    ("variants",),
    ("legal", "chess"),
    ("play", "chess", "C:P e2-e4"),
    ("position", "chess", "--feen", CHESS_START, "--to", "feen"),
    ("replay", "-"),
    ("record", "convert", "-", "--to", "pgn"),
    ("serve", "chess", "--port", "0"),  # any free port; ends at its URL's write, before serving
    ("show", "chess"),
    ("analyse", "chess", "--engine", FAKE_ENGINE, "--depth", "1"),
    ("completion", "bash"),
    ("--help",),
]


def _label(argv: tuple[str, ...]) -> str:
    return "ggn" if argv[0] == "--help" else "ggn parse cell" if argv[0] == "parse" else f"ggn {argv[0]}"


def _input(argv: tuple[str, ...]) -> bytes:
    if argv[0] in ("replay", "record"):
        return b"1. e4 e5 2. Nf3 *\n"
    return json.dumps(LEGACY).encode() if argv[0] == "convert" else b"{}"


@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=lambda argv: argv[0])
@pytest.mark.parametrize("at_flush", [False, True], ids=["write", "flush"])
def test_row10_a_full_standard_output(argv: tuple[str, ...], at_flush: bool) -> None:
    full = _Failing(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), at_flush=at_flush)
    status, _, err = call(*argv, stdin=_input(argv), stdout=full)
    assert status == 2
    assert err.endswith(f"{_label(argv)}: cannot write to standard output: No space left on device\n")
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=lambda argv: argv[0])
def test_row10_a_closed_standard_output(argv: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    closed = io.StringIO()
    closed.close()
    status, _, err = call(*argv, stdin=_input(argv), stdout=closed)
    assert (status, err) == (2, f"{_label(argv)}: cannot write to standard output: it is closed\n")
    monkeypatch.setattr(sys, "stdout", None)  # what a process started with >&- sees
    err_stream = io.StringIO()
    assert run(list(argv), None, err_stream, io.BytesIO(_input(argv))) == 2
    assert err_stream.getvalue() == f"{_label(argv)}: cannot write to standard output: it is closed\n"


@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=lambda argv: argv[0])
def test_row10_a_reader_that_leaves_ends_the_command_quietly(argv: tuple[str, ...]) -> None:
    gone = _Failing(BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE)))
    assert call(*argv, stdin=_input(argv), stdout=gone)[::2] == (0, "")


def test_row10_a_failing_standard_error_is_no_failure_of_its_own() -> None:
    err = _Failing(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    assert run(["parse", "cell", "a0"], io.StringIO(), err) == 1
    assert run(["parse", "cell", "a1"], _Failing(OSError(errno.EIO, "I/O error")), err) == 2


_DEV_FULL = Path("/dev/full")


def _ggn(*argv: str, stdout: Any, stderr: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ggn", *argv], stdout=stdout, stderr=stderr,
                          text=True, check=False, timeout=120)


@pytest.mark.skipif(not _DEV_FULL.exists(), reason="needs /dev/full")
def test_row10_a_real_process_writing_to_a_full_device() -> None:
    with _DEV_FULL.open("w") as full:
        done = _ggn("schema", "ggn", stdout=full)
    assert done.returncode == 2
    assert done.stderr == "ggn schema: cannot write to standard output: No space left on device\n"
    with _DEV_FULL.open("w") as full:  # standard error full too: nothing to say, still 2
        assert _ggn("schema", "ggn", stdout=full, stderr=full).returncode == 2


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
def test_row10_a_real_process_with_standard_output_closed() -> None:
    done = subprocess.run(["sh", "-c", 'exec "$0" -m ggn parse cell a1 >&-', sys.executable],
                          capture_output=True, text=True, check=False, timeout=120)
    assert (done.returncode, done.stderr) == (2, "ggn parse cell: cannot write to standard output: "
                                                 "it is closed\n")
    done = subprocess.run(["sh", "-c", 'exec "$0" -m ggn validate - <&-', sys.executable],
                          capture_output=True, text=True, check=False, timeout=120)
    assert (done.returncode, done.stderr) == (2, "ggn validate: cannot read standard input: it is closed\n")


def test_row10_a_real_process_whose_reader_leaves() -> None:
    # Nine megabytes: far more than a pipe holds, so writes meet the closed pipe.
    with subprocess.Popen([sys.executable, "-m", "ggn", "generate", "chess", "--indent", "16"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read(1) == b"{"
        process.stdout.close()
        error = process.stderr.read()
        assert process.wait(timeout=120) == 0
    assert error == b""


# --- row 11: every library error of every command is exit 1 with its message ---------------------
def test_row11_position_errors_are_invalid_input() -> None:
    huge = "9999999 / C/c"
    assert call("moves", "chess", huge) == (
        1, "", "ggn moves: chess is played on a board of 8x8 squares, not one of shape (9999999,)\n")
    for argv in (("apply", huge, "{}"), ("diff", huge, huge)):
        status, out, err = call(*argv)
        assert (status, out) == (1, "")
        assert err.startswith(f"ggn {argv[0]}: a board of shape (9999999,) has ") and clean(err)
    status, _, err = call("diff", CHESS_START, huge)
    assert (status, err) == (1, "ggn diff: positions of different board shapes ((8, 8) and (9999999,)) have "
                                "no STN diff\n")
    status, _, err = call("apply", "8/8 P/ C/c", '{"first_player_hand_diff": {"C:P": -2}}')
    assert status == 1 and err.startswith("ggn apply: ") and clean(err)


def _command_names() -> list[str]:
    parser = ggn.cli._build_parser(io.StringIO(), io.StringIO())
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(commands.choices)


def test_row11_every_command_is_in_every_command() -> None:
    assert sorted(argv[0] for argv in EVERY_COMMAND if argv[0] != "--help") == _command_names()


@pytest.mark.parametrize("command", _command_names())
def test_row11_any_library_error_is_exit_1_and_anything_else_a_report(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = next(a for a in EVERY_COMMAND if a[0] == command)

    def fails(args: argparse.Namespace, *_: Any) -> int:
        assert args.command == command
        raise GGNError("what was wrong, and where")

    monkeypatch.setattr(ggn.cli, "_dispatch", fails)
    label = _label(argv)
    assert call(*argv) == (1, "", f"{label}: what was wrong, and where\n")

    def breaks(*_: Any) -> int:
        raise RuntimeError("a fault of ours")

    monkeypatch.setattr(ggn.cli, "_dispatch", breaks)
    assert call(*argv) == (2, "", f"{label}: internal error (RuntimeError: a fault of ours); please report "
                                  "it, with the command that caused it\n")


# --- row 13: perft's depth --------------------------------------------------------------------
def test_row13_a_deep_perft_is_refused_as_a_usage_error() -> None:
    status, out, err = call("perft", "chess", "1000", "--feen", "k^7/8/8/8/8/8/8/K^7 / C/c")
    assert (status, out) == (2, "")
    assert err.endswith("ggn perft: error: argument DEPTH: 1000 is out of range; expected a whole "
                        "number from 0 to 64\n")
    assert call("perft", "chess", "64", "--feen", "k^7/1Q6/1K^6/8/8/8/8/8 / c/C") == (0, "0\n", "")


# --- row 14: every numeric option in its range ----------------------------------------------------
@pytest.mark.parametrize(("argv", "low", "high"), [
    (("generate", "chess", "--indent"), 0, 16),
    (("convert", "-", "--indent"), 0, 16),
    (("validate", "-", "--max-errors"), 1, 100_000),
    (("lint", "-", "--max-errors"), 1, 100_000),
    (("perft", "chess"), 0, 64),
], ids=str)
def test_row14_numeric_options_are_checked_against_their_range(
        argv: tuple[str, ...], low: int, high: int) -> None:
    expected = f"expected a whole number from {low} to {high}"
    for value in (str(low - 1), str(high + 1), "100000000", "9" * 5000, "-" + "9" * 5000):
        status, out, err = call(*argv, value)
        assert (status, out) == (2, "")
        assert "is out of range; " + expected in err and clean(err)
        assert len(err) < 400  # a 5,000-digit number is not echoed whole
    # Written as every message writes a long number: its ends and its length.
    assert "99999999999...99999999999 (5,000 digits) is out of range" in call(*argv, "9" * 5000)[2]
    assert "'one' is not a whole number" in call(*argv, "one")[2]
    for value in ("1e3", "", "0x10", "\u0663", "1_0", " 1", "one"):
        status, _, err = call(*argv, value)
        assert status == 2 and "is not a whole number; " + expected in err, value
    status, _, err = call(*argv)  # the value left out
    assert status == 2 and clean(err)


def test_row14_a_numeric_option_in_range_still_works() -> None:
    status, out, _ = call("generate", "makruk", "--indent", "16")
    assert status == 0 and json.loads(out)
    assert call("generate", "makruk", "--indent", "+0")[1].count("\n") == 1


# --- row 15: every file and value option keeps the contract ---------------------------------------
def test_row15_file_options_unreadable_is_2_invalid_is_1(tmp_path: Path) -> None:
    legacy = _legacy(tmp_path)
    status, out, err = call("convert", str(legacy), "--mapping", str(tmp_path))
    assert (status, out) == (2, "")
    assert err == f"ggn convert: --mapping: cannot read {tmp_path}: Is a directory\n"
    assert call("convert", str(legacy), "--mapping", str(tmp_path / "none.json"))[0] == 2
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff{")
    status, _, err = call("convert", str(legacy), "--mapping", str(bad))
    assert status == 1 and "invalid mapping" in err and "not UTF-8" in err
    for argv in (("validate", str(tmp_path)), ("lint", str(tmp_path)), ("convert", str(tmp_path)),
                 ("moves", str(tmp_path), CHESS_START), ("apply", CHESS_START, str(tmp_path))):
        status, out, err = call(*argv)
        assert (status, out) == (2, "")
        assert err == f"ggn {argv[0]}: cannot read {tmp_path}: Is a directory\n"


def test_the_games_of_a_document_no_mapping_covers_are_named_in_a_bounded_message(tmp_path: Path) -> None:
    # Thousands of games, one with a long name: the message listed every one, whole.
    entry = {"e1": {"e2": [{"board_check": {"e2": "empty"}, "board_patch": {"e1": None}}]}}
    letters = itertools.product("ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeat=3)
    games = ["G" + "".join(three) for three in itertools.islice(letters, 3000)] + ["X" * 5000]
    legacy = tmp_path / "many.json"
    legacy.write_text(json.dumps({f"{game}:KING": entry for game in games}))
    status, out, err = call("convert", str(legacy))
    assert (status, out) == (2, "")
    assert err == ("ggn convert: no built-in mapping covers the document's games (gaaa, gaab, gaac, gaad, "
                   "gaae, gaaf, gaag, gaah, ... (3,001 in all)); give one with --mapping "
                   "NAME|FILE\n")
    legacy.write_text(json.dumps({"X" * 5000 + ":KING": entry}))
    status, _, err = call("convert", str(legacy))
    assert status == 2 and f"games ({'x' * 40}... (5,000 characters)); give one" in err
    legacy.write_text(json.dumps({"CHESS:KING": entry, "SHOGI:KING": entry}))
    assert "games (chess, shogi); give one" in call("convert", str(legacy))[2]


def test_row15_value_options_invalid_is_1(tmp_path: Path) -> None:
    doc = tmp_path / "rules.json"
    doc.write_text("{}")
    status, _, err = call("lint", str(doc), "--board", "8/8 / C/C")
    assert status == 1 and err.startswith("ggn lint: --board: invalid FEEN '8/8 / C/C'")
    status, _, err = call("perft", "chess", "1", "--feen", "8/8 / C/C")
    assert status == 1 and err.startswith("ggn perft: invalid FEEN") and clean(err)


# --- row 16: an argument that can be JSON text or a file ----------------------------------------
def test_row16_json_text_or_a_file_is_decided_by_a_documented_rule(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    after = "+rnbq+k^bn+r/pppppppp/8/8/4P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C\n"
    status, out, err = call("apply", CHESS_START, "[]")
    assert (status, out) == (1, "")
    assert err == ("the STN argument: invalid STN document, 1 violation\n"
                   "  (document): an STN document must be an object, got an array\n")
    for text in ("null", "12", "true", '"e4"', "", "   "):
        assert call("apply", CHESS_START, text)[0] == 1, text
    assert call("apply", CHESS_START, "\n " + E2E4)[1] == after
    monkeypatch.chdir(tmp_path)
    Path("true").write_text(E2E4)  # a file whose name reads as JSON: @ says it is a file
    assert call("apply", CHESS_START, "@true")[1] == after
    assert call("apply", CHESS_START, "true")[0] == 1
    Path("move.json").write_text(E2E4)
    assert call("apply", CHESS_START, "move.json")[1] == after
    assert call("apply", CHESS_START, "-", stdin=E2E4.encode())[1] == after
    status, _, err = call("apply", CHESS_START, "none.json")
    assert (status, err) == (2, "ggn apply: cannot read none.json: No such file or directory\n")
    assert call("apply", CHESS_START, "@")[0] == 2


def test_the_help_documents_the_contract_and_the_reading_rules() -> None:
    status, out, _ = call("--help")
    assert status == 0
    for words in ("exit status:", "1  invalid input", "2  a usage error", "how arguments are read:",
                  "@PATH", "- for standard input", "written whole or not at all", "head -1"):
        assert words in out, words
    assert "@PATH" in call("apply", "--help")[1]
    assert "0 to 64" in call("perft", "--help")[1]
    assert "0 to 16" in call("generate", "--help")[1]
    assert "never over an input file" in " ".join(call("convert", "--help")[1].split())


# --- the other attacks: every command, as an attacker tries it -------------------------------------
def _attacks(tmp: Path) -> list[tuple[tuple[str, ...], int]]:
    (tmp / "empty.json").write_bytes(b"")
    (tmp / "latin1.json").write_bytes(b'{"C:K": {"\xe9": {}}}')
    (tmp / "bom.json").write_bytes(b"\xef\xbb\xbf{}")
    (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp / "ok.json").write_text("{}")
    odd = os.fsdecode(b"\xff.json")  # a name that is not UTF-8
    (tmp / odd).write_text("{}")
    d, e, lat, bom, deep, ok = (str(tmp), str(tmp / "empty.json"), str(tmp / "latin1.json"),
                                str(tmp / "bom.json"), str(tmp / "deep.json"), str(tmp / "ok.json"))
    return [
        (("parse", "feen", "8/8 / C/c/"), 1), (("parse", "cell", "\udcff"), 1), (("parse", "cell", ""), 1),
        (("parse",), 2), (("parse", "feen"), 2),
        (("validate", e), 1), (("validate", lat), 1), (("validate", bom), 1), (("validate", deep), 1),
        (("validate", d), 2), (("validate", ""), 2), (("validate", str(tmp / odd)), 0),
        (("validate", str(tmp / os.fsdecode(b"\xfe"))), 2), (("validate", "--as"), 2),
        (("validate", "--as", "stn"), 2), (("validate", "--format", "xml", ok), 2),
        (("lint", e), 1), (("lint", deep), 1), (("lint", "--board"), 2), (("lint", "--board", "", ok), 1),
        (("schema",), 2), (("schema", "ggn", "extra"), 2), (("demo", "extra"), 2),
        (("moves", e, CHESS_START), 1), (("moves", "chess", ""), 1), (("moves", "chess", "8/8 / C/c"), 1),
        (("moves", ok), 2), (("moves", "", CHESS_START), 2), (("moves", "--format"), 2),
        (("apply", CHESS_START), 2), (("apply", "", "{}"), 1), (("apply", CHESS_START, "{" * 100_000), 1),
        (("apply", CHESS_START, '{"board_diff": {"z99": "C:P"}}'), 1), (("apply", CHESS_START, e), 1),
        (("diff", CHESS_START), 2), (("diff", CHESS_START, "8/8 / C/c"), 1),
        (("diff", CHESS_START, CHESS_START.replace("C/c", "c/C")), 0),
        (("generate",), 2), (("generate", "go"), 2), (("generate", "chess", "--indent"), 2),
        (("convert", e), 1), (("convert", d), 2), (("convert", ok, "--mapping"), 2),
        (("convert", ok, "--mapping", "go"), 2), (("convert", ok, "--mapping", e), 1),
        (("convert", ok, "--effects"), 2),
        (("perft",), 2), (("perft", "chess"), 2), (("perft", "chess", "1", "--feen"), 2),
        (("perft", "chess", "1", "--feen", "4k^4/9/9/9/9/9/9/9/4K^4 / S/s"), 1),
        (("perft", "chess", "1", "--feen", "8/8/8/8/8/8/8/8 / C/c"), 0),
        (("frobnicate",), 2), ((), 2), (("--no-such-option",), 2),
        # Numbers longer than int() converts (row 12): read, checked and written back.
        (("parse", "cell", "a" + "9" * 5000), 0), (("parse", "feen", "9" * 5000 + " / C/c"), 0),
        (("moves", "chess", "9" * 5000 + " / C/c"), 1), (("diff", CHESS_START, "9" * 5000 + " / C/c"), 1),
        (("perft", "chess", "1", "--feen", "9" * 5000 + " / C/c"), 1),
    ]


def test_every_command_attacked_keeps_the_contract(tmp_path: Path) -> None:
    for argv, expected in _attacks(tmp_path):
        status, out, err = call(*argv, stdin=b"")
        assert status == expected, (argv, status, err)
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
        if status:
            assert err.strip(), argv
            assert out == "" or argv[0] in ("validate", "lint") or argv == (), argv  # --format json reports
            assert len(err) < 2000 or argv == (), argv  # long input is not echoed whole (the help is long)
        # Bytes of the command line that are not text are shown escaped.
        assert not any("\udc80" <= c <= "\udcff" for c in out + err), argv
