"""The Gymnasium single-agent wrapper: checkers, illegal actions, rewards, seats, opponents, positions and seeding."""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from env_checks import NO_SPEC_WARNING, sb3_check_env
from gymnasium.utils.env_checker import check_env as gym_check_env

import tribune_env
from tribune_env import Action, Game, IllegalMoveError, TribuneSingleEnv
from tribune_env.envs import SCHEMES, SINGLE_ID, RandomPolicy

PLAYER_COUNTS = (2, 3, 4, 5)
WRAPPED_WARNING = "is different from the unwrapped version"  # the checker on the env gymnasium.make returns


# -- helpers -------------------------------------------------------------------


class FirstLegal:
    """A view agent: always the first legal choice; records the seats it played."""

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def act(self, view: Any, legal: Sequence[Action]) -> Action:
        self.seats.add(view.seat)
        return legal[0]


class SeatRecorder:
    """An observation policy (first legal action) that records the seats it played, read from ``env``."""

    def __init__(self) -> None:
        self.env: TribuneSingleEnv | None = None
        self.seats: set[int] = set()

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        assert self.env is not None
        self.seats.add(self.env.game.current_seat)
        return int(np.flatnonzero(mask)[0])


def recorded_env(
    players: int, learner_seat: int | None = None, **kwargs: Any
) -> tuple[TribuneSingleEnv, list[SeatRecorder]]:
    recorders = [SeatRecorder() for _ in range(players - 1)]
    env = TribuneSingleEnv(players=players, learner_seat=learner_seat, opponents=recorders, **kwargs)
    for recorder in recorders:
        recorder.env = env
    return env, recorders


def warnings_of(check: Callable[..., Any], *args: Any, **kwargs: Any) -> list[str]:
    """The messages of every warning ``check(*args, **kwargs)`` raises."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    return [str(w.message) for w in caught]


def legal_action(env: Any) -> int:
    return int(np.flatnonzero(env.unwrapped.action_masks())[0])


def illegal_action(env: Any) -> int:
    """An action of the action space that the learner may not play now."""
    return int(np.flatnonzero(~env.unwrapped.action_masks())[0])


def advanced_game(players: int, seed: int, steps: int = 40, **options: Any) -> Game:
    """A game some uniformly random moves in (still running)."""
    game = Game.new(players=players, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
    assert not game.is_over
    return game


def play_first_legal_until(game: Game, seat: int) -> None:
    """What FirstLegal opponents do: play every other seat's first legal choice until ``seat`` is to act."""
    while not game.is_over and game.current_seat != seat:
        game.apply(game.legal_actions()[0])


def expected_reward(scheme: str, game: Game, seat: int) -> float:
    """The scheme's value for ``seat``, computed from the finished game (see tribune_env.envs.rewards)."""
    n = game.num_players
    if scheme == "win_loss":
        winners = set(game.winners)
        k = len(winners)
        if k in (0, n):
            return 0.0
        return (n - k) / (k * (n - 1)) if seat in winners else -1.0 / (n - 1)
    if scheme == "rank":
        return 1.0 - 2.0 * (game.ranks()[seat] - 1) / (n - 1)
    scores = game.scores()
    return float(scores[seat] - max(s for j, s in enumerate(scores) if j != seat))


def run_episode(env: TribuneSingleEnv, seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seeded episode with uniformly random legal learner actions, checking masks and rewards on the way."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed, options=options)
    seat = info["seat"]
    observations = [obs.tobytes()]
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any(), "no legal action while the game runs"
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        assert info["seat"] == seat
        assert "illegal_action" not in info
        assert env.game.current_seat == seat, "the learner is to act"
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        observations.append(obs.tobytes())
        steps += 1
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            break
        assert reward == 0.0
    game = env.game
    assert game.is_over
    assert terminated is (not game.truncated) and truncated is game.truncated
    assert not env.action_masks().any() and not info["action_mask"].any()
    assert info["winners"] == list(game.winners) and info["ranks"] == game.ranks()
    assert info["scores"] == game.scores() and info["rounds"] == game.round and info["truncated"] is game.truncated
    return {
        "seat": seat,
        "reward": reward,
        "game": game,
        "steps": steps,
        "observations": observations,
        "truncated": truncated,
    }


# -- the API checkers ------------------------------------------------------------
# Both checkers step with unmasked action_space.sample(), which is almost always an illegal action here:
# the default penalty mode must accept it, with no wrapper in between.


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_gymnasium_check_env_on_the_raw_env(players: int) -> None:
    env = TribuneSingleEnv(players=players)
    env.action_space.seed(players)
    found = warnings_of(gym_check_env, env)
    assert [m for m in found if NO_SPEC_WARNING not in m] == []


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.render
def test_gymnasium_check_env_via_make(players: int) -> None:
    """Through the registry; with a spec the checker also builds and renders every declared render mode."""
    env = gymnasium.make(SINGLE_ID, players=players, render_mode="ansi")
    found = warnings_of(gym_check_env, env)
    assert [m for m in found if WRAPPED_WARNING not in m] == []
    assert warnings_of(gym_check_env, env.unwrapped) == []


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.train
def test_sb3_check_env(players: int) -> None:
    raw = TribuneSingleEnv(players=players)
    raw.action_space.seed(players)
    assert warnings_of(sb3_check_env, raw) == []
    assert warnings_of(sb3_check_env, gymnasium.make(SINGLE_ID, players=players)) == []


@pytest.mark.parametrize("checker", [gym_check_env, pytest.param(sb3_check_env, marks=pytest.mark.train)])
def test_checkers_step_with_illegal_actions(checker: Callable[[Any], None]) -> None:
    """The counterpart of the tests above: in raise mode the same checker run stops at an illegal action."""
    env = TribuneSingleEnv(players=3, illegal_action="raise")
    env.action_space.seed(3)
    with pytest.raises(IllegalMoveError, match=r"the learner \(seat \d\) played action"):
        checker(env)


def test_make_passes_options_and_exposes_action_masks() -> None:
    env = gymnasium.make(
        SINGLE_ID, players=3, learner_seat=2, reward="rank", round_limit=5, illegal_penalty=-0.5, illegal_limit=7
    )
    base = env.unwrapped
    assert isinstance(base, TribuneSingleEnv)
    assert base.fixed_seat == 2 and base.table.reward is SCHEMES["rank"] and base.table.config.round_limit == 5
    assert base.illegal_action == "penalty" and base.illegal_penalty == -0.5 and base.illegal_limit == 7
    _, info = env.reset(seed=1)
    assert info["seat"] == 2
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"].astype(bool))


def test_spaces_match_the_aec_environment() -> None:
    aec = tribune_env.raw_env(players=4)
    for players in PLAYER_COUNTS:
        env = TribuneSingleEnv(players=players)
        assert env.observation_space == aec.observation_space("player_0")["observation"]
        assert env.action_space == aec.action_space("player_0")


def test_metadata_declares_render_fps() -> None:
    for metadata in (TribuneSingleEnv.metadata, gymnasium.make(SINGLE_ID).metadata):
        assert metadata["render_modes"] == ["ansi", "human", "rgb_array"]
        fps = metadata["render_fps"]
        assert isinstance(fps, int) and not isinstance(fps, bool) and fps > 0


# -- illegal actions ------------------------------------------------------------------------


@pytest.mark.parametrize("penalty", [-1.0, -0.25, 0.0])
def test_penalty_mode_illegal_action(penalty: float) -> None:
    """An illegal in-space action: the penalty, the same observation, nothing changed in the game."""
    kwargs: dict[str, Any] = {} if penalty == -1.0 else {"illegal_penalty": penalty}  # -1.0 is the default
    env = gymnasium.make(SINGLE_ID, players=3, **kwargs)
    obs0, info0 = env.reset(seed=2)
    before = env.unwrapped.game.to_json()
    for bad in np.flatnonzero(~env.unwrapped.action_masks())[::25].tolist():
        for action in (bad, np.int64(bad), np.array(bad)):
            obs, reward, terminated, truncated, info = env.step(action)
            assert type(reward) is float and reward == penalty
            assert terminated is False and truncated is False
            assert info["illegal_action"] == bad and type(info["illegal_action"]) is int
            assert info["seat"] == info0["seat"]
            assert np.array_equal(info["action_mask"], info0["action_mask"])
            assert np.array_equal(obs, obs0)
            assert env.unwrapped.game.to_json() == before
    # a legal action afterwards plays normally, with no penalty and no illegal_action key
    _, reward, terminated, truncated, info = env.step(legal_action(env))
    assert reward == 0.0 and not terminated and not truncated
    assert "illegal_action" not in info
    assert env.unwrapped.game.to_json() != before


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_illegal_limit_truncates_after_exactly_that_many_in_a_row(limit: int) -> None:
    env = TribuneSingleEnv(players=4, illegal_limit=limit)
    env.reset(seed=0)
    before = env.game.to_json()
    bad = illegal_action(env)
    for count in range(1, limit + 1):
        _, reward, terminated, truncated, info = env.step(bad)
        assert reward == -1.0 and not terminated and "illegal_action" in info
        assert truncated is (count == limit), count
    assert env.game.to_json() == before and not env.game.is_over, "the truncation does not touch the game"
    # a reset starts a new streak
    env.reset(seed=1)
    truncated = [env.step(illegal_action(env))[3] for _ in range(limit)]
    assert truncated == [False] * (limit - 1) + [True]


def test_legal_action_resets_the_illegal_streak() -> None:
    env = TribuneSingleEnv(players=3, illegal_limit=3)
    env.reset(seed=4)
    for _ in range(2):
        assert env.step(illegal_action(env))[3] is False
    assert env.step(legal_action(env))[3] is False
    assert not env.game.is_over
    assert [env.step(illegal_action(env))[3] for _ in range(3)] == [False, False, True]


def test_action_for_a_missing_seat_is_penalised() -> None:
    """An action of the space that names a seat the player count lacks is illegal, not out of the space."""
    env = TribuneSingleEnv(players=2)
    obs0, _ = env.reset(seed=0)
    before = env.game.to_json()
    last = int(env.action_space.n) - 1
    assert "+4" in env.table.codec.label(last), "the last action names the seat 4 places on"
    obs, reward, terminated, truncated, info = env.step(last)
    assert reward == -1.0 and not terminated and not truncated and info["illegal_action"] == last
    assert np.array_equal(obs, obs0) and env.game.to_json() == before


def test_default_illegal_limit_is_100() -> None:
    env = TribuneSingleEnv(players=2)
    env.reset(seed=0)
    bad = illegal_action(env)
    truncated = [env.step(bad)[3] for _ in range(100)]
    assert truncated == [False] * 99 + [True]


@pytest.mark.parametrize("mode", ["penalty", "raise"])
def test_out_of_space_actions_always_raise(mode: str) -> None:
    env = TribuneSingleEnv(players=3, illegal_action=mode, illegal_limit=2)
    _, info = env.reset(seed=2)
    before = env.game.to_json()
    legal = legal_action(env)
    n = int(env.action_space.n)
    for action in (-1, n, 10**6, 2.5, float(legal), "x", str(legal), None, np.array([legal]), np.float64(legal)):
        assert not env.action_space.contains(action)
        with pytest.raises(IllegalMoveError, match=rf"the learner \(seat {info['seat']}\) played action"):
            env.step(action)
        assert env.game.to_json() == before
    if mode == "penalty":
        # the raising steps did not count towards the illegal streak
        assert env.step(illegal_action(env))[3] is False


def test_raise_mode() -> None:
    env = TribuneSingleEnv(players=3, illegal_action="raise", illegal_limit=1)
    _, info = env.reset(seed=2)
    before = env.game.to_json()
    bad = illegal_action(env)
    for action in (bad, np.int64(bad), np.array(bad)):
        pattern = rf"the learner \(seat {info['seat']}\) played action {bad} \("
        with pytest.raises(IllegalMoveError, match=pattern) as err:
            env.step(action)
        assert "not a legal choice now" in str(err.value)
        assert err.value.legal == np.flatnonzero(env.action_masks()).tolist()
        assert env.game.to_json() == before
    _, reward, terminated, truncated, step_info = env.step(legal_action(env))
    assert reward == 0.0 and not terminated and not truncated and "illegal_action" not in step_info
    assert env.game.to_json() != before


def test_illegal_learner_action_changes_nothing() -> None:
    """In raise mode every kind of bad action raises and leaves the game alone."""
    env = TribuneSingleEnv(players=3, illegal_action="raise")
    _, info = env.reset(seed=2)
    before = env.game.to_json()
    for action in (illegal_action(env), -1, env.action_space.n, 1.0, "3", None):
        with pytest.raises(IllegalMoveError, match=rf"the learner \(seat {info['seat']}\) played action"):
            env.step(action)
        assert env.game.to_json() == before
    env.step(legal_action(env))
    assert env.game.to_json() != before


def test_random_unmasked_actions_play_a_whole_episode() -> None:
    """Half the steps unmasked samples (mostly penalised), half legal ones: the episode runs to its end."""
    env = gymnasium.make(SINGLE_ID, players=3, round_limit=4, illegal_limit=10**6)
    env.action_space.seed(0)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    penalised = 0
    for _ in range(20_000):
        mask = env.unwrapped.action_masks()
        action = int(env.action_space.sample()) if rng.random() < 0.5 else int(rng.choice(np.flatnonzero(mask)))
        before = env.unwrapped.game.to_json()
        _, reward, terminated, truncated, info = env.step(action)
        if mask[action]:
            assert "illegal_action" not in info
        else:
            penalised += 1
            assert reward == -1.0 and info["illegal_action"] == action and not terminated and not truncated
            assert env.unwrapped.game.to_json() == before
        if terminated or truncated:
            break
    game = env.unwrapped.game
    assert game.is_over and penalised > 0
    assert reward == pytest.approx(expected_reward("win_loss", game, env.unwrapped.seat))


@pytest.mark.parametrize("mode", ["penalty", "raise"])
def test_step_after_the_end_is_an_illegal_move(mode: str) -> None:
    """Once the game is over every step raises (no penalty either), in range or not."""
    env = TribuneSingleEnv(players=2, round_limit=1, illegal_action=mode)
    run_episode(env, seed=0)
    after = env.game.to_json()
    for action in (0, 5, np.int64(3), np.array(7)):
        with pytest.raises(IllegalMoveError, match=r"after the game ended: the game is over\. Legal actions: \[\]"):
            env.step(action)
    # in the space but for a seat a 2-player game has not, or outside the space
    for action in (int(env.action_space.n) - 1, -1, 10**6, "x"):
        with pytest.raises(IllegalMoveError, match="after the game ended"):
            env.step(action)
    assert env.game.to_json() == after


# -- reward attribution ---------------------------------------------------------------


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_reward_is_the_learners_result_random_seat(scheme: str, players: int) -> None:
    env = TribuneSingleEnv(players=players, reward=scheme, round_limit=10)
    seats: Counter[int] = Counter()
    signs = set()
    for seed in range(12):
        ep = run_episode(env, seed)
        assert ep["reward"] == pytest.approx(expected_reward(scheme, ep["game"], ep["seat"]))
        seats[ep["seat"]] += 1
        signs.add(np.sign(ep["reward"]))
    assert len(seats) >= 2, f"learner seat never varied: {seats}"
    if scheme != "score_margin":
        assert {1.0, -1.0} <= signs, "both winning and losing outcomes occur"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_reward_is_the_learners_result_fixed_seat(players: int) -> None:
    outcomes = set()
    for seat in range(players):
        env = TribuneSingleEnv(players=players, learner_seat=seat, round_limit=30)
        for seed in range(3):
            ep = run_episode(env, seed=100 * seat + seed)
            assert ep["seat"] == seat
            assert ep["reward"] == pytest.approx(expected_reward("win_loss", ep["game"], seat))
            outcomes.add(seat in ep["game"].winners)
    assert outcomes == {True, False}, "the learner both wins and loses"


@pytest.mark.slow
def test_learner_wins_and_loses_over_many_episodes() -> None:
    env = TribuneSingleEnv(players=2, learner_seat=1)
    won = Counter()
    truncated = Counter()
    for seed in range(16):
        ep = run_episode(env, seed)
        won[1 in ep["game"].winners] += 1
        truncated[ep["truncated"]] += 1
        expected = 1.0 if ep["game"].winners == (1,) else -1.0 if ep["game"].winners == (0,) else 0.0
        assert ep["reward"] == expected
    assert won[True] and won[False]
    assert truncated[False], "some games end by the victory card"


def test_custom_reward_callable() -> None:
    env = TribuneSingleEnv(players=3, reward=lambda game: [float(s) for s in game.scores()], round_limit=3)
    for seed in range(3):
        ep = run_episode(env, seed)
        assert ep["reward"] == float(ep["game"].scores()[ep["seat"]])


def test_truncation_by_round_limit() -> None:
    env = TribuneSingleEnv(players=4, round_limit=2, reward="rank")
    for seed in range(4):
        ep = run_episode(env, seed)
        assert ep["truncated"] and ep["game"].truncated and ep["game"].round <= 2
        assert ep["reward"] == pytest.approx(expected_reward("rank", ep["game"], ep["seat"]))


# -- seats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_seat_varies(players: int) -> None:
    env = TribuneSingleEnv(players=players)
    seats = set()
    env.reset(seed=0)
    for _ in range(40):
        _, info = env.reset()
        assert info["seat"] == env.seat
        assert env.game.current_seat == info["seat"], "reset hands over at the learner's decision"
        seats.add(info["seat"])
    assert seats == set(range(players))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_fixed_seat_is_kept(players: int) -> None:
    seat = players - 1
    env = TribuneSingleEnv(players=players, learner_seat=seat)
    for seed in range(10):
        _, info = env.reset(seed=seed)
        assert info["seat"] == seat == env.seat
        assert env.game.current_seat == seat


@pytest.mark.parametrize("seat", [-1, 3, 10, True, False, "1", 1.0, np.float64(1), [1]])
def test_bad_learner_seat(seat: Any) -> None:
    with pytest.raises(ValueError, match=r"^learner_seat: must be an integer in 0\.\.2 or None, got "):
        TribuneSingleEnv(players=3, learner_seat=seat)


@pytest.mark.parametrize("seat", [np.int64(1), np.int8(1), np.uint8(1)])
def test_numpy_integer_learner_seat(seat: Any) -> None:
    env = TribuneSingleEnv(players=3, learner_seat=seat)
    assert env.fixed_seat == 1 and type(env.fixed_seat) is int
    _, info = env.reset(seed=0)
    assert info["seat"] == 1 and type(info["seat"]) is int


def test_learner_seat_reset_option() -> None:
    """options={"learner_seat": k} seats the learner for that episode only, over a random or a fixed seat."""
    for fixed in (None, 0):
        env = TribuneSingleEnv(players=4, learner_seat=fixed)
        for seed, seat in enumerate([3, 1, 2, 0, 3]):
            _, info = env.reset(seed=seed, options={"learner_seat": seat})
            assert info["seat"] == env.seat == seat and env.game.current_seat == seat
        if fixed is not None:
            _, info = env.reset(seed=9)
            assert info["seat"] == fixed, "without the option the fixed seat is back"
    env = TribuneSingleEnv(players=4)
    _, info = env.reset(seed=3, options={"learner_seat": np.int64(2)})
    assert info["seat"] == 2 and type(info["seat"]) is int


def test_learner_seat_reset_option_plays_a_whole_episode() -> None:
    env, recorders = recorded_env(players=4, learner_seat=0, round_limit=6)
    ep = run_episode(env, seed=1, options={"learner_seat": 2})
    assert ep["seat"] == 2
    assert ep["reward"] == pytest.approx(expected_reward("win_loss", ep["game"], 2))
    assert [r.seats for r in recorders] == [{3}, {0}, {1}], "the opponent list is relative to the option's seat"


@pytest.mark.parametrize("seat", [-1, 4, True, "1", 1.5])
def test_bad_learner_seat_reset_option(seat: Any) -> None:
    env = TribuneSingleEnv(players=4, learner_seat=1)
    env.reset(seed=0)
    before = env.game.to_json()
    with pytest.raises(ValueError, match=r"^learner_seat: "):
        env.reset(seed=1, options={"learner_seat": seat})
    assert env.game.to_json() == before and env.seat == 1


@pytest.mark.parametrize("options", [{"positon": {}}, {"seat": 1}, {"learner_seat": 1, "opponents": []}])
def test_unknown_reset_option_is_an_error(options: dict[str, Any]) -> None:
    env = TribuneSingleEnv(players=3)
    env.reset(seed=0)
    before = env.game.to_json()
    unknown = sorted(set(options) - {"learner_seat"})
    message = f"reset: unknown options {unknown!r}; known: ['learner_seat', 'position']"
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        env.reset(options=options)
    assert env.game.to_json() == before


def test_empty_reset_options() -> None:
    for options in (None, {}):
        _, info = TribuneSingleEnv(players=3, learner_seat=2).reset(seed=5, options=options)
        assert info["seat"] == 2


# -- opponents -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "count"), [(3, 1), (3, 3), (4, 0), (2, 2), (5, 3)])
def test_opponent_list_length_is_validated(players: int, count: int) -> None:
    with pytest.raises(ValueError, match=rf"opponents: expected {players - 1} opponents.*got {count}"):
        TribuneSingleEnv(players=players, opponents=[RandomPolicy() for _ in range(count)])


@pytest.mark.parametrize("bad", [42, "random", [RandomPolicy(), 3]])
def test_opponent_type_is_validated(bad: Any) -> None:
    with pytest.raises((TypeError, ValueError), match="opponents"):
        TribuneSingleEnv(players=3, opponents=bad)


def test_view_agent_opponent() -> None:
    agent = FirstLegal()
    env = TribuneSingleEnv(players=4, learner_seat=1, opponents=agent)
    ep = run_episode(env, seed=3)
    assert agent.seats == {0, 2, 3}
    assert ep["reward"] == pytest.approx(expected_reward("win_loss", ep["game"], 1))


def test_mixed_opponent_list() -> None:
    viewer = FirstLegal()
    calls = Counter()

    def last_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        calls["last"] += 1
        assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
        assert mask.dtype == np.int8 and mask.any()
        return int(np.flatnonzero(mask)[-1])

    env = TribuneSingleEnv(players=4, learner_seat=0, opponents=[RandomPolicy(1), viewer, last_legal])
    run_episode(env, seed=4)
    assert viewer.seats == {2} and calls["last"] > 0


def test_each_opponent_keeps_one_seat() -> None:
    """Every other seat is played by exactly one opponent of the list, whatever the learner's seat."""
    players = 4
    for seed in range(6):
        env, recorders = recorded_env(players)
        ep = run_episode(env, seed=seed)
        seats = [r.seats for r in recorders]
        assert all(len(s) == 1 for s in seats), seats
        assert set().union(*seats) == set(range(players)) - {ep["seat"]}


def test_opponent_list_is_relative_to_the_learner() -> None:
    """The docstring's rule: opponents[i] plays the seat i + 1 places after the learner in turn order."""
    env, recorders = recorded_env(players=4, learner_seat=2)
    run_episode(env, seed=0)
    assert [r.seats for r in recorders] == [{3}, {0}, {1}]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_opponent_list_order_for_every_learner_seat(players: int) -> None:
    for learner in range(players):
        env, recorders = recorded_env(players, learner_seat=learner, round_limit=3)
        run_episode(env, seed=learner)
        assert [r.seats for r in recorders] == [{(learner + i + 1) % players} for i in range(players - 1)], learner


def test_opponent_list_follows_a_random_learner_seat() -> None:
    """With a random seat the mapping moves with the learner from episode to episode."""
    seen = set()
    for seed in range(8):
        env, recorders = recorded_env(players=3, round_limit=3)
        ep = run_episode(env, seed=seed)
        learner = ep["seat"]
        seen.add(learner)
        assert [r.seats for r in recorders] == [{(learner + 1) % 3}, {(learner + 2) % 3}]
    assert len(seen) >= 2


def test_illegal_opponent_action_is_a_clear_error() -> None:
    def masked_out(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = TribuneSingleEnv(players=3, learner_seat=2, opponents=masked_out)
    with pytest.raises(IllegalMoveError, match=r"opponent in seat [01] played action \d+ \(") as info:
        env.reset(seed=0)
    assert "Legal actions: [" in str(info.value)
    assert info.value.legal


def test_illegal_opponent_action_is_never_a_penalty() -> None:
    """Penalty mode is for the learner only: an opponent's illegal in-space action still raises."""
    env = TribuneSingleEnv(players=3, learner_seat=2, opponents=lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    assert env.illegal_action == "penalty"
    with pytest.raises(IllegalMoveError, match=r"^opponent in seat [01] played action"):
        env.reset(seed=0)


def test_out_of_range_opponent_action_is_a_clear_error() -> None:
    env = TribuneSingleEnv(players=3, learner_seat=2, opponents=lambda obs, mask: 10**6)
    with pytest.raises(IllegalMoveError, match=r"opponent in seat [01] played action 1000000 .*outside the action"):
        env.reset(seed=0)


def test_illegal_view_agent_action_is_rejected() -> None:
    class Cheater:
        def act(self, view: Any, legal: Sequence[Action]) -> Action:
            return tribune_env.COMMIT if tribune_env.COMMIT not in legal else tribune_env.DECLINE

    env = TribuneSingleEnv(players=3, learner_seat=2, opponents=Cheater())
    with pytest.raises(IllegalMoveError, match=r"^opponent in seat [01] played \S") as info:
        env.reset(seed=0)
    assert isinstance(info.value, ValueError) and isinstance(info.value, tribune_env.TribuneError)
    assert info.value.action in (tribune_env.COMMIT, tribune_env.DECLINE)


def test_view_agent_error_names_its_seat() -> None:
    """A view agent that cheats only in seat 3: the error names seat 3."""

    class CheatsInSeat3(FirstLegal):
        def act(self, view: Any, legal: Sequence[Action]) -> Action:
            if view.seat == 3:
                return tribune_env.COMMIT if tribune_env.COMMIT not in legal else tribune_env.DECLINE
            return super().act(view, legal)

    env = TribuneSingleEnv(players=4, learner_seat=0, opponents=CheatsInSeat3())
    with pytest.raises(IllegalMoveError, match=r"^opponent in seat 3 played "):
        run_episode(env, seed=0)


# -- positions ------------------------------------------------------------------------------


def test_reset_from_position_in_the_learner_seat() -> None:
    """The learner sits where the position waits: nothing is played before it decides."""
    game = advanced_game(players=3, seed=21)
    doc, seat = game.to_json(), game.current_seat
    env = TribuneSingleEnv(players=3, opponents=FirstLegal())
    obs, info = env.reset(seed=0, options={"position": doc, "learner_seat": seat})
    assert info["seat"] == env.seat == seat
    assert env.unwrapped.game.to_json() == doc
    assert np.array_equal(obs, env.table.encoder.encode(game.position(), seat))
    assert np.array_equal(info["action_mask"], env.table.codec.mask(game.legal_actions(), seat, 3))
    # the loaded game plays on exactly as the original would
    index = legal_action(env)
    env.step(index)
    game.apply(env.table.codec.decode(index, seat, 3))
    play_first_legal_until(game, seat)
    assert env.game.to_json() == game.to_json()


@pytest.mark.parametrize("offset", [1, 2])
def test_reset_from_position_in_another_seat(offset: int) -> None:
    """The opponents play from the position until the learner's seat is to act."""
    game = advanced_game(players=3, seed=5)
    seat = (game.current_seat + offset) % 3
    env = TribuneSingleEnv(players=3, learner_seat=(seat + 1) % 3, opponents=FirstLegal())
    _, info = env.reset(options={"position": game.to_json(), "learner_seat": seat})
    play_first_legal_until(game, seat)
    assert info["seat"] == seat == env.game.current_seat
    assert env.game.to_json() == game.to_json()


def test_reset_from_position_uses_the_fixed_seat() -> None:
    game = advanced_game(players=4, seed=3)
    for seat in range(4):
        env = TribuneSingleEnv(players=4, learner_seat=seat, opponents=FirstLegal())
        _, info = env.reset(options={"position": game.to_json()})
        copy = game.clone()
        play_first_legal_until(copy, seat)
        assert info["seat"] == seat == env.game.current_seat
        assert env.game.to_json() == copy.to_json()


def test_reset_from_position_plays_to_the_end() -> None:
    game = advanced_game(players=3, seed=8, round_limit=3, victory_card="pecunia")
    env = TribuneSingleEnv(players=3, round_limit=3, victory_card="pecunia", reward="rank", learner_seat=1)
    _, info = env.reset(seed=1, options={"position": game.to_json()})
    assert info["seat"] == 1 == env.game.current_seat
    rng = np.random.default_rng(1)
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done = terminated or truncated
    final = env.game
    assert final.is_over and final.config.round_limit == 3 and final.round <= 3
    assert truncated is final.truncated and info["rounds"] == final.round
    assert reward == pytest.approx(expected_reward("rank", final, 1))


def test_reset_from_position_as_json_text() -> None:
    import json

    game = advanced_game(players=2, seed=8)
    env = TribuneSingleEnv(players=2)
    env.reset(options={"position": json.dumps(game.to_json()), "learner_seat": game.current_seat})
    assert env.game.to_json() == game.to_json()


def test_reset_from_position_resets_the_illegal_streak() -> None:
    game = advanced_game(players=3, seed=2)
    env = TribuneSingleEnv(players=3, illegal_limit=2)
    env.reset(seed=0)
    assert env.step(illegal_action(env))[3] is False
    env.reset(options={"position": game.to_json(), "learner_seat": game.current_seat})
    assert [env.step(illegal_action(env))[3] for _ in range(2)] == [False, True]


@pytest.mark.parametrize(
    ("env_options", "doc_options", "message"),
    [
        ({"round_limit": 3}, {}, "position: round_limit is 60, the environment's 3"),
        ({}, {"round_limit": 3}, "position: round_limit is 3, the environment's 60"),
        ({"players": 4}, {"players": 3}, "position: players is 3, the environment's 4"),
        ({}, {"point_variant": True}, "position: point_variant is True, the environment's False"),
        (
            {"victory_card": "alea_long"},
            {"victory_card": "pecunia"},
            "position: victory_card is 'pecunia', the environment's 'alea_long'",
        ),
    ],
)
def test_mismatched_position_is_rejected(
    env_options: dict[str, Any], doc_options: dict[str, Any], message: str
) -> None:
    env = TribuneSingleEnv(**{"players": 3, **env_options})
    _, info = env.reset(seed=1)
    before = env.game.to_json()
    doc = Game.new(seed=1, **{"players": 3, **doc_options}).to_json()
    for options in ({"position": doc}, {"position": doc, "learner_seat": 0}):
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            env.reset(options=options)
        assert env.game.to_json() == before and env.seat == info["seat"]


def test_bad_learner_seat_option_with_a_position_changes_nothing() -> None:
    env = TribuneSingleEnv(players=3, learner_seat=0)
    env.reset(seed=0)
    before = env.game.to_json()
    doc = advanced_game(players=3, seed=1).to_json()
    with pytest.raises(ValueError, match="learner_seat"):
        env.reset(options={"position": doc, "learner_seat": 7})
    assert env.game.to_json() == before


# -- constructor options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"illegal_action": "ignore"}, r"^illegal_action: expected one of \('penalty', 'raise'\), got 'ignore'"),
        ({"illegal_action": None}, r"^illegal_action: "),
        ({"illegal_action": "RAISE"}, r"^illegal_action: "),
        ({"illegal_limit": 0}, r"^illegal_limit: expected an integer >= 1, got 0"),
        ({"illegal_limit": -3}, r"^illegal_limit: "),
        ({"illegal_limit": True}, r"^illegal_limit: "),
        ({"illegal_limit": 2.0}, r"^illegal_limit: "),
        ({"illegal_limit": "5"}, r"^illegal_limit: "),
        ({"victory_card": "nope"}, r"^victory_card: unknown victory card 'nope'; known: "),
        ({"round_limit": 0}, r"^round_limit: "),
        ({"players": 6}, r"^players: 6"),
    ],
)
def test_bad_constructor_options(kwargs: dict[str, Any], pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        TribuneSingleEnv(**kwargs)
    with pytest.raises(ValueError, match=pattern):
        gymnasium.make(SINGLE_ID, **kwargs)


def test_illegal_options_are_kept() -> None:
    env = TribuneSingleEnv(illegal_action="raise", illegal_penalty=-3, illegal_limit=1)
    assert env.illegal_action == "raise" and env.illegal_limit == 1
    assert env.illegal_penalty == -3.0 and type(env.illegal_penalty) is float
    default = TribuneSingleEnv()
    assert (default.illegal_action, default.illegal_penalty, default.illegal_limit) == ("penalty", -1.0, 100)


def test_model_like_opponent() -> None:
    """model_policy adapts anything with SB3's predict(obs, action_masks=...)."""

    class Model:
        def __init__(self) -> None:
            self.masks: list[np.ndarray] = []

        def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool) -> tuple[Any, None]:
            assert action_masks.dtype == bool and deterministic
            self.masks.append(action_masks)
            return np.array(np.flatnonzero(action_masks)[0]), None

    model = Model()
    env = TribuneSingleEnv(players=3, opponents=tribune_env.envs.model_policy(model))
    run_episode(env, seed=1)
    assert model.masks


# -- masks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_action_masks_match_the_game(players: int) -> None:
    env = TribuneSingleEnv(players=players, round_limit=15)
    _, info = env.reset(seed=players)
    rng = np.random.default_rng(players)
    codec = env.table.codec
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.shape == (env.action_space.n,)
        expected = set(codec.indices(env.game.legal_actions(), env.seat, players))
        assert set(np.flatnonzero(mask).tolist()) == expected
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated


# -- seeding ----------------------------------------------------------------------------------


@pytest.mark.parametrize("learner_seat", [None, 1])
def test_same_seed_same_episode(learner_seat: int | None) -> None:
    a = run_episode(TribuneSingleEnv(players=3, learner_seat=learner_seat), seed=17)
    b = run_episode(TribuneSingleEnv(players=3, learner_seat=learner_seat), seed=17)
    assert a["seat"] == b["seat"] and a["reward"] == b["reward"] and a["steps"] == b["steps"]
    assert a["observations"] == b["observations"]
    assert a["game"].to_json() == b["game"].to_json()


def test_same_seed_same_episode_after_other_episodes() -> None:
    used = TribuneSingleEnv(players=4)
    run_episode(used, seed=1)
    used.reset()
    a = run_episode(used, seed=5)
    b = run_episode(TribuneSingleEnv(players=4), seed=5)
    assert a["observations"] == b["observations"] and a["game"].to_json() == b["game"].to_json()


def test_different_seeds_different_episodes() -> None:
    env = TribuneSingleEnv(players=3)
    firsts = {env.reset(seed=seed)[0].tobytes() for seed in range(6)}
    assert len(firsts) == 6


# -- rendering ---------------------------------------------------------------------------------


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = TribuneSingleEnv(players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    assert text == env.game.render()
    human = TribuneSingleEnv(players=2, render_mode="human")
    human.reset(seed=0)
    capsys.readouterr()
    assert human.render() is None
    assert capsys.readouterr().out.strip() == human.game.render().strip()
    with pytest.raises(ValueError, match="render_mode"):
        TribuneSingleEnv(render_mode="rgb")


def test_render_without_mode_warns(capsys: pytest.CaptureFixture[str]) -> None:
    env = TribuneSingleEnv(players=3)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None
    assert capsys.readouterr().out == "", "nothing printed"


# --- edge cases of reset and step fixed after review --------------------------------------------------------


def test_a_bool_action_is_out_of_space_even_in_penalty_mode() -> None:
    """``True`` is not an action index: it raises instead of being penalised as action 1."""
    env = TribuneSingleEnv(players=3)
    env.reset(seed=4)
    before = env.unwrapped.game.to_json()
    with pytest.raises(IllegalMoveError, match=r"expected an integer"):
        env.step(True)
    assert env.unwrapped.game.to_json() == before


def test_a_finished_position_is_refused_and_the_game_kept() -> None:
    finished = Game.new(players=3, seed=2)
    rng = random.Random(2)
    while not finished.is_over:
        finished.apply(rng.choice(finished.legal_actions()))
    env = TribuneSingleEnv(players=3)
    env.reset(seed=1)
    before, seat = env.unwrapped.game.to_json(), env.unwrapped.seat
    with pytest.raises(ValueError, match="position: the game is over"):
        env.reset(options={"position": finished.to_json()})
    assert env.unwrapped.game.to_json() == before and env.unwrapped.seat == seat


def test_a_rejected_reset_does_not_reseed() -> None:
    """An unknown option is refused before the seed is used: the next plain reset continues the old sequence."""
    a, b = TribuneSingleEnv(players=2), TribuneSingleEnv(players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    with pytest.raises(ValueError, match="unknown options"):
        b.reset(seed=123, options={"nope": 1})
    obs_a, info_a = a.reset()
    obs_b, info_b = b.reset()
    assert np.array_equal(obs_a, obs_b) and info_a["seat"] == info_b["seat"]
