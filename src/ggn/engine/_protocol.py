"""What the UCI, USI and UCCI protocols say, read and written: options, limits, scores, the
``info`` lines of a search, and moves and positions in each protocol's own notation.

Fairy-Stockfish speaks all three with one vocabulary of commands (``position``, ``go``,
``setoption``, ``isready``) and differs in a few places, which this module keeps:

- USI names a square by its file counted from the right and its rank as a letter from the top
  (``7g7f``; UCI's ``c3c4`` on a shogi board), writes a drop with ``*`` (``P*5e``), a position
  as SFEN (``position sfen``), and a mate's distance in plies;
- UCCI (on a board of ten ranks, xiangqi's) counts ranks from 0 (``h2e2``; UCI's ``h3e3``), and
  its ``setoption`` takes the option's name and value without the words ``name`` and ``value``;
- UCI is Fairy-Stockfish's strings as :mod:`ggn.variants.uci` reads and writes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from ggn._json import quote
from ggn._types import check_fields, expect
from ggn.errors import GGNError

__all__ = ["PROTOCOLS", "Info", "Limit", "Option", "Protocol", "Score", "from_engine", "parse_info",
           "parse_option", "position_command", "to_engine"]

Protocol = Literal["uci", "usi", "ucci"]
PROTOCOLS: Final[tuple[Protocol, ...]] = ("uci", "usi", "ucci")

MAX_DEPTH: Final = 1000
MAX_NODES: Final = 10**15
MAX_MOVETIME: Final = 7 * 24 * 3600 * 1000  # a week, in milliseconds
_MAX_DIGITS: Final = 19  # the longest number read from an info line (an int64's)


@dataclass(frozen=True, slots=True)
class Limit:
    """How long a search runs: to a ``depth`` (plies), for ``movetime`` milliseconds, or for
    ``nodes`` positions; at least one, and the search ends at the first reached.

    >>> str(Limit(depth=12))
    'depth 12'
    >>> str(Limit(movetime=500, nodes=100000))
    'movetime 500 nodes 100000'
    """

    depth: int | None = None
    movetime: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        for field, most in (("depth", MAX_DEPTH), ("movetime", MAX_MOVETIME), ("nodes", MAX_NODES)):
            value = getattr(self, field)
            if value is None:
                continue
            expect(value, int, field, "an int or None")
            if not 1 <= value <= most:
                raise GGNError(f"a search's {field} is from 1 to {most:,}, not {value:,}")
        if self.depth is None and self.movetime is None and self.nodes is None:
            raise GGNError("a search needs a limit: a depth, a movetime or a number of nodes")

    def __str__(self) -> str:
        return " ".join(f"{field} {value}" for field, value in
                        (("depth", self.depth), ("movetime", self.movetime), ("nodes", self.nodes))
                        if value is not None)


@dataclass(frozen=True, slots=True)
class Score:
    """An engine's score of a position, from the side to move's point of view: ``cp``
    centipawns, or ``mate`` in that many moves (negative: the side to move is mated; 0: it is
    mated now), exactly one of them. ``bound`` is ``"lower"`` or ``"upper"`` when the engine
    said the score is only a bound.

    >>> str(Score(cp=35)), str(Score(mate=-2)), Score(mate=3).to_json()
    ('+35', '#-2', {'mate': 3})
    """

    cp: int | None = None
    mate: int | None = None
    bound: Literal["lower", "upper"] | None = None

    def __post_init__(self) -> None:
        for field in ("cp", "mate"):
            value = getattr(self, field)
            if value is not None:
                expect(value, int, field, "an int or None")
        if (self.cp is None) == (self.mate is None):
            raise GGNError("a score is either centipawns (cp) or a mate, exactly one of them")
        if self.bound not in (None, "lower", "upper"):
            raise GGNError(f"a score's bound is 'lower', 'upper' or None, not {self.bound!r}")

    def to_json(self) -> dict[str, int]:
        """``{"cp": n}`` or ``{"mate": n}``."""
        return {"cp": self.cp} if self.cp is not None else {"mate": self.mate if self.mate is not None else 0}

    def __str__(self) -> str:
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{self.cp:+d}"


@dataclass(frozen=True, slots=True)
class Info:
    """What a search's ``info`` lines said last, for its principal variation (``multipv`` 1):
    the depth reached, the score, the principal variation (moves in the engine's notation),
    the nodes searched and the time taken (milliseconds). A field no line gave is None."""

    depth: int | None = None
    seldepth: int | None = None
    score: Score | None = None
    pv: tuple[str, ...] = ()
    nodes: int | None = None
    time: int | None = None

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True)
class Option:
    """An option an engine declares (``option name Hash type spin default 16 min 1 max
    33554432``): its ``name``, ``type`` (check, spin, combo, button or string), ``default``
    (as written; None if none), ``min`` and ``max`` (spin) and ``vars`` (combo)."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_fields(self)

    def value(self, value: str | int | bool | None) -> str | None:
        """``value`` as the engine reads it for this option, checked against its type: a
        :class:`~ggn.errors.GGNError` names what the option takes."""
        if value is not None:
            expect(value, (str, int, bool), "value", "a str, an int, a bool or None")
        name = quote(self.name)
        if self.type == "button":
            if value is not None:
                raise GGNError(f"option {name} is a button: it takes no value")
            return None
        if value is None:
            raise GGNError(f"option {name} ({self.type}) needs a value")
        if self.type == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower()
            raise GGNError(f"option {name} is a check: it takes true or false, not {_shown(value)}")
        if self.type == "spin":
            number = _integer(value)
            if number is None:
                raise GGNError(f"option {name} is a spin: it takes a whole number, not {_shown(value)}")
            if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
                raise GGNError(f"option {name} takes a number from {self.min} to {self.max}, not {number}")
            return str(number)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if self.type == "combo" and self.vars:
            for choice in self.vars:
                if choice.lower() == text.lower():
                    return choice
            listed = ", ".join(self.vars[:40]) + (", ..." if len(self.vars) > 40 else "")
            raise GGNError(f"option {name} takes one of: {listed}; not {quote(text)}")
        return text


def _shown(value: object) -> str:
    return quote(value) if isinstance(value, str) else repr(value)


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]{1,18}", value.strip()):
        return int(value)
    return None


_OPTION_WORDS: Final = frozenset({"name", "type", "default", "min", "max", "var"})


def parse_option(line: str) -> Option | None:
    """The option an ``option`` line declares, or None if the line is not one (names and
    values may hold spaces: each runs to the next keyword)."""
    tokens = line.split()
    if len(tokens) < 2 or tokens[0] != "option" or tokens[1] != "name":
        return None
    fields: dict[str, list[str]] = {}
    vars_: list[str] = []
    key: str | None = None
    words: list[str] = []

    def keep() -> None:
        if key == "var":
            vars_.append(" ".join(words))
        elif key is not None:
            fields.setdefault(key, words.copy())

    for word in tokens[1:]:
        # The name runs to "type" whatever it holds; the other fields to the next keyword.
        if word in _OPTION_WORDS and (key != "name" or word == "type"):
            keep()
            key, words = word, []
        else:
            words.append(word)
    keep()
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name or not kind:
        return None
    default = " ".join(fields["default"]) if "default" in fields else None
    low = _integer(" ".join(fields.get("min", [])))
    high = _integer(" ".join(fields.get("max", [])))
    return Option(name, kind, default, low, high, tuple(vars_))


_INT_FIELDS: Final = ("depth", "seldepth", "multipv", "nodes", "time")


def parse_info(line: str, protocol: Protocol) -> tuple[dict[str, int], Score | None, tuple[str, ...] | None]:
    """The numbers (``depth``, ``seldepth``, ``multipv``, ``nodes``, ``time``), the score and the
    principal variation (None when the line has none) of an ``info`` line. What cannot be
    read (a number that is not one, an unknown word) is passed over, as the protocols ask."""
    tokens = line.split()
    numbers: dict[str, int] = {}
    score: Score | None = None
    pv: tuple[str, ...] | None = None
    index = 1
    while index < len(tokens):
        word = tokens[index]
        index += 1
        if word == "string":  # free text to the end of the line
            break
        if word == "pv":
            pv = tuple(tokens[index:])
            break
        if word in _INT_FIELDS and index < len(tokens):
            value = _number(tokens[index])
            if value is not None:
                numbers[word] = value
                index += 1
        elif word == "score" and index + 1 < len(tokens):
            kind, text = tokens[index], tokens[index + 1]
            value = _number(text)
            index += 2
            bound: Literal["lower", "upper"] | None = None
            if index < len(tokens) and tokens[index] in ("lowerbound", "upperbound"):
                bound = "lower" if tokens[index] == "lowerbound" else "upper"
                index += 1
            if value is None:
                continue
            if kind == "cp":
                score = Score(cp=value, bound=bound)
            elif kind == "mate":
                score = Score(mate=_usi_mate(value) if protocol == "usi" else value, bound=bound)
    return numbers, score, pv


def _usi_mate(plies: int) -> int:
    """A USI mate distance (plies) in moves, as UCI counts it: mate in 3 plies is in 2 moves
    of the side to move; mated in 4 plies is in -2."""
    if plies > 0:
        return (plies + 1) // 2
    return -((-plies) // 2)


def _number(text: str) -> int | None:
    if re.fullmatch(r"[+-]?[0-9]{1,%d}" % _MAX_DIGITS, text):  # noqa: UP031  (a regex's braces)
        return int(text)
    return None


# --- moves and positions in each protocol's notation -----------------------------------------
_UCI_BOARD_MOVE: Final = re.compile(r"([a-z])([0-9]{1,2})([a-z])([0-9]{1,2})(.{0,2})")
_UCI_DROP: Final = re.compile(r"(\+?[A-Za-z])@([a-z])([0-9]{1,2})")
_USI_BOARD_MOVE: Final = re.compile(r"([0-9]{1,2})([a-z])([0-9]{1,2})([a-z])(.{0,2})")
_USI_DROP: Final = re.compile(r"(\+?[A-Za-z])\*([0-9]{1,2})([a-z])")


def _uci_square(file: int, rank: int) -> str:
    return f"{chr(ord('a') + file)}{rank + 1}"


def _square(protocol: Protocol, file: int, rank: int, files: int, ranks: int) -> str:
    if protocol == "usi":
        return f"{files - file}{chr(ord('a') + ranks - 1 - rank)}"
    if protocol == "ucci" and ranks == 10:
        return f"{chr(ord('a') + file)}{rank}"
    return _uci_square(file, rank)


def _read_square(protocol: Protocol, first: str, second: str, files: int,
                 ranks: int) -> tuple[int, int] | None:
    """(file, rank), from 0, of a square written in ``protocol``, or None if off the board."""
    if protocol == "usi":
        file, rank = files - int(first), ranks - 1 - (ord(second) - ord("a"))
    elif protocol == "ucci" and ranks == 10:
        file, rank = ord(first) - ord("a"), int(second)
    else:
        file, rank = ord(first) - ord("a"), int(second) - 1
    if 0 <= file < files and 0 <= rank < ranks:
        return file, rank
    return None


def _check_move(move: object, protocol: object, files: object, ranks: object) -> None:
    expect(move, str, "move", "a str")
    expect(protocol, str, "protocol", "'uci', 'usi' or 'ucci'")
    if protocol not in PROTOCOLS:
        raise GGNError(f"a protocol is 'uci', 'usi' or 'ucci', not {quote(str(protocol))}")
    for name, size in (("files", files), ("ranks", ranks)):
        if not 1 <= expect(size, int, name, "an int") <= 26:
            raise GGNError(f"a board's {name} are from 1 to 26, not {size}")


def to_engine(move: str, protocol: Protocol, files: int, ranks: int) -> str:
    """A move in Fairy-Stockfish's UCI string (:mod:`ggn.variants.uci`) as ``protocol`` writes it
    on a board of ``files`` x ``ranks``.

    >>> to_engine("c3c4", "usi", 9, 9), to_engine("P@e5", "usi", 9, 9), to_engine("h3e3", "ucci", 9, 10)
    ('7g7f', 'P*5e', 'h2e2')
    """
    _check_move(move, protocol, files, ranks)
    if protocol == "uci":
        return move
    drop = _UCI_DROP.fullmatch(move)
    if drop is not None:
        piece, file, rank = drop.groups()
        square = _square(protocol, ord(file) - ord("a"), int(rank) - 1, files, ranks)
        return f"{piece}{'*' if protocol == 'usi' else '@'}{square}"
    board = _UCI_BOARD_MOVE.fullmatch(move)
    if board is None:
        raise GGNError(f"{quote(move)} is not a move in Fairy-Stockfish's UCI notation")
    a, b, c, d, suffix = board.groups()
    return (_square(protocol, ord(a) - ord("a"), int(b) - 1, files, ranks)
            + _square(protocol, ord(c) - ord("a"), int(d) - 1, files, ranks) + suffix)


def from_engine(move: str, protocol: Protocol, files: int, ranks: int) -> str | None:
    """A move written in ``protocol`` as Fairy-Stockfish's UCI string, or None if it is not a
    move of that notation on a board of ``files`` x ``ranks``.

    >>> from_engine("7g7f", "usi", 9, 9), from_engine("P*5e", "usi", 9, 9), from_engine("h2e2", "ucci", 9, 10)
    ('c3c4', 'P@e5', 'h3e3')
    """
    _check_move(move, protocol, files, ranks)
    if protocol == "usi":
        drop, board = _USI_DROP.fullmatch(move), _USI_BOARD_MOVE.fullmatch(move)
    else:
        drop, board = _UCI_DROP.fullmatch(move), _UCI_BOARD_MOVE.fullmatch(move)
    if drop is not None:
        piece, first, second = drop.groups()
        square = _read_square(protocol, first, second, files, ranks)
        return None if square is None else f"{piece}@{_uci_square(*square)}"
    if board is None:
        return None
    a, b, c, d, suffix = board.groups()
    source = _read_square(protocol, a, b, files, ranks)
    destination = _read_square(protocol, c, d, files, ranks)
    if source is None or destination is None or not re.fullmatch(r"[a-z+-]?", suffix):
        return None
    return _uci_square(*source) + _uci_square(*destination) + suffix


def _sfen(fen: str) -> str | None:
    """Fairy-Stockfish's FEN of a position as SFEN, or None where SFEN cannot hold it (castling
    rights or an en passant square). The placement is the same; the pieces in hand become
    counts; the side to move is ``b`` (sente, the first player) or ``w``; the move number
    counts plies from 1.

    >>> _sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1")
    'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
    >>> _sfen("4k4/9/9/9/9/9/9/9/4K4[PPpR] b 0 7")
    '4k4/9/9/9/9/9/9/9/4K4 w R2Pp 14'
    >>> _sfen("4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1"), _sfen("8/8/8/8/8/8/8/8 w KQ - 0 1")
    ('4k4/9/9/9/9/9/9/9/4K4 b - 1', None)
    """
    fields = fen.split(" ")
    if len(fields) == 6 and fields[2:4] == ["-", "-"]:  # no castling, no en passant: nothing lost
        fields = [*fields[:2], *fields[4:]]
    if len(fields) != 4 or fields[1] not in ("w", "b") or not fields[3].isdigit():
        return None
    placement, turn, _halfmove, fullmove = fields
    hand = ""
    if placement.endswith("]") and "[" in placement:
        placement, hand = placement[:-1].split("[", 1)
    counts: dict[str, int] = {}
    for letter in hand:
        if letter.isalpha():
            counts[letter] = counts.get(letter, 0) + 1
    order = "RBGSNLP"
    ranked = sorted(counts, key=lambda letter: (letter.islower(), order.find(letter.upper()) % 8, letter))
    pieces = "".join(f"{counts[letter] if counts[letter] > 1 else ''}{letter}" for letter in ranked)
    ply = 2 * (max(int(fullmove), 1) - 1) + (1 if turn == "w" else 2)
    return f"{placement} {'b' if turn == 'w' else 'w'} {pieces or '-'} {ply}"


def position_command(protocol: Protocol, fen: str, moves: tuple[str, ...]) -> str:
    """The ``position`` command of a position (Fairy-Stockfish's FEN) and the moves after it
    (already in the protocol's notation): USI's ``position sfen`` where SFEN can hold the
    position (Fairy-Stockfish reads ``position fen`` in USI too, for the rest)."""
    text = None
    if protocol == "usi":
        text = _sfen(fen)
    head = f"position sfen {text}" if text is not None else f"position fen {fen}"
    return f"{head} moves {' '.join(moves)}" if moves else head
