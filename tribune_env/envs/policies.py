"""Opponents inside the single-agent wrapper.

An opponent is either

* an **observation policy**: a callable ``(observation, action_mask) -> int``
  over the codec's integers (for example a trained SB3 model, see
  :func:`model_policy`), or
* a **view agent**: an object with ``act(view, legal, info) -> Action`` that gets the
  seat's :class:`~tribune_env.engine.view.PlayerView` and the typed legal
  choices (the interface of the reference agents).

Either may have a ``seed(int)`` method; the wrapper calls it on every seeded
reset so that whole episodes replay from one seed. An observation policy that
needs only the mask may also define ``from_mask(mask) -> int``; the wrapper then
calls that and skips encoding an observation (:class:`RandomPolicy` does).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from tribune_env.engine.actions import Action
from tribune_env.engine.view import PlayerView
from tribune_env.envs.infoset import InfoSet

if TYPE_CHECKING:
    from tribune_env.envs.table import Table

ObsPolicy = Callable[[np.ndarray, np.ndarray], int]


@runtime_checkable
class ViewAgent(Protocol):
    """An agent deciding from its view and the legal choices; ``info`` gives search and policy agents
    sampled full states and the codec's observation (see :class:`~tribune_env.envs.infoset.InfoSet`)."""

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action: ...


Opponent = ObsPolicy | ViewAgent


class RandomPolicy:
    """Uniform over the legal actions of the mask, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.from_mask(action_mask)

    def from_mask(self, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomPolicy: the action mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

    def from_indices(self, legal: Sequence[int]) -> int:
        """The choice :meth:`from_mask` makes for the mask with 1 at the sorted, distinct indices ``legal``
        (the same draw from the generator), without building the mask."""
        if not legal:
            raise ValueError("RandomPolicy: the action mask allows no action")
        return legal[int(self.rng.integers(len(legal)))]


def model_policy(model: Any, deterministic: bool = True) -> ObsPolicy:
    """An observation policy from a model with SB3's ``predict(obs, action_masks=...)`` (e.g. MaskablePPO)."""

    def policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=action_mask.astype(bool), deterministic=deterministic)
        return int(action)

    return policy


def opponent_kind(opponent: Any) -> str:
    """How an opponent is called: "view" (act with info), "view2" (act(view, legal)), "random" (a plain
    :class:`RandomPolicy`), "mask" or "observation"."""
    if isinstance(opponent, ViewAgent):
        try:
            inspect.signature(opponent.act).bind(None, None, None)
        except TypeError:
            return "view2"
        return "view"
    if type(opponent) is RandomPolicy:  # not a subclass, which may pick differently
        return "random"
    return "mask" if hasattr(opponent, "from_mask") else "observation"


def play_opponent(table: Table, opponent: Any, kind: str, seat: int, who: str) -> None:
    """Let ``opponent`` (called as :func:`opponent_kind` says) play the decision of ``seat`` on ``table``.

    Raises:
        IllegalMoveError: the opponent's choice is not legal (the message names ``who``); the game is unchanged.
    """
    game = table.game
    if kind == "view":
        table.play_typed(opponent.act(game.view(seat), game.legal_actions(), table.infoset(seat)), seat, who)
    elif kind == "view2":  # an older two-argument act(view, legal)
        table.play_typed(opponent.act(game.view(seat), game.legal_actions()), seat, who)
    elif kind == "random":  # RandomPolicy's own choice from the sorted legal indices: no mask array built
        table.play(opponent.from_indices(sorted(set(table.legal_indices(seat)))), seat, who)
    elif kind == "mask":  # needs no observation: skip encoding one
        table.play(opponent.from_mask(table.mask(seat)), seat, who)
    else:
        table.play(opponent(table.observation(seat), table.mask(seat)), seat, who)
