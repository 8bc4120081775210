"""The learner's win rate at the agent tables during a pool run, per span of decisions:
``python -m training.pool.table_rates RUN_DIR [RUN_DIR ...] [--span MILLIONS]``.

Each training row of a run's ``curve.csv`` holds ``table_win_rate``: the share of the games against
``opponents.table_agent`` (``opponents.table_games``) that ended in that rollout and that the learner won, playing
its sampled moves. This prints, for each span of ``--span`` million decisions, the mean over the rollouts in it and a
95% interval from their spread (each rollout ends some dozens of games). It is how a run whose network no agent can
play (``network.sight``) is measured, and how it compares with a run that has evaluations too.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """The rollouts of a run whose decisions count lies in ``(start, stop]``: their mean table win rate, with the
    half-width of its 95% interval (normal, from the rollouts' spread; 0 with one rollout)."""

    start: int
    stop: int
    rollouts: int
    mean: float
    half_width: float


def table_rates(run_dir: Path, span: int) -> list[Span]:
    """The spans of ``span`` decisions of ``run_dir``'s training rows that have a table win rate."""
    if span < 1:
        raise ValueError(f"span: must be >= 1 decision, got {span}")
    path = run_dir / "curve.csv"
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = [r for r in csv.DictReader(handle) if r.get("kind") == "train" and r.get("table_win_rate")]
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    groups: dict[int, list[float]] = {}
    for row in rows:
        groups.setdefault((int(row["decisions"]) - 1) // span, []).append(float(row["table_win_rate"]))
    return [_span(k * span, (k + 1) * span, rates) for k, rates in sorted(groups.items())]


def _span(start: int, stop: int, rates: list[float]) -> Span:
    n = len(rates)
    spread = statistics.stdev(rates) if n > 1 else 0.0
    return Span(start, stop, n, statistics.fmean(rates), 1.96 * spread / math.sqrt(n))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.pool.table_rates", description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="pool run folders (each with its curve.csv)")
    parser.add_argument("--span", type=float, default=2.0, help="millions of decisions a line (default 2)")
    args = parser.parse_args(argv)
    for run in args.runs:
        try:
            spans = table_rates(run, round(args.span * 1e6))
        except ValueError as exc:
            parser.error(str(exc))
        print(f"{run}:")
        if not spans:
            print("  no table win rates (opponents.table_games was 0)")
        for s in spans:
            print(f"  {s.start / 1e6:5.1f}-{s.stop / 1e6:5.1f} M decisions: {100 * s.mean:5.1f}% "
                  f"(+-{100 * s.half_width:.1f}, {s.rollouts} rollouts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
