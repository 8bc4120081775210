"""Environment options shared by the AEC environment and the single-agent wrapper."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tribune_env.data import Components, default_components, load_components
from tribune_env.engine.config import GameConfig


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
