"""sb3-contrib's MaskablePPO over :func:`tribune_env.envs.vector.sb3_vec_env`: a Stable-Baselines3 ``VecEnv`` of N
native pool games, your seat in each, the other seats played inside by batched opponents.

Shows: the pool as an SB3 ``VecEnv`` (MaskablePPO reads the legal actions through ``env_method("action_masks")``),
opponents given as batched policies (the shipped ``ppo`` network and random), and SB3's per-step cost, which the
project's own pool trainer avoids (docs/training/pool.md).

Run (needs ``pip install -e '.[train]'``)::

    python examples/pool_sb3.py --envs 32 --timesteps 20000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from sb3_contrib import MaskablePPO

from agents.batched import network_opponent
from tribune_env.envs.vector import random_opponent, sb3_vec_env


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=32)
    p.add_argument("--timesteps", type=int, default=20000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="agents/models/ppo-4p.npz")
    args = p.parse_args(argv)
    env = sb3_vec_env(args.envs, players=4, seed=args.seed,
                      opponents=[network_opponent(args.opponent, seed=args.seed), random_opponent(args.seed)])
    model = MaskablePPO("MlpPolicy", env, n_steps=max(2048 // args.envs, 16), batch_size=512, seed=args.seed,
                        verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(args.timesteps)
    seconds = time.perf_counter() - start
    summary = {"timesteps": model.num_timesteps, "steps_per_s": model.num_timesteps / seconds}
    print(summary)
    return summary


if __name__ == "__main__":
    main()
