"""Where games are played: supervised worker processes on this machine (:func:`run_local`) or a Ray cluster
(:func:`run_ray`).

A backend takes scheduled games and yields their records as they finish (in
any order). Every backend plays a game with
:func:`~tribune_arena.tournament.play.play_game` in a worker process supervised by
:class:`~tribune_arena.tournament.workers.WorkerPool` (on Ray, one inside each Ray
worker), so whatever an agent does (hang, ignore the alarm, exit, kill its
process) ends as a forfeit of its game and the records are the same on every
backend except for the timings. Closing the generator (or an exception,
Ctrl-C included) stops the workers; games still running are dropped.
"""

from __future__ import annotations

import atexit
import importlib
import os
from collections.abc import Generator, Sequence
from typing import Any

from tribune_arena.records import GameRecord
from tribune_arena.supervision import close_agents
from tribune_arena.tournament.play import PlaySettings, play_game
from tribune_arena.tournament.schedule import ScheduledGame, TournamentError
from tribune_arena.tournament.workers import WorkerCrash as WorkerCrash
from tribune_arena.tournament.workers import WorkerPool
from tribune_env.extras import missing_extra

BACKENDS = ("local", "ray")
#: Ray tasks kept queued per CPU, so that no Ray worker waits for the next game
_QUEUED_PER_WORKER = 2
#: times Ray plays a game again elsewhere when its Ray worker process or node dies (never for an error of the game)
RAY_RETRIES = 3


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# -- local ---------------------------------------------------------------------------


def _inline(games: Sequence[ScheduledGame], settings: PlaySettings) -> Generator[GameRecord, None, None]:
    """Games played in this process: only for agents defined in ``__main__``, which no worker can import."""
    try:
        for game in games:
            try:
                record = play_game(game, settings.options, settings.time_limit, components=settings.components)
            except Exception as exc:
                raise TournamentError(f"game {game.game_id} failed: {type(exc).__name__}: {exc}") from exc
            yield record
    finally:
        close_agents()


def run_local(
    games: Sequence[ScheduledGame], settings: PlaySettings, workers: int | None = None
) -> Generator[GameRecord, None, None]:
    """Play ``games`` in ``workers`` supervised processes (default: one per CPU).

    Agents defined in ``__main__`` cannot be imported by a worker: with them
    the games are played in this process (one worker only), where the per-move
    limit is an alarm and an agent that exits or ignores it is not contained.
    """
    workers = min(workers or default_workers(), len(games))
    if "__main__" in settings.modules:
        if workers > 1:
            raise TournamentError(
                "an agent is defined in __main__, which worker processes cannot import: "
                "use one worker, or register the agent in an importable module"
            )
        yield from _inline(games, settings)
        return
    if not games:
        return
    with WorkerPool(workers, settings) as pool:
        yield from pool.run(games)


# -- Ray -----------------------------------------------------------------------------


def import_ray() -> Any:
    """The ray module; a TournamentError saying how to install it if it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise TournamentError(missing_extra("the ray backend", "ray")) from None


_RAY_POOL: list[tuple[PlaySettings, WorkerPool]] = []


def _close_ray_pool() -> None:
    for _, pool in _RAY_POOL:
        pool.close()


def _ray_pool(settings: PlaySettings) -> WorkerPool:
    """This Ray worker's supervised game process, kept from task to task while the settings stay the same."""
    if _RAY_POOL and _RAY_POOL[0][0] == settings:
        return _RAY_POOL[0][1]
    _close_ray_pool()
    if not _RAY_POOL:
        atexit.register(_close_ray_pool)
    _RAY_POOL[:] = [(settings, WorkerPool(1, settings))]
    return _RAY_POOL[0][1]


def _ray_play(game: ScheduledGame, settings: PlaySettings) -> dict[str, Any]:
    """The Ray task: one game in a supervised process, returned as a plain dict."""
    records = list(_ray_pool(settings).run([game]))  # to the end: a generator left open would kill the worker
    return records[0].to_dict()


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
        where = address or "a new local instance"
        raise TournamentError(f"cannot start or reach Ray at {where}: {exc}{ray_auth_hint(exc)}") from None
    return True


def ray_auth_hint(exc: BaseException) -> str:
    """What to do when ``ray.init`` failed because the cluster refused this process's token ("" otherwise): Ray
    says so only in the cause of its ``ConnectionError``."""
    text = f"{exc} {exc.__cause__ or ''}"
    if "InvalidAuthToken" not in text and "AuthenticationError" not in text:
        return ""
    return (
        " (the cluster refused this process's authentication token: set RAY_AUTH_MODE=token and give it the "
        "cluster's token in ~/.ray/auth_token, RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN)"
    )


def run_ray(
    games: Sequence[ScheduledGame],
    settings: PlaySettings,
    address: str | None = None,
    workers: int | None = None,
) -> Generator[GameRecord, None, None]:
    """Play ``games`` as Ray tasks, one CPU each: ``address`` as for ``ray.init`` (``None``: a new local
    instance with ``workers`` CPUs, ``"auto"``: the running cluster); a Ray already initialised here is used as is.

    A game lost with its Ray worker or node (a node that dies, a worker killed from outside) is played again on
    another worker, up to :data:`RAY_RETRIES` times: games are deterministic, so the retry's record is the one the
    lost game would have had, and each game is yielded once. An exception of the game itself is not retried.
    With no games to play, Ray is not needed (a finished tournament resumed after its cluster is gone)."""
    if not games:
        return
    ray = import_ray()
    owned = _ray_init(ray, address, workers)
    task = ray.remote(num_cpus=1, max_retries=RAY_RETRIES, retry_exceptions=False)(_ray_play)
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
