"""Command line: ``tribune simulate|log|bench|docs``; parses arguments and prints, the work lives elsewhere."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from rich.console import Console
from rich.table import Table

from tribune_arena.bench.environments import (
    BATCH,
    PEERS,
    PLAYER_COUNTS,
    BenchReport,
    bench,
    check_options,
    compiled_build_installed,
)
from tribune_cli.game_flags import add_game_arguments, config_from_args, positive_int, seed_int
from tribune_env import __version__
from tribune_env.codec.docs import write_docs
from tribune_env.engine.config import RuleSet
from tribune_env.engine.decisions import Phase
from tribune_env.simulate import SimulationSummary, agent_rng, play_random_game, simulate_config
from tribune_env.threads import thread_limit


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2), without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def writable_dir(path: str | Path, option: str) -> Path:
    """``path`` as a folder that exists or can be created and that takes files; ``ValueError`` naming ``option``."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{option}: {target} is not a directory")
    existing = target
    while not existing.exists():  # the nearest existing folder is where the folders would be created
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{option}: cannot create {target}: {existing} is not a directory")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        raise ValueError(f"{option}: cannot write into {existing}: {exc.strerror or exc}") from None
    return target


def writable_file(path: str | Path, option: str) -> Path:
    """``path`` as a file that can be written (existing or in a folder that can be made); ``ValueError`` if not."""
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{option}: {target} is a directory, not a file")
    if target.exists() and not os.access(target, os.R_OK | os.W_OK):
        raise ValueError(f"{option}: {target} cannot be read and written")
    writable_dir(target.parent, option)
    return target


def broken_pipe() -> int:
    """Exit quietly when stdout was closed early (``| head``): no message, no error at interpreter exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the final flush at exit would fail again and print to stderr
    except (OSError, ValueError):  # stdout is not a real file (a test's capture): nothing is flushed at exit
        pass
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="tribune", description="Tribune: Primus Inter Pares rules engine tools.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = commands.add_parser("simulate", help="play games between uniformly random players and summarise them")
    sim.add_argument("--games", type=positive_int, default=100, help="number of games (default: 100)")
    add_game_arguments(sim, seed_help="game i uses engine seed N+i")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--no-progress", action="store_true", help="never show the progress bar")

    log = commands.add_parser("log", help="play one random game and print its event log and final board")
    add_game_arguments(log, seed_help="engine seed; the same game as game 0 of `simulate --seed`")
    log.add_argument("--seat", type=int, help="show only what this seat may read (default: everything)")

    bench = commands.add_parser(
        "bench", help="measure engine (base and expansion) and environment throughput against PettingZoo games"
    )
    bench.add_argument("--seconds", type=float, default=3.0, help="time per throughput figure (default: 3)")
    bench.add_argument("--players", type=int, nargs="+", default=list(PLAYER_COUNTS), help="player counts")
    bench.add_argument("--peers", nargs="*", default=list(PEERS), help=f"PettingZoo classic games (default: {PEERS})")
    bench.add_argument("--seed", type=seed_int, default=0, help="seed of games and random play (default: 0)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")

    docs = commands.add_parser("docs", help="regenerate docs/actions.md and docs/observation.md from the code")
    docs.add_argument("--out", metavar="DIR", default="docs", help="directory to write into (default: docs)")
    return parser


_RULES_MODE = {RuleSet.BASE: "", RuleSet.EXPANSION: ", expansion", RuleSet.BRUTII: ", expansion, Brutii"}
"""What the summary's mode adds for each rule set (then the Brutii's seat, when it is configured)."""


def _summary_table(s: SimulationSummary) -> Table:
    table = Table(title="Random-play simulation", show_header=False)
    table.add_column("metric", style="bold")
    table.add_column("value", justify="right")
    mode = "point variant" if s.point_variant else (s.victory_card or "random victory card")
    mode += _RULES_MODE[s.config.rules]
    if s.brutii_seat is not None:  # set only with the Brutii
        mode += f" seat {s.brutii_seat}"
    rows = [
        ("games", f"{s.games}"),
        ("players", f"{s.players}"),
        ("mode", mode),
        ("seed", f"{s.seed}"),
        ("average rounds", f"{s.avg_rounds:.2f}"),
        ("average decisions / game", f"{s.avg_decisions:.1f}"),
        ("truncated games", f"{s.truncated} ({s.truncated / s.games:.1%})"),
        ("shared wins", f"{s.shared_wins}"),
        *(
            (f"wins seat {seat}", f"{w} ({rate:.1%})")
            for seat, (w, rate) in enumerate(zip(s.wins, s.win_rates, strict=True))
        ),
        *((("Brutii wins", f"{s.brutii_wins} ({s.brutii_win_rate:.1%})"),) if s.brutii else ()),
        ("games / second", f"{s.games_per_second:.1f}"),
        ("decisions / second", f"{s.decisions_per_second:,.0f}"),
        ("elapsed", f"{s.elapsed:.2f} s"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    return table


def _error(exc: Exception) -> int:
    print(f"tribune: error: {exc}", file=sys.stderr)
    return 2


def _log(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
        if args.seat is not None and not 0 <= args.seat < config.players:
            raise ValueError(f"--seat must be in 0..{config.players - 1}, got {args.seat}")
    except ValueError as exc:
        return _error(exc)
    game, decisions = play_random_game(config, args.seed, agent_rng(args.seed, 0))
    last_round = None
    for event in game.events:
        if args.seat is not None and event.private_to not in (-1, args.seat):
            continue
        if event.round != last_round:
            print(f"--- round {event.round} ---")
            last_round = event.round
        print(f"  [{Phase(event.phase).name.lower()}] {event.text}")
    print()
    print(game.render(args.seat))
    print(f"\n{decisions} decisions; scores {game.scores()}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
    except ValueError as exc:  # ComponentError is a ValueError too
        return _error(exc)
    progress = not args.no_progress and sys.stderr.isatty()
    summary = simulate_config(config, args.games, seed=args.seed, progress=progress)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        Console().print(_summary_table(summary))
    return 0


def _bench_tables(report: BenchReport) -> list[Table]:
    ours = Table(title=f"Tribune, random legal play ({report.seconds:g} s per figure)")
    columns = (
        "players",
        "engine decisions/s",
        "AEC steps/s",
        "games/s",
        "Gym steps/s",
        "encode µs",
        "mask µs",
        "clone µs",
    )
    for column in columns:
        ours.add_column(column, justify="right")
    for t in report.tribune:
        ours.add_row(
            str(t.players),
            f"{t.engine_decisions_per_s:,.0f}",
            f"{t.aec_steps_per_s:,.0f}",
            f"{t.games_per_s:,.2f}",
            f"{t.single_steps_per_s:,.0f}",
            f"{t.encode_us:.1f}",
            f"{t.mask_us:.1f}",
            f"{t.clone_us:.1f}",
        )
    expansion = Table(title="The Tribune Expansion, same run")
    for column in (
        "players",
        "base decisions/s",
        "expansion decisions/s",
        "expansion ÷ base",
        "expansion AEC steps/s",
        "÷ base AEC",
        "expansion raw_env steps/s",
    ):
        expansion.add_column(column, justify="right")
    for t in report.tribune:
        expansion.add_row(
            str(t.players),
            f"{t.engine_decisions_per_s:,.0f}",
            f"{t.expansion_decisions_per_s:,.0f}",
            f"{t.expansion_ratio:.2f}x",
            f"{t.expansion_aec_steps_per_s:,.0f}",
            f"{t.expansion_aec_steps_per_s / t.aec_steps_per_s:.2f}x" if t.aec_steps_per_s else "-",
            f"{t.expansion_raw_aec_steps_per_s:,.0f}",
        )
    paths = Table(title="Environment paths, same run")
    for column in (
        "players",
        "raw_env steps/s",
        "env() ÷ raw_env",
        "batched x16 learner steps/s",
        "÷ Gym steps/s",
        "Gym + policy steps/s",
        "batched x16 + policy",
        "÷ Gym + policy",
        "view games/s",
        "rgb_array frame ms (p90)",
    ):
        paths.add_column(column, justify="right")
    for t in report.tribune:
        paths.add_row(
            str(t.players),
            f"{t.raw_aec_steps_per_s:,.0f}",
            f"{t.aec_steps_per_s / t.raw_aec_steps_per_s:.2f}x" if t.raw_aec_steps_per_s else "-",
            f"{t.batched_steps_per_s:,.0f}",
            f"{t.batched_steps_per_s / t.single_steps_per_s:.2f}x" if t.single_steps_per_s else "-",
            f"{t.single_policy_steps_per_s:,.0f}",
            f"{t.batched_policy_steps_per_s:,.0f}",
            f"{t.batched_policy_steps_per_s / t.single_policy_steps_per_s:.2f}x"
            if t.single_policy_steps_per_s
            else "-",
            f"{t.view_games_per_s:,.2f}",
            f"{t.frame_ms:.1f} ({t.frame_p90_ms:.1f})" if t.frame_ms else "- (no render extra)",
        )
    peers = Table(title="PettingZoo peers, same loop and policy")
    for column in ("game", "AEC steps/s", "games/s", "Tribune steps/s ÷ peer, per player count"):
        peers.add_column(column, justify="right")
    for p in report.peers:
        if p.aec_steps_per_s is None:
            peers.add_row(p.name, "-", "-", p.error)
            continue
        ratios = "  ".join(f"{t.players}p {t.aec_steps_per_s / p.aec_steps_per_s:.2f}x" for t in report.tribune)
        peers.add_row(p.name, f"{p.aec_steps_per_s:,.0f}", f"{p.games_per_s or 0:,.1f}", ratios)
    return [ours, paths, _threads_table(report), expansion, peers, _builds_table(report)]


def _threads_table(report: BenchReport) -> Table:
    """The "+ policy" figures with native thread pools limited (tribune_env.threads) and as this process found them."""
    limit = "no limit (TRIBUNE_THREADS=0)" if report.thread_limit is None else f"limited to {report.thread_limit}"
    found = ", ".join(f"{name} {n}" for name, n in report.threads_found.items()) or "none loaded"
    table = Table(title=f"A policy per step: native threads {limit} vs as found ({found})")
    for column in ("players", "path", "limited steps/s", "as found steps/s", "limited ÷ as found"):
        table.add_column(column, justify="right")
    for t in report.tribune:
        for path, limited, found_rate in (
            ("Gym + policy", t.single_policy_steps_per_s, t.single_policy_unlimited_steps_per_s),
            (f"batched x{BATCH} + policy", t.batched_policy_steps_per_s, t.batched_policy_unlimited_steps_per_s),
        ):
            ratio = f"{limited / found_rate:.2f}x" if found_rate else "-"
            table.add_row(str(t.players), path, f"{limited:,.0f}", f"{found_rate:,.0f}", ratio)
    return table


def _builds_table(report: BenchReport) -> Table:
    """The engine build of this run, and both builds side by side where both are installed."""
    running = "compiled (mypyc)" if report.compiled else "pure Python"
    note = f" ({report.builds_note})" if report.builds_note else ""
    table = Table(title=f"Engine build: {running}; compiled vs pure{note}")
    for column in ("players", "build", "engine decisions/s", "AEC steps/s", "decisions ÷ pure", "AEC ÷ pure"):
        table.add_column(column, justify="right")
    pure = {f.players: f for f in report.builds if f.build == "pure"}
    for f in report.builds:
        base = pure.get(f.players)
        ratio = ("-", "-")
        if base and base.engine_decisions_per_s and base.aec_steps_per_s:
            ratio = (
                f"{f.engine_decisions_per_s / base.engine_decisions_per_s:.2f}x",
                f"{f.aec_steps_per_s / base.aec_steps_per_s:.2f}x",
            )
        table.add_row(str(f.players), f.build, f"{f.engine_decisions_per_s:,.0f}", f"{f.aec_steps_per_s:,.0f}", *ratio)
    return table


def _bench(args: argparse.Namespace) -> int:
    try:
        check_options(args.seconds, args.seed, tuple(args.players), tuple(args.peers))
    except ValueError as exc:
        return _error(ValueError(f"--{exc}"))
    try:
        thread_limit()  # a bad TRIBUNE_THREADS, before anything is measured
    except ValueError as exc:
        return _error(exc)
    # Progress is one line per measurement: a live spinner is a second thread, and it measurably slows the
    # measured loop (numpy releases the GIL, and the spinner takes it), so the figures would be wrong.
    console = Console(stderr=True)
    total = len(args.players) + len(args.peers) + compiled_build_installed()  # + the other build of the engine
    done = iter(range(1, total + 1))
    report = bench(
        args.seconds,
        args.seed,
        tuple(args.players),
        tuple(args.peers),
        progress=lambda msg: console.print(f"[{next(done)}/{total}] measuring {msg}", style="dim"),
    )
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        out = Console()
        for table in _bench_tables(report):
            out.print(table)
    return 0


def _docs(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if not out.is_dir():
        return _error(ValueError(f"--out: {out} is not a directory"))
    try:
        writable_dir(out, "--out")
    except ValueError as exc:
        return _error(exc)
    for path in write_docs(out):
        print(f"wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except BrokenPipeError:  # output piped into `head` and the like
        return broken_pipe()


def _run(args: argparse.Namespace) -> int:
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "log":
        return _log(args)
    if args.command == "bench":
        return _bench(args)
    if args.command == "docs":
        return _docs(args)
    raise AssertionError(f"unhandled command {args.command!r}")  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
