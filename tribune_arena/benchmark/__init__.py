"""The standard strength benchmark behind ``tribune benchmark AGENT`` (``tribune bench`` is the speed benchmark).

* :mod:`~tribune_arena.benchmark.suite`: the versioned suite as data (:data:`~.suite.SUITE_VERSION`, the tracks).
* :mod:`~tribune_arena.benchmark.run`: playing it with the tournament runner and measuring the agent.
* :mod:`~tribune_arena.benchmark.record`: the JSON record a researcher publishes, and its tables.
"""

from tribune_arena.benchmark.record import (
    RecordError,
    compare_notes,
    compare_table,
    read_record,
    record_of,
    record_table,
    write_record,
)
from tribune_arena.benchmark.run import BenchmarkRun, TrackResult, run_benchmark, run_track
from tribune_arena.benchmark.suite import STANDARD_DEALS, SUITE_VERSION, TRACKS, SuiteError, Track, select_tracks

__all__ = [
    "STANDARD_DEALS",
    "SUITE_VERSION",
    "TRACKS",
    "BenchmarkRun",
    "RecordError",
    "SuiteError",
    "Track",
    "TrackResult",
    "compare_notes",
    "compare_table",
    "read_record",
    "record_of",
    "record_table",
    "run_benchmark",
    "run_track",
    "select_tracks",
    "write_record",
]
