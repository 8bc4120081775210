"""The drawn board read at a glance (issue 26): every face-up card shows its faction's colour, its value as its
largest text and its kind; a face-down card shows none of them; tiles show their kind and id; a legend explains the
cards; colours keep their contrast."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

from tribune_env import Game
from tribune_env.board import board_svg
from tribune_env.board import style as st
from tribune_env.data import Faction, Nationality
from tribune_env.engine.tables import CardKind, Tables

NS = "{http://www.w3.org/2000/svg}"
VALUE_UNITS = 15.0  # on a board drawn 1280 pixels wide (scale 0.8) a value reads at >= 12 px
LEAST_UNITS = 8.0  # the web page draws the board 1.5 times its size: any text reads at >= 12 px
CARD_FILLS = {*st.FACTION_COLOURS.values(), st.SLAVE_COLOUR, st.ASSASSIN_COLOUR}


def positions(options: dict[str, Any], seed: int, every: int) -> Iterator[Game]:
    """A random game, yielded every ``every`` decisions and at its end."""
    game = Game.new(seed=seed, **options)
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        if step % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    yield game


def classes(g: ET.Element) -> list[str]:
    return g.get("class", "").split()


def texts(g: ET.Element) -> list[tuple[str, float]]:
    return [(t.text or "", float(t.get("font-size", "0"))) for t in g.iter(f"{NS}text")]


def expected(tables: Tables, card: int) -> tuple[str, str, str]:
    """The fill, the kind word and the ``data-kind`` of a face-up card."""
    kind = tables.card_kind[card]
    if kind is CardKind.SLAVE:
        return st.SLAVE_COLOUR, st.SLAVE_SHORT[Nationality(tables.card_nationality[card])], "slave"
    if kind is CardKind.ASSASSIN:
        return st.ASSASSIN_COLOUR, "Asn", "assassin"
    faction = Faction(tables.card_faction[card])
    leader = card == tables.leader_card[faction]
    return st.FACTION_COLOURS[faction], st.FACTION_SHORT[faction], "leader" if leader else "faction"


def check_face(g: ET.Element, tables: Tables) -> str:
    """One face-up card group; returns its kind."""
    card = tables.card_id(g.get("data-card", ""))
    fill, word, kind = expected(tables, card)
    assert g.get("data-kind") == kind
    body = g.find(f"{NS}rect")
    assert body is not None and body.get("fill") == fill, f"{g.get('data-card')} is not filled with {fill}"
    words = texts(g)
    value = str(tables.card_value[card])
    sizes = [size for text, size in words if text == value]
    assert sizes and sizes[0] >= VALUE_UNITS and sizes[0] == max(size for _, size in words), (g.attrib, words)
    assert word in [text for text, _ in words]
    glyph = {"leader": st.LEADER_GLYPH, "assassin": st.ASSASSIN_GLYPH}.get(kind)
    assert glyph is None or glyph in [text for text, _ in words]
    return kind


def check_back(g: ET.Element) -> None:
    """One face-down card group: no label, kind, text or card colour."""
    assert g.get("data-card") is None and g.get("data-kind") is None
    assert not texts(g)
    assert not {r.get("fill") for r in g.iter(f"{NS}rect")} & CARD_FILLS


def test_cards_show_faction_value_and_kind_and_backs_nothing() -> None:
    kinds: set[str] = set()
    backs = 0
    for options, every in (({"players": 4, "expansion": True}, 30), ({"players": 5, "brutii": True}, 45)):
        for game in positions(options, seed=6, every=every):
            tables = game.tables
            for viewer in (None, 0):
                root = ET.fromstring(board_svg(game, viewer))
                for g in root.iter(f"{NS}g"):
                    if "card" not in classes(g):
                        continue
                    if "hidden" in classes(g):
                        check_back(g)
                        backs += 1
                    else:
                        kinds.add(check_face(g, tables))
                smallest = min(size for _, size in texts(root))
                assert smallest >= LEAST_UNITS, f"text of {smallest} units"
    assert kinds == {"faction", "leader", "slave", "assassin"} and backs > 100


def test_legend_and_tiles() -> None:
    """The legend shows a sample of each kind of card of the game (no ``card`` groups, so nothing to pick); an
    emperor tile shows its kind and id."""
    expansion = {"slave", f"assassin {st.ASSASSIN_GLYPH}"}
    for options, words in (
        ({"players": 3}, {"faction card", "face down"}),
        ({"players": 4, "expansion": True}, expansion),
    ):
        game = next(positions(options, seed=1, every=1))
        root = ET.fromstring(board_svg(game, 0))
        legend = next(g for g in root.iter(f"{NS}g") if g.get("id") == "legend")
        assert not [g for g in legend.iter(f"{NS}g") if "card" in classes(g)]
        said = {text for text, _ in texts(legend)}
        assert words <= said and (options.get("expansion") or "slave" not in said)
    tiles = 0
    for game in positions({"players": 4, "expansion": True}, seed=2, every=40):
        for g in ET.fromstring(board_svg(game, 1)).iter(f"{NS}g"):
            if "emperor-tile" in classes(g):
                assert f"{st.EMPEROR_GLYPH} #{g.get('data-tile')}" in {text for text, _ in texts(g)}
                tiles += 1
    assert tiles > 0


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours."""

    def luminance(colour: str) -> float:
        r, g, b = ((c / 255) for c in (int(colour[i : i + 2], 16) for i in (1, 3, 5)))
        lin = [u / 12.92 if u <= 0.03928 else ((u + 0.055) / 1.055) ** 2.4 for u in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_colours_keep_contrast_and_apart() -> None:
    """Words on cards and tiles have WCAG AA contrast (4.5); the card colours are distinct."""
    fills = [*CARD_FILLS, st.BACK_COLOUR, st.EMPEROR_FILL, st.EMPEROR_BAND, st.PATRON_FILL]
    for fill in fills:
        assert contrast(fill, st.text_colour(fill)) >= 4.5, fill
    for box in (st.BOX, st.EXPANSION_BOX, st.EMPEROR_FILL):  # the quieter words on the boxes and tiles they lie on
        assert contrast(st.HINT, box) >= 4.5, box
    assert len(CARD_FILLS) == len(Faction) + 2


def test_the_brutii_lines_wrap_inside_the_decision_panel() -> None:
    """However many action cards the Brutii has played, his lines in the decision panel (294 units wide) wrap
    instead of running past it, and every card's name is still shown."""
    from dataclasses import replace

    from tribune_env.board.panels import BRUTII_TEXT, CHAR_WIDTH, draw_brutii
    from tribune_env.board.pieces import Canvas
    from tribune_env.board.scene import scene
    from tribune_env.engine.brutii import card_name

    game = next(positions({"players": 5, "brutii": True}, 3, 10**6))
    sc = scene(game)
    played = tuple(range(6))  # more action cards than one line holds

    class Played:  # the view, with those cards played
        def __init__(self, view: object) -> None:
            self.view = view

        def __getattr__(self, name: str) -> object:
            return played if name == "brutii_played" else getattr(self.view, name)

    sc = replace(sc, view=Played(sc.view))
    cv = Canvas()
    width = 274.0
    bottom = draw_brutii(cv, sc, 0.0, 0.0, width)
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{"".join(cv.parts)}</svg>')
    lines = [t for t, _ in texts(root)]
    assert len(lines) > 3 and bottom == 14 * len(lines)
    assert max(len(line) for line in lines) * BRUTII_TEXT * CHAR_WIDTH <= width
    shown = " ".join(line.strip() for line in lines)
    assert all(card_name(c) in shown for c in played)
