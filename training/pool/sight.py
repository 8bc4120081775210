"""What the learner sees beside its observation (``network.sight``): features of each row's game, appended to the
deciding seat's observation before the learner's network reads it.

- ``forecast``: where each other seat would move now. On a deal resampled from the deciding seat's view (what it
  cannot see is drawn again, so nothing hidden is read), each other seat's observation goes through an opponent
  model (``network.forecast_model``, a network file such as the distilled ``heuristic``); its move probabilities,
  over the deciding seat's legal actions, are the features: ``players - 1`` blocks of the codec's size, the seats in
  turn order after the deciding one. This is what the search computes and the observation does not show: how the
  table would answer.
- ``hands``: the other seats' hands (the ``hand`` piece of their own observations), in the same order. An oracle: it
  reads hidden cards, so a network trained with it cannot sit at a table; it measures how much the hidden
  information holds the learner back.

A network with a sight reads more than the observation, so no agent can play it: the trainer refuses to evaluate or
ship it through the agents (:func:`training.pool.config.load_pool_config` checks this), and measures it by its
training win rate at the agent tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from agents.ppo import NumpyPolicy, load_policy
from agents.zero import masked_softmax
from tribune_env.codec.observation import ObservationEncoder
from tribune_env.engine.config import GameConfig

SIGHTS = ("none", "forecast", "hands")


class Sight(Protocol):
    """Features of rows: ``features(cores, seats, masks)`` is float32 ``(len(cores), size)``."""

    size: int

    def features(self, cores: Sequence[Any], seats: np.ndarray, masks: np.ndarray) -> np.ndarray: ...


def _others(seat: int, players: int) -> list[int]:
    """The other seats, in turn order after ``seat``."""
    return [(seat + k) % players for k in range(1, players)]


class Hands:
    """The other seats' hands (the module docstring's oracle)."""

    def __init__(self, encoder: ObservationEncoder, players: int) -> None:
        hand = next(p for p in encoder.pieces if p.name == "hand")
        self._start, self._width = hand.start, hand.size
        self._native, self._players, self._size = encoder.native_encoder(), players, encoder.size
        self.size = (players - 1) * hand.size

    def features(self, cores: Sequence[Any], seats: np.ndarray, masks: np.ndarray) -> np.ndarray:
        out = np.zeros((len(cores), self._players - 1, self._width), dtype=np.float32)
        obs = np.empty(self._size, dtype=np.float32)
        for row, (core, seat) in enumerate(zip(cores, seats.tolist(), strict=True)):
            for k, other in enumerate(_others(seat, self._players)):
                self._native.encode_into(core, other, obs)
                out[row, k] = obs[self._start : self._start + self._width]
        return out.reshape(len(cores), self.size)


class Forecast:
    """Each other seat's move probabilities by an opponent model on a resampled deal (the module docstring).

    Args:
        model: the opponent model (its observation and actions those of the game).
        encoder: the game's observation encoder.
        players: the seats of the game.
        seed: the seed of the resampling draws (CPython's ``random``, as the native core's sampler takes).
    """

    def __init__(self, model: NumpyPolicy, encoder: ObservationEncoder, players: int, seed: int) -> None:
        if model.obs_size != encoder.size:
            raise ValueError(f"forecast model {model.source}: observation of {model.obs_size} entries, the game's "
                             f"has {encoder.size}")
        self.model, self._native, self._players = model, encoder.native_encoder(), players
        self._obs_size, self._actions = encoder.size, model.n_actions
        self.size = (players - 1) * model.n_actions
        self._rng = random.Random(seed)

    def features(self, cores: Sequence[Any], seats: np.ndarray, masks: np.ndarray) -> np.ndarray:
        n, others = len(cores), self._players - 1
        obs = np.empty((n, others, self._obs_size), dtype=np.float32)
        for row, (core, seat) in enumerate(zip(cores, seats.tolist(), strict=True)):
            drawn = core.resample(seat, self._rng)
            for k, other in enumerate(_others(seat, self._players)):
                self._native.encode_into(drawn, other, obs[row, k])
        logits = self.model.logits(obs.reshape(n * others, self._obs_size)).reshape(n, others, self._actions)
        probs = masked_softmax(logits, np.asarray(masks, dtype=bool)[:, None, :])  # a deciding seat has a legal move
        return probs.reshape(n, self.size)


class Scaled:
    """A sight's features times ``scale`` (``network.sight_scale``)."""

    def __init__(self, sight: Sight, scale: float) -> None:
        self.sight, self.scale, self.size = sight, scale, sight.size

    def features(self, cores: Sequence[Any], seats: np.ndarray, masks: np.ndarray) -> np.ndarray:
        out: np.ndarray = self.sight.features(cores, seats, masks) * np.float32(self.scale)
        return out


def make_sight(name: str, config: GameConfig, encoder: ObservationEncoder, model_path: str, seed: int,
               scale: float = 1.0) -> Sight | None:
    """The sight ``name`` (one of :data:`SIGHTS`; ``none``: None) for games of ``config``, its features times
    ``scale``."""
    sight: Sight
    if name == "none":
        return None
    if name == "hands":
        sight = Hands(encoder, config.players)
    elif name == "forecast":
        sight = Forecast(load_policy(model_path, config), encoder, config.players, seed)
    else:
        raise ValueError(f"network.sight: {name!r} is not one of {', '.join(SIGHTS)}")
    return sight if scale == 1.0 else Scaled(sight, scale)
