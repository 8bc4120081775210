"""``tribune tournament``: play a tournament between agent specs, store every game, print the leaderboard.

Running the same command again resumes the tournament from its results file
(the default file name is derived from the tournament's options, so it is the
same for the same command).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from tribune_arena.records import GameRecord, forfeit_headline, printable
from tribune_arena.tournament.backends import BACKENDS, WorkerCrash, import_ray
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import (
    BRUTII_SEAT,
    DEFAULT_GAMES,
    DEFAULT_TIME_LIMIT,
    ComponentFile,
    TournamentDefinition,
    TournamentError,
    default_players,
)
from tribune_cli.command import Command
from tribune_cli.core import MAX_WORKERS, RESULTS_DIR, writable_dir, writable_file
from tribune_cli.game_flags import (
    add_game_arguments,
    bounded_int,
    config_from_args,
    flag_message,
    player_counts_text,
    rules_of,
)
from tribune_env.data import ComponentError, default_components
from tribune_env.engine.config import RuleSet

WIDE = 120  # console width when the output is not a terminal
MAX_GAMES = 1_000_000  # the schedule lists every game up front


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be >= 0 (0: no limit), got {text}")
    return value


def add_parser(commands: Any) -> None:
    """Add ``tribune tournament`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("specs", nargs="+", metavar="SPEC", help="agent specs, e.g. random heuristic mcts:iterations=400")
    add_game_arguments(
        p,
        seed_help="tournament seed: deals and agent seeds",
        players_help="players per game (default: the number of specs, within the rule set's player counts: "
        f"{player_counts_text()}; at most {RuleSet.BASE.default_players(default_components())} without the Brutii)",
        brutii_seat_help="the Brutii's seat in every game, from 0, with --brutii; the rotations seat every entry "
        f"there in turn (default: {BRUTII_SEAT})",
    )
    p.add_argument(
        "--games",
        type=bounded_int(1, MAX_GAMES),
        default=DEFAULT_GAMES,
        metavar="N",
        help="games, rounded up to whole blocks",
    )
    p.add_argument("--results", metavar="PATH", help="SQLite results file (default: results/tournament-...sqlite)")
    p.add_argument(
        "--workers",
        type=bounded_int(1, MAX_WORKERS),
        metavar="N",
        help="worker processes; 1 plays in this process; for --backend ray without an address: the CPUs of the "
        "local Ray (default: one per CPU)",
    )
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where games run")
    p.add_argument("--ray-address", metavar="ADDRESS", help="Ray cluster address, e.g. auto (default: a local Ray)")
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="per-move time limit; an agent over it forfeits the game; 0: none",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON only")
    p.add_argument("--plots", metavar="DIR", help="write rating and win-rate plots into DIR")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")


def definition_from_args(args: argparse.Namespace) -> TournamentDefinition:
    """The tournament the arguments describe: the game of the game flags (:func:`config_from_args`) with the
    component set of ``--components`` (its text kept: :class:`ComponentFile`), and the players of
    :func:`default_players` when ``--players`` is omitted; raises ``ValueError`` (``AgentError`` too) on bad ones."""
    component_file = _component_file(args)
    components = None if component_file is None else component_file.components
    players = args.players
    if players is None:
        try:
            players = default_players(len(args.specs), rules_of(args), components)
        except ValueError as exc:  # the component set lacks the tables of the rule set
            raise ValueError(flag_message(str(exc))) from None
    config = config_from_args(args, players=players, components=components)
    settings = {"games": args.games, "seed": args.seed, "time_limit": args.time_limit or None}
    return TournamentDefinition(tuple(args.specs), config, component_file=component_file, **settings)


def _component_file(args: argparse.Namespace) -> ComponentFile | None:
    """The file of ``--components`` (``None`` without it); ComponentError naming the flag."""
    path = getattr(args, "components", None)
    if path is None:
        return None
    try:
        return ComponentFile.read(path)
    except ComponentError as exc:
        raise ComponentError(f"--components: {exc}") from None


def default_results_path(definition: TournamentDefinition) -> Path:
    """``results/tournament-s<seed>-<hash>.sqlite``: the same for the same tournament, different for another."""
    text = json.dumps(definition.to_dict(), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    return RESULTS_DIR / f"tournament-s{definition.seed}-{digest}.sqlite"


def check_paths(args: argparse.Namespace, definition: TournamentDefinition) -> Path:
    """The results file, after checking before any game that it and ``--plots`` can be written; ``ValueError``."""
    if args.ray_address is not None and args.backend != "ray":
        raise ValueError("--ray-address: only with --backend ray")
    path = writable_file(args.results, "--results") if args.results else default_results_path(definition)
    if not args.results:
        writable_file(path, "--results (default)")
    if args.plots:
        writable_dir(args.plots, "--plots")
    return path


def _error(message: object) -> int:
    print(f"tribune: error: {message}", file=sys.stderr)
    return 2


def _report(records: list[GameRecord], args: argparse.Namespace, definition: TournamentDefinition, path: Path) -> None:
    """Print the results (tables, or JSON with ``--json``) and write the plots. Agent specs and forfeit messages
    are text, never rich markup (``markup=False``), and the messages, which agents write, have their control
    characters escaped (:func:`printable`)."""
    out = Console(markup=False, emoji=False)
    if not out.is_terminal:  # piped or redirected: wide enough for every leaderboard column
        out = Console(width=WIDE, markup=False, emoji=False)
    doc: dict[str, Any] = {"results_file": str(path), "rules": definition.rules, "tournament": definition.to_dict()}
    results = summarize(records, components=definition.game.components)
    doc.update(results.to_json())
    tables = [results.leaderboard_table(), results.head_to_head_table()]
    if results.roles is not None:  # Brutii games: the Brutii seat against the family seats
        tables += [results.roles.table(), results.roles.seat_table()]
    if args.plots:
        from tribune_arena.tournament.plots import save_plots  # matplotlib, only when plots are asked for

        doc["plots"] = [str(p) for p in save_plots(results, args.plots)]
    if args.json:
        print(json.dumps(doc, indent=2))
        return
    for table in tables:
        out.print(table)
    for forfeit in doc.get("forfeits", []):
        who = f"game {forfeit['game_id']}, seat {forfeit['seat']} ({forfeit['spec']})"
        headline, place = forfeit_headline(forfeit["message"])
        out.print(printable(f"forfeit: {who}: {forfeit['reason']}: {headline}"))
        if place:  # for the agent's developer, apart from the headline
            out.print(printable(f"  (raised at {place})"))
    plots = f"; plots: {', '.join(doc['plots'])}" if "plots" in doc else ""
    out.print(f"results ({definition.rules} games): {path}{plots}")


def run(args: argparse.Namespace) -> int:
    """Run ``tribune tournament``: 0 when done, 2 for bad arguments or a results file of another tournament,
    1 when a worker process died."""
    try:
        definition = definition_from_args(args)
        path = check_paths(args, definition)
        if args.backend == "ray":
            import_ray()
    except (ValueError, TournamentError) as exc:
        return _error(exc)
    notes = Console(stderr=True)
    show = not args.no_progress and sys.stderr.isatty()
    try:
        records = run_tournament(
            definition,
            path,
            backend=args.backend,
            workers=args.workers,
            address=args.ray_address,
            progress=show,
            console=notes,
        )
    except WorkerCrash as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, TournamentError) as exc:
        return _error(exc)
    except KeyboardInterrupt:
        print(
            f"tribune: stopped; the finished games are in {path}: run the same command again to resume", file=sys.stderr
        )
        raise
    try:
        _report(records, args, definition, path)
    except BrokenPipeError:  # stdout closed early (`| head`): handled quietly by the command line
        raise
    except OSError as exc:  # the plots folder was removed or filled up during the run: the games are stored
        return _error(f"--plots: cannot write into {args.plots}: {exc.strerror or exc}; the results are in {path}")
    return 0


COMMAND = Command(
    "tournament",
    "play agents against each other, store and rate the games",
    (
        ("tribune tournament heuristic greedy random random --games 40", "four agents, 10 deals x 4 seatings"),
        ("tribune tournament mcts heuristic --expansion --workers 2", "head to head, expansion games, 2 processes"),
        ("tribune tournament heuristic random --json --plots plots", "results as JSON, rating plots in plots/"),
    ),
    _add_arguments,
    run,
    details="Every finished game is stored in an SQLite results file at once; running the same command again "
    "resumes the tournament. Every agent must play the game. The results file records the rule set (--expansion, "
    "--brutii), and resuming it needs the same choice. With --brutii the Brutii's seat rotates like any other, and "
    "the results are also reported per role, the Brutii seat against the family seats. With --components the "
    "results file keeps the component file's text, so that its games resume and replay without the file. "
    "`tribune agents` lists the agent specs; `tribune replay` shows a stored game.",
)
