"""Readable labels for actions and decisions."""

from __future__ import annotations

from tribune_env.engine.actions import (
    Action,
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

OPTION_LABELS: dict[DecisionKind, tuple[str, str]] = {
    DecisionKind.LATRINE_CHOICE: ("take the card's value in denarii", "pay the card's value and take it"),
    DecisionKind.AGRIPPA_CHOICE: ("take a scroll", "draw a card"),
}
BENEFIT_LABELS: dict[int, tuple[str, str]] = {
    0: ("take the Colosseum denarii", "draw a card and send an assassin"),
    1: ("take a scroll", "draw a card and buy a legion"),
    3: ("draw a card and take 2 denarii", "become tribune"),
    5: ("take a laurel and the temporary favor", "become tribune"),
    6: ("take a scroll", "draw two cards"),
}


def describe_action(state: GameState, action: Action) -> str:
    tables = state.tables
    pending = state.pending
    if isinstance(action, PlaceFollower):
        return f"place a follower on {tables.spaces[action.space].label}"
    if isinstance(action, PickCard):
        return f"choose {tables.card_name(action.card)}"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, ChooseFaction):
        return f"choose {state.config.components.factions[action.faction].name}"
    if isinstance(action, Assassinate):
        name = state.config.components.factions[action.faction].name
        return f"assassin against P{action.seat}'s {name}"
    if isinstance(action, Commit):
        return "commit"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, ChooseOption) and pending is not None:
        if pending.kind is DecisionKind.BENEFIT_OPTION and pending.faction in BENEFIT_LABELS:
            return BENEFIT_LABELS[pending.faction][action.option]
        if pending.kind in OPTION_LABELS:
            return OPTION_LABELS[pending.kind][action.option]
    return repr(action)
