"""Seirawan's gating position by position against pyffish: the gatings of a castling (onto the
king's square or the rook's), a king's gating that would shield its own destination (illegal,
as Fairy-Stockfish tests a gating without its piece), a piece gating its own kind (shouse),
the rights lost when the hand empties, and SAN's ``Nc3/H`` and ``O-O/Hh1``."""

from __future__ import annotations

import pytest

from ggn.notation import san
from ggn.variants import registry
from ggn.variants.uci import moves as uci_moves

pytestmark = pytest.mark.slow

sf = pytest.importorskip("pyffish")

POSITIONS = [
    ("seirawan", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQBCDFGkqbcdfg - 0 1"),
    ("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[H] w KQBCDFGkq - 0 1"),
    ("seirawan", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[] w KQkq - 0 1"),
    ("shouse", "rnbqnbnr/pppQpkpp/8/8/e7/4EPP1/PPP2P1P/RNB1Kq~1R[HPPhb] w KQBCabcdfgh - 0 10"),
    ("shouse", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPqPPP/RNBQKBNR[NPeep] w KQBCDFGkbcf - 0 6"),
    ("shouse", "2B1k2r/4bp1p/3p1pqn/2p5/7P/6n1/1PPPPP1P/1NBKE1ER[HHQRBNPPPPr] b BCHk - 0 16"),
]


@pytest.mark.parametrize(("name", "fen"), POSITIONS)
def test_gating_moves_fens_and_san_against_pyffish(name: str, fen: str) -> None:
    entry = registry.entry(name)
    rules = entry.rules
    position = rules.position(entry.to_feen(fen))
    assert entry.from_feen(position).split(" ")[:4] == sf.get_fen(name, fen, []).split(" ")[:4]
    mine = uci_moves(rules, position)
    assert set(mine) == set(sf.legal_moves(name, fen, []))
    for move, play in mine.items():
        after = entry.from_feen(rules.play(position, play))
        assert after.split(" ")[:4] == sf.get_fen(name, fen, [move]).split(" ")[:4], move
        assert san.write(rules, position, play) == sf.get_san(name, fen, move), move


def test_castling_gates_are_written_as_fairy_stockfish_writes_them() -> None:
    entry = registry.entry("seirawan")
    fen = POSITIONS[0][1]
    position = entry.rules.position(entry.to_feen(fen))
    mine = uci_moves(entry.rules, position)
    written = {move: san.write(entry.rules, position, mine[move]) for move in ("e1g1h", "h1e1h", "a1e1e")}
    assert written == {"e1g1h": "O-O/He1", "h1e1h": "O-O/Hh1", "a1e1e": "O-O-O/Ea1"}
    assert san.parse(entry.rules, position, "O-O/Hh1") == mine["h1e1h"]
