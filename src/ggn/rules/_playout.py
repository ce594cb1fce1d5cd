"""Playouts: games played to their end with seeded random moves, counted by result.

What a playout computes is written out in docs/DECISIONS.md ("Playouts"), so that the pure
path here and the C kernel (``src/ggn/_native/playout.c``) play the same games for the same
seed, move for move: splitmix64, one game's generator seeded from the seed and the game's
index, draws among the plays in a canonical order (the pseudo-legal ones, an illegal one
struck and drawn again, where each play is legal alone; else the legal ones), and the game's ends
as :class:`ggn.game.Game` finds them (its outcome, then any end a player may claim, claimed at
once), else ``max_plies``.

>>> found = playout("chess", games=2, seed=7, max_plies=20)
>>> found.games, found.lengths, found.results
(2, (20, 20), ('*', '*'))
>>> playout("chess", games=2, seed=7, max_plies=20) == found
True
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ggn._types import expect
from ggn.cell import Cell
from ggn.errors import GGNError
from ggn.move import Move
from ggn.position import Position
from ggn.rules._records import Ending, MoveInfo, Play
from ggn.rules._system import RuleSystem
from ggn.rules._walk import pseudo_plays

if TYPE_CHECKING:
    from ggn.game import Game

__all__ = ["MAX_PLIES", "POLICIES", "RESULTS", "Playouts", "SplitMix64", "canonical", "captures", "playout"]

POLICIES: Final = ("uniform", "captures")
"""The move policies: ``uniform`` (any legal play, all alike) and ``captures`` (a capture, all
alike, when there is one; else any legal play)."""

RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
"""The results a game of a playout may have (PGN's, by side: ``1-0`` the first player won,
``*`` unfinished at ``max_plies``)."""

MAX_PLIES: Final = 1_000_000
"""The most plies a game of a playout may be given (``max_plies``)."""

DEFAULT_MAX_PLIES: Final = 1000
MAX_GAMES: Final = 1 << 40  # a bound that only catches a mistake (a playout of 10^12 games never ends)

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15


class SplitMix64:
    """The generator of playouts (docs/DECISIONS.md, "Playouts"): splitmix64, modulo 2^64.

    >>> generator = SplitMix64(0)
    >>> hex(generator.next())
    '0xe220a8397b1dcdaf'
    >>> SplitMix64.of_game(0, 0).state == SplitMix64(0).next()
    True
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next(self) -> int:
        """The next 64-bit value."""
        self.state = state = (self.state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, count: int) -> int:
        """An index below ``count`` (1 to 2^32): one draw, its high 32 bits scaled."""
        return ((self.next() >> 32) * count) >> 32

    @classmethod
    def of_game(cls, seed: int, game: int) -> SplitMix64:
        """The generator of game ``game`` (0-based) of a playout seeded with ``seed``: started
        at the ``game``-th output of a generator started at ``seed``. The master's outputs are
        reached by a jump (its state after ``game + 1`` steps is ``seed + (game + 1) * gamma``)."""
        master = cls((seed + game * _GAMMA) & _MASK)
        return cls(master.next())


def _index(position: Position, place: object) -> int:
    """A square's index in the board's cell order; the hand after every square."""
    if isinstance(place, Cell):
        index: int = position._geometry.index[place]
        return index
    return len(position._codes)


def canonical(position: Position, plays: list[Play]) -> list[Play]:
    """The legal plays of ``position`` in the playouts' canonical order: by source (the hand
    after the squares), destination, then the moving piece's QPI text; the plays of one move
    keep the order they are given in (the rule system's)."""
    size = len(position._codes)
    index = position._geometry.index

    def key(play: Play) -> tuple[int, int, str]:
        move = play._recipe[0]
        source, destination = move.source, move.destination
        return (index[source] if isinstance(source, Cell) else size,
                index[destination] if isinstance(destination, Cell) else size,
                str(move.piece))

    return sorted(plays, key=key)


def captures(position: Position, play: Play, wall: str | None = None) -> bool:
    """Whether ``play`` (legal in ``position``) captures: a square it changes held a piece of
    the other side and holds nothing, or a piece of the mover's, after it; a wall (Fairy-
    Stockfish's walls, of the letter ``wall``) is no piece."""
    mover = position.active
    for cell, piece in play.transition.board.items():
        before = position.piece_at(cell)
        if before is not None and before.side != mover and before.pin.name != wall and (
                piece is None or piece.side == mover):
            return True
    return False


@dataclass(frozen=True, slots=True)
class Playouts:
    """The games of a playout: each game's result (``1-0``, ``0-1``, ``1/2-1/2``, or ``*``
    unfinished at ``max_plies``), length in plies and ending (None for ``*``), and, when asked,
    its plays."""

    game: str
    seed: int
    policy: str
    max_plies: int
    results: tuple[str, ...]
    lengths: tuple[int, ...]
    endings: tuple[Ending | None, ...]
    moves: tuple[tuple[Play, ...], ...] | None = None
    engine: str = "pure"

    def __post_init__(self) -> None:
        expect(self.game, str, "game", "a game's name")
        _checked(len(expect(self.results, tuple, "results", "a tuple of results")), self.seed, self.policy,
                 self.max_plies, False)
        expect(self.lengths, tuple, "lengths", "a tuple of ints")
        expect(self.endings, tuple, "endings", "a tuple of Endings or None")
        expect(self.engine, str, "engine", "'native' or 'pure'")
        if self.moves is not None:
            expect(self.moves, tuple, "moves", "a tuple of tuples of Plays, or None")
        for result in self.results:
            if expect(result, str, "results", "a tuple of results") not in RESULTS:
                raise GGNError(f"a playout's result is one of {', '.join(RESULTS)}, not {result[:20]!r}")
        for length in self.lengths:
            expect(length, int, "lengths", "a tuple of ints")
        for ending in self.endings:
            if ending is not None:
                expect(ending, Ending, "endings", "a tuple of Endings or None")
        if not len(self.results) == len(self.lengths) == len(self.endings):
            raise GGNError("a playout has one result, length and ending a game")

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.results)

    @property
    def plies(self) -> int:
        """The plies played, over every game."""
        return sum(self.lengths)

    def totals(self) -> dict[str, int]:
        """The games of each result, every result of :data:`RESULTS` named (0 where none)."""
        found = Counter(self.results)
        return {result: found[result] for result in RESULTS}

    def to_json(self) -> dict[str, Any]:
        """The summary ``ggn playout --format json`` prints: ``{"games", "plies", "results":
        {"1-0": n, "0-1": n, "1/2-1/2": n, "*": n}}``, with the game, seed, policy, cap and
        engine that played it."""
        return {"game": self.game, "games": self.games, "plies": self.plies, "results": self.totals(),
                "seed": self.seed, "policy": self.policy, "max_plies": self.max_plies, "engine": self.engine}

    def __eq__(self, other: object) -> bool:
        # The same games: the engine that played them does not matter.
        if not isinstance(other, Playouts):
            return NotImplemented
        return (self.game, self.seed, self.policy, self.max_plies, self.results, self.lengths, self.endings,
                self.moves) == (other.game, other.seed, other.policy, other.max_plies, other.results,
                                other.lengths, other.endings, other.moves)

    def __hash__(self) -> int:
        return hash((self.game, self.seed, self.policy, self.max_plies, self.results, self.lengths))


def _checked(games: int, seed: int, policy: str, max_plies: int, moves: bool) -> None:
    expect(games, int, "games", "an int")
    expect(seed, int, "seed", "an int")
    expect(policy, str, "policy", "'uniform' or 'captures'")
    expect(max_plies, int, "max_plies", "an int")
    expect(moves, bool, "moves", "a bool")
    if not 0 <= games <= MAX_GAMES:
        raise GGNError(f"a playout plays 0 to {MAX_GAMES:,} games, not {games:,}")
    if not 0 <= seed <= _MASK:
        raise GGNError(f"a playout's seed is an integer from 0 to 2^64 - 1, not {seed}")
    if policy not in POLICIES:
        raise GGNError(f"no playout policy {policy[:40]!r}: the policies are {', '.join(POLICIES)}")
    if not 0 <= max_plies <= MAX_PLIES:
        raise GGNError(f"max_plies is 0 to {MAX_PLIES:,}, not {max_plies:,}")


def playout(game: str | RuleSystem, position: Position | str | None = None, *, games: int, seed: int,
            policy: str = "uniform", max_plies: int = DEFAULT_MAX_PLIES, fen: str | None = None,
            moves: bool = False) -> Playouts:
    """Play ``games`` games from ``position`` with seeded random moves, each to its end.

    ``game`` is a rule system or a built-in game's name; the start is ``position`` (a
    :class:`~ggn.position.Position` or FEEN; default: the game's start), or ``fen``, a FEN of
    the game with its move counters. Game ``i`` draws its moves from a generator seeded with
    ``seed`` (0 to 2^64 - 1) and ``i``: the same seed gives the same games, whatever runs them.
    ``policy`` is ``"uniform"`` (every legal play alike) or ``"captures"`` (a capture when there
    is one). A game ends as :class:`ggn.game.Game` says (checkmate, stalemate and the game's
    other ends, then the n-move rule, repetitions and the game's other claims, claimed at once),
    or is unfinished (``*``) after ``max_plies`` plies. With ``moves``, each game's plays are
    kept. docs/DECISIONS.md ("Playouts") specifies all of it.

    The native kernel plays the games where it is built and knows every end the game has; the
    pure path plays them otherwise, with the same result.
    """
    _checked(games, seed, policy, max_plies, moves)
    expect(game, (RuleSystem, str), "game", "a RuleSystem or a game's name")
    if position is not None:
        expect(position, (Position, str), "position", "a Position, a FEEN string or None")
    if fen is not None:
        expect(fen, str, "fen", "a FEN string or None")
    from ggn.game import Game  # noqa: PLC0415  (ggn.game sits on the rule systems)

    first = Game(game, position, fen=fen)  # checks the game and the position once
    name = game if isinstance(game, str) else first.rules.name
    start, rules = first.start, first.rules
    native = _native_playout(rules, first, games=games, seed=seed, policy=policy, max_plies=max_plies,
                             moves=moves)
    if native is not None:
        results, lengths, endings, played = native
        return Playouts(name, seed, policy, max_plies, results, lengths, endings, played, "native")
    results_list: list[str] = []
    lengths_list: list[int] = []
    endings_list: list[Ending | None] = []
    moves_list: list[tuple[Play, ...]] = []
    wall = _wall_letter(first)
    for number in range(games):
        current = first if number == 0 else Game(rules, start) if fen is None else Game(rules, fen=fen)
        result, ending = _play(current, SplitMix64.of_game(seed, number), policy, max_plies, wall)
        results_list.append(result)
        lengths_list.append(len(current))
        endings_list.append(ending)
        if moves:
            moves_list.append(current.plays)
    return Playouts(name, seed, policy, max_plies, tuple(results_list), tuple(lengths_list),
                    tuple(endings_list), tuple(moves_list) if moves else None, "pure")


def _wall_letter(game: Game) -> str | None:
    """The letter of the game's walls (no one's piece), or None."""
    variant = game.variant
    if variant is None or variant.walls is None:
        return None
    from ggn.variants.document import layout  # noqa: PLC0415

    wall: str | None = layout(variant).wall
    return wall


def plays_alone(rules: RuleSystem) -> bool:
    """Whether each play's legality in ``rules``' game is its own, whatever the other plays
    are: no forced captures or drops, no bikjang, no walls placed (petrified's walls, its
    takers turned to stone, are a play's own effect), no walk of the game's own. A playout of
    such a game draws among the pseudo-legal plays (docs/DECISIONS.md, "Playouts")."""
    if rules._own_walk or rules._capture_forced or rules._drops_forced is not None:
        return False
    variant = getattr(rules, "variant", None)
    return variant is None or not (variant.bikjang or variant.walling is not None)


def _play(game: Game, generator: SplitMix64, policy: str, max_plies: int,
          wall: str | None) -> tuple[str, Ending | None]:
    """Play one game to its end (see :func:`playout`): its result and ending."""
    from ggn.game._game import _result  # noqa: PLC0415

    prefer_captures = policy == "captures"
    alone = plays_alone(game.rules)
    for _ in range(max_plies + 1):
        ended = game.outcome() or game.claim()
        if ended is not None:
            return _result(ended), ended.ending
        if len(game) >= max_plies:
            break
        position = game.position
        if alone:
            game._push(_draw_pseudo(game, generator, prefer_captures, wall))
            continue
        plays = canonical(position, game.legal_moves())
        if prefer_captures:
            taking = [play for play in plays if captures(position, play, wall)]
            plays = taking or plays
        game._push(plays[generator.below(len(plays))])
    return "*", None


def legal_by_number(pseudo: list[tuple[Move, int, Play]], legal: list[Play]) -> dict[tuple[int, int], Play]:
    """Each legal play of a position by ``(id(move), number)``: its move and its number among the
    move's pseudo-legal plays (:func:`ggn.rules._walk.pseudo_plays`), the place of its effect
    among the move's (a move's legal plays come in that order)."""
    effects: dict[int, list[tuple[int, object]]] = {}
    for move, number, play in pseudo:
        effects.setdefault(id(move), []).append((number, play._recipe[1] if len(play._recipe) == 2 else None))
    found: dict[tuple[int, int], Play] = {}
    for play in legal:
        recipe = play._recipe
        if type(recipe) is MoveInfo:
            found[id(recipe[0]), 0] = play
            continue
        move, effect = recipe[0], recipe[1]
        for number, made in effects.get(id(move), ()):
            if made == effect and (id(move), number) not in found:
                found[id(move), number] = play
                break
    return found


def _draw_pseudo(game: Game, generator: SplitMix64, prefer_captures: bool, wall: str | None) -> Play:
    """The play drawn in a game whose plays are each legal alone: among the pseudo-legal
    plays in the canonical order (the captures first, where preferred), a draw each time,
    an illegal play drawn struck from them and the draw made again."""
    position = game.position
    pseudo = pseudo_plays(game.rules, position)
    numbered = {id(play): (move, number) for move, number, play in pseudo}
    found = legal_by_number(pseudo, game.legal_moves())
    order = canonical(position, [play for _, _, play in pseudo])
    rest: list[Play] = []
    if prefer_captures:
        taking = [play for play in order if captures(position, play, wall)]
        if taking:
            rest = [play for play in order if not captures(position, play, wall)]
            order = taking
    while order or rest:
        if not order:
            order, rest = rest, []
        index = generator.below(len(order))
        move, number = numbered[id(order[index])]
        chosen = found.get((id(move), number))
        if chosen is not None:
            return chosen
        del order[index]
    raise GGNError(f"no pseudo-legal play of {position.to_feen()!r} is legal, yet the game goes on")


_Games = tuple[tuple[str, ...], tuple[int, ...], tuple[Ending | None, ...],
               tuple[tuple[Play, ...], ...] | None]
"""A playout's games as the kernel gives them: results, lengths, endings and plays (or None)."""


def _native_playout(rules: RuleSystem, game: Game, **options: Any) -> _Games | None:
    """The games played by the native kernel, or None where the pure path plays them."""
    try:
        native = importlib.import_module("ggn.rules._native")  # the kernel's side, on first use
    except ImportError:  # a checkout without it
        return None
    play = getattr(native, "playout", None)
    if play is None:
        return None
    found: _Games | None = play(rules, game, **options)
    return found
