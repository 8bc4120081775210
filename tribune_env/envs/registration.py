"""Registration with PettingZoo's and Gymnasium's registries (run on ``import tribune_env``)."""

from __future__ import annotations

import gymnasium
import pettingzoo

AEC_ID = "tribune/Tribune-v0"
SINGLE_ID = "tribune_env/TribuneSingle-v0"


def register_envs() -> None:
    """Register ``tribune/Tribune-v0`` (AEC) and ``tribune_env/TribuneSingle-v0`` (Gymnasium); idempotent."""
    if AEC_ID not in pettingzoo.aec_registry:
        pettingzoo.register("aec", AEC_ID, entry_point="tribune_env.envs.aec:env")
    if SINGLE_ID not in gymnasium.registry:
        gymnasium.register(id=SINGLE_ID, entry_point="tribune_env.envs.single:TribuneSingleEnv")
