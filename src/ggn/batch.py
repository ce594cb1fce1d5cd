"""Many positions at once: the moves of each line of a text, in input order, in constant memory.

Each line holds one position: in FEEN, or in the game's Fairy-Stockfish FEN (a line whose last
of three space-separated fields is two style letters around a slash, ``C/c``, is FEEN; any
other line is read as FEN, where the rules come from a game). The answer of a line is one JSON
list, the same text ``ggn moves RULES FEEN --format json`` or ``ggn legal GAME FEEN --format
json`` writes for that position alone (with a ``notation``: the list of the moves written in
it, ``"uci"`` for their UCI strings, ``"san"``...); for :func:`perft`, one object: the
position, the depth and the count (and with ``divide``, the count under each first move).

:func:`moves`, :func:`legal` and :func:`perft` read the lines as they go and yield a :class:`Result` a line,
in the lines' order, as soon as it is known: however many lines there are, what is held at
once is one line (one chunk a worker, with ``jobs`` or ``scheduler``: see
:mod:`ggn.parallel`). A line that cannot be answered gives a Result with its ``error`` and
does not stop the others. A blank line (nothing but white space) is no position: it gives no
Result, and is still counted in the line numbers.

>>> lines = ["+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c", "",
...          "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "8/8 w"]
>>> for result in legal("chess", lines, notation="uci"):
...     print(result.line, result.error or len(result.value))
1 20
3 15
4 invalid FEN '8/8 w': expected 8 ranks separated by '/', got 2 (at 0-3)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import IO, TYPE_CHECKING, Any, Final, Literal

from ggn._types import expect
from ggn.errors import GGNError
from ggn.parallel import Jobs, Recipe, ordered, runs_here

if TYPE_CHECKING:
    from types import ModuleType

    from ggn.position import Position
    from ggn.rules import Play, RuleSystem
    from ggn.rules._lines import Reader
    from ggn.ruleset import Ruleset
    from ggn.variants.description import Variant

__all__ = ["CHUNK", "MAX_LINE", "Result", "legal", "lines_of", "moves", "perft"]

MAX_LINE: Final = 1 << 20
"""The longest line read, in bytes (a line ending not counted): a longer one is an error of its
line, and is not kept in memory."""

CHUNK: Final = 32
"""The lines a task of a worker answers (with ``jobs`` or ``scheduler``)."""

Notation = Literal["san", "lan", "shogi-hosking", "shogi-hodges", "shogi-hodges-number", "janggi", "wxf",
                   "thai-san", "thai-lan", "uci", "usi", "ggn"]
"""A notation's name (:data:`ggn.notation.NAMES`)."""


def _ok(result: Result) -> bool:
    """Result.ok (the kernel's C function reads it once the kernel answers lines: _read_in_c)."""
    return result[2] is None


def _value(result: Result) -> Any:
    """Result.value (as _ok; the kernel's function calls this one for a value of objects)."""
    value = result[4]
    if value is not _UNREAD:
        if value and type(value[0]) is not str:
            return json.loads(json.dumps(value))
        return list(value)
    if result[3] is None:
        raise GGNError(f"line {result[0]}: {result[2]}")
    return json.loads(result[3])


class Result(tuple):  # type: ignore[type-arg]  # (a tuple: made in one call, a line at a time)
    """The answer to one line: its number (from 1), the line as read (without its end and the
    white space around it), and either the answer as JSON text or why there is none.

    Immutable. A line the native kernel answered holds its value, and its JSON text is
    ``json.dumps`` of it (the same text the pure path writes), made when read, so that reading
    :attr:`value` of every line costs no round trip through JSON."""

    __slots__ = ()

    def __new__(cls, line: int, text: str, json: str | None, error: str | None) -> Result:
        return _tuple_new(cls, (line, text, error, json, _UNREAD))

    @property
    def line(self) -> int:
        """The line's number, from 1."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def text(self) -> str:
        """The line as read, without its end and the white space around it."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def error(self) -> str | None:
        """Why the line has no answer (None for an answered line)."""
        return self[2]  # type: ignore[no-any-return]

    @property
    def json(self) -> str | None:
        """The answer as JSON text (None for a line that has none)."""
        made: str | None = self[3]
        if made is None and self[4] is not _UNREAD:
            return json.dumps(self[4])
        return made

    ok = property(_ok, doc="Whether the line was answered.")
    value = property(_value, doc="""The answer, decoded from :attr:`json` (a list; a dict for
        :func:`perft`), a new object at each call; raise :class:`~ggn.errors.GGNError` (the
        line's error) for a line that has none.""")

    def __eq__(self, other: object) -> bool:
        if type(other) is not Result:
            return NotImplemented
        return (self.line, self.text, self.json, self.error) == (
            other.line, other.text, other.json, other.error)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.line, self.text, self.json, self.error))

    def __repr__(self) -> str:
        return f"Result(line={self.line!r}, text={self.text!r}, json={self.json!r}, error={self.error!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self[4] is not _UNREAD:
            return (_answered, (self[0], self[1], self[4]))
        return (Result, (self[0], self[1], self[3], self[2]))


def _answered(line: int, text: str, value: list[Any]) -> Result:
    """An answered line from its value (a list of str or of JSON objects)."""
    return _tuple_new(Result, (line, text, None, None, value))


_UNREAD: Final = object()
_tuple_new = tuple.__new__


# --- reading lines -----------------------------------------------------------------------------
def lines_of(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of a binary stream, read as they come (an answer can be written before the
    next line is): each without its line ending. A line of more than :data:`MAX_LINE` bytes
    is given cut to ``MAX_LINE + 1`` bytes (its answer says it is too long), the rest of it
    read and dropped. Raise :class:`TypeError` at the call for what is not a binary stream
    (an object with ``readline``, such as ``open(name, "rb")``; a text stream's lines are
    already what :func:`moves` reads), and at the first line for a stream whose lines are
    not bytes."""
    import io  # noqa: PLC0415  (on use: the module imports fast)

    if isinstance(stream, io.TextIOBase):
        raise TypeError("stream must be a binary stream (open(name, 'rb')), got a text stream: "
                        "give its lines to moves() or legal() as they are")
    if not callable(getattr(stream, "readline", None)):
        raise TypeError(f"stream must be a binary stream (open(name, 'rb')), got {type(stream).__name__}")
    return _lines(stream)


def _lines(stream: IO[bytes]) -> Iterator[bytes]:
    while True:
        line = stream.readline(MAX_LINE + 2)  # the line, its '\n' and a byte to tell it is longer
        if not isinstance(line, bytes):
            raise TypeError(f"stream must be a binary stream: its readline gave {type(line).__name__}, "
                            "not bytes")
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= MAX_LINE + 1:  # the last line, without an end
            yield line
            return
        yield line[:MAX_LINE + 1]
        while line and not line.endswith(b"\n"):
            line = stream.readline(MAX_LINE)


def _numbered(lines: Iterable[str | bytes], start: int = 1) -> Iterator[tuple[int, str, str | None]]:
    """``(number, text, error)`` for each line that is not blank (numbered from ``start``);
    ``error`` is set for a line that cannot be text (not UTF-8, too long)."""
    for number, line in enumerate(lines, start):
        if type(line) is str and len(line) <= MAX_LINE:  # the common case first
            if text := line.strip():
                yield number, text, None
            continue
        if isinstance(line, bytes):
            if len(line.rstrip(b"\r\n")) > MAX_LINE:
                yield number, "", f"the line is over {MAX_LINE:,} bytes long"
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as fault:
                yield number, "", f"not UTF-8 text ({fault.reason} at byte {fault.start})"
                continue
        elif isinstance(line, str):
            text = line
        else:
            raise TypeError(f"lines must be str or bytes, not {type(line).__name__} (line {number})")
        if len(text) > MAX_LINE:
            yield number, "", f"the line is over {MAX_LINE:,} characters long"
        elif text := text.strip():
            yield number, text, None


# --- answering a line --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Rules:
    """What a line is answered from: the rule system (None for a GGN document given alone:
    ``legal`` needs one; a document's own is ``RuleSystem(ruleset)``), the document whose
    pseudo-legal moves ``moves`` lists, and the game's description (for FEN and UCI)."""

    system: RuleSystem | None
    ruleset: Ruleset
    variant: Variant | None


def _rules_of(rules: Recipe | RuleSystem | Ruleset) -> _Rules:
    from ggn.rules import RuleSystem  # noqa: PLC0415  (on use: the module imports fast)
    from ggn.ruleset import Ruleset  # noqa: PLC0415

    if isinstance(rules, Recipe):
        if rules.document is not None:  # the document's generic rule system (RuleSystem(ruleset))
            system = rules.rules()
            return _Rules(system, system.ruleset, None)
        entry = rules.entry()
        return _Rules(entry.rules, entry.rules.ruleset, entry.variant)
    if isinstance(rules, RuleSystem):
        return _Rules(rules, rules.ruleset, getattr(rules, "variant", None))
    if isinstance(rules, Ruleset):
        return _Rules(None, rules, None)
    raise TypeError(f"rules must be a game's name, a Recipe, a RuleSystem or a Ruleset, not "
                    f"{type(rules).__name__}")


def _position(rules: _Rules, text: str) -> Position:
    from ggn.variants.fen import is_feen, to_feen  # noqa: PLC0415

    if rules.system is None:  # a GGN document: positions in FEEN only, of any board
        from ggn.feen import Feen  # noqa: PLC0415
        from ggn.position import Position  # noqa: PLC0415

        return Position.from_feen(Feen.parse(text))
    if rules.variant is None or is_feen(text):
        return rules.system.position(text)  # the board's shape checked before it is built
    return rules.system.position(to_feen(rules.variant, text))


@dataclass(frozen=True, slots=True)
class _Query:
    """What a line is asked: ``kind`` (moves, legal or perft), the notation of the moves
    written, and for perft the depth and whether the count is divided by first move."""

    kind: str
    notation: str | None = None
    depth: int = 0
    divide: bool = False


def _written(rules: _Rules, position: Position, play: Play, notation: str | None) -> str:
    """A play as ``notation`` writes it (None: the game's own, :func:`ggn.notation.default`)."""
    if notation == "ggn" or rules.system is None or rules.variant is None:
        return str(play)
    from ggn import notation as notations  # noqa: PLC0415  (on use: the module imports fast)

    return notations.write(rules.system, position, play, notations.default(rules.system)
                           if notation is None else notation)


def _answer(rules: _Rules, query: _Query, text: str) -> str:
    """The JSON answer to one line, or a GGNError."""
    position = _position(rules, text)
    if query.kind == "perft":
        from ggn.rules import divide, perft  # noqa: PLC0415

        assert rules.system is not None
        counted: dict[str, Any] = {"position": position.to_feen(), "depth": query.depth}
        if query.divide and query.depth > 0:
            split = {_written(rules, position, play, query.notation): count
                     for play, count in divide(rules.system, query.depth, position)}
            counted["nodes"] = sum(split.values())
            counted["divide"] = split
        else:
            counted["nodes"] = perft(rules.system, query.depth, position)
        return json.dumps(counted)
    listed: list[Any]
    if query.kind == "moves":
        listed = [{"piece": str(m.piece), "source": str(m.source), "destination": str(m.destination)}
                  for m in rules.ruleset.moves(position)]
    else:
        assert rules.system is not None
        listed = _listed(rules, query, position, rules.system.legal_moves(position))
    return json.dumps(listed)


def _listed(rules: _Rules, query: _Query, position: Position, plays: list[Play]) -> list[Any]:
    """The answer of ``legal`` for ``position`` (before JSON) from its legal plays."""
    if query.notation not in (None, "ggn"):
        return [_written(rules, position, play, query.notation) for play in plays]
    # The seeds' form; without a notation, a game's own (SAN) and UCI beside it.
    named = query.notation is None and rules.variant is not None
    return [{**({"san": _written(rules, position, play, None),
                 "uci": _written(rules, position, play, "uci")} if named else {}),
             "piece": str(play.piece), "source": str(play.source),
             "destination": str(play.destination),
             "choice": None if play.choice is None else str(play.choice),
             **({} if play.wall is None else {"wall": str(play.wall)}),
             "transition": play.transition.to_value()} for play in plays]


def _fast(rules: _Rules, query: _Query, number: int, text: str) -> Result | None:
    """The answer to a ``legal`` line by the native kernel (:mod:`ggn.rules._lines`), or None
    where the pure path answers it: the kernel off or refusing the game, a position it cannot
    read (or its error, which the pure path words), a generator order it cannot keep."""
    from ggn.rules import _lines  # noqa: PLC0415  (on use: the module imports fast)

    system = rules.system
    assert system is not None
    notation = query.notation

    def writer(where: Position, play: Play) -> str:
        return _written(rules, where, play, notation)

    try:
        position = _position(rules, text)
    except GGNError:
        return None
    lister = _lines.lister(system, position, notation, writer)
    if lister is None:
        return None
    if notation not in (None, "ggn"):
        texts = lister.written(position)
        return None if texts is None else _answered(number, text, texts)
    plays = lister.plays(position)
    return None if plays is None else _answered(number, text, _listed(rules, query, position, plays))


def _message(error: GGNError) -> str:
    """An error's first line: the line of a notation error under it points into the line, which
    the batch's messages do not show."""
    return str(error).split("\n", 1)[0]


def _result(rules: _Rules, query: _Query, line: tuple[int, str, str | None]) -> Result:
    number, text, error = line
    if error is not None:
        return Result(number, text, None, error)
    if query.kind == "legal":
        answered = _fast(rules, query, number, text)
        if answered is not None:
            return answered
    try:
        return Result(number, text, _answer(rules, query, text), None)
    except GGNError as fault:
        return Result(number, text, None, _message(fault))


def _results(rules: _Rules, query: _Query, numbered: Iterable[tuple[int, str, str | None]]
             ) -> Iterator[Result]:
    """The answers to the lines, in order: a line of FEN read, listed and written by the
    native kernel where it can (:meth:`ggn.rules._lines.Lister.reader`), any other by
    :func:`_result`."""
    reader = _reader(rules, query)
    if reader is None:
        for line in numbered:
            yield _result(rules, query, line)
        return
    read = reader.read
    new = _tuple_new
    for line in numbered:
        number, text, error = line
        if error is None:
            texts = read(text)
            if texts is not None:
                yield new(Result, (number, text, None, None, texts))
                continue
        yield _result(rules, query, line)


def _answers(rules: _Rules, query: _Query, lines: Iterable[str | bytes]) -> Iterator[Result]:
    """The answers to the lines themselves (not numbered yet), as ``_results(rules, query,
    _numbered(lines))`` gives them: where the kernel reads the game's FEN, its reader walks
    the lines in C (:meth:`ggn.rules._lines.Reader.answers`), each line it does not answer
    numbered and answered here."""
    reader = _reader(rules, query)
    if reader is None:
        return _results(rules, query, _numbered(lines))
    read = reader.read
    new = _tuple_new

    def fallback(number: int, line: str | bytes) -> Result | None:
        numbered = next(_numbered([line], number), None)  # (a line of another type: its TypeError there)
        if numbered is None:
            return None
        _, text, error = numbered
        if error is None:
            texts = read(text)
            if texts is not None:
                return new(Result, (number, text, None, None, texts))
        return _result(rules, query, (number, text, error))

    return reader.answers(lines, fallback, Result)


def _reader(rules: _Rules, query: _Query) -> Reader | None:
    """The kernel's reader of whole lines of FEN for ``legal`` in a notation it writes, or None."""
    notation = query.notation
    system = rules.system
    if query.kind != "legal" or notation in (None, "ggn") or rules.variant is None or system is None \
            or system.start is None:
        return None
    from ggn.rules import _lines  # noqa: PLC0415  (on use: the module imports fast)

    lister = _lines.lister(system, system.position(), notation,
                           lambda where, play: _written(rules, where, play, notation))
    if lister is None:
        return None
    reader = lister.reader()
    if reader is not None:
        _read_in_c(lister.kernel)
    return reader


def _read_in_c(kernel: ModuleType) -> None:
    """From the first batch the kernel's reader answers on, :attr:`Result.ok` and
    :attr:`Result.value` are read by the kernel's C functions, not by a Python function per
    read: the same answers (``value``'s own function still makes a value of objects), about a
    tenth of a line's time less where the kernel walks the lines. Once a process, for every
    Result (those made before read the same)."""
    if Result.__dict__["ok"].fget is not _ok:
        return
    setattr(Result, "ok", property(kernel.result_ok, doc=Result.__dict__["ok"].__doc__))  # noqa: B010
    setattr(Result, "value", property(kernel.value_getter(_value), doc=Result.__dict__["value"].__doc__))  # noqa: B010


def _chunk_task(recipe: Recipe, query: _Query, chunk: list[tuple[int, str, str | None]]) -> list[Result]:
    """One task of a worker: the answers to a chunk of lines."""
    return list(_results(_rules_of(recipe), query, chunk))


def _chunks(numbered: Iterator[tuple[int, str, str | None]], size: int
            ) -> Iterator[list[tuple[int, str, str | None]]]:
    while chunk := list(islice(numbered, size)):
        yield chunk


# --- the drivers -------------------------------------------------------------------------------
def _run(rules: str | Recipe | RuleSystem | Ruleset, lines: Iterable[str | bytes], *, query: _Query,
         jobs: Jobs, scheduler: str | Any | None, chunk: int) -> Iterator[Result]:
    """The results, once the arguments and the rules are known to be good (checked here, at
    the call, not at the first line)."""
    expect(chunk, int, "chunk", "an int")
    if chunk < 1:
        raise GGNError(f"a chunk holds 1 line or more, not {chunk}")
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Iterable):
        what = "a single line" if isinstance(lines, (str, bytes)) else type(lines).__name__
        raise TypeError(f"lines must be an iterable of lines (str or bytes), such as a list or an open "
                        f"file, got {what}")
    if runs_here(jobs, scheduler):  # jobs and scheduler checked
        made = _rules_of(Recipe.of(rules) if isinstance(rules, str) else rules)
        if query.kind != "moves":
            _check_legal(made, query.notation)
        return _answers(made, query, lines)
    recipe = Recipe.of(rules)
    made = _rules_of(recipe)  # here first: a recipe that cannot be made fails once, in this process
    if query.kind != "moves":
        _check_legal(made, query.notation)
    tasks = ((recipe, query, part) for part in _chunks(_numbered(lines), chunk))
    return (result for answered in ordered(_chunk_task, tasks, jobs=jobs, scheduler=scheduler)
            for result in answered)


def _check_legal(rules: _Rules, notation: str | None) -> None:
    if rules.system is None:
        raise TypeError("legal moves need a rule system, not a GGN document alone: give "
                        "RuleSystem(ruleset), the generic one")
    if notation not in (None, "ggn") and rules.variant is None:
        raise TypeError(f"{notation} moves need a game's description (a rule system made from a "
                        "Variant): a GGN document's moves are GGN's ('ggn')")


def _notation(notation: object) -> str | None:
    """``notation`` checked: None or a name of :data:`ggn.notation.NAMES`."""
    if notation is None:
        return None
    from ggn.notation import NAMES  # noqa: PLC0415  (on use: the module imports fast)

    expect(notation, str, "notation", "a notation's name or None")
    if notation not in NAMES:
        raise GGNError(f"notation is None or one of {', '.join(NAMES)}, not {str(notation)[:40]!r}")
    return str(notation)


def moves(rules: str | Recipe | RuleSystem | Ruleset, lines: Iterable[str | bytes], *,
          jobs: Jobs = None, scheduler: str | Any | None = None,
          chunk: int = CHUNK) -> Iterator[Result]:
    """The pseudo-legal moves of each line's position, as ``ggn moves --format json`` lists
    them: ``[{"piece": ..., "source": ..., "destination": ...}, ...]``.

    ``rules`` is a game's name, a :class:`~ggn.parallel.Recipe`, a rule system or a GGN
    document (:class:`~ggn.ruleset.Ruleset`: its positions are read as FEEN only). ``lines``
    is any iterable of str or bytes (an open file, a list, a generator), read as the answers
    are wanted. ``jobs`` (0 or ``"auto"``: one a processor) and ``scheduler`` (a Dask
    scheduler's address) spread chunks of ``chunk`` lines over processes or machines, as
    :func:`ggn.parallel.ordered` does (never more processes than processors or than chunks:
    see :func:`ggn.parallel.workers`); the answers come in the same order.

    The arguments are checked at the call: :class:`TypeError` for one of the wrong type
    (``lines`` one str, for instance), :class:`~ggn.errors.GGNError` for a bad value.
    """
    return _run(rules, lines, query=_Query("moves"), jobs=jobs, scheduler=scheduler, chunk=chunk)


def legal(game: str | Recipe | RuleSystem, lines: Iterable[str | bytes], *, notation: Notation | None = None,
          jobs: Jobs = None, scheduler: str | Any | None = None,
          chunk: int = CHUNK) -> Iterator[Result]:
    """The legal moves of each line's position, as ``ggn legal --format json`` lists them:
    each play's piece, source, destination, choice and STN transition, and for a game, its
    own notation (``san``: SAN, or Hodges's for the shogi family) and ``uci`` before them; with
    ``notation="ggn"``, those of GGN only; with another ``notation`` (a name of
    :data:`ggn.notation.NAMES`: ``"uci"``, ``"san"``...), the list of the moves written in it
    (a game's only: a GGN document has no other form). ``game`` is a game's name, a
    :class:`~ggn.parallel.Recipe` or a rule system: for a GGN document, its generic rule system
    ``RuleSystem(ruleset)`` (positions in FEEN only). The rest as :func:`moves`."""
    return _run(game, lines, query=_Query("legal", _notation(notation)), jobs=jobs, scheduler=scheduler,
                chunk=chunk)


def perft(game: str | Recipe | RuleSystem, lines: Iterable[str | bytes], depth: int, *,
          divide: bool = False, notation: Notation | None = None, jobs: Jobs = None,
          scheduler: str | Any | None = None, chunk: int = 1) -> Iterator[Result]:
    """The perft count of ``depth`` plies of each line's position (:func:`ggn.rules.perft`), as
    one object: ``{"position": FEEN, "depth": ..., "nodes": ...}``, and with ``divide`` (and a
    depth of 1 or more) ``"divide"``, each legal play (written in ``notation``; None: the
    game's own, SAN, or a document's GGN) with its count.
    ``game`` as :func:`legal` takes it; a task of a worker is ``chunk`` lines (one by default:
    a line's count may be long). The rest as :func:`moves`."""
    from ggn.rules import MAX_PERFT_DEPTH  # noqa: PLC0415

    expect(depth, int, "depth", "an int")
    expect(divide, bool, "divide", "a bool")
    checked = _notation(notation)
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise GGNError(f"perft counts 0 to {MAX_PERFT_DEPTH} plies, not {depth}")
    return _run(game, lines, query=_Query("perft", checked, depth, divide), jobs=jobs,
                scheduler=scheduler, chunk=chunk)
