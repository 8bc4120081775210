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
from tribune_env.codec.space import Space
from tribune_env.engine.game import Game


class InfoSet:
    """The information set of ``seat`` in ``game``, as an agent may use it.

    The agent never gets ``game`` itself: :meth:`sample` deals everything
    hidden from the seat at random, and :meth:`observation` encodes only what
    the seat may see. ``space``: the :class:`Space` of :meth:`observation` and :meth:`action_mask` (default: the
    spaces of the game's rule set, :meth:`Space.for_rules`).
    """

    __slots__ = ("_game", "seat", "space")

    def __init__(self, game: Game, seat: int, space: Space | str | None = None) -> None:
        self._game = game
        self.seat = seat
        self.space = Space.for_rules(game.config.rules) if space is None else Space.parse(space)

    def sample(self, rng: random.Random) -> Game:
        """A full game consistent with everything this seat knows (a determinization)."""
        return self._game.determinized(self.seat, rng)

    @property
    def encoder(self) -> ObservationEncoder:
        return self.encoder_of(self.space)

    @property
    def codec(self) -> ActionCodec:
        return codec_for(self._game.config.components, self.space)

    def encoder_of(self, space: Space | str) -> ObservationEncoder:
        """The encoder of ``space`` for this game."""
        config = self._game.config
        return encoder_for(config.components, config.round_limit, space)

    def observation(self, space: Space | str | None = None) -> np.ndarray:
        """The observation vector of this seat in ``space`` (default: :attr:`space`): ``docs/observation.md``, or
        ``docs/observation-expansion.md`` for the expansion spaces."""
        return self.encoder_of(self.space if space is None else space).encode_game(self._game, self.seat)

    def action_mask(self, space: Space | str | None = None) -> np.ndarray:
        """The action mask of this seat (int8, 1 = legal) in ``space`` (default: :attr:`space`)."""
        game = self._game
        codec = codec_for(game.config.components, self.space if space is None else space)
        return codec.mask(game.legal_actions(), self.seat, game.num_players)
