"""The compiled kernel as installed: ``ggn._native`` loads from the package, on first use only.

Small and self-contained (no conftest, no oracle packages: ``pytest --noconftest`` runs it), so
that cibuildwheel runs it on each wheel it builds (pyproject.toml's ``[tool.cibuildwheel]``),
and ``.ci/sanitize`` under AddressSanitizer while the differential tests are missing. Where
the kernel was not built (no C compiler: the install said so) it skips, unless ``GGN_NATIVE``
is ``required``, as on the published wheels.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import ggn


def _kernel() -> ModuleType:
    try:
        return importlib.import_module("ggn._native")
    except ImportError as error:
        if os.environ.get("GGN_NATIVE") == "required":
            raise
        pytest.skip(f"the C kernel is not built here ({error})")


def test_the_kernel_loads_from_the_package() -> None:
    kernel = _kernel()
    assert Path(kernel.__file__ or "").parent == Path(ggn.__file__).parent
    abi = kernel.abi_version()
    assert type(abi) is int and abi >= 0


def test_import_ggn_does_not_load_the_kernel() -> None:
    # The kernel loads on first use: `import ggn` (and so `ggn moves`' start) does not pay for it.
    script = "import sys, ggn, ggn.rules; print(*sorted(sys.modules), sep='\\n')"
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                           check=False)
    assert shown.returncode == 0, shown.stderr
    loaded = shown.stdout.split()
    assert "ggn.rules" in loaded and "ggn._native" not in loaded
