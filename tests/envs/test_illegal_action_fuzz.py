"""Illegal-action fuzz of the environments in every rule set (issue 25): the base game, the expansion with 2-5
players and the Brutii with 5 and 6 seats, AEC and single-agent, each ``illegal_action`` mode and observation format.

Hypothesis draws a plan: the game's seed and round limit, the mode, the format, and a list of bad values (illegal
actions of the space, integers outside it of any size and numpy type, values that are no integer), each played after
a drawn number of legal moves. After every bad value the environment must raise :class:`IllegalMoveError` (raise mode,
or a value its penalty modes do not take) or give the penalty, and either way leave everything as it was: the game,
the agent to act, its observation and mask (compared with copies made before). Legal play then goes on to the end
of the game (with ``"penalty_end"`` the first penalised value ends the episode).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tribune_env
from tribune_env import IllegalMoveError
from tribune_env.envs import EXPANSION_SINGLE_ID, SINGLE_ID, TribuneExpansionSingleEnv, TribuneSingleEnv
from tribune_env.envs.options import ILLEGAL_ACTIONS
from tribune_env.envs.options import OBS_FORMATS as AEC_FORMATS
from tribune_env.envs.single import OBS_FORMATS as SINGLE_FORMATS

PENALTY = -0.5
VARIANTS: dict[str, dict[str, Any]] = {
    "base-3": {"players": 3},
    "expansion-2": {"players": 2, "expansion": True},
    "expansion-3": {"players": 3, "expansion": True},
    "expansion-4": {"players": 4, "expansion": True},
    "expansion-5": {"players": 5, "expansion": True},
    "brutii-5": {"players": 5, "brutii": True},
    "brutii-6": {"players": 6, "brutii": True},
}
HUGE = [2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**30, -(2**63), -(2**63) - 1, -(10**30)]
FORMS = ("int", "int64", "uint64", "int32", "uint8", "array")
"""The integer types a bad integer is given in, where it fits (else as a Python int)."""
STRANGE = [np.float64(2.0), np.float32(1.0), np.bool_(True), np.array([1]), np.array(2.0), np.array(True), [3], (4,)]

# A bad value, resolved against the action space and the current mask when it is played:
#   ("masked", k, form): the k-th (mod count) action of the space that is illegal now;
#   ("below", v, form) / ("above", k, form): v < 0 / n + k; ("huge", v, form): v from HUGE;
#   ("value", v): v itself, no integer.
bad_values = st.one_of(
    st.tuples(st.just("masked"), st.integers(0, 10**4), st.sampled_from(FORMS)),
    st.tuples(st.just("below"), st.integers(max_value=-1), st.sampled_from(FORMS)),
    st.tuples(st.just("above"), st.integers(min_value=0), st.sampled_from(FORMS)),
    st.tuples(st.just("huge"), st.sampled_from(HUGE), st.sampled_from(FORMS)),
    st.tuples(
        st.just("value"),
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            st.booleans(),
            st.none(),
            st.text(max_size=3),
            st.sampled_from(STRANGE),
        ),
    ),
)


@dataclass
class Plan:
    seed: int
    round_limit: int
    mode: str
    obs_format: str
    via_make: bool
    bad: list[tuple[int, tuple[Any, ...]]]  # (legal moves before it, bad value)


def plans(formats: tuple[str, ...], round_limits: tuple[int, int], max_bad: int) -> st.SearchStrategy[Plan]:
    return st.builds(
        Plan,
        seed=st.integers(0, 2**32),
        round_limit=st.integers(*round_limits),
        mode=st.sampled_from(ILLEGAL_ACTIONS),
        obs_format=st.sampled_from(formats),
        via_make=st.booleans(),
        bad=st.lists(st.tuples(st.integers(0, 12), bad_values), min_size=1, max_size=max_bad),
    )


def in_form(value: int, form: str) -> Any:
    """``value`` as the numpy type ``form`` when it fits, else as it is."""
    kinds: dict[str, type[np.integer[Any]]] = {
        "int64": np.int64,
        "uint64": np.uint64,
        "int32": np.int32,
        "uint8": np.uint8,
    }
    if form in kinds:
        info = np.iinfo(kinds[form])
        return kinds[form](value) if info.min <= value <= info.max else value
    if form == "array" and -(2**63) <= value < 2**64:
        return np.array(value)
    return value


NOTHING = object()
"""What :func:`resolve` returns when no action of the space is illegal now."""


def resolve(spec: tuple[Any, ...], n: int, mask: np.ndarray) -> Any:
    """The bad value ``spec`` stands for in an action space of ``n`` with ``mask`` legal (or :data:`NOTHING`)."""
    kind = spec[0]
    if kind == "value":
        return spec[1]
    if kind == "masked":
        masked = np.flatnonzero(mask == 0)
        return in_form(int(masked[spec[1] % len(masked)]), spec[2]) if len(masked) else NOTHING
    value = {"below": spec[1], "above": n + spec[1], "huge": spec[1]}[kind]
    return in_form(value, spec[2])


def integer_of(value: Any) -> int | None:
    """What the environments take as an integer action: Python and numpy integers (not bools), 0-d integer arrays."""
    if isinstance(value, np.ndarray):
        return int(value) if value.shape == () and value.dtype.kind in "iu" else None
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    return None


def same(a: Any, b: Any) -> bool:
    """Observations (arrays or dicts of arrays) equal."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def copied(obs: Any) -> Any:
    return {k: np.array(v, copy=True) for k, v in obs.items()} if isinstance(obs, dict) else np.array(obs, copy=True)


def game_json(env: Any) -> str:
    return json.dumps(env.unwrapped.game.to_json(), sort_keys=True)


# -- AEC ---------------------------------------------------------------------------------------------------------


def aec_mask(env: Any, obs: Any) -> np.ndarray:
    return np.asarray(obs["action_mask"] if isinstance(obs, dict) else obs[env.unwrapped.mask_slice])


def aec_state(env: Any) -> tuple[Any, ...]:
    """Everything an illegal action leaves alone in every mode (rewards aside)."""
    base = env.unwrapped
    agent = base.agent_selection
    return game_json(env), agent, copied(base.observe(agent)), list(base.agents)


def aec_bad(env: Any, value: Any, mode: str, n: int) -> bool:
    """Play bad ``value``; check the error or the penalty and that nothing changed. True when the episode ended."""
    base = env.unwrapped
    agent = base.agent_selection
    before = aec_state(env)
    rewards = dict(base._cumulative_rewards), dict(base.terminations), dict(base.truncations)
    index = integer_of(value)
    if mode == "raise" or index is None:
        with pytest.raises(IllegalMoveError, match=rf"^{agent} played action"):
            env.step(value)
        after = aec_state(env)
        assert after[:2] == before[:2] and same(after[2], before[2]) and after[3] == before[3]
        assert (dict(base._cumulative_rewards), dict(base.terminations), dict(base.truncations)) == rewards
        return False
    env.step(value)
    after = aec_state(env)
    assert after[:2] == before[:2] and same(after[2], before[2]), "the game and the agent to act are unchanged"
    _, reward, terminated, truncated, info = env.last()
    assert reward == PENALTY and info["illegal_action"] == index
    assert all(env.rewards[a] == 0.0 for a in env.agents if a != agent)
    if mode == "penalty_end":
        assert all(env.terminations.values())
        return True
    assert not terminated and not truncated
    if base.obs_format == "flat":
        assert np.array_equal(info["action_mask"], aec_mask(env, before[2]))
    return False


def play_aec(variant: str, plan: Plan) -> None:
    make = tribune_env.env if variant.startswith("base") else tribune_env.expansion_env
    env = make(
        **VARIANTS[variant],
        round_limit=plan.round_limit,
        illegal_action=plan.mode,
        illegal_penalty=PENALTY,
        obs_format=plan.obs_format,
    )
    env.reset(seed=plan.seed)
    n = env.unwrapped.codec.n
    rng = np.random.default_rng(plan.seed)
    queue = list(plan.bad)
    ended = False
    for _ in env.agent_iter(max_iter=20_000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = aec_mask(env, obs)
        if queue and queue[0][0] == 0:
            value = resolve(queue.pop(0)[1], n, mask)
            if value is NOTHING:
                continue  # the turn goes on with a legal move
            ended = aec_bad(env, value, plan.mode, n) or ended
            continue
        if queue:
            queue[0] = (queue[0][0] - 1, queue[0][1])
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.agents, "every agent's episode ended"
    assert ended or env.unwrapped.game.is_over, "legal play went on to the end of the game"


# -- single-agent ----------------------------------------------------------------------------------------------------


def single_bad(env: Any, obs: Any, value: Any, mode: str, n: int) -> bool:
    """As :func:`aec_bad` for the single-agent environment (``obs``: its current observation)."""
    base = env.unwrapped
    seat, mask, before = base.seat, base.action_masks().copy(), game_json(env)
    index = integer_of(value)
    if mode == "raise" or index is None or not 0 <= index < n:
        with pytest.raises(IllegalMoveError, match=rf"^the learner \(seat {seat}\) played action"):
            env.step(value)
        assert game_json(env) == before and base.seat == seat
        assert np.array_equal(base.action_masks(), mask) and same(base._observe(), obs)
        return False
    again, reward, terminated, truncated, info = env.step(value)
    assert game_json(env) == before and base.seat == seat and info["seat"] == seat
    assert same(again, obs) and np.array_equal(info["action_mask"].astype(bool), mask)
    assert reward == PENALTY and info["illegal_action"] == index and type(info["illegal_action"]) is int
    assert terminated is (mode == "penalty_end") and not truncated
    return terminated


def play_single(variant: str, plan: Plan) -> None:
    options = {
        **VARIANTS[variant],
        "round_limit": plan.round_limit,
        "illegal_action": plan.mode,
        "illegal_penalty": PENALTY,
        "illegal_limit": 10**6,
        "obs_format": plan.obs_format,
    }
    base_game = variant.startswith("base")
    env: Any
    if plan.via_make:  # gymnasium.make's wrappers (order enforcing, the passive checker) in front
        env = gymnasium.make(SINGLE_ID if base_game else EXPANSION_SINGLE_ID, **options)
    else:
        env = (TribuneSingleEnv if base_game else TribuneExpansionSingleEnv)(**options)
    obs, _ = env.reset(seed=plan.seed)
    n = int(env.action_space.n)
    rng = np.random.default_rng(plan.seed)
    queue = list(plan.bad)
    for _ in range(20_000):
        mask = env.unwrapped.action_masks()
        if queue and queue[0][0] == 0:
            value = resolve(queue.pop(0)[1], n, mask.astype(np.int8))
            if value is not NOTHING and single_bad(env, obs, value, plan.mode, n):
                return  # penalty_end: the episode is over
            continue
        if queue:
            queue[0] = (queue[0][0] - 1, queue[0][1])
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert env.unwrapped.game.is_over, "legal play went on to the end of the game"


# -- the tests -------------------------------------------------------------------------------------------------------

FAST = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", VARIANTS)
@FAST
@given(plan=plans(AEC_FORMATS, (1, 2), 12))
def test_aec_fuzz(variant: str, plan: Plan) -> None:
    play_aec(variant, plan)


@pytest.mark.parametrize("variant", VARIANTS)
@FAST
@given(plan=plans(SINGLE_FORMATS, (1, 2), 12))
def test_single_fuzz(variant: str, plan: Plan) -> None:
    play_single(variant, plan)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@SLOW
@given(plan=plans(AEC_FORMATS, (1, 60), 60))
def test_aec_fuzz_whole_games(variant: str, plan: Plan) -> None:
    play_aec(variant, plan)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@SLOW
@given(plan=plans(SINGLE_FORMATS, (1, 60), 60))
def test_single_fuzz_whole_games(variant: str, plan: Plan) -> None:
    play_single(variant, plan)
