"""The legacy trio under hostile input: conversion growth bounded (issue 8, row 7), entries
validated when built directly (audit), and arguments of the wrong type or range refused."""

from __future__ import annotations

from typing import Any

import pytest

import ggn.convert
from ggn import Cell, DocumentError, GGNError, LegacyEntry, LegacyPiece, LegacyRuleset, Qpi
from ggn.convert import Conversion, Note, convert
from ggn.gan import Gan
from ggn.legacy import LegacyPieceRules, LegacySourceRules
from ggn.legacy_eval import GanMapping, entry_holds, entry_transition
from ggn.legacy_gem import GemRuleset
from ggn.variants.registry import legacy_mapping as builtin_mapping

CHESS = builtin_mapping("chess")
NAMES = ("KING", "QUEEN", "ROOK", "BISHOP", "KNIGHT", "PAWN")
# Every first-player chess piece in every state and derivation: 36 pieces the 'ally' of a
# first-player mover expands into, one possibility each.
ALLIES = [f"CHESS:{state}{name}{mark}" for name in NAMES for state in ("", "+", "-") for mark in ("", "'")]
SQUARES = [f"{file}{rank}" for rank in range(1, 9) for file in "abcdefgh"]


def ally_entry(index: int, empties: int = 60) -> dict[str, Any]:
    """An entry of ``empties`` empty squares, one 'ally' square, and a patch naming a piece."""
    check: dict[str, str] = dict.fromkeys(SQUARES[2 : 2 + empties], "empty")
    check["h8"] = "ally"
    return {"board_check": check, "board_patch": {"a1": None, "b1": ALLIES[index % len(ALLIES)]}}


def output_size(conversion: Conversion) -> int:
    """The output in output_limit's units: conditions (at least one a possibility) and the
    squares and hand pieces of the effects."""
    size = 0
    for piece, sources in conversion.ruleset.items():
        for source, destinations in sources.items():
            for destination, possibilities in destinations.items():
                effects = conversion.effects[str(piece)][str(source)][str(destination)]
                for possibility, effect in zip(possibilities, effects, strict=True):
                    size += max(1, len(possibility.must) + len(possibility.deny))
                    size += len(effect["board_diff"]) + sum(
                        len(effect.get(f"{player}_player_hand_diff", {})) for player in ("first", "second")
                    )
    return size


# --- row 7: the growth of 'ally' expansions is bounded ----------------------------------------


@pytest.mark.timeout(60)
def test_row7_ally_expansion_is_bounded_by_default() -> None:
    # 300 entries of 63 conditions, each 'ally' square one possibility per known piece: 36 each.
    # The landed code wrote all 10,800 possibilities (680,400 conditions, 20 MB with effects, and
    # 80 MB from the issue's 2.4 MB document); the output is now at most four times the input's
    # size, and never less than 250,000, with a note for each entry left out.
    count = 300
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"b2": [ally_entry(i) for i in range(count)]}}})
    input_size = count * (61 + 2)
    limit = max(250_000, 4 * input_size)
    conversion = convert(legacy, CHESS)
    assert output_size(conversion) <= limit
    possibilities = conversion.ruleset["C:R"]["a1"]["b2"]
    converted = len(possibilities) // 36
    assert len(possibilities) == converted * 36
    assert converted == limit // (36 * 63)  # every entry that fits, in document order
    left_out = [note for note in conversion.notes if "left out" in note.message]
    assert [note.path for note in left_out] == [f"/CHESS:ROOK/a1/b2/{i}" for i in range(converted, count)]
    assert left_out[0].message == (
        "this entry is left out: it would add 36 possibilities, 2,268 conditions and effect squares "
        f"to the {converted * 2268:,} converted so far, past the output limit of {limit:,}"
    )
    ally_notes = [note.path for note in conversion.notes if "'ally'" in note.message]
    assert ally_notes == [f"/CHESS:ROOK/a1/b2/{i}/board_check/h8" for i in range(converted)]


GAME = {"GAME:A": "G:A", "GAME:B": "G:B", "GAME:C": "G:C"}


def game_entry(check: dict[str, str]) -> dict[str, Any]:
    """An entry whose effect names the three pieces of GAME (3 squares): 'ally' is three ways."""
    return {"board_check": check, "board_patch": {"a1": None, "b1": "GAME:B", "c1": "GAME:C"}}


def test_output_limit_leaves_out_what_does_not_fit_and_converts_the_rest() -> None:
    legacy = LegacyRuleset.from_value({"GAME:A": {"a1": {
        "a2": [game_entry({"a2": "empty", "b2": "empty", "h8": "ally"})],  # 3 x (3 + 3) = 18
        "a3": [game_entry({"a3": "empty"})],                               # 1 + 3 = 4
        "a4": [game_entry({"a4": "empty", "h8": "ally"}),                  # 3 x (2 + 3) = 15
               game_entry({"a4": "enemy"})],                               # 4
    }}})
    conversion = convert(legacy, GAME, output_limit=18 + 4 + 4)
    assert output_size(conversion) == 18 + 4 + 4
    assert len(conversion.ruleset["G:A"]["a1"]["a2"]) == 3
    assert [p.to_value() for p in conversion.ruleset["G:A"]["a1"]["a3"]] == [{"must": {"a3": "empty"}}]
    # The 'ally' entry of a4 no longer fits, the small one after it does: a4 keeps that one.
    assert [p.to_value() for p in conversion.ruleset["G:A"]["a1"]["a4"]] == [{"must": {"a4": "enemy"}}]
    assert conversion.effects["G:A"]["a1"]["a4"] == [
        {"board_diff": {"a1": None, "b1": "G:B", "c1": "G:C"}, "toggle": True}
    ]
    assert [note for note in conversion.notes if "left out" in note.message] == [Note(
        "/GAME:A/a1/a4/0",
        "this entry is left out: it would add 3 possibilities, 15 conditions and effect squares to "
        "the 22 converted so far, past the output limit of 26",
    )]


def test_a_destination_whose_every_entry_is_left_out_is_not_written_as_no_way() -> None:
    # An empty list would say "no way to get there"; the moves were not carried over instead.
    entry = game_entry({"a3": "empty", "h8": "ally"})
    legacy = LegacyRuleset.from_value({"GAME:A": {"a1": {"a2": [entry], "a3": [entry, entry]}}})
    conversion = convert(legacy, GAME, output_limit=3 * 5)
    assert list(conversion.ruleset["G:A"]["a1"]) == [Cell.parse("a2")]
    assert list(conversion.effects["G:A"]["a1"]) == ["a2"]
    assert [note.path for note in conversion.notes if "left out" in note.message] == [
        "/GAME:A/a1/a3/0", "/GAME:A/a1/a3/1",
    ]


def namer() -> dict[str, Any]:
    """An entry whose effect names all 36 ALLIES, so the document knows them (36 squares)."""
    return {"board_check": {}, "board_patch": dict(zip(SQUARES, ALLIES, strict=False))}


def test_default_output_limit_is_four_times_the_document(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ggn.convert, "_OUTPUT_FLOOR", 1)
    entries = [ally_entry(i, empties=2) for i in range(3)]
    # The document: 36 for the namer, then 3 checks and 2 patched squares an entry: 51, so 204
    # of output. The namer takes 37 (its possibility has no condition), and each 'ally' entry
    # would take 36 possibilities of 3 conditions and 2 effect squares, 180: none fits.
    legacy = LegacyRuleset.from_value({"CHESS:KING": {"e1": {"e2": [namer()]}},
                                       "CHESS:ROOK": {"a1": {"b2": entries}}})
    conversion = convert(legacy, CHESS)
    assert list(conversion.ruleset.to_value()) == ["C:K^"]
    assert [(note.path, note.message) for note in conversion.notes] == [
        (f"/CHESS:ROOK/a1/b2/{i}", "this entry is left out: it would add 36 possibilities, 180 "
                                   "conditions and effect squares to the 37 converted so far, past "
                                   "the output limit of 204")
        for i in range(3)
    ]
    # Without 'ally' the output is never larger than the document, so the default never bites.
    plain = [{"board_check": {"a2": "empty"}, "board_patch": {"a1": None, "a2": "CHESS:ROOK"}}] * 5
    conversion = convert(LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a2": plain}}}), CHESS)
    assert len(conversion.ruleset["C:R"]["a1"]["a2"]) == 5
    assert conversion.notes == []


def test_thousands_of_ally_squares_are_counted_without_a_huge_number() -> None:
    # The landed code computed 36 ** 3000 and wrote it in the note: a number of 4,669 digits,
    # past Python's limit on int to str, so a ValueError escaped instead of a conversion.
    check = {f"a{rank}": "ally" for rank in range(2, 3002)}
    entry = {"board_check": check, "board_patch": {}}
    legacy = LegacyRuleset.from_value({"CHESS:KING": {"e1": {"e2": [namer()]}},
                                       "CHESS:ROOK": {"a1": {"b2": [entry]}}})
    conversion = convert(legacy, CHESS)
    (possibility,) = conversion.ruleset["C:R"]["a1"]["b2"]
    assert possibility.deny.to_value() == dict.fromkeys(check, "enemy")
    paths = [f"/CHESS:ROOK/a1/b2/0/board_check/{label}" for label in check]
    assert [note.path for note in conversion.notes] == paths
    assert "would make 36^3000 for this entry, over the limit of 64" in conversion.notes[0].message


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("10", TypeError, "output_limit must be a positive int or None, got str"),
        (True, TypeError, "output_limit must be a positive int or None, got bool"),
        (0, GGNError, "output_limit is a positive integer, not 0"),
    ],
)
def test_output_limit_is_checked(value: object, error: type[Exception], message: str) -> None:
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a2": [ally_entry(0)]}}})
    with pytest.raises(error, match=message):
        convert(legacy, CHESS, output_limit=value)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ally_limit must be a positive int, got float"):
        convert(legacy, CHESS, ally_limit=2.0)  # type: ignore[arg-type]


# --- audit: LegacyEntry built directly is validated ------------------------------------------


def test_audit_entry_built_directly_parses_piece_strings_and_evaluates_them() -> None:
    # The landed constructor kept "CHESS:PAWN" as a plain string, which never equals the piece on
    # the square: the check failed on the very position it describes.
    entry = LegacyEntry({"d4": "CHESS:PAWN", "d5": "ally"}, {"d4": "CHESS:+PAWN"}, "chess:pawn", None)
    assert entry.board_check["d4"] == LegacyPiece.parse("CHESS:PAWN")
    assert entry.board_patch["d4"] == LegacyPiece.parse("CHESS:+PAWN")
    assert entry.in_hand_add == Gan.parse("chess:pawn")
    assert entry_holds(entry, {"d4": "CHESS:PAWN", "d5": "CHESS:KING"}, "first")
    assert not entry_holds(entry, {"d4": "CHESS:+PAWN", "d5": "CHESS:KING"}, "first")
    assert entry_transition(entry, "first", CHESS).to_value() == {
        "board_diff": {"d4": "C:+P"}, "first_player_hand_diff": {"c:p": 1}, "toggle": True,
    }
    loaded = LegacyRuleset.from_value({"CHESS:PAWN": {"d2": {"d4": [entry.to_value()]}}})
    assert loaded["CHESS:PAWN"]["d2"]["d4"][0] == entry


def test_audit_entry_built_directly_reports_every_invalid_value() -> None:
    check, patch = {"a1": "allied", "": "empty", "b1": "CHESS:PAWN"}, {"*": None, "a2": "CHESS:PAWN''"}
    with pytest.raises(DocumentError) as caught:
        LegacyEntry(check, patch, in_hand_add="CHESS:+PAWN", in_hand_del="chess:Pawn")
    # As the loader reports them: an object's keys first, then its values.
    expected = [
        ("/board_check/", "a square cannot be the empty string"),
        ("/board_check/a1", "occupation state 'allied' is none of empty, occupied, enemy, ally nor a GAN"),
        ("/board_patch/*", "'*' (the hand) cannot be a square"),
        ("/board_patch/a2", "\"CHESS:PAWN''\" is not a GAN identifier: "),
        ("/in_hand_add", "'CHESS:+PAWN' is not a GAN identifier: "),
        ("/in_hand_del", "'chess:Pawn' is not a GAN identifier: "),
    ]
    violations = caught.value.violations
    assert [v.path for v in violations] == [path for path, _ in expected]
    for violation, (_, start) in zip(violations, expected, strict=True):
        assert violation.message.startswith(start), violation.message
    assert isinstance(caught.value, GGNError)
    assert str(caught.value).startswith("invalid legacy GGN entry document: 6 violations")
    # One check serves both: the same messages, at the entry's own paths.
    entry = {"board_check": check, "board_patch": patch,
             "in_hand_add": "CHESS:+PAWN", "in_hand_del": "chess:Pawn"}
    with pytest.raises(DocumentError) as loading:
        LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a3": [entry]}}})
    assert [(v.path.removeprefix("/CHESS:ROOK/a1/a3/0"), v.message) for v in loading.value.violations] == [
        (v.path, v.message) for v in violations
    ]


def test_entry_built_directly_checks_the_value_under_an_invalid_label() -> None:
    # The first constructor left the value of an empty or '*' label unchecked; the loader, and the
    # issue's audit, report the violations below an invalid key too.
    with pytest.raises(DocumentError) as caught:
        LegacyEntry({"": "allied"}, {"*": "CHESS:PAWN''"})
    expected = [
        ("/board_check/", "a square cannot be the empty string"),
        ("/board_check/", "occupation state 'allied' is none of empty, occupied, enemy, ally nor a GAN"),
        ("/board_patch/*", "'*' (the hand) cannot be a square"),
        ("/board_patch/*", "\"CHESS:PAWN''\" is not a GAN identifier: "),
    ]
    violations = caught.value.violations
    assert [v.path for v in violations] == [path for path, _ in expected]
    for violation, (_, start) in zip(violations, expected, strict=True):
        assert violation.message.startswith(start), violation.message


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (([("a1", "empty")], {}), "board_check must be a mapping of square labels, got list"),
        (({}, None), "board_patch must be a mapping of square labels, got NoneType"),
        (({1: "empty"}, {}), r"board_check keys must be square labels \(str\), got int"),
        (({"a1": 3}, {}), r"a board_check state must be an occupation state \(str\) or a LegacyPiece, got "),
        (({"a1": None}, {}), "got NoneType"),
        (({}, {"a1": Gan.parse("CHESS:PAWN")}), "a board_patch value must be a LegacyPiece, its string "),
        (({}, {}, LegacyPiece.parse("CHESS:PAWN")), "in_hand_add must be a Gan, its string or None, got L"),
        (({}, {}, None, 7), "in_hand_del must be a Gan, its string or None, got int"),
    ],
)
def test_entry_built_directly_refuses_wrong_types(arguments: tuple[Any, ...], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        LegacyEntry(*arguments)


def test_the_loader_builds_entries_without_checking_them_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    # Loading checks every value once; the entries come through a private path that takes them as
    # they are, so validation on construction costs the loader nothing.
    def refuse(*_: object) -> None:
        raise AssertionError("the loader went through the public constructor")

    monkeypatch.setattr(LegacyEntry, "__init__", refuse)
    legacy = LegacyRuleset.from_value({"CHESS:PAWN": {"d2": {"d4": [ally_entry(0, empties=3)]}}})
    entry = legacy["CHESS:PAWN"]["d2"]["d4"][0]
    assert entry.board_check["h8"] == "ally" and entry.board_patch["b1"] == LegacyPiece.parse(ALLIES[0])
    with pytest.raises(AttributeError, match="immutable"):
        entry.in_hand_add = None


# --- long labels and pieces are named, not copied into every message --------------------------

LONG_LABEL = "x!" + "y" * 100_000  # not a CELL coordinate
LONG_PIECE = "CHESS:" + "Q" * 100_000  # a GAN the chess mapping does not name


@pytest.mark.parametrize(
    ("document", "path", "start"),
    [
        ({"CHESS:ROOK": {LONG_LABEL: {"a2": [{"board_check": {}, "board_patch": {}}]}}},
         f"/CHESS:ROOK/{LONG_LABEL}", f"source {LONG_LABEL[:40]!r}... (100,002 characters) is not a CELL"),
        ({"CHESS:ROOK": {"a1": {LONG_LABEL: [{"board_check": {}, "board_patch": {}}]}}},
         f"/CHESS:ROOK/a1/{LONG_LABEL}", f"destination {LONG_LABEL[:40]!r}... (100,002 characters) is not"),
        ({"CHESS:ROOK": {"a1": {"a2": [{"board_check": {LONG_LABEL: "empty"}, "board_patch": {}}]}}},
         f"/CHESS:ROOK/a1/a2/0/board_check/{LONG_LABEL}", f"square {LONG_LABEL[:40]!r}... (100,002 "),
        ({LONG_PIECE: {"a1": {"a2": [{"board_check": {}, "board_patch": {}}]}}},
         f"/{LONG_PIECE}", f"no QPI for {LONG_PIECE[:40]!r}... (100,006 characters) in the mapping"),
        ({"CHESS:ROOK": {"a1": {"a2": [{"board_check": {"a3": LONG_PIECE}, "board_patch": {}}]}}},
         "/CHESS:ROOK/a1/a2/0/board_check/a3", f"no QPI for {LONG_PIECE[:40]!r}... (100,006 characters)"),
        ({"CHESS:ROOK": {"a1": {"a2": [{"board_check": {}, "board_patch": {"a3": LONG_PIECE}}]}}},
         "/CHESS:ROOK/a1/a2/0/board_patch/a3", "the effect of this entry is not carried over"),
    ],
)
def test_notes_name_long_labels_and_pieces_briefly(document: dict[str, Any], path: str, start: str) -> None:
    (note,) = convert(LegacyRuleset.from_value(document), CHESS).notes
    assert note.path == path
    assert note.message.startswith(start)
    assert len(note.message) < 400


@pytest.mark.parametrize(
    "entry",
    [
        {"board_check": {"a2": "x" * 100_000}, "board_patch": {}},
        {"board_check": {}, "board_patch": {"a2": "x" * 100_000}},
        {"board_check": {}, "board_patch": {}, "in_hand_add": "x" * 100_000},
        {"board_check": {}, "board_patch": {}, "x" * 100_000: 1},
    ],
)
def test_load_errors_name_long_values_briefly(entry: dict[str, Any]) -> None:
    with pytest.raises(DocumentError) as caught:
        LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a2": [entry]}}})
    (violation,) = caught.value.violations
    assert "'xxxxxxxxxx" in violation.message and "(100,000 characters)" in violation.message
    assert len(violation.message) < 300


def test_evaluation_errors_name_long_values_briefly() -> None:
    entry = LegacyEntry({"a2": "empty"}, {})
    with pytest.raises(GGNError) as caught:
        entry_holds(entry, {"a2": LONG_PIECE + "!"}, "first")
    assert len(str(caught.value)) < 400
    with pytest.raises(GGNError, match=r"^the active side is 'first' or 'second', not 'wwwww") as caught:
        entry_holds(entry, {}, "w" * 100_000)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200
    with pytest.raises(GGNError) as caught:
        CHESS.qpi(LONG_PIECE)
    assert len(str(caught.value)) < 300
    assert 'add an entry such as "<GAN>": "<SIN>:<PIN>"' in str(caught.value)


def test_convert_refuses_a_mapping_of_the_wrong_type() -> None:
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a2": [ally_entry(0)]}}})
    for mapping in (5, None, ["CHESS:ROOK"]):
        with pytest.raises(TypeError, match="mapping must be a GanMapping or a mapping of strings, got "):
            convert(legacy, mapping)  # type: ignore[arg-type]
    # A long number in the message as in every other (its ends and length), never through str().
    with pytest.raises(GGNError) as caught:
        convert(legacy, CHESS, output_limit=-(10**5000))
    assert str(caught.value) == (
        "output_limit is a positive integer, not -10000000000...00000000000 (5,001 digits)"
    )


def test_a_mapping_built_directly_refuses_wrong_types() -> None:
    king = LegacyPiece.parse("CHESS:KING")
    with pytest.raises(TypeError, match=r"^entries must be a mapping of LegacyPiece to Qpi, got int$"):
        GanMapping(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^entries must map LegacyPiece to Qpi, got str to str \(GanMap"):
        GanMapping({"CHESS:KING": "C:K^"})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"^entries must map LegacyPiece to Qpi, got LegacyPiece to str "):
        GanMapping({king: "C:K^"})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"^mapping must be a mapping of legacy pieces to QPI, got list$"):
        GanMapping.of([("CHESS:KING", "C:K^")])  # type: ignore[arg-type]
    assert GanMapping({king: Qpi.parse("C:K^")}) == GanMapping.of({"CHESS:KING": "C:K^"})


def test_a_legacy_ruleset_built_directly_takes_the_parsed_levels_only() -> None:
    # Built from raw JSON values, the landed classes took them and failed later, in convert, with
    # an AttributeError; JSON goes through from_value, and the constructors check their types.
    entry = LegacyEntry({"a2": "empty"}, {"a1": None, "a2": "CHESS:ROOK"})
    rook = LegacyPiece.parse("CHESS:ROOK")
    built = LegacyRuleset({rook: LegacyPieceRules({"a1": LegacySourceRules({"a2": (entry,)})})})
    assert built == LegacyRuleset.from_value(built.to_value())
    assert convert(built, CHESS).ruleset.to_value() == {"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}}
    hint = r" \(build one from decoded JSON with LegacyRuleset.from_value\)$"
    cases: list[tuple[Any, str]] = [
        (lambda: LegacyRuleset({"CHESS:ROOK": {}}),  # type: ignore[dict-item]
         "^LegacyRuleset takes a dict of LegacyPiece to LegacyPieceRules, got str to dict" + hint),
        (lambda: LegacyRuleset([]),  # type: ignore[arg-type]
         "^LegacyRuleset takes a dict of LegacyPiece to LegacyPieceRules, got list"),
        (lambda: LegacyPieceRules({"a1": {}}),  # type: ignore[dict-item]
         "^LegacyPieceRules takes a dict of source labels to LegacySourceRules, got str to dict"),
        (lambda: LegacySourceRules({"a2": ()}), "^LegacySourceRules takes a dict of destination labels "
                                                "to non-empty tuples of LegacyEntry, got str to tuple"),
        (lambda: LegacySourceRules({"a2": [entry]}), "got str to list"),  # type: ignore[dict-item]
    ]
    for build, message in cases:
        with pytest.raises(TypeError, match=message):
            build()
    with pytest.raises(GGNError, match=r"^LegacySourceRules: '\*' is not a destination"):
        LegacySourceRules({"*": (entry,)})
    with pytest.raises(GGNError, match=r"^LegacyPieceRules: '' is not a label"):
        LegacyPieceRules({"": LegacySourceRules({"a2": (entry,)})})
    assert list(LegacyPieceRules({"*": LegacySourceRules({"a2": (entry,)})})) == ["*"]


def test_an_entry_of_many_invalid_values_reports_the_first_hundred() -> None:
    with pytest.raises(DocumentError) as caught:
        LegacyEntry({f"a{rank}": "friend" for rank in range(1, 151)}, {})
    assert len(caught.value.violations) == 100 and caught.value.truncated
    assert caught.value.violations[-1].path == "/board_check/a100"
    assert "(and more, not reported)" in str(caught.value).splitlines()[0]


@pytest.mark.parametrize(
    ("document", "named"),
    [
        ({"CHESS:" + "Q" * 5000: []}, "(5,006 characters)"),
        ({"CHESS:ROOK": {"z" * 5000: []}}, "from zzzzzzzzzz"),
        ({"CHESS:ROOK": {"a1": {"z" * 5000: {}}}}, "a destination must map to an array"),
    ],
)
def test_load_errors_name_long_keys_briefly(document: dict[str, Any], named: str) -> None:
    # A JSON Pointer names a long key in full, as it must; the message names it in 40 characters.
    with pytest.raises(DocumentError) as caught:
        LegacyRuleset.from_value(document)
    (violation,) = caught.value.violations
    assert len(violation.message) < 300, violation.message[:300]
    assert named in violation.message


def test_lookups_name_long_keys_briefly() -> None:
    source = "z" * 5000
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {source: {"a2": [ally_entry(0, empties=1)]}}})
    with pytest.raises(KeyError) as caught:
        legacy["CHESS:ROOK"][source]["a9"]
    assert len(str(caught.value)) < 300
    assert "for CHESS:ROOK from zzzzzzzzzz" in str(caught.value)


@pytest.mark.parametrize("loader", [LegacyRuleset.from_value, GemRuleset.from_value])
def test_a_source_key_that_is_no_string_is_a_violation_of_both_dialects(loader: Any) -> None:
    # Both dialects check their nesting with one walk (ggn.legacy._check_nesting); the legacy
    # loader once named such a key with len() and raised TypeError instead.
    entry: dict[str, Any] = (
        {"board_check": {}, "board_patch": {}} if loader == LegacyRuleset.from_value else {"perform": {}})
    with pytest.raises(DocumentError) as caught:
        loader({"CHESS:ROOK": {7: {"a2": [entry]}}})
    assert [(v.path, v.message) for v in caught.value.violations] == [
        ("/CHESS:ROOK", "source keys must be strings, got the integer 7")]
