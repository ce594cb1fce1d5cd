"""The explorer's records: a game brought in as a record (PGN, KIF, CSA), and a game taken out.

Two routes of the JSON API (:mod:`ggn.web._app`), done by a worker process of
:mod:`ggn.web._work` like the others and within the same limits (the body's size, the time a
request works, a worker's memory, the moves of a game: ``plies``, the answer's size):

- ``POST /api/record``: ``{"text": RECORD}`` (or ``{"data": BASE64}``, a file's bytes: UTF-8,
  Shift_JIS or ISO 8859-1, as :func:`ggn.records.decode` tells them), with ``"format"``
  (``"pgn"``, ``"kif"`` or ``"csa"``; null: told from the content, :func:`ggn.records.detect`),
  ``"index"`` (which game of a file of several, from 0; default the first) and ``"game"`` (the
  game of PGN games that name none in ``[Variant]``; default chess). The game is read and
  replayed by :mod:`ggn.records` (every move checked under the game's rules, and the stated
  result against the game's end; variations are not played, and are counted). The answer
  (:func:`record`) names the game, its start (FEN and FEEN), each move as the record writes it
  (``written``), in the game's own notation (``san``), in Fairy-Stockfish's UCI (``uci``) and
  as the page plays it (``move``, GGN's), the stated result, the tags, and the games of the file
  (``games``: a summary of each, at most :data:`LISTED`). A record that cannot be read or
  replayed is answered 400 with ``{"error", "line", "ply", "move", "number"}``: where and why.
- ``POST /api/export``: the subject (``{"game": NAME}`` or ``{"document": TEXT}``) and
  ``"history"`` (``{"start": FEEN, FEN or null, "halfmove", "fullmove", "moves": [...]}``, as
  ``/api/view`` takes it), with ``"at"`` (the ply shown; default the last), ``"format"`` (the
  record's format; default the game's usual one) and ``"tags"`` (an object of strings: the
  players and the event, as a loaded record gave them). The answer (:func:`export`) is the game
  as a record (``record``) in the format asked or its usual one (``format``: KIF for the shogi
  family, else PGN with ``[Variant]`` as :func:`ggn.records.pgn.variant_of` names it), the
  formats it can be written in (``formats``, the usual first: PGN for every game of
  Fairy-Stockfish's, KIF and CSA for shogi, KIF for the shogi family's smaller boards), and the
  position shown as FEN (where the game has one) and FEEN, with the moves in UCI and GGN's
  notation. A pasted GGN document has no record (``record`` null, ``unrecorded`` saying why)
  and no FEN: its position is FEEN.

>>> found = record({"text": '[White "Morphy"]\\n1. e4 e5 2. Nf3 *\\n'}, None, Limits())
>>> found["game"], [move["san"] for move in found["moves"]], found["moves"][2]["move"]
('chess', ['e4', 'e5', 'Nf3'], 'C:N g1-f3')
>>> taken = export({"game": "chess", "history": {"moves": ["e2e4", "e7e5"]}, "at": 1}, None, Limits())
>>> taken["format"], taken["fen"], taken["record"].splitlines()[-1]
('pgn', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', '1. e4 e5 *')
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from ggn._json import quote
from ggn.errors import GGNError, RecordError
from ggn.web._explorer import history
from ggn.web._limits import LimitError, Limits
from ggn.web._work import BadRequest, _History, _Request, _text

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.records import Format, Record
    from ggn.variants.registry import Catalogue

__all__ = ["LISTED", "RecordRequestError", "export", "record"]

LISTED: Final = 200
"""The most games of a file the ``record`` answer lists (the one chosen is read whatever its
number)."""

_SUMMARY: Final = ("Event", "Date", "White", "Black", "先手", "後手", "下手", "上手", "棋戦", "開始日時",
                   "N+", "N-", "$EVENT", "$START_TIME")
# Tags a game's own record writes from the game itself: never carried from the request's tags.
_OWN: Final = frozenset({"Variant", "SetUp", "FEN", "Result", "PlyCount", "手合割"})


class RecordRequestError(BadRequest):
    """A record that cannot be read or replayed: answered 400 with where (its game's number,
    line, ply and move) beside the message."""

    def __init__(self, failure: RecordError) -> None:
        super().__init__(str(failure))
        self.where = {"number": failure.game, "line": failure.line, "ply": failure.ply, "move": failure.move}


def _source(body: dict[str, Any]) -> str | bytes:
    """The record's text, or its bytes (``data``, in base64)."""
    text, data = _text(body, "text"), _text(body, "data")
    if (text is None) == (data is None):
        raise BadRequest("the request needs either 'text' (a record's text: PGN, KIF or CSA) or 'data' "
                         "(a record file's bytes, in base64)")
    if data is None:
        assert text is not None
        return text
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest("'data' is not base64 (a record file's bytes)") from None


def _format(body: dict[str, Any]) -> str | None:
    from ggn.records import FORMATS  # noqa: PLC0415

    named = _text(body, "format")
    if named is not None and named not in FORMATS:
        raise BadRequest(f"'format' is one of {', '.join(FORMATS)} or null, not {quote(named, 40)}")
    return named


def _index(body: dict[str, Any]) -> int:
    index = body.get("index", 0)
    if type(index) is not int or not 0 <= index < 2**31:
        raise BadRequest(f"'index' must be a game's number in the file, from 0, got {index!r}"[:200])
    return index


def _summary(found: Record) -> dict[str, Any]:
    tags = found.headers
    return {"number": found.number, "line": found.line, "game": found.game, "plies": len(found.moves),
            "result": found.result, "tags": {name: tags[name] for name in _SUMMARY if name in tags}}


def _records(source: str | bytes, named: str | None, index: int) -> tuple[Record, list[dict[str, Any]], bool,
                                                                          str | None]:
    """The record of game ``index`` of ``source``, the summaries of the file's games (at most
    :data:`LISTED`), whether there are more, and the error of a later game that cannot be read
    (None when none)."""
    from ggn import records  # noqa: PLC0415  (on use: the server starts faster)

    chosen: Record | None = None
    listed: list[dict[str, Any]] = []
    more = False
    unread: str | None = None
    try:
        for number, found in enumerate(records.read(source, named)):  # type: ignore[arg-type]
            if number == index:
                chosen = found
            if number < LISTED:
                listed.append(_summary(found))
            else:
                more = True
            if chosen is not None and more:
                break
    except RecordError as failure:
        if chosen is None:
            raise RecordRequestError(failure) from None
        unread = str(failure)
    if chosen is None:
        if not listed:
            raise BadRequest("the record holds no game")
        raise BadRequest(f"the record holds {len(listed)} game{'s' if len(listed) != 1 else ''}: 'index' is "
                         f"0 to {len(listed) - 1}, not {index}")
    return chosen, listed, more, unread


def _ended(game: Game) -> dict[str, Any] | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    return {"result": game.result(), "text": str(outcome)}


def record(body: dict[str, Any], catalogue: Catalogue | None, limits: Limits) -> dict[str, Any]:
    """The answer of ``POST /api/record`` (see the module's doc): the game of a record, read,
    replayed and described for the page."""
    from ggn import records  # noqa: PLC0415

    source = _source(body)
    named = _format(body)
    index = _index(body)
    default = _text(body, "game")
    if default is not None:  # an unknown game is refused before the record is read
        (catalogue.entry(default) if catalogue is not None else _entry(default))
    found, listed, more, unread = _records(source, named, index)
    if default is not None and found.format == "pgn" and found.tag("Variant") is None:
        found = replace(found, game=default)
    if len(found.moves) > limits.plies:
        raise LimitError(f"the record's game has {len(found.moves):,} moves, more than the explorer replays "
                         f"({limits.plies:,}, its limit 'plies')", "plies", limits.plies)
    try:
        game = records.replay(found, catalogue, variations=False)
    except RecordError as failure:
        raise RecordRequestError(failure) from None
    plays = game.plays
    san, uci = game.moves(), game.moves("uci")
    moves = [{"written": move.text, "san": san[ply], "uci": uci[ply], "move": str(plays[ply]),
              "nags": list(move.nags), "comments": list(move.comments), "clock": move.clock,
              "line": move.line} for ply, move in enumerate(found.moves)]
    usual = game.fen(0) == _usual(game)
    return {
        "format": found.format,
        "index": index,
        "number": found.number,
        "games": listed,
        "more": more,
        "unread": unread,
        "game": game.rules.name,
        "start": {"fen": game.fen(0), "feen": game.feen(0), "usual": usual},
        "moves": moves,
        "variations": sum(len(move.variations) for move in found.moves),
        "result": found.result,
        "verdict": found.verdict,
        "outcome": _ended(game),
        "tags": [list(pair) for pair in found.tags],
        "comment": found.comment,
        "end": {"fen": game.fen(), "feen": game.feen()},
    }


def _entry(name: str) -> Any:
    from ggn.variants import registry  # noqa: PLC0415

    return registry.entry(name)


def _usual(game: Game) -> str:
    from ggn.game import Game  # noqa: PLC0415

    return Game(game.rules).fen(0)


def _tags(body: dict[str, Any]) -> list[tuple[str, str]]:
    value = body.get("tags")
    if value is None:
        return []
    if isinstance(value, list):
        pairs = value
    elif isinstance(value, dict):
        pairs = list(value.items())
    else:
        raise BadRequest(f"'tags' must be an object of tags' names and values, got {type(value).__name__}")
    if len(pairs) > 100:
        raise BadRequest(f"'tags' holds {len(pairs)} tags, more than a record's 100")
    tags: list[tuple[str, str]] = []
    for pair in pairs:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2
                and all(isinstance(part, str) for part in pair)):
            raise BadRequest("'tags' must name each tag with a string and give it a string value")
        name, text = pair
        if len(name) > 100 or len(text) > 1000:
            raise BadRequest(f"the tag {quote(name, 40)} is longer than the explorer writes (a name of 100 "
                             "characters, a value of 1,000)")
        if name not in _OWN:
            tags.append((name, " ".join(text.split())))
    return tags


def _formats(game: Game) -> tuple[list[Format], dict[str, str]]:
    """The record formats that write the game, its usual one first (KIF for the shogi family,
    else PGN), and why each other does not: told by writing its start alone, since what a
    format refuses is the game, never a move."""
    from ggn import records  # noqa: PLC0415
    from ggn.game import Game  # noqa: PLC0415

    start = Game(game.rules, fen=game.fen(0))
    formats: list[Format] = []
    refused: dict[str, str] = {}
    for name in records.FORMATS:
        try:
            records.write(start, name)
        except GGNError as failure:
            refused[name] = str(failure)
        else:
            formats.append(name)
    if "kif" in formats:
        formats.remove("kif")
        formats.insert(0, "kif")
    return formats, refused


def export(body: dict[str, Any], catalogue: Catalogue | None, limits: Limits) -> dict[str, Any]:
    """The answer of ``POST /api/export`` (see the module's doc): the game played as a record,
    and the position shown as FEN and FEEN."""
    request = _Request.read(body)
    played = request.history
    if played is None:
        played = _History(None, 0, 1, [])
    at = body.get("at")
    if at is not None and (type(at) is not int or not 0 <= at <= len(played.moves)):
        raise BadRequest(f"'at' must be a ply of the game, 0 to {len(played.moves)}, got {at!r}"[:200])
    named = _format(body)
    tags = _tags(body)
    subject = request.subject(catalogue, limits)
    start = subject.state(played.start, played.halfmove, played.fullmove, limits)
    game = history(subject, start, played.moves, limits)
    ply = len(game) if at is None else at
    answer: dict[str, Any] = {
        "game": None if subject.entry is None else subject.entry.name,
        "ply": ply,
        "plies": len(game),
        "feen": game.feen(ply),
        "fen": None,
        "start": {"fen": None, "feen": game.feen(0)},
        "moves": {"ggn": [str(play) for play in game.plays], "uci": None},
        "outcome": _ended(game),
    }
    if subject.entry is None:
        reason = ("a pasted GGN document has no record format (PGN, KIF and CSA write games of "
                  "Fairy-Stockfish's): its positions are written in FEEN")
        if named is not None:
            raise GGNError(reason)
        answer.update(format=None, formats=[], record=None, unrecorded=reason)
        return answer
    answer["fen"] = game.fen(ply)
    answer["start"]["fen"] = game.fen(0)
    answer["moves"]["uci"] = game.moves("uci")
    formats, refused = _formats(game)
    if named is not None and named not in formats:
        raise GGNError(refused[named])
    chosen = next((name for name in formats if name == named), formats[0])
    from ggn import records  # noqa: PLC0415

    written = records.write(game, chosen, tags=tags)
    answer.update(format=chosen, formats=formats, record=written, unrecorded=None)
    return answer


ROUTES: Final = {"record": record, "export": export}
"""The routes of this module, by name, and the functions that answer them."""
