"""The explorer's engine (``ggn serve --engine``): ``POST /api/analyse`` answered by an engine
started in a worker process, within the request's limits, and the page's arrow of its best move.

Against Debian's stockfish and fairy-stockfish (in /usr/games; skipped, with the reason, where
they are not installed) and the fake engine of tests/fake_engine.py; the moves are checked with
python-chess and pyffish. The browser test drives Debian's chromium, as tests/test_web_browser.py.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest

from browser_support import ARGS, chromium
from ggn.variants.registry import Catalogue
from ggn.web import EngineSettings, Limits
from ggn.web._work import answer
from test_engine import FAIRY, FAKE, STOCKFISH, TINY_INI, needs_fairy, needs_stockfish
from test_web_records_browser import square
from web_support import call, recorded, running

pytestmark = pytest.mark.slow  # not in the README's quick run: engine processes and worker processes


def _analyse(body: dict[str, Any], engine: EngineSettings | None, catalogue: Catalogue | None = None,
             limits: Limits | None = None) -> tuple[int, dict[str, Any]]:
    status, written = answer("analyse", json.dumps(body).encode(), catalogue, limits or Limits(), engine)
    return status, json.loads(written)


@needs_stockfish
def test_the_best_move_of_a_chess_position() -> None:
    assert STOCKFISH is not None
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    status, found = _analyse({"game": "chess", "position": fen}, EngineSettings(STOCKFISH, movetime=200))
    assert status == 200, found
    board = chess.Board(fen)
    move = chess.Move.from_uci(found["bestmove"])
    assert move in board.legal_moves
    assert (found["source"], found["destination"]) == (chess.square_name(move.from_square),
                                                       chess.square_name(move.to_square))
    assert found["move"] == found["pv_moves"][0] and found["pv"][0] == found["bestmove"]
    for uci, san in zip(found["pv"], found["pv_san"], strict=True):  # SAN as python-chess writes it
        assert board.san(chess.Move.from_uci(uci)) == san
        board.push_uci(uci)
    assert set(found["score"]) == {"cp"} and found["engine"].startswith("Stockfish")
    # A mate in one, and a position with no move at all.
    status, found = _analyse({"game": "chess", "position": "7k/8/5QK1/8/8/8/8/8 w - - 0 1"},
                             EngineSettings(STOCKFISH, movetime=200))
    assert (status, found["score"]) == (200, {"mate": 1})
    assert chess.Board("7k/8/5QK1/8/8/8/8/8 w - - 0 1").is_checkmate() is False
    status, found = _analyse({"game": "chess", "position": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},
                             EngineSettings(STOCKFISH, movetime=200))
    assert (status, found["bestmove"], found["source"]) == (200, None, None)


@needs_fairy
def test_a_drop_and_a_variant_of_an_ini_file() -> None:
    pyffish = pytest.importorskip("pyffish")
    assert FAIRY is not None
    engine = EngineSettings(FAIRY, movetime=200)
    fen = "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1"
    status, found = _analyse({"game": "crazyhouse", "position": fen}, engine)
    assert status == 200, found
    assert found["bestmove"] in pyffish.legal_moves("crazyhouse", fen, [])
    if "@" in found["bestmove"]:
        assert found["source"] == "*"
    catalogue = Catalogue()
    catalogue.add_ini(TINY_INI, "tiny.ini")
    pyffish.load_variant_config(TINY_INI)
    status, found = _analyse({"game": "sixranks"}, engine, catalogue)
    assert status == 200, found
    assert found["bestmove"] in pyffish.legal_moves("sixranks", pyffish.start_fen("sixranks"), [])


def test_without_an_engine_for_a_document_and_for_an_engine_that_fails(tmp_path: Path) -> None:
    assert _analyse({"game": "chess"}, None) == (
        404, {"error": "the explorer was started without an engine (ggn serve --engine PATH)"})
    fake = EngineSettings(FAKE, movetime=10)
    status, found = _analyse({"document": "{}", "position": "8/8/8/8/8/8/8/8 / C/c"}, fake)
    assert status == 422 and "a pasted GGN document names no game an engine knows" in found["error"]
    assert _analyse({"game": "chess"}, fake)[1]["bestmove"] == "e2e4"
    hang = tmp_path / "hang"
    hang.symlink_to(FAKE)
    started = time.monotonic()
    status, found = _analyse({"game": "chess"}, EngineSettings(str(hang), movetime=10),
                             limits=Limits(seconds=12))  # 3 s for each of the engine's answers
    assert status == 502 and "did not give its best move within 3 s of being told to stop" in found["error"]
    assert time.monotonic() - started < 30
    assert not _running(hang)


def _running(path: Path) -> list[int]:
    """The processes whose command line names ``path``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if str(path).encode() in line:
            status = Path(f"/proc/{pid}/status")
            if status.exists() and "zombie" not in status.read_text():
                found.append(int(pid))
    return found


@pytest.fixture
def hanging(tmp_path: Path) -> Path:
    hang = tmp_path / "hang"
    hang.symlink_to(FAKE)
    return hang


def test_a_worker_stopped_at_its_time_limit_takes_its_engine_with_it(hanging: Path) -> None:
    settings = EngineSettings(str(hanging), movetime=60_000)
    with running(catalogue=None, limits=Limits(seconds=8, workers=1), engine=settings) as url:
        config = json.loads(urllib.request.urlopen(f"{url}/api/config", timeout=30).read())
        assert config["engine"] == {"name": str(hanging), "protocol": "uci", "movetime": 60_000}
        sent = urllib.request.Request(f"{url}/api/analyse", data=b'{"game": "chess"}',
                                      headers={"Content-Type": "application/json"}, method="POST")
        try:
            urllib.request.urlopen(sent, timeout=60)
        except urllib.error.HTTPError as failure:
            status, body = failure.code, json.loads(failure.read())
        else:
            raise AssertionError("the request was answered 200")
        assert status == 503 and body["limit"] == "seconds", body
        deadline = time.monotonic() + 10
        while _running(hanging) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(hanging)


@needs_stockfish
def test_serve_checks_its_engine_before_it_listens(tmp_path: Path) -> None:
    assert STOCKFISH is not None
    with recorded() as calls:
        status, _, err = call("serve", "chess", "--engine", STOCKFISH, "--engine-movetime", "500")
    assert status == 0, err
    (made,) = calls
    assert made["engine"] == EngineSettings(STOCKFISH, "uci", 500, "Stockfish 15.1")
    with recorded() as calls:
        assert call("serve", "chess", "--engine", str(tmp_path / "none"))[0] == 2
        status, _, err = call("serve", "chess", "--engine", STOCKFISH, "--engine-movetime", "15000")
        assert status == 2 and "over half the time limit of a request (20 s)" in err
        status, _, err = call("serve", "chess", "--engine", STOCKFISH, "--engine-protocol", "usi")
        assert status == 1 and "does not speak USI" in err
        assert call("serve", "chess")[0] == 0
    assert [made["engine"] for made in calls] == [None]


# --- the page ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def engine_page() -> Iterator[Any]:
    pytest.importorskip("playwright")
    if chromium() is None or STOCKFISH is None:
        pytest.skip("needs Debian's chromium and stockfish (.ci/run installs them)")
    from playwright.sync_api import sync_playwright  # noqa: PLC0415  (the test extra's, on use)

    with running(engine=EngineSettings(STOCKFISH, movetime=200, name="Stockfish 15.1")) as url, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready='true']", timeout=30_000)
            yield page
        finally:
            browser.close()


def test_the_page_draws_the_engines_best_move_as_an_arrow(engine_page: Any) -> None:
    page = engine_page
    assert page.locator("#engine").is_visible()
    assert "Stockfish 15.1" in page.locator("#engine-name").inner_text()
    page.wait_for_selector("#board .engine-arrow", timeout=30_000)
    best = page.locator("#engine-answer").get_attribute("data-bestmove")
    assert best is not None and chess.Move.from_uci(best) in chess.Board().legal_moves
    assert page.locator("#board .engine-arrow").get_attribute("data-move") == f"{best[:2]}-{best[2:4]}"
    san = chess.Board().san(chess.Move.from_uci(best))  # python-chess's SAN of the move
    assert page.locator("#engine-answer").inner_text().startswith(f"best {san} ({best}), depth ")
    assert page.locator("#engine-score").inner_text()  # the score, from white's side (engine.js)
    # A move played: the arrow is the new position's.
    square(page, "e2").click()
    square(page, "e4").click()
    page.wait_for_function("() => document.getElementById('fen').textContent.includes(' b ')")
    page.wait_for_selector("#board .engine-arrow", timeout=30_000)
    best = page.locator("#engine-answer").get_attribute("data-bestmove")
    board = chess.Board()
    board.push_uci("e2e4")
    assert best is not None and chess.Move.from_uci(best) in board.legal_moves
    # Turned off: no arrow.
    page.locator("#engine-on").uncheck()
    assert page.locator("#board .engine-arrow").count() == 0
