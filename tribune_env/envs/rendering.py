"""``render_mode="rgb_array"``: the text board drawn as an image, for video recorders.

Stable-Baselines3's ``make_vec_env`` asks for this mode by default, and its
video recorder reads the frames. Drawing uses matplotlib (installed with the
``train`` extra); it is imported only when a frame is drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

FONT_SIZE = 9
DPI = 100
MARGIN_PX = 12


def text_to_rgb(text: str) -> np.ndarray:
    """An ``(height, width, 3)`` uint8 image of ``text`` in a monospace font, black on white."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as err:  # pragma: no cover - matplotlib comes with the train extra
        raise ImportError("render_mode='rgb_array' needs matplotlib: pip install matplotlib") from err
    figure = Figure(dpi=DPI, facecolor="white")
    canvas: Any = FigureCanvasAgg(figure)  # matplotlib's canvas methods are untyped
    label = figure.text(0, 0, text or " ", family="monospace", size=FONT_SIZE, va="bottom", ha="left")
    canvas.draw()
    box = label.get_window_extent()
    width, height = box.width + 2 * MARGIN_PX, box.height + 2 * MARGIN_PX
    figure.set_size_inches(width / DPI, height / DPI)
    label.set_position((MARGIN_PX / width, MARGIN_PX / height))
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()
