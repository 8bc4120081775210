"""Phase 1: card placement on the board, region by region."""

from __future__ import annotations

from tribune_env.data import Region
from tribune_env.engine.decisions import Phase
from tribune_env.engine.ops import draw_card, push
from tribune_env.engine.registry import step
from tribune_env.engine.state import GameState


def _field_needs_card(state: GameState, region: Region, field: list[int]) -> bool:
    spec = state.config.components.region(region)
    if region is Region.CATACOMBS:
        return len(field) < spec.numbers["pile"]
    if region is Region.CURIA:
        # R6: fill until the sum reaches the threshold or a leader lies there.
        value = state.tables.card_value
        total = sum(value[c] for c in field)
        has_leader = any(value[c] == 0 for c in field)
        return total < spec.numbers["fill_sum"] and not has_leader
    return not field


@step
def fill_board(state: GameState, after_cesura: int) -> None:
    """Fill every card field in region order. A failed draw triggers cesura magna, then a retry (R5)."""
    state.phase = Phase.CARD_PLACEMENT
    for region in Region:
        for field in state.fields[region]:
            while _field_needs_card(state, region, field):
                card = draw_card(state)
                if card < 0:
                    if after_cesura:
                        state.log(-1, "the board stays partly empty: no card can be drawn (R5)")
                        return
                    push(state, ("cesura",), ("fill_board", 1))
                    return
                field.append(card)
    state.log(-1, f"round {state.round}: cards placed on the board")
