"""FEEN: the Field Expression Encoding Notation, a position in one line.

Three fields separated by single spaces: ``<placement> <hands> <style-turn>``.

- The placement lists the board's ranks from the highest to rank 1, separated
  by ``/``; a 3D board lists its layers from the highest down, separated by
  ``//``. Pieces are EPIN; a positive integer counts empty squares.
- The hands field is ``<first player's hand>/<second player's hand>``, each an
  aggregated list of EPIN pieces with an optional count, in canonical order.
- The style-turn field is ``<active style>/<inactive style>``: two SIN letters
  of opposite case; the uppercase one is the first player's style.

A piece's QPI takes the style of the player whose style it has: its own side's
player for a native piece, the other player for a derived one (``'``).

>>> feen = Feen.parse("4k^3/8/8/8/8/8/8/4K^3 2PQ/p c/C")
>>> feen.shape, feen.active, feen.styles
((8, 8), 'second', (Sin.parse('C'), Sin.parse('c')))
>>> feen.board[Cell.parse("e8")]
Qpi.parse('c:k^')
>>> dict(feen.hand("first"))
{Qpi.parse('C:P'): 2, Qpi.parse('C:Q'): 1}

Parsing is strict: only the canonical spelling of a position is accepted.

>>> try:
...     Feen.parse("4k^3/8/8/8/8/8/8/4K^3 Q2P/p c/C")
... except NotationError as error:
...     print(error.reason, error.start, error.end)
the pieces are not in canonical order; the canonical first player's hand is '2PQ' 23 25

A value can also be built, and is checked, from its parts:

>>> c, m = Sin.parse("C"), Sin.parse("m")
>>> str(Feen((3,), {Cell.parse("c"): Qpi.parse("C:m")}, None, "first", (c, m)))
"2m' / C/m"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, final

from ggn._cache import Memo
from ggn._decimal import decimal_text, decimal_value, shown, shown_tuple
from ggn._types import Side, State, expect, player_index
from ggn.cell import Cell, _index_to_letters
from ggn.epin import Epin, parse_epin_at
from ggn.errors import NotationError, NotationTypeError
from ggn.qpi import Qpi
from ggn.sin import Sin

__all__ = ["Feen"]

_N: Final = "FEEN"
_DIGITS: Final = "0123456789"
_STATE_ORDER: Final[dict[State, int]] = {"diminished": 0, "enhanced": 1, "normal": 2}

_HandItems = tuple[tuple[Qpi, int], ...]
_BoardItems = tuple[tuple[Cell, Qpi], ...]


def _is_letter(ch: str) -> bool:
    return "A" <= ch <= "Z" or "a" <= ch <= "z"


def _reading_key(indices: tuple[int, ...]) -> tuple[int, ...]:
    """Order of appearance in the placement: highest layer, highest rank, then files."""
    return (*(-index for index in reversed(indices[1:])), indices[0])


def _hand_key(epin: Epin, count: int) -> tuple[int, str, bool, int, bool, bool]:
    """Canonical hand order: count descending; letter ignoring case; uppercase first;
    ``-`` before ``+`` before none; non-terminal first; native first."""
    return (
        -count, epin.name, epin.side == "second", _STATE_ORDER[epin.state],
        epin.terminal, epin.derived,
    )


def _hand_text(items: Iterable[tuple[Epin, int]]) -> str:
    return "".join((decimal_text(count) if count > 1 else "") + str(epin) for epin, count in items)


def _count(number: int, noun: str) -> str:
    return f"1 {noun}" if number == 1 else f"{shown(number)} {noun}s"


def _bounded(text: str, limit: int = 80) -> str:
    """A text for a message, cut short (a hand or a square can be thousands of characters)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _quoted(text: str, limit: int = 80) -> str:
    """A text quoted with ``!r`` for a message, cut short as :func:`_bounded` does."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@final
class Feen:
    """A position: board ``shape``, ``board`` pieces, ``hand(player)``, ``active`` player, ``styles``.

    - ``shape`` is ``(files,)``, ``(files, ranks)`` or ``(files, ranks, layers)``.
    - ``board`` is a read-only mapping from :class:`~ggn.cell.Cell` to
      :class:`~ggn.qpi.Qpi`, in the order the placement writes the squares.
    - ``hand(player)`` gives the hand of ``"first"`` or ``"second"``: a read-only mapping
      from :class:`~ggn.qpi.Qpi` to a positive count, in canonical hand order.
    - ``styles`` is ``(first player's Sin, second player's Sin)``.

    ``str()`` gives the canonical FEEN string and ``parse(str(f)) == f``.
    """

    __slots__ = (
        "_board", "_board_items", "_hand_items", "_hands", "_hash", "_text",
        "active", "shape", "styles",
    )
    shape: tuple[int, ...]
    active: Side
    styles: tuple[Sin, Sin]
    _board_items: _BoardItems
    _hand_items: tuple[_HandItems, _HandItems]
    _board: Mapping[Cell, Qpi]
    _hands: tuple[Mapping[Qpi, int], Mapping[Qpi, int]]
    _text: str | None
    _hash: int | None

    def __init__(
        self,
        shape: Sequence[int],
        board: Mapping[Cell, Qpi],
        hands: Mapping[Side, Mapping[Qpi, int]] | Mapping[str, Mapping[Qpi, int]] | None,
        active: Side,
        styles: tuple[Sin, Sin],
    ) -> None:
        dims = _check_shape(shape)
        first_style, second_style = _check_styles(styles)
        expect(active, str, "active", "'first' or 'second'")
        if active not in ("first", "second"):
            raise NotationError(_N, _bounded(repr(active)), "the active player is 'first' or 'second'")
        pair = (first_style, second_style)

        def where(cell: Cell | None, player: str) -> str:
            # Written only for a message: a position has many pieces, and few are at fault.
            return f"on {_quoted(str(cell))}" if cell is not None else f"in the {player} player's hand"

        def check_style(qpi: object, cell: Cell | None, player: str = "") -> Qpi:
            checked: Qpi = qpi if type(qpi) is Qpi else expect(
                qpi, Qpi, f"the piece {where(cell, player)}", "a Qpi"
            )
            if checked.sin != pair[0] and checked.sin != pair[1]:
                raise NotationError(
                    _N, str(checked),
                    f"the piece {where(cell, player)} has style {checked.sin.letter!r}, but the "
                    f"players' styles are {first_style.letter!r} (first) and "
                    f"{second_style.letter!r} (second)",
                    0, 1,
                )
            return checked

        expect(board, (Mapping,), "board", "a mapping from Cell to Qpi")
        placed: list[tuple[Cell, Qpi]] = []
        for cell, qpi in board.items():
            if type(cell) is not Cell:
                expect(cell, Cell, "board's keys", "Cell values")
            if cell.dimensions != len(dims) or any(
                index >= size for index, size in zip(cell.indices, dims, strict=True)
            ):
                raise NotationError(
                    _N, str(cell),
                    f"the square {_quoted(str(cell))} is not on a board of shape {shown_tuple(dims)}",
                )
            placed.append((cell, check_style(qpi, cell)))
        placed.sort(key=lambda item: _reading_key(item[0].indices))

        given: Mapping[Any, object] = {} if hands is None else hands
        expect(given, (Mapping,), "hands", "a mapping of 'first' and 'second' to hands, or None")
        for player in given:
            if player not in ("first", "second"):
                raise NotationError(_N, _bounded(repr(player)), "the hands are 'first' and 'second'")
        hand_items: list[_HandItems] = []
        for player in ("first", "second"):
            held = given.get(player, {})
            expect(held, (Mapping,), f"the {player} player's hand", "a mapping from Qpi to count")
            assert isinstance(held, Mapping)
            keyed: list[tuple[tuple[int, str, bool, int, bool, bool], Qpi, int]] = []
            for qpi, count in held.items():
                check_style(qpi, None, player)
                if type(count) is not int:
                    expect(count, int, f"the count of {qpi} in the {player} player's hand", "an int")
                if count < 0:
                    raise NotationError(
                        _N, shown(count),
                        f"the count of {str(qpi)!r} in the {player} player's hand "
                        "must be a non-negative integer",
                    )
                if count:
                    keyed.append((_hand_key(Epin.from_qpi(qpi), count), qpi, count))
            keyed.sort(key=lambda item: item[0])
            hand_items.append(tuple((qpi, count) for _, qpi, count in keyed))

        squares = _product(dims)
        total = len(placed) + sum(count for items in hand_items for _, count in items)
        if total > squares:
            raise NotationError(
                _N, shown_tuple(dims),
                f"{shown(total)} pieces outnumber the {_count(squares, 'square')} of a board of "
                f"shape {shown_tuple(dims)}",
            )
        self._init(dims, tuple(placed), (hand_items[0], hand_items[1]), active, pair, text=None)

    def _init(
        self,
        shape: tuple[int, ...],
        board_items: _BoardItems,
        hand_items: tuple[_HandItems, _HandItems],
        active: Side,
        styles: tuple[Sin, Sin],
        *,
        text: str | None,
    ) -> None:
        init = object.__setattr__
        init(self, "shape", shape)
        init(self, "_board_items", board_items)
        init(self, "_hand_items", hand_items)
        init(self, "active", active)
        init(self, "styles", styles)
        init(self, "_board", MappingProxyType(dict(board_items)))
        init(self, "_hands", (
            MappingProxyType(dict(hand_items[0])), MappingProxyType(dict(hand_items[1]))
        ))
        init(self, "_text", text)
        init(self, "_hash", None)

    @classmethod
    def parse(cls, text: str) -> Feen:
        """Parse a FEEN string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_feen(text)

    @classmethod
    def is_valid(cls, text: object) -> bool:
        """Whether ``text`` is a valid (hence canonical) FEEN string."""
        if not isinstance(text, str):
            return False
        try:
            _parse_feen(text)
        except NotationError:
            return False
        return True

    @property
    def board(self) -> Mapping[Cell, Qpi]:
        """The occupied squares, in the order the placement writes them."""
        return self._board

    def hand(self, player: Side) -> Mapping[Qpi, int]:
        """A player's hand (``"first"`` or ``"second"``): a read-only mapping of pieces to
        positive counts. A non-string raises :class:`TypeError`, another string
        :class:`~ggn.errors.GGNError`."""
        return self._hands[player_index(player)]

    @property
    def inactive(self) -> Side:
        """The player not to move."""
        return "second" if self.active == "first" else "first"

    @property
    def dimensions(self) -> int:
        """The board's number of dimensions: 1, 2 or 3."""
        return len(self.shape)

    @property
    def squares(self) -> int:
        """The number of squares of the board."""
        return _product(self.shape)

    def fields(self) -> dict[str, object]:
        """The JSON-ready description of the position.

        >>> Feen.parse("K'2 p/ c/C").fields()["board"]
        {'a': 'c:K'}
        """
        first, second = self.styles
        return {
            "shape": list(self.shape),
            "active": self.active,
            "styles": {"first": first.letter, "second": second.letter},
            "board": {str(cell): str(qpi) for cell, qpi in self._board_items},
            "hands": {
                "first": {str(qpi): count for qpi, count in self._hand_items[0]},
                "second": {str(qpi): count for qpi, count in self._hand_items[1]},
            },
        }

    def _key(self) -> tuple[object, ...]:
        return (self.shape, self.active, self.styles, self._board_items, self._hand_items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Feen):
            return self is other or self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash(self._key())
            object.__setattr__(self, "_hash", value)
        return value

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._format()
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"Feen.parse({str(self)!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Feen is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Feen is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (Feen.parse, (str(self),))

    def _format(self) -> str:
        shape = self.shape
        files = shape[0]
        ranks = shape[1] if len(shape) > 1 else 1
        layers = shape[2] if len(shape) > 2 else 1
        rows: dict[tuple[int, ...], list[tuple[int, Epin]]] = {}
        for cell, qpi in self._board_items:
            rows.setdefault(cell.indices[1:], []).append((cell.indices[0], Epin.from_qpi(qpi)))
        layer_texts: list[str] = []
        for layer in range(layers - 1, -1, -1):
            rank_texts: list[str] = []
            for rank in range(ranks - 1, -1, -1):
                row = rows.get((rank, layer)[: len(shape) - 1], [])
                parts: list[str] = []
                file = 0
                for index, epin in row:
                    if index > file:
                        parts.append(decimal_text(index - file))
                    parts.append(str(epin))
                    file = index + 1
                if file < files:
                    parts.append(decimal_text(files - file))
                rank_texts.append("".join(parts))
            layer_texts.append("/".join(rank_texts))
        placement = "//".join(layer_texts)
        hands = "/".join(
            _hand_text((Epin.from_qpi(qpi), count) for qpi, count in items)
            for items in self._hand_items
        )
        first, second = self.styles
        turn = f"{first}/{second}" if self.active == "first" else f"{second}/{first}"
        return f"{placement} {hands} {turn}"


def _product(shape: tuple[int, ...]) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


def _check_shape(shape: object) -> tuple[int, ...]:
    if isinstance(shape, str) or not isinstance(shape, Sequence):
        raise TypeError(f"shape must be a sequence of 1 to 3 ints, got {type(shape).__name__}")
    dims = tuple(shape)
    for size in dims:
        expect(size, int, "every size of the shape", "an int")
    if not 1 <= len(dims) <= 3:
        raise NotationError(
            _N, shown_tuple(dims), "the shape is (files,), (files, ranks) or (files, ranks, layers)"
        )
    if min(dims) < 1:
        raise NotationError(_N, shown_tuple(dims), "every size of the shape is a positive integer")
    if len(dims) == 2 and dims[1] == 1:
        raise NotationError(
            _N, shown_tuple(dims),
            f"a board of one rank is written as 1D: use the shape {shown_tuple(dims[:1])}",
        )
    if len(dims) == 3 and dims[2] == 1:
        raise NotationError(
            _N, shown_tuple(dims),
            f"a board of one layer is written as 2D: use the shape {shown_tuple(dims[:2])}",
        )
    return dims


def _check_styles(styles: object) -> tuple[Sin, Sin]:
    expect(styles, tuple, "styles", "a pair (first player's Sin, second player's Sin)")
    assert isinstance(styles, tuple)
    if len(styles) != 2:
        raise NotationError(
            _N, _bounded(repr(styles)), "styles are a pair (first player's Sin, second player's Sin)"
        )
    first, second = styles
    expect(first, Sin, "the first player's style", "a Sin")
    expect(second, Sin, "the second player's style", "a Sin")
    if first.side != "first" or second.side != "second":
        raise NotationError(
            _N, f"{first}/{second}",
            "the first player's style is uppercase and the second player's lowercase",
        )
    return first, second


# Parsing ---------------------------------------------------------------------------------------

_Rank = tuple[int, int, int, list[tuple[int, Epin]]]  # start, end, width, (file, piece)


def _placement(text: str, end: int) -> tuple[tuple[int, ...], list[tuple[tuple[int, ...], Epin]]]:
    """Read the placement ``text[:end]``: the board's shape and its pieces in written order."""
    layers: list[tuple[int, list[_Rank]]] = []  # start, ranks
    ranks: list[_Rank] = []
    layer_start = rank_start = 0
    file = 0
    row: list[tuple[int, Epin]] = []
    widest = 0  # longest separator seen: 0, 1 or 2
    pos = 0
    while pos < end:
        ch = text[pos]
        if "0" <= ch <= "9":
            start = pos
            while pos < end and text[pos] in _DIGITS:
                pos += 1
            if ch == "0":
                run = text[start:pos]
                if run.strip("0"):
                    reason = (
                        "a count of empty squares has no leading zero: "
                        f"write {_quoted(run.lstrip('0'))}"
                    )
                else:
                    reason = "a count of empty squares is 1 or more"
                raise NotationError(_N, text, reason, start, pos)
            file += decimal_value(text[start:pos])
        elif ch == "/":
            start = pos
            while pos < end and text[pos] == "/":
                pos += 1
            if start == 0:
                raise NotationError(
                    _N, text, "the placement cannot start with a separator", start, pos
                )
            if pos == end:
                raise NotationError(
                    _N, text, "the placement cannot end with a separator", start, pos
                )
            if pos - start > 2:
                raise NotationError(
                    _N, text,
                    f"{_quoted(text[start:pos])} is not a separator: '/' separates ranks, "
                    "'//' the layers of a 3D board (no rank may be empty)",
                    start, pos,
                )
            ranks.append((rank_start, start, file, row))
            if pos - start == 2:
                layers.append((layer_start, ranks))
                ranks = []
                layer_start = pos
            widest = max(widest, pos - start)
            rank_start = pos
            file = 0
            row = []
        elif _is_letter(ch) or ch in "+-":
            epin, pos = parse_epin_at(text, pos, _N)
            row.append((file, epin))
            file += 1
        else:
            raise NotationError(
                _N, text,
                f"unexpected {ch!r} in the placement; expected a piece, "
                "a count of empty squares or '/'",
                pos, pos + 1,
            )
    ranks.append((rank_start, end, file, row))
    layers.append((layer_start, ranks))

    width = layers[0][1][0][2]
    depth = len(layers[0][1])
    count = len(layers)
    for number, (start, layer_ranks) in enumerate(layers):
        height = len(layer_ranks)
        for written, (rank_lo, rank_hi, rank_width, _) in enumerate(layer_ranks):
            if rank_width != width:
                where = f"rank {height - written}"
                if widest == 2:
                    where += f" of layer {_index_to_letters(count - 1 - number, 65)}"
                raise NotationError(
                    _N, text,
                    f"{where} has {_count(rank_width, 'square')}, but the first rank written "
                    f"has {shown(width)}; every rank has the same number of squares",
                    rank_lo, rank_hi,
                )
        if height != depth:
            layer_end = layer_ranks[-1][1]
            raise NotationError(
                _N, text,
                f"layer {_index_to_letters(count - 1 - number, 65)} (the {_ordinal(number + 1)} "
                f"written) has {_count(height, 'rank')}, but the first layer has {depth}; every layer "
                "has the same number of ranks",
                start, layer_end,
            )

    if widest == 0:
        shape: tuple[int, ...] = (width,)
    elif widest == 1:
        shape = (width, depth)
    else:
        shape = (width, depth, count)
    pieces: list[tuple[tuple[int, ...], Epin]] = []
    for number, (_, layer_ranks) in enumerate(layers):
        for written, (_, _, _, rank_row) in enumerate(layer_ranks):
            rest = (depth - 1 - written, count - 1 - number)[: len(shape) - 1]
            pieces.extend(((index, *rest), epin) for index, epin in rank_row)
    return shape, pieces


def _hand(text: str, start: int, end: int, player: str) -> list[tuple[Epin, int]]:
    """Read one player's hand ``text[start:end]``; check that it is canonical."""
    items: list[tuple[Epin, int, int, int, int]] = []  # piece, count, start, count end, end
    pos = start
    while pos < end:
        item_start = pos
        count = 1
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        if pos > item_start:
            count = decimal_value(text[item_start:pos])
            if pos == end:
                raise NotationError(
                    _N, text, f"the count in the {player} player's hand is not followed by a piece",
                    item_start, pos,
                )
        ch = text[pos]
        if not (_is_letter(ch) or ch in "+-"):
            raise NotationError(
                _N, text, f"expected a piece in the {player} player's hand, found {ch!r}",
                pos, pos + 1,
            )
        count_end = pos
        epin, pos = parse_epin_at(text, pos, _N)
        items.append((epin, count, item_start, count_end, pos))

    totals: dict[Epin, int] = {}
    for epin, count, *_ in items:
        totals[epin] = totals.get(epin, 0) + count
    canonical = sorted(
        ((epin, count) for epin, count in totals.items() if count),
        key=lambda item: _hand_key(*item),
    )
    hint = f"; the canonical {player} player's hand is {_quoted(_hand_text(canonical))}"

    seen: set[Epin] = set()
    previous: tuple[int, str, bool, int, bool, bool] | None = None
    for epin, count, item_start, count_end, item_end in items:
        digits = text[item_start:count_end]
        if digits:
            if count == 0:
                raise NotationError(
                    _N, text, "a count of 0 is not written: an absent piece is left out" + hint,
                    item_start, count_end,
                )
            if digits[0] == "0":
                raise NotationError(
                    _N, text, "a count has no leading zero" + hint, item_start, count_end
                )
            if count == 1:
                raise NotationError(
                    _N, text, "a count of 1 is not written" + hint, item_start, count_end
                )
        if epin in seen:
            raise NotationError(
                _N, text, f"{str(epin)!r} appears twice: identical pieces are aggregated" + hint,
                item_start, item_end,
            )
        seen.add(epin)
        key = _hand_key(epin, count)
        if previous is not None and key < previous:
            raise NotationError(
                _N, text, "the pieces are not in canonical order" + hint, item_start, item_end
            )
        previous = key
    return [(epin, count) for epin, count, *_ in items]


def _style_turn(text: str, start: int) -> tuple[Side, tuple[Sin, Sin]]:
    """Read the style-turn field ``text[start:]``: the active player and the two styles."""
    end = len(text)
    slash = text.find("/", start)
    if slash < 0:
        raise NotationError(
            _N, text, "the style-turn field is <active style>/<inactive style>: missing '/'",
            start, end,
        )
    if slash == start:
        raise NotationError(
            _N, text, "the active player's style letter is missing before '/'", slash, slash + 1
        )
    if not _is_letter(text[start]):
        raise NotationError(
            _N, text, f"a style is an ASCII letter, found {text[start]!r}", start, start + 1
        )
    if slash > start + 1:
        raise NotationError(_N, text, "a style is one letter", start + 1, slash)
    if slash + 1 == end:
        raise NotationError(
            _N, text, "the inactive player's style letter is missing after '/'", slash, slash + 1
        )
    if not _is_letter(text[slash + 1]):
        raise NotationError(
            _N, text, f"a style is an ASCII letter, found {text[slash + 1]!r}",
            slash + 1, slash + 2,
        )
    if end > slash + 2:
        raise NotationError(_N, text, "a style is one letter", slash + 2, end)
    active_sin = Sin.parse(text[start])
    inactive_sin = Sin.parse(text[slash + 1])
    if active_sin.side == inactive_sin.side:
        raise NotationError(
            _N, text,
            "the two styles are of opposite case: uppercase for the first player, "
            "lowercase for the second",
            start, end,
        )
    if active_sin.side == "first":
        return "first", (active_sin, inactive_sin)
    return "second", (inactive_sin, active_sin)


def _build_feen(text: str) -> Feen:
    if not isinstance(text, str):
        raise NotationTypeError.of(_N, text)
    if not text:
        raise NotationError(
            _N, text, "a position cannot be empty; expected <placement> <hands> <style-turn>"
        )
    if not text.isascii():
        pos = next(index for index, ch in enumerate(text) if ch > "\x7f")
        raise NotationError(_N, text, f"non-ASCII character {text[pos]!r}", pos, pos + 1)
    for pos, ch in enumerate(text):
        if ch in "\t\n\r\x0b\x0c":
            raise NotationError(
                _N, text, f"fields are separated by single spaces, found {ch!r}", pos, pos + 1
            )
    length = len(text)
    if text[0] == " ":
        raise NotationError(_N, text, "a position cannot start with a space", 0, 1)
    first = text.find(" ")
    second = text.find(" ", first + 1) if first >= 0 else -1
    if second < 0:
        raise NotationError(
            _N, text, "a position has three fields: <placement> <hands> <style-turn>"
        )
    if second == first + 1:
        raise NotationError(
            _N, text, "fields are separated by a single space", second, second + 1
        )
    third = text.find(" ", second + 1)
    if third == second + 1:
        raise NotationError(_N, text, "fields are separated by a single space", third, third + 1)
    if third == length - 1 or second == length - 1:
        raise NotationError(_N, text, "a position cannot end with a space", length - 1, length)
    if third >= 0:
        raise NotationError(
            _N, text, "a position has three fields: <placement> <hands> <style-turn>",
            third, length,
        )

    shape, pieces = _placement(text, first)

    slash = text.find("/", first + 1, second)
    if slash < 0:
        raise NotationError(
            _N, text, "the hands field is <first player's hand>/<second player's hand>: "
            "missing '/'",
            first + 1, second,
        )
    extra = text.find("/", slash + 1, second)
    if extra >= 0:
        raise NotationError(
            _N, text, "exactly one '/' separates the two players' hands", extra, extra + 1
        )
    hand_first = _hand(text, first + 1, slash, "first")
    hand_second = _hand(text, slash + 1, second, "second")

    active, styles = _style_turn(text, second + 1)

    squares = _product(shape)
    held = sum(count for _, count in hand_first) + sum(count for _, count in hand_second)
    if len(pieces) + held > squares:
        raise NotationError(
            _N, text,
            f"{shown(len(pieces) + held)} pieces ({len(pieces)} on the board, {shown(held)} in the "
            "hands) "
            f"outnumber the {_count(squares, 'square')} of the board",
            first + 1, second,
        )

    first_style, second_style = styles
    board = tuple(
        (Cell(indices), epin.to_qpi(first_style, second_style)) for indices, epin in pieces
    )
    hands = (
        tuple((epin.to_qpi(first_style, second_style), count) for epin, count in hand_first),
        tuple((epin.to_qpi(first_style, second_style), count) for epin, count in hand_second),
    )
    feen = Feen.__new__(Feen)
    feen._init(shape, board, hands, active, styles, text=text)
    return feen


_parse_feen: Final = Memo(_build_feen, bound=4096)
