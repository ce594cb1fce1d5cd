"""The chess rule system: what the chess GGN document leaves to the rules.

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

from typing import ClassVar

from ggn.cell import Cell
from ggn.games import chess as chess_game
from ggn.lcn import EMPTY
from ggn.move import Move
from ggn.position import Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules._system import Change, Effect, Ending, MoveInfo, Outcome, RuleSystem, _Tables

__all__ = ["Chess"]


def _code(text: str) -> int:
    return code_of(Qpi.parse(text))


class Chess(RuleSystem):
    """Standard chess on the document of :mod:`ggn.games.chess`."""

    name: ClassVar[str] = "chess"

    def __init__(self) -> None:
        super().__init__(chess_game.ruleset(), chess_game.START, (8, 8))
        # Per side (0 first, 1 second): its piece codes.
        self._pawn = (_code("C:P"), _code("c:p"))
        self._dashed = (_code("C:-P"), _code("c:-p"))
        self._castling_king = (_code("C:+K^"), _code("c:+k^"))
        self._king = (_code("C:K^"), _code("c:k^"))
        self._castling_rook = (_code("C:+R"), _code("c:+r"))
        self._rook = (_code("C:R"), _code("c:r"))
        self._promotions = tuple(
            tuple((Qpi.parse(f"{style}:{letter}"), _code(f"{style}:{letter}")) for letter in letters)
            for style, letters in (("C", "QRBN"), ("c", "qrbn"))
        )
        self._pawns = frozenset((*self._pawn, *self._dashed))
        self._special_codes = frozenset((*self._castling_king, *self._castling_rook))
        self._special_taken = frozenset(self._castling_rook)

    def _special(self, move: Move, source: int, destination: int, code: int) -> bool:
        if code in self._pawns:
            # A promotion or an en passant capture.
            return destination >= 56 or destination < 8 or self._en_passant(move, source, destination)
        return code in self._special_codes

    @staticmethod
    def _en_passant(move: Move, source: int, destination: int) -> bool:
        """Whether a pawn move is an en passant capture: diagonal, onto an empty square."""
        return (destination - source) % 8 != 0 and isinstance(move.destination, Cell) and any(
            p.must.get(move.destination) == EMPTY for p in move.possibilities)

    def _stand_in(self, move: Move, source: int, destination: int, code: int) -> tuple[int, int] | None:
        # The opponent's moves onto a king never read a '+' or what a pawn becomes, only
        # where pieces stand: a promotion counts as its four pieces, a move of a '+' king
        # (not castling) or rook as the plain move. En passant and castling go to the hooks.
        side = 0 if code > 0 else 1
        if code in self._pawns:
            if self._en_passant(move, source, destination):
                return None
            return self._promotions[side][0][1], len(self._promotions[side])
        if code == self._castling_king[side]:
            return None if destination - source in (2, -2) else (self._king[side], 1)
        if code == self._castling_rook[side]:
            return self._rook[side], 1
        return None

    def _becomes(self, move: Move, source: int, destination: int, code: int) -> int:
        # A pawn's double step makes it '-'; any other pawn move leaves it plain.
        if code in self._pawns:
            side = 0 if code > 0 else 1
            return self._dashed[side] if destination - source in (16, -16) else self._pawn[side]
        return code

    def _prepare(self, position: Position, tables: _Tables) -> tuple[Change, ...]:
        # The '-' pawns on the board (there is at most one, the opponent's): each loses its
        # mark with this move. The changes come first in every play, so that the play's own
        # changes (a capture of that pawn) win.
        codes = position._codes
        first, second = self._dashed
        if first not in codes and second not in codes:
            return ()
        changes = []
        for dashed, plain in zip(self._dashed, self._pawn, strict=True):
            number = -1
            for _ in range(codes.count(dashed)):
                number = codes.index(dashed, number + 1)
                changes.append((number, plain))
        return tuple(sorted(changes))

    def _effects(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> list[Effect]:
        source, destination, code = info[1], info[2], info[3]
        clear = prefix
        side = 0 if code > 0 else 1
        codes = position._codes
        taken = codes[destination]
        hand = ((piece_of(taken), 1),) if taken else ()
        if taken == self._castling_rook[1 - side]:
            # The opponent's last castling rook taken: its king keeps no right either.
            clear = (*clear, *self._last_right(codes, 1 - side, destination))
        if code == self._pawn[side] or code == self._dashed[side]:
            step = destination - source
            if destination >= 56 or destination < 8:
                return [
                    (piece, (*clear, (source, 0), (destination, promoted)), hand)
                    for piece, promoted in self._promotions[side]
                ]
            if step in (16, -16):
                return [(None, (*clear, (source, 0), (destination, self._dashed[side])), hand)]
            if not taken and step not in (8, -8):
                # En passant: the pawn taken stands beside the source, on the destination's file.
                beside = source + (destination % 8 - source % 8)
                return [(None, (*clear, (source, 0), (destination, self._pawn[side]), (beside, 0)),
                         ((piece_of(codes[beside]), 1),))]
            return [(None, (*clear, (source, 0), (destination, self._pawn[side])), hand)]
        if code == self._castling_king[side]:
            # The king moves: every castling right of its side goes, the rooks' included.
            rook, plain = self._castling_rook[side], self._rook[side]
            base = source - source % 8
            rights: tuple[Change, ...] = ()
            if codes[base] == rook:
                rights = ((base, plain),)
            if codes[base + 7] == rook:
                rights = (*rights, (base + 7, plain))
            king = self._king[side]
            if destination - source in (2, -2):
                corner = base + (7 if destination > source else 0)
                passed = (source + destination) // 2
                return [(None, (*clear, *rights, (source, 0), (destination, king), (corner, 0),
                                (passed, plain)), hand)]
            return [(None, (*clear, *rights, (source, 0), (destination, king)), hand)]
        if code == self._castling_rook[side]:
            rights = self._last_right(codes, side, source)
            return [(None, (*clear, *rights, (source, 0), (destination, self._rook[side])), hand)]
        return [(None, (*clear, (source, 0), (destination, code)), hand)]

    def _last_right(self, codes: list[int], side: int, corner: int) -> tuple[Change, ...]:
        """When the castling rook on ``corner`` loses its right: the king's ``+`` too, if the
        other corner holds no castling rook of ``side``."""
        king = corner - corner % 8 + 4
        if codes[corner ^ 7] != self._castling_rook[side] and codes[king] == self._castling_king[side]:
            return ((king, self._king[side]),)
        return ()

    def _allowed(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo, effect: Effect,
                 child: list[int]) -> bool:
        source, destination, code = info[1], info[2], info[3]
        side = 0 if code > 0 else 1
        if code != self._castling_king[side] or destination - source not in (2, -2):
            return True
        # Not out of check, nor through an attacked square: the king on its source, then on
        # the square it passes over, must not be attacked (into check is the generic rule).
        tables = self._tables_for(position)
        attacks = tables.attacks[1 - side]
        # (The '-' marks _prepare clears never change an attack: a calm position is not in check.)
        if self._calm is not position and attacks[source](position._codes):
            return False
        passed = (source + destination) // 2
        board = position._codes.copy()
        board[source] = 0
        board[passed] = code
        return not attacks[passed](board)

    def _no_move(self, position: Position, in_check: bool) -> Outcome:
        if in_check:
            return Outcome(position.inactive, Ending.CHECKMATE)
        return Outcome(None, Ending.STALEMATE)
