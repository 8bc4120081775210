"""The single-agent view of a :class:`~tribune_env.envs.pool.TribunePool` for your own algorithms (issue 43).

:class:`TribunePoolVectorEnv` (a Gymnasium ``VectorEnv``) and :class:`TribunePoolVecEnv` (a Stable-Baselines3
``VecEnv``) give ``num_envs`` games in which one seat, drawn at every deal, is yours; the other seats are played
inside, between your steps, by **batched opponents**: callables ``policy(obs, mask) -> actions`` over the rows where
they decide (``obs`` float32 ``(k, n)``, ``mask`` bool ``(k, actions)``, one action index per row). Every game is
stepped by the native core in one call; a game already waiting for your seat is held still meanwhile (the pool's
documented refusal of an illegal index leaves it unchanged). Opponents: :func:`random_opponent` and
:func:`agents.batched.network_opponent` (any NumpyPolicy ``.npz``: the shipped networks, a distilled ``heuristic``,
your exports; an agent, so it lives in the agents layer).

A step takes one action per game (your seat decides in every game); the reward is your seat's ``win_loss`` result
when the game ends (else 0), and a game that ends is dealt again in the same step (Gymnasium's ``SAME_STEP``
autoreset: ``final_obs`` in the infos; SB3's ``terminal_observation``). The legal actions are
``infos["action_mask"]`` and ``action_masks()`` (what sb3-contrib's MaskablePPO reads).

    env = TribunePoolVectorEnv(64, players=4, opponents=[random_opponent(seed=0)])
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(my_actions(obs, info["action_mask"]))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tribune_env.engine.config import GameConfig
from tribune_env.envs.pool import TribunePool

BatchedPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""An opponent: ``(obs (k, n) float32, mask (k, actions) bool) -> (k,)`` legal action indices."""


def random_opponent(seed: int | None = None) -> BatchedPolicy:
    """A uniformly random legal action per row, from its own seeded generator."""
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scores = rng.random(mask.shape) * mask
        return np.asarray(scores.argmax(1), dtype=np.int64)

    return act


class PoolDriver:
    """The pool with your seats and the opponents' moves between your steps (the envs' shared engine).

    Args:
        num_envs: games; config / options: the game; opponents: batched policies, one drawn per opponent seat at
            every deal (uniformly, seeded); threads: the pool's native threads.
    """

    def __init__(
        self, num_envs: int, config: GameConfig | None, opponents: Sequence[BatchedPolicy] | None,
        threads: int = 1, illegal_action: str = "penalty", illegal_penalty: float = -1.0, **options: Any,
    ) -> None:
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action: expected 'penalty' or 'raise', got {illegal_action!r}")
        self.illegal_action, self.illegal_penalty = illegal_action, float(illegal_penalty)
        self.pool = TribunePool(num_envs, config, threads=threads, **options)
        self.n = num_envs
        self.players = self.pool.config.players
        self.opponents = list(opponents) if opponents else [random_opponent()]
        self.rng = np.random.default_rng()
        self.mine = np.zeros(num_envs, dtype=np.int64)
        self.owner = np.zeros((num_envs, self.players), dtype=np.int64)  # 0: yours; k >= 1: opponents[k - 1]
        n_obs, n_act = self.pool.encoder.size, self.pool.codec.n
        self.obs = np.zeros((num_envs, n_obs), dtype=np.float32)
        self.mask = np.zeros((num_envs, n_act), dtype=bool)
        self._rows: tuple[np.ndarray, np.ndarray, np.ndarray] = (self.obs, self.mask, np.zeros(num_envs, np.int32))

    def _deal(self, games: np.ndarray) -> None:
        if not len(games):
            return
        self.mine[games] = self.rng.integers(self.players, size=len(games))
        drawn = self.rng.integers(len(self.opponents), size=(len(games), self.players)) + 1
        drawn[np.arange(len(games)), self.mine[games]] = 0
        self.owner[games] = drawn

    def reset(self, seed: int | None) -> None:
        """Deal every game (game ``i``: ``seed + i``) and play the opponents up to your first decision."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.rng = np.random.default_rng([seed, 43])
        for k, opponent in enumerate(self.opponents):
            reseed = getattr(opponent, "seed", None)
            if callable(reseed):
                reseed(seed + k)
        self._rows = self.pool.reset(seed)
        self._deal(np.arange(self.n))
        self._advance(np.zeros(self.n, dtype=np.float64), np.zeros(self.n, dtype=bool), None)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Your action in every game, then the opponents up to your next decision: rewards, done flags, the
        observations of the games that ended (before their new deal; zeros: the pool writes none), and which actions
        were illegal (``illegal_action="penalty"``: that game stays as it was and its reward is ``illegal_penalty``;
        ``"raise"``: ValueError naming the game, before any game moves)."""
        reward = np.zeros(self.n, dtype=np.float64)
        done = np.zeros(self.n, dtype=bool)
        actions = np.asarray(actions, dtype=np.int64)
        in_range = (actions >= 0) & (actions < self.mask.shape[1])
        legal = in_range & self.mask[np.arange(self.n), np.where(in_range, actions, 0)]
        if not legal.all() and self.illegal_action == "raise":
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"actions[{bad}] = {int(actions[bad])} is not legal in game {bad} (see action_masks())")
        reward[~legal] = self.illegal_penalty
        self._pool_step(np.where(legal, actions, 0), legal, reward, done)
        self._advance(reward, done, None)
        return reward, done, np.zeros_like(self.obs), ~legal

    def _pool_step(self, actions: np.ndarray, moving: np.ndarray, reward: np.ndarray, done: np.ndarray) -> None:
        """Step the games in ``moving`` with ``actions``; the others get an illegal index and stay as they are."""
        acts = actions.astype(np.int32, copy=True)
        held = ~moving
        if held.any():
            acts[held] = np.argmin(self._rows[1][held], axis=1)  # an illegal index: the game stays
        obs, mask, seat, r, d = self.pool.step(acts)
        self._rows = (obs, mask, seat)
        ended = np.flatnonzero(d & moving)
        if len(ended):
            reward[ended] = r[ended, self.mine[ended]]
            done[ended] = True
            self._deal(ended)

    def _advance(self, reward: np.ndarray, done: np.ndarray, _: None) -> None:
        """Play the opponents' seats until your seat decides in every game (one batched call per opponent)."""
        while True:
            seat = self._rows[2].astype(np.int64)
            owner = self.owner[np.arange(self.n), seat]
            waiting = owner != 0
            if not waiting.any():
                break
            actions = np.zeros(self.n, dtype=np.int64)
            obs, mask = self._rows[0], self._rows[1].astype(bool)
            for k in np.unique(owner[waiting]):
                rows = np.flatnonzero(owner == k)
                actions[rows] = self.opponents[int(k) - 1](obs[rows], mask[rows])
            self._pool_step(actions, waiting, reward, done)
        self.obs[:] = self._rows[0]
        self.mask[:] = self._rows[1].astype(bool)


def _spaces(driver: PoolDriver) -> tuple[spaces.Box, spaces.Discrete[np.int64]]:
    high = np.asarray(driver.pool.encoder.high, dtype=np.float32)
    return spaces.Box(np.zeros_like(high), high, dtype=np.float32), spaces.Discrete(driver.pool.codec.n)


class TribunePoolVectorEnv(VectorEnv[Any, Any, Any]):
    """Gymnasium ``VectorEnv``: your seat in ``num_envs`` pool games (module docstring).

    Args:
        num_envs: games (>= 1); config: the game, or its options as keywords; opponents: batched policies (default:
            random); threads: the pool's native threads.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's field)

    def __init__(
        self, num_envs: int = 16, config: GameConfig | None = None, *,
        opponents: Sequence[BatchedPolicy] | None = None, threads: int = 1, **options: Any,
    ) -> None:
        self.driver = PoolDriver(num_envs, config, opponents, threads, **options)
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(self.driver)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game (an int ``seed``: game ``i`` gets ``seed + i``; a list: its first value)."""
        if isinstance(seed, list):
            seed = seed[0]
        self.driver.reset(seed)
        return self.driver.obs.copy(), {"action_mask": self.driver.mask.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One legal action per game (ValueError naming the game otherwise)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        reward, done, final, illegal = self.driver.step(acts)
        info: dict[str, Any] = {"action_mask": self.driver.mask.copy(), "illegal_action": illegal}
        if done.any():
            info.update(final_obs=final, _final_obs=done.copy())
        return self.driver.obs.copy(), reward, done, np.zeros(self.num_envs, dtype=bool), info

    def action_masks(self) -> np.ndarray:
        """Bool masks of your legal actions in every game ``(num_envs, actions)``."""
        return self.driver.mask.copy()


class TribunePoolEnv(gym.Env[np.ndarray, np.int64]):
    """One game of the pool as a plain Gymnasium ``Env`` (``num_envs=1`` of :class:`PoolDriver`): your seat against
    batched opponents; what Gymnasium's and SB3's ``check_env`` check. ``action_masks()`` for MaskablePPO."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's field)

    def __init__(
        self, config: GameConfig | None = None, *, opponents: Sequence[BatchedPolicy] | None = None, **options: Any
    ) -> None:
        self.driver = PoolDriver(1, config, opponents, 1, **options)
        self.render_mode = None
        self.observation_space, self.action_space = _spaces(self.driver)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.driver.reset(seed if seed is not None else int(self.np_random.integers(2**31)))
        return self.driver.obs[0].copy(), {"action_mask": self.driver.mask[0].copy()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        reward, done, _, illegal = self.driver.step(np.asarray([action], dtype=np.int64))
        return self.driver.obs[0].copy(), float(reward[0]), bool(done[0]), False, {
            "action_mask": self.driver.mask[0].copy(), "illegal_action": bool(illegal[0])
        }

    def action_masks(self) -> np.ndarray:
        mask: np.ndarray = self.driver.mask[0].copy()
        return mask


def sb3_vec_env(
    num_envs: int = 16, config: GameConfig | None = None, *, opponents: Sequence[BatchedPolicy] | None = None,
    threads: int = 1, seed: int | None = None, **options: Any,
) -> Any:
    """A :class:`TribunePoolVecEnv` (needs Stable-Baselines3, the ``train`` extra)."""
    cls = _vec_env_class()
    return cls(num_envs, config, opponents=opponents, threads=threads, seed=seed, **options)


_VEC_CLASS: list[type[Any]] = []


def _vec_env_class() -> type[Any]:  # noqa: C901  (the class's methods, defined on first use)
    """The SB3 ``VecEnv`` class, defined on first use so that this module imports without SB3."""
    if _VEC_CLASS:
        return _VEC_CLASS[0]
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv

    class TribunePoolVecEnvImpl(VecEnv):
        """Stable-Baselines3 ``VecEnv``: your seat in ``num_envs`` pool games (module docstring); ``action_masks``
        and ``env_method("action_masks")`` give the legal actions for sb3-contrib's MaskablePPO."""

        def __init__(self, num_envs: int, config: GameConfig | None, *, opponents: Sequence[BatchedPolicy] | None,
                     threads: int, seed: int | None, **options: Any) -> None:
            self.driver = PoolDriver(num_envs, config, opponents, threads, **options)
            obs_space, act_space = _spaces(self.driver)
            super().__init__(num_envs, obs_space, act_space)
            self._seed = seed
            self._actions = np.zeros(num_envs, dtype=np.int64)

        def reset(self) -> np.ndarray:
            seed = self._seed
            self._seed = None
            self.driver.reset(seed if seed is not None else int(self.driver.rng.integers(2**31)))
            return self.driver.obs.copy()

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [seed] * self.num_envs

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            reward, done, final, illegal = self.driver.step(self._actions)
            infos: list[dict[str, Any]] = [{"illegal_action": bool(b)} for b in illegal]
            for i in np.flatnonzero(done):
                infos[i]["terminal_observation"] = final[i]
                infos[i]["TimeLimit.truncated"] = False
            return self.driver.obs.copy(), reward.astype(np.float32), done.copy(), infos

        def action_masks(self) -> np.ndarray:
            return self.driver.mask.copy()

        def close(self) -> None:
            return None

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(self, attr_name)] * len(self._indices(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(self, attr_name, value)

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
            rows = self._indices(indices)
            if method_name == "action_masks":
                return [self.driver.mask[i].copy() for i in rows]
            raise AttributeError(f"TribunePoolVecEnv has no per-game method {method_name!r}")

        def env_is_wrapped(self, wrapper_class: type[Any], indices: Any = None) -> list[bool]:
            return [False] * len(self._indices(indices))

        def _indices(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(self.num_envs))
            return [indices] if isinstance(indices, int) else list(indices)

    TribunePoolVecEnvImpl.__name__ = TribunePoolVecEnvImpl.__qualname__ = "TribunePoolVecEnv"
    _VEC_CLASS.append(TribunePoolVecEnvImpl)
    return TribunePoolVecEnvImpl


def __getattr__(name: str) -> Any:
    if name == "TribunePoolVecEnv":
        return _vec_env_class()
    raise AttributeError(name)
