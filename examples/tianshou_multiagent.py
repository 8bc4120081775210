"""Tianshou 2.x multi-agent game: one DQN seat learns against masked random seats.

Shows: :mod:`tribune_env.integrations.tianshou` building the Tianshou ``PettingZooEnv`` (``make_env`` /
``vector_env``), a masked DQN for the learning seat (``dqn_algorithm``) and the multi-agent algorithm that
fills the other seats with masked random play (``multi_agent_algorithm``); then a short collect/update loop with
Tianshou's ``Collector`` and a greedy evaluation. The environment keeps its default ``illegal_action="raise"``,
so the run itself shows that every seat's actions respected the masks.

Run (needs ``pip install -e '.[tianshou]'``)::

    python examples/tianshou_multiagent.py --steps 20000 --eval-games 10
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

from tribune_env.integrations import tianshou as ts_glue


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=20_000, help="environment steps (all seats' moves) to collect")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--learner-seat", type=int, default=0, help="the DQN's seat; the others play at random")
    parser.add_argument("--n-envs", type=int, default=2, help="games collected side by side")
    parser.add_argument("--collect-steps", type=int, default=200, help="steps per collect, between updates")
    parser.add_argument("--updates", type=int, default=10, help="gradient updates after each collect")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--n-step", type=int, default=8, help="DQN's n-step return horizon (spans other seats)")
    parser.add_argument("--reward", default="win_loss", help="the environment's reward option (e.g. dense)")
    parser.add_argument("--eval-games", type=int, default=4, help="greedy games after training (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if min(args.steps, args.n_envs, args.collect_steps, args.batch_size) < 1 or args.updates < 0 or args.eval_games < 0:
        parser.error("--steps, --n-envs, --collect-steps and --batch-size must be >= 1; --updates, --eval-games >= 0")
    if not 0 <= args.learner_seat < args.players:
        parser.error(f"--learner-seat must be a seat 0..{args.players - 1}")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train the DQN seat, evaluate it greedily; print and return a summary."""
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's random seats and epsilon draw from numpy's global generator
    env_kwargs = {"players": args.players, "reward": args.reward}
    env = ts_glue.make_env(**env_kwargs)  # one instance for the spaces and the seat names
    learner_id = ts_glue.agent_ids(env)[args.learner_seat]
    dqn = ts_glue.dqn_algorithm(env, hidden_sizes=(128, 128), n_step=args.n_step, eps_training=0.2)
    algorithm = ts_glue.multi_agent_algorithm(env, {args.learner_seat: dqn})

    train_envs = ts_glue.vector_env(args.n_envs, **env_kwargs)
    train_envs.seed(args.seed)
    buffer = VectorReplayBuffer(max(20_000, args.collect_steps * 4), args.n_envs)
    collector: Collector[CollectStats] = Collector(algorithm, train_envs, buffer, exploration_noise=True)
    collector.reset()
    collected = updates = episodes = 0
    losses: list[float] = []
    start = time.perf_counter()
    while collected < args.steps:
        with policy_within_training_step(algorithm.policy):
            stats = collector.collect(n_step=min(args.collect_steps, args.steps - collected))
        collected += stats.n_collected_steps
        episodes += stats.n_collected_episodes
        if len(buffer) < args.batch_size:
            continue
        with policy_within_training_step(algorithm.policy), torch_train_mode(algorithm.policy):
            for _ in range(args.updates):
                loss = algorithm.update(buffer=buffer, sample_size=args.batch_size).get_loss_stats_dict()
                losses.append(loss[f"{learner_id}/loss"])
                updates += 1
    seconds = time.perf_counter() - start
    stored = buffer.sample_indices(0)  # every stored step, across the per-environment sub-buffers
    learner_moves = int(np.sum(buffer.obs.agent_id[stored] == learner_id))
    summary: dict[str, Any] = {
        "steps": collected,
        "steps_per_s": collected / seconds,
        "episodes": episodes,
        "learner_moves": learner_moves,
        "updates": updates,
        "last_loss": losses[-1] if losses else float("nan"),
    }
    train_envs.close()
    if args.eval_games:
        eval_envs = ts_glue.vector_env(1, **env_kwargs)
        eval_envs.seed(args.seed + 1)
        evaluator: Collector[CollectStats] = Collector(algorithm, eval_envs)
        result = evaluator.collect(n_episode=args.eval_games, reset_before_collect=True)
        returns = np.asarray(result.returns).reshape(args.eval_games, -1)[:, args.learner_seat]
        summary.update(eval_games=len(returns), learner_mean_return=float(returns.mean()))
        if args.reward == "win_loss":  # only winners get a positive result
            summary["learner_win_rate"] = float(np.mean(returns > 0))
        eval_envs.close()
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
