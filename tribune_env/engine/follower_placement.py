"""Phase 2: placement of followers, one at a time in turn order (R7, R8, R9)."""

from __future__ import annotations

from tribune_env.engine.actions import Action, PlaceFollower, place_follower
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import ask, give_money, push, seat_name
from tribune_env.engine.regions import paired_spaces
from tribune_env.engine.registry import REGIONS, DecisionRule, decision, step
from tribune_env.engine.state import GameState
from tribune_env.engine.tables import SpaceKind


@step
def placement(state: GameState) -> None:
    """Start phase 2: hand out followers; the proconsul is one more for its holder (R9)."""
    state.phase = Phase.FOLLOWER_PLACEMENT
    count = state.config.followers
    for player in state.players:
        player.followers = count
    if state.proconsul >= 0:
        state.players[state.proconsul].followers += 1
        state.log(state.proconsul, f"{seat_name(state.proconsul)} places the proconsul as an extra follower (R9)")
    state.turn_seat = state.start_seat
    push(state, ("place_next",))


@step
def place_next(state: GameState) -> None:
    n = state.num_players
    for k in range(n):
        seat = (state.turn_seat + k) % n
        if state.players[seat].followers > 0:
            state.turn_seat = seat
            ask(state, Pending(DecisionKind.PLACE_FOLLOWER, seat))
            return


def legal_spaces(state: GameState, seat: int) -> list[int]:
    """Follower spaces ``seat`` may use now, in space order; the coin bowl is always legal (R7).

    Region spaces follow each region's placement rule (its record); a faction field is filled "1" then "2",
    never both by one player, never by its controller, never while the chariot blocks it.
    """
    tables = state.tables
    out: list[int] = []
    for region in tables.regions:
        out.extend(REGIONS[region].free_spaces(state, seat))
    controller = state.controller
    for faction, ids in enumerate(tables.faction_spaces):
        if controller[faction] != seat and state.chariot != faction:
            out.extend(paired_spaces(state, ids, seat))
    out.append(tables.coin_bowl)
    out.sort()
    return out


def _legal_place(state: GameState, pending: Pending) -> list[Action]:
    return [place_follower(s) for s in legal_spaces(state, pending.seat)]


def _resolve_place(state: GameState, pending: Pending, action: PlaceFollower) -> None:
    seat = pending.seat
    spec = state.tables.spaces[action.space]
    state.players[seat].followers -= 1
    if spec.kind is SpaceKind.COIN_BOWL:
        comps = state.config.components
        amount = comps.coin_bowl_later if state.coin_bowl else comps.coin_bowl_first
        state.coin_bowl.append(seat)
        state.log(seat, f"{seat_name(seat)} places a follower on the coin bowl")
        give_money(state, seat, amount, "coin bowl")
    else:
        state.spaces[action.space] = seat
        state.log(seat, f"{seat_name(seat)} places a follower on {spec.label}")
        if spec.region is not None:
            REGIONS[spec.region].placed(state, seat, spec.slot)
    state.turn_seat = (seat + 1) % state.num_players
    push(state, ("place_next",))


decision(
    DecisionRule(
        DecisionKind.PLACE_FOLLOWER, _legal_place, _resolve_place, "Place one of your followers on a free space."
    )
)
