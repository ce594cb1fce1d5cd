"""The command line's --batch, --jobs and --scheduler: a line's answer is the single command's,
bad lines are reported with their numbers (exit 1 at the end), answers stream out line by
line, counts on worker processes are the serial ones, and the machinery's failures are one
message each (exit 2)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from concurrent.futures.process import ProcessPoolExecutor
from pathlib import Path

import pytest

import ggn.cli._progress
from ggn import parallel
from ggn.cli import run
from ggn.variants import registry

pytestmark = pytest.mark.slow  # not in the README's quick run: worker processes

START = registry.start("chess")
LINES = [START, "", "not a position", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
         "4k^3/8/8/8/8/8/8/4K^3 / C/c", "+rnbq+k^bn+r/pppppppp/8 / C/c"]
TINYHOUSE = ("[tinyhouse:crazyhouse]\nmaxRank = 6\n"
             "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n")


def call(*argv: str, stdin: bytes | None = None, err: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), err if err is not None else io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def positions(tmp_path: Path) -> Path:
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [
    ["legal", "chess"], ["legal", "chess", "--notation", "uci"], ["moves", "chess"],
])
def test_a_batch_answers_each_line_as_the_single_command_does(positions: Path, command: list[str]) -> None:
    status, out, err = call(*command, "--batch", str(positions))
    assert status == 1  # two bad lines
    answers = out.splitlines()
    assert len(answers) == 5  # one a line that is not blank
    for line, answer in zip([LINES[0], LINES[3], LINES[4]], [answers[0], answers[2], answers[3]],
                            strict=True):
        feen = registry.entry("chess").to_feen(line) if " w " in line else line
        assert f"{answer}\n" == call(*command[:2], feen, *command[2:], "--format", "json")[1]
    assert answers[1] == answers[4] == "null"
    label = f"ggn {command[0]}"
    lines = err.splitlines()
    assert lines[0] == (f"{label}: line 3: invalid FEN 'not a position': expected 8 ranks separated "
                        "by '/', got 1 (at 0-3)")
    assert lines[1].startswith(f"{label}: line 6: chess is played on a board of 8x8 squares")
    assert len(lines) == 2


def test_standard_input_and_workers_give_the_same_lines(positions: Path) -> None:
    data = positions.read_bytes()
    serial = call("legal", "chess", "--batch", "-", stdin=data)
    # JSON lines whatever --format says (as every command whose output is JSON either way).
    assert call("legal", "chess", "--batch", "-", "--format", "text", stdin=data) == serial
    assert call("legal", "chess", "--batch", str(positions), "--jobs", "2") == serial
    assert serial[0] == 1 and serial[1].count("\n") == 5


def test_a_ggn_document_and_a_variant_of_ini_on_workers(tmp_path: Path) -> None:
    rules = tmp_path / "rook.json"
    rules.write_text('{"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}}', encoding="utf-8")
    batch = tmp_path / "in.txt"
    batch.write_text("R7/8 / C/c\n8/R7 / C/c\n", encoding="utf-8")
    expected = (0, '[]\n[{"piece": "C:R", "source": "a1", "destination": "a2"}]\n', "")
    assert call("moves", str(rules), "--batch", str(batch)) == expected
    assert call("moves", str(rules), "--batch", str(batch), "--jobs", "2") == expected
    ini = tmp_path / "mine.ini"
    ini.write_text(TINYHOUSE, encoding="utf-8")
    start = registry.Catalogue()
    start.add_ini(TINYHOUSE, "mine.ini")
    batch.write_text(start.start("tinyhouse") + "\n", encoding="utf-8")
    serial = call("legal", "tinyhouse", "--ini", str(ini), "--batch", str(batch))
    assert serial[0] == 0 and len(json.loads(serial[1])) == 20
    assert call("legal", "tinyhouse", "--ini", str(ini), "--batch", str(batch), "--jobs", "2") == serial


@pytest.mark.parametrize(("argv", "message"), [
    (["legal", "chess", START, "--batch", "x"], "give no FEEN or --fen with it"),
    (["legal", "chess", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--batch", "x"], "give no FEEN or --fen"),
    (["legal", "chess", "--jobs", "2"], "--jobs spreads the work of --batch: give --batch FILE too"),
    (["moves", "--scheduler", "tcp://h:1"], "--scheduler spreads the work of --batch"),
    (["perft", "chess", "3", "--jobs", "2", "--scheduler", "tcp://h:1"], "not allowed with argument"),
    (["perft", "chess", "3", "--jobs", "-1"], "expected auto or a whole number, 0 (auto) or more"),
    (["perft", "chess", "3", "--jobs", "many"], "'many' is not a number of processes"),
    (["perft", "chess", "3", "--jobs", "2.0"], "'2.0' is not a number of processes"),
    (["perft", "chess", "3", "--jobs", "\u0662"], "is not a number of processes"),  # an Arabic-Indic 2
    (["moves", "-", "--batch", "-"], "standard input is read once"),
    (["legal", "chess", "--ini", "-", "--batch", "-"], "standard input is read once"),
    (["legal", "chess", "--batch", "/nonexistent/positions"], "--batch: cannot read /nonexistent/positions: "
                                                             "No such file or directory"),
    (["legal", "chess", "--batch", "/"], "--batch: cannot read /: Is a directory"),
    (["legal", "chess", "--batch", ""], "--batch: '' is not a file name"),
])
def test_usage_errors_exit_2(argv: list[str], message: str) -> None:
    status, out, err = call(*argv, stdin=b"")
    assert (status, out) == (2, "") and message in err


def test_perft_on_workers_prints_what_the_serial_count_prints() -> None:
    for options in ([], ["--divide", "--notation", "uci"], ["--divide", "--format", "json"]):
        serial = call("perft", "chess", "3", *options)
        assert serial[0] == 0
        assert call("perft", "chess", "3", *options, "--jobs", "2") == serial
    assert call("perft", "chess", "4", "--jobs", "auto") == (0, "197281\n", "")


def test_jobs_beyond_the_processors_are_lowered_with_a_note(
        monkeypatch: pytest.MonkeyPatch, positions: Path) -> None:
    # --jobs 1000 started about 130 processes on 2 cores, 12 times slower than --jobs 1.
    spawned: list[int] = []
    spawn = ProcessPoolExecutor._spawn_process  # type: ignore[attr-defined]

    def counted(self: ProcessPoolExecutor) -> None:
        spawned.append(1)
        spawn(self)

    monkeypatch.setattr(ProcessPoolExecutor, "_spawn_process", counted)
    monkeypatch.setattr(parallel, "processors", lambda: 2)
    note = ("note: --jobs lowered to 2, the processors this process may use (more processes would only "
            "share them)")
    for jobs in ("1000", "9" * 5000):  # any whole number: a long one is as large as any
        assert call("perft", "chess", "3", "--jobs", jobs) == (0, "8902\n", f"ggn perft: {note}\n")
    assert len(spawned) == 2  # one worker a run, beside this process
    serial = call("legal", "chess", "--batch", str(positions))
    status, out, err = call("legal", "chess", "--batch", str(positions), "--jobs", "1000")
    assert (status, out) == serial[:2] and err == f"ggn legal: {note}\n" + serial[2]
    assert len(spawned) <= 3  # the batch's one chunk: one worker
    assert call("perft", "chess", "3", "--jobs", "2")[2] == ""  # no more than the processors: no note
    monkeypatch.setattr(parallel, "processors", lambda: 1)
    assert call("perft", "chess", "3", "--jobs", "auto") == (0, "8902\n", "")  # one processor: counted here
    assert len(spawned) <= 4


def test_dask_not_installed_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, positions: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    for argv in (["perft", "chess", "3"], ["legal", "chess", "--batch", str(positions)]):
        assert call(*argv, "--scheduler", "tcp://127.0.0.1:1") == (
            2, "", f"ggn {argv[0]}: Dask is not installed: pip install 'ggn[dask]'\n")


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "SCHEDULER_TIMEOUT", 0.5)
    status, out, err = call("perft", "chess", "3", "--scheduler", "tcp://127.0.0.1:9")
    assert (status, out) == (2, "") and err.startswith(
        "ggn perft: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")


class Terminal(io.StringIO):
    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def test_progress_of_workers_and_batches_is_drawn_on_a_terminal_only(
        monkeypatch: pytest.MonkeyPatch, positions: Path) -> None:
    monkeypatch.setattr(ggn.cli._progress, "DELAY", 0)
    monkeypatch.setattr(ggn.cli._progress, "INTERVAL", 0)
    monkeypatch.delenv("GGN_NO_PROGRESS", raising=False)
    pytest.importorskip("tqdm")
    status, out, drawn = call("perft", "chess", "3", "--jobs", "2", err=Terminal())
    assert (status, out) == (0, "8902\n")
    assert "perft chess 3" in drawn and "/400 tasks" in drawn
    assert re.search(r"8\.9k nodes, [0-9.]+[kMG]?/s\]", drawn), drawn  # the work and its rate, whole
    status, out, drawn = call("legal", "chess", "--batch", str(positions), err=Terminal())
    assert status == 1 and out.count("\n") == 5 and "null" in out  # nothing drawn on standard output
    assert "ggn legal --batch" in drawn and "line 6" in drawn and "position" in drawn
    assert call("legal", "chess", "--batch", str(positions))[2].count("\n") == 2  # no terminal: no bar


@pytest.mark.timeout(120)
def test_answers_stream_out_a_line_at_a_time() -> None:
    # A dialogue: each answer is read before the next position is written, which works only
    # if every answer is flushed as soon as it is known and nothing waits for more input.
    process = subprocess.Popen(
        [sys.executable, "-m", "ggn", "legal", "chess", "--batch", "-", "--notation", "uci"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    try:
        for line, count in ((START, 20), ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 15), (START, 20)):
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()
            assert len(json.loads(process.stdout.readline())) == count
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        assert process.stdout.read() == b"" and process.stderr.read() == b""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
