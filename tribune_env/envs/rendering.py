"""``render_mode="rgb_array"``: the drawn board (:func:`tribune_env.board.board_rgb`), for video recorders.

Every frame has the shape :data:`~tribune_env.board.FRAME_SHAPE` whatever the game, so Gymnasium's
``RecordVideo`` and Stable-Baselines3's video recorder can write a whole game. The frame is seat-neutral: the whole
table with every hand face down. Rasterising needs the ``render`` extra (``pip install -e '.[render]'``).
"""

from __future__ import annotations

import numpy as np

from tribune_env.board import FRAME_SHAPE, board_rgb
from tribune_env.engine.game import Game

__all__ = ["FRAME_SHAPE", "board_frame"]


def board_frame(game: Game) -> np.ndarray:
    """The ``FRAME_SHAPE`` uint8 frame of ``game``; ImportError naming the ``render`` extra without a rasteriser."""
    return board_rgb(game)
