"""ggn.parallel on worker processes: perft counts equal the serial ones and the published ones,
the tree is split where it should be, and batches come back in order with a bounded read-ahead."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator
from concurrent.futures.process import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ggn import batch, parallel
from ggn.errors import GGNError
from ggn.parallel import Pool, Recipe
from ggn.rules import divide, perft, rule_system
from ggn.variants import registry
from support import perft_entries

pytestmark = pytest.mark.slow  # not in the README's quick run: worker processes

# The entries of tests/vectors/perft.json a pool of two counts here (the deepest each position
# has outside the full run, at least two plies: a depth of one is never split).
VECTORS = [
    pytest.param(entry["game"], entry["feen"], entry["depth"], entry["count"], id=f"{entry['game']}-"
                 f"{entry['name']}-{entry['depth']}")
    for entry in perft_entries()
    if entry["game"] in ("chess", "shogi") and not entry["full"] and entry["depth"] >= 2
]

TINYHOUSE = ("mine.ini", "[tinyhouse:crazyhouse]\nmaxRank = 6\n"
             "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n")


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    with Pool(2) as workers:
        yield workers


@pytest.mark.parametrize(("game", "feen", "depth", "count"), VECTORS)
def test_perft_on_workers_gives_the_published_counts(
        pool: Pool, game: str, feen: str | None, depth: int, count: int) -> None:
    assert parallel.perft(game, depth, feen, jobs=pool) == count


def test_divide_on_workers_gives_the_serial_split(pool: Pool) -> None:
    # Position 4 of chessprogramming.org: 6 root moves, so the tree is split deeper.
    feen = next(e["feen"] for e in perft_entries() if e["name"] == "position-4")
    serial = [(str(play), count) for play, count in divide("chess", 3, feen)]
    spread = [(str(play), count) for play, count in parallel.divide("chess", 3, feen, jobs=pool)]
    assert spread == serial and sum(count for _, count in spread) == 9467


@pytest.mark.parametrize(("game", "depth"), [
    ("crazyhouse", 3),
    pytest.param("xiangqi", 3, marks=pytest.mark.full),
    pytest.param("makruk", 4, marks=pytest.mark.full),
])
def test_perft_on_workers_equals_serial_perft(pool: Pool, game: str, depth: int) -> None:
    done: list[tuple[int, int, int]] = []
    assert parallel.perft(game, depth, jobs=pool, progress=lambda *told: done.append(told)) == (
        perft(game, depth))
    # Told once the tree is split, then once a task: every task and every node.
    total = done[0][2]
    assert done[0] == (0, 0, total) and {told[2] for told in done} == {total} and len(done) == total + 1
    assert sum(told[0] for told in done) == total and sum(told[1] for told in done) == perft(game, depth)


def test_a_variant_from_ini_text_is_made_by_the_workers(pool: Pool) -> None:
    catalogue = registry.Catalogue()
    catalogue.add_ini(TINYHOUSE[1], TINYHOUSE[0])
    serial = perft(catalogue.rules("tinyhouse"), 3)
    recipe = Recipe(game="tinyhouse", ini=(TINYHOUSE,))
    assert parallel.perft(recipe, 3, jobs=pool) == serial
    with pytest.raises(TypeError, match="not a built-in game's rule system"):
        parallel.perft(catalogue.rules("tinyhouse"), 3, jobs=pool)


def reached(split: parallel._Split) -> int:
    return sum(sum(under.values()) for under in split.tasks.values())


def counted(split: parallel._Split) -> int:
    return sum(perft("chess", depth, feen) * sum(under.values())
               for (feen, depth), under in split.tasks.items())


def test_the_tree_is_split_at_the_root_then_deeper_while_positions_are_few() -> None:
    rules = rule_system("chess")
    start = rules.position()
    split = parallel._split(rules, start, 4, 20)
    assert {depth for _, depth in split.tasks} == {3} and len(split.tasks) == 20  # 20 are enough for 20
    split = parallel._split(rules, start, 4, 32)
    # The first root play's position is replaced by the 20 after it: 39 in all, deepest first.
    assert [depth for _, depth in split.tasks] == [3] * 19 + [2] * 20
    assert split.roots == 20 and set(split.tasks[next(iter(split.tasks))]) == {1}
    assert counted(split) == 197281
    # Position 4 (6 root moves): split two plies down.
    feen = next(e["feen"] for e in perft_entries() if e["name"] == "position-4")
    split = parallel._split(rules, rules.position(feen), 4, 100)
    assert len(split.tasks) >= 100 and {depth for _, depth in split.tasks} == {3, 2}
    assert counted(split) == perft(rules, 4, feen)


def test_a_split_in_whole_plies_gives_every_position_the_same_depth() -> None:
    rules = rule_system("chess")
    split = parallel._split(rules, rules.position(), 5, 32, levels=True)
    assert {depth for _, depth in split.tasks} == {3} and reached(split) == 400
    split = parallel._split(rules, rules.position(), 5, 20, levels=True)  # the root's 20 are enough
    assert {depth for _, depth in split.tasks} == {4} and reached(split) == 20


def test_positions_reached_twice_are_counted_once() -> None:
    # The rook's move and the king's, in either order, three plies down: each position once,
    # its count multiplied.
    rules = rule_system("chess")
    corner = rules.position("4k^3/8/8/8/8/8/8/R3K^3 / C/c")
    split = parallel._split(rules, corner, 4, 10**6)
    assert {depth for _, depth in split.tasks} == {1}
    assert reached(split) == perft(rules, 3, corner) and len(split.tasks) < reached(split)
    assert counted(split) == perft(rules, 4, corner)
    # The last ply is never split off: a tree too small is left as it is.
    assert {depth for _, depth in parallel._split(rules, corner, 2, 1000).tasks} == {1}


def test_perft_with_jobs_of_its_own_and_trivial_depths() -> None:
    assert parallel.perft("chess", 3, jobs=2) == 8902
    assert parallel.perft("chess", 1, jobs=2) == 20  # a depth of one is counted here
    assert parallel.perft("chess", 0, jobs=2) == 1
    with pytest.raises(GGNError, match="perft depth 65 is over the limit"):
        parallel.perft("chess", 65, jobs=2)
    with pytest.raises(GGNError, match="divide needs a depth of 1 or more"):
        parallel.divide("chess", 0, jobs=2)


def test_batches_come_back_in_order_from_small_chunks(pool: Pool) -> None:
    start = registry.start("chess")
    lines = [start, "", "bad", start, start, start, "8/8 w", "4k3/8/8/8/8/8/8/4K3 b"] * 7
    serial = list(batch.legal("chess", lines, notation="uci"))
    assert list(batch.legal("chess", lines, notation="uci", jobs=pool, chunk=2)) == serial
    assert [r.line for r in serial] == [n for n, line in enumerate(lines, 1) if line]
    assert list(batch.moves("chess", lines, jobs=pool, chunk=3)) == list(batch.moves("chess", lines))


def test_a_batch_reads_a_bounded_window_ahead(pool: Pool) -> None:
    taken = 0

    def lines() -> Iterator[str]:
        nonlocal taken
        for _ in range(400):
            taken += 1
            yield registry.start("chess")

    window = pool.width * parallel.WINDOW_PER_WORKER
    for number, result in enumerate(batch.moves("chess", lines(), jobs=pool, chunk=4), 1):
        assert result.line == number
        assert taken - number <= (window + 1) * 4


def test_ordered_gives_results_in_the_order_of_the_arguments(pool: Pool) -> None:
    arguments = [(Recipe(game="chess"), registry.start("chess"), depth % 3) for depth in range(30)]
    expected = [perft("chess", depth % 3) for depth in range(30)]
    assert list(parallel.ordered(parallel._perft_task, arguments, jobs=pool)) == expected


def test_workers_and_recipes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert 1 <= parallel.processors() <= (os.cpu_count() or 1)
    monkeypatch.setattr(parallel, "processors", lambda: 4)
    assert parallel.workers(None) == 1
    assert parallel.workers(3) == 3
    assert parallel.workers(0) == parallel.workers("auto") == 4
    assert parallel.workers(5) == parallel.workers(1000) == parallel.workers(10**100) == 4  # capped
    with pytest.raises(GGNError, match="jobs must be 0"):
        parallel.workers(-1)
    for wrong in (True, 1.5, "many"):
        with pytest.raises(TypeError, match="jobs must be an int, 'auto', a Pool or None"):
            parallel.workers(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one of the two"):
        Recipe()
    with pytest.raises(TypeError, match="one of the two"):
        Recipe(game="chess", document="{}")
    with pytest.raises(TypeError, match="pairs of str"):
        Recipe(game="chess", ini=(("a",),))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a Recipe of a document has none"):
        Recipe(document="{}", ini=(TINYHOUSE,))
    with pytest.raises(TypeError, match="has no game"):
        Recipe(document="{}").entry()
    assert Recipe.of(rule_system("chess")) == Recipe.of("chess") == Recipe(game="chess")
    assert Recipe.of(rule_system("chess").ruleset).ruleset() == rule_system("chess").ruleset
    with pytest.raises(TypeError, match="rules must be"):
        Recipe.of(3)  # type: ignore[arg-type]


def test_dask_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    with pytest.raises(ImportError, match=r"pip install 'ggn\[dask\]'"):
        parallel.perft("chess", 3, scheduler="tcp://127.0.0.1:1")


def test_workers_that_number_pieces_in_another_order_count_right(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The compile cache's code compares piece codes, which each process numbers in the order it
    # meets the pieces: the numbering is part of its keys (this gave 5264 paths before).
    monkeypatch.setenv("GGN_CACHE_DIR", str(tmp_path))  # the workers' cache: empty, then filled below
    recipe = Recipe(game="tinyhouse", ini=(TINYHOUSE,))
    with Pool(1) as first:  # a worker that makes tinyhouse alone, and leaves its tests in the cache
        assert parallel.perft(recipe, 3, jobs=first) == 5260
    with Pool(1) as second:  # one that makes crazyhouse first: its pieces are numbered otherwise
        assert parallel.perft("crazyhouse", 3, jobs=second) == 8902
        assert parallel.perft(recipe, 3, jobs=second) == 5260


# --- how many processes start (issue 16, finding 7) -------------------------------------------------
@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[int]]:
    """The pools made (their widths) and the worker processes they start, counted."""
    made: dict[str, list[int]] = {"pools": [], "processes": []}
    make_pool = parallel._Pool.__init__
    spawn = ProcessPoolExecutor._spawn_process  # type: ignore[attr-defined]

    def pool(self: parallel._Pool, jobs: int) -> None:
        made["pools"].append(jobs)
        make_pool(self, jobs)

    def process(self: ProcessPoolExecutor) -> None:
        made["processes"].append(1)
        spawn(self)

    monkeypatch.setattr(parallel._Pool, "__init__", pool)
    monkeypatch.setattr(ProcessPoolExecutor, "_spawn_process", process)
    return made


def test_jobs_beyond_the_processors_start_one_process_a_processor(
        monkeypatch: pytest.MonkeyPatch, started: dict[str, list[int]]) -> None:
    # --jobs 1000 started about 130 processes on 2 cores; 10**100 was an OverflowError.
    monkeypatch.setattr(parallel, "processors", lambda: 2)
    assert parallel.perft("chess", 3, jobs=10**100) == 8902  # this process and one worker
    assert parallel.perft("chess", 3, jobs=1000) == 8902
    assert started["pools"] == [1, 1] and len(started["processes"]) == 2
    lines = [registry.start("chess")] * 100
    assert [r.value for r in batch.moves("chess", lines, jobs=10**100, chunk=4)] == [
        r.value for r in batch.moves("chess", lines)]
    assert started["pools"] == [1, 1, 2] and len(started["processes"]) <= 4
    with Pool(10**100) as pool:
        assert pool.width == 2
    monkeypatch.setattr(parallel, "processors", lambda: 1)
    assert parallel.runs_here(1000, None)  # one processor: every number of jobs is this process
    assert parallel.perft("chess", 2, jobs=64) == 400
    assert started["pools"] == [1, 1, 2, 2]


def test_no_more_workers_than_tasks(monkeypatch: pytest.MonkeyPatch, started: dict[str, list[int]]) -> None:
    monkeypatch.setattr(parallel, "processors", lambda: 16)
    lone_king = "k^7/8/8/8/8/8/8/K^7 / C/c"  # 3 plays: 3 positions of depth 1 to count
    assert parallel.perft("chess", 2, lone_king, jobs=16) == perft("chess", 2, lone_king)
    assert started["pools"] == [3]
    lines = [registry.start("chess")] * 5
    assert len(list(batch.moves("chess", lines, jobs=16, chunk=2))) == 5  # 3 chunks
    assert started["pools"] == [3, 3]
    assert list(batch.moves("chess", [], jobs=16)) == []  # no line, no pool
    assert list(parallel.ordered(parallel._perft_task, [], jobs=16)) == []
    mated = "k^6R/7R/8/8/8/8/8/K^7 / c/C"  # no legal play: nothing to count
    assert parallel.perft("chess", 2, mated, jobs=16) == 0
    assert started["pools"] == [3, 3]
    assert len(started["processes"]) <= 6


# --- wrong types (issue 16, finding 8) --------------------------------------------------------------
class _NotAClient:
    pass


_WRONG_TYPES = [
    # (the public function, a call with one argument of the wrong type, the words of the message)
    ("batch.lines_of", lambda: batch.lines_of(3), "stream must be a binary stream"),  # type: ignore[arg-type]
    ("batch.lines_of", lambda: batch.lines_of(io.StringIO("a\n")), "stream must be a binary stream"),  # type: ignore[arg-type]
    ("batch.lines_of", lambda: list(batch.lines_of(_TextReadline())), "its readline gave str, not bytes"),  # type: ignore[arg-type]
    ("batch.moves", lambda: batch.moves("chess", [], scheduler=3), "scheduler must be a Dask scheduler's"),
    ("batch.moves", lambda: batch.moves("chess", [], scheduler=_NotAClient()), "got _NotAClient"),
    ("batch.moves", lambda: batch.moves("chess", 3), "lines must be an iterable of lines"),  # type: ignore[arg-type]
    ("batch.moves", lambda: batch.moves("chess", "+rnbq+k^bn+r/8 / C/c"), "got a single line"),
    ("batch.moves", lambda: batch.moves("chess", [], jobs=2.0), "jobs must be an int, 'auto', a Pool"),  # type: ignore[arg-type]
    ("batch.moves", lambda: batch.moves("chess", [], chunk="3"), "chunk must be an int"),  # type: ignore[arg-type]
    ("batch.moves", lambda: batch.moves(3, []), "rules must be"),  # type: ignore[arg-type]
    ("batch.legal", lambda: batch.legal("chess", [], notation=3),  # type: ignore[arg-type]
     "notation must be a notation's name or None, got int"),
    ("batch.legal", lambda: batch.legal("chess", [], scheduler=b"tcp://h:1"), "scheduler must be"),
    ("batch.legal", lambda: batch.legal("chess", None), "lines must be"),  # type: ignore[arg-type]
    ("batch.perft", lambda: batch.perft("chess", [], "2"), "depth must be an int"),  # type: ignore[arg-type]
    ("batch.perft", lambda: batch.perft("chess", [], 2, divide=1), "divide must be a bool"),  # type: ignore[arg-type]
    ("batch.perft", lambda: batch.perft("chess", 3, 2), "lines must be"),  # type: ignore[arg-type]
    ("batch.perft", lambda: batch.perft("chess", [], 2, scheduler=3), "scheduler must be"),
    ("batch.perft", lambda: batch.perft("chess", [], 2, jobs=1.0), "jobs must be"),  # type: ignore[arg-type]
    ("parallel.check_address", lambda: parallel.check_address(8786), "scheduler must be"),  # type: ignore[arg-type]
    ("parallel.workers", lambda: parallel.workers([2]), "jobs must be"),  # type: ignore[arg-type]
    ("parallel.runs_here", lambda: parallel.runs_here(None, 3), "scheduler must be"),
    ("parallel.perft", lambda: parallel.perft("chess", "2"), "depth must be an int"),  # type: ignore[arg-type]
    ("parallel.perft", lambda: parallel.perft("chess", 2, 3), "position must be a Position"),  # type: ignore[arg-type]
    ("parallel.perft", lambda: parallel.perft("chess", 2, jobs=2, progress=3), "progress must be"),  # type: ignore[arg-type]
    ("parallel.perft", lambda: parallel.perft("chess", 2, scheduler=3), "scheduler must be"),
    ("parallel.perft", lambda: parallel.perft(3, 2), "rules must be"),  # type: ignore[arg-type]
    ("parallel.divide", lambda: parallel.divide("chess", 2, scheduler=[]), "scheduler must be"),
    ("parallel.divide", lambda: parallel.divide("chess", 2.0), "depth must be an int"),  # type: ignore[arg-type]
    ("parallel.divide", lambda: parallel.divide("chess", 2, jobs="2"), "jobs must be"),
    ("parallel.ordered", lambda: parallel.ordered(3, []), "function must be"),  # type: ignore[arg-type]
    ("parallel.ordered", lambda: parallel.ordered(len, 3), "arguments must be an iterable"),  # type: ignore[arg-type]
    ("parallel.ordered", lambda: parallel.ordered(len, [], scheduler=3), "scheduler must be"),
    ("parallel.Pool", lambda: Pool(2.5), "jobs must be"),  # type: ignore[arg-type]
    ("parallel.Recipe", lambda: Recipe(game=3), "game must be"),  # type: ignore[arg-type]
    ("parallel.Recipe", lambda: Recipe(document=b"{}"), "document must be"),  # type: ignore[arg-type]
    ("parallel.Recipe", lambda: Recipe(game="chess", ini=[]), "ini must be"),  # type: ignore[arg-type]
    ("parallel.Recipe.of", lambda: Recipe.of(3), "rules must be"),  # type: ignore[arg-type]
]


class _TextReadline:
    def readline(self, size: int = -1) -> str:
        return "a line\n"


@pytest.mark.parametrize(("name", "call", "message"), _WRONG_TYPES, ids=[f"{row[0]}-{i}" for i, row in
                                                                         enumerate(_WRONG_TYPES)])
def test_wrong_types_are_type_errors_at_the_call(name: str, call: Any, message: str) -> None:
    # batch.lines_of(3) and batch.moves(scheduler=3) were AttributeErrors (at the first line).
    with pytest.raises(TypeError, match=re.escape(message)):
        call()


def test_every_public_function_has_its_wrong_type_row() -> None:
    public = {f"batch.{name}" for name in batch.__all__ if callable(getattr(batch, name))}
    public |= {f"parallel.{name}" for name in parallel.__all__
               if callable(getattr(parallel, name)) and name not in ("Jobs", "Progress")}
    public -= {"batch.Result", "parallel.processors"}  # a record the functions make; no argument
    assert public | {"parallel.Recipe.of"} == {row[0] for row in _WRONG_TYPES}
