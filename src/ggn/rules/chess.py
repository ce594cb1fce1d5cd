"""The chess rule system: the generic one (:class:`~ggn.rules.variant.VariantRules`) on the
description of :mod:`ggn.games.chess`, with no hook of its own.

What the chess document leaves to the rules, the description says and the generic system plays:

- promotion: a pawn reaching the last rank becomes a queen, rook, bishop or knight, one play
  each (``C:P e7-e8=C:Q``);
- castling: the king's two-square move (in the document) also moves the rook to the square
  the king passed over; the king may not castle out of, through or into an attacked square;
- castling rights: a ``+`` king or rook loses its ``+`` when it moves (a captured ``+`` rook
  leaves the board, and its right with it); a ``+`` marks a right that remains, so when the
  king moves its rooks lose their ``+`` too, and when the last ``+`` rook of a side moves or
  is taken its king loses its ``+`` (the position then reads as the FEN it stands for);
- en passant: the pawn taken is the one beside the source, on the destination's file; a
  pawn's double step makes it ``-``, and every ``-`` pawn loses its mark on the next move;
- the end: no legal move is a loss when in check (checkmate), else a draw (stalemate).

A captured piece goes, as it stood, into the capturer's hand (the Game Protocol's default);
chess never drops it.

>>> rules = Chess()
>>> start = rules.position()
>>> len(rules.legal_moves(start))
20
>>> after = rules.play(start, "C:P e2-e4")
>>> after.to_feen()
'+rnbq+k^bn+r/pppppppp/8/8/4-P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C'
>>> near = rules.position("k^7/8/1Q6/8/8/8/8/K^7 / C/c")
>>> [str(p) for p in rules.legal_moves(near) if str(p).endswith("c7")]
['C:Q b6-c7']
>>> str(rules.outcome(rules.play(near, "C:Q b6-c7")))
'draw by stalemate'
>>> print(rules.outcome(rules.position("k^7/1Q6/1K^6/8/8/8/8/8 / c/C")))
first player wins by checkmate
"""

from __future__ import annotations

from ggn.games import chess as chess_game
from ggn.rules.variant import VariantRules

__all__ = ["Chess"]


class Chess(VariantRules):
    """Standard chess: :data:`ggn.games.chess.VARIANT` played by the generic rule system."""

    def __init__(self) -> None:
        super().__init__(chess_game.VARIANT, ruleset=chess_game.ruleset())
