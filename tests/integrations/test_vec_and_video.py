"""The environments with Stable-Baselines3's vectorised helpers, and the ``rgb_array`` frames they record."""

from __future__ import annotations

import numpy as np
import pytest

import tribune_env
from tribune_env.envs import SINGLE_ID, TribuneSingleEnv


def _check_frame(frame: object, text: str) -> None:
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    lines = text.splitlines()
    assert frame.shape[0] > 8 * len(lines) and frame.shape[1] > 4 * max(len(line) for line in lines)
    dark = frame.min(axis=2) < 100
    assert 0.005 < dark.mean() < 0.5  # text drawn on a white page
    assert not dark[:3].any() and not dark[:, :3].any()  # a margin: no line is cut at the edges


@pytest.mark.render
def test_single_env_draws_rgb_frames() -> None:
    env = TribuneSingleEnv(players=3, render_mode="rgb_array")
    env.reset(seed=2)
    _check_frame(env.render(), env.game.render())


@pytest.mark.render
def test_aec_env_draws_rgb_frames() -> None:
    env = tribune_env.env(players=2, render_mode="rgb_array")
    env.reset(seed=5)
    _check_frame(env.render(), env.unwrapped.game.render())


@pytest.mark.render
def test_frames_change_with_the_game() -> None:
    env = TribuneSingleEnv(players=2, render_mode="rgb_array", learner_seat=0)
    env.reset(seed=1)
    before = env.render()
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    after = env.render()
    assert before.shape != after.shape or not np.array_equal(before, after)


@pytest.mark.train
def test_make_vec_env_with_its_default_render_mode() -> None:
    """SB3's make_vec_env asks for render_mode='rgb_array' unless told otherwise; the env must accept it."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = make_vec_env(SINGLE_ID, n_envs=2, env_kwargs={"players": 3}, seed=0, vec_env_cls=DummyVecEnv)
    try:
        assert venv.render_mode == "rgb_array"
        venv.reset()
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
        model.learn(total_timesteps=128)
    finally:
        venv.close()


@pytest.mark.slow
@pytest.mark.parametrize("env_id", [f"tribune_env:{SINGLE_ID}", TribuneSingleEnv], ids=["module:id", "class"])
def test_subprocess_vector_env_trains(env_id: object) -> None:
    """Worker processes (SubprocVecEnv) start without importing tribune_env, so a plain id is unknown there;
    the "module:id" form and the class both work, as the README says."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = make_vec_env(env_id, n_envs=2, env_kwargs={"players": 4}, seed=0, vec_env_cls=SubprocVecEnv)  # type: ignore[arg-type]
    try:
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
        model.learn(total_timesteps=128)
        assert model.num_timesteps >= 128
    finally:
        venv.close()
