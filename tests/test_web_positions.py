"""The explorer's position field takes FEEN or the game's FEN: a faulty one is answered with
the error of what it looks like (FEN for a FEN, FEEN for a FEEN)."""

from __future__ import annotations

import pytest

from ggn.errors import GGNError
from ggn.web._explorer import Subject

FEN_BAD_EN_PASSANT = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1"


def test_a_faulty_fen_is_answered_as_a_fen() -> None:
    with pytest.raises(GGNError, match=r"invalid FEN .*en passant"):
        Subject.game("chess").state(FEN_BAD_EN_PASSANT)


def test_a_faulty_feen_is_answered_as_a_feen() -> None:
    with pytest.raises(GGNError, match=r"invalid FEEN '8/8/8/8/8/8/8/8 ! C/c'"):
        Subject.game("chess").state("8/8/8/8/8/8/8/8 ! C/c")


def test_good_ones_of_both_are_read() -> None:
    chess = Subject.game("chess")
    fen = chess.state("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert (fen.halfmove, fen.fullmove) == (0, 1)
    assert chess.state(fen.position.to_feen()).position == fen.position


def test_a_short_text_is_answered_as_a_feen() -> None:
    with pytest.raises(GGNError, match=r"invalid FEEN '8/8'"):
        Subject.game("chess").state("8/8")
