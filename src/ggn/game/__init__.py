"""A game: a start position and the plays made from it, with the rules on its history.

A position says which moves are legal and whether the game has ended at once (checkmate,
stalemate, extinction...). The rules that need the game's history are the game's:
:class:`Game` keeps the plays made from a start position (with Fairy-Stockfish's move
counters), undoes them, and applies the history rules of its
:class:`~ggn.variants.description.Variant` (:attr:`Variant.history
<ggn.variants.description.Variant.history>`) as Fairy-Stockfish does: the n-move rule,
n-fold repetition (a draw, or a loss or a win where the game says so, as in shogi's
sennichite), perpetual check, xiangqi's chasing, and the counting of makruk, cambodian and
ASEAN chess.

:meth:`Game.outcome` is an end that has happened (pyffish's ``is_immediate_game_end``, and the
end with no legal move: checkmate, stalemate...); :meth:`Game.claim` an end the player to move
may claim (pyffish's ``is_optional_game_end``): a repetition, the n-move rule, the count.

>>> game = Game("chess")
>>> for move in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]:
...     _ = game.push(move)
>>> len(game), game.outcome(), str(game.claim())
(8, None, 'draw by repetition')
>>> game.fen()
'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5'
>>> str(game.pop())
'c:n f6-g8'
>>> game.claim() is None
True
"""

from ggn.game._game import Game

__all__ = ["Game"]
