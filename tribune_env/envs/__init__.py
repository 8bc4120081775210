"""RL environments: the PettingZoo AEC environment and the Gymnasium single-agent wrapper.

The names below are loaded on first use (PEP 562), so that ``tribune_env.envs.registration`` can be imported
without importing gymnasium or pettingzoo.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from tribune_env.envs.registration import AEC_ID, EXPANSION_AEC_ID, EXPANSION_SINGLE_ID, SINGLE_ID, register_envs

if TYPE_CHECKING:
    from tribune_env.codec.space import Space
    from tribune_env.envs.aec import env, expansion_env, expansion_raw_env, raw_env
    from tribune_env.envs.batched import TribuneBatchedEnv
    from tribune_env.envs.policies import RandomPolicy, ViewAgent, model_policy
    from tribune_env.envs.pool import TribunePool
    from tribune_env.envs.rewards import SCHEMES
    from tribune_env.envs.single import TribuneExpansionSingleEnv, TribuneSingleEnv
    from tribune_env.envs.table import IllegalMoveError, Table
    from tribune_env.envs.wrappers import IllegalActionPenalty

_LAZY = {
    "env": "aec",
    "raw_env": "aec",
    "expansion_env": "aec",
    "expansion_raw_env": "aec",
    "TribuneExpansionSingleEnv": "single",
    "TribuneBatchedEnv": "batched",
    "TribunePool": "pool",
    "RandomPolicy": "policies",
    "ViewAgent": "policies",
    "model_policy": "policies",
    "SCHEMES": "rewards",
    "Space": "options",  # tribune_env.codec.Space, which the environments take as space=
    "TribuneSingleEnv": "single",
    "IllegalMoveError": "table",
    "Table": "table",
    "IllegalActionPenalty": "wrappers",
}

__all__ = [
    "AEC_ID",
    "EXPANSION_AEC_ID",
    "EXPANSION_SINGLE_ID",
    "SCHEMES",
    "SINGLE_ID",
    "IllegalActionPenalty",
    "IllegalMoveError",
    "RandomPolicy",
    "Space",
    "Table",
    "TribuneBatchedEnv",
    "TribuneExpansionSingleEnv",
    "TribunePool",
    "TribuneSingleEnv",
    "ViewAgent",
    "env",
    "expansion_env",
    "expansion_raw_env",
    "model_policy",
    "raw_env",
    "register_envs",
]


def __getattr__(name: str) -> object:
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    else:  # a submodule (``tribune_env.envs.single``) not imported yet
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
