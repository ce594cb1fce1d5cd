"""Games that count checks (Fairy-Stockfish's ``checkCounting``: 3check, 5check, checkshogi),
against pyffish: the checks left read from and written to its FEN in every form it reads, the
end when a player has given its last check, the mate sign of that check, and what a position
alone (FEEN) says of them. The random games, the recorded endings and perft of these games are
tests/test_variants_fsf.py's, with every built-in game."""

from __future__ import annotations

import io
import json
import random

import pytest

from ggn.cli import run
from ggn.errors import NotationError
from ggn.game import Game
from ggn.records import pgn, replay
from ggn.rules import Ending
from ggn.variants import registry
from ggn.variants.uci import moves

sf = pytest.importorskip("pyffish")

AFTER_F6 = "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - {} 0 2"

# FENs in each form Fairy-Stockfish reads: the field of checks left, lichess's checks given
# after the counters (which wins over the field), no count (1+1), a FEN without castling and
# en passant fields.
READ = [
    ("3check", AFTER_F6.format("3+3")),
    ("3check", AFTER_F6.format("1+2")),
    ("3check", AFTER_F6.format("0+3")),
    ("3check", "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
    ("3check", "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+2"),
    ("3check", AFTER_F6.format("3+3") + " +2+0"),
    ("3check", "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w 2+3 0 2"),
    ("5check", AFTER_F6.format("5+4")),
    ("5check", "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0"),
    ("checkshogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"),
    ("checkshogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 1+1 3 1"),
]


@pytest.mark.parametrize(("name", "fen"), READ)
def test_the_checks_left_are_read_and_written_as_pyffish_does(name: str, fen: str) -> None:
    game = Game(name, fen=fen)
    assert game.fen() == sf.get_fen(name, fen, [])
    for move in ("d1h5", "g1f3") if name != "checkshogi" else ("c3c4", "b2c3"):
        if move in sf.legal_moves(name, game.fen(), []):
            played = Game(name, fen=fen)
            played.push(move)
            assert played.fen() == sf.get_fen(name, fen, [move])
            ended, value = sf.is_immediate_game_end(name, fen, [move])
            outcome = played.outcome()
            assert (outcome is not None and outcome.ending is Ending.CHECKS) == ended
            if ended:
                assert outcome is not None and outcome.winner == "first" and value < 0
                assert played.legal_moves() == [] == sf.legal_moves(name, fen, [move])


def test_the_last_check_ends_the_game_and_is_a_mate() -> None:
    fen = AFTER_F6.format("1+3")
    game = Game("3check", fen=fen)
    game.push("Qh5")
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.ending) == ("first", Ending.CHECKS)
    assert sf.is_immediate_game_end("3check", fen, ["d1h5"]) == (True, -32000)
    assert game.moves() == [sf.get_san("3check", fen, "d1h5")] == ["Qh5#"]
    assert game.result() == "1-0" and game.legal_moves() == []
    assert game.checks_left == (0, 3)
    # A check that leaves one to give is a check.
    game = Game("3check", fen=AFTER_F6.format("2+3"))
    game.push("Qh5")
    assert game.outcome() is None and game.moves() == ["Qh5+"] and game.checks_left == (1, 3)
    # Fairy-Stockfish asks only of the player who has just moved: none left to the player to
    # move ends nothing yet.
    assert Game("3check", fen=AFTER_F6.format("0+3")).outcome() is None


def test_the_checks_left_count_in_repetition() -> None:
    moves = ["a1a8", "e8e7", "a8a1", "e7e8"] * 2
    for name, fen, claimed in (("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1", False),
                               ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", True)):
        game = Game(name, fen=fen)
        for move in moves:
            game.push(move)
        # The board stood three times; in 3check with the checks left 3+3, 2+3 and 1+3.
        assert (game.claim() is not None) == claimed == sf.is_optional_game_end(name, fen, moves)[0]


def test_a_position_alone_stands_for_the_start_checks() -> None:
    entry = registry.entry("3check")
    start = entry.to_feen(sf.start_fen("3check"))
    assert entry.from_feen(start) == sf.start_fen("3check")
    with pytest.raises(NotationError, match=r"checks left 2\+3, and a position of 3check in FEEN stands for "
                                            r"3\+3.*Game\(\.\.\., fen=\.\.\.\)") as caught:
        entry.to_feen(AFTER_F6.format("2+3"))
    assert caught.value.start == AFTER_F6.index("{}")
    with pytest.raises(NotationError, match=r"no checks left: Fairy-Stockfish reads them as 1\+1"):
        entry.to_feen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(NotationError, match=r"two counts of one digit around '\+'"):
        entry.to_feen(AFTER_F6.format("10+3"))
    with pytest.raises(NotationError, match="chess does not count checks"):
        registry.entry("chess").to_feen(AFTER_F6.format("3+3"))
    # checkshogi's start gives none: its position stands for 1+1.
    shogi = registry.entry("checkshogi")
    assert shogi.from_feen(shogi.start).endswith(" - - 1+1 0 1")
    # The rule system plays positions: it never ends a game by its checks.
    rules = entry.rules
    assert rules.outcome(rules.position(Game("3check", fen=AFTER_F6.format("0+3")).feen())) is None


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_keeps_the_checks() -> None:
    fen = AFTER_F6.format("1+3")
    code, out, _ = _cli("play", "3check", "--fen", fen, "Qh5", "--format", "json")
    answer = json.loads(out)
    assert code == 0 and answer["moves"] == ["Qh5#"] and answer["fen"] == sf.get_fen("3check", fen, ["d1h5"])
    assert answer["outcome"] == {"result": "1-0", "reason": "checks"}
    ended = sf.get_fen("3check", fen, ["d1h5"])
    assert _cli("legal", "3check", "--fen", ended) == (0, "", "")
    code, out, _ = _cli("legal", "3check", "--fen", AFTER_F6.format("2+3"), "--notation", "uci")
    assert code == 0 and set(out.split()) == set(sf.legal_moves("3check", AFTER_F6.format("2+3"), []))
    assert _cli("position", "3check", "--fen", fen, "--to", "fen") == (0, fen + "\n", "")
    code, _, err = _cli("position", "3check", "--fen", fen, "--to", "feen")
    assert code == 1 and "checks left 1+3" in err
    code, _, err = _cli("perft", "3check", "1", "--fen", fen)
    assert code == 1 and "checks left 1+3" in err


def test_pgn_writes_and_reads_three_check_as_lichess_names_it() -> None:
    game = Game("3check", fen=AFTER_F6.format("1+3"))
    game.push("Qh5")
    text = pgn.write(game)
    assert '[Variant "Three-check"]' in text and "2. Qh5# 1-0" in text
    assert f'[FEN "{AFTER_F6.format("1+3")}"]' in text
    (record,) = pgn.read(text)
    again = replay(record)
    assert again.fen() == game.fen() and again.result() == "1-0"
    assert pgn.game_of("Three-check") == "3check" and pgn.game_of("threecheck") == "3check"


@pytest.mark.parametrize("name", ["3check", "5check", "checkshogi", "karouk"])
def test_moves_of_random_games_are_written_as_pyffish_writes_them(name: str) -> None:
    """The plays of seeded random games, in the game's own notation (the last check a mate),
    against pyffish's get_san_moves."""
    for seed in range(2):
        rng = random.Random(f"20261127:san:{seed}:{name}")
        fen = sf.start_fen(name)
        game, played = Game(name, fen=fen), list[str]()
        for _ in range(120):
            legal = sorted(sf.legal_moves(name, fen, played))
            if not legal:
                break
            move = rng.choice(legal)
            played.append(move)
            game.push(moves(game.rules, game.position)[move])
        assert game.moves() == sf.get_san_moves(name, fen, played, False, sf.NOTATION_DEFAULT)
