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


def register_gymnasium() -> None:
    """Register ``tribune_env/TribuneSingle-v0`` with Gymnasium (imports gymnasium only); idempotent."""
    import gymnasium

    if SINGLE_ID not in gymnasium.registry:
        gymnasium.register(id=SINGLE_ID, entry_point=SINGLE_ENTRY_POINT)


def register_pettingzoo() -> None:
    """Register ``tribune/Tribune-v0`` (AEC) with PettingZoo (imports pettingzoo only); idempotent."""
    import pettingzoo

    if AEC_ID not in pettingzoo.aec_registry:
        pettingzoo.register("aec", AEC_ID, entry_point=AEC_ENTRY_POINT)


REGISTER: dict[str, Callable[[], None]] = {"gymnasium": register_gymnasium, "pettingzoo": register_pettingzoo}
"""The registration function for each host library, by top-level module name."""


def register_envs() -> None:
    """Register ``tribune/Tribune-v0`` (AEC) and ``tribune_env/TribuneSingle-v0`` (Gymnasium); idempotent."""
    for register in REGISTER.values():
        register()
