"""Component data: the one file of printed numbers and its typed loader."""

from tribune_env.data.schema import (
    OBJECTIVES,
    ComponentError,
    Components,
    Faction,
    FactionSpec,
    Region,
    RegionSpec,
    ScoringSpec,
    VictoryCard,
    default_components,
    load_components,
    parse_components,
)

__all__ = [
    "OBJECTIVES",
    "ComponentError",
    "Components",
    "Faction",
    "FactionSpec",
    "Region",
    "RegionSpec",
    "ScoringSpec",
    "VictoryCard",
    "default_components",
    "load_components",
    "parse_components",
]
