"""The JSON dialect of the Ruby gem sashite-ggn 0.3.0 to 0.7.0 (require, prevent, perform, gain,
drop): read by ggn.legacy_gem, rewritten as GGN 1.0.0 by ggn.convert.convert_gem.

The examples are those the gem published (its README of 0.3.0, May 2025, and the examples of its
schema's documentation in 0.7.0), typed again here as data. The gem's evaluation is written out
below from what its README says (every ``require`` holds, no ``prevent`` does, ``enemy`` is a
piece of the other player, a piece matches exactly) and compared with GGN 1.0.0's on random
documents and positions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import (
    Cell,
    DocumentError,
    Epin,
    Feen,
    Gan,
    LegacyPiece,
    LegacyRuleset,
    Pin,
    Qpi,
    Ruleset,
    Sin,
)
from ggn._types import Side
from ggn.convert import Lost, convert, convert_gem, shogi_labels
from ggn.errors import NotationTypeError
from ggn.legacy_eval import GanMapping
from ggn.legacy_gem import GemEntry, GemRuleset
from ggn.position import Position
from ggn.variants import registry
from ggn.variants.registry import legacy_mapping
from support import ggn_holds

CHESS = legacy_mapping("chess")
SHOGI = legacy_mapping("shogi")


def _convert(document: dict[str, Any], mapping: GanMapping = CHESS) -> Any:
    return convert_gem(GemRuleset.from_value(document), mapping)


# --- the published examples --------------------------------------------------------------------


def test_the_readmes_pawn_double_step() -> None:
    conversion = _convert(
        {
            "CHESS:P": {
                "e2": {
                    "e4": [
                        {"require": {"e3": "empty", "e4": "empty"}, "perform": {"e2": None, "e4": "CHESS:P"}}
                    ]
                }
            }
        }
    )
    assert conversion.ruleset.to_value() == {
        "C:P": {"e2": {"e4": [{"must": {"e3": "empty", "e4": "empty"}}]}}
    }
    assert conversion.effects == {
        "C:P": {"e2": {"e4": [{"board_diff": {"e2": None, "e4": "C:P"}, "toggle": True}]}}
    }
    assert (conversion.notes, conversion.lost) == ([], [])


def test_the_readmes_simple_move_has_no_condition() -> None:
    conversion = _convert({"CHESS:K": {"e1": {"e2": [{"perform": {"e1": None, "e2": "CHESS:K"}}]}}})
    assert conversion.ruleset.to_value() == {"C:K^": {"e1": {"e2": [{}]}}}
    assert conversion.effects["C:K^"]["e1"]["e2"] == [
        {"board_diff": {"e1": None, "e2": "C:K^"}, "toggle": True}
    ]


def test_the_readmes_sliding_move_and_promotion() -> None:
    conversion = _convert(
        {
            "CHESS:R": {
                "a1": {
                    "a3": [
                        {"require": {"a2": "empty", "a3": "empty"}, "perform": {"a1": None, "a3": "CHESS:R"}}
                    ]
                }
            },
            "CHESS:P": {
                "g7": {"g8": [{"require": {"g8": "empty"}, "perform": {"g7": None, "g8": "CHESS:Q"}}]}
            },
        }
    )
    assert conversion.ruleset.to_value() == {
        "C:R": {"a1": {"a3": [{"must": {"a2": "empty", "a3": "empty"}}]}},
        "C:P": {"g7": {"g8": [{"must": {"g8": "empty"}}]}},
    }
    assert conversion.effects["C:P"]["g7"]["g8"] == [
        {"board_diff": {"g7": None, "g8": "C:Q"}, "toggle": True}
    ]


def test_the_schemas_en_passant_and_castling() -> None:
    conversion = _convert(
        {
            "CHESS:P": {
                "d5": {
                    "e6": [
                        {
                            "require": {"e5": "chess:p", "e6": "empty"},
                            "perform": {"d5": None, "e5": None, "e6": "CHESS:P"},
                        }
                    ]
                }
            },
            "CHESS:K": {
                "e1": {
                    "g1": [
                        {
                            "require": {"f1": "empty", "g1": "empty", "h1": "CHESS:R"},
                            "perform": {"e1": None, "f1": "CHESS:R", "g1": "CHESS:K", "h1": None},
                        }
                    ]
                }
            },
        }
    )
    assert conversion.ruleset.to_value() == {
        "C:P": {"d5": {"e6": [{"must": {"e5": "c:p", "e6": "empty"}}]}},
        "C:K^": {"e1": {"g1": [{"must": {"f1": "empty", "g1": "empty", "h1": "C:R"}}]}},
    }
    assert conversion.effects["C:K^"]["e1"]["g1"] == [
        {"board_diff": {"e1": None, "f1": "C:R", "g1": "C:K^", "h1": None}, "toggle": True}
    ]
    assert conversion.lost == []


def test_gain_and_drop_are_the_movers_hand() -> None:
    capture = {"require": {"e5": "enemy"}, "perform": {"e6": None, "e5": "SHOGI:P"}, "gain": "SHOGI:P"}
    drop = {
        "require": {"e5": "empty"},
        "prevent": {"e1": "SHOGI:P", "e9": "SHOGI:P"},
        "perform": {"e5": "SHOGI:P"},
        "drop": "SHOGI:P",
    }
    conversion = _convert({"SHOGI:P": {"e6": {"e5": [capture]}, "*": {"e5": [drop]}}}, SHOGI)
    assert conversion.ruleset.to_value() == {
        "S:P": {
            "e6": {"e5": [{"must": {"e5": "enemy"}}]},
            "*": {"e5": [{"must": {"e5": "empty"}, "deny": {"e1": "S:P", "e9": "S:P"}}]},
        }
    }
    assert conversion.effects["S:P"]["e6"]["e5"] == [
        {"board_diff": {"e6": None, "e5": "S:P"}, "first_player_hand_diff": {"S:P": 1}, "toggle": True}
    ]
    assert conversion.effects["S:P"]["*"]["e5"] == [
        {"board_diff": {"e5": "S:P"}, "first_player_hand_diff": {"S:P": -1}, "toggle": True}
    ]
    second = _convert({"shogi:p": {"*": {"e5": [{"perform": {"e5": "shogi:p"}, "drop": "shogi:p"}]}}}, SHOGI)
    assert second.effects["s:p"]["*"]["e5"] == [
        {"board_diff": {"e5": "s:p"}, "second_player_hand_diff": {"s:p": -1}, "toggle": True}
    ]


def test_the_readmes_shogi_squares_are_no_cell_and_are_reported_lost() -> None:
    # The README writes shogi's squares as 5e, 5f: no CELL coordinate, so those moves are lost.
    conversion = _convert(
        {
            "SHOGI:P": {
                "5f": {"5e": [{"require": {"5e": "enemy"}, "perform": {"5f": None, "5e": "SHOGI:P"}}]},
                "*": {"5e": [{"perform": {"5e": "SHOGI:P"}, "drop": "SHOGI:P"}]},
            }
        },
        SHOGI,
    )
    assert conversion.ruleset.to_value() == {}
    assert [(lost.source, lost.destination, lost.kind) for lost in conversion.lost] == [
        ("5f", "5e", "move"),
        ("*", "5e", "move"),
    ]
    assert all("is not a CELL coordinate" in lost.why for lost in conversion.lost)


def test_an_unknown_piece_and_an_unknown_piece_in_a_condition_are_lost() -> None:
    conversion = _convert(
        {
            "GO:S": {"a1": {"a2": [{"perform": {"a2": "GO:S"}}]}},
            "CHESS:R": {
                "a1": {
                    "a2": [
                        {"require": {"a2": "GO:S"}, "perform": {"a2": "CHESS:R"}},
                        {"require": {"a2": "empty"}, "perform": {"a2": "CHESS:R"}},
                    ]
                }
            },
        }
    )
    assert conversion.lost == [
        Lost("GO:S", "a1", "a2", None, "move", "no QPI for 'GO:S' in the mapping", "/GO:S"),
        Lost(
            "CHESS:R",
            "a1",
            "a2",
            0,
            "possibility",
            "no QPI for 'GO:S' in the mapping (require)",
            "/CHESS:R/a1/a2/0/require/a2",
        ),
    ]


def test_an_effect_with_an_unknown_piece_is_a_lost_effect_at_its_own_field() -> None:
    conversion = _convert(
        {"CHESS:P": {"e7": {"e8": [{"perform": {"e7": None, "e8": "CHESS:X"}, "gain": "GO:S"}]}}}
    )
    assert conversion.effects["C:P"]["e7"]["e8"] == [None]
    (lost,) = conversion.lost
    assert (lost.kind, lost.path) == ("effect", "/CHESS:P/e7/e8/0/perform/e8")
    assert [note.path for note in conversion.notes] == [
        "/CHESS:P/e7/e8/0/perform/e8",
        "/CHESS:P/e7/e8/0/gain",
    ]


@pytest.mark.parametrize(
    ("field", "state", "kept"),
    [
        ("require", "CHESS:R", True),  # always holds: the condition goes
        ("prevent", "empty", True),  # never fires: the condition goes
        ("prevent", "enemy", True),
        ("prevent", "CHESS:Q", True),
        ("require", "empty", False),  # never holds: the entry goes
        ("require", "enemy", False),
        ("prevent", "CHESS:R", False),  # always fires: the entry goes
    ],
)
def test_a_condition_on_the_source_square(field: str, state: str, kept: bool) -> None:
    entry = {field: {"a1": state}, "perform": {"a1": None, "a2": "CHESS:R"}}
    conversion = _convert({"CHESS:R": {"a1": {"a2": [entry]}}})
    assert conversion.ruleset.to_value() == {"C:R": {"a1": {"a2": [{}] if kept else []}}}
    (note,) = conversion.notes
    assert note.path == f"/CHESS:R/a1/a2/0/{field}/a1" and conversion.lost == []
    assert ("always lets the move through" in note.message) == kept


# --- reading the dialect -----------------------------------------------------------------------


def test_the_document_reads_back_and_keeps_its_schema() -> None:
    value = {
        "$schema": "https://sashite.dev/schemas/ggn/1.0.0/schema.json",
        "SHOGI:+P": {
            "*": {"e5": []},
            "e5": {
                "e4": [
                    {
                        "require": {"e4": "empty"},
                        "prevent": {"e3": "enemy"},
                        "perform": {"e5": None, "e4": "SHOGI:+P"},
                        "gain": None,
                    }
                ]
            },
        },
    }
    gem = GemRuleset.from_value(value)
    assert gem.schema == value["$schema"] and gem.pieces == (LegacyPiece.parse("SHOGI:+P"),)
    assert GemRuleset.loads(gem.dumps()) == gem
    assert gem.to_value(explicit=True)["SHOGI:+P"]["e5"]["e4"][0]["drop"] is None
    assert convert_gem(gem, SHOGI).ruleset.to_value()["S:+P"]["*"] == {"e5": []}


def test_invalid_documents_name_every_fault() -> None:
    with pytest.raises(DocumentError) as caught:
        GemRuleset.from_value(
            {
                "$schema": 1,
                "CHESS:P": {
                    "e2": {
                        "*": [],
                        "e4": [
                            {"require": {"e3": "ally", "e4": "occupied", "e5": "friend"}, "board_patch": {}},
                            {"perform": {"e4": 3}, "drop": "CHESS:+P", "prevent": []},
                        ],
                    }
                },
            }
        )
    assert [(v.path, v.message.split(":")[0]) for v in caught.value.violations] == [
        ("/$schema", "'$schema' is a string (a URI), got the integer 1"),
        ("/CHESS:P/e2/*", "'*' (the hand) cannot be a destination"),
        ("/CHESS:P/e2/e4/0/board_patch", "unknown field 'board_patch'"),
        ("/CHESS:P/e2/e4/0", "missing required field 'perform'"),
        ("/CHESS:P/e2/e4/0/require/e3", "'ally' is not a state of this dialect"),
        ("/CHESS:P/e2/e4/0/require/e4", "'occupied' is not a state of this dialect"),
        ("/CHESS:P/e2/e4/0/require/e5", "state 'friend' is none of empty, enemy nor a GAN identifier"),
        ("/CHESS:P/e2/e4/1/prevent", "prevent must be an object mapping squares to states, got an array"),
        ("/CHESS:P/e2/e4/1/perform/e4", "a performed square takes a GAN string or null, got the integer 3"),
        ("/CHESS:P/e2/e4/1/drop", "'CHESS"),
    ]


def test_entries_built_directly_are_checked() -> None:
    entry = GemEntry(
        {"e2": None, "e4": LegacyPiece.parse("CHESS:P")}, require={"e4": "empty"}, gain="chess:p"
    )
    assert entry.to_value() == {
        "require": {"e4": "empty"},
        "perform": {"e2": None, "e4": "CHESS:P"},
        "gain": "chess:p",
    }
    with pytest.raises(TypeError):
        GemEntry({"e4": 1})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        GemEntry({}, gain=1)  # type: ignore[arg-type]
    with pytest.raises(DocumentError):
        GemEntry({"*": None})
    with pytest.raises(AttributeError):
        entry.gain = None
    with pytest.raises(TypeError):
        convert_gem({}, CHESS)  # type: ignore[arg-type]


# --- the same moves before and after ----------------------------------------------------------

_PIECES = ["CHESS:R", "CHESS:P", "chess:r", "chess:p"]
_SQUARES = ["a1", "a2", "b1", "b2"]
_STATES = st.sampled_from(["empty", "enemy", *_PIECES])
_ENTRY = st.fixed_dictionaries(
    {"perform": st.dictionaries(st.sampled_from(_SQUARES), st.sampled_from([None, *_PIECES]), max_size=2)},
    optional={
        "require": st.dictionaries(st.sampled_from(_SQUARES), _STATES, max_size=2),
        "prevent": st.dictionaries(st.sampled_from(_SQUARES), _STATES, max_size=2),
        "gain": st.sampled_from(["CHESS:P", "chess:p", None]),
    },
)
_DOCUMENTS = st.dictionaries(
    st.sampled_from(_PIECES),
    st.dictionaries(
        st.sampled_from(_SQUARES),
        st.dictionaries(st.sampled_from(_SQUARES), st.lists(_ENTRY, max_size=3), min_size=1, max_size=2),
        min_size=1,
        max_size=2,
    ),
    min_size=1,
    max_size=2,
)


def _gem_matches(state: str, held: str | None, active: Side) -> bool:
    """The gem's matches_state?, as its README describes the states."""
    if state == "empty":
        return held is None
    if state == "enemy":
        return held is not None and LegacyPiece.parse(held).side != active
    return held == state


def _gem_effect(entry: dict[str, Any], active: Side) -> dict[str, Any]:
    """What the gem's Transition of an entry says (its diff and gain), written as STN."""
    effect: dict[str, Any] = {}
    if entry["perform"]:
        effect["board_diff"] = {k: None if v is None else str(CHESS(v)) for k, v in entry["perform"].items()}
    if entry.get("gain"):
        effect[f"{active}_player_hand_diff"] = {str(CHESS(entry["gain"])): 1}
    return effect | {"toggle": True}


@settings(max_examples=150)
@given(_DOCUMENTS, st.data())
def test_the_gems_moves_are_ggns_moves(document: dict[str, Any], data: st.DataObject) -> None:
    conversion = _convert(document)
    assert conversion.lost == []
    for piece, sources in document.items():
        active: Side = LegacyPiece.parse(piece).side
        qpi = str(CHESS(piece))
        for source, destinations in sources.items():
            for destination, entries in destinations.items():
                squares = data.draw(
                    st.dictionaries(st.sampled_from(_SQUARES), st.sampled_from(_PIECES), max_size=4)
                )
                squares[source] = piece  # the gem moves a piece that stands on its source
                before = sorted(
                    json.dumps(_gem_effect(entry, active), sort_keys=True)
                    for entry in entries
                    if all(
                        _gem_matches(s, squares.get(k), active) for k, s in entry.get("require", {}).items()
                    )
                    and not any(
                        _gem_matches(s, squares.get(k), active) for k, s in entry.get("prevent", {}).items()
                    )
                )
                flat = {label: str(CHESS(p)) for label, p in squares.items()}
                possibilities = conversion.ruleset[qpi][source][destination]
                effects = conversion.effects.get(qpi, {}).get(source, {}).get(destination, [])
                after = sorted(
                    json.dumps(effect, sort_keys=True)
                    for possibility, effect in zip(possibilities, effects, strict=True)
                    if ggn_holds(possibility, active, flat)
                )
                assert before == after, (piece, source, destination, squares)


# --- shogi squares written the Japanese way ------------------------------------------------------

README_SHOGI = {
    "SHOGI:P": {
        "5f": {
            "5e": [{"require": {"5e": "enemy"}, "perform": {"5f": None, "5e": "SHOGI:P"}, "gain": "SHOGI:P"}]
        },
        "*": {
            "5e": [
                {
                    "require": {"5e": "empty"},
                    "prevent": {f"5{rank}": "SHOGI:P" for rank in "abcdfghi"},
                    "perform": {"5e": "SHOGI:P"},
                    "drop": "SHOGI:P",
                }
            ]
        },
    }
}


def test_shogi_labels_name_the_squares_python_shogi_names() -> None:
    # python-shogi's start position, square by square by its own names (9a ... 1i), is the
    # shogi start of this library at the CELL coordinates shogi_labels gives.
    shogi = pytest.importorskip("shogi")
    board, position = shogi.Board(), Position.from_feen(registry.start("shogi"))
    assert len(shogi.SQUARE_NAMES) == 81
    for index, name in enumerate(shogi.SQUARE_NAMES):
        theirs, ours = board.piece_at(index), position.piece_at(shogi_labels(name) or "")
        assert (theirs is None) == (ours is None), name
        if theirs is not None and ours is not None:
            assert theirs.symbol().upper() == ours.pin.name  # K R B G S N L P, same letters
            assert (theirs.color == shogi.BLACK) == (ours.side == "first")


def test_the_readmes_shogi_examples_convert_with_shogi_labels() -> None:
    gem = GemRuleset.from_value(README_SHOGI)
    conversion = convert_gem(gem, SHOGI, labels=shogi_labels)
    assert conversion.lost == []
    assert conversion.ruleset.to_value() == {
        "S:P": {
            "e4": {"e5": [{"must": {"e5": "enemy"}}]},
            "*": {
                "e5": [
                    {
                        "must": {"e5": "empty"},
                        "deny": {f"e{rank}": "S:P" for rank in (9, 8, 7, 6, 4, 3, 2, 1)},
                    }
                ]
            },
        }
    }
    assert conversion.effects["S:P"]["e4"]["e5"] == [
        {"board_diff": {"e4": None, "e5": "S:P"}, "first_player_hand_diff": {"S:P": 1}, "toggle": True}
    ]
    # The moves are shogi's own: the same piece, source and destination in the game's document.
    game = Ruleset.from_value(json.loads(json.dumps(registry.entry("shogi").document())))
    for source in ("e4", "*"):
        assert "e5" in [str(d) for d in game["S:P"][source].destinations]


def test_labels_as_a_mapping_and_their_faults() -> None:
    gem = GemRuleset.from_value(
        {"CHESS:R": {"A": {"B": [{"require": {"C": "empty"}, "perform": {"A": None, "B": "CHESS:R"}}]}}}
    )
    conversion = convert_gem(gem, CHESS, labels={"A": "a1", "B": "a3", "C": "a2"})
    assert conversion.ruleset.to_value() == {"C:R": {"a1": {"a3": [{"must": {"a2": "empty"}}]}}}
    assert conversion.effects["C:R"]["a1"]["a3"][0]["board_diff"] == {"a1": None, "a3": "C:R"}
    # Two labels of one entry naming one square: the entry is lost, not merged.
    gem = GemRuleset.from_value(
        {"CHESS:R": {"a1": {"a3": [{"require": {"5e": "empty", "e5": "enemy"}, "perform": {}}]}}}
    )
    conversion = convert_gem(gem, CHESS, labels=shogi_labels)
    assert [(lost.kind, lost.path) for lost in conversion.lost] == [("move", "/CHESS:R/a1/a3")]
    assert "name the same CELL 'e5'" in conversion.lost[0].why
    # An effect's square named twice: the effect is lost, at its label as written.
    gem = GemRuleset.from_value({"CHESS:R": {"a1": {"a3": [{"perform": {"5e": None, "e5": "CHESS:R"}}]}}})
    conversion = convert_gem(gem, CHESS, labels=shogi_labels)
    assert [(lost.kind, lost.path) for lost in conversion.lost] == [("effect", "/CHESS:R/a1/a3/0/perform/5e")]
    # A piece the mapping does not know in a relabelled effect: the path names the label as written.
    gem = GemRuleset.from_value({"CHESS:R": {"a1": {"a3": [{"perform": {"3a": "GO:S"}}]}}})
    conversion = convert_gem(gem, CHESS, labels=shogi_labels)
    assert [(lost.kind, lost.path) for lost in conversion.lost] == [("effect", "/CHESS:R/a1/a3/0/perform/3a")]
    with pytest.raises(TypeError):
        convert_gem(gem, CHESS, labels=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        convert_gem(gem, CHESS, labels=lambda label: 1)  # type: ignore[arg-type]


def test_the_legacy_format_takes_labels_too() -> None:
    legacy = LegacyRuleset.from_value(
        {
            "SHOGI:P": {
                "5f": {
                    "5e": [
                        {
                            "board_check": {"5e": "ally", "5f": "SHOGI:P"},
                            "board_patch": {"5f": None, "5e": "SHOGI:P"},
                        }
                    ]
                }
            }
        }
    )
    conversion = convert(legacy, SHOGI, labels=shogi_labels)
    assert conversion.lost == []
    assert conversion.ruleset.to_value() == {"S:P": {"e4": {"e5": [{"must": {"e5": "S:P"}}]}}}
    assert [note.path for note in conversion.notes] == [
        "/SHOGI:P/5f/5e/0/board_check/5f",
        "/SHOGI:P/5f/5e/0/board_check/5e",
    ]
    assert conversion.effects["S:P"]["e4"]["e5"][0]["board_diff"] == {"e4": None, "e5": "S:P"}


GEM_VECTORS = sorted((Path(__file__).parent / "vectors" / "ggn-gem" / "valid").glob("*.json"))


@pytest.mark.parametrize("path", GEM_VECTORS, ids=lambda path: path.stem)
def test_every_valid_vector_converts_whole_with_its_games_mapping(path: Path) -> None:
    gem = GemRuleset.load(path)
    (game,) = {piece.game.lower() for piece in gem.pieces}
    conversion = convert_gem(gem, legacy_mapping(game), labels=shogi_labels if game == "shogi" else None)
    assert conversion.complete and conversion.effects_complete and conversion.lost == []
    assert Ruleset.loads(conversion.ruleset.dumps()) == conversion.ruleset


def test_a_python_int_too_long_to_write_is_a_violation_not_a_crash() -> None:
    # Once a ValueError from repr() (Python writes at most 4,300 digits), found by the fuzzer.
    big = 10**5000
    for value in (
        {"CHESS:P": {"e2": {"e4": [{"require": {"e3": big}, "perform": {}}]}}},
        {"CHESS:P": {"e2": {"e4": [{"perform": {"e3": big}, "drop": big}]}}},
    ):
        with pytest.raises(DocumentError, match="5,001 digits"):
            GemRuleset.from_value(value)
    with pytest.raises(DocumentError, match="5,001 digits"):
        LegacyRuleset.from_value(
            {"CHESS:P": {"e2": {"e4": [{"board_check": {"e3": big}, "board_patch": {}}]}}}
        )
    for parse in (
        LegacyPiece.parse,
        Qpi.parse,
        Gan.parse,
        Cell.parse,
        Pin.parse,
        Sin.parse,
        Epin.parse,
        Feen.parse,
    ):
        with pytest.raises(NotationTypeError, match="int too long to write"):
            parse(big)  # type: ignore[arg-type]
