"""The pool loop: every seat of ``games`` games stepped in one :class:`TribunePool`, one batched forward per policy.

Each step the rows are grouped by the policy that owns the deciding seat (:class:`~training.pool.opponents.SeatTable`);
the learner's rows (the deciding seat's own observation, followed by the features of ``network.sight`` if any, its
mask, the sampled action, its log-probability and the value) are stored in place (:mod:`training.pool.rows`) with the
link to that seat's previous decision in the same game (:mod:`training.pool.gae`) until a rollout trains them;
opponents' rows are only played (a snapshot of the learner reads the sight too). No Python object is made per
decision.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import torch

from training.pool.network import PolicyNet, choose, masked
from training.pool.opponents import LEARNER, Opponents
from training.pool.rows import RowStore
from training.pool.sight import Sight
from tribune_env.engine.config import GameConfig


class RowSource(Protocol):
    """Games stepped a row per game (:class:`~tribune_env.envs.pool.TribunePool`,
    :class:`~training.pool.tables.AgentTables`)."""

    num_games: int
    config: GameConfig

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...

    def native_core(self, index: int) -> Any:
        """Game ``index``'s native core, to read (a :class:`~training.pool.sight.Sight` reads it)."""
        ...


class Owners(Protocol):
    """Who owns each seat of each game (:class:`~training.pool.opponents.SeatTable`,
    :class:`~training.pool.tables.TableSeats`)."""

    @property
    def owner(self) -> np.ndarray: ...

    def deal(self, games: np.ndarray) -> None: ...


@dataclass
class Batch:
    """The learner's rows of one rollout (numpy), with their trajectory links."""

    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    reward: np.ndarray
    terminal: np.ndarray
    next_row: np.ndarray
    game: np.ndarray
    seat: np.ndarray
    step_starts: list[int]
    pending: np.ndarray | None = None
    """Rows in the batch only as the value a trained row bootstraps from: open rows (their seat had not decided again
    nor seen its game end when the rollout stopped), which stay stored for a later rollout and are left out of this
    one's update; None: none."""

    def __len__(self) -> int:
        return len(self.action)

    @classmethod
    def joined(cls, parts: list[Batch]) -> Batch:
        """The rows of ``parts`` (subsets, after their advantages) as one batch for the update."""
        if len(parts) == 1:
            return parts[0]
        names = ("obs", "mask", "action", "logp", "value", "reward", "terminal", "next_row", "game", "seat")
        arrays: dict[str, Any] = {k: np.concatenate([getattr(p, k) for p in parts]) for k in names}
        arrays["next_row"][:] = -1
        return cls(**arrays, step_starts=[0])

    def subset(self, rows: np.ndarray) -> Batch:
        """The batch of ``rows`` only (no trajectory links: for the update, after the advantages)."""
        return Batch(self.obs[rows], self.mask[rows], self.action[rows], self.logp[rows], self.value[rows],
                     self.reward[rows], self.terminal[rows], np.full(len(rows), -1, dtype=np.int64), self.game[rows],
                     self.seat[rows], [0])

    def trained(self) -> np.ndarray:
        """The indices of the rows this rollout's update trains on (all rows less the pending ones)."""
        if self.pending is None:
            return np.arange(len(self))
        return np.flatnonzero(~self.pending)


@dataclass
class RolloutStats:
    """What a rollout did: decisions (all seats), learner rows, games ended, the learner's results, seconds spent."""

    decisions: int = 0
    learner_rows: int = 0
    games: int = 0
    learner_wins: float = 0.0
    learner_games: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"pool": 0.0, "learner": 0.0, "opponents": 0.0,
                                                                "bookkeeping": 0.0})


class Collector:
    """Steps the pool and gathers the learner's rows (module docstring); keeps the games running across rollouts."""

    def __init__(
        self,
        pool: RowSource,
        net: PolicyNet,
        opponents: Opponents,
        seats: Owners,
        device: torch.device,
        generator: torch.Generator,
        seed: int,
        deterministic_opponents: bool = False,
        carry: bool = True,
        whole_games: bool = False,
        sight: Sight | None = None,
    ) -> None:
        self.pool, self.net, self.opponents, self.seats = pool, net, opponents, seats
        self.sight = sight
        self.device, self.generator = device, generator
        self.deterministic_opponents = deterministic_opponents
        self.obs, self.mask, self.seat = pool.reset(seed)
        self.games = pool.num_games
        self.players = pool.config.players
        self.carry = carry or whole_games
        self.whole_games = whole_games
        self._step = 0
        self._rollout = 0
        width = self.obs.shape[1] + (sight.size if sight is not None else 0)
        self.store = RowStore(width, self.mask.shape[1], capacity=self.games * 16)
        self._last_row = np.full((self.games, self.players), -1, dtype=np.int64)  # each seat's open row (a slot)
        self._episode = np.arange(self.games, dtype=np.int64)  # the episode each game index plays now
        self._next_episode = self.games
        self._ended: list[np.ndarray] = []  # the episodes ended in this rollout

    def _seen(self, rows: np.ndarray) -> np.ndarray:
        """What the learner's network reads at ``rows``: their observations, and the sight's features if any."""
        if self.sight is None:
            plain: np.ndarray = self.obs[rows]
            return plain
        cores = [self.pool.native_core(int(g)) for g in rows]
        extra = self.sight.features(cores, self.seat[rows].astype(np.int64), self.mask[rows])
        return np.concatenate([self.obs[rows], extra], axis=1)

    def _forward_learner(self, seen: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = torch.from_numpy(seen).to(self.device)
        m = torch.from_numpy(self.mask[rows].astype(bool)).to(self.device)
        logits, value = self.net(x)
        scores = masked(logits, m)
        action = choose(logits, m, self.generator)
        logp = torch.log_softmax(scores, 1).gather(1, action[:, None])[:, 0]
        return action.cpu().numpy(), logp.cpu().numpy(), value.cpu().numpy()

    def _values(self, obs: np.ndarray) -> np.ndarray:
        """The current critic's values of stored observations."""
        _, value = self.net(torch.from_numpy(obs).to(self.device))
        out: np.ndarray = value.cpu().numpy()
        return out

    def _forward_opponent(self, policy_id: int, rows: np.ndarray) -> np.ndarray:
        module = self.opponents.module(policy_id)
        snapshot = policy_id in self.opponents.snapshot_ids  # a copy of the learner: it reads what the learner sees
        x = torch.from_numpy(self._seen(rows) if snapshot else self.obs[rows]).to(self.device)
        m = torch.from_numpy(self.mask[rows].astype(bool)).to(self.device)
        logits = module.logits(x)  # type: ignore[operator]
        action: np.ndarray = choose(logits, m, self.generator, self.deterministic_opponents).cpu().numpy()
        return action

    @torch.no_grad()
    def collect(self, steps: int) -> tuple[Batch, RolloutStats]:
        """``steps`` pool steps; the rows this rollout trains on (module docstring) and the rollout's statistics.

        New rows go into the collector's :class:`~training.pool.rows.RowStore` and stay there, in place, while
        they wait for their successor or their game's end (``carry``; with ``whole_games``, every row of a game
        still running). The batch holds the rows to train, in step order, their values from the critic of now, and
        (``carry`` without ``whole_games``) the open rows they bootstrap from, marked ``pending``."""
        games, players, store = self.games, self.players, self.store
        stats = RolloutStats()
        sec = stats.seconds
        everyone = np.arange(games)
        actions = np.empty(games, dtype=np.int32)
        last_row = self._last_row
        made = 0
        self.net.eval()
        for _ in range(steps):
            t0 = time.perf_counter()
            seat = self.seat.astype(np.int64)
            owner = self.seats.owner[everyone, seat]
            learner = np.flatnonzero(owner == LEARNER)
            t1 = time.perf_counter()
            if len(learner):
                seen = self._seen(learner)
                a, logp, value = self._forward_learner(seen, learner)
                rows = store.alloc(len(learner))
                store.obs[rows], store.mask[rows] = seen, self.mask[learner]
                store.action[rows], store.logp[rows], store.value[rows] = a, logp, value
                store.game[rows], store.seat[rows] = learner, seat[learner]
                store.step[rows], store.episode[rows] = self._step, self._episode[learner]
                store.rollout[rows] = self._rollout
                prev = last_row[learner, seat[learner]]
                linked = prev >= 0
                store.next[prev[linked]] = rows[linked]
                last_row[learner, seat[learner]] = rows
                actions[learner] = a
                made += len(learner)
            t2 = time.perf_counter()
            for policy_id in np.unique(owner[owner != LEARNER]):
                rows_o = np.flatnonzero(owner == policy_id)
                actions[rows_o] = self._forward_opponent(int(policy_id), rows_o)
            t3 = time.perf_counter()
            self.obs, self.mask, self.seat, reward, done = self.pool.step(actions)
            t4 = time.perf_counter()
            ended = np.flatnonzero(done)
            if len(ended):
                for s in range(players):
                    last = last_row[ended, s]
                    has = last >= 0
                    store.reward[last[has]] = reward[ended[has], s]
                    store.terminal[last[has]] = True
                mine = self.seats.owner[ended] == LEARNER
                stats.learner_wins += float((reward[ended] > 0)[mine].sum())
                stats.learner_games += int(mine.sum())
                stats.games += len(ended)
                self._ended.append(self._episode[ended].copy())
                self._episode[ended] = self._next_episode + np.arange(len(ended))
                self._next_episode += len(ended)
                last_row[ended] = -1
                self.seats.deal(ended)
            t5 = time.perf_counter()
            sec["pool"] += t4 - t3
            sec["learner"] += t2 - t1
            sec["opponents"] += t3 - t2
            sec["bookkeeping"] += (t1 - t0) + (t5 - t4)
            self._step += 1
        stats.decisions = games * steps
        stats.learner_rows = made
        trained, bootstrap = self._ready()
        batch = self._batch(trained, bootstrap)
        store.free(trained)
        if not self.carry:  # nothing waits: the open rows were trained on their own values
            store.free(bootstrap)
            last_row[:] = -1
        self._rollout += 1
        return batch, stats

    @property
    def carried_rows(self) -> int:
        """The rows stored for a later rollout (made, not trained yet)."""
        return len(self.store)

    def _ready(self) -> tuple[np.ndarray, np.ndarray]:
        """The slots to train now, and the open rows (each trajectory's last, still waiting) they bootstrap from.

        ``whole_games``: the rows of the games that ended (no row of a running game is trained, none bootstraps).
        Else every stored row but the open ones; those are trained too when ``carry`` is off."""
        store, none = self.store, np.empty(0, dtype=np.int64)
        alive = np.flatnonzero(store.alive)
        ended, self._ended = self._ended, []
        if self.whole_games:
            return alive[np.isin(store.episode[alive], np.concatenate(ended) if ended else none)], none
        if not self.carry:
            return alive, none
        open_rows = np.zeros(store.capacity, dtype=bool)
        open_rows[self._last_row[self._last_row >= 0]] = True
        waiting = open_rows[alive]
        trained = alive[~waiting]
        successors = store.next[trained]
        return trained, np.unique(successors[(successors >= 0) & open_rows[np.maximum(successors, 0)]])

    def _batch(self, trained: np.ndarray, bootstrap: np.ndarray) -> Batch:
        """The rows ``trained`` and ``bootstrap`` (pending) in step order, links between them, values of now."""
        store = self.store
        slots = store.in_order(np.concatenate([trained, bootstrap]))
        position = np.full(store.capacity, -1, dtype=np.int64)
        position[slots] = np.arange(len(slots))
        links = store.next[slots]
        next_row = np.where(links >= 0, position[np.maximum(links, 0)], -1)
        value = store.value[slots]
        stale = np.flatnonzero(store.rollout[slots] < self._rollout)
        if len(stale):  # made under an older critic: valued again by today's, as the rows made now were
            value[stale] = self._values(store.obs[slots[stale]])
        steps = store.step[slots]
        step_starts = np.flatnonzero(np.diff(steps, prepend=-1)).tolist() if len(slots) else [0]
        pending = np.zeros(len(slots), dtype=bool)
        pending[position[bootstrap]] = True
        return Batch(store.obs[slots], store.mask[slots], store.action[slots], store.logp[slots], value,
                     store.reward[slots], store.terminal[slots], next_row, store.game[slots], store.seat[slots],
                     step_starts, pending)
