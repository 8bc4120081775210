"""Readable labels for actions and decisions."""

from __future__ import annotations

from tribune_env.data import BrutiiCard, Official, Region
from tribune_env.engine import rules  # noqa: F401  (the decision records)
from tribune_env.engine.actions import (
    Assassinate,
    Bid,
    ChooseActionCard,
    ChooseFaction,
    ChooseOfficial,
    ChooseOption,
    ChooseRegion,
    ChooseTile,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.brutii import card_name
from tribune_env.engine.brutii_ops import is_brutii
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.registry import DECISIONS, option_labels
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
    if isinstance(action, ChooseActionCard | ChooseRegion):
        return _describe_brutii(state, action)
    if isinstance(action, Commit | Decline):
        return _brutii_words(state, action) or ("commit" if isinstance(action, Commit) else "decline")
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


def _describe_brutii(state: GameState, action: ChooseActionCard | ChooseRegion) -> str:
    """R44: playing an action card; R54: the region named with Veto (names as in the game log)."""
    if not state.config.brutii:
        raise ValueError("not a game with the Brutii")
    if isinstance(action, ChooseActionCard):
        return f'play the action card "{card_name(BrutiiCard(_in_range(action.card, len(BrutiiCard))))}"'
    region = _in_range(action.region, int(max(state.tables.regions)) + 1)
    return f"veto {Region(region).key.replace('_', ' ')}: no follower may go there this round"


def _brutii_words(state: GameState, action: Commit | Decline) -> str:
    """What Commit and Decline mean at the Brutii's own decisions (buy the legion or not, R51) and at his chariot
    bid (opt out, R49); '' elsewhere (the plain words)."""
    pending = state.pending
    if pending is None or not is_brutii(state, pending.seat):
        return ""
    if pending.kind is DecisionKind.CHARIOT_BID and isinstance(action, Decline):
        return "opt out of the chariot auction (sealed; with Denarii the winner pays you, R49)"
    if not pending.kind.brutii:
        return ""
    rule = DECISIONS[pending.kind]
    return rule.commit_words if isinstance(action, Commit) else rule.decline_words
