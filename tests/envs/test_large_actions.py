"""Actions beyond the action space, however large, and values that are not integers: the project's
:class:`IllegalMoveError` (or the penalty, where the environment's ``illegal_action`` mode gives one for an integer)
in every environment and mode, the game unchanged (issue 25: ``TribuneSingle-v0`` raised ``OverflowError`` from
Gymnasium's ``Discrete.contains`` for ``2**63`` and more)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import tribune_env
from tribune_env import IllegalMoveError
from tribune_env.envs import EXPANSION_SINGLE_ID, SINGLE_ID, TribuneBatchedEnv, TribuneExpansionSingleEnv
from tribune_env.envs.options import ILLEGAL_ACTIONS

BIG_INTEGERS: list[Any] = [
    2**63,
    2**63 + 1,
    2**64,
    -(2**63) - 1,
    -(2**64),
    10**100,
    -(10**100),
    np.uint64(2**64 - 1),
    np.uint64(2**63),
    np.int64(2**63 - 1),
    np.int64(-(2**63)),
    np.array(2**64 - 1, dtype=np.uint64),
]
"""Integers outside every action space, many beyond int64 (what overflowed)."""
NOT_INTEGERS: list[Any] = [1e30, -1e30, float("nan"), float("inf"), True, False, np.float64(3.0), np.bool_(True)]
"""Values that are no integer at all, whatever their size."""
GAMES: dict[str, dict[str, Any]] = {
    "base": {"players": 3},
    "expansion": {"players": 4, "expansion": True},
    "brutii": {"players": 5, "brutii": True},
}
SINGLE_MAKERS: dict[str, Callable[..., Any]] = {
    "direct": lambda **kw: (TribuneExpansionSingleEnv if _expansion(kw) else tribune_env.TribuneSingleEnv)(**kw),
    "gymnasium.make": lambda **kw: gymnasium.make(EXPANSION_SINGLE_ID if _expansion(kw) else SINGLE_ID, **kw),
}


def _expansion(options: dict[str, Any]) -> bool:
    return bool(options.get("expansion") or options.get("brutii"))


def _integer(value: Any) -> bool:
    """Whether ``value`` is an integer to the environments: a Python or numpy integer, or a 0-d integer array."""
    if isinstance(value, np.ndarray):
        return value.shape == () and value.dtype.kind in "iu"
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _aec(game: str, **kwargs: Any) -> Any:
    make = tribune_env.expansion_env if game != "base" else tribune_env.env
    env = make(**GAMES[game], **kwargs)
    env.reset(seed=7)
    return env


def _aec_state(env: Any) -> tuple[Any, ...]:
    base = env.unwrapped
    agent = base.agent_selection
    obs = base.observe(agent)
    return (
        json.dumps(base.game.to_json(), sort_keys=True),
        agent,
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        dict(base.terminations),
        dict(base.truncations),
    )


def _single_state(env: Any) -> tuple[Any, ...]:
    base = env.unwrapped
    return json.dumps(base.game.to_json(), sort_keys=True), base.seat, base.action_masks().tobytes()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ILLEGAL_ACTIONS)
def test_aec_envs(game: str, mode: str) -> None:
    """AEC (``env()``, wrapped, and ``raw_env``): an integer outside the space is the penalty in the penalty modes,
    the error in raise mode; a non-integer is the error in every mode. The game never changes."""
    for wrapped in (True, False):
        for value in BIG_INTEGERS + NOT_INTEGERS:
            env = _aec(game, illegal_action=mode)
            target = env if wrapped else env.unwrapped
            agent = env.agent_selection
            before = _aec_state(env)
            if mode == "raise" or not _integer(value):
                with pytest.raises(IllegalMoveError, match=rf"^{agent} played action"):
                    target.step(value)
                assert _aec_state(env) == before
                continue
            target.step(value)
            after = _aec_state(env)
            assert after[:4] == before[:4], "the game, the agent to act and its observation are unchanged"
            assert env.rewards[agent] == -1.0 and env.infos[agent]["illegal_action"] == int(value)
            assert all(env.terminations.values()) is (mode == "penalty_end")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ILLEGAL_ACTIONS)
@pytest.mark.parametrize("maker", SINGLE_MAKERS)
def test_single_envs(game: str, mode: str, maker: str) -> None:
    """Single-agent, direct and through ``gymnasium.make``'s wrappers: the error in every mode, the game unchanged."""
    env = SINGLE_MAKERS[maker](**GAMES[game], illegal_action=mode)
    env.reset(seed=7)
    before = _single_state(env)
    for value in BIG_INTEGERS + NOT_INTEGERS:
        with pytest.raises(IllegalMoveError, match=r"^the learner \(seat \d\) played action"):
            env.step(value)
        assert _single_state(env) == before
    # in the penalty modes an illegal integer of the space is still the penalty, whatever its integer type
    if mode != "raise":
        masked = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
        for value in (masked, np.uint64(masked), np.int32(masked), np.array(masked, dtype=np.uint16)):
            _, reward, terminated, _, info = env.step(value)
            assert reward == -1.0 and info["illegal_action"] == masked and type(info["illegal_action"]) is int
            assert _single_state(env) == before
            if terminated:  # penalty_end
                break


@pytest.mark.parametrize("mode", ILLEGAL_ACTIONS)
def test_batched_env_refuses_before_any_game_moves(mode: str) -> None:
    """A batch with one value outside the space: the error names that value (a list mixing it with small integers
    is not turned into floats) and no game of the batch moves, in every mode."""
    env = TribuneBatchedEnv(3, players=3, illegal_action=mode)
    env.reset(seed=1)
    states = [_single_state(e) for e in env.envs]
    legal = [int(np.flatnonzero(mask)[0]) for mask in env.action_masks()]
    for value in BIG_INTEGERS + NOT_INTEGERS:
        for actions in ([legal[0], legal[1], value], np.array([legal[0], legal[1], value], dtype=object)):
            with pytest.raises(IllegalMoveError, match=r"played action") as info:
                env.step(actions)
            assert repr(info.value.action) == repr(value)
            assert [_single_state(e) for e in env.envs] == states
    env.step(legal)  # plays on
    assert [_single_state(e) for e in env.envs] != states


@pytest.mark.train
def test_sb3_vec_env() -> None:
    from tribune_env.integrations.sb3 import BatchedVecEnv

    env = BatchedVecEnv(2, players=3, illegal_action="raise")
    env.reset()
    legal = int(np.flatnonzero(env.action_masks()[0])[0])
    for value in (2**63, 2**64, -(2**63) - 1):
        env.step_async([legal, value])  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match=rf"played action {value} .*outside the action space"):
            env.step_wait()


@pytest.mark.rllib
@pytest.mark.parametrize("mode", ILLEGAL_ACTIONS)
def test_rllib_env(mode: str) -> None:
    """RLlib's env: the error in raise mode, the penalty (the agent acts again or the episode ends) otherwise."""
    import tribune_env.integrations.rllib as rllib
    for game in ("base", "brutii"):
        for value in BIG_INTEGERS[:4] + NOT_INTEGERS[:3]:
            env = rllib.TribuneMultiAgentEnv({**GAMES[game], "illegal_action": mode})
            obs, _ = env.reset(seed=3)
            (agent,) = obs
            before = json.dumps(env.table.game.to_json(), sort_keys=True)
            if mode == "raise":
                with pytest.raises(IllegalMoveError):
                    env.step({agent: value})
            else:
                again, rewards, terminated, _, infos = env.step({agent: value})
                assert rewards[agent] == -1.0 and "illegal_action" in infos[agent]
                assert terminated["__all__"] is (mode == "penalty_end")
                assert np.array_equal(again[agent]["action_mask"], obs[agent]["action_mask"])
            assert json.dumps(env.table.game.to_json(), sort_keys=True) == before


@pytest.mark.tianshou
@pytest.mark.parametrize("mode", ILLEGAL_ACTIONS)
def test_tianshou_env(mode: str) -> None:
    from tribune_env.integrations import tianshou as ts_glue

    for value in BIG_INTEGERS[:4] + NOT_INTEGERS[:3]:
        env = ts_glue.make_env(**GAMES["expansion"], illegal_action=mode)
        env.reset(seed=3)
        base = env.env.unwrapped
        before = _aec_state(base)
        if mode == "raise" or not _integer(value):
            with pytest.raises(IllegalMoveError):
                env.step(value)
            assert _aec_state(base) == before
        else:
            env.step(value)
            assert _aec_state(base)[:4] == before[:4]
