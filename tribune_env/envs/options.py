"""Environment options shared by the AEC environment and the single-agent wrapper."""

from __future__ import annotations

from pathlib import Path

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
) -> GameConfig:
    """A validated :class:`GameConfig` (raises ``ValueError`` naming the bad option)."""
    if not isinstance(expansion, bool):
        raise ValueError(f"expansion: expected True or False, got {expansion!r}")
    return GameConfig(
        players=players,
        expansion=expansion,
        victory_card=victory_card,
        point_variant=point_variant,
        round_limit=round_limit,
        components=resolve_components(components),
    )
