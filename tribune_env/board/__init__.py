"""The drawn board: the whole table as SVG (:func:`board_svg`) and as a fixed-size RGB frame (:func:`board_rgb`).

This package reads the engine, data and codec only. Rasterising needs the ``render`` extra
(``pip install -e '.[render]'`` in a checkout); SVG does not.
"""

from __future__ import annotations

from tribune_env.board.raster import FRAME_SHAPE, board_rgb, svg_to_rgb
from tribune_env.board.scene import Scene, scene
from tribune_env.board.style import HEIGHT as BOARD_HEIGHT
from tribune_env.board.style import WIDTH as BOARD_WIDTH
from tribune_env.board.svg import board_svg, scene_svg

__all__ = [
    "BOARD_HEIGHT",
    "BOARD_WIDTH",
    "FRAME_SHAPE",
    "Scene",
    "board_rgb",
    "board_svg",
    "scene",
    "scene_svg",
    "svg_to_rgb",
]
