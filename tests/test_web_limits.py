"""The explorer under hostile requests: its work off the event loop, its bounds, its shutdown.

Each test is a finding of issue 16 that an attacker reproduced, now refused or contained: a
request's work held the server (and every other client) for minutes; a small body drew an
answer of tens of megabytes; the pasted documents kept grew without a bound in bytes; a
connection left open kept SIGTERM from stopping the server. Timeouts here are generous and
only for liveness: no test asserts a speed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from starlette.testclient import TestClient

import ggn.web
from ggn.position import Position
from ggn.web import LimitError, Limits, _explorer, _limits, _work
from ggn.web._explorer import Subject, kept
from ggn.web._work import answer
from web_support import running

pytestmark = pytest.mark.slow  # not in the README's quick run: worker processes, a real server

KING = '{"C:K": {"e1": {"e2": [{"must": {"e2": "empty"}}]}}}'
LONE_KING = "8/8/8/8/8/8/8/4K3 / C/c"
ROOK = '{"C:R": {"a1": {"b1": [{"must": {"b1": "empty"}}]}}}'
LIVENESS = 120.0  # seconds: a generous bound on an answer that must come, never a speed


def post(url: str, body: Any, timeout: float = LIVENESS) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON to ``url``: the status and the JSON answer."""
    data = json.dumps(body).encode()
    request = Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except HTTPError as refused:
        return refused.code, json.loads(refused.read())


def slow_document(destinations: int = 900_000) -> str:
    """A valid document that takes long to read: one rook with 900,000 destinations, each
    with one possibility (about 14 MB, within the body's limit; 25 s to read here, on 2 cores)."""
    cells = (f"{chr(97 + number % 26)}{number // 26 + 1}" for number in range(1, destinations))
    return json.dumps({"C:R": {"a1": {cell: [{}] for cell in cells}}})


# -- the work is off the event loop, and bounded in time ----------------------------------------

def test_another_client_is_answered_while_one_request_is_busy() -> None:
    """One client's request works (on a document that takes long to read); another client is
    answered meanwhile. (Before: the work ran on the event loop and held every client until it
    ended: 174 s for the issue's 4 MB body.)"""
    slow = {"document": slow_document(), "position": LONE_KING}
    assert len(json.dumps(slow)) < _limits.MAX_BODY
    light = {"document": KING, "position": LONE_KING}
    busy: list[object] = []

    def ask() -> None:
        try:
            busy.append(post(f"{url}/api/view", slow))
        except (OSError, ValueError) as failure:  # the server stopped under it (uvicorn: a 500 in text)
            busy.append(failure)

    with running(limits=Limits(seconds=LIVENESS)) as url:
        assert post(f"{url}/api/view", light)[0] == 200  # the workers are up
        thread = threading.Thread(target=ask)
        thread.start()
        time.sleep(0.5)  # the busy request is at work (not a speed: only an order)
        status, view = post(f"{url}/api/view", light)
        assert status == 200 and view["moves"]
        assert thread.is_alive() and not busy  # answered while the other still worked
    thread.join(LIVENESS)  # stopping the server stopped the busy request's worker
    assert not thread.is_alive() and busy


def test_a_request_over_the_time_limit_is_stopped_and_its_worker_replaced() -> None:
    with running(limits=Limits(seconds=1.0, workers=1)) as url:
        status, refused = post(f"{url}/api/view", {"document": slow_document(), "position": LONE_KING})
        assert (status, refused) == (503, {
            "error": "the request took longer than the explorer allows (1 s, its limit 'seconds'): "
                     "it was stopped",
            "limit": "seconds", "most": 1.0})
        # A new worker took the stopped one's place.
        for _ in range(3):
            assert post(f"{url}/api/view", {"document": KING, "position": LONE_KING})[0] == 200


def test_the_server_process_does_no_request_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The routes of the server's process hand the body to a worker process: nothing of the
    explorer's work runs in it."""
    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("the server's process did a request's work")

    monkeypatch.setattr(_work, "answer", refused)
    monkeypatch.setattr(_work, "view", refused)
    with TestClient(ggn.web.create_app(limits=Limits(workers=1))) as client:
        response = client.post("/api/view", json={"game": "chess"})
        assert response.status_code == 200 and response.json()["fen"].startswith("rnbqkbnr/")
        workers = client.app.state.workers  # type: ignore[attr-defined]
        (worker,) = workers._all
        assert worker.process.pid != os.getpid() and worker.process.is_alive()
    assert not worker.process.is_alive()  # stopped with the application
    with TestClient(client.app) as again:  # its lifespan again: new workers
        assert again.post("/api/view", json={"game": "chess"}).status_code == 200


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="memory read from Linux's /proc")
def test_a_worker_that_grew_is_replaced() -> None:
    """Python keeps the memory a request freed: a worker that holds more than ``recycle`` ends
    once it has answered, and a new one answers the next request (here every worker passes it)."""
    def pids(client: TestClient) -> set[int]:
        return {worker.process.pid for worker in client.app.state.workers._all}  # type: ignore[attr-defined]

    with TestClient(ggn.web.create_app(limits=Limits(workers=1, recycle=1))) as client:
        for _ in range(3):
            assert client.post("/api/view", json={"game": "chess"}).status_code == 200
            assert pids(client) == set()  # it answered, and ended: the next request starts another
    with TestClient(ggn.web.create_app(limits=Limits(workers=1))) as client:  # 512 MiB: kept
        seen = []
        for _ in range(3):
            assert client.post("/api/view", json={"game": "chess"}).status_code == 200
            seen.append(pids(client))
        assert seen[0] == seen[1] == seen[2] and len(seen[0]) == 1
    assert Limits().recycle == _limits.WORKER_RECYCLE == 512 << 20


# -- what one request may ask for --------------------------------------------------------------

@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(ggn.web.create_app(limits=Limits(workers=1))) as made:
        yield made


@pytest.mark.parametrize(("position", "limit", "message"), [
    # The issue's: a one-row board of 4 million rooks, a 4 MB body (held the server 174 s, 2.6 GB).
    ("R" * 4_000_000 + " / C/c", "position",
     "the position is 4,000,006 characters long, more than the explorer reads (65,536, its limit "
     "'position')"),
    # 64 KB of FEEN that drew a 29.7 MB picture.
    ("R" * 60_000 + " / C/c", "squares",
     "the position's board has 60,000 squares, more than the explorer plays (16,384, its limit 'squares')"),
    ("R" * 5_000 + "/5000 / C/c", "pieces",
     "the position's board holds 5,000 pieces, more than the explorer plays (4,096, its limit 'pieces')"),
    # A run of empty squares is one number: 5,000 ones are a board of about 10**4999 squares.
    ("1" * 5_000 + " / C/c", "squares",
     "the position's board has 11111111111...11111111111 (5,000 digits) squares, more than the explorer "
     "plays (16,384, its limit 'squares')"),
    ("R4194303 / C/c", "squares",
     "the position's board has 4,194,304 squares, more than the explorer plays (16,384, its limit "
     "'squares')"),
])
def test_a_position_over_a_limit_is_refused_naming_it(client: TestClient, position: str, limit: str,
                                                      message: str) -> None:
    response = client.post("/api/view", json={"document": ROOK, "position": position})
    assert response.status_code == 413
    assert response.json() == {"error": message, "limit": limit, "most": getattr(Limits(), limit)}
    # The same for a game, and for a play.
    response = client.post("/api/play", json={"game": "chess", "position": position, "move": "C:R a1-b1"})
    assert (response.status_code, response.json()["limit"]) == (413, limit)


def test_a_limit_is_checked_before_the_board_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("a board built for a position over the limits")

    monkeypatch.setattr(Position, "from_feen", refused)
    with pytest.raises(LimitError, match="limit 'squares'") as caught:
        Subject.document(ROOK).state("R4194303 / C/c")
    assert (caught.value.limit, caught.value.most) == ("squares", _limits.MAX_SQUARES)


def test_the_picture_and_the_answer_are_bounded() -> None:
    """At the limits of squares and pieces (a 128x128 board, 4,096 pieces) the answer is about
    2 MB, under the answer's limit; over a smaller limit it is refused, naming it."""
    rank = "R" * 32 + "96"
    feen = "/".join([rank] * 128) + " / C/c"
    body = json.dumps({"document": '{"C:R": {}}', "position": feen}).encode()
    status, written = answer("view", body)
    view = json.loads(written)
    assert status == 200 and len(view["board"]) == _limits.MAX_PIECES
    assert len(view["svg"]) < len(written) <= _limits.MAX_ANSWER
    status, written = answer("view", body, limits=Limits(answer=1_000_000))
    assert status == 413
    refused = json.loads(written)
    assert (refused["limit"], refused["most"]) == ("answer", 1_000_000)
    assert refused["error"].endswith(
        "bytes of JSON, more than the explorer writes (1,000,000, its limit 'answer')")


def test_the_moves_listed_are_bounded() -> None:
    many = '{"C:R": {"a1": {"b1": [{}], "c1": [{}], "d1": [{}]}}}'
    status, written = answer("view", json.dumps({"document": many, "position": "8/R7 / C/c"}).encode(),
                             limits=Limits(moves=2))
    assert (status, json.loads(written)) == (413, {
        "error": "the position has 3 legal moves, more than the explorer lists (2, its limit 'moves')",
        "limit": "moves", "most": 2})


def test_a_body_that_arrives_too_slowly_is_refused() -> None:
    with running(limits=Limits(body_seconds=1.0, workers=1)) as url:
        host, port = re.match(r"http://([\d.]+):(\d+)", url).groups()  # type: ignore[union-attr]
        with socket.create_connection((host, int(port)), timeout=LIVENESS) as slow:
            slow.sendall(b"POST /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{\"game\":")
            reply = _read_all(slow)
    head, _, payload = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert json.loads(payload) == {
        "error": "the request's body took over 1 s to arrive (the explorer's limit 'body_seconds')",
        "limit": "body_seconds", "most": 1.0}


def test_the_requests_held_at_once_are_bounded() -> None:
    """The server's process holds at most ``requests`` POST requests (their bodies, up to 16 MiB
    each, are its memory): one more waits ``queue_seconds`` for a place, then is answered 503
    naming the limit; a GET is still answered."""
    limits = Limits(requests=1, queue_seconds=1.0, body_seconds=60.0, workers=1)
    with running(limits=limits) as url:
        host, port = re.match(r"http://([\d.]+):(\d+)", url).groups()  # type: ignore[union-attr]
        with socket.create_connection((host, int(port)), timeout=LIVENESS) as slow:
            slow.sendall(b"POST /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{\"game\":")  # the one place, held
            time.sleep(0.5)
            assert post(f"{url}/api/view", {"game": "chess"}) == (503, {
                "error": "the explorer held 1 requests for 1 s (its limit 'requests'): try again",
                "limit": "requests", "most": 1})
            with urlopen(f"{url}/api/config", timeout=LIVENESS) as config:
                assert config.status == 200
        # The place is free again once that connection has gone.
        assert post(f"{url}/api/view", {"game": "chess"})[0] == 200


# -- what the explorer keeps -------------------------------------------------------------------

def test_kept_documents_are_bounded_in_bytes() -> None:
    """The documents kept loaded are bounded by the size of their text, not only by their count
    (before: the last 8, about 142 MB loaded for each 8 MB document, for the server's life)."""
    _explorer.forget()
    limits = Limits(kept_text=1_000_000)
    documents = [KING + " " * (300_000 + number) for number in range(8)]  # 300 KB each, all valid
    for document in documents:
        Subject.document(document, limits)
        _, size = kept()
        assert size == sum(len(text) for text in _explorer._DOCUMENTS) <= 1_000_000
    assert kept() == (3, sum(len(text) for text in documents[-3:]))
    # One larger than the whole budget is read, played, and not kept.
    big = KING + " " * 1_000_000
    assert Subject.document(big, limits).ruleset.pieces
    assert big not in _explorer._DOCUMENTS and kept()[0] == 3
    # The defaults: 8 documents, 4 MiB of text.
    assert (Limits().kept, Limits().kept_text) == (_limits.DOCUMENTS_KEPT, 4 * 1024 * 1024)
    _explorer.forget()
    assert kept() == (0, 0)


# -- failures: an answer, and the connection closed --------------------------------------------

def test_a_memory_error_in_a_request_is_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    Subject.document(KING)
    assert kept()[0] >= 1

    def exhausted(*_: Any, **__: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(_work, "view", exhausted)
    status, written = answer("view", json.dumps({"game": "chess"}).encode())
    assert (status, json.loads(written)) == (503, {
        "error": "the request ran out of memory (2,147,483,648 bytes a worker, its limit 'memory')",
        "limit": "memory", "most": _limits.WORKER_MEMORY})
    assert kept() == (0, 0)  # what was kept is let go


def test_any_other_failure_is_answered_500(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise KeyError("oops")

    monkeypatch.setattr(_work, "view", broken)
    status, written = answer("view", json.dumps({"game": "chess"}).encode())
    assert (status, json.loads(written)) == (500, {"error": "the explorer failed on this request: KeyError: "
                                                            "\"'oops'\""})
    assert "KeyError" in capsys.readouterr().err


def test_a_worker_bounds_its_memory() -> None:
    """A worker's address space is bounded (resource.RLIMIT_AS): an allocation past it is a
    MemoryError in the worker, not the machine's memory."""
    pytest.importorskip("resource")
    code = ("from ggn.web._work import _bound_memory\n"
            "_bound_memory(1 << 30)\n"
            "try:\n    bytearray(2 << 30)\nexcept MemoryError:\n    print('refused')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=LIVENESS,
                          check=False)
    assert (done.returncode, done.stdout) == (0, "refused\n"), done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS bounds memory on Linux")
def test_a_request_past_a_worker_s_memory_is_answered_and_its_worker_replaced() -> None:
    """A real MemoryError: a worker bounded to 256 MiB reads a document that needs more. The
    request is answered 503 naming the limit (the answer made once what the request held is
    let go), and the next one is answered by a new worker."""
    limits = Limits(memory=256 << 20, workers=1, seconds=LIVENESS)
    with running(limits=limits) as url:
        assert post(f"{url}/api/view", {"game": "chess"})[0] == 200
        assert post(f"{url}/api/view", {"document": slow_document(), "position": LONE_KING}) == (503, {
            "error": "the request ran out of memory (268,435,456 bytes a worker, its limit 'memory')",
            "limit": "memory", "most": 256 << 20})
        assert post(f"{url}/api/view", {"game": "chess"})[0] == 200


_EXHAUSTED = """\
import ggn.web._explorer as explorer

def view(*_, **__):
    raise MemoryError

explorer.view = view
"""


def test_a_memory_error_closes_its_connection_and_sigterm_still_stops_the_server(tmp_path: Path) -> None:
    """``ggn serve`` for real, its workers' view made to raise MemoryError (a sitecustomize
    module, which every process of the run imports): the request is answered 503 naming the
    limit, and its connection closed; with another connection left half-sent, SIGTERM still
    stops the server (before: it waited for that connection for good)."""
    (tmp_path / "sitecustomize.py").write_text(_EXHAUSTED)
    path = os.pathsep.join([str(tmp_path), *sys.path])
    server = subprocess.Popen([sys.executable, "-m", "ggn", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": path})
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        port = int(found.group(1))
        body = b'{"game": "chess"}'
        request = (b"POST /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n" % len(body))
        with socket.create_connection(("127.0.0.1", port), timeout=LIVENESS) as failing:
            failing.sendall(request + body)
            reply = _read_all(failing)  # to the end: the server closes the connection
        head, _, payload = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503 ") and b"connection: close" in head.lower()
        assert json.loads(payload) == {
            "error": "the request ran out of memory (2,147,483,648 bytes a worker, its limit 'memory')",
            "limit": "memory", "most": 2147483648}
        with socket.create_connection(("127.0.0.1", port), timeout=LIVENESS) as half:
            half.sendall(request + body[:5])  # the rest never comes
            time.sleep(0.5)
            server.send_signal(signal.SIGTERM)
            # Generous beside the 5 s the server waits (SHUTDOWN_SECONDS), and shorter than
            # the 30 s a body may take to arrive (BODY_SECONDS): the shutdown's own bound stops it.
            server.wait(_limits.BODY_SECONDS - 5)
        assert server.returncode in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()  # type: ignore[union-attr]
        server.stderr.close()  # type: ignore[union-attr]


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="Ctrl-C as a terminal sends it: to the process group")
def test_ctrl_c_stops_the_server_and_its_workers_quietly() -> None:
    """Ctrl-C reaches the server and its workers (one process group): the server stops, its
    workers with it, and no worker writes a traceback of its own, at work or still starting."""
    server = subprocess.Popen([sys.executable, "-m", "ggn", "serve", "--port", "0", "--format", "json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        url = json.loads(server.stdout.readline())["url"]  # type: ignore[union-attr]
        time.sleep(0.3)  # the workers are starting (importing ggn)
        os.killpg(server.pid, signal.SIGINT)
        _, err = server.communicate(timeout=LIVENESS)
        assert server.returncode in (0, -signal.SIGINT, 130), err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    server = subprocess.Popen([sys.executable, "-m", "ggn", "serve", "--port", "0", "--format", "json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        url = json.loads(server.stdout.readline())["url"]  # type: ignore[union-attr]
        assert post(f"{url}api/view", {"game": "chess"})[0] == 200  # the workers are at work
        os.killpg(server.pid, signal.SIGINT)
        _, err = server.communicate(timeout=LIVENESS)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    assert server.returncode in (0, -signal.SIGINT, 130), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    deadline = time.monotonic() + LIVENESS
    while True:  # no worker outlives it (each sees its server gone, and ends)
        left = subprocess.run(["pgrep", "-a", "-g", str(server.pid)], capture_output=True, text=True,
                              check=False).stdout
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert left == ""


def _read_all(connection: socket.socket) -> bytes:
    """Everything ``connection`` sends until it closes."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


# -- the limits themselves -----------------------------------------------------------------------

def test_limits_are_checked() -> None:
    with pytest.raises(TypeError, match=r"Limits\.seconds must be a number of seconds, got str"):
        Limits(seconds="5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Limits\.squares must be a whole number, got bool"):
        Limits(squares=True)
    with pytest.raises(ValueError, match=r"Limits\.workers must be above 0, got 0"):
        Limits(workers=0)
    assert Limits(memory=None).memory is None and Limits(kept=0).kept == 0
    with pytest.raises(TypeError, match=r"limits must be a ggn\.web\.Limits or None, got dict"):
        ggn.web.create_app(limits={"seconds": 1})  # type: ignore[arg-type]
