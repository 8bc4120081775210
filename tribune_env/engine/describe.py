"""Readable labels for actions and decisions."""

from __future__ import annotations

from tribune_env.data import Official
from tribune_env.engine import rules  # noqa: F401  (the decision records)
from tribune_env.engine.actions import (
    Assassinate,
    Bid,
    ChooseFaction,
    ChooseOfficial,
    ChooseOption,
    ChooseTile,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.registry import option_labels
from tribune_env.engine.state import GameState
from tribune_env.engine.text import tile_text


def describe_action(state: GameState, action: object) -> str:
    """A readable label; payloads out of range are shown as the raw action."""
    try:
        return _describe(state, action)
    except (IndexError, ValueError, KeyError, TypeError):  # payloads of any type (an agent's own objects)
        return _safe_repr(action)


def _safe_repr(action: object) -> str:
    """``repr`` of an object from outside, which may itself raise."""
    try:
        return repr(action)
    except Exception:  # an agent's object with a broken __repr__
        return f"<{type(action).__name__} object>"


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
    if isinstance(action, ChooseTile | ChooseOfficial):
        return _describe_expansion(state, action)
    if isinstance(action, Commit):
        return "commit"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, ChooseOption) and pending is not None:
        labels = option_labels(state.config.components, pending.kind, pending.faction)
        if labels is not None and 0 <= action.option < len(labels):
            return labels[action.option]
    return repr(action)


def _describe_expansion(state: GameState, action: ChooseTile | ChooseOfficial) -> str:
    """R34: claiming a favor of the emperor tile; R36: choosing an official (names from the components)."""
    spec = state.config.components.expansion
    if spec is None or not state.config.expansion:
        raise ValueError("not an expansion game")
    if isinstance(action, ChooseTile):
        return f"claim the favor of the emperor tile {tile_text(spec, action.tile)}"
    official = Official(_in_range(action.official, len(spec.officials)))
    return f"choose the {spec.official(official).name}"
