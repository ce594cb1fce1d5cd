"""ggn.parallel on a Dask cluster of this machine (``distributed.LocalCluster``: two worker
processes of one thread each): exact perft counts and batches, and an exact count when a worker
is killed in the middle of a run (Dask runs its tasks again elsewhere)."""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ggn import batch, parallel
from ggn.rules import perft
from ggn.variants import registry

pytestmark = pytest.mark.slow  # not in the README's quick run: a local Dask cluster

distributed = pytest.importorskip("distributed")

TINYHOUSE = ("mine.ini", "[tinyhouse:crazyhouse]\nmaxRank = 6\n"
             "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n")


def local_cluster(cache: Path) -> Any:
    """Two worker processes with a compile cache of their own, as the machines of a cluster
    have (they start with this process's environment)."""
    before = os.environ["GGN_CACHE_DIR"]
    os.environ["GGN_CACHE_DIR"] = str(cache)
    try:
        return distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    finally:
        os.environ["GGN_CACHE_DIR"] = before


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with local_cluster(tmp_path_factory.mktemp("cluster-cache")) as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize(("game", "depth", "count"), [
    ("chess", 3, 8902), ("chess", 4, 197281), ("shogi", 3, 25470),
])
def test_perft_on_a_cluster_gives_the_published_counts(
        address: str, game: str, depth: int, count: int) -> None:
    assert parallel.perft(game, depth, scheduler=address) == count


def test_perft_of_a_variant_from_ini_text_on_a_cluster(address: str) -> None:
    catalogue = registry.Catalogue()
    catalogue.add_ini(TINYHOUSE[1], TINYHOUSE[0])
    recipe = parallel.Recipe(game="tinyhouse", ini=(TINYHOUSE,))
    done: list[int] = []
    assert parallel.perft(recipe, 3, scheduler=address, progress=lambda _, nodes, __: done.append(nodes)) == (
        perft(catalogue.rules("tinyhouse"), 3)) == sum(done)



def test_divide_on_a_cluster_gives_the_serial_split(address: str) -> None:
    split = [(str(play), count) for play, count in parallel.divide("chess", 3, scheduler=address)]
    assert split == [(str(play), count) for play, count in parallel.divide("chess", 3)]


def test_a_batch_on_a_cluster_comes_back_in_order(address: str) -> None:
    start = registry.start("chess")
    lines = [start, "", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "bad", start] * 9
    serial = list(batch.legal("chess", lines, notation="uci"))
    assert list(batch.legal("chess", lines, notation="uci", scheduler=address, chunk=3)) == serial
    assert list(batch.moves("chess", lines, scheduler=address, chunk=5)) == list(batch.moves("chess", lines))


def test_an_unreachable_scheduler_is_a_connection_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "SCHEDULER_TIMEOUT", 0.5)
    with pytest.raises(ConnectionError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9: "):
        parallel.perft("chess", 3, scheduler="tcp://127.0.0.1:9")


def test_killing_a_worker_in_the_middle_of_a_run_still_gives_the_exact_count(tmp_path: Path) -> None:
    with local_cluster(tmp_path) as cluster, distributed.Client(cluster, set_as_default=False) as client:
        started = threading.Event()
        done: list[int] = []

        def progress(tasks: int, nodes: int, total: int) -> None:
            done.append(nodes)
            if tasks:
                started.set()

        with ThreadPoolExecutor(1) as thread:
            counting = thread.submit(parallel.perft, "chess", 4, scheduler=cluster.scheduler_address,
                                     progress=progress)
            assert started.wait(120), "no task finished"
            # The worker with tasks in hand, killed as the operating system kills a process.
            busy = max(client.processing().items(), key=lambda item: len(item[1]))[0]
            (nanny,) = [n for n in cluster.workers.values() if n.worker_address == busy]
            os.kill(nanny.process.process.pid, signal.SIGKILL)
            at_kill = sum(done)
            assert counting.result(timeout=300) == 197281
    assert at_kill < 197281, "the run was over before the worker was killed: nothing was tested"


def test_the_command_line_sends_its_work_to_the_cluster(address: str, tmp_path: Path) -> None:
    import io  # noqa: PLC0415

    from ggn.cli import run  # noqa: PLC0415

    def call(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        return run(list(argv), out, err), out.getvalue(), err.getvalue()

    assert call("perft", "chess", "3", "--scheduler", address) == (0, "8902\n", "")
    spread = call("perft", "chess", "3", "--divide", "--scheduler", address)
    assert spread == call("perft", "chess", "3", "--divide")
    positions = tmp_path / "positions.txt"
    positions.write_text(f"{registry.start('chess')}\nbad\n", encoding="utf-8")
    status, out, err = call("legal", "chess", "--batch", str(positions), "--notation", "uci",
                            "--scheduler", address)
    assert (status, out.splitlines()[1], err.count("\n")) == (1, "null", 1)
    assert len(json.loads(out.splitlines()[0])) == 20
