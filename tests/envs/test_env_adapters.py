"""The adapters built into the environments: ``illegal_action`` modes and ``obs_format`` (issue 18)."""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pytest
from env_checks import NO_SPEC_WARNING, run_api_test
from gymnasium.utils.env_checker import check_env as gym_check_env
from slow_marks import slow_except_values

import tribune_env
from tribune_env import IllegalMoveError, TribuneSingleEnv
from tribune_env.envs import AEC_ID, SINGLE_ID, IllegalActionPenalty, TribuneExpansionSingleEnv
from tribune_env.envs.options import ILLEGAL_ACTIONS, OBS_FORMATS


def mask_of(env: Any, obs: Any) -> np.ndarray:
    """The action mask in either observation format."""
    if isinstance(obs, dict):
        return np.asarray(obs["action_mask"])
    return np.asarray(obs[env.unwrapped.mask_slice])


def illegal_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def started(**kwargs: Any) -> Any:
    env = tribune_env.env(**kwargs)
    env.reset(seed=3)
    return env


# -- PettingZoo's api_test in every mode and format ------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("illegal_action", ILLEGAL_ACTIONS)
@pytest.mark.parametrize("obs_format", OBS_FORMATS)
def test_api_test_in_every_mode_and_format(players: int, illegal_action: str, obs_format: str) -> None:
    run_api_test(tribune_env.env(players=players, illegal_action=illegal_action, obs_format=obs_format), num_cycles=400)


def test_api_test_via_registry_with_options() -> None:
    run_api_test(pettingzoo.make("aec", AEC_ID, players=3, illegal_action="penalty", obs_format="flat"), num_cycles=400)


@pytest.mark.parametrize(("illegal_action", "obs_format"), [("penalty", "flat"), ("penalty_end", "dict")])
def test_api_test_expansion_brutii(illegal_action: str, obs_format: str) -> None:
    env = tribune_env.expansion_env(players=5, brutii=True, illegal_action=illegal_action, obs_format=obs_format)
    run_api_test(env, num_cycles=200)


# -- illegal_action ----------------------------------------------------------------------


def test_default_mode_still_raises() -> None:
    env = started(players=3)
    assert env.unwrapped.illegal_action == "raise"
    obs, *_ = env.last()
    with pytest.raises(IllegalMoveError):
        env.step(illegal_index(obs["action_mask"]))


@pytest.mark.parametrize("obs_format", slow_except_values(OBS_FORMATS, quick=["dict"]))
@pytest.mark.parametrize("players", slow_except_values([2, 4], quick=[2]))
def test_penalty_mode_random_unmasked_actions(players: int, obs_format: str) -> None:
    """What RLlib's checker does: unmasked random actions never raise and an illegal one never changes the game."""
    env = tribune_env.env(players=players, illegal_action="penalty", illegal_penalty=-0.25, obs_format=obs_format)
    env.reset(seed=players)
    space = env.action_space(env.possible_agents[0])
    space.seed(players)
    rng = np.random.default_rng(players)
    illegal = legal = 0
    for agent in env.agent_iter(max_iter=3000):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = mask_of(env, obs)
        action = int(space.sample()) if rng.random() < 0.7 else int(rng.choice(np.flatnonzero(mask)))
        before = env.unwrapped.game.to_json()
        env.step(action)
        if mask[action]:
            legal += 1
            assert "illegal_action" not in env.infos[agent]
            continue
        illegal += 1
        assert env.unwrapped.game.to_json() == before, "an illegal action changes nothing in the game"
        assert env.agent_selection == agent, "the same agent acts again"
        _, reward, terminated, truncated, info = env.last()
        assert reward == -0.25 and info["illegal_action"] == action and type(info["illegal_action"]) is int
        assert not terminated and not truncated
        assert all(env.rewards[a] == 0.0 for a in env.agents if a != agent)
    assert illegal > 50 and legal > 50


@pytest.mark.parametrize("bad", ["masked", "negative", "too_big"])
def test_penalty_mode_changes_nothing_and_rewards_once(bad: str) -> None:
    env = started(players=4, illegal_action="penalty")
    agent = env.agent_selection
    obs, *_ = env.last()
    n = env.unwrapped.codec.n
    action = {"masked": illegal_index(obs["action_mask"]), "negative": -1, "too_big": n}[bad]
    before = env.unwrapped.game.to_json()
    env.step(action)
    assert env.unwrapped.game.to_json() == before
    assert env.last()[1] == -1.0, "the documented default penalty"
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.game.to_json() != before
    assert env._cumulative_rewards[agent] == 0.0 or env.agent_selection != agent


@pytest.mark.parametrize("mode", ["penalty", "penalty_end"])
def test_non_integer_actions_raise_in_penalty_modes(mode: str) -> None:
    env = started(players=3, illegal_action=mode)
    before = env.unwrapped.game.to_json()
    for action in (None, 1.0, "3"):
        with pytest.raises(IllegalMoveError):
            env.step(action)
    assert env.unwrapped.game.to_json() == before and not any(env.terminations.values())


@pytest.mark.parametrize("obs_format", OBS_FORMATS)
def test_penalty_end_ends_the_episode(obs_format: str) -> None:
    env = started(players=4, illegal_action="penalty_end", illegal_penalty=-3, obs_format=obs_format)
    offender = env.agent_selection
    obs, *_ = env.last()
    before = env.unwrapped.game.to_json()
    env.step(illegal_index(mask_of(env, obs)))
    assert env.unwrapped.game.to_json() == before
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos[offender]["illegal_action"] == illegal_index(mask_of(env, obs))
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        final[agent] = reward
        env.step(None)
    assert final == {a: (-3.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []


def test_wrapper_still_works_over_the_options() -> None:
    env = IllegalActionPenalty(started(players=3, obs_format="flat"), penalty=-2.0, terminate=False)
    agent = env.agent_selection
    env.step("x")
    assert env.agent_selection == agent and env.last()[1] == -2.0 and "illegal_action" in env.last()[4]


def test_options_survive_pickling() -> None:
    raw = tribune_env.expansion_raw_env(players=3, illegal_action="penalty_end", illegal_penalty=-2, obs_format="flat")
    copy = pickle.loads(pickle.dumps(raw))
    assert (copy.illegal_action, copy.illegal_penalty, copy.obs_format) == ("penalty_end", -2.0, "flat")
    assert copy.table.config.expansion is True


# -- obs_format --------------------------------------------------------------------------


@pytest.mark.parametrize("factory", [tribune_env.env, tribune_env.expansion_env])
def test_flat_space_and_mask_slice(factory: Any) -> None:
    flat, plain = factory(players=3, obs_format="flat"), factory(players=3)
    agent = flat.possible_agents[0]
    space, dict_space = flat.observation_space(agent), plain.observation_space(agent)
    assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.float32
    size, n = dict_space["observation"].shape[0], dict_space["action_mask"].shape[0]
    assert space.shape == (size + n,)
    assert flat.unwrapped.mask_slice == slice(size, size + n) == plain.unwrapped.mask_slice
    assert np.array_equal(space.high[:size], dict_space["observation"].high)
    assert np.all(space.high[flat.unwrapped.mask_slice] == 1.0) and np.all(space.low == 0.0)


@pytest.mark.parametrize("players", slow_except_values([2, 4], quick=[2]))
def test_flat_equals_dict_then_mask_every_step(players: int) -> None:
    """Two environments in lockstep: the flat observation is the dict's observation then its mask, for every agent."""
    flat = tribune_env.env(players=players, obs_format="flat")
    plain = tribune_env.env(players=players)
    flat.reset(seed=11)
    plain.reset(seed=11)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in plain.agent_iter():
        assert flat.agent_selection == agent
        for a in plain.possible_agents:
            d, f = plain.observe(a), flat.observe(a)
            expected = np.concatenate([d["observation"], d["action_mask"].astype(np.float32)])
            assert f.dtype == np.float32 and np.array_equal(f, expected)
            assert flat.observation_space(a).contains(f)
        obs, _, terminated, truncated, _ = plain.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        plain.step(action)
        flat.step(action)
        steps += 1
    assert (
        steps > 50 and plain.unwrapped.game.is_over and flat.unwrapped.game.to_json() == plain.unwrapped.game.to_json()
    )


def test_flat_obs_goes_through_a_box_only_wrapper() -> None:
    """What SuperSuit's observation wrappers assert: a Box space, and observations inside it (here rescaled)."""
    env = tribune_env.env(players=3, obs_format="flat")
    space = env.observation_space("player_0")
    assert isinstance(space, gymnasium.spaces.Box)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    scaled = obs / space.high
    assert np.all((scaled >= 0) & (scaled <= 1))
    assert np.array_equal(scaled[env.unwrapped.mask_slice], obs[env.unwrapped.mask_slice])


# -- the single-agent environment --------------------------------------------------------


@pytest.mark.parametrize("obs_format", ["flat", "dict"])
@pytest.mark.parametrize("players", [2, 4])
def test_single_check_env(players: int, obs_format: str) -> None:
    env = TribuneSingleEnv(players=players, obs_format=obs_format)
    env.action_space.seed(players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gym_check_env(env)
    assert [str(w.message) for w in caught if NO_SPEC_WARNING not in str(w.message)] == []


def test_single_flat_matches_vector_and_masks() -> None:
    flat = gymnasium.make(SINGLE_ID, players=3, obs_format="flat")
    plain = gymnasium.make(SINGLE_ID, players=3)
    base = flat.unwrapped
    assert isinstance(base, TribuneSingleEnv)
    assert plain.unwrapped.observation_space.shape == (base.mask_slice.start,)
    f, info = flat.reset(seed=5)
    v, _ = plain.reset(seed=5)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        masks = flat.get_wrapper_attr("action_masks")()
        assert np.array_equal(f[: base.mask_slice.start], v)
        assert np.array_equal(f[base.mask_slice], masks.astype(np.float32))
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert base.observation_space.contains(f)
        action = int(rng.choice(np.flatnonzero(masks)))
        f, _, terminated, truncated, info = flat.step(action)
        v, *_ = plain.step(action)
        done = terminated or truncated


def test_single_dict_format() -> None:
    env = TribuneExpansionSingleEnv(players=3, obs_format="dict")
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"observation", "action_mask"} and env.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())


def test_single_penalty_end() -> None:
    env = TribuneSingleEnv(players=3, illegal_action="penalty_end", illegal_penalty=-2.0, obs_format="flat")
    obs, _ = env.reset(seed=0)
    before = env.game.to_json()
    bad = illegal_index(obs[env.mask_slice])
    obs2, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, bad)
    assert env.game.to_json() == before and np.array_equal(obs, obs2)
    assert TribuneSingleEnv().illegal_action == "penalty" and TribuneSingleEnv().obs_format == "vector"


# -- bad options -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"illegal_action": "ignore"}, r"^illegal_action: expected one of \('raise', 'penalty', 'penalty_end'\)"),
        ({"illegal_action": None}, r"^illegal_action: "),
        ({"obs_format": "box"}, r"^obs_format: expected one of \('dict', 'flat'\), got 'box'"),
        ({"obs_format": ["flat"]}, r"^obs_format: "),
        ({"illegal_penalty": "x"}, r"^illegal_penalty: expected a finite number, got 'x'"),
        ({"illegal_penalty": float("nan")}, r"^illegal_penalty: "),
        ({"illegal_penalty": True}, r"^illegal_penalty: "),
    ],
)
def test_bad_aec_options(kwargs: dict[str, Any], pattern: str) -> None:
    for factory in (tribune_env.env, tribune_env.raw_env, tribune_env.expansion_env):
        with pytest.raises(ValueError, match=pattern):
            factory(players=3, **kwargs)
    with pytest.raises(ValueError, match=pattern):
        pettingzoo.make("aec", AEC_ID, players=3, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"obs_format": "flatten"}, r"^obs_format: expected one of \('vector', 'dict', 'flat'\), got 'flatten'"),
        ({"obs_format": None}, r"^obs_format: "),
        ({"illegal_action": "end"}, r"^illegal_action: .*'penalty_end'"),
    ],
)
def test_bad_single_options(kwargs: dict[str, Any], pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        TribuneSingleEnv(**kwargs)
    with pytest.raises(ValueError, match=pattern):
        gymnasium.make(SINGLE_ID, **kwargs)


def test_flat_format_keeps_masks_in_infos() -> None:
    """PettingZoo's tools read the mask from ``info`` when the observation is not a Dict."""
    env = started(players=3, obs_format="flat", illegal_action="penalty")
    plain = started(players=3)
    assert all("action_mask" not in plain.infos[a] for a in plain.agents), "the dict format's infos are unchanged"
    for _ in range(30):
        for a in env.agents:
            assert np.array_equal(env.infos[a]["action_mask"], env.observe(a)[env.unwrapped.mask_slice])
        mask = env.infos[env.agent_selection]["action_mask"]
        env.step(illegal_index(mask))
        assert "illegal_action" in env.infos[env.agent_selection]
        env.step(int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])[0]))
