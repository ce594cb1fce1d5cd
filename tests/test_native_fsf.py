"""The kernel's rules of the last games it took, position by position against pyffish and the pure path.

Placement (bishops dropped on both colours, castling rights given by the drops of a king or a
rook), petrified (a capturing piece turned into a wall, the wall then blocking; a pseudo-royal
king that may not take), sittuyin (promotions onto the square or a step aside, the rook drops
of the first rank) and atomic (explosions with pseudo-royal kings): for each position named
for what it shows, the kernel's legal plays are the pure path's (names and transitions), their
number is pyffish's, and the kernel's perft to a few plies is pyffish's. Then positions along
random games that pyffish plays (seeds from ``GGN_NATIVE_SEEDS``' first, not tuned on): the
kernel's count of legal plays is pyffish's at every one, and its perft of two plies at some.
"""

from __future__ import annotations

import random

import pytest

from ggn.game import Game
from ggn.rules import _native
from test_native import SEEDS, _covered, _kernel_legal, _pure_legal

sf = pytest.importorskip("pyffish")

pytestmark = pytest.mark.skipif(not _native.native_available(), reason="the C kernel is not built here")

# (why, game, FEN, plies of perft)
CASES = [
    ("a king dropped at home between its rooks takes the rights", "placement",
     "8/pppppppp/8/8/8/8/PPPPPPPP/R6R[KQBBNNkqrrbbnn] w - - 0 1", 2),
    ("a rook dropped in a corner with its king at home takes the rights", "placement",
     "8/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNkqrrbbnn] w - - 0 1", 2),
    ("the second bishop goes onto the other colour", "placement",
     "8/pppppppp/8/8/8/8/PPPPPPPP/1B6[KQRRBNNkqrrbbnn] w - - 0 1", 2),
    ("no piece onto the last square of a colour the bishops still need", "placement",
     "8/pppppppp/8/8/8/8/PPPPPPPP/RN1Q2KR[BBNkqrrbbnn] w - - 0 1", 2),
    ("black's bishops and castling drops", "placement",
     "r3k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[qrbbnn] b Q - 0 1", 2),
    ("castling after the rights a drop gave", "placement",
     "rn2kb1r/pppppppp/8/8/8/8/PPPPPPPP/R3KBNR[QBNqbn] w KQkq - 0 1", 2),
    ("a rook takes and turns into a wall", "petrified", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", 3),
    ("a wall blocks both sides", "petrified", "3rk3/8/8/3*4/8/8/8/3RK3 w - - 0 1", 3),
    ("a king may not take: it would turn into a wall", "petrified", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", 3),
    ("kings side by side: neither may take the other", "petrified", "8/8/8/8/8/3k4/8/4K3 w - - 0 1", 3),
    ("a pawn takes and stays a pawn", "petrified", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", 3),
    ("the setup: forced drops, rooks onto the first rank only", "sittuyin",
     "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1", 2),
    ("the last pawn promotes anywhere, where it stands or a step aside", "sittuyin",
     "4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1", 3),
    ("of several pawns only those in the zone promote", "sittuyin",
     "4k3/8/2p5/3P4/4p3/2P5/8/4K3[] w - - 0 1", 3),
    ("a promotion may not give check (here a discovered one)", "sittuyin",
     "8/8/8/R2P3k/8/8/8/4K3[] w - - 0 1", 3),
    ("no promotion past the limit of one ferz", "sittuyin", "4k3/8/8/3P4/8/8/8/3FK3[] w - - 0 1", 3),
    ("black's promotions, a piece a step away barring one", "sittuyin",
     "4k3/8/8/8/3p4/2N5/8/4K3[] b - - 0 1", 3),
    ("kings side by side cannot be checked", "atomic", "4r3/8/8/8/8/8/3k4/4K3 w - - 0 1", 3),
    ("a king may not take: it would explode", "atomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", 3),
    ("exploding the other king is legal in check", "atomic", "3pk3/8/8/8/8/8/4r3/3QK3 w - - 0 1", 3),
    ("castling neither out of nor through check", "atomic", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", 2),
    ("castling beside the other king, where no check is", "atomic", "8/8/8/8/8/8/3k1r2/R3K2R w KQ - 0 1", 2),
    ("no capture beside one's own king, en passant's explosion", "atomic",
     "4k3/8/8/2nPp3/8/8/3pP3/3NK3 w - e6 0 1", 2),
]


def _fsf_perft(name: str, fen: str, moves: list[str], depth: int) -> int:
    legal = sf.legal_moves(name, fen, moves)
    if depth <= 1:
        return len(legal) if depth == 1 else 1
    return sum(_fsf_perft(name, fen, [*moves, move], depth - 1) for move in legal)


@pytest.mark.parametrize(("why", "name", "fen", "depth"), CASES, ids=[case[0] for case in CASES])
def test_cases(why: str, name: str, fen: str, depth: int) -> None:
    rules = _covered(name)
    position = Game(name, fen=fen).position
    kernel = _kernel_legal(rules, position)
    assert kernel == _pure_legal(rules, position), why
    assert sum(kernel.values()) == len(sf.legal_moves(name, fen, [])), why
    assert _native.perft(rules, position, depth) == _fsf_perft(name, fen, [], depth), why


@pytest.mark.parametrize("name", ["placement", "petrified", "sittuyin", "atomic"])
def test_random_games_against_pyffish(name: str) -> None:
    rules = _covered(name)
    start = sf.start_fen(name)
    assert _native._game(rules, rules.position()) is not None  # counts of one ply by the kernel too
    chance = random.Random(SEEDS[0])
    fen = start
    for ply in range(40):
        legal = sf.legal_moves(name, fen, [])
        position = Game(name, fen=fen).position
        assert _native.count(rules, position) == len(legal), fen
        if ply % 15 == 9:
            assert _native.perft(rules, position, 2) == _fsf_perft(name, fen, [], 2), fen
        if not legal:
            break
        # captures half the time (they make petrified's walls and atomic's explosions)
        captures = [] if chance.random() < 0.5 else [
            move for move in legal if sf.is_capture(name, fen, [], move)]
        move = chance.choice(captures or legal)
        fen = sf.get_fen(name, fen, [move])
