"""Phase 3: region evaluation, regions I..VIII in order (R10..R14)."""

from __future__ import annotations

from collections.abc import Callable

from tribune_env.data import BrutiiCard, Faction, Region
from tribune_env.engine.actions import DECLINE, Action, Bid, ChooseOption, Decline, PickCard, choose_option, pick_card
from tribune_env.engine.brutii_ops import BRUTII_SLOT, REGION_CARDS, brutii_tail, by_card, option, played
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import (
    ask,
    bid_choices,
    card_names,
    chance,
    discard_from_hand,
    give_eternal_favor,
    give_laurels,
    give_money,
    hand_choices,
    pay,
    push,
    seal_bid,
    seat_name,
    stage,
    take_from_hand,
    unstage,
)
from tribune_env.engine.registry import (
    REGIONS,
    CheckFn,
    DecisionRule,
    RegionRule,
    agenda_has,
    decision,
    region_rule,
    step,
)
from tribune_env.engine.state import GameState, Task
from tribune_env.engine.tables import CardKind

LATRINE_MONEY, LATRINE_BUY = 0, 1


def _occupant(state: GameState, region: Region, slot: int) -> int:
    return state.spaces[state.tables.region_spaces[region][slot]]


@step
def evaluate(state: GameState, region: int) -> None:
    """Evaluate one region: queue the steps of its record, then :func:`end_region`."""
    r = Region(region)
    state.phase = Phase.EXPANSION_EVALUATION if r.expansion else Phase.REGION_EVALUATION
    if state.veto == region:  # R54: its followers go home with no effect, its cards are discarded
        state.log(-1, f"{r.key} is vetoed: nothing happens there this round (R54)")
        push(state, ("end_region", region))
        return
    push(state, *REGIONS[r].evaluate(state), ("end_region", region))


@step
def end_region(state: GameState, region: int) -> None:
    """Unclaimed cards go to the discard pile; followers go home; then the region's own clean-up."""
    for field in state.fields[region]:
        state.discard.extend(field)
        field.clear()
    for space in state.tables.region_spaces[region]:
        state.spaces[space] = -1
    REGIONS[Region(region)].cleared(state)


def _seat_problem(state: GameState, region: Region, slot: int, seat: int) -> str:
    return "" if _occupant(state, region, slot) == seat else "seat not on that space"


def on_slot(region: Region) -> CheckFn:
    """The check of a decision taken by the player on space ``pending.index`` of ``region``."""

    phase = Phase.EXPANSION_EVALUATION if region.expansion else Phase.REGION_EVALUATION

    def check(state: GameState, pending: Pending) -> str:
        ids = state.tables.region_spaces[region]
        if pending.index == BRUTII_SLOT:
            if region not in REGION_CARDS:  # no card lets the Brutii act here (R47)
                return f"pending.index: a {pending.kind.key} decision needs the deciding player on a {region.key} space"
            if not by_card(state, pending) or not played(state, REGION_CARDS[region][0]):
                return (
                    f"pending.index: a {pending.kind.key} decision off the spaces is the Brutii's, through the "
                    f"action card {REGION_CARDS[region][0].key} (R47)"
                )
        elif not 0 <= pending.index < len(ids) or state.spaces[ids[pending.index]] != pending.seat:
            return f"pending.index: a {pending.kind.key} decision needs the deciding player on that space"
        return _evaluating(state, pending, region, phase)

    return check


def _evaluating(state: GameState, pending: Pending, region: Region, phase: Phase) -> str:
    """A decision of ``region``'s evaluation: in its phase, with the region's clean-up still to run."""
    if state.phase is not phase:
        return f"pending.kind: a {pending.kind.key} decision is asked in phase {phase.name.lower()}, not here"
    if not agenda_has(state, "end_region", int(region)):
        return f"agenda: a {pending.kind.key} decision needs the end of the {region.key} evaluation still to run"
    return ""


def _latrine_problem(state: GameState, pending: Pending) -> str:
    if _occupant(state, Region.LATRINE, 0) != pending.seat or not state.fields[Region.LATRINE][0]:
        return "pending.seat: a latrine_choice decision needs the deciding player on the Latrine, and its card"
    return _evaluating(state, pending, Region.LATRINE, Phase.REGION_EVALUATION)


def _atrium_bid_problem(state: GameState, pending: Pending) -> str:
    problem = on_slot(Region.ATRIUM)(state, pending)
    if problem:
        return problem
    if not agenda_has(state, "atrium_resolve"):
        return "agenda: an atrium_bid needs the reveal of the bids still to run"
    return ""


def _atrium_full(state: GameState) -> bool:
    return all(state.spaces[s] >= 0 for s in state.tables.region_spaces[Region.ATRIUM])


def _slots(state: GameState, region: Region) -> range:
    return range(len(state.tables.region_spaces[region]))


def free_spaces(state: GameState, region: Region) -> list[int]:
    """The empty follower spaces of ``region``: the placement rule of a region with one follower per space."""
    spaces = state.spaces
    return [s for s in state.tables.region_spaces[region] if spaces[s] < 0]


def paired_spaces(state: GameState, ids: tuple[int, ...], seat: int) -> list[int]:
    """Spaces "1"/"2" filled in order, never both by one player (Atrium, faction fields)."""
    first, second = ids
    spaces = state.spaces
    if spaces[first] < 0:
        return [first]
    if spaces[first] != seat and spaces[second] < 0:
        return [second]
    return []


def ordered_problem(state: GameState, ids: tuple[int, ...], label: str) -> str:
    """Why the followers on spaces "1", "2", ... break "filled in order, one per player" ('' if they do not)."""
    seats = [state.spaces[s] for s in ids]
    for i in range(1, len(seats)):
        if seats[i] >= 0 and seats[i - 1] < 0:
            return f"{label}:{i + 1} needs another player on {label}:{i}"
    taken = [s for s in seats if s >= 0]
    if len(set(taken)) != len(taken):
        return f"one player on two {label} spaces"
    return ""


# --- I, II: Thermae and Forum Romanum --------------------------------------


def _evaluate_paid_fields(state: GameState, region: Region) -> None:
    """R10: pay the printed cost per space, field by field in board order, or lose the card."""
    cost = state.config.components.region(region).numbers["cost"]
    for slot, field in enumerate(state.fields[region]):
        seat = _occupant(state, region, slot)
        if seat < 0 or not field:
            continue
        if state.players[seat].money >= cost:
            pay(state, seat, cost, f"{region.key} space {slot + 1}")
            for card in field:
                state.players[seat].hand[card] += 1
            state.log(seat, f"{seat_name(seat)} takes {card_names(state, field)} from {region.key}")
            field.clear()
        else:
            state.log(seat, f"{seat_name(seat)} cannot pay {cost} for {region.key} space {slot + 1} (R10)")


# --- III: Latrine ------------------------------------------------------------


@step
def latrine(state: GameState) -> None:
    seat = _occupant(state, Region.LATRINE, 0)
    field = state.fields[Region.LATRINE][0]
    if seat >= 0 and field:
        state.log(seat, f"Latrine card revealed: {state.tables.card_name(field[0])}")
        ask(state, Pending(DecisionKind.LATRINE_CHOICE, seat))


def _legal_latrine(state: GameState, pending: Pending) -> list[Action]:
    card = state.fields[Region.LATRINE][0][0]
    options: list[Action] = [choose_option(LATRINE_MONEY)]
    if state.players[pending.seat].money >= state.tables.card_value[card]:
        options.append(choose_option(LATRINE_BUY))
    return options


def _resolve_latrine(state: GameState, pending: Pending, action: ChooseOption) -> None:
    seat = pending.seat
    field = state.fields[Region.LATRINE][0]
    card = field.pop()
    value = state.tables.card_value[card]
    if action.option == LATRINE_MONEY:
        give_money(state, seat, value, "Latrine")
        state.discard.append(card)
    else:
        pay(state, seat, value, "Latrine")
        state.players[seat].hand[card] += 1
        if played(state, BrutiiCard.DENARII) and seat != state.brutii:  # R47: another buyer pays the Brutii
            give_money(state, state.brutii, value, "the Latrine card's price, Denarii (R47)")
        state.log(seat, f"{seat_name(seat)} takes {state.tables.card_name(card)} from the Latrine")


# --- IV: Curia ---------------------------------------------------------------


@step(slot_region=Region.CURIA)
def curia_field(state: GameState, slot: int) -> None:
    seat = _occupant(state, Region.CURIA, slot)
    if seat >= 0 and state.fields[Region.CURIA][slot] and state.players[seat].hand_size:
        ask(state, Pending(DecisionKind.CURIA_DISCARD, seat, index=slot))


def _legal_curia(state: GameState, pending: Pending) -> list[Action]:
    return [*hand_choices(state, pending.seat), DECLINE]


def _resolve_curia(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} declines Curia field {pending.index + 1}")
        return
    if option(state, BrutiiCard.CARDS) == 1 and seat != state.brutii:  # R47: Cards 2, others' discards are his
        take_from_hand(state, seat, action.card)
        state.players[state.brutii].hand[action.card] += 1
        state.log(seat, f"the discard goes to {seat_name(state.brutii)} (the Brutii, Cards option 2)")
    else:
        discard_from_hand(state, seat, action.card)
    field = state.fields[Region.CURIA][pending.index]
    for card in field:
        state.players[seat].hand[card] += 1
    state.log(
        seat,
        f"{seat_name(seat)} discards {state.tables.card_name(action.card)} and takes "
        f"{card_names(state, field)} from Curia field {pending.index + 1}",
    )
    field.clear()


# --- V: Atrium Auctionorum ---------------------------------------------------


@step
def atrium(state: GameState) -> None:
    """R11: a lone bidder on "1." pays the fixed price for the face-up cards; two bidders bid sealed."""
    first = _occupant(state, Region.ATRIUM, 0)
    second = _occupant(state, Region.ATRIUM, 1)
    if first < 0:
        return
    if second >= 0:
        state.bids = [-1] * state.num_players
        push(state, ("atrium_bid", first, 0), ("atrium_bid", second, 1), ("atrium_resolve",))
        return
    price = state.config.components.region(Region.ATRIUM).numbers["single_bidder_price"]
    fields = state.fields[Region.ATRIUM]
    up = [i for i, field in enumerate(fields) if field and state.atrium_up[i]]
    if state.players[first].money >= price and up:
        pay(state, first, price, "Atrium Auctionorum")
        taken = [fields[i].pop() for i in up]
        for card in taken:
            state.players[first].hand[card] += 1
        state.log(first, f"{seat_name(first)} takes {card_names(state, taken)} from the Atrium")


@step(slot_region=Region.ATRIUM, check=lambda state, seat, slot: _seat_problem(state, Region.ATRIUM, slot, seat))
def atrium_bid(state: GameState, seat: int, slot: int) -> None:
    ask(state, Pending(DecisionKind.ATRIUM_BID, seat, index=slot))


def _legal_atrium_bid(state: GameState, pending: Pending) -> list[Action]:
    return bid_choices(state, pending.seat)


def _resolve_atrium_bid(state: GameState, pending: Pending, action: Bid) -> None:
    seal_bid(state, pending.seat, action.amount, "the Atrium cards")


def _atrium_resolve_problem(state: GameState) -> str:
    """The reveal needs both Atrium spaces taken, and each bidder's bid made or still to come; it runs once."""
    if not _atrium_full(state):
        return "needs both Atrium spaces occupied"
    if state.agenda.count(("atrium_resolve",)) != 1:
        return "the Atrium bids are revealed once"
    for slot in _slots(state, Region.ATRIUM):
        seat = _occupant(state, Region.ATRIUM, slot)
        asked = state.pending == Pending(DecisionKind.ATRIUM_BID, seat, index=slot)
        if state.bids[seat] < 0 and not asked and ("atrium_bid", seat, slot) not in state.agenda:
            return f"player {seat} has no Atrium bid and none still to come"
    return ""


@step(check=_atrium_resolve_problem)
def atrium_resolve(state: GameState) -> None:
    """The higher bid wins, a tie goes to "1."; the winner pays the loser (R11)."""
    first = _occupant(state, Region.ATRIUM, 0)
    second = _occupant(state, Region.ATRIUM, 1)
    b1, b2 = state.bids[first], state.bids[second]
    winner, loser, bid = (first, second, b1) if b1 >= b2 else (second, first, b2)
    state.log(-1, f"Atrium bids revealed: {seat_name(first)} {b1}, {seat_name(second)} {b2}")
    pay(state, winner, bid, "Atrium bid")
    give_money(state, loser, bid, "Atrium bid of the winner")
    taken = [card for field in state.fields[Region.ATRIUM] for card in field]
    for field in state.fields[Region.ATRIUM]:
        field.clear()
    for card in taken:
        state.players[winner].hand[card] += 1
    state.log(winner, f"{seat_name(winner)} wins the Atrium auction and takes {card_names(state, taken)}")
    state.bids = [-1] * state.num_players


# --- VI: Catacombs -----------------------------------------------------------


@step(slot_region=Region.CATACOMBS)
def catacombs_space(state: GameState, slot: int) -> None:
    seat = _occupant(state, Region.CATACOMBS, slot)
    if seat >= 0 and state.fields[Region.CATACOMBS][0]:
        ask(state, Pending(DecisionKind.CATACOMBS_PURCHASE, seat, index=slot))


def _legal_catacombs(state: GameState, pending: Pending) -> list[Action]:
    price = state.config.components.region(Region.CATACOMBS).prices[pending.index]
    options: list[Action] = []
    if state.players[pending.seat].money >= price:  # R12
        options.extend(pick_card(c) for c in sorted(set(state.fields[Region.CATACOMBS][0])))
    options.append(DECLINE)
    return options


def _resolve_catacombs(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} looks at the Catacombs and buys nothing")
        return
    price = state.config.components.region(Region.CATACOMBS).prices[pending.index]
    state.fields[Region.CATACOMBS][0].remove(action.card)
    state.players[seat].hand[action.card] += 1
    pay(state, seat, price, "Catacombs, to the Colosseum")
    state.colosseum += price
    state.log(seat, f"{seat_name(seat)} buys a card from the Catacombs")
    state.log(seat, f"{seat_name(seat)} bought {state.tables.card_name(action.card)}", private_to=seat)


# --- VII: Pantheon -----------------------------------------------------------


@step
def pantheon_reveal(state: GameState) -> None:
    field = state.fields[Region.PANTHEON][0]
    occupied = any(state.spaces[s] >= 0 for s in state.tables.region_spaces[Region.PANTHEON])
    if field and occupied:
        state.log(-1, f"Pantheon card revealed: {state.tables.card_name(field[0])}")


@step(slot_region=Region.PANTHEON)
def pantheon_space(state: GameState, slot: int) -> None:
    """R13: a player who already has an eternal favor is not offered the sacrifice."""
    seat = _occupant(state, Region.PANTHEON, slot)
    if seat < 0 or not state.fields[Region.PANTHEON][0] or state.players[seat].eternal_favor:
        return
    ask(state, Pending(DecisionKind.PANTHEON_SACRIFICE, seat, index=slot))


def _sacrifices(state: GameState, revealed: int) -> tuple[int, ...]:
    """The card types a Pantheon card asks for (R13, R30; E33, E34): its faction's cards, any slave for a slave,
    an assassin for an assassin."""
    tables = state.tables
    kind = tables.card_kind[revealed]
    if kind is CardKind.SLAVE:
        return tuple(c for cards in tables.slave_cards for c in cards)
    if kind is CardKind.ASSASSIN:
        return (revealed,)
    return tables.faction_cards[tables.card_faction[revealed]]


def _legal_pantheon(state: GameState, pending: Pending) -> list[Action]:
    hand = state.players[pending.seat].hand
    choices = sorted(c for c in _sacrifices(state, state.fields[Region.PANTHEON][0][0]) if hand[c])
    return [*[pick_card(c) for c in choices], DECLINE]


def _resolve_pantheon(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} makes no sacrifice at the Pantheon")
        return
    discard_from_hand(state, seat, action.card)
    state.sacrificed[seat] = True
    state.log(seat, f"{seat_name(seat)} sacrifices {state.tables.card_name(action.card)} at the Pantheon")


@step
def pantheon_favor(state: GameState) -> None:
    for seat, done in enumerate(state.sacrificed):
        if done:
            give_eternal_favor(state, seat, "Pantheon sacrifice")


# --- VIII: Field of Mars -----------------------------------------------------


def _pair_size(state: GameState) -> int:
    return state.config.components.region(Region.FIELD_OF_MARS).numbers["pair_size"]


@step(slot_region=Region.FIELD_OF_MARS)
def mars_space(state: GameState, slot: int) -> None:
    seat = _occupant(state, Region.FIELD_OF_MARS, slot)
    if seat >= 0:
        mars_offer(state, seat, slot)


def mars_offer(state: GameState, seat: int, slot: int) -> None:
    """Ask ``seat`` (on space ``slot``, or the Brutii) for a sealed pair, if his hand can make one."""
    state.staged = []
    if _legal_pair_cards(state, seat):
        ask(state, Pending(DecisionKind.FIELD_OF_MARS_PAIR, seat, index=slot))
    else:  # the same public words as a chosen pair or refusal (R1, R2)
        _log_mars_choice(state, seat, "discards no pair")


def _log_mars_choice(state: GameState, seat: int, private_text: str) -> None:
    """R2: everybody reads that a sealed choice was made; only its owner reads which."""
    state.log(seat, f"{seat_name(seat)} makes a sealed choice on the Field of Mars")
    state.log(seat, f"{seat_name(seat)} {private_text} on the Field of Mars (sealed)", private_to=seat)


def _legal_pair_cards(state: GameState, seat: int) -> list[int]:
    """Cards that keep a full pair reachable, in ascending card-type order (one sequence per pair)."""
    need = _pair_size(state) - len(state.staged)
    hand = state.players[seat].hand
    tables = state.tables
    if state.staged:
        faction = tables.card_faction[state.staged[0]]
        if faction < 0:  # a slave or assassin card makes no pair (R14); a checked document never stages one
            return []
        groups = [c for c in tables.faction_cards[faction] if c >= state.staged[-1]]
        groups_list = [groups]
    else:
        groups_list = [list(cards) for cards in tables.faction_cards]
    out: list[int] = []
    for cards in groups_list:
        # ``card`` is offered if it and the cards of higher or equal type can finish the pair.
        remaining = 0
        for card in reversed(cards):
            remaining += hand[card]
            if hand[card] and remaining >= need:
                out.append(card)
    out.sort()
    return out


def _mars_problem(state: GameState, pending: Pending) -> str:
    """A loaded pair decision: on its space, fewer cards staged than a pair, of one faction, ascending."""
    problem = on_slot(Region.FIELD_OF_MARS)(state, pending)
    if problem:
        return problem
    staged, faction = state.staged, state.tables.card_faction
    if len(staged) >= _pair_size(state) or staged != sorted(staged) or len({faction[c] for c in staged}) > 1:
        return "staged: a pair being built holds fewer cards than a pair, of one faction, in ascending order"
    if any(faction[c] < 0 for c in staged):
        return "staged: a Field of Mars pair holds faction cards only, no slave or assassin card (R14)"
    if not agenda_has(state, "mars_reveal"):
        return "agenda: a field_of_mars_pair decision needs the reveal of the pairs still to run"
    return ""


def _legal_mars(state: GameState, pending: Pending) -> list[Action]:
    return [*[pick_card(c) for c in _legal_pair_cards(state, pending.seat)], DECLINE]


def _resolve_mars(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        unstage(state, seat)
        _log_mars_choice(state, seat, "discards no pair")
        return
    if len(state.staged) + 1 < _pair_size(state):
        stage(state, pending, action.card)
        return
    take_from_hand(state, seat, action.card)
    state.staged.append(action.card)
    first, second = state.staged
    state.pairs.append((seat, first, second))
    state.staged = []
    _log_mars_choice(state, seat, f"lays down the pair {card_names(state, [first, second])}")
    if by_card(state, pending):  # R47: the Brutii may lay another pair while there is room
        push(state, ("brutii_mars",))


@step
def mars_reveal(state: GameState) -> None:
    """R14: a laurel per pair; the bonus laurel to the single highest pair sum, unless two players share it."""
    numbers = state.config.components.region(Region.FIELD_OF_MARS).numbers
    value = state.tables.card_value
    sums = []
    for seat, a, b in state.pairs:
        state.discard.extend((a, b))
        sums.append((value[a] + value[b], seat))
        state.log(seat, f"{seat_name(seat)} reveals {card_names(state, [a, b])} on the Field of Mars")
        give_laurels(state, seat, numbers["laurels_per_pair"], "Field of Mars pair")
    if sums:
        best = max(s for s, _ in sums)
        holders = {seat for s, seat in sums if s == best}
        if len(holders) == 1:
            give_laurels(state, holders.pop(), numbers["bonus_laurels"], "highest pair on the Field of Mars")
        else:
            state.log(-1, "the highest Field of Mars pair is tied: no bonus laurel (R14)")
    state.pairs = []


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


# --- the records -----------------------------------------------------------------------------


def _peek_hidden(kind: DecisionKind, own: bool) -> Callable[[GameState, int, int], bool]:
    """Visibility of a face-down field while a decision of ``kind`` is pending (for its decider only if ``own``)."""

    def visible(state: GameState, seat: int, i: int) -> bool:
        pending = state.pending
        return pending is not None and pending.kind is kind and (not own or pending.seat == seat)

    return visible


def _curia_needs_card(state: GameState, field: list[int]) -> bool:
    """R6, R30: fill until the sum (slaves count, E24) reaches the threshold or a leader or an assassin lies
    there (E23)."""
    tables = state.tables
    total = sum(tables.card_value[c] for c in field)
    stopped = any(c in tables.leader_card or tables.card_kind[c] is CardKind.ASSASSIN for c in field)
    return total < state.config.components.region(Region.CURIA).numbers["fill_sum"] and not stopped


def _atrium_spaces(state: GameState, seat: int) -> list[int]:
    return paired_spaces(state, state.tables.region_spaces[Region.ATRIUM], seat)


def _atrium_problem(state: GameState) -> str:
    a1, a2 = (state.spaces[s] for s in state.tables.region_spaces[Region.ATRIUM])
    return "atrium:2 needs another player on atrium:1" if a2 >= 0 and (a1 < 0 or a1 == a2) else ""


def _atrium_cleared(state: GameState) -> None:
    state.atrium_up = [False] * len(state.atrium_up)


def _pantheon_spaces(state: GameState, seat: int) -> list[int]:
    ids = state.tables.region_spaces[Region.PANTHEON]
    if not state.players[seat].markers[Faction.VESTALS] or any(state.spaces[s] == seat for s in ids):
        return []
    return free_spaces(state, Region.PANTHEON)


def _pantheon_problem(state: GameState) -> str:
    seats = [state.spaces[s] for s in state.tables.region_spaces[Region.PANTHEON] if state.spaces[s] >= 0]
    if len(set(seats)) != len(seats):
        return "one player on both Pantheon spaces"
    for seat in seats:
        if not state.players[seat].markers[Faction.VESTALS]:
            return f"player {seat} is on the Pantheon without a Vestal Virgins marker"
    return ""


def _pantheon_cleared(state: GameState) -> None:
    for player in state.players:
        player.pantheon_seen = False
    state.sacrificed = [False] * state.num_players


def _plain(region: Region) -> Callable[[GameState, int], list[int]]:
    return lambda state, seat: free_spaces(state, region)


def _paid(region: Region) -> Callable[[GameState], list[Task]]:
    def evaluate(state: GameState) -> list[Task]:
        _evaluate_paid_fields(state, region)
        return brutii_tail(state, region)

    return evaluate


region_rule(RegionRule(Region.THERMAE, _paid(Region.THERMAE), _plain(Region.THERMAE), face_up=True))
region_rule(RegionRule(Region.FORUM, _paid(Region.FORUM), _plain(Region.FORUM), face_up=True))
region_rule(
    RegionRule(
        Region.LATRINE,
        lambda state: [("latrine",), *brutii_tail(state, Region.LATRINE)],
        _plain(Region.LATRINE),
        visible=_peek_hidden(DecisionKind.LATRINE_CHOICE, own=False),
    )
)
region_rule(
    RegionRule(
        Region.CURIA,
        lambda state: [*[("curia_field", i) for i in _slots(state, Region.CURIA)], *brutii_tail(state, Region.CURIA)],
        _plain(Region.CURIA),
        needs_card=_curia_needs_card,
        face_up=True,
    )
)
region_rule(
    RegionRule(
        Region.ATRIUM,
        lambda state: [("atrium",)],
        _atrium_spaces,
        visible=lambda state, seat, i: state.atrium_up[i],
        placed=lambda state, seat, slot: _flip_atrium(state, seat, slot),
        cleared=_atrium_cleared,
        check=_atrium_problem,
    )
)
region_rule(
    RegionRule(
        Region.CATACOMBS,
        lambda state: [
            *[("catacombs_space", i) for i in _slots(state, Region.CATACOMBS)],
            *brutii_tail(state, Region.CATACOMBS),
        ],
        _plain(Region.CATACOMBS),
        needs_card=lambda state, field: len(field) < state.config.components.region(Region.CATACOMBS).numbers["pile"],
        visible=_peek_hidden(DecisionKind.CATACOMBS_PURCHASE, own=True),
    )
)
region_rule(
    RegionRule(
        Region.PANTHEON,
        lambda state: [
            ("pantheon_reveal",),
            *[("pantheon_space", i) for i in _slots(state, Region.PANTHEON)],
            *brutii_tail(state, Region.PANTHEON),
            ("pantheon_favor",),
        ],
        _pantheon_spaces,
        visible=lambda state, seat, i: state.players[seat].pantheon_seen
        or _peek_hidden(DecisionKind.PANTHEON_SACRIFICE, own=False)(state, seat, i),
        placed=lambda state, seat, slot: _peek_pantheon(state, seat),
        cleared=_pantheon_cleared,
        check=_pantheon_problem,
    )
)
region_rule(
    RegionRule(
        Region.FIELD_OF_MARS,
        lambda state: [
            *[("mars_space", i) for i in _slots(state, Region.FIELD_OF_MARS)],
            *brutii_tail(state, Region.FIELD_OF_MARS),
            ("mars_reveal",),
        ],
        _plain(Region.FIELD_OF_MARS),
        visible=lambda state, seat, i: False,
    )
)

decision(
    DecisionRule(
        DecisionKind.LATRINE_CHOICE,
        _legal_latrine,
        _resolve_latrine,
        "Latrine: take the revealed card's value in denarii, or pay it and take the card.",
        check=_latrine_problem,
        options=lambda comps, faction: ("take the card's value in denarii", "pay the card's value and take it"),
    )
)
decision(
    DecisionRule(
        DecisionKind.CURIA_DISCARD,
        _legal_curia,
        _resolve_curia,
        "Curia: discard a card from your hand to take every card on this field, or decline.",
        check=on_slot(Region.CURIA),
        card_verb="discard",
        decline_words="decline: the field's cards are discarded",
    )
)
decision(
    DecisionRule(
        DecisionKind.ATRIUM_BID,
        _legal_atrium_bid,
        _resolve_atrium_bid,
        "Atrium: make a sealed bid in denarii.",
        check=_atrium_bid_problem,
        bid=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.CATACOMBS_PURCHASE,
        _legal_catacombs,
        _resolve_catacombs,
        "Catacombs: buy one card from the pile (the price goes to the Colosseum), or not.",
        check=on_slot(Region.CATACOMBS),
        card_verb="buy",
        decline_words="buy nothing",
        always_asked=True,  # R12: the occupant may look at the pile without buying
    )
)
decision(
    DecisionRule(
        DecisionKind.PANTHEON_SACRIFICE,
        _legal_pantheon,
        _resolve_pantheon,
        "Pantheon: sacrifice a card of the revealed card's faction (any slave for a slave, an assassin for an "
        "assassin) for a favor, or not.",
        check=on_slot(Region.PANTHEON),
        card_verb="sacrifice",
        decline_words="sacrifice nothing",
    )
)
decision(
    DecisionRule(
        DecisionKind.FIELD_OF_MARS_PAIR,
        _legal_mars,
        _resolve_mars,
        "Field of Mars: add a card to your sealed pair, or lay no pair.",
        check=_mars_problem,
        card_verb="add to your pair:",
        decline_words="lay no pair (a card already chosen goes back to your hand)",
        stages=True,
    )
)
