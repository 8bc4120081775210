"""Registration with PettingZoo's and Gymnasium's registries.

Neither library is imported here at module level: ``import tribune_env`` registers the environments with
whichever of the two is already imported and arranges for the other to get them the moment it is imported
(see ``tribune_env/__init__.py``), so ``gymnasium.make(SINGLE_ID)`` and ``pettingzoo.make("aec", AEC_ID)``
work after a plain ``import tribune_env`` while the rules engine alone loads no RL library. (Gymnasium 1.x has
no plugin entry points and PettingZoo never had any, so an installed package cannot register itself.)

Subprocesses (SB3's ``SubprocVecEnv``, Gymnasium's ``AsyncVectorEnv``, Ray workers) are fresh interpreters: a bare
id such as ``"tribune/TribuneSingle-v0"`` is unknown there unless something imports ``tribune_env`` first, and
the worker dies (SB3 then reports only a bare ``ConnectionResetError`` or ``EOFError``; the worker's own traceback,
printed above it, says ``Namespace tribune not found``). With the ``"spawn"`` and ``"forkserver"`` start methods
a script that imports ``tribune_env`` at its top level is fine (the child re-imports the main script), but an
interactive session, a notebook or a test runner is not. Two forms always work:

* the module-qualified ids :data:`SINGLE_MODULE_ID` (``"tribune_env:tribune/TribuneSingle-v0"``) and
  :data:`EXPANSION_SINGLE_MODULE_ID`: Gymnasium imports the module before the ``:`` and then looks the id up, e.g.
  ``make_vec_env("tribune_env:tribune/TribuneSingle-v0", n_envs=4, vec_env_cls=SubprocVecEnv)``;
* :class:`GymEnvFactory` (``GymEnvFactory(SINGLE_ID, players=3)``): a picklable environment constructor whose
  unpickling imports ``tribune_env``, for ``SubprocVecEnv([factory] * 4)`` or ``AsyncVectorEnv``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

AEC_ID = "tribune/Tribune-v0"
SINGLE_ID = "tribune/TribuneSingle-v0"
AEC_ENTRY_POINT = "tribune_env.envs.aec:env"
SINGLE_ENTRY_POINT = "tribune_env.envs.single:TribuneSingleEnv"
EXPANSION_AEC_ID = "tribune/TribuneExpansion-v0"
EXPANSION_SINGLE_ID = "tribune/TribuneExpansionSingle-v0"
EXPANSION_AEC_ENTRY_POINT = "tribune_env.envs.aec:expansion_env"
EXPANSION_SINGLE_ENTRY_POINT = "tribune_env.envs.single:TribuneExpansionSingleEnv"

DEPRECATED_IDS = {
    "tribune_env/TribuneSingle-v0": SINGLE_ID,
    "tribune_env/TribuneExpansionSingle-v0": EXPANSION_SINGLE_ID,
}
"""The Gymnasium ids of release 0.3 and before (namespace ``tribune_env``), kept as aliases of the ``tribune/`` ids
for one more release: making one warns (:class:`DeprecationWarning`) and makes the environment of its new id."""
REMOVED_IN = "0.5"
"""The release that drops the :data:`DEPRECATED_IDS`."""


def _deprecated(old: str) -> Callable[..., Any]:
    def make(**kwargs: Any) -> Any:
        import warnings

        import gymnasium

        new = DEPRECATED_IDS[old]
        warnings.warn(
            f"the environment id {old!r} is deprecated and goes in release {REMOVED_IN}: use {new!r}",
            DeprecationWarning,
            stacklevel=4,
        )
        from gymnasium.envs.registration import load_env_creator

        entry_point = gymnasium.spec(new).entry_point
        creator = load_env_creator(entry_point) if isinstance(entry_point, str) else entry_point
        assert creator is not None
        return creator(**kwargs)

    make.__name__ = make.__qualname__ = f"deprecated_{old.split('/')[1].split('-')[0]}"
    return make


deprecated_single = _deprecated("tribune_env/TribuneSingle-v0")
deprecated_expansion_single = _deprecated("tribune_env/TribuneExpansionSingle-v0")
DEPRECATED_ENTRY_POINTS = {
    "tribune_env/TribuneSingle-v0": "tribune_env.envs.registration:deprecated_single",
    "tribune_env/TribuneExpansionSingle-v0": "tribune_env.envs.registration:deprecated_expansion_single",
}


def register_gymnasium() -> None:
    """Register ``tribune/TribuneSingle-v0`` and ``tribune/TribuneExpansionSingle-v0`` with Gymnasium, and the
    :data:`DEPRECATED_IDS` as warning aliases (imports gymnasium only); idempotent."""
    import gymnasium

    entries = ((SINGLE_ID, SINGLE_ENTRY_POINT), (EXPANSION_SINGLE_ID, EXPANSION_SINGLE_ENTRY_POINT))
    for env_id, entry_point in (*entries, *DEPRECATED_ENTRY_POINTS.items()):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point)


def register_pettingzoo() -> None:
    """Register ``tribune/Tribune-v0`` and ``tribune/TribuneExpansion-v0`` (AEC) with PettingZoo (imports pettingzoo
    only); idempotent."""
    import pettingzoo

    for env_id, entry_point in ((AEC_ID, AEC_ENTRY_POINT), (EXPANSION_AEC_ID, EXPANSION_AEC_ENTRY_POINT)):
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry_point)


MODULE_PREFIX = "tribune_env:"
"""Prefix of a module-qualified Gymnasium id: Gymnasium imports ``tribune_env`` before looking the id up."""
SINGLE_MODULE_ID = MODULE_PREFIX + SINGLE_ID
EXPANSION_SINGLE_MODULE_ID = MODULE_PREFIX + EXPANSION_SINGLE_ID


class GymEnvFactory:
    """A picklable ``() -> gymnasium.Env`` for subprocess vector environments (module docstring).

    Unpickling it in a worker imports this module, and so ``tribune_env``, which registers the ids; calling it
    registers them (should the hook not have run) and makes the environment with ``kwargs``.
    """

    def __init__(self, env_id: str = SINGLE_ID, **kwargs: Any) -> None:
        self.env_id = env_id
        self.kwargs = kwargs

    def __call__(self) -> Any:
        import gymnasium

        register_gymnasium()
        return gymnasium.make(self.env_id, **self.kwargs)

    def __repr__(self) -> str:
        return f"GymEnvFactory({self.env_id!r}, **{self.kwargs!r})"


REGISTER: dict[str, Callable[[], None]] = {"gymnasium": register_gymnasium, "pettingzoo": register_pettingzoo}
"""The registration function for each host library, by top-level module name."""


def register_envs() -> None:
    """Register the AEC and Gymnasium environments (base and expansion) with both libraries; idempotent."""
    for register in REGISTER.values():
        register()
