"""A rule system's styles: a position enters a game's rule system only in the game's styles.

A position's FEEN names the two players' styles (``C/c`` for chess, ``S/s`` for shogi). A
rule system that knows its game's start position knows its styles too, and refuses a
position in others (a PositionError naming both) where the position comes in: when read
from FEEN, and when a Position is handed to its public methods. Every position a built-in
game makes itself is accepted.
"""

from __future__ import annotations

import random

import pytest

from ggn.errors import GGNError, PositionError
from ggn.feen import Feen
from ggn.position import Position
from ggn.rules import RuleSystem, divide, perft
from ggn.variants import registry

CHESS_START = registry.start("chess")
BOARD = CHESS_START.split(" ")[0]


def _restyled(styles: str) -> str:
    """Chess's start position, its styles those given (the style-turn field: active/inactive)."""
    return f"{BOARD} / {styles}"


# The styles given, as written in the style-turn field, and as the message shows them
# (the first player's style, then the second's).
OTHERS = [
    ("S/s", "S/s"),  # shogi's
    ("X/x", "X/x"),  # xiangqi's
    ("M/m", "M/m"),  # makruk's
    ("C/s", "C/s"),  # the first player's right, the second's not
    ("S/c", "S/c"),  # the second player's right, the first's not
    ("s/S", "S/s"),  # shogi's, the second player to move
]


@pytest.mark.parametrize(("styles", "shown"), OTHERS)
def test_a_position_in_other_styles_is_refused_where_it_comes_in(styles: str, shown: str) -> None:
    rules = registry.rules("chess")
    feen = _restyled(styles)
    message = f"chess is played in the styles C/c (first player/second player), not {shown}"
    with pytest.raises(PositionError) as raised:
        rules.position(feen)
    assert str(raised.value) == message
    with pytest.raises(PositionError, match="not " + shown):
        rules.position(Feen.parse(feen))
    given = Position.from_feen(Feen.parse(feen))
    for use in (rules.position, rules.legal_moves, rules.count, rules.in_check, rules.outcome,
                lambda position: rules.play(position, "C:P e2-e4")):
        with pytest.raises(PositionError) as raised:
            use(given)
        assert str(raised.value) == message
    for game in ("chess", rules):
        with pytest.raises(PositionError, match="not " + shown):
            perft(game, 1, feen)
        with pytest.raises(PositionError, match="not " + shown):
            divide(game, 1, given)


def test_each_game_refuses_the_others_styles() -> None:
    for name, other in (("shogi", "chess"), ("xiangqi", "shogi"), ("makruk", "xiangqi")):
        rules = registry.rules(name)
        start = rules.position()
        theirs = registry.start(other).rsplit(" ", 1)[1]
        board, hands, _ = registry.start(name).split(" ")
        ours = "/".join(f"{s.letter}" for s in start.styles)
        with pytest.raises(PositionError, match=f"{name} is played in the styles {ours} .*not {theirs}$"):
            rules.position(f"{board} {hands} {theirs}")


def test_the_check_is_a_position_error_and_a_ggn_error() -> None:
    assert issubclass(PositionError, GGNError)


def test_a_rule_system_without_a_start_takes_any_styles() -> None:
    """A rule system made from a document alone knows no game's styles: it plays any."""
    rules = RuleSystem(registry.rules("chess").ruleset)
    assert rules.styles is None
    assert rules.count(rules.position(_restyled("C/c"))) == 20
    assert rules.count(rules.position(_restyled("S/s"))) == 0  # the document moves C and c pieces only


def test_a_rule_system_with_a_start_takes_its_styles() -> None:
    made = RuleSystem(registry.rules("shogi").ruleset, start=registry.start("shogi"))
    assert made.styles == registry.rules("shogi").position().styles
    with pytest.raises(PositionError, match="not C/c"):
        made.position(CHESS_START)


def test_drawing_a_game_refuses_other_styles() -> None:
    entry = registry.entry("chess")
    with pytest.raises(PositionError, match="not S/s"):
        entry.svg(_restyled("S/s"))
    with pytest.raises(PositionError, match="not S/s"):
        entry.text(_restyled("S/s"))


# Games of each kind of style and position: chess's, shogi's (drops, promoted forms), xiangqi's,
# makruk's, a game whose hands fill from captures, and shatranj (a chess game in shogi's letter).
# The full run plays every built-in game: making the 79 rule systems takes about a minute.
EVERY = ("chess", "shogi", "minishogi", "xiangqi", "makruk", "crazyhouse", "shatranj")


@pytest.mark.parametrize("name", [
    *EVERY, *(pytest.param(name, marks=pytest.mark.full) for name in registry.names() if name not in EVERY)])
def test_every_built_in_game_takes_its_own_positions(name: str) -> None:
    """The start position of each built-in game, and those after a few random legal plays,
    go through the game's rule system (as FEEN and as Positions) and its drawing."""
    rules = registry.rules(name)
    entry = registry.entry(name)
    rng = random.Random(f"styles {name}")
    position = rules.position()
    assert rules.position(registry.start(name)) == position
    for _ in range(6):
        again = rules.position(position.to_feen())
        assert again == position and rules.position(again) is again
        assert entry.text(position)
        plays = rules.legal_moves(position)
        if not plays:
            break
        position = rules.play(position, rng.choice(plays))
    rules.count(position)
