"""The history rules of :class:`ggn.game.Game` against Fairy-Stockfish (pyffish), the oracle.

For every built-in game, seeded random games are played by ggn's :class:`~ggn.game.Game` and
compared, ply by ply, with pyffish given the same start FEN and move list:

- ``Game.claim()`` with ``pyffish.is_optional_game_end`` (whether the player to move may claim
  an end, and who wins it: the n-move rule, n-fold repetition and its values, perpetual check,
  xiangqi's chasing, the counting rules);
- ``Game.outcome()`` with ``pyffish.is_immediate_game_end`` and, where no move is left,
  ``pyffish.game_result`` (the winner);
- the move counters of ``Game.fen()`` (and, while a count runs, its limit) with
  ``pyffish.get_fen``'s.

The games are steered where the rules are: a player takes back its last move most of the time
(the same positions come back: repetitions, perpetual checks and chases), prefers moves that
keep the halfmove clock running, and some games start with the clock near the n-move limit.
The makruk-family games also start from endgames, where the counts start and run out.

By default one game of each kind a game runs (:data:`PLIES` plies); ``pytest -m full`` adds
:data:`FULL_GAMES` games of :data:`FULL_PLIES` plies with other seeds.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import pytest

from ggn.game import Game
from ggn.game._chase import Chasing
from ggn.rules import Ending, Play, RuleSystem
from ggn.variants import registry
from ggn.variants.description import Variant
from ggn.variants.registry import Catalogue
from ggn.variants.uci import moves as uci_moves

pytestmark = pytest.mark.slow  # not in the README's quick run: every game against pyffish, ply by ply

sf = pytest.importorskip("pyffish")

SEED = 20261127
PLIES, FULL_GAMES, FULL_PLIES = 40, 4, 120
CHASE_GAMES, CHASE_PLIES = 10, 60
BACK = 0.6  # the chance a player takes back its last move, where it can
QUIET = 0.9  # the chance a move that starts the halfmove clock again is put aside for another
NAMES = registry.names()

# Endgames of the counting games, with the counts ahead (Fairy-Stockfish's FEN of each game).
ENDGAMES = {
    "makruk": ("8/8/3k4/8/8/2K5/8/R3M3 w - - 0 40", "8/8/3k4/1s6/8/2K5/8/RN6 b - - 0 40",
               "4k3/8/8/8/2p5/8/1S2K3/R7 w - - 0 30"),
    "ai-wok": ("8/8/3k4/8/8/2K5/8/R3A3 w - - 0 40", "8/8/3k4/1s6/8/2K5/8/RN6 b - - 0 40"),
    "asean": ("8/8/3k4/8/8/2K5/8/R3Q3 w - - 0 40", "8/8/3k4/1b6/8/2K5/8/RN6 b - - 0 40",
              "4k3/8/8/8/2p5/8/1B2K3/R7 w - - 0 30"),
}


@dataclass
class _Tally:
    plies: int = 0
    claims: int = 0
    decisive: int = 0
    outcomes: int = 0


def _winner(fen: str, value: int) -> str | None:
    """The winner of pyffish's result ``value``, given for the side to move of ``fen``."""
    if value == 0:
        return None
    mover = "first" if fen.split(" ")[1] == "w" else "second"
    return mover if value > 0 else ("second" if mover == "first" else "first")


def _back(move: str) -> str | None:
    """The move that takes ``move`` back (``g1f3`` for ``f3g1``), None for a drop."""
    squares = re.findall(r"[a-z][0-9]+", move)
    return None if "@" in move or len(squares) != 2 else squares[1] + squares[0]


def _counters(fen: str, counting: bool) -> list[str]:
    """The FEN's counters (and the count's limit, which stands where the en passant square
    would, in a counting game)."""
    fields = fen.split(" ")
    return fields[-3:] if counting else fields[-2:]


def _play(name: str, start: str, plies: int, rng: random.Random, tally: _Tally, back: float = BACK,
          chase: bool = False, passes: float = 0.0) -> None:
    game = Game(_rules(name), fen=start)
    variant = game.variant
    assert variant is not None
    is960, counting = variant.chess960, variant.history.counting_rule is not None
    moves: list[str] = []
    for ply in range(plies):
        fen = sf.get_fen(name, start, moves, is960)
        where = f"{name} from {start!r} after {moves} (ply {ply}, {fen!r})"
        assert _counters(game.fen(), counting) == _counters(fen, counting), f"{where}: ggn {game.fen()!r}"
        claimable, value = sf.is_optional_game_end(name, start, moves, is960)
        claim = game.claim()
        assert claimable == (claim is not None), f"{where}: ggn's claim {claim}, pyffish's {claimable, value}"
        if claim is not None:
            assert claim.winner == _winner(fen, value), f"{where}: ggn's claim {claim}, pyffish's {value}"
            tally.claims += 1
            tally.decisive += claim.winner is not None
        ended, value = sf.is_immediate_game_end(name, start, moves, is960)
        legal = sf.legal_moves(name, start, moves, is960)
        outcome = game.outcome()
        if ended or not legal:
            if not ended:
                value = sf.game_result(name, start, moves, is960)
            assert outcome is not None, f"{where}: the game has ended ({value}) and ggn has no outcome"
            assert outcome.winner == _winner(fen, value), f"{where}: ggn's {outcome}, pyffish's {value}"
            assert game.result() == {None: "1/2-1/2", "first": "1-0", "second": "0-1"}[outcome.winner]
            tally.outcomes += 1
            break
        assert outcome is None, f"{where}: ggn's outcome {outcome}, the game goes on for pyffish"
        mine = uci_moves(game.rules, game.position, variant=variant)
        # pyffish lists the pawn drops that would mate where they are illegal (shogi): not ggn.
        choices = sorted(move for move in legal if move in mine)
        assert choices, f"{where}: no move of pyffish's {legal[:8]} is ggn's"
        if chase:
            move = _chase(game, mine, choices, moves, rng)
        else:
            move = _choose(game, mine, choices, moves, rng, back, passes)
        game.push(mine[move])
        moves.append(move)
        tally.plies += 1


def _choose(game: Game, mine: Mapping[str, Play], choices: list[str], moves: list[str],
            rng: random.Random, back: float, passes: float = 0.0) -> str:
    if passes and rng.random() < passes:
        passing = [move for move in choices if move[:len(move) // 2] == move[len(move) // 2:]]
        if passing:
            return passing[0]
    if len(moves) >= 2 and rng.random() < back:
        taken_back = _back(moves[-2])
        if taken_back in choices:
            return taken_back
    order = list(choices)
    rng.shuffle(order)
    for move in order[:6]:
        game.push(mine[move])
        reset = game.halfmove == 0 and game._counting[-1][0] == 0
        game.pop()
        if not reset or rng.random() > QUIET:
            return move
    return order[0]


def _chase(game: Game, mine: Mapping[str, Play], choices: list[str], moves: list[str],
           rng: random.Random) -> str:
    """A move that chases a piece where one does (taking back the player's last move first),
    else the last move taken back: the cycles of xiangqi's chasing rule."""
    chasing = []
    # A game without the chasing rule (manchu) is steered by the marks all the same.
    assert game.variant is not None
    marks = Chasing(game.variant, game._type)
    for move in choices:
        before = game.position
        game.push(mine[move])
        if marks.chased(before, game.position, game.plays[-1]):
            chasing.append(move)
        game.pop()
    back = _back(moves[-2]) if len(moves) >= 2 else None
    if back in chasing and rng.random() < 0.9:
        return back
    if chasing and rng.random() < 0.5:
        return rng.choice(chasing)
    if back in choices and rng.random() < 0.8:
        return back
    return rng.choice(choices)


def _near_the_limit(name: str) -> str | None:
    """The game's start FEN with the halfmove clock ten plies short of the n-move limit."""
    rule = _variant(name).history.n_move_rule
    if not rule:
        return None
    fields = sf.start_fen(name).split(" ")
    fields[-2] = str(max(2 * rule - 10, 1))
    return " ".join(fields)


def _games(name: str, games: int, plies: int, seed: int) -> _Tally:
    rng = random.Random(f"{seed}:{name}")
    tally = _Tally()
    _own()  # pyffish knows the variants of OWN
    starts = [sf.start_fen(name)]
    near = _near_the_limit(name)
    if near is not None:
        starts.append(near)
    starts.extend(ENDGAMES.get(name, ()))
    for _ in range(games):
        for start in starts:
            _play(name, start, plies, rng, tally)
    return tally


# Variants of this file's own, in Fairy-Stockfish's syntax, with history options of their own:
# loaded into both pyffish and ggn (an --ini file's variants).
OWN = """\
# Short limits: ten moves, and the first repetition loses for the first player.
[ggn-rushed:chess]
nMoveRule = 10
nFoldRule = 2
nFoldValue = loss
nFoldValueAbsolute = true

# Xiangqi with janggi's rule on moving a piece back and forth, and four-fold repetition.
[ggn-shuffle:xiangqi]
moveRepetitionIllegal = true
nFoldRule = 4

# Makruk counted as ASEAN chess counts, with the n-move rule back.
[ggn-counted:makruk]
countingRule = asean
nMoveRule = 20

# An n-move limit and repetitions adjudicated by the number of pieces; pawns may step back.
[ggn-material:chess]
nMoveRule = 6
materialCounting = unweighted
nMoveRuleTypes = -

# The n-move rule, counted on the knights only; repetitions are a win for black, drawn by odds.
[ggn-odds:chess]
nMoveRule = 4
nMoveRuleTypes = n
materialCounting = blackdrawodds

# A 4x3 board that fills with drops: a full board ends the game, decided by the number of
# pieces, as is a stalemate.
[ggn-full]
maxRank = 3
maxFile = 4
king = k
customPiece1 = a:mW
pieceDrops = true
startFen = k3/4/3K[AAAAAaaaaa] w - - 0 1
adjudicateFullBoard = true
materialCounting = unweighted
castling = false
doubleStep = false
"""
OWN_NAMES = tuple(re.findall(r"^\[([^\]:]+)", OWN, flags=re.MULTILINE))
ENDGAMES["ggn-counted"] = ENDGAMES["makruk"]


@cache
def _own() -> Catalogue:
    sf.load_variant_config(OWN)
    catalogue = Catalogue()
    assert catalogue.add_ini(OWN, source="test_game_fsf.py") == OWN_NAMES
    return catalogue


def _rules(name: str) -> RuleSystem:
    return _own().rules(name) if name in OWN_NAMES else registry.rules(name)


def _variant(name: str) -> Variant:
    return _own().variant(name) if name in OWN_NAMES else registry.variant(name)


@pytest.mark.parametrize("name", [*NAMES, *OWN_NAMES])
def test_history_rules_against_pyffish(name: str) -> None:
    tally = _games(name, 1, PLIES, SEED)
    assert tally.plies >= PLIES // 2


@pytest.mark.full
@pytest.mark.parametrize("name", [*NAMES, *OWN_NAMES])
def test_history_rules_against_pyffish_full(name: str) -> None:
    tally = _games(name, FULL_GAMES, FULL_PLIES, SEED + 1)
    assert tally.plies >= FULL_PLIES


def test_the_steered_games_reach_the_rules() -> None:
    """The default run meets each kind of claim somewhere (else the steering is broken)."""
    seen = {}
    for name in ("chess", "shogi", "makruk"):
        rng = random.Random(f"{SEED}:{name}")
        tally = _Tally()
        for start in [sf.start_fen(name), *ENDGAMES.get(name, ())]:
            _play(name, start, PLIES, rng, tally, back=0.9)
        seen[name] = tally.claims
    assert all(seen.values()), seen


# Sparse janggi positions, where the generals come to face each other (bikjang) and the players
# pass: games that end by two passes, by a bikjang answered by a pass, by moving a piece back
# and forth around a pass (janggimodern), or go on.
JANGGI = (
    "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
    "4k4/4a4/9/9/2r6/9/6R2/9/4A4/4K4 w - - 0 1",
    "3ak4/9/4c4/9/9/9/9/4C4/9/4KA3 b - - 0 1",
    "4k4/9/2n3b2/p7p/9/9/P7P/2N3B2/4A4/3K5 w - - 0 1",
)


@pytest.mark.parametrize("name", ["janggi", "janggitraditional", "janggimodern", "janggicasual"])
def test_janggi_s_passes_and_bikjang_against_pyffish(name: str) -> None:
    rng = random.Random(f"{SEED}:{name}:passes")
    tally = _Tally()
    endings = []
    for number in range(12):
        before = tally.outcomes
        _play(name, JANGGI[number % len(JANGGI)], 40, rng, tally, back=0.5, passes=0.25)
        endings.append(tally.outcomes - before)
    assert tally.outcomes >= 4, "the steered games should end by passes or bikjang"


# Sparse xiangqi middlegames, where chariots, horses and cannons chase.
CHASES = (
    "3ak4/9/4b4/9/2n6/9/9/4B4/9/R3K4 w - - 0 1",
    "4k4/9/9/4c4/9/2R6/9/9/4A4/4K4 w - - 0 1",
    "3k5/9/9/9/1n2r4/9/2R6/9/9/4K4 b - - 0 1",
    "2bk5/4a4/9/p8/9/9/3N5/9/4C4/3K5 w - - 0 1",
    "4k4/4a4/4b4/9/3n5/9/9/2C6/9/3AK4 w - - 0 1",
)


def _chases(name: str, games: int, seed: int) -> _Tally:
    rng = random.Random(f"{seed}:{name}:chases")
    tally = _Tally()
    for number in range(games):
        _play(name, CHASES[number % len(CHASES)], CHASE_PLIES, rng, tally, chase=True)
    return tally


@pytest.mark.parametrize("name", ["xiangqi", "ggn-shuffle"])
def test_xiangqi_chases_against_pyffish(name: str) -> None:
    tally = _chases(name, CHASE_GAMES, SEED)
    assert tally.decisive, "no chase was claimed: the steering is broken"


@pytest.mark.full
@pytest.mark.parametrize("name", ["xiangqi", "ggn-shuffle", "manchu"])
def test_xiangqi_chases_against_pyffish_full(name: str) -> None:
    # Manchu has xiangqi's rules without the chasing rule: its chases are repetitions.
    tally = _chases(name, 30, SEED + 1)
    assert tally.claims


def test_a_full_board_is_adjudicated_by_material() -> None:
    """Games of ggn-full that drop most of the time, to the end: ``outcome()`` against
    ``is_immediate_game_end`` (the full board) and ``game_result`` (a stalemate)."""
    _own()
    name = "ggn-full"
    start = sf.start_fen(name)
    rng = random.Random(f"{SEED}:{name}")
    endings = set()
    for _ in range(12):
        game = Game(_rules(name), fen=start)
        moves: list[str] = []
        for _ in range(100):  # bounded: the game ends long before
            ended, value = sf.is_immediate_game_end(name, start, moves)
            legal = sf.legal_moves(name, start, moves)
            fen = sf.get_fen(name, start, moves)
            outcome = game.outcome()
            if ended or not legal:
                if not ended:
                    value = sf.game_result(name, start, moves)
                assert outcome is not None and outcome.winner == _winner(fen, value), (moves, outcome, value)
                endings.add(outcome.ending)
                break
            assert outcome is None, (moves, outcome)
            mine = uci_moves(game.rules, game.position, variant=game.variant)
            assert set(mine) == set(legal), moves
            drops = sorted(move for move in legal if "@" in move)
            move = rng.choice(drops if drops and rng.random() < 0.9 else sorted(legal))
            game.push(mine[move])
            moves.append(move)
    assert Ending.FULL_BOARD in endings


@pytest.mark.parametrize("fen", [
    "1r5k/8/8/8/8/p7/P7/K7[] w - - 0 1",  # king and pawn, only promotions: a draw to claim
    "1r5k/8/8/8/8/p7/P7/K6N[] w - - 0 1",  # a third piece: none
    "k7/8/8/3P4/8/5P2/8/K7[] w - - 0 1",  # two pawns, pushes too: none
    "7k/8/8/8/8/8/4P3/K7[] w - - 0 1",  # a pawn that may still push: none
])
def test_sittuyins_stalemate_by_an_optional_promotion(fen: str) -> None:
    game = Game("sittuyin", fen=fen)
    claimable, value = sf.is_optional_game_end("sittuyin", fen, [])
    claim = game.claim()
    assert (claim is not None) == claimable
    assert claim is None or (claim.winner is None and value == 0)
