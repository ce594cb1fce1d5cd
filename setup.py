"""The build of ggn's C kernel, the extension module ``ggn._native`` (pyproject.toml says the rest).

``pip install .`` and ``pip install -e .`` compile it where a C compiler works. Where none does,
the build writes one line saying so and the package installs without it: ggn then runs its
pure-Python path, which is the kernel's reference anyway (``GGN_PURE=1`` forces that path where
the kernel is built). The environment variable ``GGN_NATIVE`` chooses at build time:

- unset or ``auto``: build the kernel, and install without it where it cannot be built;
- ``required``: a kernel that cannot be built fails the build (the published wheels, CI);
- ``off``: do not build it.
"""

from __future__ import annotations

import os
import re
import sys
import warnings

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

NATIVE = "src/ggn/_native"
KERNEL = Extension(
    "ggn._native",
    sources=[f"{NATIVE}/module.c", f"{NATIVE}/kernel.c", f"{NATIVE}/lines.c", f"{NATIVE}/playout.c"],
    depends=[f"{NATIVE}/kernel.h", f"{NATIVE}/lines.h", f"{NATIVE}/playout.h"],
    optional=os.environ.get("GGN_NATIVE", "auto") != "required",
)
# Flags by compiler: C11, and the optimizer's full effort (Python's own flags may say -O2).
FLAGS = {"unix": ["-std=c11", "-O3"], "mingw32": ["-std=c11", "-O3"], "msvc": ["/O2"]}
# The C sources under src/ggn/_native are in the sdist's manifest and so offered to the wheel as
# data, which pyproject.toml excludes; setuptools warns first that the folder is no package.
warnings.filterwarnings("ignore", message=r".*'ggn\._native' is absent from the `packages`")
# The failures of a build whose compiler is missing or broken, or whose Python headers are.
FAILURES = (CCompilerError, ExecError, PlatformError, OSError)


def _without_kernel(error: BaseException) -> None:
    """The one line a build without the kernel writes (pip shows it with -v; the package works)."""
    text = " ".join(str(error).split())
    # A compiler that ran and failed: its name and status, not its whole command line.
    command = re.match(r"Command '\['([^']*)'.*exit status (-?\d+)", text)
    if command is not None:
        text = f"{command[1]} exited with status {command[2]}"
    reason = text[:200] or type(error).__name__
    sys.stderr.write(
        f"ggn: the C kernel (ggn._native) was not built ({reason}); ggn installs without it "
        "and runs its pure-Python path\n")


class BuildKernel(build_ext):
    """build_ext that installs without the kernel, saying so, where it cannot be built."""

    def run(self) -> None:
        mode = os.environ.get("GGN_NATIVE", "auto")
        if mode not in ("auto", "required", "off"):
            raise PlatformError(f"GGN_NATIVE must be 'auto', 'required' or 'off', got {mode!r}")
        if mode == "off":
            sys.stderr.write("ggn: GGN_NATIVE=off: the C kernel (ggn._native) is not built; "
                             "ggn runs its pure-Python path\n")
            return
        if mode == "required":
            super().run()
            return
        try:
            super().run()
        except FAILURES as error:  # no compiler at all, or one that cannot be set up
            _without_kernel(error)

    def build_extension(self, ext: Extension) -> None:
        ext.extra_compile_args = [*FLAGS.get(self.compiler.compiler_type, []), *ext.extra_compile_args]
        if not ext.optional:
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except FAILURES as error:
            _without_kernel(error)


setup(ext_modules=[KERNEL], cmdclass={"build_ext": BuildKernel})
