"""The engine tools of ``tribune``: simulate, log, bench and docs (:data:`COMMANDS`), and the parser every command
hangs on (:func:`base_parser`); parses arguments and prints, the work lives elsewhere."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tribune_arena.bench.options import BATCH, BATCH_API, PEERS, PLAYER_COUNTS, check_options
from tribune_arena.replay.words import board_text, event_line, round_header
from tribune_cli.command import Command, HelpFormatter, OneLineParser, add_commands
from tribune_cli.game_flags import add_game_arguments, config_from_args, positive_int, seed_int
from tribune_env import __version__
from tribune_env.codec.docs import write_docs
from tribune_env.engine.config import RuleSet
from tribune_env.engine.names import config_text
from tribune_env.simulate import SimulationSummary, agent_rng, play_random_game, simulate_config
from tribune_env.threads import thread_limit

if TYPE_CHECKING:
    from tribune_arena.bench.environments import BenchReport, EngineFigures

RESULTS_DIR = Path("results")
"""Where commands put the files they make when not told where (results files, benchmark records)."""
MAX_WORKERS = 1024
"""The most worker processes a ``--workers`` flag accepts."""


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


def base_parser() -> argparse.ArgumentParser:
    """The ``tribune`` parser without its commands (``--help``, ``--version``); :func:`add_commands` adds them."""
    parser = OneLineParser(
        prog="tribune",
        description="Tribune: Primus Inter Pares: play the board game, pit agents against each other, replay their "
        "games, train them and measure them.",
        epilog="Run `tribune COMMAND --help` for a command's options and examples; `tribune agents` lists the agents.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The parser of the engine tools alone (:data:`COMMANDS`); :mod:`tribune_cli.main` adds the other commands."""
    parser = base_parser()
    add_commands(parser, COMMANDS)
    return parser


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=positive_int, default=100, metavar="N", help="number of games")
    add_game_arguments(parser, seed_help="game i uses seed SEED+i")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--no-progress", action="store_true", help="never show the progress bar")


def _log_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser, seed_help="seed of the game; the same game as game 0 of `tribune simulate --seed`")
    parser.add_argument(
        "--seat", type=int, metavar="SEAT", help="show only what this seat may read (default: everything)"
    )


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=3.0, metavar="SECONDS", help="time per throughput figure")
    parser.add_argument(
        "--players", type=int, nargs="+", default=list(PLAYER_COUNTS), metavar="N", help="player counts to measure"
    )
    parser.add_argument(
        "--peers",
        nargs="*",
        default=list(PEERS),
        metavar="NAME",
        help="PettingZoo classic games to compare with; --peers alone: none",
    )
    parser.add_argument("--seed", type=seed_int, default=0, metavar="SEED", help="seed of the games and of random play")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time figures by wall time, or by this process's CPU time (steadier on a busy machine)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def _docs_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR", default="docs", help="folder to write into")


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
    print(config_text(config))
    for event in game.events:
        if args.seat is not None and event.private_to not in (-1, args.seat):
            continue
        if event.round != last_round:
            print(round_header(event.round))
            last_round = event.round
        print(event_line(game, event))
    print()
    print(board_text(game, args.seat))
    scores = ", ".join(f"P{s} {score}" for s, score in enumerate(game.scores()))
    print(f"\n{decisions} decisions; scores: {scores}")
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


def _table(title: str, *columns: str, caption: str | None = None) -> Table:
    """A bench table: right-aligned figures under short headers, light rules, an optional caption explaining them."""
    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, caption_justify="left")
    for i, column in enumerate(columns):
        table.add_column(column, justify="right", no_wrap=i == 0)  # the row's name is never cut
    return table


def _ratio(numerator: float, denominator: float | None) -> str:
    return f"{numerator / denominator:.2f}x" if denominator else "-"


def _bench_tables(report: BenchReport) -> list[RenderableType]:
    """The figures of ``report`` as tables that read at 80 columns (short headers, at most six columns a table, what
    the headers mean in captions), then the two engines side by side."""
    speed = _table(
        f"Tribune, random legal play ({report.seconds:g} s per figure)",
        *("players", "engine decisions/s", "AEC steps/s", "games/s", "Gym steps/s"),
        caption="engine: legal_actions + apply; AEC: the PettingZoo loop of env(); games/s from the same loop; "
        "Gym: learner steps of TribuneSingleEnv against random opponents",
    )
    costs = _table(
        "µs per call (mid-game)",
        *("players", "encode", "mask", "clone"),
        caption="means over mid-game states: observation, action mask, Game.clone()",
    )
    paths = _table(
        "Environment paths, same run",
        *("players", "raw_env steps/s", "env() ÷ raw_env", f"batched x{BATCH} steps/s", "÷ Gym"),
        caption=f"batched: TribuneBatchedEnv, {BATCH} games, learner steps counted over all of them",
    )
    policy = _table(
        "A policy per step, same run",
        *("players", "Gym + policy steps/s", f"batched x{BATCH} + policy", "÷ Gym + policy"),
        caption="one forward pass of a numpy MLP per step, for one game or for the batch",
    )
    views = _table("Views and frames, same run", "players", "view games/s", "rgb_array frame ms", "p90 ms")
    for t in report.tribune:
        players = str(t.players)
        speed.add_row(
            players,
            f"{t.engine_decisions_per_s:,.0f}",
            f"{t.aec_steps_per_s:,.0f}",
            f"{t.games_per_s:,.2f}",
            f"{t.single_steps_per_s:,.0f}",
        )
        costs.add_row(players, f"{t.encode_us:.1f}", f"{t.mask_us:.1f}", f"{t.clone_us:.1f}")
        paths.add_row(
            players,
            f"{t.raw_aec_steps_per_s:,.0f}",
            _ratio(t.aec_steps_per_s, t.raw_aec_steps_per_s),
            f"{t.batched_steps_per_s:,.0f}",
            _ratio(t.batched_steps_per_s, t.single_steps_per_s),
        )
        policy.add_row(
            players,
            f"{t.single_policy_steps_per_s:,.0f}",
            f"{t.batched_policy_steps_per_s:,.0f}",
            _ratio(t.batched_policy_steps_per_s, t.single_policy_steps_per_s),
        )
        frames = (f"{t.frame_ms:.1f}", f"{t.frame_p90_ms:.1f}") if t.frame_ms else ("-", "-")
        views.add_row(players, f"{t.view_games_per_s:,.2f}", *frames)
    if not any(t.frame_ms for t in report.tribune):
        views.caption = "no frames: drawing the board needs the render extra"
    return [speed, costs, paths, policy, _threads_table(report), views, *_expansion_tables(report)]


def _expansion_tables(report: BenchReport) -> list[RenderableType]:
    """The expansion against the base game, the PettingZoo peers, and the two engines."""
    engine = _table("The Tribune Expansion, same run", "players", "base decisions/s", "expansion decisions/s", "÷ base")
    envs = _table("Expansion environments, same run", "players", "AEC steps/s", "÷ base AEC", "raw_env steps/s")
    for t in report.tribune:
        engine.add_row(
            str(t.players),
            f"{t.engine_decisions_per_s:,.0f}",
            f"{t.expansion_decisions_per_s:,.0f}",
            f"{t.expansion_ratio:.2f}x",
        )
        envs.add_row(
            str(t.players),
            f"{t.expansion_aec_steps_per_s:,.0f}",
            _ratio(t.expansion_aec_steps_per_s, t.aec_steps_per_s),
            f"{t.expansion_raw_aec_steps_per_s:,.0f}",
        )
    tables: list[RenderableType] = [engine, envs]
    if report.peers:
        tables.append(_peers_table(report))
    return [*tables, *_engines_table(report)]


def _peers_table(report: BenchReport) -> Table:
    """PettingZoo's games in the same loop, and Tribune's AEC steps/s over theirs at each player count."""
    missing = "; ".join(f"{p.name}: {p.error}" for p in report.peers if p.aec_steps_per_s is None)
    peers = _table(
        "PettingZoo peers, same loop and policy",
        *("game", "AEC steps/s", "games/s", *(f"÷ {t.players}p" for t in report.tribune)),
        caption="÷ Np: Tribune's AEC steps/s at N players divided by the peer's"
        + (f". Not measured: {escape(missing)}" if missing else ""),  # the hint's '.[bench]' is no style tag
    )
    for p in report.peers:
        if p.aec_steps_per_s is None:
            peers.add_row(p.name, "-", "-", *("-" for _ in report.tribune))
            continue
        ratios = (_ratio(t.aec_steps_per_s, p.aec_steps_per_s) for t in report.tribune)
        peers.add_row(p.name, f"{p.aec_steps_per_s:,.0f}", f"{p.games_per_s or 0:,.1f}", *ratios)
    return peers


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


def _agent_loop_rows(table: Table, py: EngineFigures, nat: EngineFigures) -> None:
    """A Python agent's loop (view, legal_actions, apply) in µs a decision on both engines, where measured."""
    for label, python_us, native_us in (
        ("agent loop µs (view unread)", py.agent_loop_us, nat.agent_loop_us),
        ("agent loop µs (view read)", py.agent_loop_read_us, nat.agent_loop_read_us),
    ):
        if python_us and native_us:
            table.add_row(label, f"{python_us:.1f}", f"{native_us:.1f}", _ratio(python_us, native_us))


def _engines_table(report: BenchReport) -> list[RenderableType]:
    """The Python engine and the native core side by side (same run), with OpenSpiel's games where measured; else one
    line naming the engine of this run and why there is no comparison."""
    running = f"Engine of the figures above: {report.engine or 'python'} (TRIBUNE_ENGINE); {report.clock} time"
    if not report.engines:
        why = report.engines_note or "the engines were not compared"
        return [Text(f"{running}; engines not compared: {why}.")]
    by = {f.engine: f for f in report.engines}
    py, nat = by["python"], by["native"]
    table = _table(
        f"{running}; the two engines, {nat.players} players, same run",
        *("figure", "python", "native", "native ÷ python"),
        caption=f"core: random games inside the native core; Batch: _core.Batch of {BATCH_API} games stepping random "
        "moves with observations written (÷ python's batched env); obs + mask: µs per position through the codec's "
        "Python API (python ÷ native) over 1,000 stored mid-game positions, live: on the position just played, as "
        "env.step takes it; core: the core's encoder and codec called directly on the stored positions",
    )

    def rate(name: str, a: float, b: float, base: float | None = None) -> None:
        table.add_row(name, f"{a:,.0f}" if a else "-", f"{b:,.0f}", _ratio(b, base if base is not None else a))

    rate("Game decisions/s", py.game_decisions_per_s, nat.game_decisions_per_s)
    rate("expansion decisions/s", py.expansion_decisions_per_s, nat.expansion_decisions_per_s)
    rate("core decisions/s", 0.0, nat.core_decisions_per_s, py.game_decisions_per_s)
    if nat.core_expansion_decisions_per_s:
        rate("core expansion decisions/s", 0.0, nat.core_expansion_decisions_per_s, py.expansion_decisions_per_s)
    table.add_row("obs + mask µs", f"{py.encode_us:.1f}", f"{nat.encode_us:.1f}", _ratio(py.encode_us, nat.encode_us))
    if nat.live_encode_us and py.live_encode_us:
        table.add_row(
            "obs + mask µs, live",
            f"{py.live_encode_us:.1f}",
            f"{nat.live_encode_us:.2f}",
            _ratio(py.live_encode_us, nat.live_encode_us),
        )
    if nat.core_encode_us:
        table.add_row("core obs + mask µs", "-", f"{nat.core_encode_us:.1f}", _ratio(py.encode_us, nat.core_encode_us))
    _agent_loop_rows(table, py, nat)
    rate("env() steps/s", py.aec_steps_per_s, nat.aec_steps_per_s)
    rate(f"batched x{BATCH} steps/s", py.batched_steps_per_s, nat.batched_steps_per_s)
    rate(f"Batch x{BATCH_API} decisions/s", 0.0, nat.batch_decisions_per_s, py.batched_steps_per_s)
    for peer in report.peers:
        if peer.aec_steps_per_s:
            table.add_row(
                f"env() ÷ {peer.name}",
                _ratio(py.aec_steps_per_s, peer.aec_steps_per_s),
                _ratio(nat.aec_steps_per_s, peer.aec_steps_per_s),
                "",
            )
    tables: list[RenderableType] = [table]
    if report.openspiel:
        spiel = _table(
            "OpenSpiel (C++ games through pyspiel), same run",
            *("game", "decisions/s", "native Game ÷", "core ÷"),
            caption="random play; ÷: the native engine's decisions/s (through Game, inside the core) over the game's",
        )
        for game in report.openspiel:
            if game.decisions_per_s is None:
                spiel.add_row(game.name, "-", "-", "-")
                spiel.caption = f"Not measured: {escape(game.error)}"
                continue
            spiel.add_row(
                game.name,
                f"{game.decisions_per_s:,.0f}",
                _ratio(nat.game_decisions_per_s, game.decisions_per_s),
                _ratio(nat.core_decisions_per_s, game.decisions_per_s),
            )
        tables.append(spiel)
    return tables


def _bench(args: argparse.Namespace) -> int:
    try:
        check_options(args.seconds, args.seed, tuple(args.players), tuple(args.peers))
    except ValueError as exc:
        return _error(ValueError(f"--{exc}"))
    try:
        thread_limit()  # a bad TRIBUNE_THREADS, before anything is measured
    except ValueError as exc:
        return _error(exc)
    from tribune_arena.bench.environments import ENGINES, bench  # pettingzoo: only when measuring
    from tribune_env.engine import native

    # Progress is one line per measurement: a live spinner is a second thread, and it measurably slows the
    # measured loop (numpy releases the GIL, and the spinner takes it), so the figures would be wrong.
    console = Console(stderr=True)
    total = len(args.players) + len(args.peers) + 1 + len(ENGINES) * native.built()  # + OpenSpiel + the engines
    done = iter(range(1, total + 1))
    report = bench(
        args.seconds,
        args.seed,
        tuple(args.players),
        tuple(args.peers),
        progress=lambda msg: console.print(f"[{next(done)}/{total}] measuring {msg}", style="dim"),
        clock_name=args.clock,
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


COMMANDS = (
    Command(
        "simulate",
        "play games between uniformly random players and summarise them",
        (
            ("tribune simulate --games 20 --players 3 --seed 1", "20 random 3-player games, game i from seed 1+i"),
            ("tribune simulate --brutii --games 50 --json", "50 games of the Brutii variant, the summary as JSON"),
        ),
        _simulate_arguments,
        _simulate,
        details="Game i is played from seed SEED+i, so the same command plays the same games.",
    ),
    Command(
        "log",
        "play one random game and print its event log and final board",
        (
            ("tribune log --players 2 --seed 4", "a 2-player game, everything shown"),
            ("tribune log --expansion --seed 3 --seat 0", "an expansion game as seat 0 may read it"),
        ),
        _log_arguments,
        _log,
        details="The game is game 0 of `tribune simulate` with the same flags.",
    ),
    Command(
        "bench",
        "measure engine and environment speed against PettingZoo games",
        (
            ("tribune bench --seconds 1 --players 4", "4-player figures, one second each"),
            ("tribune bench --seconds 0.5 --players 2 --peers --json", "no peers, the figures as JSON"),
        ),
        _bench_arguments,
        _bench,
        details="Throughput of random legal play: the engine, the PettingZoo loop, the Gymnasium wrapper, the batched "
        "environment, a policy per step, the expansion against the base game, and PettingZoo's classic games in the "
        "same loop. The figures depend on the machine and on what else runs on it.",
    ),
    Command(
        "docs",
        "regenerate docs/actions*.md and docs/observation*.md from the code (maintainers)",
        (("tribune docs --out docs", "rewrite the generated pages in docs/"),),
        _docs_arguments,
        _docs,
        hidden=True,
    ),
)
"""The engine tools: simulate, log, bench and docs (a maintainers' command, not listed)."""


def main(argv: Sequence[str] | None = None) -> int:
    """The engine tools alone (:data:`COMMANDS`); ``tribune`` itself is :func:`tribune_cli.main.main`."""
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except BrokenPipeError:  # output piped into `head` and the like
        return broken_pipe()


def _run(args: argparse.Namespace) -> int:
    for command in COMMANDS:
        if command.name == args.command:
            return command.run(args)
    raise AssertionError(f"unhandled command {args.command!r}")  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
