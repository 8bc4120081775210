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

from tribune_env.data import EXPANSION_REGIONS, Components, Faction, Nationality, Region


class CardKind(IntEnum):
    """What a card type is (R30): a faction card, or an expansion card that belongs to no faction."""

    FACTION = 0
    SLAVE = 1
    ASSASSIN = 2


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
    expansion: bool  # the tables of an expansion game (slave and assassin cards, regions IX..XI)
    card_faction: tuple[int, ...]  # -1 for a card of no faction (R30)
    card_kind: tuple[CardKind, ...]
    card_nationality: tuple[int, ...]  # a slave's Nationality, else -1
    card_value: tuple[int, ...]
    card_copies: tuple[int, ...]
    card_label: tuple[str, ...]
    card_by_label: dict[str, int]
    faction_cards: tuple[tuple[int, ...], ...]  # card types of each faction, ascending value
    leader_card: tuple[int, ...]  # the leader's card type, per faction
    slave_cards: tuple[tuple[int, ...], ...]  # card types of each slave nationality, ascending value
    assassin_card: int  # the assassin card type, or -1 without the expansion
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
        kind = self.card_kind[card]
        value = self.card_value[card]
        if kind is CardKind.SLAVE:
            return f"{Nationality(self.card_nationality[card]).key.capitalize()} slave {value}"
        if kind is CardKind.ASSASSIN:
            return "Assassin"
        spec = self.components.factions[self.card_faction[card]]
        if value == 0:
            return f"{spec.name} 0 ({spec.leader})"
        return f"{spec.name} {value}"

    def is_slave(self, card: int) -> bool:
        return self.card_kind[card] is CardKind.SLAVE

    def card_id(self, label: str) -> int:
        """Card type of a label ``"faction:value"`` (e.g. ``"senators:7"``)."""
        try:
            return self.card_by_label[label]
        except KeyError:
            raise ValueError(f"unknown card {label!r}; expected 'faction:value' such as 'senators:7'") from None


def _card_types(components: Components, expansion: bool) -> list[tuple[int, CardKind, int, int, int, str]]:
    """(faction, kind, nationality, value, copies, label) of every card type: faction cards first, in board order
    and ascending value (the base game's types keep their numbers), then slaves by nationality, then the assassin."""
    out: list[tuple[int, CardKind, int, int, int, str]] = []
    for spec in components.factions:
        for value in sorted(set(spec.values)):
            label = f"{spec.faction.key}:{value}"
            out.append((int(spec.faction), CardKind.FACTION, -1, value, spec.values.count(value), label))
    extra = components.expansion
    if expansion and extra is not None:
        for slave in extra.slaves:
            for value in sorted(set(slave.values)):
                n = int(slave.nationality)
                out.append((-1, CardKind.SLAVE, n, value, slave.values.count(value), slave.label(value)))
        a = extra.assassins
        out.append((-1, CardKind.ASSASSIN, -1, a.value, a.copies, a.label))
    return out


def _spaces(components: Components, regions: tuple[Region, ...]) -> list[SpaceSpec]:
    """Base region spaces, faction fields and the coin bowl (the base numbering), then expansion region spaces."""
    spaces: list[SpaceSpec] = []

    def region_spaces(region: Region, count: int) -> None:
        for slot in range(count):
            label = f"{region.key}:{slot + 1}"
            spaces.append(SpaceSpec(len(spaces), SpaceKind.REGION, region, None, slot, label))

    for spec in components.regions:
        region_spaces(spec.region, spec.spaces)
    for faction in Faction:
        for slot in range(components.faction_field_spaces):
            label = f"faction:{faction.key}:{slot + 1}"
            spaces.append(SpaceSpec(len(spaces), SpaceKind.FACTION, None, faction, slot, label))
    spaces.append(SpaceSpec(len(spaces), SpaceKind.COIN_BOWL, None, None, 0, "coin_bowl"))
    extra = components.expansion
    if extra is not None:
        for region in regions:
            if region.expansion:
                region_spaces(region, extra.regions[region - Region.REFUGIUM].spaces)
    return spaces


@cache
def tables_for(components: Components, expansion: bool = False) -> Tables:
    """Build (once per component set and rule set) the derived tables."""
    types = _card_types(components, expansion)
    factions = [t[0] for t in types]
    values = [t[3] for t in types]
    labels = [t[5] for t in types]
    faction_cards = tuple(tuple(i for i, f in enumerate(factions) if f == faction) for faction in Faction)
    leader = tuple(next(i for i in cards if values[i] == 0) for cards in faction_cards)
    slave_cards = tuple(
        tuple(i for i, t in enumerate(types) if t[1] is CardKind.SLAVE and t[2] == n) for n in Nationality
    )
    assassin = next((i for i, t in enumerate(types) if t[1] is CardKind.ASSASSIN), -1)
    regions = tuple(spec.region for spec in components.regions)
    if expansion:
        regions += EXPANSION_REGIONS
    spaces = _spaces(components, regions)
    region_spaces = tuple(
        tuple(s.id for s in spaces if s.kind is SpaceKind.REGION and s.region is region) for region in Region
    )
    faction_spaces = tuple(
        tuple(s.id for s in spaces if s.kind is SpaceKind.FACTION and s.faction is faction) for faction in Faction
    )
    return Tables(
        components=components,
        expansion=expansion,
        card_faction=tuple(factions),
        card_kind=tuple(t[1] for t in types),
        card_nationality=tuple(t[2] for t in types),
        card_value=tuple(values),
        card_copies=tuple(t[4] for t in types),
        card_label=tuple(labels),
        card_by_label={label: i for i, label in enumerate(labels)},
        faction_cards=faction_cards,
        leader_card=leader,
        slave_cards=slave_cards,
        assassin_card=assassin,
        regions=regions,
        spaces=tuple(spaces),
        region_spaces=region_spaces,
        faction_spaces=faction_spaces,
        coin_bowl=next(s.id for s in spaces if s.kind is SpaceKind.COIN_BOWL),
    )
