"""Plain-text rendering of a game, whole or as one player sees it."""

from __future__ import annotations

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
        lines.append(f"Waiting for P{pending.seat}: {pending.kind.key}{where}")
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
    for s, p in enumerate(state.players):
        markers = ",".join(comps.factions[f].name[:4] for f, on in enumerate(p.markers) if on) or "-"
        favor = "eternal" if p.eternal_favor else ("temporary" if p.temporary_favor else "-")
        held = p.hand_size if seat is None else public_hand_size(state, s)
        lines.append(
            f"  P{s}: {p.money} denarii, {p.laurels} laurels, {p.legions} legions, tile {TILE_NAMES[p.tile]},"
            f" favor {favor}, markers {markers}, {held} cards, {p.followers} followers left"
        )
        if seat is None or seat == s:
            hand = " ".join(t.card_label[c] for c, n in enumerate(p.hand) for _ in range(n))
            lines.append(f"      hand: {hand or '-'}")
    return "\n".join(lines)
