"""The table of a game as data for the page's own layout (:func:`table`): regions with their card fields and follower
spaces, the coin bowl and the rest of the table, the expansion's regions, the faction fields and the Brutii's
public state, each in words and numbers the page lays out to fit the window (it is not a picture).

It is built from a :class:`~tribune_env.board.scene.Scene`, the same thing the drawn board comes from, so it shows
no more than the drawing for the same viewer: a seat's scene, or a spectator's public one (see
:func:`~.views.board_scene`). The elements the page makes carry the drawn board's classes and data attributes
(``space``/``data-space-id``, ``card``/``data-card``/``data-where``, ``faction``/``data-faction``, ``official``,
``emperor-tile``, ``region``), so a choice's targets (:func:`~.choices.targets`) select them alike."""

from __future__ import annotations

from typing import Any

from tribune_env.board import style as st
from tribune_env.board.expansion import tile_lines
from tribune_env.board.pieces import card_face, official_name
from tribune_env.board.scene import Scene
from tribune_env.data import Faction, Official, Region
from tribune_env.engine.view import HIDDEN


def card(sc: Scene, kind: int, where: str, index: int, seat: int = -1) -> dict[str, Any]:
    """A card as the page shows it: face down (``hidden``) or its label, name, value, short word and colours."""
    if kind == HIDDEN or not 0 <= kind < sc.tables.num_card_types:
        return {"hidden": True, "where": where, "index": index}
    face = card_face(sc.tables, kind)
    found: dict[str, Any] = {
        "label": face.label,
        "name": sc.tables.card_name(kind),
        "value": face.value,
        "word": face.word,
        "kind": face.kind,
        "fill": face.fill,
        "ink": face.ink,
        "where": where,
        "index": index,
    }
    if seat >= 0:
        found["seat"] = seat
    return found


def _cards(sc: Scene, cards: tuple[int, ...] | list[int], where: str, seat: int = -1) -> list[dict[str, Any]]:
    return [card(sc, c, where, i, seat) for i, c in enumerate(cards)]


def _space(sc: Scene, space: int, caption: str = "") -> dict[str, Any]:
    spec = sc.tables.spaces[space]
    return {
        "id": space,
        "label": spec.label,
        "slot": spec.slot + 1,
        "occupant": sc.view.spaces[space],
        "caption": caption,
    }


def _region(sc: Scene, region: Region) -> dict[str, Any]:
    spaces = sc.tables.region_spaces[region]
    try:
        prices = sc.config.components.region(region).prices
    except (KeyError, ValueError, IndexError):  # the expansion's regions have no printed prices
        prices = ()
    found: dict[str, Any] = {
        "key": region.key,
        "title": st.region_title(region),
        "vetoed": sc.view.veto == int(region),
        "fields": [],
        "spaces": [_space(sc, s, f"{prices[i]} denarii" if i < len(prices) else "") for i, s in enumerate(spaces)],
        "lines": [],
    }
    if int(region) < len(sc.board) and sc.board[region]:
        found["fields"] = [_cards(sc, field, "board") for field in sc.board[region]]
    elif region is Region.FIELD_OF_MARS:
        pairs = [c for _, a, b in sc.pairs for c in (a, b)]
        found["lines"].append("pairs laid:" if pairs else "sealed pairs of cards")
        found["fields"] = [_cards(sc, pairs, "pair")] if pairs else []
    return found


def _expansion(sc: Scene) -> list[dict[str, Any]]:
    v = sc.view
    extra = sc.config.components.expansion
    refugium = _region(sc, Region.REFUGIUM)
    refugium["lines"].append("slaves: a patron tile or pairs")
    if sc.staged and v.pending is not None and v.pending.kind.key.startswith("refugium"):
        refugium["fields"] = [_cards(sc, sc.staged, "staged")]
    basilica = _region(sc, Region.BASILICA)
    basilica["lines"].append(f"emperor tiles in the pile: {v.emperor_pile_size}")
    tiles = [(v.emperor_up, "face up")] if v.emperor_up >= 0 else []
    tiles += [(t, "Matrona") for t in v.matrona_tiles]
    basilica["tiles"] = []
    for tile, where in tiles:
        spec = next((t for t in extra.emperor_tiles if t.id == tile), None) if extra is not None else None
        needs = [" ".join(tile_lines(need, extra)) for need in (spec.requires if spec is not None else ())]
        basilica["tiles"].append({"id": tile, "where": where, "needs": needs})
    capitoleum = _region(sc, Region.CAPITOLEUM)
    capitoleum["officials"] = [
        {
            "key": Official(o).name.lower(),
            "name": official_name(sc, Official(o)),
            "holder": holder,
            "chosen": bool(v.officials_chosen[o]) if o < len(v.officials_chosen) else False,
        }
        for o, holder in enumerate(v.officials)
    ]
    return [refugium, basilica, capitoleum]


def _faction(sc: Scene, f: Faction) -> dict[str, Any]:
    v = sc.view
    spec = sc.config.components.factions[f]
    ctl = v.controller[f]
    return {
        "key": f.key,
        "name": spec.name,
        "leader": spec.leader,
        "fill": st.FACTION_COLOURS[f],
        "ink": st.text_colour(st.FACTION_COLOURS[f]),
        "controller": ctl,
        "set": _cards(sc, v.sets[f], "set", ctl),
        "spaces": [_space(sc, s) for s in sc.tables.faction_spaces[f]],
        "markers": [s for s, p in enumerate(v.players) if p.markers[f]],
        "laurel": bool(v.first_laurel[f]),
        "blocked": bool(v.benefit_blocked and v.benefit_blocked[f]),
        "chariot": v.chariot == int(f),
    }


def status(sc: Scene) -> str:
    """The round, phase and who decides what, in words."""
    v = sc.view
    phase = st.words(v.phase.name.lower())
    if v.pending is not None:
        faction = f" ({sc.config.components.factions[v.pending.faction].name})" if v.pending.faction >= 0 else ""
        doing = f"{st.player_name(v.pending.seat, v.brutii)} to decide: {st.words(v.pending.kind.key)}{faction}"
    else:
        doing = "the game is over"
    return f"Round {v.round} · {phase} · start player P{v.start_seat} · {doing}"


def table(sc: Scene) -> dict[str, Any]:
    """Everything on the table in ``sc``, as data for the page (see the module docstring)."""
    v = sc.view
    components = sc.config.components
    chariot = components.factions[v.chariot].name if v.chariot >= 0 else "off the board"
    found: dict[str, Any] = {
        "status": status(sc),
        "colours": list(st.PLAYER_COLOURS),
        "regions": [_region(sc, printed.region) for printed in components.regions],
        "bowl": {
            "space": _space(sc, sc.tables.coin_bowl),
            "paid": list(v.coin_bowl),
            "colosseum": v.colosseum,
            "draw": v.draw_size,
            "discard": v.discard_size,
            "chariot": chariot,
            "proconsul": v.proconsul,
        },
        "expansion": _expansion(sc) if sc.config.rules.uses_expansion else [],
        "factions": [_faction(sc, f) for f in Faction],
        "brutii": None,
    }
    if sc.config.rules.has_brutii and v.brutii >= 0:
        veto = Region(v.veto).key.replace("_", " ") if v.veto >= 0 else "none"
        found["brutii"] = {"seat": v.brutii, "turns": v.brutii_turns, "veto": veto}
    return found
