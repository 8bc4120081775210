"""The observation and the action mask of one seat together: what an environment's step hands its agent."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tribune_env.engine import native

if TYPE_CHECKING:
    from tribune_env.codec.actions import ActionCodec
    from tribune_env.codec.observation import ObservationEncoder
    from tribune_env.engine.game import Game


def observe_game(
    encoder: ObservationEncoder,
    codec: ActionCodec,
    game: Game,
    seat: int,
    obs: np.ndarray | None = None,
    mask: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(encoder.encode_game(game, seat), codec.mask_game(game, seat))`` with the same entries, in one native call
    on a native game (one crossing into the core instead of two).

    ``obs`` (float32, length ``encoder.size``) and ``mask`` (int8, uint8 or bool, length ``codec.n``) are written
    and returned when given; new arrays otherwise. The mask is all zero when another seat or nobody is to act.
    """
    core = game.native_core
    if core is not None:
        pair: tuple[np.ndarray, np.ndarray] = native.core_module.observe(
            encoder.native_encoder(), codec.native_codec(), core, seat, obs, mask
        )
        return pair
    row = encoder.encode_game(game, seat, obs)
    legal = codec.mask_game(game, seat)
    if mask is None:
        return row, legal
    mask[:] = legal
    return row, mask
