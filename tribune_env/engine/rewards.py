"""Take-over rewards: take-over benefit, leader ability, faction marker, first laurel (R17).

Also the assassin (R16), shared by the Plebeians' take-over benefit and the
Gladiators' faction benefit.
"""

from __future__ import annotations

from tribune_env.data import Faction
from tribune_env.engine.actions import (
    DECLINE,
    Action,
    Assassinate,
    ChooseFaction,
    ChooseOption,
    Decline,
    PickCard,
    choose_faction,
    choose_option,
)
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import (
    ask,
    discard_from_hand,
    faction_name,
    give_eternal_favor,
    give_laurels,
    give_legions,
    give_money,
    hand_choices,
    push,
    remove_highest,
    seat_name,
    touch,
)
from tribune_env.engine.registry import CheckFn, DecisionRule, decision, in_phase, step
from tribune_env.engine.state import NO_TILE, SCROLL, GameState

AGRIPPA_SCROLL, AGRIPPA_CARD = 0, 1


def controls_step(state: GameState, faction: int, seat: int) -> str:
    """The check of a reward step: its seat controls its faction."""
    return "" if state.controller[faction] == seat else "the seat does not control that faction"


def controller_of(faction: Faction, phase: Phase = Phase.TAKEOVERS) -> CheckFn:
    """The check of a decision about ``faction`` that belongs to its controller (a leader's ability, a benefit),
    asked in ``phase``."""

    def check(state: GameState, pending: Pending) -> str:
        if pending.faction != faction:
            return f"pending.faction: a {pending.kind.key} decision is about the {faction.key}"
        if state.controller[faction] != pending.seat:
            return f"pending.seat: a {pending.kind.key} decision belongs to the {faction.key} controller"
        return ""

    return in_phase(phase, then=check)


def cards_text(n: int) -> str:
    """"a card" or "N cards", for option names."""
    return "a card" if n == 1 else f"{n} cards"


def _numbers(state: GameState, faction: int) -> dict[str, int]:
    return state.config.components.factions[faction].numbers


@step(check=controls_step)
def takeover_benefit(state: GameState, faction: int, seat: int) -> None:
    n = _numbers(state, faction)
    why = f"{faction_name(state, faction)} take-over"
    f = Faction(faction)
    if f is Faction.GLADIATORS:
        give_legions(state, seat, n["takeover_legions"], why)
    elif f in (Faction.LEGATES, Faction.PATRICIANS, Faction.SENATORS):
        give_laurels(state, seat, n["takeover_laurels"], why)
    elif f is Faction.PRAETORIANS:
        push(state, ("draw", seat, n["takeover_cards"], 0))
    elif f is Faction.PLEBEIANS:
        push(state, ("draw", seat, n["takeover_cards"], 0), ("assassin", seat))
    elif f is Faction.VESTALS:
        give_money(state, seat, n["takeover_denarii"], why)


@step(check=controls_step)
def leader(state: GameState, faction: int, seat: int) -> None:
    n = _numbers(state, faction)
    spec = state.config.components.factions[faction]
    why = f"leader {spec.leader}"
    f = Faction(faction)
    player = state.players[seat]
    if f is Faction.GLADIATORS:
        give_legions(state, seat, n["leader_legions"], why)
    elif f is Faction.LEGATES:
        give_laurels(state, seat, n["leader_laurels"], why)
    elif f is Faction.PRAETORIANS:
        if player.hand_size:
            ask(state, Pending(DecisionKind.TIGELLINUS_DISCARD, seat, faction))
    elif f is Faction.PLEBEIANS:
        ask(state, Pending(DecisionKind.AGRIPPA_CHOICE, seat, faction))
    elif f is Faction.PATRICIANS:
        give_money(state, seat, n["leader_denarii"], why)
    elif f is Faction.VESTALS:
        if not player.eternal_favor:
            give_eternal_favor(state, seat, why)
    elif _cato_choices(state, seat):
        ask(state, Pending(DecisionKind.CATO_MARKER, seat, faction))


@step(check=controls_step)
def marker(state: GameState, faction: int, seat: int) -> None:
    player = state.players[seat]
    if not player.markers[faction]:
        player.markers[faction] = True
        touch(state, seat)
        state.log(seat, f"{seat_name(seat)} takes a {faction_name(state, faction)} faction marker")


@step(check=controls_step)
def first_laurel(state: GameState, faction: int, seat: int) -> None:
    if state.first_laurel[faction]:
        state.first_laurel[faction] = False
        give_laurels(state, seat, state.config.components.starting_laurels, "first controller")


# --- Gaius Tigellinus ----------------------------------------------------------


def _legal_tigellinus(state: GameState, pending: Pending) -> list[Action]:
    return [*hand_choices(state, pending.seat), DECLINE]


def _resolve_tigellinus(state: GameState, pending: Pending, action: PickCard | Decline) -> None:
    if isinstance(action, Decline):
        return
    discard_from_hand(state, pending.seat, action.card)
    state.log(pending.seat, f"{seat_name(pending.seat)} discards {state.tables.card_name(action.card)}")
    give_legions(state, pending.seat, _numbers(state, pending.faction)["leader_legions"], "leader Gaius Tigellinus")


# --- Agrippa -----------------------------------------------------------------


def _legal_agrippa(state: GameState, pending: Pending) -> list[Action]:
    options: list[Action] = []
    if state.players[pending.seat].tile == NO_TILE:
        options.append(choose_option(AGRIPPA_SCROLL))
    options.append(choose_option(AGRIPPA_CARD))
    return options


def _resolve_agrippa(state: GameState, pending: Pending, action: ChooseOption) -> None:
    if action.option == AGRIPPA_SCROLL:
        gain_scroll(state, pending.seat, "leader Agrippa")
    else:
        push(state, ("draw", pending.seat, _numbers(state, pending.faction)["leader_cards"], 0))


def gain_scroll(state: GameState, seat: int, why: str) -> None:
    """R19: a scroll only for a player without a tile."""
    state.players[seat].tile = SCROLL
    touch(state, seat)
    state.log(seat, f"{seat_name(seat)} gains a scroll tile ({why})")


# --- Cato the Elder ----------------------------------------------------------


def _cato_choices(state: GameState, seat: int) -> list[int]:
    """R17: a marker the player lacks, other than the Senators marker the take-over itself brings."""
    markers = state.players[seat].markers
    return [f for f in range(len(markers)) if not markers[f] and f != Faction.SENATORS]


def _legal_cato(state: GameState, pending: Pending) -> list[Action]:
    return [choose_faction(f) for f in _cato_choices(state, pending.seat)]


def _resolve_cato(state: GameState, pending: Pending, action: ChooseFaction) -> None:
    state.players[pending.seat].markers[action.faction] = True
    touch(state, pending.seat)
    state.log(
        pending.seat,
        f"{seat_name(pending.seat)} takes a {faction_name(state, action.faction)} "
        "faction marker (leader Cato the Elder)",
    )


# --- the assassin (R16) ----------------------------------------------------------


def assassin_targets(state: GameState) -> list[Assassinate]:
    """Displayed sets larger than the smallest legal set (R16: two-card sets are immune)."""
    smallest = state.config.components.min_set_size
    return [
        Assassinate(state.controller[f], f)
        for f, cards in enumerate(state.sets)
        if state.controller[f] >= 0 and len(cards) > smallest
    ]


@step
def assassin(state: GameState, seat: int) -> None:
    if assassin_targets(state):
        ask(state, Pending(DecisionKind.ASSASSIN_TARGET, seat))


def _legal_assassin(state: GameState, pending: Pending) -> list[Action]:
    return [*assassin_targets(state), DECLINE]


def _resolve_assassin(state: GameState, pending: Pending, action: Assassinate | Decline) -> None:
    if isinstance(action, Decline):
        state.log(pending.seat, f"{seat_name(pending.seat)} sends no assassin")
        return
    card = remove_highest(state, state.sets[action.faction])
    state.discard.append(card)
    state.log(
        pending.seat,
        f"{seat_name(pending.seat)}'s assassin removes {state.tables.card_name(card)} "
        f"from {seat_name(action.seat)}'s {faction_name(state, action.faction)} set",
    )


decision(
    DecisionRule(
        DecisionKind.TIGELLINUS_DISCARD,
        _legal_tigellinus,
        _resolve_tigellinus,
        "Gaius Tigellinus: discard a card to gain a legion, or not.",
        check=controller_of(Faction.PRAETORIANS),
        card_verb="discard",
        decline_words="keep your cards (no legion)",
    )
)
decision(
    DecisionRule(
        DecisionKind.AGRIPPA_CHOICE,
        _legal_agrippa,
        _resolve_agrippa,
        "Agrippa: choose one of two rewards.",
        check=controller_of(Faction.PLEBEIANS),
        options=lambda comps, faction: (
            "take a scroll",
            f"draw {cards_text(comps.factions[Faction.PLEBEIANS].numbers['leader_cards'])}",
        ),
    )
)
decision(
    DecisionRule(
        DecisionKind.CATO_MARKER,
        _legal_cato,
        _resolve_cato,
        "Cato: take the marker of a faction you lack.",
        check=controller_of(Faction.SENATORS),
    )
)
decision(
    DecisionRule(
        DecisionKind.ASSASSIN_TARGET,
        _legal_assassin,
        _resolve_assassin,
        "Assassin: remove the highest card of a displayed set, or send no assassin.",
        check=in_phase(Phase.TAKEOVERS, Phase.FACTION_BENEFITS),
        decline_words="send no assassin",
    )
)
