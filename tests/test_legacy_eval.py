"""Legacy GGN evaluated: the five occupation states, entries as STN transitions, and the
mapping from legacy pieces to QPI with its lookup rules and validation."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ggn import DocumentError, GGNError, LegacyEntry, LegacyPiece, LegacyRuleset, Qpi, Transition
from ggn.gan import Gan
from ggn.legacy_eval import (
    ConversionError,
    GanMapping,
    LabelError,
    UnmappedPieceError,
    entry_holds,
    entry_transition,
    where,
)

CHESS = {"CHESS:KING": "C:K^", "CHESS:ROOK": "C:R", "CHESS:PAWN": "C:P", "CHESS:QUEEN": "C:Q"}


def _entry(check: dict[str, str], patch: dict[str, str | None] | None = None, **hands: str) -> LegacyEntry:
    value: dict[str, Any] = {"board_check": check, "board_patch": patch or {}, **hands}
    document = LegacyRuleset.from_value({"GAME:X": {"a1": {"a2": [value]}}})
    return document["GAME:X"]["a1"]["a2"][0]


# --- the five occupation states -------------------------------------------------------------

@pytest.mark.parametrize(
    ("state", "held", "active", "expected"),
    [
        ("empty", None, "first", True),
        ("empty", "CHESS:PAWN", "first", False),
        ("occupied", None, "first", False),
        ("occupied", "CHESS:PAWN", "first", True),
        ("occupied", "chess:pawn", "second", True),
        ("enemy", None, "first", False),
        ("enemy", "CHESS:PAWN", "first", False),
        ("enemy", "chess:pawn", "first", True),
        ("enemy", "CHESS:PAWN", "second", True),
        ("enemy", "chess:pawn'", "first", True),  # the side is the case, derived or not
        ("ally", None, "first", False),
        ("ally", "CHESS:PAWN", "first", True),
        ("ally", "chess:pawn", "first", False),
        ("ally", "chess:pawn", "second", True),
        ("ally", "CHESS:+ROOK'", "first", True),
        ("CHESS:PAWN", "CHESS:PAWN", "first", True),
        ("CHESS:PAWN", "chess:pawn", "first", False),
        ("CHESS:PAWN", "CHESS:+PAWN", "first", False),  # state is part of the piece
        ("CHESS:PAWN", "CHESS:PAWN'", "first", False),  # so is derivation
        ("CHESS:PAWN", None, "first", False),
        ("chess:-pawn'", "chess:-pawn'", "second", True),
    ],
)
def test_occupation_states(state: str, held: str | None, active: str, expected: bool) -> None:
    entry = _entry({"b2": state})
    squares: dict[str, str] = {} if held is None else {"b2": held}
    assert entry_holds(entry, squares, active) is expected  # type: ignore[arg-type]
    parsed = {} if held is None else {"b2": LegacyPiece.parse(held)}
    assert entry_holds(entry, parsed, active) is expected  # type: ignore[arg-type]


def test_none_is_empty_and_all_checks_must_hold() -> None:
    entry = _entry({"b2": "empty", "b3": "enemy", "0,0": "ally"})
    assert entry_holds(entry, {"b2": None, "b3": "chess:pawn", "0,0": "CHESS:KING"}, "first")
    assert not entry_holds(entry, {"b3": "chess:pawn"}, "first")  # 0,0 is empty
    assert not entry_holds(entry, {"b2": "CHESS:ROOK", "b3": "chess:pawn", "0,0": "CHESS:KING"}, "first")
    assert entry_holds(_entry({}), {}, "second")


def test_where_keeps_order_and_filters() -> None:
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a3": [
        {"board_check": {"a3": "empty"}, "board_patch": {}},
        {"board_check": {"a3": "enemy"}, "board_patch": {}},
        {"board_check": {"a3": "occupied"}, "board_patch": {}},
        {"board_check": {}, "board_patch": {}},
    ]}}})
    entries = legacy["CHESS:ROOK"]["a1"]["a3"]
    assert where(entries, "first", {}) == (entries[0], entries[3])
    assert where(entries, "first", {"a3": "chess:pawn"}) == (entries[1], entries[2], entries[3])
    assert where(entries, "first", {"a3": "CHESS:PAWN"}) == (entries[2], entries[3])
    assert where(iter(entries), "second", {"a3": "CHESS:PAWN"}) == (entries[1], entries[2], entries[3])
    assert where((), "first", {}) == ()


def test_bad_active_and_bad_squares_are_clear_errors() -> None:
    entry = _entry({"b2": "empty"})
    with pytest.raises(GGNError, match=r"^the active side is 'first' or 'second', not 'white'$"):
        entry_holds(entry, {}, "white")  # type: ignore[arg-type]
    with pytest.raises(GGNError, match=r"^the active side is 'first' or 'second', not 'white'$"):
        where([entry], "white", {})  # type: ignore[arg-type]
    with pytest.raises(GGNError, match=r"^square 'b2' holds 'C:k', which is not a legacy GGN piece \(GAN\): "
                                       r"mixed"):
        entry_holds(entry, {"b2": "C:k"}, "first")
    # Wrong Python types are TypeErrors naming the parameter (issue 8, as everywhere in the API).
    with pytest.raises(TypeError, match=r"^squares must be a mapping whose keys are square labels \(str\), "
                                        r"got int$"):
        entry_holds(entry, {1: "CHESS:KING"}, "first")  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"^squares must be a mapping from square label to piece, got list$"):
        entry_holds(entry, ["b2"], "first")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^squares\['b2'\] must be a LegacyPiece, its string or None, got i"):
        entry_holds(entry, {"b2": 5}, "first")  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"^active must be 'first' or 'second' \(a str\), got int$"):
        where([entry], 1, {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^entry must be a LegacyEntry, got dict$"):
        entry_holds({"board_check": {}}, {}, "first")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^each of entries must be a LegacyEntry, got str$"):
        where(["b2"], "first", {})  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^entries must be an iterable of LegacyEntry, got LegacyEntry$"):
        where(entry, "first", {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^entry must be a LegacyEntry, got NoneType$"):
        entry_transition(None, "first", CHESS)  # type: ignore[arg-type]


# --- entries as transitions ---------------------------------------------------------------

def test_move_capture_promotion_and_drop() -> None:
    move = _entry({"a2": "empty"}, {"a1": None, "a2": "CHESS:ROOK"})
    assert entry_transition(move, "first", CHESS) == Transition.of({"a1": None, "a2": "C:R"}, toggle=True)
    capture = _entry({"a2": "enemy"}, {"a1": None, "a2": "chess:rook"}, in_hand_add="CHESS:PAWN")
    assert entry_transition(capture, "second", CHESS).to_value() == {
        "board_diff": {"a1": None, "a2": "c:r"},
        "second_player_hand_diff": {"C:P": 1},
        "toggle": True,
    }
    promotion = _entry({"a2": "empty"}, {"a1": None, "a2": "CHESS:QUEEN"})
    assert entry_transition(promotion, "first", CHESS).board["a2"] == Qpi.parse("C:Q")
    drop = _entry({"e5": "empty"}, {"e5": "SHOGI:PAWN"}, in_hand_del="SHOGI:PAWN")
    assert entry_transition(drop, "first", {"SHOGI:PAWN": "S:P"}).to_value() == {
        "board_diff": {"e5": "S:P"},
        "first_player_hand_diff": {"S:P": -1},
        "toggle": True,
    }


def test_the_mover_hand_is_the_active_player_hand() -> None:
    capture = _entry({}, {}, in_hand_add="chess:pawn")
    assert entry_transition(capture, "first", CHESS).hand("first") == {Qpi.parse("c:p"): 1}
    assert not entry_transition(capture, "first", CHESS).hand("second")
    assert entry_transition(capture, "second", CHESS).hand("second") == {Qpi.parse("c:p"): 1}
    assert not entry_transition(capture, "second", CHESS).hand("first")


def test_add_and_remove_of_one_piece_cancel_and_the_turn_always_passes() -> None:
    both = _entry({}, {}, in_hand_add="CHESS:PAWN", in_hand_del="CHESS:PAWN")
    assert entry_transition(both, "first", CHESS) == Transition.of(toggle=True)
    swap = _entry({}, {}, in_hand_add="CHESS:QUEEN", in_hand_del="CHESS:PAWN")
    assert entry_transition(swap, "first", CHESS).hand("first") == {Qpi.parse("C:Q"): 1, Qpi.parse("C:P"): -1}
    assert entry_transition(_entry({}), "first", CHESS).to_value() == {"toggle": True}


def test_unmapped_pieces_are_named() -> None:
    entry = _entry({}, {"a1": None, "a2": "CHESS:AMAZON"})
    with pytest.raises(UnmappedPieceError) as caught:
        entry_transition(entry, "first", CHESS)
    assert str(caught.value) == (
        """no QPI for 'CHESS:AMAZON' in the mapping; add an entry such as "CHESS:AMAZON": "<SIN>:<PIN>\""""
    )
    assert caught.value.piece == LegacyPiece.parse("CHESS:AMAZON")
    assert caught.value.where == "/board_patch/a2"
    hand = _entry({}, {}, in_hand_del="shogi:pawn")
    with pytest.raises(UnmappedPieceError, match="no QPI for 'shogi:pawn'") as caught:
        entry_transition(hand, "second", CHESS)
    assert caught.value.where == "/in_hand_del"
    assert isinstance(caught.value, ConversionError)
    assert isinstance(caught.value, GGNError)


def test_labels_must_be_cells() -> None:
    entry = _entry({}, {"0,0": None, "a2": "CHESS:ROOK"})
    with pytest.raises(LabelError) as caught:
        entry_transition(entry, "first", CHESS)
    assert str(caught.value) == (
        "board_patch square '0,0' is not a CELL coordinate (dimension 1 expects a lowercase letter, "
        "found '0')"
    )
    assert caught.value.label == "0,0"
    assert caught.value.where == "/board_patch/0,0"
    # The board_check's labels do not matter to the transition.
    assert entry_transition(_entry({"0,0": "empty"}), "first", CHESS) == Transition.of(toggle=True)


def test_to_qpi_may_be_a_function_or_a_mapping_of_parsed_values() -> None:
    entry = _entry({}, {"a1": None, "a2": "CHESS:ROOK"}, in_hand_add="chess:pawn")
    expected = Transition.of({"a1": None, "a2": "C:R"}, {"c:p": 1}, toggle=True)
    table = {
        LegacyPiece.parse("CHESS:ROOK"): Qpi.parse("C:R"), LegacyPiece.parse("CHESS:PAWN"): Qpi.parse("C:P")
    }
    assert entry_transition(entry, "first", table) == expected
    assert entry_transition(entry, "first", GanMapping.of(CHESS)) == expected
    names = {"CHESS:ROOK": "C:R", "chess:pawn": "c:p"}
    assert entry_transition(entry, "first", lambda piece: names.get(str(piece))) == expected
    assert entry_transition(entry, "first", lambda piece: Qpi.parse(names[str(piece)])) == expected
    with pytest.raises(UnmappedPieceError, match=r"^no QPI for 'chess:pawn': the mapping gave none$"):
        entry_transition(entry, "first", lambda piece: {"CHESS:ROOK": "C:R"}[str(piece)])
    with pytest.raises(ConversionError, match=r"^the mapping turns 'CHESS:ROOK', a piece of the first "
                                              r"player, into 'c:r', a piece of the second side$"):
        entry_transition(entry, "first", lambda piece: str(piece)[0].lower() + ":" + "r")
    with pytest.raises(TypeError):
        entry_transition(entry, "first", 42)  # type: ignore[arg-type]


# --- the mapping ----------------------------------------------------------------------------

def test_lookup_rules() -> None:
    mapping = GanMapping.of({
        "SHOGI:PAWN": "S:P",
        "SHOGI:KING": "S:K^",
        "shogi:tokin": "s:+p",
        "SHOGI:+SILVER": "S:-S",  # an explicit entry wins over the state rule
        "CHESS:KING'": "c:K^",    # and over the derivation rule
    })
    cases = {
        "SHOGI:PAWN": "S:P",           # as written
        "shogi:pawn": "s:p",           # the other player's, both cases swapped
        "SHOGI:+PAWN": "S:+P",         # the legacy state becomes the QPI state
        "shogi:-pawn": "s:-p",
        "SHOGI:PAWN'": "s:P",          # derived: the other player's style
        "shogi:+pawn'": "S:+p",        # both rules
        "SHOGI:TOKIN": "S:+P",
        "SHOGI:+SILVER": "S:-S",
        "shogi:+silver": "s:-s",
        "CHESS:KING'": "c:K^",
        "chess:king'": "C:k^",
        "SHOGI:KING'": "s:K^",
    }
    for legacy, qpi in cases.items():
        assert str(mapping(legacy)) == qpi, legacy
        assert mapping.get(LegacyPiece.parse(legacy)) == Qpi.parse(qpi)
    for missing in ("SHOGI:SILVER", "CHESS:KING", "chess:queen'"):
        assert mapping.get(missing) is None
    with pytest.raises(UnmappedPieceError, match=r"^no QPI for 'SHOGI:\+TOKIN' in the mapping: 'SHOGI:TOKIN' "
                                                 r"maps to 'S:\+P', which has a state of its own, so "
                                                 r"'SHOGI:\+TOKIN' needs an entry of its own$"):
        mapping.qpi("SHOGI:+TOKIN")
    with pytest.raises(GGNError, match="invalid legacy GGN piece"):
        mapping.get("S:+p")


@pytest.mark.parametrize(
    ("value", "errors"),
    [
        ([], [("", "a GAN to QPI mapping must be an object mapping legacy pieces (GAN) to QPI strings, "
                    "got an array")]),
        ({"CHESS:KING": "c:k^"}, [("/CHESS:KING", "'CHESS:KING' is a piece of the first player but 'c:k^' "
                                                  "one of the second side: the case of the PIN must follow "
                                                  "the GAN's")]),
        ({"CHESS:KING'": "C:K^"}, [("/CHESS:KING'", "\"CHESS:KING'\" is derived (') but 'C:K^' is native: a "
                                                    "derived piece maps to a QPI whose SIN and PIN cases "
                                                    "differ")]),
        ({"CHESS:KING": "c:K^"}, [("/CHESS:KING", "'CHESS:KING' is native but 'c:K^' is derived: a native "
                                                  "piece maps to a QPI whose SIN and PIN cases agree")]),
        ({"CHESS:KING": 1}, [("/CHESS:KING", "a piece maps to a QPI string, got the integer 1")]),
        ({"CHESS:KING": "K"}, [("/CHESS:KING", "'K' is not a QPI: missing ':' between style and piece "
                                               "(expected <SIN>:<PIN>)")]),
        ({"C:k": "C:K"}, [("/C:k", "'C:k' is not a GAN identifier: mixed case: the case changes at 'k'; "
                                   "an actor is all uppercase (first player) or all lowercase (second "
                                   "player)")]),
    ],
)
def test_mapping_validation(value: Any, errors: list[tuple[str, str]]) -> None:
    assert [(v.path, v.message) for v in GanMapping.errors(value)] == errors
    with pytest.raises(DocumentError, match="invalid GAN to QPI mapping document"):
        GanMapping.from_value(value)


def test_mapping_errors_are_all_reported_and_duplicates_caught() -> None:
    text = '{"CHESS:KING": "C:K^", "CHESS:KING": "C:Q", "X": "C:K", "CHESS:ROOK": "c:r"}'
    with pytest.raises(DocumentError) as caught:
        GanMapping.loads(text)
    assert [v.path for v in caught.value.violations] == ["/CHESS:KING", "/X", "/CHESS:ROOK"]
    assert caught.value.violations[0].message == (
        "duplicate key 'CHESS:KING': a JSON object must not repeat a key"
    )


def test_mapping_loads_dumps_and_combines(tmp_path: Path) -> None:
    mapping = GanMapping.of(CHESS)
    assert GanMapping.loads(mapping.dumps()) == mapping
    path = tmp_path / "mapping.json"
    path.write_text(json.dumps(CHESS))
    assert GanMapping.load(path) == mapping
    assert GanMapping.load(io.StringIO(json.dumps(CHESS))) == mapping
    assert mapping.to_value() == CHESS
    assert len(mapping) == 4 and LegacyPiece.parse("CHESS:KING") in set(mapping)
    assert mapping.entries[LegacyPiece.parse("CHESS:KING")] == Qpi.parse("C:K^")
    combined = mapping | GanMapping.of({"CHESS:KING": "C:+K^", "SHOGI:PAWN": "S:P"})
    assert str(combined("CHESS:KING")) == "C:+K^" and str(combined("shogi:pawn")) == "s:p"
    assert str(mapping("CHESS:KING")) == "C:K^"  # unchanged
    assert eval(repr(mapping), {"GanMapping": GanMapping}) == mapping
    with pytest.raises(ConversionError, match="is a piece of the first player"):
        GanMapping({LegacyPiece.parse("CHESS:KING"): Qpi.parse("c:k")})
    assert mapping != CHESS and (mapping == GanMapping.of(dict(reversed(CHESS.items()))))


@given(
    st.sampled_from(sorted(CHESS)),
    st.sampled_from(["first", "second"]),
    st.sampled_from(["normal", "enhanced", "diminished"]),
    st.booleans(),
)
def test_mapped_pieces_keep_side_state_and_derivation(
    name: str, side: str, state: str, derived: bool
) -> None:
    plain = Gan.parse(name)
    legacy = LegacyPiece(Gan(plain.game, plain.piece, side), state, derived)  # type: ignore[arg-type]
    qpi = GanMapping.of(CHESS)(legacy)
    assert (qpi.side, qpi.state, qpi.derived) == (side, state, derived)
    assert qpi.name == Qpi.parse(CHESS[name]).name and qpi.terminal == (name == "CHESS:KING")


@given(st.dictionaries(st.text(max_size=6), st.one_of(st.text(max_size=6), st.integers(), st.none()),
                       max_size=4))
def test_any_mapping_value_loads_or_raises_document_error(value: dict[str, Any]) -> None:
    with contextlib.suppress(DocumentError):
        GanMapping.from_value(value)
