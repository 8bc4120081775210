"""Build hook: compile the native core (C++, ``native/src``) into ``tribune_env._core``; metadata is in pyproject.toml.

* ``pip install .``, ``pip install -e .``, ``pip wheel .`` and ``python -m build`` compile the native core with the
  machine's C++ compiler and pybind11's headers (a build requirement, see ``build_backend.py``), compiling the
  sources in parallel. A wheel carries the core; an editable install puts it beside the Python sources.
* Where the core cannot be built (no C++ compiler, ``CXX=false``, pybind11 missing, a compiler error), the install
  goes on without it and prints one line: the Python engine (the specification) runs everything.
* ``TRIBUNE_PURE=1`` at build time skips the core outright.

Which engine runs is chosen at run time (``TRIBUNE_ENGINE``, :mod:`tribune_env.engine.native`).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
NATIVE_SOURCES = "native/src"
CORE = "tribune_env._core"
# -O3, no -march=native: a wheel must run on other x86-64 machines.
CXX_FLAGS = ["-O3", "-fvisibility=hidden", "-Wall"]


def notice(message: str) -> None:
    print(f"tribune-rl: {message}", file=sys.stderr, flush=True)


def short(err: BaseException, limit: int = 160) -> str:
    """The last line of ``err``'s message (its type's name if it has none), cut to ``limit`` characters."""
    text = str(err).strip()
    failed = re.search(r"Command '\['([^']+)'.*returned non-zero exit status (-?\d+)", text)
    if failed:  # a compiler command that failed: its program and status, not its hundreds of flags
        return f"{failed[1]} exited with status {failed[2]}"
    line = text.splitlines()[-1] if text else type(err).__name__
    return line if len(line) <= limit else line[: limit - 1] + "…"


def wants_pure() -> str | None:
    """Why this build leaves the native core out, or ``None`` to build it."""
    if os.environ.get("TRIBUNE_PURE", "").strip() not in ("", "0"):
        return "TRIBUNE_PURE is set"
    return None


def sources() -> list[str]:
    """The native core's C++ sources, relative to the project root (the build's working directory)."""
    return sorted(path.relative_to(HERE).as_posix() for path in (HERE / NATIVE_SOURCES).glob("*.cpp"))


def native_extensions() -> list[Any]:
    """The native core's extension module, or ``[]`` (with a one-line notice) where it cannot be built."""
    if os.environ.get("TRIBUNE_ASKING_REQUIRES") == "1":  # build_backend.py: only the requirements are asked for
        return []
    reason = wants_pure()
    if reason is not None:
        notice(f"not building the native core ({reason}); the Python engine will be used")
        return []
    try:
        from pybind11.setup_helpers import ParallelCompile, Pybind11Extension
    except ImportError as err:
        notice(f"pybind11 is missing ({err}); the native core is not built and the Python engine will be used")
        return []
    ParallelCompile("TRIBUNE_BUILD_JOBS", default=0).install()  # all cores unless TRIBUNE_BUILD_JOBS says otherwise
    extension = Pybind11Extension(
        CORE, sources(), include_dirs=[NATIVE_SOURCES], cxx_std=20, extra_compile_args=CXX_FLAGS
    )
    return [extension]


class OptionalBuildExt(build_ext):
    """``build_ext`` that goes on without the native core when compiling fails, leaving no partial module."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            detail = short(err)
            notice(f"the native core could not be compiled ({detail}); the Python engine will be used")


class CleanBuildPy(build_py):
    """``build_py`` that, for a build without the core, drops a core an earlier build left in ``build/lib``."""

    def run(self) -> None:
        super().run()
        if not self.distribution.ext_modules:
            for path in Path(self.build_lib).glob("tribune_env/_core*.so"):
                path.unlink()


if __name__ == "__main__":  # run by the build backend; tests import this file for its parts
    setup(ext_modules=native_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": CleanBuildPy})
