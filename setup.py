"""Build hook: compile the engine, codec and data packages with mypyc; project metadata lives in pyproject.toml.

* ``pip install .`` and ``pip wheel .`` / ``python -m build`` compile ``tribune_env/engine``, ``tribune_env/codec``
  and ``tribune_env/data`` with mypyc (pinned in ``[build-system] requires``). The wheel also ships the ``.py``
  sources, so ``TRIBUNE_PURE=1`` at run time can still select the pure-Python modules.
* Where compiling fails (no C compiler, mypyc missing or failing), the build goes on in pure Python and prints one
  line saying so. ``TRIBUNE_PURE=1`` at build time asks for pure Python outright.
* Editable installs (``pip install -e .``) are always pure Python, so a source edit can never run stale compiled
  code.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
COMPILED_PACKAGES = ("tribune_env/engine", "tribune_env/codec", "tribune_env/data")
# Left pure Python: GameConfig's dataclass ``__init__`` would type-check its fields before ``__post_init__`` could
# give its ValueError naming the option (compiled attributes raise TypeError for a wrong type, numpy's ints too).
# errors.py: the engine's exceptions stay Python classes, whose fields pickle and copy with them (issue 13).
NOT_COMPILED = {"tribune_env/engine/config.py", "tribune_env/engine/errors.py"}
EDITABLE_COMMANDS = {"editable_wheel", "develop"}  # PEP 660 editable builds and the legacy ``setup.py develop``


def notice(message: str) -> None:
    print(f"tribune-rl: {message}", file=sys.stderr, flush=True)


def wants_pure() -> str | None:
    """Why this build stays pure Python, or ``None`` to compile."""
    if os.environ.get("TRIBUNE_PURE", "").strip() not in ("", "0"):
        return "TRIBUNE_PURE is set"
    if EDITABLE_COMMANDS.intersection(sys.argv[1:]):
        return "editable install"
    return None


def sources() -> list[str]:
    """The modules mypyc compiles, relative to the project root (the build's working directory)."""
    found = (path.relative_to(HERE).as_posix() for pkg in COMPILED_PACKAGES for path in (HERE / pkg).glob("*.py"))
    return sorted(name for name in found if name not in NOT_COMPILED)


def mypyc_extensions() -> list[Any]:
    """The mypyc extension modules, or ``[]`` (with a one-line notice) where they cannot be generated."""
    reason = wants_pure()
    if reason is not None:
        notice(f"building pure Python ({reason})")
        return []
    try:
        from mypyc.build import mypycify

        # The environments are not compiled and may be type-checked without their libraries installed.
        options = ["--ignore-missing-imports", "--follow-imports=silent"]
        return list(mypycify([*options, *sources()], opt_level="3", group_name="tribune_env"))
    except BaseException as err:  # mypyc absent, a type error (SystemExit) or a crash: never fail the install
        if isinstance(err, KeyboardInterrupt):
            raise
        notice(f"mypyc could not compile the engine ({type(err).__name__}: {err}); installing pure Python")
        return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python when the C compiler fails, leaving no partial extension."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            notice(f"compiling the engine failed ({type(err).__name__}: {err}); installing pure Python")


class CleanBuildPy(build_py):
    """``build_py`` that, for a pure build, drops compiled modules an earlier build left in ``build/lib``."""

    def run(self) -> None:
        super().run()
        if not self.distribution.ext_modules:
            root = Path(self.build_lib)
            for pattern in ("tribune_env/**/*.so", "tribune_env/**/*.pyd", "tribune_env__mypyc*"):
                for path in root.glob(pattern):
                    path.unlink()


if __name__ == "__main__":  # run by the build backend; tests import this file for its parts
    setup(ext_modules=mypyc_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": CleanBuildPy})
