"""Registration with PettingZoo's and Gymnasium's registries.

Neither library is imported here at module level: ``import tribune_env`` registers the environments with
whichever of the two is already imported and arranges for the other to get them the moment it is imported
(see ``tribune_env/__init__.py``), so ``gymnasium.make(SINGLE_ID)`` and ``pettingzoo.make("aec", AEC_ID)``
work after a plain ``import tribune_env`` while the rules engine alone loads no RL library. (Gymnasium 1.x has
no plugin entry points and PettingZoo never had any, so an installed package cannot register itself.)
"""

from __future__ import annotations

from collections.abc import Callable

AEC_ID = "tribune/Tribune-v0"
SINGLE_ID = "tribune_env/TribuneSingle-v0"
AEC_ENTRY_POINT = "tribune_env.envs.aec:env"
SINGLE_ENTRY_POINT = "tribune_env.envs.single:TribuneSingleEnv"
EXPANSION_AEC_ID = "tribune/TribuneExpansion-v0"
EXPANSION_SINGLE_ID = "tribune_env/TribuneExpansionSingle-v0"
EXPANSION_AEC_ENTRY_POINT = "tribune_env.envs.aec:expansion_env"
EXPANSION_SINGLE_ENTRY_POINT = "tribune_env.envs.single:TribuneExpansionSingleEnv"


def register_gymnasium() -> None:
    """Register ``tribune_env/TribuneSingle-v0`` and ``tribune_env/TribuneExpansionSingle-v0`` with Gymnasium
    (imports gymnasium only); idempotent."""
    import gymnasium

    for env_id, entry_point in ((SINGLE_ID, SINGLE_ENTRY_POINT), (EXPANSION_SINGLE_ID, EXPANSION_SINGLE_ENTRY_POINT)):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point)


def register_pettingzoo() -> None:
    """Register ``tribune/Tribune-v0`` and ``tribune/TribuneExpansion-v0`` (AEC) with PettingZoo (imports pettingzoo
    only); idempotent."""
    import pettingzoo

    for env_id, entry_point in ((AEC_ID, AEC_ENTRY_POINT), (EXPANSION_AEC_ID, EXPANSION_AEC_ENTRY_POINT)):
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry_point)


REGISTER: dict[str, Callable[[], None]] = {"gymnasium": register_gymnasium, "pettingzoo": register_pettingzoo}
"""The registration function for each host library, by top-level module name."""


def register_envs() -> None:
    """Register the AEC and Gymnasium environments (base and expansion) with both libraries; idempotent."""
    for register in REGISTER.values():
        register()
