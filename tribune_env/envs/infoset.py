"""What a seat may use at its decision beyond its view: :class:`InfoSet`.

Search agents need full game states to simulate, and policy agents need the
codec's observation. Both are derived here from the true game through
functions that are tested not to leak: :func:`~tribune_env.engine.determinize.resample`
(hidden cards dealt afresh, R1/R2) and the observation encoder.
"""

from __future__ import annotations

import random

import numpy as np

from tribune_env.codec.actions import ActionCodec, codec_for
from tribune_env.codec.observation import ObservationEncoder, encoder_for
from tribune_env.engine.determinize import resample
from tribune_env.engine.game import Game


class InfoSet:
    """The information set of ``seat`` in ``game``, as an agent may use it.

    The agent never gets ``game`` itself: :meth:`sample` deals everything
    hidden from the seat at random, and :meth:`observation` encodes only what
    the seat may see.
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    def sample(self, rng: random.Random) -> Game:
        """A full game consistent with everything this seat knows (a determinization)."""
        return Game(resample(self._game.state, self.seat, rng))

    @property
    def encoder(self) -> ObservationEncoder:
        config = self._game.config
        return encoder_for(config.components, config.round_limit)

    @property
    def codec(self) -> ActionCodec:
        return codec_for(self._game.config.components)

    def observation(self) -> np.ndarray:
        """The codec's observation vector of this seat (see ``docs/observation.md``)."""
        return self.encoder.encode(self._game.state, self.seat)

    def action_mask(self) -> np.ndarray:
        """The codec's action mask of this seat (int8, 1 = legal)."""
        game = self._game
        return self.codec.mask(game.legal_actions(), self.seat, game.num_players)
