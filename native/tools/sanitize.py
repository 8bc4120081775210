"""The native core under AddressSanitizer and UndefinedBehaviorSanitizer (issue 41): build it, run the checks.

    python native/tools/sanitize.py                   # build (incremental) and run the lockstep test and fuzzers
    python native/tools/sanitize.py --build-only      # only build
    python native/tools/sanitize.py -- tests/native   # other pytest arguments

The sanitized core is compiled with ``-fsanitize=address,undefined`` into ``build/native-asan/`` (its objects and
its ``_core`` library), never over the checkout's ``tribune_env/_core``. The checks run in a Python that preloads
the ASan runtime and the C++ runtime (``LD_PRELOAD``: the interpreter itself is not built with them) and that
loads the sanitized library as ``tribune_env._core`` (a ``sitecustomize`` in ``build/native-asan/site`` put on
``PYTHONPATH``); the fuzzers' child processes inherit both. Any ASan or UBSan report aborts the process that
meets it (``abort_on_error``): a test fails, and a fuzzer's child dies of SIGABRT naming its case. Leak detection
is off (CPython keeps much alive until exit). ``TRIBUNE_FUZZ_CASES`` sets the quick fuzzers' case count (default
200 each). The default checks run on every core (``-n auto``) where pytest-xdist is installed.

Exit status: 0 when every check passes, else pytest's (or 1 for a failed build).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from objects import ROOT, compile_flags, compile_objects, compiler

OUT = ROOT / "build" / "native-asan"
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
CHECKS = [
    "tests/native/test_lockstep.py",
    "tests/native/test_door_checks.py",
    "tests/native/test_pool.py",
    "tests/engine/test_native_fuzz.py",
]
SITECUSTOMIZE = '''"""Load the sanitized native core as tribune_env._core (native/tools/sanitize.py)."""
import importlib.machinery
import importlib.util
import sys

_spec = importlib.util.spec_from_file_location(
    "tribune_env._core", {path!r}, loader=importlib.machinery.ExtensionFileLoader("tribune_env._core", {path!r})
)
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
sys.modules["tribune_env._core"] = _module
'''


def build(jobs: int) -> Path:
    """Compile the changed sources into ``build/native-asan`` (the development build's flags at -O1 with debug
    information and the sanitizers) and link the sanitized core (unless it is newer than every object); its path.
    One build at a time: a second waits for the first (``build/native-asan/.lock``; .ci/run starts one in the
    background that .ci/native's then finds done)."""
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or when the process dies
        return _build(jobs)


def _build(jobs: int) -> Path:
    objects = compile_objects(OUT / "obj", compile_flags("-O1", "-g", *SANITIZE), jobs)
    target = OUT / ("_core" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    if not target.exists() or target.stat().st_mtime <= max(o.stat().st_mtime for o in objects):
        link = [compiler(), "-shared", *SANITIZE, "-o", str(target), *(str(o) for o in objects)]
        run = subprocess.run(link, capture_output=True, text=True)
        if run.returncode:
            raise RuntimeError(run.stderr)
    site = OUT / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE.format(path=str(target)))
    return target


def runtime() -> str:
    """The libraries to preload ahead of the interpreter: the compiler's ASan runtime, then its C++ runtime (the
    interpreter does not link libstdc++: loaded later, its ``__cxa_throw`` escapes ASan's interceptor, which then
    aborts at the core's first C++ exception)."""
    cxx = compiler()
    paths = []
    for name in ("libasan.so", "libstdc++.so.6"):
        run = subprocess.run([cxx, f"-print-file-name={name}"], capture_output=True, text=True, check=True)
        path = run.stdout.strip()
        if not os.path.isabs(path):
            raise RuntimeError(f"{cxx} knows no {name} (install the compiler's sanitizer and C++ runtimes)")
        paths.append(path)
    return " ".join(paths)


def environment() -> dict[str, str]:
    """The checks' environment: the preloaded runtime, the sitecustomize, the native engine, abort on a report."""
    env = dict(os.environ)
    env["LD_PRELOAD"] = runtime()
    env["PYTHONPATH"] = os.pathsep.join([str(OUT / "site"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1:halt_on_error=1:detect_odr_violation=0"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:abort_on_error=1"
    env["TRIBUNE_ENGINE"] = "native"
    env["TRIBUNE_SANITIZED_CORE"] = str(OUT)
    return env


def parallel() -> list[str]:
    """``-n auto`` where pytest-xdist is installed (the checks' workers inherit the preload and the sanitized
    core, as the fuzzers' children do), else nothing: the checks then run in one process."""
    import importlib.util

    return ["-n", "auto"] if importlib.util.find_spec("xdist") is not None else []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-j", type=int, default=2, help="parallel compilations (default 2)")
    parser.add_argument("--build-only", action="store_true", help="build the sanitized core and stop")
    parser.add_argument("pytest_args", nargs="*", help="pytest arguments (after --); default: the checks")
    args = parser.parse_args()
    try:
        target = build(args.j)
    except RuntimeError as exc:
        sys.stderr.write(f"sanitize: the build failed:\n{exc}\n")
        return 1
    print(f"sanitize: built {target.relative_to(ROOT)}", flush=True)
    if args.build_only:
        return 0
    env = environment()
    probe = "import tribune_env._core as c, sys; print(c.__file__)"
    loaded = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=ROOT)
    if loaded.returncode or str(OUT) not in loaded.stdout:
        sys.stderr.write(f"sanitize: the sanitized core does not load:\n{loaded.stdout}{loaded.stderr}\n")
        return 1
    pytest_args = args.pytest_args or [*CHECKS, "-m", "not slow", "-p", "no:randomly", *parallel()]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args]
    print("sanitize: " + " ".join(command), flush=True)
    return subprocess.run(command, env=env, cwd=ROOT).returncode


if __name__ == "__main__":
    raise SystemExit(main())
