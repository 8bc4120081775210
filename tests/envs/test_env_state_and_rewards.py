"""The AEC environments' privileged global state (``state()``, ``state_space``), the dense reward option
(``reward="dense"``) and the module-qualified ids that subprocess vector environments need (issue 18)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from env_checks import run_api_test

import tribune_env
from tribune_env import TribuneSingleEnv
from tribune_env.codec.observation import Scales
from tribune_env.data import default_components
from tribune_env.envs import SCHEMES
from tribune_env.envs.registration import (
    EXPANSION_SINGLE_MODULE_ID,
    SINGLE_ID,
    SINGLE_MODULE_ID,
    GymEnvFactory,
)
from tribune_env.envs.rewards import DenseReward, reward_fn
from tribune_env.envs.state_encoding import DRAW_TOP

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("base", {"players": 2}),
    ("base", {"players": 4}),
    ("expansion", {"players": 5, "brutii": True}),
]


def make(kind: str, **kwargs: Any) -> Any:
    return (tribune_env.expansion_env if kind == "expansion" else tribune_env.env)(**kwargs)


def check_state(env: Any) -> np.ndarray:
    """``state()`` lies in ``state_space`` and holds every seat's observation in its seat block."""
    raw = env.unwrapped
    state = raw.state()
    space = raw.state_space
    assert state.dtype == np.float32 and state.shape == space.shape
    assert space.contains(state), "state outside state_space"
    size = raw.table.encoder.size
    for agent in raw.possible_agents:
        seat = raw.agent_seat[agent]
        np.testing.assert_array_equal(state[seat * size : (seat + 1) * size], raw.observe(agent)["observation"])
    assert not state[len(raw.possible_agents) * size : raw.table.encoder.max_players * size].any(), (
        "absent seats are zero"
    )
    return state


# -- state() --------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "kwargs"), CONFIGS)
def test_state_in_its_space_at_every_step_and_after_the_end(kind: str, kwargs: dict[str, Any]) -> None:
    env = make(kind, round_limit=6, **kwargs)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    spaces_seen = env.unwrapped.state_space
    steps = 0
    for _agent in env.agent_iter():
        check_state(env)
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 20 and env.unwrapped.game.is_over
    check_state(env)  # after the game ends
    assert env.unwrapped.state_space is spaces_seen


def test_state_space_size_comes_from_the_encoder() -> None:
    raw = tribune_env.raw_env(players=3)
    encoder = raw.table.encoder
    c = encoder.tables.num_card_types
    expected = encoder.max_players * encoder.size + c * (2 + DRAW_TOP) + len(encoder.fields) * c
    assert raw.state_space.shape == (expected,)
    assert raw.state_space.shape == tribune_env.raw_env(players=5).state_space.shape
    x = tribune_env.expansion_raw_env(players=4)
    tiles = len(x.table.encoder.tile_ids)
    xe = x.table.encoder
    xc = xe.tables.num_card_types
    assert x.state_space.shape == (
        xe.max_players * xe.size + xc * (2 + DRAW_TOP) + len(xe.fields) * xc + 2 * tiles + 1,
    )


def test_reshuffled_draw_pile_changes_the_state_not_the_observations() -> None:
    env = tribune_env.env(players=4)
    env.reset(seed=3)
    raw = env.unwrapped
    draw = raw.game.python_state().draw
    assert len(set(draw[-DRAW_TOP:])) > 1 or len(set(draw)) > 1
    before_obs = {a: raw.observe(a)["observation"].copy() for a in raw.possible_agents}
    before = raw.state().copy()
    rng = np.random.default_rng(0)
    original = list(draw)
    while draw[-DRAW_TOP:] == original[-DRAW_TOP:]:
        rng.shuffle(draw)
    after = raw.state()
    assert not np.array_equal(before, after), "the state shows the draw pile's order"
    counts = raw._state_encoder.piece["draw_counts"]
    np.testing.assert_array_equal(before[counts.start : counts.stop], after[counts.start : counts.stop])
    for agent in raw.possible_agents:
        np.testing.assert_array_equal(before_obs[agent], raw.observe(agent)["observation"])


def test_state_shows_hidden_cards_nobody_observes() -> None:
    raw = tribune_env.raw_env(players=3)
    raw.reset(seed=4)
    state = raw.state()
    game = raw.game.position()
    p = raw._state_encoder.piece
    c = raw.table.encoder.tables.num_card_types
    draw_counts = np.bincount(np.asarray(game.draw, dtype=np.int64), minlength=c)
    np.testing.assert_array_equal(state[p["draw_counts"].start : p["draw_counts"].stop], draw_counts)
    assert state[p["draw_top"].start + game.draw[-1]] == 1.0, "the top card first"
    board = state[p["board_all"].start : p["board_all"].stop]
    assert board.sum() == sum(len(f) for region in game.fields for f in region), "face-down cards included"


# -- dense reward ---------------------------------------------------------------


def dense_run(env: Any, seed: int) -> tuple[dict[str, float], list[int]]:
    """Play randomly to the end; the rewards each agent collected and the scores at the start."""
    env.reset(seed=seed)
    start = env.unwrapped.game.scores()
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.unwrapped.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total, start


@pytest.mark.parametrize(("scheme", "final_name"), [("dense", "win_loss"), ("dense:rank", "rank")])
@pytest.mark.parametrize("players", [2, 4])
def test_dense_rewards_sum_to_the_score_change_plus_the_result(scheme: str, final_name: str, players: int) -> None:
    scale = Scales.of(default_components(), 8).score
    for seed in (0, 1):
        env = tribune_env.env(players=players, reward=scheme, round_limit=8)
        total, start = dense_run(env, seed)
        game = env.unwrapped.game
        final = SCHEMES[final_name](game)
        end = game.scores()
        assert end != start
        for seat, agent in enumerate(env.unwrapped.possible_agents):
            assert total[agent] == pytest.approx((end[seat] - start[seat]) / scale + final[seat])


def test_dense_rewards_arrive_during_the_game_and_the_plain_schemes_stay_sparse() -> None:
    env = tribune_env.env(players=3, reward="dense")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    paid = 0
    for _ in range(150):
        obs, reward, terminated, truncated, _ = env.last()
        assert not (terminated or truncated)
        paid += reward != 0.0
        assert abs(reward) < 1.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert paid > 0, "score changes are paid before the end"


def test_dense_custom_scale_and_bad_names() -> None:
    custom = DenseReward(SCHEMES["rank"], scale=1.0)
    env = tribune_env.env(players=2, reward=custom, round_limit=5)
    total, start = dense_run(env, 5)
    game = env.unwrapped.game
    end, final = game.scores(), SCHEMES["rank"](game)
    assert [total[f"player_{s}"] for s in range(2)] == pytest.approx([end[s] - start[s] + final[s] for s in range(2)])
    assert isinstance(reward_fn("dense"), DenseReward) and reward_fn("dense").final is SCHEMES["win_loss"]
    for bad in ("dense:", "dense:points", "dense_rank"):
        with pytest.raises(ValueError, match=r"reward: unknown scheme.*dense:rank"):
            reward_fn(bad)
    with pytest.raises(ValueError, match="dense scale must be positive"):
        DenseReward(scale=0.0)


def test_single_env_dense_rewards_sum_to_the_score_change_plus_the_result() -> None:
    env = TribuneSingleEnv(players=3, reward="dense", round_limit=6)
    scale = env.table.encoder.scales.score
    for seed in range(3):
        env.reset(seed=seed)
        seat = env.seat
        start = env.game.scores()[seat]
        total, steps, done = 0.0, 0, False
        while not done:
            action = int(np.flatnonzero(env.action_masks())[0])
            _, reward, terminated, truncated, _ = env.step(action)
            total += reward
            steps += 1
            done = terminated or truncated
        game = env.game
        assert total == pytest.approx((game.scores()[seat] - start) / scale + SCHEMES["win_loss"](game)[seat])
    plain = TribuneSingleEnv(players=3, round_limit=6)
    plain.reset(seed=0)
    _, reward, *_ = plain.step(int(np.flatnonzero(plain.action_masks())[0]))
    assert reward == 0.0


@pytest.mark.parametrize("kind", ["base", "expansion"])
def test_api_test_with_dense_rewards(kind: str) -> None:
    env = make(kind, players=4, reward="dense", round_limit=3)
    run_api_test(env, num_cycles=300)


# -- ids in subprocesses -----------------------------------------------------------


def test_module_qualified_id_works_in_a_fresh_interpreter() -> None:
    """Without ``import tribune_env`` the bare id is unknown; the ``tribune_env:`` form imports it first."""
    code = (
        "import gymnasium\n"
        "try:\n"
        f"    gymnasium.make({SINGLE_ID!r})\n"
        "except gymnasium.error.Error:\n"
        "    print('bare-id-unknown')\n"
        f"env = gymnasium.make({SINGLE_MODULE_ID!r}, players=3)\n"
        "obs, info = env.reset(seed=0)\n"
        f"gymnasium.make({EXPANSION_SINGLE_MODULE_ID!r}).reset(seed=0)\n"
        f"gymnasium.make({SINGLE_ID!r}).reset(seed=0)\n"
        "print(info['seat'] in range(3))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["bare-id-unknown", "True"], "the qualified id registers the bare ids too"


@pytest.mark.slow  # worker processes started with spawn
@pytest.mark.parametrize("form", ["module_id", "factory"])
@pytest.mark.train
def test_subproc_vec_env_with_spawn(form: str) -> None:
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    if form == "module_id":
        vec = make_vec_env(
            SINGLE_MODULE_ID,
            n_envs=2,
            vec_env_cls=SubprocVecEnv,
            vec_env_kwargs={"start_method": "spawn"},
            env_kwargs={"players": 3, "reward": "dense"},
        )
    else:
        vec = SubprocVecEnv([GymEnvFactory(SINGLE_ID, players=3, reward="dense")] * 2, start_method="spawn")
    try:
        vec.seed(0)
        vec.reset()
        for _ in range(5):
            masks = np.stack(vec.env_method("action_masks"))
            vec.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        assert vec.get_attr("seat")[0] in range(3)
    finally:
        vec.close()
