"""Integers and arrays for learning code: the action codec and the observation encoder.

This layer sits between the engine (typed actions, game state) and the RL
environments; it uses numpy only, so any framework can build on it. :class:`Space`
names the two sets of spaces (base, expansion) and maps a rule set to its own.
"""

from tribune_env.codec.actions import BID_CAP, ActionCodec, ActionDecodeError, Block, codec_for
from tribune_env.codec.observation import ObservationEncoder, Piece, Scales, encoder_for
from tribune_env.codec.observe import observe_game
from tribune_env.codec.space import Space

__all__ = [
    "BID_CAP",
    "ActionCodec",
    "ActionDecodeError",
    "Block",
    "ObservationEncoder",
    "Piece",
    "Scales",
    "Space",
    "codec_for",
    "encoder_for",
    "observe_game",
]
