"""The batched environment (``TribuneBatchedEnv``) and its SB3 adapter (``BatchedVecEnv``)."""

from __future__ import annotations

import numpy as np
import pytest

from tribune_env.envs.batched import TribuneBatchedEnv
from tribune_env.envs.single import TribuneSingleEnv


def _first_legal(masks: np.ndarray, t: int) -> np.ndarray:
    """A deterministic legal action per row (varies with the step so games differ)."""
    out = []
    for row in masks:
        legal = np.flatnonzero(row)
        out.append(legal[t % len(legal)])
    return np.asarray(out, dtype=np.int64)


def test_batched_games_equal_single_envs_under_the_same_seeds() -> None:
    n, seed = 3, 11
    batched = TribuneBatchedEnv(n, players=3, round_limit=2)
    singles = [TribuneSingleEnv(players=3, round_limit=2) for _ in range(n)]
    obs, _ = batched.reset(seed=seed)
    for i, env in enumerate(singles):
        single_obs, _ = env.reset(seed=seed + i)
        assert np.array_equal(obs[i], single_obs)
    ends = 0
    for t in range(400):
        masks = batched.action_masks()
        assert masks.shape == (n, batched.single_action_space.n) and masks.dtype == bool
        actions = _first_legal(masks, t)
        obs, rewards, terms, truncs, infos = batched.step(actions)
        for i, env in enumerate(singles):
            assert np.array_equal(masks[i], env.action_masks())
            s_obs, s_reward, s_term, s_trunc, _ = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (s_reward, s_term, s_trunc)
            if s_term or s_trunc:  # auto-reset: the row holds the next game, the final observation is kept
                ends += 1
                assert infos["_final_obs"][i] and np.array_equal(infos["final_obs"][i], s_obs)
                s_obs, _ = env.reset()
            assert np.array_equal(obs[i], s_obs)
    assert ends >= 2, "the run must cross episode ends"


def test_batched_spaces_and_bad_input() -> None:
    env = TribuneBatchedEnv(2, players=4)
    obs, info = env.reset(seed=[1, 2])
    assert obs.shape == (2, *env.single_observation_space.shape) and obs.dtype == np.float32
    assert env.observation_space.contains(obs) and len(info["infos"]) == 2
    with pytest.raises(ValueError, match="num_envs"):
        TribuneBatchedEnv(0)
    with pytest.raises(ValueError, match="obs_format"):
        TribuneBatchedEnv(2, obs_format="dict")
    with pytest.raises(ValueError, match="1 seeds for 2 games"):
        env.reset(seed=[1])
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))


def test_expansion_batched_env_steps() -> None:
    env = TribuneBatchedEnv(2, expansion=True, players=5, brutii=True)
    env.reset(seed=0)
    for t in range(30):
        env.step(_first_legal(env.action_masks(), t))


@pytest.mark.slow
@pytest.mark.train
def test_maskable_ppo_learns_with_the_sb3_adapter() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from tribune_env.integrations.sb3 import BatchedVecEnv

    vec = BatchedVecEnv(4, players=2, round_limit=2)
    assert is_masking_supported(vec)
    vec.seed(3)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (4, vec.action_space.n) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0, verbose=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = vec.reset()
    action, _ = model.predict(obs, action_masks=get_action_masks(vec))
    assert all(get_action_masks(vec)[i, a] for i, a in enumerate(action))


@pytest.mark.train
def test_sb3_adapter_seeds_options_and_terminal_observations() -> None:
    from tribune_env.integrations.sb3 import BatchedVecEnv

    vec = BatchedVecEnv(3, players=3, round_limit=1)
    vec.seed(7)
    first = vec.reset()
    vec.seed(7)
    assert np.array_equal(vec.reset(), first)
    vec.set_options({"learner_seat": 1})
    vec.reset()
    assert [info["seat"] for info in vec.reset_infos] == [1, 1, 1]
    assert vec.env_method("action_masks")[0].shape == (vec.action_space.n,)
    assert vec.get_attr("seat") == [1, 1, 1]
    finished = 0
    for t in range(300):
        obs, rewards, dones, infos = vec.step(_first_legal(vec.action_masks(), t))
        assert obs.shape == (3, *vec.observation_space.shape) and rewards.shape == dones.shape == (3,)
        for i in np.flatnonzero(dones):
            finished += 1
            assert infos[i]["terminal_observation"].shape == vec.observation_space.shape
            assert infos[i]["TimeLimit.truncated"] == bool(infos[i]["episode_info"]["truncated"])
    assert finished >= 3


def test_the_policy_of_the_bench_chooses_legal_actions() -> None:
    """The network of the bench's ``+ policy`` figures picks only masked-in actions, one pass for many rows."""
    from tribune_arena.bench.environments import _MlpPolicy

    rng = np.random.default_rng(0)
    policy = _MlpPolicy(12, 7, seed=1)
    masks = rng.random((64, 7)) < 0.3
    masks[np.arange(64), rng.integers(7, size=64)] = True
    chosen = policy(rng.random((64, 12), dtype=np.float32), masks)
    assert chosen.shape == (64,) and masks[np.arange(64), chosen].all()
