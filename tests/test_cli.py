"""The ``ggn`` command, through ``run(argv, stdout, stderr)``, and once as a real process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ggn.cli import run

VECTORS = Path(__file__).parent / "vectors"
NOTATIONS = ["cell", "hand", "sin", "pin", "epin", "qpi", "gan", "feen"]


def call(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


def _notation_vectors(validity: str) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []
    for kind in NOTATIONS:
        data = json.loads((VECTORS / f"{kind}.json").read_text())
        cases.extend((kind, case) for case in data[validity])
    return cases


@pytest.mark.parametrize(("kind", "case"), _notation_vectors("valid"), ids=lambda x: repr(x)[:40])
def test_parse_valid_prints_exact_fields(kind: str, case: dict[str, Any]) -> None:
    status, out, err = call("parse", kind, case["text"])
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    assert json.loads(out) == case["fields"]


@pytest.mark.parametrize(("kind", "case"), _notation_vectors("invalid"), ids=lambda x: repr(x)[:40])
def test_parse_invalid_says_what_and_where(kind: str, case: dict[str, Any]) -> None:
    status, out, err = call("parse", kind, case["text"])
    assert (status, out) == (1, "")
    assert err.startswith(f"ggn parse {kind}: invalid ")
    if case["text"]:
        assert "^" in err  # the marker under the fault


def test_parse_examples_from_the_contract() -> None:
    assert json.loads(call("parse", "sin", "c")[1]) == {"style": "C", "side": "second"}
    assert json.loads(call("parse", "qpi", "C:k")[1]) == {
        "name": "K", "side": "second", "state": "normal", "terminal": False,
        "style": "C", "native": False,
    }
    assert json.loads(call("parse", "gan", "xiangqi:rook")[1]) == {
        "game": "XIANGQI", "piece": "ROOK", "side": "second",
    }
    assert json.loads(call("parse", "hand", "*")[1]) == {}
    feen = json.loads(call("parse", "feen", "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c")[1])
    assert feen["shape"] == [8, 8]
    assert feen["active"] == "first"
    assert feen["styles"] == {"first": "C", "second": "c"}
    assert feen["board"]["e1"] == "C:+K^"
    assert feen["board"]["a8"] == "c:+r"
    assert len(feen["board"]) == 32
    assert feen["hands"] == {"first": {}, "second": {}}


def test_parse_usage_errors_exit_2() -> None:
    status, out, err = call("parse", "fen", "x")
    assert (status, out) == (2, "")
    assert "invalid choice: 'fen'" in err
    assert call("parse", "cell")[0] == 2
    assert call()[0] == 2
    assert call("frobnicate")[0] == 2


def test_help_teaches() -> None:
    status, out, _ = call("--help")
    assert status == 0
    for word in ("parse", "validate", "lint", "schema", "examples:", "exit status"):
        assert word in out
    status, out, _ = call("validate", "--help")
    assert status == 0
    assert "--as" in out and "ggn-legacy" in out and "JSON Pointer" in out


COMMANDS = ["parse", "validate", "lint", "schema", "demo", "moves", "apply", "diff", "generate",
            "convert", "perft"]


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_prose_is_wrapped_to_the_terminal_and_examples_kept(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A command's description is one long line in the source: it was printed as one line of
    # hundreds of characters. Indented lines (examples, tables) are kept as written.
    monkeypatch.setenv("COLUMNS", "72")
    status, out, _ = call(*filter(None, [command, "--help"]))
    assert status == 0
    prose = [line for line in out.splitlines() if line[:1].strip()]
    assert prose and max(map(len, prose)) <= 70, command
    if command == "parse":
        shogi = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
        assert f"\n  ggn parse feen '{shogi}'\n" in out


def test_validate_text_and_json(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"C:R": {"a1": {"a4": [{"must": {"a2": "empty", "a3": "empty", "a4": "empty"}}]}}}')
    assert call("validate", str(good)) == (0, f"{good}: valid GGN document\n", "")
    bad = tmp_path / "bad.json"
    bad.write_text('{"C:R": {"a1": {"a4": [{"must": {"a1": "empty"}}]}}}')
    status, out, err = call("validate", str(bad))
    assert (status, out) == (1, "")
    assert "/C:R/a1/a4/0/must/a1: the source location 'a1' must not appear" in err
    status, out, err = call("validate", "--format", "json", str(bad))
    assert status == 1
    report = json.loads(out)
    assert report["valid"] is False
    assert [e["path"] for e in report["errors"]] == ["/C:R/a1/a4/0/must/a1"]


def test_validate_reads_standard_input() -> None:
    assert call("validate", "--as", "stn", "-", stdin=b'{"toggle": true}')[0] == 0
    status, out, _ = call("validate", "--as", "stn", "--format", "json", "-", stdin=b'{"toggle": 1}')
    assert status == 1
    assert json.loads(out)["errors"][0]["path"] == "/toggle"


def test_validate_unreadable_file_is_usage_error(tmp_path: Path) -> None:
    status, out, err = call("validate", str(tmp_path / "nope.json"))
    assert (status, out) == (2, "")
    assert "cannot read" in err
    assert call("validate", "--as", "pgn", "x.json")[0] == 2


def test_validate_max_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"C:K": {f"z{i}": [] for i in range(1, 31)}}))
    status, out, _ = call("validate", "--format", "json", "--max-errors", "3", str(bad))
    assert status == 1
    assert len(json.loads(out)["errors"]) == 3
    assert call("validate", "--max-errors", "0", str(bad))[0] == 2


def test_lint(tmp_path: Path) -> None:
    doc = tmp_path / "rules.json"
    twice = [{"must": {"a2": "empty"}}, {"must": {"a2": "empty"}}]
    doc.write_text(json.dumps({"C:R": {"a1": {"a9": twice}}}))
    status, out, _ = call("lint", str(doc))
    assert status == 0
    assert "/C:R/a1/a9/1: possibility 1 repeats possibility 0 [duplicate]" in out
    assert "off-board" not in out
    status, out, _ = call("lint", str(doc), "--board", "8/8/8/8/8/8/8/8 / C/c", "--format", "json")
    assert status == 0
    report = json.loads(out)
    assert report["valid"] is True
    assert {w["rule"] for w in report["warnings"]} == {"duplicate", "off-board"}
    assert [w["path"] for w in report["warnings"] if w["rule"] == "off-board"] == ["/C:R/a1/a9"]
    # Row 15 of issue 8: an invalid --board FEEN is invalid input (1), not a usage error.
    status, _, err = call("lint", str(doc), "--board", "8/8 / C/C")
    assert status == 1
    assert err.startswith("ggn lint: --board: invalid FEEN '8/8 / C/C'")
    doc.write_text('{"C:R": []}')
    assert call("lint", str(doc))[0] == 1


def test_schema_prints_the_shipped_schema() -> None:
    status, out, _ = call("schema", "stn")
    assert status == 0
    assert json.loads(out)["type"] == "object"


def test_demo_runs() -> None:
    status, out, _ = call("demo")
    assert status == 0
    assert "x:c" in out and "/C:R/a1/a1/0/must/a1" in out


def test_console_script_runs_as_a_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ggn", "parse", "qpi", "S:+P"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["state"] == "enhanced"
    done = subprocess.run(
        [sys.executable, "-m", "ggn", "parse", "cell", "a0"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "invalid CELL 'a0'" in done.stderr


def test_parse_text_that_looks_like_an_option() -> None:
    assert json.loads(call("parse", "pin", "-p")[1])["state"] == "diminished"
    assert json.loads(call("parse", "pin", "--", "-p")[1])["state"] == "diminished"
    assert call("parse", "cell", "-h")[0] == 0  # help still works


CHESS_START = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"


def test_moves_with_no_arguments_lists_the_chess_start() -> None:
    status, out, err = call("moves")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 20
    assert "C:P e2-e4" in lines and "C:N g1-f3" in lines


def test_moves_json_and_files(tmp_path: Path) -> None:
    rules = tmp_path / "rook.json"
    rules.write_text(json.dumps({"C:R": {"a1": {
        "a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}],
        "b1": [{"must": {"b1": "empty"}}],
    }}}))
    status, out, _ = call("moves", str(rules), "8/8/8/8/8/8/p7/R7 / C/c", "--format", "json")
    assert status == 0
    assert json.loads(out) == [
        {"piece": "C:R", "source": "a1", "destination": "a2"},
        {"piece": "C:R", "source": "a1", "destination": "b1"},
    ]
    assert call("moves", str(rules))[0] == 2  # a file needs a position
    status, _, err = call("moves", str(rules), "8/8 / C/C")
    assert status == 1
    assert "invalid FEEN" in err
    rules.write_text("[]")
    assert call("moves", str(rules), "8/8 / C/c")[0] == 1
    assert call("moves", str(tmp_path / "none.json"), "8/8 / C/c")[0] == 2


def test_apply_and_diff() -> None:
    stn = '{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}'
    status, out, _ = call("apply", CHESS_START, stn)
    assert status == 0
    after = out.strip()
    assert after == "+rnbq+k^bn+r/pppppppp/8/8/4P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C"
    status, out, _ = call("diff", CHESS_START, after)
    assert status == 0
    assert json.loads(out) == json.loads(stn)
    assert call("apply", CHESS_START, "-", stdin=stn.encode())[1].strip() == after
    status, _, err = call("apply", "8/8 P/ C/c", '{"first_player_hand_diff": {"C:P": -2}}')
    assert status == 1
    assert "holds 1" in err
    assert call("apply", CHESS_START, '{"toggle": 1}')[0] == 1
    status, _, err = call("diff", "8/8 / C/c", "9/9 / C/c")
    assert status == 1
    assert "different board shapes" in err


def test_generate_chess_is_a_valid_document() -> None:
    status, out, _ = call("generate", "chess", "--indent", "0")
    assert status == 0
    assert out.count("\n") == 1
    document = json.loads(out)
    assert "C:+K^" in document
    assert call("generate", "go")[0] == 2


LEGACY_CHESS = {
    "CHESS:PAWN": {"e2": {"e4": [{
        "board_check": {"e3": "empty", "e4": "empty"},
        "board_patch": {"e2": None, "e4": "CHESS:-PAWN"},
    }]}},
    "CHESS:KNIGHT": {"g1": {"f3": [{
        "board_check": {"f3": "ally"},
        "board_patch": {"g1": None, "f3": "CHESS:KNIGHT"},
    }]}},
}


def test_convert_prints_ggn_and_notes_and_writes_effects(tmp_path: Path) -> None:
    legacy = tmp_path / "old.json"
    legacy.write_text(json.dumps(LEGACY_CHESS))
    status, out, err = call("convert", str(legacy), "--indent", "0")  # the game names the mapping
    assert status == 0
    document = json.loads(out)
    assert document["C:P"] == {"e2": {"e4": [{"must": {"e3": "empty", "e4": "empty"}}]}}
    # 'ally' has no LCN form: one possibility per first-side piece the document names anywhere.
    assert {tuple(p["must"].items()) for p in document["C:N"]["g1"]["f3"]} == {
        (("f3", "C:P"),), (("f3", "C:-P"),), (("f3", "C:N"),)}
    assert "note: /CHESS:KNIGHT/g1/f3/0/board_check/f3:" in err
    assert "were not written; give --effects FILE" in err

    effects = tmp_path / "effects.json"
    status, out2, err = call("convert", str(legacy), "--mapping", "CHESS", "--effects", str(effects),
                             "--indent", "0")
    assert (status, out2) == (0, out)
    assert f"effects written to {effects}" in err
    assert json.loads(effects.read_text())["C:P"]["e2"]["e4"] == [
        {"board_diff": {"e2": None, "e4": "C:-P"}, "toggle": True}]


def test_convert_with_a_mapping_file_and_its_errors(tmp_path: Path) -> None:
    legacy = tmp_path / "old.json"
    legacy.write_text(json.dumps({"GAME:X": {"c3": {"d4": [
        {"board_check": {"d4": "enemy"}, "board_patch": {"c3": None, "d4": "GAME:X"}}]}}}))
    status, _, err = call("convert", str(legacy))
    assert status == 2
    assert "no built-in mapping covers the document's games (game)" in err
    mapping = tmp_path / "pieces.json"
    mapping.write_text(json.dumps({"GAME:X": "Z:X", "game:x": "z:x"}))
    status, out, err = call("convert", str(legacy), "--mapping", str(mapping), "--indent", "0")
    assert status == 0
    assert json.loads(out) == {"Z:X": {"c3": {"d4": [{"must": {"d4": "enemy"}}]}}}
    mapping.write_text(json.dumps({"GAME:X": "not a qpi"}))
    status, _, err = call("convert", str(legacy), "--mapping", str(mapping))
    assert status == 1
    assert "invalid mapping" in err and "/GAME:X" in err
    status, _, err = call("convert", str(legacy), "--mapping", "go")
    assert status == 2
    assert "neither a built-in mapping" in err
    status, _, err = call("convert", str(legacy), "--mapping", "chess", "--partial", "--effects",
                          str(tmp_path / "missing" / "e.json"))  # GAME:X is no chess piece: --partial
    assert status == 2
    assert "cannot write --effects" in err


def test_convert_rejects_an_invalid_legacy_document(tmp_path: Path) -> None:
    legacy = tmp_path / "old.json"
    legacy.write_text(json.dumps({"CHESS:PAWN": {"e2": {"e4": [{"board_check": {}}]}}}))
    status, out, err = call("convert", str(legacy), "--mapping", "chess")
    assert (status, out) == (1, "")
    assert "invalid legacy GGN document" in err and "/CHESS:PAWN/e2/e4/0" in err
    assert call("convert", str(tmp_path / "none.json"))[0] == 2
    status, out, _ = call("convert", "-", "--mapping", "chess", "--indent", "0",
                          stdin=json.dumps(LEGACY_CHESS).encode())
    assert status == 0 and "C:P" in json.loads(out)


def test_perft_counts_divides_and_reports_errors() -> None:
    assert call("perft", "chess", "2") == (0, "400\n", "")
    assert call("perft", "chess", "0") == (0, "1\n", "")
    kiwipete = "+r3+k^2+r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/+R3+K^2+R / C/c"
    assert call("perft", "chess", "1", "--feen", kiwipete) == (0, "48\n", "")
    status, out, err = call("perft", "chess", "2", "--divide")
    lines = out.splitlines()
    assert (status, err, len(lines), lines[-1]) == (0, "", 21, "total: 400")
    assert "e4: 20" in lines and "Nf3: 20" in lines
    status, out, err = call("perft", "chess", "2", "--divide", "--notation", "ggn")
    assert "C:P e2-e4: 20" in out.splitlines()
    status, out, err = call("perft", "chess", "1", "--feen", "8/8/8/8/8/8/8/8 / C/")
    assert (status, out) == (1, "") and err.startswith("ggn perft: invalid FEEN")
    status, _, err = call("perft", "chess", "1", "--feen", "9/9/9/9/9/9/9/9/9 / C/c")
    assert status == 1 and "8x8" in err
    assert call("perft", "go", "1")[0] == 2
    status, _, err = call("perft", "chess", "-1")
    assert status == 2 and "argument DEPTH: -1 is out of range; expected a whole number from 0 to 64" in err


@pytest.mark.parametrize(("game", "count"), [("shogi", "900"), ("xiangqi", "1920"), ("makruk", "529")])
def test_perft_for_each_game(game: str, count: str) -> None:
    assert call("perft", game, "2") == (0, count + "\n", "")


def test_perft_from_a_shogi_position_with_drops() -> None:
    # Five king moves, and the pawn dropped on any empty square but the eight of the last rank
    # (e8, a check the king answers by taking the pawn, is no pawn-drop mate).
    status, out, err = call("perft", "shogi", "1", "--feen", "4k^4/9/9/9/9/9/9/9/4K^4 P/ S/s")
    assert (status, err) == (0, "")
    assert int(out) == 5 + (81 - 2 - 8)
