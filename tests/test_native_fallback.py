"""A checkout where the C kernel was never compiled runs the pure path, and says why.

There, ``import ggn._native`` finds the folder of the kernel's C sources (``src/ggn/_native``)
and reads it as a namespace package: the loader must take that for "not built", not fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import ggn

SOURCE = Path(ggn.__file__).parent


def test_a_package_without_its_compiled_kernel_falls_back_to_the_pure_path(tmp_path: Path) -> None:
    copy = tmp_path / "ggn"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    assert (copy / "_native").is_dir() and not list(copy.glob("_native*.so"))
    script = (
        "import json, ggn._native as k, ggn.rules._native as n\n"
        "from ggn.rules import perft\n"
        "print(json.dumps([k.__file__, perft('chess', 3), n.native_available(), n._STATE.why]))\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    environment.pop("GGN_PURE", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                          cwd=tmp_path, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    where, count, available, why = json.loads(done.stdout)
    assert where is None  # the namespace package of the C sources, not an extension
    assert (count, available) == (8902, False)
    assert "not built" in why, why
