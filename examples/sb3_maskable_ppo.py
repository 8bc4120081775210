"""Single-agent MaskablePPO (sb3-contrib) on ``tribune/TribuneSingle-v0``: one learner against random seats.

Shows: making the Gymnasium environment by id, training MaskablePPO (the environment's ``action_masks()`` is what
it asks for), saving the model, and sb3-contrib's maskable evaluation (``evaluate_policy(..., use_masking=True)``)
with the learner's win rate.

Run (needs ``pip install -e '.[train]'``)::

    python examples/sb3_maskable_ppo.py --timesteps 20000 --eval-games 20 --save runs/sb3_single.zip
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor

import tribune_env  # noqa: F401  (registers the environments)
from tribune_env.envs.registration import EXPANSION_SINGLE_ID, SINGLE_ID


def say(text: str) -> None:
    """A line of progress on stderr (stdout keeps the summary)."""
    print(text, file=sys.stderr, flush=True)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--timesteps", type=int, default=20_000, help="learner decisions to train on")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (2-5; 2-6 with --expansion)")
    parser.add_argument("--expansion", action="store_true", help="play the Tribune Expansion")
    parser.add_argument("--n-steps", type=int, default=512, help="PPO rollout length")
    parser.add_argument("--eval-games", type=int, default=10, help="games of the maskable evaluation (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, default=None, help="where to save the model (.zip)")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=sys.stderr.isatty(),
        help="SB3's progress bar on stderr (default: on a terminal)",
    )
    args = parser.parse_args(argv)
    if args.timesteps < 1 or args.n_steps < 2 or args.eval_games < 0:
        parser.error("--timesteps must be >= 1, --n-steps >= 2 and --eval-games >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, save (``--save``), evaluate; print and return a summary."""
    args = parse_args(argv)
    env_id = EXPANSION_SINGLE_ID if args.expansion else SINGLE_ID
    env: gym.Env[Any, Any] = gym.make(env_id, players=args.players)  # the others play random legal actions
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=min(64, args.n_steps), seed=args.seed, device="cpu"
    )
    start = time.perf_counter()
    say(f"training {args.timesteps:,} steps")
    model.learn(total_timesteps=args.timesteps, progress_bar=args.progress)
    seconds = time.perf_counter() - start
    summary: dict[str, Any] = {"timesteps": int(model.num_timesteps), "steps_per_s": model.num_timesteps / seconds}
    if args.save is not None:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        model.save(args.save)
        summary["model"] = str(args.save)
    if args.eval_games:
        say(f"evaluating {args.eval_games} games")
        eval_env: Monitor[Any, Any] = Monitor(gym.make(env_id, players=args.players))
        eval_env.reset(seed=args.seed + 1)
        # sb3-contrib's evaluation asks the environment for its masks before every prediction
        rewards, lengths = evaluate_policy(
            model, eval_env, n_eval_episodes=args.eval_games, deterministic=True, use_masking=True,
            return_episode_rewards=True,
        )
        assert isinstance(rewards, list) and isinstance(lengths, list)
        summary.update(
            eval_games=len(rewards),
            mean_reward=sum(rewards) / len(rewards),
            win_rate=sum(r > 0 for r in rewards) / len(rewards),  # win_loss: only winners get a positive reward
            mean_length=sum(lengths) / len(lengths),
        )
    training_envs = model.get_env()  # the DummyVecEnv MaskablePPO put around env
    if training_envs is not None:
        training_envs.close()
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
