"""The training environment: :class:`LeagueEnv` and the vectorised set of them, :func:`make_vec_env`.

Each episode the learner sits in a random seat and every other seat gets an
opponent from the :class:`~training.league.OpponentSampler`; reference agents
are ``reset`` with their seat, the game's config and a seed derived from the
environment's own generator, so a seeded environment replays exactly. The
training loop tells the environments its progress (``set_progress``) and new
snapshots (``add_snapshot``) through ``VecEnv.env_method``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from training.config import TrainConfig
from training.league import OpponentSampler, SnapshotPool, seat_opponents
from tribune_env.codec import Space
from tribune_env.envs.single import TribuneSingleEnv, single_env_class


class LeagueEnv(gym.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """A :class:`TribuneSingleEnv` whose opponents are drawn anew every episode.

    ``info["opponents"]`` (at reset and every step) names the opponents by relative seat.
    """

    def __init__(self, env: TribuneSingleEnv, sampler: OpponentSampler) -> None:
        super().__init__(env)
        self.single = env
        self.sampler = sampler
        self.names: list[str] = []
        self.opponent_counts: Counter[str] = Counter()
        self._rng = np.random.default_rng()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        players = self.single.table.num_players
        config = self.single.table.config
        # the learner's seat: drawn here, or (a Brutii role) found by the environment once the game is dealt
        by_role = self.single.learner_role != "any"
        seat = None if by_role else int(self._rng.integers(players))
        self.names = self.sampler.draw_names(players - 1, self._rng)
        self.opponent_counts.update(self.names)
        opponents = self.sampler.build(self.names)

        def seat_them(learner: int) -> None:
            seated = [((learner + 1 + i) % players, opponent) for i, opponent in enumerate(opponents)]
            seat_opponents(seated, config, self._rng)

        if seat is not None:
            seat_them(seat)
        self.single.set_opponents(opponents)
        self.single.on_seat = seat_them if by_role else None
        episode_seed = int(self._rng.integers(2**62))
        seat_option = {} if seat is None else {"learner_seat": seat}
        obs, info = self.single.reset(seed=episode_seed, options={**(options or {}), **seat_option})
        info["opponents"] = list(self.names)
        return obs, info

    def step(self, action: np.int64) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.single.step(action)
        info["opponents"] = self.names
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.single.action_masks()

    def set_progress(self, progress: float) -> None:
        """Training progress in 0..1 (drives the pool schedule)."""
        self.sampler.progress = float(progress)

    def add_snapshot(self, path: str) -> None:
        """A new frozen snapshot joins the pool (the oldest leaves when it is full)."""
        self.sampler.pool.add(path)

    def pool_paths(self) -> list[str]:
        return list(self.sampler.pool.paths)


def make_env(config: TrainConfig, pool: list[str] | None = None) -> LeagueEnv:
    """One training environment for ``config`` (``pool``: snapshot paths already in the pool, oldest first)."""
    env = config.env
    kind = single_env_class(Space.for_rules(env.game.rules))
    single = kind(env.game, reward=env.reward, illegal_action="raise", learner_role=env.learner_role)
    league = config.league
    snapshots = SnapshotPool(capacity=league.pool_size, latest_weight=league.latest_weight)
    for path in pool or []:
        snapshots.add(path)
    schedule = league.schedule if league.enabled else [[0.0, 0.0]]
    sampler = OpponentSampler(config.opponents.mix, schedule, snapshots, league.deterministic)
    return LeagueEnv(single, sampler)


def make_vec_env(config: TrainConfig, pool: list[str] | None = None, n_envs: int | None = None) -> VecEnv:
    """``n_envs`` (default: the config's, sized to this machine) environments, seeded from ``config.seed``."""
    count = n_envs or config.n_envs
    factories: list[Callable[[], gym.Env[Any, Any]]] = [_Factory(config, pool) for _ in range(count)]
    vec: VecEnv
    if config.vec_env == "subproc" and count > 1:
        vec = SubprocVecEnv(factories, start_method="forkserver")
    else:
        vec = DummyVecEnv(factories)
    vec.seed(config.seed)
    return VecMonitor(vec)


class _Factory:
    """A picklable environment factory (SubprocVecEnv sends it to the worker)."""

    def __init__(self, config: TrainConfig, pool: list[str] | None) -> None:
        self.config = config
        self.pool = pool

    def __call__(self) -> LeagueEnv:
        return make_env(self.config, self.pool)
