"""The engine client (ggn.engine) against real engines and against fake ones that misbehave.

Real engines: Debian's ``stockfish`` and ``fairy-stockfish`` (installed in /usr/games, which is
often not on PATH; ``.ci/run`` installs them). A test that needs one is skipped, with the
reason, only when it is not installed. Their moves are checked by oracles no one here wrote:
python-chess (chess), pyffish (a variant of our own, xiangqi) and python-shogi (shogi, whose USI
strings the engine writes).

Fake engines: a small Python script (FAKE below) that speaks UCI until told to hang, to write
garbage or a line of megabytes, to exit during the handshake, or to name an illegal move. Each
must end in an EngineError that says what went wrong, with the engine's process reaped (no
zombie), and no thread or pipe left open.
"""

from __future__ import annotations

import gc
import inspect
import io
import json
import os
import random
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import ggn.engine
from ggn.cli import run
from ggn.engine import (
    Analysis,
    Engine,
    EngineError,
    Info,
    Limit,
    Option,
    Score,
    Search,
    from_engine,
    to_engine,
)
from ggn.engine._protocol import parse_info, position_command
from ggn.errors import GGNError
from ggn.game import Game
from ggn.rules import Play, RuleSystem, rule_system
from ggn.variants import registry, uci
from ggn.variants.fen import from_feen
from ggn.variants.registry import Catalogue
from test_docs import run_examples
from test_docs_site import blocks, commands, shell

pytestmark = pytest.mark.slow  # not in the README's quick run: it starts engine processes, real and fake


def _find(name: str) -> str | None:
    found = shutil.which(name)
    if found is None and os.access(f"/usr/games/{name}", os.X_OK):
        found = f"/usr/games/{name}"
    return found


STOCKFISH = _find("stockfish")
FAIRY = _find("fairy-stockfish")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish is not installed "
                                     "(.ci/run installs it with apt)")
needs_fairy = pytest.mark.skipif(FAIRY is None, reason="Debian's fairy-stockfish is not installed "
                                 "(.ci/run installs it with apt)")

FAKE = str(Path(__file__).with_name("fake_engine.py"))


@pytest.fixture(scope="module")
def fake() -> str:
    return FAKE


def _gone(pid: int) -> bool:
    """Whether the process is gone: reaped (not a zombie), so its id is no longer ours."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
    else:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    status = Path(f"/proc/{pid}/status")
    return not status.exists() or "zombie" not in status.read_text()


@pytest.fixture
def no_leaks() -> Iterator[None]:
    """No thread and no file descriptor is left behind by the test."""
    threads = threading.active_count()
    fds = set(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else set()
    yield
    assert threading.active_count() == threads
    if fds:
        left = set(os.listdir("/proc/self/fd")) - fds
        assert not left, [os.readlink(f"/proc/self/fd/{fd}") for fd in left
                          if os.path.exists(f"/proc/self/fd/{fd}")]


# --- the protocol's values -----------------------------------------------------------------------
def test_limits_and_scores() -> None:
    assert str(Limit(depth=3, nodes=10)) == "depth 3 nodes 10"
    with pytest.raises(GGNError, match="needs a limit"):
        Limit()
    with pytest.raises(GGNError, match="depth is from 1"):
        Limit(depth=0)
    with pytest.raises(TypeError):
        Limit(depth="3")  # type: ignore[arg-type]
    assert Score(cp=-40).to_json() == {"cp": -40} and str(Score(mate=0)) == "#0"
    with pytest.raises(GGNError):
        Score(cp=1, mate=1)


@pytest.mark.parametrize(
    ("move", "protocol", "shape", "written"),
    [("c3c4", "usi", (9, 9), "7g7f"), ("P@e5", "usi", (9, 9), "P*5e"), ("b2h8+", "usi", (9, 9), "8h2b+"),
     ("a1a2", "usi", (5, 5), "5e5d"), ("h3e3", "ucci", (9, 10), "h2e2"), ("a10a9", "ucci", (9, 10), "a9a8"),
     ("e7e8q", "uci", (8, 8), "e7e8q"), ("a10a9", "uci", (9, 10), "a10a9"), ("e2e4", "ucci", (8, 8), "e2e4")],
)
def test_moves_in_each_protocol(move: str, protocol: str, shape: tuple[int, int], written: str) -> None:
    assert to_engine(move, protocol, *shape) == written  # type: ignore[arg-type]
    assert from_engine(written, protocol, *shape) == move  # type: ignore[arg-type]


def test_python_shogi_reads_the_usi_of_every_legal_move() -> None:
    shogi = pytest.importorskip("shogi")
    rules = rule_system("shogi")
    variant = registry.variant("shogi")
    rng = random.Random(17)
    position = rules.position()
    board = shogi.Board()
    for _ in range(60):
        ours = {to_engine(uci.write(variant, play), "usi", 9, 9) for play in rules.legal_moves(position)}
        assert ours == {move.usi() for move in board.legal_moves}
        play = rng.choice(rules.legal_moves(position))
        board.push_usi(to_engine(uci.write(variant, play), "usi", 9, 9))
        position = rules.play(position, play)
        if not ours:
            break


# --- real engines -----------------------------------------------------------------------------------
@needs_stockfish
def test_a_game_of_chess_against_stockfish_ends_in_mate(no_leaks: None) -> None:
    chess = pytest.importorskip("chess")
    rules = rule_system("chess")
    rng = random.Random(2024)
    position = rules.position()
    board = chess.Board()
    plays: list[Play] = []
    assert STOCKFISH is not None
    with Engine(STOCKFISH, options={"Threads": 1, "Hash": 16}) as engine:
        engine.new_game()
        for ply in range(300):
            if rules.outcome(position) is not None:
                break
            if ply % 2 == 0:  # Stockfish, on the whole game's moves
                analysis = engine.analyse(rules, None, plays, limit=Limit(nodes=3000))
                assert analysis.bestmove is not None and analysis.position == position
                play = analysis.bestmove
                assert chess.Move.from_uci(analysis.uci) in board.legal_moves
            else:  # a player of random moves
                play = rng.choice(rules.legal_moves(position))
            board.push_uci(uci.write(registry.variant("chess"), play, position=position))
            position = rules.play(position, play)
            plays.append(play)
        pid = engine.pid
    outcome = rules.outcome(position)
    assert outcome is not None and outcome.ending.value == "checkmate" and outcome.winner == "first"
    assert board.is_checkmate() and board.turn == chess.BLACK
    assert _gone(pid)


@needs_stockfish
def test_stockfish_plays_chess_only(no_leaks: None) -> None:
    assert STOCKFISH is not None
    with Engine(STOCKFISH) as engine, pytest.raises(
            EngineError, match="has no UCI_Variant option: it plays chess only, not 'shogi'"):
        engine.analyse(rule_system("shogi"), limit=Limit(depth=1))
    assert engine.closed


@needs_stockfish
def test_a_finished_game_has_no_best_move_and_a_mate_score() -> None:
    rules = rule_system("chess")
    assert STOCKFISH is not None
    mated = rules.position(registry.entry("chess").to_feen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"))
    with Engine(STOCKFISH) as engine:
        stalemate = engine.analyse(rules, mated, limit=Limit(depth=3))
        assert stalemate.bestmove is None and stalemate.score == Score(cp=0)
        mate_in_one = rules.position(registry.entry("chess").to_feen("7k/8/5QK1/8/8/8/8/8 w - - 0 1"))
        analysis = engine.analyse(rules, mate_in_one, limit=Limit(depth=5))
        assert analysis.score == Score(mate=1)
        after = rules.play(mate_in_one, analysis.bestmove)  # type: ignore[arg-type]
        assert rules.outcome(after) is not None and rules.outcome(after).ending.value == "checkmate"  # type: ignore[union-attr]


TINY_INI = """\
# A chess of six ranks: no double steps, promotion on the last rank.
[sixranks:chess]
maxRank = 6
startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
doubleStep = false
promotionRank = 6
"""


@needs_fairy
def test_a_game_of_an_ini_variant_against_fairy_stockfish(no_leaks: None) -> None:
    pyffish = pytest.importorskip("pyffish")
    pyffish.load_variant_config(TINY_INI)
    catalogue = Catalogue()
    catalogue.add_ini(TINY_INI, "tiny.ini")
    rules = catalogue.rules("sixranks")
    variant = catalogue.variant("sixranks")
    start = pyffish.start_fen("sixranks")
    assert from_feen(variant, rules.position()) == start
    rng = random.Random(6)
    position = rules.position()
    moves: list[str] = []
    assert FAIRY is not None
    with Engine(FAIRY) as engine:
        engine.load_variants(TINY_INI)
        (path,) = engine._paths
        assert os.stat(path).st_mode & 0o077 == 0  # private
        for ply in range(300):
            if rules.outcome(position) is not None:
                break
            legal = pyffish.legal_moves("sixranks", start, moves)
            if ply % 2 == 0:
                analysis = engine.analyse(rules, None, _replay(rules, moves),
                                          limit=Limit(nodes=2000))
                assert analysis.bestmove is not None
                move = analysis.uci
                assert move in legal
            else:
                move = rng.choice(legal)
            assert move is not None
            position = rules.play(position, uci.parse(rules, position, move))
            moves.append(move)
    assert not os.path.exists(path)
    outcome = rules.outcome(position)
    assert outcome is not None and outcome.winner == "first", (outcome, moves)
    assert pyffish.legal_moves("sixranks", start, moves) == []
    assert pyffish.game_result("sixranks", start, moves) < 0  # the side to move (second) lost


def _replay(rules: RuleSystem, moves: list[str]) -> list[Play]:
    position = rules.position()
    plays: list[Play] = []
    for move in moves:
        play = uci.parse(rules, position, move)
        plays.append(play)
        position = rules.play(position, play)
    return plays


@needs_fairy
def test_a_game_of_shogi_over_usi_to_its_end(no_leaks: None) -> None:
    shogi = pytest.importorskip("shogi")
    rng = random.Random(9)
    board = shogi.Board()
    game = Game("shogi")
    assert FAIRY is not None
    with Engine(FAIRY, protocol="usi") as engine:
        assert engine.protocol == "usi"
        for ply in range(400):
            if game.outcome() is not None:
                break
            if ply % 2 == 0:  # Fairy-Stockfish, given the whole game (SFEN and USI moves)
                analysis = engine.analyse(game, limit=Limit(nodes=3000))
                play = analysis.bestmove
                assert play is not None and analysis.uci is not None
                usi = to_engine(analysis.uci, "usi", 9, 9)
                assert shogi.Move.from_usi(usi) in board.legal_moves, (usi, board.sfen())
                assert len(analysis.pv) == len(analysis.pv_uci) >= 1
            else:
                play = rng.choice(game.legal_moves())
            board.push_usi(to_engine(uci.write(registry.variant("shogi"), play), "usi", 9, 9))
            game.push(play)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "first", (outcome, len(game))
    assert board.is_checkmate()  # python-shogi says so too
    assert from_feen(registry.variant("shogi"), game.position).split("[")[0] == board.sfen().split(" ")[0]


@needs_fairy
def test_a_game_of_xiangqi_over_ucci_to_its_end(no_leaks: None) -> None:
    pyffish = pytest.importorskip("pyffish")
    rng = random.Random(10)
    start = pyffish.start_fen("xiangqi")
    moves: list[str] = []
    game = Game("xiangqi")
    assert FAIRY is not None
    with Engine(FAIRY, protocol="ucci") as engine:
        for ply in range(400):
            legal = pyffish.legal_moves("xiangqi", start, moves)
            if game.outcome() is not None:
                break
            if ply % 2 == 0:
                analysis = engine.analyse(game, limit=Limit(nodes=3000))
                move = analysis.uci
                assert move in legal
            else:
                move = rng.choice(legal)
            assert move is not None
            game.push(move)
            moves.append(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "first", (outcome, len(game))
    assert pyffish.legal_moves("xiangqi", start, moves) == []
    assert pyffish.game_result("xiangqi", start, moves) < 0  # the side to move (second) lost
    fen = pyffish.get_fen("xiangqi", start, moves).split(" ")
    assert game.fen().split(" ")[:4] == fen[:4]


@needs_fairy
def test_an_engine_killed_mid_search_is_a_clear_error_and_reaped(no_leaks: None) -> None:
    assert FAIRY is not None
    engine = Engine(FAIRY)
    engine.position(None, ["e2e4"])
    engine.begin(Limit(depth=60))
    time.sleep(0.3)
    pid = engine.pid
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(EngineError) as caught:
        engine.wait(timeout=30)
    assert "was killed (killed by SIGKILL)" in str(caught.value)
    assert caught.value.status == -signal.SIGKILL and caught.value.engine == FAIRY
    assert engine.closed and _gone(pid)
    with pytest.raises(EngineError, match="has ended"):
        engine.position(None)
    engine.quit()  # again: nothing to do


@needs_fairy
def test_a_search_stopped_gives_its_best_move(no_leaks: None) -> None:
    assert FAIRY is not None
    with Engine(FAIRY) as engine:
        engine.position(None)
        engine.begin(Limit(depth=60))
        time.sleep(0.2)
        search = engine.stop()
        assert search.stopped and search.bestmove is not None
        engine.position(None)
        timed = engine.go(Limit(depth=60), timeout=0.3)
        assert timed.stopped and timed.bestmove is not None and timed.info.depth is not None
        engine.is_ready()


@needs_fairy
def test_options_and_variants_are_checked(no_leaks: None) -> None:
    assert FAIRY is not None
    with Engine(FAIRY, options={"Hash": 8}) as engine:
        assert engine.options["UCI_Variant"].type == "combo"
        with pytest.raises(GGNError, match="has no option 'Nonsense'"):
            engine.setoption("Nonsense", 1)
        with pytest.raises(GGNError, match="takes a number from 1 to"):
            engine.setoption("Hash", 0)
        with pytest.raises(EngineError, match="does not know the variant 'torpedo'"):
            engine.analyse(rule_system("torpedo"), limit=Limit(depth=1))
        # Refused before anything was sent: the engine goes on.
        assert engine.analyse(rule_system("makruk"), limit=Limit(depth=2)).bestmove is not None


@needs_fairy
def test_the_process_is_reaped_when_the_engine_is_collected() -> None:
    assert FAIRY is not None
    engine = Engine(FAIRY)
    pid = engine.pid
    del engine
    gc.collect()
    assert _gone(pid)


# --- fake engines --------------------------------------------------------------------------------
def _fake(fake: str, mode: str) -> list[str]:
    return [sys.executable, fake, mode]


def test_a_fake_engine_that_answers(fake: str, no_leaks: None) -> None:
    with Engine(_fake(fake, "good")) as engine:
        assert engine.name == "Fake good"
        engine.setoption("style", "risky")  # names and combo values are case-insensitive
        engine.position(None)
        infos: list[Info] = []
        search = engine.go(Limit(depth=3), on_info=infos.append)
        assert search.bestmove == "e2e4" and search.ponder == "e7e5" and not search.stopped
        # The garbled line's numbers are passed over; its principal variation is kept; the
        # second line of a multipv search is not the principal one.
        assert search.info == Info(depth=2, score=Score(cp=12), pv=("e2e4", "e7e5", "zz"))
        assert len(infos) == 2
        analysis = engine.analyse(rule_system("chess"), limit=Limit(depth=3))
        assert analysis.uci == "e2e4" and [str(p) for p in analysis.pv] == ["C:P e2-e4", "c:p e7-e5"]
        assert analysis.pv_uci == ("e2e4", "e7e5")  # zz is no move: the variation ends before it


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("silent", r"did not answer 'uci' with 'uciok' within 0.5 s \(it wrote nothing\)"),
        ("garbage", r"wrote 10,000 lines without 'uciok': does it speak UCI\?; its last lines: '\\x00"),
        ("huge", r"wrote a line of more than 1,048,576 bytes \(it starts 'xxxx"),
        ("exit", r"exited \(status 3\) while ggn waited for it to answer 'uci' with 'uciok'; its "
                 r"standard error: fake: cannot load my network"),
        ("unread", r"did not answer 'uci' with 'uciok' within 0.5 s"),
    ],
)
def test_a_fake_engine_that_fails_its_handshake(fake: str, mode: str, message: str, no_leaks: None) -> None:
    with pytest.raises(EngineError, match=message) as caught:
        # Half a second where the engine is to time out; else time enough for Python to start
        # on a busy machine.
        Engine(_fake(fake, mode), timeout=0.5 if mode in ("silent", "unread") else 30)
    assert caught.value.engine == f"{sys.executable} {fake} {mode}"


def test_a_fake_engine_that_hangs_in_a_search(fake: str, no_leaks: None) -> None:
    engine = Engine(_fake(fake, "hang"))
    engine.timeout = 0.5  # once it has started: a wait for an answer, from now on
    pid = engine.pid
    engine.position(None)
    with pytest.raises(EngineError, match=r"did not give its best move within 0.5 s of being told to stop "
                                          r"\(after 0.3 s of search\)"):
        engine.go(Limit(depth=5), timeout=0.3)
    assert engine.closed and _gone(pid)


def test_a_fake_engine_that_dies_in_a_search(fake: str, no_leaks: None) -> None:
    with Engine(_fake(fake, "die")) as engine:
        engine.position(None)
        with pytest.raises(EngineError, match=r"exited \(status 5\) during a search") as caught:
            engine.go(Limit(depth=5))
        assert caught.value.status == 5


def test_a_fake_engine_that_names_an_illegal_move(fake: str, no_leaks: None) -> None:
    with Engine(_fake(fake, "illegal")) as engine, pytest.raises(
            EngineError, match="gave a best move that is not one in UCI: 'z9z9'"):
        engine.analyse(rule_system("chess"), limit=Limit(depth=1))


def test_a_fake_engine_that_will_not_quit_is_killed(fake: str, no_leaks: None) -> None:
    engine = Engine(_fake(fake, "stubborn"))
    pid = engine.pid
    started = time.monotonic()
    status = engine.quit(grace=0.3)
    assert status == -signal.SIGKILL and time.monotonic() - started < 5
    assert _gone(pid)


@needs_stockfish
def test_the_wrong_protocol_is_told_at_once(no_leaks: None) -> None:
    assert STOCKFISH is not None
    with pytest.raises(EngineError, match=r"does not speak USI: it answered isready without answering "
                                          r"'usi' with 'usiok'; its last lines: .*Unknown command"):
        Engine(STOCKFISH, protocol="usi", timeout=30)


def test_a_program_that_is_not_there_or_not_executable(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="no such program"):
        Engine(str(tmp_path / "nothing"))
    text = tmp_path / "text"
    text.write_text("hello")
    with pytest.raises(EngineError, match="permission denied"):
        Engine(str(text))
    text.chmod(0o755)
    with pytest.raises(EngineError, match="exec format error"):
        Engine(str(text))


def test_commands_with_line_breaks_are_refused(fake: str) -> None:
    with Engine(_fake(fake, "good")) as engine:
        with pytest.raises(GGNError, match="one word"):
            engine.position(None, ["e2e4\nquit"])
        with pytest.raises(GGNError, match="no line break"):
            engine.position("8/8/8/8/8/8/8/8 w - - 0 1\ngo infinite")
        engine.is_ready()


# --- wrong Python types are TypeErrors (as tests/test_hostile_types.py checks the rest) -----------
def _type_calls(engine: Engine) -> dict[str, tuple[object, tuple[object, ...], dict[str, object]]]:
    """Each public callable of ggn.engine, with valid arguments."""
    rules = rule_system("chess")
    play = rules.legal_moves(rules.position())[0]
    option = engine.options["Hash"]
    return {
        "Engine": (Engine, (["true"],), {"protocol": "uci", "timeout": 1.0, "options": {}, "cwd": "/"}),
        "Engine.setoption": (engine.setoption, ("Hash", 8), {}),
        "Engine.set_variant": (engine.set_variant, ("chess",), {}),
        "Engine.load_variants": (engine.load_variants, (TINY_INI,), {}),
        "Engine.position": (engine.position, (None, ["e2e4"]), {}),
        "Engine.begin": (engine.begin, (Limit(depth=1),), {}),
        "Engine.go": (engine.go, (Limit(depth=1),), {"timeout": 5.0, "on_info": print}),
        "Engine.wait": (engine.wait, (), {"timeout": 5.0, "on_info": print}),
        "Engine.analyse": (engine.analyse, (rules, None, [play]),
                           {"limit": Limit(depth=1), "halfmove": 0, "fullmove": 1, "timeout": 5.0}),
        "Engine.quit": (engine.quit, (1.0,), {}),
        "Limit": (Limit, (1, 2, 3), {}),
        "Score": (Score, (1, None), {}),
        "Info": (Info, (1, 1, Score(cp=1), ("e2e4",), 1, 1), {}),
        "Option": (Option, ("Hash", "spin", "16", 1, 64, ()), {}),
        "Option.value": (option.value, (8,), {}),
        "Search": (Search, ("e2e4", None, Info(), False, "e2e4"), {}),
        "Analysis": (Analysis, (play, "e2e4", Score(cp=1), (play,), ("e2e4",), rules.position(),
                                1, 1, 1, False), {}),
        "from_engine": (from_engine, ("e2e4", "uci", 8, 8), {}),
        "to_engine": (to_engine, ("e2e4", "uci", 8, 8), {}),
    }


def _wrong(value: object) -> list[object]:
    wrong: list[object] = [object()]
    if isinstance(value, str):
        wrong.append(5)
    elif isinstance(value, int) and not isinstance(value, bool):
        wrong.append("5")
    return wrong


TYPE_FREE = {("Engine.setoption", 1), ("Option.value", 0), ("Score", 1), ("Info", 2)}
"""Arguments that take several types, where the wrong ones below are still wrong: none left out
but a value of str and int alike (an option's value)."""


def test_a_wrong_type_is_a_type_error_naming_the_argument(fake: str) -> None:
    with Engine(_fake(fake, "good")) as engine:
        calls = _type_calls(engine)
        failed = []
        for label, (function, args, kwargs) in calls.items():
            places: list[int | str] = [*range(len(args)), *kwargs]
            for place in places:
                value = args[place] if isinstance(place, int) else kwargs[place]
                if value is None:
                    continue
                for wrong in _wrong(value):
                    if isinstance(wrong, (str, int)) and (label, place) in TYPE_FREE:
                        continue
                    given = list(args)
                    changed = dict(kwargs)
                    if isinstance(place, int):
                        given[place] = wrong
                    else:
                        changed[place] = wrong
                    try:
                        function(*given, **changed)  # type: ignore[operator]
                    except TypeError:
                        continue
                    except Exception as error:  # noqa: BLE001  (each one listed)
                        failed.append(f"{label}[{place}]={type(wrong).__name__}: "
                                      f"{type(error).__name__}: {error}")
                    else:
                        failed.append(f"{label}[{place}]={type(wrong).__name__}: no error")
        assert not failed, "\n".join(failed)
        assert not engine.closed  # a wrong type is refused before anything is sent
        covered = set(calls)
    public = set()
    for name in ggn.engine.__all__:
        value = getattr(ggn.engine, name)
        if isinstance(value, type) and not issubclass(value, BaseException):
            public.add(name)
            public.update(f"{name}.{attribute}" for attribute, member in vars(value).items()
                          if not attribute.startswith("_") and callable(member)
                          and [p for p in inspect.signature(member).parameters if p != "self"])
        elif inspect.isfunction(value):
            public.add(name)
    assert public <= covered, sorted(public - covered)


# --- ggn analyse ---------------------------------------------------------------------------------------
def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO())
    return status, out.getvalue(), err.getvalue()


@needs_stockfish
def test_analyse_chess_with_stockfish() -> None:
    chess = pytest.importorskip("chess")
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert STOCKFISH is not None
    status, out, err = _run("analyse", "chess", "--fen", fen, "--engine", STOCKFISH, "--nodes", "20000",
                            "--format", "json")
    assert status == 0, err
    value = json.loads(out)
    assert value["fen"] == fen and value["game"] == "chess" and value["engine"].startswith("Stockfish")
    board = chess.Board(fen)
    assert chess.Move.from_uci(value["bestmove"]) in board.legal_moves
    assert value["pv"][0] == value["bestmove"] and len(value["pv"]) >= 2
    for move in value["pv"]:  # the whole variation is legal, as python-chess plays it
        board.push_uci(move)
    assert set(value["score"]) == {"cp"} and isinstance(value["score"]["cp"], int)
    assert value["move"].startswith("C:") and value["stopped"] is False and value["nodes"] >= 20000
    # The same search again gives the same answer: nodes and one thread are repeatable.
    assert json.loads(_run("analyse", "chess", "--fen", fen, "--engine", STOCKFISH, "--nodes", "20000",
                           "--format", "json")[1]) == value
    status, text, _ = _run("analyse", "chess", "--fen", fen, "--engine", STOCKFISH, "--nodes", "20000")
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith("best move: ") and value["bestmove"] in lines[0]
    assert lines[1].startswith("score: ") and "centipawns, for the side to move" in lines[1]
    assert lines[-1].endswith(value["engine"]) and f"{value['nodes']:,} nodes" in lines[-1]


@needs_stockfish
def test_analyse_a_finished_game_and_a_mate() -> None:
    assert STOCKFISH is not None
    status, out, _ = _run("analyse", "chess", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "--engine",
                          STOCKFISH, "--depth", "3", "--format", "json")
    value = json.loads(out)
    assert status == 0 and value["bestmove"] is None and value["pv"] == [] and value["score"] == {"cp": 0}
    status, out, _ = _run("analyse", "chess", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "--engine",
                          STOCKFISH, "--depth", "3")
    assert out.splitlines()[0] == "best move: none (draw by stalemate)"
    status, out, _ = _run("analyse", "chess", "--fen", "7k/8/5QK1/8/8/8/8/8 w - - 0 1", "--engine",
                          STOCKFISH, "--depth", "5", "--format", "json")
    assert json.loads(out)["score"] == {"mate": 1}


@needs_fairy
def test_analyse_an_ini_variant_with_fairy_stockfish(tmp_path: Path) -> None:
    pyffish = pytest.importorskip("pyffish")
    pyffish.load_variant_config(TINY_INI)
    ini = tmp_path / "tiny.ini"
    ini.write_text(TINY_INI)
    assert FAIRY is not None
    status, out, err = _run("analyse", "sixranks", "--ini", str(ini), "--engine", FAIRY, "--nodes", "5000",
                            "--format", "json")
    assert status == 0, err
    value = json.loads(out)
    start = pyffish.start_fen("sixranks")
    assert value["fen"] == start
    assert value["bestmove"] in pyffish.legal_moves("sixranks", start, [])
    moves: list[str] = []
    for move in value["pv"]:
        assert move in pyffish.legal_moves("sixranks", start, moves)
        moves.append(move)


@needs_fairy
def test_analyse_shogi_over_usi_and_xiangqi_over_ucci() -> None:
    shogi = pytest.importorskip("shogi")
    assert FAIRY is not None
    status, out, err = _run("analyse", "shogi", "--engine", FAIRY, "--protocol", "usi", "--depth", "5",
                            "--format", "json")
    assert status == 0, err
    value = json.loads(out)
    board = shogi.Board()
    for move in value["pv"]:  # UCI strings of Fairy-Stockfish, read back from USI
        usi = to_engine(move, "usi", 9, 9)
        assert shogi.Move.from_usi(usi) in board.legal_moves
        board.push_usi(usi)
    pyffish = pytest.importorskip("pyffish")
    status, out, err = _run("analyse", "xiangqi", "--engine", FAIRY, "--protocol", "ucci", "--depth", "5",
                            "--format", "json")
    assert status == 0, err
    value = json.loads(out)
    start = pyffish.start_fen("xiangqi")
    assert value["bestmove"] in pyffish.legal_moves("xiangqi", start, [])


def test_analyse_says_what_is_wrong_with_the_engine(tmp_path: Path) -> None:
    assert _run("analyse", "chess", "--engine", str(tmp_path / "none"))[::2] == (
        2, f"ggn analyse: --engine {str(tmp_path / 'none')!r}: no such program; Debian's packages "
           "fairy-stockfish and stockfish install engines in /usr/games\n")
    assert _run("analyse", "chess", "--engine", "no-such-engine-here")[2].startswith(
        "ggn analyse: --engine 'no-such-engine-here': no such program (looked for on PATH and in /usr/games)")
    text = tmp_path / "text"
    text.write_text("hello")
    assert _run("analyse", "chess", "--engine", str(text))[::2] == (
        2, f"ggn analyse: --engine {str(text)!r}: not an executable file\n")
    assert _run("analyse", "chess", "--engine", str(tmp_path))[0] == 2
    exit_mode = tmp_path / "exit"
    exit_mode.symlink_to(FAKE)
    status, _, err = _run("analyse", "chess", "--engine", str(exit_mode))
    assert status == 1
    assert err == (f"ggn analyse: {exit_mode}: exited (status 3) while ggn waited for it to answer 'uci' "
                   "with 'uciok'; its standard error: fake: cannot load my network\n")
    illegal = tmp_path / "illegal"
    illegal.symlink_to(FAKE)
    status, _, err = _run("analyse", "chess", "--engine", str(illegal), "--depth", "1")
    assert (status, err) == (1, f"ggn analyse: {illegal}: gave a best move that is not one in UCI: 'z9z9'\n")
    status, _, err = _run("analyse", "chess", "--engine", FAKE, "--option", "Nope=1")
    assert status == 1 and err.startswith("ggn analyse: Fake good has no option 'Nope'; it has: Hash, Style")
    status, _, err = _run("analyse", "shogi", "--engine", FAKE)
    assert status == 1 and "has no UCI_Variant option: it plays chess only, not 'shogi'" in err
    assert _run("analyse", "chess", "--engine", FAKE, "--depth", "1", "--nodes", "2")[0] == 2
    assert _run("analyse", "chess", "--engine", FAKE, "--timeout", "nan")[0] == 2


@needs_stockfish
def test_analyse_with_the_wrong_protocol() -> None:
    assert STOCKFISH is not None
    status, _, err = _run("analyse", "chess", "--engine", STOCKFISH, "--protocol", "usi")
    assert status == 1
    assert err.startswith(f"ggn analyse: {STOCKFISH}: does not speak USI: it answered isready without "
                          "answering 'usi' with 'usiok'")


def test_analyse_after_moves_given_in_any_notation() -> None:
    after = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"
    for argv in (["chess", "g1f3", "c:n g8-f6", "--engine", FAKE],
                 ["chess", "--engine", FAKE, "g1f3", "g8f6"],
                 ["chess", "--fen", chess_start(), "--engine", FAKE, "g1f3", "g8f6"]):
        status, out, err = _run("analyse", *argv, "--depth", "1", "--format", "json")
        assert status == 0, err
        value = json.loads(out)
        assert value["fen"] == after and value["bestmove"] == "e2e4"  # the fake's answer, whatever is asked
    status, _, err = _run("analyse", "chess", "e2e5", "--engine", FAKE)
    assert status == 1
    assert err.startswith("ggn analyse: 'e2e5' is not a legal move at ply 0 of this chess game")
    feen = registry.start("chess")
    status, _, err = _run("analyse", "chess", feen, "--feen", feen, "--engine", FAKE)
    assert status == 2 and "give the FEEN once" in err


def chess_start() -> str:
    return registry.entry("chess").fen


def test_usi_positions_go_as_sfen_where_sfen_holds_them() -> None:
    shogi = pytest.importorskip("shogi")
    game = Game("shogi")
    board = shogi.Board()
    for move in ["c3c4", "g7g6", "b2h8+", "g9h8", "B@e5"]:
        game.push(move)
        board.push_usi(to_engine(move, "usi", 9, 9))
    command = position_command("usi", game.fen(0), ("7g7f",))
    start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert command == f"position sfen {start} moves 7g7f"
    sfen = position_command("usi", game.fen(), ()).removeprefix("position sfen ")
    assert sfen.split(" ") == board.sfen().split(" ")  # placement, side, hands, ply: python-shogi's
    assert position_command("usi", registry.entry("chess").fen, ()).startswith("position fen ")


ENGINES_PAGE = Path(__file__).parent.parent / "docs" / "engines.md"


DEBIAN_ENGINES = all(os.access(f"/usr/games/{name}", os.X_OK) for name in ("stockfish", "fairy-stockfish"))


@pytest.mark.skipif(not DEBIAN_ENGINES,
                    reason="docs/engines.md runs Debian's stockfish and fairy-stockfish from /usr/games "
                           "(.ci/run installs them)")
def test_the_engines_page_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/engines.md, as tests/test_docs_pages.py runs the other guide pages: a titled block is
    saved under its name, each console command must print the lines shown, the python blocks
    run as one session; sh blocks (the explorer, which serves until stopped) are not run."""
    monkeypatch.chdir(tmp_path)
    session: dict[str, object] = {}
    ran = 0
    for block in blocks(ENGINES_PAGE):
        where = f"engines.md:{block.line}"
        if block.title:
            (tmp_path / block.title).write_text(block.body, encoding="utf-8")
        elif block.language == "console":
            for command, expected in commands(block.body):
                assert shell(command, where) == expected, f"{where}: {command}"
                ran += 1
        elif block.language == "python":
            assert run_examples(block.body, where, ENGINES_PAGE, session, block.line) == 0, where
            ran += 1
        else:
            assert block.language == "sh", f"{where}: a {block.language} block the test does not run"
    assert ran >= 10


def test_info_lines_in_each_protocol() -> None:
    line = "info depth 7 seldepth 9 multipv 1 score mate 3 nodes 1200 time 5 pv 7g7f 3c3d 8h2b+"
    assert parse_info(line, "usi") == ({"depth": 7, "seldepth": 9, "multipv": 1, "nodes": 1200, "time": 5},
                                       Score(mate=2), ("7g7f", "3c3d", "8h2b+"))  # 3 plies: 2 moves
    assert parse_info(line, "uci")[1] == Score(mate=3)
    assert parse_info("info score mate -4 pv a", "usi")[1] == Score(mate=-2)
    bounded = parse_info("info score cp 15 upperbound depth 3", "uci")
    assert bounded[:2] == ({"depth": 3}, Score(cp=15, bound="upper"))
    assert parse_info("info string depth 5 score cp 1", "uci") == ({}, None, None)
    assert parse_info("info depth " + "9" * 30 + " score cp x", "uci") == ({}, None, None)


@needs_stockfish
def test_chess960_with_stockfish() -> None:
    chess = pytest.importorskip("chess")
    rules = rule_system("fischerandom")
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"  # castling possible
    board = chess.Board(fen, chess960=True)
    start = rules.position(registry.entry("fischerandom").to_feen(fen))
    assert STOCKFISH is not None
    with Engine(STOCKFISH) as engine:
        analysis = engine.analyse(rules, start, limit=Limit(depth=10), halfmove=2, fullmove=9)
        assert engine.options["UCI_Chess960"].type == "check"
    assert chess.Move.from_uci(analysis.uci) in board.legal_moves
    for move in analysis.pv_uci:  # king-takes-rook castling, as python-chess reads chess960
        board.push_uci(move)
    assert len(analysis.pv) == len(analysis.pv_uci)


def test_analyse_with_an_engine_that_hangs_in_its_search(tmp_path: Path) -> None:
    hang = tmp_path / "hang"
    hang.symlink_to(FAKE)
    started = time.monotonic()
    status, out, err = _run("analyse", "chess", "--engine", str(hang), "--depth", "5", "--timeout", "0.5")
    assert (status, out) == (1, "")
    assert err.startswith(f"ggn analyse: {hang}: did not give its best move within 10 s of being told to "
                          "stop (after 0.5 s of search); its last lines: ")
    assert time.monotonic() - started < 60


# Games whose rules Debian's Fairy-Stockfish 11.1 plays otherwise than pyffish 0.0.90 (which
# ggn agrees with, tests/test_variants_fsf.py): dobutsu's engine answered ggn's game with a move
# from an empty square ('c3b3' in 'g1e/1C1/1lG/EL1', the chick in hand to drop).
_OLDER_RULES = frozenset({"dobutsu"})


def _sweep(plies: int) -> tuple[int, int, list[str]]:
    """Every built-in game Fairy-Stockfish knows by name, played ``plies`` plies from its start:
    the engine's move (by 500 nodes) in turn with a random one; each best move must be legal under
    ggn's rules (else an EngineError), and its principal variation too, move by move, as far as
    ggn's game goes on. Returns the games played, the engine's moves, and the variations cut."""
    assert FAIRY is not None
    with Engine(FAIRY) as engine:
        known = set(engine.options["UCI_Variant"].vars)
    games = moves = 0
    cut: list[str] = []
    for name in registry.names():
        if name not in known or name in _OLDER_RULES:
            continue
        rng = random.Random(name)
        game = Game(name)
        with Engine(FAIRY) as engine:
            for ply in range(plies):
                if game.outcome() is not None or not game.legal_moves():
                    break
                if ply % 2 == 0:
                    analysis = engine.analyse(game, limit=Limit(nodes=500))
                    assert analysis.bestmove is not None, (name, game.fen())
                    moves += 1
                    if len(analysis.pv) < len(analysis.pv_uci):
                        cut.append(f"{name} at ply {ply}: {' '.join(analysis.pv_uci)}")
                    game.push(analysis.bestmove)
                else:
                    game.push(rng.choice(game.legal_moves()))
        games += 1
    return games, moves, cut


@needs_fairy
@pytest.mark.parametrize("plies", [pytest.param(8, id="8"),
                                   pytest.param(60, id="60", marks=pytest.mark.full)])
def test_fairy_stockfish_plays_every_game_it_knows_by_ggns_rules(plies: int) -> None:
    games, moves, cut = _sweep(plies)
    assert games >= 50 and moves >= games * 3
    # Where ggn's game has ended the engine's variation may go on (racing kings: a king on the
    # last rank ends it at once in ggn, while Fairy-Stockfish 11.1 searches on): a variation is
    # kept as plays only as far as ggn plays it, and no more than a few are cut short.
    assert len(cut) <= 3, cut


def test_a_side_that_has_lost_its_last_pawn_in_kinglet_has_lost_after_captures_too() -> None:
    """Found by the sweep above (Fairy-Stockfish said no move where ggn played on): a piece
    taken in a game without drops waits in the taker's hand, the opponent's still, and was
    counted as the taker's own; pyffish is the oracle."""
    pyffish = pytest.importorskip("pyffish")
    rules = rule_system("kinglet")
    entry = registry.entry("kinglet")
    fen = "4k3/8/8/8/8/2p5/1P5P/K7 b - - 0 1"
    moves = ["c3b2", "a1b2"]  # black takes a pawn (in black's hand, white's still), then loses its last
    start = rules.position(entry.to_feen(fen))
    position = rules.play(start, uci.parse(rules, start, "c3b2"))
    assert rules.outcome(position) is None and pyffish.legal_moves("kinglet", fen, moves[:1]) != []
    position = rules.play(position, uci.parse(rules, position, "a1b2"))
    assert pyffish.is_immediate_game_end("kinglet", fen, moves)[0]
    assert pyffish.game_result("kinglet", fen, moves) < 0  # the side to move, black, has lost
    outcome = rules.outcome(position)
    assert outcome is not None and outcome.winner == "first" and outcome.ending.value == "extinction"
