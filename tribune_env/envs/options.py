"""Environment options shared by the AEC environment and the single-agent wrapper."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tribune_env.data import Components, default_components, load_components
from tribune_env.engine.config import GameConfig

if TYPE_CHECKING:  # gymnasium is imported only when a flat space is built: the table needs no RL library
    from gymnasium import spaces


def resolve_components(components: Components | str | Path | None) -> Components:
    """A component set from an object, a TOML path, or ``None`` for the packaged one."""
    if components is None:
        return default_components()
    if isinstance(components, Components):
        return components
    if isinstance(components, str | Path):
        return load_components(components)
    raise TypeError(f"components: expected a Components object or a path, got {type(components).__name__}")


def game_config(
    players: int,
    victory_card: str | None,
    point_variant: bool,
    round_limit: int,
    components: Components | str | Path | None,
    expansion: bool = False,
    brutii: bool = False,
    brutii_seat: int | None = None,
) -> GameConfig:
    """A validated :class:`GameConfig` (raises ``ValueError`` naming the bad option).

    ``brutii`` plays the Brutii variant (expansion rules, the seat counts of ``[expansion.brutii]``: 5 or 6 with the
    packaged components); ``brutii_seat`` fixes the Brutii's seat (``None``: drawn at random each game, R43).
    """
    for name, value in (("expansion", expansion), ("brutii", brutii)):
        if not isinstance(value, bool):
            raise ValueError(f"{name}: expected True or False, got {value!r}")
    if isinstance(brutii_seat, np.integer):
        brutii_seat = int(brutii_seat)
    return GameConfig(
        players=players,
        expansion=expansion,
        brutii=brutii,
        brutii_seat=brutii_seat,
        victory_card=victory_card,
        point_variant=point_variant,
        round_limit=round_limit,
        components=resolve_components(components),
    )


ILLEGAL_ACTIONS = ("raise", "penalty", "penalty_end")
"""What an AEC environment does with an illegal action (``illegal_action=``): raise :class:`IllegalMoveError`
(default), give the acting agent ``illegal_penalty`` and let it act again, or give the penalty and end the episode."""
OBS_FORMATS = ("dict", "flat")
"""Observation formats of the AEC environments (``obs_format=``): the ``Dict`` of ``"observation"`` and
``"action_mask"`` (default), or one float32 ``Box``: the observation vector followed by the mask as 0.0/1.0."""
DEFAULT_ILLEGAL_PENALTY = -1.0
"""The reward of an illegal action in the penalty modes unless ``illegal_penalty`` says otherwise."""


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else ``ValueError`` naming the option ``name``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}: expected one of {choices}, got {value!r}")
    return value


def check_penalty(value: object) -> float:
    """The illegal-action penalty as a float (``ValueError`` naming ``illegal_penalty`` for anything else)."""
    if isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool):
        penalty = float(value)
        if np.isfinite(penalty):
            return penalty
    raise ValueError(f"illegal_penalty: expected a finite number, got {value!r}")


def mask_slice(obs_size: int, actions: int) -> slice:
    """Where the action mask lies in a flat observation (``obs_format="flat"``): after the ``obs_size`` entries of
    the observation vector, one entry per action."""
    return slice(obs_size, obs_size + actions)


def flat_space(high: np.ndarray, actions: int) -> spaces.Box:
    """The ``Box`` of flat observations: the observation vector in ``[0, high]``, then the mask in ``[0, 1]``."""
    from gymnasium import spaces

    top = np.concatenate([np.asarray(high, dtype=np.float32), np.ones(actions, dtype=np.float32)])
    return spaces.Box(low=np.zeros_like(top), high=top, dtype=np.float32)


def flat_observation(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """One flat observation: ``observation`` followed by ``mask`` as float32 0.0/1.0."""
    return np.concatenate([observation.astype(np.float32, copy=False), mask.astype(np.float32)])
