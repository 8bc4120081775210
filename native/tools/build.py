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

from objects import ROOT, compile_flags, compile_objects, compiler

OBJ = ROOT / "build" / "native-dev"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-j", type=int, default=2, help="parallel compilations (default 2)")
    args = parser.parse_args()
    try:
        objects = compile_objects(OBJ, compile_flags("-O2"), args.j)
    except RuntimeError as exc:
        sys.stderr.write(str(exc))
        return 1
    target = ROOT / "tribune_env" / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    partial = OBJ / target.name  # linked beside, then moved: a running process keeps the library it loaded
    link = [compiler(), "-shared", "-o", str(partial), *(str(o) for o in objects)]
    run = subprocess.run(link, capture_output=True, text=True)
    if run.returncode:
        sys.stderr.write(run.stderr)
        return 1
    os.replace(partial, target)
    print(f"built {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
