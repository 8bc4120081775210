"""Phase 2: placement of followers, one at a time in turn order (R7, R8, R9)."""

from __future__ import annotations

from functools import cache

from tribune_env.data import Faction, Region
from tribune_env.engine.actions import Action, PlaceFollower, place_follower
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import ask, chance, give_money, push, seat_name
from tribune_env.engine.registry import legal, resolve, step
from tribune_env.engine.state import GameState
from tribune_env.engine.tables import SpaceKind, Tables


@step
def placement(state: GameState) -> None:
    """Start phase 2: hand out followers; the proconsul is one more for its holder (R9)."""
    state.phase = Phase.FOLLOWER_PLACEMENT
    count = state.config.components.followers[state.num_players]
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


@cache
def _plain_spaces(tables: Tables) -> tuple[int, ...]:
    """Region spaces with no rule beyond "one follower per space" (all but the Atrium and the Pantheon)."""
    special = (Region.ATRIUM, Region.PANTHEON)
    return tuple(s for r, ids in enumerate(tables.region_spaces) if r not in special for s in ids)


def _paired(spaces: list[int], first: int, second: int, seat: int, out: list[int]) -> None:
    """Spaces "1"/"2" filled in order, never both by one player (Atrium, faction fields)."""
    if spaces[first] < 0:
        out.append(first)
    elif spaces[first] != seat and spaces[second] < 0:
        out.append(second)


def legal_spaces(state: GameState, seat: int) -> list[int]:
    """Follower spaces ``seat`` may use now, in space order; the coin bowl is always legal (R7)."""
    tables = state.tables
    spaces = state.spaces
    out = [s for s in _plain_spaces(tables) if spaces[s] < 0]
    first, second = tables.region_spaces[Region.ATRIUM]
    _paired(spaces, first, second, seat, out)
    pantheon = tables.region_spaces[Region.PANTHEON]
    if state.players[seat].markers[Faction.VESTALS] and all(spaces[s] != seat for s in pantheon):
        out.extend(s for s in pantheon if spaces[s] < 0)
    controller = state.controller
    for faction, (first, second) in enumerate(tables.faction_spaces):
        if controller[faction] != seat and state.chariot != faction:
            _paired(spaces, first, second, seat, out)
    out.append(tables.coin_bowl)
    out.sort()
    return out


@legal(DecisionKind.PLACE_FOLLOWER)
def _legal_place(state: GameState, pending: Pending) -> list[Action]:
    return [place_follower(s) for s in legal_spaces(state, pending.seat)]


@resolve(DecisionKind.PLACE_FOLLOWER)
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
        if spec.region is Region.ATRIUM:
            _flip_atrium(state, seat, spec.slot)
        elif spec.region is Region.PANTHEON:
            _peek_pantheon(state, seat)
    state.turn_seat = (seat + 1) % state.num_players
    push(state, ("place_next",))


def _flip_atrium(state: GameState, seat: int, slot: int) -> None:
    """R8: "1." turns two face-down cards, picked at random; "2." turns the rest."""
    fields = state.fields[Region.ATRIUM]
    hidden = [i for i, field in enumerate(fields) if field and not state.atrium_up[i]]
    if slot == 0:
        flip = state.config.components.region(Region.ATRIUM).numbers["first_flip"]
        hidden = sorted(chance(state).sample(hidden, min(flip, len(hidden))))
    for i in hidden:
        state.atrium_up[i] = True
        state.log(seat, f"Atrium card turned face up: {state.tables.card_name(fields[i][0])}")


def _peek_pantheon(state: GameState, seat: int) -> None:
    state.players[seat].pantheon_seen = True
    field = state.fields[Region.PANTHEON][0]
    if field:
        state.log(
            seat, f"{seat_name(seat)} looks at the Pantheon card: {state.tables.card_name(field[0])}", private_to=seat
        )
