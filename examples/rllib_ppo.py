"""Ray RLlib PPO with action masking and one shared policy for every seat (self-play).

Shows: :func:`tribune_env.integrations.rllib.shared_policy_config` (the multi-agent environment, the masking
module and the policy mapping, no glue to write), env runners on a local Ray instance (or a cluster with
``--address``), and the export of the trained module to the project's numpy policy, which then plays an ordinary
tournament against random players as ``ppo:PATH``.

Run (needs ``pip install -e '.[rllib]'``)::

    python examples/rllib_ppo.py --iterations 5 --env-runners 2 --export runs/rllib_shared.npz

For the full training pipeline (league opponents, checkpoints, evaluations) use ``tribune train`` with
``backend: rllib`` (``configs/rllib-vs-random.yaml``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ray

from agents.ppo import signature_for
from training.evaluation import evaluate_checkpoint
from training.rllib_export import export_module
from tribune_env import GameConfig
from tribune_env.integrations.rllib import SHARED_POLICY, TribuneTorchModule, shared_policy_config


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=5, help="PPO iterations (each samples --batch steps)")
    parser.add_argument("--batch", type=int, default=2000, help="environment steps per iteration, all seats")
    parser.add_argument("--players", type=int, default=4, help="seats at the table")
    parser.add_argument("--env-runners", type=int, default=1, help="sampling actors (0: sample in this process)")
    parser.add_argument("--address", default=None, help="join a running Ray cluster (e.g. 'auto') instead")
    parser.add_argument("--export", type=Path, default=None, help="write the policy as a numpy .npz agent")
    parser.add_argument("--games", type=int, default=0, help="then play this many games against 3 random players")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.batch < 64 or args.env_runners < 0 or args.games < 0:
        parser.error("--iterations >= 1, --batch >= 64, --env-runners >= 0 and --games >= 0")
    if args.games and args.export is None:
        parser.error("--games plays the exported policy: give --export")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, export (``--export``), play (``--games``); print and return a summary."""
    args = parse_args(argv)
    hidden = [128, 128]
    net = {"pi": hidden, "vf": hidden, "activation": "tanh"}
    config = (
        shared_policy_config({"players": args.players}, pi=hidden, vf=hidden)
        .env_runners(num_env_runners=args.env_runners)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(256, args.batch), num_epochs=4,
                  lr=3e-4, gamma=1.0, entropy_coeff=0.01)
        .debugging(seed=args.seed, log_level="ERROR")
    )
    started = not ray.is_initialized()
    if started:
        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    algo: Any = config.build_algo()
    summary: dict[str, Any] = {}
    try:
        start = time.perf_counter()
        for _ in range(args.iterations):
            result = algo.train()
        seconds = time.perf_counter() - start
        steps = int(result["env_runners"]["num_module_steps_sampled_lifetime"][SHARED_POLICY])
        summary.update(steps=steps, steps_per_s=steps / seconds)
        if args.export is not None:
            meta = {"format": "tribune-ppo/1", "signature": signature_for(GameConfig(players=args.players)),
                    "space": "base", "net": net}
            args.export.parent.mkdir(parents=True, exist_ok=True)
            module = algo.get_module(SHARED_POLICY)
            assert isinstance(module, TribuneTorchModule)
            summary["policy"] = str(export_module(module, meta, args.export))
    finally:
        algo.stop()
        if started:
            ray.shutdown()
    if args.games and args.export is not None:  # the export is an ordinary agent: ppo:PATH in the tournament runner
        game = GameConfig(players=args.players)
        (row,) = evaluate_checkpoint(args.export, summary["steps"], ["random"], args.games, game,
                                     args.export.parent / "rllib-eval", seed=args.seed, workers=1)
        summary.update(games=row.games, win_rate=row.win_rate)
    print(", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
