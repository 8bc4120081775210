"""The panels of the drawing: the victory card with each player's progress, the running decision, the players;
and what each rule set adds to the drawing (:data:`EXTRAS`)."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from tribune_env.board import style as st
from tribune_env.board.expansion import draw_expansion, draw_held_emperor_tiles, draw_patrons
from tribune_env.board.pieces import Canvas, card_face, draw_back, draw_cards, draw_face, hand_cards
from tribune_env.board.scene import Scene
from tribune_env.data import Faction, Nationality, Region
from tribune_env.engine.brutii import card_name, disc_name
from tribune_env.engine.config import RuleSet
from tribune_env.engine.names import victory_card_title
from tribune_env.engine.state import TILE_NAMES, TRIBUNE
from tribune_env.engine.tables import Tables
from tribune_env.engine.view import HIDDEN, OBJECTIVE_NAMES, PublicPlayer, objective_amounts

BASE_ORDER = ("tribune", "favor", "laurels", "legions", "denarii", "markers", "emperor_tiles", "patrons")


def progress(player: PublicPlayer, thresholds: dict[str, int]) -> list[tuple[str, str, bool]]:
    """(objective, what the player has against what is needed, met) for each objective of a victory card."""
    have = objective_amounts(player)
    rows = [
        ("tribune", "yes" if player.tile == TRIBUNE else "no", player.tile == TRIBUNE),
        ("favor", "yes" if player.eternal_favor or player.temporary_favor else "no",
         player.eternal_favor or player.temporary_favor),
    ]  # fmt: skip
    for key in BASE_ORDER[2:]:
        if key in thresholds:
            rows.append((key, f"{have[key]}/{thresholds[key]}", have[key] >= thresholds[key]))
    return rows


def draw_victory(cv: Canvas, sc: Scene, x: float, y: float, w: float, h: float) -> None:
    """The victory card: its objectives, and per player the progress on each and the score now."""
    card = sc.card
    cv.open("", ident="victory", card=card.id if card is not None else "point_variant")
    cv.rect(x, y, w, h, "#f7efd9", st.LINE, 6, fixed=True)
    if card is None:
        cv.text(x + 10, y + 22, "Point-value variant: the highest score wins", 15, bold=True, fixed=True)
        rows: list[list[tuple[str, str, bool]]] = [[] for _ in sc.view.players]
    else:
        must = ", ".join(OBJECTIVE_NAMES[o] for o in card.obligatory)
        cv.text(x + 10, y + 22, f"Victory card: {victory_card_title(card)}", 15, bold=True, fixed=True)
        needs = f"Needs {sc.required} objectives" + (f", always {must}" if must else "") + " (✓ = met)"
        cv.text(x + 10, y + 40, needs, 11, st.LINE, fixed=True)
        rows = [progress(p, card.thresholds) for p in sc.view.players]
    col = (w - 204) / max(len(rows[0]), 1)
    for j, (key, _, _) in enumerate(rows[0]):
        cv.text(x + 64 + col * (j + 0.5), y + 62, st.OBJECTIVE_SHORT[key], 10, bold=True, anchor="middle", fixed=True)
    cv.text(x + w - 116, y + 62, "score", 11, bold=True, anchor="middle", fixed=True)
    if card is not None:
        cv.text(x + w - 12, y + 62, "objectives", 11, bold=True, anchor="end", fixed=True)
    line = min(26.0, (h - 72) / max(len(rows), 1))
    for s, row in enumerate(rows):
        ry = y + 70 + s * line
        met, fulfils = verdict(sc, row)
        cv.open("progress", seat=s, score=sc.scores[s] if sc.scores else None, met=met, fulfils=int(fulfils))
        cv.rect(x + 10, ry + 3, 14, 14, st.PLAYER_COLOURS[s], st.INK, 3, fixed=True)
        cv.text(x + 28, ry + 15, f"P{s}", 12, bold=True, fixed=True)
        for j, (_, value, ok) in enumerate(row):
            cx = x + 64 + col * j
            cv.rect(cx + 3, ry, col - 6, line - 4, "#bfe3b4" if ok else "#f1e4c8", rx=3)
            cv.text(cx + col / 2, ry + 15, ("✓ " if ok else "") + value, 11, anchor="middle")
        if sc.scores:
            cv.text(x + w - 116, ry + 15, str(sc.scores[s]), 12, bold=True, anchor="middle")
        if card is not None:
            said = f"{met} of {sc.required}" + (" — fulfils" if fulfils else "")
            cv.text(x + w - 12, ry + 15, said, 11, "#1d6b1d" if fulfils else st.INK, fulfils, "end")
        cv.close()
    cv.close()


def verdict(sc: Scene, row: list[tuple[str, str, bool]]) -> tuple[int, bool]:
    """How many objectives of ``row`` a player meets, and whether that fulfils the card (False without one)."""
    met = sum(ok for _, _, ok in row)
    card = sc.card
    return met, card is not None and met >= sc.required and all(ok for key, _, ok in row if key in card.obligatory)


def draw_decision(cv: Canvas, sc: Scene, x: float, y: float, w: float, h: float) -> None:
    """What is being decided: the set being staged, the set to beat, sealed bids shown, the Augur's cards, the
    Brutii's public state."""
    v = sc.view
    cv.rect(x, y, w, h, st.BOX, st.LINE, 6, fixed=True)
    cv.text(x + 10, y + 22, "On the table now", 14, bold=True, fixed=True)
    ty = y + 34
    shown = [("cards being laid", sc.staged, "staged"), ("set to beat (space 2)", v.contest, "contest"),
             ("Augur's drawn cards", sc.augur, "augur")]  # fmt: skip
    for label, cards, where in shown:
        if cards:
            cv.text(x + 10, ty + 12, label, 11)
            draw_cards(cv, sc, cards, x + 10, ty + 16, w - 20, where)
            ty += st.CARD_H + 22
    if sc.bids:
        bids = ", ".join(f"P{s}: {'out' if b == -2 else b}" for s, b in sorted(sc.bids.items()))
        cv.text(x + 10, ty + 12, f"sealed bids: {bids}", 11)
        ty += 18
    for lines in EXTRAS[sc.config.rules].public:
        ty = lines(cv, sc, x + 10, ty + 12, w - 20)
    if ty == y + 34:
        cv.text(x + 10, ty + 12, "nothing staged", 11, st.LINE)


BRUTII_TEXT = 10
"""The font size of the Brutii's lines; a line longer than its width wraps (:data:`CHAR_WIDTH` per character)."""
CHAR_WIDTH = 0.56
"""A character's width at most, in font sizes, averaged over a line of the board's sans-serif text."""


def draw_brutii(cv: Canvas, sc: Scene, x: float, y: float, w: float) -> float:
    """The Brutii's public state (R45) from ``(x, y)`` in lines at most ``w`` wide; returns the y below it."""
    v = sc.view
    revealed = ", ".join(disc_name(d) for d in v.brutii_revealed) or "-"
    played = ", ".join(card_name(c) for c in v.brutii_played) or "-"
    veto = Region(v.veto).key.replace("_", " ") if v.veto >= 0 else "-"
    lines = [f"Brutii: P{v.brutii}, {v.brutii_turns} turns left, veto {veto}", f"discs: {revealed}",
             f"action cards played: {played}"]  # fmt: skip
    chars = max(20, int(w / (BRUTII_TEXT * CHAR_WIDTH)))
    wrapped = [part for line in lines for part in textwrap.wrap(line, chars, subsequent_indent="  ")]
    for i, line in enumerate(wrapped):
        cv.text(x, y + 14 * i, line, BRUTII_TEXT)
    return y + 14 * len(wrapped)


def draw_players(cv: Canvas, sc: Scene, x: float, y: float, w: float, h: float) -> None:
    """One panel per player, top to bottom, and the legend of the cards below them."""
    n = len(sc.view.players)
    ph = min(190.0, (h - LEGEND_H - 6) / n)
    for s in range(n):
        draw_player(cv, sc, s, x, y + s * ph, w, ph - 6)
    cv.add(legend_svg(sc.tables, x, y + h - LEGEND_H, w), fixed=True)


LEGEND_H = 56


@functools.lru_cache(maxsize=64)
def legend_svg(tables: Tables, x: float, y: float, w: float) -> str:
    """The legend of the cards (``<g id="legend">``, drawn once per component set and place): a sample of each kind
    of card in the game with its name, and the face-down back. Its samples are no ``card`` groups."""
    cv = Canvas()
    cv.open("legend", ident="legend")
    cv.rect(x, y, w, LEGEND_H, st.BOX, st.LINE, 6)
    samples: list[tuple[int, str, str]] = [
        (tables.faction_cards[Faction.LEGATES][1], "faction card", "value, faction"),
        (tables.leader_card[Faction.GLADIATORS], f"leader {st.LEADER_GLYPH}", "value 0"),
    ]
    if tables.assassin_card >= 0:
        samples.append((tables.slave_cards[Nationality.GREEK][2], "slave", " ".join(st.SLAVE_SHORT.values())))
        samples.append((tables.assassin_card, f"assassin {st.ASSASSIN_GLYPH}", "value 0"))
    samples.append((HIDDEN, "face down", "hidden"))
    step = (w - 12) / len(samples)
    for i, (card, name, hint) in enumerate(samples):
        cx = x + 8 + i * step
        if card == HIDDEN:
            draw_back(cv, cx, y + 5)
        else:
            draw_face(cv, card_face(tables, card), cx, y + 5)
        cv.text(cx + st.CARD_W + 6, y + 23, name, 12, bold=True)
        cv.text(cx + st.CARD_W + 6, y + 39, hint, 11, st.HINT)
    cv.close()
    return "".join(cv.parts)


def draw_player(cv: Canvas, sc: Scene, s: int, x: float, y: float, w: float, h: float) -> None:
    v = sc.view
    p = v.players[s]
    cv.open("player", key=f"player:{s}", ident=f"player-{s}", seat=s, money=p.money, laurels=p.laurels,
            legions=p.legions)  # fmt: skip
    cv.rect(x, y, w, h, st.BOX, st.LINE, 6, fixed=True)
    cv.rect(x, y, 10, h, st.PLAYER_COLOURS[s], rx=3, fixed=True)
    cv.text(x + 18, y + 20, st.player_name(s, v.brutii), 15, bold=True, fixed=True)
    if sc.viewer == s:
        cv.text(x + w - 10, y + 20, "you", 13, st.LINE, True, "end")
    if v.pending is not None and v.pending.seat == s:
        cv.outline("*", x + 2, y + 2, w - 4, h - 4)
        cv.text(x + 140, y + 20, "to decide", 14, st.HIGHLIGHT, True)
    favor = "eternal" if p.eternal_favor else "temporary" if p.temporary_favor else "none"
    cv.text(x + 18, y + 40, f"{p.money} denarii · {p.laurels} laurels · {p.legions} legions · "
            f"{p.followers} followers to place · tile: {TILE_NAMES[p.tile]} · favor: {favor}", 12)  # fmt: skip
    draw_markers(cv, p, x + 18, y + 48)
    for holdings in EXTRAS[sc.config.rules].holdings:
        holdings(cv, p, x + 330, y + 47)
    hand = sc.hands.get(s)
    size = p.hand_size if hand is None else sum(hand)
    cv.text(x + 18, y + 84, f"hand {size}", 11, bold=True)
    cards = hand_cards(hand) if hand is not None else [-1] * p.hand_size
    if h >= st.CARD_H + 76:
        draw_cards(cv, sc, cards, x + 76, y + 70, w - 86, "hand", s)
    cv.outline(f"player:{s}", x, y, w, h)
    cv.close()


def draw_markers(cv: Canvas, p: PublicPlayer, x: float, y: float) -> None:
    """The faction markers a player holds, as small coloured tags."""
    held = [Faction(f) for f, on in enumerate(p.markers) if on]
    cv.text(x, y + 12, "markers:" if held else "markers: none", 11)
    for i, f in enumerate(held):
        fill = st.FACTION_COLOURS[f]
        cv.rect(x + 56 + i * 36, y + 1, 32, 14, fill, st.INK, 3)
        cv.text(x + 72 + i * 36, y + 12, st.FACTION_SHORT[f], 9, st.text_colour(fill), anchor="middle")


def draw_expansion_holdings(cv: Canvas, p: PublicPlayer, x: float, y: float) -> None:
    """A player's patron tiles and claimed favor of the emperor tiles (R33, R35), drawn as tiles, from ``(x, y)``
    (the top of the row)."""
    cv.text(x, y + 13, "patrons" if p.patrons else "patrons: none", 11)
    after = draw_patrons(cv, p.patrons, x + 50, y) if p.patrons else x + 86
    cv.text(after + 12, y + 13, "emperor tiles" if p.emperor_tiles else "emperor tiles: none", 11)
    draw_held_emperor_tiles(cv, p.emperor_tiles, after + 88, y)


@dataclass(frozen=True)
class Extras:
    """What a rule set adds to the drawing: the width of the table row and the boards drawn beside it (from
    ``(x, y)``), lines in each player's panel (from ``(x, y)``), lines of public state in the decision panel (from
    ``(x, y)``, at most ``w`` wide, each returning the y below it)."""

    table_width: float
    boards: tuple[Callable[[Canvas, Scene, float, float], None], ...] = ()
    holdings: tuple[Callable[[Canvas, PublicPlayer, float, float], None], ...] = ()
    public: tuple[Callable[[Canvas, Scene, float, float, float], float], ...] = ()


_WITH_EXPANSION = Extras(300, boards=(draw_expansion,), holdings=(draw_expansion_holdings,))
EXTRAS: dict[RuleSet, Extras] = {
    RuleSet.BASE: Extras(930),
    RuleSet.EXPANSION: _WITH_EXPANSION,
    RuleSet.BRUTII: Extras(300, _WITH_EXPANSION.boards, _WITH_EXPANSION.holdings, public=(draw_brutii,)),
}
"""Per rule set, what the drawing adds: the expansion board (regions IX-XI) beside the table and the expansion's
holdings in the player panels; with the Brutii also his public state (R45)."""
