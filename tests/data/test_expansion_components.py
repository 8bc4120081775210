"""The Tribune Expansion's component tables: the packaged numbers, base-only files, and clear errors.

Ids: E.. the expansion checklist, C components.md ("Expansion"), R.. rulings.md.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tribune_env.data import (
    EXPANSION_OBJECTIVES,
    ComponentError,
    Components,
    EmperorTile,
    ExpansionRegion,
    ExpansionScoring,
    ExpansionSpec,
    Faction,
    Nationality,
    Official,
    PairReward,
    Requirement,
    default_components,
    load_components,
    parse_components,
    parse_expansion,
)

PACKAGED = Path(str(resources.files("tribune_env.data").joinpath("components.toml")))
TEXT = PACKAGED.read_text(encoding="utf-8")


def _doc() -> dict[str, Any]:
    return tomllib.loads(TEXT)


def _expansion() -> ExpansionSpec:
    spec = default_components().expansion
    assert spec is not None
    return spec


# --- the packaged expansion tables -------------------------------------------------------------------------


def test_default_set_has_the_expansion() -> None:
    comps = default_components()
    assert comps.has_expansion
    assert isinstance(comps.expansion, ExpansionSpec)
    assert parse_expansion(_doc(), comps.player_counts) == comps.expansion


def test_cards() -> None:
    """E1: 15 slaves (5 per nationality) and 3 assassins join the 100 faction cards: 118 (derived, not stored).
    E2 (C, reconstructed): each nationality has the values 1..5. E3: an assassin is worth 0."""
    spec = _expansion()
    assert [s.nationality for s in spec.slaves] == list(Nationality)
    for nationality in Nationality:
        assert spec.slave(nationality).values == (1, 2, 3, 4, 5)
    assert spec.assassins.copies == 3
    assert spec.assassins.value == 0
    assert spec.assassins.label == "assassin:0"
    assert spec.assassins.protected == 2  # E40: the two lowest cards of a set cannot be assassinated
    labels = spec.card_copies
    for label in ("nubian:2", "germanian:1", "greek:4"):
        assert labels[label] == 1
    assert labels["assassin:0"] == 3
    assert sum(labels.values()) == spec.card_count == 18
    faction_cards = sum(len(f.values) for f in default_components().factions)
    assert faction_cards + spec.card_count == 118
    assert not [line for line in TEXT.splitlines() if "118" in line.partition("#")[0]], "118 is derived"


def test_patrons_and_officials() -> None:
    """E5: 6 patron tiles and 5 officials; R33: one patron tile per player. E29/R37 Princeps 2 placements,
    E63 Matrona 2 tiles, E61/R39 Augur draws 3 and discards 1, E62/R40 Quaestor 4/3/2/1/1 by opponents and
    3 from the stock, E45/R38 Tribunus Plebis 2 factions. E58: one official per player."""
    spec = _expansion()
    assert spec.patron_supply == 6
    assert spec.patrons_per_player == 1
    assert [o.official for o in spec.officials] == list(Official)
    assert [int(o) for o in Official] == [0, 1, 2, 3, 4]
    assert [o.key for o in Official] == ["princeps", "matrona", "augur", "quaestor", "tribunus_plebis"]
    assert [o.name for o in spec.officials] == ["Princeps", "Matrona", "Augur", "Quaestor", "Tribunus Plebis"]
    assert spec.official(Official.PRINCEPS).numbers == {"placements": 2}
    assert spec.official(Official.MATRONA).numbers == {"tiles": 2}
    assert spec.official(Official.AUGUR).numbers == {"draws": 3, "discards": 1}
    assert spec.official(Official.QUAESTOR).numbers == {"stock": 3}
    assert spec.official(Official.QUAESTOR).payment == {1: 4, 2: 3, 3: 2, 4: 1, 5: 1}
    assert [spec.quaestor_payment(n) for n in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert spec.official(Official.TRIBUNUS_PLEBIS).numbers == {"factions": 2}
    assert all(not o.payment for o in spec.officials if o.official is not Official.QUAESTOR)
    assert spec.region(ExpansionRegion.CAPITOLEUM).numbers == {"officials_per_player": 1}


def test_emperor_tiles() -> None:
    """E5/E11: 10 favor of the emperor tiles of exactly 2 requirements; E6 (C, reconstructed) the pairs;
    E51: the eight requirement kinds and "pay 12"."""
    spec = _expansion()
    r = Requirement
    assert spec.emperor_tiles == (
        EmperorTile(1, (r.FAVOR, r.SCROLL)),
        EmperorTile(2, (r.PATRON, r.MOST_LAURELS)),
        EmperorTile(3, (r.MOST_MARKERS, r.PAY)),
        EmperorTile(4, (r.MOST_LEGIONS, r.MOST_DENARII)),
        EmperorTile(5, (r.SCROLL, r.MOST_LEGIONS)),
        EmperorTile(6, (r.FAVOR, r.MOST_MARKERS)),
        EmperorTile(7, (r.PATRON, r.PAY)),
        EmperorTile(8, (r.MOST_LAURELS, r.MOST_DENARII)),
        EmperorTile(9, (r.SCROLL, r.PAY)),
        EmperorTile(10, (r.FAVOR, r.MOST_LAURELS)),
    )
    assert [k.key for k in Requirement] == [
        "favor", "scroll", "patron", "most_markers", "most_laurels", "most_legions", "most_denarii", "pay",
    ]  # fmt: skip
    assert spec.emperor_pay == 12


def test_expansion_regions() -> None:
    """E7: IX Refugium 3 spaces (reconstructed), X Basilica 2, XI Capitoleum 3, no card fields, in this order
    (E46). E47/R33 patron: 3 slaves, or 2 with a Nubian. E48: Greek pair 3 laurels, Germanian pair 1 legion,
    no Nubian pairs."""
    spec = _expansion()
    assert [r.region for r in spec.regions] == list(ExpansionRegion)
    assert [r.key for r in ExpansionRegion] == ["refugium", "basilica", "capitoleum"]
    assert [r.spaces for r in spec.regions] == [3, 2, 3]
    refugium = spec.region(ExpansionRegion.REFUGIUM)
    assert refugium.numbers == {"patron_slaves": 3, "patron_slaves_with_nubian": 2}
    assert refugium.pairs == {
        Nationality.GREEK: PairReward(laurels=3, legions=0),
        Nationality.GERMANIAN: PairReward(laurels=0, legions=1),
    }
    assert Nationality.NUBIAN not in refugium.pairs
    assert spec.region(ExpansionRegion.BASILICA).numbers == {}
    assert spec.region(ExpansionRegion.BASILICA).pairs == {}


def test_followers_point_variant_and_scoring() -> None:
    """E16/R42: followers 6/6/6/5 for 2-5 players (base 6/6/5/4). E75: point variant 7/6/6/5 (and 5 for six
    seats with the Brutii). E74/R41: the expansion scoring table, no "first to fulfil" bonus."""
    comps = default_components()
    spec = _expansion()
    assert spec.followers == {2: 6, 3: 6, 4: 6, 5: 5}
    assert comps.followers == {2: 6, 3: 6, 4: 5, 5: 4}
    assert spec.player_counts == (2, 3, 4, 5)
    assert spec.point_variant == {2: 7, 3: 6, 4: 6, 5: 5, 6: 5}
    assert spec.scoring == ExpansionScoring(
        tribune=7,
        scroll=3,
        eternal_favor=5,
        temporary_favor=3,
        legion=2,
        laurel=1,
        patron=5,
        emperor_tile=5,
        marker=1,
        denarii_per_point=10,
        first_bonus=0,
    )
    assert comps.scoring.temporary_favor == 2 and comps.scoring.first_bonus == 2  # the base table is unchanged


def test_victory_cards() -> None:
    """E72: 7 objectives, no denarii; E73 (C, reconstructed): required by player count plus a Brutii row."""
    assert EXPANSION_OBJECTIVES == ("tribune", "favor", "laurels", "legions", "markers", "emperor_tiles", "patrons")
    spec = _expansion()
    assert [c.id for c in spec.victory_cards] == ["quid_est_veritas", "sic_transit"]
    quid = spec.victory_card("quid_est_veritas")
    assert (quid.title, quid.length) == ("Quid est veritas?", "long")
    assert quid.thresholds == {"laurels": 10, "legions": 3, "markers": 5, "emperor_tiles": 1, "patrons": 1}
    assert quid.required == {2: 6, 3: 5, 4: 5, 5: 4}
    assert quid.required_brutii == {5: 4, 6: 4}
    assert quid.obligatory == ()
    sic = spec.victory_card("sic_transit")
    assert (sic.title, sic.length) == ("Sic transit gloria mundi", "short")
    assert sic.thresholds == {"laurels": 8, "legions": 3, "markers": 4, "emperor_tiles": 1, "patrons": 1}
    assert sic.required == {2: 5, 3: 4, 4: 4, 5: 3}
    assert sic.required_brutii == {5: 3, 6: 3}
    with pytest.raises(ComponentError, match="sic_transit"):
        spec.victory_card("alea_long")


# --- base-only documents -------------------------------------------------------------------------------------


def test_base_only_document() -> None:
    """A document without the expansion tables is a base-game set (C: one file, optional expansion)."""
    doc = _doc()
    del doc["expansion"]
    before = copy.deepcopy(doc)
    assert parse_expansion(doc, (2, 3, 4, 5)) is None
    comps = parse_components(doc)
    assert doc == before
    assert comps.expansion is None and not comps.has_expansion
    default = default_components()
    assert comps.followers == default.followers and comps.scoring == default.scoring
    assert comps != default  # different content, different digest


def test_base_only_file(tmp_path: Path) -> None:
    """The packaged text cut before its expansion section loads as a base-only set."""
    banner = TEXT.index("# ====")
    assert "[expansion" not in TEXT[:banner]
    path = tmp_path / "base.toml"
    path.write_text(TEXT[:banner], encoding="utf-8")
    comps = load_components(path)
    assert comps.expansion is None
    assert isinstance(comps, Components) and comps.player_counts == (2, 3, 4, 5)


# --- malformed expansion tables ------------------------------------------------------------------------------

Path_ = tuple[str | int, ...]
Mutation = Callable[[dict[str, Any]], None]


def _set(path: Path_, value: Any) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        node: Any = doc
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value

    return mutate


def _delete(path: Path_) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        node: Any = doc
        for step in path[:-1]:
            node = node[step]
        del node[path[-1]]

    return mutate


def _no_card_for_5(doc: dict[str, Any]) -> None:
    for card in doc["expansion"]["victory_cards"]:
        del card["required"]["5"]


def _swap_officials(doc: dict[str, Any]) -> None:
    officials = doc["expansion"]["officials"]
    officials[0], officials[1] = officials[1], officials[0]


TILES = ("expansion", "emperor", "tiles")
OFFICIALS = ("expansion", "officials")
CARDS = ("expansion", "victory_cards")
REFUGIUM = ("expansion", "regions", "refugium")

BAD_EXPANSIONS: list[tuple[str, Mutation, tuple[str, ...]]] = [
    ("expansion not a table", _set(("expansion",), 3), ("expansion: expected a table",)),
    (
        "unknown requirement kind",
        _set((*TILES, 2, "requires", 1), "glory"),
        ("expansion.emperor.tiles[2].requires[1]", "glory"),
    ),
    (
        "three requirements",
        _set((*TILES, 0, "requires"), ["favor", "scroll", "patron"]),
        ("expansion.emperor.tiles[0].requires", "exactly 2"),
    ),
    ("one requirement", _set((*TILES, 4, "requires"), ["favor"]), ("expansion.emperor.tiles[4].requires", "exactly 2")),
    ("the same requirement twice", _set((*TILES, 1, "requires"), ["pay", "pay"]), ("tiles[1].requires", "differ")),
    ("duplicate tile ids", _set((*TILES, 9, "id"), 1), ("expansion.emperor.tiles[9].id", "duplicate")),
    ("no tiles", _set(TILES, []), ("expansion.emperor.tiles",)),
    ("pay missing", _delete(("expansion", "emperor", "pay")), ("expansion.emperor.pay", "missing")),
    ("officials out of order", _swap_officials, ("expansion.officials[0].key", "'princeps'", "'matrona'")),
    ("an official missing", _delete((*OFFICIALS, 4)), ("expansion.officials", "5 officials")),
    ("princeps places nobody", _set((*OFFICIALS, 0, "numbers", "placements"), 0), ("officials[0].numbers.placements",)),
    ("matrona takes every tile", _set((*OFFICIALS, 1, "numbers", "tiles"), 10), ("officials[1].numbers.tiles",)),
    ("augur discards more than drawn", _set((*OFFICIALS, 2, "numbers", "discards"), 4), ("officials[2].numbers",)),
    ("quaestor stock missing", _delete((*OFFICIALS, 3, "numbers", "stock")), ("officials[3].numbers.stock", "missing")),
    (
        "quaestor payment missing an opponent count",
        _delete((*OFFICIALS, 3, "payment", "4")),
        ("expansion.officials[3].payment.4", "5 players"),
    ),
    ("quaestor payment for 0 opponents", _set((*OFFICIALS, 3, "payment", "0"), 5), ("officials[3].payment.0",)),
    ("tribunus plebis too many factions", _set((*OFFICIALS, 4, "numbers", "factions"), 8), ("numbers.factions",)),
    ("unknown nationality", _set(("expansion", "slaves", "roman"), [1, 2]), ("expansion.slaves.roman", "nationality")),
    ("negative slave value", _set(("expansion", "slaves", "greek"), [-1, 2]), ("expansion.slaves.greek[0]",)),
    ("no nubians", _set(("expansion", "slaves", "nubian"), []), ("expansion.slaves.nubian",)),
    ("no assassins", _set(("expansion", "assassins", "copies"), 0), ("expansion.assassins.copies", ">= 1")),
    ("patrons per player above supply", _set(("expansion", "patrons", "per_player"), 7), ("patrons.per_player",)),
    ("refugium missing", _delete(("expansion", "regions", "refugium")), ("expansion.regions.refugium", "missing")),
    ("unknown pair reward", _set((*REFUGIUM, "pairs", "greek"), {"denarii": 3}), ("refugium.pairs.greek.denarii",)),
    ("empty pair reward", _set((*REFUGIUM, "pairs", "germanian"), {}), ("refugium.pairs.germanian",)),
    ("patron with nubian above patron", _set((*REFUGIUM, "patron_slaves_with_nubian"), 4), ("with_nubian",)),
    ("capitoleum too big", _set(("expansion", "regions", "capitoleum", "spaces"), 6), ("capitoleum.spaces", "5")),
    ("6 players without the Brutii", _set(("expansion", "followers", "6"), 5), ("expansion.followers.6", "base")),
    ("1 player", _set(("expansion", "followers", "1"), 6), ("expansion.followers.1",)),
    ("follower count not a number", _set(("expansion", "followers", "2"), "six"), ("expansion.followers.2",)),
    ("point variant missing", _delete(("expansion", "point_variant", "5")), ("expansion.point_variant.5", "missing")),
    ("scoring field missing", _delete(("expansion", "scoring", "patron")), ("expansion.scoring.patron", "missing")),
    ("required above 7", _set((*CARDS, 0, "required", "2"), 8), ("victory_cards[0].required.2", "impossible")),
    ("brutii row above 7", _set((*CARDS, 1, "required_brutii", "6"), 9), ("victory_cards[1].required_brutii.6",)),
    ("denarii objective", _set((*CARDS, 0, "obligatory"), ["denarii"]), ("expansion.victory_cards[0].obligatory",)),
    ("emperor tiles unreachable", _set((*CARDS, 0, "emperor_tiles"), 11), ("victory_cards[0].emperor_tiles", "10")),
    ("patrons unreachable", _set((*CARDS, 1, "patrons"), 2), ("expansion.victory_cards[1].patrons",)),
    ("markers unreachable", _set((*CARDS, 1, "markers"), 8), ("expansion.victory_cards[1].markers",)),
    ("no card for 5 players", _no_card_for_5, ("expansion.victory_cards", "5 players")),
    ("card id of the base game", _set((*CARDS, 0, "id"), "alea_long"), ("victory_cards[0].id", "base")),
    ("duplicate card ids", _set((*CARDS, 1, "id"), "quid_est_veritas"), ("expansion.victory_cards", "unique")),
]


@pytest.mark.parametrize(
    ("mutate", "fragments"), [(m, f) for _, m, f in BAD_EXPANSIONS], ids=[i for i, _, _ in BAD_EXPANSIONS]
)
def test_bad_expansion_is_rejected(mutate: Mutation, fragments: tuple[str, ...]) -> None:
    doc = _doc()
    mutate(doc)
    before = copy.deepcopy(doc)
    with pytest.raises(ComponentError) as info:
        parse_components(doc)
    assert doc == before, "parsing must not change the document"
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_bad_expansion_file_names_the_file(tmp_path: Path) -> None:
    old = '{ id = 7, requires = ["patron", "pay"] }'
    assert TEXT.count(old) == 1
    path = tmp_path / "bad.toml"
    path.write_text(TEXT.replace(old, '{ id = 7, requires = ["patron", "bribe"] }'), encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_components(path)
    assert str(path) in str(info.value)
    assert "expansion.emperor.tiles[6].requires[1]" in str(info.value)


def test_other_numbers_change_the_spec() -> None:
    """The numbers come from the document: a changed table gives a changed spec (and a different set)."""
    doc = _doc()
    doc["expansion"]["officials"][3]["payment"]["2"] = 5
    doc["expansion"]["emperor"]["pay"] = 15
    doc["expansion"]["regions"]["refugium"]["pairs"]["nubian"] = {"laurels": 1, "legions": 1}
    comps = parse_components(doc)
    assert comps.expansion is not None
    assert comps.expansion.quaestor_payment(2) == 5
    assert comps.expansion.emperor_pay == 15
    assert comps.expansion.region(ExpansionRegion.REFUGIUM).pairs[Nationality.NUBIAN] == PairReward(1, 1)
    assert comps != default_components()
    assert len(Faction) == 7  # markers thresholds are bounded by the factions
