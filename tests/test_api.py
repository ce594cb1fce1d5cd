"""One consistent API (issue 8, item 4): names, errors, hands, the version, the public surface."""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import io
import pickle
import pkgutil
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType

import pytest

import ggn
import ggn.convert
import ggn.errors
import ggn.evaluate
import ggn.games
import ggn.legacy_eval
import ggn.linter
import ggn.move
import ggn.position
import ggn.rules
import ggn.rules._system
import ggn.schemas
import ggn.variants.registry
import ggn.web
from ggn import Feen, GGNError, Position, Qpi, Transition
from ggn.cli import run
from ggn.errors import (
    ConversionError,
    DocumentError,
    EngineError,
    IllegalMoveError,
    LabelError,
    LimitError,
    NotationError,
    NotationTypeError,
    NotFoundError,
    PositionError,
    RecordError,
    UnmappedPieceError,
    VariantError,
    Violation,
)
from ggn.gan import LegacyPiece
from ggn.rules import Ending, Outcome

SHOGI = "9/9/9/9/9/9/9/9/k^8 2P/p s/S"


def _hand_readers() -> list[object]:
    feen = Feen.parse(SHOGI)
    return [
        feen,
        Position.from_feen(feen),
        Transition.of(first_hand={"S:P": 2}, second_hand={"s:p": 1}),
    ]


@pytest.mark.parametrize("holder", _hand_readers(), ids=["Feen", "Position", "Transition"])
def test_one_way_to_read_a_hand(holder: Feen | Position | Transition) -> None:
    first, second = holder.hand("first"), holder.hand("second")
    assert isinstance(first, Mapping) and isinstance(second, Mapping)
    assert dict(first) == {Qpi.parse("S:P"): 2}
    assert dict(second) == {Qpi.parse("s:p"): 1}
    with pytest.raises(TypeError):
        first[Qpi.parse("S:G")] = 1  # type: ignore[index]
    with pytest.raises(TypeError, match=r"player must be 'first' or 'second' \(a str\), not int"):
        holder.hand(1)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="a player is 'first' or 'second', not 'First'"):
        holder.hand("First")  # type: ignore[arg-type]
    for gone in ("hands", "first_hand", "second_hand"):
        assert not hasattr(holder, gone), gone


def test_move_has_a_module_of_its_own() -> None:
    assert ggn.Move is ggn.move.Move is ggn.evaluate.Move
    assert ggn.Move.__module__ == "ggn.move"
    assert "Move" in ggn.move.__all__ and "Move" in ggn.evaluate.__all__


# --- every exception class in ggn.errors ----------------------------------------------------
# One of each exception class: the test below derives the classes from ggn.errors and checks
# that each has one here.
ERRORS = [
    NotationError("QPI", "C:++K", "at most one state modifier (+ or -)", 3, 4),
    NotationTypeError("QPI", "5", "expected a string, got int"),
    DocumentError("GGN", (Violation("/K", "piece 'K' is not a QPI"), Violation("", "bad")), truncated=True),
    NotFoundError.unknown("game", "chess960", ["chess", "shogi"]),
    PositionError("the transition takes 2 s:p from the second player's hand, which holds 1"),
    IllegalMoveError("C:K e1-e2 is not a legal move"),
    LimitError("the position's board has 70,000 squares, more than the explorer plays", "squares", 16384),
    ConversionError("cannot say it", "/board_patch/e4"),
    UnmappedPieceError(LegacyPiece.parse("CHESS:ROOK"), "no QPI for CHESS:ROOK", "/board_patch/a1"),
    LabelError("x-y", "'x-y' is not a CELL", "/board_check/x-y"),
    VariantError("unknown option 'foo'", "my.ini", 3, "foo"),
    RecordError("no legal move 'Nf6' here", 2, 5, "Nf6", 14),
    EngineError("exited during the handshake (killed by SIGKILL)", "/usr/games/stockfish", -9),
]


def _state(error: BaseException) -> tuple[object, ...]:
    return (type(error), str(error), error.args, dict(vars(error)))


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_every_error_pickles_to_an_equal_error(error: GGNError) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert _state(again) == _state(error)
    assert isinstance(again, GGNError) and isinstance(again, ValueError)


@pytest.mark.parametrize("name", ["chess", "shogi", "xiangqi", "crazyhouse", "seirawan", "duck", "janggi"])
def test_plays_and_documents_pickle_to_equal_values(name: str) -> None:
    # What a process pool sends its workers and takes back: a play carries its transition (STN),
    # a document its possibilities; each comes back equal, with the same hash.
    entry = ggn.variants.registry.entry(name)
    plays = entry.rules.legal_moves(entry.position())
    assert plays
    for play in plays:
        again = pickle.loads(pickle.dumps(play))
        assert again == play and hash(again) == hash(play)
        assert again.transition == play.transition
    ruleset = entry.ruleset()
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset
    for rules in ruleset.values():
        for destinations in rules.values():
            for possibilities in destinations.values():
                for possibility in possibilities:
                    assert pickle.loads(pickle.dumps(possibility)) == possibility


def test_legacy_documents_pickle_to_equal_values() -> None:
    path = Path(__file__).parent / "vectors" / "ggn-legacy" / "valid" / "promotion.json"
    ruleset = ggn.LegacyRuleset.loads(path.read_text("utf-8"))
    again = pickle.loads(pickle.dumps(ruleset))
    assert again == ruleset and again.dumps() == ruleset.dumps()


def test_every_exception_class_is_defined_in_errors() -> None:
    classes = {
        name: value for name, value in vars(ggn.errors).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
    assert set(classes) == {type(error).__name__ for error in ERRORS} | {"GGNError"}
    for name, cls in classes.items():
        assert cls.__module__ == "ggn.errors", name
        assert name in ggn.errors.__all__ and name in ggn.__all__ and getattr(ggn, name) is cls, name
    # Each is the same object where it was defined before, and listed there.
    for module, names in (
        (ggn.position, ["PositionError"]),
        (ggn.rules._system, ["IllegalMoveError"]),
        (ggn.web, ["LimitError"]),
        (ggn.legacy_eval, ["ConversionError", "UnmappedPieceError", "LabelError"]),
    ):
        for name in names:
            assert getattr(module, name) is classes[name] and name in module.__all__, (module, name)
    # Every class defined anywhere in the package that is an exception is one of these (the
    # private control-flow signals aside).
    for module in _modules():
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, GGNError):
                assert value.__module__ == "ggn.errors", f"{module.__name__}.{name}"


def test_the_hierarchy_is_kept() -> None:
    assert issubclass(NotFoundError, GGNError) and issubclass(NotFoundError, KeyError)
    for cls in (NotationError, DocumentError, PositionError, IllegalMoveError, ConversionError, VariantError,
                RecordError, EngineError):
        assert cls.__bases__ == (GGNError,), cls
    assert issubclass(UnmappedPieceError, ConversionError) and issubclass(LabelError, ConversionError)
    assert NotationTypeError.__bases__ == (NotationError, TypeError)


def _modules() -> list[ModuleType]:
    found = []
    for info in pkgutil.walk_packages(ggn.__path__, "ggn."):
        if info.name == "ggn.__main__":
            continue
        found.append(importlib.import_module(info.name))
    return found


# --- an unknown name is NotFoundError, listing the known names ------------------------------
FOUR = "chess, shogi, xiangqi, makruk"
# The games: the first eight of the registry's, and how many in all.
GAMES = ", ".join(ggn.variants.registry.names()[:8]) + f", ... ({len(ggn.variants.registry.names())} in all)"


@pytest.mark.parametrize(
    ("lookup", "name", "message"),
    [
        (ggn.games.ruleset, "go", f"no game 'go'; there are: {GAMES}"),
        (ggn.games.start, "go", f"no game 'go'; there are: {GAMES}"),
        (ggn.rules.rule_system, "go", f"no game 'go'; there are: {GAMES}"),
        (ggn.schemas.load_schema, "gan", "no schema 'gan'; there are: ggn, lcn, stn"),
        (ggn.variants.registry.legacy_mapping, "go", f"no built-in mapping 'go'; there are: {FOUR}"),
    ],
    ids=["games.ruleset", "games.start", "rules.rule_system", "schemas.load_schema", "builtin_mapping"],
)
def test_an_unknown_name_is_not_found(lookup: Callable[[str], object], name: str, message: str) -> None:
    with pytest.raises(NotFoundError) as caught:
        lookup(name)
    assert str(caught.value) == message
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, GGNError)


@pytest.mark.parametrize(
    "lookup",
    [ggn.games.ruleset, ggn.rules.rule_system, ggn.schemas.load_schema, ggn.variants.registry.legacy_mapping],
)
def test_a_name_that_is_not_a_string_is_a_type_error(lookup: Callable[[object], object]) -> None:
    with pytest.raises(TypeError, match="name must be a str, got int"):
        lookup(3)


def test_a_long_unknown_name_is_quoted_bounded() -> None:
    with pytest.raises(NotFoundError) as caught:
        ggn.games.ruleset("x" * 10_000)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    "argv",
    [["generate", "go"], ["schema", "gan"], ["perft", "go", "1"], ["convert", "{legacy}", "--mapping", "go"]],
    ids=["generate", "schema", "perft", "convert"],
)
def test_an_unknown_name_on_the_command_line_is_a_usage_error(argv: list[str], tmp_path: Path) -> None:
    legacy = tmp_path / "legacy.json"
    legacy.write_text('{"CHESS:ROOK": {"a1": {"a2": [{"board_check": {"a2": "empty"}, '
                      '"board_patch": {"a1": null, "a2": "CHESS:ROOK"}}]}}}')
    out, err = io.StringIO(), io.StringIO()
    status = run([arg.format(legacy=legacy) for arg in argv], out, err)
    assert status == 2, err.getvalue()
    assert "go" in err.getvalue() or "gan" in err.getvalue()
    assert "Traceback" not in err.getvalue()


# --- how a game ended is an Ending, not free text -------------------------------------------
def test_outcome_is_an_ending() -> None:
    rules = ggn.rules.rule_system("chess")
    mate = rules.position("k^7/1Q6/1K^6/8/8/8/8/8 / c/C")
    outcome = rules.outcome(mate)
    assert outcome == Outcome("first", Ending.CHECKMATE)
    assert outcome is not None and outcome.ending is Ending.CHECKMATE
    assert str(outcome) == "first player wins by checkmate"
    assert str(Outcome(None, Ending.STALEMATE)) == "draw by stalemate"
    assert str(Outcome("second", Ending.NO_LEGAL_MOVE)) == "second player wins by no legal move"
    assert {ending.value for ending in Ending} == {"checkmate", "stalemate", "no legal move", "extinction",
                                                   "reaching the goal", "checks", "bare king",
                                                   "a connection", "bikjang", "two passes",
                                                   # the ends a game's history decides (ggn.game)
                                                   "the n-move rule", "repetition", "perpetual check",
                                                   "perpetual chasing", "repeated moves", "counting",
                                                   "a full board"}
    assert not hasattr(outcome, "reason")
    with pytest.raises(TypeError, match="ending must be an Ending, got str"):
        Outcome("first", "checkmate")  # type: ignore[arg-type]
    # A wrong type is a TypeError; a string that names no player is a bad value (GGNError).
    with pytest.raises(TypeError, match="winner must be 'first', 'second' or None, got int"):
        Outcome(1, Ending.CHECKMATE)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="winner must be 'first', 'second' or None, got 'third'"):
        Outcome("third", Ending.CHECKMATE)  # type: ignore[arg-type]


# --- the version, written once ----------------------------------------------------------------
def test_the_version_is_written_once() -> None:
    assert importlib.metadata.version("ggn") == ggn.__version__
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ggn.__version__"}


# --- __all__ everywhere, and the curated surface of the package root --------------------------
def _public_modules() -> list[ModuleType]:
    return [
        module for module in _modules()
        if not any(part.startswith("_") for part in module.__name__.split(".")[1:])
    ]


def test_every_public_module_has_an_accurate_all() -> None:
    assert len(_public_modules()) > 20
    for module in [ggn, *_public_modules()]:
        name = module.__name__
        names = getattr(module, "__all__", None)
        assert isinstance(names, list), f"{name} has no __all__"
        assert len(names) == len(set(names)), f"{name}.__all__ repeats a name"
        for listed in names:
            assert hasattr(module, listed), f"{name}.__all__ lists {listed!r}, which it does not have"
        # Every public class and function defined in the module is listed.
        for attribute, value in vars(module).items():
            if attribute.startswith("_") or not (inspect.isclass(value) or inspect.isfunction(value)):
                continue
            if value.__module__ == name:
                assert attribute in names, f"{name}.{attribute} is public but not in __all__"


def test_the_package_root_re_exports_the_curated_surface() -> None:
    star: dict[str, object] = {}
    exec("from ggn import *", star)  # every name of __all__ resolves
    assert set(ggn.__all__) <= set(star)
    # Each name at the root is the object of the module that defines it, listed there too.
    for name in ggn.__all__:
        value = getattr(ggn, name)
        home = getattr(value, "__module__", None)
        defined = inspect.isclass(value) or inspect.isfunction(value)
        if defined and home is not None and home.startswith("ggn."):
            assert name in importlib.import_module(home).__all__, (name, home)
    # (Every exception class is there too: test_every_exception_class_is_defined_in_errors.)
    for name in ("Move", "Transition", "Position", "Ruleset", "lint"):
        assert name in ggn.__all__, name
    assert ggn.lint is ggn.linter.lint and isinstance(ggn.linter, ModuleType)
