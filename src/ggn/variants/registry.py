"""One registry of the games this package plays: an entry per game, and catalogues of entries.

An :class:`Entry` is one game and everything made from its description: the
:class:`~ggn.variants.description.Variant`, the start position in FEEN, the rule system, the
GGN document, the reader and writer of the game's Fairy-Stockfish FEN and, for the games of
the legacy format, the mapping of its pieces (GAN) to QPI. A :class:`Catalogue` holds entries by
name: the built-in variants, written in Fairy-Stockfish's ``variants.ini`` syntax in
``builtin.ini`` beside this module, and the variants a user adds from ``variants.ini`` text
(:meth:`Catalogue.add_ini`). The functions of this module read the built-ins.

Nothing is read on import: the built-in file is read the first time a name is asked for, each
variant is resolved the first time it is used, and its rule system and document are built once,
on first use, then shared by every catalogue.

>>> "chess" in names()
True
>>> start("chess")
'+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c'
>>> rules("chess").count(rules("chess").position())
20
>>> entry("chess").to_feen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
'4k^3/8/8/8/8/8/8/4+K^2+R / C/c'
>>> rules("go")
Traceback (most recent call last):
  ...
ggn.errors.NotFoundError: no game 'go'; there are: ...
"""

from __future__ import annotations

import contextlib
import marshal
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from ggn import cache
from ggn._json import clip
from ggn._types import expect
from ggn.cell import Cell
from ggn.errors import GGNError, NotFoundError, PositionError

if TYPE_CHECKING:  # built on first use: importing them here would slow down every import
    from ggn.feen import Feen
    from ggn.legacy_eval import GanMapping
    from ggn.position import Position
    from ggn.rules._system import Play, RuleSystem
    from ggn.ruleset import Ruleset
    from ggn.variants.description import Variant
    from ggn.variants.ini import Section

__all__ = [
    "BUILTIN", "Catalogue", "Entry", "entry", "legacy_mapping", "legacy_names", "names", "rules", "start",
    "variant",
]

_NAMED: Final = 8  # the most games an unknown name's message lists
_COUNTER_MAX: Final = 2**31 - 1  # Fairy-Stockfish reads the move counters as 32-bit numbers

BUILTIN: Final = "builtin"
"""The :attr:`Entry.source` of the built-in variants."""

# The legacy format's pieces (GAN) of the first player, by game; the second player's are the
# same with both cases swapped (GanMapping's lookup rule 1). The letters are those of the
# games' FEEN, `^` on the royal piece. Two forms of each name: the long one of the GAN 1.0.0
# text (CHESS:KING) and the short one that the Ruby gems of 2025 wrote (CHESS:K, SHOGI:P),
# a game and one PNN letter, with the letters of their FEEN examples: xiangqi's soldier is S
# there, and makruk is written with chess's letters (Q the met, B the khon). In those names '
# was PNN's intermediate state: the chess examples mark the king and rooks that may castle
# (K', R'), today's + on them.
_LEGACY: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType({
    "chess": {
        "CHESS:KING": "C:K^", "CHESS:QUEEN": "C:Q", "CHESS:ROOK": "C:R", "CHESS:BISHOP": "C:B",
        "CHESS:KNIGHT": "C:N", "CHESS:PAWN": "C:P",
        "CHESS:K": "C:K^", "CHESS:Q": "C:Q", "CHESS:R": "C:R", "CHESS:B": "C:B", "CHESS:N": "C:N",
        "CHESS:P": "C:P", "CHESS:K'": "C:+K^", "CHESS:R'": "C:+R",
    },
    "shogi": {
        "SHOGI:KING": "S:K^", "SHOGI:GOLD": "S:G", "SHOGI:SILVER": "S:S", "SHOGI:KNIGHT": "S:N",
        "SHOGI:LANCE": "S:L", "SHOGI:ROOK": "S:R", "SHOGI:BISHOP": "S:B", "SHOGI:PAWN": "S:P",
        "SHOGI:K": "S:K^", "SHOGI:G": "S:G", "SHOGI:S": "S:S", "SHOGI:N": "S:N", "SHOGI:L": "S:L",
        "SHOGI:R": "S:R", "SHOGI:B": "S:B", "SHOGI:P": "S:P",
    },
    "xiangqi": {
        "XIANGQI:GENERAL": "X:G^", "XIANGQI:ADVISOR": "X:A", "XIANGQI:ELEPHANT": "X:E",
        "XIANGQI:HORSE": "X:H", "XIANGQI:CHARIOT": "X:R", "XIANGQI:CANNON": "X:C",
        "XIANGQI:SOLDIER": "X:P",
        "XIANGQI:G": "X:G^", "XIANGQI:A": "X:A", "XIANGQI:E": "X:E", "XIANGQI:H": "X:H",
        "XIANGQI:R": "X:R", "XIANGQI:C": "X:C", "XIANGQI:S": "X:P",
    },
    "makruk": {
        "MAKRUK:KING": "M:K^", "MAKRUK:MET": "M:M", "MAKRUK:KHON": "M:S", "MAKRUK:KNIGHT": "M:N",
        "MAKRUK:ROOK": "M:R", "MAKRUK:PAWN": "M:P",
        "MAKRUK:K": "M:K^", "MAKRUK:Q": "M:M", "MAKRUK:B": "M:S", "MAKRUK:N": "M:N", "MAKRUK:R": "M:R",
        "MAKRUK:P": "M:P",
    },
})


class Entry:
    """One game: its description and what is made from it, each made once, on first use.

    ``source`` says where the description comes from: :data:`BUILTIN`, or the name given to
    :meth:`Catalogue.add_ini`. Made from a :class:`~ggn.variants.description.Variant` (or a
    function that makes one, called once, when it is first needed).
    """

    __slots__ = ("_lock", "_make", "_rules", "_ruleset", "_summary", "_variant", "name", "source")

    def __init__(self, name: str, source: str, variant: Variant | Callable[[], Variant]) -> None:
        expect(name, str, "name", "a str")
        expect(source, str, "source", "a str")
        if not callable(variant):
            from ggn.variants.description import Variant  # noqa: PLC0415  (see TYPE_CHECKING above)

            expect(variant, Variant, "variant", "a Variant or a function that makes one")
        self.name = name
        self.source = source
        self._make: Callable[[], Variant] | None = None
        self._variant: Variant | None = None
        if callable(variant):
            self._make = variant
        else:
            self._variant = variant
        self._rules: RuleSystem | None = None
        self._ruleset: Ruleset | None = None  # the document, made alone (see ruleset())
        self._summary: _Summary | bool | None = None  # a built-in's (see _summarised); False: none
        # Reentrant: making the rule system asks for the variant under the same lock.
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"<Entry {self.name!r} from {self.source}>"

    @property
    def variant(self) -> Variant:
        """The game's description."""
        made = self._variant
        if made is None:
            with self._lock:
                made = self._variant
                if made is None:
                    assert self._make is not None  # one of the two is always set
                    made = self._variant = self._make()
                    self._make = None
        return made

    @property
    def shape(self) -> tuple[int, int]:
        """The board's shape, ``(files, ranks)``."""
        summary = self._summarised()
        if summary is not None:
            return summary[2], summary[3]
        variant = self.variant
        return variant.files, variant.ranks

    @property
    def fen(self) -> str:
        """The start position in the game's Fairy-Stockfish FEN."""
        return self.variant.start

    @property
    def start(self) -> str:
        """The start position in FEEN."""
        summary = self._summarised()
        return summary[0] if summary is not None else self.to_feen(self.variant.start)

    def _style(self) -> str:
        """The first player's style letter."""
        summary = self._summarised()
        if summary is not None:
            return summary[1]
        from ggn.variants.document import style  # noqa: PLC0415

        return style(self.variant)

    def _summarised(self) -> _Summary | None:
        """What listing a built-in game's moves needs, kept in the compile cache by the
        process that made it first (:data:`_SUMMARY`): so that ``ggn moves chess`` reads
        neither the description nor the modules that make documents and read FEN. None for
        a game of ``--ini`` text, without a cache, or before a process made it."""
        found = self._summary
        if found is None:
            loaded = _load_summary(self.name) if self.source == BUILTIN else None
            found = self._summary = False if loaded is None else loaded
        return None if isinstance(found, bool) else found

    @property
    def rules(self) -> RuleSystem:
        """The game's rule system, built once."""
        made = self._rules
        if made is None:
            with self._lock:
                made = self._rules
                if made is None:
                    made = self._rules = _rule_system(self.variant, self._ruleset)
        return made

    def drawing(self) -> dict[str, Any]:
        """The options of :func:`ggn.svg.board` (and :func:`ggn.textboard.board`) that draw this
        game's positions: ``families`` (the glyphs of the game's family for its styles, chosen
        from its pieces' types rather than its style letters: shatranj is not shogi),
        ``aliases`` (a piece drawn as the type it is), ``holes``, and ``hands`` (True) for a
        game with drops, whose hands are drawn even empty.

        >>> entry("shatranj").drawing()["families"]
        {'S': 'chess'}
        """
        return _drawing(self.variant)

    def svg(self, position: Position | str | None = None, **options: Any) -> str:
        """The SVG picture of a position of the game (default: its start), drawn with
        :meth:`drawing`'s options and ``options`` (those of :func:`ggn.svg.board`)."""
        from ggn.svg import board  # noqa: PLC0415  (on first use: see the module's doc)

        return board(self.position(position), **{**self.drawing(), **options})

    def text(self, position: Position | str | None = None, **options: Any) -> str:
        """The Unicode text picture of a position of the game (default: its start), with the
        options of :func:`ggn.textboard.board`."""
        from ggn.textboard import board  # noqa: PLC0415

        drawing = self.drawing()
        return board(self.position(position), **{**drawing, **options})

    def position(self, position: Position | Feen | str | None = None) -> Position:
        """A position of the game (its start for None), its board's shape and its styles
        checked as the rule system checks them (the shape before any board is built), without
        making the rule system: listing pseudo-legal moves or drawing a game needs none."""
        from ggn._decimal import shown_tuple  # noqa: PLC0415
        from ggn.feen import Feen  # noqa: PLC0415
        from ggn.position import Position  # noqa: PLC0415

        expect(position, (Position, Feen, str, type(None)), "position", "a Position, a FEEN string or None")
        value = position if isinstance(position, (Position, Feen)) else Feen.parse(
            self.start if position is None else position)
        shape = self.shape
        if value.shape != shape:
            raise PositionError(f"{self.name} is played on a board of {shape[0]}x{shape[1]} "
                                f"squares, not one of shape {shown_tuple(value.shape)}")
        ours, (first, second) = self._style(), value.styles
        if (first.letter, second.letter) != (ours, ours.lower()):  # as the rule system checks them
            raise PositionError(f"{self.name} is played in the styles {ours}/{ours.lower()} "
                                f"(first player/second player), not {first}/{second}")
        return value if isinstance(value, Position) else Position.from_feen(value)

    def _repr_svg_(self) -> str:
        """The start position, drawn for a notebook (IPython's rich display)."""
        return self.svg()

    def ruleset(self) -> Ruleset:
        """The game's GGN document as a :class:`~ggn.ruleset.Ruleset`: the rule system's own,
        made without the rule system when that is not made yet (``ggn moves`` lists pseudo-legal
        moves from the document alone; a built-in game's is read from the compile cache
        without its description), and given to it when it is."""
        if self._rules is not None:
            return self._rules.ruleset
        made = self._ruleset
        if made is None:
            with self._lock:
                if self._rules is not None:
                    return self._rules.ruleset
                made = self._ruleset
                if made is None:
                    made = self._ruleset = self._make_ruleset()
        return made

    def _make_ruleset(self) -> Ruleset:
        summary = self._summarised()
        if summary is not None:
            found = _load_document(summary[4])
            if found is not None:
                return found
        from ggn.variants.document import canonical, ruleset_of  # noqa: PLC0415  (on first use)

        made = ruleset_of(self.variant)
        if self.source == BUILTIN and summary is None:  # for the next process: see _summarised
            _store_summary(self.name, (self.start, self._style(), *self.shape, canonical(self.variant)))
        return made

    def document(self) -> dict[str, Any]:
        """The game's complete GGN 1.0.0 document, as plain JSON-ready values (a new copy)."""
        from ggn.variants.document import build  # noqa: PLC0415  (on first use: see the module's doc)

        return build(self.variant)

    def to_feen(self, fen: str) -> str:
        """The FEEN of a position written in the game's Fairy-Stockfish FEN."""
        from ggn.variants.fen import to_feen  # noqa: PLC0415  (on first use: see the module's doc)

        return to_feen(self.variant, fen)

    def from_feen(self, feen: str | Feen | Position, *, halfmove: int = 0, fullmove: int = 1) -> str:
        """The game's Fairy-Stockfish FEN of a position given in FEEN (or as a Position), with
        the move counters given (FEEN holds none)."""
        from ggn.variants.fen import from_feen  # noqa: PLC0415

        return from_feen(self.variant, feen, halfmove=halfmove, fullmove=fullmove)

    def counters(self, fen: str) -> tuple[int, int]:
        """The two move counters of a position in the game's FEN, ``(halfmove, fullmove)``:
        the halfmove clock and the move number (0 and 1 where the FEN leaves them out).

        >>> entry("chess").counters("4k3/8/8/8/8/8/8/4K3 b - - 12 40")
        (12, 40)
        """
        self.to_feen(fen)  # the whole FEN checked: its counters are numbers
        fields = fen.split(" ")
        # After the placement and the side to move come the castling rights and the en
        # passant square (unless the next field is a number), then the counters.
        first = 4 if len(fields) > 2 and not fields[2][:1].isdigit() else 2
        if first < len(fields) and "+" in fields[first]:
            first += 1  # the checks left, in a game that counts them
        texts = fields[first:first + 2]
        for text in texts:  # a number of any length: int() refuses those of over 4,300 digits
            if len(text) > len(str(_COUNTER_MAX)) or int(text) > _COUNTER_MAX:
                raise GGNError(f"a move counter is at most {_COUNTER_MAX:,}, the most Fairy-Stockfish "
                               f"reads, not {clip(text)}")
        numbers = [int(text) for text in texts]
        return (numbers[0] if numbers else 0), (numbers[1] if len(numbers) > 1 else 1)

    def advance(self, position: Position, play: Play, halfmove: int, fullmove: int) -> tuple[int, int]:
        """The move counters after ``play`` in ``position``, as Fairy-Stockfish counts them:
        the move number grows after the second player's move; the halfmove clock starts
        again after a capture, a drop, a promotion or an irreversible move of a pawn (of the
        n-move rule's types: :mod:`ggn.variants._clock`), and grows otherwise."""
        from ggn.position import Position  # noqa: PLC0415
        from ggn.rules._records import Play  # noqa: PLC0415
        from ggn.variants._clock import resets  # noqa: PLC0415

        expect(position, Position, "position", "a Position")
        expect(play, Play, "play", "a Play")
        expect(halfmove, int, "halfmove", "an int")
        expect(fullmove, int, "fullmove", "an int")
        fullmove += position.active == "second"
        return (0 if resets(self.variant, position, play) else halfmove + 1), fullmove

    @property
    def legacy(self) -> bool:
        """Whether the game has a mapping of the legacy format's pieces (:meth:`mapping`)."""
        return self.source == BUILTIN and self.name in _LEGACY

    def mapping(self) -> GanMapping:
        """The mapping of the legacy format's pieces (GAN) of the game to QPI, for both players
        (a new one each call). Raise :class:`~ggn.errors.NotFoundError` for a game the legacy
        format does not name."""
        if not self.legacy:
            raise NotFoundError.unknown("built-in mapping", self.name, legacy_names())
        return _mapping(self.name)


# Fairy-Stockfish's names of the piece types each family of glyphs draws, by the family's letter.
_GLYPHS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType({
    "shogi": {"shogiPawn": "P", "lance": "L", "shogiKnight": "N", "silver": "S", "gold": "G",
              "bishop": "B", "rook": "R", "king": "K", "commoner": "K", "dragonHorse": "H", "bers": "D"},
    "xiangqi": {"king": "G", "fers": "A", "elephant": "E", "horse": "H", "rook": "R", "cannon": "C",
                "soldier": "P", "banner": "M"},
    "janggi": {"king": "G", "wazir": "A", "janggiElephant": "E", "horse": "H", "rook": "R",
               "janggiCannon": "C", "soldier": "P"},
    "makruk": {"king": "K", "fers": "M", "silver": "S", "knight": "N", "rook": "R", "pawn": "P"},
    "chess": {"king": "K", "commoner": "K", "queen": "Q", "rook": "R", "bishop": "B", "knight": "N",
              "pawn": "P"},
})


def _drawing(variant: Variant) -> dict[str, Any]:
    from ggn.variants.document import style  # noqa: PLC0415

    types = {kind.name: (kind.pin or kind.letter).upper() for kind in variant.pieces}
    if "shogiPawn" in types:
        family = "shogi"
    elif "janggiCannon" in types:
        family = "janggi"
    elif "soldier" in types or ("cannon" in types and "horse" in types):
        family = "xiangqi"
    elif "silver" in types and "pawn" in types and "queen" not in types:
        family = "makruk"
    else:
        family = "chess"
    letter = style(variant)
    glyphs = _GLYPHS[family]
    # Each type's glyph: the one of its kind (by Fairy-Stockfish's name), unless a type whose
    # letter is that glyph's has it too; else its own letter, never another kind's glyph.
    wanted: dict[str, str | None] = {}
    for kind in variant.pieces:
        pin = (kind.pin or kind.letter).upper()
        if family == "chess" and pin == "P" and (kind.name or "").startswith("customPiece"):
            wanted[pin] = "P"  # a pawn of the variant's own (berolina's): still drawn as a pawn
        else:
            wanted[pin] = glyphs.get(kind.name or "")
    aliases: dict[str, str] = {}
    for pin, glyph in wanted.items():
        # A glyph another piece has by its own letter is that piece's (knightmate's commoner).
        drawn = None if glyph is not None and glyph != pin and wanted.get(glyph) == glyph else glyph
        if drawn is None:
            if pin in glyphs.values():  # another kind's glyph: the piece's own letter instead
                aliases[f"{letter}:{pin}"] = "?"
        elif drawn != pin:
            aliases[f"{letter}:{pin}"] = drawn
    holes = sorted(Cell(square) for square in variant.holes)
    drawing: dict[str, Any] = {"families": {letter: family}, "aliases": aliases, "holes": holes}
    if variant.drops is not None:
        drawing["hands"] = True  # even empty: a game of drops keeps its hands in the picture
    return drawing


_SUMMARY: Final = "builtin-game"
"""The compile cache's kind of a built-in game's summary: its start in FEEN, its style letter,
its files and ranks, and the key of its document in the cache (``document``: the canonical
description :func:`ggn.variants.document.ruleset_of` keys it by). Data, like every kind but the
code of the move generators (see :mod:`ggn.cache`); keyed by the game's name and the text of
``builtin.ini``, so that it changes with the built-ins (and, as every key, with the code)."""

_Summary = tuple[str, str, int, int, str]


def _summary_key(name: str) -> bytes:
    return f"{name}\0{_builtins()._text}".encode()


def _load_summary(name: str) -> _Summary | None:
    data = cache.load(_SUMMARY, _summary_key(name))
    if data is None:
        return None
    try:
        found = marshal.loads(data)  # noqa: S302  (a checked file of our own: see ggn.cache)
    except (ValueError, EOFError, TypeError):
        return None
    if (type(found) is tuple and len(found) == 5 and [type(x) for x in found] == [str, str, int, int, str]
            and found[2] > 0 and found[3] > 0):
        return found
    return None


def _store_summary(name: str, summary: _Summary) -> None:
    cache.store(_SUMMARY, _summary_key(name), marshal.dumps(summary))


def _load_document(key: str) -> Ruleset | None:
    """A document kept by :func:`ggn.variants.document.ruleset_of` under its key, or None."""
    from ggn.ruleset import load_packed  # noqa: PLC0415

    kept = load_packed("document", key.encode())
    return None if kept is None else kept[0]


def _rule_system(variant: Variant, ruleset: Ruleset | None) -> RuleSystem:
    from ggn.rules.variant import VariantRules  # noqa: PLC0415  (layer 5, made on first use)

    return VariantRules(variant, ruleset=ruleset)


def _mapping(name: str) -> GanMapping:
    from ggn.legacy_eval import GanMapping  # noqa: PLC0415

    table = _LEGACY[name]
    both = dict(table)
    both.update({gan.lower(): qpi.lower() for gan, qpi in table.items()})
    return GanMapping.of(both)


class Catalogue:
    """Games by name: the built-in variants, and those added from ``variants.ini`` text.

    >>> catalogue = Catalogue()
    >>> catalogue.add_ini('''
    ... [tinyhouse:crazyhouse]
    ... maxRank = 6
    ... startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
    ... ''', source="mine.ini")
    ('tinyhouse',)
    >>> catalogue.entry("tinyhouse").shape, "tinyhouse" in names()
    ((8, 6), False)

    A text is added whole or not at all: an error anywhere in it adds none of its variants.
    Its sections may inherit from the built-ins and from the variants of texts added before; a
    name that is already a game of the catalogue is an error (as in Fairy-Stockfish).
    """

    __slots__ = ("_added", "_lock", "_sections", "_texts")

    def __init__(self) -> None:
        self._added: dict[str, Entry] = {}
        self._sections: dict[str, Section] = {}  # the added texts' sections, parents of later ones
        self._texts: list[tuple[str, str]] = []  # the texts added, with their sources, in order
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Catalogue of {len(self)} games>"

    def __reduce__(self) -> tuple[Any, tuple[tuple[tuple[str, str], ...]]]:
        # Pickled as the texts it was made of (its games are made again from them where it is
        # unpickled, as in another process): a few kilobytes, not the games' rules.
        return (_catalogue_of, (tuple(self._texts),))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._added or name in _builtins().entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(_builtins().entries) + len(self._added)

    def names(self) -> tuple[str, ...]:
        """Every game's name: the built-ins in their file's order, then those added, in order."""
        return (*_builtins().entries, *self._added)

    def added(self) -> tuple[str, ...]:
        """The names of the games added with :meth:`add_ini`, in order."""
        return tuple(self._added)

    def texts(self) -> tuple[tuple[str, str], ...]:
        """The ``variants.ini`` texts added, each with its source, in order (what an engine
        is given to play the games added: :meth:`ggn.engine.Engine.load_variants`)."""
        with self._lock:
            return tuple(self._texts)

    def entry(self, name: str) -> Entry:
        """The entry of a game; raise :class:`~ggn.errors.NotFoundError` for an unknown name."""
        expect(name, str, "name", "a str")
        found = self._added.get(name) or _builtins().entries.get(name)
        if found is None:
            names = self.names()
            shown = names if len(names) <= _NAMED else (*names[:_NAMED], f"... ({len(names)} in all)")
            raise NotFoundError.unknown("game", name, shown)
        return found

    def variant(self, name: str) -> Variant:
        """The description of a game."""
        return self.entry(name).variant

    def rules(self, name: str) -> RuleSystem:
        """The rule system of a game, built once."""
        return self.entry(name).rules

    def start(self, name: str) -> str:
        """The start position of a game, in FEEN."""
        return self.entry(name).start

    def add_ini(self, text: str, source: str = "<ini>") -> tuple[str, ...]:
        """Add the variants of ``variants.ini`` text, all of them or none; return their names.

        ``source`` names the text in messages (a file name). Every section is read and resolved
        (its movements read, its options checked) before any is added: an error is a
        :class:`~ggn.errors.VariantError` that names the source, the line and the option.
        """
        from ggn.variants import ini  # noqa: PLC0415  (on first use: see the module's doc)

        expect(text, str, "text", "a str")
        expect(source, str, "source", "a str")
        with self._lock:
            # The ini reader refuses a section named like one it may inherit from: the games.
            found = ini.sections(text, source=source)
            variants = ini.load_sections(found, known={**_builtins().sections, **self._sections})
            for section in found:
                self._sections[section.name] = section
            for name, made in variants.items():
                self._added[name] = Entry(name, source, made)
            self._texts.append((source, text))
            return tuple(variants)


def _catalogue_of(texts: tuple[tuple[str, str], ...]) -> Catalogue:
    """A catalogue of the built-ins and the variants of ``texts`` ((source, text) pairs)."""
    made = Catalogue()
    for source, text in texts:
        made.add_ini(text, source)
    return made


class _Builtins:
    """The built-in file, read once: an entry for each variant, and its sections (read when
    first needed). The names of its variants, and each variant once resolved, are kept in the
    compile cache (:mod:`ggn.cache`): a process that plays a built-in game reads neither the
    file's sections nor a variant's options again."""

    __slots__ = ("_lock", "_sections", "_text", "entries")

    def __init__(self) -> None:
        try:  # beside this module, as installed; else through the package's loader (a zip file)
            with open(os.path.join(os.path.dirname(__file__), "builtin.ini"), encoding="utf-8") as file:
                text = file.read()
        except OSError:
            text = resources.files(__package__).joinpath("builtin.ini").read_text("utf-8")
        self._text = text
        self._sections: Mapping[str, Section] | None = None
        self._lock = threading.Lock()
        names: tuple[str, ...] | None = None
        data = cache.load("builtin-names", text.encode())
        if data is not None:
            with contextlib.suppress(ValueError, EOFError, TypeError):
                found = marshal.loads(data)  # noqa: S302  (a checked file of our own: see ggn.cache)
                if type(found) is tuple and all(type(name) is str for name in found):
                    names = found
        if names is None:
            names = tuple(self.sections)
            cache.store("builtin-names", text.encode(), marshal.dumps(names))
        self.entries: Mapping[str, Entry] = MappingProxyType({
            name: Entry(name, BUILTIN, _resolver(name, self)) for name in names
        })

    @property
    def sections(self) -> Mapping[str, Section]:
        """The file's sections by name, read on first use."""
        found = self._sections
        if found is None:
            from ggn.variants import ini  # noqa: PLC0415

            with self._lock:
                found = self._sections
                if found is None:
                    sections = ini.sections(self._text, source="builtin.ini")
                    found = self._sections = MappingProxyType({s.name: s for s in sections})
        return found


def _resolver(name: str, builtins: _Builtins) -> Callable[[], Variant]:
    def resolve() -> Variant:
        from ggn.variants.description import from_data, to_data  # noqa: PLC0415

        key = f"{name}\0{builtins._text}".encode()
        data = cache.load("builtin-variant", key)
        if data is not None:
            # Data, never code: marshal of plain values (description.to_data), read back by
            # description.from_data, which runs nothing it reads (see ggn.cache).
            with contextlib.suppress(ValueError, EOFError, TypeError):
                found = from_data(marshal.loads(data))  # noqa: S302
                if found.name == name:
                    return found
        from ggn.variants import ini  # noqa: PLC0415

        made = ini.resolve(name, builtins.sections)
        with contextlib.suppress(TypeError, ValueError):  # a variant marshal cannot write: not kept
            cache.store("builtin-variant", key, marshal.dumps(to_data(made)))
        return made

    return resolve


_LOADED: list[_Builtins] = []
_LOADING = threading.Lock()


def _builtins() -> _Builtins:
    if not _LOADED:
        with _LOADING:
            if not _LOADED:
                _LOADED.append(_Builtins())
    return _LOADED[0]


_DEFAULT: Final = Catalogue()


def names() -> tuple[str, ...]:
    """The names of the built-in games, in their file's order."""
    return _DEFAULT.names()


def entry(name: str) -> Entry:
    """The entry of a built-in game; raise :class:`~ggn.errors.NotFoundError` for an unknown name."""
    return _DEFAULT.entry(name)


def variant(name: str) -> Variant:
    """The description of a built-in game."""
    return _DEFAULT.variant(name)


def rules(name: str) -> RuleSystem:
    """The rule system of a built-in game, built once per process."""
    return _DEFAULT.rules(name)


def start(name: str) -> str:
    """The start position of a built-in game, in FEEN."""
    return _DEFAULT.start(name)


def legacy_names() -> tuple[str, ...]:
    """The games whose pieces the legacy format names: chess, shogi, xiangqi and makruk."""
    return tuple(_LEGACY)


def legacy_mapping(name: str) -> GanMapping:
    """The mapping of a game's legacy pieces (GAN) to QPI, for both players (case does not
    matter in ``name``; a new mapping each call).

    >>> chess = legacy_mapping("chess")
    >>> [str(chess(p)) for p in ("CHESS:KING", "chess:pawn", "CHESS:+ROOK", "chess:-pawn", "CHESS:QUEEN'")]
    ['C:K^', 'c:p', 'C:+R', 'c:-p', 'c:Q']
    >>> legacy_mapping("go")
    Traceback (most recent call last):
      ...
    ggn.errors.NotFoundError: no built-in mapping 'go'; there are: chess, shogi, xiangqi, makruk
    """
    expect(name, str, "name", "a str")
    if name.lower() not in _LEGACY:
        raise NotFoundError.unknown("built-in mapping", name, legacy_names())
    return _mapping(name.lower())
