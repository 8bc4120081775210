"""Phase 4: faction take-overs, factions in board order (R15).

A take-over set is built one card at a time (``PickCard``), then played
(``COMMIT``) or withdrawn (``DECLINE``). Cards are added in ascending card-type
order so that each set has exactly one building sequence, and a card is only
offered if the set can still be completed into one that takes the faction.
In the expansion the attempting player may stage assassin cards after his faction
cards (the assassin has the highest card type); each removes the target's highest
card on commit (R31).
"""

from __future__ import annotations

from tribune_env.data import BrutiiCard, Faction
from tribune_env.engine.actions import COMMIT, DECLINE, Action, Commit, Decline, PickCard, pick_card
from tribune_env.engine.brutii_ops import option
from tribune_env.engine.decisions import DecisionKind, Pending, Phase, TakeoverRole
from tribune_env.engine.ops import (
    ask,
    beats,
    card_names,
    faction_name,
    push,
    remove_highest,
    seat_name,
    stage,
    touch,
    unstage,
)
from tribune_env.engine.registry import DecisionRule, agenda_has, decision, step
from tribune_env.engine.state import GameState, Task


@step
def takeover(state: GameState, faction: int) -> None:
    """Queue the attempts on one faction: the player on "2" acts first (R15)."""
    state.phase = Phase.TAKEOVERS
    _brutii_stands(state, faction)
    first, second = (state.spaces[s] for s in state.tables.faction_spaces[faction])
    if second >= 0:
        push(state, ("attempt", faction, second, TakeoverRole.SECOND_FIRST), ("end_takeover", faction))
    elif first >= 0:
        push(state, ("attempt", faction, first, TakeoverRole.ALONE), ("end_takeover", faction))


def _brutii_stands(state: GameState, faction: int) -> None:
    """R48: with "Faction Take-Over" the Brutii attempts, as if he stood on a space of the field: option 1 on "1"
    of a field with no follower, option 2 on "2" behind another player's lone follower on "1". Never a faction he
    controls or the chariot blocks; the space is vacated with the others at the end of the take-over."""
    choice = option(state, BrutiiCard.FACTION_TAKEOVER)
    seat = state.brutii
    if choice < 0 or state.controller[faction] == seat or state.chariot == faction:
        return
    first_id, second_id = state.tables.faction_spaces[faction]
    first, second = state.spaces[first_id], state.spaces[second_id]
    if choice == 0 and first < 0 and second < 0:
        state.spaces[first_id] = seat
    elif choice == 1 and first >= 0 and first != seat and second < 0:
        state.spaces[second_id] = seat
    else:
        return
    state.log(seat, f"{seat_name(seat)} (the Brutii) attempts the {faction_name(state, faction)} (R48)")


@step
def end_takeover(state: GameState, faction: int) -> None:
    for space in state.tables.faction_spaces[faction]:
        state.spaces[space] = -1


def takeover_target(state: GameState, faction: int, role: int) -> list[int] | None:
    """The set a new set must beat (R15 amended): "2"'s committed set when "1" answers it, else the controller's.

    By the time "1" answers, the controller's set has left the table (:func:`_drop_controller`).
    ``None``: the faction is uncontrolled, any set of the smallest size takes it.
    """
    if role == TakeoverRole.FIRST_OVER_SECOND:
        return state.contest
    return state.sets[faction] if state.controller[faction] >= 0 else None


def assassin_room(state: GameState, target: list[int] | None) -> int:
    """How many assassins may hit ``target`` (R31, E40): never one of its protected lowest cards; none without one."""
    extra = state.config.components.expansion
    if target is None or extra is None or state.tables.assassin_card < 0:
        return 0
    return max(0, len(target) - extra.assassins.protected)


def _weakened(state: GameState, target: list[int], assassins: int) -> list[int]:
    """``target`` after ``assassins`` removals of its current highest card (R31)."""
    left = target[:]
    for _ in range(assassins):
        remove_highest(state, left)
    return left


def _split(state: GameState, cards: list[int]) -> tuple[list[int], int]:
    """A staged set's faction cards, and the number of its assassins."""
    assassin = state.tables.assassin_card
    return [c for c in cards if c != assassin], cards.count(assassin) if assassin >= 0 else 0


def _can_take(state: GameState, cards: list[int], target: list[int] | None, assassins: int = 0) -> bool:
    """``cards`` (faction cards) take the faction once ``assassins`` hit ``target`` (R15, R31)."""
    if len(cards) < state.config.components.min_set_size:
        return False
    return target is None or beats(state, cards, _weakened(state, target, assassins))


def _completion(state: GameState, seat: int, faction: int, staged: list[int], start: int) -> tuple[list[int], int]:
    """The largest completion of ``staged``: its faction cards plus every card of ``faction`` in the hand of type
    >= ``start``, and its assassins plus those in the hand (R31). More cards or more assassins never hurt."""
    hand = state.players[seat].hand
    full, assassins = _split(state, staged)
    for card in state.tables.faction_cards[faction]:
        if card >= start:
            full.extend([card] * hand[card])
    if state.tables.assassin_card >= 0:
        assassins += hand[state.tables.assassin_card]
    return full, assassins


def _completes(state: GameState, seat: int, faction: int, role: int, staged: list[int], start: int) -> bool:
    """Some completion of ``staged`` (cards of type >= ``start`` added) can be committed."""
    target = takeover_target(state, faction, role)
    cards, assassins = _completion(state, seat, faction, staged, start)
    return _can_take(state, cards, target, min(assassins, assassin_room(state, target)))


def _attempt_problem(state: GameState, faction: int, seat: int, role: int) -> str:
    first, second = (state.spaces[s] for s in state.tables.faction_spaces[faction])
    on_space = second if role == TakeoverRole.SECOND_FIRST else first
    if on_space != seat:
        return "the seat does not stand on the matching faction space"
    if role == TakeoverRole.FIRST_OVER_SECOND and not (state.contest and second >= 0):
        return "answering space 2 needs its committed set ('contest') and its player"
    return ""


@step(check=_attempt_problem)
def attempt(state: GameState, faction: int, seat: int, role: int) -> None:
    if _completes(state, seat, faction, role, [], 0):
        state.staged = []
        ask(state, Pending(DecisionKind.TAKEOVER_SET, seat, faction, role))
    else:
        # The same words as a chosen refusal: the log must not reveal that the hand had no set (R1).
        state.log(seat, f"{seat_name(seat)} declines to take over the {faction_name(state, faction)}")
        _after_decline(state, faction, role)


def _legal_takeover(state: GameState, pending: Pending) -> list[Action]:
    seat, faction, role = pending.seat, pending.faction, pending.index
    target = takeover_target(state, faction, role)
    hand = state.players[seat].hand
    staged = state.staged
    last = staged[-1] if staged else -1
    cards, assassins = _split(state, staged)
    candidates = list(state.tables.faction_cards[faction])
    if assassins < assassin_room(state, target):
        candidates.append(state.tables.assassin_card)  # R31: only against a target with room left
    options: list[Action] = []
    for card in candidates:
        if card < last or not hand[card]:
            continue
        hand[card] -= 1
        ok = _completes(state, seat, faction, role, [*staged, card], card)
        hand[card] += 1
        if ok:
            options.append(pick_card(card))
    if _can_take(state, cards, target, assassins):
        options.append(COMMIT)
    options.append(DECLINE)
    return options


def _resolve_takeover(state: GameState, pending: Pending, action: PickCard | Commit | Decline) -> None:
    seat, faction, role = pending.seat, pending.faction, pending.index
    if isinstance(action, PickCard):
        stage(state, pending, action.card)
        return
    if isinstance(action, Decline):
        unstage(state, seat)
        state.log(seat, f"{seat_name(seat)} declines to take over the {faction_name(state, faction)}")
        _after_decline(state, faction, role)
        return
    cards, state.staged = state.staged, []
    cards, assassins = _split(state, cards)
    state.log(seat, f"{seat_name(seat)} plays {card_names(state, cards)} for the {faction_name(state, faction)}")
    if assassins:
        _assassinate(state, faction, seat, role, assassins)
    first = state.spaces[state.tables.faction_spaces[faction][0]]
    if role == TakeoverRole.SECOND_FIRST:
        _drop_controller(state, faction)  # R15 (amended): the beaten set leaves the table at once
        state.contest = cards
        push(state, ("attempt", faction, first, TakeoverRole.FIRST_OVER_SECOND))
    elif role == TakeoverRole.FIRST_OVER_SECOND:
        second = state.spaces[state.tables.faction_spaces[faction][1]]
        win(state, faction, seat, cards)
        push(state, ("takeover_penalty", faction, second))
    else:
        win(state, faction, seat, cards)


def _assassinate(state: GameState, faction: int, seat: int, role: int, assassins: int) -> None:
    """R31: each assassin removes the target's current highest card; both go to the discard pile (E41)."""
    target = takeover_target(state, faction, role)
    assert target is not None  # the legal list offers assassins only against a target
    second = state.spaces[state.tables.faction_spaces[faction][1]]
    owner = second if role == TakeoverRole.FIRST_OVER_SECOND else state.controller[faction]
    removed = [remove_highest(state, target) for _ in range(assassins)]
    state.discard.extend(removed)
    state.discard.extend([state.tables.assassin_card] * assassins)
    state.log(
        seat,
        f"{seat_name(seat)} plays {assassins} assassin(s): {card_names(state, removed)} removed from "
        f"{seat_name(owner)}'s {faction_name(state, faction)} set and discarded with the assassin(s) (R31)",
    )


def _after_decline(state: GameState, faction: int, role: int) -> None:
    first, second = (state.spaces[s] for s in state.tables.faction_spaces[faction])
    if role == TakeoverRole.SECOND_FIRST:
        push(state, ("attempt", faction, first, TakeoverRole.ALONE))
    elif role == TakeoverRole.FIRST_OVER_SECOND:
        cards, state.contest = state.contest, []
        win(state, faction, second, cards)


def win(state: GameState, faction: int, seat: int, cards: list[int]) -> None:
    """``seat`` takes control with ``cards``; rewards follow in the order of R17."""
    name = faction_name(state, faction)
    _drop_controller(state, faction)
    state.controller[faction] = seat
    state.sets[faction] = cards
    state.log(seat, f"{seat_name(seat)} takes over the {name}")
    rewards: list[Task] = [("takeover_benefit", faction, seat)]
    if state.tables.leader_card[faction] in cards:
        rewards.append(("leader", faction, seat))
    rewards += [("marker", faction, seat), ("first_laurel", faction, seat)]
    push(state, *rewards)


def _drop_controller(state: GameState, faction: int) -> None:
    """The controller of ``faction`` (if any) loses it: his set goes to the discard pile, R18 applies."""
    previous = state.controller[faction]
    if previous < 0:
        return
    state.discard.extend(state.sets[faction])
    state.sets[faction] = []
    state.controller[faction] = -1
    state.log(previous, f"{seat_name(previous)} loses the {faction_name(state, faction)} and discards the beaten set")
    if faction == Faction.VESTALS and state.players[previous].temporary_favor:
        state.players[previous].temporary_favor = False
        touch(state, previous)
        state.log(previous, f"{seat_name(previous)} returns the temporary favor of the gods (R18)")


def _penalty_problem(state: GameState, faction: int, seat: int) -> str:
    second = state.spaces[state.tables.faction_spaces[faction][1]]
    return "" if state.contest and second == seat else "needs a contested set and its player on space 2"


@step(check=_penalty_problem)
def takeover_penalty(state: GameState, faction: int, seat: int) -> None:
    """R15: beaten by "1", the player on "2" takes the set back and discards one of its cards."""
    ask(state, Pending(DecisionKind.TAKEOVER_PENALTY, seat, faction))


def _legal_penalty(state: GameState, pending: Pending) -> list[Action]:
    return [pick_card(c) for c in sorted(set(state.contest))]


def _resolve_penalty(state: GameState, pending: Pending, action: PickCard) -> None:
    cards, state.contest = state.contest, []
    cards.remove(action.card)
    state.discard.append(action.card)
    for card in cards:
        state.players[pending.seat].hand[card] += 1
    state.log(
        pending.seat,
        f"{seat_name(pending.seat)} takes the set back and discards "
        f"{state.tables.card_name(action.card)} as a penalty (R15)",
    )


def _check_set(state: GameState, pending: Pending) -> str:
    """A loaded take-over decision: the seat stands on the space of its role, with the matching contest."""
    problem = _in_takeover(state, pending)
    if problem:
        return problem
    first, second = (state.spaces[s] for s in state.tables.faction_spaces[pending.faction])
    role = pending.index
    if role not in tuple(TakeoverRole):
        return f"pending.index: a take-over role is one of {[int(x) for x in TakeoverRole]}, got {role}"
    on_space = second if role == TakeoverRole.SECOND_FIRST else first
    if pending.seat != on_space:
        return "pending.seat: the player building a take-over set must stand on the matching faction space"
    if (role == TakeoverRole.FIRST_OVER_SECOND) != bool(state.contest) or (
        role == TakeoverRole.FIRST_OVER_SECOND and second < 0
    ):
        return "contest: a set committed from space 2 goes with the answer of space 1, and only then"
    cards, assassins = _split(state, state.staged)
    if any(state.tables.card_faction[c] != pending.faction for c in cards):
        return "staged: a take-over set holds cards of the attacked faction only (and assassins, R31)"
    if cards + [state.tables.assassin_card] * assassins != state.staged:
        return "staged: assassins are staged after the faction cards (ascending card types)"
    if assassins > assassin_room(state, takeover_target(state, pending.faction, role)):
        return "staged: more assassins than the target set allows (R31: its two lowest cards are protected)"
    return ""


def _in_takeover(state: GameState, pending: Pending) -> str:
    """A decision of the take-over of ``pending.faction``: in phase 4, with the end of that take-over still to run."""
    if pending.faction < 0:
        return f"pending.faction: a {pending.kind.key} decision names the faction"
    if state.phase is not Phase.TAKEOVERS:
        return f"pending.kind: a {pending.kind.key} decision is asked in phase takeovers, not here"
    if not agenda_has(state, "end_takeover", pending.faction):
        return f"agenda: a {pending.kind.key} decision needs the end of its take-over still to run"
    return ""


def _check_penalty(state: GameState, pending: Pending) -> str:
    problem = _in_takeover(state, pending)
    if problem:
        return problem
    second = state.spaces[state.tables.faction_spaces[pending.faction][1]]
    if pending.seat != second or not state.contest:
        return "pending: a take-over penalty needs the player on space 2 and the contested set"
    return ""


decision(
    DecisionRule(
        DecisionKind.TAKEOVER_SET,
        _legal_takeover,
        _resolve_takeover,
        "Take-over: add a card to your set, play the set (commit), or make no attempt.",
        check=_check_set,
        card_verb="add to your set:",
        commit_words="play the set you have chosen",
        decline_words="make no attempt (chosen cards go back to your hand)",
        stages=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.TAKEOVER_PENALTY,
        _legal_penalty,
        _resolve_penalty,
        "Take-over penalty: your set was beaten; discard one of its cards.",
        check=_check_penalty,
        card_verb="discard",
    )
)
