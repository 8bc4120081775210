"""The board as a fixed-size RGB frame (``render_mode="rgb_array"``), rasterised by resvg (the ``render`` extra)."""

from __future__ import annotations

import io
import math
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from tribune_env.board.pieces import Box
from tribune_env.board.scene import scene
from tribune_env.board.style import FONT, WIDTH
from tribune_env.board.svg import scene_layers
from tribune_env.engine.game import Game
from tribune_env.engine.state import GameState
from tribune_env.extras import missing_extra

FRAME_SHAPE = (640, 1024, 3)
"""(height, width, channels) of every frame, whatever the game: both sides divisible by 16 for video encoders."""


@cache
def _rasteriser() -> Any:
    try:
        import resvg_py
    except ImportError as err:
        raise ImportError(missing_extra("drawing the board as an image", "render", err)) from err
    return resvg_py


@cache
def _fonts() -> list[str]:
    """The DejaVu fonts shipped with matplotlib: the same letters on every machine, no system fonts needed."""
    try:
        import matplotlib
    except ImportError:
        return []
    folder = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf"
    return [str(folder / name) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf") if (folder / name).exists()]


def _png(svg: str, width: int, height: int, background: str | None) -> bytes:
    fonts = _fonts()
    png = _rasteriser().svg_to_bytes(
        svg_string=svg,
        width=width,
        height=height,
        background=background,
        skip_system_fonts=bool(fonts),
        font_files=fonts or None,
        font_family="DejaVu Sans",
    )
    return bytes(png)


def _image(svg: str, shape: tuple[int, int, int], background: str | None) -> Any:
    from PIL import Image  # (comes with matplotlib)

    height, width, _ = shape
    with Image.open(io.BytesIO(_png(svg, width, height, background))) as image:
        out = image.convert("RGBA")
    if out.size != (width, height):  # pragma: no cover - resvg honours width and height
        raise RuntimeError(f"rasteriser returned a {out.size} image, expected {(width, height)}")
    return out


def svg_to_rgb(svg: str, shape: tuple[int, int, int] = FRAME_SHAPE) -> np.ndarray:
    """``svg`` rasterised to a ``shape`` (height, width, 3) uint8 array, on white."""
    return np.asarray(_image(svg, shape, "#ffffff").convert("RGB"))


_FIXED: dict[str, Any] = {}  # the fixed layer's image by its SVG text (one per game configuration)
_SPRITES: dict[str, tuple[int, int, Any]] = {}  # piece -> (left, top, its image), rasterised in its frame place
_KEEP_FIXED, _KEEP_SPRITES = 8, 20_000
ATLAS_WIDTH = 1024


def _fixed_layer(svg: str) -> Any:
    image = _FIXED.get(svg)
    if image is None:
        if len(_FIXED) >= _KEEP_FIXED:
            _FIXED.pop(next(iter(_FIXED)))
        image = _FIXED[svg] = _image(svg, FRAME_SHAPE, "#ffffff").convert("RGB")  # opaque: white background
    return image


def _pixels(box: Box, scale: float) -> tuple[int, int, int, int]:
    """The frame pixels ``box`` covers: left, top, width, height (clipped to the frame, at least 1 x 1)."""
    height, width, _ = FRAME_SHAPE
    x, y, w, h = box
    left, top = max(0, math.floor(x * scale)), max(0, math.floor(y * scale))
    right, bottom = min(width, math.ceil((x + w) * scale)), min(height, math.ceil((y + h) * scale))
    return left, top, max(1, right - left), max(1, bottom - top)


def _rasterise_sprites(pieces: list[tuple[str, Box]], scale: float) -> None:
    """Rasterise ``pieces`` in one resvg call, each in a cell of an atlas drawn exactly as it falls on the frame
    (same pixel grid), and keep them in :data:`_SPRITES`."""
    cells: list[tuple[str, int, int, int, int, int, int]] = []  # piece, atlas x, y, frame left, top, width, height
    ax = ay = row = 0
    nested: list[str] = []
    for piece, box in pieces:
        left, top, w, h = _pixels(box, scale)
        if ax + w > ATLAS_WIDTH:
            ax, ay, row = 0, ay + row, 0
        cells.append((piece, ax, ay, left, top, w, h))
        nested.append(
            f'<svg x="{ax}" y="{ay}" width="{w}" height="{h}" '
            f'viewBox="{left / scale:.4f} {top / scale:.4f} {w / scale:.4f} {h / scale:.4f}">{piece}</svg>'
        )
        ax, row = ax + w, max(row, h)
    size = (ATLAS_WIDTH, max(1, ay + row))
    atlas = _image(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size[0]}" height="{size[1]}" font-family="{FONT}">'
        + "".join(nested)
        + "</svg>",
        (size[1], size[0], 3),
        None,
    )
    if len(_SPRITES) + len(cells) > _KEEP_SPRITES:
        _SPRITES.clear()
    for piece, x, y, left, top, w, h in cells:
        _SPRITES[piece] = (left, top, atlas.crop((x, y, x + w, y + h)))


def layers_to_rgb(fixed: str, pieces: list[tuple[str, Box]]) -> np.ndarray:
    """The frame of :func:`~tribune_env.board.svg.scene_layers`: the fixed layer (rasterised once), then each piece
    from a cache of pieces rasterised where they lie (the pieces new since earlier frames in one resvg call)."""
    scale = FRAME_SHAPE[1] / WIDTH
    frame = _fixed_layer(fixed).copy()
    missing = list({piece: box for piece, box in pieces if piece not in _SPRITES}.items())
    if missing:
        _rasterise_sprites(missing, scale)
    paste = frame.paste
    for piece, _ in pieces:
        left, top, sprite = _SPRITES[piece]
        paste(sprite, (left, top), sprite)  # "over" by the sprite's alpha: on an opaque frame, alpha compositing
    return np.asarray(frame)


def board_rgb(game: Game | GameState) -> np.ndarray:
    """The seat-neutral frame: the whole table with every hand face down, as a :data:`FRAME_SHAPE` uint8 array.

    The picture of ``board_svg(game, None, hands=False)`` scaled to the frame: what depends on the configuration
    only is rasterised once per configuration, each other element once where it lies, and the frame put together
    from them (the same pixels, but for the edges of anti-aliasing)."""
    _rasteriser()  # the ImportError naming the extra, even when every piece is cached
    return layers_to_rgb(*scene_layers(scene(game, None, hands=False)))
