"""What every fuzz target checks, and the seeds it starts from.

Shared by the Hypothesis fuzz tests (``tests/test_fuzz_*.py``) and the atheris harnesses
(``fuzz/``), so that a long coverage-guided campaign checks exactly what CI checks:

- a string notation parses, and then is canonical and round-trips, or raises
  :class:`~ggn.errors.GGNError` (a :class:`~ggn.errors.NotationError` with a span inside the
  input); a value that is not a string may raise :class:`TypeError` instead;
- a document (GGN, LCN, STN, legacy GGN), from text or from a decoded JSON value, builds and
  round-trips, or raises :class:`~ggn.errors.DocumentError` with at most ``max_errors``
  violations, each at a JSON Pointer; a Python value that JSON cannot hold may raise
  :class:`TypeError` instead;
- the command ``ggn`` exits with 0, 1 or 2, never writes a traceback nor its last-resort
  "internal error" message (a crash it caught), prints something when it exits with 0, and
  exits with 2 when it could not write its output;
- the native kernel and the pure-Python path agree on any position of a game the kernel plays
  (pieces placed anywhere, hands of any size, a FEEN of any text) and on the start of any
  variant an ini text describes: the same legal plays and perft counts, or the kernel declines
  and the pure path answers; a position the rules refuse raises a GGNError on both paths.

Nothing else may escape: any other exception is a finding.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ggn._types import Side
from ggn.cell import Cell, Hand, parse_location
from ggn.cli import run
from ggn.epin import Epin
from ggn.errors import DocumentError, GGNError, NotationError
from ggn.feen import Feen
from ggn.gan import Gan, LegacyPiece
from ggn.lcn import Conditions
from ggn.legacy import LegacyRuleset
from ggn.legacy_gem import GemRuleset
from ggn.pin import Pin
from ggn.position import Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules import _native, native_available, native_support, perft, rule_system, use_native
from ggn.rules._system import RuleSystem
from ggn.rules.variant import VariantRules
from ggn.ruleset import Ruleset
from ggn.sin import Sin
from ggn.stn import Transition
from ggn.variants import ini, registry

__all__ = [
    "ALPHABETS",
    "DOCUMENTS",
    "MAX_MESSAGE",
    "NATIVE_GAMES",
    "NOTATIONS",
    "VECTORS",
    "assert_bounded",
    "check_cli",
    "check_document_text",
    "check_document_value",
    "check_native",
    "check_native_feen",
    "check_native_ini",
    "check_notation",
    "document_seeds",
    "document_values",
    "edited_bytes",
    "is_json",
    "mutated",
    "native_games",
    "native_pieces",
    "native_position",
    "native_seeds",
    "notation_seeds",
]

VECTORS = Path(__file__).parent / "vectors"

NOTATIONS: dict[str, Callable[[str], Any]] = {
    "CELL": Cell.parse,
    "HAND": Hand.parse,
    "SIN": Sin.parse,
    "PIN": Pin.parse,
    "EPIN": Epin.parse,
    "QPI": Qpi.parse,
    "GAN": Gan.parse,
    "legacy GGN piece": LegacyPiece.parse,
    "FEEN": Feen.parse,
    "location": parse_location,
}
_VECTOR_FILES = {"CELL": "cell", "HAND": "hand", "SIN": "sin", "PIN": "pin", "EPIN": "epin", "QPI": "qpi",
                 "GAN": "gan", "legacy GGN piece": "gan", "FEEN": "feen", "location": "cell"}

DOCUMENTS: dict[str, Any] = {
    "ggn": Ruleset,
    "lcn": Conditions,
    "stn": Transition,
    "ggn-legacy": LegacyRuleset,
    "ggn-gem": GemRuleset,
}

# An error quotes a bounded part of the input (errors._SHOWN characters each side of the
# fault), so that a 300 KB input does not make a 300 KB message: checked by the targets of
# test_fuzz_messages.py, apart from the others, which check what the issue asks of every input.
MAX_MESSAGE = 4096


ALPHABETS = {
    "CELL": "abyz0129AZ",
    "HAND": "*a ",
    "SIN": "CcZz:",
    "PIN": "KkPpZz+-^'",
    "EPIN": "KkPp+-^'",
    "QPI": "CcSsKkPp+-^':",
    "GAN": "CHESSKINGchesking:+-'",
    "legacy GGN piece": "CHESSKINGchesking:+-'",
    "FEEN": "0123456789/ +-^'KkPpCcSs",
    "location": "*ab019AZ",
}
# Controls, a letter with an accent, an Arabic and a wide digit (str.isdigit says yes), an emoji.
_ODD = "\x00\t\n \u00e9\u0663\uff11\U0001f600~/:"


@st.composite
def mutated(draw: st.DrawFn, name: str) -> str:
    """A test vector of the notation, edited one to four times."""
    text = draw(st.sampled_from(notation_seeds(name)))
    alphabet = ALPHABETS[name] + _ODD
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "digits", "letters", "cut"]))
        if edit == "insert":
            text = text[:at] + draw(st.sampled_from(alphabet)) + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + 1:]
        elif edit == "replace":
            text = text[:at] + draw(st.sampled_from(alphabet)) + text[at + 1:]
        elif edit == "duplicate":
            end = draw(st.integers(at, len(text)))
            text = text[:end] + text[at:end] * draw(st.integers(1, 20)) + text[end:]
        elif edit == "digits":  # numbers past the 4,300 digits Python converts by default
            run = draw(st.sampled_from(["0", "1", "9", "10", "4294967296"]))
            text = text[:at] + run * draw(st.sampled_from([1, 3, 40, 4301, 6000])) + text[at:]
        elif edit == "letters":
            run = draw(st.sampled_from(["z", "a", "Z", "K"]))
            text = text[:at] + run * draw(st.sampled_from([2, 27, 3000])) + text[at:]
        else:
            text = text[:at]
    return text


# The seeds are read once a session: a strategy that drew from a list that grew between two
# examples (a vector added meanwhile) would generate inconsistently, which Hypothesis refuses.
@functools.cache
def notation_seeds(name: str) -> tuple[str, ...]:
    """The texts of a notation's test vectors, valid and invalid."""
    data = json.loads((VECTORS / f"{_VECTOR_FILES[name]}.json").read_text(encoding="utf-8"))
    texts = [case["text"] for group in ("valid", "invalid") for case in data.get(group, [])]
    return (*texts, "*") if name == "location" else tuple(texts)


@functools.cache
def document_seeds(kind: str) -> tuple[bytes, ...]:
    """The bytes of a document kind's test vectors, valid and invalid."""
    folder = VECTORS / kind
    return tuple(path.read_bytes() for path in sorted(folder.glob("**/*.json")) if path.is_file())


@functools.cache
def document_values(kind: str) -> tuple[Any, ...]:
    """The decoded values of a document kind's test vectors, but those Python's ``json`` refuses
    (malformed, nested too deep). Shared by every caller: copy a value before changing it."""
    values = []
    for data in document_seeds(kind):
        try:
            values.append(json.loads(data))
        except (ValueError, RecursionError):
            continue
    return tuple(values)


@st.composite
def edited_bytes(draw: st.DrawFn, kind: str) -> bytes:
    """A test vector's bytes edited one to four times."""
    data = bytearray(draw(st.sampled_from(document_seeds(kind))))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "digits", "bom"]))
        if edit in ("insert", "replace"):
            byte = draw(st.sampled_from(b'{}[]":,\\ 0e-.\xff\xc3\x00nul'))
            data[at:at + (edit == "replace")] = bytes([byte])
        elif edit == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        elif edit == "duplicate":
            end = draw(st.integers(at, min(len(data), at + 80)))
            data[end:end] = data[at:end]
        elif edit == "digits":
            data[at:at] = draw(st.sampled_from([b"1" * 5000, b"-0", b"1e999", b"1.0", b"01", b"true"]))
        else:
            data[0:0] = b"\xef\xbb\xbf"
    return bytes(data)


def assert_bounded(error: Exception) -> None:
    """Assert that an error's message says something, in at most MAX_MESSAGE characters."""
    message = str(error)
    assert message, f"{type(error).__name__} without a message"
    assert len(message) <= MAX_MESSAGE, f"a message of {len(message)} characters: {message[:200]!r}..."


def check_notation(name: str, text: object) -> Any:
    """Parse ``text`` with a notation's parser; return the value, or None if it was refused."""
    parse = NOTATIONS[name]
    try:
        value = parse(text)  # type: ignore[arg-type]
    except GGNError as error:
        assert str(error), f"{type(error).__name__} without a message"
        if isinstance(error, NotationError) and isinstance(text, str):
            assert 0 <= error.start <= error.end <= len(text), (error.start, error.end, len(text))
        return None
    except TypeError as error:
        assert not isinstance(text, str), f"TypeError on the string {text!r}: {error}"
        return None
    assert isinstance(text, str), f"{name} accepted the {type(text).__name__} {text!r}"
    assert str(value) == text, f"{text!r} parsed, but is written {str(value)!r}"
    again = parse(str(value))
    assert again == value and hash(again) == hash(value)
    return value


def _nodes(value: object) -> Iterator[object]:
    """Every value inside ``value``, itself included (iteratively: values may nest deeply)."""
    stack = [value]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())


def is_json(value: object) -> bool:
    """Whether ``value`` is made of what JSON decodes to (str keys, no tuples or sets)."""
    return all(
        node is None or isinstance(node, (bool, int, float, str, list))
        or (isinstance(node, dict) and all(isinstance(key, str) for key in node))
        for node in _nodes(value)
    )


_POINTER = re.compile(r"(/([^/~]|~[01])*)*")


def _refused(error: DocumentError, max_errors: int) -> None:
    assert error.violations and len(error.violations) <= max_errors, (len(error.violations), max_errors)
    for violation in error.violations:
        assert _POINTER.fullmatch(violation.path), f"not a JSON Pointer: {violation.path!r}"
        assert violation.message, f"no message at {violation.path!r}"


def _round_trips(kind: str, document: Any) -> None:
    cls = DOCUMENTS[kind]
    text = document.dumps()
    again = cls.loads(text)
    assert again == document, f"{kind}: {text[:200]!r} loads as another document"
    assert again.dumps() == text
    assert cls.loads(document.dumps(explicit=True, indent=None)) == document
    assert cls.from_value(document.to_value()) == document


def check_document_value(kind: str, value: object, max_errors: int = 100) -> Any:
    """Build a document from a decoded value; return it, or None if it was refused."""
    cls = DOCUMENTS[kind]
    try:
        document = cls.from_value(value, max_errors=max_errors)
    except DocumentError as error:
        _refused(error, max_errors)
        assert not cls.is_valid(value)
        assert cls.errors(value, max_errors=max_errors) == list(error.violations)
        return None
    except TypeError as error:
        assert not is_json(value), f"TypeError on a JSON value: {error}"
        return None
    assert cls.is_valid(value) and cls.errors(value) == []
    _round_trips(kind, document)
    return document


def check_document_text(kind: str, data: object, max_errors: int = 100) -> Any:
    """Load a document from text or bytes; return it, or None if it was refused."""
    cls = DOCUMENTS[kind]
    try:
        document = cls.loads(data, max_errors=max_errors)
    except DocumentError as error:
        _refused(error, max_errors)
        return None
    except TypeError as error:
        assert not isinstance(data, (str, bytes, bytearray, memoryview)), f"TypeError on text: {error}"
        return None
    _round_trips(kind, document)
    if isinstance(data, str):  # the text decodes to the same value as Python's json reads
        try:
            value = json.loads(data)
        except (ValueError, RecursionError):
            return document
        if not _has_special_float(value):
            assert cls.from_value(value) == document
    return document


def _has_special_float(value: object) -> bool:
    return any(isinstance(node, float) and not math.isfinite(node) for node in _nodes(value))


class _Unwritable(io.StringIO):
    """An output that fails as a full disk does; records whether anything was written."""

    tried = False

    def write(self, text: str) -> int:
        self.tried = True
        raise OSError(28, "No space left on device")


def check_cli(argv: list[str], stdin: bytes | None = b"", *, writable: bool = True) -> tuple[int, str, str]:
    """Run ``ggn`` in-process; return the status and what it wrote on stdout and stderr.

    ``stdin`` None passes a closed standard input; ``writable`` False gives a standard output
    on which every write fails.
    """
    out: io.StringIO = io.StringIO() if writable else _Unwritable()
    err = io.StringIO()
    source = io.BytesIO(stdin or b"")
    if stdin is None:
        source.close()
    status = run(argv, out, err, source)
    printed, said = out.getvalue(), err.getvalue()
    assert status in (0, 1, 2), f"ggn {argv}: exit status {status!r}"
    assert "Traceback" not in said, f"ggn {argv}: a traceback\n{said[-3000:]}"
    assert "internal error" not in said, f"ggn {argv}: {said[-3000:]}"
    if status == 0:
        assert printed or not writable, f"ggn {argv}: exit 0 and nothing on stdout"
    if isinstance(out, _Unwritable) and out.tried:
        assert status == 2, f"ggn {argv}: the output could not be written, yet exit {status}"
    return status, printed, said


# --- the native kernel against the pure path ---------------------------------------------------
# Games the kernel plays, of every kind: the harness and the Hypothesis test pick among them (the
# kernel reads each game's tables once; a game it stops playing is left out, not an error).
NATIVE_GAMES = ("chess", "minishogi", "crazyhouse", "shogi", "xiangqi", "minixiangqi", "capablanca", "makruk",
                "berolina", "grasshopper", "kyotoshogi", "losalamos", "gardner", "manchu", "tencubed",
                "nightrider", "3check", "knightmate", "amazon", "chessgi")
_MANY_PLAYS = 40  # perft 2 only where a position has at most this many plays (a bound on the cost)


@functools.cache
def native_games() -> tuple[str, ...]:
    """The games of NATIVE_GAMES the kernel plays here (none where it is not built)."""
    if not native_available():
        return ()
    return tuple(name for name in NATIVE_GAMES if name in _registry_names() and native_support(name)[0]
                 and _native._game(rule_system(name), rule_system(name).position()) is not None)


def _registry_names() -> tuple[str, ...]:
    return registry.names()


def native_position(rules: RuleSystem, data: bytes) -> Position:
    """A position of ``rules``' board made from bytes, whatever they hold: the first byte the
    side to move, then a byte a square (under 96 empty; else a piece the kernel's tables know,
    or now and then one of another game, which the kernel must decline), then counts in hand
    of the game's pieces for each player in turn (the first player's first), any size."""

    start = rules.position()
    pieces = native_pieces(rules)
    squares = len(start._codes)
    body = data[1:1 + squares]
    codes = [0 if byte < 96 else pieces[byte % len(pieces)] for byte in body]
    codes += [0] * (squares - len(codes))
    hands: tuple[dict[Qpi, int], dict[Qpi, int]] = ({}, {})
    rest = data[1 + squares:]
    for index, count in enumerate(rest[:2 * len(pieces)]):
        if count:
            piece = piece_of(pieces[index // 2 % len(pieces)])
            hands[index % 2][piece] = hands[index % 2].get(piece, 0) + count
    active: Side = "first" if not data or data[0] % 2 == 0 else "second"
    return Position._make(start._geometry, codes, hands, active, start.styles)


def native_pieces(rules: RuleSystem) -> list[int]:
    """The piece codes :func:`native_position` places: those of the kernel's tables of the game
    (or of its start, where the kernel does not play it), and three the game has not."""
    game = _native._game(rules, rules.position())
    known = sorted(code for code in (game.kind_of if game is not None else {}) if code)
    if not known:
        known = sorted(set(rules.position()._codes) - {0})
    first, second = rules.position().styles
    strangers = (f"{first}:Z", f"{second}:z", f"{first}:+Z^")  # the players' styles, no piece of the game
    return known + [code_of(Qpi.parse(text)) for text in strangers]


def check_native(rules: RuleSystem, position: Position) -> None:
    """The kernel and the pure path agree on ``position`` (see the module's docstring)."""

    feen = position.to_feen()
    try:
        with use_native(False):
            pure = Counter((str(play), play.transition) for play in rules.legal_moves(position))
    except GGNError:
        # The rules refuse the position before either path runs; handed to the kernel anyway,
        # it may refuse it too, or answer, but not crash.
        with contextlib.suppress(GGNError):
            _native.legal(rules, position)
        with contextlib.suppress(GGNError):
            _native.perft(rules, position, 1)
        return
    native = _native.legal(rules, position)
    if native is not None:
        listed = Counter((str(play), play.transition) for play in native)
        assert listed == pure, (
            f"{feen}: the kernel's plays differ: {sorted(listed - pure)} {sorted(pure - listed)}")
    depth = 2 if len(pure) <= _MANY_PLAYS else 1
    counted = _native.perft(rules, position, depth)
    if counted is not None:
        with use_native(False):
            expected = perft(rules, depth, position)
        assert counted == expected, (
            f"{feen}: perft {depth} by the kernel {counted}, by the pure path {expected}")


def check_native_feen(name: str, text: str) -> None:
    """A position of game ``name`` read from any text: refused (GGNError), or agreed on."""
    rules = rule_system(name)
    try:
        position = rules.position(text)
    except GGNError:
        return
    check_native(rules, position)


def check_native_ini(text: str) -> None:
    """The first variant of any ``variants.ini`` text (inheriting from the built-ins): refused
    (GGNError), or its start agreed on where the kernel plays it."""
    try:
        variants = ini.load(text, known=_builtin_sections())
        if not variants:
            return
        rules = VariantRules(next(iter(variants.values())))
        if not native_support(rules)[0]:
            return
        position = rules.position()
    except GGNError:
        return
    check_native(rules, position)


@functools.cache
def _builtin_sections() -> dict[str, Any]:
    text = (Path(ini.__file__).parent / "builtin.ini").read_text("utf-8")
    return {section.name: section for section in ini.sections(text, source="builtin.ini")}


def native_seeds() -> tuple[tuple[str, str], ...]:
    """Seeds: (game, FEEN) of the games' starts, and ("ini", text) of small variants."""
    games = [name for name in NATIVE_GAMES if name in _registry_names()]
    seeds = [(name, rule_system(name).position().to_feen()) for name in games]
    seeds += [("ini", text) for text in _INI_SEEDS]
    return tuple(seeds)


_INI_SEEDS = (
    "[tiny:chess]\nmaxRank = 6\nmaxFile = 6\nstartFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\n",
    "[drops:crazyhouse]\npieceDrops = true\ncapturesToHand = true\n",
    "[wide:capablanca]\nmaxFile = 12\n"
    "startFen = rnabqkbcnrrr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNABQKBCNRRR w - - 0 1\n",
    "[hoppers:chess]\ncustomPiece1 = a:gQ\n"
    "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w - - 0 1\n",
    "[shogilike:minishogi]\npromotionRegionWhite = *5 *4\n",
)
