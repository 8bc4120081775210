"""Environment options shared by the AEC environment, the single-agent wrapper and the factories above them.

The game an environment plays is a :class:`~tribune_env.engine.config.GameConfig`, given as such or by its fields as
keyword options (:func:`game_config`), as :meth:`Game.new <tribune_env.engine.game.Game.new>` takes it; the spaces
it is played in are a :class:`~tribune_env.codec.Space`. Only the environment's own options are declared by each
environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tribune_env.codec import Space
from tribune_env.data import Components, default_components, load_components
from tribune_env.engine.config import GameConfig, config_fields

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


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``options`` split into the game's (:func:`~tribune_env.engine.config.config_fields`) and the rest."""
    fields = config_fields()
    game = {name: value for name, value in options.items() if name in fields}
    return game, {name: value for name, value in options.items() if name not in fields}


def game_config(
    config: GameConfig | None, options: Mapping[str, Any], space: Space = Space.BASE, who: str = "the environment"
) -> GameConfig:
    """The game an environment plays: ``config``, or the :class:`GameConfig` of ``options`` (its fields by name;
    ``components`` may also be a TOML path, numpy integers count as integers). A game in the expansion spaces
    plays the expansion unless ``options`` say ``expansion=False`` (base rules in the expansion spaces).

    Raises:
        TypeError: ``config`` that is not a :class:`GameConfig`, both ``config`` and ``options``, or an option that
            is not a game option (``who`` names the receiver in the message).
        ValueError: a bad option, named (:class:`GameConfig`'s checks).
    """
    fields = config_fields()
    unknown = [name for name in options if name not in fields]
    if unknown:
        raise TypeError(f"{who}: unknown option {unknown[0]!r}; the game's options are {', '.join(fields)}")
    if config is not None:
        if not isinstance(config, GameConfig):
            raise TypeError(
                f"{who}: config: expected a GameConfig, got {config!r:.60} (give the game's options by keyword, "
                "e.g. players=4)"
            )
        if options:
            raise TypeError(f"{who}: give either a config or the game's options ({', '.join(options)}), not both")
        return config
    values: dict[str, Any] = {name: int(v) if isinstance(v, np.integer) else v for name, v in options.items()}
    if "components" in values:
        values["components"] = resolve_components(values["components"])
    values.setdefault("expansion", space is Space.EXPANSION)
    return GameConfig(**values)


def config_and_space(
    config: GameConfig | None, options: Mapping[str, Any], space: Space | str | None, who: str
) -> tuple[GameConfig, Space]:
    """The game and the spaces of a factory that builds the base or the expansion environment: ``space`` when
    given (then as :func:`game_config`), else the spaces of the game's rule set (:meth:`Space.for_rules`).

    Raises:
        TypeError, ValueError: as :func:`game_config`; ValueError for a bad ``space``.
    """
    if space is None:
        game = game_config(config, options, Space.BASE, who)
        return game, Space.for_rules(game.rules)
    chosen = Space.parse(space)
    return game_config(config, options, chosen, who), chosen


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
