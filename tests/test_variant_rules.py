"""The generic rule system (ggn.rules.variant) against Fairy-Stockfish (pyffish), the oracle.

The variants are Fairy-Stockfish's built-ins written by hand as descriptions
(tests/variant_records.py). For each, along seeded random games that prefer promotions, drops
and captures, and on positions chosen for one rule each (castling through check, en passant
uncovering a check, promotion limits, forced promotion, the pawn-drop mate, facing generals,
the flag, the bare king, ...):

- the legal moves, as Fairy-Stockfish's UCI strings, are pyffish's as a set (pyffish also lists
  a pawn dropped to mate, which the description's ``pawn_drop_mate_illegal`` refuses: Fairy-
  Stockfish lets it be played and scores it as a loss for the player who dropped it);
- the position after each move, written as Fairy-Stockfish's FEN, is pyffish's (placement and
  hands, side to move, castling rights, the en passant square);
- the game ends where pyffish's does, with the same winner;
- perft from the start is the count of pyffish's legal moves (depth 2; 3 under ``-m full``).

CI plays one short game a variant; ``pytest -m full`` plays many long ones.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from ggn.rules import Ending, Outcome, perft
from ggn.rules.variant import VariantRules
from ggn.variants import uci
from ggn.variants.fen import from_feen, to_feen
from variant_records import PYFFISH_CONFIG, RECORDS

pytest.importorskip("pyffish")
import pyffish

pyffish.load_variant_config(PYFFISH_CONFIG)

SEED = 20261125
NAMES = sorted(RECORDS)


@cache
def rules_of(name: str) -> VariantRules:
    return VariantRules(RECORDS[name])


def _fields(fen: str, name: str) -> list[str]:
    """The fields of a FEN that a position holds: placement with hands, side to move and, for
    the chess-like games, castling and the en passant square (not Fairy-Stockfish's counting
    fields, which makruk writes in the en passant's place)."""
    parts = fen.split()
    if len(parts) < 4 or parts[2][0].isdigit():
        return parts[:2]
    return parts[:4] if name not in ("makruk", "shatranj") else parts[:3]


def _drop_mates(name: str, fen: str, moves: set[str]) -> set[str]:
    """The drops among ``moves`` that leave the other player no legal move (pyffish lists a
    pawn dropped to mate; the rule system refuses it)."""
    return {move for move in moves if "@" in move and not _legal(name, fen, [move])}


def _legal(name: str, fen: str, moves: list[str]) -> list[str]:
    # pyffish reads and writes chess960 castling (the king onto its rook) when told to.
    return list(pyffish.legal_moves(name, fen, moves, RECORDS[name].chess960))


def _after(name: str, fen: str, move: str) -> str:
    return str(pyffish.get_fen(name, fen, [move], RECORDS[name].chess960))


def _pyffish_outcome(name: str, fen: str) -> tuple[bool, int]:
    """Whether the game of ``fen`` is over for pyffish, and its result for the player to move."""
    chess960 = RECORDS[name].chess960
    ended, value = pyffish.is_immediate_game_end(name, fen, [], chess960)
    if ended:
        return True, value
    if not _legal(name, fen, []):
        return True, pyffish.game_result(name, fen, [], chess960)
    return False, 0


def compare(name: str, fen: str, seen: Counter[str], every: int = 1) -> dict[str, str]:
    """Check one position against pyffish; return our plays' UCI strings. The position after a
    move is compared for every promotion and drop, and for one other move in ``every``."""
    variant, rules = RECORDS[name], rules_of(name)
    position = rules.position(to_feen(variant, fen))
    theirs = set(_legal(name, fen, []))
    ours = uci.moves(rules, position, variant=variant)
    refused = theirs - set(ours)
    if variant.drops is not None and variant.drops.pawn_drop_mate_illegal:
        mates = _drop_mates(name, fen, refused)
        seen["drop mate refused"] += len(mates)
        refused -= mates
    assert not refused and not set(ours) - theirs, (
        f"{name} {fen}: we lack {sorted(refused)}, we add {sorted(set(ours) - theirs)}")
    ended, value = _pyffish_outcome(name, fen)
    outcome = rules.outcome(position)
    if ended:
        seen["ended"] += 1
        assert outcome is not None, f"{name} {fen}: pyffish ends the game ({value})"
        expected = None if value == 0 else position.active if value > 0 else position.inactive
        assert outcome.winner == expected, f"{name} {fen}: {outcome}, pyffish {value}"
    else:
        assert outcome is None, f"{name} {fen}: {outcome}, pyffish plays on"
    for number, (move, play) in enumerate(ours.items()):
        if number % every and play.choice is None and "@" not in move:
            continue
        after = from_feen(variant, position.apply(play.transition))
        wanted = _after(name, fen, move)
        assert _fields(after, name) == _fields(wanted, name), f"{name} {fen} {move}: {after} != {wanted}"
        seen["move"] += 1
        seen["promotion" if play.choice is not None else "drop" if "@" in move else "other"] += 1
    seen["position"] += 1
    return dict.fromkeys(ours, "")


def _lively(moves: list[str], fen: str, rng: random.Random) -> str:
    """A move of a random game: a promotion or a drop six times in ten when there is one, else
    any move."""
    lively = [move for move in moves if "@" in move or move[-1] in "+-" or move[-1].isalpha()]
    return rng.choice(lively if lively and rng.random() < 0.6 else moves)


def play_games(name: str, games: int, plies: int, seed: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    rng = random.Random(f"{seed}:{name}")
    for _ in range(games):
        fen = pyffish.start_fen(name)
        for _ in range(plies):
            legal = sorted(compare(name, fen, seen, 5))
            if not legal:
                break
            fen = _after(name, fen, _lively(legal, fen, rng))
    return seen


# Fairy-Stockfish's variants that CI plays a short game of; ``-m full`` plays all of them.
CI_NAMES = ("chess", "capablanca", "crazyhouse", "shogi", "minishogi", "xiangqi", "makruk", "kingofthehill",
            "shatranj", "grand", "torishogi", "racingkings", "horde", "ggn-capture-promotion")


@pytest.mark.parametrize("name", CI_NAMES)
def test_random_games_agree_with_pyffish(name: str) -> None:
    seen = play_games(name, 1, 10, SEED)
    assert seen["position"] >= 8 and seen["move"] >= 20, seen


@pytest.mark.full
@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_pyffish_full(name: str) -> None:
    seen = play_games(name, 4, 100, SEED + 1)
    assert seen["position"] >= 100, seen


def _chess960_start(rng: random.Random) -> str:
    """A Fischer random start: bishops on squares of both colours, the king between the rooks."""
    row: list[str | None] = [None] * 8
    row[rng.choice((0, 2, 4, 6))], row[rng.choice((1, 3, 5, 7))] = "b", "b"
    for letter in "qnn":
        row[rng.choice([file for file in range(8) if row[file] is None])] = letter
    free = [file for file in range(8) if row[file] is None]
    for file, letter in zip(free, "rkr", strict=True):
        row[file] = letter
    back = "".join(letter or "" for letter in row)
    return f"{back}/pppppppp/8/8/8/8/PPPPPPPP/{back.upper()} w KQkq - 0 1"


@pytest.mark.parametrize("games", [pytest.param(3, id="ci"),
                                   pytest.param(30, id="full", marks=pytest.mark.full)])
def test_chess960_agrees_with_pyffish(games: int) -> None:
    """Castling from Fischer random starts (the king onto its rook in UCI; the king staying, or
    going where its rook stood), castlings preferred when there are some."""
    rng = random.Random(SEED)
    seen: Counter[str] = Counter()
    rules = rules_of("fischerandom")
    for _ in range(games):
        fen = _chess960_start(rng)
        for _ in range(40):
            legal = compare("fischerandom", fen, seen, 8)
            if not legal:
                break
            position = rules.position(to_feen(RECORDS["fischerandom"], fen))
            # In chess960 a castling is written as the king's move onto its own rook.
            castlings = [move for move in legal if (taken := position.piece_at(move[2:4])) is not None
                         and taken.side == position.active]
            seen["castling"] += len(castlings)
            move = rng.choice(castlings if castlings and rng.random() < 0.7 else sorted(legal))
            fen = _after("fischerandom", fen, move)
    assert seen["castling"] >= games, seen


# --- one rule a position ---------------------------------------------------------------------
POSITIONS = [
    # Castling: not through f1 (the rook on f2 attacks it), queenside allowed; black too.
    ("chess", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"),
    ("chess", "r3k2r/8/8/8/8/8/5R2/R3K2R b KQkq - 0 1"),
    # En passant that would uncover a check along the rank; en passant that is legal.
    ("chess", "8/8/8/KPp4r/8/8/8/7k w - c6 0 1"),
    ("chess", "8/8/8/1Pp5/8/8/8/K6k w - c6 0 1"),
    # Promotions, by a capture onto a rook keeping its right.
    ("chess", "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1"),
    ("capablanca", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("capablanca", "r4k3r/10/10/10/10/10/10/R4K3R b KQkq - 0 1"),
    # Grand: the queen, archbishop and chancellor are on the board, so a pawn promotes to a rook,
    # bishop or knight only; on the ninth rank it may stay, on the tenth it must promote.
    ("grand", "4k5/P9/1P8/10/10/10/10/10/10/QAC1K5 w - - 0 1"),
    ("grand", "4k5/PR8/1P8/10/10/10/10/10/10/QACRKRNNBB w - - 0 1"),
    # Crazyhouse: a promoted queen taken goes to hand as a pawn; drops onto the first rank are
    # no pawn drops.
    ("crazyhouse", "4k3/8/8/8/8/8/r7/Q~3K3[PNq] b - - 0 1"),
    ("chessgi", "4k3/8/8/8/8/8/r7/Q~3K3[PNq] w - - 0 1"),
    # Shogi: a knight and a pawn must promote on the last ranks; the pawn dropped to mate.
    ("shogi", "4k4/2P6/9/N8/9/9/9/9/4K4[] w - - 0 1"),
    ("shogi", "kn7/9/1G7/9/9/9/9/9/4K4[P] w - - 0 1"),
    ("minishogi", "kp3/5/1G3/5/4K[P] w - - 0 1"),
    # Tori shogi: a third swallow may not be dropped on a file that holds two.
    ("torishogi", "3k3/7/7/4S2/7/4S2/3K3[Ss] w 0 1"),
    ("torishogi", "3k3/7/7/7/7/4S2/3K3[Ss] w 0 1"),
    # Xiangqi: the generals may not face each other.
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("minixiangqi", "3k3/7/7/7/7/7/2K4 w - - 0 1"),
    # King of the hill: a king on the hill ends the game.
    ("kingofthehill", "8/8/8/8/8/4K3/8/k7 w - - 0 1"),
    ("kingofthehill", "8/8/8/3K4/8/8/8/k7 b - - 0 1"),
    # Racing kings: no move may check; the second player may still draw by reaching the last rank.
    ("racingkings", "8/1K5k/8/8/8/8/8/8 w - - 0 1"),
    ("racingkings", "1K6/7k/8/8/8/8/8/8 b - - 0 1"),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"),
    ("racingkings", "1K6/8/8/8/8/8/7k/8 b - - 0 1"),
    # Shatranj: a bare king may bare the other king back at once; stalemate loses.
    ("shatranj", "8/8/8/4k3/8/8/8/4K2R b - - 0 1"),
    ("shatranj", "8/8/8/8/8/8/5q2/4K1k1 w - - 0 1"),
    ("shatranj", "k7/2K5/1Q6/8/8/8/8/8 b - - 0 1"),
    # Extinction and three kings: the game ends when a piece type is gone.
    ("extinction", "4k3/8/8/8/8/8/8/4K2Q w - - 0 1"),
    ("threekings", "k6k/8/8/8/8/8/8/K5KK b - - 0 1"),
    # Pocket knight: a dropped knight; a captured piece leaves the game.
    ("pocketknight", "4k3/8/8/8/8/8/r7/R3K3[Nn] w - - 0 1"),
    # Horde: no en passant onto the second rank.
    ("horde", "4k3/8/8/8/8/8/P7/P7 w - - 0 1"),
    ("horde", "4k3/8/8/8/8/8/8/8 w - - 0 1"),
]


def test_positions_of_one_rule_agree_with_pyffish() -> None:
    seen: Counter[str] = Counter()
    for name, fen in POSITIONS:
        if name in CI_NAMES:
            compare(name, fen, seen)
    assert seen["drop mate refused"] >= 2 and seen["ended"] >= 4 and seen["promotion"] >= 12, seen


@pytest.mark.full
def test_positions_of_one_rule_agree_with_pyffish_full() -> None:
    seen: Counter[str] = Counter()
    for name, fen in POSITIONS:
        compare(name, fen, seen)
    assert seen["drop mate refused"] >= 2 and seen["ended"] >= 6 and seen["promotion"] >= 12, seen


# --- perft from the start ------------------------------------------------------------------------
def pyffish_perft(name: str, fen: str, depth: int) -> int:
    """Perft by pyffish's legal moves (a pawn dropped to mate left out, as the rule system does)."""
    moves = pyffish.legal_moves(name, fen, [])
    if depth == 1:
        return len(moves) - len(_drop_mates(name, fen, set(moves))) if RECORDS[name].drops else len(moves)
    total = 0
    for move in moves:
        after = pyffish.get_fen(name, fen, [move])
        if RECORDS[name].drops and "@" in move and not pyffish.legal_moves(name, after, []):
            continue
        total += pyffish_perft(name, after, depth - 1)
    return total


@pytest.mark.parametrize("name", ["chess", "crazyhouse", "shogi", "xiangqi", "grand"])
def test_perft_two_from_the_start(name: str) -> None:
    assert perft(rules_of(name), 2) == pyffish_perft(name, pyffish.start_fen(name), 2)


@pytest.mark.full
@pytest.mark.parametrize("name", NAMES)
def test_perft_three_from_the_start(name: str) -> None:
    assert perft(rules_of(name), 3) == pyffish_perft(name, pyffish.start_fen(name), 3)


# --- what the rule system says by itself ---------------------------------------------------------
def test_plays_outcomes_and_errors() -> None:
    chess = rules_of("chess")
    start = chess.position()
    assert start.to_feen() == "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
    assert chess.variant is RECORDS["chess"] and repr(chess) == "<VariantRules of chess>"
    castled = chess.play(chess.position(to_feen(RECORDS["chess"], "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")),
                         "C:+K^ e1-g1")
    assert castled.to_feen() == "4k^3/8/8/8/8/8/8/R4RK^1 / c/C"
    shogi = rules_of("shogi")
    mate = shogi.position(to_feen(RECORDS["shogi"], "kn7/9/1G7/9/9/9/9/9/4K4[P] w - - 0 1"))
    assert "S:P *-a8" not in {str(play) for play in shogi.legal_moves(mate)}
    shatranj = rules_of("shatranj")
    bare = shatranj.position(to_feen(RECORDS["shatranj"], "8/8/8/4k3/8/8/8/4K2R w - - 0 1"))
    assert shatranj.outcome(bare) == Outcome("first", Ending.BARE_KING) and shatranj.legal_moves(bare) == []
    hill = rules_of("kingofthehill")
    top = hill.position(to_feen(RECORDS["kingofthehill"], "8/8/8/3K4/8/8/8/k7 b - - 0 1"))
    assert str(hill.outcome(top)) == "first player wins by reaching the goal"
    with pytest.raises(TypeError, match="variant"):
        VariantRules("chess")  # type: ignore[arg-type]
