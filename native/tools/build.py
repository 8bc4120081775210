"""Build the native core in place for development: ``python native/tools/build.py`` (incremental, an object per source).

Writes ``tribune_env/_core<ext suffix>`` next to the Python sources, as an editable install does. ``pip install .``
and ``pip install -e .`` build the same sources through setup.py; this script is the quick loop while porting
(only changed sources are recompiled: a header change recompiles everything).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "native" / "src"
OBJ = ROOT / "build" / "native-dev"


def flags() -> list[str]:
    import pybind11

    return [
        "-std=c++20",
        "-O2",
        "-fPIC",
        "-fvisibility=hidden",
        "-Wall",
        "-Wextra",
        f"-I{SRC}",
        f"-I{pybind11.get_include()}",
        f"-I{sysconfig.get_paths()['include']}",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-j", type=int, default=2, help="parallel compilations (default 2)")
    args = parser.parse_args()
    OBJ.mkdir(parents=True, exist_ok=True)
    headers = max((p.stat().st_mtime for p in SRC.glob("*.[hd]*")), default=0.0)
    sources = sorted(SRC.glob("*.cpp"))
    cxx = os.environ.get("CXX", "g++")
    base = flags()

    def compile_one(src: Path) -> tuple[Path, str]:
        obj = OBJ / (src.stem + ".o")
        if obj.exists() and obj.stat().st_mtime > max(src.stat().st_mtime, headers):
            return obj, ""
        run = subprocess.run([cxx, *base, "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
        return obj, run.stderr if run.returncode else ""

    with ThreadPoolExecutor(args.j) as pool:
        results = list(pool.map(compile_one, sources))
    errors = [err for _, err in results if err]
    if errors:
        sys.stderr.write("\n".join(errors))
        return 1
    target = ROOT / "tribune_env" / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    partial = OBJ / target.name  # linked beside, then moved: a running process keeps the library it loaded
    link = [cxx, "-shared", "-o", str(partial), *(str(o) for o, _ in results)]
    run = subprocess.run(link, capture_output=True, text=True)
    if run.returncode:
        sys.stderr.write(run.stderr)
        return 1
    os.replace(partial, target)
    print(f"built {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
