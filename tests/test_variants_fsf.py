"""Every built-in variant played against Fairy-Stockfish (pyffish), the oracle.

The built-in games are the sections of ``src/ggn/variants/builtin.ini``, read by the registry
(:mod:`ggn.variants.registry`: the ini reader, the generic rule system, the FEN and UCI
modules). For each of them:

- along seeded random games from the start (every other one from a shuffled start in the
  chess960 games), the legal moves of every position, as sets of Fairy-Stockfish's move
  strings, equal ``pyffish.legal_moves``;
  the position after every move, written as Fairy-Stockfish's FEN, equals ``pyffish.get_fen``
  (placement, hands, side to move, castling, en passant; move counters aside); and where the
  game has ended (``pyffish.is_immediate_game_end``, or no legal move), ``outcome()`` names
  the winner ``pyffish.game_result`` gives. The games prefer captures, so that hands fill and
  pawns promote within their plies;
- from the start position, the replies to every first move (to a seeded sample of
  :data:`REPLIES` of them where there are more) equal pyffish's, as sets and as counted by the
  rule system's fast count; under ``pytest -m full``, perft at depth 3 (2 for the games of
  :data:`PERFT_DEPTH`) equals pyffish's count (which has no perft: counted with ``legal_moves``
  one level down);
- games that end: ``tests/vectors/variant_endings.json`` holds, for each game, seeded random
  games pyffish played until they ended (the shortest found, for each way the game can end:
  a rule's sudden end, and no legal move). ggn plays their moves (each must be legal), reaches
  pyffish's final position, has no move left there, and names the winner pyffish does. Running
  this file as a script records them again (minutes long).

``builtin.ini`` itself is checked against Fairy-Stockfish's own built-ins, without ggn: loaded
into pyffish under other names, each section starts as the built-in does and, under ``full``,
plays as it does along random games. Four variants of this file's own, in ini syntax, are
loaded into both pyffish and ggn and played against each other the same way. And
``docs/VARIANTS.md`` lists every pyffish variant once, with its board, and says "yes" for
exactly the built-in games.

By default a seeded subset runs (one random game of at most 40 plies per variant, the replies,
the recorded endings); ``pytest -m full`` adds six games of at most 120 plies each, perft at
depth 3 and the ini check's games.

A variant that disagrees with pyffish because of a fault in a module this file does not own is
marked ``xfail(strict=True)`` in :data:`KNOWN` with the failing case, so it shows until fixed.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path

import pytest

from ggn.game import Game
from ggn.position import Position
from ggn.rules import Ending, Play, RuleSystem, perft
from ggn.rules.variant import VariantRules
from ggn.variants import registry
from ggn.variants.description import Variant
from ggn.variants.registry import Catalogue, Entry
from ggn.variants.uci import moves as uci_moves

pytestmark = pytest.mark.slow  # not in the README's quick run: every variant against pyffish

sf = pytest.importorskip("pyffish")

SEED = 20261124
ROOT = Path(__file__).parent.parent
BUILTIN = ROOT / "src" / "ggn" / "variants" / "builtin.ini"
TABLE = ROOT / "docs" / "VARIANTS.md"
PLIES, FULL_GAMES, FULL_PLIES = 40, 6, 120
CAPTURES = 0.7  # the chance a random game takes when it can
REPLIES = 48  # first moves whose replies are compared, in games with more first moves than that
# Games whose perft 3 pyffish (counting through its move lists) would take minutes: the depth
# each is compared at (a move that places a wall is one play for each square the wall may go to).
PERFT_DEPTH = {"amazons": 2, "duck": 2, "isolation": 2, "isolation7x7": 2}

# Built-in variants that disagree with pyffish through a module this file does not own: the
# variant, the reason (with the failing case), and the tests that fail (None: every test of ggn;
# else some of "games", "games-full", "replies", "perft", "endings", "endings-full").
_FULL = frozenset({"games-full", "endings", "endings-full"})
KNOWN: dict[str, tuple[str, frozenset[str] | None]] = {
}

# Variants of this file's own, in Fairy-Stockfish's syntax, played by both pyffish and ggn.
OWN = """\
# Crazyhouse with nightriders for knights.
[ggn-nighthouse:crazyhouse]
knight = -
customPiece1 = n:NN
promotionPieceTypes = qrbn

# 9x9 king of the hill on e5, with cannons (xiangqi's) and a piece that leaps as a wazir or an
# alfil; pawns promote on the last rank, to any piece but the king.
[ggn-cannonhill:chess]
maxRank = 9
maxFile = 9
cannon = c
customPiece1 = w:WA
startFen = rnbcwkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBCWKBNR w - - 0 1
castling = false
doubleStepRegionWhite = *2
doubleStepRegionBlack = *8
promotionRegionWhite = *9
promotionRegionBlack = *1
promotionPieceTypes = qrbncw
flagPiece = k
flagRegion = e5

# A 6x6 shogi with a lance that may also step back, and mandatory promotion.
[ggn-sixshogi:minishogi]
maxRank = 6
maxFile = 6
customPiece1 = l:fRbW
startFen = rbslgk/5p/6/6/P5/KGLSBR[-] w 0 1
promotionRegionWhite = *5 *6
promotionRegionBlack = *2 *1
promotedPieceType = p:g s:g b:h r:d l:g
mandatoryPiecePromotion = true

# Chess with a hole of four squares in the middle, and bishops that capture by hopping.
[ggn-donut:chess]
bishop = -
customPiece1 = b:mBcpB
startFen = rnbqkbnr/pppppppp/8/3**3/3**3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
promotionPieceTypes = qrbn
"""
OWN_NAMES = tuple(re.findall(r"^\[([^\]:]+)", OWN, flags=re.MULTILINE))


# --- the games under test -------------------------------------------------------------------
@dataclass(frozen=True)
class _Game:
    """One variant as both sides play it: pyffish by name, ggn by its registry entry."""

    name: str
    entry: Entry

    @property
    def variant(self) -> Variant:
        return self.entry.variant

    @property
    def rules(self) -> RuleSystem:
        return self.entry.rules

    @property
    def is960(self) -> bool:
        return self.variant.chess960

    @property
    def sudden(self) -> bool:
        """Whether a rule may end the game while moves remain (pyffish's immediate ends)."""
        ends = self.variant.ends
        connects = (ends.connect_n or ends.connect_square or ends.collinear_n
                    or any(all(pair) for pair in ends.connect_regions))
        return ends.extinction is not None or bool(ends.flag_pieces) or bool(connects) or self.counts_checks

    @property
    def counts_checks(self) -> bool:
        """Whether the game counts checks: its state is then a Game's, beyond the position."""
        return self.variant.history.check_counting

    def position(self, fen: str) -> Position:
        return self.rules.position(self.entry.to_feen(fen))

    def strings(self, position: Position) -> Mapping[str, Play]:
        """ggn's legal plays of a position by their UCI strings."""
        return uci_moves(self.rules, position, variant=self.variant)

    def fsf(self, fen: str, moves: tuple[str, ...] = ()) -> set[str]:
        return set(sf.legal_moves(self.name, fen, list(moves), self.is960))


@cache
def _own() -> Catalogue:
    sf.load_variant_config(OWN)
    catalogue = Catalogue()
    assert catalogue.add_ini(OWN, source="test_variants_fsf.py") == OWN_NAMES
    return catalogue


def _game(name: str) -> _Game:
    if name in OWN_NAMES:
        return _Game(name, _own().entry(name))
    return _Game(name, registry.entry(name))


def _cases(test: str, names: tuple[str, ...] | None = None) -> list[object]:
    """Every game of the file (or of ``names``), with the known disagreements of ``test`` marked."""
    cases: list[object] = []
    for name in (*BUILTINS, *OWN_NAMES) if names is None else names:
        reason, tests = KNOWN.get(name, ("", frozenset()))
        known = tests is None or test in tests
        mark = pytest.mark.xfail(strict=True, reason=reason)
        cases.append(pytest.param(name, marks=mark) if known else name)
    return cases


BUILTINS = registry.names()


# --- Fairy-Stockfish's FEN, read by this file for its own needs ---------------------------------
def _fields(fen: str) -> tuple[str, ...]:
    """The fields compared: placement (with the hands), side, castling, en passant. A start FEN
    of a shogi-like game (``[-] w 0 1``) has neither castling nor en passant: both ``-``.
    Fairy-Stockfish writes an empty castling field (``b  - 0 18``) where no right is left to
    write but a gating right it does not write remains (seirawan: a side whose hand is empty,
    its king's right read from a ``k`` of the FEN and its last rook taken): no right, ``-``."""
    parts = fen.split(" ")
    placement = parts[0].replace("[-]", "[]")
    if len(parts) > 3 and parts[2] == "" and not parts[3].isdigit():
        parts[2] = "-"
    rest = [part for part in parts[2:] if not part.isdigit()]
    return placement, parts[1], *[*rest, "-", "-"][:2]


def _occupied(fen: str) -> set[str]:
    """The squares of a FEN's placement that hold a piece."""
    rows = re.sub(r"\[.*?\]", "", fen.split(" ", 1)[0]).split("/")
    taken: set[str] = set()
    for number, row in enumerate(rows):
        rank, file = len(rows) - number, 0
        for token in re.finditer(r"([0-9]+)|(\*)|\+?[A-Za-z]~?", row):
            if token.group(1):
                file += int(token.group(1))
                continue
            if not token.group(2):  # a hole is a square, never a piece's
                taken.add(f"{chr(ord('a') + file)}{rank}")
            file += 1
    return taken


def _destination(move: str) -> str:
    """The destination of a move string (a wall's square, after a comma, aside)."""
    squares: list[str] = re.findall(r"[a-l][0-9]+", move.split(",", 1)[0])
    return squares[-1]


def _winner(fen: str, value: int) -> str | None:
    """The winner of pyffish's result ``value``, given for the side to move of ``fen``."""
    if value == 0:
        return None
    mover = "first" if fen.split(" ")[1] == "w" else "second"
    other = "second" if mover == "first" else "first"
    return mover if value > 0 else other


def _shuffled_start(game: _Game, rng: random.Random) -> str:
    """A random 960 start of a chess960 game: the back rank shuffled with the bishops on
    squares of both colours and the king between the rooks, mirrored for black."""
    fen = sf.start_fen(game.name)
    rows = fen.split(" ")[0].split("/")
    back = list(rows[-1])
    files = len(back)
    while True:
        rng.shuffle(back)
        bishops = [file for file, piece in enumerate(back) if piece == "B"]
        rooks = [file for file, piece in enumerate(back) if piece == "R"]
        king = back.index("K")
        if len({file % 2 for file in bishops}) == len(bishops) and rooks[0] < king < rooks[-1]:
            break
    assert len(back) == files
    rows[0], rows[-1] = "".join(back).lower(), "".join(back)
    return " ".join(["/".join(rows), *fen.split(" ")[1:]])


def _starts(game: _Game, rng: random.Random, games: int) -> Iterator[str]:
    for number in range(games):
        yield _shuffled_start(game, rng) if game.is960 and number % 2 == 0 else sf.start_fen(game.name)


def _drop_mates(game: _Game, fen: str, moves: set[str]) -> set[str]:
    """Of pyffish's ``moves`` of ``fen``, the pawn drops that mate. Where such a mate is illegal
    (shogiPawnDropMateIllegal), Fairy-Stockfish lists the drop and scores the mate a win for the
    mated player; ggn does not list the drop."""
    drops = game.variant.drops
    if drops is None or not drops.pawn_drop_mate_illegal:
        return set()
    return {move for move in moves if "@" in move and not game.fsf(fen, (move,))
            and sf.game_result(game.name, fen, [move]) > 0}


# --- random games -------------------------------------------------------------------------------
_SUDDEN = {Ending.EXTINCTION, Ending.FLAG, Ending.BARE_KING, Ending.CHECKS, Ending.CONNECTION}


def _play(game: _Game, start: str, plies: int, rng: random.Random) -> tuple[int, bool]:
    """Play one random game from ``start`` in both, checking every position; return the plies
    played and whether the game ended. A game whose state goes beyond its position (the checks
    left) is played as a :class:`ggn.game.Game` read from pyffish's FEN, whose FEN (checks left
    included) must be pyffish's after every move, and whose outcome ends it where pyffish's
    does; the others as positions of the rule system."""
    record = Game(game.rules, fen=start) if game.counts_checks else None
    fen, position = start, game.position(start) if record is None else record.position
    for ply in range(plies):
        sudden = game.sudden or record is not None
        ended, value = sf.is_immediate_game_end(game.name, fen, []) if sudden else (False, 0)
        legal = game.fsf(fen)
        mine = game.strings(position) if record is None or record.legal_moves() else {}
        where = f"{game.name}: {fen!r} (ply {ply})"
        if ended or not legal:
            if not ended:
                value = sf.game_result(game.name, fen, [])
            assert not mine, f"{where}: the game has ended, and ggn still has moves {sorted(mine)[:8]}"
            outcome = game.rules.outcome(position) if record is None else record.outcome()
            assert outcome is not None, f"{where}: the game has ended, and ggn has no outcome"
            assert outcome.winner == _winner(fen, value), f"{where}: {outcome} against pyffish's {value}"
            assert (outcome.ending in _SUDDEN) == ended, f"{where}: {outcome}"
            return ply, True
        legal -= _drop_mates(game, fen, legal - set(mine))
        assert set(mine) == legal, (f"{where}: ggn alone has {sorted(set(mine) - legal)}, "
                                    f"pyffish alone {sorted(legal - set(mine))}")
        taken = _occupied(fen)
        captures = [move for move in sorted(legal) if "@" not in move and _destination(move) in taken]
        move = rng.choice(captures if captures and rng.random() < CAPTURES else sorted(legal))
        fen = sf.get_fen(game.name, fen, [move], game.is960)
        if record is None:
            position = game.rules.play(position, mine[move])
            written = game.entry.from_feen(position)
            same = _fields(written) == _fields(fen)
        else:  # the counters aside: the game's own, from pyffish's FEN
            record.push(mine[move])
            position, written = record.position, record.fen()
            same = written.split(" ")[:-2] == fen.replace("[-]", "[]").split(" ")[:-2]
        assert same, f"{where}, after {move}: ggn {written!r}, pyffish {fen!r}"
    return plies, False


def _games(name: str, games: int, plies: int, seed: int) -> tuple[int, int]:
    game = _game(name)
    rng = random.Random(f"{seed}:{name}")
    played = ended = 0
    for start in _starts(game, rng, games):
        count, over = _play(game, start, plies, rng)
        played, ended = played + count, ended + over
    return played, ended


@pytest.mark.parametrize("name", _cases("games"))
def test_random_games_against_pyffish(name: str) -> None:
    played, _ = _games(name, 1, PLIES, SEED)
    assert played >= 1


@pytest.mark.full
@pytest.mark.parametrize("name", _cases("games-full"))
def test_random_games_against_pyffish_full(name: str) -> None:
    played, _ = _games(name, FULL_GAMES, FULL_PLIES, SEED + 1)
    assert played >= FULL_GAMES


# --- hands given in the FEN: one board of two, setup phases under way ----------------------------
# The start of a two-board game has empty hands, which only the partner's board fills; these
# starts have pieces in hand (and, for bughouse, a promoted pawn marked '~'), so that drops and
# their rules (dropChecks, drop regions, mobility regions, forced drops) are played; and setup
# phases from positions their start does not reach at once.
HANDS: dict[str, tuple[str, ...]] = {
    "bughouse": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPPqrbnpp] w KQkq - 0 1",
                 "r3k2r/1P4P1/8/3Q~4/8/8/1p4p1/R3K2R[Nnq] w KQkq - 0 1"),
    "supply": ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[RNBACPPrnbacpp] w - - 0 1",),
    # Kings in hand, which must be dropped first.
    "koedem": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[KRNPkbnp] w KQkq - 0 1",
               "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[KPkp] b - - 0 1"),
    # Setup phases under way: a king or rook dropped beside the other on its square may castle.
    # Sittuyin after its setup: pawns in their promotion regions, a last pawn that promotes anywhere.
    "sittuyin": ("4k3/8/2p5/3P4/4p3/2P5/8/4K3[] w - - 0 1", "r3k3/1s6/2p5/3P4/4p3/2P2N2/8/R3K3[] b - - 0 1",
                 "k7/8/8/8/8/8/4P3/K7[] w - - 0 1"),
    "placement": ("8/pppppppp/8/8/8/8/PPPPPPPP/R6R[KQBBNNkqrrbbnn] w - - 0 1",
                  "r6r/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNkqbbnn] b - - 0 1"),
}


@pytest.mark.parametrize("name", sorted(HANDS))
def test_games_with_hands_from_the_partner_board(name: str) -> None:
    game = _game(name)
    rng = random.Random(f"{SEED}:hands:{name}")
    for start in HANDS[name]:
        assert _play(game, start, PLIES, rng)[0] >= 1


@pytest.mark.full
@pytest.mark.parametrize("name", sorted(HANDS))
def test_games_with_hands_from_the_partner_board_full(name: str) -> None:
    game = _game(name)
    rng = random.Random(f"{SEED + 1}:hands:{name}")
    for start in HANDS[name] * FULL_GAMES:
        assert _play(game, start, FULL_PLIES, rng)[0] >= 1


# --- from the start: the replies to every first move, and perft ------------------------------
@pytest.mark.parametrize("name", _cases("replies"))
def test_replies_to_every_first_move(name: str) -> None:
    game = _game(name)
    fen = sf.start_fen(game.name)
    start = game.position(fen)
    first = game.strings(start)
    assert set(first) == game.fsf(fen)
    chosen = sorted(first)
    if len(chosen) > REPLIES:  # duck chess, amazons: a seeded sample of the first moves
        chosen = random.Random(f"{SEED}:replies:{name}").sample(chosen, REPLIES)
    for move in chosen:
        play = first[move]
        after = game.rules.play(start, play)
        replies = game.fsf(fen, (move,))
        assert set(game.strings(after)) == replies, f"{name}: after {move}"
        assert game.rules.count(after) == len(replies), f"{name}: the count after {move}"


def _fsf_perft(game: _Game, fen: str, depth: int, moves: tuple[str, ...] = ()) -> int:
    if game.sudden and sf.is_immediate_game_end(game.name, fen, list(moves))[0]:
        return 0
    legal = game.fsf(fen, moves)
    if depth == 1:
        return len(legal)
    return sum(_fsf_perft(game, fen, depth - 1, (*moves, move)) for move in legal)


def _two_ply_ends(variant: Variant) -> bool:
    """Whether the game ends on its last two plies (two passes, a bikjang answered by a pass):
    Fairy-Stockfish's move lists heed them, a position does not hold them."""
    return variant.bikjang or any(variant.passing)


def _fsf_perft_of_positions(game: _Game, fen: str, depth: int) -> int:
    """pyffish's perft with each position given alone, as its FEN (no history)."""
    legal = game.fsf(fen)
    if depth == 1:
        return len(legal)
    return sum(_fsf_perft_of_positions(game, sf.get_fen(game.name, fen, [move]), depth - 1) for move in legal)


def _perft_with_history(rules: RuleSystem, position: Position, depth: int,
                        passes: tuple[bool, bool] = (False, False), facing: bool | None = None) -> int:
    """Perft as Fairy-Stockfish counts it in janggi's games (its move lists end the game after
    two passes, and after a pass that answered a bikjang: the royal pieces facing each other in
    the position before the last play and after it), from ggn's rule system; ``passes``: whether
    the two plays that led here were passes, ``facing``: the royal pieces faced each other before
    the last play (None: the root, which has no history)."""
    assert isinstance(rules, VariantRules)
    here = rules.variant.bikjang and rules._facing(position._codes)
    if facing is not None and ((passes[0] and passes[1]) or (here and facing)):
        return 0
    if depth == 1:
        return rules.count(position)
    total = 0
    for move, effect, child in rules._legal(position):
        node = rules._child(position, effect, child)
        passed = move.source == move.destination
        total += _perft_with_history(rules, node, depth - 1, (passes[1], passed), here)
    return total


@pytest.mark.full
@pytest.mark.parametrize("name", _cases("perft"))
def test_perft_3_from_the_start(name: str) -> None:
    game = _game(name)
    fen = sf.start_fen(game.name)
    if _two_ply_ends(game.variant):
        # The rule system's perft is of positions, which hold no history: pyffish's from each
        # position's FEN alone. With the game's ends on its last two plies, pyffish's own.
        assert perft(game.rules, 3, game.position(fen)) == _fsf_perft_of_positions(game, fen, 3)
        assert _perft_with_history(game.rules, game.position(fen), 3) == _fsf_perft(game, fen, 3)
        return
    depth = PERFT_DEPTH.get(name, 3)
    assert perft(game.rules, depth, game.position(fen)) == _fsf_perft(game, fen, depth)


# Fairy-Stockfish's own perft table for janggi (its tests/perft.sh), counted with its ends on the
# last two plies.
JANGGI_PERFT = (
    ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", 4, 1_065_277),
    ("1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1", 4, 76_763),
    ("1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23", 4, 151_202),
)


@pytest.mark.full
@pytest.mark.parametrize(("fen", "depth", "count"), JANGGI_PERFT)
def test_fairy_stockfish_s_janggi_perft_table(fen: str, depth: int, count: int) -> None:
    game = _game("janggi")
    assert _perft_with_history(game.rules, game.position(fen), depth) == count


# --- builtin.ini is Fairy-Stockfish's built-ins, checked with Fairy-Stockfish alone -------------
COPY = "ggn-builtin-"


@cache
def _copies() -> tuple[str, ...]:
    """builtin.ini loaded into pyffish, each section (and its parent) renamed ``ggn-builtin-*``."""
    text = BUILTIN.read_text("utf-8")
    names = set(BUILTINS)

    def renamed(match: re.Match[str]) -> str:
        name, parent = match.group(1), match.group(2)
        if parent is None:
            return f"[{COPY}{name}]"
        return f"[{COPY}{name}:{COPY if parent in names else ''}{parent}]"

    sf.load_variant_config(re.sub(r"^\[([^\]:]+)(?::([^\]]+))?\]", renamed, text, flags=re.MULTILINE))
    return tuple(COPY + name for name in BUILTINS)


def _unsaid(name: str, fen: str) -> set[str]:
    """Of Fairy-Stockfish's legal moves of ``fen`` in the built-in ``name``, those its ini syntax
    cannot give the section's copy: in a game whose king moves as Fairy-Stockfish's wazir
    (``kingType``, this library's own option: janggi's), the king's diagonal steps along the
    palace's lines (a king given as ``k:W`` has none)."""
    if registry.variant(name).king_type is None:
        return set()
    placement, side = fen.split(" ")[:2]
    square = _king_square(placement, "K" if side == "w" else "k")
    found = set()
    for move in sf.legal_moves(name, fen, []):
        squares = re.fullmatch(r"([a-l])([0-9]+)([a-l])([0-9]+)", move)
        if squares and squares[1] + squares[2] == square and squares[1] != squares[3] \
                and squares[2] != squares[4]:
            found.add(move)
    return found


def _king_square(placement: str, king: str) -> str:
    rows = placement.split("/")
    for number, row in enumerate(rows):
        file = 0
        for token in re.finditer(r"([0-9]+)|(\+?[A-Za-z*]~?)", row):
            if token.group(1):
                file += int(token.group(1))
                continue
            if token.group(2) == king:
                return f"{chr(ord('a') + file)}{len(rows) - number}"
            file += 1
    raise AssertionError(f"no {king} in {placement}")


def test_builtin_ini_is_read_whole() -> None:
    sections = re.findall(r"^\[([^\]:]+)", BUILTIN.read_text("utf-8"), flags=re.MULTILINE)
    assert tuple(sections) == BUILTINS
    assert set(BUILTINS) <= set(_fairy_stockfish_variants())


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_section_starts_as_fairy_stockfish(name: str) -> None:
    copy = _copies()[BUILTINS.index(name)]
    is960 = name in ("fischerandom", "caparandom")
    assert sf.start_fen(copy) == sf.start_fen(name)
    fen = sf.start_fen(name)
    own = set(sf.legal_moves(name, fen, [], is960))
    assert set(sf.legal_moves(copy, fen, [], is960)) == own - _unsaid(name, fen)


@pytest.mark.full
@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_section_plays_as_fairy_stockfish(name: str) -> None:
    copy = _copies()[BUILTINS.index(name)]
    is960 = name in ("fischerandom", "caparandom")
    rng = random.Random(f"{SEED}:copy:{name}")
    checked = 0
    for _ in range(3):
        fen = sf.start_fen(name)
        for _ in range(80):
            legal = sorted(set(sf.legal_moves(name, fen, [], is960)) - _unsaid(name, fen))
            assert sorted(sf.legal_moves(copy, fen, [], is960)) == legal, fen
            ended = sf.is_immediate_game_end(name, fen, [])
            assert sf.is_immediate_game_end(copy, fen, []) == ended, fen
            checked += 1
            if ended[0] or not legal:
                assert sf.game_result(copy, fen, []) == sf.game_result(name, fen, []), fen
                break
            move = rng.choice(legal)
            fen, copied = sf.get_fen(name, fen, [move], is960), sf.get_fen(copy, fen, [move], is960)
            assert copied == fen
    assert checked >= 3


# --- berolina's en passant: which diagonal the pawn came along --------------------------------
_BEROLINA = [  # a position and the two diagonal double steps onto one square
    ("4k3/2p3p1/8/3P1P2/8/8/8/4K3 b - - 0 1", ("c7e5", "g7e5")),
    ("4k3/8/8/8/3p1p2/8/2P3P1/4K3 w - - 0 1", ("c2e4", "g2e4")),
    ("4k3/p6p/8/1P4P1/8/8/8/4K3 b - - 0 1", ("a7c5", "h7f5")),
    ("4k3/8/8/8/p6p/8/1P4P1/4K3 w - - 0 1", ("b2d4", "g2e4")),
]


@pytest.mark.parametrize(("fen", "steps"), _BEROLINA)
def test_berolina_en_passant_takes_the_pawn_of_its_diagonal(fen: str, steps: tuple[str, str]) -> None:
    # FEEN's '-' on the pawn says it passed over the square on its earlier file, '+' the later
    # one: pyffish's en passant square, its FEN and its replies after either step.
    game = _game("berolina")
    marks = []
    for step in steps:
        position = game.rules.play(game.position(fen), game.strings(game.position(fen))[step])
        after = sf.get_fen("berolina", fen, [step])
        assert _fields(game.entry.from_feen(position)) == _fields(after), step
        assert set(game.strings(position)) == game.fsf(after), step
        assert game.entry.to_feen(after) == position.to_feen(), step
        marks.append(next(piece.state for piece in position.board.values() if piece.state != "normal"))
    # '-' after the step toward later files (it passed an earlier one), '+' after the other.
    assert marks == ["diminished", "enhanced"] if steps[0][0] < steps[0][2] else ["enhanced", "diminished"]


# --- docs/VARIANTS.md -----------------------------------------------------------------------
@cache
def _fairy_stockfish_variants() -> tuple[str, ...]:
    """pyffish's own variants, asked of a fresh process (this one's holds those loaded since)."""
    script = "import json, pyffish; print(json.dumps(pyffish.variants()))"
    asked = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           timeout=60)
    names: list[str] = json.loads(asked.stdout)
    return tuple(names)


def test_the_table_lists_every_fairy_stockfish_variant() -> None:
    text = TABLE.read_text("utf-8")
    rows = re.findall(r"^\| ([a-z0-9-]+) \| (\d+)x(\d+) \| (.+) \|$", text, flags=re.MULTILINE)
    names = [row[0] for row in rows]
    assert sorted(names) == sorted(_fairy_stockfish_variants()) and len(names) == len(set(names)) == 121
    supported = {name for name, _, _, says in rows if says == "yes"}
    assert supported == set(BUILTINS)
    for name, files, ranks, says in rows:
        assert says == "yes" or says.startswith("no: "), name
        placement = re.sub(r"\[.*?\]", "", sf.start_fen(name).split(" ")[0]).split("/")
        widths = {sum(int(run) if run else 1 for run, _ in re.findall(r"(\d+)|(\+?[A-Za-z*]~?)", row))
                  for row in placement}
        assert (int(files), int(ranks)) == (max(widths), len(placement)), name
    assert f"{len(supported)} of the 121" in text


# --- recorded endings: games that end, found by pyffish, replayed by ggn ---------------------
ENDINGS = ROOT / "tests" / "vectors" / "variant_endings.json"
SHORT = 60  # the longest recorded game replayed in CI; pytest -m full replays them all


@cache
def _endings() -> dict[str, list[dict[str, str]]]:
    data: dict[str, list[dict[str, str]]] = json.loads(ENDINGS.read_text("utf-8"))["games"]
    return data


def _ending_names(longest: int | None) -> tuple[str, ...]:
    return tuple(name for name, games in _endings().items()
                 if any(longest is None or len(game["moves"].split()) <= longest for game in games))


def test_recorded_endings_cover_most_games() -> None:
    recorded = json.loads(ENDINGS.read_text("utf-8"))
    assert recorded["pyffish"] == version("pyffish"), "recorded with another pyffish: record them again"
    assert set(_endings()) == {*BUILTINS, *OWN_NAMES}
    assert len(_ending_names(None)) >= len(_endings()) * 3 // 4
    assert len(_ending_names(SHORT)) >= len(_endings()) // 3


def _replay(name: str, longest: int | None) -> int:
    """Play each recorded game of ``name`` (moves pyffish chose until the game ended) in ggn,
    which must find every move legal, reach pyffish's final position and end the game as
    pyffish does; return the games played."""
    game = _game(name)
    start = sf.start_fen(game.name)
    played = 0
    for recorded in _endings()[name]:
        moves = recorded["moves"].split()
        if longest is not None and len(moves) > longest:
            continue
        position = game.position(start)
        record = Game(game.rules, fen=start)
        for ply, move in enumerate(moves):
            found = game.strings(position).get(move)
            assert found is not None, f"{name}: {move} (ply {ply}) is not legal in {position.to_feen()!r}"
            position = game.rules.play(position, found)
            if game.counts_checks:
                record.push(found)
        fen = sf.get_fen(game.name, start, moves, game.is960)
        assert _fields(game.entry.from_feen(position)) == _fields(fen), name
        ended, value = sf.is_immediate_game_end(game.name, start, moves)
        if not ended:
            assert not game.fsf(start, tuple(moves)), f"{name}: the recorded game has not ended"
            value = sf.game_result(game.name, start, moves)
        if game.counts_checks:  # the checks left are the game's: it has ended there
            assert record.fen().split(" ")[:-2] == fen.replace("[-]", "[]").split(" ")[:-2], name
            assert not record.legal_moves(), f"{name}: the game has ended in {fen!r}, and ggn has moves"
            outcome = record.outcome()
            assert outcome is not None, f"{name}: the game has ended in {fen!r}, and ggn has no outcome"
            assert outcome.winner == _winner(fen, value), f"{name}: {outcome} in {fen!r}, pyffish {value}"
            assert recorded["end"] == ("sudden" if ended else "no move")
            played += 1
            continue
        assert not game.strings(position), f"{name}: the game has ended in {fen!r}, and ggn has moves"
        outcome = game.rules.outcome(position)
        assert outcome is not None, f"{name}: the game has ended in {fen!r}, and ggn has no outcome"
        assert outcome.winner == _winner(fen, value), f"{name}: {outcome} in {fen!r}, pyffish {value}"
        assert recorded["end"] == ("sudden" if ended else "no move")
        played += 1
    return played


@pytest.mark.parametrize("name", _cases("endings", _ending_names(SHORT)))
def test_recorded_endings_against_pyffish(name: str) -> None:
    assert _replay(name, SHORT) >= 1


@pytest.mark.full
@pytest.mark.parametrize("name", _cases("endings-full", _ending_names(None)))
def test_recorded_endings_against_pyffish_full(name: str) -> None:
    assert _replay(name, None) >= 1


def _record(game: _Game, tries: int, plies: int) -> list[dict[str, str]]:
    """Seeded random games of pyffish alone until they end: the shortest ending of each kind found
    (a rule's sudden end, where the game has one, and no legal move). The games prefer captures
    strongly and, now and then after the opening, a move that ends the game at once."""
    name, sudden = game.name, game.sudden
    rng = random.Random(f"{SEED}:endings:{name}")
    best: dict[str, list[str]] = {}

    def ends(fen: str, move: str) -> bool:
        return (sudden and sf.is_immediate_game_end(name, fen, [move])[0]) or not game.fsf(fen, (move,))

    for _ in range(tries):
        fen, moves = sf.start_fen(name), list[str]()
        for ply in range(plies):
            ended = sudden and sf.is_immediate_game_end(name, fen, [])[0]
            legal = sorted(game.fsf(fen))
            if ended or not legal:
                kind = "sudden" if ended else "no move"
                if kind not in best or len(moves) < len(best[kind]):
                    best[kind] = moves
                break
            taken = _occupied(fen)
            captures = [move for move in legal if "@" not in move and _destination(move) in taken]
            move = rng.choice(captures if captures and rng.random() < 0.9 else legal)
            if ply >= 20 and rng.random() < 0.3:
                move = next((end for end in rng.sample(legal, len(legal)) if ends(fen, end)), move)
            moves.append(move)
            fen = sf.get_fen(name, fen, [move], game.is960)
        if len(best) == 1 + sudden:
            break
    return [{"end": kind, "moves": " ".join(moves)} for kind, moves in sorted(best.items())]


def _record_all(path: Path, names: list[str]) -> None:
    """Write tests/vectors/variant_endings.json (run this file as a script; minutes long): the
    games of ``names`` recorded again and the others kept, or all of them recorded again."""
    _own()
    games = {}
    kept = json.loads(path.read_text("utf-8"))["games"] if names and path.exists() else {}
    for name in (*BUILTINS, *OWN_NAMES):
        if names and name not in names and name in kept:
            games[name] = kept[name]
            continue
        games[name] = _record(_game(name), tries=8, plies=300)
        print(name, [(game["end"], len(game["moves"].split())) for game in games[name]], flush=True)
    recorded = {
        "about": "Games pyffish played (seeded, random, captures preferred) until they ended; "
                 "tests/test_variants_fsf.py replays them in ggn. Made by running that file as a script.",
        "pyffish": version("pyffish"),
        "games": games,
    }
    path.write_text(json.dumps(recorded, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    _record_all(ENDINGS, sys.argv[1:])  # names: record only those games again (and any not recorded)
