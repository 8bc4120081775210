"""Who plays the opponent seats during training: reference agents and a self-play pool.

:class:`OpponentSampler` draws, for every opponent seat of every episode,
either a frozen snapshot of the learner from the :class:`SnapshotPool` (with
the probability that :func:`pool_probability` gives at the current training
progress) or a reference agent from the configured mix. Snapshots are
exported policies (``.npz``, see :mod:`agents.ppo`) played by numpy, so
environment worker processes need no torch.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.base import Agent
from agents.specs import make_agent
from tribune_env.engine.config import GameConfig


def pool_probability(schedule: Sequence[Sequence[float]], progress: float) -> float:
    """The schedule's probability at ``progress``: linear between ``[progress, probability]`` points, flat outside."""
    xs = [float(p[0]) for p in schedule]
    ys = [float(p[1]) for p in schedule]
    if progress <= xs[0]:
        return ys[0]
    if progress >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, progress)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 if x1 == x0 else y0 + (y1 - y0) * (progress - x0) / (x1 - x0)


@dataclass
class SnapshotPool:
    """The newest ``capacity`` snapshots (paths, oldest first); ``latest_weight`` of draws go to the newest."""

    capacity: int
    latest_weight: float = 0.5
    paths: list[str] = field(default_factory=list)

    def add(self, path: str | Path) -> None:
        """Add a snapshot; the oldest leaves when the pool is full. Adding a path already in the pool does nothing."""
        text = str(path)
        if text in self.paths:
            return
        self.paths.append(text)
        del self.paths[: max(0, len(self.paths) - self.capacity)]

    def weights(self) -> np.ndarray:
        """Draw probability of each snapshot (same order as :attr:`paths`)."""
        n = len(self.paths)
        if n == 0:
            return np.zeros(0)
        if n == 1:
            return np.ones(1)
        w = np.full(n, (1.0 - self.latest_weight) / n)
        w[-1] += self.latest_weight
        out: np.ndarray = w / w.sum()
        return out

    def draw(self, rng: np.random.Generator) -> str:
        if not self.paths:
            raise ValueError("the snapshot pool is empty")
        return self.paths[int(rng.choice(len(self.paths), p=self.weights()))]


class OpponentSampler:
    """Builds the opponents of one episode; agents and snapshot policies are built once and reused.

    Args:
        mix: reference agent spec -> weight.
        schedule: the pool probability schedule (see :func:`pool_probability`).
        pool: the snapshot pool (may stay empty: then every seat is a reference agent).
        deterministic: whether snapshots play their most likely action (else they sample).
    """

    def __init__(
        self,
        mix: dict[str, float],
        schedule: Sequence[Sequence[float]] = ((0.0, 0.0),),
        pool: SnapshotPool | None = None,
        deterministic: bool = False,
    ) -> None:
        self.specs = list(mix)
        weights = np.array([mix[s] for s in self.specs], dtype=float)
        self.weights = weights / weights.sum()
        self.schedule = [list(p) for p in schedule]
        self.pool = pool or SnapshotPool(capacity=1)
        self.deterministic = deterministic
        self.progress = 0.0
        self._agents: dict[tuple[str, int], Agent] = {}
        self._snapshots: dict[tuple[str, int], SnapshotOpponent] = {}

    def draw_names(self, count: int, rng: np.random.Generator) -> list[str]:
        """``count`` opponent names: a reference spec, or ``"pool:PATH"`` for a snapshot."""
        p_pool = pool_probability(self.schedule, self.progress) if self.pool.paths else 0.0
        names = []
        for _ in range(count):
            if p_pool > 0 and rng.random() < p_pool:
                names.append("pool:" + self.pool.draw(rng))
            else:
                names.append(self.specs[int(rng.choice(len(self.specs), p=self.weights))])
        return names

    def build(self, names: Sequence[str]) -> list[Agent | SnapshotOpponent]:
        """The opponent objects for ``names``; the k-th copy of a name in one episode is its k-th instance."""
        seen: dict[str, int] = {}
        out: list[Agent | SnapshotOpponent] = []
        for name in names:
            k = seen.get(name, 0)
            seen[name] = k + 1
            if name.startswith("pool:"):
                out.append(self._snapshot(name[5:], k))
            else:
                key = (name, k)
                if key not in self._agents:
                    self._agents[key] = make_agent(name, k)
                out.append(self._agents[key])
        return out

    def _snapshot(self, path: str, k: int) -> SnapshotOpponent:
        key = (path, k)
        if key not in self._snapshots:
            if len({p for p, _ in self._snapshots}) > 2 * self.pool.capacity:  # forget snapshots that left the pool
                self._snapshots = {kk: v for kk, v in self._snapshots.items() if kk[0] in self.pool.paths}
            self._snapshots[key] = SnapshotOpponent(path, self.deterministic)
        return self._snapshots[key]


def seat_opponents(seated: Sequence[tuple[int, Agent | SnapshotOpponent]], config: GameConfig,
                   rng: np.random.Generator) -> None:
    """Ready each ``(seat, opponent)`` for a new episode, in order: an agent is reset for its seat, a snapshot
    seeded; each takes a child seed of ``rng``, so a seeded episode replays exactly."""
    for seat, opponent in seated:
        child = int(rng.integers(2**62))
        if isinstance(opponent, Agent):
            opponent.reset(seat, config, child)
        else:
            opponent.seed(child)


class SnapshotOpponent:
    """A frozen learner snapshot as an observation policy ``(obs, mask) -> int`` of the single-agent wrapper."""

    def __init__(self, path: str, deterministic: bool) -> None:
        from agents.ppo import load_policy

        self.path = path
        self.policy = load_policy(path)
        self.deterministic = deterministic
        self.rng = np.random.default_rng(0)

    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.policy.act(observation, action_mask.astype(bool), self.rng, self.deterministic)
