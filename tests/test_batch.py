"""ggn.batch in this process: a line's answer is the single command's, lines stay in order, a bad
line is its own error, blank lines are skipped and counted, and nothing accumulates."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Iterator

import pytest

from ggn import batch
from ggn.cli import run
from ggn.errors import GGNError
from ggn.parallel import Recipe
from ggn.rules import RuleSystem, rule_system
from ggn.ruleset import Ruleset
from ggn.variants import registry
from support import random_positions

CHESS_START = registry.start("chess")


def call(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert run(list(argv), out, err) == 0, err.getvalue()
    return out.getvalue()


def positions(game: str, count: int, seed: int = 7) -> list[str]:
    """FEEN of positions of seeded random games of ``game``."""
    rules = rule_system(game)
    start = rules.position()
    return random_positions(
        start, lambda _: start, lambda p, _: rules.legal_moves(p),
        lambda p, play: p.apply(play.transition), lambda p: p.to_feen(),
        count=count, seed=seed, plies=40,
    )


@pytest.mark.parametrize("game", ["chess", "shogi", "crazyhouse"])
def test_a_lines_answer_is_what_the_single_commands_write(game: str) -> None:
    lines = positions(game, 6)
    for result, feen in zip(batch.legal(game, lines), lines, strict=True):
        assert result.ok and result.text == feen
        assert f"{result.json}\n" == call("legal", game, feen, "--format", "json")
    for result, feen in zip(batch.legal(game, lines, notation="uci"), lines, strict=True):
        assert f"{result.json}\n" == call("legal", game, feen, "--format", "json", "--notation", "uci")
    for result, feen in zip(batch.moves(game, lines), lines, strict=True):
        assert f"{result.json}\n" == call("moves", game, feen, "--format", "json")


def test_fen_and_feen_lines_give_the_same_answers() -> None:
    entry = registry.entry("chess")
    fens = [entry.from_feen(feen) for feen in positions("chess", 8, seed=3)]
    lines = [entry.to_feen(fen) for fen in fens]  # (FEN drops the marks of a double step no one can take)
    assert [r.json for r in batch.legal("chess", fens)] == [r.json for r in batch.legal("chess", lines)]
    assert [r.json for r in batch.moves("chess", fens)] == [r.json for r in batch.moves("chess", lines)]


def test_bad_lines_are_errors_of_their_own_and_blank_lines_are_skipped() -> None:
    lines = [
        CHESS_START,                      # 1
        "",                               # 2 blank
        "   \t ",                         # 3 blank
        "+rnbq+k^bn+r/pppppppp/8 / C/c",  # 4 FEEN of the wrong board shape
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1", # 5 FEN
        "not a position",                 # 6
        "  " + CHESS_START + "  \r\n",    # 7 white space around, a line end
    ]
    results = list(batch.legal("chess", lines, notation="uci"))
    assert [r.line for r in results] == [1, 4, 5, 6, 7]
    assert [r.ok for r in results] == [True, False, True, False, True]
    assert "board of 8x8 squares, not one of shape (8, 3)" in (results[1].error or "")
    assert results[3].error is not None and "\n" not in results[3].error
    assert results[4].text == CHESS_START and results[4].json == results[0].json
    assert len(results[2].value) == 15
    with pytest.raises(GGNError, match=r"^line 4: "):
        _ = results[1].value


def test_a_ggn_document_reads_feen_only() -> None:
    rules = Ruleset.loads('{"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}}')
    lines = ["8/8/8/8/8/8/8/R7 / C/c", "8/8/8/8/8/8/8/R7 w - - 0 1", "2/R1 / C/c", "R1/2 / C/c"]
    results = list(batch.moves(rules, lines))
    move = {"piece": "C:R", "source": "a1", "destination": "a2"}
    assert results[0].value == [move]
    assert not results[1].ok and "FEEN" in (results[1].error or "")
    assert results[2].value == [move]  # any board: a document has no shape of its own
    assert results[3].value == []
    assert list(batch.moves(Recipe(document=rules.dumps()), lines)) == results
    with pytest.raises(TypeError, match="legal moves need a rule system, not a GGN document alone"):
        batch.legal(rules, lines)  # type: ignore[arg-type]
    # Its generic rule system plays it, as given or made from the document's recipe.
    generic = list(batch.legal(RuleSystem(rules), lines))
    assert generic[0].value == [{**move, "choice": None, "transition": {
        "board_diff": {"a1": None, "a2": "C:R"}, "toggle": True}}]
    assert [result.json for result in generic] == [result.json for result in batch.legal(
        Recipe(document=rules.dumps()), lines)]
    assert Recipe.of(RuleSystem(rules)) == Recipe(document=rules.dumps())
    with pytest.raises(TypeError, match="uci moves need a game's description"):
        batch.legal(RuleSystem(rules), lines, notation="uci")


def test_bytes_lines_not_utf8_or_too_long_are_errors() -> None:
    data = b"\n".join([CHESS_START.encode(), b"\xff\xfe", b"x" * (batch.MAX_LINE + 10), CHESS_START.encode()])
    read = list(batch.lines_of(io.BytesIO(data)))
    assert len(read) == 4 and len(read[2]) == batch.MAX_LINE + 1
    results = list(batch.moves("chess", read))
    assert [r.ok for r in results] == [True, False, False, True]
    assert results[1].error == "not UTF-8 text (invalid start byte at byte 0)"
    assert results[2].error == f"the line is over {batch.MAX_LINE:,} bytes long"
    assert next(batch.moves("chess", ["x" * (batch.MAX_LINE + 1)])).error == (
        f"the line is over {batch.MAX_LINE:,} characters long")


def test_lines_of_reads_line_by_line() -> None:
    assert list(batch.lines_of(io.BytesIO(b"a\nb\r\n\nc"))) == [b"a", b"b\r", b"", b"c"]
    assert list(batch.lines_of(io.BytesIO(b""))) == []
    assert list(batch.lines_of(io.BytesIO(b"a\n"))) == [b"a"]
    # A line of exactly the limit is read whole; the next one is not swallowed with it.
    longest = b"y" * batch.MAX_LINE
    assert list(batch.lines_of(io.BytesIO(longest + b"\nz"))) == [longest, b"z"]


class Counting:
    """Lines given one at a time, counting how many were taken."""

    def __init__(self, count: int, line: str = CHESS_START) -> None:
        self.taken, self.count, self.line = 0, count, line

    def __iter__(self) -> Iterator[str]:
        for _ in range(self.count):
            self.taken += 1
            yield self.line


def test_each_answer_comes_before_the_next_line_is_read() -> None:
    lines = Counting(50)
    for number, result in enumerate(batch.moves("chess", lines), 1):
        assert result.line == number and lines.taken == number


def test_memory_does_not_grow_with_the_number_of_lines() -> None:
    lines = Counting(1_100)
    results = batch.moves("chess", lines)
    answer = next(results).json or ""
    for _ in range(99):  # warm: every cache the answers use is full
        next(results)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        left = sum(1 for _ in results)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert left == 1_000
    # Holding the answers would take 1,000 times an answer; one answer at a time takes a few.
    assert peak < 20 * len(answer) < 1_000 * len(answer)


def test_arguments_are_checked_at_the_call() -> None:
    with pytest.raises(GGNError, match="no game 'go'"):
        batch.moves("go", [])
    with pytest.raises(GGNError, match="notation is None or one of san, lan, "):
        batch.legal("chess", [], notation="nope")  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="a chunk holds 1 line or more"):
        batch.moves("chess", [], chunk=0)
    with pytest.raises(TypeError, match="lines must be str or bytes, not int"):
        list(batch.moves("chess", [CHESS_START, 3]))  # type: ignore[list-item]
    with pytest.raises(TypeError, match="rules must be"):
        batch.moves(3, [])  # type: ignore[arg-type]


def test_a_rule_system_made_here_is_used_as_it_is() -> None:
    catalogue = registry.Catalogue()
    catalogue.add_ini("[tinyhouse:crazyhouse]\nmaxRank = 6\n"
                      "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n")
    rules = catalogue.rules("tinyhouse")
    start = catalogue.start("tinyhouse")
    (result,) = batch.legal(rules, [start])
    assert len(result.value) == rules.count(rules.position(start))
