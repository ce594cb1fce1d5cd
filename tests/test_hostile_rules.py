"""The rule systems' entry points on hostile input: shapes refused before a board is built,
depths bounded, wrong types named (issue 8, rows 4 and 13)."""

from __future__ import annotations

import pytest

from ggn.errors import GGNError, NotFoundError, PositionError
from ggn.games.chess import START
from ggn.position import Position
from ggn.rules import MAX_PERFT_DEPTH, divide, perft, rule_system

# Over four million squares: building this board took 30 s and 1.5 GB.
HUGE = "K^k^4194302 / C/c"
BARE_KINGS = "k^7/8/8/8/8/8/8/K^7 / C/c"


@pytest.mark.timeout(60)
@pytest.mark.usefixtures("no_board_built")
@pytest.mark.parametrize("game", ["chess", "shogi", "xiangqi", "makruk"])
def test_row4_perft_checks_the_shape_before_building_the_board(game: str) -> None:
    board = "9x10" if game == "xiangqi" else "9x9" if game == "shogi" else "8x8"
    # A PositionError, as the game's styles' (tests/test_rules_styles.py), and so a GGNError.
    with pytest.raises(PositionError, match=f"{game} is played on a board of {board} squares, not one of "
                                            r"shape \(4194304,\)"):
        perft(game, 1, HUGE)
    with pytest.raises(GGNError, match=board):
        divide(game, 1, HUGE)
    with pytest.raises(GGNError, match=board):
        rule_system(game).position(HUGE)


def test_row4_a_shape_of_any_size_is_named_in_a_bounded_message() -> None:
    bounded = r"not one of shape \(99999999999\.\.\.99999999999 \(5,000 digits\),\)$"
    with pytest.raises(GGNError, match=bounded):
        perft("chess", 1, "9" * 5000 + " / C/c")


def test_row4_a_built_position_of_another_shape_is_refused_by_every_entry_point() -> None:
    rules = rule_system("chess")
    nine = Position.from_feen("9/9/9/9/9/9/9/9/4K^4 / C/c")
    for call in (rules.legal_moves, rules.count, rules.in_check, rules.outcome, rules.position,
                 lambda p: rules.play(p, "C:K^ e1-e2"), lambda p: perft(rules, 2, p)):
        with pytest.raises(GGNError, match="8x8"):
            call(nine)


def test_row13_perft_depth_is_bounded_with_the_reason() -> None:
    # Depth 1000 on bare kings was a RecursionError; no count that deep could finish anyway.
    with pytest.raises(GGNError, match=f"perft depth 1000 is over the limit of {MAX_PERFT_DEPTH}: "
                                       "the number of paths grows exponentially"):
        perft("chess", 1000, BARE_KINGS)
    with pytest.raises(GGNError, match="over the limit"):
        divide("chess", MAX_PERFT_DEPTH + 1)
    with pytest.raises(GGNError, match="divide needs a depth of 1 or more, got 0"):
        divide("chess", 0)


def test_row13_a_deep_perft_on_a_position_without_moves_works() -> None:
    # Checkmate: every depth but 0 counts no path, down to the deepest allowed.
    mated = "k^7/1Q6/1K^6/8/8/8/8/8 / c/C"
    assert perft("chess", MAX_PERFT_DEPTH, mated) == 0
    assert perft("chess", 0, mated) == 1


def test_perft_without_recursion_counts_as_before() -> None:
    # The explicit stack walks every level: depths 1 to 4 from the start.
    assert [perft("chess", depth) for depth in range(1, 5)] == [20, 400, 8902, 197281]
    assert [perft("chess", depth, BARE_KINGS) for depth in (1, 2, 3)] == [3, 9, 54]


def test_wrong_types_are_named() -> None:
    rules = rule_system("chess")
    with pytest.raises(TypeError, match="depth must be an int, got str"):
        perft("chess", "3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="depth must be an int, got bool"):
        perft("chess", True)
    with pytest.raises(TypeError, match="game must be a RuleSystem or a game's name, got int"):
        perft(5, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position must be a Position, got str"):
        rules.legal_moves(START)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="feen must be a Position, a FEEN string or None, got int"):
        rules.position(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="play must be a Play or its str"):
        rules.play(rules.position(), 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="name must be a str"):
        rule_system(None)  # type: ignore[arg-type]


def test_an_unknown_game_is_not_found() -> None:
    with pytest.raises(NotFoundError, match="no game 'go'; there are: chess, "):
        rule_system("go")
