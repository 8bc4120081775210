"""Integers and arrays for learning code: the action codec and the observation encoder.

This layer sits between the engine (typed actions, game state) and the RL
environments; it uses numpy only, so any framework can build on it.
"""

from tribune_env.codec.actions import BID_CAP, ActionCodec, ActionDecodeError, Block, codec_for
from tribune_env.codec.observation import ObservationEncoder, Piece, Scales, encoder_for

__all__ = [
    "BID_CAP",
    "ActionCodec",
    "ActionDecodeError",
    "Block",
    "ObservationEncoder",
    "Piece",
    "Scales",
    "codec_for",
    "encoder_for",
]
