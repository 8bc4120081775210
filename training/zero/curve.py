"""A ``zero`` run's learning curve: ``curve.csv`` (one row per iteration) and ``curve.png``.

A row has the iteration, the positions and games so far, the iteration's self-play speed and losses, the elapsed
training time, and, when the network was evaluated after that iteration, its win rate against ``players - 1`` copies
of the evaluation opponent with the 95% Wilson interval (:mod:`tribune_arena.tournament.stats`; empty otherwise).
Iteration 0 is the starting network (its evaluation only). Where the gate was held, a row also has the candidate's
head-to-head result against the best network and its result against the gate's opponent, with their intervals,
whether it was accepted and which iteration's network is the best afterwards.
"""

from __future__ import annotations

import csv
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from tribune_arena.tournament.stats import INTERVAL_NAME


@dataclass(frozen=True)
class CurveRow:
    """One iteration of the run (see the module docstring); ``nan`` where nothing was measured."""

    iteration: int
    positions: int  # recorded positions so far
    searched: int  # of which with a policy target
    games: int  # self-play games so far
    policy_loss: float = math.nan
    value_loss: float = math.nan
    loss: float = math.nan
    positions_per_second: float = math.nan  # self-play positions per second of wall time
    eval_games: int = 0
    win_rate: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    parity: float = math.nan
    elapsed: float = 0.0  # seconds of training so far (over every start of the run)
    clear: int = 0  # clear labels so far: searches that overrule the network by the margin (0 in older curves)
    # the gate (training.zero.gate), where one was held after this iteration (empty/nan otherwise, and in older curves)
    gate_games: int = 0  # head-to-head games of the candidate against the best network
    h2h_rate: float = math.nan
    h2h_low: float = math.nan
    h2h_high: float = math.nan
    gate_opponent_games: int = 0  # the candidate's games against the gate's opponent (0: not played)
    opponent_rate: float = math.nan
    opponent_low: float = math.nan
    opponent_high: float = math.nan
    accepted: int = -1  # 1: the candidate became the best network, 0: rejected, -1: no gate here
    best: int = -1  # the best network's iteration after this one (-1: unknown, older curves)


NAMES = [f.name for f in fields(CurveRow)]


def read_curve(path: Path) -> list[CurveRow]:
    """The rows of ``curve.csv`` (none when it does not exist); ValueError naming a bad line."""
    if not path.exists():
        return []
    kinds = {f.name: int if f.type in ("int", int) else float for f in fields(CurveRow)}
    rows = []
    with path.open(newline="", encoding="utf-8") as handle:
        for line, raw in enumerate(csv.DictReader(handle), 2):
            try:
                rows.append(CurveRow(**{k: kinds[k](v) for k, v in raw.items()}))  # type: ignore[arg-type]
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path}: line {line} is not a curve row: {raw}") from None
    return rows


def write_curve(path: Path, rows: list[CurveRow]) -> None:
    """Write ``rows`` as ``curve.csv``, atomically."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=NAMES)
        writer.writeheader()
        for row in rows:
            writer.writerow(asdict(row))
    tmp.replace(path)


def record(path: Path, row: CurveRow) -> list[CurveRow]:
    """Add ``row`` to ``curve.csv``, dropping rows of its iteration and later ones (a redone iteration); the rows."""
    rows = [r for r in read_curve(path) if r.iteration < row.iteration] + [row]
    write_curve(path, rows)
    return rows


def plot_curve(rows: list[CurveRow], path: Path, title: str, opponent: str) -> Path:
    """The win rate (with its interval as a band, parity dashed) and the losses against the iteration."""
    fig = Figure(figsize=(7.5, 6.5), layout="constrained")
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1, sharex=True)
    rated = [r for r in rows if r.eval_games]
    x = [r.iteration for r in rated]
    (line,) = top.plot(x, [100 * r.win_rate for r in rated], marker="o", label=f"zero-net vs {opponent}")
    top.fill_between(x, [100 * r.ci_low for r in rated], [100 * r.ci_high for r in rated], alpha=0.2,
                     color=line.get_color())
    if rated:
        top.axhline(100 * rated[0].parity, color="grey", linestyle="--", linewidth=1, label="parity")
    gated = [r for r in rows if r.gate_games]
    if gated:
        gx = [r.iteration for r in gated]
        top.errorbar(gx, [100 * r.h2h_rate for r in gated],
                     yerr=[[100 * (r.h2h_rate - r.h2h_low) for r in gated],
                           [100 * (r.h2h_high - r.h2h_rate) for r in gated]],
                     fmt="s", markersize=4, capsize=2, label="gate: candidate vs 3 x best")
        measured = [r for r in gated if r.gate_opponent_games]
        if measured:
            top.plot([r.iteration for r in measured], [100 * r.opponent_rate for r in measured], "^",
                     label=f"gate: candidate vs {opponent}")
        accepted = [r for r in gated if r.accepted == 1]
        top.plot([r.iteration for r in accepted], [100 * r.h2h_rate for r in accepted], "o", fillstyle="none",
                 markersize=10, color="green", label="accepted")
    top.set_ylabel(f"win rate, % ({INTERVAL_NAME})")
    top.set_ylim(0, 103)
    top.set_title(title)
    top.legend(loc="best")
    trained = [r for r in rows if not math.isnan(r.loss)]
    xs = [r.iteration for r in trained]
    bottom.plot(xs, [r.policy_loss for r in trained], marker=".", label="policy (cross-entropy)")
    bottom.plot(xs, [r.value_loss for r in trained], marker=".", label="value (squared error)")
    bottom.set_xlabel("iteration")
    bottom.set_ylabel("training loss")
    bottom.legend(loc="best")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp" + path.suffix)
    fig.savefig(tmp, dpi=110)
    tmp.replace(path)
    return path
