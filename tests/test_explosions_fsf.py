"""Explosions (Fairy-Stockfish's ``blastOnCapture``, ``blastImmuneTypes``, ``mutuallyImmuneTypes``),
position by position against pyffish.

``tests/test_variants_fsf.py`` plays atomic, nocheckatomic and atomar along random games; this
file sets up the positions where the explosion meets the other rules, each named for what it
shows: a king that may not capture, kings side by side that cannot check each other, a capture
beside one's own king, the other king exploded while in check, castling out of, through and
beside check, rights lost to an explosion, en passant and promotion captures, atomar's kings
that survive and may not take each other, nocheckatomic's king that explodes itself, and the
ends (checkmate, stalemate, extinction). For each, ggn's legal moves (as Fairy-Stockfish's
strings) and their count equal pyffish's, and after each of them the FEN, the game's end and
the move's SAN equal pyffish's; where the case says what the answer is, it is asserted too.
And perft reaches Fairy-Stockfish's published counts (its ``tests/perft.sh``, in
``tests/vectors/perft.json``; its chess960 counts of atomic under an ini section of this
file's own).
"""

from __future__ import annotations

import io

import pytest

from ggn import notation
from ggn.cli import run
from ggn.rules import Ending, Outcome, perft
from ggn.variants import registry, uci
from ggn.variants.registry import Catalogue, Entry
from ggn.variants.uci import moves as uci_moves
from support import loaded_in_both, perft_cases
from test_variants_fsf import _fields, _winner

pytestmark = pytest.mark.slow  # against pyffish, as the other oracle files

sf = pytest.importorskip("pyffish")

# Atomic chess960 (Fairy-Stockfish's perft.sh counts it with UCI_Chess960), under a name of this file's.
OWN = "[ggn-atomic960:atomic]\nchess960 = true\n"


def _own() -> Catalogue:
    return loaded_in_both(OWN, "test_explosions_fsf.py")[0]


def _entry(name: str) -> Entry:
    return _own().entry(name) if name.startswith("ggn-") else registry.entry(name)


# (why, variant, FEN, pyffish's legal moves where the case says them)
CASES = [
    ("a king may not capture: it would explode", "atomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
     {"e1d1", "e1e2", "e1f1", "e1f2"}),
    ("kings side by side cannot be checked", "atomic", "4r3/8/8/8/8/8/3k4/4K3 w - - 0 1",
     {"e1d1", "e1e2", "e1f1", "e1f2"}),
    ("no capture beside one's own king", "atomic", "4k3/8/8/8/8/8/3pP3/3NK3 w - - 0 1", {"e1f1", "e1f2"}),
    ("exploding the other king is legal in check", "atomic", "3pk3/8/8/8/8/8/4r3/3QK3 w - - 0 1",
     {"d1d8", "e1f1"}),
    ("castling neither out of nor through check", "atomic", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", None),
    ("no castling out of check", "atomic", "4k3/8/8/8/8/8/8/R3K1r1 w Q - 0 1", {"e1d2", "e1e2", "e1f2"}),
    ("castling beside the other king, where no check is", "atomic", "8/8/8/8/8/8/3k1r2/R3K2R w KQ - 0 1",
     None),
    ("an explosion takes a castling rook and its right", "atomic", "r3k2r/8/8/8/8/8/7p/R3K1NR b KQkq - 0 1",
     None),
    ("a promotion capture explodes the new piece", "atomic", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", None),
    ("en passant explodes around the pawn's square", "atomic", "4k3/8/8/2nPp3/8/8/8/4K3 w - e6 0 1", None),
    ("checkmate", "atomic", "7k/6Q1/8/8/8/8/8/4K3 b - - 0 1", set()),
    ("stalemate", "atomic", "k7/2Q5/8/8/8/8/8/4K3 b - - 0 1", set()),
    ("the king is gone: extinction", "atomic", "r3k3/8/8/8/8/8/8/R7 b - - 0 1", set()),
    ("kings may not take each other in atomar", "atomar", "8/8/8/3kK3/8/8/8/8 w - - 0 1",
     {"e5d4", "e5d6", "e5e4", "e5e6", "e5f4", "e5f5", "e5f6"}),
    ("a king takes and survives in atomar", "atomar", "8/8/8/3kq3/4K3/8/8/8 w - - 0 1", None),
    ("explosions spare the kings in atomar", "atomar", "4k3/3pq3/8/8/8/8/4R3/4K3 w - - 0 1", None),
    ("a king may take and explode in nocheckatomic", "nocheckatomic", "8/8/8/3kq3/4K3/8/8/8 w - - 0 1",
     {"e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5"}),
    ("a king exploded takes its rooks' rights", "nocheckatomic", "r3k2r/3p4/8/8/8/8/8/R3K2R w KQkq - 0 1",
     None),
    ("pawns stay beside an explosion", "nocheckatomic", "4k3/8/8/3ppp2/3pnp2/3PPP2/8/4K3 w - - 0 1", None),
]


@pytest.mark.parametrize(("why", "name", "fen", "expected"), CASES, ids=[case[0] for case in CASES])
def test_explosions_as_pyffish(why: str, name: str, fen: str, expected: set[str] | None) -> None:
    entry = _entry(name)
    rules = entry.rules
    position = rules.position(entry.to_feen(fen))
    legal = set(sf.legal_moves(name, fen, []))
    if expected is not None:
        assert legal == expected, f"{why}: pyffish's moves are {sorted(legal)}"
    mine = uci_moves(rules, position, variant=entry.variant)
    assert set(mine) == legal, why
    assert rules.count(position) == len(legal), why
    _assert_end(entry, fen, [], rules.outcome(position), why)
    for move, play in sorted(mine.items()):
        after = rules.play(position, play)
        assert _fields(entry.from_feen(after)) == _fields(sf.get_fen(name, fen, [move])), f"{why}: {move}"
        _assert_end(entry, fen, [move], rules.outcome(after), f"{why}: {move}")
        assert notation.write(rules, position, play) == sf.get_san(name, fen, move), f"{why}: {move}"


def _assert_end(entry: Entry, fen: str, moves: list[str], outcome: Outcome | None, why: str) -> None:
    name = entry.name
    ended, value = sf.is_immediate_game_end(name, fen, moves)
    if not ended and sf.legal_moves(name, fen, moves):
        assert outcome is None, why
        return
    if not ended:
        value = sf.game_result(name, fen, moves)
    mover_fen = sf.get_fen(name, fen, moves)
    assert outcome is not None, why
    assert outcome.winner == _winner(mover_fen, value), f"{why}: {outcome}, pyffish {value}"
    assert (outcome.ending is Ending.EXTINCTION) == ended, f"{why}: {outcome}"


def test_the_ends_are_named() -> None:
    rules = registry.rules("atomic")
    entry = registry.entry("atomic")
    mate = rules.outcome(rules.position(entry.to_feen("7k/6Q1/8/8/8/8/8/4K3 b - - 0 1")))
    assert mate is not None and (mate.winner, mate.ending) == ("first", Ending.CHECKMATE)
    stalemate = rules.outcome(rules.position(entry.to_feen("k7/2Q5/8/8/8/8/8/4K3 b - - 0 1")))
    assert stalemate is not None and (stalemate.winner, stalemate.ending) == (None, Ending.STALEMATE)
    # Both kings exploded at once: the player to move wins, as in Fairy-Stockfish.
    none = registry.entry("nocheckatomic")
    start = none.rules.position(none.to_feen("8/8/8/3kq3/4K3/8/8/8 w - - 0 1"))
    gone = none.rules.outcome(none.rules.play(start, uci.parse(none.rules, start, "e4d5")))
    assert gone is not None and (gone.winner, gone.ending) == ("second", Ending.EXTINCTION)


def test_the_command_line_plays_atomic_by_its_name() -> None:
    out, err = io.StringIO(), io.StringIO()
    fen = "3pk3/8/8/8/8/8/4r3/3QK3 w - - 0 1"
    assert run(["legal", "atomic", "--fen", fen], out, err) == 0, err.getvalue()
    assert sorted(out.getvalue().split()) == ["Kf1", "Qxd8"]
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", "atomic", "e4", "e5", "Qh5", "Nc6", "Qxf7"], out, err) == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[0] == "r1bq3r/pppp2pp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQ - 0 3"
    assert lines[-1] == "1-0 first player wins by extinction"
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", "atomic", "e4", "d5", "Kxd2"], out, err) == 1
    assert "'Kxd2' is not a legal move" in err.getvalue()


@pytest.mark.parametrize(("name", "feen", "depth", "count"), [
    pytest.param(name, *case.values, marks=case.marks, id=f"{name}-{case.id}")
    for name in ("atomic", "nocheckatomic", "atomar") for case in perft_cases(name)])
def test_perft_reaches_fairy_stockfishs_published_counts(name: str, feen: str | None, depth: int,
                                                        count: int) -> None:
    assert perft(registry.rules(name), depth, feen) == count


@pytest.mark.full
@pytest.mark.parametrize(("fen", "count"), [
    ("8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1", 61401),
    ("r3k1rR/5K2/8/8/8/8/8/8 b kq - 0 1", 98729),
    ("Rr2k1rR/3K4/3p4/8/8/8/7P/8 w kq - 0 1", 241478),
    ("1R4kr/4K3/8/8/8/8/8/8 b k - 0 1", 17915),
])
def test_perft_of_atomic_chess960_reaches_fairy_stockfishs_published_counts(fen: str, count: int) -> None:
    # https://github.com/fairy-stockfish/Fairy-Stockfish/blob/master/tests/perft.sh (960 variants)
    entry = _entry("ggn-atomic960")
    assert perft(entry.rules, 4, entry.rules.position(entry.to_feen(fen))) == count
