"""``zero``'s simulated decisions per second before and after a change, on both engines, in one run (issue 34, item 4).

    python native/tools/zero_compare.py --before 857e698 --repeat 5 --decisions 10

Runs ``native/tools/zero_speed.py`` (its settings: ``--decisions``, ``--simulations``, ``--rules``) in a fresh process
for every (version, engine) pair, interleaved ``--repeat`` times so that the machine's load falls alike on all of them:
the working tree's ``agents/zero.py`` ("after") and, with ``--before REV``, that revision's ``agents/zero.py`` loaded
in its place ("before"; the rest of the tree is the working tree's). Prints every figure, the median of each pair,
the moves' digests (the same everywhere when the change keeps the moves) and the ratios to the Python engine before.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIM = """
import importlib.util, runpy, sys
import agents
spec = importlib.util.spec_from_file_location("agents.zero", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules["agents.zero"] = module
spec.loader.exec_module(module)
sys.argv = ["zero_speed.py", *sys.argv[2:]]
runpy.run_path("native/tools/zero_speed.py", run_name="__main__")
"""
LINE = re.compile(r"([\d,]+) simulated decisions/s; moves (\w+)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="a git revision whose agents/zero.py is the 'before'")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--rules", default="base")
    args = parser.parse_args()
    settings = ["--decisions", str(args.decisions), "--simulations", str(args.simulations), "--rules", args.rules]
    with tempfile.TemporaryDirectory() as tmp:
        versions: dict[str, list[str]] = {"after": [sys.executable, "native/tools/zero_speed.py", *settings]}
        if args.before:
            old = subprocess.run(
                ["git", "show", f"{args.before}:agents/zero.py"], cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout
            path = Path(tmp) / "zero_before.py"
            path.write_text(old)
            versions = {"before": [sys.executable, "-c", SHIM, str(path), *settings], **versions}
        figures: dict[tuple[str, str], list[float]] = {}
        digests: set[str] = set()
        for _ in range(args.repeat):
            for version, command in versions.items():
                for engine in ("python", "native"):
                    env = {**os.environ, "TRIBUNE_ENGINE": engine}
                    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
                    found = LINE.search(run.stdout)
                    if found is None:
                        raise SystemExit(f"no figure in: {run.stdout}{run.stderr}")
                    rate = float(found.group(1).replace(",", ""))
                    figures.setdefault((version, engine), []).append(rate)
                    digests.add(found.group(2))
                    print(f"{version:6s} {engine:6s} {rate:10,.0f} simulated decisions/s  moves {found.group(2)}")
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs; moves digests: {', '.join(sorted(digests))}")
    base = statistics.median(figures[("before", "python")]) if args.before else None
    for (version, engine), rates in figures.items():
        median = statistics.median(rates)
        ratio = f"  {median / base:.2f}x the Python engine before" if base else ""
        print(f"median {version:6s} {engine:6s} {median:10,.0f}{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
