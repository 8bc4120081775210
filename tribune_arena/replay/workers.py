"""How many processes draw a replay page's boards (:mod:`tribune_arena.replay.html`); apart so that the command line
can show the numbers without importing the board."""

from __future__ import annotations

import os

PARALLEL_MIN_DECISIONS = 500
"""Games with fewer decisions are drawn in this process by default. Starting the workers takes about 0.5 s, and on
a busy machine they only take turns with the work already there: on a shared 2-core machine (load 3-4), 2 workers
took 3.2 s for 251 decisions against 2.5 s in one process, 11.5 s against 10.5 s for 532, 41.8 s against 48.8 s
for 2,444 (2026-11-26)."""

MAX_DEFAULT_WORKERS = 4
"""The most workers :func:`default_workers` picks."""


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_workers(decisions: int) -> int:
    """The workers for a game of ``decisions`` decisions: one per usable CPU, at most :data:`MAX_DEFAULT_WORKERS`,
    or 1 (drawing in this process) for a game under :data:`PARALLEL_MIN_DECISIONS`."""
    if decisions < PARALLEL_MIN_DECISIONS:
        return 1
    return max(1, min(usable_cpus(), MAX_DEFAULT_WORKERS))
