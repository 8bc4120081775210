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

Dense rewards (:class:`DenseReward`, ``reward="dense"`` or ``"dense:<scheme>"``,
e.g. ``"dense:rank"``; ``"dense"`` is ``"dense:win_loss"``): besides the end-of-game
result of the named scheme, every step of the game pays each seat the change of
its tie-break score (:meth:`Game.scores`, the points of the scoring table with
the "first to fulfil" bonus) divided by :attr:`DenseReward.scale` (by default
the observation's score scale, ``Scales.score``: every scoring item at twice the
largest victory-card targets; one step's change is a small fraction of 1, a
game that ends by its victory card changes a seat's score by about 0 to 1, and
only long games, cut at the round limit, go beyond). A seat collects it at its next decision (AEC: through
``_cumulative_rewards``; single-agent: in the reward of its ``step``), and the
last one with the final result. Over an episode a seat's rewards add up to
(final score - score at its start) / scale + final result; the single-agent
environment counts from the learner's first observation.

What this changes for learning: the score is only a proxy. It gives a signal
at every decision (useful early in training, when the end-of-game result of
500-700 decisions is nearly noise), but it is *shaped*, not the game's
objective: the winner is decided by the victory card first (R23) and the score
only among contenders, and a policy can learn to collect points instead of
meeting the card. Use it to bootstrap, then train on (or evaluate with) the
plain scheme; compare policies only on the game result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


DENSE = "dense"
"""The name of the dense form (:class:`DenseReward`): ``"dense"`` or ``"dense:<scheme>"``."""


@dataclass(frozen=True)
class DenseReward:
    """A dense reward: the change of each seat's tie-break score at every step (divided by ``scale``), and
    ``final``'s result at the end (module docstring). Called on a finished game it gives ``final``'s result.

    ``scale``: ``None`` for the observation's score scale of the environment (``Scales.score``).
    """

    final: RewardFn = win_loss
    scale: float | None = None

    def __post_init__(self) -> None:
        if self.scale is not None and not self.scale > 0:
            raise ValueError(f"reward: the dense scale must be positive, got {self.scale!r}")

    def __call__(self, game: Game) -> Sequence[float]:
        return self.final(game)


def dense_names() -> list[str]:
    """Every name of a dense scheme."""
    return [DENSE] + [f"{DENSE}:{name}" for name in sorted(SCHEMES)]


def reward_fn(scheme: str | RewardFn) -> RewardFn:
    """The scheme of a name or a callable; a clear error for an unknown name."""
    if callable(scheme):
        return scheme
    if scheme == DENSE:
        return DenseReward()
    if isinstance(scheme, str) and scheme.startswith(f"{DENSE}:") and scheme[len(DENSE) + 1 :] in SCHEMES:
        return DenseReward(SCHEMES[scheme[len(DENSE) + 1 :]])
    try:
        return SCHEMES[scheme]
    except (KeyError, TypeError):
        choices = sorted(SCHEMES) + dense_names()
        raise ValueError(f"reward: unknown scheme {scheme!r}; choose one of {choices} or pass a callable") from None
