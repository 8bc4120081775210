"""The pool loop: every seat of ``games`` games stepped in one :class:`TribunePool`, one batched forward per policy.

Each step the rows are grouped by the policy that owns the deciding seat (:class:`~training.pool.opponents.SeatTable`);
the learner's rows (the deciding seat's own observation, its mask, the sampled action, its log-probability and the
value) are stored with the link to that seat's previous decision in the same game (:mod:`training.pool.gae`);
opponents' rows are only played. No Python object is made per decision.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import torch

from training.pool.gae import newest_blocks
from training.pool.network import PolicyNet, choose, masked
from training.pool.opponents import LEARNER, Opponents, SeatTable
from tribune_env.envs.pool import TribunePool


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
    """Rows whose seat had not decided again nor seen its game end when the rollout stopped: carried into the next
    rollout (where their successor or their result is known) and left out of this one's update; None: none."""

    def __len__(self) -> int:
        return len(self.action)

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
        pool: TribunePool,
        net: PolicyNet,
        opponents: Opponents,
        seats: SeatTable,
        device: torch.device,
        generator: torch.Generator,
        seed: int,
        deterministic_opponents: bool = False,
        carry: bool = True,
        whole_games: bool = False,
    ) -> None:
        self.pool, self.net, self.opponents, self.seats = pool, net, opponents, seats
        self.device, self.generator = device, generator
        self.deterministic_opponents = deterministic_opponents
        self.obs, self.mask, self.seat = pool.reset(seed)
        self.games = pool.num_games
        self.players = pool.config.players
        self.carry = carry or whole_games
        self.whole_games = whole_games
        self._step = 0
        self._carried: dict[str, np.ndarray] | None = None

    def _forward_learner(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = torch.from_numpy(self.obs[rows]).to(self.device)
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
        x = torch.from_numpy(self.obs[rows]).to(self.device)
        m = torch.from_numpy(self.mask[rows].astype(bool)).to(self.device)
        logits = module.logits(x)  # type: ignore[operator]
        action: np.ndarray = choose(logits, m, self.generator, self.deterministic_opponents).cpu().numpy()
        return action

    @torch.no_grad()
    def collect(self, steps: int) -> tuple[Batch, RolloutStats]:
        """``steps`` pool steps; the learner's rows and the rollout's statistics."""
        games, players = self.games, self.players
        carried = self._carried if self.carry else None
        self._carried = None
        n_carried = 0 if carried is None else len(carried["action"])
        cap = games * steps + n_carried
        obs_size, n_actions = self.obs.shape[1], self.mask.shape[1]
        obs_buf = np.empty((cap, obs_size), dtype=np.float32)
        mask_buf = np.empty((cap, n_actions), dtype=bool)
        action_buf = np.empty(cap, dtype=np.int64)
        logp_buf = np.empty(cap, dtype=np.float32)
        value_buf = np.empty(cap, dtype=np.float32)
        reward_buf = np.zeros(cap, dtype=np.float32)
        terminal_buf = np.zeros(cap, dtype=bool)
        next_buf = np.full(cap, -1, dtype=np.int64)
        game_buf = np.empty(cap, dtype=np.int64)
        seat_buf = np.empty(cap, dtype=np.int64)
        last_row = np.full((games, players), -1, dtype=np.int64)
        step_starts: list[int] = []
        stats = RolloutStats()
        sec = stats.seconds
        everyone = np.arange(games)
        n = 0
        actions = np.empty(games, dtype=np.int32)
        step_buf = np.empty(cap, dtype=np.int64)
        if carried is not None and n_carried:
            # the previous rollout's pending rows come first, in their step order, each open trajectory's last row
            # linked as its seat's last decision
            obs_buf[:n_carried], mask_buf[:n_carried] = carried["obs"], carried["mask"]
            action_buf[:n_carried], logp_buf[:n_carried] = carried["action"], carried["logp"]
            value_buf[:n_carried] = self._values(carried["obs"])
            game_buf[:n_carried], seat_buf[:n_carried] = carried["game"], carried["seat"]
            next_buf[:n_carried], step_buf[:n_carried] = carried["next_row"], carried["step"]
            step_starts.extend(np.flatnonzero(np.diff(carried["step"], prepend=-1)).tolist())
            open_end = np.flatnonzero(carried["next_row"] < 0)
            last_row[carried["game"][open_end], carried["seat"][open_end]] = open_end
            n = n_carried
        self.net.eval()
        for _ in range(steps):
            t0 = time.perf_counter()
            seat = self.seat.astype(np.int64)
            owner = self.seats.owner[everyone, seat]
            step_starts.append(n)
            learner = np.flatnonzero(owner == LEARNER)
            t1 = time.perf_counter()
            if len(learner):
                a, logp, value = self._forward_learner(learner)
                k = len(learner)
                rows = np.arange(n, n + k)
                obs_buf[n : n + k] = self.obs[learner]
                mask_buf[n : n + k] = self.mask[learner]
                action_buf[n : n + k], logp_buf[n : n + k], value_buf[n : n + k] = a, logp, value
                game_buf[n : n + k], seat_buf[n : n + k] = learner, seat[learner]
                step_buf[n : n + k] = self._step
                prev = last_row[learner, seat[learner]]
                linked = prev >= 0
                next_buf[prev[linked]] = rows[linked]
                last_row[learner, seat[learner]] = rows
                actions[learner] = a
                n += k
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
                    reward_buf[last[has]] = reward[ended[has], s]
                    terminal_buf[last[has]] = True
                mine = self.seats.owner[ended] == LEARNER
                stats.learner_wins += float((reward[ended] > 0)[mine].sum())
                stats.learner_games += int(mine.sum())
                stats.games += len(ended)
                last_row[ended] = -1
                self.seats.deal(ended)
            t5 = time.perf_counter()
            sec["pool"] += t4 - t3
            sec["learner"] += t2 - t1
            sec["opponents"] += t3 - t2
            sec["bookkeeping"] += (t1 - t0) + (t5 - t4)
            self._step += 1
        stats.decisions = games * steps
        stats.learner_rows = n - n_carried
        pending = None
        if self.carry:
            pending = self._pending(next_buf[:n], terminal_buf[:n], last_row, step_starts)
            rows = np.flatnonzero(pending)
            position = np.full(n, -1, dtype=np.int64)
            position[rows] = np.arange(len(rows))
            links = next_buf[rows]
            self._carried = {
                "obs": obs_buf[rows].copy(), "mask": mask_buf[rows].copy(), "action": action_buf[rows].copy(),
                "logp": logp_buf[rows].copy(), "game": game_buf[rows].copy(), "seat": seat_buf[rows].copy(),
                "next_row": np.where(links >= 0, position[np.maximum(links, 0)], -1), "step": step_buf[rows].copy(),
            }
        batch = Batch(
            obs_buf[:n], mask_buf[:n], action_buf[:n], logp_buf[:n], value_buf[:n], reward_buf[:n],
            terminal_buf[:n], next_buf[:n], game_buf[:n], seat_buf[:n], step_starts, pending,
        )
        return batch, stats

    def _pending(
        self, next_row: np.ndarray, terminal: np.ndarray, last_row: np.ndarray, step_starts: list[int]
    ) -> np.ndarray:
        """The rows carried into the next rollout: each open trajectory's last row, or (``whole_games``) every row
        of a trajectory whose game has not ended (its chain of ``next_row`` links does not reach a terminal row)."""
        n = len(next_row)
        pending = np.zeros(n, dtype=bool)
        pending[last_row[last_row >= 0]] = True
        if not self.whole_games:
            return pending
        has_next = next_row >= 0
        nxt = np.where(has_next, next_row, 0)
        for lo, hi in newest_blocks(step_starts, n):
            pending[lo:hi] |= has_next[lo:hi] & pending[nxt[lo:hi]]
        return pending
