"""Positions of the oracle engines (python-chess, python-shogi) written in our notation straight
from their boards, independently of the library's own FEN and SFEN readers; shared by the tests
that compare moves (``test_chess``, ``test_shogi``, ``test_betza``, ``test_ini``) and legal play
(``test_rules*``). :func:`placement` writes a board of tokens by square, for pyffish's FEN too.

Either engine may be missing: the test modules that use one skip first (pytest.importorskip),
so a missing python-shogi does not stop the chess tests.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):
    import chess
with contextlib.suppress(ImportError):
    import shogi

__all__ = ["chess_feen", "chess_tokens", "placement", "shogi_cell", "shogi_feen"]

FILES = "abcdefghi"


def placement(board: dict[tuple[int, int], str], files: int, ranks: int) -> str:
    """The placement field of a FEN or FEEN written straight from ``board`` (a token by square
    ``(file, rank)``, zero-based from a1): the last rank first, runs of empty squares counted
    (Fairy-Stockfish's boards, for ``pyffish``, and FEEN of them)."""
    rows = []
    for rank in range(ranks - 1, -1, -1):
        row, gap = "", 0
        for file in range(files):
            token = board.get((file, rank))
            if token is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + token
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def chess_tokens(board: chess.Board) -> dict[int, str]:
    """The PIN of each occupied square (python-chess numbering, which is ours: a1 = 0, b1 = 1):
    ``+`` on the king and rook of each castling right, ``-`` on the pawn that has just made its
    double step, ``^`` on kings."""
    tokens = {square: piece.symbol() for square, piece in board.piece_map().items()}
    rights = board.clean_castling_rights()
    for color in (chess.WHITE, chess.BLACK):
        corners = rights & chess.BB_BACKRANKS & board.occupied_co[color]
        if corners:
            king = board.king(color)
            assert king is not None
            tokens[king] = "+" + tokens[king]
            for corner in chess.scan_forward(corners):
                tokens[corner] = "+" + tokens[corner]
    if board.ep_square is not None:
        pawn = board.ep_square + (-8 if board.turn == chess.WHITE else 8)
        tokens[pawn] = "-" + tokens[pawn]
    return {square: token + ("^" if token[-1] in "Kk" else "") for square, token in tokens.items()}


def chess_feen(board: chess.Board) -> str:
    """Our FEEN of a python-chess board (empty hands)."""
    tokens = {(chess.square_file(square), chess.square_rank(square)): token
              for square, token in chess_tokens(board).items()}
    return placement(tokens, 8, 8) + (" / C/c" if board.turn == chess.WHITE else " / c/C")


def shogi_cell(square: int) -> str:
    """Our name of a python-shogi square: its square 0 is ``9a``, the top left, our ``a9``."""
    return f"{FILES[square % 9]}{9 - square // 9}"


def shogi_feen(board: shogi.Board) -> str:
    """Our FEEN of a python-shogi board, built from its squares and hands."""
    rows = []
    for row in range(9):
        text, gap = "", 0
        for column in range(9):
            piece = board.piece_at(row * 9 + column)
            if piece is None:
                gap += 1
                continue
            mark = "^" if piece.piece_type == shogi.KING else ""
            text += (str(gap) if gap else "") + piece.symbol() + mark
            gap = 0
        rows.append(text + (str(gap) if gap else ""))
    hands = []
    for color in (shogi.BLACK, shogi.WHITE):
        items = sorted(((count, shogi.Piece(kind, color).symbol())
                        for kind, count in board.pieces_in_hand[color].items() if count),
                       key=lambda item: (-item[0], item[1]))
        hands.append("".join((str(count) if count > 1 else "") + letter for count, letter in items))
    return f"{'/'.join(rows)} {hands[0]}/{hands[1]} {'S/s' if board.turn == shogi.BLACK else 's/S'}"
