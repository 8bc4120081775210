"""Readable labels for actions and decisions."""

from __future__ import annotations

from tribune_env.data import Components, Faction
from tribune_env.engine.actions import (
    Assassinate,
    Bid,
    ChooseFaction,
    ChooseOption,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.state import GameState


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def option_labels(components: Components, kind: DecisionKind, faction: int) -> tuple[str, str] | None:
    """Labels of options 0 and 1 of a two-option decision, with the amounts of the component set."""
    if kind is DecisionKind.LATRINE_CHOICE:
        return "take the card's value in denarii", "pay the card's value and take it"
    if kind is DecisionKind.AGRIPPA_CHOICE:
        return "take a scroll", f"draw {_cards(components.factions[Faction.PLEBEIANS].numbers['leader_cards'])}"
    if kind is not DecisionKind.BENEFIT_OPTION or not 0 <= faction < len(components.factions):
        return None
    n = components.factions[faction].numbers
    labels: dict[Faction, tuple[str, str]] = {
        Faction.GLADIATORS: (
            "take the Colosseum denarii",
            f"draw {_cards(n.get('benefit_cards', 0))}, then the assassin",
        ),
        Faction.LEGATES: ("take a scroll", f"draw {_cards(n.get('benefit_cards', 0))}, then buy a legion"),
        Faction.PLEBEIANS: (
            f"draw {_cards(n.get('benefit_cards', 0))} and take {n.get('benefit_denarii', 0)} denarii",
            "become tribune",
        ),
        Faction.VESTALS: (f"take {n.get('benefit_laurels', 0)} laurel(s) and the temporary favor", "become tribune"),
        Faction.SENATORS: ("take a scroll", f"draw {_cards(n.get('benefit_cards', 0))}"),
    }
    return labels.get(Faction(faction))


def describe_action(state: GameState, action: object) -> str:
    """A readable label; payloads out of range are shown as the raw action."""
    try:
        return _describe(state, action)
    except (IndexError, ValueError, KeyError):
        return repr(action)


def _in_range(value: int, size: int) -> int:
    if not 0 <= value < size:
        raise IndexError(value)
    return value


def _describe(state: GameState, action: object) -> str:
    tables = state.tables
    factions = state.config.components.factions
    pending = state.pending
    if isinstance(action, PlaceFollower):
        return f"place a follower on {tables.spaces[_in_range(action.space, len(tables.spaces))].label}"
    if isinstance(action, PickCard):
        return f"choose {tables.card_name(_in_range(action.card, tables.num_card_types))}"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, ChooseFaction):
        return f"choose {factions[_in_range(action.faction, len(factions))].name}"
    if isinstance(action, Assassinate):
        name = factions[_in_range(action.faction, len(factions))].name
        return f"assassin against P{action.seat}'s {name}"
    if isinstance(action, Commit):
        return "commit"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, ChooseOption) and pending is not None:
        labels = option_labels(state.config.components, pending.kind, pending.faction)
        if labels is not None and action.option in (0, 1):
            return labels[action.option]
    return repr(action)
