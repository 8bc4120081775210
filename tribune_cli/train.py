"""``tribune train PATH``: train a PPO agent as the YAML config says: Stable-Baselines3's MaskablePPO
(:mod:`training.trainer`, ``backend: sb3``), or Ray RLlib with ``backend: rllib`` (:mod:`training.rllib_trainer`);
a config with ``algorithm: zero`` trains a ``zero`` network by self-play with search (:mod:`training.zero.run`).

``--set KEY=VALUE`` overrides one config key (dotted, YAML value), e.g.
``--set run.total_timesteps=20000 --set name=try``. ``--resume`` continues
the run from its newest checkpoint (or ``--resume PATH`` from a given one).
``--export CHECKPOINT OUT.npz`` writes the compact numpy policy of a checkpoint (an SB3 ``.zip`` or an RLlib
checkpoint folder).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from agents.base import AgentError
from tribune_cli.command import Command
from tribune_env.extras import missing_extra


def add_parser(commands: Any) -> None:
    """Add ``tribune train`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", nargs="?", metavar="PATH", help="training config, a YAML file (see configs/)")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="overrides",
        help="override a config key, e.g. run.total_timesteps=20000 (repeatable)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        metavar="PATH",
        help="continue the run from its newest checkpoint, or from the checkpoint PATH",
    )
    p.add_argument(
        "--export",
        nargs=2,
        metavar=("PATH", "PATH"),
        help="write the compact numpy policy of a checkpoint (first PATH: an SB3 .zip or an RLlib checkpoint folder) "
        "to a .npz file (second PATH) that plays without torch, and exit",
    )
    p.add_argument("--check", action="store_true", help="check and print the resolved config, then exit")


class Terminated(KeyboardInterrupt):
    """SIGTERM during a run (a scheduler's stop, ``timeout``, ``kill``): raised as the interrupt every trainer already
    stops on cleanly, so the run says where it stands and its worker pools are closed."""


SIGTERM_STATUS = 128 + signal.SIGTERM
"""The exit status after a SIGTERM (143: the shell's convention for a process ended by that signal)."""


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread (elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _trained(train: Callable[[], object]) -> int | None:
    """Call ``train`` with SIGTERM turned into :class:`Terminated`; the exit status after a SIGTERM, else None."""
    try:
        with sigterm_as_interrupt():
            train()
    except Terminated:
        print("tribune train: stopped by SIGTERM", file=sys.stderr)
        return SIGTERM_STATUS
    return None


def _overrides(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"--set {pair!r}: expected KEY=VALUE")
        out[key.strip()] = yaml.safe_load(value)
    return out


def run(args: argparse.Namespace) -> int:
    from training.config import ConfigError, load_config

    try:
        from agents.ppo import CheckpointError, export_policy
    except ImportError as exc:  # pragma: no cover - depends on the install
        print(f"tribune train: {exc}", file=sys.stderr)
        return 2
    if args.export:
        try:
            if Path(args.export[0]).is_dir():  # an RLlib checkpoint folder (backend: rllib)
                from training.rllib_trainer import export_checkpoint

                out = export_checkpoint(Path(args.export[0]), Path(args.export[1]))
            else:
                out = export_policy(Path(args.export[0]), Path(args.export[1]))
        except (CheckpointError, OSError) as exc:
            print(f"tribune train --export: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
        return 0
    if not args.config:
        print("tribune train: give a CONFIG.yaml (see configs/)", file=sys.stderr)
        return 2
    try:
        special = _special_algorithm(args)
        if special is not None:
            return int(special(args))
        config = load_config(args.config, _overrides(args.overrides))
    except (ConfigError, ValueError) as exc:
        print(f"tribune train: {exc}", file=sys.stderr)
        return 2
    if args.check:
        print(yaml.safe_dump(config.resolved(), sort_keys=False), end="")
        return 0
    try:
        from training.trainer import TrainError, train

        if config.backend == "rllib":
            from training.rllib_trainer import train_rllib as train
    except ImportError as exc:
        extra = "rllib" if config.backend == "rllib" else "train"
        print(missing_extra(f"tribune train (backend {config.backend})", extra, exc), file=sys.stderr)
        return 2
    try:
        stopped = _trained(lambda: train(config, args.resume))
    except (TrainError, CheckpointError, AgentError) as exc:
        print(f"tribune train: {exc}", file=sys.stderr)
        return 2
    return stopped or 0


def _special_algorithm(args: argparse.Namespace) -> Any:
    """The runner of a config whose ``algorithm`` is not plain PPO: ``ppo-pool`` or ``zero``; ``None`` for PPO."""
    from training.config import algorithm_of

    return {"ppo-pool": _run_pool, "zero": _run_zero}.get(algorithm_of(args.config, _overrides(args.overrides)))


def _run_pool(args: argparse.Namespace) -> int:
    """``algorithm: ppo-pool``: masked PPO over a native pool of games (:mod:`training.pool`)."""
    from training.pool.config import load_pool_config

    def trainer() -> tuple[type[Exception], Callable[[Any, bool], Any]]:
        from training.pool.run import PoolTrainError, train_pool

        return PoolTrainError, train_pool

    return _run_in_folder(args, "ppo-pool", load_pool_config, trainer)


def _run_zero(args: argparse.Namespace) -> int:
    """``algorithm: zero``: expert iteration (:mod:`training.zero`); ``--resume`` continues the run's folder."""
    from training.zero.config import load_zero_config

    def trainer() -> tuple[type[Exception], Callable[[Any, bool], Any]]:
        from training.zero.run import ZeroTrainError, train_zero

        return ZeroTrainError, train_zero

    return _run_in_folder(args, "zero", load_zero_config, trainer)


def _run_in_folder(
    args: argparse.Namespace,
    algorithm: str,
    load: Callable[[Any, dict[str, Any]], Any],
    trainer: Callable[[], tuple[type[Exception], Callable[[Any, bool], Any]]],
) -> int:
    """Load the config (``--check`` prints it resolved), then train; a run resumes from its own folder only.
    ``trainer`` imports the algorithm's error class and train function (the ``train`` extra)."""
    from training.config import ConfigError

    try:
        config = load(args.config, _overrides(args.overrides))
    except (ConfigError, ValueError) as exc:
        print(f"tribune train: {exc}", file=sys.stderr)
        return 2
    if args.check:
        print(yaml.safe_dump(config.resolved(), sort_keys=False), end="")
        return 0
    if args.resume not in (None, "latest"):
        print(f"tribune train: a {algorithm} run resumes from its own folder: --resume takes no PATH", file=sys.stderr)
        return 2
    try:
        error, train = trainer()
    except ImportError as exc:
        print(missing_extra(f"tribune train (algorithm {algorithm})", "train", exc), file=sys.stderr)
        return 2
    try:
        stopped = _trained(lambda: train(config, args.resume is not None))
    except (error, AgentError) as exc:
        print(f"tribune train: {exc}", file=sys.stderr)
        return 2
    return stopped or 0


COMMAND = Command(
    "train",
    "train a PPO agent, or a zero network by self-play with search",
    (
        ("tribune train configs/smoke.yaml --check", "print the resolved config of the smoke run"),
        ("tribune train configs/ppo-vs-random.yaml --set run.total_timesteps=20000", "a short run against random"),
        ("tribune train configs/rllib-vs-random.yaml", "the same with Ray RLlib (backend: rllib)"),
        ("tribune train --export runs/smoke/final.zip smoke.npz", "the final model of the smoke run for numpy"),
        ("tribune train configs/zero-smoke.yaml", "expert iteration (algorithm: zero) in a tiny run"),
    ),
    _add_arguments,
    run,
    details="The config's backend chooses the library: sb3 (MaskablePPO from sb3-contrib, the train extra) or rllib "
    "(Ray RLlib, the rllib extra); a config with algorithm: zero trains a zero network by self-play with search "
    "(training.zero). The run directory gets the resolved config, TensorBoard and CSV logs, "
    "checkpoints, evaluations and a learning curve; --resume continues it.",
)
