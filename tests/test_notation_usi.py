"""USI moves and SFEN (ggn.notation.usi) against readers and writers no one here wrote.

- Shogi: along seeded random games, the legal moves of every position, as USI strings, equal
  python-shogi's (``board.legal_moves``) and cshogi's; the SFEN of every position equals
  both libraries' ``sfen()``; python-shogi's SFEN read back gives the same position and move
  number, and the move played, as the libraries write it, is read back to ggn's play.
- The shogi family (every built-in game with shogi-style promotions or drops and no castling or
  en passant): along seeded random games, the legal moves equal pyffish's, renamed to USI's
  squares by Fairy-Stockfish's own rule (``UCI::square`` in its ``uci.cpp``, written out again
  here), and the SFEN equals pyffish's ``get_fen(..., sfen=True)`` (the pieces in hand compared
  as counts: Fairy-Stockfish writes them in its own order, shogi's programs in shogi's).
- Debian's ``fairy-stockfish`` speaking USI, for the shogi-family games it has built in: its
  ``go perft 1`` lists exactly ggn's USI strings, and its ``d`` shows ggn's SFEN.

Fairy-Stockfish lists a pawn drop that mates where such a mate is illegal, and scores it a win
for the mated side; ggn, python-shogi and cshogi do not list it (see tests/test_variants_fsf.py):
such drops are taken out of Fairy-Stockfish's lists (recognised by pyffish's ``game_result``).

By default a few games of each kind run; ``pytest -m full`` plays longer and more of them.
"""

from __future__ import annotations

import os
import random
import re
import select
import shutil
import subprocess
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from ggn.errors import GGNError, IllegalMoveError, NotationError
from ggn.notation import usi
from ggn.position import Position
from ggn.rules import Play, RuleSystem
from ggn.variants import registry
from ggn.variants.fen import from_feen, to_feen

pytestmark = pytest.mark.slow  # not in the README's quick run: random games against three oracles

shogi = pytest.importorskip("shogi")
cshogi = pytest.importorskip("cshogi")
sf = pytest.importorskip("pyffish")

SEED = 1_717_2026
FAMILY = ("shogi", "minishogi", "mini", "gorogoro", "judkins", "torishogi", "euroshogi", "shoshogi",
          "yarishogi", "okisakishogi")
NATIVE = ("shogi", "minishogi", "mini", "gorogoro", "judkins", "euroshogi")  # built into Debian's 11.1
FSF = shutil.which("fairy-stockfish") or next(
    (str(path) for path in (Path("/usr/games/fairy-stockfish"),) if path.exists()), None)
CAPTURES = 0.6  # the chance a random game takes when it can (hands fill, pieces promote)


@dataclass
class Ply:
    number: int
    position: Position
    legal: Mapping[str, Play]
    move: str | None
    """The move played from here (None where the game stops)."""


def _random_game(rules: RuleSystem, seed: int, plies: int) -> Iterator[Ply]:
    """The plies of a random game, captures preferred; it stops where the game ends."""
    rng = random.Random(seed)
    position = rules.position()
    for number in range(plies):
        legal = usi.moves(rules, position)
        if not legal or rules.outcome(position) is not None or number == plies - 1:
            yield Ply(number, position, legal, None)
            return
        captures = [text for text, play in legal.items()
                    if "*" not in text and position.piece_at(play.destination) is not None]  # type: ignore[arg-type]
        move = rng.choice(sorted(captures) if captures and rng.random() < CAPTURES else sorted(legal))
        yield Ply(number, position, legal, move)
        position = rules.play(position, legal[move])


# --- python-shogi and cshogi ----------------------------------------------------------------------
def _against_shogi_libraries(games: int, plies: int) -> int:
    rules = registry.rules("shogi")
    checked = 0
    for game in range(games):
        board, fast = shogi.Board(), cshogi.Board()
        for ply in _random_game(rules, SEED + game, plies):
            where = f"game {game}, ply {ply.number}, {board.sfen()}"
            theirs = {move.usi() for move in board.legal_moves}
            mine = set(ply.legal)
            assert mine == theirs, f"{where}: ggn alone {mine - theirs}, python-shogi alone {theirs - mine}"
            assert {cshogi.move_to_usi(move) for move in fast.legal_moves} == theirs, where
            assert usi.to_sfen(rules, ply.position, ply.number + 1) == board.sfen() == fast.sfen(), where
            assert usi.from_sfen(rules, fast.sfen()) == (ply.position, ply.number + 1), where
            if ply.move is not None:
                written = shogi.Move.from_usi(ply.move).usi()
                assert usi.parse(rules, ply.position, written) == ply.legal[ply.move], where
                assert usi.write(rules, ply.position, ply.legal[ply.move]) == written, where
                board.push_usi(ply.move)
                fast.push_usi(ply.move)
            checked += 1
    return checked


def test_shogi_against_python_shogi_and_cshogi() -> None:
    assert _against_shogi_libraries(2, 100) > 100


@pytest.mark.full
def test_shogi_against_python_shogi_and_cshogi_long() -> None:
    assert _against_shogi_libraries(12, 400) > 1000


# --- pyffish ---------------------------------------------------------------------------------------
_UCI = re.compile(r"(\+?[A-Z])@([a-z])([0-9]+)|([a-z])([0-9]+)([a-z])([0-9]+)(.*)")


def _fsf_usi_square(files: int, ranks: int, file: str, rank: str) -> str:
    """Fairy-Stockfish's USI name of a square (its UCI::square for USI, with file numbers of two
    digits written as numbers: see docs/DECISIONS.md)."""
    return f"{files - (ord(file) - ord('a'))}{chr(ord('a') + ranks - int(rank))}"


def _fsf_usi(files: int, ranks: int, move: str) -> str:
    match = _UCI.fullmatch(move)
    assert match is not None, move
    if match[1]:
        return f"{match[1]}*{_fsf_usi_square(files, ranks, match[2], match[3])}"
    source = _fsf_usi_square(files, ranks, match[4], match[5])
    return source + _fsf_usi_square(files, ranks, match[6], match[7]) + match[8]


def _hands(sfen: str) -> tuple[str, str, Counter[str], str]:
    placement, side, hands, number = sfen.split(" ")
    counts: Counter[str] = Counter()
    for count, letter in re.findall(r"([0-9]*)([A-Za-z])", hands):
        counts[letter] += int(count or 1)
    return placement, side, counts, number


def _drop_mates(name: str, fen: str, moves: set[str]) -> set[str]:
    """The pawn drops that mate, which Fairy-Stockfish lists where they are illegal (scored a
    win for the mated side)."""
    drops = registry.variant(name).drops
    if drops is None or not drops.pawn_drop_mate_illegal:
        return set()
    return {move for move in moves if "@" in move and not sf.legal_moves(name, fen, [move])
            and sf.game_result(name, fen, [move]) > 0}


def _against_pyffish(name: str, games: int, plies: int) -> int:
    rules = registry.rules(name)
    variant = rules.variant  # type: ignore[attr-defined]
    files, ranks = variant.files, variant.ranks
    checked = 0
    for game in range(games):
        for ply in _random_game(rules, SEED + 100 * game + FAMILY.index(name), plies):
            fen = from_feen(variant, ply.position, fullmove=ply.number // 2 + 1)
            where = f"{name} game {game}, ply {ply.number}, {fen}"
            legal = set(sf.legal_moves(name, fen, []))
            theirs = {_fsf_usi(files, ranks, move) for move in legal}
            mine = set(ply.legal)
            if mine != theirs:
                theirs -= {_fsf_usi(files, ranks, move) for move in _drop_mates(name, fen, legal)}
            assert mine == theirs, f"{where}: ggn alone {mine - theirs}, pyffish alone {theirs - mine}"
            sfen = sf.get_fen(name, fen, [], False, True)
            mine_sfen = usi.to_sfen(rules, ply.position, ply.number + 1)
            assert _hands(mine_sfen) == _hands(sfen), f"{where}: {mine_sfen!r} against pyffish's {sfen!r}"
            back, number = usi.from_sfen(rules, sfen)
            # (A game without drops keeps the pieces taken in the hands of its positions, where
            # neither FEN nor SFEN writes them: the positions are compared as FEN.)
            assert from_feen(variant, back) == from_feen(variant, ply.position), where
            assert number == ply.number + 1, where
            checked += 1
    return checked


@pytest.mark.parametrize("name", FAMILY)
def test_the_shogi_family_against_pyffish(name: str) -> None:
    assert _against_pyffish(name, 1, 30 if name == "okisakishogi" else 50) > 5


@pytest.mark.full
@pytest.mark.parametrize("name", FAMILY)
def test_the_shogi_family_against_pyffish_long(name: str) -> None:
    assert _against_pyffish(name, 6, 200) > 50


# --- Fairy-Stockfish speaking USI ----------------------------------------------------------------
class _Engine:
    """Debian's fairy-stockfish in USI mode, each answer read before the next question (its
    ``go perft`` runs on a thread of its own), every read bounded by a deadline."""

    def __init__(self, name: str) -> None:
        assert FSF is not None
        self.process = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.pending = b""
        self.ask("usi", "usiok")
        self.ask(f"setoption name UCI_Variant value {name}\nisready", "readyok")

    def ask(self, command: str, last: str) -> list[str]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(command.encode() + b"\n")
        stdin.flush()
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while True:
            while b"\n" not in self.pending:
                ready, _, _ = select.select([stdout], [], [], max(deadline - time.monotonic(), 0))
                if not ready:
                    raise TimeoutError(f"fairy-stockfish did not answer {command!r} within 60 s")
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError(f"fairy-stockfish stopped on {command!r}")
                self.pending += chunk
            line, _, self.pending = self.pending.partition(b"\n")
            lines.append(line.decode())
            if lines[-1].startswith(last):
                return lines

    def position(self, moves: list[str]) -> tuple[str, set[str]]:
        """Its SFEN (``d``) and legal moves (``go perft 1``) after ``moves`` from the start."""
        shown = self.ask("position startpos" + (" moves " + " ".join(moves) if moves else "") + "\nd",
                         "Checkers:")
        sfen = next(line[6:] for line in shown if line.startswith("Sfen: "))
        listed = self.ask("go perft 1", "Nodes searched")
        return sfen, {line.split(":")[0] for line in listed if re.fullmatch(r"\S+: 1", line)}

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


def _against_engine(name: str, games: int, plies: int) -> int:
    rules = registry.rules(name)
    seeds = [SEED + 1000 * game + NATIVE.index(name) for game in range(games)]
    played = [list(_random_game(rules, seed, plies)) for seed in seeds]
    engine = _Engine(name)
    try:
        return _check_engine(name, rules, played, engine)
    finally:
        engine.close()


def _check_engine(name: str, rules: RuleSystem, played: list[list[Ply]], engine: _Engine) -> int:
    checked = 0
    for game, plies_of in enumerate(played):
        for ply in plies_of:
            sfen, theirs = engine.position([earlier.move for earlier in plies_of[: ply.number]])  # type: ignore[misc]
            where = f"{name} game {game}, ply {ply.number}, {sfen}"
            mine = set(ply.legal)
            if mine != theirs:
                fen = from_feen(rules.variant, ply.position)  # type: ignore[attr-defined]
                mates = _drop_mates(name, fen, set(sf.legal_moves(name, fen, [])))
                variant = rules.variant  # type: ignore[attr-defined]
                theirs -= {_fsf_usi(variant.files, variant.ranks, move) for move in mates}
            assert mine == theirs, f"{where}: ggn alone {mine - theirs}, the engine alone {theirs - mine}"
            assert _hands(usi.to_sfen(rules, ply.position, ply.number + 1)) == _hands(sfen), where
            checked += 1
    return checked


@pytest.mark.skipif(FSF is None, reason="Debian's fairy-stockfish is not installed")
@pytest.mark.parametrize("name", NATIVE)
def test_the_shogi_family_against_fairy_stockfish_speaking_usi(name: str) -> None:
    assert _against_engine(name, 1, 50) > 5


@pytest.mark.full
@pytest.mark.skipif(FSF is None, reason="Debian's fairy-stockfish is not installed")
@pytest.mark.parametrize("name", NATIVE)
def test_the_shogi_family_against_fairy_stockfish_speaking_usi_long(name: str) -> None:
    assert _against_engine(name, 4, 200) > 50


# --- the notation itself ----------------------------------------------------------------------------
RULES = registry.rules("shogi")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def test_moves_as_usi_writes_them() -> None:
    position = RULES.position()
    assert usi.write(RULES, position, usi.parse(RULES, position, "7g7f")) == "7g7f"
    # A promotion, a declined one, a drop.
    sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    position, _ = usi.from_sfen(RULES, sfen)
    assert {"8h2b+", "8h2b"} <= set(usi.moves(RULES, position))
    assert str(usi.parse(RULES, position, "8h2b+")).endswith("=S:+B")
    assert usi.parse(RULES, position, "8h2b=") == usi.parse(RULES, position, "8h2b")
    position, _ = usi.from_sfen(RULES, "4k4/9/9/9/9/9/9/9/4K4 b P 1")
    assert str(usi.parse(RULES, position, "P*5e")) == "S:P *-e5"


def test_an_illegal_move_names_it_and_the_candidates() -> None:
    position = RULES.position()
    with pytest.raises(IllegalMoveError, match=r"^'7g7e' is not a legal USI move of shogi in "
                                               r"'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL "
                                               r"b - 1'; legal moves: 7g7f, 1g1f, "):
        usi.parse(RULES, position, "7g7e")
    with pytest.raises(IllegalMoveError, match=r"^'x{40}'\.\.\. \(10,000 characters\) is not"):
        usi.parse(RULES, position, "x" * 10_000)


def test_sfen_round_trips_and_fields() -> None:
    position, number = usi.from_sfen(RULES, START)
    assert position == RULES.position() and number == 1
    assert usi.to_sfen(RULES, position) == START
    assert usi.from_sfen(RULES, START.rsplit(" ", 1)[0]) == (position, 1)  # the move number left out
    sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL w Bb 12"
    assert usi.to_sfen(RULES, *usi.from_sfen(RULES, sfen)) == sfen
    # Shogi's order of the pieces in hand, whatever order they were read in.
    assert usi.to_sfen(RULES, usi.from_sfen(RULES, "4k4/9/9/9/9/9/9/9/4K4 b P2LRb2p 9")[0], 9) == \
        "4k4/9/9/9/9/9/9/9/4K4 b R2LPb2p 9"


@pytest.mark.parametrize(("sfen", "message"), [
    ("", "expected the placement, the side to move"),
    (START.replace(" b ", " x "), r"the side to move is 'b' \(the first player, sente\) or 'w'"),
    (START.replace(" - ", " 2 "), "expected a piece letter"),
    (START.replace(" - ", " 99P "), "99 pieces in hand: more than the 81 squares of shogi's board"),
    (START.replace(" - ", " " + "P" * 100 + " "), "82 pieces in hand"),
    (START.replace(" - ", " Z "), "'Z' is not a piece letter of shogi"),
    (START[:-1] + "0", "the move number is a positive number"),
    (START + " 5", "unexpected field after the move number"),
    (START.replace("9/9/9", "9/9/8"), "rank f '8' covers 8 squares, not 9"),
    ("lnsgkgsnl[P]/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", r"'\[' is not part of an SFEN"),
    ("\x00" * 5000, "expected the placement"),
])
def test_a_bad_sfen_is_an_error_that_points_at_it(sfen: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        usi.from_sfen(RULES, sfen)
    assert caught.value.notation == "SFEN" and len(str(caught.value)) < 1000


def test_sfen_is_refused_where_it_cannot_hold_the_position() -> None:
    chess = registry.rules("chess")
    with pytest.raises(GGNError, match="SFEN cannot hold the castling rights of chess: use its FEN"):
        usi.to_sfen(chess, chess.position())
    with pytest.raises(GGNError, match="SFEN cannot hold the castling rights of chess"):
        usi.from_sfen(chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1")


def test_usi_moves_of_other_games_are_fairy_stockfish_s() -> None:
    # Fairy-Stockfish's USI mode names every game's moves so: xiangqi's 10 ranks run a to j.
    xiangqi = registry.rules("xiangqi")
    assert "2h2e" in usi.moves(xiangqi, xiangqi.position())
    assert usi.to_sfen(xiangqi, xiangqi.position()) == \
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - 1"
    chess = registry.rules("chess")
    position = chess.position(to_feen(chess.variant, "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1"))  # type: ignore[attr-defined]
    assert {"7b7aq", "4h2h"} <= set(usi.moves(chess, position))  # a promotion's letter; castling


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match=r"^rules must be a RuleSystem, got str$"):
        usi.to_sfen("shogi", RULES.position())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^sfen must be a str, got int$"):
        usi.from_sfen(RULES, 7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^move_number must be an int, got str$"):
        usi.to_sfen(RULES, RULES.position(), "1")  # type: ignore[arg-type]
    with pytest.raises(GGNError, match=r"^an SFEN's move number is 1 or more, not 0$"):
        usi.to_sfen(RULES, RULES.position(), 0)
