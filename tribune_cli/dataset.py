"""``tribune dataset``: play games with the given agents and write them as a Minari dataset (Farama's format for
offline RL and imitation), one episode per seat (:mod:`training.datasets`)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from agents import AgentError, check_specs_support
from tribune_cli.command import Command
from tribune_cli.core import writable_dir
from tribune_cli.game_flags import positive_int, seed_int
from tribune_env.engine.config import GameConfig
from tribune_env.extras import missing_extra

DATASET_ID = re.compile(r"^[\w.-]+/[\w.-]+-v\d+$")


def add_parser(commands: Any) -> None:
    """Add ``tribune dataset`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("specs", nargs="+", metavar="SPEC", help="one agent spec per seat, e.g. heuristic random random")
    p.add_argument("--games", type=positive_int, default=100, metavar="N", help="games to play")
    p.add_argument("--seed", type=seed_int, default=0, metavar="SEED", help="seed of the deals")
    p.add_argument("--expansion", action="store_true", help="play the Tribune Expansion")
    p.add_argument(
        "--id",
        dest="dataset_id",
        metavar="NAME",
        help="the dataset id, NAMESPACE/NAME-vN (default: tribune/<agents>-<players>p-v0)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="the Minari datasets folder to write in (default: MINARI_DATASETS_PATH, else ~/.minari/datasets)",
    )


def default_id(specs: list[str]) -> str:
    names = "-".join(dict.fromkeys(re.sub(r"[^\w.]+", "_", spec.split(":")[0]) for spec in specs))
    return f"tribune/{names}-{len(specs)}p-v0"


def run(args: argparse.Namespace) -> int:
    dataset_id = args.dataset_id or default_id(args.specs)
    if not DATASET_ID.match(dataset_id):
        return _error(f"--id: expected NAMESPACE/NAME-vN (e.g. tribune/heuristic-4p-v0), got {dataset_id!r}")
    try:
        config = GameConfig(players=len(args.specs), expansion=args.expansion)
        check_specs_support(args.specs, config)
    except (ValueError, AgentError) as exc:
        return _error(exc)
    root = None
    if args.out is not None:
        root = Path(args.out).resolve()
        root.mkdir(parents=True, exist_ok=True)
        try:
            writable_dir(root, "--out")
        except ValueError as exc:
            return _error(exc)
    try:
        from training.datasets import write_dataset
    except ImportError as exc:
        return _error(missing_extra("tribune dataset", "datasets", exc))
    console = Console(stderr=True)
    console.print(f"{dataset_id}: {args.games} games of {' vs '.join(args.specs)}", markup=False, highlight=False)
    start = time.perf_counter()
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if done[0] % max(1, args.games // 10) == 0 or done[0] == args.games:
            console.print(f"played {done[0]} of {args.games} games", markup=False, highlight=False)

    try:
        dataset = write_dataset(dataset_id, args.specs, config, args.games, args.seed, root, tick)
    except ImportError as exc:
        return _error(missing_extra("tribune dataset", "datasets", exc))
    except (ValueError, AgentError, FileExistsError) as exc:
        return _error(exc)
    where = dataset.storage.data_path.parent
    print(
        f"wrote {dataset_id}: {dataset.total_episodes} episodes ({args.games} games x {len(args.specs)} seats), "
        f"{dataset.total_steps:,} steps, in {time.perf_counter() - start:.0f} s; folder {where}"
    )
    print(f"read it with: minari.load_dataset({dataset_id!r})" + (f" with MINARI_DATASETS_PATH={root}" if root else ""))
    return 0


def _error(message: object) -> int:
    print(f"tribune: error: {message}", file=sys.stderr)
    return 2


COMMAND = Command(
    "dataset",
    "write agents' games as a Minari dataset",
    (
        ("tribune dataset heuristic random random random", "100 games: tribune/heuristic-random-4p-v0"),
        ("tribune dataset heuristic heuristic --id tribune/hh-v0 --out data", "into ./data"),
    ),
    _add_arguments,
    run,
    details=(
        "Each seat's decisions in a game are one episode: observations (the single-agent environment's space, one "
        "per decision plus the last), actions, rewards (the win_loss result at the last step), terminations and "
        "truncations, with the action masks in infos; the metadata holds the agents, the deals and the code version. "
        "Needs the datasets extra (pip install -e '.[datasets]'); read with minari.load_dataset(ID)."
    ),
)
