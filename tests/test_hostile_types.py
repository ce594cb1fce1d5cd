"""Wrong Python types at the public API raise TypeError (issue 16, finding 8).

Every public function and method of the package root's ``__all__`` and of the public modules
(``ggn.variants.*``, ``ggn.rules``, ``ggn.svg``, ``ggn.textboard``, ``ggn.cache``, ``ggn.games``;
``ggn.batch``, ``ggn.parallel``, ``ggn.web`` and ``ggn.engine`` have tests of their own) is called
once with valid arguments, then once for each argument with that argument replaced by a value of a wrong
type: an ``object()``, and an ``int`` for a ``str`` (a ``str`` for an ``int``). The call must raise
``TypeError`` (``NotationTypeError`` is one), never an ``AttributeError``, ``KeyError``,
``IndexError`` or other error from inside; an argument that documents taking any object (``is_valid``,
a mapping's lookup) is listed as such. A test checks that the table covers every public callable.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

import ggn
from ggn import (
    Cell,
    Conditions,
    Epin,
    Feen,
    Gan,
    Hand,
    LegacyPiece,
    LegacyRuleset,
    Pin,
    Position,
    Possibility,
    Qpi,
    Ruleset,
    Sin,
    Transition,
    games,
    notation,
    rules,
    svg,
    textboard,
)
from ggn import cache as ggn_cache
from ggn.errors import GGNError, NotationTypeError
from ggn.game import Game
from ggn.games import chess as chess_game
from ggn.games import makruk as makruk_game
from ggn.games import shogi as shogi_game
from ggn.games import xiangqi as xiangqi_game
from ggn.notation import san, usi
from ggn.records import csa, kif
from ggn.variants import betza, description, document, fen, ini, pieces, registry, uci


def _record_calls() -> Iterator[Call]:
    """The rows of ggn.records and ggn.records.pgn (games, records and the PGN reader)."""
    from ggn import records  # noqa: PLC0415
    from ggn.game import Game  # noqa: PLC0415
    from ggn.records import pgn  # noqa: PLC0415

    record = next(records.read("1. e4 e5 *"))
    fields = {"tags": (("White", "x"),), "game": "chess", "fen": FEN, "moves": record.moves, "result": "1-0",
              "verdict": "1-0", "comment": "c", "number": 1, "line": 1, "format": "pgn"}
    yield Call("ggn.records.Record", records.Record, (), fields)
    yield Call("ggn.records.Record.tag", record.tag, ("White", "?"), free=frozenset({1}))  # as dict.get
    yield Call("ggn.records.Record.error", record.error, ("why", 1, record.moves[0]))
    yield Call("ggn.records.RecordMove", records.RecordMove, ("e4",), {
        "nags": (1,), "comments": ("c",), "before": ("b",), "variations": ((record.moves[0],),),
        "clock": "T1", "line": 3})
    yield Call("ggn.records.read", records.read, ("1. e4 *",), {"format": "pgn"})
    yield Call("ggn.records.detect", records.detect, ("1. e4 *",))
    yield Call("ggn.records.decode", records.decode, (b"1. e4 *",))
    yield Call("ggn.records.replay", records.replay, (record,), {"games": registry.Catalogue()})
    game = records.replay(record)
    yield Call("ggn.records.write", records.write, (game, "pgn", {"White": "x"}),
               {"games": registry.Catalogue()})
    yield Call("ggn.records.pgn.read", pgn.read, ("1. e4 *",))
    yield Call("ggn.records.pgn.read_lines", pgn.read_lines, (["1. e4 *"],))
    yield Call("ggn.records.pgn.game_of", pgn.game_of, ("Crazyhouse", ("chess", "crazyhouse")))
    yield Call("ggn.records.pgn.variant_of", pgn.variant_of, ("crazyhouse",))
    yield Call("ggn.records.pgn.write", pgn.write, (game, {"White": "x"}))
    yield Call("ggn.records.pgn.write_record", pgn.write_record, (record, {"White": "x"}))
    yield Call("ggn.records.pgn.parse_move", pgn.parse_move, (Game("chess"), "e4"))

START = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
TINY = "[tiny]\nking = k\nstartFen = 8/8/8/8/8/8/8/K6k w - - 0 1\n"
INI = "[tiny:chess]\nmaxRank = 6\nstartFen = 8/8/8/8/8/8 w - - 0 1\ncastling = false\n"

# The modules whose __all__ the table covers (besides the package root's).
MODULES = (
    "ggn.variants.betza", "ggn.variants.description", "ggn.variants.document", "ggn.variants.fen",
    "ggn.variants.ini", "ggn.variants.pieces", "ggn.variants.registry", "ggn.variants.uci", "ggn.rules",
    "ggn.svg", "ggn.textboard", "ggn.cache", "ggn.games", "ggn.games.chess", "ggn.games.shogi",
    "ggn.games.xiangqi", "ggn.games.makruk", "ggn.notation", "ggn.notation.san", "ggn.notation.usi",
    "ggn.game", "ggn.records", "ggn.records.pgn",
)


@dataclass(frozen=True)
class Call:
    """A public callable, named as the table's coverage test looks it up, with valid arguments;
    ``free`` names the arguments (positions or keywords) that take any object, ``either`` those
    that take both an int and a str (a wrong one of either is a bad value: a GGNError)."""

    name: str
    function: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    free: frozenset[int | str] = frozenset()
    either: frozenset[int | str] = frozenset()


@cache
def _samples() -> dict[str, Any]:
    chess = registry.entry("chess")
    position = Position.from_feen(START)
    system = rules.rule_system("chess")
    play = system.legal_moves(position)[0]
    variant = chess.variant
    section = ini.sections(TINY)[0]
    return {
        "chess": chess, "position": position, "rules": system, "play": play, "variant": variant,
        "feen": Feen.parse(START), "ruleset": games.ruleset("chess"), "section": section,
        "layout": document.layout(registry.variant("crazyhouse")), "qpi": Qpi.parse("C:K^"),
        "view": pieces.View(8, 8, "C", False), "movement": betza.parse("W")[0],
        "game": pieces.Game("g", 2, 2, "C", (pieces.Piece("K", betza.parse("W")),), "K1/1k"),
        "piece": pieces.Piece("K", betza.parse("W")), "drop": pieces.Drop(),
        "move": games.ruleset("chess").moves(position)[0],
    }


def _calls() -> Iterator[Call]:
    s = _samples()
    chess, position, system, play, variant = s["chess"], s["position"], s["rules"], s["play"], s["variant"]
    ruleset, layout = s["ruleset"], s["layout"]
    catalogue = registry.Catalogue()
    # --- ggn: notations
    for kind, text in ((Cell, "e4"), (Epin, "K^'"), (Feen, START), (Gan, "CHESS:K"), (Hand, "*"),
                       (LegacyPiece, "CHESS:K"), (Pin, "K^"), (Qpi, "C:K^"), (Sin, "C")):
        yield Call(f"ggn.{kind.__name__}.parse", kind.parse, (text,))
        if hasattr(kind, "is_valid"):
            yield Call(f"ggn.{kind.__name__}.is_valid", kind.is_valid, (text,), free=frozenset({0}))
    yield Call("ggn.Cell", Cell, ((4, 3),))
    yield Call("ggn.Epin.from_qpi", Epin.from_qpi, (Qpi.parse("C:K^"),))
    yield Call("ggn.Epin.to_qpi", Epin.parse("K^").to_qpi, (Sin.parse("C"), Sin.parse("c")))
    yield Call("ggn.Feen.hand", s["feen"].hand, ("first",))
    yield Call("ggn.Pin", Pin, ("K", "first"))
    yield Call("ggn.Sin", Sin, ("C", "first"))
    yield Call("ggn.Qpi", Qpi, (Sin.parse("C"), Pin.parse("K^")))
    yield Call("ggn.Gan", Gan, ("CHESS", "K", "first"))
    yield Call("ggn.LegacyPiece", LegacyPiece, (Gan.parse("CHESS:K"),))
    yield Call("ggn.Epin", Epin, (Pin.parse("K^"),))
    yield Call("ggn.parse_location", ggn.parse_location, ("e4",))
    # --- ggn: documents, positions, moves
    yield Call("ggn.Conditions.of", Conditions.of, ({"e4": "empty"},))
    yield Call("ggn.Possibility.of", Possibility.of, ({"e4": "empty"}, {"e5": "enemy"}))
    yield Call("ggn.Transition.of", Transition.of, ({"e4": "C:P"}, {"C:P": 1}, {"c:p": 1}, True))
    yield Call("ggn.Transition.hand", Transition.of(first_hand={"C:P": 1}).hand, ("first",))
    yield Call("ggn.Ruleset.loads", Ruleset.loads, (chess_game.document() and
                                                     __import__("json").dumps(chess_game.document()),),
               {"max_errors": 5, "max_bytes": 10**8})
    yield Call("ggn.Ruleset.moves", ruleset.moves, (position,),
               {"piece": "C:P", "source": "e2", "destination": "e4"})
    yield Call("ggn.Ruleset.select", ruleset.select, ("C:P",))
    yield Call("ggn.Ruleset.to_value", ruleset.to_value, (), {"explicit": True})
    yield Call("ggn.PieceRules.source", ruleset.select("C:P").source, ("e2",))
    yield Call("ggn.SourceRules.destination", ruleset.select("C:P").source("e2").destination, ("e4",))
    yield Call("ggn.Position.from_feen", Position.from_feen, (START,))
    yield Call("ggn.Position.hand", position.hand, ("first",))
    yield Call("ggn.Position.piece_at", position.piece_at, ("e1",))
    yield Call("ggn.Position.apply", position.apply, (Transition.of({"e2": None, "e4": "C:P"}, toggle=True),))
    yield Call("ggn.Move.transition", s["move"].transition, (position,))
    yield Call("ggn.lint", ggn.lint, (ruleset, (8, 8)))
    yield Call("ggn.load_schema", ggn.load_schema, ("ggn",))
    yield from _documents(s)
    yield from _records(s)
    # --- ggn.variants
    yield Call("ggn.variants.betza.parse", betza.parse, ("W",), {"initial": frozenset({(0, 1)})})
    # Reads the compile cache's plain data: anything else, of any type, is a ValueError (documented).
    yield Call("ggn.variants.description.from_data", description.from_data, (description.to_data(variant),),
               free=frozenset({0}))
    yield Call("ggn.variants.description.to_data", description.to_data, (variant,))
    yield Call("ggn.variants.description.PieceType.region", variant.pieces[0].region, (0,))
    for name in ("build", "layout", "ruleset_of", "style"):
        yield Call(f"ggn.variants.document.{name}", getattr(document, name), (variant,))
    yield Call("ggn.variants.document.canonical", document.canonical, ({"a": 1},), free=frozenset({0}))
    yield Call("ggn.variants.document.castling_rank", document.castling_rank, (layout, 0))
    yield Call("ggn.variants.document.castling_squares", document.castling_squares, (layout, 0))
    yield Call("ggn.variants.document.castlings", document.castlings, (layout, 0, 4))
    yield Call("ggn.variants.document.pin", document.pin, (variant, "k"))
    yield Call("ggn.variants.document.token", document.token, (variant, "k", "first"), {"mark": "normal"})
    yield Call("ggn.variants.document.Layout", document.Layout, (variant,))
    yield Call("ggn.variants.document.Layout.mover", layout.mover, (0, [(0, 0)]))
    yield Call("ggn.variants.document.Layout.board", layout.board, (0, [(0, 0)]))
    yield Call("ggn.variants.document.Layout.name", layout.name, ((0, 0),))
    yield Call("ggn.variants.document.Layout.token", layout.token, ("k", "first", "normal"),
               either=frozenset({1}))
    yield Call("ggn.variants.document.Layout.template", layout.template, ("k", "normal"), {"enemy": True})
    yield Call("ggn.variants.document.Layout.marks", layout.marks, ("k",))
    yield Call("ggn.variants.document.Layout.moves_as", layout.moves_as, ("k", "normal"))
    yield Call("ggn.variants.document.Layout.pawn_type", layout.pawn_type, ("p",))
    yield Call("ggn.variants.document.Layout.mobility", layout.mobility, ("p", 0))
    yield Call("ggn.variants.document.Layout.dead", layout.dead, ("p", 0))
    yield Call("ggn.variants.document.Layout.stands", layout.stands, ("p", 0, "normal"))
    yield Call("ggn.variants.document.Layout.drop_squares", layout.drop_squares, ("p", 0))
    yield Call("ggn.variants.document.Layout.double_region", layout.double_region, (0,))
    yield Call("ggn.variants.document.Layout.passing_mark", layout.passing_mark, ("p", (2, 1), (4, 3)))
    yield Call("ggn.variants.document.Layout.movements", layout.movements, ("p", 0, "normal"))
    yield Call("ggn.variants.document.Layout.diagonal", layout.diagonal, ("p", 0))
    yield Call("ggn.variants.fen.from_feen", fen.from_feen, (variant, START), {"halfmove": 0, "fullmove": 1})
    yield Call("ggn.variants.fen.is_feen", fen.is_feen, (START,), free=frozenset({0}))
    yield Call("ggn.variants.fen.style", fen.style, (variant,))
    yield Call("ggn.variants.fen.to_feen", fen.to_feen, (variant, FEN))
    yield Call("ggn.variants.ini.load", ini.load, (TINY,), {"source": "x.ini", "known": {}})
    yield Call("ggn.variants.ini.load_sections", ini.load_sections, ([s["section"]],), {"known": {}})
    yield Call("ggn.variants.ini.resolve", ini.resolve, ("tiny", {"tiny": s["section"]}))
    yield Call("ggn.variants.ini.sections", ini.sections, (INI,), {"source": "x.ini"})
    # A lookup, as dict.get: any key, None for one that is not there.
    yield Call("ggn.variants.ini.Section.get", s["section"].get, ("king",), free=frozenset({0}))
    yield Call("ggn.variants.pieces.View", pieces.View, (8, 8, "C", False), {"rotate": True,
                                                                          "holes": frozenset()})
    yield Call("ggn.variants.pieces.View.qpi", s["view"].qpi, ("K",))
    yield Call("ggn.variants.pieces.View.state", s["view"].state, ("empty",))
    yield Call("ggn.variants.pieces.build", pieces.build, (s["game"],))
    yield Call("ggn.variants.pieces.destinations", pieces.destinations, (s["view"], [s["movement"]], (0, 0)))
    yield Call("ggn.variants.pieces.drops", pieces.drops, (s["view"], s["piece"], s["drop"]))
    yield Call("ggn.variants.pieces.lame_path", pieces.lame_path, ((2, 1),))
    yield Call("ggn.variants.pieces.ranks", pieces.ranks, (8, 1, 2))
    yield Call("ggn.variants.pieces.squares", pieces.squares, ("a1", "b2"))
    for name in ("entry", "variant", "rules", "start"):
        yield Call(f"ggn.variants.registry.Catalogue.{name}", getattr(catalogue, name), ("chess",))
        yield Call(f"ggn.variants.registry.{name}", getattr(registry, name), ("chess",))
    yield Call("ggn.variants.registry.Catalogue.add_ini", catalogue.add_ini, (INI, "x.ini"))
    yield Call("ggn.variants.registry.legacy_mapping", registry.legacy_mapping, ("chess",))
    yield Call("ggn.variants.registry.Entry", registry.Entry, ("chess", "builtin", variant))
    yield Call("ggn.variants.registry.Entry.svg", chess.svg, (position,), {"size": 8})
    yield Call("ggn.variants.registry.Entry.text", chess.text, (position,), {"coordinates": False})
    yield Call("ggn.variants.registry.Entry.to_feen", chess.to_feen, (FEN,))
    yield Call("ggn.variants.registry.Entry.position", chess.position, (START,))
    yield Call("ggn.variants.registry.Entry.from_feen", chess.from_feen, (START,),
               {"halfmove": 0, "fullmove": 1})
    yield Call("ggn.variants.registry.Entry.counters", chess.counters, (FEN,))
    yield Call("ggn.variants.registry.Entry.advance", chess.advance, (position, play, 0, 1))
    yield Call("ggn.variants.uci.moves", uci.moves, (system, position), {"variant": variant})
    yield Call("ggn.variants.uci.parse", uci.parse, (system, position, "e2e4"), {"variant": variant})
    yield Call("ggn.variants.uci.write", uci.write, (variant, play), {"position": position})
    # --- ggn.notation
    shogi = registry.rules("shogi")
    shogi_start = shogi.position()
    shogi_play = usi.parse(shogi, shogi_start, "7g7f")
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    yield Call("ggn.notation.usi.write", usi.write, (shogi, shogi_start, shogi_play))
    yield Call("ggn.notation.usi.parse", usi.parse, (shogi, shogi_start, "7g7f"))
    yield Call("ggn.notation.usi.moves", usi.moves, (shogi, shogi_start))
    yield Call("ggn.notation.usi.to_sfen", usi.to_sfen, (shogi, shogi_start, 1))
    yield Call("ggn.notation.usi.from_sfen", usi.from_sfen, (shogi, sfen))
    yield Call("ggn.notation.default", notation.default, (system,))
    yield Call("ggn.notation.notations", notation.notations, (system,))
    yield Call("ggn.notation.write", notation.write, (system, position, play, "san"))
    yield Call("ggn.notation.moves", notation.moves, (system, position, "lan"))
    yield Call("ggn.notation.parse", notation.parse, (system, position, "e4", "san"))
    yield Call("ggn.notation.san.default", san.default, (variant,))
    yield Call("ggn.notation.san.write", san.write, (system, position, play, "wxf"))
    yield Call("ggn.notation.san.moves", san.moves, (system, position, "lan"))
    yield Call("ggn.notation.san.parse", san.parse, (system, position, "e4", "san"))
    # --- ggn.records: KIF and CSA
    shogi_played = Game(shogi)
    kif_text = "手合割：平手\n   1 ７六歩(77)\n"  # noqa: RUF001  (KIF's full-width colon)
    csa_text = "PI\n+\n+7776FU\n"
    yield Call("ggn.records.kif.read", lambda source: list(kif.read(source)), (kif_text,))
    yield Call("ggn.records.kif.parse_move", kif.parse_move, (shogi_played, "７六歩(77)"))
    yield Call("ggn.records.kif.write", kif.write, (shogi_played,), {"tags": {"先手": "A"}})
    yield Call("ggn.records.kif.write_record", kif.write_record, (next(kif.read(kif_text)),),
               {"tags": {"先手": "A"}})
    yield Call("ggn.records.csa.read", lambda source: list(csa.read(source)), (csa_text,))
    yield Call("ggn.records.csa.parse_move", csa.parse_move, (shogi_played, "+7776FU"))
    yield Call("ggn.records.csa.write", csa.write, (shogi_played,), {"tags": {"White": "A"}})
    yield Call("ggn.records.csa.write_record", csa.write_record, (next(csa.read(csa_text)),),
               {"tags": {"White": "A"}})
    # --- ggn.rules
    yield Call("ggn.rules.RuleSystem", rules.RuleSystem, (ruleset, START, (8, 8)))
    yield Call("ggn.rules.RuleSystem.position", system.position, (START,))
    for name in ("legal_moves", "count", "in_check", "outcome"):
        yield Call(f"ggn.rules.RuleSystem.{name}", getattr(system, name), (position,))
    yield Call("ggn.rules.RuleSystem.play", system.play, (position, play))
    yield Call("ggn.rules.divide", rules.divide, ("chess", 1, position))
    yield Call("ggn.rules.perft", rules.perft, ("chess", 1, position))
    yield Call("ggn.rules.rule_system", rules.rule_system, ("chess",))
    yield Call("ggn.rules.native_support", rules.native_support, ("chess",))
    yield Call("ggn.rules.use_native", rules.use_native, (True,))
    yield Call("ggn.rules.playout", rules.playout, ("chess", position),
               {"games": 1, "seed": 1, "policy": "captures", "max_plies": 2, "moves": True})
    yield Call("ggn.rules.playout", rules.playout, ("chess",),
               {"games": 1, "seed": 1, "fen": FEN, "max_plies": 2})
    found = rules.playout("chess", games=1, seed=1, max_plies=2)
    yield Call("ggn.rules.Playouts", rules.Playouts, ("chess", 1, "uniform", 2, ("*",), (2,), (None,)),
               {"moves": None, "engine": "pure"})
    yield Call("ggn.rules.Playouts.totals", found.totals)
    yield Call("ggn.rules.Playouts.to_json", found.to_json)
    yield Call("ggn.rules.Outcome", rules.Outcome, ("first", rules.Ending.CHECKMATE))
    # --- ggn.game
    yield Call("ggn.game.Game", Game, ("chess", START), {"halfmove": 0, "fullmove": 1})
    yield Call("ggn.game.Game", Game, (system,), {"fen": FEN})
    game = Game("chess")
    yield Call("ggn.game.Game.push", Game("chess").push, ("e2e4",))
    yield Call("ggn.game.Game.position_at", game.position_at, (0,))
    yield Call("ggn.game.Game.fen", game.fen, (0,))
    yield Call("ggn.game.Game.feen", game.feen, (0,))
    yield Call("ggn.game.Game.moves", game.moves, ("san",))
    # --- pictures
    yield Call("ggn.svg.board", svg.board, (position,), {
        "highlight": ["a1"], "arrows": [("e2", "e4")], "coordinates": True, "flipped": False, "size": 8,
        "hands": True, "holes": ["b2"], "families": {"C": "chess"}, "aliases": {"C:K": "Q"}, "letters": False,
        "marks": True, "font": "serif", "compact": False, "conventions": "chess", "last": ("e2", "e4"),
        "check": ["e1"]})
    yield Call("ggn.svg.piece", svg.piece, ("C:Q",), {
        "size": 8, "families": {"C": "chess"}, "aliases": {"C:Q": "K"}, "letters": False, "marks": True,
        "font": "serif", "flipped": False})
    yield Call("ggn.svg.family_of", svg.family_of, (Qpi.parse("C:K^"), {"C": "chess"}))
    yield Call("ggn.svg.drawn_elements", svg.drawn_elements, (svg.board(position, size=8),))
    if importlib.util.find_spec("cairosvg") is not None:
        yield Call("ggn.svg.png", svg.png, (position,), {"max_elements": 10_000, "size": 8})
    yield Call("ggn.textboard.board", textboard.board, (position,), {
        "highlight": ["e4"], "coordinates": True, "flipped": False, "colour": False, "hands": True,
        "holes": ["e5"], "families": {"C": "chess"}, "aliases": {"C:K": "Q"}})
    # --- ggn.cache
    yield Call("ggn.cache.configure", ggn_cache.configure, (), {"enabled": None, "directory": None,
                                                                 "max_bytes": None})
    yield Call("ggn.cache.load", ggn_cache.load, ("test", b"key"))
    yield Call("ggn.cache.store", ggn_cache.store, ("test", b"key", b"data"))
    yield Call("ggn.cache.Entries", ggn_cache.Entries, ("test", b"key"))
    # --- ggn.games
    for name in ("document", "ruleset", "shape", "start"):
        yield Call(f"ggn.games.{name}", getattr(games, name), ("chess",))
    yield Call("ggn.games.chess.from_fen", chess_game.from_fen, (FEN,))
    yield Call("ggn.games.makruk.from_fen", makruk_game.from_fen,
               ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",))
    yield Call("ggn.games.shogi.from_sfen", shogi_game.from_sfen,
               ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",))
    yield Call("ggn.games.xiangqi.from_fen", xiangqi_game.from_fen,
               ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",))


def _fields(record: object) -> dict[str, Any]:
    return {field.name: getattr(record, field.name) for field in dataclasses.fields(record)}  # type: ignore[arg-type]


def _documents(s: dict[str, Any]) -> Iterator[Call]:
    """The documents' classes: their constructors, lookups and writers."""
    ruleset = s["ruleset"]
    e4, king = Cell.parse("e4"), Qpi.parse("C:K^")
    legacy = LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a4": [{"board_check": {"a2": "empty"},
                                                                      "board_patch": {}}]}}})
    pieces_ = legacy.select("CHESS:ROOK")
    yield Call("ggn.Conditions", Conditions, ({e4: "empty"}, "at e4"))
    yield Call("ggn.Conditions.to_value", Conditions.of({"e4": "empty"}).to_value, (), {"explicit": True})
    yield Call("ggn.Possibility", Possibility, (Conditions.of({"e4": "empty"}), Conditions.of({})))
    yield Call("ggn.Possibility.to_value", Possibility.of({"e4": "empty"}).to_value, (), {"explicit": True})
    yield Call("ggn.Ruleset", Ruleset, (dict(ruleset), "in the ruleset"))
    yield Call("ggn.PieceRules", ggn.PieceRules, (dict(ruleset.select("C:P")), "at C:P"))
    yield Call("ggn.SourceRules", ggn.SourceRules, (dict(ruleset.select("C:P").source("e2")), "at e2"))
    yield Call("ggn.Transition", Transition, ({e4: king}, {king: 1}, {Qpi.parse("c:k^"): 1}, True))
    yield Call("ggn.Transition.to_value", Transition.of({"e4": "C:K^"}).to_value, (), {"explicit": True})
    yield Call("ggn.Feen", Feen, ((8, 8), {e4: king}, None, "first", (Sin.parse("C"), Sin.parse("c"))))
    yield Call("ggn.LegacyRuleset", LegacyRuleset, (dict(legacy), "in the legacy ruleset"))
    yield Call("ggn.LegacyRuleset.select", legacy.select, ("CHESS:ROOK",))
    yield Call("ggn.LegacyRuleset.to_value", legacy.to_value, (), {"explicit": True})
    yield Call("ggn.LegacyPieceRules", ggn.LegacyPieceRules, (dict(pieces_), "at CHESS:ROOK"))
    yield Call("ggn.LegacyPieceRules.source", pieces_.source, ("a1",))
    yield Call("ggn.LegacySourceRules", ggn.LegacySourceRules, (dict(pieces_.source("a1")), "at a1"))
    yield Call("ggn.LegacySourceRules.destination", pieces_.source("a1").destination, ("a4",))
    entry = pieces_.source("a1").destination("a4")[0]
    yield Call("ggn.LegacyEntry", ggn.LegacyEntry, ({"a2": "empty"}, {"a1": None}, "CHESS:ROOK", None))
    yield Call("ggn.LegacyEntry.to_value", entry.to_value, (), {"explicit": True})
    yield Call("ggn.LintWarning", ggn.LintWarning, ("/C:K^", "a warning", "duplicate"))
    yield Call("ggn.Violation", ggn.Violation, ("/C:K^", "a violation"))


def _records(s: dict[str, Any]) -> Iterator[Call]:
    """The records of descriptions and pieces: their constructors, every field by keyword."""
    variant = s["variant"]
    crazyhouse = registry.variant("crazyhouse")
    for name, record in (
        ("Variant", variant), ("PieceType", variant.pieces[0]), ("Castling", variant.castling),
        ("DoubleStep", variant.double_step), ("Promotion", variant.promotion), ("Ends", variant.ends),
        ("Drops", crazyhouse.drops), ("History", registry.variant("shogi").history),
        ("Walls", registry.variant("isolation").walls),
    ):
        yield Call(f"ggn.variants.description.{name}", type(record), (), _fields(record))
    yield Call("ggn.variants.document.Castle", document.Castle, (4, 6, 7, 5, (5, 6)))
    yield Call("ggn.variants.ini.Option", ini.Option, ("king", "k", 2))
    yield Call("ggn.variants.ini.Section", ini.Section,
               ("tiny", None, (ini.Option("king", "k", 2),), 1, "x.ini"))
    for name in ("Movement", "Piece", "Drop", "Game"):
        record = s["movement" if name == "Movement" else name.lower()]
        yield Call(f"ggn.variants.pieces.{name}", type(record), (), _fields(record))
    play = s["play"]
    yield Call("ggn.rules.Play", rules.Play, (play.piece, play.source, play.destination, play.choice,
                                               play.transition, play.move, None))
    entries = ggn_cache.Entries("test", b"key")
    # Names and values are anything marshal writes: any object, as a dict's.
    yield Call("ggn.cache.Entries.get", entries.get, ("name",), free=frozenset({0}))
    yield Call("ggn.cache.Entries.put", entries.put, ("name", 1), free=frozenset({0, 1}))
    yield Call("ggn.variants.registry.Entry.position", s["chess"].position, (START,))
    yield from _record_calls()


def _wrong(value: object) -> list[object]:
    """Values of a wrong type for an argument whose valid value is ``value``: an ``object()``;
    an int for a str, a str for an int; a list of the keys for a mapping (``ini.resolve`` given
    a list of names was an AttributeError)."""
    wrong: list[object] = [object()]
    if isinstance(value, str):
        wrong.append(7)
    elif isinstance(value, int) and not isinstance(value, bool):
        wrong.append("7")
    elif isinstance(value, Mapping) and value:
        wrong.append(list(value))
    return wrong


def _parameter(call: Call, where: int | str) -> str:
    """The name of a positional argument (``*names``: the one name)."""
    if isinstance(where, str):
        return where
    parameters = list(inspect.signature(call.function).parameters.values())
    return parameters[min(where, len(parameters) - 1)].name


def _cases() -> Iterator[tuple[str, Call, int | str, object]]:
    for call in _calls():
        where: list[tuple[int | str, object]] = [*enumerate(call.args), *call.kwargs.items()]
        for place, value in where:
            if place not in call.free:
                for wrong in _wrong(value):
                    yield f"{call.name}[{place}]={type(wrong).__name__}", call, place, wrong


def test_every_call_of_the_table_is_valid() -> None:
    failed = []
    for call in _calls():
        try:
            call.function(*call.args, **call.kwargs)
        except Exception as error:  # noqa: BLE001  (all of them listed)
            failed.append(f"{call.name}: {type(error).__name__}: {str(error)[:200]}")
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(("label", "call", "where", "wrong"), list(_cases()),
                         ids=[case[0] for case in _cases()])
def test_a_wrong_type_is_a_type_error(label: str, call: Call, where: int | str, wrong: object) -> None:
    args, kwargs = list(call.args), dict(call.kwargs)
    if isinstance(where, int):
        args[where] = wrong
    else:
        kwargs[where] = wrong
    if where in call.either and isinstance(wrong, int | str):
        with pytest.raises(GGNError):
            call.function(*args, **kwargs)
        return
    with pytest.raises(TypeError) as caught:
        call.function(*args, **kwargs)
    # Named: the argument (a notation's own parser names its notation and says a str was expected;
    # a legacy level's constructor names its class: "LegacyRuleset takes a dict of ...").
    parameter = _parameter(call, where)
    message = str(caught.value)
    owner = call.function.__name__ if inspect.isclass(call.function) else None
    assert parameter in message or isinstance(caught.value, NotationTypeError) or (
        owner is not None and message.startswith(f"{owner} takes")), message[:300]


def test_the_calls_of_the_issue_name_the_argument_and_the_type() -> None:
    # Each was an AttributeError from inside (issue 16, finding 8).
    s = _samples()
    with pytest.raises(TypeError, match=r"^piece must be a Qpi, got str$"):
        svg.family_of("C:K^")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^families must be a mapping of style letters to families, or None, "
                                        r"got list$"):
        svg.family_of(Qpi.parse("C:K^"), ["chess"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^position must be a Position, got str$"):
        s["chess"].advance(START, s["play"], 0, 1)
    with pytest.raises(TypeError, match=r"^play must be a Play, got str$"):
        s["chess"].advance(s["position"], "C:P e2-e4", 0, 1)
    with pytest.raises(TypeError, match=r"^variant must be a Variant, got str$"):
        fen.style("chess")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^sections must be a mapping of names to Sections, got list$"):
        ini.resolve("tiny", ["tiny"])  # type: ignore[arg-type]


def test_a_right_type_with_a_wrong_value_is_a_ggn_error() -> None:
    layout = _samples()["layout"]
    with pytest.raises(GGNError, match=r"^'z' is not a piece letter \(lowercase\) of crazyhouse$"):
        layout.token("z", "first")
    with pytest.raises(GGNError, match=r"^a side is 0 \(the first player\) or 1 \(the second\), not 2$"):
        layout.dead("p", 2)
    with pytest.raises(GGNError, match=r"^a mark is one of normal, castling, dashed, promoted, tilde, leap, "
                                       r"crossed, not 'x'$"):
        layout.template("p", "x")
    with pytest.raises(GGNError, match=r"^chess has no drops$"):
        document.layout(_samples()["variant"]).drop_squares("p", 0)


# Public callables the table leaves out, and why.
EXEMPT = {
    "ggn.rules.Ending": "an enum: Ending(value) is Python's lookup of a member by its value",
    "ggn.Move": "made by the move generator for each move, where a check would cost every move; a Play "
                "checks the Move it is given",
}


def test_the_table_covers_every_public_callable() -> None:
    covered = {call.name for call in _calls()}
    missing = []
    seen: set[int] = set()
    for module_name in ("ggn", *MODULES):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            public = getattr(module, name)
            if not (inspect.isfunction(public) or inspect.isclass(public)) or id(public) in seen or (
                    inspect.isclass(public) and issubclass(public, BaseException)):
                continue  # a type alias (StateValue, Mark) is no callable
            seen.add(id(public))
            full = f"{module_name}.{name}"
            found = [(full, public)]
            if inspect.isclass(public):
                found += [(f"{full}.{attribute}", getattr(public, attribute)) for attribute in vars(public)
                          if not attribute.startswith("_") and callable(getattr(public, attribute))]
            for label, function in found:
                try:
                    parameters = [p for p in inspect.signature(function).parameters if p != "self"]
                except (TypeError, ValueError):
                    parameters = []
                if label == "ggn.svg.png" and importlib.util.find_spec("cairosvg") is None:
                    continue  # the [png] extra: not installed here
                if parameters and label not in covered and label not in EXEMPT:
                    missing.append(label)
    assert not missing, "public callables with no row in the table: " + ", ".join(missing)
