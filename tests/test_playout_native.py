"""Playouts in the native kernel (``src/ggn/_native/playout.c``) against the pure path and the
oracles: the same games, game by game and move by move.

- For games of every family the kernel plays (chess and chess960, large boards, drops,
  shogi's perpetual checks and repetitions over the whole game, stalemates that lose, a
  checkmate that wins), from the start, from positions of random games and from random
  placements, with both policies: each game's plays, result, ending and length are the pure
  path's. The seeds were drawn once from os.urandom after the kernel's playout was written.
- Games that end before the last move (an extinction, a bare king, a flag region reached):
  the same games both ways, each of these ends found.
- Games whose ends the kernel's playout does not replay (checks counted, the counting rules,
  chasing, material counting...) fall back to the pure path, with the reason named.
- Games the kernel played, replayed in python-chess (chess, and king of the hill, racing
  kings, antichess and horde on its chess.variant boards) and python-shogi: every move legal,
  no end before the last ply, the end theirs.
"""

from __future__ import annotations

import random
from array import array
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from ggn._types import Side
from ggn.game import Game
from ggn.notation import write
from ggn.position import Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules import Ending, Play, Playouts, _native, playout, rule_system, use_native
from ggn.rules._cplayout import _tables, description_playout_refusal, playout_refusal
from ggn.variants import registry

SEEDS = (3933042, 2599538, 8112122, 15055207, 13309202, 10538897, 11506846, 5895730)

pytestmark = pytest.mark.skipif(not _native.native_available(), reason="the C kernel is not built here")

# Games of each family the kernel plays: chess and its castling in chess960, hoppers, large
# boards with holes, drops (crazyhouse's repetitions over the whole game), shogi-style
# promotions and perpetual checks, a stalemate that loses, a checkmate that wins.
GAMES = ("chess", "fischerandom", "capablanca", "grand", "gustav3", "shako", "grasshopper", "knightmate",
         "crazyhouse", "pocketknight", "shogi", "minishogi", "kyotoshogi", "judkins", "euroshogi",
         "chaturanga", "misere", "losalamos", "clobber", "placement")


def _both(game: str, start: Position | None = None, fen: str | None = None, **options: object) -> Playouts:
    fast = playout(game, start, fen=fen, moves=True, **options)  # type: ignore[arg-type]
    with use_native(False):
        slow = playout(game, start, fen=fen, moves=True, **options)  # type: ignore[arg-type]
    assert fast.engine == "native", (game, playout_refusal(rule_system(game)))
    assert slow.engine == "pure"
    assert fast.moves is not None and slow.moves is not None
    for number, (mine, theirs) in enumerate(zip(fast.moves, slow.moves, strict=True)):
        first = next((ply for ply, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), None)
        assert mine == theirs, (game, number, first, len(mine), len(theirs))
    assert (fast.results, fast.lengths, fast.endings) == (slow.results, slow.lengths, slow.endings), game
    assert fast == slow
    return fast


@pytest.mark.parametrize("name", GAMES)
def test_the_kernel_plays_the_pure_games_from_the_start(name: str) -> None:
    seed = SEEDS[GAMES.index(name) % len(SEEDS)] * 7919 + len(name)
    for policy in ("uniform", "captures"):
        _both(name, games=3, seed=seed, policy=policy, max_plies=160)


def _walked(name: str, seed: int, plies: int) -> Position:
    """The position after a random game of at most ``plies`` plies (the pure path)."""
    rules = rule_system(name)
    chance = random.Random(seed)
    position = rules.position()
    with use_native(False):
        for _ in range(plies):
            plays = rules.legal_moves(position)
            if not plays:
                break
            position = position.apply(chance.choice(plays).transition)
    return position


def _both_from_the_start_and_a_random_game(name: str, seed: int, plies: int, max_plies: int) -> None:
    """The kernel's games are the pure path's from the start (both policies) and from the
    position after a random game of at most ``plies`` plies."""
    for policy in ("uniform", "captures"):
        _both(name, games=2, seed=seed, policy=policy, max_plies=max_plies)
    _both(name, _walked(name, seed, plies), games=2, seed=seed + 1, max_plies=max_plies)


def _replayed_in_pyffish(sf: Any, name: str, fen: str | None, plays: tuple[Play, ...]) -> list[str]:
    """A game's plays from ``fen`` (the start where None) as UCI moves, each asserted among
    pyffish's legal moves of the position before it."""
    rules = rule_system(name)
    start = fen or sf.start_fen(name)
    position = Game(rules, fen=fen).position
    moves: list[str] = []
    for play in plays:
        move = write(rules, position, play, "uci")
        assert move in sf.legal_moves(name, start, moves), (name, fen, moves, move)
        moves.append(move)
        position = position.apply(play.transition)
    return moves


def _pyffish_result(sf: Any, name: str, start: str, moves: list[str], value: int) -> str:
    """The result, by side, of pyffish's ``value`` for the player to move after ``moves`` (as
    its ``game_result`` and ``is_*_game_end`` give it: above 0 a win)."""
    white = sf.get_fen(name, start, moves).split(" ")[1] == "w"
    return "1/2-1/2" if value == 0 else "1-0" if (value > 0) == white else "0-1"


def _placement(name: str, seed: int) -> Position | None:
    """The start's pieces shuffled over the board, without their marks (castling rights), either
    side to move; None if the side not to move could take a royal piece."""
    rules = rule_system(name)
    chance = random.Random(seed)
    start = rules.position()
    codes = [code and code_of(Qpi(piece.sin, replace(piece.pin, state="normal")))
             if code and (piece := piece_of(code)).state != "normal" else code for code in start._codes]
    chance.shuffle(codes)
    hands = (dict(start._hands[0]), dict(start._hands[1]))
    active: Side = chance.choice(("first", "second"))
    position = Position._make(start._geometry, codes, hands, active, start.styles)
    other = Position._make(start._geometry, list(codes), hands, position.inactive, start.styles)
    try:
        with use_native(False):
            if rules.in_check(other):
                return None
            rules.legal_moves(position)
    except Exception:  # noqa: BLE001  (a placement the pure path refuses is no test)
        return None
    return position


@pytest.mark.parametrize("name", ["chess", "capablanca", "crazyhouse", "shogi", "minishogi", "kyotoshogi",
                                  "chaturanga"])
def test_the_kernel_plays_the_pure_games_from_random_games(name: str) -> None:
    for offset, seed in enumerate(SEEDS[:3]):
        start = _walked(name, seed + len(name), 20 + 15 * offset)
        _both(name, start, games=2, seed=seed, policy=("uniform", "captures")[offset % 2], max_plies=160)


@pytest.mark.parametrize("name", ["chess", "fischerandom", "grand", "crazyhouse", "minishogi", "judkins"])
def test_the_kernel_plays_the_pure_games_from_random_placements(name: str) -> None:
    # Three placements the pure path plays: from SEEDS, then from seeds drawn from them, as many
    # as it takes (a placement is refused when the side not to move could take a royal piece).
    more = random.Random(SEEDS[0] + len(name))
    played = tried = 0
    while played < 3 and tried < 200:
        seed = SEEDS[tried] if tried < len(SEEDS) else more.randrange(1 << 24)
        tried += 1
        start = _placement(name, seed)
        if start is None:
            continue
        _both(name, start, games=2, seed=seed, policy=("uniform", "captures")[seed % 2], max_plies=160)
        played += 1
    assert played == 3, (name, tried)


def test_every_end_of_chess_the_same_both_ways() -> None:
    # Few pieces: checkmates, stalemates, the fifty-move rule and repetitions, from a FEN with
    # its halfmove clock read.
    endings: Counter[Ending | None] = Counter()
    for number, fen in enumerate(("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1", "8/8/3k4/8/8/3K4/3Q4/8 w - - 37 60",
                                  "8/5k2/8/8/8/8/2K5/1R6 b - - 0 1", "8/8/8/8/8/2k5/1p6/1K6 w - - 0 1",
                                  "7k/8/6K1/8/8/8/8/QQ6 w - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                                  "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2")):
        for policy in ("uniform", "captures"):
            found = _both("chess", fen=fen, games=4, seed=SEEDS[number] + len(policy), policy=policy,
                          max_plies=400)
            endings.update(found.endings)
    assert {Ending.CHECKMATE, Ending.STALEMATE, Ending.MOVE_RULE, Ending.REPETITION} <= set(endings), endings


def test_shogi_s_repetitions_and_perpetual_checks_the_same_both_ways() -> None:
    # Kings with a rook, a gold or a bishop in hand, or bare: drops, checks, checkmates, stalemates
    # that lose, and repetitions over the whole game.
    endings: Counter[Ending | None] = Counter()
    for number, feen in enumerate(("4k^4/9/9/9/9/9/9/9/4K^4 R/r S/s", "k^8/9/9/9/9/9/9/9/8K^ G/g S/s",
                                   "4k^/5/5/5/K^4 R/r M/m", "4k^/5/5/5/K^4 / M/m", "k^4/5/5/5/4K^ B/ M/m")):
        game = "minishogi" if feen.count("/") == 6 else "shogi"
        for policy in ("uniform", "captures"):
            found = _both(game, Position.from_feen(feen), games=4, seed=SEEDS[number] ^ 0x5A5A, policy=policy,
                          max_plies=300)
            endings.update(found.endings)
    assert {Ending.REPETITION, Ending.CHECKMATE, Ending.NO_LEGAL_MOVE} <= set(endings), endings


@pytest.mark.parametrize("name", ["shatar", "xiangqi", "janggimodern"])
def test_games_whose_ends_the_kernel_does_not_replay_fall_back(name: str) -> None:
    reason = playout_refusal(rule_system(name))
    assert reason, name
    found = playout(name, games=2, seed=SEEDS[0], max_plies=40)
    assert found.engine == "pure"
    with use_native(False):
        assert playout(name, games=2, seed=SEEDS[0], max_plies=40) == found


def test_every_game_the_kernel_plays_has_a_playout_or_a_reason() -> None:
    played = refused = 0
    for name in registry.names():
        rules = rule_system(name)
        variant = registry.variant(name)
        supported, why = _native.native_support(rules)
        if not supported:
            assert _native.playout_engine(variant) == ("pure", why), name
            continue
        reason = playout_refusal(rules)
        # The description alone gives the same answer (ggn variants --format json reads it so).
        assert description_playout_refusal(variant) == reason, name
        assert _native.playout_engine(variant) == ("pure", reason) if reason else ("native", ""), name
        if reason:
            refused += 1
            assert playout(name, games=1, seed=1, max_plies=2).engine == "pure", name
        else:
            played += 1
    assert played >= 100 and refused >= 3, (played, refused)
    with use_native(False):
        assert _native.playout_engine(registry.variant("chess")) == (
            "pure", "the kernel is switched off (use_native(False))")


# Games with an end before the last move (an extinction, a bare king, a flag region reached),
# which the kernel's playout checks before each ply as the rule system does.
ENDS = ("shatranj", "kingofthehill", "racingkings", "losers", "giveaway", "antichess", "suicide", "codrus",
        "extinction", "kinglet", "threekings", "horde", "nocheckatomic", "atomar", "fox-and-hounds", "koedem",
        "dobutsu", "breakthrough", "jesonmor", "courier", "3check", "5check", "checkshogi")


@pytest.mark.parametrize("name", ENDS)
def test_games_that_end_before_the_last_move_are_the_pure_games(name: str) -> None:
    seed = SEEDS[ENDS.index(name) % len(SEEDS)] * 104729 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 24, 200)


def test_every_end_before_the_last_move_the_same_both_ways() -> None:
    # Shatranj's bare king (a rook and a lone piece each), kings of the hill, racing kings
    # and the extinction of antichess, each found by the kernel as by the pure path.
    endings: Counter[Ending | None] = Counter()
    for game, fen in (("shatranj", "4k3/8/8/8/8/8/3p4/R3K3 w - - 0 1"),
                      ("shatranj", "4k3/8/8/8/3n4/8/8/R3K3 w - - 0 1"),
                      ("kingofthehill", None), ("racingkings", None), ("antichess", None)):
        for policy in ("uniform", "captures"):
            endings.update(_both(game, fen=fen, games=4, seed=SEEDS[len(endings) % len(SEEDS)], policy=policy,
                                 max_plies=300).endings)
    assert {Ending.BARE_KING, Ending.FLAG, Ending.EXTINCTION} <= set(endings), endings


# Cambodian's and kar ouk's first-move rights (the king's and the neang's) are no part of the
# key (Fairy-Stockfish's key holds no gate): the kernel's key classes leave them out too.
COUNTED = ("makruk", "asean", "ai-wok", "cambodian", "karouk")


@pytest.mark.parametrize("name", COUNTED)
def test_games_of_the_counting_rules_are_the_pure_games(name: str) -> None:
    seed = SEEDS[COUNTED.index(name) % len(SEEDS)] * 7907 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 40, 300)


def test_the_counting_rules_end_games_as_pyffish_does() -> None:
    # Endgames of makruk, asean and ai-wok, with a count under way (makruk's limit where the
    # FEN puts the en passant square, its ply the halfmove clock) or one a capture or the last
    # pawn starts: each game the kernel's and the pure path's, each move legal in pyffish, and
    # each end of a count one pyffish lets the player claim, a draw.
    sf = pytest.importorskip("pyffish")
    endings: Counter[Ending | None] = Counter()
    for game, fen in (("makruk", "8/8/4k3/8/8/3K4/8/R7 w - 32 20 60"),
                      ("makruk", "8/8/4k3/8/2p5/3K4/8/R7 w - - 0 40"),
                      ("makruk", "8/3s4/4k3/8/8/3K4/3P4/R7 b - - 0 40"),
                      ("asean", "8/8/4k3/8/8/3K4/8/R7 w - - 0 40"),
                      ("cambodian", "8/8/4k3/8/3p4/3K4/8/R7 w - - 0 40"),
                      ("ai-wok", "8/8/4k3/8/8/3K4/8/R7 w - 32 20 60")):
        for policy in ("uniform", "captures"):
            found = _both(game, fen=fen, games=3, seed=SEEDS[len(endings) % len(SEEDS)], policy=policy,
                          max_plies=400)
            assert found.moves is not None
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                endings[ending] += 1
                moves = _replayed_in_pyffish(sf, game, fen, plays)
                if ending is Ending.COUNTING:
                    assert result == "1/2-1/2"
                    assert sf.is_optional_game_end(game, fen, moves) == (True, 0), (game, fen, moves)
                    assert not sf.is_optional_game_end(game, fen, moves[:-1])[0], (game, fen, moves)
    assert endings[Ending.COUNTING] >= 15, endings


def test_draws_decided_by_material_as_pyffish_decides_them() -> None:
    # Armageddon (materialCounting blackdrawodds): every draw the second player's win, the
    # kernel's games the pure games, and each end one pyffish gives or lets the player claim.
    sf = pytest.importorskip("pyffish")
    endings: Counter[Ending | None] = Counter()
    for fen in ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3K4/8/7R w - - 90 60",
                "7k/8/5KQ1/8/8/8/8/8 w - - 0 1", None):
        for policy in ("uniform", "captures"):
            found = _both("armageddon", fen=fen, games=3, seed=SEEDS[len(endings) % len(SEEDS)],
                          policy=policy, max_plies=300)
            assert found.moves is not None
            start = fen or sf.start_fen("armageddon")
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                endings[ending] += 1
                moves = _replayed_in_pyffish(sf, "armageddon", fen, plays)
                if ending is None:
                    continue
                assert result != "1/2-1/2", (fen, ending)
                immediate, value = sf.is_immediate_game_end("armageddon", start, moves)
                if not sf.legal_moves("armageddon", start, moves):
                    value = sf.game_result("armageddon", start, moves)
                elif not immediate:
                    claimed, value = sf.is_optional_game_end("armageddon", start, moves)
                    assert claimed, (fen, ending, moves)
                assert value != 0, (fen, ending, moves)  # no draw in armageddon
                assert result == _pyffish_result(sf, "armageddon", start, moves, value), (fen, ending, value)
    assert endings[Ending.MOVE_RULE] and endings[Ending.REPETITION] and endings[Ending.CHECKMATE], endings


def test_sittuyin_s_stalemate_as_pyffish_claims_it() -> None:
    # A king and a pawn left, no check, nothing to play but the pawn's promotions: a draw the
    # player may claim (at once, after a rook's move that makes it, or in an ending played out),
    # each game the pure path's, each move legal in pyffish and each such end pyffish's claim.
    sf = pytest.importorskip("pyffish")
    claimed = 0
    for fen in ("8/8/4p3/4P3/8/2k5/1r6/K7 w - - 0 40", "8/8/4p3/4P3/8/2k5/7r/K7 b - - 0 40",
                "k7/8/8/8/8/8/1rP5/K7 w - - 0 40", None):
        start = fen or sf.start_fen("sittuyin")
        for policy in ("uniform", "captures"):
            found = _both("sittuyin", fen=fen, games=4, seed=SEEDS[claimed % len(SEEDS)], policy=policy,
                          max_plies=300)
            assert found.moves is not None
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                moves = _replayed_in_pyffish(sf, "sittuyin", fen, plays)
                if ending is Ending.STALEMATE and sf.legal_moves("sittuyin", start, moves):
                    assert result == "1/2-1/2"
                    assert sf.is_optional_game_end("sittuyin", start, moves) == (True, 0), (fen, moves)
                    claimed += 1
    assert claimed >= 4, claimed


# Games of pseudo-royal pieces (extinctionPseudoRoyal): atomic's kings (explosions may take
# them), coregal's queens, shoshogi's drunk elephant and prince once it has promoted. The check
# that makes a position without a move a mate is the rule system's (``ggn_search_in_check``).
PSEUDO = ("atomic", "coregal", "shoshogi")


@pytest.mark.parametrize("name", PSEUDO)
def test_games_of_pseudo_royal_pieces_are_the_pure_games(name: str) -> None:
    seed = SEEDS[PSEUDO.index(name) % len(SEEDS)] * 7901 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 40, 300)


def test_pseudo_royal_mates_as_pyffish_ends_them() -> None:
    # Coregal's queens and atomic's kings in endings (a queen checked with its king safe, two
    # queens, kings beside each other): each game the pure path's, each move legal in pyffish,
    # and each mate or stalemate a position pyffish gives no move, with its result.
    sf = pytest.importorskip("pyffish")
    endings: Counter[Ending | None] = Counter()
    for game, fen in (("coregal", "4k3/8/8/3q4/8/8/1Q6/R3K3 w - - 0 1"),
                      ("coregal", "q3k3/8/8/8/8/8/8/Q2RK3 b - - 0 1"),
                      ("atomic", "8/8/8/3k4/3K4/8/8/6RQ w - - 0 1"),
                      ("atomic", "4k3/8/8/8/8/8/3r4/R3K3 w - - 0 1")):
        start = fen or sf.start_fen(game)
        for policy in ("uniform", "captures"):
            found = _both(game, fen=fen, games=4, seed=SEEDS[len(endings) % len(SEEDS)], policy=policy,
                          max_plies=300)
            assert found.moves is not None
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                endings[ending] += 1
                moves = _replayed_in_pyffish(sf, game, fen, plays)
                if ending not in (Ending.CHECKMATE, Ending.STALEMATE):
                    continue
                assert not sf.legal_moves(game, start, moves), (game, fen, moves)
                value = sf.game_result(game, start, moves)
                assert result == _pyffish_result(sf, game, start, moves, value), (game, fen, ending, moves)
                assert (ending is Ending.CHECKMATE) == bool(sf.gives_check(game, start, moves)), (game, moves)
    assert endings[Ending.CHECKMATE] >= 4, endings


# En passant squares Fairy-Stockfish finds from a piece's own initial moves (berolina's
# diagonal double steps, the sideways and backward pawns', wolf's sergeants, spartan's
# hoplites), whose files the key holds, and petrified's walls (its takers turned to stone).
INITIAL = ("berolina", "pawnsideways", "pawnback", "wolf", "spartan", "petrified")


@pytest.mark.parametrize("name", INITIAL)
def test_games_of_initial_moves_en_passant_are_the_pure_games(name: str) -> None:
    seed = SEEDS[INITIAL.index(name) % len(SEEDS)] * 7883 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 40, 300)


def test_repetitions_with_initial_moves_en_passant_are_pyffish_s() -> None:
    # Each game ended by a repetition is one pyffish lets the player claim there, and not a
    # ply earlier; every move legal in pyffish (en passant over a diagonal double step too).
    sf = pytest.importorskip("pyffish")
    repeated = 0
    for number, name in enumerate(("berolina", "pawnsideways", "pawnback", "wolf", "spartan")):
        start = sf.start_fen(name)
        for policy in ("uniform", "captures"):
            found = playout(name, games=6, seed=SEEDS[number] + len(policy), policy=policy, max_plies=400,
                            moves=True)
            assert found.engine == "native" and found.moves is not None
            for plays, ending in zip(found.moves, found.endings, strict=True):
                moves = _replayed_in_pyffish(sf, name, None, plays)
                if ending is not Ending.REPETITION:
                    continue
                repeated += 1
                assert sf.is_optional_game_end(name, start, moves)[0], (name, moves)
                assert not sf.is_optional_game_end(name, start, moves[:-1])[0], (name, moves)
    assert repeated >= 5, repeated


# Games that place walls (Fairy-Stockfish's wallingRule: arrows, the duck, a square left or
# any square), a play's wall made with it (its number the play's times the squares plus the
# wall's square).
WALLED = ("amazons", "duck", "isolation", "isolation7x7", "snailtrail", "joust")


@pytest.mark.parametrize("name", WALLED)
def test_games_of_walls_are_the_pure_games(name: str) -> None:
    seed = SEEDS[WALLED.index(name) % len(SEEDS)] * 7877 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 20, 300)


def test_games_of_walls_end_as_pyffish_ends_them() -> None:
    # Each move of the kernel's games legal in pyffish (its wall written as Fairy-Stockfish's
    # UCI writes it); a game with no legal move at its end a position where pyffish has none,
    # with its result; duck chess's king taken an immediate end in pyffish, and not a ply
    # earlier.
    sf = pytest.importorskip("pyffish")
    endings: Counter[Ending | None] = Counter()
    for number, name in enumerate(WALLED):
        start = sf.start_fen(name)
        for policy in ("uniform", "captures"):
            found = playout(name, games=2, seed=SEEDS[number] + len(policy), policy=policy, max_plies=300,
                            moves=True)
            assert found.engine == "native" and found.moves is not None
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                endings[ending] += 1
                moves = _replayed_in_pyffish(sf, name, None, plays)
                if ending is Ending.NO_LEGAL_MOVE:
                    assert not sf.legal_moves(name, start, moves), (name, moves)
                    value = sf.game_result(name, start, moves)
                elif ending is Ending.EXTINCTION:
                    ended, value = sf.is_immediate_game_end(name, start, moves)
                    assert ended and not sf.is_immediate_game_end(name, start, moves[:-1])[0], (name, moves)
                elif ending in (Ending.MOVE_RULE, Ending.REPETITION):  # a claim, as pyffish allows it
                    assert sf.is_optional_game_end(name, start, moves)[0], (name, ending, moves)
                    continue
                else:
                    assert ending is None and result == "*", (name, ending)
                    continue
                assert result == _pyffish_result(sf, name, start, moves, value), (name, ending, value, moves)
    assert endings[Ending.NO_LEGAL_MOVE] >= 10 and endings[Ending.EXTINCTION] >= 1, endings


# Janggi's passes and bikjang: two passes one after the other end the game, and so does a
# bikjang (the generals facing each other) answered by a pass, decided by material where the
# game counts it (janggi's weights), else drawn.
PASSING = ("janggi", "janggitraditional", "janggicasual")


@pytest.mark.parametrize("name", PASSING)
def test_games_of_passes_and_bikjang_are_the_pure_games(name: str) -> None:
    seed = SEEDS[PASSING.index(name) % len(SEEDS)] * 7873 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 30, 300)


def test_passes_and_bikjang_end_games_as_pyffish_ends_them() -> None:
    # Each move of the kernel's games legal in pyffish; a game ended by two passes or by a
    # bikjang an immediate end in pyffish there, and not a ply earlier, with pyffish's result;
    # each game the pure path's too.
    sf = pytest.importorskip("pyffish")
    endings: Counter[Ending | None] = Counter()
    for number, name in enumerate(PASSING):
        start = sf.start_fen(name)
        for fen in (None, "4k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1"):
            found = _both(name, fen=fen, games=6, seed=SEEDS[number] + len(endings), max_plies=300)
            assert found.moves is not None
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                endings[ending] += 1
                moves = _replayed_in_pyffish(sf, name, fen, plays)
                if ending not in (Ending.PASSES, Ending.BIKJANG):
                    continue
                first = fen or start
                ended, value = sf.is_immediate_game_end(name, first, moves)
                assert ended and not sf.is_immediate_game_end(name, first, moves[:-1])[0], (name, moves)
                assert result == _pyffish_result(sf, name, first, moves, value), (name, fen, ending, moves)
    assert endings[Ending.PASSES] >= 3 and endings[Ending.BIKJANG] >= 3, endings


# --- the repetition key ------------------------------------------------------------------------
def _kernel_key(game: Game, ply: int) -> int:
    """The repetition key the kernel's playouts give the position after ``ply`` plies of
    ``game`` (with its counters then)."""
    asked = _native._asked(game.rules, game.start)
    assert asked is not None
    kernel, made, _ = asked
    tables = _tables(game.rules, made, game.start)
    assert not isinstance(tables, str), tables
    encoded = _native._encode(made, game._positions[ply])
    counters = (*(game._left[ply] or (0, 0)), *game._counting[ply])
    key: int = kernel.playout_key(made.capsule, tables, encoded, counters)
    return key


def _same_partition(game: Game) -> int:
    """Assert that the kernel's keys of ``game``'s positions are equal exactly where Game's keys
    are; how many positions were found again."""
    kernel_of: dict[str, int] = {}
    game_of: dict[int, str] = {}
    again = 0
    for ply in range(len(game) + 1):
        theirs, mine = game._key(ply), _kernel_key(game, ply)
        again += theirs in kernel_of
        assert kernel_of.setdefault(theirs, mine) == mine, (ply, theirs)
        assert game_of.setdefault(mine, theirs) == theirs, (ply, theirs, game_of[mine])
    return again


def _pushed(game: Game, moves: str) -> None:
    rules = game.rules
    for uci in moves.split():
        position = game.position
        game._push(next(play for play in game.legal_moves() if write(rules, position, play, "uci") == uci))


KEYED = ("chess", "fischerandom", "crazyhouse", "shogi", "capablanca", "grand", "seirawan", "shouse",
         "3check", "makruk", "karouk", "sittuyin", "armageddon", "checkshogi", "minishogi",
         "atomic", "coregal", "shoshogi", "berolina", "wolf", "spartan", "petrified", "duck", "amazons")


@pytest.mark.parametrize("name", KEYED)
def test_the_playouts_repetition_key_is_game_s_key(name: str) -> None:
    # Positions of random games (and kings walked away and back, where a game has castling): the
    # kernel's key equal where Game's key is, and only there.
    rules = rule_system(name)
    chance = random.Random(SEEDS[KEYED.index(name) % len(SEEDS)] + len(name))
    for _ in range(3):
        game = Game(rules)
        for _ in range(chance.randrange(40, 120)):
            plays = game.legal_moves()
            if not plays or game.outcome() is not None:
                break
            game._push(chance.choice(plays))
        _same_partition(game)


def test_the_duck_s_square_is_in_the_key() -> None:
    # Duck chess: knights out and back, the duck put back where it stood: the positions again
    # (Game's key and the kernel's), and not once the duck stands elsewhere.
    back = "g1f3,f3e4 g8f6,f6e5 f3g1,g1e4 f6g8,g8e5"
    game = Game(rule_system("duck"))
    _pushed(game, f"{back} {back}")
    assert _same_partition(game) == 4
    assert _kernel_key(game, 4) == _kernel_key(game, 8) != _kernel_key(game, 0)
    moved = Game(rule_system("duck"))
    _pushed(moved, f"{back} g1f3,f3d4 g8f6,f6e5")  # the duck on d4, then on e5 again (ply 2's)
    assert _same_partition(moved) == 1
    assert _kernel_key(moved, 5) != _kernel_key(game, 5) and _kernel_key(moved, 6) == _kernel_key(game, 2)


@pytest.mark.parametrize("name", ["seirawan", "shouse"])
def test_games_of_gating_are_the_pure_games(name: str) -> None:
    seed = SEEDS[len(name) % len(SEEDS)] * 7901 + len(name)
    _both_from_the_start_and_a_random_game(name, seed, 30, 300)
    # a few pieces, with pieces to gate and the rights to gate them
    _both(name, fen="r3k2r/8/8/pppppppp/PPPPPPPP/8/8/R3K2R[Hh] w KQkq - 0 1", games=3, seed=seed + 2,
          max_plies=300)


def test_a_king_s_gating_right_is_no_castling_right_in_the_key() -> None:
    # Seirawan and s-house: a king and its rooks keep their marks as gating rights; once the
    # rooks have moved, the king walked away and back is the same position to Game (its key
    # holds the castling letters only), and to the kernel's playouts.
    for name in ("seirawan", "shouse"):
        game = Game(rule_system(name))
        _pushed(game, "h2h4 h7h5 h1h3 h8h6 a2a4 a7a5 a1a3 a8a6 e2e3 e7e6")
        before = len(game)
        _pushed(game, "e1e2 e8e7 e2e1 e7e8 h3h1 h6h8 h1h3 h8h6")
        assert game._key(before) == game._key(before + 4) == game._key(before + 8)
        assert _same_partition(game) >= 2
        assert playout(name, game.position, games=1, seed=1, max_plies=1).engine == "native"
    # and chess, where a king's mark is its castling rights: knights out and back (the start
    # again), then the kings walked away and back (their rights lost: new positions)
    game = Game(rule_system("chess"))
    _pushed(game, "g1f3 g8f6 f3g1 f6g8 e2e3 e7e6 e1e2 e8e7 e2e1 e7e8")
    assert _same_partition(game) == 1 and game._key(6) != game._key(10)


def test_a_diagonal_double_step_s_en_passant_files_are_in_the_key() -> None:
    # Berolina: a pawn's double step over the diagonal (b2-d4 over c3, g2-e4 over f3) with a
    # pawn that could take en passant, then knights out and back: the same placement again
    # without the en passant squares is a new position to Game (its key holds their files,
    # "cd" and "ef"), then found again; the kernel's keys likewise.
    for fen, step, files in (("rnbqkbnr/p1pppppp/8/8/1p6/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "b2d4", "cd"),
                             ("rnbqkbnr/pppp1ppp/8/8/5p2/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g2e4", "ef")):
        game = Game(rule_system("berolina"), fen=fen)
        _pushed(game, f"{step} g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1")
        assert game._key(1).split(" ")[3] == files and game._key(5).split(" ")[3] == "-"
        assert game._key(1) != game._key(5) == game._key(9)
        assert _same_partition(game) == 4
        assert playout("berolina", game.position, games=1, seed=1, max_plies=1).engine == "native"


def test_playout_tables_of_en_passant_ways_are_checked_value_by_value() -> None:
    # Berolina's playout tables after a diagonal double step: each value of the en passant
    # ways set out of range, to a square, or the tables cut there, is refused with the value
    # named or read within bounds (the sanitizers run this test); the tables whole give Game's key.
    game = Game(rule_system("berolina"), fen="rnbqkbnr/p1pppppp/8/8/1p6/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    _pushed(game, "b2d4")
    asked = _native._asked(game.rules, game.start)
    assert asked is not None
    kernel, made, _ = asked
    tables = _tables(game.rules, made, game.start)
    assert not isinstance(tables, str)
    encoded = _native._encode(made, game.position)
    whole = kernel.playout_key(made.capsule, tables, encoded, (0, 0, 0, 0))
    assert whole == _kernel_key(game, 1)
    kinds, moves = tables[2], tables[3]
    start = 21 + 12 * kinds + moves  # the en passant entries' count
    assert tables[start] >= 2, tables[start]
    refused = read = 0
    for at in range(start, len(tables)):
        for value in (-2, -1, 0, 27, 10**6, None):
            bad = array("i", tables[:at]) if value is None else array("i", tables)
            if value is not None:
                bad[at] = value
            try:
                key = kernel.playout_key(made.capsule, bad, encoded, (0, 0, 0, 0))
            except ValueError as error:
                assert "bad playout tables" in str(error), error
                refused += 1
            else:
                assert isinstance(key, int)
                read += 1
    assert refused > 1000 and read > 100, (refused, read)


def test_checks_counted_from_a_fen_the_same_both_ways() -> None:
    # Three-check from FENs whose players have given checks already (Fairy-Stockfish's field of
    # the checks left, and lichess's of the checks given), and one whose last mover has given
    # its last: over at once, won by that player.
    endings: Counter[Ending | None] = Counter()
    for fen in ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 1+2 3 3",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +2+1",
                "4k3/8/8/8/8/8/4P3/4K2R w K - 2+1 0 1"):
        for policy in ("uniform", "captures"):
            endings.update(_both("3check", fen=fen, games=4, seed=SEEDS[len(endings) % len(SEEDS)],
                                 policy=policy, max_plies=300).endings)
    won = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0+3 0 1"  # the first player gave its last
    over = _both("5check", fen=won, games=2, seed=SEEDS[0])
    assert over.results == ("1-0", "1-0") and over.lengths == (0, 0) and set(over.endings) == {Ending.CHECKS}
    assert endings[Ending.CHECKS] >= 8, endings


def test_the_kernel_s_chess_variant_games_in_python_chess() -> None:
    # King of the hill, racing kings, antichess, horde, three-check and atomic as python-chess plays
    # them (its chess.variant boards): every move legal, no end before the last ply, the result theirs.
    chess = pytest.importorskip("chess")
    variant = pytest.importorskip("chess.variant")
    boards = {"kingofthehill": variant.KingOfTheHillBoard, "racingkings": variant.RacingKingsBoard,
              "antichess": variant.AntichessBoard, "horde": variant.HordeBoard,
              "3check": variant.ThreeCheckBoard, "atomic": variant.AtomicBoard}
    seen: set[Ending | None] = set()
    for number, (name, board_type) in enumerate(boards.items()):
        rules = rule_system(name)
        for policy in ("uniform", "captures"):
            found = playout(name, games=10, seed=SEEDS[number] + len(policy), policy=policy, max_plies=500,
                            moves=True)
            assert found.engine == "native" and found.moves is not None
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                board = board_type()
                position = rules.position()
                for ply, play in enumerate(plays):
                    # python-chess ends antichess on insufficient material, Fairy-Stockfish does not
                    assert not board.is_variant_end(), (name, ply, board.fen())
                    assert board.outcome() is None or board.is_insufficient_material(), (name, ply)
                    move = write(rules, position, play, "uci")
                    assert chess.Move.from_uci(move) in board.legal_moves, (name, ply, move, board.fen())
                    board.push_uci(move)
                    position = position.apply(play.transition)
                seen.add(ending)
                outcome = board.outcome(claim_draw=True)
                if ending is None:
                    assert result == "*" and len(plays) == found.max_plies
                elif outcome is not None and outcome.termination == chess.Termination.INSUFFICIENT_MATERIAL:
                    assert result == "1/2-1/2", (name, ending, board.fen())
                else:
                    assert outcome is not None and outcome.result() == result, \
                        (name, ending, result, board.fen())
                if ending in (Ending.FLAG, Ending.EXTINCTION, Ending.CHECKMATE, Ending.CHECKS):
                    assert board.is_variant_end() or board.is_checkmate(), (name, ending, board.fen())
    assert {Ending.FLAG, Ending.EXTINCTION, Ending.CHECKS} <= seen, seen


def test_the_games_do_not_depend_on_how_many_are_played() -> None:
    found = playout("chess", games=7, seed=SEEDS[5], max_plies=90)
    assert found.engine == "native"
    assert playout("chess", games=3, seed=SEEDS[5], max_plies=90).results == found.results[:3]


# --- the kernel's games in the oracles -----------------------------------------------------------
def test_the_kernel_s_chess_games_in_python_chess() -> None:
    chess = pytest.importorskip("chess")
    rules = rule_system("chess")
    seen: set[Ending | None] = set()
    for number, fen in enumerate((None, "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1", "8/8/8/8/8/2k5/1p6/1K6 w - - 0 1",
                                  "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1")):
        for policy in ("uniform", "captures"):
            found = playout("chess", fen=fen, games=10, seed=SEEDS[number] + 1, policy=policy, max_plies=600,
                            moves=True)
            assert found.engine == "native" and found.moves is not None
            start = Game("chess", fen=fen).start if fen else rules.position()
            for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
                board = chess.Board(fen) if fen else chess.Board()
                position = start
                for ply, play in enumerate(plays):
                    assert board.outcome() is None or board.is_insufficient_material(), (ply, board.fen())
                    assert board.halfmove_clock < 100 and not board.is_repetition(3), (ply, board.fen())
                    move = write(rules, position, play, "uci")
                    assert chess.Move.from_uci(move) in board.legal_moves, (ply, move, board.fen())
                    board.push_uci(move)
                    position = position.apply(play.transition)
                seen.add(ending)
                if ending is Ending.CHECKMATE:
                    assert board.is_checkmate() and result == ("0-1" if board.turn == chess.WHITE else "1-0")
                elif ending is Ending.STALEMATE:
                    assert board.is_stalemate() and result == "1/2-1/2"
                elif ending is Ending.MOVE_RULE:
                    assert board.is_fifty_moves() and not board.is_checkmate() and result == "1/2-1/2"
                elif ending is Ending.REPETITION:
                    assert board.is_repetition(3) and result == "1/2-1/2"
                else:
                    assert ending is None and result == "*" and len(plays) == found.max_plies
    assert {Ending.CHECKMATE, Ending.MOVE_RULE, Ending.REPETITION} <= seen, seen


def test_the_kernel_s_shogi_games_in_python_shogi() -> None:
    shogi = pytest.importorskip("shogi")
    rules = rule_system("shogi")
    ended = 0
    for number, feen in enumerate((None, "4k^4/9/9/9/9/9/9/9/4K^4 R/r S/s")):
        start = rules.position(feen) if feen else rules.position()
        sfen = None if feen is None else "4k4/9/9/9/9/9/9/9/4K4 b Rr 1"
        found = playout("shogi", start, games=4, seed=SEEDS[number + 2], policy="captures", max_plies=300,
                        moves=True)
        assert found.engine == "native" and found.moves is not None
        for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
            board = shogi.Board(sfen) if sfen else shogi.Board()
            position = start
            for ply, play in enumerate(plays):
                assert not board.is_game_over(), (ply, board.sfen())
                move = write(rules, position, play, "usi")
                assert shogi.Move.from_usi(move) in board.legal_moves, (ply, move, board.sfen())
                board.push_usi(move)
                position = position.apply(play.transition)
            if ending is Ending.CHECKMATE:
                assert board.is_checkmate() and result == ("0-1" if board.turn == shogi.BLACK else "1-0")
                ended += 1
            elif ending is Ending.NO_LEGAL_MOVE:
                assert board.is_game_over() and not board.is_check()
                ended += 1
            elif ending in (Ending.REPETITION, Ending.PERPETUAL_CHECK):
                assert board.is_fourfold_repetition()
                ended += 1
            else:
                assert ending is None and result == "*" and len(plays) == found.max_plies
    assert ended
