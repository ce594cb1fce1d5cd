"""What a conversion does not carry over is in its result (``Conversion.lost``), every move
named with its piece, source, destination and why; and the short GAN names of the 2025 gems."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import GGNError, LegacyRuleset, Qpi
from ggn.convert import Conversion, GanMapping, Lost, convert
from ggn.variants.registry import legacy_mapping, legacy_names

CHESS = legacy_mapping("chess")


def _entry(check: dict[str, str] | None = None, patch: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"board_check": check or {}, "board_patch": patch or {}}


def _convert(document: dict[str, Any], mapping: GanMapping = CHESS, **options: Any) -> Conversion:
    return convert(LegacyRuleset.from_value(document), mapping, **options)


def test_nothing_lost_is_complete() -> None:
    rook = _entry({"a2": "empty"}, {"a1": None, "a2": "CHESS:ROOK"})
    conversion = _convert({"CHESS:ROOK": {"a1": {"a2": [rook]}}})
    assert (conversion.lost, conversion.complete, conversion.effects_complete) == ([], True, True)
    assert conversion.lost_moves == []


def test_an_unknown_piece_loses_each_of_its_moves_by_name() -> None:
    conversion = _convert(
        {
            "SHOGI:PAWN": {"e2": {"e3": [_entry()], "e4": [_entry(), _entry()]}, "*": {"e5": [_entry()]}},
            "CHESS:KING": {"e1": {"e2": [_entry({"e2": "empty"})]}},
        }
    )
    assert conversion.ruleset.to_value() == {"C:K^": {"e1": {"e2": [{"must": {"e2": "empty"}}]}}}
    why = "no QPI for 'SHOGI:PAWN' in the mapping"
    assert conversion.lost == [
        Lost("SHOGI:PAWN", "e2", "e3", None, "move", why, "/SHOGI:PAWN"),
        Lost("SHOGI:PAWN", "e2", "e4", None, "move", why, "/SHOGI:PAWN"),
        Lost("SHOGI:PAWN", "*", "e5", None, "move", why, "/SHOGI:PAWN"),
    ]
    assert not conversion.complete and conversion.effects_complete
    assert conversion.unmapped == ["SHOGI:PAWN"]
    assert str(conversion.lost[0]) == f"'SHOGI:PAWN' 'e2' -> 'e3': {why}"


def test_an_entry_lost_beside_carried_ones_is_a_lost_possibility() -> None:
    conversion = _convert(
        {
            "CHESS:ROOK": {
                "a1": {
                    "a3": [
                        _entry({"a2": "empty", "a3": "empty"}),
                        _entry({"a2": "empty", "a3": "GO:STONE"}),  # a piece the mapping does not know
                        _entry({"a2": "empty", "x-9": "empty"}),  # a square that is no CELL coordinate
                    ]
                }
            }
        }
    )
    carried = [p.to_value() for p in conversion.ruleset["C:R"]["a1"]["a3"]]
    assert carried == [{"must": {"a2": "empty", "a3": "empty"}}]
    assert [(lost.entry, lost.kind, lost.path) for lost in conversion.lost] == [
        (1, "possibility", "/CHESS:ROOK/a1/a3/1/board_check/a3"),
        (2, "possibility", "/CHESS:ROOK/a1/a3/2/board_check/x-9"),
    ]
    assert "no QPI for 'GO:STONE'" in conversion.lost[0].why
    assert "'x-9' is not a CELL coordinate" in conversion.lost[1].why
    said = "'CHESS:ROOK' 'a1' -> 'a3', possibility 1: no QPI for 'GO:STONE'"
    assert str(conversion.lost[0]).startswith(said)


def test_a_move_whose_every_entry_is_lost_is_a_lost_move_with_the_reasons() -> None:
    entries = [_entry({"a3": "GO:STONE"}), _entry({"x-9": "empty"})]
    conversion = _convert({"CHESS:ROOK": {"a1": {"a3": entries}}})
    assert conversion.ruleset.to_value() == {}
    (lost,) = conversion.lost
    move = (lost.piece, lost.source, lost.destination, lost.entry, lost.kind)
    assert move == ("CHESS:ROOK", "a1", "a3", None, "move")
    assert "no QPI for 'GO:STONE'" in lost.why and "'x-9' is not a CELL coordinate" in lost.why


def test_labels_that_are_no_cell_lose_the_moves_under_them() -> None:
    document = {"CHESS:ROOK": {"5e": {"5f": [_entry()], "5g": [_entry()]}, "a1": {"1a": [_entry()]}}}
    conversion = _convert(document)
    assert [(lost.source, lost.destination, lost.kind, lost.path) for lost in conversion.lost] == [
        ("5e", "5f", "move", "/CHESS:ROOK/5e"),
        ("5e", "5g", "move", "/CHESS:ROOK/5e"),
        ("a1", "1a", "move", "/CHESS:ROOK/a1/1a"),
    ]
    assert all("is not a CELL coordinate" in lost.why for lost in conversion.lost)


def test_entries_that_never_hold_are_no_loss() -> None:
    # A check on the source square that never holds: the entry could never be played.
    conversion = _convert({"CHESS:ROOK": {"a1": {"a2": [_entry({"a1": "empty"})]}}})
    assert conversion.lost == [] and conversion.ruleset.to_value() == {"C:R": {"a1": {"a2": []}}}


def test_an_effect_that_cannot_be_written_is_a_lost_effect_not_a_lost_move() -> None:
    conversion = _convert(
        {
            "CHESS:ROOK": {
                "a1": {
                    "a2": [
                        _entry({"a2": "empty"}, {"a1": None, "a2": "GO:STONE"}),
                        _entry(
                            {"a2": "enemy"},
                            {"a1": None, "a2": "CHESS:ROOK"},
                        ),
                    ]
                }
            }
        }
    )
    assert len(conversion.ruleset["C:R"]["a1"]["a2"]) == 2
    assert conversion.effects["C:R"]["a1"]["a2"][0] is None
    (lost,) = conversion.lost
    assert (lost.entry, lost.kind, lost.path) == (0, "effect", "/CHESS:ROOK/a1/a2/0/board_patch/a2")
    assert conversion.complete and not conversion.effects_complete and conversion.lost_moves == []
    assert conversion.unmapped == ["GO:STONE"]
    assert str(lost).startswith("'CHESS:ROOK' 'a1' -> 'a2', the effect of possibility 0: ")


def test_entries_past_the_output_limit_are_lost_possibilities() -> None:
    entries = [_entry({"a2": "empty", "a3": "empty"}) for _ in range(4)]
    conversion = _convert({"CHESS:ROOK": {"a1": {"a3": entries}}}, output_limit=5)
    assert len(conversion.ruleset["C:R"]["a1"]["a3"]) == 2
    assert [(lost.entry, lost.kind) for lost in conversion.lost] == [(2, "possibility"), (3, "possibility")]
    assert all("output limit of 5" in lost.why for lost in conversion.lost)


def test_an_ally_written_loosely_is_noted_but_not_lost() -> None:
    document = {
        "CHESS:ROOK": {"a1": {"a3": [_entry({"a2": "ally", "a3": "ally"})]}},
        "CHESS:PAWN": {"a2": {"a3": [_entry({"a3": "empty"})]}},
    }
    conversion = _convert(document, ally_limit=3)
    assert conversion.lost == [] and any("deny 'enemy'" in note.message for note in conversion.notes)


# Every way to lose, drawn at random: what is lost is exactly what is missing.
_PIECES = ["CHESS:ROOK", "GO:STONE", "chess:pawn"]
_LABELS = ["a1", "a2", "b3", "5e", "*"]
_entries = st.lists(
    st.builds(
        _entry,
        st.dictionaries(
            st.sampled_from(_LABELS[:-1]),
            st.sampled_from(["empty", "enemy", "occupied", *_PIECES]),
            max_size=2,
        ),
        st.dictionaries(st.sampled_from(_LABELS[:-1]), st.sampled_from([None, *_PIECES]), max_size=2),
    ),
    min_size=1,
    max_size=3,
)
_documents = st.dictionaries(
    st.sampled_from(_PIECES),
    st.dictionaries(
        st.sampled_from(_LABELS),
        st.dictionaries(st.sampled_from(_LABELS[:-1]), _entries, min_size=1, max_size=2),
        min_size=1,
        max_size=2,
    ),
    max_size=3,
)


@settings(max_examples=100)
@given(_documents)
def test_what_is_lost_is_exactly_what_is_missing(document: dict[str, Any]) -> None:
    conversion = _convert(document)
    lost_moves = {
        (lost.piece, lost.source, lost.destination) for lost in conversion.lost if lost.kind == "move"
    }
    lost_entries = {
        (lost.piece, lost.source, lost.destination, lost.entry)
        for lost in conversion.lost
        if lost.kind == "possibility"
    }
    lost_effects = {
        (lost.piece, lost.source, lost.destination, lost.entry)
        for lost in conversion.lost
        if lost.kind == "effect"
    }
    for piece, sources in document.items():
        qpi = CHESS.get(piece)
        for source, destinations in sources.items():
            for destination, entries in destinations.items():
                move = (piece, source, destination)
                carried = None
                if qpi is not None and not source[0].isdigit() and not destination[0].isdigit():
                    carried = conversion.ruleset.to_value().get(str(qpi), {}).get(source, {}).get(destination)
                if carried is None:
                    # Not in the new document: lost, or every entry checks its source for
                    # something that never holds there (an empty array is written then).
                    assert move in lost_moves
                    continue
                assert move not in lost_moves
                for index, entry in enumerate(entries):
                    at_source = entry["board_check"].get(source)
                    if at_source is not None and at_source not in ("occupied", piece):
                        continue  # never holds, with the moving piece on its source: no loss
                    bad = [label for label in entry["board_check"] if label[0].isdigit()] + [
                        state for state in entry["board_check"].values() if state == "GO:STONE"
                    ]
                    assert ((*move, index) in lost_entries) == bool(bad)
                    bad_effect = [label for label in entry["board_patch"] if label[0].isdigit()] + [
                        piece for piece in entry["board_patch"].values() if piece == "GO:STONE"
                    ]
                    assert ((*move, index) in lost_effects) == (not bad and bool(bad_effect))
    assert conversion.complete == (not lost_moves and not lost_entries)
    assert conversion.effects_complete == (not lost_effects)
    assert sum(
        effect is None
        for piece in conversion.effects.values()
        for source in piece.values()
        for effects in source.values()
        for effect in effects
    ) >= len(lost_effects)


# --- the short names of the 2025 gems ---------------------------------------------------------

# The start positions as the FEEN examples of sashite's 2025 gems and pages wrote them (one
# letter a piece, the piece's player by its case; xiangqi's soldier S, makruk in chess's letters),
# and as the built-in games start today.
SHORT_STARTS = {
    "chess": (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R",
    ),
    "shogi": (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
        "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL",
    ),
    "xiangqi": (
        "rheagaehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAGAEHR",
        "rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR",
    ),
    "makruk": (
        "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBKQBNR",
        "rnsmk^snr/8/pppppppp/8/8/PPPPPPPP/8/RNSK^MSNR",
    ),
}


def _squares(placement: str) -> list[str | None]:
    squares: list[str | None] = []
    for token in re.findall(r"\d+|[+-]?[A-Za-z]\^?", placement.replace("/", "")):
        squares.extend([None] * int(token) if token.isdigit() else [token])
    return squares


@pytest.mark.parametrize("name", legacy_names())
def test_short_names_of_the_2025_starts_are_todays_pieces(name: str) -> None:
    mapping = legacy_mapping(name)
    written, today = (_squares(placement) for placement in SHORT_STARTS[name])
    assert len(written) == len(today)
    for old, new in zip(written, today, strict=True):
        assert (old is None) == (new is None)
        if old is None or new is None:
            continue
        game = name.upper() if old.isupper() else name
        qpi = mapping(f"{game}:{old}")
        assert qpi.pin.name == new.lstrip("+-").rstrip("^").upper()
        assert qpi.side == ("first" if new.lstrip("+-")[0].isupper() else "second")
        assert qpi.terminal == new.endswith("^")


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("SHOGI:P", "SHOGI:PAWN"),
        ("shogi:+p", "shogi:+pawn"),
        ("SHOGI:+R", "SHOGI:+ROOK"),
        ("SHOGI:K", "SHOGI:KING"),
        ("CHESS:-P", "CHESS:-PAWN"),
        ("chess:+k", "chess:+king"),
        ("XIANGQI:S", "XIANGQI:SOLDIER"),
        ("xiangqi:g", "xiangqi:general"),
        ("MAKRUK:Q", "MAKRUK:MET"),
        ("makruk:b", "makruk:khon"),
    ],
)
def test_a_short_name_maps_as_its_long_name(short: str, long: str) -> None:
    game = short.split(":", maxsplit=1)[0].lower()
    mapping = legacy_mapping(game)
    assert mapping(short) == mapping(long)


def test_a_document_of_short_names_converts_as_one_of_long_names() -> None:
    def document(pawn: str, enemy: str) -> dict[str, Any]:
        return {
            pawn: {
                "e5": {
                    "e4": [
                        _entry({"e4": "empty"}, {"e5": None, "e4": pawn}),
                        _entry({"e4": enemy}, {"e5": None, "e4": pawn})
                        | {"in_hand_add": enemy.replace("+", "")},
                    ]
                },
                "*": {"e4": [_entry({"e4": "empty"}, {"e4": pawn}) | {"in_hand_del": pawn}]},
            }
        }

    mapping = legacy_mapping("shogi")
    short = convert(LegacyRuleset.from_value(document("shogi:p", "SHOGI:+R")), mapping)
    long = convert(LegacyRuleset.from_value(document("shogi:pawn", "SHOGI:+ROOK")), mapping)
    assert short.lost == long.lost == []
    assert short.ruleset == long.ruleset and short.effects == long.effects
    assert short.ruleset.to_value()["s:p"]["e5"]["e4"][1] == {"must": {"e4": "S:+R"}}
    assert Qpi.parse("s:p") in short.ruleset


def test_the_2025_chess_example_marks_its_castling_pieces_with_a_prime() -> None:
    # sashite.dev's FEEN page of May 2025 wrote chess's start with R' for the rooks that may
    # castle (PNN 1.0.0's intermediate state), and sashite-gan 3.0.0's table the king as K':
    # today's start has + on those pieces.
    written = re.findall(
        r"\d+|[+-]?[A-Za-z]'?", "r'nbqkbnr'/pppppppp/8/8/8/8/PPPPPPPP/R'NBQKBNR'".replace("/", "")
    )
    today = _squares(SHORT_STARTS["chess"][1])
    squares: list[str | None] = []
    for token in written:
        squares.extend([None] * int(token) if token.isdigit() else [token])
    for old, new in zip(squares, today, strict=True):
        if old is None or new is None or not old.endswith("'"):
            continue
        qpi = CHESS(f"{'CHESS' if old[0].isupper() else 'chess'}:{old}")
        assert str(qpi).split(":")[1] == new  # +R, +r
    assert str(CHESS("CHESS:K'")) == "C:+K^" and "+K^" in today


def test_a_one_letter_prime_is_no_derivation() -> None:
    # Without an entry of its own, a one-letter name with ' has no QPI (its ' is not dropped
    # as a derivation mark would be), and the reason says why; long names keep the rule.
    shogi = legacy_mapping("shogi")
    assert shogi.get("SHOGI:P'") is None and str(shogi("SHOGI:PAWN'")) == "s:P"
    conversion = convert(LegacyRuleset.from_value({"SHOGI:P'": {"e5": {"e6": [_entry()]}}}), shogi)
    (lost,) = conversion.lost
    assert "' marks an intermediate state" in lost.why and conversion.unmapped == ["SHOGI:P'"]
    # Its mapping entry may name a native QPI (a long name's ' must map to a derived one).
    mine = GanMapping.of({"GAME:X'": "Z:+X", "GAME:X": "Z:X"})
    assert (str(mine("GAME:X'")), str(mine("game:x'"))) == ("Z:+X", "z:+x")
    with pytest.raises(GGNError, match="is derived"):
        GanMapping.of({"GAME:XX'": "Z:+X"})
