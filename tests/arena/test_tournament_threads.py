"""A tournament's worker processes play with their native thread pools limited (:func:`tribune_env.threads.
limit_threads`): the ``thread-probe`` agent (:mod:`thread_probe`) reports the pools of the process it plays in
through its forfeit message. No timing is checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from thread_probe import reported

from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.threads import thread_limit


def test_worker_processes_limit_their_thread_pools(tmp_path: Path) -> None:
    limit = thread_limit()  # the workers inherit this process's environment (TRIBUNE_THREADS included)
    if limit is None:
        pytest.skip("TRIBUNE_THREADS turns the library's limits off")
    definition = TournamentDefinition.create(("thread-probe", "random"), players=2, games=2, round_limit=2)
    records = run_tournament(definition, tmp_path / "results.sqlite", workers=1, progress=False)
    assert len(records) == 2
    for record in records:
        assert record.forfeit is not None and record.forfeit.seat == record.seating.index("thread-probe")
        threads = reported(record.forfeit.message)
        assert any(name.startswith(("openblas", "mkl", "blis")) for name in threads), threads  # a BLAS
        assert set(threads.values()) == {limit}, threads


@pytest.mark.slow
@pytest.mark.ray
def test_worker_processes_under_ray_limit_their_thread_pools(tmp_path: Path) -> None:
    """Under Ray a game is played by the same supervised worker process, inside a Ray worker (whose threads Ray
    itself limits through OMP_NUM_THREADS unless the user set that variable: here it is set)."""
    import ray

    limit = thread_limit()
    if limit is None:
        pytest.skip("TRIBUNE_THREADS turns the library's limits off")
    support = str(Path(__file__).resolve().parents[1] / "support")  # where Ray's workers import thread_probe from
    path = os.pathsep.join([support, *filter(None, [os.environ.get("PYTHONPATH")])])
    # Ray starts its workers with OMP_NUM_THREADS=1 (which OpenBLAS obeys) unless it is set: set it to 3, so that
    # only the worker's own limit can bring the pools to one thread
    env = {"env_vars": {"PYTHONPATH": path, "OMP_NUM_THREADS": "3"}}
    ray.init(num_cpus=1, include_dashboard=False, configure_logging=False, runtime_env=env)
    try:
        definition = TournamentDefinition.create(("thread-probe", "random"), players=2, games=2, round_limit=2)
        records = run_tournament(definition, tmp_path / "results.sqlite", backend="ray", progress=False)
    finally:
        ray.shutdown()
    assert len(records) == 2
    for record in records:
        assert record.forfeit is not None
        assert set(reported(record.forfeit.message).values()) == {limit}
