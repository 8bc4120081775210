"""The expansion board on the drawing: Refugium, Basilica (favor of the emperor tiles) and Capitoleum (officials)."""

from __future__ import annotations

from tribune_env.board import style as st
from tribune_env.board.scene import Scene
from tribune_env.board.svg import Canvas, draw_cards, draw_space, official_name, requirement_words
from tribune_env.data import Official, Region

BOX_W, BOX_H = 204, 120


def draw_expansion(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    """Regions IX-XI in a row from ``(x, y)``, each ``BOX_W`` wide."""
    draw_refugium(cv, sc, x, y)
    draw_basilica(cv, sc, x + BOX_W + 6, y)
    draw_capitoleum(cv, sc, x + 2 * (BOX_W + 6), y)


def _box(cv: Canvas, sc: Scene, region: Region, x: float, y: float) -> None:
    cv.open("region", key=region.key, ident=f"region-{region.key}", region=region.key)
    cv.rect(x, y, BOX_W, BOX_H, "#ece3d3", st.LINE, 6, fixed=True)
    cv.text(x + 8, y + 18, st.region_title(region), 13, bold=True, fixed=True)
    spaces = sc.tables.region_spaces[region]
    for i, space in enumerate(spaces):
        draw_space(cv, sc, space, x + BOX_W - 20 - 28 * (len(spaces) - 1 - i), y + 16)


def draw_refugium(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    _box(cv, sc, Region.REFUGIUM, x, y)
    cv.text(x + 8, y + 44, "slaves: patron tile or pairs", 10, st.LINE, fixed=True)
    staged = sc.staged
    if staged and sc.view.pending is not None and sc.view.pending.kind.key.startswith("refugium"):
        cv.text(x + 8, y + 62, "laid:", 10)
        draw_cards(cv, sc, staged, x + 8, y + 68, BOX_W - 16, "staged")
    cv.close()


def draw_basilica(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    v = sc.view
    extra = sc.config.components.expansion
    _box(cv, sc, Region.BASILICA, x, y)
    cv.text(x + 8, y + 44, f"emperor tiles: pile {v.emperor_pile_size}", 11)
    row = [(v.emperor_up, "face up")] if v.emperor_up >= 0 else []
    row += [(t, "Matrona") for t in v.matrona_tiles]
    for i, (tile, where) in enumerate(row[:3]):
        tx = x + 8 + i * 64
        cv.open("emperor-tile", key=f"tile:{tile}", tile=tile, where=where)
        cv.rect(tx, y + 52, 60, 60, "#d9b75e", st.INK, 4)
        cv.text(tx + 30, y + 68, f"#{tile} {where}", 9, anchor="middle")
        if extra is not None:
            spec = next((t for t in extra.emperor_tiles if t.id == tile), None)
            for j, need in enumerate(spec.requires if spec is not None else ()):
                cv.text(tx + 30, y + 86 + 14 * j, requirement_words(need, extra.emperor_pay), 9, anchor="middle")
        cv.close()
    cv.close()


def draw_capitoleum(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    v = sc.view
    _box(cv, sc, Region.CAPITOLEUM, x, y)
    for o, holder in enumerate(v.officials):
        official = Official(o)
        oy = y + 44 + 16 * o
        cv.open("official", key=official.name.lower(), official=official.name.lower(), holder=holder)
        if holder >= 0:
            cv.rect(x + 8, oy - 9, 10, 10, st.PLAYER_COLOURS[holder], st.INK, 2)
        chosen = " (chosen)" if v.officials_chosen[o] else ""
        where = f"P{holder}" if holder >= 0 else "on the Capitoleum"
        cv.text(x + 22, oy, f"{official_name(sc, official)}: {where}{chosen}", 10)
        cv.close()
    cv.close()
