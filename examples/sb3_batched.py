"""MaskablePPO over N environments in one Stable-Baselines3 ``VecEnv``: ``DummyVecEnv``, ``SubprocVecEnv`` or the
project's ``BatchedVecEnv``.

Shows: the module-qualified id :data:`tribune_env.envs.registration.SINGLE_MODULE_ID`
(``"tribune_env:tribune/TribuneSingle-v0"``), which a fresh worker process can resolve (a bare id is unknown
there: the worker never imported ``tribune_env``); ``GymEnvFactory`` is the other form that always works
(``--factory``). MaskablePPO collects the masks of all N environments through ``env_method("action_masks")``.

Which one:

* ``DummyVecEnv`` (``--vec dummy``) steps the N environments one after another in this process. No pickling, no
  inter-process traffic: the right choice on a machine with 1-2 free cores, for debugging, and for small N.
* ``SubprocVecEnv`` (``--vec subproc``) runs each environment in its own process. A Tribune step is costly (the
  opponents' decisions are played inside the learner's step), so with free cores (roughly one per environment
  plus one for the learner) it multiplies the sampling speed; on a crowded machine it only adds overhead.
* ``BatchedVecEnv`` (``--vec batched``, :mod:`tribune_env.integrations.sb3`) steps the N games together in this process
  with stacked arrays and no per-game wrappers; like ``DummyVecEnv`` it pays SB3's per-step cost once for N games
  (about 2.3x the steps/s of one environment at N=16 on a 2-core machine, docs/benchmarks.md, "Issue 16's figures").

Run (needs ``pip install -e '.[train]'``)::

    python examples/sb3_batched.py --n-envs 8 --vec subproc --timesteps 100000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from tribune_env.envs.registration import EXPANSION_SINGLE_MODULE_ID, SINGLE_MODULE_ID, GymEnvFactory


def say(text: str) -> None:
    """A line of progress on stderr (stdout keeps the summary)."""
    print(text, file=sys.stderr, flush=True)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--timesteps", type=int, default=50_000, help="learner decisions, summed over environments")
    parser.add_argument("--n-envs", type=int, default=4, help="environments in the VecEnv")
    parser.add_argument("--vec", choices=("dummy", "subproc", "batched"), default="dummy", help="the VecEnv class")
    parser.add_argument("--factory", action="store_true", help="build the workers with GymEnvFactory, not the id")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--expansion", action="store_true", help="play the Tribune Expansion")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per environment")
    parser.add_argument("--eval-games", type=int, default=4, help="games of the maskable evaluation (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, default=None, help="where to save the model (.zip)")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=sys.stderr.isatty(),
        help="SB3's progress bar on stderr (default: on a terminal)",
    )
    args = parser.parse_args(argv)
    if args.timesteps < 1 or args.n_envs < 1 or args.n_steps < 2 or args.eval_games < 0:
        parser.error("--timesteps and --n-envs must be >= 1, --n-steps >= 2 and --eval-games >= 0")
    return args


def make_envs(args: argparse.Namespace) -> VecEnv:
    """The N environments: by module-qualified id through ``make_vec_env``, from ``GymEnvFactory``, or batched."""
    if args.vec == "batched":
        from tribune_env.integrations.sb3 import BatchedVecEnv

        batched = BatchedVecEnv(args.n_envs, expansion=args.expansion, players=args.players)
        batched.seed(args.seed)
        return batched
    vec_cls: type[DummyVecEnv] | type[SubprocVecEnv] = SubprocVecEnv if args.vec == "subproc" else DummyVecEnv
    env_id = EXPANSION_SINGLE_MODULE_ID if args.expansion else SINGLE_MODULE_ID
    if args.factory:
        factories: list[Callable[[], gym.Env[Any, Any]]] = [
            GymEnvFactory(env_id, players=args.players) for _ in range(args.n_envs)
        ]
        envs: VecEnv = vec_cls(factories)
        envs.seed(args.seed)
        return envs
    kwargs = {"players": args.players}
    return make_vec_env(env_id, n_envs=args.n_envs, seed=args.seed, vec_env_cls=vec_cls, env_kwargs=kwargs)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train over the VecEnv, save (``--save``), evaluate; print and return a summary."""
    args = parse_args(argv)
    envs = make_envs(args)
    try:
        model = MaskablePPO(
            "MlpPolicy", envs, n_steps=args.n_steps, batch_size=min(64, args.n_steps * args.n_envs),
            seed=args.seed, device="cpu",
        )
        start = time.perf_counter()
        say(f"training {args.timesteps:,} steps")
        model.learn(total_timesteps=args.timesteps, progress_bar=args.progress)
        seconds = time.perf_counter() - start
        summary: dict[str, Any] = {
            "vec": args.vec,
            "n_envs": envs.num_envs,
            "timesteps": int(model.num_timesteps),
            "steps_per_s": model.num_timesteps / seconds,
        }
        if args.save is not None:
            args.save.parent.mkdir(parents=True, exist_ok=True)
            model.save(args.save)
            summary["model"] = str(args.save)
        if args.eval_games:
            say(f"evaluating {args.eval_games} games")
            env_id = EXPANSION_SINGLE_MODULE_ID if args.expansion else SINGLE_MODULE_ID
            eval_env: Monitor[Any, Any] = Monitor(gym.make(env_id, players=args.players))
            eval_env.reset(seed=args.seed + 1)
            rewards, _ = evaluate_policy(
                model, eval_env, n_eval_episodes=args.eval_games, use_masking=True, return_episode_rewards=True
            )
            assert isinstance(rewards, list)
            summary.update(
                eval_games=len(rewards),
                mean_reward=sum(rewards) / len(rewards),
                win_rate=sum(r > 0 for r in rewards) / len(rewards),
            )
    finally:
        envs.close()
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
