"""The single-agent views of the native pool for users' algorithms (tribune_env.envs.vector, issue 43)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.batched import network_opponent
from tribune_env.envs.vector import (
    PoolDriver,
    TribunePoolEnv,
    TribunePoolVectorEnv,
    random_opponent,
)

SHIPPED = "agents/models/ppo-4p.npz"


def play(env: TribunePoolVectorEnv, steps: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        mask = info["action_mask"]
        obs, reward, terminated, _, info = env.step((rng.random(mask.shape) * mask).argmax(1))
        out.append((obs, reward, terminated))
    return out


def test_gymnasium_check_env_passes() -> None:
    check_env(TribunePoolEnv(players=4), skip_render_check=True)


@pytest.mark.train
def test_sb3_check_env_passes() -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(TribunePoolEnv(players=4))


def test_your_seat_decides_in_every_returned_row_and_opponents_play_only_theirs() -> None:
    """After reset and every step, each game waits for your seat; the opponents were called only on rows where
    their own seat decided."""
    calls: list[tuple[np.ndarray, np.ndarray]] = []
    inner = random_opponent(0)

    env = TribunePoolVectorEnv(6, players=4, opponents=[lambda o, m: calls.append((o.copy(), m.copy())) or inner(o, m)])
    driver = env.driver
    original = driver._pool_step

    def checked(actions: np.ndarray, moving: np.ndarray, reward: np.ndarray, done: np.ndarray) -> None:
        seats = driver._rows[2].astype(np.int64)
        owners = driver.owner[np.arange(driver.n), seats]
        assert (owners[moving] != 0).all() or (owners[moving] == 0).all()  # a step moves yours or theirs
        original(actions, moving, reward, done)

    driver._pool_step = checked  # type: ignore[method-assign]
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=5)
    for _ in range(150):
        seats = driver._rows[2].astype(np.int64)
        assert (seats == driver.mine).all()
        np.testing.assert_array_equal(obs, driver._rows[0])
        mask = info["action_mask"]
        obs, _, _, _, info = env.step((rng.random(mask.shape) * mask).argmax(1))
    assert calls


def test_the_same_seed_replays_and_games_end_with_your_result() -> None:
    a = play(TribunePoolVectorEnv(4, players=4, opponents=[random_opponent(3)]), 900, seed=2)
    b = play(TribunePoolVectorEnv(4, players=4, opponents=[random_opponent(3)]), 900, seed=2)
    for (oa, ra, ta), (ob, rb, tb) in zip(a, b, strict=True):
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ta, tb)
    ended = np.concatenate([r[t] for _, r, t in a])
    assert len(ended) > 0
    assert set(np.round(ended, 4)) <= {1.0, round(-1 / 3, 4), 0.0, 0.3333, 0.5}  # win_loss values of 4 players
    assert all((r[~t] == 0).all() for _, r, t in a)


def test_an_illegal_action_is_penalised_and_leaves_the_game_as_it_was() -> None:
    env = TribunePoolVectorEnv(3, players=4)
    obs, info = env.reset(seed=0)
    illegal = np.argmin(info["action_mask"], axis=1)
    after, reward, terminated, _, info2 = env.step(illegal)
    np.testing.assert_array_equal(after, obs)
    assert (reward == -1.0).all() and info2["illegal_action"].all() and not terminated.any()
    strict = TribunePoolVectorEnv(3, players=4, illegal_action="raise")
    _, info = strict.reset(seed=0)
    with pytest.raises(ValueError, match="not legal in game 0"):
        strict.step(np.argmin(info["action_mask"], axis=1))


def test_network_opponents_choose_legal_actions() -> None:
    act = network_opponent(SHIPPED, seed=0)
    driver = PoolDriver(5, None, [act], players=4)
    driver.reset(0)
    obs, mask = driver._rows[0], driver._rows[1].astype(bool)
    chosen = act(obs, mask)
    assert mask[np.arange(5), chosen].all()


@pytest.mark.train
@pytest.mark.slow
def test_maskable_ppo_runs_on_the_sb3_vec_env() -> None:
    from sb3_contrib import MaskablePPO

    from tribune_env.envs.vector import sb3_vec_env

    env = sb3_vec_env(4, players=4, seed=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(128)
    assert model.num_timesteps >= 128
