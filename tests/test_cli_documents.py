"""legal, perft, play and show on a GGN document (a file, - or @FILE) in a game's place, played
by the generic rule system, ``RuleSystem(ruleset)``: the Game Protocol's displacement, a play
illegal if the opponent can then move onto one of the mover's terminal pieces, a player with no
legal play losing. The oracle: the generic-rule perft of ``ggn generate chess``'s document from
the start is python-chess's perft wherever no effect beyond displacement (castling, en passant,
promotion) can happen: depths 1 to 4."""

from __future__ import annotations

import io
import json
import pickle
import shlex
from pathlib import Path
from typing import Any

import pytest

from ggn import batch
from ggn.cli import run
from ggn.errors import GGNError
from ggn.parallel import Recipe
from ggn.rules import RuleSystem
from ggn.ruleset import Ruleset
from ggn.variants import registry

VALID = Path(__file__).parent / "vectors" / "ggn" / "valid"
CHESS = registry.start("chess")  # in FEEN: +rnbq+k^bn+r/... / C/c
ROOKS = "r7/8/8/8/8/8/8/R7 / C/c"  # spec 11.2's rook on a1, an enemy rook on a8
NO_TERMINAL = "names no terminal (^) piece"


def call(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def chess_document(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``ggn generate chess``'s output, in a file."""
    status, out, err = call("generate", "chess")
    assert (status, err) == (0, "")
    path = tmp_path_factory.mktemp("documents") / "chess.json"
    path.write_text(out, encoding="utf-8")
    return path


def python_chess_perft(depth: int) -> int:
    chess = pytest.importorskip("chess")

    def walk(board: Any, depth: int) -> int:
        if depth == 1:
            return int(board.legal_moves.count())
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += walk(board, depth - 1)
            board.pop()
        return total

    return walk(chess.Board(), depth)


# --- the oracle: python-chess, where no effect differs -----------------------------------------
@pytest.mark.parametrize("depth", [
    1, 2, 3, pytest.param(4, marks=pytest.mark.full),  # 4: python-chess alone takes over a second
])
def test_generic_perft_of_generated_chess_is_python_chess_perft(chess_document: Path, depth: int) -> None:
    # No castling, en passant or promotion can happen in 4 plies from the start: the generic
    # rule (displacement, and the terminal king never left attacked) is chess there.
    expected = python_chess_perft(depth)
    assert expected == (20, 400, 8902, 197281)[depth - 1]
    status, out, err = call("perft", str(chess_document), str(depth), "--feen", CHESS)
    assert (status, out, err) == (0, f"{expected}\n", "")


def test_divide_is_python_chess_divide_and_sums_to_the_total(chess_document: Path) -> None:
    chess = pytest.importorskip("chess")
    board = chess.Board()
    expected = {}
    for move in list(board.legal_moves):
        board.push(move)
        expected[(chess.square_name(move.from_square), chess.square_name(move.to_square))] = (
            board.legal_moves.count())
        board.pop()
    status, out, err = call("perft", str(chess_document), "2", "--feen", CHESS, "--divide")
    assert (status, err) == (0, "")
    *lines, total = out.splitlines()
    divided = {}
    for line in lines:  # 'C:N g1-f3: 20'
        move, count = line.rsplit(": ", 1)
        source, destination = move.split(" ")[1].split("-")
        divided[(source, destination)] = int(count)
    assert divided == expected
    assert total == f"total: {sum(expected.values())}" == "total: 400"


def test_jobs_2_counts_as_jobs_1(chess_document: Path) -> None:
    argv = ["perft", str(chess_document), "3", "--feen", CHESS, "--divide", "--format", "json"]
    status, one, err = call(*argv, "--jobs", "1")
    assert (status, err) == (0, "")
    status, two, err = call(*argv, "--jobs", "2")
    assert (status, err) == (0, "")
    assert json.loads(two) == json.loads(one)
    answer = json.loads(one)
    assert answer["nodes"] == sum(answer["divide"].values()) == 8902
    assert len(answer["divide"]) == 20 and answer["divide"]["C:P e2-e4"] == 600
    assert (answer["game"], answer["document"], answer["terminal"], answer["note"]) == (
        None, str(chess_document), True, None)


def test_a_document_recipe_travels_compressed_and_is_made_once(chess_document: Path) -> None:
    """Every task of a worker carries its recipe: a document's goes compressed (chess's 2 MB of
    JSON in well under a tenth), and a process that met it gets back the same Recipe, whose
    rules it made then."""
    recipe = Recipe.of(RuleSystem(Ruleset.loads(chess_document.read_text(encoding="utf-8"))))
    assert recipe.document is not None
    data = pickle.dumps(recipe)
    assert len(data) < len(recipe.document) // 10
    back = pickle.loads(data)
    assert back == recipe and pickle.loads(pickle.dumps(recipe)) is back
    assert back.rules() is pickle.loads(data).rules()
    assert pickle.loads(pickle.dumps(Recipe(game="chess"))) == Recipe(game="chess")


# --- legal, play, show on the generated document -----------------------------------------------
def test_legal_and_play_on_the_generated_document(chess_document: Path) -> None:
    status, out, err = call("legal", str(chess_document), CHESS)
    assert (status, err) == (0, "")
    assert sorted(out.splitlines()) == sorted(call("legal", "chess", "--notation", "ggn")[1].splitlines())
    # Fool's mate: the generic rule says checkmate as chess does.
    fools = ["C:P f2-f3", "c:p e7-e5", "C:P g2-g4", "c:q d8-h4"]
    status, out, err = call("play", str(chess_document), CHESS, *fools)
    assert (status, err) == (0, "")
    assert out == call("play", "chess", *fools, "--to", "feen", "--notation", "ggn")[1] == (
        "+rnb1+k^bn+r/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/+RNBQ+K^BN+R / C/c\n"
        "C:P f2-f3, c:p e7-e5, C:P g2-g4, c:q d8-h4\n"
        "0-1 second player wins by checkmate\n")
    status, out, _ = call("play", str(chess_document), "--feen", CHESS, *fools, "--format", "json")
    answer = json.loads(out)
    assert status == 0 and answer["outcome"] == {"result": "0-1", "reason": "checkmate"}
    assert (answer["game"], answer["document"], answer["moves"], answer["fen"], answer["claim"]) == (
        None, str(chess_document), fools, None, None)
    # An illegal move is invalid input, with the legal ones listed.
    status, _, err = call("play", str(chess_document), CHESS, "C:K^ e1-e2")
    assert status == 1 and "move 1: 'C:K^ e1-e2' is not a legal move" in err
    assert "C:P e2-e4" in err


def test_what_a_document_cannot_express_is_not_played(chess_document: Path) -> None:
    """Displacement only: castling moves the king alone, a pawn reaching the last rank stays a
    pawn, and an en passant capture takes nothing (docs/documents.md says so)."""
    castle = "+r3+k^2+r/8/8/8/8/8/8/+R3+K^2+R / C/c"
    status, out, _ = call("play", str(chess_document), castle, "C:+K^ e1-g1")
    assert (status, out) == (0, "+r3+k^2+r/8/8/8/8/8/8/+R5+K^+R / c/C\nC:+K^ e1-g1\n")  # the rook stays on h1
    assert call("play", "chess", castle, "C:+K^ e1-g1", "--to", "feen")[1] == (
        "+r3+k^2+r/8/8/8/8/8/8/R4RK^1 / c/C\nO-O\n")
    status, out, _ = call("legal", str(chess_document), "k^7/4P3/8/8/8/8/8/K^7 / C/c")
    assert status == 0 and "C:P e7-e8" in out.splitlines()  # one play, no choice of piece
    promoting = call("legal", "chess", "k^7/4P3/8/8/8/8/8/K^7 / C/c", "--notation", "ggn")[1]
    assert "C:P e7-e8=C:Q" in promoting


# --- the seeds' example documents -------------------------------------------------------------
@pytest.mark.parametrize(("name", "feen", "legal", "after"), [
    ("spec-11.1-basic.json", "8/8/8/8/8/8/8/R7 / C/c", ["C:R a1-a4"], "8/8/8/8/R7/8/8/8 / c/C"),
    ("spec-11.2-move-or-capture.json", "8/8/8/8/r7/8/8/R7 / C/c", ["C:R a1-a4"],
     "8/8/8/8/R7/8/8/8 r/ c/C"),  # the captured rook goes, unchanged, into the mover's hand
    ("spec-11.3-castling.json", "8/8/8/8/8/8/8/4+K2+R / C/c", ["C:+K e1-g1"],
     "8/8/8/8/8/8/8/6+K+R / c/C"),  # the king alone: GGN has no rook's move
    ("spec-11.4-drop.json", "9/9/9/9/9/9/9/9/9 P/ S/s", ["S:P *-e5"], "9/9/9/9/4P4/9/9/9/9 / s/S"),
    ("spec-11.5-cannon.json", "9/9/4R4/9/9/9/9/9/9/9 / x/X", [], None),  # c:x needs b2
    ("capture-to-hand.json", "8/8/8/4P3/8/8/8/8 / S/s", ["S:P e5-*"], "8/8/8/8/8/8/8/8 P/ s/S"),
    ("one-dimensional.json", "P1 / L/l", ["L:P a-b"], "1P / l/L"),
    ("three-dimensional.json", "3//3//R2 / R/r", ["R:R a1A-a1B", "R:R a1A-a1C"], "3//R2//3 / r/R"),
    ("spec-12.2-cross-style.json", "3Q4/8/8/8/8/8/8/8 / C/x", [], None),  # the queen is on d8, not d1
])
def test_the_seeds_examples(name: str, feen: str, legal: list[str], after: str | None) -> None:
    document = str(VALID / name)
    status, out, err = call("legal", document, feen)
    assert (status, out.splitlines()) == (0, legal)
    assert NO_TERMINAL in err  # none of them names a terminal piece: said so
    status, out, _ = call("perft", document, "1", "--feen", feen)
    assert (status, out) == (0, f"{len(legal)}\n")
    if after is not None:
        status, out, err = call("play", document, feen, legal[0])
        assert (status, out.splitlines()[0]) == (0, after), err


@pytest.mark.parametrize("name", sorted(path.name for path in VALID.glob("*.json")))
def test_every_valid_vector_is_played(name: str) -> None:
    """Each valid GGN vector, on a board of its moves' pieces or on an empty one: legal, perft
    and play answer (exit 0), with the note where no terminal piece is in play."""
    document = str(VALID / name)
    named = any("^" in piece for piece in json.loads(Path(document).read_text(encoding="utf-8")))
    for feen in ("8/8/8/8/8/8/8/8 / C/c", "k^7/8/8/8/8/8/8/K^7 / C/c"):
        status, out, err = call("legal", document, feen)
        assert status == 0, err
        assert (NO_TERMINAL in err) == ("^" not in feen and not named), name
        assert call("perft", document, "1", "--feen", feen)[1] == f"{len(out.splitlines())}\n"
        status, out, _ = call("play", document, feen)
        assert (status, out.splitlines()[0]) == (0, feen)


def test_a_game_ends_when_the_player_to_move_has_no_move() -> None:
    """No terminal piece: no play is illegal, no checkmate; the player with no move loses."""
    document = str(VALID / "spec-11.2-move-or-capture.json")
    status, out, err = call("play", document, ROOKS, "C:R a1-a4", "--format", "json")
    answer = json.loads(out)
    assert status == 0 and answer["outcome"] == {"result": "1-0", "reason": "no legal move"}
    assert answer["terminal"] is False and NO_TERMINAL in answer["note"]
    assert err == f"ggn play: note: {answer['note']}\n"
    assert "never ends by checkmate" in answer["note"]
    assert "has no move, and that player loses" in answer["note"]
    status, out, _ = call("play", document, ROOKS, "C:R a1-a4")
    assert out == "r7/8/8/8/R7/8/8/8 / c/C\nC:R a1-a4\n1-0 first player wins by no legal move\n"
    status, _, err = call("play", document, ROOKS, "C:R a1-a4", "c:r a8-a5")
    assert status == 1 and "comes after the end of the game (first player wins by no legal move)" in err


def test_a_terminal_piece_silences_the_note(tmp_path: Path) -> None:
    king = tmp_path / "king.json"
    king.write_text(json.dumps({"C:K^": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}}))
    status, out, err = call("perft", str(king), "1", "--feen", "8/8/8/8/8/8/8/K^7 / C/c", "--format", "json")
    assert (status, err) == (0, "")
    assert json.loads(out)["terminal"] is True and json.loads(out)["note"] is None
    # A terminal piece on the board that the document does not name counts too.
    rook = str(VALID / "spec-11.1-basic.json")
    status, out, err = call("perft", rook, "1", "--feen", "8/8/8/8/8/8/8/R6K^ / C/c", "--format", "json")
    assert (status, err, json.loads(out)["terminal"]) == (0, "", True)


# --- inputs: a file, -, @FILE, names before files ------------------------------------------------
def test_standard_input_and_at_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = (VALID / "spec-11.2-move-or-capture.json").read_bytes()
    expected = call("legal", str(VALID / "spec-11.2-move-or-capture.json"), ROOKS)
    assert expected[0] == 0 and expected[1] == "C:R a1-a4\n"
    assert call("legal", "-", ROOKS, stdin=document) == (
        0, "C:R a1-a4\n", expected[2].replace(str(VALID / "spec-11.2-move-or-capture.json"), "<stdin>"))
    monkeypatch.chdir(tmp_path)
    Path("chess").write_bytes(document)  # a file named as a game: ./chess and @chess are the file
    Path("-").write_bytes(document)  # @- is a file called -
    for name in ("./chess", "@chess", "@-"):
        status, out, _ = call("legal", name, ROOKS)
        assert (status, out) == (0, "C:R a1-a4\n"), name
        status, out, _ = call("perft", name, "1", "--feen", ROOKS)
        assert (status, out) == (0, "1\n"), name
        status, out, _ = call("play", name, ROOKS, "C:R a1-a4")
        assert (status, out.splitlines()[0]) == (0, "r7/8/8/8/R7/8/8/8 / c/C"), name
    assert call("legal", "chess")[1] == call("legal", "chess", CHESS)[1]  # the name: the game
    # moves reads @FILE too, alone and with --batch.
    assert call("moves", "@chess", ROOKS) == (0, "C:R a1-a4\n", "")
    status, out, _ = call("moves", "@chess", "--batch", "-", stdin=ROOKS.encode())
    assert (status, json.loads(out)) == (0, [{"piece": "C:R", "source": "a1", "destination": "a4"}])
    status, out, _ = call("perft", "-", "1", "--feen", ROOKS, stdin=document)
    assert (status, out) == (0, "1\n")
    status, out, _ = call("play", "-", ROOKS, "C:R a1-a4", stdin=document)
    assert (status, out.splitlines()[0]) == (0, "r7/8/8/8/R7/8/8/8 / c/C")
    status, out, _ = call("show", "@chess", ROOKS, "--moves-from", "a1")
    assert status == 0 and out.endswith("moves from a1: C:R a1-a4\n")


def test_batch_on_a_document(tmp_path: Path) -> None:
    document = str(VALID / "spec-11.2-move-or-capture.json")
    positions = tmp_path / "positions.txt"
    positions.write_text(f"{ROOKS}\n\nnot a position\n8/8/8/8/r7/8/8/R7 / C/c\n")
    status, out, err = call("legal", document, "--batch", str(positions))
    assert status == 1  # one bad line
    assert out.splitlines()[1] == "null"
    for answer, feen in zip(out.splitlines()[::2], [ROOKS, "8/8/8/8/r7/8/8/R7 / C/c"], strict=True):
        assert f"{answer}\n" == call("legal", document, feen, "--format", "json")[1]
    lines = err.splitlines()
    assert lines[0].startswith(f"ggn legal: note: {document} {NO_TERMINAL}: in a position whose board "
                               "holds none")
    assert lines[1].startswith("ggn legal: line 3: invalid FEEN 'not a position'") and len(lines) == 2
    assert call("legal", document, "--batch", str(positions), "--jobs", "2") == (status, out, err)
    assert call("legal", "-", "--batch", str(positions), stdin=Path(document).read_bytes())[1] == out
    assert call("legal", document, "--batch", "-", stdin=positions.read_bytes())[1] == out


def test_batch_on_the_generated_document_spread(chess_document: Path, tmp_path: Path) -> None:
    positions = tmp_path / "positions.txt"
    positions.write_text(f"{CHESS}\n4k^3/8/8/8/8/8/8/4K^2R / C/c\n")
    one = call("legal", str(chess_document), "--batch", str(positions))
    assert one[0] == 0 and one[2] == ""
    answers = [json.loads(line) for line in one[1].splitlines()]
    assert [len(answer) for answer in answers] == [20, 5 + 9]  # king, rook: no castling right (+)
    games = [json.loads(line) for line in
             call("legal", "chess", "--batch", str(positions), "--notation", "ggn")[1].splitlines()]
    key = lambda play: (play["source"], play["destination"])  # noqa: E731
    assert sorted(answers[1], key=key) == sorted(games[1], key=key)  # the same plays and transitions
    # The start: the same moves; chess's double step leaves a pawn marked '-' (en passant), a
    # document's displacement the pawn as it was.
    assert sorted(map(key, answers[0])) == sorted(map(key, games[0]))
    assert call("legal", str(chess_document), "--batch", str(positions), "--jobs", "2") == one


# --- usage errors ------------------------------------------------------------------------------
def test_usage_errors(tmp_path: Path) -> None:
    document = str(VALID / "spec-11.2-move-or-capture.json")
    no_feen = "give a FEEN position after a GGN file (only a built-in game has a default start position)"
    for argv in (["legal", document], ["perft", document, "2"], ["play", document, "C:R a1-a4"],
                 ["show", document]):
        status, out, err = call(*argv)
        assert (status, out, err) == (2, "", f"ggn {argv[0]}: {no_feen}\n"), argv
    fen = "r7/8/8/8/8/8/8/R7 w - - 0 1"
    for argv in (["legal", document, "--fen", fen], ["perft", document, "1", "--fen", fen],
                 ["play", document, "--fen", fen], ["show", document, "--fen", fen]):
        status, _, err = call(*argv)
        assert (status, err) == (2, f"ggn {argv[0]}: --fen reads a built-in game's FEN: give a FEEN "
                                    "after a GGN file\n"), argv
    for argv in (["legal", document, ROOKS], ["perft", document, "1", "--feen", ROOKS, "--divide"],
                 ["play", document, ROOKS, "a1a4"], ["legal", document, "--batch", "-"]):
        for notation in ("uci", "san", "usi"):
            status, _, err = call(*argv, "--notation", notation, stdin=ROOKS.encode())
            assert status == 2 and err.startswith(f"ggn {argv[0]}: --notation {notation} writes a built-in "
                                                  "game's moves, from its variant's pieces"), argv
            assert "'C:P e2-e4'" in err
    status, _, err = call("play", document, ROOKS, "C:R a1-a4", "--to", "fen")
    assert (status, err) == (2, "ggn play: --to fen writes a built-in game's FEN: a GGN document's "
                                "positions are written in FEEN (--to feen, the default)\n")
    status, _, err = call("legal", "-", ROOKS, "--ini", "-", stdin=b"")
    assert status == 2 and "standard input is read once" in err
    status, _, err = call("legal", "-", "--batch", "-", stdin=b"")
    assert (status, err) == (2, "ggn legal: standard input is read once: give --batch or GAME|RULES "
                                "and --ini as files\n")
    status, _, err = call("perft", "nosuchgame.json", "1", "--feen", ROOKS)
    assert (status, err) == (2, "ggn perft: no game 'nosuchgame.json' (nor a GGN file of that name); "
                                f"ggn variants lists the {len(registry.names())} games\n")
    status, _, err = call("legal", "chesss", "--batch", "-", stdin=b"")
    assert status == 2 and err.startswith("ggn legal: no game 'chesss' (nor a GGN file of that name); "
                                          "did you mean chess")
    status, _, err = call("legal", f"@{tmp_path / 'none.json'}", ROOKS)
    assert (status, err) == (2, f"ggn legal: cannot read {tmp_path / 'none.json'}: No such file or "
                                "directory\n")
    status, _, err = call("legal", document, "8/8 / C/c x")
    assert status == 1 and err.startswith("ggn legal: invalid FEEN")


def test_an_invalid_document_is_invalid_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"C:R": {"a1": {"a2": [{"must": {"a1": "empty"}}]}}}')  # GGN 1.0.0, 7.4
    for argv in (["legal", str(bad), ROOKS], ["perft", str(bad), "1", "--feen", ROOKS],
                 ["play", str(bad), ROOKS], ["legal", str(bad), "--batch", "-"]):
        status, out, err = call(*argv, stdin=b"")
        assert (status, out) == (1, ""), argv
        assert err.startswith(f"{bad}: invalid GGN document, 1 violation\n"), argv


def test_the_help_says_the_generic_rule_and_what_a_document_cannot_express() -> None:
    for command in ("legal", "perft", "play", "show"):
        _, text, _ = call(command, "--help")
        flat = " ".join(text.split())
        assert "GAME|RULES" in flat and "@FILE" in flat, command
        assert "terminal" in flat and "displacement" in flat, command
        assert "names come before files" in flat, command
    _, text, _ = call("legal", "--help")
    flat = " ".join(text.split())
    assert "no promotion, no castling rook, no en passant" in flat
    assert "a document with no terminal piece makes no play illegal" in flat


def test_every_help_example_on_a_document_runs(chess_document: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples of legal, perft, play and show that read a GGN file run on ggn generate
    chess's (chess.json, and my-game.json) and succeed."""
    monkeypatch.chdir(tmp_path)
    for name in ("chess.json", "my-game.json", "rules.json"):
        Path(name).write_bytes(chess_document.read_bytes())
    Path("positions.txt").write_text(f"{CHESS}\n")
    ran = 0
    for command in ("legal", "perft", "play", "show"):
        _, text, _ = call(command, "--help")
        for example in text.split("examples:\n", 1)[1].splitlines():
            if not example.startswith("  ggn ") or ".json" not in example:
                continue
            words = shlex.split(example.split("  #")[0])[1:]
            stdin = None
            if "<" in words:  # ggn legal - FEEN < chess.json
                stdin = Path(words[words.index("<") + 1]).read_bytes()
                words = words[:words.index("<")]
            if ">" in words:  # ... > moves.jsonl
                words = words[:words.index(">")]
            status, out, err = call(*words, stdin=stdin)
            assert (status, err) == (0, ""), example
            assert out, example
            ran += 1
    assert ran >= 7


def test_perft_batch_on_a_document_and_a_game(chess_document: Path, tmp_path: Path) -> None:
    """perft --batch: one JSON object a line (position, depth, nodes, and with --divide,
    divide), each count the single command's; --jobs spreads the lines."""
    positions = tmp_path / "positions.txt"
    kings = "4k^3/8/8/8/8/8/8/4K^2R / C/c"
    positions.write_text(f"{CHESS}\n\nnot a position\n{kings}\n")
    status, out, err = call("perft", str(chess_document), "2", "--batch", str(positions))
    assert status == 1 and err.startswith("ggn perft: line 3: invalid FEEN 'not a position'")
    answers = out.splitlines()
    assert answers[1] == "null"
    for answer, feen in zip([answers[0], answers[2]], [CHESS, kings], strict=True):
        single = json.loads(call("perft", str(chess_document), "2", "--feen", feen, "--format", "json")[1])
        assert json.loads(answer) == {"position": feen, "depth": 2, "nodes": single["nodes"]}
    assert json.loads(answers[0])["nodes"] == 400
    assert call("perft", str(chess_document), "2", "--batch", str(positions), "--jobs", "2") == (
        status, out, err)
    status, out, _ = call("perft", str(chess_document), "2", "--batch", str(positions), "--divide")
    divided = json.loads(out.splitlines()[0])
    assert divided["nodes"] == sum(divided["divide"].values()) == 400 and divided["divide"]["C:P e2-e4"] == 20
    # A game's lines may be FEN too, and its moves UCI.
    positions.write_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n")
    status, out, _ = call("perft", "chess", "1", "--batch", str(positions), "--divide", "--notation", "uci")
    answer = json.loads(out)
    assert status == 0 and answer["nodes"] == 26 and answer["divide"]["e1g1"] == 1
    status, _, err = call("perft", str(chess_document), "1", "--batch", str(positions), "--notation", "uci")
    assert status == 2 and "--notation uci writes a built-in game's moves" in err
    status, _, err = call("perft", "chess", "1", "--batch", str(positions), "--feen", CHESS)
    assert (status, err) == (2, "ggn perft: --batch reads the positions from its file: give no FEEN or "
                                "--fen with it\n")


def test_the_library_counts_a_batch_by_a_documents_generic_rule(chess_document: Path) -> None:
    rules = RuleSystem(Ruleset.loads(chess_document.read_text(encoding="utf-8")))
    results = list(batch.perft(rules, [CHESS, "", "x"], 3))
    assert [result.line for result in results] == [1, 3]
    assert results[0].value == {"position": CHESS, "depth": 3, "nodes": 8902} and not results[1].ok
    split = next(batch.perft(Recipe.of(rules), [CHESS], 1, divide=True)).value
    assert split["nodes"] == 20 and set(split["divide"].values()) == {1}
    zero = next(batch.perft(rules, [CHESS], 0, divide=True)).value
    assert zero == {"position": CHESS, "depth": 0, "nodes": 1}  # no first move to divide by
    with pytest.raises(GGNError, match="perft counts 0 to 64 plies, not 65"):
        batch.perft(rules, [CHESS], 65)
    with pytest.raises(TypeError, match="depth"):
        batch.perft(rules, [CHESS], "3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="uci moves need a game's description"):
        batch.perft(rules, [CHESS], 1, notation="uci")
