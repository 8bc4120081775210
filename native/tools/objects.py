"""The incremental compile that ``build.py`` (the development core) and ``sanitize.py`` (the sanitized core) share:
an object file per source of ``native/src``, recompiled when its source, or any header, is newer."""

from __future__ import annotations

import os
import subprocess
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "native" / "src"


def compiler() -> str:
    """The C++ compiler: ``CXX``, else g++."""
    return os.environ.get("CXX", "g++")


def compile_flags(*extra: str) -> list[str]:
    """The core's compile flags (C++20, position independent, hidden symbols, warnings, the include paths of the
    sources, pybind11 and Python), then ``extra`` (optimisation, sanitizers)."""
    import pybind11

    include = sysconfig.get_paths()["include"]
    base = ["-std=c++20", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra", f"-I{SRC}"]
    return [*base, f"-I{pybind11.get_include()}", f"-I{include}", *extra]


def compile_objects(objects: Path, flags: list[str], jobs: int) -> list[Path]:
    """Compile the changed sources into ``objects`` (``jobs`` at a time); every source's object, in source order.
    RuntimeError with the compiler's messages when one fails."""
    objects.mkdir(parents=True, exist_ok=True)
    headers = max((p.stat().st_mtime for p in SRC.glob("*.[hd]*")), default=0.0)
    cxx = compiler()

    def compile_one(src: Path) -> tuple[Path, str]:
        obj = objects / (src.stem + ".o")
        if obj.exists() and obj.stat().st_mtime > max(src.stat().st_mtime, headers):
            return obj, ""
        run = subprocess.run([cxx, *flags, "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
        return obj, run.stderr if run.returncode else ""

    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(compile_one, sorted(SRC.glob("*.cpp"))))
    errors = [err for _, err in results if err]
    if errors:
        raise RuntimeError("\n".join(errors))
    return [obj for obj, _ in results]
