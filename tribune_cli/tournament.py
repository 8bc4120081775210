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

from tribune_arena.records import GameRecord
from tribune_arena.tournament.backends import BACKENDS, WorkerCrash, import_ray
from tribune_arena.tournament.plots import save_plots
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition, TournamentError
from tribune_cli.core import bounded_int, seed_int, writable_dir, writable_file
from tribune_env.data import default_components

DEFAULT_TIME_LIMIT = 10.0
RESULTS_DIR = Path("results")
WIDE = 120  # console width when the output is not a terminal
MAX_GAMES = 1_000_000  # the schedule lists every game up front
MAX_WORKERS = 1024
MAX_ROUNDS = 1000


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be >= 0 (0: no limit), got {text}")
    return value


def add_parser(commands: Any) -> None:
    """Add the ``tournament`` sub-command to ``commands`` (an argparse sub-parsers action)."""
    p = commands.add_parser(
        "tournament",
        help="play a tournament between agents (seat rotation, duplicate deals), store and rate the games",
        description="Play a tournament between agent specs. Every finished game is stored in an SQLite results file "
        "at once; running the same command again resumes the tournament.",
    )
    p.add_argument("specs", nargs="+", metavar="SPEC", help="agent specs, e.g. random heuristic mcts:iterations=400")
    p.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="players per game (default: the number of specs, at most 4; with --brutii at least 5, at most 6)",
    )
    p.add_argument(
        "--games",
        type=bounded_int(1, MAX_GAMES),
        default=100,
        metavar="N",
        help="games, rounded up to whole blocks (default: 100)",
    )
    p.add_argument(
        "--seed", type=seed_int, default=0, metavar="N", help="tournament seed: deals and agent seeds (default: 0)"
    )
    p.add_argument("--results", metavar="PATH", help="SQLite results file (default: results/tournament-...sqlite)")
    p.add_argument(
        "--workers",
        type=bounded_int(1, MAX_WORKERS),
        metavar="N",
        help="worker processes (default: one per CPU); 1 plays in this process; for --backend ray without an "
        "address: the CPUs of the local Ray",
    )
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where games run (default: local)")
    p.add_argument("--ray-address", metavar="ADDR", help="Ray cluster address, e.g. auto (default: a local Ray)")
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"per-move time limit; an agent over it forfeits the game; 0: none (default: {DEFAULT_TIME_LIMIT:g})",
    )
    p.add_argument("--victory-card", metavar="ID", help="victory card id (default: a random valid card per deal)")
    p.add_argument("--point-variant", action="store_true", help="play the point-value variant")
    p.add_argument(
        "--expansion",
        action="store_true",
        help="play with the Tribune Expansion (2-5 players; every agent must play it); the results file "
        "records the rule set, and resuming it needs the same choice",
    )
    p.add_argument(
        "--brutii",
        action="store_true",
        help="play the Brutii variant (with --expansion, 5 or 6 players): the Brutii seat rotates like any other "
        "(every agent must play it); the results are also reported per role, the Brutii seat against the family "
        "seats",
    )
    p.add_argument(
        "--round-limit",
        type=bounded_int(1, MAX_ROUNDS),
        default=60,
        metavar="N",
        help="truncate after this round (default: 60)",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON only")
    p.add_argument("--plots", metavar="DIR", help="write rating and win-rate plots into DIR")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")


def definition_from_args(args: argparse.Namespace) -> TournamentDefinition:
    """The tournament the arguments describe; raises ``ValueError`` (``AgentError`` too) on bad ones."""
    return TournamentDefinition(
        specs=tuple(args.specs),
        players=args.players if args.players is not None else default_players(len(args.specs), args.brutii),
        games=args.games,
        seed=args.seed,
        victory_card=args.victory_card,
        point_variant=args.point_variant,
        round_limit=args.round_limit,
        time_limit=args.time_limit or None,
        expansion=args.expansion,
        brutii=args.brutii,
    )


def default_players(specs: int, brutii: bool = False) -> int:
    """Players per game when ``--players`` is not given: the number of specs, at most 4; with the Brutii (5 or 6
    seats, R42) at least 5 and at most 6."""
    if brutii:
        seats = brutii_seat_counts()
        return max(seats[0], min(specs, seats[-1]))
    return min(specs, 4)


def brutii_seat_counts() -> tuple[int, ...]:
    """The seat counts of a Brutii game, the Brutii included (R42; the packaged components)."""
    spec = default_components().expansion
    assert spec is not None and spec.brutii is not None, "the packaged components have the Brutii's numbers"
    return spec.brutii.seat_counts


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
    """Print the results (tables, or JSON with ``--json``) and write the plots."""
    out = Console()
    if not out.is_terminal:  # piped or redirected: wide enough for every leaderboard column
        out = Console(width=WIDE)
    doc: dict[str, Any] = {"results_file": str(path), "rules": definition.rules, "tournament": definition.to_dict()}
    results = summarize(records, seed=definition.seed)
    doc.update(results.to_json())
    tables = [results.leaderboard_table(), results.head_to_head_table()]
    if results.roles is not None:  # Brutii games: the Brutii seat against the family seats
        tables += [results.roles.table(), results.roles.seat_table()]
    if args.plots:
        doc["plots"] = [str(p) for p in save_plots(results, args.plots)]
    if args.json:
        print(json.dumps(doc, indent=2))
        return
    for table in tables:
        out.print(table)
    for forfeit in doc.get("forfeits", []):
        who = f"game {forfeit['game_id']}, seat {forfeit['seat']} ({forfeit['spec']})"
        out.print(f"forfeit: {who}: {forfeit['reason']}: {forfeit['message']}")
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
