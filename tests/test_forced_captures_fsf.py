"""Forced captures (Fairy-Stockfish's ``mustCapture``) and suicide's stalemate by counting
(``stalematePieceCount``), position by position against pyffish.

``tests/test_variants_fsf.py`` plays the built-in games that force captures (losers, giveaway,
antichess, suicide, codrus) along random games; this file sets up the positions where the rule
meets the others, each named for what it shows: en passant as the only capture, a capture
that is illegal (the royal piece pinned or in check) and so forces nothing, castling that is
no capture, drops that a capture forbids, promotion to the king, and the ends (a checkmate or a
stalemate that wins, a bare king, a stalemate decided by the pieces on the board). For each,
ggn's legal moves (as Fairy-Stockfish's strings), their count and the game's end equal
pyffish's, and where the case says what the answer is, it is asserted too. And perft reaches
Fairy-Stockfish's published counts (its ``tests/perft.sh``, in ``tests/vectors/perft.json``).
"""

from __future__ import annotations

import io

import pytest

from ggn import notation
from ggn.cli import run
from ggn.rules import Ending, perft
from ggn.variants import registry
from ggn.variants.registry import Catalogue, Entry
from ggn.variants.uci import moves as uci_moves
from support import loaded_in_both, perft_cases

pytestmark = pytest.mark.slow  # against pyffish, as the other oracle files

sf = pytest.importorskip("pyffish")

# Crazyhouse with forced captures (Fairy-Stockfish's coffeehouse, under a name of this file's).
OWN = "[ggn-coffee:crazyhouse]\nmustCapture = true\n"


def _own() -> Catalogue:
    return loaded_in_both(OWN, "test_forced_captures_fsf.py")[0]


def _entry(name: str) -> Entry:
    return _own().entry(name) if name.startswith("ggn-") else registry.entry(name)


def _winner(fen: str, value: int) -> str | None:
    if value == 0:
        return None
    mover, other = ("first", "second") if fen.split(" ")[1] == "w" else ("second", "first")
    return mover if value > 0 else other


# (why, variant, FEN, pyffish's legal moves where the case says them)
CASES = [
    ("en passant is the only capture, and forced", "antichess",
     "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3", {"d4e3"}),
    ("a capture forces, quiet moves go", "antichess",
     "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2", {"e4d5"}),
    ("the king may capture, and promotes too", "antichess", "8/P7/8/8/8/8/8/k7 w - - 0 1",
     {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7a8k"}),
    ("castling is no capture: only the captures stay", "giveaway",
     "r3k2r/8/8/8/8/8/p7/R3K2R w KQkq - 0 1", {"a1a2", "h1h8"}),
    ("without a capture, castling is legal", "giveaway", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", None),
    ("the king, no royal piece, castles out of and through attack", "giveaway",
     "4r3/8/8/8/8/5b2/8/R3K2R w KQ - 0 1",
     {*(f"a1{square}" for square in ("a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1")),
      "e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "h1f1", "h1g1",
      *(f"h1h{rank}" for rank in range(2, 9))}),
    ("a capture that leaves the king in check forces nothing", "losers",
     "p3r2k/8/8/8/8/8/8/R3K3 w - - 0 1", {"e1d1", "e1d2", "e1f1", "e1f2"}),
    ("a pinned piece's capture forces nothing", "losers",
     "k3r3/8/8/8/8/3p4/4B3/4K3 w - - 0 1", {"e1d1", "e1d2", "e1f1", "e1f2"}),
    ("taking the checker is forced", "losers", "k7/8/8/8/8/8/3r4/3PK3 b - - 0 1", None),
    ("a capture forbids drops", "ggn-coffee", "k7/8/8/8/8/8/3r4/4K2R[Nn] w - - 0 1", {"e1d2"}),
    ("without a capture, drops are legal", "ggn-coffee", "k7/8/8/8/8/8/8/4K2R[Nn] w - - 0 1", None),
    ("the king is no promotion choice in codrus", "codrus", "7k/P7/8/8/8/8/8/K7 w - - 0 1",
     {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a1a2", "a1b1", "a1b2"}),
    ("checkmated wins in losers", "losers", "8/8/8/8/8/5k2/P5q1/7K w - - 0 1", set()),
    ("stalemated wins in losers", "losers", "7k/8/8/8/8/p7/P4q2/7K w - - 0 1", set()),
    ("a bare king wins in losers", "losers", "k7/8/8/8/8/8/3r4/4K3 w - - 0 1", set()),
    ("the other's bare king wins for it", "losers", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", set()),
    ("no piece left wins in antichess", "antichess", "8/8/8/8/8/8/8/k7 w - - 0 1", set()),
    ("no king left wins in codrus", "codrus", "8/P7/8/8/8/8/8/k7 w - - 0 1", set()),
    ("stalemated with as many pieces draws in suicide", "suicide", "8/8/8/8/p7/P7/8/8 w - - 0 1", set()),
    ("stalemated with more pieces loses in suicide", "suicide", "8/8/8/8/p7/P7/P7/8 w - - 0 1", set()),
    ("stalemated with fewer pieces wins in suicide", "suicide", "8/8/7p/8/p7/P7/8/8 w - - 0 1", set()),
    ("stalemated wins in antichess, whatever the count", "antichess", "8/8/8/8/p7/P7/P7/8 w - - 0 1", set()),
]


@pytest.mark.parametrize(("why", "name", "fen", "expected"), CASES, ids=[case[0] for case in CASES])
def test_forced_captures_as_pyffish(why: str, name: str, fen: str, expected: set[str] | None) -> None:
    entry = _entry(name)
    position = entry.rules.position(entry.to_feen(fen))
    legal = set(sf.legal_moves(name, fen, []))
    if expected is not None:
        assert legal == expected, f"{why}: pyffish's moves are {sorted(legal)}"
    mine = uci_moves(entry.rules, position, variant=entry.variant)
    assert set(mine) == legal, why
    assert entry.rules.count(position) == len(legal), why
    outcome = entry.rules.outcome(position)
    ended, value = sf.is_immediate_game_end(name, fen, [])
    if not ended and legal:
        assert outcome is None, why
        return
    if not ended:
        value = sf.game_result(name, fen, [])
    assert outcome is not None, why
    assert outcome.winner == _winner(fen, value), f"{why}: {outcome}, pyffish {value}"
    sudden = outcome.ending in (Ending.EXTINCTION, Ending.BARE_KING)
    assert sudden == ended, f"{why}: {outcome}"


def test_the_forced_capture_of_a_pawn_promoting_to_a_king_is_written_as_pyffish_writes_it() -> None:
    fen = "1n6/P7/8/8/8/8/8/k7 w - - 0 1"
    entry = registry.entry("antichess")
    position = entry.rules.position(entry.to_feen(fen))
    mine = uci_moves(entry.rules, position, variant=entry.variant)
    assert set(mine) == set(sf.legal_moves("antichess", fen, [])) == {f"a7b8{piece}" for piece in "qrbnk"}
    for move, play in mine.items():
        assert notation.write(entry.rules, position, play) == sf.get_san("antichess", fen, move)
    assert notation.write(entry.rules, position, mine["a7b8k"]) == "axb8=K"


def test_the_command_line_plays_antichess_by_its_name() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["legal", "antichess", "--fen", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3"],
               out, err) == 0, err.getvalue()
    assert out.getvalue().split() == ["dxe3"]
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", "antichess", "e4", "d5", "e5"], out, err) == 1
    assert "'e5' is not a legal move" in err.getvalue() and "exd5" in err.getvalue()


@pytest.mark.parametrize(("name", "feen", "depth", "count"), [
    pytest.param(name, *case.values, marks=case.marks, id=f"{name}-{case.id}")
    for name in ("antichess", "giveaway", "codrus", "losers") for case in perft_cases(name)])
def test_perft_reaches_fairy_stockfishs_published_counts(name: str, feen: str | None, depth: int,
                                                        count: int) -> None:
    assert perft(registry.rules(name), depth, feen) == count
