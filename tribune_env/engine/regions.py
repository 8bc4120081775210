"""Phase 3: region evaluation, regions I..VIII in order (R10..R14)."""

from __future__ import annotations

from tribune_env.data import Region
from tribune_env.engine.actions import DECLINE, Action, Bid, ChooseOption, Decline, PickCard, choose_option, pick_card
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import (
    ask,
    bid_choices,
    card_names,
    discard_from_hand,
    give_eternal_favor,
    give_laurels,
    give_money,
    hand_choices,
    pay,
    push,
    seal_bid,
    seat_name,
    take_from_hand,
)
from tribune_env.engine.registry import legal, resolve, step
from tribune_env.engine.state import GameState, Task

LATRINE_MONEY, LATRINE_BUY = 0, 1


def _occupant(state: GameState, region: Region, slot: int) -> int:
    return state.spaces[state.tables.region_spaces[region][slot]]


@step
def evaluate(state: GameState, region: int) -> None:
    """Evaluate one region: queue its steps, then :func:`end_region`."""
    state.phase = Phase.REGION_EVALUATION
    r = Region(region)
    slots = range(state.config.components.region(r).spaces)
    if r in (Region.THERMAE, Region.FORUM):
        _evaluate_paid_fields(state, r)
        steps: list[Task] = []
    elif r is Region.LATRINE:
        steps = [("latrine",)]
    elif r is Region.CURIA:
        steps = [("curia_field", i) for i in slots]
    elif r is Region.ATRIUM:
        steps = [("atrium",)]
    elif r is Region.CATACOMBS:
        steps = [("catacombs_space", i) for i in slots]
    elif r is Region.PANTHEON:
        steps = [("pantheon_reveal",), *[("pantheon_space", i) for i in slots], ("pantheon_favor",)]
    else:
        steps = [("mars_space", i) for i in slots] + [("mars_reveal",)]
    push(state, *steps, ("end_region", region))


@step
def end_region(state: GameState, region: int) -> None:
    """Unclaimed cards go to the discard pile; followers go home."""
    for field in state.fields[region]:
        state.discard.extend(field)
        field.clear()
    for space in state.tables.region_spaces[region]:
        state.spaces[space] = -1
    if region == Region.ATRIUM:
        state.atrium_up = [False] * len(state.atrium_up)
    if region == Region.PANTHEON:
        for player in state.players:
            player.pantheon_seen = False
        state.sacrificed = [False] * state.num_players


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


@legal(DecisionKind.LATRINE_CHOICE)
def _legal_latrine(state: GameState, pending: Pending) -> list[Action]:
    card = state.fields[Region.LATRINE][0][0]
    options: list[Action] = [choose_option(LATRINE_MONEY)]
    if state.players[pending.seat].money >= state.tables.card_value[card]:
        options.append(choose_option(LATRINE_BUY))
    return options


@resolve(DecisionKind.LATRINE_CHOICE)
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
        state.log(seat, f"{seat_name(seat)} takes {state.tables.card_name(card)} from the Latrine")


# --- IV: Curia ---------------------------------------------------------------


@step
def curia_field(state: GameState, slot: int) -> None:
    seat = _occupant(state, Region.CURIA, slot)
    if seat >= 0 and state.fields[Region.CURIA][slot] and state.players[seat].hand_size:
        ask(state, Pending(DecisionKind.CURIA_DISCARD, seat, index=slot))


@legal(DecisionKind.CURIA_DISCARD)
def _legal_curia(state: GameState, pending: Pending) -> list[Action]:
    return [*hand_choices(state, pending.seat), DECLINE]


@resolve(DecisionKind.CURIA_DISCARD)
def _resolve_curia(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} declines Curia field {pending.index + 1}")
        return
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


@step
def atrium_bid(state: GameState, seat: int, slot: int) -> None:
    ask(state, Pending(DecisionKind.ATRIUM_BID, seat, index=slot))


@legal(DecisionKind.ATRIUM_BID)
def _legal_atrium_bid(state: GameState, pending: Pending) -> list[Action]:
    return bid_choices(state, pending.seat)


@resolve(DecisionKind.ATRIUM_BID)
def _resolve_atrium_bid(state: GameState, pending: Pending, action: Bid) -> None:
    seal_bid(state, pending.seat, action.amount, "the Atrium cards")


@step
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


@step
def catacombs_space(state: GameState, slot: int) -> None:
    seat = _occupant(state, Region.CATACOMBS, slot)
    if seat >= 0 and state.fields[Region.CATACOMBS][0]:
        ask(state, Pending(DecisionKind.CATACOMBS_PURCHASE, seat, index=slot))


@legal(DecisionKind.CATACOMBS_PURCHASE)
def _legal_catacombs(state: GameState, pending: Pending) -> list[Action]:
    price = state.config.components.region(Region.CATACOMBS).prices[pending.index]
    options: list[Action] = []
    if state.players[pending.seat].money >= price:  # R12
        options.extend(pick_card(c) for c in sorted(set(state.fields[Region.CATACOMBS][0])))
    options.append(DECLINE)
    return options


@resolve(DecisionKind.CATACOMBS_PURCHASE)
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


@step
def pantheon_space(state: GameState, slot: int) -> None:
    """R13: a player who already has an eternal favor is not offered the sacrifice."""
    seat = _occupant(state, Region.PANTHEON, slot)
    if seat < 0 or not state.fields[Region.PANTHEON][0] or state.players[seat].eternal_favor:
        return
    ask(state, Pending(DecisionKind.PANTHEON_SACRIFICE, seat, index=slot))


@legal(DecisionKind.PANTHEON_SACRIFICE)
def _legal_pantheon(state: GameState, pending: Pending) -> list[Action]:
    faction = state.tables.card_faction[state.fields[Region.PANTHEON][0][0]]
    hand = state.players[pending.seat].hand
    return [*[pick_card(c) for c in state.tables.faction_cards[faction] if hand[c]], DECLINE]


@resolve(DecisionKind.PANTHEON_SACRIFICE)
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


@step
def mars_space(state: GameState, slot: int) -> None:
    seat = _occupant(state, Region.FIELD_OF_MARS, slot)
    if seat < 0:
        return
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
        groups = [c for c in tables.faction_cards[tables.card_faction[state.staged[0]]] if c >= state.staged[-1]]
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


@legal(DecisionKind.FIELD_OF_MARS_PAIR)
def _legal_mars(state: GameState, pending: Pending) -> list[Action]:
    return [*[pick_card(c) for c in _legal_pair_cards(state, pending.seat)], DECLINE]


@resolve(DecisionKind.FIELD_OF_MARS_PAIR)
def _resolve_mars(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        for card in state.staged:
            state.players[seat].hand[card] += 1
        state.staged = []
        _log_mars_choice(state, seat, "discards no pair")
        return
    take_from_hand(state, seat, action.card)
    state.staged.append(action.card)
    if len(state.staged) < _pair_size(state):
        ask(state, pending)
        return
    first, second = state.staged
    state.pairs.append((seat, first, second))
    state.staged = []
    _log_mars_choice(state, seat, f"lays down the pair {card_names(state, [first, second])}")


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
