"""The Tribune Expansion's component tables, typed and validated.

A component document may carry ``[expansion...]`` tables (components.md "Expansion"; expansion
checklist E1-E75; rulings R30-R42). :func:`parse_expansion` turns them into the frozen
:class:`ExpansionSpec`, or ``None`` for a base-only document, and raises :class:`ComponentError`
with the dotted path of the first bad field. Only printed numbers are stored; derived ones (the
118-card draw pile, the cards an Augur keeps) are computed from them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from tribune_env.data.factions import Faction
from tribune_env.data.fields import (
    MAX_NUMBER,
    MAX_SIZE,
    ComponentError,
    KeyedEnum,
    count_table,
    find_card,
    get_field,
    int_field,
    int_list_field,
    str_field,
)

# The seven objectives of an expansion victory card (E72): no denarii, two new ones.
EXPANSION_OBJECTIVES = ("tribune", "favor", "laurels", "legions", "markers", "emperor_tiles", "patrons")
# The objectives with a number on the card (the others are met by owning the item).
EXPANSION_THRESHOLDS = ("laurels", "legions", "markers", "emperor_tiles", "patrons")
# What a Refugium pair of one nationality can give (E48).
PAIR_REWARDS = ("laurels", "legions")
# Card label prefix of an assassin card: "assassin:<value>" (faction and slave cards: "<key>:<value>").
ASSASSIN = "assassin"


class Nationality(KeyedEnum):
    """The slave nationalities (E1), in the order of the component file."""

    NUBIAN = 0
    GERMANIAN = 1
    GREEK = 2


class Official(KeyedEnum):
    """The five officials, in Capitoleum order (E5, E12)."""

    PRINCEPS = 0
    MATRONA = 1
    AUGUR = 2
    QUAESTOR = 3
    TRIBUNUS_PLEBIS = 4


class ExpansionRegion(KeyedEnum):
    """The expansion board's regions, in evaluation order (phase 6: IX, X, XI; E46)."""

    REFUGIUM = 0
    BASILICA = 1
    CAPITOLEUM = 2


class BrutiiCard(KeyedEnum):
    """The Brutii's twelve action cards, one of each (components.md "Brutii", E78; effects R46-R54)."""

    PATRON = 0
    FACTION_TAKEOVER = 1
    ETERNAL_FAVOR = 2
    FAVOR_OF_THE_EMPEROR = 3
    OFFICIAL = 4
    CARDS = 5
    DENARII = 6
    LAURELS = 7
    BUY_A_LEGION = 8
    SLAVE_CARDS = 9
    MASS_MURDER = 10
    VETO = 11


class BrutiiDisc(KeyedEnum):
    """The symbols on the Brutii's action discs (E81, R44)."""

    CROSS = 0  # no action card this turn
    ARROW = 1  # choose one action card
    ARROW_FOLLOWER = 2  # choose one action card, and place the proconsul if he holds it


IMMEDIATE_CARDS = (BrutiiCard.BUY_A_LEGION, BrutiiCard.SLAVE_CARDS, BrutiiCard.MASS_MURDER, BrutiiCard.VETO)
"""The action cards resolved as soon as they are played (E89)."""


class Requirement(KeyedEnum):
    """The requirement kinds of a favor of the emperor tile (E51, R34)."""

    FAVOR = 0
    SCROLL = 1
    PATRON = 2
    MOST_MARKERS = 3
    MOST_LAURELS = 4
    MOST_LEGIONS = 5
    MOST_DENARII = 6
    PAY = 7


# The printed numbers of each official and their bounds (E29, E45, E61-E64; R37-R40).
OFFICIAL_NUMBERS: dict[Official, dict[str, tuple[int, int]]] = {
    Official.PRINCEPS: {"placements": (1, MAX_SIZE)},
    Official.MATRONA: {"tiles": (0, MAX_SIZE)},
    Official.AUGUR: {"draws": (1, MAX_SIZE), "discards": (0, MAX_SIZE)},
    Official.QUAESTOR: {"stock": (0, MAX_NUMBER)},
    Official.TRIBUNUS_PLEBIS: {"factions": (1, len(Faction))},
}

# The printed numbers of each expansion region besides its spaces (E47, E58).
EXPANSION_REGION_NUMBERS: dict[ExpansionRegion, tuple[str, ...]] = {
    ExpansionRegion.REFUGIUM: ("patron_slaves", "patron_slaves_with_nubian"),
    ExpansionRegion.CAPITOLEUM: ("officials_per_player",),
}


@dataclass(frozen=True)
class SlaveSpec:
    """The slave cards of one nationality: one card per entry of ``values`` (ascending)."""

    nationality: Nationality
    values: tuple[int, ...]

    def label(self, value: int) -> str:
        return f"{self.nationality.key}:{value}"


@dataclass(frozen=True)
class AssassinSpec:
    """``copies`` assassin cards of value ``value``; an assassin never removes one of the
    ``protected`` lowest cards of its target set (E3, E40, R31)."""

    copies: int
    value: int
    protected: int

    @property
    def label(self) -> str:
        return f"{ASSASSIN}:{self.value}"


@dataclass(frozen=True)
class OfficialSpec:
    """One official: ``numbers`` per :data:`OFFICIAL_NUMBERS`; ``payment`` (Quaestor only) maps
    the number of opponents to what each of them pays (R40)."""

    official: Official
    name: str
    numbers: dict[str, int]
    payment: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class EmperorTile:
    """A favor of the emperor tile: its printed id and its two requirements (E5, E6)."""

    id: int
    requires: tuple[Requirement, Requirement]


@dataclass(frozen=True)
class PairReward:
    """What one Refugium pair of a nationality gives (E48)."""

    laurels: int
    legions: int


@dataclass(frozen=True)
class ExpansionRegionSpec:
    """One expansion region: follower spaces only, no card fields (E7).

    ``numbers`` the other printed amounts of the region (:data:`EXPANSION_REGION_NUMBERS`);
    ``pairs`` (Refugium only) the reward per pair by nationality: a nationality missing here
    cannot be paired (Nubians, E48).
    """

    region: ExpansionRegion
    spaces: int
    numbers: dict[str, int]
    pairs: dict[Nationality, PairReward] = field(default_factory=dict)


@dataclass(frozen=True)
class ExpansionScoring:
    """The expansion's point values (E74, R41)."""

    tribune: int
    scroll: int
    eternal_favor: int
    temporary_favor: int
    legion: int
    laurel: int
    patron: int
    emperor_tile: int
    marker: int
    denarii_per_point: int
    first_bonus: int


@dataclass(frozen=True)
class ExpansionVictoryCard:
    """An expansion victory card (E72, E73).

    ``thresholds`` keyed by :data:`EXPANSION_THRESHOLDS`; ``required`` by player count;
    ``required_brutii`` by seats in a game with the Brutii (E106).
    """

    id: str
    title: str
    length: str
    thresholds: dict[str, int]
    obligatory: tuple[str, ...]
    required: dict[int, int]
    required_brutii: dict[int, int]


@dataclass(frozen=True)
class BrutiiSpec:
    """The Brutii variant's numbers (R42-R54; components.md "Brutii"; ``[expansion.brutii]``).

    Attributes:
        followers: seats (the Brutii included) -> followers of each family; the Brutii takes as many phase-2
            turns (R44).
        discs: copies of each disc symbol (E81).
        legion_price: the price of a legion bought with "Buy a Legion" when he displays no Legates set (R51).
        slave_lay: cards he lays on a field for each slave he takes with "Slave Cards" (R52).
        mass_murder_set: the smallest displayed set that loses its highest card to "Mass Murder" (R53).
    """

    followers: dict[int, int]
    discs: dict[BrutiiDisc, int]
    legion_price: int
    slave_lay: int
    mass_murder_set: int

    @property
    def disc_count(self) -> int:
        return sum(self.discs.values())

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.followers))


@dataclass(frozen=True)
class ExpansionSpec:
    """Every printed number of the Tribune Expansion and its Brutii variant."""

    slaves: tuple[SlaveSpec, ...]  # in Nationality order
    assassins: AssassinSpec
    patron_supply: int
    patrons_per_player: int  # R33 (a game configuration may change it)
    officials: tuple[OfficialSpec, ...]  # in Official order
    emperor_tiles: tuple[EmperorTile, ...]  # in file order
    emperor_pay: int  # the denarii of a "pay" requirement
    regions: tuple[ExpansionRegionSpec, ...]  # in ExpansionRegion order
    followers: dict[int, int]  # player count -> followers per player
    point_variant: dict[int, int]  # player count (6: seats with the Brutii) -> markers
    scoring: ExpansionScoring
    victory_cards: tuple[ExpansionVictoryCard, ...]
    brutii: BrutiiSpec | None = None  # None: the component set cannot play the Brutii variant

    def slave(self, nationality: Nationality) -> SlaveSpec:
        return self.slaves[nationality]

    def official(self, official: Official) -> OfficialSpec:
        return self.officials[official]

    def region(self, region: ExpansionRegion) -> ExpansionRegionSpec:
        return self.regions[region]

    def victory_card(self, card_id: str) -> ExpansionVictoryCard:
        return find_card(self.victory_cards, card_id, "expansion victory card")

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.followers))

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """Every number of seats an expansion game may have: the family counts and the seats with the Brutii (R42),
        as the printed tables give them (followers, point-value variant, victory cards' "with Brutii" row)."""
        seats = set(self.followers) | set(self.point_variant)
        for card in self.victory_cards:
            seats |= set(card.required_brutii)
        if self.brutii is not None:
            seats |= set(self.brutii.followers)
        return tuple(sorted(seats))

    @property
    def card_copies(self) -> dict[str, int]:
        """Label -> copies of every card the expansion adds to the draw pile (E1)."""
        copies: dict[str, int] = {}
        for spec in self.slaves:
            for value in spec.values:
                label = spec.label(value)
                copies[label] = copies.get(label, 0) + 1
        copies[self.assassins.label] = self.assassins.copies
        return copies

    @property
    def card_count(self) -> int:
        """Cards the expansion adds to the draw pile (15 slaves + 3 assassins by default)."""
        return sum(len(spec.values) for spec in self.slaves) + self.assassins.copies

    def quaestor_payment(self, opponents: int) -> int:
        """What each opponent pays the Quaestor with ``opponents`` opponents (R40)."""
        return self.official(Official.QUAESTOR).payment[opponents]


# --- parsing ---------------------------------------------------------------------------------------


def _known_keys(table: Any, where: str, known: Collection[str], what: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise ComponentError(f"{where}: expected a table")
    for key in table:
        if key not in known:
            raise ComponentError(f"{where}.{key}: unknown {what}; known: {', '.join(known)}")
    return table


def _parse_slaves(expansion: dict[str, Any]) -> tuple[SlaveSpec, ...]:
    where = "expansion.slaves"
    table = _known_keys(get_field(expansion, "slaves", "expansion"), where, [n.key for n in Nationality], "nationality")
    slaves = []
    for nationality in Nationality:
        values = int_list_field(table, nationality.key, where)
        if not values:
            raise ComponentError(f"{where}.{nationality.key}: expected at least one card")
        slaves.append(SlaveSpec(nationality, tuple(sorted(values))))
    return tuple(slaves)


def _parse_assassins(expansion: dict[str, Any]) -> AssassinSpec:
    table = get_field(expansion, "assassins", "expansion")
    where = "expansion.assassins"
    return AssassinSpec(
        copies=int_field(table, "copies", where, 1),
        value=int_field(table, "value", where),
        protected=int_field(table, "protected", where, 0, MAX_SIZE),
    )


def _parse_official(raw: Any, official: Official) -> OfficialSpec:
    where = f"expansion.officials[{int(official)}]"
    key = str_field(raw, "key", where)
    if key != official.key:
        raise ComponentError(f"{where}.key: expected {official.key!r} (Capitoleum order), got {key!r}")
    numbers_raw = get_field(raw, "numbers", where)
    numbers = {
        name: int_field(numbers_raw, name, f"{where}.numbers", low, high)
        for name, (low, high) in OFFICIAL_NUMBERS[official].items()
    }
    payment: dict[int, int] = {}
    if official is Official.QUAESTOR:
        payment = _opponent_table(raw, "payment", where)
    return OfficialSpec(official, str_field(raw, "name", where), numbers, payment)


def _opponent_table(table: dict[str, Any], key: str, where: str) -> dict[int, int]:
    raw = get_field(table, key, where)
    if not isinstance(raw, dict) or not raw:
        raise ComponentError(f"{where}.{key}: expected a table of opponent count = denarii")
    out: dict[int, int] = {}
    for count in raw:
        try:
            opponents = int(count)
        except ValueError:
            raise ComponentError(f"{where}.{key}.{count}: key must be a number of opponents") from None
        if opponents < 1:
            raise ComponentError(f"{where}.{key}.{count}: a player has at least 1 opponent")
        out[opponents] = int_field(raw, count, f"{where}.{key}")
    return out


def _parse_officials(expansion: dict[str, Any]) -> tuple[OfficialSpec, ...]:
    raw = get_field(expansion, "officials", "expansion")
    if not isinstance(raw, list) or len(raw) != len(Official):
        order = ", ".join(o.key for o in Official)
        raise ComponentError(f"expansion.officials: expected {len(Official)} officials in the order {order}")
    return tuple(_parse_official(entry, official) for entry, official in zip(raw, Official, strict=True))


_REQUIREMENTS = {r.key: r for r in Requirement}


def _parse_requirements(tile: Any, where: str) -> tuple[Requirement, Requirement]:
    raw = get_field(tile, "requires", where)
    if not isinstance(raw, list) or len(raw) != 2:
        found = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise ComponentError(f"{where}.requires: a tile needs exactly 2 requirements, got {found}")
    kinds = []
    for j, name in enumerate(raw):
        if not isinstance(name, str) or name not in _REQUIREMENTS:
            known = ", ".join(_REQUIREMENTS)
            raise ComponentError(f"{where}.requires[{j}]: unknown requirement {name!r}; known: {known}")
        kinds.append(_REQUIREMENTS[name])
    if kinds[0] is kinds[1]:
        raise ComponentError(f"{where}.requires: the two requirements must differ, got {kinds[0].key!r} twice")
    return kinds[0], kinds[1]


def _parse_emperor_tiles(emperor: Any) -> tuple[EmperorTile, ...]:
    where = "expansion.emperor"
    raw = get_field(emperor, "tiles", where)
    if not isinstance(raw, list) or not raw:
        raise ComponentError(f"{where}.tiles: expected a non-empty list of {{ id, requires }} tables")
    tiles: list[EmperorTile] = []
    for i, tile in enumerate(raw):
        tile_where = f"{where}.tiles[{i}]"
        tile_id = int_field(tile, "id", tile_where, 1)
        if any(t.id == tile_id for t in tiles):
            raise ComponentError(f"{tile_where}.id: duplicate tile id {tile_id}")
        tiles.append(EmperorTile(tile_id, _parse_requirements(tile, tile_where)))
    return tuple(tiles)


def _parse_pair_reward(raw: Any, where: str) -> PairReward:
    table = _known_keys(raw, where, PAIR_REWARDS, "reward")
    if not table:
        raise ComponentError(f"{where}: expected at least one of {', '.join(PAIR_REWARDS)}")
    return PairReward(**{name: int_field(table, name, where, 1) if name in table else 0 for name in PAIR_REWARDS})


def _parse_pairs(refugium: dict[str, Any], where: str) -> dict[Nationality, PairReward]:
    raw = get_field(refugium, "pairs", where)
    where = f"{where}.pairs"
    table = _known_keys(raw, where, [n.key for n in Nationality], "nationality")
    return {n: _parse_pair_reward(table[n.key], f"{where}.{n.key}") for n in Nationality if n.key in table}


def _parse_region(regions: Any, region: ExpansionRegion) -> ExpansionRegionSpec:
    where = f"expansion.regions.{region.key}"
    table = get_field(regions, region.key, "expansion.regions")
    spaces = int_field(table, "spaces", where, 1, MAX_SIZE)
    if region is ExpansionRegion.BASILICA and spaces != 2:
        raise ComponentError(f"{where}.spaces: the Basilica has spaces 1 and 2 (E27), got {spaces}")
    numbers = {name: int_field(table, name, where, 1, MAX_SIZE) for name in EXPANSION_REGION_NUMBERS.get(region, ())}
    pairs = _parse_pairs(table, where) if region is ExpansionRegion.REFUGIUM else {}
    return ExpansionRegionSpec(region, spaces, numbers, pairs)


def _check_required(table: dict[int, int], where: str, obligatory: int) -> None:
    for players, needed in table.items():
        if players < 2:
            raise ComponentError(f"{where}.{players}: at least 2 players are needed")
        if needed > len(EXPANSION_OBJECTIVES) or needed < obligatory:
            raise ComponentError(
                f"{where}.{players}: {needed} objectives is impossible (the card has {len(EXPANSION_OBJECTIVES)})"
            )


def _parse_victory_card(raw: Any, i: int, limits: dict[str, int]) -> ExpansionVictoryCard:
    where = f"expansion.victory_cards[{i}]"
    obligatory = get_field(raw, "obligatory", where)
    if (
        not isinstance(obligatory, list)
        or any(o not in EXPANSION_OBJECTIVES for o in obligatory)
        or len(set(obligatory)) != len(obligatory)
    ):
        raise ComponentError(f"{where}.obligatory: expected a list of distinct objectives from {EXPANSION_OBJECTIVES}")
    thresholds = {name: int_field(raw, name, where, 1) for name in EXPANSION_THRESHOLDS}
    for name, most in limits.items():
        if thresholds[name] > most:
            raise ComponentError(f"{where}.{name}: {thresholds[name]} can never be reached (at most {most})")
    required = count_table(raw, "required", where)
    _check_required(required, f"{where}.required", len(obligatory))
    required_brutii = count_table(raw, "required_brutii", where)
    _check_required(required_brutii, f"{where}.required_brutii", len(obligatory))
    return ExpansionVictoryCard(
        id=str_field(raw, "id", where),
        title=str_field(raw, "title", where),
        length=str_field(raw, "length", where),
        thresholds=thresholds,
        obligatory=tuple(obligatory),
        required=required,
        required_brutii=required_brutii,
    )


def _parse_victory_cards(
    expansion: dict[str, Any], limits: dict[str, int], base_card_ids: Collection[str]
) -> tuple[ExpansionVictoryCard, ...]:
    raw = get_field(expansion, "victory_cards", "expansion")
    if not isinstance(raw, list) or not raw:
        raise ComponentError("expansion.victory_cards: expected a non-empty list")
    cards = tuple(_parse_victory_card(entry, i, limits) for i, entry in enumerate(raw))
    ids = [card.id for card in cards]
    if len(set(ids)) != len(ids):
        raise ComponentError("expansion.victory_cards: ids must be unique")
    for i, card_id in enumerate(ids):
        if card_id in base_card_ids:
            raise ComponentError(f"expansion.victory_cards[{i}].id: {card_id!r} is a base victory card id")
    return cards


def _parse_scoring(expansion: dict[str, Any]) -> ExpansionScoring:
    table = get_field(expansion, "scoring", "expansion")
    return ExpansionScoring(
        **{
            name: int_field(table, name, "expansion.scoring", 1 if name == "denarii_per_point" else 0)
            for name in ExpansionScoring.__dataclass_fields__
        }
    )


def parse_expansion(
    doc: dict[str, Any], player_counts: Iterable[int], base_card_ids: Collection[str] = ()
) -> ExpansionSpec | None:
    """Build :class:`ExpansionSpec` from a parsed component document; ``None`` without ``[expansion]``.

    ``player_counts`` are the base game's: the expansion's follower table may only list some of them.
    ``base_card_ids`` are the base victory card ids, which the expansion's must not reuse.
    """
    if "expansion" not in doc:
        return None
    expansion = doc["expansion"]
    if not isinstance(expansion, dict):
        raise ComponentError("expansion: expected a table")
    patrons = get_field(expansion, "patrons", "expansion")
    emperor = get_field(expansion, "emperor", "expansion")
    regions = tuple(_parse_region(get_field(expansion, "regions", "expansion"), region) for region in ExpansionRegion)
    tiles = _parse_emperor_tiles(emperor)
    patron_supply = int_field(patrons, "supply", "expansion.patrons", 1)
    patrons_per_player = int_field(patrons, "per_player", "expansion.patrons", 1)
    limits = {
        "markers": len(Faction),
        "emperor_tiles": len(tiles),
        "patrons": min(patron_supply, patrons_per_player),
    }
    spec = ExpansionSpec(
        slaves=_parse_slaves(expansion),
        assassins=_parse_assassins(expansion),
        patron_supply=patron_supply,
        patrons_per_player=patrons_per_player,
        officials=_parse_officials(expansion),
        emperor_tiles=tiles,
        emperor_pay=int_field(emperor, "pay", "expansion.emperor", 1),
        regions=regions,
        followers=count_table(expansion, "followers", "expansion", maximum=MAX_SIZE),
        point_variant=count_table(expansion, "point_variant", "expansion"),
        scoring=_parse_scoring(expansion),
        victory_cards=_parse_victory_cards(expansion, limits, base_card_ids),
        brutii=_parse_brutii(expansion) if "brutii" in expansion else None,
    )
    _check_player_counts(spec, tuple(player_counts))
    _check_numbers(spec)
    _check_brutii(spec)
    return spec


def _parse_brutii(expansion: dict[str, Any]) -> BrutiiSpec:
    where = "expansion.brutii"
    table = _known_keys(
        get_field(expansion, "brutii", "expansion"),
        where,
        ("followers", "discs", "legion_price", "slave_lay", "mass_murder_set"),
        "Brutii number",
    )
    discs_raw = _known_keys(get_field(table, "discs", where), f"{where}.discs", [d.key for d in BrutiiDisc], "disc")
    discs = {d: int_field(discs_raw, d.key, f"{where}.discs", 0) for d in BrutiiDisc}
    return BrutiiSpec(
        followers=count_table(table, "followers", where, maximum=MAX_SIZE),
        discs=discs,
        legion_price=int_field(table, "legion_price", where, 0),
        slave_lay=int_field(table, "slave_lay", where, 1),
        mass_murder_set=int_field(table, "mass_murder_set", where, 1),
    )


def _check_brutii(spec: ExpansionSpec) -> None:
    """The Brutii's seat counts have every table a game needs, and he has a disc for every turn (R42, R44)."""
    brutii = spec.brutii
    if brutii is None:
        return
    for seats, followers in brutii.followers.items():
        where = f"expansion.brutii.followers.{seats}"
        if seats < 3:
            raise ComponentError(f"{where}: the Brutii needs at least two families besides him")
        if followers > brutii.disc_count:
            raise ComponentError(f"{where}: {followers} turns is more than the {brutii.disc_count} discs")
        _check_seat_tables(spec, seats, "expansion.brutii.followers lists it", "seats")
        if not any(seats in card.required_brutii for card in spec.victory_cards):
            raise ComponentError(f'expansion.victory_cards: no card has a "with Brutii" row for {seats} seats')


def _check_player_counts(spec: ExpansionSpec, player_counts: tuple[int, ...]) -> None:
    """Every expansion player count is a base one and has its point variant, Quaestor row and card."""
    base = ", ".join(str(n) for n in sorted(player_counts))
    for players in spec.followers:
        if players < 2 or players not in player_counts:
            raise ComponentError(f"expansion.followers.{players}: not a player count of the base game ({base})")
        _check_seat_tables(spec, players, f"expansion.followers lists {players}", "players")
        if not any(players in card.required for card in spec.victory_cards):
            raise ComponentError(f"expansion.victory_cards: no card can be used by {players} players")


def _check_seat_tables(spec: ExpansionSpec, seats: int, listed: str, noun: str) -> None:
    """A seat count has its point-value variant row and its Quaestor row (``listed``: where the count comes from)."""
    if seats not in spec.point_variant:
        raise ComponentError(f"expansion.point_variant.{seats}: missing ({listed})")
    if seats - 1 not in spec.official(Official.QUAESTOR).payment:
        raise ComponentError(
            f"expansion.officials[{int(Official.QUAESTOR)}].payment.{seats - 1}: missing (needed by {seats} {noun})"
        )


def _check_numbers(spec: ExpansionSpec) -> None:
    """Cross-table checks: the numbers must make an expansion game the engine can play."""
    if spec.patrons_per_player > spec.patron_supply:
        raise ComponentError("expansion.patrons.per_player: more than expansion.patrons.supply")
    matrona = spec.official(Official.MATRONA).numbers["tiles"]
    if matrona >= len(spec.emperor_tiles):
        raise ComponentError(
            f"expansion.officials[{int(Official.MATRONA)}].numbers.tiles: {matrona} tiles besides the face-up one "
            f"is more than the {len(spec.emperor_tiles) - 1} left in expansion.emperor.tiles"
        )
    augur = spec.official(Official.AUGUR).numbers
    if augur["discards"] > augur["draws"]:
        raise ComponentError(f"expansion.officials[{int(Official.AUGUR)}].numbers.discards: more than draws")
    refugium = spec.region(ExpansionRegion.REFUGIUM).numbers
    slaves = sum(len(s.values) for s in spec.slaves)
    if refugium["patron_slaves"] > slaves:
        raise ComponentError(
            f"expansion.regions.refugium.patron_slaves: {refugium['patron_slaves']} is more than the {slaves} slaves"
        )
    if refugium["patron_slaves_with_nubian"] > refugium["patron_slaves"]:
        raise ComponentError("expansion.regions.refugium.patron_slaves_with_nubian: more than patron_slaves")
    capitoleum = spec.region(ExpansionRegion.CAPITOLEUM)
    for name, value in (("spaces", capitoleum.spaces), *capitoleum.numbers.items()):
        if value > len(Official):
            raise ComponentError(
                f"expansion.regions.capitoleum.{name}: {value} is more than the {len(Official)} officials"
            )
