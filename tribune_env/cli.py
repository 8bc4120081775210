"""Command line: ``tribune simulate ...``; parses arguments and prints, the work lives elsewhere."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from tribune_env import __version__
from tribune_env.data import load_components
from tribune_env.simulate import SimulationSummary, make_config, simulate_config


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tribune", description="Tribune: Primus Inter Pares rules engine tools.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = commands.add_parser("simulate", help="play games between uniformly random players and summarise them")
    sim.add_argument("--games", type=_positive_int, default=100, help="number of games (default: 100)")
    sim.add_argument("--players", type=int, default=4, help="players per game (default: 4)")
    sim.add_argument("--seed", type=int, default=0, help="game i uses engine seed SEED+i (default: 0)")
    sim.add_argument("--victory-card", metavar="ID", help="victory card id (default: a random valid card per game)")
    sim.add_argument("--point-variant", action="store_true", help="play the point-value variant")
    sim.add_argument("--round-limit", type=_positive_int, default=60, help="truncate after this round (default: 60)")
    sim.add_argument("--components", metavar="PATH", help="component TOML file (default: the packaged set)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    return parser


def _summary_table(s: SimulationSummary) -> Table:
    table = Table(title="Random-play simulation", show_header=False)
    table.add_column("metric", style="bold")
    table.add_column("value", justify="right")
    mode = "point variant" if s.point_variant else (s.victory_card or "random victory card")
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
        ("games / second", f"{s.games_per_second:.1f}"),
        ("decisions / second", f"{s.decisions_per_second:,.0f}"),
        ("elapsed", f"{s.elapsed:.2f} s"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    return table


def _simulate(args: argparse.Namespace) -> int:
    try:
        components = None if args.components is None else load_components(args.components)
        config = make_config(
            players=args.players,
            victory_card=args.victory_card,
            point_variant=args.point_variant,
            round_limit=args.round_limit,
            components=components,
        )
    except ValueError as exc:  # ComponentError is a ValueError too
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 2
    progress = not args.no_progress and sys.stderr.isatty()
    summary = simulate_config(config, args.games, seed=args.seed, progress=progress)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        Console().print(_summary_table(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        return _simulate(args)
    raise AssertionError(f"unhandled command {args.command!r}")  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
