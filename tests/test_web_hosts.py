"""The explorer on this machine answers only requests that name this machine in their Host
header: a site whose name is made to point at 127.0.0.1 (DNS rebinding) reads nothing."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient

import ggn.web
from ggn.web._app import host_of


@pytest.mark.parametrize(("header", "host"), [
    ("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:8000", "::1"), ("[::1]", "::1"),
    ("evil.example:8000", "evil.example"), ("", ""), ("::1", "::1"),
])
def test_the_host_a_header_names(header: str, host: str) -> None:
    assert host_of(header) == host


@pytest.mark.parametrize(("listening", "expected"), [
    ("127.0.0.1", {"localhost", "127.0.0.1", "::1"}), ("localhost", {"localhost", "127.0.0.1", "::1"}),
    ("::1", {"localhost", "127.0.0.1", "::1"}), ("127.0.0.2", {"localhost", "127.0.0.1", "::1", "127.0.0.2"}),
    ("0.0.0.0", None), ("192.168.1.5", None), ("example.org", None),
])
def test_the_names_accepted_follow_the_address_listened_on(listening: str, expected: set[str] | None) -> None:
    assert ggn.web.local_hosts(listening) == (None if expected is None else frozenset(expected))


@pytest.mark.parametrize("wrong", [None, 127001, b"127.0.0.1", ["127.0.0.1"]])
def test_local_hosts_takes_a_string(wrong: Any) -> None:
    # Was AttributeError ('NoneType' object has no attribute 'strip'): issue 16, finding 8.
    with pytest.raises(TypeError, match=f"host must be a host name or address, got {type(wrong).__name__}"):
        ggn.web.local_hosts(wrong)


def test_an_application_made_with_hosts_refuses_other_names() -> None:
    app = ggn.web.create_app(hosts=ggn.web.local_hosts("127.0.0.1"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/config").status_code == 200
        assert client.get("/api/config", headers={"host": "localhost:8000"}).status_code == 200
        refused = client.get("/api/config", headers={"host": "evil.example:8000"})
        assert refused.status_code == 400
        assert "Host" in refused.json()["error"]
        assert "games" not in refused.json()
        posted = client.post("/api/view", json={"game": "chess"}, headers={"host": "evil.example"})
        assert posted.status_code == 400
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    with TestClient(ggn.web.create_app(), base_url="http://evil.example") as anyone:
        assert anyone.get("/api/config").status_code == 200  # without hosts: any


def test_hosts_must_be_names() -> None:
    with pytest.raises(TypeError, match="hosts"):
        ggn.web.create_app(hosts="127.0.0.1")


def test_serve_on_this_machine_refuses_a_rebound_name() -> None:
    urls: list[str] = []
    server: dict[str, Any] = {}
    import uvicorn  # noqa: PLC0415

    started = threading.Event()
    original = uvicorn.Server.run

    def run(self: uvicorn.Server, sockets: Any = None) -> None:
        server["server"] = self
        started.set()
        original(self, sockets=sockets)

    uvicorn.Server.run = run  # type: ignore[method-assign]
    try:
        thread = threading.Thread(target=ggn.web.serve, kwargs={"port": 0, "ready": urls.append}, daemon=True)
        thread.start()
        assert started.wait(30)
        deadline = time.monotonic() + 30
        while not server["server"].started:
            assert thread.is_alive() and time.monotonic() < deadline, "the explorer did not start"
            time.sleep(0.02)
        url = urls[0]
        with urllib.request.urlopen(url + "api/config", timeout=30) as answer:
            assert answer.status == 200
        request = urllib.request.Request(url + "api/config", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 400
        refused.value.close()
    finally:
        uvicorn.Server.run = original  # type: ignore[method-assign]
        if "server" in server:
            server["server"].should_exit = True
            thread.join(timeout=30)
