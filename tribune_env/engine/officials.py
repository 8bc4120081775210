"""Expansion officials and phase 8: Tribunus Plebis (R38), the emperor tile pile and the Matrona (R35), Augur
(R39), Quaestor (R40). The Princeps (R37) acts in phase 2 (follower_placement.py).
"""

from __future__ import annotations

from tribune_env.data import BrutiiCard, Official, OfficialSpec
from tribune_env.engine.actions import DECLINE, Action, ChooseFaction, Decline, PickCard, choose_faction, pick_card
from tribune_env.engine.brutii_ops import played
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.drawing import draw_into
from tribune_env.engine.ops import ask, faction_name, give_money, pay, push, seat_name, touch
from tribune_env.engine.registry import CheckFn, DecisionRule, StepCheckFn, decision, in_phase, step
from tribune_env.engine.state import SCROLL, TRIBUNE, GameState, Task


def _spec(state: GameState, official: Official) -> OfficialSpec:
    spec = state.config.components.expansion
    assert spec is not None  # only expansion games schedule these steps
    return spec.official(official)


def holder(state: GameState, official: Official) -> int:
    """The seat holding ``official``, -1 while it lies on the Capitoleum (or in a base game)."""
    return state.officials[official] if state.officials else -1


def _holds(official: Official) -> CheckFn:
    """The check of a decision that belongs to the holder of ``official``."""

    def check(state: GameState, pending: Pending) -> str:
        if holder(state, official) != pending.seat:
            return f"pending.seat: a {pending.kind.key} decision belongs to the {official.key} holder"
        return ""

    return check


def _holder_step(official: Official) -> StepCheckFn:
    """The check of a step whose ``seat`` argument is the holder of ``official``."""

    def check(state: GameState, seat: int, *_: int) -> str:
        return "" if holder(state, official) == seat else f"the seat does not hold the {official.key}"

    return check


def _tile_name(tile: int) -> str:
    return f"emperor tile {tile}"


# --- Tribunus Plebis (R38) ------------------------------------------------------------------


def _controlled(state: GameState, seat: int) -> list[int]:
    """The factions ``seat`` controls, in board order."""
    return [f for f, c in enumerate(state.controller) if c == seat]


def _tribunus_ready(state: GameState, seat: int) -> bool:
    """R38: a scroll on his tile and at least ``factions`` controlled factions."""
    need = _spec(state, Official.TRIBUNUS_PLEBIS).numbers["factions"]
    return state.players[seat].tile == SCROLL and len(_controlled(state, seat)) >= need


@step(expansion=True)
def tribunus_plebis(state: GameState) -> None:
    """R38: at the start of phase 5 the holder may name two controlled factions for a tribune."""
    state.phase = Phase.FACTION_BENEFITS
    seat = holder(state, Official.TRIBUNUS_PLEBIS)
    if seat >= 0 and _tribunus_ready(state, seat):
        ask(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, seat))


def _legal_tribunus(state: GameState, pending: Pending) -> list[Action]:
    """Names in board order, one sequence per pair: the second name comes after the first, and a first name is
    offered only if a second can follow it."""
    factions = [f for f in _controlled(state, pending.seat) if f > pending.faction]
    later = _spec(state, Official.TRIBUNUS_PLEBIS).numbers["factions"] - (1 if pending.faction < 0 else 2)
    return [*(choose_faction(f) for f in factions[: len(factions) - later]), DECLINE]


def _resolve_tribunus(state: GameState, pending: Pending, action: ChooseFaction | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} does not use the Tribunus Plebis")
        return
    named = [action.faction] if pending.faction < 0 else [pending.faction, action.faction]
    if len(named) < _spec(state, Official.TRIBUNUS_PLEBIS).numbers["factions"]:
        ask(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, seat, action.faction))
        return
    for faction in named:
        state.benefit_blocked[faction] = True
    state.players[seat].tile = TRIBUNE
    touch(state, seat)
    names = " and ".join(faction_name(state, f) for f in named)
    state.log(seat, f"{seat_name(seat)} becomes tribune with the Tribunus Plebis, naming the {names} (R38)")
    state.log(seat, f"the {names} give {seat_name(seat)} no benefit this phase (R38)")


def _tribunus_problem(state: GameState, pending: Pending) -> str:
    problem = _holds(Official.TRIBUNUS_PLEBIS)(state, pending)
    if problem:
        return problem
    if not _tribunus_ready(state, pending.seat):
        return "pending.seat: the Tribunus Plebis needs a scroll and enough controlled factions (R38)"
    if pending.faction >= 0 and state.controller[pending.faction] != pending.seat:
        return "pending.faction: the first named faction must be controlled by the holder"
    return ""


@step(expansion=True)
def benefits_end(state: GameState) -> None:
    """The end of phase 5: the factions named for the Tribunus Plebis give benefits again."""
    state.benefit_blocked = [False] * len(state.benefit_blocked)


# --- phase 8 (R40 order) ----------------------------------------------------------------------


@step(expansion=True)
def preparation(state: GameState) -> None:
    """Expansion phase 8 (R40 order): emperor tiles (R35), then the Augur (R39), then the Quaestor (R40)."""
    state.phase = Phase.PREPARATION
    _turn_emperor_tile(state)
    _matrona_tiles(state)
    augur = holder(state, Official.AUGUR)
    tail: list[Task] = [("quaestor",), *([("brutii_reset",)] if state.brutii >= 0 else [])]  # E104 last (R40)
    if augur >= 0:
        draws = _spec(state, Official.AUGUR).numbers["draws"]
        push(state, ("augur_draw", augur, draws, 0), ("augur_keep", augur), *tail)
    else:
        push(state, *tail)


def _turn_emperor_tile(state: GameState) -> None:
    """R35 (1)-(2), E66: the top tile is turned face up; the previous one, unclaimed, goes to the bottom.

    An empty pile leaves the previous unclaimed tile face up.
    """
    if not state.emperor_pile:
        if state.emperor_up >= 0:
            state.log(-1, f"the pile is empty: {_tile_name(state.emperor_up)} stays face up (R35)")
        return
    previous, state.emperor_up = state.emperor_up, state.emperor_pile.pop()
    state.log(-1, f"{_tile_name(state.emperor_up)} is turned face up at the Basilica")
    if previous >= 0:
        state.emperor_pile.insert(0, previous)
        state.log(-1, f"{_tile_name(previous)}, unclaimed, goes to the bottom of the pile (E66)")


def _matrona_tiles(state: GameState) -> None:
    """R35 (3)-(4), E63, E67: the Matrona holder takes the next tiles of the pile (what there is); his unclaimed
    tiles of the previous round go to the bottom, lowest id first, even if he keeps the Matrona."""
    previous = sorted(state.matrona_tiles)
    seat = holder(state, Official.MATRONA)
    taken: list[int] = []
    if seat >= 0 and seat == state.brutii and not played(state, BrutiiCard.FAVOR_OF_THE_EMPEROR):
        state.log(seat, f"{seat_name(seat)} (the Brutii) receives no Matrona tiles without Favor of the Emperor (R50)")
    elif seat >= 0:
        count = _spec(state, Official.MATRONA).numbers["tiles"]
        while state.emperor_pile and len(taken) < count:
            taken.append(state.emperor_pile.pop())
        if taken:
            state.log(seat, f"{seat_name(seat)} receives {', '.join(map(_tile_name, taken))} (Matrona)")
    state.matrona_tiles = taken
    for tile in previous:
        state.emperor_pile.insert(0, tile)
        state.log(-1, f"{_tile_name(tile)}, an unclaimed Matrona tile, goes to the bottom of the pile (E67)")


# --- Augur (R39) ------------------------------------------------------------------------------


@step(check=_holder_step(Official.AUGUR), expansion=True)
def augur_draw(state: GameState, seat: int, n: int, after_cesura: int) -> None:
    """R39: the Augur draws ``n`` cards apart from his hand; R5 as for any draw (cesura magna once).

    The cards already drawn are held apart (``augur_cards``) during a cesura, so they do not count toward his
    hand limit there.
    """
    draw_into(state, seat, n, after_cesura, "augur_draw", state.augur_cards.append, " (Augur)")


def _augur_keeps(state: GameState) -> int:
    numbers = _spec(state, Official.AUGUR).numbers
    return numbers["draws"] - numbers["discards"]


@step(check=_holder_step(Official.AUGUR), expansion=True)
def augur_keep(state: GameState, seat: int) -> None:
    """R39: with all his cards drawn the Augur discards one of them; fewer drawn: he keeps them all."""
    drawn = len(state.augur_cards)
    if drawn >= _spec(state, Official.AUGUR).numbers["draws"] and drawn > _augur_keeps(state):
        ask(state, Pending(DecisionKind.AUGUR_DISCARD, seat))
    else:
        _augur_takes_rest(state, seat)


def _augur_takes_rest(state: GameState, seat: int) -> None:
    cards, state.augur_cards = state.augur_cards, []
    hand = state.players[seat].hand
    for card in cards:
        hand[card] += 1
    if cards:
        state.log(seat, f"{seat_name(seat)} takes {len(cards)} card(s) into his hand (Augur)")


def _legal_augur(state: GameState, pending: Pending) -> list[Action]:
    return [pick_card(c) for c in sorted(set(state.augur_cards))]


def _resolve_augur(state: GameState, pending: Pending, action: PickCard) -> None:
    seat = pending.seat
    state.augur_cards.remove(action.card)
    state.discard.append(action.card)
    state.log(seat, f"{seat_name(seat)} discards a card (Augur)")
    state.log(seat, f"{seat_name(seat)} discarded {state.tables.card_name(action.card)} (Augur)", private_to=seat)
    if len(state.augur_cards) > _augur_keeps(state):
        ask(state, Pending(DecisionKind.AUGUR_DISCARD, seat))
    else:
        _augur_takes_rest(state, seat)


def _augur_problem(state: GameState, pending: Pending) -> str:
    problem = _holds(Official.AUGUR)(state, pending)
    if problem:
        return problem
    return "" if state.augur_cards else "augur_cards: the Augur discards from his drawn cards, and there are none"


# --- Quaestor (R40) ---------------------------------------------------------------------------


@step(expansion=True)
def quaestor(state: GameState) -> None:
    """R40: every other player pays the Quaestor the printed amount or all his money, the stock paying the rest;
    the Quaestor also takes ``stock`` from the stock."""
    seat = holder(state, Official.QUAESTOR)
    if seat < 0:
        return
    spec = state.config.components.expansion
    assert spec is not None
    n = state.num_players
    amount = spec.quaestor_payment(n - 1)
    for k in range(1, n):
        other = (seat + k) % n
        paid = min(amount, state.players[other].money)
        pay(state, other, paid, f"to {seat_name(seat)}, the Quaestor")
        give_money(state, seat, paid, f"from {seat_name(other)}, Quaestor")
        give_money(state, seat, amount - paid, f"the stock pays {seat_name(other)}'s shortfall, Quaestor (R40)")
    give_money(state, seat, spec.official(Official.QUAESTOR).numbers["stock"], "from the stock, Quaestor")


decision(
    DecisionRule(
        DecisionKind.TRIBUNUS_PLEBIS,
        _legal_tribunus,
        _resolve_tribunus,
        "Tribunus Plebis: name two of your factions (one at a time) to become tribune; they give you no benefit "
        "this phase.",
        check=_tribunus_problem,
        flow=in_phase(Phase.FACTION_BENEFITS),
        decline_words="do not use the Tribunus Plebis (a faction already named is withdrawn)",
        expansion=True,
    )
)

decision(
    DecisionRule(
        DecisionKind.AUGUR_DISCARD,
        _legal_augur,
        _resolve_augur,
        "Augur: discard one of the cards you drew; the others go to your hand.",
        check=_augur_problem,
        flow=in_phase(Phase.PREPARATION),
        card_verb="discard",
        expansion=True,
    )
)
