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

    __slots__ = ("_game", "expansion", "seat")

    def __init__(self, game: Game, seat: int, expansion: bool | None = None) -> None:
        self._game = game
        self.seat = seat
        #: whether :meth:`observation` and :meth:`action_mask` use the expansion spaces (default: the game's rules)
        self.expansion = game.config.expansion if expansion is None else expansion

    def sample(self, rng: random.Random) -> Game:
        """A full game consistent with everything this seat knows (a determinization)."""
        return Game(resample(self._game.state, self.seat, rng))

    @property
    def encoder(self) -> ObservationEncoder:
        return self.encoder_of(self.expansion)

    @property
    def codec(self) -> ActionCodec:
        return codec_for(self._game.config.components, self.expansion)

    def encoder_of(self, expansion: bool) -> ObservationEncoder:
        """The encoder of the base (``False``) or expansion (``True``) spaces for this game."""
        config = self._game.config
        return encoder_for(config.components, config.round_limit, expansion)

    def observation(self, expansion: bool | None = None) -> np.ndarray:
        """The observation vector of this seat (``docs/observation.md``, or ``docs/observation-expansion.md`` for
        the expansion spaces; default: :attr:`expansion`)."""
        return self.encoder_of(self.expansion if expansion is None else expansion).encode(self._game.state, self.seat)

    def action_mask(self, expansion: bool | None = None) -> np.ndarray:
        """The action mask of this seat (int8, 1 = legal) in the base or expansion action space."""
        game = self._game
        codec = codec_for(game.config.components, self.expansion if expansion is None else expansion)
        return codec.mask(game.legal_actions(), self.seat, game.num_players)
