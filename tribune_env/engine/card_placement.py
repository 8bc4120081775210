"""Phase 1: card placement on the board, region by region."""

from __future__ import annotations

from tribune_env.engine.decisions import Phase
from tribune_env.engine.ops import draw_card, push
from tribune_env.engine.registry import REGIONS, step
from tribune_env.engine.state import GameState


@step
def fill_board(state: GameState, after_cesura: int) -> None:
    """Fill every card field in region order. A failed draw triggers cesura magna, then a retry (R5)."""
    state.phase = Phase.CARD_PLACEMENT
    for region in state.tables.regions:
        needs_card = REGIONS[region].needs_card
        for field in state.fields[region]:
            while needs_card(state, field):
                card = draw_card(state)
                if card < 0:
                    if after_cesura:
                        state.log(-1, "the board stays partly empty: no card can be drawn (R5)")
                        return
                    push(state, ("cesura",), ("fill_board", 1))
                    return
                field.append(card)
    state.log(-1, f"round {state.round}: cards placed on the board")
