"""Game set-up (R3, R4) and the round structure."""

from __future__ import annotations

import random

from tribune_env.engine.actions import Action, PickCard
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import ask, chance, discard_from_hand, hand_choices, push, seat_name
from tribune_env.engine.registry import DecisionRule, decision, in_phase, step
from tribune_env.engine.rounds import round_tasks
from tribune_env.engine.scoring import decide_winners, game_ends, track_fulfilment
from tribune_env.engine.state import GameState


def new_state(config: GameConfig, seed: int) -> GameState:
    """Set up a game: deck, victory card, starting player, money, deal; the set-up discards come next."""
    state = GameState(config)
    state.chance = seed & ((1 << 63) - 1)
    rng = chance(state)
    tables = state.tables
    deck = [card for card, copies in enumerate(tables.card_copies) for _ in range(copies)]
    rng.shuffle(deck)
    state.draw = deck
    comps = config.components
    if config.expansion:
        _expansion_setup(state)
    if not config.point_variant:
        state.victory_card = config.victory_card or _random_victory_card(config, rng)
    n = config.players
    if config.brutii:  # R43: the Brutii's seat is configured or drawn; the starting player sits after him
        state.brutii = config.brutii_seat if config.brutii_seat is not None else rng.randrange(n)
        state.start_seat = (state.brutii + 1) % n
    else:
        state.start_seat = config.start_seat if config.start_seat is not None else rng.randrange(n)
    order = [(state.start_seat + k) % n for k in range(n)]
    for k, seat in enumerate(order):
        state.players[seat].money = comps.starting_money + k * comps.starting_money_step
        for _ in range(comps.deal):
            state.players[seat].hand[state.draw.pop()] += 1
    track_fulfilment(state)
    state.log(
        -1,
        f"new game: {n} players, starting player {seat_name(state.start_seat)}, "
        f"victory card {state.victory_card or 'none (point-value variant)'}"
        + (", with the expansion" if config.expansion else "")
        + (f", {seat_name(state.brutii)} is the Brutii" if config.brutii else ""),
    )
    discards = [("setup_discard", seat) for seat in order for _ in range(comps.setup_discard)]
    push(state, *discards, ("setup_finish",), ("round_start",))
    return state


def _random_victory_card(config: GameConfig, rng: random.Random) -> str:
    """R3: a random card valid for the player count (R41: an expansion card in an expansion game); a two-row
    card ("Alea Iacta Est") then a random row."""
    valid = config.default_victory_cards()
    cards = sorted({getattr(c, "card", c.id) for c in valid})
    card = cards[rng.randrange(len(cards))]
    rows = [c.id for c in valid if getattr(c, "card", c.id) == card]
    return rows[rng.randrange(len(rows))]


def _expansion_setup(state: GameState) -> None:
    """E10-E12: the emperor tiles shuffled face down, the top one face up; the officials on the Capitoleum."""
    spec = state.config.components.expansion
    assert spec is not None  # GameConfig checks it
    pile = [tile.id for tile in spec.emperor_tiles]
    chance(state).shuffle(pile)
    state.emperor_up = pile.pop()
    state.emperor_pile = pile
    state.log(-1, f"favor of the emperor tile {state.emperor_up} is face up at the Basilica")


@step(check=lambda state, seat: "" if state.players[seat].hand_size else "the seat has no card to discard")
def setup_discard(state: GameState, seat: int) -> None:
    ask(state, Pending(DecisionKind.SETUP_DISCARD, seat))


def _legal_setup(state: GameState, pending: Pending) -> list[Action]:
    return hand_choices(state, pending.seat)


def _resolve_setup(state: GameState, pending: Pending, action: PickCard) -> None:
    discard_from_hand(state, pending.seat, action.card)
    state.log(pending.seat, f"{seat_name(pending.seat)} discards a card face down")
    state.log(
        pending.seat,
        f"{seat_name(pending.seat)} discarded {state.tables.card_name(action.card)}",
        private_to=pending.seat,
    )


@step
def setup_finish(state: GameState) -> None:
    """The set-up discards are shuffled back into the draw pile."""
    state.draw.extend(state.discard)
    state.discard = []
    chance(state).shuffle(state.draw)


@step
def round_start(state: GameState) -> None:
    state.round += 1
    state.phase = Phase.CARD_PLACEMENT
    state.log(-1, f"round {state.round} begins; starting player {seat_name(state.start_seat)}")
    push(state, *round_tasks(state))


@step
def round_end(state: GameState) -> None:
    """Pass the starting player coin, clear the board, check the end of the game.

    The proconsul piece comes back from the board here (R9); ``state.proconsul``
    already names the player who received it in this round's phase 5.
    """
    for region in state.fields:
        for field in region:
            state.discard.extend(field)
            field.clear()
    state.coin_bowl = []
    state.start_seat = (state.start_seat + 1) % state.num_players
    if game_ends(state):
        _finish(state)
    elif state.round >= state.config.round_limit:
        state.truncated = True  # R25
        state.log(-1, f"round limit {state.config.round_limit} reached: the game is truncated (R25)")
        _finish(state)
    else:
        push(state, ("round_start",))


def _finish(state: GameState) -> None:
    state.phase = Phase.GAME_OVER
    state.agenda = []
    state.winners = decide_winners(state)
    state.log(-1, "game over; winner(s): " + ", ".join(seat_name(s) for s in state.winners))


decision(
    DecisionRule(
        DecisionKind.SETUP_DISCARD,
        _legal_setup,
        _resolve_setup,
        "Set-up: discard a card from your starting hand, face down.",
        check=in_phase(Phase.SETUP),
        card_verb="discard",
    )
)
