"""Generalised advantage estimation along each (game, learner seat) trajectory of a rollout.

The learner's rows of a rollout are stored step by step; ``next_row[i]`` links a row to the same seat's next decision
in the same game (or -1). A row whose game ended before that seat decided again is ``terminal`` and carries the
seat's ``win_loss`` result in ``reward`` (all other rewards are 0). A row with neither a successor nor an end (the
rollout stopped first) is bootstrapped with its own value, so its TD error is 0; with ``ppo.carry_pending`` such
rows are left out of the update and carried into the next rollout, where they get their successor or their result
(without it a result that came after the cut was lost: about 13% of the learner's games at ``ppo.steps`` 32), and
with ``ppo.whole_games`` (the default) so is every row of a game still running.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def newest_blocks(step_starts: list[int], n: int) -> Iterator[tuple[int, int]]:
    """The ``(lo, hi)`` row ranges of the step blocks of ``n`` rows, newest first (a row's successor always lies in
    a later block, so a pass in this order sees every successor before its predecessor)."""
    bounds = [*step_starts, n]
    for k in range(len(step_starts) - 1, -1, -1):
        yield bounds[k], bounds[k + 1]


def advantages(
    value: np.ndarray,
    reward: np.ndarray,
    terminal: np.ndarray,
    next_row: np.ndarray,
    step_starts: list[int],
    gamma: float,
    lam: float,
) -> tuple[np.ndarray, np.ndarray]:
    """GAE advantages and returns (advantage + value) of ``len(value)`` rows.

    ``step_starts`` are the first rows of each step block (rows of one step never link to one another; a successor
    is always in a later block), so the blocks are processed newest first with vectorised numpy.
    """
    n = len(value)
    has_next = next_row >= 0
    if np.any(next_row[has_next] <= np.flatnonzero(has_next)):
        raise ValueError("next_row must point to later rows")
    if np.any(has_next & terminal):
        raise ValueError("a terminal row cannot have a successor")
    nxt = np.where(has_next, next_row, 0)
    next_value = np.where(has_next, value[nxt], np.where(terminal, 0.0, value))
    delta = reward + gamma * next_value - value
    adv = np.zeros(n, dtype=np.float64)
    for lo, hi in newest_blocks(step_starts, n):
        if lo == hi:
            continue
        block_next = has_next[lo:hi]
        carried = np.where(block_next, adv[nxt[lo:hi]], 0.0)
        adv[lo:hi] = delta[lo:hi] + gamma * lam * carried
    adv32 = adv.astype(np.float32)
    return adv32, (adv32 + value).astype(np.float32)
