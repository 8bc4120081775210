"""The expansion board on the drawing: Refugium, Basilica (favor of the emperor tiles) and Capitoleum (officials)."""

from __future__ import annotations

from tribune_env.board import style as st
from tribune_env.board.pieces import Canvas, draw_cards, draw_space, official_name, requirement_words
from tribune_env.board.scene import Scene
from tribune_env.data import ExpansionSpec, Official, Region, Requirement

BOX_W, BOX_H = 204, 120


def draw_expansion(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    """Regions IX-XI in a row from ``(x, y)``, each ``BOX_W`` wide."""
    draw_refugium(cv, sc, x, y)
    draw_basilica(cv, sc, x + BOX_W + 6, y)
    draw_capitoleum(cv, sc, x + 2 * (BOX_W + 6), y)


def _box(cv: Canvas, sc: Scene, region: Region, x: float, y: float) -> None:
    cv.open("region", key=region.key, ident=f"region-{region.key}", region=region.key)
    cv.rect(x, y, BOX_W, BOX_H, st.EXPANSION_BOX, st.LINE, 6, fixed=True)
    cv.text(x + 8, y + 18, st.region_title(region), 13, bold=True, fixed=True)
    spaces = sc.tables.region_spaces[region]
    for i, space in enumerate(spaces):
        draw_space(cv, sc, space, x + BOX_W - 20 - 28 * (len(spaces) - 1 - i), y + 16)


def draw_refugium(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    _box(cv, sc, Region.REFUGIUM, x, y)
    cv.text(x + 8, y + 44, "slaves: patron tile or pairs", 10, st.HINT, fixed=True)
    staged = sc.staged
    if staged and sc.view.pending is not None and sc.view.pending.kind.key.startswith("refugium"):
        cv.text(x + 8, y + 62, "laid:", 10)
        draw_cards(cv, sc, staged, x + 8, y + 68, BOX_W - 16, "staged")
    cv.close()


def draw_basilica(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    """The face-up favor of the emperor tile and the Matrona's tiles (R35), each with its requirements."""
    v = sc.view
    _box(cv, sc, Region.BASILICA, x, y)
    cv.text(x + 8, y + 42, f"emperor tiles: pile {v.emperor_pile_size}", 11)
    row = [(v.emperor_up, "face up")] if v.emperor_up >= 0 else []
    row += [(t, "Matrona") for t in v.matrona_tiles]
    for i, (tile, where) in enumerate(row[:3]):
        tx = x + 8 + i * 64
        cv.open("emperor-tile", key=f"tile:{tile}", tile=tile, where=where)
        draw_emperor_tile(cv, sc, tile, tx, y + 48, where)
        cv.outline(f"tile:{tile}", tx, y + 48, TILE_W, TILE_H)
        cv.close()
    cv.close()


TILE_W, TILE_H = 60, 68


def draw_emperor_tile(cv: Canvas, sc: Scene, tile: int, x: float, y: float, where: str) -> None:
    """A favor of the emperor tile: gold, its kind and id in a dark band, its requirements, where it lies."""
    extra = sc.config.components.expansion
    cv.rect(x, y, TILE_W, TILE_H, st.EMPEROR_FILL, st.INK, 4)
    cv.rect(x + 1, y + 1, TILE_W - 2, 15, st.EMPEROR_BAND)
    cv.text(x + TILE_W / 2, y + 12, f"{st.EMPEROR_GLYPH} #{tile}", 11, "#ffffff", True, "middle")
    spec = next((t for t in extra.emperor_tiles if t.id == tile), None) if extra is not None else None
    lines = [w for need in (spec.requires if spec is not None else ()) for w in tile_lines(need, extra)]
    for j, line in enumerate(lines[:4]):
        cv.text(x + TILE_W / 2, y + 27 + 10 * j, line, 9, anchor="middle")
    cv.text(x + TILE_W / 2, y + TILE_H - 4, where, 8, st.HINT, anchor="middle")


def tile_lines(need: Requirement, extra: ExpansionSpec | None) -> tuple[str, ...]:
    """A requirement in at most two short lines (``most laurels`` -> ``most``, ``laurels``)."""
    words = requirement_words(need, extra.emperor_pay if extra is not None else 0)
    most, _, rest = words.partition(" ")
    return (most, rest) if most == "most" else (words,)


def draw_patrons(cv: Canvas, count: int, x: float, y: float) -> float:
    """``count`` patron tiles (R33), small brown tiles with a ``P``, from ``(x, y)``; returns the x after them."""
    for i in range(count):
        cv.rect(x + i * 17, y, 15, 18, st.PATRON_FILL, st.INK, 3)
        cv.text(x + i * 17 + 7.5, y + 13.5, "P", 11, "#ffffff", True, "middle")
    return x + count * 17


def draw_held_emperor_tiles(cv: Canvas, tiles: tuple[int, ...], x: float, y: float) -> float:
    """Claimed favor of the emperor tiles (R35), small gold tiles with their id, from ``(x, y)``; returns the x after
    them."""
    for i, tile in enumerate(tiles):
        cv.rect(x + i * 31, y, 29, 18, st.EMPEROR_FILL, st.INK, 3)
        cv.text(x + i * 31 + 14.5, y + 13.5, f"{st.EMPEROR_GLYPH}{tile}", 10, st.INK, True, "middle")
    return x + len(tiles) * 31


def draw_capitoleum(cv: Canvas, sc: Scene, x: float, y: float) -> None:
    v = sc.view
    _box(cv, sc, Region.CAPITOLEUM, x, y)
    for o, holder in enumerate(v.officials):
        official = Official(o)
        oy = y + 44 + 16 * o
        cv.open("official", key=official.name.lower(), official=official.name.lower(), holder=holder)
        cv.rect(x + 8, oy - 9, 10, 10, st.PLAYER_COLOURS[holder] if holder >= 0 else st.BOX, st.INK, 2)
        chosen = " (chosen)" if v.officials_chosen[o] else ""
        where = f"P{holder}" if holder >= 0 else "on the Capitoleum"
        cv.text(x + 22, oy, f"{official_name(sc, official)}: {where}{chosen}", 10)
        cv.close()
    cv.close()
