"""The PettingZoo AEC environment: API conformance, masks, rewards, errors, seeding and positions."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pettingzoo
import pytest
from env_checks import run_api_test
from pettingzoo.test import seed_test

import tribune_env
from tribune_env import ComponentError, Game, IllegalMoveError, TribuneSingleEnv
from tribune_env.envs import AEC_ID, SCHEMES, IllegalActionPenalty

PLAYER_COUNTS = (2, 3, 4, 5)



# -- helpers -------------------------------------------------------------------


def play_random(env: Any, rng: np.random.Generator, each: Callable[[Any, str], None] | None = None) -> dict[str, Any]:
    """Play a reset environment to the end with uniformly random legal actions.

    ``each(env, agent)`` runs before every live decision. Returns, per agent, what ``last()``
    reported when the agent's episode ended: ``(reward, terminated, truncated, info)``.
    """
    final: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert agent not in final, f"{agent} was visited twice after the end"
            final[agent] = (reward, terminated, truncated, info)
            env.step(None)
            continue
        assert reward == 0.0, "rewards arrive only at the end"
        if each is not None:
            each(env, agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


def expected_rewards(scheme: str, game: Game) -> list[float]:
    """The scheme's rewards, computed from the finished game's result (docstring of tribune_env.envs.rewards)."""
    n = game.num_players
    if scheme == "win_loss":
        winners = set(game.winners)
        k = len(winners)
        if k in (0, n):
            return [0.0] * n
        return [(n - k) / (k * (n - 1)) if seat in winners else -1.0 / (n - 1) for seat in range(n)]
    if scheme == "rank":
        return [1.0 - 2.0 * (r - 1) / (n - 1) for r in game.ranks()]
    assert scheme == "score_margin"
    scores = game.scores()
    return [float(s - max(scores[:i] + scores[i + 1 :])) for i, s in enumerate(scores)]


def illegal_index(env: Any) -> int:
    """An in-range action that the agent to act may not play now."""
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def snapshot(env: Any) -> tuple[Any, ...]:
    """Everything an illegal action must leave alone."""
    base = env.unwrapped
    return (
        json.dumps(base.game.to_json(), sort_keys=True),
        base.agent_selection,
        list(base.agents),
        dict(base.rewards),
        dict(base._cumulative_rewards),
        dict(base.terminations),
        dict(base.truncations),
    )


def trajectory(env: Any, seed: int, choice_seed: int, limit: int = 400) -> list[tuple[Any, ...]]:
    """The first ``limit`` (agent, observation digest, action) triples of a seeded random game."""
    env.reset(seed=seed)
    rng = np.random.default_rng(choice_seed)
    out: list[tuple[Any, ...]] = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, action))
        env.step(action)
    return out


def play_some(env: Any, steps: int, seed: int = 0) -> None:
    """``steps`` uniformly random legal actions (the game must not end on the way)."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.last()
        assert not terminated and not truncated
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def finished_game(players: int, seed: int) -> Game:
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


# -- PettingZoo's own tests ----------------------------------------------------




@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_api_test(players: int) -> None:
    run_api_test(tribune_env.env(players=players))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_api_test_via_registry(players: int) -> None:
    run_api_test(pettingzoo.make("aec", AEC_ID, players=players))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_api_test_short_games(players: int) -> None:
    """With a round limit of 2 every game of the API test ends (by truncation) inside the test."""
    run_api_test(tribune_env.env(players=players, round_limit=2, reward="rank"), num_cycles=300)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_seed_test(players: int) -> None:
    seed_test(lambda: tribune_env.env(players=players), num_cycles=500)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_seed_test_via_registry(players: int) -> None:
    seed_test(lambda: pettingzoo.make("aec", AEC_ID, players=players), num_cycles=500)


def test_registry_builds_the_wrapped_env() -> None:
    env = pettingzoo.make("aec", AEC_ID, players=3, reward="rank")
    assert isinstance(env, pettingzoo.AECEnv)
    assert isinstance(env.unwrapped, tribune_env.raw_env)
    assert env.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.unwrapped.table.reward is SCHEMES["rank"]


# -- spaces --------------------------------------------------------------------


def test_spaces_identical_for_every_agent_and_player_count() -> None:
    reference = tribune_env.raw_env(players=2)
    obs_space = reference.observation_space("player_0")
    act_space = reference.action_space("player_0")
    assert set(obs_space.spaces) == {"observation", "action_mask"}
    assert obs_space["observation"].dtype == np.float32
    assert obs_space["action_mask"].dtype == np.int8
    assert obs_space["action_mask"].shape == (act_space.n,)
    for players in PLAYER_COUNTS:
        env = tribune_env.raw_env(players=players)
        assert env.possible_agents == [f"player_{i}" for i in range(players)]
        for agent in env.possible_agents:
            assert env.observation_space(agent) == obs_space
            assert env.action_space(agent) == act_space
            assert env.observation_spaces[agent] == obs_space
            assert env.action_spaces[agent] == act_space
    single = TribuneSingleEnv(players=3)
    assert single.observation_space == obs_space["observation"]
    assert single.action_space == act_space


# -- masks and observations through whole games ---------------------------------


def check_masks(env: Any, acting: str) -> None:
    base = env.unwrapped
    game = base.game
    seat = base.agent_seat[acting]
    assert game.current_seat == seat
    codec = base.codec
    expected = set(codec.indices(game.legal_actions(), seat, game.num_players))
    assert expected, "the agent to act has no expressible legal action"
    for agent in base.agents:
        obs = env.observe(agent)
        assert base.observation_space(agent).contains(obs), f"observation of {agent} out of its space"
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (codec.n,)
        if agent == acting:
            assert set(np.flatnonzero(mask).tolist()) == expected
            legal = game.legal_actions()
            for index in np.flatnonzero(mask):
                assert codec.decode(int(index), seat, game.num_players) in legal
        else:
            assert not mask.any(), f"{agent} is not to act but has a non-zero mask"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_mask_is_the_legal_actions_of_the_agent_to_act(players: int) -> None:
    env = tribune_env.env(players=players, round_limit=12)
    env.reset(seed=players)
    final = play_random(env, np.random.default_rng(players), each=check_masks)
    assert set(final) == set(env.possible_agents)
    # once the game is over nobody may act
    for agent in env.possible_agents:
        assert not env.unwrapped.table.mask(env.unwrapped.agent_seat[agent]).any()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_full_game_terminations_and_infos(players: int) -> None:
    """Full-length games: the end sets terminations (victory card) or truncations (round limit), never both."""
    seen = set()
    for seed in range(4):
        env = tribune_env.env(players=players)
        env.reset(seed=seed)
        final = play_random(env, np.random.default_rng(seed))
        game = env.unwrapped.game
        assert game.is_over
        assert set(final) == set(env.possible_agents)
        assert env.agents == []
        for agent, (reward, terminated, truncated, info) in final.items():
            assert terminated is (not game.truncated)
            assert truncated is game.truncated
            assert info == {
                "winners": list(game.winners),
                "scores": game.scores(),
                "ranks": game.ranks(),
                "rounds": game.round,
                "truncated": game.truncated,
            }, agent
            assert reward == pytest.approx(expected_rewards("win_loss", game)[env.unwrapped.agent_seat[agent]])
        seen.add(game.truncated)
    assert False in seen, "no game ended by its victory card"


def test_end_of_game_infos_are_separate_per_agent() -> None:
    """Every agent gets its own info dict (and lists): changing one agent's info leaves the others alone."""
    env = tribune_env.env(players=4, round_limit=1)
    env.reset(seed=0)
    base = env.unwrapped
    rng = np.random.default_rng(0)
    while not base.game.is_over:
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    infos = [base.infos[a] for a in base.possible_agents]
    expected = base.table.result_info()
    assert all(info == expected for info in infos)
    assert len({id(info) for info in infos}) == 4
    for key in ("winners", "scores", "ranks"):
        assert len({id(info[key]) for info in infos}) == 4, key
    infos[0]["winners"].append(99)
    infos[0]["scores"][0] += 1000
    infos[0]["extra"] = True
    for info in infos[1:]:
        assert info == expected
    _, _, _, _, info = env.last()
    assert info is base.infos[env.agent_selection]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("round_limit", [1, 3])
def test_round_limit_truncates(players: int, round_limit: int) -> None:
    env = tribune_env.env(players=players, round_limit=round_limit)
    for seed in range(3):
        env.reset(seed=seed)
        final = play_random(env, np.random.default_rng(seed))
        game = env.unwrapped.game
        assert game.truncated
        assert game.round <= round_limit
        for reward, terminated, truncated, info in final.values():
            assert truncated is True and terminated is False
            assert info["truncated"] is True and info["rounds"] == game.round
            assert isinstance(reward, float)


# -- rewards ---------------------------------------------------------------------


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_rewards_match_the_scheme(scheme: str, players: int) -> None:
    """The reward last() reports at the end is the scheme's value of the game result, truncated or not."""
    for seed, round_limit in ((0, 60), (1, 60), (2, 4)):
        env = tribune_env.env(players=players, reward=scheme, round_limit=round_limit)
        env.reset(seed=seed)
        final = play_random(env, np.random.default_rng(seed))
        game = env.unwrapped.game
        got = [final[f"player_{seat}"][0] for seat in range(players)]
        assert got == pytest.approx(expected_rewards(scheme, game))
        if scheme == "win_loss":
            winners = set(game.winners)
            assert winners, "a finished game has winners"
            if len(winners) < players:
                assert sum(got) == pytest.approx(0.0)
                assert all((got[s] > 0) == (s in winners) for s in range(players))
                assert all(got[s] == pytest.approx(-1 / (players - 1)) for s in range(players) if s not in winners)
        elif scheme == "rank":
            ranks = game.ranks()
            assert max(got) == pytest.approx(1.0)
            assert all(got[s] == pytest.approx(1.0) for s in range(players) if ranks[s] == 1)
            assert all(-1.0 <= r <= 1.0 for r in got)
        else:
            scores = game.scores()
            top = max(scores)
            for s in range(players):
                others = max(scores[:s] + scores[s + 1 :])
                assert got[s] == scores[s] - others
                assert (got[s] > 0) == (scores[s] == top and scores.count(top) == 1)


def test_win_loss_values_for_sole_and_tied_winners() -> None:
    """The zero-sum table of the docstring, on a stand-in game object."""

    class Result:
        def __init__(self, n: int, winners: tuple[int, ...]) -> None:
            self.num_players, self.winners = n, winners

    win_loss = SCHEMES["win_loss"]
    assert win_loss(Result(4, (2,))) == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert win_loss(Result(4, (0, 3))) == pytest.approx([1 / 3, -1 / 3, -1 / 3, 1 / 3])
    assert win_loss(Result(2, (0, 1))) == [0.0, 0.0]
    assert win_loss(Result(3, (1,))) == pytest.approx([-0.5, 1.0, -0.5])
    for n in PLAYER_COUNTS:
        for k in range(1, n):
            assert sum(win_loss(Result(n, tuple(range(k))))) == pytest.approx(0.0)


def test_custom_reward_callable() -> None:
    calls: list[Game] = []

    def scheme(game: Game) -> list[float]:
        calls.append(game)
        return [float(s) * 10 for s in game.scores()]

    env = tribune_env.env(players=3, reward=scheme, round_limit=3)
    env.reset(seed=5)
    final = play_random(env, np.random.default_rng(5))
    game = env.unwrapped.game
    assert calls and all(g is game for g in calls), "the scheme is called with the finished game"
    assert [final[f"player_{s}"][0] for s in range(3)] == [float(s) * 10 for s in game.scores()]


def test_custom_reward_with_the_wrong_length_is_reported() -> None:
    env = tribune_env.env(players=3, reward=lambda game: [1.0, 2.0], round_limit=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="reward scheme returned 2 values for 3 players"):
        play_random(env, np.random.default_rng(0))


@pytest.mark.parametrize("bad", ["points", "", "WIN_LOSS", 3, None])
def test_unknown_reward_scheme(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"reward: unknown scheme") as info:
        tribune_env.env(reward=bad)
    for name in SCHEMES:
        assert name in str(info.value)


def test_rewards_are_zero_before_the_end() -> None:
    env = tribune_env.env(players=4, reward="score_margin")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(300):
        obs, reward, terminated, truncated, _ = env.last()
        assert reward == 0.0 and not terminated and not truncated
        assert all(r == 0.0 for r in env.rewards.values())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# -- rendering -------------------------------------------------------------------


def test_render_ansi_returns_the_board() -> None:
    env = tribune_env.env(players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    assert text == env.unwrapped.game.render()


def test_render_human_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = tribune_env.env(players=3, render_mode="human")
    env.reset(seed=0)
    capsys.readouterr()
    assert env.render() is None
    printed = capsys.readouterr().out
    assert printed.strip() and printed.strip() == env.unwrapped.game.render().strip()
    # a step renders too
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert capsys.readouterr().out.strip()


def test_render_without_mode_warns() -> None:
    env = tribune_env.raw_env(players=3)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


def test_metadata_declares_render_fps() -> None:
    for metadata in (tribune_env.raw_env.metadata, tribune_env.env().metadata, pettingzoo.make("aec", AEC_ID).metadata):
        assert metadata["render_modes"] == ["ansi", "human", "rgb_array"]
        assert metadata["name"] == "tribune_v0"
        fps = metadata["render_fps"]
        assert isinstance(fps, int) and not isinstance(fps, bool) and fps > 0


@pytest.mark.parametrize("mode", ["rgb", "text", ""])
def test_bad_render_mode(mode: str) -> None:
    with pytest.raises(ValueError, match="render_mode"):
        tribune_env.env(render_mode=mode)


# -- illegal actions ---------------------------------------------------------------


def advanced_env(players: int = 3, seed: int = 4, steps: int = 40) -> Any:
    """An environment some random steps into a game (so that several decision kinds are reachable)."""
    env = tribune_env.env(players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


@pytest.mark.parametrize("kind", ["masked", "negative", "too_big", "float", "str", "bool", "none", "array"])
def test_illegal_action_raises_and_changes_nothing(kind: str) -> None:
    env = advanced_env()
    base = env.unwrapped
    agent = env.agent_selection
    n = base.codec.n
    legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
    action: Any = {
        "masked": illegal_index(env),
        "negative": -1,
        "too_big": n,
        "float": float(legal[0]),
        "str": str(legal[0]),
        "bool": True,
        "none": None,
        "array": np.array([legal[0]]),
    }[kind]
    before = snapshot(env)
    with pytest.raises(IllegalMoveError) as info:
        env.step(action)
    assert snapshot(env) == before
    message = str(info.value)
    kind_key = base.game.pending.kind.key
    assert agent in message
    assert kind_key in message, "the message names the decision kind"
    assert "Legal actions" in message
    for index in legal[:20]:
        assert f"{index} ({base.codec.label(index)})" in message
    if kind == "masked":
        assert f"{action} ({base.codec.label(action)})" in message
    assert info.value.action is action
    assert info.value.legal == legal
    assert isinstance(info.value, ValueError) and isinstance(info.value, tribune_env.TribuneError)
    # the game goes on normally afterwards
    env.step(legal[0])


@pytest.mark.parametrize("convert", [np.int64, np.int32, np.uint8, np.array, int])
def test_numpy_integer_actions_are_accepted(convert: Callable[[int], Any]) -> None:
    env = advanced_env()
    obs, *_ = env.last()
    legal = int(np.flatnonzero(obs["action_mask"])[-1])
    if legal > 255 and convert is np.uint8:
        pytest.skip("index does not fit")
    before = env.unwrapped.game.to_json()
    env.step(convert(legal))
    assert env.unwrapped.game.to_json() != before


def test_table_play_after_the_end_is_an_illegal_move() -> None:
    """Table.play turns the engine's GameOverError into IllegalMoveError; the finished game stays as it was."""
    env = tribune_env.env(players=3)
    env.reset(options={"position": finished_game(players=3, seed=2).to_json()})
    base = env.unwrapped
    after = base.game.to_json()
    for action in (0, 5, np.int64(3)):
        with pytest.raises(
            IllegalMoveError,
            match=r"^player_0 played action \d+ \(.*\) after the game ended: "
            r"the game is over\. Legal actions: \[\]$",
        ) as info:
            base.table.play(action, 0, "player_0")
        assert info.value.legal == [] and info.value.action is action
        assert not isinstance(info.value, tribune_env.GameOverError)
    for action in (-1, 10**6, "x"):
        with pytest.raises(IllegalMoveError, match=r"after the game ended"):
            base.table.play(action, 1, "player_1")
    assert base.game.to_json() == after


def test_penalty_wrapper_terminating() -> None:
    env = IllegalActionPenalty(advanced_env(), penalty=-2.5)
    agent = env.agent_selection
    game_before = env.unwrapped.game.to_json()
    bad = illegal_index(env)
    env.step(bad)
    assert env.unwrapped.game.to_json() == game_before, "the penalty does not play the action"
    assert all(env.terminations.values())
    assert env.rewards[agent] == -2.5
    assert all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    assert "illegal_action" in env.infos[agent] and env.unwrapped.codec.label(bad) in env.infos[agent]["illegal_action"]
    final: dict[str, float] = {}
    for a in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        assert terminated and not truncated
        final[a] = reward
        env.step(None)
    assert final == {a: (-2.5 if a == agent else 0.0) for a in env.possible_agents}


def test_penalty_wrapper_non_terminating() -> None:
    env = IllegalActionPenalty(advanced_env(), penalty=-1.0, terminate=False)
    agent = env.agent_selection
    before = snapshot(env)
    for bad in (illegal_index(env), 10**6, "x"):
        env.step(bad)
        assert env.agent_selection == agent, "the same agent acts again"
        _, reward, terminated, truncated, info = env.last()
        assert reward == -1.0, "last() reports the penalty once"
        assert not terminated and not truncated
        assert "illegal_action" in info
        assert json.loads(snapshot(env)[0]) == json.loads(before[0])
        assert not any(env.terminations.values()) and not any(env.truncations.values())
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    # the penalty is not carried into later rewards, and the game completes normally
    final = play_random(env, np.random.default_rng(0))
    game = env.unwrapped.game
    assert game.is_over
    assert [final[a][0] for a in env.possible_agents] == pytest.approx(expected_rewards("win_loss", game))


def test_penalty_wrapper_passes_legal_actions_through() -> None:
    plain = tribune_env.env(players=4)
    wrapped = IllegalActionPenalty(tribune_env.env(players=4))
    assert trajectory(plain, seed=9, choice_seed=1, limit=300) == trajectory(wrapped, seed=9, choice_seed=1, limit=300)


# -- seeding -----------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_same_seed_same_trajectory(players: int) -> None:
    a = trajectory(tribune_env.env(players=players), seed=11, choice_seed=2)
    b = trajectory(tribune_env.env(players=players), seed=11, choice_seed=2)
    assert a == b


def test_same_seed_same_game_after_earlier_games() -> None:
    """A seeded reset does not depend on what the environment did before."""
    fresh = tribune_env.env(players=4)
    used = tribune_env.env(players=4)
    for seed in (1, 2):
        used.reset(seed=seed)
        play_random(used, np.random.default_rng(seed))
    used.reset()
    assert trajectory(fresh, seed=7, choice_seed=0) == trajectory(used, seed=7, choice_seed=0)


def test_different_seeds_different_games() -> None:
    env = tribune_env.env(players=4)
    docs = set()
    for seed in range(8):
        env.reset(seed=seed)
        docs.add(json.dumps(env.unwrapped.game.to_json(), sort_keys=True))
    assert len(docs) == 8


def test_unseeded_reset_continues_the_seeded_sequence() -> None:
    a, b = tribune_env.env(players=3), tribune_env.env(players=3)
    a.reset(seed=5)
    first = a.unwrapped.game.to_json()
    a.reset()
    second = a.unwrapped.game.to_json()
    assert first != second, "an unseeded reset starts a new game"
    b.reset(seed=5)
    b.reset()
    assert b.unwrapped.game.to_json() == second, "... which the seed determines"


def test_unseeded_environments_differ() -> None:
    docs = set()
    for _ in range(4):
        env = tribune_env.env(players=3)
        env.reset()
        docs.add(json.dumps(env.unwrapped.game.to_json(), sort_keys=True))
    assert len(docs) > 1


# -- positions ------------------------------------------------------------------------


def test_reset_from_position() -> None:
    game = Game.new(players=3, seed=21)
    rng = random.Random(21)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    doc = game.to_json()
    env = tribune_env.env(players=3)
    env.reset(seed=0, options={"position": doc})
    base = env.unwrapped
    assert base.game.to_json() == doc
    assert env.agent_selection == f"player_{game.current_seat}"
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    obs, *_ = env.last()
    seat = game.current_seat
    assert np.array_equal(obs["action_mask"], base.codec.mask(game.legal_actions(), seat, 3))
    # the loaded game plays on exactly as the original would
    index = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(index)
    game.apply(base.codec.decode(index, seat, 3))
    assert base.game.to_json() == game.to_json()


def test_reset_from_position_as_json_text() -> None:
    doc = Game.new(players=2, seed=8).to_json()
    env = tribune_env.env(players=2)
    env.reset(options={"position": json.dumps(doc)})
    assert env.unwrapped.game.to_json() == doc


def test_reset_from_finished_position_ends_at_once() -> None:
    game = finished_game(players=3, seed=2)
    env = tribune_env.env(players=3, reward="rank")
    env.reset(options={"position": game.to_json()})
    assert env.unwrapped.game.is_over
    final = play_random(env, np.random.default_rng(0))
    assert [final[f"player_{s}"][0] for s in range(3)] == pytest.approx(expected_rewards("rank", game))
    assert all(f[1] is (not game.truncated) and f[2] is game.truncated for f in final.values())


@pytest.mark.parametrize(("env_players", "doc_players"), [(3, 2), (4, 5), (2, 4)])
def test_position_with_wrong_player_count_is_rejected(env_players: int, doc_players: int) -> None:
    env = tribune_env.env(players=env_players)
    env.reset(seed=1)
    before = env.unwrapped.game.to_json()
    doc = Game.new(players=doc_players, seed=1).to_json()
    with pytest.raises(ValueError, match=rf"position: players is {doc_players}, the environment.s {env_players}"):
        env.reset(options={"position": doc})
    assert env.unwrapped.game.to_json() == before


@pytest.mark.parametrize(
    ("env_options", "doc_options", "message"),
    [
        ({"round_limit": 3}, {}, "position: round_limit is 60, the environment's 3"),
        ({}, {"round_limit": 3}, "position: round_limit is 3, the environment's 60"),
        ({}, {"point_variant": True}, "position: point_variant is True, the environment's False"),
        ({"point_variant": True}, {}, "position: point_variant is False, the environment's True"),
        (
            {"victory_card": "alea_long"},
            {"victory_card": "pecunia"},
            "position: victory_card is 'pecunia', the environment's 'alea_long'",
        ),
        (
            {"victory_card": "pecunia"},
            {"seed": 0},
            "position: victory_card is 'alea_long', the environment's 'pecunia'",
        ),
    ],
)
def test_mismatched_position_is_rejected(
    env_options: dict[str, Any], doc_options: dict[str, Any], message: str
) -> None:
    """A position must agree with the environment's options; a rejected one leaves the current game alone."""
    env = tribune_env.env(players=3, **env_options)
    env.reset(seed=1)
    play_some(env, 5)
    before = snapshot(env)
    doc = Game.new(**{"players": 3, "seed": 1, **doc_options}).to_json()
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        env.reset(options={"position": doc})
    assert snapshot(env) == before
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        env.reset(options={"position": json.dumps(doc)})
    assert snapshot(env) == before
    # the game goes on normally afterwards
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_matching_position_is_accepted_and_played_to_the_end() -> None:
    game = Game.new(players=3, round_limit=3, victory_card="alea_long", seed=4)
    rng = random.Random(4)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    assert not game.is_over
    doc = game.to_json()
    env = tribune_env.env(players=3, round_limit=3, victory_card="alea_long", reward="rank")
    env.reset(seed=0, options={"position": doc})
    base = env.unwrapped
    assert base.game.to_json() == doc
    assert env.agent_selection == f"player_{game.current_seat}"
    final = play_random(env, np.random.default_rng(4))
    played = base.game
    assert played.is_over and played.config.round_limit == 3 and played.round <= 3
    assert played.position().victory_card == "alea_long"
    assert [final[f"player_{s}"][0] for s in range(3)] == pytest.approx(expected_rewards("rank", played))
    assert all(f[1] is (not played.truncated) and f[2] is played.truncated for f in final.values())


def test_position_victory_card_is_compared_with_the_card_in_play() -> None:
    """A position from a game whose card was drawn at random is accepted when the card drawn is the environment's."""
    doc_game = Game.new(players=3, seed=0)
    assert doc_game.config.victory_card is None and doc_game.position().victory_card == "alea_long"
    env = tribune_env.env(players=3, victory_card="alea_long")
    env.reset(options={"position": doc_game.to_json()})
    assert env.unwrapped.game.to_json() == doc_game.to_json()


def test_environment_without_a_fixed_card_accepts_any_card() -> None:
    for card in ("alea_long", "pecunia", "card_d"):
        doc = Game.new(players=3, victory_card=card, seed=2).to_json()
        env = tribune_env.env(players=3)
        env.reset(options={"position": doc})
        assert env.unwrapped.game.position().victory_card == card


def test_broken_position_is_rejected() -> None:
    env = tribune_env.env(players=2)
    with pytest.raises(tribune_env.InvalidStateError):
        env.reset(options={"position": {"config": {"players": 2}, "players": "nobody"}})


def test_unknown_reset_option_warns() -> None:
    env = tribune_env.raw_env(players=2)
    with pytest.warns(UserWarning, match="unknown options"):
        env.reset(seed=0, options={"positon": {}})


# -- constructor options -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"players": 7}, ValueError, r"players: 7"),
        ({"players": 1}, ValueError, r"players: 1"),
        ({"players": "4"}, ValueError, r"players"),
        ({"victory_card": "nope"}, ValueError, r"^victory_card: unknown victory card 'nope'; known: alea_long, "),
        ({"players": 5, "victory_card": "alea_long"}, ValueError, r"victory_card"),
        ({"round_limit": 0}, ValueError, r"round_limit"),
        ({"round_limit": -5}, ValueError, r"round_limit"),
        ({"round_limit": 2.5}, ValueError, r"round_limit"),
        ({"point_variant": "yes"}, ValueError, r"point_variant"),
        ({"components": "/no/such/components.toml"}, ComponentError, r"component file"),
        ({"components": 42}, TypeError, r"components"),
    ],
)
def test_bad_constructor_options(kwargs: dict[str, Any], error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        tribune_env.env(**kwargs)
    with pytest.raises(error, match=pattern):
        pettingzoo.make("aec", AEC_ID, **kwargs)


def test_broken_components_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("this is = not [valid toml\n")
    with pytest.raises(ComponentError, match=r"broken\.toml"):
        tribune_env.env(components=bad)
    with pytest.raises(ComponentError, match=r"broken\.toml"):
        tribune_env.env(components=str(bad))
    incomplete = tmp_path / "incomplete.toml"
    incomplete.write_text("[foo]\nx = 1\n")
    with pytest.raises(ComponentError, match=r"incomplete\.toml"):
        tribune_env.env(components=incomplete)


def test_component_error_is_a_value_error() -> None:
    assert issubclass(ComponentError, ValueError)


def test_unknown_victory_card_is_a_plain_value_error_listing_the_cards() -> None:
    with pytest.raises(ValueError) as info:
        tribune_env.env(victory_card="nope")
    assert type(info.value) is ValueError
    known = ", ".join(card.id for card in tribune_env.default_components().victory_cards)
    assert str(info.value) == f"victory_card: unknown victory card 'nope'; known: {known}"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_victory_card_for_the_player_count_works(players: int) -> None:
    cards = [c.id for c in tribune_env.default_components().victory_cards if players in c.required]
    assert cards
    for card in cards:
        env = tribune_env.env(players=players, victory_card=card, round_limit=2)
        env.reset(seed=0)
        assert env.unwrapped.game.config.victory_card == card
        play_random(env, np.random.default_rng(0))


def test_point_variant_plays_to_the_end() -> None:
    env = tribune_env.env(players=3, point_variant=True, round_limit=4)
    env.reset(seed=0)
    final = play_random(env, np.random.default_rng(0))
    assert env.unwrapped.game.config.point_variant is True
    assert set(final) == set(env.possible_agents)


def test_pickle_round_trip() -> None:
    import pickle

    env = tribune_env.raw_env(players=3, reward="rank", round_limit=9)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.possible_agents == env.possible_agents
    assert copy.table.config.round_limit == 9
    assert copy.table.reward is SCHEMES["rank"]


def test_api_test_with_the_penalty_wrapper() -> None:
    run_api_test(IllegalActionPenalty(tribune_env.env(players=3)))
    run_api_test(IllegalActionPenalty(tribune_env.env(players=4), terminate=False))
