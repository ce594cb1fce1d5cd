"""``benchmarks/bench_variants.py``: the table of every game, and ``--against`` another tree,
run as the README runs the benchmarks (``python -m benchmarks.bench_variants`` from the root)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # not in the README's quick run: starts several Python processes

ROOT = Path(__file__).resolve().parent.parent


def _bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "benchmarks.bench_variants", *arguments], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=300, check=False)


def test_a_game_is_measured() -> None:
    done = _bench("--games", "chess", "--nodes", "21", "--max-depth", "2", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^chess +2 +400 ", done.stdout, re.MULTILINE), done.stdout


def test_against_another_tree_gives_each_game_its_ranges() -> None:
    done = _bench("--against", str(ROOT / "src"), "--games", "chess,minishogi", "--nodes", "20",
                  "--max-depth", "2", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^(\S+) +[0-9,]+-[0-9,]+ +[0-9,]+-[0-9,]+ +([0-9.]+)-([0-9.]+) *$", done.stdout,
                      re.MULTILINE)
    assert [row[0] for row in rows] == ["chess", "minishogi"], done.stdout
    assert "2 games: the median ratio of each game ranges" in done.stdout


@pytest.mark.parametrize(("arguments", "says"), [
    (("--against", "."), "no ggn package there"),
    (("--games", "chess,nosuchgame"), "no such game: nosuchgame"),
])
def test_bad_arguments_are_usage_errors(arguments: tuple[str, ...], says: str) -> None:
    done = _bench(*arguments)
    assert done.returncode == 2 and says in done.stderr
