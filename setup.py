"""Build hook: compile the native core (C++, ``native/src``) into ``tribune_env._core``; metadata is in pyproject.toml.

* ``pip install .``, ``pip install -e .``, ``pip wheel .`` and ``python -m build`` compile the native core with the
  machine's C++ compiler and pybind11's headers (a build requirement, see ``build_backend.py``), compiling the
  sources in parallel. A wheel carries the core; an editable install puts it beside the Python sources.
* Where the core cannot be built (no C++ compiler, ``CXX=false``, pybind11 missing, a compiler error), the install
  goes on without it and prints one line: the Python engine (the specification) runs everything.
* ``TRIBUNE_PURE=1`` at build time skips the core outright.
* An unchanged core is not compiled again: each compiled core is kept in a cache (``build/native-cache`` beside
  this file, or ``TRIBUNE_BUILD_CACHE``), keyed on the sources and headers, the compile and link flags, the
  compiler (its command and ``--version``), pybind11's version and the Python ABI. Installing an extra
  (``pip install -e '.[test]'`` after ``pip install -e .``) then copies the cached module: nothing is compiled.
  ``TRIBUNE_BUILD_CACHE=0`` turns the cache off. What is compiled, and for how long, is said on stderr
  (``pip install -v`` shows it).

Which engine runs is chosen at run time (``TRIBUNE_ENGINE``, :mod:`tribune_env.engine.native`).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
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


CACHE_ENV = "TRIBUNE_BUILD_CACHE"
CACHE_KEEP = 4  # compiled cores kept in the cache (the newest)


def cache_dir() -> Path | None:
    """Where compiled cores are kept: ``TRIBUNE_BUILD_CACHE``, else ``build/native-cache`` beside this file;
    ``None`` when ``TRIBUNE_BUILD_CACHE`` is ``0`` (no cache)."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value == "0":
        return None
    return Path(value) if value else HERE / "build" / "native-cache"


def _version_of(program: str) -> str:
    """The first line of ``program --version`` (the compiler's identity), or why it could not be read."""
    try:
        run = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as err:
        return f"unknown ({type(err).__name__})"
    return (run.stdout or run.stderr).strip().splitlines()[0] if (run.stdout or run.stderr).strip() else "unknown"


def build_key(ext: Any, compiler: Any) -> str:
    """The cache key of compiling ``ext`` with ``compiler``: a hash of every source and header (by content), the
    extension's flags, macros and include folders (pybind11's by its version: an isolated build's folder is new
    each time), the compiler's and linker's commands and versions, and the Python ABI."""
    digest = hashlib.sha256()

    def add(*parts: object) -> None:
        for part in parts:
            digest.update(repr(part).encode())
            digest.update(b"\0")

    try:
        import pybind11

        pybind = pybind11.get_include()
        add("pybind11", pybind11.__version__)
    except ImportError:
        pybind = None
    add("python", sys.version, sys.implementation.cache_tag, sysconfig.get_config_var("EXT_SUFFIX"), sys.platform)
    add("ext", ext.name, ext.extra_compile_args, ext.extra_link_args, ext.define_macros, ext.undef_macros)
    add("include", ["<pybind11>" if d == pybind else d for d in ext.include_dirs])
    for attr in ("compiler_so", "compiler_cxx", "linker_so", "linker_so_cxx"):
        command = getattr(compiler, attr, None)
        add(attr, command)
        if command:
            add(_version_of(command[0]))
    files = {Path(source) for source in ext.sources}
    for folder in ext.include_dirs:
        path = Path(folder)
        if path.is_dir() and (HERE in path.resolve().parents or path.resolve() == HERE):  # the project's headers
            files.update(p for p in path.iterdir() if p.is_file() and p.suffix in (".h", ".hpp", ".def", ".inc"))
    for path in sorted(files, key=lambda p: p.as_posix()):
        add(path.as_posix(), hashlib.sha256(path.read_bytes()).hexdigest())
    return digest.hexdigest()[:24]


def _place(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` beside it first and then rename: a process that loaded the old module keeps
    the file it mapped."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    shutil.copy2(source, partial)
    os.replace(partial, target)


def _prune(cache: Path, keep: int = CACHE_KEEP) -> None:
    """Keep the ``keep`` newest compiled cores of ``cache``."""
    entries = sorted((p for p in cache.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[keep:]:
        shutil.rmtree(old, ignore_errors=True)


class OptionalBuildExt(build_ext):
    """``build_ext`` that goes on without the native core when compiling fails, leaving no partial module, and
    that reuses a core compiled before from the same inputs (:func:`build_key`, :func:`cache_dir`)."""

    def build_extension(self, ext: Any) -> None:
        target = Path(self.get_ext_fullpath(ext.name))
        cache = cache_dir()
        key = build_key(ext, self.compiler) if cache is not None else ""
        cached = cache / key / target.name if cache is not None else None
        if cached is not None and cached.is_file():
            _place(cached, target)
            os.utime(cached.parent)  # the newest entry: kept by _prune
            print(
                f"tribune-rl build: reused {ext.name} from {cached} (same sources, flags, compiler and Python); "
                "nothing compiled",
                file=sys.stderr,
                flush=True,
            )
            return
        compiler = (getattr(self.compiler, "compiler_so", None) or ["the C++ compiler"])[0]
        print(
            f"tribune-rl build: compiling {ext.name}: {len(ext.sources)} C++ sources with {compiler} "
            f"({' '.join(ext.extra_compile_args)}), {os.environ.get('TRIBUNE_BUILD_JOBS') or 'all'} jobs; "
            "a minute or more",
            file=sys.stderr,
            flush=True,
        )
        start = time.monotonic()
        super().build_extension(ext)
        seconds = time.monotonic() - start
        where = ""
        if cached is not None and target.is_file():
            try:
                _place(target, cached)
                _prune(cached.parent.parent)
                where = f"; kept in {cached.parent}"
            except OSError as err:  # a read-only or full cache: the build itself succeeded
                where = f"; not cached ({err})"
        print(f"tribune-rl build: compiled {ext.name} in {seconds:.0f} s{where}", file=sys.stderr, flush=True)

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
