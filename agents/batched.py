"""Agents as batched opponents over many games' rows at once (:mod:`tribune_env.envs.vector`, issue 43).

A batched policy is a callable ``policy(obs, mask) -> actions`` over ``k`` rows (``obs`` float32 ``(k, n)``, ``mask``
bool ``(k, actions)``), one legal action index per row; :class:`~tribune_env.envs.vector.TribunePoolVectorEnv` and
its SB3 twin play the seats that are not yours with them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tribune_env.engine.config import GameConfig
from tribune_env.envs.vector import BatchedPolicy


def network_opponent(
    path: str | Path, deterministic: bool = False, seed: int | None = None, config: GameConfig | None = None
) -> BatchedPolicy:
    """A NumpyPolicy network (``.npz``, :mod:`agents.ppo`) as a batched opponent: its most probable legal action,
    or a sample of its masked softmax (Gumbel-max, seeded). With ``config``, the network is checked to fit it."""
    from agents.ppo import load_policy

    policy = load_policy(path, config)
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scores = np.where(mask, policy.logits(obs), -np.inf)
        if not deterministic:
            scores = scores - np.log(-np.log(rng.uniform(1e-12, 1.0, scores.shape)))
        return np.asarray(scores.argmax(1), dtype=np.int64)

    return act
