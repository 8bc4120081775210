"""Small state operations shared by the phases: agenda, chance, cards, holdings."""

from __future__ import annotations

import random

from tribune_env.engine.actions import Action, bid, pick_card
from tribune_env.engine.decisions import Pending
from tribune_env.engine.state import GameState, Task


def push(state: GameState, *tasks: Task) -> None:
    """Schedule ``tasks`` to run next, in the given order, before anything already scheduled."""
    state.agenda.extend(reversed(tasks))


def touch(state: GameState, seat: int) -> None:
    """Note that ``seat``'s holdings changed; its victory conditions are re-checked once the step ends (R23)."""
    state.touched |= 1 << seat


def ask(state: GameState, pending: Pending) -> None:
    """Wait for ``pending``; its legal choices are computed afresh."""
    state.pending = pending
    state.legal_cache = None


def chance(state: GameState) -> random.Random:
    """A generator for one chance event, seeded by the state's chance key, which then moves on."""
    rng = random.Random(state.chance)
    state.chance = rng.getrandbits(63)
    return rng


def reshuffle(state: GameState) -> None:
    """R5: the discard pile, shuffled, becomes the draw pile."""
    state.draw = state.discard
    state.discard = []
    chance(state).shuffle(state.draw)
    state.log(-1, f"the discard pile ({len(state.draw)} cards) is shuffled into a new draw pile")


def draw_card(state: GameState) -> int:
    """Top card of the draw pile, reshuffling the discards if needed; -1 when both piles are empty."""
    if not state.draw:
        if not state.discard:
            return -1
        reshuffle(state)
    return state.draw.pop()


def take_from_hand(state: GameState, seat: int, card: int) -> None:
    hand = state.players[seat].hand
    if hand[card] <= 0:
        raise RuntimeError(f"seat {seat} has no card type {card}")  # the legal check prevents this
    hand[card] -= 1


def stage(state: GameState, pending: Pending, card: int) -> None:
    """Move ``card`` from the decider's hand onto ``state.staged`` and ask the same decision again."""
    take_from_hand(state, pending.seat, card)
    state.staged.append(card)
    ask(state, pending)


def unstage(state: GameState, seat: int) -> list[int]:
    """Return the staged cards to ``seat``'s hand; the list of them."""
    cards, state.staged = state.staged, []
    for card in cards:
        state.players[seat].hand[card] += 1
    return cards


def discard_from_hand(state: GameState, seat: int, card: int) -> None:
    """Move one card of type ``card`` from the hand of ``seat`` to the discard pile."""
    take_from_hand(state, seat, card)
    state.discard.append(card)


def cards_in_hand(state: GameState, seat: int) -> list[int]:
    """Distinct card types held by ``seat``, ascending."""
    return [card for card, n in enumerate(state.players[seat].hand) if n]


def hand_choices(state: GameState, seat: int) -> list[Action]:
    """One ``PickCard`` per distinct card type in the hand of ``seat``."""
    return [pick_card(c) for c in cards_in_hand(state, seat)]


def bid_choices(state: GameState, seat: int) -> list[Action]:
    """Every sealed bid ``seat`` can afford: 0 up to all of its money."""
    return [bid(b) for b in range(state.players[seat].money + 1)]


def seal_bid(state: GameState, seat: int, amount: int, what: str) -> None:
    """Store a sealed bid; only its owner can read it until the reveal (R2)."""
    state.bids[seat] = amount
    state.log(seat, f"{seat_name(seat)} bids {amount} for {what} (sealed)", private_to=seat)


def set_sum(state: GameState, cards: list[int]) -> int:
    value = state.tables.card_value
    return sum(value[c] for c in cards)


def beats(state: GameState, cards: list[int], other: list[int]) -> bool:
    """A set beats ``other`` with more cards or a higher sum (base rulebook, phase 4)."""
    return len(cards) > len(other) or set_sum(state, cards) > set_sum(state, other)


def remove_highest(state: GameState, cards: list[int]) -> int:
    """Remove and return the highest-value card of a set."""
    value = state.tables.card_value
    best = max(range(len(cards)), key=lambda i: value[cards[i]])
    return cards.pop(best)


def card_names(state: GameState, cards: list[int]) -> str:
    """Readable list of cards for the log ("nothing" when empty)."""
    return ", ".join(state.tables.card_name(c) for c in cards) or "nothing"


def faction_name(state: GameState, faction: int) -> str:
    return state.config.components.factions[faction].name


def seat_name(seat: int) -> str:
    return f"P{seat}"


def give_laurels(state: GameState, seat: int, n: int, why: str) -> None:
    if n:
        state.players[seat].laurels += n
        touch(state, seat)
        state.log(seat, f"{seat_name(seat)} gains {n} laurel(s) ({why})")


def give_legions(state: GameState, seat: int, n: int, why: str) -> None:
    if n:
        state.players[seat].legions += n
        touch(state, seat)
        state.log(seat, f"{seat_name(seat)} gains {n} legion(s) ({why})")


def give_money(state: GameState, seat: int, n: int, why: str) -> None:
    if n:
        state.players[seat].money += n
        touch(state, seat)
        state.log(seat, f"{seat_name(seat)} receives {n} denarii ({why})")


def pay(state: GameState, seat: int, n: int, why: str) -> None:
    player = state.players[seat]
    if n > player.money:
        raise RuntimeError(f"seat {seat} cannot pay {n}")  # callers check affordability
    player.money -= n
    touch(state, seat)
    if n:
        state.log(seat, f"{seat_name(seat)} pays {n} denarii ({why})")


def give_eternal_favor(state: GameState, seat: int, why: str) -> None:
    """R21: an eternal favor replaces a temporary favor, which goes back to the stock."""
    player = state.players[seat]
    player.eternal_favor = True
    state.log(seat, f"{seat_name(seat)} gains the eternal favor of the gods ({why})")
    if player.temporary_favor:
        player.temporary_favor = False
        state.log(seat, f"{seat_name(seat)} returns the temporary favor of the gods (R21)")
    touch(state, seat)
