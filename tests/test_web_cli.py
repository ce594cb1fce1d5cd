"""``ggn serve``: what it checks before listening, what it opens with, where it listens.

In-process runs replace :func:`ggn.web.serve` with a recorder (the server would run until
stopped); the real server runs in a subprocess, read through its URL and /proc/net/tcp.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ggn.web
from fuzzing import check_cli
from ggn.errors import DocumentError
from ggn.ruleset import Ruleset
from ggn.variants import registry
from support import examples
from web_support import call, recorded

KING = '{"C:K": {"e1": {"e2": [{"must": {"e2": "empty"}}]}}}'
LONE_KING = "8/8/8/8/8/8/8/4K3 / C/c"


def test_it_opens_chess_on_this_machine_by_default() -> None:
    with recorded() as calls:
        assert call("serve") == (0, "ggn explorer: http://127.0.0.1:8000/ (Ctrl-C stops it)\n", "")
    assert [(c["initial"], c["host"], c["port"]) for c in calls] == [
        ({"game": "chess", "position": None}, "127.0.0.1", 8000)]


def test_it_opens_a_game_at_a_position() -> None:
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    feen = registry.entry("chess").to_feen(fen)
    with recorded() as calls:
        assert call("serve", "chess", "--fen", fen, "--port", "8123")[0] == 0
        assert call("serve", "shogi", "--", registry.start("shogi"))[0] == 0
        assert call("serve", "chess", feen)[0] == 0
    assert [c["initial"] for c in calls] == [
        {"game": "chess", "position": fen}, {"game": "shogi", "position": registry.start("shogi")},
        {"game": "chess", "position": feen},
    ]
    assert calls[0]["port"] == 8123


def test_it_opens_a_document(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(KING)
    with recorded() as calls:
        assert call("serve", str(rules), LONE_KING)[0] == 0
        assert call("serve", "-", stdin=KING.encode())[0] == 0
    assert [c["initial"] for c in calls] == [
        {"document": KING, "position": LONE_KING}, {"document": KING, "position": None},
    ]


def test_it_opens_a_document_named_with_an_at_sign_as_the_other_commands_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # @FILE is the file FILE whatever its name: @chess a file called chess, not the game.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "chess").write_text(KING)
    with recorded() as calls:
        assert call("serve", "@chess", LONE_KING)[0] == 0
        assert call("serve", "chess")[0] == 0
        status, _, err = call("serve", "@missing.json")
        assert status == 2 and err.startswith("ggn serve: cannot read missing.json"), err
    assert [c["initial"] for c in calls] == [
        {"document": KING, "position": LONE_KING}, {"game": "chess", "position": None},
    ]


def test_another_host_is_said_on_standard_error() -> None:
    with recorded() as calls:
        status, out, err = call("serve", "--host", "0.0.0.0", "--port", "9000")
        assert (status, out) == (0, "ggn explorer: http://0.0.0.0:9000/ (Ctrl-C stops it)\n")
        assert err == ("ggn serve: listening on 0.0.0.0: whoever can reach this machine there can use "
                       "the explorer\n")
        assert call("serve", "--host", "::1") == (
            0, "ggn explorer: http://[::1]:8000/ (Ctrl-C stops it)\n", "")
        assert call("serve", "--host", "localhost")[2] == ""
    assert [c["host"] for c in calls] == ["0.0.0.0", "::1", "localhost"]


def test_what_it_refuses_before_listening(tmp_path: Path) -> None:
    faulty = tmp_path / "faulty.json"
    faulty.write_text('{"C:K": {"e1": {"e2": [{"must": {"e2": "bad"}}]}}, "x": 1}')
    rules = tmp_path / "rules.json"
    rules.write_text(KING)
    with recorded() as calls:
        assert call("serve", "go") == (
            2, "", "ggn serve: 'go' is neither a built-in game (ggn variants lists them) nor a file\n")
        status, _, err = call("serve", str(faulty), LONE_KING)
        with pytest.raises(DocumentError) as caught:
            Ruleset.load(str(faulty))
        assert status == 1
        for violation in caught.value.violations:
            assert f"  {violation.path}: {violation.message}\n" in err
        status, _, err = call("serve", "chess", "8/8")
        assert status == 1 and err.startswith("ggn serve: invalid FEEN '8/8'")
        status, _, err = call("serve", "chess", "9/9 / C/c")
        assert status == 1
        assert err == "ggn serve: chess is played on a board of 8x8 squares, not one of shape (9, 2)\n"
        assert call("serve", str(rules), "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1") == (
            2, "", "ggn serve: --fen is a built-in game's position: give a GGN file's position in FEEN\n")
        assert call("serve", "chess", LONE_KING, "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1") == (
            2, "", "ggn serve: give the position once: as FEEN or with --fen\n")
        status, _, err = call("serve", str(tmp_path))
        assert status == 2 and err.startswith(f"ggn serve: cannot read {tmp_path}")
        status, _, err = call("serve", "--port", "65536")
        assert status == 2 and "65536 is out of range; expected a whole number from 0 to 65535" in err
    assert calls == []


def test_its_limits(tmp_path: Path) -> None:
    """The bounds of one request: two set on the command line, the rest in its help; what it
    opens with is held to them before it listens."""
    with recorded() as calls:
        assert call("serve", "--time-limit", "5", "--workers", "3")[0] == 0
        assert call("serve")[0] == 0
        status, _, err = call("serve", "--time-limit", "0")
        assert status == 2 and "0 is out of range; expected a whole number from 1 to 3600" in err
        status, _, err = call("serve", "--workers", "65")
        assert status == 2 and "65 is out of range; expected a whole number from 1 to 64" in err
        rules = tmp_path / "rules.json"
        rules.write_text(KING)
        assert call("serve", str(rules), "R" * 5000 + "/5000 / C/c") == (1, "", (
            "ggn serve: the position's board holds 5,000 pieces, more than the explorer plays (4,096, its "
            "limit 'pieces')\n"))
        assert call("serve", "chess", "R" * 70_000 + " / C/c")[2].startswith(
            "ggn serve: the position is 70,006 characters long, more than the explorer reads (65,536, its "
            "limit 'position')")
        big = tmp_path / "big.json"
        big.write_text(KING + " " * ggn.web.Limits().body)
        status, _, err = call("serve", str(big))
        assert status == 1 and err.endswith(
            "over the 16,777,216 bytes of a request's body the explorer reads (its limit 'body')\n")
    assert [call["limits"] for call in calls] == [ggn.web.Limits(seconds=5, workers=3), ggn.web.Limits()]
    _, text, _ = call("serve", "--help")
    flat = " ".join(text.split())
    for said in ("--time-limit SECONDS", "--workers N", "16,384 squares", "4,096 pieces",
                 "a request over a limit is refused (413 or 503) with the limit's name",
                 "A GGN document is played under the generic rule system"):
        assert said in flat


def test_without_the_extra_it_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ggn.web, "find_spec", lambda name: None)
    assert call("serve") == (
        2, "", "ggn serve: the explorer needs starlette and uvicorn: pip install 'ggn[web]'\n")


def test_an_address_in_use_is_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, out, err = call("serve", "--port", str(port))
    assert (status, out) == (2, "")
    assert err == f"ggn serve: cannot listen on 127.0.0.1 port {port}: Address already in use\n"


ARGUMENTS = st.lists(st.one_of(
    st.sampled_from(["chess", "shogi", "xiangqi", "go", "-", "--", "--fen", "--host", "--port", "--help",
                     "@x", "./chess"]),
    st.sampled_from([LONE_KING, registry.start("chess"), "8/8", "", "-p7/8/8/8/8/8/8/8 / C/c",
                     "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "x y z"]),
    st.sampled_from(["0", "1", "8000", "65535", "65536", "-1", "x", "127.0.0.1", "::1", "0.0.0.0"]),
    st.text(max_size=12),
), max_size=6)


@settings(max_examples=examples(100))
@given(arguments=ARGUMENTS, stdin=st.sampled_from([b"", KING.encode(), b"{", None]))
def test_any_arguments_exit_0_1_or_2_without_a_traceback(arguments: list[str], stdin: bytes | None) -> None:
    with recorded() as calls:
        status, out, _ = check_cli(["serve", *arguments], stdin)
    if status == 0 and calls:
        assert out.startswith("ggn explorer: http://")
        initial = calls[0]["initial"]
        assert set(initial) in ({"game", "position"}, {"document", "position"})


def _listening(port: int) -> list[str]:
    """The local addresses of the sockets listening on ``port``, read from /proc/net/tcp*."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table, encoding="ascii") as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                address, hex_port = fields[1].split(":")
                if fields[3] == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    found.append(address)
    return found


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"),
                    reason="reads the listening sockets from Linux's /proc")
def test_the_real_command_listens_on_127_0_0_1_only() -> None:
    # Port 0: the system gives a free one, and the URL printed names it (no port chosen here
    # that another process could take before the server binds it).
    server = subprocess.Popen([sys.executable, "-m", "ggn", "serve", "xiangqi", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.fullmatch(r"ggn explorer: http://127\.0\.0\.1:(\d+)/ \(Ctrl-C stops it\)\n", line)
        assert found is not None, (line, server.stderr)
        port = int(found[1])
        assert port != 0
        deadline = time.monotonic() + 30
        while True:
            try:
                with urlopen(f"http://127.0.0.1:{port}/api/config", timeout=5) as answer:
                    config = json.load(answer)
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)
        assert config["initial"] == {"game": "xiangqi", "position": None}
        # 0100007F: 127.0.0.1 as /proc writes it; no wildcard (00000000), no IPv6 socket.
        assert _listening(port) == ["0100007F"]
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert server.returncode is not None
