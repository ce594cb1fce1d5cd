"""The built wheel: a real build of this checkout (pip and the build backend, setuptools, offline:
``pip wheel --no-deps --no-build-isolation --no-index``), then what is in it.

It holds every file of the package (the explorer's page, script and style, the JSON schemas,
the built-in ``variants.ini``, ``py.typed``) with the compiled kernel and nothing else (not the
kernel's C sources); its metadata declares no runtime dependency and every extra of
pyproject.toml with its requirements; and the package unpacked from it, alone on the path,
reads the explorer's page from its own files and loads its kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

import ggn

pytestmark = pytest.mark.slow  # not in the README's quick run: builds the wheel

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "src" / "ggn"
BUILD_SECONDS = 300  # a guard against a hung build, not a measurement
# The extras every installation may ask for (pyproject.toml's comments say what each is for).
EXTRAS = {"cli", "docs", "png", "web"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--wheel-dir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=BUILD_SECONDS, check=False,
    )
    assert built.returncode == 0, built.stderr
    (found,) = out.glob("*.whl")
    return found


def metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        return Parser().parsestr(archive.read(f"ggn-{ggn.__version__}.dist-info/METADATA").decode("utf-8"))


def project() -> dict[str, Any]:
    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return table


# The compiled kernel, as this interpreter names an extension module of the package.
KERNEL = "ggn/_native" + sysconfig.get_config_var("EXT_SUFFIX")


def test_the_wheel_is_named_for_the_version_and_this_platform(wheel: Path) -> None:
    # It holds a compiled extension: its tags name this interpreter and platform, not py3-none-any.
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name == f"ggn-{ggn.__version__}-{version}-{version}-{platform}.whl"
    message = metadata(wheel)
    assert (message["Name"], message["Version"]) == ("ggn", ggn.__version__)
    assert message["Requires-Python"] == project()["requires-python"]


def test_it_holds_every_file_of_the_package_and_nothing_else(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = archive.read(f"ggn-{ggn.__version__}.dist-info/entry_points.txt").decode("utf-8")
    assert len(names) == len(set(names))
    packaged = {name for name in names if not name.startswith(f"ggn-{ggn.__version__}.dist-info/")}
    # Every file under src/ggn but the kernel's C sources and an extension built in place.
    sources = {
        "ggn/" + path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
        and path.suffix not in (".pyc", ".c", ".h", ".so", ".pyd")
    }
    assert {"ggn/_native/module.c", "ggn/_native/kernel.c", "ggn/_native/kernel.h"}.isdisjoint(sources)
    assert packaged == sources | {KERNEL}
    # The files that are not Python, which a narrower configuration would leave out.
    assert {
        "ggn/web/static/index.html", "ggn/web/static/app.js", "ggn/web/static/app.css",
        "ggn/py.typed", "ggn/variants/builtin.ini", "ggn/schemas/ggn-1.0.0.schema.json",
    } <= packaged
    assert "[console_scripts]\nggn = ggn.cli:main" in entry_points


def _names(requirements: list[str]) -> dict[str, str]:
    """Requirements by their project's name, written as packaging reads them (markers aside)."""
    read = [Requirement(text) for text in requirements]
    return {each.name: f"{each.specifier}{sorted(each.extras)}" for each in read}


def test_its_metadata_has_no_runtime_dependency_and_every_extra(wheel: Path) -> None:
    message = metadata(wheel)
    declared: dict[str, list[str]] = project()["optional-dependencies"]
    extras = set(message.get_all("Provides-Extra") or [])
    assert extras == set(declared)
    assert extras >= EXTRAS | ({"dask"} if "dask" in declared else set())
    by_extra: dict[str, list[str]] = {extra: [] for extra in extras}
    for text in message.get_all("Requires-Dist") or []:
        requirement = Requirement(text)
        marker = str(requirement.marker or "")
        owner = [extra for extra in extras if f'extra == "{extra}"' in marker]
        assert len(owner) == 1, f"a dependency outside the extras (the core has none): {text}"
        requirement.marker = None
        by_extra[owner[0]].append(str(requirement))
    for extra, requirements in declared.items():
        assert _names(by_extra[extra]) == _names(requirements), extra
    # The test extra takes every other extra's packages, so that CI tests them all.
    tested = set(_names(declared["test"]))
    for extra, requirements in declared.items():
        assert set(_names(requirements)) <= tested, f"the test extra lacks {extra}'s packages"


def test_the_package_unpacked_alone_reads_its_page(wheel: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path)
    # -S: no site-packages, so this checkout's editable install is not seen; the core needs none.
    script = (
        "import ggn, ggn.web._app as app, ggn._native as kernel; "
        "print(ggn.__file__); print(len(app._static('index.html')), len(app._static('app.js')), "
        "len(app._static('app.css'))); print(kernel.__file__, kernel.abi_version())"
    )
    shown = subprocess.run(
        [sys.executable, "-S", "-c", script], capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)}, cwd=tmp_path,
    )
    assert shown.returncode == 0, shown.stderr
    where, sizes, kernel = shown.stdout.splitlines()
    assert Path(where) == tmp_path / "ggn" / "__init__.py"
    kernel_file, abi = kernel.split()
    assert Path(kernel_file) == tmp_path / KERNEL and int(abi) >= 0
    static = PACKAGE / "web" / "static"
    assert sizes.split() == [
        str(len((static / name).read_text("utf-8"))) for name in ("index.html", "app.js", "app.css")]
