"""The pieces of the drawn board on their SVG :class:`Canvas`: cards, follower spaces, the base regions, the table and
the faction fields, with the status line.

:mod:`tribune_env.board.svg` puts them together into the whole document, with the panels
(:mod:`tribune_env.board.panels`) and the expansion's boards (:mod:`tribune_env.board.expansion`), which draw with
them too; the pieces import none of those (issue 36: no import circle).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

from tribune_env.board import style as st
from tribune_env.board.scene import Scene
from tribune_env.data import Faction, Nationality, Official, Region, Requirement
from tribune_env.engine.tables import CardKind, Tables
from tribune_env.engine.view import HIDDEN

PANEL_X, PANEL_W = 950, 640
Box = tuple[float, float, float, float]  # x, y, width, height in canvas units

# A board repeats the same few hundred labels in every frame (a replay draws thousands of frames): escaping them
# once each is about a quarter of the drawing time.
escape = functools.lru_cache(maxsize=8192)(_escape)
quoteattr = functools.lru_cache(maxsize=8192)(_quoteattr)


class Canvas:
    """SVG text built piece by piece.

    With ``split=True`` the pieces drawn with ``fixed=True`` (those that depend on the game's configuration only)
    go to a layer of their own, and groups are left out: :mod:`tribune_env.board.raster` rasterises that layer once
    per configuration and draws only the rest for each frame."""

    def __init__(self, highlight: Iterable[str] = (), split: bool = False) -> None:
        self.parts: list[str] = []
        self.fixed: list[str] = self.parts if not split else []
        self.boxes: list[Box] = []  # split: the bounding box of each piece of ``parts``
        self.split = split
        self.highlight = frozenset(highlight)

    def add(self, piece: str, fixed: bool = False, box: Box = (0.0, 0.0, st.WIDTH, st.HEIGHT)) -> None:
        if fixed:
            self.fixed.append(piece)
            return
        self.parts.append(piece)
        if self.split:
            self.boxes.append(box)

    def open(self, cls: str, key: str = "", ident: str = "", **data: object) -> None:
        """A ``<g>`` group; ``data`` become ``data-*`` attributes (``_`` written as ``-``; ``None``: left out)."""
        if self.split:
            return
        classes = f"{cls} hl" if key and key in self.highlight else cls
        attrs = f' class="{classes}"' if classes else ""
        if ident:
            attrs += f" id={quoteattr(ident)}"
        for name, value in data.items():
            if value is not None:
                attrs += f" data-{name.replace('_', '-')}={quoteattr(str(value))}"
        self.add(f"<g{attrs}>")

    def close(self) -> None:
        if not self.split:
            self.add("</g>")

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "", rx: float = 0, fixed: bool = False
    ) -> None:
        line = f' stroke="{stroke}"' if stroke else ""
        corner = f' rx="{rx}"' if rx else ""
        piece = f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"{line}{corner}/>'
        self.add(piece, fixed, (x - 1, y - 1, w + 2, h + 2))

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str = st.LINE, fixed: bool = False) -> None:
        piece = f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"/>'
        self.add(piece, fixed, (x - r - 1, y - r - 1, 2 * r + 2, 2 * r + 2))

    def text(
        self,
        x: float,
        y: float,
        words: str,
        size: float = 12,
        fill: str = st.INK,
        bold: bool = False,
        anchor: str = "",
        fixed: bool = False,
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        align = f' text-anchor="{anchor}"' if anchor else ""
        piece = f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}"{weight}{align}>{escape(words)}</text>'
        width = len(words) * size * (0.72 if bold else 0.66) + size
        left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x - size / 2
        self.add(piece, fixed, (left, y - 1.1 * size, width + size / 2, 1.5 * size))

    def outline(self, key: str, x: float, y: float, w: float, h: float, colour: str = st.HIGHLIGHT) -> None:
        """A frame when ``key`` is highlighted (always with ``key="*"``)."""
        if key == "*" or key in self.highlight:
            piece = (
                f'<rect x="{x - 2:g}" y="{y - 2:g}" width="{w + 4:g}" height="{h + 4:g}" fill="none" '
                f'stroke="{colour}" stroke-width="3" rx="4"/>'
            )
            self.add(piece, box=(x - 4, y - 4, w + 8, h + 8))


@dataclass(frozen=True)
class Face:
    """What a face-up card shows (see :mod:`tribune_env.board.style`): its fill, the ink on it, its value (and the
    value's font size), its kind in a short word, a glyph (``""``: none); ``kind`` and ``label`` are its data
    attributes."""

    fill: str
    ink: str
    value: str
    value_size: float
    word: str
    glyph: str
    kind: str  # "faction", "leader", "slave" or "assassin"
    label: str


@functools.lru_cache(maxsize=1024)
def card_face(tables: Tables, card: int) -> Face:
    """The face of card type ``card`` (once per component set and card type)."""
    kind = tables.card_kind[card]
    value = tables.card_value[card]
    if kind is CardKind.SLAVE:
        nationality = Nationality(tables.card_nationality[card])
        fill, word, glyph, key = st.SLAVE_COLOUR, st.SLAVE_SHORT[nationality], "", "slave"
    elif kind is CardKind.ASSASSIN:
        fill, word, glyph, key = st.ASSASSIN_COLOUR, "Asn", st.ASSASSIN_GLYPH, "assassin"
    else:
        faction = Faction(tables.card_faction[card])
        leader = card == tables.leader_card[faction]
        fill, word = st.FACTION_COLOURS[faction], st.FACTION_SHORT[faction]
        glyph, key = (st.LEADER_GLYPH, "leader") if leader else ("", "faction")
    size = st.VALUE_SIZE if value < 10 else st.VALUE_SIZE - 4
    return Face(fill, st.text_colour(fill), str(value), size, word, glyph, key, tables.card_label[card])


def draw_face(cv: Canvas, face: Face, x: float, y: float, fixed: bool = False) -> None:
    """The pieces of a face-up card at ``(x, y)``, without its group."""
    w, h = st.CARD_W, st.CARD_H
    cv.rect(x, y, w, h, face.fill, st.INK, 3, fixed)
    cv.text(x + 2.5, y + 20, face.value, face.value_size, face.ink, True, fixed=fixed)
    if face.glyph:  # under the value, as a playing card's suit under its rank: seen where cards overlap
        cv.text(x + 3, y + 33, face.glyph, 11, face.ink, fixed=fixed)
    cv.text(x + 2.5, y + h - 4.5, face.word, st.KIND_SIZE, face.ink, True, fixed=fixed)


def draw_back(cv: Canvas, x: float, y: float, fixed: bool = False) -> None:
    """The pieces of a face-down card at ``(x, y)``: the same for every card, so it tells nothing."""
    cv.rect(x, y, st.CARD_W, st.CARD_H, st.BACK_COLOUR, st.INK, 3, fixed)
    cv.rect(x + 4, y + 4, st.CARD_W - 8, st.CARD_H - 8, "none", "#c8b48f", 2, fixed)


def draw_card(cv: Canvas, sc: Scene, card: int, x: float, y: float, where: str, index: int, seat: int = -1) -> None:
    """One card, face up (``card >= 0``) or face down (:data:`HIDDEN`)."""
    owner = seat if seat >= 0 else None
    if card == HIDDEN:
        cv.open("card hidden", where=where, index=index, seat=owner)
        draw_back(cv, x, y)
        cv.close()
        return
    face = card_face(sc.tables, card)
    cv.open("card", key=face.label, card=face.label, where=where, index=index, seat=owner, kind=face.kind)
    draw_face(cv, face, x, y)
    cv.outline(face.label, x, y, st.CARD_W, st.CARD_H)
    cv.close()


def draw_cards(
    cv: Canvas, sc: Scene, cards: Iterable[int], x: float, y: float, width: float, where: str, seat: int = -1
) -> None:
    """A row of cards in ``width``, overlapping when they do not fit."""
    row = list(cards)
    if not row:
        return
    step = st.CARD_W + 3.0
    if len(row) > 1 and (len(row) - 1) * step + st.CARD_W > width:
        step = max(4.0, (width - st.CARD_W) / (len(row) - 1))
    for i, card in enumerate(row):
        draw_card(cv, sc, card, x + i * step, y, where, i, seat)


def hand_cards(counts: Iterable[int]) -> list[int]:
    return [c for c, n in enumerate(counts) for _ in range(n)]


def draw_space(cv: Canvas, sc: Scene, space: int, x: float, y: float, caption: str = "") -> None:
    """One follower space: empty (its number) or taken (the occupant's colour and seat)."""
    spec = sc.tables.spaces[space]
    who = sc.view.spaces[space]
    cv.open("space", key=spec.label, ident="space-" + spec.label.replace(":", "-"), space=spec.label,
            space_id=space, occupant=who)  # fmt: skip
    cv.circle(x, y, 12, st.BOX, fixed=True)
    cv.text(x, y + 4, str(spec.slot + 1), 10, st.LINE, anchor="middle", fixed=True)
    if who >= 0:
        cv.circle(x, y, 12, st.PLAYER_COLOURS[who], st.INK)
        cv.text(x, y + 4, f"P{who}", 10, "#ffffff", True, "middle")
    if caption:
        cv.text(x, y + 25, caption, 9, st.INK, anchor="middle", fixed=True)
    cv.outline(spec.label, x - 12, y - 12, 24, 24)
    cv.close()


def draw_status(cv: Canvas, sc: Scene) -> None:
    v = sc.view
    if v.pending is not None:
        who = st.player_name(v.pending.seat, v.brutii)
        faction = f" ({sc.config.components.factions[v.pending.faction].name})" if v.pending.faction >= 0 else ""
        doing = f"{who} to decide: {st.words(v.pending.kind.key)}{faction}"
    else:
        won = ", ".join(f"P{s}" for s in v.winners) or "nobody"
        doing = f"Game over: won by {won}" + (" (round limit)" if v.truncated else "")
    phase = st.words(v.phase.name.lower())
    seen = "everything (omniscient)" if sc.viewer is None else f"as P{sc.viewer} sees it"
    cv.open("", ident="status", round=v.round, phase=v.phase.name.lower())
    cv.text(12, 26, f"Round {v.round} · {phase} · start P{v.start_seat} · {doing}", 18, bold=True)
    cv.text(PANEL_X + PANEL_W - 2, 26, seen, 12, st.LINE, anchor="end")
    cv.close()


def draw_region(cv: Canvas, sc: Scene, region: Region, x: float, y: float, w: float, h: float) -> None:
    """A base region: title, card fields (face down where hidden) and follower spaces."""
    cv.open("region", key=region.key, ident=f"region-{region.key}", region=region.key)
    cv.rect(x, y, w, h, st.BOX, st.LINE, 6, fixed=True)
    cv.text(x + 8, y + 18, st.region_title(region), 14, bold=True, fixed=True)
    if sc.view.veto == int(region):
        cv.text(x + w - 8, y + 18, "vetoed", 11, "#b00000", True, "end")
        cv.outline("*", x, y, w, h, "#b00000")
    fields = sc.board[region]
    if fields:
        fw = (w - 12) / len(fields)
        for i, field in enumerate(fields):
            cv.open("field", region=region.key, field=i)
            cv.rect(x + 6 + i * fw, y + 26, fw - 4, st.CARD_H + 8, "#efe4cc", rx=3, fixed=True)
            draw_cards(cv, sc, field, x + 8 + i * fw, y + 30, fw - 8, "board")
            cv.close()
    elif region is Region.FIELD_OF_MARS:
        pairs = [c for s, a, b in sc.pairs for c in (a, b)]
        cv.text(x + 8, y + 42, "sealed pairs of cards" if not pairs else "pairs laid:", 11, st.LINE)
        draw_cards(cv, sc, pairs, x + 8, y + 48, w - 16, "pair")
    spaces = sc.tables.region_spaces[region]
    prices = sc.config.components.region(region).prices
    gap = (w - 16) / max(len(spaces), 1)
    for i, space in enumerate(spaces):
        caption = f"{prices[i]} denarii" if i < len(prices) else ""
        draw_space(cv, sc, space, x + 8 + gap * (i + 0.5), y + h - 42, caption)
    cv.outline(region.key, x, y, w, h)
    cv.close()


def draw_table(cv: Canvas, sc: Scene, x: float, y: float, w: float, h: float) -> None:
    """The coin bowl, the Colosseum, the piles, the chariot and the proconsul."""
    v = sc.view
    cv.rect(x, y, w, h, st.BOX, st.LINE, 6, fixed=True)
    cv.text(x + 8, y + 18, "Coin bowl", 13, bold=True, fixed=True)
    draw_space(cv, sc, sc.tables.coin_bowl, x + 26, y + 44)
    bowl = ", ".join(f"P{s}" for s in v.coin_bowl) or "empty"
    cv.text(x + 46, y + 48, f"paid in: {bowl}", 11)
    cv.text(x + 8, y + 76, f"Colosseum: {v.colosseum} denarii", 12)
    cv.text(x + 8, y + 94, f"Draw pile {v.draw_size} · discard pile {v.discard_size}", 12)
    chariot = sc.config.components.factions[v.chariot].name if v.chariot >= 0 else "off the board"
    proconsul = f"P{v.proconsul}" if v.proconsul >= 0 else "nobody"
    wide = w >= 600  # a base game: the row to itself
    cv.open("", ident="chariot", faction=Faction(v.chariot).key if v.chariot >= 0 else "")
    cv.text(x + (320 if wide else 8), y + (44 if wide else 112), f"Chariot: {chariot}", 14 if wide else 12, bold=wide)
    cv.close()
    cv.open("", ident="proconsul", seat=v.proconsul)
    cv.text(x + (320 if wide else 170), y + (70 if wide else 112), f"Proconsul: {proconsul}", 14 if wide else 12)
    cv.close()


def draw_faction(cv: Canvas, sc: Scene, f: Faction, x: float, y: float, w: float, h: float) -> None:
    """A faction field: name, leader, controller and set, its two spaces, markers, laurel, chariot."""
    v = sc.view
    spec = sc.config.components.factions[f]
    ctl = v.controller[f]
    cv.open("faction", key=f.key, ident=f"faction-{f.key}", faction=f.key, controller=ctl)
    fill = st.FACTION_COLOURS[f]
    cv.rect(x, y, w, h, st.BOX, st.LINE, 6, fixed=True)
    cv.rect(x, y, w, 24, fill, st.LINE, 6, fixed=True)
    cv.text(x + w / 2, y + 17, spec.name, 13, st.text_colour(fill), True, "middle", fixed=True)
    cv.text(x + w / 2, y + 38, f"leader {spec.leader}", 10, st.LINE, anchor="middle", fixed=True)
    if ctl >= 0:
        cv.rect(x + 6, y + 46, 14, 14, st.PLAYER_COLOURS[ctl], st.INK, 3)
        cv.text(x + 24, y + 58, f"P{ctl} controls", 12, bold=True)
    else:
        cv.text(x + 6, y + 58, "no controller", 12, st.LINE)
    draw_cards(cv, sc, v.sets[f], x + 6, y + 66, w - 12, "set", ctl)
    for i, space in enumerate(sc.tables.faction_spaces[f]):
        draw_space(cv, sc, space, x + w / 2 + (i - 0.5) * 40, y + 126)
    holders = [s for s, p in enumerate(v.players) if p.markers[f]]
    cv.text(x + 6, y + 160, "markers: " + (" ".join(f"P{s}" for s in holders) or "-"), 10)
    if v.first_laurel[f]:
        cv.text(x + 6, y + 176, "first-take-over laurel", 10, "#6b5a00")
    if v.benefit_blocked and v.benefit_blocked[f]:
        cv.text(x + 6, y + 192, "no benefit (Tribunus)", 10, "#b00000", True)
    if v.chariot == int(f):
        cv.rect(x + 6, y + h - 24, w - 12, 18, "#3d2b1f", rx=4)
        cv.text(x + w / 2, y + h - 11, "CHARIOT", 11, "#ffd966", True, "middle")
    cv.outline(f.key, x, y, w, h)
    cv.close()


def official_name(sc: Scene, official: Official) -> str:
    extra = sc.config.components.expansion
    return extra.official(official).name if extra is not None else official.name.title()


def requirement_words(requirement: Requirement, pay: int) -> str:
    return f"pay {pay}" if requirement is Requirement.PAY else st.words(requirement.key)
