"""Progress on long runs (``ggn.cli._progress``): drawn on standard error only when it is a
terminal, tqdm is there and ``GGN_NO_PROGRESS`` is not set; never on standard output; cleared
at the end. In-process with a stream that says it is a terminal, and once as a real process on
a pseudo-terminal (and piped, where nothing is drawn)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

import ggn.cli._progress
from ggn.cli import run
from ggn.cli._progress import progress, showing
from ggn.cli._streams import Errors


class Terminal(io.StringIO):
    """Standard error as a terminal: what is drawn on it is kept."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bars drawn from the start (not after DELAY) and redrawn at every step, and progress not
    switched off by the environment the tests run in."""
    monkeypatch.setattr(ggn.cli._progress, "DELAY", 0)
    monkeypatch.setattr(ggn.cli._progress, "INTERVAL", 0)
    monkeypatch.delenv("GGN_NO_PROGRESS", raising=False)


def perft(stderr: io.StringIO, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = run(["perft", *argv], out, stderr)
    return status, out.getvalue()


@pytest.mark.usefixtures("at_once")
def test_perft_draws_a_bar_on_a_terminal_and_clears_it() -> None:
    err = Terminal()
    assert perft(err, "chess", "3") == (0, "8902\n")
    drawn = err.getvalue()
    assert "perft chess 3" in drawn and "/20" in drawn  # 20 root moves
    assert "20/20" in drawn or "100%" in drawn
    # The work done and its rate, drawn in place of the moves' rate so that they fit in 80
    # columns (the rate was cut off when a slow first move made tqdm's own columns wider).
    last = next(line for line in drawn.split("\r") if "20/20 moves" in line)
    assert re.search(r"8\.9k nodes, [0-9.]+[kMG]?/s[,\]]", last), last
    assert "move/s" not in last and len(last) <= 80
    assert drawn.endswith("\r")  # cleared: the line is blanked and the cursor back at its start
    assert drawn.rstrip("\r").rsplit("\r", 1)[-1].strip() == ""


@pytest.mark.usefixtures("at_once")
def test_the_bar_never_reaches_standard_output_even_as_json() -> None:
    err = Terminal()
    status, out = perft(err, "chess", "3", "--divide", "--notation", "uci", "--format", "json")
    assert status == 0
    result = json.loads(out)  # one JSON object and nothing else
    assert result["nodes"] == 8902 and "perft chess 3" in err.getvalue()


@pytest.mark.usefixtures("at_once")
def test_nothing_is_drawn_when_standard_error_is_no_terminal() -> None:
    err = io.StringIO()
    assert perft(err, "chess", "3") == (0, "8902\n")
    assert err.getvalue() == ""
    assert not showing(Errors(err))


@pytest.mark.usefixtures("at_once")
def test_ggn_no_progress_switches_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GGN_NO_PROGRESS", "1")
    err = Terminal()
    assert perft(err, "chess", "3") == (0, "8902\n")
    assert err.getvalue() == ""
    monkeypatch.setenv("GGN_NO_PROGRESS", "")  # empty: not set
    assert showing(Errors(Terminal()))


@pytest.mark.usefixtures("at_once")
def test_without_tqdm_progress_is_silently_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    err = Terminal()
    assert perft(err, "chess", "3") == (0, "8902\n")
    assert err.getvalue() == ""


def test_a_short_run_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GGN_NO_PROGRESS", raising=False)
    assert ggn.cli._progress.DELAY > 0
    err = Terminal()
    with progress(Errors(err), total=3, unit="move", description="quick") as bar:
        assert bar.shown
        bar.advance(3)
    assert err.getvalue() == ""


@pytest.mark.usefixtures("at_once")
def test_the_helper_counts_units_work_and_notes() -> None:
    err = Terminal()
    with progress(Errors(err), total=4, unit="position", work="node", description="batch") as bar:
        bar.advance(work=1500)
        bar.advance(2, work=2_500_000)
    drawn = err.getvalue()
    assert "batch" in drawn and "3/4" in drawn and "1.5k nodes" in drawn and "2.5M nodes" in drawn
    err = Terminal()
    with progress(Errors(err), total=4, unit="line", description="batch") as bar:
        bar.advance(note="line 1")
        bar.advance(2, note="line 3")
    assert "1/4" in err.getvalue() and "line 1" in err.getvalue() and "line 3" in err.getvalue()
    # An unknown total: a count and a rate, no bar.
    err = Terminal()
    with progress(Errors(err), total=None, unit="position", description="stream") as bar:
        bar.advance(7)
    assert "7position" in err.getvalue().replace(" ", "")


@pytest.mark.usefixtures("at_once")
def test_a_terminal_that_fails_is_no_failure_of_the_run() -> None:
    class Gone(Terminal):
        def write(self, text: str) -> int:
            raise OSError(5, "Input/output error")

    out = io.StringIO()
    assert run(["perft", "chess", "3"], out, Gone()) == 0
    assert out.getvalue() == "8902\n"


def test_off_it_is_a_no_op() -> None:
    bar = progress(Errors(io.StringIO()), total=5, unit="move", description="x")
    assert not bar.shown
    bar.advance(5, work=10, note="n")
    bar.close()
    bar.close()


# --- a real process on a pseudo-terminal --------------------------------------------------------
_AT_ONCE = "import ggn.cli._progress as p; p.DELAY = p.INTERVAL = 0; from ggn.cli import main; main()"


def _environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "GGN_NO_PROGRESS"}


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_real_terminal_shows_progress_on_stderr_and_a_pipe_does_not() -> None:
    import pty  # noqa: PLC0415  (POSIX only)

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(  # the terminal is standard error only; stdout is a pipe
            [sys.executable, "-c", _AT_ONCE, "perft", "chess", "3"], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=follower, env=_environment())
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process closed its end
                break
            if not chunk:
                break
            drawn += chunk
        assert process.stdout is not None
        out = process.stdout.read()
        assert process.wait(timeout=120) == 0
        process.stdout.close()
    finally:
        os.close(leader)
    assert out == b"8902\n"
    assert b"perft chess 3" in drawn and re.search(rb"8\.9k nodes, [0-9.]+[kMG]?/s", drawn)
    piped = subprocess.run([sys.executable, "-c", _AT_ONCE, "perft", "chess", "3"], capture_output=True,
                           check=True, timeout=120, env=_environment())
    assert (piped.stdout, piped.stderr) == (b"8902\n", b"")
