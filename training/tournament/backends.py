"""Where games are played: worker processes on this machine (:func:`run_local`) or a Ray cluster (:func:`run_ray`).

A backend takes scheduled games and yields their records as they finish (in
any order). Every backend plays a game with
:func:`~training.tournament.play.play_game`, so the records are the same on
every backend except for the timings. Closing the generator (or an exception,
Ctrl-C included) stops the workers; games still running are dropped.
"""

from __future__ import annotations

import importlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from training.tournament.play import PlaySettings, close_agents, import_modules, play_game, play_in_worker
from training.tournament.records import GameRecord
from training.tournament.schedule import ScheduledGame, TournamentError

BACKENDS = ("local", "ray")
#: tasks kept queued per worker, so that no worker waits for the next game
_QUEUED_PER_WORKER = 2


class WorkerCrash(TournamentError):
    """A worker process died (not an agent error: those are forfeits)."""


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# -- local ---------------------------------------------------------------------------


def _watch_parent() -> None:
    """Exit this worker when the tournament process dies (even by SIGKILL), instead of waiting for work forever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        if hasattr(signal, "pthread_sigmask"):  # signals (the move timer, Ctrl-C) belong to the main thread
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="tribune-parent-watch", daemon=True).start()


def _init_worker(modules: tuple[str, ...]) -> None:
    """Worker start: Ctrl-C is the parent's business; exit with the parent; import the agents' modules."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent()
    import_modules(modules)


def _pool(workers: int, settings: PlaySettings) -> ProcessPoolExecutor:
    """A pool of fresh interpreters (forkserver: no fork of a threaded parent), the engine preloaded."""
    if "__main__" in settings.modules:
        raise TournamentError(
            "an agent is defined in __main__, which worker processes cannot import: "
            "use one worker, or register the agent in an importable module"
        )
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["training.tournament.play"])
    return ProcessPoolExecutor(workers, context, initializer=_init_worker, initargs=(settings.modules,))


def _stop(pool: ProcessPoolExecutor, graceful: bool) -> None:
    """Shut the pool down; unless ``graceful``, kill the games still running."""
    if graceful:
        pool.shutdown(wait=True)
        return
    processes: list[Any] = list((getattr(pool, "_processes", None) or {}).values())  # no public API before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


def _inline(games: Sequence[ScheduledGame], settings: PlaySettings) -> Generator[GameRecord, None, None]:
    try:
        for game in games:
            try:
                record = play_game(game, settings.options, settings.time_limit)
            except Exception as exc:
                raise TournamentError(f"game {game.game_id} failed: {type(exc).__name__}: {exc}") from exc
            yield record
    finally:
        close_agents()


def _result(future: Future[GameRecord], game: ScheduledGame, running: Sequence[ScheduledGame]) -> GameRecord:
    try:
        return future.result()
    except BrokenProcessPool:
        ids = ", ".join(str(g.game_id) for g in sorted([game, *running], key=lambda g: g.game_id))
        raise WorkerCrash(
            f"a worker process died while playing one of the games {ids}; the games finished before are stored"
        ) from None
    except Exception as exc:
        raise TournamentError(f"game {game.game_id} failed: {type(exc).__name__}: {exc}") from exc


def run_local(
    games: Sequence[ScheduledGame], settings: PlaySettings, workers: int | None = None
) -> Generator[GameRecord, None, None]:
    """Play ``games`` in ``workers`` processes (default: one per CPU); one worker plays in this process."""
    workers = min(workers or default_workers(), len(games))
    if workers <= 1:
        yield from _inline(games, settings)
        return
    pool = _pool(workers, settings)
    todo = iter(games)
    pending: dict[Future[GameRecord], ScheduledGame] = {}
    graceful = False
    try:
        while True:
            for game in todo:
                pending[pool.submit(play_in_worker, game, settings)] = game
                if len(pending) >= workers * _QUEUED_PER_WORKER:
                    break
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: (f.exception() is not None, pending[f].game_id)):  # good first
                game = pending.pop(future)
                yield _result(future, game, list(pending.values()))
        graceful = True
    finally:
        _stop(pool, graceful)


# -- Ray -----------------------------------------------------------------------------


def import_ray() -> Any:
    """The ray module; a TournamentError saying how to install it if it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise TournamentError("the ray backend needs Ray: pip install 'tribune-rl[ray]'") from None


def _ray_play(game: ScheduledGame, settings: PlaySettings) -> dict[str, Any]:
    """The Ray task: one game, returned as a plain dict."""
    return play_in_worker(game, settings).to_dict()


def _ray_init(ray: Any, address: str | None, workers: int | None) -> bool:
    """Connect to (or start) Ray unless this process already did; ``True`` if this call did."""
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"address": address, "include_dashboard": False, "configure_logging": False}
    if address is None and workers:
        options["num_cpus"] = workers
    try:
        ray.init(**options)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        raise TournamentError(f"cannot start or reach Ray at {address or 'a new local instance'}: {exc}") from None
    return True


def run_ray(
    games: Sequence[ScheduledGame],
    settings: PlaySettings,
    address: str | None = None,
    workers: int | None = None,
) -> Generator[GameRecord, None, None]:
    """Play ``games`` as Ray tasks, one CPU each: ``address`` as for ``ray.init`` (``None``: a new local
    instance with ``workers`` CPUs, ``"auto"``: the running cluster); a Ray already initialised here is used as is."""
    ray = import_ray()
    owned = _ray_init(ray, address, workers)
    task = ray.remote(num_cpus=1, max_retries=0)(_ray_play)
    limit = max(1, int(ray.cluster_resources().get("CPU", 1))) * _QUEUED_PER_WORKER
    todo = iter(games)
    pending: dict[Any, ScheduledGame] = {}
    try:
        while True:
            for game in todo:
                pending[task.remote(game, settings)] = game
                if len(pending) >= limit:
                    break
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                game = pending.pop(ref)
                yield _ray_result(ray, ref, game)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if owned:
            ray.shutdown()


def _ray_result(ray: Any, ref: Any, game: ScheduledGame) -> GameRecord:
    try:
        return GameRecord.from_dict(ray.get(ref))
    except ray.exceptions.RayError as exc:
        raise TournamentError(f"game {game.game_id} failed on Ray: {exc}") from None
