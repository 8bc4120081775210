"""Running a tournament into its results file: :func:`run_tournament`.

The games already in the results file are skipped, so running the same
tournament again resumes it; each finished game is stored before the next is
awaited, so an interruption (Ctrl-C, a kill, a crash) loses only the games
still being played.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from tribune_arena.records import GameRecord
from tribune_arena.tournament.backends import BACKENDS, default_workers, run_local, run_ray
from tribune_arena.tournament.play import PlaySettings, agent_modules
from tribune_arena.tournament.schedule import ScheduledGame, TournamentDefinition
from tribune_arena.tournament.store import ResultStore


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("" if speed is None else f"{speed:.1f} games/s", style="progress.data.speed")


@contextlib.contextmanager
def _progress(
    show: bool, done: int, total: int, console: Console | None, title: str = "tournament"
) -> Iterator[Callable[[], None]]:
    """A progress bar (if ``show``) over all games of the tournament; yields the function that counts one game."""
    if not show:
        yield lambda: None
        return
    columns = (
        TextColumn(title, style="bold"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console or Console(stderr=True)) as bar:
        task = bar.add_task("games", total=total, completed=done)
        yield lambda: bar.advance(task)


def _games(
    todo: list[ScheduledGame],
    settings: PlaySettings,
    backend: str,
    workers: int | None,
    address: str | None,
) -> Generator[GameRecord, None, None]:
    if backend == "ray":
        return run_ray(todo, settings, address=address, workers=workers)
    return run_local(todo, settings, workers=workers)


def _where(backend: str, workers: int | None) -> str:
    if backend == "ray":
        return "on Ray"
    count = workers or default_workers()
    return f"{count} worker{'s' if count != 1 else ''}"


def run_tournament(
    definition: TournamentDefinition,
    store_path: str | Path,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
    console: Console | None = None,
    only: Callable[[ScheduledGame], bool] | None = None,
    title: str = "tournament",
) -> list[GameRecord]:
    """Play the games of ``definition`` missing from the results file ``store_path`` and return all its records.

    ``backend`` is ``"local"`` (``workers`` processes, default one per CPU) or
    ``"ray"`` (``address`` as for ``ray.init``). Raises ``AgentError`` for a
    bad spec or an agent that does not play the games (``Agent.supports``'s message),
    :class:`~tribune_arena.tournament.store.StoreError` for a results
    file of another tournament or rule set (all before anything is written) and
    :class:`~tribune_arena.tournament.schedule.TournamentError` if a worker fails.
    Notes (schedule, resume, speed) go to ``console`` when one is given; ``title`` names the progress bar.
    ``only`` plays (and returns) the scheduled games it is true of and no other (a benchmark track plays the seatings
    of its agent's role and a prefix of the deals); the results file is the definition's all the same.
    Worker processes start fresh interpreters (forkserver), so a script that
    calls this with several workers needs the ``if __name__ == "__main__":`` guard.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    modules = agent_modules(definition.specs, definition.config())
    games = [game for game in definition.schedule() if only is None or only(game)]
    settings = PlaySettings(definition.options(), definition.time_limit, modules, definition.game.components)

    def note(text: str) -> None:
        if console is not None:
            console.print(text, soft_wrap=True, markup=False, highlight=False)

    with ResultStore(store_path, definition.to_dict()) as store:
        done = store.done_ids()
        todo = [game for game in games if game.game_id not in done]
        if only is None and len(games) != definition.games:
            note(f"{definition.games} games rounded up to {len(games)}: whole blocks of {definition.block_size()}")
        if done:
            note(f"resuming {store.path}: {len(games) - len(todo)} of {len(games)} games already played")
        start = time.perf_counter()
        stream = _games(todo, settings, backend, workers, address)
        show = progress and bool(todo)
        with contextlib.closing(stream), _progress(show, len(games) - len(todo), len(games), console, title) as tick:
            for record in stream:
                store.add(record)
                tick()
        if todo:
            elapsed = time.perf_counter() - start
            rate = len(todo) / elapsed
            note(f"played {len(todo)} games in {elapsed:.1f} s: {rate:.1f} games/s, {_where(backend, workers)}")
        if only is None:
            return store.records()
        wanted = {game.game_id for game in games}
        return [record for record in store.records() if record.game_id in wanted]
