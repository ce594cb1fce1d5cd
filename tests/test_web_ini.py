"""The explorer with a ``variants.ini`` file (``ggn serve --ini FILE``): it offers the file's
variants beside the built-in games, plays them by their rule systems and draws them.

The moves and positions the API answers for a variant of our own are checked against
Fairy-Stockfish (pyffish), which reads the same text.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyffish as sf
import pytest
from starlette.testclient import TestClient

import ggn.web
from ggn.variants import registry
from ggn.variants.registry import Catalogue
from web_support import WIZARD, WIZARD_INI, call, recorded

NAME, INI = WIZARD, WIZARD_INI  # Capablanca chess whose knights are wizards
PLIES = 40


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    games = Catalogue()
    assert games.add_ini(INI, "wizard.ini") == (NAME,)
    sf.load_variant_config(INI)
    return games


@pytest.fixture(scope="module")
def client(catalogue: Catalogue) -> Iterator[TestClient]:
    with TestClient(ggn.web.create_app({"game": NAME}, catalogue)) as made:
        yield made


def ok(client: TestClient, path: str, body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.json()
    return response.json()


def uci_moves(view: dict[str, Any]) -> dict[str, str]:
    """The view's plays by their UCI strings: source, destination and the promotion's letter."""
    out = {}
    for group in view["moves"]:
        for option in group["plays"]:
            choice = option["choice"]
            letter = "" if choice is None else choice.split(":")[1].lstrip("+-").rstrip("^").lower()
            out[group["source"] + group["destination"] + letter] = option["move"]
    return out


def test_the_variants_of_the_file_are_offered_after_the_built_ins(client: TestClient) -> None:
    assert client.get("/api/config").json() == {
        "games": [*registry.names(), NAME], "initial": {"game": NAME}, "engine": None}
    # Without the catalogue, the explorer knows only the built-in games.
    with TestClient(ggn.web.create_app()) as plain:
        response = plain.post("/api/view", json={"game": NAME})
        assert response.status_code == 404 and NAME in response.json()["error"]


def test_its_start_is_drawn_with_its_own_pieces(client: TestClient, catalogue: Catalogue) -> None:
    view = ok(client, "/api/view", {"game": NAME})
    start = sf.start_fen(NAME)
    assert view["fen"] == start and view["shape"] == [10, 8]
    assert view["board"]["b1"] == "W:W" and view["board"]["i8"] == "w:w"  # the variant's style
    assert view["svg"] == catalogue.entry(NAME).svg(view["feen"])
    assert set(uci_moves(view)) == set(sf.legal_moves(NAME, start, []))


@pytest.mark.parametrize("fen", [
    "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",  # castling both ways
    "4k5/P9/10/10/10/10/10/4K5 w - - 0 1",  # promotion to each of the six, the wizard among them
    "r1abqkbcwr/pppppppppp/10/10/4w5/10/PPPPPPPPPP/RWABQKBCWR w KQkq - 4 3",  # a wizard in play
])
def test_its_moves_are_pyffish_moves(client: TestClient, fen: str) -> None:
    view = ok(client, "/api/view", {"game": NAME, "position": fen})
    assert view["fen"] == fen
    assert set(uci_moves(view)) == set(sf.legal_moves(NAME, fen, []))


def test_a_game_played_through_the_api_keeps_pyffish_fen(client: TestClient) -> None:
    rng = random.Random(20261125)
    start = sf.start_fen(NAME)
    played: list[str] = []
    body: dict[str, Any] = {"game": NAME}
    for _ in range(PLIES):
        legal = sf.legal_moves(NAME, start, played)
        view = ok(client, "/api/view", body)
        moves = uci_moves(view)
        assert set(moves) == set(legal), played
        if not legal:
            break
        uci = rng.choice(sorted(legal))
        after = ok(client, "/api/play", {**body, "move": moves[uci]})
        played.append(uci)
        assert after["fen"] == sf.get_fen(NAME, start, played), played
        body = {"game": NAME, "position": after["feen"], "halfmove": after["halfmove"],
                "fullmove": after["fullmove"]}
    assert len(played) > PLIES // 2


# -- ggn serve --ini --------------------------------------------------------------------------

def test_serve_offers_the_variants_of_each_ini_file(tmp_path: Path) -> None:
    wizard = tmp_path / "wizard.ini"
    wizard.write_text(INI)
    more = tmp_path / "more.ini"  # a later file inherits from an earlier one's variants
    more.write_text(f"[tinywizard:{NAME}]\nmaxRank = 6\nstartFen = "
                    "rwabqkbcwr/pppppppppp/10/10/PPPPPPPPPP/RWABQKBCWR w KQkq - 0 1\n")
    fen = "4k5/P9/10/10/10/10/10/4K5 w - - 0 1"
    with recorded() as calls:
        assert call("serve", NAME, "--ini", str(wizard), "--fen", fen)[:2] == (
            0, "ggn explorer: http://127.0.0.1:8000/ (Ctrl-C stops it)\n")
        assert call("serve", "--ini", str(wizard), "--ini", str(more))[0] == 0
        assert call("serve", "tinywizard", "--ini", "-", "--ini", str(more), stdin=INI.encode())[0] == 0
    assert [c["initial"] for c in calls] == [
        {"game": NAME, "position": fen}, {"game": "chess", "position": None},
        {"game": "tinywizard", "position": None}]
    assert calls[0]["catalogue"].added() == (NAME,)
    assert calls[1]["catalogue"].added() == calls[2]["catalogue"].added() == (NAME, "tinywizard")
    with TestClient(ggn.web.create_app(calls[2]["initial"], calls[2]["catalogue"])) as client:
        view = ok(client, "/api/view", {"game": "tinywizard"})
        assert view["shape"] == [10, 6] and view["board"]["b1"] == "T:W"


def test_serve_refuses_a_bad_ini_file_before_listening(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ini"
    bad.write_text(f"[{NAME}:capablanca]\ncustomPiece1 = w:NW\nknight = -\nmaxRank = eleven\n")
    wizard = tmp_path / "wizard.ini"
    wizard.write_text(INI)
    with recorded() as calls:
        status, out, err = call("serve", "--ini", str(bad))
        assert (status, out) == (1, "") and err.startswith(f"ggn serve: {bad}:4") and "maxRank" in err
        # The variant is a game only with its file.
        status, _, err = call("serve", NAME)
        assert status == 2 and f"'{NAME}' is neither a built-in game" in err
        assert call("serve", "--ini", str(tmp_path / "absent.ini"))[0] == 2
        assert call("serve", "-", "--ini", "-", stdin=INI.encode()) == (
            2, "", "ggn serve: standard input is read once: give RULES or --ini as a file\n")
        assert call("serve", NAME, "8/8 / W/w", "--ini", str(wizard)) == (
            1, "", f"ggn serve: {NAME} is played on a board of 10x8 squares, not one of shape (8, 2)\n")
    assert calls == []
