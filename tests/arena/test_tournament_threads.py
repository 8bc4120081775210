"""A tournament's worker processes play with their native thread pools limited (:func:`tribune_env.threads.
limit_threads`): the ``thread-probe`` agent (:mod:`thread_probe`) reports the pools of the process it plays in
through its forfeit message. No timing is checked."""

from __future__ import annotations

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
        assert threads.get("openblas", threads.get("mkl", threads.get("blis"))) is not None, threads  # a BLAS
        assert set(threads.values()) == {limit}, threads
