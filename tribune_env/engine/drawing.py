"""Drawing cards into hands, and cesura magna (R5)."""

from __future__ import annotations

from collections.abc import Callable

from tribune_env.engine.actions import Action, PickCard
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import ask, discard_from_hand, draw_card, hand_choices, push, seat_name
from tribune_env.engine.registry import DecisionRule, decision, step
from tribune_env.engine.state import GameState


@step
def draw(state: GameState, seat: int, n: int, after_cesura: int) -> None:
    """``seat`` draws ``n`` cards. An empty deck and discard pile trigger cesura magna once (R5)."""

    def put(card: int) -> None:
        state.players[seat].hand[card] += 1

    draw_into(state, seat, n, after_cesura, "draw", put)


def draw_into(
    state: GameState, seat: int, n: int, after_cesura: int, retry: str, put: Callable[[int], None], note: str = ""
) -> None:
    """Draw ``n`` cards for ``seat``, handing each to ``put``; the drawn card is private to ``seat`` (R1).

    When both piles are empty a cesura magna runs once, then the step ``retry`` (called with ``seat``, the cards
    still to draw and ``after_cesura=1``) goes on; after it, a failed draw ends the drawing (R5).
    """
    for i in range(n):
        card = draw_card(state)
        if card < 0:
            if after_cesura:
                state.log(seat, f"no card left to draw for {seat_name(seat)} (R5)")
                return
            push(state, ("cesura",), (retry, seat, n - i, 1))
            return
        put(card)
        state.log(seat, f"{seat_name(seat)} draws a card{note}")
        state.log(seat, f"{seat_name(seat)} drew {state.tables.card_name(card)}{note}", private_to=seat)


@step
def cesura(state: GameState) -> None:
    """Cesura magna: sets of 3+ lose their lowest cards at once; hands over the limit discard by choice."""
    comps = state.config.components
    value = state.tables.card_value
    state.log(-1, "cesura magna: no cards left in the draw and discard piles")
    for faction, cards in enumerate(state.sets):
        lose = comps.cards_lost_in_cesura(len(cards)) if state.controller[faction] >= 0 else 0
        for _ in range(lose):
            low = min(range(len(cards)), key=lambda i: value[cards[i]])
            card = cards.pop(low)
            state.discard.append(card)
            state.log(
                state.controller[faction],
                f"{seat_name(state.controller[faction])} loses "
                f"{state.tables.card_name(card)} from the displayed set (cesura magna)",
            )
    n = state.num_players
    seats = [(state.start_seat + k) % n for k in range(n)]
    push(state, *[("cesura_discard", s) for s in seats if state.players[s].hand_size > comps.hand_limit])


@step
def cesura_discard(state: GameState, seat: int) -> None:
    if state.players[seat].hand_size > state.config.components.hand_limit:
        ask(state, Pending(DecisionKind.CESURA_DISCARD, seat))


# The phases in which cards are drawn, so that a cesura magna may interrupt them (R5).
_DRAWING = (Phase.CARD_PLACEMENT, Phase.TAKEOVERS, Phase.FACTION_BENEFITS, Phase.PREPARATION)


def _cesura_problem(state: GameState, pending: Pending) -> str:
    if state.phase not in _DRAWING:
        return f"pending.kind: a cesura_discard is asked in a phase that draws cards, not {state.phase.name.lower()}"
    if state.players[pending.seat].hand_size <= state.config.components.hand_limit:
        return "pending.seat: a cesura_discard needs a hand over the hand limit"
    return ""


def _legal_cesura(state: GameState, pending: Pending) -> list[Action]:
    return hand_choices(state, pending.seat)


def _resolve_cesura(state: GameState, pending: Pending, action: PickCard) -> None:
    discard_from_hand(state, pending.seat, action.card)
    state.log(pending.seat, f"{seat_name(pending.seat)} discards {state.tables.card_name(action.card)} (cesura magna)")
    push(state, ("cesura_discard", pending.seat))


decision(
    DecisionRule(
        DecisionKind.CESURA_DISCARD,
        _legal_cesura,
        _resolve_cesura,
        "Cesura magna: discard a card (hands go down to 7).",
        check=_cesura_problem,
        card_verb="discard",
    )
)
