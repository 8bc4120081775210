"""Phase 2: placement of followers, one at a time in turn order (R7, R8, R9); the Princeps places two (R37)."""

from __future__ import annotations

from tribune_env.data import Official
from tribune_env.engine.actions import Action, PlaceFollower, place_follower
from tribune_env.engine.brutii import brutii_turn
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
    if state.brutii >= 0:  # R44: no followers, as many turns as a family has followers
        state.players[state.brutii].followers = 0
        state.brutii_turns = count
    if state.proconsul >= 0:
        state.players[state.proconsul].followers += 1
        state.log(state.proconsul, f"{seat_name(state.proconsul)} places the proconsul as an extra follower (R9)")
    state.turn_seat = state.start_seat
    state.placed_this_turn = 0
    push(state, ("place_next",))


def _princeps(state: GameState) -> int:
    """The Princeps holder (R37); -1 in a base game or while the Princeps lies on the Capitoleum."""
    return state.officials[Official.PRINCEPS] if state.officials else -1


def _princeps_placements(state: GameState) -> int:
    extra = state.config.components.expansion
    assert extra is not None  # a Princeps holder exists only in an expansion game
    return extra.official(Official.PRINCEPS).numbers["placements"]


def _pass_turn(state: GameState, seat: int) -> None:
    """R7: the turn passes clockwise, unless the Princeps holder has a placement of this turn left (R37: two per
    turn, one when a single follower is left; the proconsul counts as one of his followers)."""
    if seat == _princeps(state):
        state.placed_this_turn += 1
        if state.players[seat].followers > 0 and state.placed_this_turn < _princeps_placements(state):
            state.turn_seat = seat
            return
    state.placed_this_turn = 0
    state.turn_seat = (seat + 1) % state.num_players


@step
def place_next(state: GameState) -> None:
    n = state.num_players
    for k in range(n):
        seat = (state.turn_seat + k) % n
        if seat == state.brutii:  # R44: his turns are his discs; the proconsul goes with the follower disc
            if state.brutii_turns > 0:
                state.turn_seat = seat
                brutii_turn(state)
                return
            continue
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
        if region != state.veto:  # R54
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
    if seat != state.brutii:  # the Brutii's turn ends with his disc's last action (brutii_pass)
        _pass_turn(state, seat)
        push(state, ("place_next",))


def _place_problem(state: GameState, pending: Pending) -> str:
    """A loaded position in the middle of a turn: only the Princeps holder places again (R37)."""
    if state.placed_this_turn and (
        pending.seat != _princeps(state) or state.placed_this_turn >= _princeps_placements(state)
    ):
        return "placed_this_turn: only the Princeps holder places more than one follower per turn (R37)"
    return ""


def _turn_problem(state: GameState, pending: Pending) -> str:
    """A loaded placement: in phase 2, by the seat whose turn it is, with a follower left (R7)."""
    if state.phase is not Phase.FOLLOWER_PLACEMENT:
        return "pending.kind: a place_follower decision is asked in phase follower_placement, not here"
    if pending.seat != state.turn_seat or state.players[pending.seat].followers <= 0:
        return "pending.seat: the seat to place is the one whose turn it is (turn_seat), with a follower left"
    return ""


decision(
    DecisionRule(
        DecisionKind.PLACE_FOLLOWER,
        _legal_place,
        _resolve_place,
        "Place one of your followers on a free space.",
        check=_place_problem,
        flow=_turn_problem,
    )
)
