"""Evaluation of a checkpoint through the tournament runner, its CSV log and the learning-curve plot.

:func:`evaluate_checkpoint` seats ``ppo:CHECKPOINT`` with ``players - 1``
copies of each fixed opponent, seats rotated with duplicate deals (the
tournament runner's schedule), and reports the win rate with its 95% Wilson
interval (the tournaments' :func:`~tribune_arena.tournament.stats.win_rate_interval`:
never a point, also at 0 or all wins). Each evaluation is stored as a results file, so it can be
replayed and re-analysed with ``tribune replay`` / ``tribune tournament``.
Rows go to ``eval.csv`` (:func:`record_rows`: a point evaluated again replaces
its rows, so redoing an evaluation never adds a second one); :func:`plot_learning_curve` draws it.

The results files name the learner by its path, so a run folder that was moved
or copied finds files whose learner path differs from its own; such a file (the
same evaluation, written before the move) is moved to ``superseded/`` and the
evaluation played again, rather than refused.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_arena.tournament.stats import INTERVAL_NAME, percent_range
from tribune_arena.tournament.store import ResultStore, StoreError
from tribune_env.engine.config import GameConfig


@dataclass(frozen=True)
class EvalRow:
    """One evaluation: the checkpoint at ``timesteps`` against ``players - 1`` copies of ``opponent``; ``ci_low``
    and ``ci_high`` are the ends of the win rate's 95% Wilson interval (bootstrap intervals in older ``eval.csv``)."""

    timesteps: int
    opponent: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    parity: float
    mean_rank: float
    seconds_per_move: float

    def result(self) -> str:
        """``"8/8 = 100.0% (95% Wilson interval 67.6-100.0%, parity 25%)"``: the row as a training log prints it."""
        interval = percent_range((self.ci_low, self.ci_high), digits=1)
        return f"{self.wins}/{self.games} = {self.win_rate:.1%} ({INTERVAL_NAME} {interval}, parity {self.parity:.0%})"


def evaluate_checkpoint(
    checkpoint: Path,
    timesteps: int,
    opponents: list[str],
    games: int,
    game: GameConfig,
    store_dir: Path,
    seed: int = 0,
    workers: int | None = None,
    note: Callable[[str], None] | None = None,
) -> list[EvalRow]:
    """Win rate (95% Wilson interval) of ``checkpoint`` against each opponent in games of ``game`` (a tournament's:
    :meth:`TournamentDefinition.for_config`, ValueError naming an option no tournament plays); results files go to
    ``store_dir``.

    An existing results file of the same evaluation is resumed; one written
    before the run folder moved is set aside (``note`` says so, see the module docstring).
    """
    rows = []
    store_dir.mkdir(parents=True, exist_ok=True)
    learner = f"ppo:{checkpoint}"
    for opponent in opponents:
        specs = (learner, *[opponent] * (game.players - 1))
        definition = TournamentDefinition.for_config(specs, game, games=games, seed=seed)
        store = store_dir / f"step-{timesteps:09d}-vs-{_slug(opponent)}.sqlite"
        if _moved(store, definition):
            aside = set_aside(store)
            if note is not None:
                note(f"{store} was written where the run folder used to be: moved to {aside}, evaluating again")
        records = run_tournament(definition, store, workers=workers, progress=False)
        entry = summarize(records).entry(definition.specs[0])
        rows.append(
            EvalRow(
                timesteps=timesteps,
                opponent=opponent,
                games=entry.games,
                wins=entry.wins,
                win_rate=entry.win_rate,
                ci_low=entry.win_rate_ci[0],
                ci_high=entry.win_rate_ci[1],
                parity=entry.parity,
                mean_rank=entry.mean_rank,
                seconds_per_move=entry.seconds_per_move,
            )
        )
    return rows


def _moved(store: Path, definition: TournamentDefinition) -> bool:
    """Whether ``store`` holds this evaluation but names the learner at another place (the same file name)."""
    if not store.is_file():
        return False
    try:
        with ResultStore(store) as old:
            stored = old.definition
    except StoreError:
        return False  # run_tournament says what is wrong with it
    wanted = definition.to_dict()
    specs = stored.get("specs")
    if stored == wanted or not isinstance(specs, list) or len(specs) != len(wanted["specs"]):
        return False
    if {**stored, "specs": specs[1:]} != {**wanted, "specs": wanted["specs"][1:]}:
        return False
    old_learner, learner = str(specs[0]), wanted["specs"][0]
    return old_learner.startswith("ppo:") and Path(old_learner[4:]).name == Path(learner[4:]).name


def set_aside(store: Path) -> Path:
    """Move a results file (with its ``-wal`` and ``-shm``) to ``superseded/TIME/`` beside it; returns the new path."""
    target = store.parent / "superseded" / time.strftime("%Y%m%d-%H%M%S")
    target.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        part = store.with_name(store.name + suffix)
        if part.exists():
            part.replace(target / part.name)
    return target / store.name


def _slug(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "-_=" else "_" for c in spec)


def append_rows(path: Path, rows: list[EvalRow]) -> None:
    """Append ``rows`` to the CSV at ``path`` (header written when the file is new)."""
    names = [f.name for f in fields(EvalRow)]
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=names)
        if new:
            writer.writeheader()
        for row in rows:
            writer.writerow(asdict(row))


def record_rows(path: Path, rows: list[EvalRow]) -> None:
    """Add ``rows`` to the CSV at ``path``, replacing rows of the same step and opponent (written atomically)."""
    new = {(r.timesteps, r.opponent) for r in rows}
    kept = [r for r in read_rows(path) if (r.timesteps, r.opponent) not in new]
    _write_rows(path, kept + rows)


def _write_rows(path: Path, rows: list[EvalRow]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    append_rows(tmp, rows)  # header only when there is no row
    tmp.replace(path)


def read_rows(path: Path) -> list[EvalRow]:
    """The rows of an ``eval.csv`` (empty if the file does not exist)."""
    if not path.exists():
        return []
    types = {f.name: f.type for f in fields(EvalRow)}
    out = []
    with path.open(newline="", encoding="utf-8") as handle:
        for line, raw in enumerate(csv.DictReader(handle), 2):
            try:
                values: dict[str, object] = {k: _parse(v, types[k]) for k, v in raw.items()}
                out.append(EvalRow(**values))  # type: ignore[arg-type]
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path}: line {line} is not an evaluation row: {raw}") from None
    return out


def _parse(text: str, kind: object) -> object:
    return int(text) if kind == "int" else text if kind == "str" else float(text)


def drop_after(path: Path, timesteps: int) -> None:
    """Forget evaluations later than ``timesteps`` (a run resumed from an earlier checkpoint redoes them)."""
    rows = [r for r in read_rows(path) if r.timesteps <= timesteps]
    if path.exists():
        _write_rows(path, rows)


def plot_learning_curve(rows: list[EvalRow], path: Path, title: str = "learning curve") -> Path:
    """Win rate with its 95% Wilson interval as a band against training steps, one line per opponent, parity dashed."""
    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for opponent in dict.fromkeys(r.opponent for r in rows):
        mine = sorted((r for r in rows if r.opponent == opponent), key=lambda r: r.timesteps)
        x = [r.timesteps for r in mine]
        (line,) = ax.plot(x, [100 * r.win_rate for r in mine], marker="o", label=f"vs {opponent}")
        ax.fill_between(x, [100 * r.ci_low for r in mine], [100 * r.ci_high for r in mine], alpha=0.2,
                        color=line.get_color())
    if rows:
        ax.axhline(100 * rows[0].parity, color="grey", linestyle="--", linewidth=1, label="parity")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel(f"win rate, % ({INTERVAL_NAME})")
    ax.set_ylim(0, 103)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path
