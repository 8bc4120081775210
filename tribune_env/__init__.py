"""Tribune RL: a rules engine for *Tribune: Primus Inter Pares*.

Importing the package (or the engine) loads no RL library: the environment names (``env``, ``raw_env``,
``TribuneSingleEnv``, ...) are imported on first use, and the environments are registered with gymnasium and
pettingzoo when those are imported (or at once, if they already are).
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tribune_env.data import ComponentError, Components, Faction, Region, default_components, load_components
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
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
from tribune_env.engine.config import DEFAULT_ROUND_LIMIT, GameConfig, RuleSet, config_from_dict, config_to_dict
from tribune_env.engine.decisions import DecisionKind, Pending, Phase, TakeoverRole
from tribune_env.engine.errors import GameOverError, IllegalActionError, InvalidStateError, TribuneError
from tribune_env.engine.game import Game

if TYPE_CHECKING:
    from tribune_env.envs import (
        IllegalMoveError,
        Space,
        TribuneExpansionSingleEnv,
        TribuneSingleEnv,
        env,
        expansion_env,
        expansion_raw_env,
        raw_env,
    )
    from tribune_env.envs import register_envs as register_envs  # public, though not in __all__

__version__ = "0.3.0"

# --- the environments: they need gymnasium and pettingzoo (installed with the package); the engine does not ----

_ENV_NAMES = frozenset(
    {
        "IllegalMoveError",
        "Space",
        "TribuneExpansionSingleEnv",
        "TribuneSingleEnv",
        "env",
        "expansion_env",
        "expansion_raw_env",
        "raw_env",
        "register_envs",
    }
)
_HOSTS = ("gymnasium", "pettingzoo")  # the libraries the environments are registered with


def __getattr__(name: str) -> object:
    """The environment names and not yet imported subpackages, imported on first use (PEP 562)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        if name in _ENV_NAMES:
            value = getattr(importlib.import_module("tribune_env.envs"), name)
        else:
            value = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as missing:
        if missing.name in _HOSTS:  # the environments are unavailable without them
            raise AttributeError(f"module {__name__!r} has no attribute {name!r} ({missing.name} is missing)") from None
        if missing.name == f"{__name__}.{name}":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        raise
    globals()[name] = value
    return value


def _register_with(library: str) -> None:
    """Register the environments with ``library`` (just imported); never lets the library's import fail."""
    try:
        from tribune_env.envs.registration import REGISTER

        REGISTER[library]()
    except Exception as err:  # pragma: no cover - a registry API we do not know
        warnings.warn(f"tribune_env: cannot register the environments with {library}: {err!r}", stacklevel=2)
    if all(host in sys.modules for host in _HOSTS):
        sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "tribune_env_registration", False)]


class _RegisteringLoader(importlib.abc.Loader):
    """Runs the host library's own loader, then registers the environments with it."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__loader__ = self.loader  # the module keeps its own loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        _register_with(module.__name__)


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Import hook: registers the environments with gymnasium / pettingzoo right after that library is imported.

    Neither library has a plugin mechanism (Gymnasium dropped its ``gymnasium.envs`` entry points in 1.0), and
    importing them here would load them with the engine. The hook removes itself once both are imported.
    """

    tribune_env_registration = True

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _HOSTS or fullname in sys.modules:
            return None
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            if finder is self or find_spec is None:
                continue
            spec: importlib.machinery.ModuleSpec | None = find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


def _register_envs_on_import() -> None:
    """Register with the host libraries already imported; install the hook for the others."""
    for host in _HOSTS:
        if host in sys.modules:
            _register_with(host)
    hooked = any(getattr(f, "tribune_env_registration", False) for f in sys.meta_path)
    if not hooked and not all(host in sys.modules for host in _HOSTS):
        sys.meta_path.insert(0, _RegisterOnImport())


_register_envs_on_import()

__all__ = [
    "COMMIT",
    "DECLINE",
    "DEFAULT_ROUND_LIMIT",
    "Action",
    "Assassinate",
    "Bid",
    "ChooseFaction",
    "ChooseOfficial",
    "ChooseOption",
    "ChooseTile",
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
    "RuleSet",
    "Space",
    "TakeoverRole",
    "TribuneError",
    "TribuneExpansionSingleEnv",
    "TribuneSingleEnv",
    "config_from_dict",
    "config_to_dict",
    "default_components",
    "env",
    "expansion_env",
    "expansion_raw_env",
    "load_components",
    "raw_env",
]
