"""Legacy GGN to GGN 1.0.0: the vectors under tests/vectors/convert/, the built-in mappings,
every kind of note, and evaluation that means the same before and after, under Hypothesis."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import (
    DocumentError,
    GGNError,
    LegacyEntry,
    LegacyPiece,
    LegacyRuleset,
    NotFoundError,
    Ruleset,
)
from ggn._types import Side
from ggn.convert import Conversion, GanMapping, Note, convert, load_mapping
from ggn.legacy_eval import entry_transition, where
from ggn.stn import Transition
from ggn.variants.registry import legacy_mapping as builtin_mapping
from ggn.variants.registry import legacy_names
from support import ggn_holds

VECTORS = Path(__file__).parent / "vectors" / "convert"


def _mapping(spec: Any) -> GanMapping:
    """A vector's mapping: an object, or a list of built-in names and objects combined in order."""
    if isinstance(spec, dict):
        return GanMapping.of(spec)
    result: GanMapping | None = None
    for part in spec:
        mapping = builtin_mapping(part) if isinstance(part, str) else GanMapping.of(part)
        result = mapping if result is None else result | mapping
    assert result is not None
    return result


def _legacy(case: dict[str, Any]) -> LegacyRuleset:
    if "legacy_file" in case:
        return LegacyRuleset.load(VECTORS / case["legacy_file"])
    return LegacyRuleset.from_value(case["legacy"])


# --- vectors ---------------------------------------------------------------------------------

CASES = sorted(VECTORS.glob("*.json"))


def test_the_legacy_texts_examples_are_all_converted() -> None:
    names = {path.stem for path in CASES}
    assert {"spec-simple-move", "spec-capture", "spec-promotion", "spec-drop"} <= names
    legacy_examples = {json.loads(path.read_text()).get("legacy_file") for path in CASES}
    for example in (VECTORS.parent / "ggn-legacy" / "valid").glob("*.json"):
        assert f"../ggn-legacy/valid/{example.name}" in legacy_examples, example.name


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_vector(path: Path) -> None:
    case = json.loads(path.read_text())
    conversion = convert(_legacy(case), _mapping(case["mapping"]), **case.get("options", {}))
    assert conversion.ruleset == Ruleset.from_value(case["ruleset"])
    assert conversion.ruleset.to_value() == case["ruleset"]
    assert conversion.effects == case["effects"]
    assert [list(note) for note in conversion.notes] == case["notes"]
    # The effects are keyed like the ruleset, one transition (or null) per possibility.
    for piece, sources in conversion.ruleset.to_value().items():
        for source, destinations in sources.items():
            for destination, possibilities in destinations.items():
                effects = conversion.effects[piece][source][destination]
                assert len(effects) == len(possibilities)
                for effect in effects:
                    assert effect is None or Transition.from_value(effect).to_value() == effect
    assert json.loads(json.dumps(conversion.effects)) == conversion.effects


# --- built-in mappings --------------------------------------------------------------------

START = {
    "xiangqi": "rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x",
    "shogi": "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s",
    "makruk": "rnsmk^snr/8/pppppppp/8/8/PPPPPPPP/8/RNSK^MSNR / M/m",
    "chess": "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c",
}


@pytest.mark.parametrize("name", legacy_names())
def test_builtin_mappings_use_the_start_positions_letters(name: str) -> None:
    mapping = builtin_mapping(name)
    placement, _, styles = START[name].split(" ")
    pieces = {token.lstrip("+-") for token in re.findall(r"[+-]?[A-Za-z]\^?", placement)}
    # The one-letter names with ' (PNN 1.0.0's intermediate state: chess's castling king and
    # rooks in the 2025 examples) are the start's pieces with their + (castling rights).
    primed = {piece: qpi for piece, qpi in mapping.entries.items() if piece.derived}
    castling = {"CHESS:K'": "C:+K^", "CHESS:R'": "C:+R", "chess:k'": "c:+k^", "chess:r'": "c:+r"}
    assert {str(p): str(q) for p, q in primed.items()} == (castling if name == "chess" else {})
    assert {str(q).split(":")[1] for q in primed.values()} <= set(re.findall(r"\+[A-Za-z]\^?", placement))
    entries = {piece: qpi for piece, qpi in mapping.entries.items() if not piece.derived}
    values = {str(qpi).split(":")[1] for qpi in entries.values()}
    assert values == pieces
    assert {str(qpi).split(":")[0] for qpi in entries.values()} == set(styles.split("/"))
    for piece, qpi in entries.items():
        assert piece.game == name.upper()
        assert qpi.side == piece.side and qpi.native and qpi.state == "normal"
        royal = ("KING", "GENERAL", "G") if name == "xiangqi" else ("KING", "K")
        assert qpi.terminal == (piece.piece in royal)
    # Each form (the long names of the GAN text, the one-letter names of the 2025 gems) is
    # one-to-one, and both forms name the same pieces.
    long = {p: q for p, q in entries.items() if len(p.piece) > 1}
    short = {p: q for p, q in entries.items() if len(p.piece) == 1}
    assert len(set(long.values())) == len(long) and len(set(short.values())) == len(short)
    assert set(long.values()) == set(short.values())


def test_builtin_tables() -> None:
    assert legacy_names() == ("chess", "shogi", "xiangqi", "makruk")
    assert builtin_mapping("chess").to_value() == {
        "CHESS:KING": "C:K^", "CHESS:QUEEN": "C:Q", "CHESS:ROOK": "C:R", "CHESS:BISHOP": "C:B",
        "CHESS:KNIGHT": "C:N", "CHESS:PAWN": "C:P",
        "CHESS:K": "C:K^", "CHESS:Q": "C:Q", "CHESS:R": "C:R", "CHESS:B": "C:B", "CHESS:N": "C:N",
        "CHESS:P": "C:P", "CHESS:K'": "C:+K^", "CHESS:R'": "C:+R",
        "chess:king": "c:k^", "chess:queen": "c:q", "chess:rook": "c:r", "chess:bishop": "c:b",
        "chess:knight": "c:n", "chess:pawn": "c:p",
        "chess:k": "c:k^", "chess:q": "c:q", "chess:r": "c:r", "chess:b": "c:b", "chess:n": "c:n",
        "chess:p": "c:p", "chess:k'": "c:+k^", "chess:r'": "c:+r",
    }
    xiangqi = builtin_mapping("xiangqi")
    assert {str(p): str(q) for p, q in xiangqi.entries.items() if p.side == "first"} == {
        "XIANGQI:GENERAL": "X:G^", "XIANGQI:ADVISOR": "X:A", "XIANGQI:ELEPHANT": "X:E",
        "XIANGQI:HORSE": "X:H", "XIANGQI:CHARIOT": "X:R", "XIANGQI:CANNON": "X:C", "XIANGQI:SOLDIER": "X:P",
        "XIANGQI:G": "X:G^", "XIANGQI:A": "X:A", "XIANGQI:E": "X:E", "XIANGQI:H": "X:H", "XIANGQI:R": "X:R",
        "XIANGQI:C": "X:C", "XIANGQI:S": "X:P",
    }
    makruk = builtin_mapping("Makruk")
    assert [str(makruk(p)) for p in ("MAKRUK:KHON", "makruk:met", "MAKRUK:KING", "makruk:+pawn")] == [
        "M:S", "m:m", "M:K^", "m:+p",
    ]
    shogi = builtin_mapping("shogi")
    promoted = [
        "SHOGI:+PAWN", "SHOGI:+LANCE", "SHOGI:+KNIGHT", "SHOGI:+SILVER", "SHOGI:+ROOK", "shogi:+bishop",
    ]
    assert [str(shogi(p)) for p in promoted] == ["S:+P", "S:+L", "S:+N", "S:+S", "S:+R", "s:+b"]
    chess = builtin_mapping("CHESS")
    assert [str(chess(p)) for p in ("CHESS:+KING", "CHESS:+ROOK", "chess:-pawn", "chess:queen'")] == [
        "C:+K^", "C:+R", "c:-p", "C:q",
    ]
    assert builtin_mapping("chess") is not builtin_mapping("chess")  # each call gives its own


def test_unknown_builtin_names_the_known_ones() -> None:
    with pytest.raises(NotFoundError) as caught:
        builtin_mapping("go")
    assert str(caught.value) == "no built-in mapping 'go'; there are: chess, shogi, xiangqi, makruk"
    assert isinstance(caught.value, GGNError)
    with pytest.raises(TypeError, match="name must be a str, got int"):  # a wrong type, as everywhere
        builtin_mapping(3)  # type: ignore[arg-type]


def test_load_mapping(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text('{"CHESS:AMAZON": "C:A", "CHESS:+AMAZON": "C:+A^"}')
    mapping = load_mapping(path)
    assert str(mapping("chess:+amazon")) == "c:+a^"
    assert load_mapping(str(path)) == mapping
    path.write_text('{"CHESS:AMAZON": "c:a"}')
    with pytest.raises(DocumentError) as caught:
        load_mapping(path)
    assert caught.value.path == "/CHESS:AMAZON"
    with pytest.raises(DocumentError, match="cannot read"):
        load_mapping(tmp_path / "missing.json")
    path.write_text("{")
    with pytest.raises(DocumentError):
        load_mapping(path)


# --- how entries become possibilities ---------------------------------------------------

def _one(check: dict[str, str], piece: str = "CHESS:ROOK", source: str = "a1", destination: str = "a4",
         **options: Any) -> Conversion:
    entry = {"board_check": check, "board_patch": {}}
    legacy = LegacyRuleset.from_value({piece: {source: {destination: [entry]}}})
    return convert(legacy, builtin_mapping("chess"), **options)


def _possibilities(conversion: Conversion) -> list[dict[str, dict[str, str]]]:
    ((_, sources),) = conversion.ruleset.to_value().items()
    ((_, destinations),) = sources.items()
    ((_, possibilities),) = destinations.items()
    return possibilities  # type: ignore[no-any-return]


def test_states_become_conditions() -> None:
    conversion = _one(
        {"a2": "empty", "a3": "occupied", "a4": "enemy", "b1": "chess:-pawn", "b2": "CHESS:PAWN'"}
    )
    assert _possibilities(conversion) == [
        {"must": {"a2": "empty", "a4": "enemy", "b1": "c:-p", "b2": "c:P"}, "deny": {"a3": "empty"}}
    ]
    assert conversion.notes == []


def test_ally_becomes_one_possibility_per_known_piece_of_the_mover() -> None:
    legacy = LegacyRuleset.from_value({
        "CHESS:ROOK": {"a1": {"a4": [{"board_check": {"a4": "ally", "a3": "ally"}, "board_patch": {}}]}},
        "CHESS:KING": {"e1": {"e2": [{"board_check": {}, "board_patch": {"e2": "CHESS:KING"}}]}},
        "chess:pawn": {"a7": {"a6": [{"board_check": {}, "board_patch": {}, "in_hand_add": "chess:queen"}]}},
    })
    conversion = convert(legacy, builtin_mapping("chess"))
    assert [p.to_value() for p in conversion.ruleset["C:R"]["a1"]["a4"]] == [
        {"must": {"a4": a4, "a3": a3}} for a4 in ("C:K^", "C:R") for a3 in ("C:K^", "C:R")
    ]
    message = ("'ally' has no LCN condition: written as one possibility per piece of the first player the "
               "document knows (C:K^, C:R); a piece the document does not name would not count as an ally")
    assert conversion.notes == [
        Note("/CHESS:ROOK/a1/a4/0/board_check/a4", message),
        Note("/CHESS:ROOK/a1/a4/0/board_check/a3", message),
    ]
    assert len(conversion.effects["C:R"]["a1"]["a4"]) == 4


def test_ally_past_the_limit_is_a_deny_enemy_and_says_so() -> None:
    conversion = _one({"a4": "ally", "a3": "ally", "b1": "CHESS:KING"}, ally_limit=3)
    assert _possibilities(conversion) == [{"must": {"b1": "C:K^"}, "deny": {"a4": "enemy", "a3": "enemy"}}]
    assert [note.path for note in conversion.notes] == ["/CHESS:ROOK/a1/a4/0/board_check/a4",
                                                        "/CHESS:ROOK/a1/a4/0/board_check/a3"]
    assert conversion.notes[0].message.endswith(
        "would make 4 for this entry, over the limit of 3: written as deny 'enemy', which also lets an "
        "empty square through"
    )
    assert str(conversion.notes[0]).startswith("/CHESS:ROOK/a1/a4/0/board_check/a4: 'ally' has no LCN")
    with pytest.raises(GGNError, match="ally_limit is a positive integer, not 0"):
        _one({}, ally_limit=0)


@pytest.mark.parametrize(
    ("state", "kept"),
    [("occupied", True), ("ally", True), ("CHESS:ROOK", True), ("empty", False), ("enemy", False),
     ("CHESS:+ROOK", False), ("chess:rook", False)],
)
def test_checks_on_the_source_square(state: str, kept: bool) -> None:
    conversion = _one({"a1": state, "a2": "empty"})
    assert _possibilities(conversion) == ([{"must": {"a2": "empty"}}] if kept else [])
    assert conversion.effects["C:R"]["a1"]["a4"] == ([{"toggle": True}] if kept else [])
    (note,) = conversion.notes
    assert note.path == "/CHESS:ROOK/a1/a4/0/board_check/a1"
    verdict = "always holds" if kept else "never holds"
    assert note.message.startswith(f"the source square is checked for {state!r}, which {verdict}")


def test_drops_keep_the_hand_source() -> None:
    legacy = LegacyRuleset.from_value({"shogi:pawn": {"*": {"e5": [{
        "board_check": {"e5": "empty", "e4": "ally"}, "board_patch": {"e5": "shogi:pawn"},
        "in_hand_del": "shogi:pawn"}]}}})
    conversion = convert(legacy, builtin_mapping("shogi"))
    assert conversion.ruleset.to_value() == {"s:p": {"*": {"e5": [{"must": {"e5": "empty", "e4": "s:p"}}]}}}
    assert conversion.effects == {"s:p": {"*": {"e5": [{
        "board_diff": {"e5": "s:p"}, "second_player_hand_diff": {"s:p": -1}, "toggle": True}]}}}


def test_what_is_lost_is_left_out_but_exact_impossibility_is_kept() -> None:
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {
        "a2": [{"board_check": {"x-1": "empty"}, "board_patch": {}}],
        "a3": [{"board_check": {"a1": "empty"}, "board_patch": {}}],
        "a4": [{"board_check": {"a2": "CHESS:AMAZON"}, "board_patch": {}},
               {"board_check": {"a2": "empty"}, "board_patch": {"a9": "CHESS:AMAZON"}}],
    }}})
    conversion = convert(legacy, builtin_mapping("chess"))
    assert conversion.ruleset.to_value() == {"C:R": {"a1": {"a3": [], "a4": [{"must": {"a2": "empty"}}]}}}
    assert conversion.effects == {"C:R": {"a1": {"a3": [], "a4": [None]}}}
    assert [note.path for note in conversion.notes] == [
        "/CHESS:ROOK/a1/a2/0/board_check/x-1",
        "/CHESS:ROOK/a1/a3/0/board_check/a1",
        "/CHESS:ROOK/a1/a4/0/board_check/a2",
        "/CHESS:ROOK/a1/a4/1/board_patch/a9",
    ]


def test_merged_pieces_concatenate_in_document_order() -> None:
    legacy = LegacyRuleset.from_value({
        "CHESS:ROOK": {"a1": {"a2": [{"board_check": {"a2": "empty"}, "board_patch": {}}]}},
        "CHESS:TOWER": {"a1": {"a2": [{"board_check": {"a2": "enemy"}, "board_patch": {}}],
                               "b1": [{"board_check": {}, "board_patch": {}}]}},
    })
    conversion = convert(legacy, {"CHESS:ROOK": "C:R", "CHESS:TOWER": "C:R"})
    assert conversion.ruleset.to_value() == {"C:R": {"a1": {
        "a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}], "b1": [{}]}}}
    assert conversion.notes == [Note("/CHESS:TOWER", "'CHESS:TOWER' maps to 'C:R', as 'CHESS:ROOK' does: "
                                                     "their moves are merged under 'C:R'")]


def test_convert_takes_a_plain_mapping_and_checks_its_arguments() -> None:
    legacy = LegacyRuleset.from_value({"GAME:X": {"c3": {"c4": [{"board_check": {}, "board_patch": {}}]}}})
    assert convert(legacy, {"GAME:X": "G:X"}).ruleset.to_value() == {"G:X": {"c3": {"c4": [{}]}}}
    with pytest.raises(DocumentError):
        convert(legacy, {"GAME:X": "g:x"})
    with pytest.raises(TypeError):
        convert({"GAME:X": {}}, {"GAME:X": "G:X"})  # type: ignore[arg-type]
    empty = convert(LegacyRuleset.from_value({}), builtin_mapping("chess"))
    assert (empty.ruleset.to_value(), empty.effects, empty.notes) == ({}, {}, [])


def test_notes_are_path_message_pairs() -> None:
    note = Note("/CHESS:ROOK", "why")
    path, message = note
    assert (path, message) == ("/CHESS:ROOK", "why") and str(note) == "/CHESS:ROOK: why"
    assert str(Note("", "why")) == "(document): why"


# --- the same meaning before and after -----------------------------------------------------

LABELS = ["a1", "a2", "b1", "b2", "c3"]
POOL = ["CHESS:KING", "CHESS:+ROOK", "CHESS:PAWN", "SHOGI:+PAWN", "chess:pawn", "chess:-pawn",
        "chess:queen'", "shogi:king"]
MAPPING = builtin_mapping("chess") | builtin_mapping("shogi")

pieces = st.sampled_from(POOL)
states = st.one_of(st.sampled_from(["empty", "occupied", "enemy", "ally"]), pieces)


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "board_check": draw(st.dictionaries(st.sampled_from(LABELS), states, max_size=3)),
        "board_patch": draw(
            st.dictionaries(st.sampled_from(LABELS), st.one_of(st.none(), pieces), max_size=3)
        ),
    }
    for field in ("in_hand_add", "in_hand_del"):
        gan = draw(st.one_of(st.none(), st.sampled_from(["CHESS:PAWN", "chess:queen", "SHOGI:PAWN"])))
        if gan is not None:
            entry[field] = gan
    return entry


documents = st.dictionaries(
    pieces,
    st.dictionaries(
        st.sampled_from([*LABELS, "*"]),
        st.dictionaries(st.sampled_from(LABELS), st.lists(entries(), min_size=1, max_size=3), min_size=1,
                        max_size=2),
        min_size=1, max_size=2,
    ),
    min_size=1, max_size=3,
)


def _known(legacy: LegacyRuleset) -> list[LegacyPiece]:
    seen: set[LegacyPiece] = set()
    for piece, sources in legacy.items():
        seen.add(piece)
        for destinations in sources.values():
            for listed in destinations.values():
                for entry in listed:
                    seen.update(s for s in entry.board_check.values() if isinstance(s, LegacyPiece))
                    seen.update(p for p in entry.board_patch.values() if p is not None)
                    seen.update(LegacyPiece(g) for g in (entry.in_hand_add, entry.in_hand_del) if g)
    return sorted(seen, key=str)


def _witness(
    entry: LegacyEntry, mover: Side, known: list[LegacyPiece], data: st.DataObject
) -> dict[str, LegacyPiece]:
    """Squares that meet the entry's checks where the known pieces allow it."""
    squares: dict[str, LegacyPiece] = {}
    for label, state in entry.board_check.items():
        if isinstance(state, LegacyPiece):
            squares[label] = state
            continue
        choices = [p for p in known if state == "occupied" or (p.side == mover) == (state == "ally")]
        if state != "empty" and choices:
            squares[label] = data.draw(st.sampled_from(choices))
    return squares


@settings(max_examples=200)
@given(documents, st.data())
def test_evaluation_and_effects_agree_before_and_after(document: dict[str, Any], data: st.DataObject) -> None:
    legacy = LegacyRuleset.from_value(document)
    conversion = convert(legacy, MAPPING, ally_limit=10_000)
    known = _known(legacy)
    for piece, sources in legacy.items():
        qpi = str(MAPPING(piece))
        for source, destinations in sources.items():
            for destination, listed in destinations.items():
                # A position of pieces the document knows, with the moving piece on its source;
                # half of the time built to meet one entry's checks, so that more entries hold.
                squares = data.draw(st.dictionaries(st.sampled_from(LABELS), st.sampled_from(known),
                                                    max_size=5))
                if data.draw(st.booleans()):
                    squares = _witness(data.draw(st.sampled_from(listed)), piece.side, known, data)
                if source != "*":
                    squares[source] = piece
                flat = {label: str(MAPPING(p)) for label, p in squares.items()}
                before = sorted(
                    entry_transition(entry, piece.side, MAPPING).dumps()
                    for entry in where(listed, piece.side, squares)
                )
                possibilities = conversion.ruleset[qpi][source][destination]
                effects = conversion.effects[qpi][source][destination]
                after = sorted(
                    json.dumps(effect, indent=2)
                    for possibility, effect in zip(possibilities, effects, strict=True)
                    if ggn_holds(possibility, piece.side, flat)
                )
                assert before == after, (piece, source, destination, squares)


@settings(max_examples=40)
@given(documents)
def test_conversions_of_the_pool_lose_nothing_but_state_their_assumptions(document: dict[str, Any]) -> None:
    conversion = convert(LegacyRuleset.from_value(document), MAPPING, ally_limit=10_000)
    for note in conversion.notes:
        assert "'ally' has no LCN condition: written as" in note.message or "source square" in note.message
    assert Ruleset.loads(conversion.ruleset.dumps()) == conversion.ruleset


def test_the_local_evaluator_agrees_with_the_librarys() -> None:
    evaluate = pytest.importorskip("ggn.evaluate")
    rules = Ruleset.from_value({"C:R": {"a1": {"a3": [
        {"must": {"a2": "empty", "a3": "enemy"}}, {"deny": {"a2": "empty"}}, {"must": {"a3": "C:P"}},
    ]}}})
    possibilities = rules["C:R"]["a1"]["a3"]
    for squares in ({}, {"a3": "c:p"}, {"a2": "C:P", "a3": "C:P"}, {"a2": "c:k^"}):
        for active in ("first", "second"):
            mine = tuple(p for p in possibilities if ggn_holds(p, active, squares))
            assert evaluate.where(possibilities, active, squares) == mine


@pytest.mark.parametrize("b1", ["empty", "occupied", "enemy", "ally", "CHESS:PAWN", "chess:pawn"])
@pytest.mark.parametrize("b2", ["empty", "occupied", "enemy", "ally", "CHESS:PAWN", "chess:pawn"])
def test_every_pair_of_states_on_every_position_of_known_pieces(b1: str, b2: str) -> None:
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a2": [
        {"board_check": {"b1": b1, "b2": b2}, "board_patch": {"b1": "CHESS:PAWN", "b2": "chess:pawn"}},
    ]}}})
    (entry,) = legacy["CHESS:ROOK"]["a1"]["a2"]
    possibilities = convert(legacy, MAPPING).ruleset["C:R"]["a1"]["a2"]
    contents = [None, "CHESS:ROOK", "CHESS:PAWN", "chess:pawn"]
    for on_b1 in contents:
        for on_b2 in contents:
            squares = {label: piece for label, piece in (("b1", on_b1), ("b2", on_b2)) if piece}
            flat = {label: str(MAPPING(piece)) for label, piece in squares.items()}
            expected = bool(where([entry], "first", {"a1": "CHESS:ROOK", **squares}))
            assert any(ggn_holds(p, "first", flat) for p in possibilities) is expected, squares
