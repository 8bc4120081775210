"""Typed component tables and their loader.

The rules code never reads raw dictionaries: :func:`load_components` parses one
TOML file into the frozen :class:`Components` object and validates it, raising
:class:`ComponentError` with the dotted path of the first bad field.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field, fields
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from tribune_env.data.expansion import ExpansionSpec, parse_expansion
from tribune_env.data.factions import Faction as Faction
from tribune_env.data.fields import MAX_NUMBER as MAX_NUMBER
from tribune_env.data.fields import MAX_SIZE as MAX_SIZE
from tribune_env.data.fields import ComponentError as ComponentError
from tribune_env.data.fields import KeyedEnum as KeyedEnum
from tribune_env.data.fields import count_table as count_table
from tribune_env.data.fields import find_card as find_card
from tribune_env.data.fields import get_field as get_field
from tribune_env.data.fields import int_field as int_field
from tribune_env.data.fields import int_list_field as int_list_field
from tribune_env.data.fields import python_class as python_class
from tribune_env.data.fields import str_field as str_field

MAX_DEPTH = 8  # tables and lists inside each other; the deepest of the format is 5
OPTIONAL_KEYS = {"meta": ("notes",)}  # documentary keys the loader accepts but never reads

OBJECTIVES = ("tribune", "favor", "laurels", "legions", "denarii", "markers")


class Region(KeyedEnum):
    """The board regions, in evaluation order (phase 3)."""

    THERMAE = 0
    FORUM = 1
    LATRINE = 2
    CURIA = 3
    ATRIUM = 4
    CATACOMBS = 5
    PANTHEON = 6
    FIELD_OF_MARS = 7
    REFUGIUM = 8  # IX..XI: the expansion board, evaluated in phase 6 of an expansion game
    BASILICA = 9
    CAPITOLEUM = 10

    @property
    def expansion(self) -> bool:
        """Whether the region is on the expansion board."""
        return self >= Region.REFUGIUM


BASE_REGIONS: tuple[Region, ...] = tuple(r for r in Region if not r.expansion)
"""The regions of the base board, I..VIII, in evaluation order (phase 3)."""
EXPANSION_REGIONS: tuple[Region, ...] = tuple(r for r in Region if r.expansion)
"""The regions of the expansion board, IX..XI, in evaluation order (phase 6 of an expansion game)."""


FACTION_NUMBERS: dict[Faction, tuple[str, ...]] = {
    Faction.GLADIATORS: ("takeover_legions", "leader_legions", "benefit_cards"),
    Faction.LEGATES: ("takeover_laurels", "leader_laurels", "benefit_cards", "benefit_legions"),
    Faction.PRAETORIANS: ("takeover_cards", "leader_discards", "leader_legions", "benefit_legions"),
    Faction.PLEBEIANS: ("takeover_cards", "leader_cards", "benefit_cards", "benefit_denarii"),
    Faction.PATRICIANS: ("takeover_laurels", "leader_denarii"),
    Faction.VESTALS: ("takeover_denarii", "benefit_laurels"),
    Faction.SENATORS: ("takeover_laurels", "benefit_cards"),
}


@dataclass(frozen=True)
class FactionSpec:
    faction: Faction
    name: str
    leader: str
    values: tuple[int, ...]
    numbers: dict[str, int]


@dataclass(frozen=True)
class RegionSpec:
    """One region: its card fields and follower spaces.

    ``fields`` card fields; ``spaces`` follower spaces; ``prices`` a price per
    space where the region has printed prices (Catacombs); ``numbers`` the other
    printed amounts of the region (cost, fill_sum, ...).
    """

    region: Region
    fields: int
    spaces: int
    numbers: dict[str, int]
    prices: tuple[int, ...] = ()


@dataclass(frozen=True)
class VictoryCard:
    id: str
    card: str
    title: str
    length: str
    thresholds: dict[str, int]  # laurels, legions, denarii, markers
    obligatory: tuple[str, ...]
    required: dict[int, int]  # player count -> objectives required


@dataclass(frozen=True)
class ScoringSpec:
    tribune: int
    scroll: int
    eternal_favor: int
    temporary_favor: int
    legion: int
    laurel: int
    denarii_per_point: int
    marker: int
    first_bonus: int


@dataclass(frozen=True, eq=False)
class Components:
    """Every printed number of the game, typed and validated.

    Two component sets are equal (and hash equal) when their numbers are: :attr:`digest`, a hash of every
    field but :attr:`source` (where the set was read from) computed once on creation, is all that ``==`` and
    ``hash`` look at, so a set stays a cheap cache key (:func:`~tribune_env.engine.tables.tables_for`).
    """

    name: str
    reconstructed: bool
    factions: tuple[FactionSpec, ...]
    regions: tuple[RegionSpec, ...]
    faction_field_spaces: int
    starting_laurels: int
    min_set_size: int
    coin_bowl_first: int
    coin_bowl_later: int
    deal: int
    setup_discard: int
    starting_money: int
    starting_money_step: int
    followers: dict[int, int]
    hand_limit: int
    set_losses: tuple[tuple[int, int], ...]  # (min size, cards lost), ascending size
    scoring: ScoringSpec
    point_variant: dict[int, int]
    victory_cards: tuple[VictoryCard, ...]
    source: str
    digest: str = field(init=False, repr=False)  # sha256 of the content (every field but source), set on creation
    expansion: ExpansionSpec | None = None  # the Tribune Expansion's tables, None for a base-only set

    def __post_init__(self) -> None:
        content = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("source", "digest")}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=asdict)
        object.__setattr__(self, "digest", hashlib.sha256(text.encode("utf-8")).hexdigest())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Components):
            return NotImplemented
        return self is other or self.digest == other.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def region(self, region: Region) -> RegionSpec:
        return self.regions[region]

    def victory_card(self, card_id: str) -> VictoryCard:
        return find_card(self.victory_cards, card_id)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.followers))

    @property
    def has_expansion(self) -> bool:
        return self.expansion is not None

    def cards_lost_in_cesura(self, set_size: int) -> int:
        lost = 0
        for size, lose in self.set_losses:
            if set_size >= size:
                lost = lose
        return lost


# --- parsing helpers -------------------------------------------------------


class _Table(dict[str, Any]):
    """A table of a component document that records which of its keys the loader read."""

    def __init__(self, items: dict[str, Any]) -> None:
        super().__init__(items)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)


def _tracked(node: Any, where: str = "", depth: int = 0) -> Any:
    """A copy of a parsed document whose tables record what was read (see :func:`_check_all_read`)."""
    if depth > MAX_DEPTH and isinstance(node, dict | list):
        raise ComponentError(f"{where or 'document'}: nested more than {MAX_DEPTH} levels deep")
    if isinstance(node, dict):
        return _Table({k: _tracked(v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in node.items()})
    if isinstance(node, list):
        return [_tracked(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(node)]
    return node


def _check_all_read(node: Any, where: str = "") -> None:
    """Refuse a key the loader never read: a misspelled or unknown key would otherwise be ignored silently."""
    if isinstance(node, _Table):
        optional = OPTIONAL_KEYS.get(where, ())
        for key, value in node.items():
            path = f"{where}.{key}" if where else str(key)
            if key not in node.read and key not in optional:
                known = ", ".join(sorted(k for k in (*node.read, *optional) if k in node)) or "none"
                raise ComponentError(f"{path}: unknown key (known here: {known})")
            _check_all_read(value, path)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _check_all_read(value, f"{where}[{i}]")


def _parse_faction(raw: Any, faction: Faction) -> FactionSpec:
    where = f"factions[{int(faction)}]"
    key = str_field(raw, "key", where)
    if key != faction.key:
        raise ComponentError(f"{where}.key: expected {faction.key!r} (board order), got {key!r}")
    values = int_list_field(raw, "values", where)
    leaders = values.count(0)
    if leaders != 1:
        raise ComponentError(f"{where}.values: a faction needs exactly one leader (value 0), found {leaders}")
    numbers_raw = get_field(raw, "numbers", where)
    numbers = {name: int_field(numbers_raw, name, f"{where}.numbers") for name in FACTION_NUMBERS[faction]}
    return FactionSpec(
        faction, str_field(raw, "name", where), str_field(raw, "leader", where), tuple(sorted(values)), numbers
    )


_REGION_NUMBERS: dict[Region, tuple[str, ...]] = {
    Region.THERMAE: ("cost",),
    Region.FORUM: ("cost",),
    Region.CURIA: ("fill_sum",),
    Region.ATRIUM: ("first_flip", "single_bidder_price"),
    Region.FIELD_OF_MARS: ("pair_size", "laurels_per_pair", "bonus_laurels"),
}


def _parse_region(raw: dict[str, Any], region: Region) -> RegionSpec:
    where = f"regions.{region.key}"
    table = get_field(raw, region.key, "regions")
    numbers = {name: int_field(table, name, where) for name in _REGION_NUMBERS.get(region, ())}
    if region is Region.CATACOMBS:
        prices = int_list_field(table, "prices", where)
        if not 1 <= len(prices) <= MAX_SIZE:
            raise ComponentError(f"{where}.prices: expected 1..{MAX_SIZE} prices (one per space), got {len(prices)}")
        return RegionSpec(region, 1, len(prices), {"pile": int_field(table, "pile", where, 1, MAX_SIZE)}, prices)
    if region is Region.PANTHEON:
        return RegionSpec(region, 1, int_field(table, "spaces", where, 1, MAX_SIZE), numbers)
    if region is Region.FIELD_OF_MARS:
        return RegionSpec(region, 0, int_field(table, "spaces", where, 1, MAX_SIZE), numbers)
    fields = int_field(table, "fields", where, 1, MAX_SIZE)
    spaces = int_field(table, "spaces", where, 1, MAX_SIZE) if region is Region.ATRIUM else fields
    if region is Region.ATRIUM and not (spaces == 2 and 1 <= numbers["first_flip"] < fields):
        raise ComponentError(f"{where}: needs 2 spaces and 1 <= first_flip < fields")
    return RegionSpec(region, fields, spaces, numbers)


def _parse_victory_card(raw: Any, i: int) -> VictoryCard:
    where = f"victory_cards[{i}]"
    obligatory = get_field(raw, "obligatory", where)
    if not isinstance(obligatory, list) or any(o not in OBJECTIVES for o in obligatory):
        raise ComponentError(f"{where}.obligatory: expected a list drawn from {OBJECTIVES}")
    required = count_table(raw, "required", where)
    for players, needed in required.items():
        if needed > len(OBJECTIVES) or needed < len(obligatory):
            raise ComponentError(f"{where}.required.{players}: {needed} objectives is impossible")
    thresholds = {name: int_field(raw, name, where, 1) for name in ("laurels", "legions", "denarii", "markers")}
    if thresholds["markers"] > len(Faction):
        raise ComponentError(f"{where}.markers: more than {len(Faction)} faction markers can never be reached")
    return VictoryCard(
        id=str_field(raw, "id", where),
        card=str_field(raw, "card", where),
        title=str_field(raw, "title", where),
        length=str_field(raw, "length", where),
        thresholds=thresholds,
        obligatory=tuple(obligatory),
        required=required,
    )


def parse_components(doc: dict[str, Any], source: str = "<dict>") -> Components:
    """Build :class:`Components` from a parsed TOML document, validating every field."""
    doc = _tracked(doc)
    components = _parse_document(doc, source)
    _check_all_read(doc)
    return components


def _parse_document(doc: dict[str, Any], source: str) -> Components:
    meta = get_field(doc, "meta", "")
    factions_raw = get_field(doc, "factions", "")
    if not isinstance(factions_raw, list) or len(factions_raw) != len(Faction):
        raise ComponentError(f"factions: expected {len(Faction)} factions in board order")
    factions = tuple(_parse_faction(raw, faction) for raw, faction in zip(factions_raw, Faction, strict=True))
    regions = tuple(_parse_region(get_field(doc, "regions", ""), region) for region in BASE_REGIONS)
    ff = get_field(doc, "faction_field", "")
    coin = get_field(doc, "coin_bowl", "")
    setup = get_field(doc, "setup", "")
    cesura = get_field(doc, "cesura", "")
    scoring_raw = get_field(doc, "scoring", "")
    scoring = ScoringSpec(
        **{
            name: int_field(scoring_raw, name, "scoring", 1 if name == "denarii_per_point" else 0)
            for name in ScoringSpec.__dataclass_fields__
        }
    )
    losses_raw = get_field(cesura, "set_losses", "cesura")
    if not isinstance(losses_raw, list):
        raise ComponentError("cesura.set_losses: expected a list of {size, lose} tables")
    losses = tuple(
        sorted(
            (int_field(row, "size", f"cesura.set_losses[{i}]", 1), int_field(row, "lose", f"cesura.set_losses[{i}]"))
            for i, row in enumerate(losses_raw)
        )
    )
    followers = count_table(doc, "followers", "", maximum=MAX_SIZE)
    point_variant = count_table(doc, "point_variant", "")
    for players in followers:
        if players < 2:
            raise ComponentError(f"followers.{players}: at least 2 players are needed")
        if players not in point_variant:
            raise ComponentError(f"point_variant.{players}: missing (followers lists {players} players)")
    cards_raw = get_field(doc, "victory_cards", "")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise ComponentError("victory_cards: expected a non-empty list")
    victory_cards = tuple(_parse_victory_card(raw, i) for i, raw in enumerate(cards_raw))
    ids = [card.id for card in victory_cards]
    if len(set(ids)) != len(ids):
        raise ComponentError("victory_cards: ids must be unique")
    for players in followers:
        if not any(players in card.required for card in victory_cards):
            raise ComponentError(f"victory_cards: no card can be used by {players} players")
    deal = int_field(setup, "deal", "setup", 1, MAX_SIZE)
    discard = int_field(setup, "discard", "setup")
    if discard >= deal:
        raise ComponentError("setup.discard: must be smaller than setup.deal")
    components = Components(
        name=str_field(meta, "name", "meta"),
        reconstructed=bool(get_field(meta, "reconstructed", "meta")),
        factions=factions,
        regions=regions,
        faction_field_spaces=int_field(ff, "spaces", "faction_field", 2),
        starting_laurels=int_field(ff, "starting_laurels", "faction_field"),
        min_set_size=int_field(get_field(doc, "takeover", ""), "min_set_size", "takeover", 1),
        coin_bowl_first=int_field(coin, "first", "coin_bowl"),
        coin_bowl_later=int_field(coin, "later", "coin_bowl"),
        deal=deal,
        setup_discard=discard,
        starting_money=int_field(setup, "starting_money", "setup"),
        starting_money_step=int_field(setup, "starting_money_step", "setup"),
        followers=followers,
        hand_limit=int_field(cesura, "hand_limit", "cesura", 1),  # the observation scales hand sizes by it
        set_losses=losses,
        scoring=scoring,
        point_variant=point_variant,
        victory_cards=victory_cards,
        source=source,
        expansion=parse_expansion(doc, tuple(followers), ids),
    )
    _check_playable(components)
    return components


def _check_playable(components: Components) -> None:
    """Cross-table checks: the numbers must make a game the engine can play."""
    if components.faction_field_spaces != 2:
        raise ComponentError("faction_field.spaces: the take-over rules need exactly 2 spaces")
    if components.region(Region.FIELD_OF_MARS).numbers["pair_size"] != 2:
        raise ComponentError("regions.field_of_mars.pair_size: the engine plays pairs of exactly 2 cards")
    _check_deck_size(components)
    _check_card_amounts(components)
    _check_cesura(components)


def _check_card_amounts(components: Components) -> None:
    """Cards drawn by one benefit cannot exceed the deck."""
    deck = sum(len(spec.values) for spec in components.factions)
    for i, spec in enumerate(components.factions):
        for name, value in spec.numbers.items():
            if name.endswith("_cards") and value > deck:
                raise ComponentError(f"factions[{i}].numbers.{name}: {value} cards is more than the deck ({deck})")


def _check_cesura(components: Components) -> None:
    """A cesura magna never leaves a displayed set below the smallest legal set."""
    smallest = components.min_set_size
    for size in sorted({smallest, *(row for row, _ in components.set_losses)}):
        size = max(size, smallest)
        left = size - components.cards_lost_in_cesura(size)
        if left < smallest:
            raise ComponentError(
                f"cesura.set_losses: a set of {size} cards would keep {left}, "
                f"fewer than takeover.min_set_size ({smallest})"
            )


def _check_deck_size(components: Components) -> None:
    deck = sum(len(spec.values) for spec in components.factions)
    board = sum(spec.fields for spec in components.regions if spec.region not in (Region.CURIA, Region.CATACOMBS))
    board += components.region(Region.CATACOMBS).numbers["pile"]
    need = components.deal * max(components.followers)
    if deck < need + board:
        raise ComponentError(
            f"factions: {deck} cards cannot deal {components.deal} to {max(components.followers)} players "
            f"and fill the board ({board} fields)"
        )


def load_components(path: str | Path | None = None) -> Components:
    """Load and validate a component file; ``None`` gives the packaged default set.

    Raises:
        ComponentError: the file is missing, is not TOML, or a field is invalid.
    """
    if path is None:
        return default_components()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ComponentError(f"cannot read component file {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ComponentError(f"{p}: not a text file (expected UTF-8 TOML)") from None
    return _parse_text(text, str(p))


def _parse_text(text: str, source: str) -> Components:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ComponentError(f"{source}: tables or lists nested too deeply") from None
    try:
        return parse_components(doc, source)
    except ComponentError as exc:
        raise ComponentError(f"{source}: {exc}") from None


@cache
def default_components() -> Components:
    """The packaged (partly reconstructed) component set, loaded once."""
    text = resources.files("tribune_env.data").joinpath("components.toml").read_text(encoding="utf-8")
    return _parse_text(text, "tribune_env/data/components.toml")
