"""The engine client: :class:`Engine`, one engine process spoken to in UCI, USI or UCCI, and
:class:`Analysis`, what it says of a position of a game, in ggn's terms."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ggn._json import clip, quote
from ggn._types import check_fields, expect
from ggn.engine._process import Process
from ggn.engine._protocol import (
    PROTOCOLS,
    Info,
    Limit,
    Option,
    Protocol,
    Score,
    from_engine,
    parse_info,
    parse_option,
    position_command,
    to_engine,
)
from ggn.errors import EngineError, GGNError, IllegalMoveError
from ggn.feen import Feen
from ggn.position import Position
from ggn.rules._records import Play

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.rules import RuleSystem
    from ggn.variants.description import Variant

__all__ = ["DEFAULT_SEARCH_TIMEOUT", "DEFAULT_TIMEOUT", "Analysis", "Engine", "Search"]

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds an engine has to answer a command (its handshake, ``isready``, ``stop``)."""

DEFAULT_SEARCH_TIMEOUT: Final = 60.0
"""Seconds a search by depth or nodes may take before it is stopped (a search by movetime has
its movetime and :data:`DEFAULT_TIMEOUT` more)."""

QUIT_GRACE: Final = 2.0
"""Seconds an engine has to exit after ``quit`` before it is killed."""

MAX_HANDSHAKE_LINES: Final = 10_000
"""The most lines an engine may write before its handshake ends (its options, with Fairy-
Stockfish's variants, are a few dozen)."""

MAX_SYNC_LINES: Final = 100_000
"""The most lines an engine may write while it is waited for to be ready."""

MAX_SEARCH_LINES: Final = 1_000_000
"""The most lines a search may write (one ``info`` line a depth, and a few more a second): what is
kept of them is only the last principal variation, so memory stays bounded whatever the count."""

_SHOWN_LINES: Final = 3  # the engine's last lines quoted in an error
_CHESS_ONLY: Final = {"uci": ("chess", "normal", "fischerandom"), "usi": ("shogi",), "ucci": ("xiangqi",)}
_NONE_MOVES: Final = frozenset({"(none)", "0000", "none", "resign", "win", "null"})


@dataclass(frozen=True, slots=True)
class Search:
    """What a search ended with: the best move and the ponder move in the engine's own
    notation (``bestmove`` None: the engine named none, ``(none)``, ``resign``, ``win``; the raw
    word is ``said``), the :class:`~ggn.engine.Info` of its principal variation (the last line
    of an exact score that starts with the best move, else the last line: a search cut off in
    the middle of an iteration ends on a bound and a variation of one move), and
    whether it was stopped (``stopped``: by :meth:`Engine.stop` or a timeout) rather than
    ended by its limit."""

    bestmove: str | None
    ponder: str | None
    info: Info
    stopped: bool = False
    said: str = ""

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True)
class Analysis:
    """What an engine says of a position of a game, in ggn's terms.

    ``bestmove`` is the legal :class:`~ggn.rules.Play` it chose (None where there is none: the
    game is over), ``uci`` the same move as Fairy-Stockfish's UCI string; ``score`` is from the
    point of view of the side to move; ``pv`` is the principal variation as plays from the
    position, as far as each move is legal under ggn's rules (``pv_uci`` is the whole of it, as
    the engine gave it, in UCI strings); ``position`` is the position analysed (after the
    plays given); ``depth``, ``nodes`` and ``time`` (milliseconds) are the search's, as the
    engine said them; ``stopped`` says the search was stopped before its limit.
    """

    bestmove: Play | None
    uci: str | None
    score: Score | None
    pv: tuple[Play, ...]
    pv_uci: tuple[str, ...]
    position: Position
    depth: int | None = None
    nodes: int | None = None
    time: int | None = None
    stopped: bool = False

    def __post_init__(self) -> None:
        check_fields(self)


_E = TypeVar("_E", bound="Engine")


class Engine:
    """An engine (a UCI, USI or UCCI program) in a subprocess.

    ``command`` is the program (a path, or a name on PATH) with its arguments: a string is
    split as a shell would (``"fairy-stockfish --flag"``), a sequence is taken as it is.
    ``protocol`` is ``"uci"`` (the default), ``"usi"`` or ``"ucci"``; Fairy-Stockfish speaks all
    three. The engine is started and its handshake read at once (``timeout`` seconds for it, and
    for every other answer); ``options`` are then set (:meth:`setoption`).

    Every wait has a timeout; an engine that exits, hangs past a timeout, writes a line of more
    than :data:`~ggn.engine.MAX_LINE` bytes or too many lines, or breaks its protocol is an
    :class:`~ggn.errors.EngineError`, raised once its process is killed and reaped. Use it as a
    context manager, or call :meth:`quit`: the process is always reaped (killed after
    :data:`QUIT_GRACE` seconds if it does not exit), and so is one left to the garbage collector.

    >>> with Engine("/usr/games/stockfish") as engine:  # doctest: +SKIP
    ...     rules = registry.rules("chess")
    ...     engine.analyse(rules, limit=Limit(depth=8)).uci
    'e2e4'
    """

    def __init__(self, command: str | Sequence[str], *, protocol: Protocol = "uci",
                 timeout: float = DEFAULT_TIMEOUT,
                 options: Mapping[str, str | int | bool | None] | None = None,
                 cwd: str | None = None) -> None:
        expect(command, (str, list, tuple), "command", "a str or a sequence of str")
        arguments = _arguments(command)
        expect(protocol, str, "protocol", "'uci', 'usi' or 'ucci'")
        if protocol not in PROTOCOLS:
            raise GGNError(f"an engine's protocol is 'uci', 'usi' or 'ucci', not {quote(protocol)}")
        self.timeout = _seconds(timeout, "timeout")
        if options is not None:
            expect(options, Mapping, "options", "a mapping of option names to values, or None")
        if cwd is not None:
            expect(cwd, str, "cwd", "a str or None")
        self.protocol: Protocol = protocol
        self.command: tuple[str, ...] = tuple(arguments)
        label = clip(shlex.join(arguments), 200)
        self.name: str = label
        """The engine's name, as it gives it (``id name``), else its command."""
        self.author: str | None = None
        self._label = label
        self._options: dict[str, Option] = {}
        self._searching = False
        self._variant: str | None = None
        self._known_variants: set[str] = set()
        self._paths: list[str] = []  # the private files and directories of VariantPath
        self._last: list[str] = []  # the engine's last lines, for messages
        self._process = Process(self.command, label, cwd=cwd)
        with self._guard():
            self._handshake()
            for name, value in (options or {}).items():
                self.setoption(name, value)

    # -- the process ----------------------------------------------------------------------
    def __enter__(self: _E) -> _E:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.quit()

    def __repr__(self) -> str:
        state = "closed" if self._process.closed else f"pid {self._process.pid}"
        return f"<Engine {self.name!r} ({self.protocol}, {state})>"

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        """The engine's exit status once it has ended (negative: killed by that signal)."""
        return self._process.returncode

    @property
    def closed(self) -> bool:
        """Whether the engine has ended (quit, killed, or failed), its process reaped."""
        return self._process.closed

    @property
    def options(self) -> Mapping[str, Option]:
        """The options the engine declared, by name."""
        return dict(self._options)

    def quit(self, grace: float = QUIT_GRACE) -> int | None:
        """End the engine: stop a search, send ``quit``, give it ``grace`` seconds to exit, then
        kill it; reap it, and remove the files made for it. Return its exit status. Calling it
        again does nothing."""
        grace = _seconds(grace, "grace")
        try:
            if not self._process.closed and self._searching:
                with contextlib.suppress(EngineError):
                    self._process.send("stop", time.monotonic() + grace)
            return self._process.close(grace, "quit")
        finally:
            self._searching = False
            self._remove_files()

    def close(self) -> int | None:
        """:meth:`quit`, with its grace period."""
        return self.quit()

    def kill(self) -> None:
        """Kill the engine at once (and what it started), and reap it."""
        self._process.kill()
        self._searching = False
        self._remove_files()

    @contextlib.contextmanager
    def _guard(self) -> Any:
        """Any failure while speaking to the engine leaves it in no known state: it is killed
        and reaped before the error goes on."""
        if self._process.closed:
            raise EngineError("has ended: start it again", self._label, self._process.returncode)
        try:
            yield
        except BaseException:
            self.kill()
            raise

    def _send(self, line: str) -> None:
        self._process.send(line, time.monotonic() + self.timeout)

    def _read(self, deadline: float, waiting: str, seconds: float) -> str:
        line = self._process.readline(deadline, f"while ggn waited for it to {waiting}")
        if line is None:
            raise EngineError(f"did not {waiting} within {seconds:g} s{self._said()}", self._label)
        self._last.append(clip(line, 120))
        del self._last[:-_SHOWN_LINES]
        return line

    def _said(self) -> str:
        if not self._last:
            return " (it wrote nothing)"
        return "; its last lines: " + " | ".join(quote(line, 120) for line in self._last)

    # -- the protocol -----------------------------------------------------------------------
    def _handshake(self) -> None:
        protocol = self.protocol
        ok = f"{protocol}ok"
        self._send(protocol)
        # isready too, at once: an engine that does not speak the protocol answers it without
        # the handshake's ok (Stockfish to usi: "Unknown command", then readyok), which tells
        # a wrong protocol at once rather than at the timeout.
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        for _ in range(MAX_HANDSHAKE_LINES):
            line = self._read(deadline, f"answer {protocol!r} with {ok!r}", self.timeout)
            head, _, rest = line.partition(" ")
            if head == ok:
                break
            if head == "readyok":
                raise EngineError(f"does not speak {protocol.upper()}: it answered isready without "
                                  f"answering {protocol!r} with {ok!r}{self._said()}", self._label)
            if head == "id":
                key, _, value = rest.strip().partition(" ")
                if key == "name" and value.strip():
                    self.name = clip(value.strip(), 80)
                elif key == "author" and value.strip():
                    self.author = clip(value.strip(), 80)
            elif head == "option":
                option = parse_option(line)
                if option is not None:
                    self._options[option.name] = option
        else:
            raise EngineError(f"wrote {MAX_HANDSHAKE_LINES:,} lines without {ok!r}: does it speak "
                              f"{protocol.upper()}?{self._said()}", self._label)
        self._ready("answer isready with 'readyok'")
        variant = self._option("UCI_Variant")
        if variant is not None:
            self._known_variants = set(variant.vars)
            self._variant = variant.default

    def _ready(self, waiting: str = "answer isready with 'readyok'") -> list[str]:
        """Wait for ``readyok`` to the ``isready`` sent; return the lines written before it."""
        deadline = time.monotonic() + self.timeout
        lines: list[str] = []
        for _ in range(MAX_SYNC_LINES):
            line = self._read(deadline, waiting, self.timeout)
            if line.strip() == "readyok":
                return lines
            if len(lines) < 100:
                lines.append(line)
        raise EngineError(f"wrote {MAX_SYNC_LINES:,} lines without answering isready{self._said()}",
                          self._label)

    def is_ready(self) -> None:
        """Send ``isready`` and wait for ``readyok``: whether the engine is alive and done with
        what it was sent."""
        with self._guard():
            self._idle()
            self._send("isready")
            self._ready()

    def _idle(self) -> None:
        if self._searching:
            raise GGNError("the engine is searching: wait for its best move or stop it first")

    def _option(self, name: str) -> Option | None:
        """The option of that name (case-insensitive, as UCI compares names), or None."""
        found = self._options.get(name)
        if found is not None:
            return found
        lowered = name.lower()
        return next((option for key, option in self._options.items() if key.lower() == lowered), None)

    def setoption(self, name: str, value: str | int | bool | None = None) -> None:
        """Set one of the engine's options (a button takes no value), checked against what the
        engine declared: an unknown option or a value of the wrong kind is a
        :class:`~ggn.errors.GGNError`; the engine is then waited for (``isready``), and one that
        says it has no such option is an :class:`~ggn.errors.EngineError`."""
        expect(name, str, "name", "a str")
        if value is not None:
            expect(value, (str, int, bool), "value", "a str, an int, a bool or None")
        option = self._option(name)
        if option is None:
            known = ", ".join(sorted(self._options)) or "none"
            raise GGNError(f"{self.name} has no option {quote(name)}; it has: {clip(known, 400)}")
        text = option.value(value)
        if text is not None and any(ch in text for ch in "\r\n\0"):
            raise GGNError(f"an option's value holds a line break or NUL: {quote(text)}")
        with self._guard():
            self._idle()
            self._setoption(option.name, text)
            self._send("isready")
            said = self._ready()
            for line in said:
                if line.startswith("No such option"):
                    raise EngineError(f"refused option {quote(option.name)}: {quote(line, 80)}", self._label)

    def _setoption(self, name: str, value: str | None) -> None:
        if self.protocol == "ucci":
            # UCCI: "setoption NAME VALUE" (Fairy-Stockfish reads a name's spaces as '_').
            command = f"setoption {name.replace(' ', '_')}"
            self._send(command if value is None else f"{command} {value}")
        else:
            self._send(f"setoption name {name}" if value is None else f"setoption name {name} value {value}")

    def new_game(self) -> None:
        """Tell the engine that the next position is of a new game (``ucinewgame``,
        ``usinewgame``, ``uccinewgame``): it clears what it kept of the last one."""
        with self._guard():
            self._idle()
            self._send(f"{self.protocol}newgame")
            self._send("isready")
            self._ready()

    def load_variants(self, ini: str) -> None:
        """Give the engine variants in Fairy-Stockfish's ``variants.ini`` syntax (the text of
        one or more ``--ini`` files, in order): the text is written to a private temporary file
        (removed when the engine ends) and the engine's ``VariantPath`` option set to it. Its
        variants can then be played by name (:meth:`set_variant`, :meth:`analyse`)."""
        expect(ini, str, "ini", "a str (variants.ini text)")
        if self._option("VariantPath") is None:
            raise EngineError("has no VariantPath option: it cannot read variants.ini files "
                              "(Fairy-Stockfish can)", self._label)
        from ggn.variants.ini import sections  # noqa: PLC0415  (on use)

        names = {section.name for section in sections(ini, source="<ini>")}
        directory = tempfile.mkdtemp(prefix="ggn-engine-")  # private: mode 0700
        self._paths.append(directory)
        path = os.path.join(directory, "variants.ini")
        if re.search(r"\s\s|[\t\r\n\0]|^\s|\s$", path):
            raise EngineError(f"cannot name the variants file to it: its path {quote(path)} has "
                              "spaces the protocol cannot carry (set TMPDIR)", self._label)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(ini)
        self.setoption("VariantPath", path)
        self._known_variants |= names
        option = self._option("UCI_Variant")
        if option is not None:  # the engine's combo now holds the new variants too
            self._options[option.name] = Option(option.name, option.type, option.default, option.min,
                                                option.max, (*option.vars, *sorted(names - set(option.vars))))

    def set_variant(self, variant: str | Variant) -> None:
        """Have the engine play ``variant`` (its name, or a
        :class:`~ggn.variants.description.Variant`): set ``UCI_Variant`` (and ``UCI_Chess960``
        for a chess960 game), checking that the engine knows it. An engine without
        ``UCI_Variant`` plays its protocol's game only (chess and chess960 in UCI, shogi in USI,
        xiangqi in UCCI)."""
        from ggn.variants.description import Variant  # noqa: PLC0415

        expect(variant, (str, Variant), "variant", "a variant's name or a Variant")
        name = variant if isinstance(variant, str) else variant.name
        shape = None if isinstance(variant, str) else (variant.files, variant.ranks)
        option = self._option("UCI_Variant")
        chess960 = name == "fischerandom" or (not isinstance(variant, str) and variant.chess960)
        if option is None:
            if name not in _CHESS_ONLY[self.protocol]:
                raise EngineError(
                    f"has no UCI_Variant option: it plays {_CHESS_ONLY[self.protocol][0]} only, not "
                    f"{quote(name)} (Fairy-Stockfish plays many variants)", self._label)
            if chess960 and self._option("UCI_Chess960") is not None:
                self.setoption("UCI_Chess960", True)
            elif self._option("UCI_Chess960") is not None and self._variant != name:
                self.setoption("UCI_Chess960", False)
            self._variant = name
            return
        if name not in self._known_variants and name not in option.vars:
            known = ", ".join(sorted(self._known_variants | set(option.vars)))
            raise EngineError(f"does not know the variant {quote(name)} (a Fairy-Stockfish newer than "
                              f"{self.name} may; or give it with --ini); it knows: {clip(known, 600)}",
                              self._label)
        if self._variant == name:
            return
        with self._guard():
            self._idle()
            self._setoption(option.name, name)
            self._send("isready")
            said = self._ready()
        taken = [line.split() for line in said if line.startswith("info string variant ")]
        if taken:
            words = taken[-1]
            if words[3:4] != [name]:
                said_text = quote(" ".join(words), 80)
                raise EngineError(f"did not take the variant {quote(name)}: it said {said_text}", self._label)
            numbers = dict(zip(words[4::2], words[5::2], strict=False))
            if shape is not None and (numbers.get("files"), numbers.get("ranks")) != tuple(map(str, shape)):
                raise EngineError(
                    f"plays {name} on a board of {numbers.get('files')}x{numbers.get('ranks')}, not "
                    f"{shape[0]}x{shape[1]} as ggn does: its rules are not ggn's", self._label)
        elif name not in option.vars:
            raise EngineError(f"did not take the variant {quote(name)}", self._label)
        self._variant = name

    def position(self, fen: str | None = None, moves: Sequence[str] = ()) -> None:
        """Send a position: ``fen`` (Fairy-Stockfish's FEN of the engine's variant; None: its
        start, ``startpos``) and the ``moves`` played after it, in the engine's own notation
        (UCI's, USI's or UCCI's: :meth:`analyse` converts ggn's plays). In USI, a FEN that SFEN
        can hold is sent as SFEN."""
        if fen is not None:
            expect(fen, str, "fen", "a str or None")
        expect(moves, (list, tuple), "moves", "a sequence of move strings")
        for move in moves:
            expect(move, str, "moves", "a sequence of move strings")
            if not move or any(ch.isspace() for ch in move):
                raise GGNError(f"a move sent to an engine is one word, not {quote(move)}")
        if fen is not None and any(ch in fen for ch in "\r\n\0"):
            raise GGNError(f"a FEN holds no line break: {quote(fen)}")
        with self._guard():
            self._idle()
            if fen is None:
                command = "position startpos" + (f" moves {' '.join(moves)}" if moves else "")
            else:
                command = position_command(self.protocol, fen, tuple(moves))
            self._send(command)

    # -- searching ------------------------------------------------------------------------------
    def begin(self, limit: Limit) -> None:
        """Start a search of the position sent, within ``limit``; :meth:`wait` for its end or
        :meth:`stop` it."""
        expect(limit, Limit, "limit", "a Limit")
        with self._guard():
            self._idle()
            self._send(f"go {limit}")
            self._searching = True
            self._limit = limit
            self._info: dict[str, Any] = {}

    def go(self, limit: Limit, *, timeout: float | None = None,
           on_info: Callable[[Info], None] | None = None) -> Search:
        """Search the position sent within ``limit`` and return how the search ended. A search
        that outlasts ``timeout`` seconds (default: its movetime and :attr:`timeout` more, else
        :data:`DEFAULT_SEARCH_TIMEOUT`) is stopped, and the best move it then gives is returned
        (``stopped``); an engine that gives none within :attr:`timeout` is an
        :class:`~ggn.errors.EngineError`. ``on_info`` is called with each new principal line."""
        expect(limit, Limit, "limit", "a Limit")
        _check_wait(timeout, on_info)
        self.begin(limit)
        return self.wait(timeout=timeout, on_info=on_info)

    def wait(self, *, timeout: float | None = None, on_info: Callable[[Info], None] | None = None) -> Search:
        """Wait for the end of the search begun (:meth:`begin`), stopping it at ``timeout`` (see
        :meth:`go`)."""
        _check_wait(timeout, on_info)
        if not self._searching:
            raise GGNError("no search is running: begin one first")
        if timeout is None:
            movetime = self._limit.movetime
            seconds = movetime / 1000 + self.timeout if movetime is not None else DEFAULT_SEARCH_TIMEOUT
        else:
            seconds = _seconds(timeout, "timeout")
        with self._guard():
            found = self._collect(time.monotonic() + seconds, on_info)
            if found is not None:
                return found
            self._send("stop")
            found = self._collect(time.monotonic() + self.timeout, on_info)
            if found is None:
                raise EngineError(f"did not give its best move within {self.timeout:g} s of being "
                                  f"told to stop (after {seconds:g} s of search){self._said()}", self._label)
            return _stopped(found)

    def stop(self) -> Search:
        """Stop the search begun and return how it ended (``stopped``)."""
        if not self._searching:
            raise GGNError("no search is running: begin one first")
        with self._guard():
            self._send("stop")
            found = self._collect(time.monotonic() + self.timeout, None)
            if found is None:
                raise EngineError(f"did not give its best move within {self.timeout:g} s of being "
                                  f"told to stop{self._said()}", self._label)
            return _stopped(found)

    def _collect(self, deadline: float, on_info: Callable[[Info], None] | None) -> Search | None:
        """Read the search's lines until its ``bestmove`` (the search's end) or ``deadline`` (None)."""
        info = self._info
        for _ in range(MAX_SEARCH_LINES):
            line = self._process.readline(deadline, "during a search")
            if line is None:
                return None
            self._last.append(clip(line, 120))
            del self._last[:-_SHOWN_LINES]
            head = line.split(" ", 1)[0]
            if head == "info":
                numbers, score, pv = parse_info(line, self.protocol)
                if numbers.get("multipv", 1) != 1:
                    continue
                changed = False
                for key, value in numbers.items():
                    if key != "multipv":
                        info[key] = value
                if score is not None:
                    info["score"] = score
                    changed = True
                if pv:
                    info["pv"] = pv
                    changed = True
                if changed and "pv" in info and info.get("score") is not None and info["score"].bound is None:
                    # The last line of an exact score: a search cut off mid-iteration (by its
                    # nodes or time) ends on a bound and a variation of one move.
                    info["exact"] = dict(info)
                if changed and on_info is not None:
                    on_info(_info(info))
            elif head == "bestmove":
                self._searching = False
                words = line.split()
                if len(words) < 2:
                    raise EngineError(f"wrote 'bestmove' without a move{self._said()}", self._label)
                best = words[1]
                ponder = words[3] if len(words) >= 4 and words[2] == "ponder" else None
                exact = info.get("exact")
                if exact is not None and exact["pv"][:1] == (best,):
                    info = exact  # the deepest exact line, when it ends on the move given
                return Search(None if best in _NONE_MOVES else best, ponder, _info(info), said=best)
        raise EngineError(f"wrote {MAX_SEARCH_LINES:,} lines in one search without its best move"
                          f"{self._said()}", self._label)

    # -- in ggn's terms ----------------------------------------------------------------------------
    def analyse(self, rules: RuleSystem | Game, position: Position | Feen | str | None = None,
                plays: Sequence[Play | str] = (), *, limit: Limit, halfmove: int = 0, fullmove: int = 1,
                timeout: float | None = None) -> Analysis:
        """Analyse a position of a game: ``rules`` is the game's rule system (a built-in
        game's, or one of a variant given to :meth:`load_variants` too; its ``variant`` names it
        to the engine), ``position`` the start (FEEN, a Position; None: the game's start), with
        its move counters, and ``plays`` the plays made from it (:class:`~ggn.rules.Play` or
        GGN's move text), sent as moves so that the engine sees the history. Or ``rules`` is a
        :class:`ggn.game.Game`, whose start (its FEN, counters and all) and plays are sent, and
        whose last position is analysed (give no ``position`` nor ``plays`` then). The engine's
        best move and principal variation are read back as ggn's plays (a best move that is not
        legal under ggn's rules is an :class:`~ggn.errors.EngineError`)."""
        from ggn.game import Game  # noqa: PLC0415
        from ggn.rules import RuleSystem  # noqa: PLC0415
        from ggn.variants import uci  # noqa: PLC0415
        from ggn.variants.fen import from_feen  # noqa: PLC0415

        expect(rules, (RuleSystem, Game), "rules", "a RuleSystem or a Game")
        expect(limit, Limit, "limit", "a Limit")
        expect(plays, (list, tuple), "plays", "a list or tuple of Play or their str()")
        _check_wait(timeout, None)
        expect(halfmove, int, "halfmove", "an int")
        expect(fullmove, int, "fullmove", "an int")
        game = rules if isinstance(rules, Game) else None
        system: RuleSystem
        if game is not None:
            if position is not None or plays:
                raise GGNError("a Game gives its own start and plays: give no position nor plays with it")
            system, plays = game.rules, game.plays
        else:
            assert isinstance(rules, RuleSystem)
            system = rules
        variant = _variant_of(system)
        start = game.start if game is not None else system.position(position)
        fen = game.fen(0) if game is not None else from_feen(variant, start, halfmove=halfmove,
                                                             fullmove=fullmove)
        files, ranks = variant.files, variant.ranks
        moves = []
        where = start
        for ply, play in enumerate(plays):
            if game is not None:  # legal by the game's own checks: its positions are kept
                assert isinstance(play, Play)
                chosen = play
            else:
                chosen = _legal(system, where, play)
            moves.append(to_engine(uci.write(variant, chosen, position=where), self.protocol, files, ranks))
            where = game.position_at(ply + 1) if game is not None else where.apply(chosen.transition)
        self.set_variant(variant)
        self.position(fen, moves)
        search = self.go(limit, timeout=timeout)
        legal = system.legal_moves(where)
        best: Play | None = None
        best_uci: str | None = None
        if search.bestmove is not None:
            best_uci = from_engine(search.bestmove, self.protocol, files, ranks)
            if best_uci is None:
                raise EngineError(f"gave a best move that is not one in {self.protocol.upper()}: "
                                  f"{quote(search.bestmove)}", self._label)
            try:
                best = uci.parse(system, where, best_uci)
            except IllegalMoveError as error:
                raise EngineError(f"gave a best move that is not legal under ggn's rules of "
                                  f"{variant.name}: {error}", self._label) from None
        elif legal:
            raise EngineError(f"gave no best move ({quote(search.said)}) where ggn's rules of {variant.name} "
                              f"have {len(legal)} legal moves (such as {legal[0]}): its rules are not ggn's",
                              self._label)
        pv_uci, pv = _variation(system, variant, where, search.info.pv, self.protocol)
        return Analysis(best, best_uci, search.info.score, pv, pv_uci, where, search.info.depth,
                        search.info.nodes, search.info.time, search.stopped)

    def _remove_files(self) -> None:
        for directory in self._paths:
            shutil.rmtree(directory, ignore_errors=True)
        self._paths.clear()


def _legal(rules: RuleSystem, where: Position, play: object) -> Play:
    """The legal play of ``where`` that ``play`` (a Play, or its ``str()``) names."""
    wanted = str(expect(play, (Play, str), "plays", "a sequence of Play or their str()"))
    for candidate in rules.legal_moves(where):
        # A Play by its value: two plays may share a str() (a chess960 castling and the king's step).
        if (candidate == play) if type(play) is Play else str(candidate) == wanted:
            return candidate
    rules.play(where, wanted)  # raises the error naming the legal moves
    raise AssertionError("unreachable")


def _variant_of(rules: RuleSystem) -> Variant:
    variant = getattr(rules, "variant", None)
    from ggn.variants.description import Variant  # noqa: PLC0415

    if not isinstance(variant, Variant):
        raise GGNError("an engine plays a variant of Fairy-Stockfish's: a GGN document's rule "
                       "system has none (give a game's rules)")
    return variant


def _variation(rules: RuleSystem, variant: Variant, where: Position, pv: tuple[str, ...],
               protocol: Protocol) -> tuple[tuple[str, ...], tuple[Play, ...]]:
    """A principal variation in UCI strings, and as plays as far as each is legal."""
    from ggn.variants import uci  # noqa: PLC0415

    strings: list[str] = []
    plays: list[Play] = []
    readable = True
    for text in pv[:1000]:
        move = from_engine(text, protocol, variant.files, variant.ranks)
        if move is None:
            break
        strings.append(move)
        if readable:
            try:
                play = uci.parse(rules, where, move)
            except GGNError:
                readable = False
                continue
            plays.append(play)
            where = rules.play(where, play)
    return tuple(strings), tuple(plays)


def _info(info: Mapping[str, Any]) -> Info:
    return Info(depth=info.get("depth"), seldepth=info.get("seldepth"), score=info.get("score"),
                pv=info.get("pv", ()), nodes=info.get("nodes"), time=info.get("time"))


def _stopped(search: Search) -> Search:
    return Search(search.bestmove, search.ponder, search.info, True, search.said)


def _check_wait(timeout: object, on_info: object) -> None:
    if timeout is not None:
        _seconds(timeout, "timeout")
    if on_info is not None and not callable(on_info):
        raise TypeError(f"on_info must be a callable or None, got {type(on_info).__name__}")


def _seconds(value: object, parameter: str) -> float:
    expect(value, (int, float), parameter, "a number of seconds")
    assert isinstance(value, (int, float))
    if not 0 < value <= 7 * 24 * 3600:  # NaN too: it compares false
        raise GGNError(f"{parameter} is a number of seconds above 0 and at most a week, not {value!r}")
    return float(value)


def _arguments(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        if any(ch in command for ch in "\r\n\0"):
            raise GGNError(f"an engine's command holds a line break or NUL: {quote(command)}")
        try:
            arguments = shlex.split(command)
        except ValueError as error:
            raise GGNError(f"cannot read the engine's command {quote(command)}: {error}") from None
    else:
        arguments = list(command)
        for argument in arguments:
            expect(argument, str, "command", "a str or a sequence of str")
    if not arguments or not arguments[0]:
        raise GGNError("an engine's command names a program: it is empty")
    return arguments
