"""Reward schemes: the end-of-game reward of every seat, computed from a finished game.

A scheme is any callable ``(game) -> sequence of floats``, one per seat; the
named schemes are:

* ``win_loss`` (default, zero-sum): a sole winner gets +1 and every other player
  -1/(n-1); k tied winners share, each getting (n-k)/(k(n-1)); if everybody wins,
  everybody gets 0.
* ``rank`` (zero-sum without ties): 1 - 2(rank-1)/(n-1), so +1 for first and -1
  for last; tied players share the better rank (:meth:`Game.ranks`).
* ``score_margin``: own score minus the best score among the others, in points
  of the scoring table (not zero-sum; positive only for the top scorer).

A truncated game (round limit, R25) is scored the same way: its winners are
decided by score among all players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tribune_env.engine.game import Game

RewardFn = Callable[[Game], Sequence[float]]


def win_loss(game: Game) -> list[float]:
    n = game.num_players
    winners = set(game.winners)
    k = len(winners)
    if k == 0 or k == n:
        return [0.0] * n
    share = (n - k) / (k * (n - 1))
    return [share if seat in winners else -1.0 / (n - 1) for seat in range(n)]


def rank(game: Game) -> list[float]:
    n = game.num_players
    return [1.0 - 2.0 * (r - 1) / (n - 1) for r in game.ranks()]


def score_margin(game: Game) -> list[float]:
    total = game.scores()
    return [float(s - max(t for j, t in enumerate(total) if j != seat)) for seat, s in enumerate(total)]


SCHEMES: dict[str, RewardFn] = {"win_loss": win_loss, "rank": rank, "score_margin": score_margin}


def reward_fn(scheme: str | RewardFn) -> RewardFn:
    """The scheme of a name or a callable; a clear error for an unknown name."""
    if callable(scheme):
        return scheme
    try:
        return SCHEMES[scheme]
    except (KeyError, TypeError):
        choices = sorted(SCHEMES)
        raise ValueError(f"reward: unknown scheme {scheme!r}; choose one of {choices} or pass a callable") from None
