"""Tribune RL: a rules engine for *Tribune: Primus Inter Pares*."""

from tribune_env.data import ComponentError, Components, Faction, Region, default_components, load_components
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
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
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Pending, Phase, TakeoverRole
from tribune_env.engine.errors import GameOverError, IllegalActionError, InvalidStateError, TribuneError
from tribune_env.engine.game import Game

__version__ = "0.1.0"

__all__ = [
    "COMMIT",
    "DECLINE",
    "Action",
    "Assassinate",
    "Bid",
    "ChooseFaction",
    "ChooseOption",
    "Commit",
    "ComponentError",
    "Components",
    "DecisionKind",
    "Decline",
    "Faction",
    "Game",
    "GameConfig",
    "GameOverError",
    "IllegalActionError",
    "InvalidStateError",
    "Pending",
    "Phase",
    "PickCard",
    "PlaceFollower",
    "Region",
    "TakeoverRole",
    "TribuneError",
    "default_components",
    "load_components",
]
