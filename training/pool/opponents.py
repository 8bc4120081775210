"""The seats the learner does not play: a table of who owns each seat of each game, and the frozen policies.

Policy ids: 0 is the learner; ``1..len(fixed)`` the fixed opponents of ``opponents.mix`` (network files and the
distilled ``heuristic``); then the ``self`` snapshot slots. :class:`SeatTable` draws a game's owners at every deal
(seeded), so that each step the trainer groups the pool's rows by the owner of the deciding seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from agents.ppo import load_policy
from agents.zero import named_network
from training.pool.config import SELF, PoolConfig
from training.pool.network import FrozenPolicy, PolicyNet, frozen_copy

LEARNER = 0

def opponent_path(name: str, config: PoolConfig) -> Path:
    """The network file of a fixed ``opponents.mix`` entry: ``distilled``, a shipped agent's name
    (:func:`agents.zero.named_network`: ``ppo``, ``zero-net``, ... for the game's rule set), or a path."""
    if name == "distilled":
        return Path(config.opponents.distilled)
    return named_network(name, config.game.rules) or Path(name)


@dataclass
class Opponents:
    """The fixed opponents' modules, the snapshot slots, and the draw weights of each policy id."""

    modules: list[torch.nn.Module] = field(default_factory=list)  # index = policy id - 1
    names: list[str] = field(default_factory=list)
    weights: np.ndarray = field(default_factory=lambda: np.zeros(0))  # a share per policy id >= 1
    later_weights: np.ndarray | None = None  # the same after ``opponents.later_after`` decisions (a curriculum)
    snapshot_ids: list[int] = field(default_factory=list)
    next_slot: int = 0

    def module(self, policy_id: int) -> torch.nn.Module:
        return self.modules[policy_id - 1]

    def add_snapshot(self, net: PolicyNet) -> None:
        """Copy ``net`` into the oldest snapshot slot (all slots hold the first snapshot until others replace it)."""
        if not self.snapshot_ids:
            return
        if self.next_slot == 0 and all(isinstance(self.module(i), _Empty) for i in self.snapshot_ids):
            for i in self.snapshot_ids:
                self.modules[i - 1] = frozen_copy(net)
            self.next_slot = 1 % len(self.snapshot_ids)
            return
        self.modules[self.snapshot_ids[self.next_slot] - 1] = frozen_copy(net)
        self.next_slot = (self.next_slot + 1) % len(self.snapshot_ids)


class _Empty(torch.nn.Module):
    """A snapshot slot before the first snapshot."""


def build_opponents(config: PoolConfig, device: torch.device) -> Opponents:
    """The fixed opponents of ``opponents.mix`` and ``opponents.later_mix`` (loaded and checked against the game),
    the snapshot slots, and each mix's draw weights over them."""
    opp = Opponents()
    mixes = [config.opponents.mix]
    if config.opponents.later_after:
        mixes.append(config.opponents.later_mix)
    for mix in mixes:
        for name, share in mix.items():
            if name == SELF or share <= 0 or name in opp.names:
                continue
            policy = load_policy(opponent_path(name, config), config.game)
            opp.modules.append(FrozenPolicy(policy).to(device))
            opp.names.append(name)
    slots = config.opponents.snapshot_pool if any(mix.get(SELF, 0) > 0 for mix in mixes) else 0
    for k in range(slots):
        opp.modules.append(_Empty())
        opp.names.append(f"self[{k}]")
        opp.snapshot_ids.append(len(opp.modules))
    weights = [_weights(mix, opp.names, slots) for mix in mixes]
    opp.weights = weights[0]
    opp.later_weights = weights[1] if len(weights) > 1 else None
    return opp


def _weights(mix: dict[str, float], names: list[str], slots: int) -> np.ndarray:
    """The draw share of each policy id >= 1 (``names`` in id order, ``self`` spread over the snapshot slots)."""
    shares = np.array([mix.get(SELF, 0.0) / slots if name.startswith(f"{SELF}[") else max(mix.get(name, 0.0), 0.0)
                       for name in names], dtype=np.float64)
    total = shares.sum()
    return shares / total if total > 0 else shares


class SeatTable:
    """Who owns each seat of each game: ``owner[g, s]`` a policy id (0: the learner), drawn at every deal."""

    def __init__(self, games: int, players: int, learner_seats: int, weights: np.ndarray, rng: np.random.Generator):
        self.owner = np.zeros((games, players), dtype=np.int64)
        self.players, self.learner_seats, self.weights, self.rng = players, learner_seats, weights, rng
        self.deal(np.arange(games))

    def deal(self, games: np.ndarray) -> None:
        """Draw new owners for ``games``: ``learner_seats`` random seats for the learner, the others from the mix."""
        if not len(games):
            return
        n, p = len(games), self.players
        owners = np.zeros((n, p), dtype=np.int64)
        if self.learner_seats < p:
            drawn = self.rng.choice(len(self.weights), size=(n, p), p=self.weights) + 1
            keys = self.rng.random((n, p))
            learner = np.argsort(keys, axis=1)[:, : self.learner_seats]
            owners[:] = drawn
            np.put_along_axis(owners, learner, LEARNER, axis=1)
        self.owner[games] = owners
