"""The native kernel against the pure-Python path: legal plays and perft counts, 0 mismatches.

For every built-in game the kernel plays (``ggn.rules.native_support``), positions along random
games and random placements of the game's pieces, drawn with seeds from a fixed list (not
tuned on: the kernel was written before they were drawn), give the same legal plays (their
names and full transitions) and the same perft counts both ways. Every game the kernel does
not play falls back, with its reason, and then gives the pure answer. The default run is
modest; ``-m full`` runs the long sweep.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from ggn._types import Side
from ggn.position import Position
from ggn.rules import _native, native_support, perft, rule_system, use_native
from ggn.rules._records import Ending
from ggn.rules._system import RuleSystem
from ggn.variants import registry

# Seeds drawn once from os.urandom when this file was written; a fresh sweep by hand:
# GGN_NATIVE_SEEDS=... (comma-separated) overrides them.
SEEDS = tuple(int(seed) for seed in os.environ.get(
    "GGN_NATIVE_SEEDS", "917433,52218,660391,284107,735541,408862").split(","))

GAMES = registry.names()

pytestmark = pytest.mark.skipif(not _native.native_available(), reason="the C kernel is not built here")


def _pure_legal(rules: RuleSystem, position: Position) -> Counter[tuple[str, object]]:
    with use_native(False):
        return Counter((str(play), play.transition) for play in rules.legal_moves(position))


def _kernel_legal(rules: RuleSystem, position: Position) -> Counter[tuple[str, object]]:
    plays = _native.legal(rules, position)
    assert plays is not None, f"the kernel refused {position.to_feen()!r}"
    return Counter((str(play), play.transition) for play in plays)


def _pure_perft(rules: RuleSystem, position: Position, depth: int) -> int:
    with use_native(False):
        return perft(rules, depth, position)


def _walk(rules: RuleSystem, seed: int, plies: int) -> list[Position]:
    """The positions of a random game (pure path) from the start, at most ``plies`` long."""
    chance = random.Random(seed)
    position = rules.position()
    seen = [position]
    for _ in range(plies):
        with use_native(False):
            plays = rules.legal_moves(position)
        if not plays:
            break
        position = position.apply(chance.choice(plays).transition)
        seen.append(position)
    return seen


def _placement(rules: RuleSystem, seed: int) -> Position:
    """The start position's pieces shuffled over the board, a few of them put in hand where the
    game drops, and either side to move."""
    chance = random.Random(seed)
    start = rules.position()
    codes = list(start._codes)
    chance.shuffle(codes)
    hands = (dict(start._hands[0]), dict(start._hands[1]))
    active: Side = chance.choice(("first", "second"))
    return Position._make(start._geometry, codes, hands, active, start.styles)


def _compare(rules: RuleSystem, position: Position, depth: int) -> None:
    feen = position.to_feen()
    assert _kernel_legal(rules, position) == _pure_legal(rules, position), feen
    if depth:
        assert _native.perft(rules, position, depth) == _pure_perft(rules, position, depth), (feen, depth)


def _covered(name: str) -> RuleSystem:
    rules = rule_system(name)
    supported, reason = native_support(rules)
    if not supported:
        pytest.skip(f"{name} falls back: {reason}")
    return rules


@pytest.mark.parametrize("name", GAMES)
def test_random_games(name: str) -> None:
    rules = _covered(name)
    seed = SEEDS[GAMES.index(name) % len(SEEDS)]
    positions = _walk(rules, seed, 30)
    for number, position in enumerate(positions):
        _compare(rules, position, 2 if number in (3, 25) else 0)


@pytest.mark.parametrize("name", GAMES)
def test_random_placements(name: str) -> None:
    rules = _covered(name)
    seed = SEEDS[(GAMES.index(name) + 1) % len(SEEDS)]
    for offset in range(2):
        position = _placement(rules, seed + offset)
        try:
            with use_native(False):
                rules.legal_moves(position)
        except Exception:  # noqa: BLE001  (a placement the pure path refuses is no test)
            continue
        _compare(rules, position, 1)


@pytest.mark.parametrize("name", GAMES)
def test_fallback_gives_the_pure_answer(name: str) -> None:
    rules = rule_system(name)
    supported, reason = native_support(rules)
    # The description alone gives the same answer (ggn variants --format json reads it so).
    assert _native.description_refusal(registry.variant(name)) == reason
    if supported:
        assert reason == ""
        return
    assert reason  # a game that falls back says why
    assert _native.perft(rules, rules.position(), 1) is None
    assert perft(rules, 1) == _pure_perft(rules, rules.position(), 1)


def _pure_end(rules: RuleSystem, position: Position) -> tuple[int, int]:
    """The rule system's end before the move as the kernel's ``ended`` says it: (0 none, 1 an
    extinction, 2 a flag region; the result for the side to move, 1 a win, 0 a draw, -1 a loss)."""
    with use_native(False):
        outcome = rules._ended(position) if rules._ends else None
    if outcome is None:
        return 0, 0
    end = {Ending.EXTINCTION: 1, Ending.BARE_KING: 1, Ending.FLAG: 2}[outcome.ending]
    return end, 0 if outcome.winner is None else 1 if outcome.winner == position.active else -1


def _ends_early(name: str) -> bool:
    ends = registry.variant(name).ends
    return (ends.extinction is not None and bool(ends.extinction_types)) or bool(ends.flag_pieces)


# Positions where a game has ended, or nearly (bare kings, and the claim of shatranj's baring;
# an extinct horde; the king of the hill), with what random games seldom reach.
_ENDED = {
    "shatranj": ("k7/8/8/8/8/8/8/KR6 w - - 0 1", "k7/8/8/8/8/8/8/KR6 b - - 0 1",
                 "k7/8/8/8/8/8/8/K7 w - - 0 1"),
    "courier": ("k11/12/12/12/12/12/12/KR10 w - - 0 1", "k11/12/12/12/12/12/12/KR10 b - - 0 1"),
    "shatar": ("k7/8/8/8/8/8/8/KR6 w - - 0 1", "k7/8/8/8/8/8/8/KR6 b - - 0 1"),
    "horde": ("rnbqkbnr/8/8/8/8/8/8/8 w kq - 0 1", "rnbqkbnr/8/8/8/8/8/8/7P b kq - 0 1"),
    "kingofthehill": ("k7/8/8/3K4/8/8/8/8 b - - 0 1", "k7/8/8/3K4/8/8/8/8 w - - 0 1"),
    "racingkings": ("1K6/8/8/8/8/8/8/k7 b - - 0 1", "1K5k/8/8/8/8/8/8/8 w - - 0 1",
                    "1K6/6k1/8/8/8/8/8/8 b - - 0 1"),
}


@pytest.mark.parametrize("name", [name for name in GAMES if _ends_early(name)])
def test_the_ends(name: str) -> None:
    # The kernel's ends before the move (extinction, flag regions), and their results, are the
    # rule system's, along long random games (which reach them), on random placements and on
    # positions made to end.
    from ggn.game import Game  # noqa: PLC0415

    rules = _covered(name)
    seed = SEEDS[(GAMES.index(name) + 2) % len(SEEDS)]
    positions = _walk(rules, seed, 150)
    positions += [_placement(rules, seed + offset) for offset in range(20)]
    made = [Game(name, fen=fen).position for fen in _ENDED.get(name, ())]
    assert not made or any(_pure_end(rules, position)[0] for position in made)
    positions += made
    kernel = _native._STATE.kernel
    assert kernel is not None
    for position in positions:
        asked = _native._asked(rules, position)
        assert asked is not None, position.to_feen()
        _, game, encoded = asked
        assert kernel.ended(game.capsule, encoded) == _pure_end(rules, position), position.to_feen()


@pytest.mark.full
@pytest.mark.parametrize("name", GAMES)
def test_long_sweep(name: str) -> None:
    rules = _covered(name)
    for seed in SEEDS:
        for number, position in enumerate(_walk(rules, seed, 150)):
            _compare(rules, position, 2 if number % 25 == 7 else 0)
        for offset in range(10):
            position = _placement(rules, seed * 31 + offset)
            try:
                with use_native(False):
                    rules.legal_moves(position)
            except Exception:  # noqa: BLE001
                continue
            _compare(rules, position, 2)


def test_the_switch() -> None:
    rules = rule_system("chess")
    assert _native.perft(rules, rules.position(), 3) == 8902  # made: shallow counts are its own too
    assert _native.perft(rules, rules.position(), 2) == 400
    with use_native(False):
        assert not _native.native_available()
        assert _native.perft(rules, rules.position(), 2) is None
        assert perft(rules, 3) == 8902
    assert _native.native_available()
    assert native_support("chess") == (True, "")
    with pytest.raises(TypeError):
        use_native(1)  # type: ignore[arg-type]


def test_known_counts() -> None:
    # Fairy-Stockfish's counts (go perft) from the start positions.
    assert perft("chess", 4) == 197281
    assert perft("shogi", 3) == 25470
    assert perft("xiangqi", 3) == 79666
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    from ggn.game import Game  # noqa: PLC0415

    position = Game("chess", fen=kiwipete).position
    assert perft("chess", 3, position) == 97862


@pytest.mark.parametrize("name", ["chess", "shogi", "xiangqi", "crazyhouse"])
def test_batch_listing(name: str) -> None:
    # The kernel's batch call lists each position's plays as the single call does, and as
    # many as the pure path.
    from array import array  # noqa: PLC0415

    rules = rule_system(name)
    positions = _walk(rules, SEEDS[2], 40)
    game = _native._game(rules, rules.position())
    kernel = _native._STATE.kernel
    assert game is not None and kernel is not None
    batch = array("i")
    singles = []
    for position in positions:
        encoded = _native._encode(game, position)
        assert encoded is not None
        batch += encoded
        singles.append(kernel.legal(game.capsule, encoded))
    counts, pairs = kernel.legal_many(game.capsule, batch)
    counts, pairs = array("i", counts), array("i", pairs)
    start = 0
    for position, single, count in zip(positions, singles, counts, strict=True):
        assert pairs[2 * start:2 * (start + count)].tobytes() == single
        assert count == rules._count(position)  # the pure walk's count
        start += count
    assert 2 * start == len(pairs)


def test_a_documents_rule_system_is_counted_on_the_board_it_is_given() -> None:
    # The generic rule system of a GGN document has no start position and plays on any board:
    # the kernel makes its tables for the board of the position asked about, one per shape.
    from ggn.ruleset import Ruleset  # noqa: PLC0415

    document = RuleSystem(registry.entry("chess").ruleset())
    start = document.position("+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c")
    assert _native.perft(document, start, 3) == 8902 == perft(document, 3, start)
    assert native_support(document) == (True, "")
    rook = RuleSystem(Ruleset.loads('{"C:R": {"a1": {"a3": [{"must": {"a2": "empty", "a3": "empty"}}]}},'
                                    ' "C:K^": {"c1": {"c2": [{"must": {"c2": "empty"}}]}}}'))
    for feen, moves in (("8/8/8/8/8/8/8/R1K^5 / C/c", 2), ("K^2/3/R1K^ / C/c", 1), ("3/R1K^ / C/c", 1),
                        ("5/5/5/R1K^2 / C/c", 2)):
        position = rook.position(feen)
        assert _native._game(rook, position) is not None  # the tables of this board, made
        counted = _native.perft(rook, position, 1)
        with use_native(False):
            assert counted == perft(rook, 1, position) == moves, feen


def test_shallow_counts_stay_pure_until_the_tables_are_made() -> None:
    # Making the tables costs more than counting two plies in Python: a shallow perft of a rule
    # system whose tables are neither made nor in the compile cache is the pure path's, until a
    # deeper one (or many) made them.
    from ggn import cache  # noqa: PLC0415

    with cache.off():
        document = RuleSystem(registry.entry("chess").ruleset())
        start = document.position("+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c")
        assert _native.perft(document, start, 2) is None
        assert perft(document, 2, start) == 400  # counted by the pure path
        assert _native.perft(document, start, 3) == 8902
        assert _native.perft(document, start, 2) == 400
        assert _native.perft(document, start, 1) == 20
        many = RuleSystem(registry.entry("chess").ruleset())
        answers = [_native.perft(many, start, 1) for _ in range(_native._SHALLOW_CALLS + 1)]
        assert answers[:-1] == [None] * _native._SHALLOW_CALLS and answers[-1] == 20
