"""The whole table drawn as one SVG document: :func:`board_svg`.

The canvas is always ``0 0 1600 1000`` (see :mod:`tribune_env.board.style`): regions I-VIII top left, the table
(coin bowl, Colosseum, piles, chariot, proconsul) and in expansion games regions IX-XI below them, the seven faction
fields, the victory card with each player's progress and the running decision at the bottom, one panel per player on
the right and the legend of the cards below them. The document has no scripts and no outside references.

Addressable elements (``<g>`` groups a web page can highlight and accept clicks on):

* follower space: ``class="space" data-space="forum:2" data-space-id="5" data-occupant="-1"``; ``data-space`` is the
  engine's space label (``thermae:1``, ``faction:gladiators:1``, ``coin_bowl``, ``refugium:1``), ``data-space-id``
  the space id of ``PlaceFollower(space=...)``; ``id="space-forum-2"``.
* region: ``class="region" data-region="forum" id="region-forum"``; its card fields
  ``class="field" data-region="forum" data-field="0"`` (0-based).
* card face up: ``class="card" data-card="senators:7"`` (the card label, ``Tables.card_by_label``) with
  ``data-where`` one of ``board``, ``set``, ``hand``, ``staged``, ``contest``, ``augur``, ``pair``, ``data-index``
  (its position there), ``data-seat`` (hand, set, pair) and ``data-kind`` (``faction``, ``leader``, ``slave``,
  ``assassin``), in that order. Drawn to be read at a glance: filled with its faction's colour, its value the
  largest text on it (top left), its kind a short word and a glyph (see :mod:`tribune_env.board.style` and the
  legend, ``id="legend"``, whose samples are no ``card`` groups). A face-down card has ``class="card hidden"``, no
  ``data-card`` or ``data-kind``, no text and the same back for every card.
* faction field: ``class="faction" data-faction="gladiators" data-controller="-1" id="faction-gladiators"``.
* player panel: ``class="player" data-seat="2" id="player-2"`` with ``data-money``, ``data-laurels``,
  ``data-legions``.
* victory card: ``id="victory"`` (``data-card`` the victory card id), one ``class="progress" data-seat="k"`` row per
  player with ``data-met`` (objectives met), ``data-fulfils`` (``1``/``0``) and ``data-score`` (the score now).
* ``id="chariot"`` (``data-faction``, empty off the board), ``id="proconsul"`` (``data-seat``, -1 if nobody).
* expansion: ``class="official" data-official="augur" data-holder="-1"``; ``class="emperor-tile" data-tile="3"``
  (``data-where``: ``face up`` or ``Matrona``), gold with its id and requirements.
* ``id="status"``: the header line (round, phase, who decides what).

Elements whose key (their ``data-space``, ``data-card``, ``data-faction``, ``data-region`` or ``data-official``
value) is in ``highlight`` get the class ``hl`` and an outline.
"""

from __future__ import annotations

from collections.abc import Iterable

from tribune_env.board import style as st
from tribune_env.board.panels import EXTRAS, draw_decision, draw_players, draw_victory
from tribune_env.board.pieces import (
    PANEL_W,
    PANEL_X,
    Box,
    Canvas,
    draw_faction,
    draw_region,
    draw_status,
    draw_table,
)
from tribune_env.board.scene import Scene, scene
from tribune_env.data import Faction
from tribune_env.engine.game import Game
from tribune_env.engine.state import GameState


def board_svg(
    game: Game | GameState, viewer: int | None = None, *, hands: bool = True, highlight: Iterable[str] = ()
) -> str:
    """The table as an SVG document: as seat ``viewer`` sees it, or omniscient (``viewer=None``).

    ``hands=False`` draws every hand face down. ``highlight``: keys of elements to outline (see the module doc)."""
    return scene_svg(scene(game, viewer, hands=hands), highlight)


HEAD = (
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{st.WIDTH}" height="{st.HEIGHT}" '
    f'viewBox="0 0 {st.WIDTH} {st.HEIGHT}" font-family="{st.FONT}">'
)


def scene_svg(sc: Scene, highlight: Iterable[str] = ()) -> str:
    """The SVG document of a :class:`~tribune_env.board.scene.Scene`."""
    cv = Canvas(highlight)
    draw(cv, sc)
    return HEAD + "".join(cv.parts) + "</svg>"


def scene_layers(sc: Scene) -> tuple[str, list[tuple[str, Box]]]:
    """``sc`` drawn in two layers, without groups: an SVG document of what depends on the game's configuration only
    (on paper), and the other pieces in drawing order, each an SVG element with its bounding box."""
    cv = Canvas(split=True)
    draw(cv, sc)
    return HEAD + "".join(cv.fixed) + "</svg>", list(zip(cv.parts, cv.boxes, strict=True))


def draw(cv: Canvas, sc: Scene) -> None:
    """Everything, in drawing order."""
    extras = EXTRAS[sc.config.rules]
    cv.rect(0, 0, st.WIDTH, st.HEIGHT, st.PAPER, fixed=True)
    draw_status(cv, sc)
    for i, printed in enumerate(sc.config.components.regions):  # regions I-VIII, the base board
        draw_region(cv, sc, printed.region, 10 + (i % 4) * 234, 44 + (i // 4) * 174, 228, 168)
    draw_table(cv, sc, 10, 394, extras.table_width, 120)
    for board in extras.boards:
        board(cv, sc, 316, 394)
    width = 930 / len(Faction)
    for f in Faction:
        draw_faction(cv, sc, f, 10 + int(f) * width, 522, width - 6, 222)
    draw_victory(cv, sc, 10, 752, 630, 238)
    draw_decision(cv, sc, 646, 752, 294, 238)
    draw_players(cv, sc, PANEL_X, 44, PANEL_W, 946)
