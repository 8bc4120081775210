"""``tribune benchmark``: the standard strength benchmark of one agent (``tribune bench`` measures speed).

``tribune benchmark AGENT`` plays the versioned suite (:mod:`tribune_arena.benchmark.suite`) with the agent, prints
one table and writes the JSON record (:mod:`tribune_arena.benchmark.record`); ``tribune benchmark --compare A B``
prints two records side by side. The tracks' games are stored in results files, so running the same command again
resumes an interrupted run.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from agents.base import AgentError
from tribune_arena.benchmark.record import (
    RecordError,
    compare_notes,
    compare_table,
    compare_title,
    read_record,
    record_of,
    record_table,
    record_title,
    skipped_lines,
    write_record,
)
from tribune_arena.benchmark.run import DEFAULT_GAMES_DIR, run_benchmark
from tribune_arena.benchmark.suite import (
    DEFAULT_TIME_LIMIT,
    STANDARD_DEALS,
    SUITE_VERSION,
    TRACKS,
    SuiteError,
    Track,
    select_tracks,
    track_names,
)
from tribune_arena.records import printable
from tribune_arena.tournament.backends import WorkerCrash
from tribune_arena.tournament.schedule import TournamentError, canonical_spec
from tribune_cli.command import Command
from tribune_cli.core import MAX_WORKERS, RESULTS_DIR, writable_dir, writable_file
from tribune_cli.game_flags import bounded_int

WIDE = 100  # console width when the output is not a terminal
MAX_DEALS = 100_000


def add_parser(commands: Any) -> None:
    """Add ``tribune benchmark`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _time_limit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be >= 0 (0: no limit), got {text}")
    return value


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("agent", nargs="?", metavar="SPEC", help="the agent to measure, e.g. ppo or mcts:seconds=0.5")
    p.add_argument(
        "--tracks",
        metavar="NAME",
        help=f"tracks to play, comma-separated: {', '.join(track_names())} (default: all)",
    )
    p.add_argument(
        "--deals",
        type=bounded_int(1, MAX_DEALS),
        default=STANDARD_DEALS,
        metavar="N",
        help="deals per track, each played in 4 seatings (the Brutii-seat track, one seating a deal, plays 4N "
        "deals); another number than the standard is recorded as not the standard size",
    )
    p.add_argument(
        "--time-limit",
        type=_time_limit,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="per-move time limit of every seat; an agent over it forfeits the game; 0: none",
    )
    p.add_argument(
        "--workers", type=bounded_int(1, MAX_WORKERS), metavar="N", help="worker processes (default: one per CPU)"
    )
    p.add_argument("--out", metavar="PATH", help="the JSON record (default: results/benchmark-AGENT-SUITE.json)")
    p.add_argument("--force", action="store_true", help="replace an existing record")
    p.add_argument(
        "--games-dir",
        default=str(DEFAULT_GAMES_DIR),
        metavar="DIR",
        help="where the tracks' games are stored; a rerun resumes them",
    )
    p.add_argument("--no-progress", action="store_true", help="never show the progress bars")
    p.add_argument(
        "--compare",
        nargs=2,
        metavar=("PATH", "PATH"),
        help="print two records side by side instead of playing",
    )


def _error(message: object) -> int:
    print(f"tribune: error: {printable(message)}", file=sys.stderr)
    return 2


def _console() -> Console:
    out = Console(markup=False, emoji=False, highlight=False)
    return out if out.is_terminal else Console(width=WIDE, markup=False, emoji=False, highlight=False)


def default_out(agent: str, deals: int) -> Path:
    """``results/benchmark-<agent>-<suite version>[-d<deals>].json``, the spec made a file name."""
    slug = re.sub(r"[^A-Za-z0-9.=-]+", "_", agent).strip("_")[:80] or "agent"
    size = "" if deals == STANDARD_DEALS else f"-d{deals}"
    return RESULTS_DIR / f"benchmark-{slug}-{SUITE_VERSION}{size}.json"


def command_line(args: argparse.Namespace, agent: str) -> str:
    """The command that plays the same record: the agent and every option that changes its figures."""
    argv = ["tribune", "benchmark", agent]
    if args.tracks:
        argv += ["--tracks", args.tracks]
    if args.deals != STANDARD_DEALS:
        argv += ["--deals", str(args.deals)]
    if args.time_limit != DEFAULT_TIME_LIMIT:
        argv += ["--time-limit", f"{args.time_limit:g}"]
    if args.workers is not None:
        argv += ["--workers", str(args.workers)]
    return shlex.join(argv)


def _compare(paths: list[str]) -> int:
    try:
        a, b = (read_record(path) for path in paths)
    except RecordError as exc:
        return _error(f"--compare: {exc}")
    out = _console()
    out.print(printable(compare_title(a, b)))
    out.print(compare_table(a, b))
    for line in compare_notes(a, b):
        out.print(printable(line))
    return 0


def _tracks(text: str | None) -> list[Track]:
    """The tracks ``--tracks`` names (all without it); SuiteError naming the option."""
    if text is None:
        return list(TRACKS)
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise SuiteError(f"--tracks: expected track names separated by commas, got {text!r}")
    try:
        return select_tracks(names, TRACKS)
    except SuiteError as exc:
        raise SuiteError(f"--tracks: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Run ``tribune benchmark``: 0 when done, 2 for bad arguments (or a record that exists, without ``--force``),
    1 when a worker process died."""
    if args.compare is not None:
        if args.agent is not None:
            return _error("give an agent to benchmark or --compare, not both")
        return _compare(args.compare)
    if args.agent is None:
        return _error("give the agent spec to benchmark (e.g. tribune benchmark ppo), or --compare A.json B.json")
    try:
        agent = canonical_spec(args.agent)
        tracks = _tracks(args.tracks)
        out = writable_file(args.out or default_out(agent, args.deals), "--out")
        if out.exists() and not args.force:
            raise RecordError(f"--out: {out} exists: give --force to replace it, or another --out")
        games_dir = writable_dir(args.games_dir, "--games-dir")
    except (ValueError, AgentError) as exc:
        return _error(exc)
    notes = Console(stderr=True, markup=False, emoji=False, highlight=False)
    show = not args.no_progress and sys.stderr.isatty()
    try:
        result = run_benchmark(
            agent,
            tracks,
            args.deals,
            time_limit=args.time_limit or None,
            workers=args.workers,
            games_dir=games_dir,
            progress=show,
            console=notes,
        )
        record = record_of(result, command_line(args, agent))
        write_record(record, out, force=args.force)
    except WorkerCrash as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, TournamentError) as exc:
        return _error(exc)
    except KeyboardInterrupt:
        print(
            f"tribune: stopped; the finished games are in {games_dir}: run the same command to resume", file=sys.stderr
        )
        raise
    console = _console()
    console.print(printable(record_title(record)))
    console.print(record_table(record))
    for line in skipped_lines(record):
        console.print(printable(line))
    console.print(f"record: {out}; games: {games_dir}")
    return 0


def _details() -> str:
    return (
        "The strength benchmark (`tribune bench` is the speed benchmark). "
        f"Suite {SUITE_VERSION}: fixed duplicate deals, each played with the agent in every seat in turn, against "
        "fixed opponents; the agent's win rate with its 95% Wilson interval, against parity, and its time per move. "
        f"The tracks: {', '.join(track_names())}; a track whose rule set the agent does not play is skipped with "
        "the reason.\n\n"
        "The JSON record holds the agent, the suite version, the figures, the code version, the machine and the "
        "command; records of one suite version are comparable deal for deal. The tracks' games are stored in "
        "--games-dir, so running the same command again resumes a run."
    )


COMMAND = Command(
    "benchmark",
    "measure an agent's strength on the standard benchmark suite",
    (
        ("tribune benchmark ppo", f"the whole suite, {STANDARD_DEALS} deals a track, record in results/"),
        (
            "tribune benchmark mcts:search=flat --deals 10 --tracks base-4p-vs-heuristic",
            "a short run of one track (recorded as not the standard size)",
        ),
        ("tribune benchmark --compare a.json b.json", "two records side by side"),
    ),
    _add_arguments,
    run,
    details=_details(),
)
