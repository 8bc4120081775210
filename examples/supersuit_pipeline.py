"""SuperSuit observation wrappers on the Tribune AEC environment, then a masked rollout.

SuperSuit's observation wrappers need a ``Box`` observation, so the environment is built with
``obs_format="flat"``: one float32 vector, the observation followed by the 0/1 action mask at ``env.mask_slice``.
The pipeline here: ``dtype_v0`` (float32), ``normalize_obs_v0`` (to [0, 1] by the space's bounds; the mask stays
0/1), ``agent_indicator_v0`` (one-hot seat appended at the end) and ``frame_stack_v1`` (the last K frames, oldest
first, concatenated). ``flatten_v0``, ``pad_observations_v0`` and ``pad_action_space_v0`` also apply (the spaces are
already flat and equal for every seat). ``black_death_v3`` and the ``*_vec_env`` converters need a parallel
environment: Tribune's turn order is decided by the game, so it is AEC only.

Where the mask lies after the wrappers: ``agent_indicator`` appends after it (its slice is unchanged within a
frame) and ``frame_stack`` puts the current frame last, so the current mask is
``obs[(K - 1) * frame_size:][env.unwrapped.mask_slice]`` (:func:`current_mask`). The same mask is in
``infos[agent]["action_mask"]`` in the flat format; the rollout checks that the two agree at every step.

Run (needs ``pip install -e '.[supersuit]'``)::

    python examples/supersuit_pipeline.py --steps 5000 --stack 4
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import supersuit as ss

import tribune_env


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=5_000, help="moves to play (all seats)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--stack", type=int, default=2, help="frames stacked by frame_stack_v1")
    parser.add_argument("--expansion", action="store_true", help="play the Tribune Expansion")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.steps < 1 or args.stack < 1:
        parser.error("--steps and --stack must be >= 1")
    return args


def make_pipeline(players: int, stack: int, expansion: bool = False) -> Any:
    """The flat AEC environment through SuperSuit's dtype, normalize, agent-indicator and frame-stack wrappers."""
    make = tribune_env.expansion_env if expansion else tribune_env.env
    env = make(players=players, obs_format="flat")
    env = ss.dtype_v0(env, np.float32)
    env = ss.normalize_obs_v0(env, env_min=0.0, env_max=1.0)
    env = ss.agent_indicator_v0(env)
    return ss.frame_stack_v1(env, stack)


def current_mask(obs: np.ndarray, mask_slice: slice, stack: int) -> np.ndarray:
    """The acting seat's mask (bool) in a frame-stacked flat observation: the last frame's ``mask_slice``."""
    frame = obs.shape[-1] // stack
    return np.asarray(obs[(stack - 1) * frame :][mask_slice] > 0.5)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Play ``--steps`` random legal moves through the pipeline; print and return a summary."""
    args = parse_args(argv)
    env = make_pipeline(args.players, args.stack, args.expansion)
    mask_slice = env.unwrapped.mask_slice
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)
    moves = games = 0
    start = time.perf_counter()
    while moves < args.steps:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert obs.shape == env.observation_space(agent).shape
            mask = current_mask(obs, mask_slice, args.stack)
            if not np.array_equal(mask, info["action_mask"].astype(bool)):
                raise AssertionError(f"{agent}: the mask in the observation differs from infos['action_mask']")
            env.step(int(rng.choice(np.flatnonzero(mask))))  # an illegal action would raise (illegal_action="raise")
            moves += 1
            if moves >= args.steps:
                break
        else:  # the game ended before the step budget: start another
            games += 1
            env.reset()
    seconds = time.perf_counter() - start
    summary: dict[str, Any] = {
        "moves": moves,
        "games": games,
        "moves_per_s": moves / seconds,
        "obs_size": int(env.observation_space(env.possible_agents[0]).shape[0]),
        "mask_slice": f"{mask_slice.start}:{mask_slice.stop}",
    }
    env.close()
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
