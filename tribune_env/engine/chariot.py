"""Phase 6: the chariot auction (R22) and the end of the round."""

from __future__ import annotations

from tribune_env.data import BrutiiCard
from tribune_env.engine.actions import DECLINE, Action, Bid, ChooseFaction, Decline, choose_faction
from tribune_env.engine.brutii_ops import played
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import ask, bid_choices, faction_name, give_money, pay, push, seal_bid, seat_name
from tribune_env.engine.registry import DecisionRule, agenda_has, decision, in_phase, step
from tribune_env.engine.state import OPTED_OUT, GameState


@step
def chariot(state: GameState) -> None:
    """The chariot leaves its faction; every player bids, sealed, in turn order from the starting player."""
    state.phase = Phase.CHARIOT_AUCTION
    state.chariot = -1
    state.bids = [-1] * state.num_players
    n = state.num_players
    seats = [(state.start_seat + k) % n for k in range(n)]
    push(state, *[("chariot_bid", s) for s in seats], ("chariot_resolve",))


@step
def chariot_bid(state: GameState, seat: int) -> None:
    ask(state, Pending(DecisionKind.CHARIOT_BID, seat))


def _legal_bid(state: GameState, pending: Pending) -> list[Action]:
    """Every affordable bid; the Brutii may also opt out, in the same sealed choice (R49)."""
    bids = bid_choices(state, pending.seat)
    return [*bids, DECLINE] if pending.seat == state.brutii else bids


def _resolve_bid(state: GameState, pending: Pending, action: Bid | Decline) -> None:
    if isinstance(action, Decline):
        state.bids[pending.seat] = OPTED_OUT
        state.log(pending.seat, f"{seat_name(pending.seat)} makes a sealed chariot choice")
        state.log(pending.seat, f"{seat_name(pending.seat)} opts out (sealed)", private_to=pending.seat)
        return
    if pending.seat == state.brutii:  # the same public words as opting out (R49: one sealed choice)
        state.log(pending.seat, f"{seat_name(pending.seat)} makes a sealed chariot choice")
    seal_bid(state, pending.seat, action.amount, "the chariot")


@step
def chariot_resolve(state: GameState) -> None:
    """A unique highest bid wins and pays the stock; a tie leaves the chariot off the board."""
    bids = state.bids
    shown = ", ".join(f"{seat_name(s)} {'opts out' if b == OPTED_OUT else b}" for s, b in enumerate(bids))
    state.log(-1, "chariot bids revealed: " + shown)
    best = max(bids)
    top = [s for s, b in enumerate(bids) if b == best]
    opted_out = state.brutii >= 0 and bids[state.brutii] == OPTED_OUT
    state.bids = [-1] * state.num_players
    if len(top) != 1:
        state.log(-1, "the chariot auction is tied: the chariot stays off the board (R22)")
        return
    winner = top[0]
    pay(state, winner, best, "the chariot")
    if opted_out and played(state, BrutiiCard.DENARII):  # R49: the winner's payment goes to the Brutii
        give_money(state, state.brutii, best, "the chariot winner's payment, Denarii (R49)")
    ask(state, Pending(DecisionKind.CHARIOT_PLACEMENT, winner))


def _resolve_ahead(state: GameState) -> str:
    return "" if agenda_has(state, "chariot_resolve") else "agenda: a chariot_bid needs the reveal of the bids to run"


def _legal_place(state: GameState, pending: Pending) -> list[Action]:
    owned = [choose_faction(f) for f, c in enumerate(state.controller) if c == pending.seat]
    return [*owned, DECLINE]


def _resolve_place(state: GameState, pending: Pending, action: ChooseFaction | Decline) -> None:
    if isinstance(action, Decline):
        state.log(pending.seat, f"{seat_name(pending.seat)} leaves the chariot off the board")
        return
    state.chariot = action.faction
    state.log(
        pending.seat, f"{seat_name(pending.seat)} blocks the {faction_name(state, action.faction)} with the chariot"
    )


decision(
    DecisionRule(
        DecisionKind.CHARIOT_BID,
        _legal_bid,
        _resolve_bid,
        "Chariot auction: make a sealed bid in denarii.",
        check=in_phase(Phase.CHARIOT_AUCTION, then=lambda state, pending: _resolve_ahead(state)),
        bid=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.CHARIOT_PLACEMENT,
        _legal_place,
        _resolve_place,
        "Chariot: block a faction you control, or leave the chariot off the board.",
        check=in_phase(Phase.CHARIOT_AUCTION),
        decline_words="leave the chariot off the board",
    )
)
