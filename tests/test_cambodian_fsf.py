"""Cambodian chess's first moves (Fairy-Stockfish's ``cambodianMoves``: cambodian, karouk)
against pyffish, position by position: the king's leap (not out of check), the met's double
step (a block of a check too), the rights (``+`` in FEEN, gates in the FEN's castling field)
ending with the piece's first move and the king's with an enemy rook's move onto its rank or
file, and the FEN read and written; and makpong's king in check (``makpongRule``), which may
only take its one checker. Random games, endings and perft of these games are
tests/test_variants_fsf.py's."""

from __future__ import annotations

import random

import pytest

from ggn.errors import NotationError
from ggn.game import Game
from ggn.notation import write
from ggn.variants import registry
from ggn.variants.uci import moves

sf = pytest.importorskip("pyffish")

POSITIONS = [
    "4k3/8/8/8/8/8/8/3KM3 w DE - 0 1",  # both first moves
    "4k3/8/8/8/8/8/8/r2KM3 w DE - 0 1",  # in check: no leap, and the met cannot help
    "4k3/8/8/8/8/8/8/3KM2r w DE - 0 1",  # the met pinned, the king free to leap
    "4k3/8/8/8/8/8/2n5/3KM3 w DE - 0 1",  # a knight's check: no leap
    "4k3/8/8/8/8/4r3/8/3KM3 w DE - 0 1",  # the met's double step onto an enemy: none
    "4k3/8/8/8/4r3/8/8/4K3 w E - 0 1",  # a king on e1 with its right: a check along the file
    "3mk3/8/8/8/8/8/8/1r1KM3 w DEde - 0 1",  # a check the king may leave by a step only
    "4k3/8/8/8/8/8/2P1P3/3KM3 w DE - 0 1",  # the leap's squares held by its own pawns
    "3k4/8/8/8/8/8/8/3KM1R1 w DEd - 0 1",  # a rook ready to take black's right
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
    "r1sm1snr/3k4/ppp1pppp/3p4/4P3/PPnP1PPP/8/RNSKMSNR w DE - 0 6",
]


@pytest.mark.parametrize("name", ["cambodian", "karouk"])
@pytest.mark.parametrize("fen", POSITIONS)
def test_first_moves_and_rights_as_pyffish(name: str, fen: str) -> None:
    entry = registry.entry(name)
    if name == "karouk":
        fen = fen.replace(" - 0", " - 1+1 0")
    game = Game(entry.rules, fen=fen)
    assert game.fen() == sf.get_fen(name, fen, [])
    legal = moves(entry.rules, game.position)
    assert set(legal) == set(sf.legal_moves(name, fen, []))
    for move, play in legal.items():
        after = Game(entry.rules, fen=fen)
        after.push(play)
        assert after.fen() == sf.get_fen(name, fen, [move]), move
        assert write(entry.rules, game.position, play) == sf.get_san(name, fen, move) or name == "karouk"
        assert set(moves(entry.rules, after.position)) == set(sf.legal_moves(name, fen, [move])) \
            or after.outcome() is not None


def test_a_rook_aimed_at_the_king_takes_its_right() -> None:
    fen = "3rk3/8/8/8/8/8/r7/3KM3 b DE - 0 1"
    for move, gates in (("d8d7", "E"), ("d8c8", "DE"), ("a2a1", "E"), ("a2b2", "DE")):
        game = Game("cambodian", fen=fen)
        game.push(move)
        assert game.fen().split(" ")[2] == gates == sf.get_fen("cambodian", fen, [move]).split(" ")[2]


def test_gates_are_read_strictly() -> None:
    entry = registry.entry("cambodian")
    assert entry.to_feen("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1") == "4k^3/8/8/8/8/8/8/3+K^+M3 / C/c"
    for fen, reason in (
            ("4k3/8/8/8/8/8/8/R2KM3 w ADE - 0 1", "gate 'A' needs a white king or met on a1"),
            ("4k3/8/8/8/8/8/8/3KM3 w DEH - 0 1", "gate 'H' needs a white king or met on h1"),
            ("4k3/8/8/8/8/8/8/3KM3 w KQ - 0 1", "'K' is not a gate of cambodian"),
            ("4k3/8/8/8/8/8/8/3KM3 w DD - 0 1", "gate 'D' is given twice"),
    ):
        with pytest.raises(NotationError, match=reason):
            entry.to_feen(fen)
    with pytest.raises(NotationError, match="off the first rank"):
        entry.from_feen("4k^3/8/8/8/8/8/3+K^4/8 / C/c")


def test_random_games_against_pyffish() -> None:
    """Seeded random games (uniform and capture-minded) of both games as Games against pyffish:
    every position's legal moves, FEN (the counters too) and end."""
    plies = 0
    for name in ("cambodian", "karouk"):
        entry = registry.entry(name)
        rng = random.Random(f"20261127:{name}")
        for number in range(4):
            fen = sf.start_fen(name)
            game = Game(entry.rules, fen=fen)
            for _ in range(80):
                legal = sorted(sf.legal_moves(name, fen, []))
                mine = moves(entry.rules, game.position) if game.legal_moves() else {}
                assert set(mine) == set(legal), fen
                ended, _ = sf.is_immediate_game_end(name, fen, [])
                if not legal or ended:
                    assert game.outcome() is not None
                    break
                captures = [move for move in legal if move[2:4] in fen_squares(fen)]
                move = rng.choice(captures if captures and number % 2 else legal)
                game.push(mine[move])
                fen = sf.get_fen(name, fen, [move])
                assert game.fen() == fen
                plies += 1
    assert plies > 150


def fen_squares(fen: str) -> set[str]:
    """The squares of a FEN's placement that hold a piece."""
    taken = set()
    for number, row in enumerate(fen.split(" ", maxsplit=1)[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                taken.add(f"{chr(97 + file)}{8 - number}")
                file += 1
    return taken


MAKPONG = [
    "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",  # the king takes its one checker
    "4k3/8/8/8/8/4r3/8/4K3 w - - 0 1",  # in check from afar: no king move at all
    "4k3/8/8/8/8/8/4rr2/4K3 w - - 0 1",  # the checker is guarded
    "4k3/8/8/8/8/5n2/4r3/4K3 w - - 0 1",  # two checkers: taking one is no move
    "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",  # not in check: the king moves as it likes
    "4k3/8/8/8/8/8/4r3/3NK3 w - - 0 1",  # the knight may take, the king too
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
]


@pytest.mark.parametrize("fen", MAKPONG)
def test_makpong_kings_in_check_as_pyffish(fen: str) -> None:
    entry = registry.entry("makpong")
    position = entry.rules.position(entry.to_feen(fen))
    assert set(moves(entry.rules, position)) == set(sf.legal_moves("makpong", fen, []))
    outcome = entry.rules.outcome(position)
    if not sf.legal_moves("makpong", fen, []):
        assert outcome is not None and outcome.winner == ("second" if sf.game_result("makpong", fen, []) < 0
                                                          else None)
