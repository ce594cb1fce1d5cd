"""The sdist and the wheel built from it: ``python -m build --no-isolation`` (offline, with the
build backend of this environment), as a packager builds the project.

The sdist holds the checkout's files (what git tracks: the package with the kernel's C sources,
setup.py, the tests, docs and benchmarks) and nothing built; the wheel built from the sdist alone
holds the compiled kernel, and a build whose C compiler fails still makes a working wheel,
saying so in one line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import ggn

pytestmark = pytest.mark.slow  # not in the README's quick run: builds the sdist and two wheels

ROOT = Path(__file__).parent.parent
BUILD_SECONDS = 300  # a guard against a hung build, not a measurement
KERNEL = "ggn/_native" + sysconfig.get_config_var("EXT_SUFFIX")
NO_KERNEL = "ggn: the C kernel (ggn._native) was not built"


def _build(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", *args], cwd=cwd, capture_output=True, text=True,
        timeout=BUILD_SECONDS, check=False, env={**os.environ, **(env or {})},
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return built


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist, and the wheel built from it (python -m build's default: the wheel from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    _build("--outdir", str(out), cwd=ROOT)
    return out


def _sdist_names(dist: Path) -> set[str]:
    (sdist,) = dist.glob("*.tar.gz")
    assert sdist.name == f"ggn-{ggn.__version__}.tar.gz"
    prefix = f"ggn-{ggn.__version__}/"
    with tarfile.open(sdist) as archive:
        names = [member.name for member in archive.getmembers() if member.isfile()]
    assert all(name.startswith(prefix) for name in names)
    return {name.removeprefix(prefix) for name in names}


def test_the_sdist_holds_the_checkout_and_the_kernel_sources(dist: Path) -> None:
    names = _sdist_names(dist)
    assert {
        "setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "PKG-INFO",
        "src/ggn/_native/module.c", "src/ggn/_native/kernel.c", "src/ggn/_native/kernel.h",
        "src/ggn/__init__.py", "src/ggn/py.typed", "src/ggn/variants/builtin.ini",
        "src/ggn/web/static/index.html", "tests/test_packaging_sdist.py", "fuzz/run.py",
    } <= names
    # Nothing built or cached: no extension, no bytecode, no build folder, no fuzzing corpus.
    assert not [name for name in names if name.endswith((".so", ".pyd", ".pyc", ".o"))]
    assert not [name for name in names if name.startswith(("build/", "fuzz/corpus/", ".venv"))]
    if shutil.which("git") and (ROOT / ".git").exists():
        tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                                 check=True, timeout=60).stdout.split()
        missing = set(tracked) - names
        assert not missing, f"files git tracks that the sdist lacks (MANIFEST.in): {sorted(missing)}"


def test_the_wheel_built_from_the_sdist_holds_the_kernel(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert KERNEL in names
    assert not [name for name in names if name.endswith((".c", ".h"))]
    assert {"ggn/py.typed", "ggn/variants/builtin.ini", "ggn/schemas/ggn-1.0.0.schema.json"} <= names


def test_without_a_working_compiler_the_wheel_builds_without_the_kernel(dist: Path, tmp_path: Path) -> None:
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    source = tmp_path / f"ggn-{ggn.__version__}"
    built = _build("--wheel", "--outdir", str(tmp_path / "out"), cwd=source,
                   env={"CC": "/bin/false", "GGN_NATIVE": "auto"})
    said = [line for line in (built.stdout + built.stderr).splitlines() if NO_KERNEL in line]
    assert len(said) == 1, built.stdout + built.stderr
    assert "ggn installs without it and runs its pure-Python path" in said[0]
    (wheel,) = (tmp_path / "out").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "unpacked")
    assert not list((tmp_path / "unpacked" / "ggn").glob("_native*"))
    # The package works without its kernel: it plays on its pure-Python path.
    script = "import ggn.rules as r; print(r.perft('chess', 2))"
    played = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, timeout=120,
                            check=False, env={**os.environ, "PYTHONPATH": str(tmp_path / "unpacked")},
                            cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split() == ["400"]
