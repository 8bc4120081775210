"""A short sb3-contrib MaskablePPO run on the single-agent wrapper, then the model as an opponent."""

from __future__ import annotations

from typing import TYPE_CHECKING

import gymnasium
import numpy as np
import pytest

from tribune_env import TribuneSingleEnv
from tribune_env.envs import SINGLE_ID, RandomPolicy, model_policy

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

TIMESTEPS = 2048


def train(env: gymnasium.Env, seed: int = 0) -> MaskablePPO:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=256,
        batch_size=64,
        n_epochs=2,
        policy_kwargs={"net_arch": [64, 64]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    return model.learn(total_timesteps=TIMESTEPS)


def play_episode(env: TribuneSingleEnv, seed: int, learner: MaskablePPO | None = None) -> tuple[float, bool, bool]:
    """One episode; the learner seat plays ``learner`` (masked) or uniformly random legal actions."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    while True:
        mask = env.action_masks()
        assert mask.any()
        if learner is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            predicted, _ = learner.predict(obs, action_masks=mask, deterministic=True)
            action = int(predicted)
            assert mask[action], "a masked prediction is always legal"
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return reward, terminated, truncated


@pytest.mark.slow
def test_maskable_ppo_trains_and_plays_as_an_opponent() -> None:
    import torch
    from sb3_contrib.common.maskable.utils import get_action_masks

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        env = gymnasium.make(SINGLE_ID, players=3, round_limit=8)
        model = train(env)
        assert model.num_timesteps >= TIMESTEPS
        # the masks MaskablePPO reads through the vectorised env are the wrapper's
        vec_env = model.get_env()
        assert vec_env is not None
        vec_env.reset()
        masks = get_action_masks(vec_env)
        assert masks.shape == (1, env.action_space.n) and masks.any()

        # the trained model as the opponent of every other seat, over full-length games
        policy = model_policy(model)
        for seed in range(2):
            table = TribuneSingleEnv(players=3, opponents=policy)
            reward, terminated, truncated = play_episode(table, seed=seed)
            assert terminated != truncated
            assert reward in (1.0, -0.5, 0.25, 0.0)  # win_loss for 3 players: sole winner, loser, tied winners

        # ... mixed with other opponents, and as the learner itself
        mixed = TribuneSingleEnv(players=3, learner_seat=0, opponents=[policy, RandomPolicy()], round_limit=10)
        play_episode(mixed, seed=3, learner=model)
    finally:
        torch.set_num_threads(threads)
