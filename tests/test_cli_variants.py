"""The variant commands of ``ggn`` (variants, legal, perft, play, position, --ini), checked
against Fairy-Stockfish (pyffish) where they state facts, and held to the exit contract."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from ggn.cli import run
from ggn.variants import registry

sf = pytest.importorskip("pyffish")

REQUIRED = ["chess", "capablanca", "gothic", "embassy", "janus", "almost", "chancellor", "amazon",
            "courier", "shatranj", "makruk", "xiangqi", "minixiangqi", "shogi", "minishogi",
            "crazyhouse", "losalamos", "gardner", "knightmate", "kingofthehill"]

# A variant of our own in variants.ini syntax, which pyffish reads too: chess on 8x6 whose
# knights also move as a wazir, and whose pawns promote to queen or knight only.
MINI_INI = """\
# a user's file
[minichess:chess]
maxRank = 6
customPiece1 = w:NW
knight = -
startFen = rwbqkbwr/pppppppp/8/8/PPPPPPPP/RWBQKBWR w KQkq - 0 1
promotionPieceTypes = qw
promotionRegionWhite = *6
promotionRegionBlack = *1
doubleStep = false
"""


START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def split(ci: list[str], full: list[str]) -> list[object]:
    """Variants for a test: those CI runs, then those only the full run adds."""
    return [*ci, *(pytest.param(name, marks=pytest.mark.full) for name in full)]


def call(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


def _fields(fen: str) -> list[str]:
    """A FEN without its move counters (FEEN holds none)."""
    return fen.split(" ")[:-2]


def _random_game(variant: str, plies: int, rng: random.Random, fen: str | None = None) -> list[str]:
    start = fen or sf.start_fen(variant)
    moves: list[str] = []
    for _ in range(plies):
        legal = sf.legal_moves(variant, start, moves)
        if not legal or sf.is_immediate_game_end(variant, start, moves)[0]:
            break
        moves.append(rng.choice(sorted(legal)))
    return moves


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ini") / "mini.ini"
    path.write_text(MINI_INI)
    sf.load_variant_config(MINI_INI)
    return path


# --- ggn variants -----------------------------------------------------------------------------
def test_variants_lists_fairy_stockfish_variants_with_their_boards() -> None:
    status, out, err = call("variants", "--format", "json")
    assert (status, err) == (0, "")
    listed = json.loads(out)
    names = [game["name"] for game in listed]
    assert names == list(registry.names()) and len(set(names)) == len(names)
    assert len(names) >= 60 and set(REQUIRED) <= set(names)
    fsf = set(sf.variants())
    for game in listed:
        assert game["name"] in fsf, game["name"]
        start = sf.start_fen(game["name"])
        assert _fields(game["fen"]) == _fields(start), game["name"]
        ranks = start.split(" ")[0].split("[")[0].split("/")
        files = sum(int(run) if run.isdigit() else 1 for run in re.findall(r"\d+|\+?[A-Za-z*]~?", ranks[0]))
        assert game["board"] == [files, len(ranks)], game["name"]
        assert game["source"] == "builtin"
        assert registry.start(game["name"]) == game["start"]
        assert game["engine"] in ("native", "pure")
        assert (game["engine"] == "pure") == bool(game["engine_reason"])
        assert game["playout_engine"] in ("native", "pure")
        assert (game["playout_engine"] == "pure") == bool(game["playout_engine_reason"])
        if game["engine"] == "pure":  # no playout in a kernel that does not play the game
            assert (game["playout_engine"], game["playout_engine_reason"]) == ("pure", game["engine_reason"])
    engines = {game["name"]: (game["engine"], game["engine_reason"]) for game in listed}
    playouts = {game["name"]: (game["playout_engine"], game["playout_engine_reason"]) for game in listed}
    if engines["chess"][0] == "native":  # the kernel is built here
        assert engines["antichess"] == ("native", "")  # forced captures and extinction: the kernel's
        assert engines["placement"] == ("native", "")  # its drop rules are the kernel's too
        assert all(engine == ("native", "") for engine in engines.values()), engines  # all 117
        # Playouts: the kernel replays every end but these games' (ggn.rules.playout falls back).
        assert playouts["chess"] == playouts["atomic"] == playouts["crazyhouse"] == ("native", "")
        assert playouts["xiangqi"] == ("pure", "perpetual chasing (chasingRule)")
        assert playouts["janggimodern"] == ("pure", "repeated moves (moveRepetitionIllegal)")
        pure = {name for name, (used, _) in playouts.items() if used == "pure"}
        assert pure == {"shatar", "xiangqi", "janggimodern"}
        assert playouts["amazons"] == playouts["duck"] == ("native", "")  # walls placed: the kernel's
        assert playouts["janggi"] == ("native", "")  # passes and bikjang: the kernel's
    status, text, _ = call("variants")
    assert status == 0 and len(text.splitlines()) == len(names)
    assert re.search(r"^capablanca +10x8$", text, re.MULTILINE)


def test_variants_with_an_ini_file_adds_its_variants(mini: Path) -> None:
    status, out, err = call("variants", "--ini", str(mini), "--format", "json")
    assert (status, err) == (0, "")
    last = json.loads(out)[-1]
    assert (last["name"], last["board"], last["source"]) == ("minichess", [8, 6], str(mini))
    assert _fields(last["fen"]) == _fields(sf.start_fen("minichess"))
    status, out, _ = call("variants", "--ini", str(mini))
    assert out.splitlines()[-1].split() == ["minichess", "8x6", str(mini)]
    # Standard input once, as any file.
    status, out, _ = call("variants", "--ini", "-", "--format", "json", stdin=MINI_INI.encode())
    assert status == 0 and json.loads(out)[-1]["source"] == "<stdin>"


# --- ggn legal --------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", split(["capablanca", "shogi", "crazyhouse"],
                                           [name for name in registry.names() if name not in
                                            ("capablanca", "shogi", "crazyhouse")]))
def test_legal_uci_json_equals_pyffish_at_the_start(variant: str) -> None:
    status, out, err = call("legal", variant, "--notation", "uci", "--format", "json")
    assert (status, err) == (0, "")
    moves = json.loads(out)
    assert len(moves) == len(set(moves))
    assert set(moves) == set(sf.legal_moves(variant, sf.start_fen(variant), []))


@pytest.mark.parametrize("variant", split(["chess", "crazyhouse", "knightmate"],
                                           ["capablanca", "shogi", "grand", "xiangqi", "makruk"]))
def test_legal_from_a_fen_of_a_random_game_equals_pyffish(variant: str) -> None:
    rng = random.Random(f"legal {variant}")
    for _ in range(2):
        moves = _random_game(variant, rng.randrange(4, 40), rng)
        fen = sf.get_fen(variant, sf.start_fen(variant), moves)
        status, out, err = call("legal", variant, "--fen", fen, "--notation", "uci")
        assert (status, err) == (0, ""), fen
        assert set(out.split()) == set(sf.legal_moves(variant, fen, [])), fen


def test_legal_text_and_ggn_json() -> None:
    status, out, _ = call("legal", "chess")
    assert status == 0 and len(out.splitlines()) == 20 and "e4\n" in out and "Nf3\n" in out
    status, out, _ = call("legal", "chess", "--notation", "ggn")
    assert status == 0 and len(out.splitlines()) == 20 and "C:P e2-e4\n" in out
    status, out, _ = call("legal", "chess", "--format", "json")
    listed = json.loads(out)
    assert {"san": "e4", "uci": "e2e4", "piece": "C:P", "source": "e2", "destination": "e4", "choice": None,
            "transition": {"board_diff": {"e2": None, "e4": "C:-P"}, "toggle": True}} in listed
    status, out, _ = call("legal", "chess", "--notation", "ggn", "--format", "json")
    assert json.loads(out) == [{key: value for key, value in move.items() if key not in ("san", "uci")}
                               for move in listed]
    status, out, _ = call("legal", "chess", "--notation", "san", "--format", "json")
    assert sorted(json.loads(out)) == sorted(move["san"] for move in listed)
    feen = "7k^/1P6/8/8/8/8/8/K^7 / C/c"
    status, out, _ = call("legal", "chess", feen, "--notation", "uci")
    assert set(out.split()) == {"b7b8q", "b7b8r", "b7b8b", "b7b8n", "a1a2", "a1b1", "a1b2"}
    status, out, _ = call("legal", "chess", feen, "--format", "json")
    assert {move["choice"] for move in json.loads(out)} == {None, "C:Q", "C:R", "C:B", "C:N"}


def test_a_position_in_another_games_styles_is_refused(mini: Path) -> None:
    """A position in shogi's styles given to chess: exit 1, the game's styles and those given
    said, no traceback."""
    shogi_styled = registry.start("chess").replace(" / C/c", " / S/s")
    said = "chess is played in the styles C/c (first player/second player), not S/s\n"
    assert call("legal", "chess", shogi_styled) == (1, "", "ggn legal: " + said)
    assert call("perft", "chess", "1", "--feen", shogi_styled) == (1, "", "ggn perft: " + said)
    assert call("play", "chess", shogi_styled) == (1, "", "ggn play: " + said)
    assert call("show", "chess", shogi_styled) == (1, "", "ggn show: " + said)
    # A variants.ini game has its own style letter (its name's first, here M): chess's is refused.
    chess_styled = "+rwbq+k^bw+r/pppppppp/8/8/PPPPPPPP/+RWBQ+K^BW+R / C/c"
    assert call("legal", "minichess", chess_styled.replace("C/c", "M/m"), "--ini", str(mini))[0] == 0
    assert call("legal", "minichess", chess_styled, "--ini", str(mini)) == (
        1, "", "ggn legal: minichess is played in the styles M/m (first player/second player), not C/c\n")


def test_legal_of_an_ini_variant_equals_pyffish(mini: Path) -> None:
    status, out, err = call("legal", "minichess", "--ini", str(mini), "--notation", "uci", "--format", "json")
    assert (status, err) == (0, "")
    assert set(json.loads(out)) == set(sf.legal_moves("minichess", sf.start_fen("minichess"), []))


# --- ggn perft --------------------------------------------------------------------------------
def _fsf_perft(variant: str, fen: str, moves: list[str], depth: int) -> int:
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(_fsf_perft(variant, fen, [*moves, move], depth - 1) for move in legal)


def test_perft_divide_in_uci_equals_pyffish() -> None:
    status, out, err = call("perft", "chess", "3", "--divide", "--notation", "uci")
    assert (status, err) == (0, "")
    *lines, last = out.splitlines()
    start = sf.start_fen("chess")
    expected = {move: _fsf_perft("chess", start, [move], 2) for move in sf.legal_moves("chess", start, [])}
    assert dict(line.split(": ") for line in lines) == {move: str(count) for move, count in expected.items()}
    assert last == f"total: {sum(expected.values())}" == "total: 8902"


@pytest.mark.parametrize(("variant", "depth"), [("capablanca", 2), ("minishogi", 2), ("minixiangqi", 3)])
def test_perft_of_variants_equals_pyffish(variant: str, depth: int) -> None:
    count = _fsf_perft(variant, sf.start_fen(variant), [], depth)
    assert call("perft", variant, str(depth)) == (0, f"{count}\n", "")


def test_perft_from_a_fen_and_of_an_ini_variant(mini: Path) -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert call("perft", "chess", "2", "--fen", fen) == (0, "568\n", "")
    assert call("perft", "minichess", "3", "--ini", str(mini)) == (
        0, f"{_fsf_perft('minichess', sf.start_fen('minichess'), [], 3)}\n", "")
    status, _, err = call("perft", "chess", "1", "--fen", fen, "--feen", "k^7/8/8/8/8/8/8/K^7 / C/c")
    assert status == 2 and "not allowed with argument" in err


# --- ggn play ---------------------------------------------------------------------------------
def test_play_prints_the_position_and_the_outcome() -> None:
    status, out, err = call("play", "chess", "f2f3", "e7e5", "g2g4", "d8h4", "--to", "feen")
    assert (status, err) == (0, "")
    feen, moves, outcome = out.splitlines()
    assert (moves, outcome) == ("f3 e5 g4 Qh4#", "0-1 second player wins by checkmate")
    assert feen == "+rnb1+k^bn+r/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/+RNBQ+K^BN+R / C/c"
    status, out, _ = call("play", "chess", "C:P e2-e4", "c:p e7-e5", "--to", "feen", "--notation", "ggn")
    assert out == "+rnbq+k^bn+r/pppp1ppp/8/4-p3/4P3/8/PPPP1PPP/+RNBQ+K^BN+R / C/c\nC:P e2-e4, c:p e7-e5\n"
    # A FEEN before the moves is the position they start from.
    status, out, _ = call("play", "chess", "7k^/1P6/8/8/8/8/8/K^7 / C/c", "b7b8q", "--notation", "uci",
                          "--to", "feen")
    assert out == "1Q5k^/8/8/8/8/8/8/K^7 / c/C\nb7b8q\n"
    status, out, _ = call("play", "chess", "7k^/1P6/8/8/8/8/8/K^7 / C/c", "b8=Q+")
    assert out == "1Q5k/8/8/8/8/8/8/K7 b - - 0 1\nb8=Q+\n"


@pytest.mark.parametrize("variant", split(["chess", "crazyhouse", "xiangqi", "kingofthehill"],
                                           ["capablanca", "shogi", "makruk", "losalamos", "grand", "janus"]))
def test_play_to_fen_equals_pyffish_after_a_random_game(variant: str) -> None:
    rng = random.Random(f"play {variant}")
    start = sf.start_fen(variant)
    for _ in range(2):
        moves = _random_game(variant, rng.randrange(1, 60), rng)
        status, out, err = call("play", variant, *moves, "--notation", "uci")
        assert (status, err) == (0, ""), moves
        fen, written, *outcome = out.splitlines()
        assert written.split() == moves
        expected = sf.get_fen(variant, start, moves)
        assert _fields(fen) == _fields(expected), moves
        if variant in ("chess", "crazyhouse", "capablanca"):
            assert fen == expected, moves  # the move counters too
        ended = sf.is_immediate_game_end(variant, start, moves)[0]
        assert bool(outcome) == (ended or not sf.legal_moves(variant, start, moves)), moves


def test_play_from_a_fen_carries_its_counters_on() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    moves = ["e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6"]
    status, out, _ = call("play", "chess", "--fen", fen, *moves, "--format", "json")
    assert (status, json.loads(out)["fen"]) == (0, sf.get_fen("chess", fen, moves))


@pytest.mark.parametrize(("variant", "moves"), [
    ("antichess", ["e2e4", "d7d5"]),
    ("chess", ["e2e4", "d7d5", "g1f3", "g8f6"]),
    ("shogi", ["c3c4", "g7g6"]),
])
def test_an_illegal_move_names_the_position_with_the_games_counters(variant: str, moves: list[str]) -> None:
    # The FEN in the message is the game's, counters included, as pyffish writes it.
    status, _, err = call("play", variant, *moves, "a1a1")
    assert status == 1, err
    assert repr(sf.get_fen(variant, sf.start_fen(variant), moves)) in err, err


def test_an_illegal_move_is_invalid_input_naming_it_and_the_legal_ones() -> None:
    status, out, err = call("play", "chess", "e2e4", "e2e4")
    assert (status, out) == (1, "")
    assert err.startswith("ggn play: move 2: 'e2e4' is not a legal move") and err.count("\n") == 1
    status, _, err = call("play", "chess", "C:P e2-e5")
    assert status == 1 and err.startswith("ggn play: move 1: 'C:P e2-e5' is not a legal move")
    # After the end of the game, a move says so.
    status, _, err = call("play", "chess", "f3", "e5", "g4", "Qh4#", "a3")
    assert (status, err) == (1, "ggn play: move 5, 'a3', comes after the end of the game (second "
                                "player wins by checkmate)\n")


# --- ggn position -----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", split(["chess", "crazyhouse", "xiangqi"], ["shogi", "grand"]))
def test_position_round_trips_fen_and_feen(variant: str) -> None:
    rng = random.Random(f"position {variant}")
    start = sf.start_fen(variant)
    fen = sf.get_fen(variant, start, _random_game(variant, 20, rng))
    status, feen, err = call("position", variant, "--fen", fen, "--to", "feen")
    assert (status, err) == (0, "")
    assert call("position", variant, "--feen", feen.strip(), "--to", "feen") == (0, feen, "")
    status, back, _ = call("position", variant, "--feen", feen.strip(), "--to", "fen")
    assert _fields(back.strip()) == _fields(fen)
    assert call("position", variant, "--fen", fen, "--to", "fen") == (0, fen + "\n", "")
    assert call("position", variant, "--fen", fen) == (0, feen, "")  # the other form by default
    assert _fields(call("position", variant, "--feen", feen.strip())[1].strip()) == _fields(fen)


# --- the exit contract ------------------------------------------------------------------------
def test_exit_statuses_of_the_variant_commands(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ini"
    bad.write_text("[good:chess]\ndoubleStep = false\n\n[broken:chess]\nnoSuchOption = 1\n")
    status, out, err = call("variants", "--ini", str(bad))
    assert (status, out) == (1, "")
    assert err.startswith(f"ggn variants: {bad}:5: ") and "noSuchOption" in err and err.count("\n") == 1
    # Nothing of a bad file is added: not even its good section.
    assert call("legal", "good", "--ini", str(bad))[0] == 1
    clash = tmp_path / "clash.ini"
    clash.write_text("# mine\n[chess]\nmaxRank = 6\n")
    status, _, err = call("variants", "--ini", str(clash))
    assert status == 1
    assert err == f"ggn variants: {clash}:2: [chess] is already a variant; give this one another name\n"
    binary = tmp_path / "binary.ini"
    binary.write_bytes(b"[x:chess]\nmaxRank = \xff\n")
    status, _, err = call("legal", "x", "--ini", str(binary))
    assert status == 1 and "not UTF-8" in err
    assert call("variants", "--ini", str(tmp_path / "none.ini"))[0] == 2
    assert call("variants", "--ini", str(tmp_path))[0] == 2
    status, _, err = call("legal", "capablance")
    assert status == 2
    assert err == ("ggn legal: no game 'capablance' (nor a GGN file of that name); did you mean "
                   f"capablanca, caparandom? ggn variants lists the {len(registry.names())} games\n")
    for command in (("legal", "go"), ("perft", "go", "1"), ("play", "go", "e2e4"), ("generate", "go"),
                    ("position", "go", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--to", "feen")):
        assert call(*command)[0] == 2, command
    status, _, err = call("legal", "chess", "--fen", START_FEN.replace("KBNR", "KBNX"))
    assert status == 1 and err.startswith("ggn legal: invalid FEN ")
    assert "'X' is not a piece letter of chess" in err
    status, _, err = call("legal", "chess", START_FEN)
    assert status == 1 and "is a FEN, not FEEN: give it with --fen" in err
    status, _, err = call("legal", "chess", "k^7/8/8/8/8/8/8/K^7 / C/c", "--fen", START_FEN)
    assert status == 2 and "not both" in err
    assert call("legal", "shogi", "--fen", sf.start_fen("chess"))[0] == 1  # a chess FEN is no shogi one
    assert call("position", "chess", "--to", "fen")[0] == 2  # --fen or --feen is required
    assert call("variants", "--ini", "-", "--ini", "-", stdin=b"")[0] == 2


NEW = ["variants", "legal", "play", "position", "perft"]


@pytest.mark.parametrize("command", NEW)
def test_help_teaches_with_examples(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "72")
    status, out, _ = call(command, "--help")
    assert status == 0
    assert re.search(f"examples:\n  ggn {command}\\b", out)
    prose = [line for line in out.splitlines() if line[:1].strip()]
    assert max(map(len, prose)) <= 70
    assert command == "variants" or "--ini FILE" in out


def test_every_help_example_of_the_new_commands_runs() -> None:
    """The examples the help gives (those that need no file of the reader's) run and succeed."""
    for command in NEW:
        _, text, _ = call(command, "--help")
        examples = text.split("examples:\n", 1)[1].splitlines()
        for example in examples:
            # (--batch reads a file of the reader's: tests/test_cli_parallel.py runs it; a GGN
            # document's, tests/test_cli_documents.py.)
            if (not example.startswith("  ggn ") or "--ini" in example or "..." in example
                    or "--batch" in example or ".json" in example):
                continue
            import shlex  # noqa: PLC0415

            argv = shlex.split(example.split("  #")[0])[1:]
            assert call(*argv)[0] == 0, example
