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

__version__ = "0.2.0"

try:  # the environments need gymnasium and pettingzoo (installed with the package); the engine does not
    from tribune_env.envs import IllegalMoveError, TribuneSingleEnv, env, raw_env, register_envs
except ModuleNotFoundError as missing:  # pragma: no cover - exercised by test_architecture in a subprocess
    if missing.name not in ("gymnasium", "pettingzoo"):
        raise
else:
    register_envs()

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
    "IllegalMoveError",
    "InvalidStateError",
    "Pending",
    "Phase",
    "PickCard",
    "PlaceFollower",
    "Region",
    "TakeoverRole",
    "TribuneError",
    "TribuneSingleEnv",
    "default_components",
    "env",
    "load_components",
    "raw_env",
]
