"""Lookup tables derived from the components: card types and follower spaces.

A card's identity for the rules is (faction, value), so the engine works with
*card types*: small integers indexing :attr:`Tables.card_faction` and
:attr:`Tables.card_value`. Hands are count vectors over card types. Follower
spaces are numbered in board order: region spaces (regions in evaluation order,
spaces left to right), then the two spaces of each faction field, then the coin
bowl. Every size here is derived from the component file.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from tribune_env.data import Components, Faction, Region


class SpaceKind(IntEnum):
    REGION = 0
    FACTION = 1
    COIN_BOWL = 2


@dataclass(frozen=True)
class SpaceSpec:
    """One follower space: a region space, a faction-field space or the coin bowl."""

    id: int
    kind: SpaceKind
    region: Region | None
    faction: Faction | None
    slot: int
    label: str


@dataclass(frozen=True, eq=False)
class Tables:
    """Card-type and follower-space tables for one component set."""

    components: Components
    card_faction: tuple[int, ...]
    card_value: tuple[int, ...]
    card_copies: tuple[int, ...]
    card_label: tuple[str, ...]
    card_by_label: dict[str, int]
    faction_cards: tuple[tuple[int, ...], ...]  # card types of each faction, ascending value
    leader_card: tuple[int, ...]  # the leader's card type, per faction
    regions: tuple[Region, ...]  # the regions of the board, in evaluation order
    spaces: tuple[SpaceSpec, ...]
    region_spaces: tuple[tuple[int, ...], ...]  # space ids of each region, in slot order
    faction_spaces: tuple[tuple[int, ...], ...]  # space ids of each faction field ("1", "2")
    coin_bowl: int

    @property
    def num_card_types(self) -> int:
        return len(self.card_faction)

    @property
    def deck_size(self) -> int:
        return sum(self.card_copies)

    def card_name(self, card: int) -> str:
        spec = self.components.factions[self.card_faction[card]]
        value = self.card_value[card]
        if value == 0:
            return f"{spec.name} 0 ({spec.leader})"
        return f"{spec.name} {value}"

    def card_id(self, label: str) -> int:
        """Card type of a label ``"faction:value"`` (e.g. ``"senators:7"``)."""
        try:
            return self.card_by_label[label]
        except KeyError:
            raise ValueError(f"unknown card {label!r}; expected 'faction:value' such as 'senators:7'") from None


def _card_types(components: Components) -> tuple[list[int], list[int], list[int]]:
    factions: list[int] = []
    values: list[int] = []
    copies: list[int] = []
    for spec in components.factions:
        for value in sorted(set(spec.values)):
            factions.append(int(spec.faction))
            values.append(value)
            copies.append(spec.values.count(value))
    return factions, values, copies


def _spaces(components: Components) -> list[SpaceSpec]:
    spaces: list[SpaceSpec] = []
    for spec in components.regions:
        for slot in range(spec.spaces):
            label = f"{spec.region.key}:{slot + 1}"
            spaces.append(SpaceSpec(len(spaces), SpaceKind.REGION, spec.region, None, slot, label))
    for faction in Faction:
        for slot in range(components.faction_field_spaces):
            label = f"faction:{faction.key}:{slot + 1}"
            spaces.append(SpaceSpec(len(spaces), SpaceKind.FACTION, None, faction, slot, label))
    spaces.append(SpaceSpec(len(spaces), SpaceKind.COIN_BOWL, None, None, 0, "coin_bowl"))
    return spaces


@cache
def tables_for(components: Components) -> Tables:
    """Build (once per component set) the derived tables."""
    factions, values, copies = _card_types(components)
    labels = [f"{Faction(f).key}:{v}" for f, v in zip(factions, values, strict=True)]
    faction_cards = tuple(tuple(i for i, f in enumerate(factions) if f == faction) for faction in Faction)
    leader = tuple(next(i for i in cards if values[i] == 0) for cards in faction_cards)
    spaces = _spaces(components)
    region_spaces = tuple(
        tuple(s.id for s in spaces if s.kind is SpaceKind.REGION and s.region is region) for region in Region
    )
    faction_spaces = tuple(
        tuple(s.id for s in spaces if s.kind is SpaceKind.FACTION and s.faction is faction) for faction in Faction
    )
    return Tables(
        components=components,
        card_faction=tuple(factions),
        card_value=tuple(values),
        card_copies=tuple(copies),
        card_label=tuple(labels),
        card_by_label={label: i for i, label in enumerate(labels)},
        faction_cards=faction_cards,
        leader_card=leader,
        regions=tuple(spec.region for spec in components.regions),
        spaces=tuple(spaces),
        region_spaces=region_spaces,
        faction_spaces=faction_spaces,
        coin_bowl=spaces[-1].id,
    )
