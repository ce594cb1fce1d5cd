"""``ggn convert``: nothing lost without the exit status saying so (``--partial`` accepts a partial
result), the lost moves named on stderr, short GAN names, and the Ruby gem's dialect."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import ggn.cli._progress
from ggn.cli import run
from ggn.convert import convert, convert_gem, entries
from ggn.legacy import LegacyRuleset
from ggn.legacy_gem import GemRuleset
from ggn.variants.registry import legacy_mapping


def call(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


def _entry(check: dict[str, str], patch: dict[str, Any]) -> dict[str, Any]:
    return {"board_check": check, "board_patch": patch}


PAWN = {"e2": {"e4": [_entry({"e3": "empty", "e4": "empty"}, {"e2": None, "e4": "CHESS:P"})]}}


def _write(tmp_path: Path, document: dict[str, Any], name: str = "old.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


def test_unknown_pieces_exit_1_naming_them_and_writing_nothing(tmp_path: Path) -> None:
    old = _write(
        tmp_path, {"CHESS:P": PAWN, "CHESS:Z": {"a1": {"a2": [_entry({}, {})], "a3": [_entry({}, {})]}}}
    )
    effects = tmp_path / "effects.json"
    status, out, err = call("convert", old, "--effects", str(effects))
    assert (status, out) == (1, "") and not effects.exists()
    lines = err.splitlines()
    assert (
        "ggn convert: not carried over: 'CHESS:Z' 'a1' -> 'a2': no QPI for 'CHESS:Z' in the mapping" in lines
    )
    assert (
        "ggn convert: not carried over: 'CHESS:Z' 'a1' -> 'a3': no QPI for 'CHESS:Z' in the mapping" in lines
    )
    assert lines[-1] == (
        "ggn convert: 2 moves not carried over; the mapping has no QPI for 'CHESS:Z'; nothing "
        "written (--partial accepts a partial result)"
    )


def test_partial_writes_the_partial_result_and_exits_0(tmp_path: Path) -> None:
    old = _write(tmp_path, {"CHESS:P": PAWN, "CHESS:Z": {"a1": {"a2": [_entry({}, {})]}}})
    effects = tmp_path / "effects.json"
    status, out, err = call("convert", old, "--partial", "--indent", "0", "--effects", str(effects))
    assert status == 0
    assert json.loads(out) == {"C:P": {"e2": {"e4": [{"must": {"e3": "empty", "e4": "empty"}}]}}}
    assert json.loads(effects.read_text()) == {
        "C:P": {"e2": {"e4": [{"board_diff": {"e2": None, "e4": "C:P"}, "toggle": True}]}}
    }
    assert "not carried over: 'CHESS:Z' 'a1' -> 'a2'" in err
    assert (
        "1 move not carried over; the mapping has no QPI for 'CHESS:Z'; the partial result is written" in err
    )


def test_a_document_the_mapping_does_not_know_at_all_is_no_empty_success(tmp_path: Path) -> None:
    # Once printed {} with exit 0.
    old = _write(
        tmp_path,
        {
            "CHESS:ZEBRA": {"a1": {"b3": [_entry({"b3": "empty"}, {"a1": None, "b3": "CHESS:ZEBRA"})]}},
            "chess:zebra": {"a8": {"b6": [_entry({}, {})]}},
        },
    )
    status, out, err = call("convert", old)
    assert (status, out) == (1, "")
    assert "the mapping has no QPI for 'CHESS:ZEBRA', 'chess:zebra'" in err
    assert call("convert", old, "--partial")[:2] == (0, "{}\n")


def test_lost_possibilities_and_effects(tmp_path: Path) -> None:
    old = _write(
        tmp_path,
        {
            "CHESS:R": {
                "a1": {
                    "a2": [
                        _entry({"a2": "empty"}, {"a1": None, "a2": "CHESS:R"}),
                        _entry({"a2": "GO:S"}, {"a1": None, "a2": "CHESS:R"}),
                        _entry({"a2": "enemy"}, {"a1": None, "a2": "GO:S"}),
                    ]
                }
            }
        },
    )
    status, _, err = call("convert", old)
    assert status == 1
    assert "not carried over: 'CHESS:R' 'a1' -> 'a2', possibility 1: no QPI for 'GO:S' in the mapping" in err
    # Without --effects, an effect that cannot be written is no loss: the effects are left out anyway.
    assert "the effect of possibility 2" not in err
    assert "1 possibility not carried over; the mapping has no QPI for 'GO:S'" in err
    status, _, err = call("convert", old, "--effects", str(tmp_path / "e.json"))
    assert status == 1 and not (tmp_path / "e.json").exists()
    assert "'CHESS:R' 'a1' -> 'a2', the effect of possibility 2: " in err
    assert "1 possibility, 1 effect not carried over" in err


def test_effects_left_out_are_not_a_loss(tmp_path: Path) -> None:
    status, out, err = call("convert", _write(tmp_path, {"CHESS:P": PAWN}), "--indent", "0")
    assert status == 0 and "C:P" in json.loads(out)
    assert "not carried over" not in err and "give --effects FILE to keep them" in err


def test_short_names_convert_with_the_games_mapping(tmp_path: Path) -> None:
    old = _write(
        tmp_path,
        {
            "SHOGI:P": {
                "e5": {
                    "e4": [
                        _entry({"e4": "empty"}, {"e5": None, "e4": "SHOGI:P"}),
                        _entry({"e4": "enemy"}, {"e5": None, "e4": "SHOGI:+P"}),
                    ]
                }
            },
            "shogi:+r": {"a1": {"a2": [_entry({"a2": "SHOGI:K"}, {})]}},
        },
    )
    status, out, err = call("convert", old, "--indent", "0")
    assert status == 0, err
    assert json.loads(out) == {
        "S:P": {"e5": {"e4": [{"must": {"e4": "empty"}}, {"must": {"e4": "enemy"}}]}},
        "s:+r": {"a1": {"a2": [{"must": {"a2": "S:K^"}}]}},
    }


GEM = {
    "CHESS:P": {
        "e2": {"e4": [{"require": {"e3": "empty", "e4": "empty"}, "perform": {"e2": None, "e4": "CHESS:P"}}]},
        "e5": {
            "d6": [{"require": {"d6": "enemy"}, "perform": {"e5": None, "d6": "CHESS:P"}, "gain": "CHESS:P"}]
        },
    },
    "CHESS:R": {
        "a1": {
            "a3": [
                {
                    "require": {"a2": "empty"},
                    "prevent": {"a3": "enemy"},
                    "perform": {"a1": None, "a3": "CHESS:R"},
                }
            ]
        }
    },
}


def test_the_gems_dialect_is_found_and_converted(tmp_path: Path) -> None:
    old = _write(tmp_path, GEM)
    effects = tmp_path / "effects.json"
    status, out, err = call("convert", old, "--indent", "0", "--effects", str(effects))
    assert status == 0, err
    assert json.loads(out) == {
        "C:P": {
            "e2": {"e4": [{"must": {"e3": "empty", "e4": "empty"}}]},
            "e5": {"d6": [{"must": {"d6": "enemy"}}]},
        },
        "C:R": {"a1": {"a3": [{"must": {"a2": "empty"}, "deny": {"a3": "enemy"}}]}},
    }
    assert json.loads(effects.read_text())["C:P"]["e5"]["d6"] == [
        {"board_diff": {"e5": None, "d6": "C:P"}, "first_player_hand_diff": {"C:P": 1}, "toggle": True}
    ]
    assert call("convert", old, "--dialect", "gem", "--indent", "0", "--effects", str(effects))[1] == out
    status, _, err = call("convert", old, "--dialect", "legacy")
    assert status == 1 and "invalid legacy GGN document" in err and "unknown field 'require'" in err
    status, _, err = call("convert", old)
    assert status == 0 and "the effects (perform, gain and drop)" in err


def test_the_gems_dialect_reports_its_own_faults(tmp_path: Path) -> None:
    old = _write(tmp_path, {"CHESS:P": {"e2": {"e4": [{"require": {"e4": "ally"}, "perform": {}}]}}})
    status, out, err = call("convert", old)
    assert (status, out) == (1, "")
    assert "invalid sashite-ggn 0.x document, 1 violation" in err
    assert "/CHESS:P/e2/e4/0/require/e4: 'ally' is not a state of this dialect" in err


def test_the_gems_shogi_squares_are_lost_moves(tmp_path: Path) -> None:
    old = _write(
        tmp_path,
        {
            "SHOGI:P": {
                "*": {"5e": [{"require": {"5e": "empty"}, "perform": {"5e": "SHOGI:P"}, "drop": "SHOGI:P"}]}
            }
        },
    )
    status, _, err = call("convert", old)
    assert status == 1
    assert "not carried over: 'SHOGI:P' '*' -> '5e': destination '5e' is not a CELL coordinate" in err


def test_help_says_how() -> None:
    status, out, _ = call("convert", "--help")
    text = " ".join(out.split())
    assert status == 0
    for said in (
        "--partial",
        "--dialect {auto,legacy,gem}",
        "exit 0 when everything is carried over",
        "CHESS:K",
    ):
        assert said.lower() in text.lower(), said


class Terminal(io.StringIO):
    """Standard error as a terminal: what is drawn on it is kept."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def test_a_long_conversion_shows_progress_on_a_terminal_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ggn.cli._progress, "DELAY", 0)
    monkeypatch.setattr(ggn.cli._progress, "INTERVAL", 0)
    monkeypatch.delenv("GGN_NO_PROGRESS", raising=False)
    old = _write(
        tmp_path, {"CHESS:P": PAWN, "CHESS:R": {"a1": {f"a{rank}": [_entry({}, {})] for rank in range(2, 9)}}}
    )
    out, err = io.StringIO(), Terminal()
    assert run(["convert", old, "--indent", "0"], out, err) == 0
    assert json.loads(out.getvalue())["C:R"]["a1"]["a8"] == [{}]  # standard output holds the JSON only
    drawn = err.getvalue()
    assert "convert" in drawn and "8/8" in drawn and "entry" in drawn
    out, plain = io.StringIO(), io.StringIO()
    assert run(["convert", old, "--indent", "0"], out, plain) == 0
    assert "8/8" not in plain.getvalue() and "\r" not in plain.getvalue()


def test_the_librarys_progress_adds_up_to_the_entries() -> None:
    document = {
        "CHESS:P": PAWN,
        "GO:S": {"a1": {"a2": [_entry({}, {}), _entry({}, {})]}},
        "CHESS:R": {
            "5e": {"a2": [_entry({}, {})]},
            "a1": {"x!": [_entry({}, {})], "a3": [_entry({}, {})] * 3},
        },
    }
    legacy = LegacyRuleset.from_value(document)
    counted: list[int] = []
    convert(legacy, legacy_mapping("chess"), progress=counted.append)
    assert sum(counted) == entries(legacy) == 8 and all(count > 0 for count in counted)
    gem = GemRuleset.from_value({"CHESS:P": {"e2": {"e4": [{"perform": {}}] * 2, "e3": []}}})
    counted.clear()
    convert_gem(gem, legacy_mapping("chess"), progress=counted.append)
    assert sum(counted) == entries(gem) == 2
    with pytest.raises(TypeError):
        convert(legacy, legacy_mapping("chess"), progress=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        entries({})  # type: ignore[arg-type]


def test_shogi_labels_make_the_gems_shogi_documents_convert(tmp_path: Path) -> None:
    old = _write(
        tmp_path,
        {
            "SHOGI:P": {
                "*": {
                    "5e": [
                        {
                            "require": {"5e": "empty"},
                            "prevent": {"5a": "SHOGI:P"},
                            "perform": {"5e": "SHOGI:P"},
                            "drop": "SHOGI:P",
                        }
                    ]
                }
            }
        },
    )
    status, out, err = call("convert", old, "--labels", "shogi", "--indent", "0")
    assert status == 0, err
    assert json.loads(out) == {"S:P": {"*": {"e5": [{"must": {"e5": "empty"}, "deny": {"e9": "S:P"}}]}}}
    assert call("convert", old)[0] == 1  # as CELL: 5e is none
    assert call("convert", old, "--labels", "kanji")[0] == 2
