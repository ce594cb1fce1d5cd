"""The lint step (ggn.linter): every rule and branch, its speed on large inputs, its API."""

from __future__ import annotations

import importlib
import itertools
import json
import re
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ggn
import ggn.linter
from ggn import LintWarning, Position, Possibility, Ruleset, lint


def warnings_of(document: dict[str, Any], shape: tuple[int, ...] | None = None) -> list[tuple[str, str, str]]:
    return [(w.path, w.rule, w.message) for w in lint(Ruleset.from_value(document), shape)]


def one_destination(*possibilities: dict[str, Any], source: str = "a1") -> dict[str, Any]:
    return {"C:R": {source: {"a3": list(possibilities)}}}


# --- the module and the function (issue 8: the function no longer hides the module) ---------


def test_module_is_not_hidden_by_the_function() -> None:
    # `from ggn.lint import lint` in the package made `ggn.lint` the function, so the module could
    # not be reached as an attribute; the module is now `ggn.linter`.
    assert isinstance(ggn.linter, types.ModuleType)
    assert importlib.import_module("ggn.linter") is ggn.linter
    assert callable(ggn.lint) and not isinstance(ggn.lint, types.ModuleType)
    assert ggn.lint is ggn.linter.lint
    assert ggn.LintWarning is ggn.linter.LintWarning
    twice = '{"must": {"a2": "empty"}}'
    rules = ggn.Ruleset.loads(f'{{"C:R": {{"a1": {{"a2": [{twice}, {twice}]}}}}}}')
    assert [(w.path, w.rule) for w in ggn.lint(rules)] == [("/C:R/a1/a2/1", "duplicate")]


def test_warning_text() -> None:
    assert str(LintWarning("/C:R/a1", "why", "duplicate")) == "/C:R/a1: why [duplicate]"
    assert str(LintWarning("", "why", "dimensions")) == "(document): why [dimensions]"


# --- contradictions and a deny that can never fire: every pair of states ------------------


def pair(must: str, deny: str, *, piece: str = "C:R", source: str = "a1") -> list[tuple[str, str, str]]:
    return warnings_of({piece: {source: {"a3": [{"must": {"a2": must}, "deny": {"a2": deny}}]}}})


WHERE = "/C:R/a1/a3/0/deny/a2"


@pytest.mark.parametrize("state", ["empty", "enemy", "c:p", "C:P"])
def test_same_state_in_must_and_deny_is_a_contradiction(state: str) -> None:
    shown = "to be" if state in ("empty", "enemy") else "to hold"
    assert pair(state, state) == [(
        WHERE, "contradiction",
        f"contradiction: 'must' requires a2 {shown} {state} and 'deny' forbids it, "
        "so this possibility can never hold",
    )]


@pytest.mark.parametrize(("must", "deny"), [
    ("empty", "enemy"), ("empty", "c:p"), ("empty", "C:P"),   # an empty square holds nothing
    ("enemy", "empty"),                                        # an enemy is a piece
    ("enemy", "C:P"),                                          # the mover's own piece is no enemy
    ("C:P", "empty"), ("c:p", "empty"),                        # a piece is not nothing
    ("C:P", "enemy"),                                          # the mover's own piece
    ("C:P", "C:+P"), ("c:p", "C:P"),                           # two different exact pieces
])
def test_a_deny_that_can_never_fire_is_redundant(must: str, deny: str) -> None:
    def shown(state: str) -> str:
        return f"to be {state}" if state in ("empty", "enemy") else f"to hold {state}"
    assert pair(must, deny) == [(
        WHERE, "redundant-deny",
        f"'deny' of a2 {shown(deny)} can never fire when 'must' requires a2 {shown(must)}",
    )]


def test_an_enemy_piece_required_where_enemies_are_denied_is_a_contradiction() -> None:
    assert pair("c:p", "enemy") == [(
        WHERE, "contradiction",
        "contradiction: 'must' requires a2 to hold c:p and 'deny' forbids an enemy there "
        "(c:p is one), so this possibility can never hold",
    )]
    # The same from the second side's point of view: its enemies are the first side's pieces.
    assert [w[:2] for w in pair("C:P", "enemy", piece="c:r")] == [("/c:r/a1/a3/0/deny/a2", "contradiction")]
    assert [w[:2] for w in pair("c:p", "enemy", piece="c:r")] == [("/c:r/a1/a3/0/deny/a2", "redundant-deny")]


def test_an_enemy_required_but_one_enemy_piece_denied_is_meaningful() -> None:
    assert pair("enemy", "c:p") == []
    assert pair("enemy", "C:P", piece="c:r") == []


def test_conditions_on_different_squares_are_not_compared() -> None:
    assert warnings_of(one_destination({"must": {"a2": "empty"}, "deny": {"b2": "empty"}})) == []


# --- drops: either player may hold the piece (audit fault) -----------------------------------

AUDIT = {"S:P": {"*": {"e5": [{"must": {"e4": "s:p"}, "deny": {"e4": "enemy"}}]}}}


def test_audit_drop_possibility_that_holds_is_no_contradiction() -> None:
    # A hand holds pieces of either side, and "enemy" is relative to the Active Player, not to the
    # piece: the second player dropping an S:P it holds sees s:p on e4 as its own piece, not an
    # enemy, so the possibility holds. The landed lint called it a contradiction.
    rules = Ruleset.from_value(AUDIT)
    position = Position.from_feen("9/9/9/9/9/4p4/9/9/9 /P s/S")
    assert position.active == "second"
    moves = rules.moves(position)
    assert [str(move) for move in moves] == ["S:P *-e5"]
    assert moves[0].possibilities == rules.select("S:P").source("*").destination("e5")
    assert lint(rules) == []


def test_drop_by_the_piece_side_makes_the_same_pair_fail() -> None:
    # The other half of the reason: dropped by the first player, s:p is an enemy and the
    # possibility cannot hold there. It holds for one player, fails for the other: no warning.
    rules = Ruleset.from_value(AUDIT)
    assert rules.moves(Position.from_feen("9/9/9/9/9/4p4/9/9/9 P/ S/s")) == []


@pytest.mark.parametrize(
    ("must", "deny"), [("C:P", "enemy"), ("c:p", "enemy"), ("enemy", "C:P"), ("enemy", "c:p")]
)
def test_drop_pairs_that_depend_on_the_player_are_not_flagged(must: str, deny: str) -> None:
    assert pair(must, deny, source="*") == []


def test_drop_pairs_that_hold_for_both_players_are_flagged() -> None:
    where = "/C:R/*/a3/0/deny/a2"
    assert [w[:2] for w in pair("enemy", "enemy", source="*")] == [(where, "contradiction")]
    assert [w[:2] for w in pair("empty", "enemy", source="*")] == [(where, "redundant-deny")]
    assert [w[:2] for w in pair("C:P", "c:p", source="*")] == [(where, "redundant-deny")]


# --- repeated and implied possibilities --------------------------------------------------


def test_duplicate() -> None:
    p = {"must": {"a2": "empty"}, "deny": {"b2": "c:k"}}
    assert warnings_of(one_destination({"must": {"b1": "enemy"}}, p, p)) == [
        ("/C:R/a1/a3/2", "duplicate", "possibility 2 repeats possibility 1"),
    ]


def test_later_possibility_implied() -> None:
    weak, strong = {"must": {"a2": "empty"}}, {"must": {"a2": "empty", "b2": "empty"}}
    assert warnings_of(one_destination(weak, strong)) == [
        ("/C:R/a1/a3/1", "implied",
         "possibility 1 adds nothing: whenever it holds, possibility 0 holds too"),
    ]


def test_earlier_possibility_implied() -> None:
    strong, weak = {"must": {"a2": "empty"}, "deny": {"b2": "C:K"}}, {"deny": {"b2": "C:K"}}
    assert warnings_of(one_destination(strong, weak)) == [
        ("/C:R/a1/a3/0", "implied",
         "possibility 0 adds nothing: whenever it holds, possibility 1 holds too"),
    ]


def test_no_conditions_implies_every_other() -> None:
    # Possibility 2 repeats 1, but 0 comes first and is related to it: the first one is named.
    assert warnings_of(one_destination({"must": {"a2": "empty"}}, {}, {})) == [
        ("/C:R/a1/a3/0", "implied",
         f"possibility 0 adds nothing: whenever it holds, possibility {index} holds too")
        for index in (1, 2)
    ]


def test_must_and_deny_of_the_same_state_are_different_conditions() -> None:
    assert warnings_of(one_destination({"must": {"a2": "empty"}}, {"deny": {"a2": "empty"}})) == []
    assert warnings_of(one_destination({"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}})) == []


def test_the_first_related_possibility_is_named() -> None:
    # Possibility 2 repeats 1, but 0 comes first and is implied by it: the first one is named.
    a, ab = {"must": {"a2": "empty"}}, {"must": {"a2": "empty", "b2": "empty"}}
    assert [w[:3] for w in warnings_of(one_destination(a, ab, ab))] == [
        ("/C:R/a1/a3/1", "implied",
         "possibility 1 adds nothing: whenever it holds, possibility 0 holds too"),
        ("/C:R/a1/a3/2", "implied",
         "possibility 2 adds nothing: whenever it holds, possibility 0 holds too"),
    ]


# --- squares: off the board, and boards of mixed dimensions ------------------------------


def test_off_board_squares_with_a_shape() -> None:
    document = {"C:R": {
        "a9": {"a3": [{"must": {"i1": "empty"}, "deny": {"a1A": "enemy"}}]},
        "a1": {"*": [], "a3": []},
    }}
    assert warnings_of(document, (8, 8)) == [
        ("/C:R/a9", "off-board", "a9 is not a square of the 8x8 board"),
        ("/C:R/a9/a3/0/must/i1", "off-board", "i1 is not a square of the 8x8 board"),
        ("/C:R/a9/a3/0/deny/a1A", "off-board", "a1A is not a square of the 8x8 board"),
    ]
    assert warnings_of(document, (9, 9, 1)) == [
        (path, "off-board", f"{cell} is not a square of the 9x9x1 board")
        for path, cell in [("/C:R/a9", "a9"), ("/C:R/a9/a3", "a3"), ("/C:R/a9/a3/0/must/i1", "i1"),
                           ("/C:R/a1", "a1"), ("/C:R/a1/a3", "a3")]
    ]


def test_mixed_dimensions_without_a_shape() -> None:
    document = {"C:R": {"a1": {"a2A": [{"must": {"b2": "empty", "b2B": "empty", "c2": "empty"}}]}}}
    assert warnings_of(document) == [
        ("/C:R/a1/a2A", "dimensions",
         "a2A has 3 dimensions but a1 has 2: one board has one number of dimensions"),
    ]
    assert warnings_of({"C:R": {"*": {"a2": [{"must": {"a2Aa": "empty"}}]}}}) == [
        ("/C:R/*/a2/0/must/a2Aa", "dimensions",
         "a2Aa has 4 dimensions but a2 has 2: one board has one number of dimensions"),
    ]


def test_warnings_come_in_document_order() -> None:
    document = {"C:R": {"a1": {"a3": [
        {"must": {"a2": "empty"}, "deny": {"a2": "empty"}},
        {"must": {"a2": "empty"}, "deny": {"a2": "empty"}},
        {"must": {"z9": "empty"}},
    ]}}}
    assert [w[:2] for w in warnings_of(document, (8, 8))] == [
        ("/C:R/a1/a3/0/deny/a2", "contradiction"),
        ("/C:R/a1/a3/1/deny/a2", "contradiction"),
        ("/C:R/a1/a3/1", "duplicate"),
        ("/C:R/a1/a3/2/must/z9", "off-board"),
    ]


def test_two_drops_without_conditions_repeat() -> None:
    document: dict[str, Any] = {"C:R": {"*": {"a2": [{}, {}]}}}
    assert [w[0] for w in warnings_of(document)] == ["/C:R/*/a2/1"]


# --- the index gives exactly what the pairwise search gave --------------------------------


def pairwise(possibilities: list[Possibility]) -> list[tuple[int, int, str]]:
    """The landed search, one pair at a time: (index, earlier, rule and side), the reference."""
    def holds_all(stronger: Possibility, weaker: Possibility) -> bool:
        return all(stronger.must.get(c) == s for c, s in weaker.must.items()) and all(
            stronger.deny.get(c) == s for c, s in weaker.deny.items())
    found = []
    for index, possibility in enumerate(possibilities):
        for earlier in range(index):
            other = possibilities[earlier]
            if other == possibility:
                found.append((index, earlier, "duplicate"))
                break
            if holds_all(possibility, other):
                found.append((index, earlier, "later implied"))
                break
            if holds_all(other, possibility):
                found.append((index, earlier, "earlier implied"))
                break
    return found


def indexed(possibilities: list[Possibility]) -> list[tuple[int, int, str]]:
    path = "/C:R/a1/a3"
    found = []
    for index, earlier in enumerate(ggn.linter._first_related(possibilities)):
        if earlier >= 0:
            warning = ggn.linter._relation(possibilities, earlier, index, path)
            kind = "duplicate" if warning.rule == "duplicate" else (
                "later implied" if warning.path == f"{path}/{index}" else "earlier implied")
            found.append((index, earlier, kind))
    return found


CONDITION = st.dictionaries(st.sampled_from(["a2", "b2", "c2", "d2"]),
                            st.sampled_from(["empty", "enemy", "c:p"]), max_size=3)
POSSIBILITIES = st.lists(
    st.builds(Possibility.of, CONDITION, CONDITION), max_size=120
)


@settings(max_examples=80)
@given(POSSIBILITIES, st.sampled_from([(12, 64), (0, 1), (0, 2), (0, 5), (0, 64)]))
def test_index_finds_what_the_pairwise_search_found(
    possibilities: list[Possibility], lines: tuple[int, int]
) -> None:
    # `lines` moves the line below which pairs are tested one by one, and the one between the
    # conditions tested one by one and those in bit sets, so every way runs on small inputs.
    original = ggn.linter._FEW, ggn.linter._DENSE
    ggn.linter._FEW, ggn.linter._DENSE = lines
    try:
        assert indexed(possibilities) == pairwise(possibilities)
    finally:
        ggn.linter._FEW, ggn.linter._DENSE = original


# --- row 3: lint in near-linear time ------------------------------------------------------


def large_destination(count: int) -> dict[str, Any]:
    """``count`` possibilities of one destination, no two related, except three planted ones."""
    possibilities: list[dict[str, Any]] = [
        {"must": {"a2": "empty", f"b{k + 3}": "empty"}, "deny": {"c1": "C:K"}} for k in range(count)
    ]
    possibilities[count - 3] = {"must": {"a2": "empty", "b3": "empty"}, "deny": {"c1": "C:K"}}
    possibilities[count - 2] = {"must": {"a2": "empty", "b4": "empty", "c5": "enemy"}, "deny": {"c1": "C:K"}}
    possibilities[count - 1] = {"must": {"a2": "empty"}}
    return one_destination(*possibilities)


@pytest.mark.timeout(60)
def test_row3_lint_of_4000_possibilities_is_near_linear() -> None:
    # The landed pairwise search took 93 s on 4,000 possibilities of one destination (and 8 s
    # on this input's first 1,000): each against every earlier one, twice.
    count = 4000
    document = large_destination(count)
    assert len(json.dumps(document)) > 200_000
    path = "/C:R/a1/a3"
    assert warnings_of(document) == [
        (f"{path}/{count - 3}", "duplicate", f"possibility {count - 3} repeats possibility 0"),
        (f"{path}/{count - 2}", "implied",
         f"possibility {count - 2} adds nothing: whenever it holds, possibility 1 holds too"),
        (f"{path}/0", "implied",
         f"possibility 0 adds nothing: whenever it holds, possibility {count - 1} holds too"),
    ]


@pytest.mark.timeout(60)
def test_row3_lint_when_every_possibility_shares_its_conditions() -> None:
    # All 3,000 possibilities hold the same common conditions, so these sit in bit sets; none
    # is related to another but the last, which every one implies.
    count = 3000
    common = {"a2": "empty", "a3": "empty"}
    possibilities = [{"must": {**common, f"b{k % 60 + 1}": "empty"}, "deny": {f"c{k // 60 + 1}": "enemy"}}
                     for k in range(count - 1)]
    possibilities.append({"must": common})
    warnings = warnings_of(one_destination(*possibilities, source="z1"))
    assert len(warnings) == 1
    assert warnings[0][:2] == ("/C:R/z1/a3/0", "implied")
    assert warnings[0][2] == (
        f"possibility 0 adds nothing: whenever it holds, possibility {count - 1} holds too"
    )


@pytest.mark.timeout(60)
def test_row3_lint_when_every_condition_is_common() -> None:
    # Each possibility requires 7 of 14 squares empty, each 7 once: every condition is held by
    # half of the 3,432, so even the rarest condition of each is in a bit set and both searches
    # (earlier supersets, later subsets) run on them. Testing the holders of the rarest condition
    # one by one takes eight times as long here; the landed pairwise search, over a minute (6 s
    # on the first 800).
    squares = [f"{file}2" for file in "abcdefghijklmn"]
    sevens = list(itertools.combinations(squares, 7))
    count = len(sevens)
    assert count // 2 >= ggn.linter._DENSE

    def empty(cells: tuple[str, ...] | list[str]) -> dict[str, Any]:
        return {"must": dict.fromkeys(cells, "empty")}

    # Planted: six squares (implied by the first seven), a repeat, and eight squares (which
    # imply the first seven of them).
    planted = [empty(squares[:6]), empty(sevens[1000]), empty(squares[1:9])]
    path = "/C:R/a1/a3"
    assert warnings_of(one_destination(*map(empty, sevens), *planted)) == [
        (f"{path}/0", "implied",
         f"possibility 0 adds nothing: whenever it holds, possibility {count} holds too"),
        (f"{path}/{count + 1}", "duplicate", f"possibility {count + 1} repeats possibility 1000"),
        (f"{path}/{count + 2}", "implied",
         f"possibility {count + 2} adds nothing: whenever it holds, possibility "
         f"{sevens.index(tuple(squares[1:8]))} holds too"),
    ]


# --- arguments as an attacker gives them ---------------------------------------------------

RULES = Ruleset.from_value({"C:R": {"a1": {"a2": [{"must": {"z2": "empty"}}]}}})


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((None,), "ruleset must be a Ruleset, got NoneType"),
        (({"C:R": {}},), "ruleset must be a Ruleset, got dict"),
        ((RULES, "8x8"), r"shape must be a sequence of ints \(a board's sizes\), got str"),
        ((RULES, 8), r"shape must be a sequence of ints \(a board's sizes\), got int"),
        ((RULES, iter([8, 8])), r"shape must be a sequence of ints \(a board's sizes\), got list_iterator"),
        ((RULES, (8, "8")), r"shape must be a sequence of ints \(a board's sizes\), got str"),
        ((RULES, (8.0, 8)), r"shape must be a sequence of ints \(a board's sizes\), got float"),
        ((RULES, (True, 8)), r"shape must be a sequence of ints \(a board's sizes\), got bool"),
    ],
)
def test_arguments_of_the_wrong_type(arguments: tuple[Any, ...], message: str) -> None:
    with pytest.raises(TypeError, match=f"^{message}$"):
        lint(*arguments)


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ((), "shape must give at least one dimension, got an empty sequence"),
        ((0, 8), "a board has at least one square along each dimension, but shape has 0"),
        ((8, -(10**5000)), "a board has at least one square along each dimension, but shape has "
                           "-10000000000...00000000000 (5,001 digits)"),
    ],
)
def test_shapes_without_squares(shape: tuple[int, ...], message: str) -> None:
    with pytest.raises(ggn.GGNError, match=f"^{re.escape(message)}$"):
        lint(RULES, shape)


def test_huge_board_sizes_are_written_by_their_length() -> None:
    # Python refuses to write an int of more than 4,300 digits: the landed lint let that
    # ValueError escape from the very message of an off-board warning. A long size is written
    # as every message writes a long number (ggn._decimal.shown): its ends and its length.
    assert [str(w) for w in lint(RULES, [10**5000, 1])] == [
        f"{path}: {cell} is not a square of the 10000000000...00000000000 (5,001 digits)x1 board [off-board]"
        for path, cell in (("/C:R/a1/a2", "a2"), ("/C:R/a1/a2/0/must/z2", "z2"))
    ]
    assert [w.path for w in lint(RULES, range(26, 28))] == []
    assert [w.message for w in lint(RULES, [2**62, 1])] == [
        f"{cell} is not a square of the {2**62}x1 board" for cell in ("a2", "z2")
    ]
