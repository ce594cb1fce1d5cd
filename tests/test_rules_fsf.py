"""Rules of Fairy-Stockfish's options, each in a position that shows it, against pyffish.

Each case is a small section in Fairy-Stockfish's ``variants.ini`` syntax, loaded into both
pyffish and ggn (:meth:`ggn.variants.registry.Catalogue.add_ini`), and a FEN: the legal moves
of ggn (as Fairy-Stockfish's UCI strings) must equal ``pyffish.legal_moves``, and where the
game ends there, ggn's outcome must name the winner ``pyffish.game_result`` gives. The cases
are the wrong answers found in the rules ggn lists as supported (issue 18), kept so that they
stay fixed; the long random games of every built-in game are in ``test_variants_fsf.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest

from ggn.position import Position
from ggn.variants.registry import Catalogue, Entry
from ggn.variants.uci import moves as uci_moves

pytestmark = pytest.mark.slow  # not in the README's quick run: an oracle comparison

sf = pytest.importorskip("pyffish")


@dataclass(frozen=True)
class Case:
    """A section (its name and ini text, which names it) and positions (FEN) to compare in."""

    name: str
    ini: str
    fens: tuple[str, ...]
    chess960: bool = False


CASES = (
    # A hopper may move where it stands: Fairy-Stockfish reads its moves on an empty board as a
    # rider's, so immobilityIllegal never makes a cannon immobile (ggn gave it no move at all).
    Case("ggn-immobile-hopper", """\
[ggn-immobile-hopper:chess]
customPiece1 = a:pR
immobilityIllegal = true
""", ("4k3/8/8/8/8/2P5/8/2A1K3 w - - 0 1", "2a1k3/8/2p5/8/8/8/8/4K3 b - - 0 1")),
    Case("ggn-cannonshogi", """\
[ggn-cannonshogi:shogi]
dropNoDoubled = -
shogiPawnDropMateIllegal = false
soldier = p
cannon = u
customPiece1 = a:pR
customPiece2 = c:mBcpB
customPiece3 = i:pB
customPiece4 = w:mRpRmFpB2
customPiece5 = f:mBpBmWpR2
promotedPieceType = u:w a:w c:f i:f p:g
startFen = lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[-] w 0 1
""", ("lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[-] w 0 1",
      "lnsgkgsnl/1r5b1/p1p1p1p1p/9/9/9/P1P1P1P1P/1B5R1/LNSGKGSNL[CAUIciua] w 0 1")),
    # A pawn dropped into its promotion region (promotionZonePawnDrops) moves, promotes and
    # attacks from there (ggn gave it no move, and its king's neighbours were safe from it).
    Case("ggn-makhouse", """\
[ggn-makhouse:makruk]
startFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR[] w - - 0 1
pieceDrops = true
capturesToHand = true
firstRankPawnDrops = true
promotionZonePawnDrops = true
immobilityIllegal = true
""", ("4k3/8/3P4/8/8/8/8/4K3[] w - - 0 1", "3k4/8/2P5/8/8/8/8/4K3[] b - - 0 1",
      "8/2n1k3/3P4/8/8/8/8/4K3[] w - - 0 1", "3k4/2P5/8/8/8/8/8/4K3[] b - - 0 1")),
    # dropNoDoubledCount = 0: every file holds that many pawns already, so no pawn is dropped
    # (ggn dropped them anywhere).
    Case("ggn-dragonfly", """\
[ggn-dragonfly:chess]
maxFile = 7
maxRank = 7
castlingKingsideFile = f
castlingQueensideFile = b
pieceDrops = true
capturesToHand = true
promotionRegionWhite = *7
promotionRegionBlack = *1
promotionPieceTypes = nbr
doubleStep = false
dropNoDoubled = p
dropNoDoubledCount = 0
startFen = rbbknnr/ppppppp/7/7/7/PPPPPPP/RBBKNNR[] w - - 0 1
""", ("rbbk1n1/p1pp1pr/4p1N/1p5/2P3n/PP1PPPP/R1BK2R[Pbn] w - - 0 8", "3k3/7/7/7/7/7/3K3[PPpp] b - - 0 1")),
    # With pseudo-royal pieces (extinctionPseudoRoyal), the king is in check still: a king
    # attacked, and no move, is checkmate (ggn saw only the pseudo-royal pieces, and said
    # stalemate). Coregal's queen; maharajah's amazon, the only white piece.
    Case("ggn-coregal", """\
[ggn-coregal:chess]
extinctionValue = loss
extinctionPieceTypes = q
extinctionPseudoRoyal = true
extinctionPieceCount = 64
""", ("8/7q/8/7k/8/7Q/5K2/8 b - - 11 49", "8/7q/8/7k/8/7R/5K2/8 b - - 11 49", "k7/8/1Q6/8/8/8/8/K7 b - - 0 1",
      "kq6/8/1QK5/8/8/8/8/8 b - - 0 1")),
    Case("ggn-maharajah", """\
[ggn-maharajah]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
amazon = m
startFen = rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1
extinctionValue = loss
extinctionPieceTypes = m
extinctionPseudoRoyal = true

[ggn-maharajah2:ggn-maharajah]
amazon = -
customPiece1 = m:QNAD
startFen = 3mm3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1
""", ("2M1kbnr/4pppp/3p4/8/8/8/8/8 b k - 0 11", "Mk6/1qr5/q7/8/7r/8/8/8 w - - 0 1",
      "8/8/8/8/4r3/4r2k/8/4q2M w - - 0 1")),
    Case("ggn-maharajah2", "", ("8/8/8/8/P3m3/8/1PPP1KPP/RNBQ1BNR w - - 0 7",)),
    # A castling that moves the king one square, beside the king's step to the same square
    # (ggn played the step for both); one where the king stays, written as the king onto its
    # rook (ggn wrote 'g8g8').
    Case("ggn-fischerandom", "[ggn-fischerandom:chess]\nchess960 = true\n",
         ("bnqnr1kr/ppppbppp/8/4p3/2P5/6PB/PP1PPP1P/BNQNR1KR b HEhe - 2 3",
          "1rk1r3/8/8/8/8/8/8/1RK1R3 w EBeb - 0 1", "r1k1r3/8/8/8/8/8/8/R1K1R3 w EAea - 0 1"),
         chess960=True),
    Case("ggn-caparandom", "[ggn-caparandom:capablanca]\nchess960 = true\n",
         ("br1kcrn1n1/a2pppBpp1/9q/10/P9/8b1/2PPPPP1P1/2AK1R1B2 b Ffb - 1 12",), chess960=True),
    Case("ggn-haynie", """\
[ggn-haynie:chess]
maxRank = 6
maxFile = 6
startFen = rbqkbr/pppppp/6/6/PPPPPP/RBQKBR w KQkq - 0 1
doubleStep = false
promotionPieceTypes = rbq
castlingQueensideFile = c
castlingKingsideFile = e
promotionRegionWhite = *6
""", ("rbqk1r/pp1ppb/2p3/2P2P/PP1PP1/R1QKBR b KQkq - 0 3", "r2k1r/6/6/6/6/R2K1R w KQkq - 0 1")),
    # Accepted as Fairy-Stockfish accepts them (ggn refused them): a start FEN of the placement
    # alone (white to move), castling rights in the start of a game without castling (ignored);
    # and a stalemate that draws is decided by material where it is counted.
    Case("ggn-capturethequeen", """\
[ggn-capturethequeen]
startFen = 3q4/8/8/8/8/8/8/1QQ1QQ2
queen = q
extinctionPieceTypes = q
nFoldRule = 0
materialCounting = blackdrawodds
""", ("3q4/8/8/8/8/8/8/1QQ1QQ2", "3Q4/8/8/8/8/8/8/Q1Q1Q3 b - - 0 3")),
    Case("ggn-nocastling", "[ggn-nocastling:chess]\ncastling = false\n",
         ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")),
    # A board of 6 files inherits chess's castling files (g, c): its start gives no castling
    # rights, so none is played (ggn refused it, "the board has 6 files", naming no option).
    Case("ggn-minihouse", """\
[ggn-minihouse:crazyhouse]
maxRank = 6
maxFile = 6
startFen = 2bnrk/5p/6/6/P5/KRNB2
promotionPieceTypes = nbr
promotionRegionWhite = *6
doubleStep = false
""", ("2bnrk/5p/6/6/P5/KRNB2", "2bnrk/5p/6/6/P5/KRNB2[Qq] w - - 0 1")),
)


@cache
def _catalogue() -> Catalogue:
    text = "\n".join(case.ini for case in CASES)
    sf.load_variant_config(text)
    catalogue = Catalogue()
    assert catalogue.add_ini(text, source="test_rules_fsf.py") == tuple(case.name for case in CASES)
    return catalogue


def _winner(fen: str, value: int) -> str | None:
    if value == 0:
        return None
    mover = "first" if fen.split(" ")[1] == "w" else "second"
    return mover if value > 0 else ("second" if mover == "first" else "first")


def _fields(fen: str) -> list[str]:
    """Placement (with the hands), side to move, castling and en passant of a FEN (its counters
    and counts aside, and both ``-`` where a shogi-like FEN has neither)."""
    parts = fen.split(" ")
    return [*parts[:2], *[*(part for part in parts[2:] if not part.isdigit()), "-", "-"][:2]]


def _compare(entry: Entry, name: str, fen: str, chess960: bool) -> Position:
    """Compare the legal moves of ``fen``, the FEN after each, and the end if it is one."""
    position = entry.rules.position(entry.to_feen(fen))
    plays = uci_moves(entry.rules, position, variant=entry.variant)
    mine = set(plays)
    theirs = set(sf.legal_moves(name, fen, [], chess960))
    assert mine == theirs, (f"{name} {fen!r}: ggn alone {sorted(mine - theirs)}, "
                            f"pyffish alone {sorted(theirs - mine)}")
    ended, value = sf.is_immediate_game_end(name, fen, [])
    if ended or not theirs:
        if not ended:
            value = sf.game_result(name, fen, [])
        outcome = entry.rules.outcome(position)
        assert outcome is not None and outcome.winner == _winner(fen, value), (name, fen, outcome, value)
    for move, play in plays.items():
        after = entry.from_feen(entry.rules.play(position, play))
        fsf = sf.get_fen(name, fen, [move], chess960)
        assert _fields(after) == _fields(fsf), f"{name} {fen!r}, after {move}: ggn {after!r}, pyffish {fsf!r}"
    return position


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_section_agrees_with_pyffish(case: Case) -> None:
    entry = _catalogue().entry(case.name)
    for fen in case.fens:
        _compare(entry, case.name, fen, case.chess960)
