"""Phase 5: faction benefits, factions in board order (R19, R20, R21)."""

from __future__ import annotations

from tribune_env.data import Components, Faction
from tribune_env.engine.actions import COMMIT, DECLINE, Action, ChooseOption, Commit, Decline, choose_option
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import (
    ask,
    faction_name,
    give_laurels,
    give_legions,
    give_money,
    pay,
    push,
    seat_name,
    set_sum,
    touch,
)
from tribune_env.engine.registry import DecisionRule, decision, in_phase, step
from tribune_env.engine.rewards import cards_text, controller_of, gain_scroll
from tribune_env.engine.state import NO_TILE, SCROLL, TRIBUNE, GameState

# For each faction with a choice, the condition of options 0 and 1 (R20: a failed option is not offered).
_TRIBUNE_PARTNER = {Faction.PLEBEIANS: Faction.PATRICIANS, Faction.VESTALS: Faction.SENATORS}
_SCROLL_FIRST = (Faction.LEGATES, Faction.SENATORS)


def benefit_options(state: GameState, faction: Faction, seat: int) -> list[int]:
    """The options of ``faction``'s benefit open to its controller ``seat``."""
    tile = state.players[seat].tile
    if faction in _SCROLL_FIRST:
        return [0, 1] if tile == NO_TILE else [1]
    if faction in _TRIBUNE_PARTNER:
        partner = _TRIBUNE_PARTNER[faction]
        return [0, 1] if tile == SCROLL and state.controller[partner] == seat else [0]
    return [0, 1]  # Gladiators


@step
def benefit(state: GameState, faction: int) -> None:
    state.phase = Phase.FACTION_BENEFITS
    seat = state.controller[faction]
    if seat < 0 or state.benefit_blocked[faction]:  # R38: named for the Tribunus Plebis, no benefit
        return
    f = Faction(faction)
    numbers = state.config.components.factions[faction].numbers
    if f is Faction.PRAETORIANS:
        give_legions(state, seat, numbers["benefit_legions"], "Praetorians benefit")
    elif f is Faction.PATRICIANS:
        state.proconsul = seat
        state.log(seat, f"{seat_name(seat)} receives the proconsul (Patricians benefit)")
    else:
        ask(state, Pending(DecisionKind.BENEFIT_OPTION, seat, faction))


def _legal_benefit(state: GameState, pending: Pending) -> list[Action]:
    return [choose_option(o) for o in benefit_options(state, Faction(pending.faction), pending.seat)]


def _resolve_benefit(state: GameState, pending: Pending, action: ChooseOption) -> None:
    seat, f, option = pending.seat, Faction(pending.faction), action.option
    numbers = state.config.components.factions[f].numbers
    why = f"{faction_name(state, f)} benefit"
    if f is Faction.GLADIATORS:
        if option == 0:
            amount, state.colosseum = state.colosseum, 0
            give_money(state, seat, amount, "the Colosseum")
        else:
            push(state, ("draw", seat, numbers["benefit_cards"], 0), ("assassin", seat))
    elif f is Faction.LEGATES:
        if option == 0:
            gain_scroll(state, seat, why)
        else:
            push(state, ("draw", seat, numbers["benefit_cards"], 0), ("legion_offer", seat))
    elif f is Faction.PLEBEIANS:
        if option == 0:
            push(state, ("draw", seat, numbers["benefit_cards"], 0))
            give_money(state, seat, numbers["benefit_denarii"], why)
        else:
            _gain_tribune(state, seat, why)
    elif f is Faction.VESTALS:
        if option == 0:
            _vestal_favor(state, seat, numbers["benefit_laurels"])
        else:
            _gain_tribune(state, seat, why)
    elif option == 0:  # Senators
        gain_scroll(state, seat, why)
    else:
        push(state, ("draw", seat, numbers["benefit_cards"], 0))


def _gain_tribune(state: GameState, seat: int, why: str) -> None:
    """R19: the scroll is turned to its tribune side."""
    state.players[seat].tile = TRIBUNE
    touch(state, seat)
    state.log(seat, f"{seat_name(seat)} becomes tribune: the scroll is turned over ({why})")


def _vestal_favor(state: GameState, seat: int, laurels: int) -> None:
    give_laurels(state, seat, laurels, "Vestal Virgins benefit")
    player = state.players[seat]
    if not player.eternal_favor and not player.temporary_favor:
        player.temporary_favor = True
        touch(state, seat)
        state.log(seat, f"{seat_name(seat)} takes the temporary favor of the gods")


def _legates_problem(state: GameState, seat: int) -> str:
    return "" if state.controller[Faction.LEGATES] == seat else "the seat does not control the Legates"


@step(check=_legates_problem)
def legion_offer(state: GameState, seat: int) -> None:
    """R20: after the card, a legion for the sum of the player's displayed Legate set."""
    if state.players[seat].money >= _legion_price(state):
        ask(state, Pending(DecisionKind.LEGION_PURCHASE, seat, int(Faction.LEGATES)))


def _legion_price(state: GameState) -> int:
    return set_sum(state, state.sets[Faction.LEGATES])


def _legal_legion(state: GameState, pending: Pending) -> list[Action]:
    return [COMMIT, DECLINE]


def _resolve_legion(state: GameState, pending: Pending, action: Commit | Decline) -> None:
    if isinstance(action, Decline):
        return
    pay(state, pending.seat, _legion_price(state), "a legion (Legates benefit)")
    numbers = state.config.components.factions[Faction.LEGATES].numbers
    give_legions(state, pending.seat, numbers["benefit_legions"], "bought with the Legates benefit")


_OPTION_FACTIONS = frozenset({Faction.GLADIATORS, *_SCROLL_FIRST, *_TRIBUNE_PARTNER})


def _benefit_check(state: GameState, pending: Pending) -> str:
    if pending.faction not in _OPTION_FACTIONS or state.controller[pending.faction] != pending.seat:
        return "pending.faction: a benefit option needs a faction with options, controlled by the seat"
    return ""


def _benefit_labels(components: Components, faction: int) -> tuple[str, str] | None:
    """Names of options 0 and 1 of ``faction``'s benefit, with the amounts of the component set."""
    if not 0 <= faction < len(components.factions):
        return None
    n = components.factions[faction].numbers
    cards = cards_text(n.get("benefit_cards", 0))
    labels: dict[Faction, tuple[str, str]] = {
        Faction.GLADIATORS: ("take the Colosseum denarii", f"draw {cards}, then the assassin"),
        Faction.LEGATES: ("take a scroll", f"draw {cards}, then buy a legion"),
        Faction.PLEBEIANS: (f"draw {cards} and take {n.get('benefit_denarii', 0)} denarii", "become tribune"),
        Faction.VESTALS: (f"take {n.get('benefit_laurels', 0)} laurel(s) and the temporary favor", "become tribune"),
        Faction.SENATORS: ("take a scroll", f"draw {cards}"),
    }
    return labels.get(Faction(faction))


decision(
    DecisionRule(
        DecisionKind.BENEFIT_OPTION,
        _legal_benefit,
        _resolve_benefit,
        "Faction benefit: choose one of its options.",
        check=in_phase(Phase.FACTION_BENEFITS, then=_benefit_check),
        options=_benefit_labels,
    )
)
decision(
    DecisionRule(
        DecisionKind.LEGION_PURCHASE,
        _legal_legion,
        _resolve_legion,
        "Legates: buy a legion for the sum of your displayed Legate set, or not.",
        check=controller_of(Faction.LEGATES, Phase.FACTION_BENEFITS),
        commit_words="buy the legion",
        decline_words="buy nothing",
    )
)
