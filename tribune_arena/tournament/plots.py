"""PNG plots of tournament :class:`~tribune_arena.tournament.results.Results` (matplotlib, no display needed).

Figures are drawn on matplotlib's Agg canvas directly (no ``pyplot``, no
global backend switch), so this works headless and in threads.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from tribune_arena.tournament.results import Results
from tribune_arena.tournament.stats import INTERVAL_NAME

RATING_PNG = "rating.png"
WIN_RATE_PNG = "win_rate.png"
SIGMAS = 2  # rating error bars: mu ± 2 sigma


def _figure(n: int) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(max(6.0, 1.1 * n + 2), 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _rating(results: Results, path: Path) -> None:
    specs = [e.spec for e in results.entries]
    fig, ax = _figure(len(specs))
    x = list(range(len(specs)))
    ax.errorbar(
        x,
        [e.mu for e in results.entries],
        yerr=[SIGMAS * e.sigma for e in results.entries],
        fmt="o",
        capsize=5,
        label=f"mu ± {SIGMAS} sigma",
    )
    ax.scatter(x, [e.ordinal for e in results.entries], marker="_", s=200, color="tab:red", label="mu - 3 sigma")
    ax.axhline(25.0, color="grey", linestyle=":", linewidth=1, label="initial mu (25)")
    ax.set_xticks(x, specs, rotation=20, ha="right")
    ax.set_xlabel("agent")
    ax.set_ylabel("rating (openskill Plackett-Luce)")
    ax.set_title(f"Ratings after {results.games} games (error bars: ±{SIGMAS} sigma)")
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=100)


def _win_rate(results: Results, path: Path) -> None:
    specs = [e.spec for e in results.entries]
    fig, ax = _figure(len(specs))
    x = list(range(len(specs)))
    rates = [e.win_rate for e in results.entries]
    low = [max(0.0, e.win_rate - e.win_rate_ci[0]) for e in results.entries]
    high = [max(0.0, e.win_rate_ci[1] - e.win_rate) for e in results.entries]
    ax.bar(x, rates, color="tab:blue", alpha=0.7)
    ax.errorbar(x, rates, yerr=[low, high], fmt="none", ecolor="black", capsize=5, label=INTERVAL_NAME)
    parities = sorted({round(e.parity, 6) for e in results.entries})
    for i, parity in enumerate(parities):
        label = "parity (1 / players)" if i == 0 else None
        ax.axhline(parity, color="tab:red", linestyle="--", linewidth=1, label=label)
    ax.set_xticks(x, specs, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_xlabel("agent")
    ax.set_ylabel("win rate")
    ax.set_title(f"Win rate over {results.games} games ({INTERVAL_NAME}s over seat-games)")
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=100)


def save_plots(results: Results, out_dir: str | Path) -> list[Path]:
    """Write ``rating.png`` (mu ± 2 sigma, and mu - 3 sigma) and ``win_rate.png`` (bars, 95% Wilson intervals,
    parity line).

    Creates ``out_dir``; returns the paths written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / RATING_PNG, out / WIN_RATE_PNG]
    _rating(results, paths[0])
    _win_rate(results, paths[1])
    return paths
