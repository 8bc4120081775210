"""Plain-text rendering of a game, whole or as one player sees it."""

from __future__ import annotations

from collections.abc import Callable

from tribune_env.data import BrutiiCard, ExpansionSpec, Official, Region, Requirement
from tribune_env.engine.brutii import card_name, disc_name
from tribune_env.engine.brutii_ops import OPTION_OF, REGION_CARDS, brutii_spec, is_brutii, through_a_card
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.state import TILE_NAMES, GameState
from tribune_env.engine.view import HIDDEN, player_view, public_hand_size


def render(state: GameState, seat: int | None = None) -> str:
    """A readable board. With ``seat``, only what that player may know (hidden cards show as '??')."""
    t = state.tables
    comps = state.config.components
    view = player_view(state, seat if seat is not None else 0)

    def card(c: int) -> str:
        return "??" if c == HIDDEN else t.card_label[c]

    lines = [
        f"Round {state.round}, phase {state.phase.name.lower()}, starting player P{state.start_seat}; "
        f"victory card: {state.victory_card or 'point-value variant'}",
    ]
    pending = state.pending
    if pending is not None:
        where = f", {comps.factions[pending.faction].name}" if pending.faction >= 0 else ""
        lines.append(f"Waiting for P{pending.seat}: {pending.kind.key}{where}{brutii_role(state, pending)}")
    else:
        lines.append(
            "Game over; winner(s): "
            + ", ".join(f"P{s}" for s in state.winners)
            + (" (truncated)" if state.truncated else "")
        )
    for r in t.regions:
        spaces = ", ".join(
            f"{t.spaces[s].slot + 1}:{'P' + str(state.spaces[s]) if state.spaces[s] >= 0 else '-'}"
            for s in t.region_spaces[r]
        )
        if r.expansion:  # IX-XI: follower spaces only (E7)
            lines.append(f"  {r.key:<14} followers [{spaces}]")
            continue
        cards = " | ".join(" ".join(card(c) for c in field) or "." for field in view.board[r])
        lines.append(f"  {r.key:<14} cards [{cards}]  followers [{spaces}]")
    lines.append(
        f"  coin bowl: {' '.join(f'P{s}' for s in state.coin_bowl) or '-'}   colosseum: {state.colosseum}"
        f"   chariot: {comps.factions[state.chariot].name if state.chariot >= 0 else 'off board'}"
        f"   proconsul: {'P' + str(state.proconsul) if state.proconsul >= 0 else '-'}"
    )
    lines.append(f"  draw pile {len(state.draw)}, discard pile {len(state.discard)}")
    for f, spec in enumerate(comps.factions):
        ctl = state.controller[f]
        owner = f"P{ctl} " + " ".join(card(c) for c in state.sets[f]) if ctl >= 0 else "uncontrolled"
        ff = " ".join(f"P{state.spaces[s]}" if state.spaces[s] >= 0 else "-" for s in t.faction_spaces[f])
        laurel = " (laurel)" if state.first_laurel[f] else ""
        lines.append(f"  {spec.name:<15} {owner:<40} field [{ff}]{laurel}")
    extra = comps.expansion
    if state.config.expansion and extra is not None:
        augur = tuple(state.augur_cards) if seat is None else view.augur_cards
        lines.extend(_expansion_lines(state, extra, augur, card))
    if state.brutii >= 0:
        lines.extend(brutii_lines(state))
    for s, p in enumerate(state.players):
        markers = ",".join(comps.factions[f].name[:4] for f, on in enumerate(p.markers) if on) or "-"
        favor = "eternal" if p.eternal_favor else ("temporary" if p.temporary_favor else "-")
        held = p.hand_size if seat is None else public_hand_size(state, s)
        who = f"P{s} (Brutii)" if s == state.brutii else f"P{s}"
        lines.append(
            f"  {who}: {p.money} denarii, {p.laurels} laurels, {p.legions} legions, tile {TILE_NAMES[p.tile]},"
            f" favor {favor}, markers {markers}, {held} cards, {p.followers} followers left"
        )
        if state.config.expansion:
            tiles = " ".join(f"#{tile}" for tile in p.emperor_tiles) or "-"
            lines.append(f"      patrons {p.patrons}, emperor tiles {tiles}")
        if seat is None or seat == s:
            hand = " ".join(t.card_label[c] for c, n in enumerate(p.hand) for _ in range(n))
            lines.append(f"      hand: {hand or '-'}")
    return "\n".join(lines)


def tile_text(spec: ExpansionSpec, tile: int) -> str:
    """A favor of the emperor tile with its two requirements, e.g. ``#3 (scroll + pay 12)`` (R34)."""
    found = next((t for t in spec.emperor_tiles if t.id == tile), None)
    if found is None:
        raise KeyError(f"no favor of the emperor tile {tile}")
    needs = [f"pay {spec.emperor_pay}" if q is Requirement.PAY else q.key.replace("_", " ") for q in found.requires]
    return f"#{tile} ({' + '.join(needs)})"


def _expansion_lines(
    state: GameState, spec: ExpansionSpec, augur: tuple[int, ...], card: Callable[[int], str]
) -> list[str]:
    """The expansion board: emperor tiles (face up, pile size, Matrona), officials and their holders (R34-R39)."""
    up = tile_text(spec, state.emperor_up) if state.emperor_up >= 0 else "none"
    matrona = " ".join(tile_text(spec, t) for t in state.matrona_tiles) or "-"
    lines = [f"  emperor tiles: face up {up}, pile {len(state.emperor_pile)}, Matrona's {matrona}"]
    held = []
    for o, holder in enumerate(state.officials):
        name = spec.official(Official(o)).name
        chosen = "*" if state.officials_chosen[o] else ""
        held.append(f"{name}{chosen} {'P' + str(holder) if holder >= 0 else 'Capitoleum'}")
    lines.append(f"  officials: {', '.join(held)}")
    blocked = [state.config.components.factions[f].name for f, on in enumerate(state.benefit_blocked) if on]
    if blocked:
        lines.append(f"  no benefit this phase (Tribunus Plebis): {', '.join(blocked)}")
    if augur:  # R39: the Augur's drawn cards, '??' for everybody but him
        lines.append(f"  Augur's drawn cards: {' '.join(card(c) for c in augur)}")
    if state.placed_this_turn:
        lines.append(f"  followers placed this turn: {state.placed_this_turn}")
    return lines


def brutii_lines(state: GameState) -> list[str]:
    """The Brutii's public state (R45): his seat and turns, his discs, his played and unplayed action cards, his
    options and the vetoed region (his face-down discs only as a number: their order is known to nobody)."""
    face_down = brutii_spec(state).disc_count - len(state.brutii_revealed)
    revealed = ", ".join(disc_name(d) for d in state.brutii_revealed) or "-"
    played = ", ".join(card_name(c) for c in state.brutii_played) or "-"
    unplayed = ", ".join(card_name(c) for c in BrutiiCard if c not in state.brutii_played)
    options = ", ".join(
        f"{card_name(card)} {'option ' + str(state.brutii_options[i] + 1) if state.brutii_options[i] >= 0 else '-'}"
        for card, i in OPTION_OF.items()
    )
    veto = Region(state.veto).key if state.veto >= 0 else "-"
    return [
        f"  Brutii: P{state.brutii}; phase-2 turns left {state.brutii_turns}; discs revealed: {revealed}; "
        f"face down {face_down}",
        f"      action cards played: {played}; unplayed: {unplayed or '-'}",
        f"      options: {options}; veto: {veto}",
    ]


"""The location decisions the Brutii takes off the follower spaces, through an action card (R47: ``pending.index``
is :data:`~tribune_env.engine.brutii_ops.BRUTII_SLOT`; elsewhere an index of -1 means no space at all)."""


def brutii_role(state: GameState, pending: Pending) -> str:
    """How the Brutii takes ``pending`` ('' for anybody else): through which action card he acts at a location
    (R47), places the proconsul (R44) or opts out of the chariot auction (R49)."""
    if not is_brutii(state, pending.seat):
        return ""
    if through_a_card(state, pending):
        region = next((t[-1] for t in reversed(state.agenda) if t[0] == "end_region"), None)  # under evaluation
        card = REGION_CARDS[Region(region)][0] if isinstance(region, int) and region in REGION_CARDS else None
        through = f', through the action card "{card_name(card)}"' if card is not None else ""
        return f" (the Brutii{through}, after the occupants)"
    if pending.kind is DecisionKind.PLACE_FOLLOWER:
        return " (the Brutii places the proconsul)"
    if pending.kind is DecisionKind.CHARIOT_BID:
        return " (the Brutii: bid or opt out, sealed)"
    return " (the Brutii)"
