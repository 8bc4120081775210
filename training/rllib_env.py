"""The RLlib backend's environment: :class:`LeagueMultiAgentEnv`, the league of :mod:`training.envs` for RLlib.

Each episode the learner takes a random seat (or its Brutii role's seat) and every other seat is drawn from the
:class:`~training.league.OpponentSampler`, exactly as for SB3: a reference agent of ``opponents.mix``, a frozen
snapshot from the pool with the probability the league schedule gives at the current progress, or ``self``, the
learning policy itself. Reference agents and snapshots are the run's non-learning policies: they read the
engine's view (or, snapshots, the observation) and play inside the environment, so RLlib sees only the seats of
the learning policy, all mapped to the one module :data:`LEARNER`. The trainer sends the progress and new
snapshots to every env runner (:func:`broadcast`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from training.config import SELF, TrainConfig, config_from_dict
from training.league import OpponentSampler, SnapshotPool, seat_opponents
from tribune_env.engine.config import config_fields
from tribune_env.envs.policies import Opponent
from tribune_env.integrations.rllib import TribuneMultiAgentEnv

LEARNER = "learner"
"""The module id of the learning policy."""


class LeagueMultiAgentEnv(TribuneMultiAgentEnv):
    """``env_config``: ``{"train": TrainConfig.resolved(), "pool": [snapshot paths, oldest first]}`` (plain data, as
    Ray sends it to the env runners: the game travels in its dictionary form inside the resolved config)."""

    def __init__(self, env_config: Mapping[str, Any]) -> None:
        train = config_from_dict(dict(env_config["train"]), "the RLlib environment's config")
        game = train.env.game
        super().__init__({
            **{name: getattr(game, name) for name in config_fields()},  # the game, option by option
            "reward": train.env.reward,
            "illegal_action": "penalty",  # RLlib's environment check steps unmasked random actions
        })
        self.train: TrainConfig = train
        league = train.league
        pool = SnapshotPool(capacity=league.pool_size, latest_weight=league.latest_weight)
        for path in env_config.get("pool", []):
            pool.add(path)
        schedule = league.schedule if league.enabled else [[0.0, 0.0]]
        self.sampler = OpponentSampler(train.opponents.mix, schedule, pool, league.deterministic)
        self.names: list[str] = []

    def draw_opponents(self, rng: np.random.Generator) -> dict[int, Opponent]:
        players = self.table.num_players
        learner = self._learner_seat(rng)
        seats = [(learner + 1 + i) % players for i in range(players - 1)]
        self.names = self.sampler.draw_names(players - 1, rng)
        inside = [(seat, name) for seat, name in zip(seats, self.names, strict=True) if name != SELF]
        built = self.sampler.build([name for _, name in inside])
        seated = [(seat, opponent) for (seat, _), opponent in zip(inside, built, strict=True)]
        seat_opponents(seated, self.train.env.game, rng)
        return dict(seated)

    def _learner_seat(self, rng: np.random.Generator) -> int:
        players = self.table.num_players
        brutii = self.table.game.brutii_seat
        role = self.train.env.learner_role
        if role == "brutii":
            return int(brutii)
        if role == "family":
            families = [s for s in range(players) if s != brutii]
            return families[int(rng.integers(len(families)))]
        return int(rng.integers(players))

    def set_progress(self, progress: float) -> None:
        """Training progress in 0..1 (drives the pool schedule)."""
        self.sampler.progress = float(progress)

    def add_snapshot(self, path: str) -> None:
        """A new frozen snapshot joins the pool (the oldest leaves when it is full)."""
        self.sampler.pool.add(path)


def learner_mapping(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    """Every seat RLlib sees is the learner's (opponents play inside the environment)."""
    return LEARNER


def league_envs(runner: Any) -> list[LeagueMultiAgentEnv]:
    """The league environments of one env runner (RLlib wraps them; several per runner when vectorised)."""
    env = getattr(runner, "env", None)
    found: list[LeagueMultiAgentEnv] = []
    stack = [env]
    while stack:
        item = stack.pop()
        if item is None:
            continue
        if isinstance(item, LeagueMultiAgentEnv):
            found.append(item)
            continue
        stack.extend(getattr(item, "envs", None) or [])
        unwrapped = getattr(item, "unwrapped", None)
        if unwrapped is not None and unwrapped is not item:
            stack.append(unwrapped)
        inner = getattr(item, "env", None)
        if inner is not None and inner is not item:
            stack.append(inner)
    return found


def broadcast(algo: Any, progress: float, new_snapshot: str | None = None) -> int:
    """Tell every environment of every env runner (local and remote) the progress and a new snapshot; returns how
    many environments heard it (0 means the league cannot work: the caller should stop)."""

    def tell(runner: Any) -> int:
        envs = league_envs(runner)
        for env in envs:
            env.set_progress(progress)
            if new_snapshot is not None:
                env.add_snapshot(new_snapshot)
        return len(envs)

    counts = algo.env_runner_group.foreach_env_runner(tell, local_env_runner=True)
    return int(sum(counts))
