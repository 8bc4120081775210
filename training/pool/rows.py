"""The learner's rows kept in place across rollouts, until their update.

A row (the deciding seat's observation, its mask, the sampled action, its log-probability, the critic's value when
it was made) is written once into a free slot and stays there until a rollout trains on it; its slot is then free
for a new row. Rows of games still running are never copied from rollout to rollout, and their values are computed
again only in the rollout that trains them (:meth:`training.pool.rollout.Collector.collect`). Each row links to its
seat's next decision in the same game (``next``, a slot, or -1), carries its game's episode number (a game index is
dealt again after it ends) and the pool step it was made at, which orders a batch for
:func:`~training.pool.gae.advantages`.
"""

from __future__ import annotations

import numpy as np

_FIELDS = ("obs", "mask", "action", "logp", "value", "reward", "terminal", "next", "game", "seat", "step",
           "episode", "rollout")


class RowStore:
    """Slots for learner rows: :meth:`alloc` takes free slots (lowest first on a fresh store), :meth:`free` gives them
    back; the arrays grow (doubling) when the free slots run out, keeping every stored row where it was."""

    def __init__(self, obs_size: int, n_actions: int, capacity: int = 1024) -> None:
        capacity = max(capacity, 1)
        self.obs = np.empty((capacity, obs_size), dtype=np.float32)
        self.mask = np.empty((capacity, n_actions), dtype=bool)
        self.action = np.empty(capacity, dtype=np.int64)
        self.logp = np.empty(capacity, dtype=np.float32)
        self.value = np.empty(capacity, dtype=np.float32)
        self.reward = np.zeros(capacity, dtype=np.float32)
        self.terminal = np.zeros(capacity, dtype=bool)
        self.next = np.full(capacity, -1, dtype=np.int64)
        self.game = np.empty(capacity, dtype=np.int64)
        self.seat = np.empty(capacity, dtype=np.int64)
        self.step = np.empty(capacity, dtype=np.int64)
        self.episode = np.empty(capacity, dtype=np.int64)
        self.rollout = np.empty(capacity, dtype=np.int64)
        self.alive = np.zeros(capacity, dtype=bool)
        self._free = np.arange(capacity - 1, -1, -1, dtype=np.int64)  # a stack: the lowest slot on top
        self._n_free = capacity

    @property
    def capacity(self) -> int:
        return len(self.alive)

    def __len__(self) -> int:
        """The rows stored (made and not yet freed)."""
        return self.capacity - self._n_free

    def _grow(self, needed: int) -> None:
        old = self.capacity
        new = max(2 * old, old + needed)
        for name in (*_FIELDS, "alive"):
            array = getattr(self, name)
            grown = np.empty((new, *array.shape[1:]), dtype=array.dtype)
            grown[:old] = array
            setattr(self, name, grown)
        self.reward[old:], self.terminal[old:], self.next[old:], self.alive[old:] = 0.0, False, -1, False
        # the new slots go under the free ones still on the stack, lowest on top
        free = np.empty(new, dtype=np.int64)
        free[: new - old] = np.arange(new - 1, old - 1, -1)
        free[new - old : new - old + self._n_free] = self._free[: self._n_free]
        self._free = free
        self._n_free += new - old

    def alloc(self, k: int) -> np.ndarray:
        """``k`` free slots, marked alive, with no link, reward or end yet."""
        if k > self._n_free:
            self._grow(k - self._n_free)
        slots = self._free[self._n_free - k : self._n_free][::-1].copy()
        self._n_free -= k
        self.alive[slots] = True
        return slots

    def free(self, slots: np.ndarray) -> None:
        """Give ``slots`` back (their rows are gone)."""
        if len(slots) == 0:
            return
        if not self.alive[slots].all():
            raise ValueError("freeing a slot that holds no row")
        self.alive[slots] = False
        self.reward[slots], self.terminal[slots], self.next[slots] = 0.0, False, -1
        self._free[self._n_free : self._n_free + len(slots)] = np.sort(slots)[::-1]
        self._n_free += len(slots)

    def in_order(self, slots: np.ndarray) -> np.ndarray:
        """``slots`` ordered by the step their rows were made at (then by slot): a row's successor comes later."""
        slots = np.sort(slots)
        return slots[np.argsort(self.step[slots], kind="stable")]

    def stored(self) -> np.ndarray:
        """Every stored row's slot, in step order."""
        return self.in_order(np.flatnonzero(self.alive))
