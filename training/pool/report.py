"""The time-to-strength record of a pool run: ``python -m training.pool.report RUN_DIR OUT.json OUT.png``.

Reads the run's ``curve.csv`` (evaluation rows: win rate against ``players - 1`` copies of the eval opponent, with
its 95% Wilson interval) and writes a JSON record: for each threshold (40, 50, 60, 65%), the minutes of training
(``elapsed``, evaluations left out) and of wall time (evaluations included) at the first evaluation that reached it,
each plus the imitation minutes (``--imitation-minutes``: the distilled network's collection and fit) when the run
started from it; the CPU count, device, load samples (``--load`` a file of ``uptime``-style lines) and the command.
The PNG draws the win rate against minutes.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

THRESHOLDS = (0.40, 0.50, 0.60, 0.65)


def eval_rows(run_dir: Path) -> list[dict[str, Any]]:
    """The evaluation rows of ``curve.csv`` as numbers."""
    with (run_dir / "curve.csv").open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["kind"] == "eval"]
    keys = ("decisions", "elapsed", "wall", "learner_rows", "games", "win_rate", "ci_low", "ci_high")
    return [{"opponent": r["opponent"], **{k: float(r[k]) for k in keys}} for r in rows]


def record(
    run_dir: Path, imitation_minutes: float, command: str, load: list[str], extra: dict[str, Any]
) -> dict[str, Any]:
    """The JSON record (module docstring)."""
    rows = eval_rows(run_dir)
    reached: dict[str, Any] = {}
    for threshold in THRESHOLDS:
        first = next((r for r in rows if r["win_rate"] >= threshold), None)
        reached[f"{threshold:.0%}"] = None if first is None else {
            "training_minutes": round(first["elapsed"] / 60, 2),
            "training_plus_imitation_minutes": round(first["elapsed"] / 60 + imitation_minutes, 2),
            "wall_minutes": round(first["wall"] / 60, 2),
            "decisions": int(first["decisions"]),
            "win_rate": first["win_rate"],
            "interval": [first["ci_low"], first["ci_high"]],
        }
    return {
        "run": str(run_dir),
        "command": command,
        "cpus": len(os.sched_getaffinity(0)),
        "device": "cpu",
        "imitation_minutes": imitation_minutes,
        "evaluations": rows,
        "reached": reached,
        "load": load,
        **extra,
    }


def plot(rows: list[dict[str, Any]], imitation_minutes: float, path: Path, title: str) -> Path:
    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    x = [imitation_minutes + r["elapsed"] / 60 for r in rows]
    ax.plot(x, [100 * r["win_rate"] for r in rows], marker="o", label="vs 3 heuristic (400 deals)")
    ax.fill_between(x, [100 * r["ci_low"] for r in rows], [100 * r["ci_high"] for r in rows], alpha=0.2)
    for threshold in THRESHOLDS:
        ax.axhline(100 * threshold, color="grey", linestyle=":", linewidth=0.8)
    ax.axhline(25, color="grey", linestyle="--", linewidth=1, label="parity")
    if imitation_minutes:
        ax.axvline(imitation_minutes, color="tab:green", linestyle="--", linewidth=1, label="imitation done")
    ax.set_xlabel("minutes (imitation + training, evaluations left out)")
    ax.set_ylabel("win rate, % (95% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    fig.savefig(path, dpi=110)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.pool.report", description=__doc__.split("\n\n")[0])
    p.add_argument("run_dir", type=Path)
    p.add_argument("out_json", type=Path)
    p.add_argument("out_png", type=Path)
    p.add_argument("--imitation-minutes", type=float, default=0.0)
    p.add_argument("--command", default="")
    p.add_argument("--load", type=Path)
    p.add_argument("--extra", type=Path, help="a JSON object merged into the record")
    args = p.parse_args(argv)
    load = args.load.read_text(encoding="utf-8").splitlines() if args.load else []
    extra = json.loads(args.extra.read_text(encoding="utf-8")) if args.extra else {}
    data = record(args.run_dir, args.imitation_minutes, args.command, load, extra)
    args.out_json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    plot(data["evaluations"], args.imitation_minutes, args.out_png, f"time to strength: {args.run_dir.name}")
    print(json.dumps(data["reached"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
