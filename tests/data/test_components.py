"""The component file: the packaged default set, user files, and clear errors for bad files."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from tribune_env import (
    ComponentError,
    Faction,
    Game,
    GameConfig,
    InvalidStateError,
    PlaceFollower,
    default_components,
    load_components,
)
from tribune_env.data import BASE_REGIONS
from tribune_env.engine.tables import tables_for

PACKAGED = Path(str(resources.files("tribune_env.data").joinpath("components.toml")))
TEXT = PACKAGED.read_text(encoding="utf-8")


@pytest.fixture(autouse=True, scope="module")
def packaged_file_untouched() -> Iterator[None]:
    """Nothing here may write to the packaged file (user files go to tmp_path)."""
    before = hashlib.sha256(PACKAGED.read_bytes()).hexdigest()
    yield
    assert hashlib.sha256(PACKAGED.read_bytes()).hexdigest() == before
    assert default_components().coin_bowl_first == 7  # the cached default set is unchanged too


def _write(tmp_path: Path, text: str, name: str = "custom.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _replace(old: str, new: str, text: str = TEXT, count: int = 1) -> str:
    assert text.count(old) == count, f"{old!r} occurs {text.count(old)} times in components.toml"
    return text.replace(old, new)


def _first_placement_game(components: object, players: int = 3) -> Game:
    """A game paused at its first follower placement."""
    game = Game.new(GameConfig(players=players, components=components), seed=4)  # type: ignore[arg-type]
    rng = random.Random(4)
    while game.pending.kind.key != "place_follower":
        game.apply(rng.choice(game.legal_actions()))
    return game


# --- the default set -------------------------------------------------------------------------------


def test_default_components() -> None:
    comps = default_components()
    assert comps is load_components() is load_components(None)
    assert comps.name == "default"
    assert len(comps.factions) == len(Faction) == 7
    assert [spec.faction for spec in comps.factions] == list(Faction)
    assert sum(len(spec.values) for spec in comps.factions) == 100
    for spec in comps.factions:
        assert spec.values.count(0) == 1, f"{spec.name} needs exactly one leader"
        assert spec.leader
        assert all(v >= 0 for v in spec.values)
    assert comps.player_counts == (2, 3, 4, 5)
    assert set(comps.point_variant) == {2, 3, 4, 5}
    for players in comps.player_counts:
        assert any(players in card.required for card in comps.victory_cards)
    assert [spec.region for spec in comps.regions] == list(BASE_REGIONS)
    assert comps.min_set_size == 2
    assert comps.faction_field_spaces == 2
    assert comps.starting_money == 12
    assert comps.coin_bowl_first == 7 and comps.coin_bowl_later == 5


def test_default_tables() -> None:
    tables = tables_for(default_components())
    assert tables.deck_size == 100
    assert len(tables.leader_card) == 7
    assert all(tables.card_value[c] == 0 for c in tables.leader_card)
    assert len(set(tables.card_label)) == tables.num_card_types
    for label, card in tables.card_by_label.items():
        faction, value = label.split(":")
        assert Faction(tables.card_faction[card]).key == faction
        assert tables.card_value[card] == int(value)
    labels = [s.label for s in tables.spaces]
    assert len(labels) == len(set(labels))
    assert "coin_bowl" in labels and "faction:senators:2" in labels and "curia:3" in labels


def test_unchanged_copy_loads_like_the_default(tmp_path: Path) -> None:
    comps = load_components(_write(tmp_path, TEXT))
    default = default_components()
    assert comps is not default
    assert str(tmp_path / "custom.toml") in comps.source
    for field in ("name", "factions", "regions", "followers", "scoring", "victory_cards", "set_losses", "deal"):
        assert getattr(comps, field) == getattr(default, field), field
    # and a game with it is the same game as with the default
    a = Game.new(GameConfig(players=3, components=comps), seed=5)
    b = Game.new(players=3, seed=5)
    assert a.to_json() == b.to_json()


def test_load_components_accepts_str_path(tmp_path: Path) -> None:
    assert load_components(str(_write(tmp_path, TEXT))).name == "default"


# --- a user file changes the game ----------------------------------------------------------------------


def test_user_file_changes_coin_bowl(tmp_path: Path) -> None:
    text = _replace("[coin_bowl]\nfirst = 7\nlater = 5", "[coin_bowl]\nfirst = 9\nlater = 4")
    comps = load_components(_write(tmp_path, text))
    assert (comps.coin_bowl_first, comps.coin_bowl_later) == (9, 4)
    game = _first_placement_game(comps)
    bowl = PlaceFollower(game.tables.coin_bowl)
    first = game.current_seat
    money = game.position().players[first].money
    game.apply(bowl)
    assert game.position().players[first].money == money + 9
    second = game.current_seat
    money = game.position().players[second].money
    game.apply(bowl)
    assert game.position().players[second].money == money + 4
    # the default is unaffected
    assert default_components().coin_bowl_first == 7
    default_game = _first_placement_game(default_components())
    seat = default_game.current_seat
    money = default_game.position().players[seat].money
    default_game.apply(PlaceFollower(default_game.tables.coin_bowl))
    assert default_game.position().players[seat].money == money + 7


def test_user_file_changes_setup(tmp_path: Path) -> None:
    text = _replace("starting_money = 12\nstarting_money_step = 1", "starting_money = 20\nstarting_money_step = 3")
    text = _replace("[followers]\n2 = 6\n3 = 6", "[followers]\n2 = 6\n3 = 2", text)
    comps = load_components(_write(tmp_path, text))
    game = Game.new(GameConfig(players=3, start_seat=1, components=comps), seed=2)
    money = [p.money for p in game.position().players]
    assert money == [26, 20, 23]  # start seat 1 gets 20, then +3 per seat clockwise
    game = _first_placement_game(comps)
    assert [p.followers for p in game.position().players] == [2, 2, 2]  # nobody holds the proconsul in round 1


def test_user_file_cards(tmp_path: Path) -> None:
    """Different card values change the deck, the labels and the positions that can be written."""
    senators = "values = [0, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10]"
    text = _replace(senators, senators.replace("10]", "11]"))
    comps = load_components(_write(tmp_path, text))
    tables = tables_for(comps)
    assert "senators:11" in tables.card_by_label and "senators:10" not in tables.card_by_label
    doc = {"config": {"players": 2, "victory_card": "alea_long"}, "players": [{"hand": ["senators:11"]}, {}]}
    assert Game.from_json(doc, components=comps).position().players[0].hand[tables.card_by_label["senators:11"]] == 1
    with pytest.raises(InvalidStateError, match="senators:11"):
        Game.from_json(doc)  # the default set has no such card


def test_document_names_its_component_set(tmp_path: Path) -> None:
    text = _replace('name = "default"', 'name = "my copy"')
    comps = load_components(_write(tmp_path, text))
    game = Game.new(GameConfig(players=2, components=comps), seed=1)
    doc = game.to_json()
    assert doc["config"]["components"] == "my copy"
    with pytest.raises(InvalidStateError, match=r"config\.components"):
        Game.from_json(doc)
    assert Game.from_json(doc, components=comps).to_json() == doc


# --- bad files -------------------------------------------------------------------------------------------


def _broken(old: str, new: str, count: int = 1) -> str:
    return _replace(old, new, count=count)


BAD_FILES = [
    ("invalid TOML", TEXT + "\n[[broken\n", ("not valid TOML",)),
    (
        "two leaders",
        _broken(
            "values = [0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6]",
            "values = [0, 0, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6]",
        ),
        ("factions[0].values", "leader"),
    ),
    (
        "no leader",
        _broken("values = [0, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9]", "values = [3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9]"),
        ("factions[5].values", "leader"),
    ),
    (
        "negative card value",
        _broken("values = [0, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9]", "values = [0, -3, 4, 4, 5, 5, 6, 6, 7, 8, 9]"),
        ("factions[5].values[1]",),
    ),
    ("negative coin bowl", _broken("first = 7\n", "first = -7\n"), ("coin_bowl.first", ">= 0", "-7")),
    ("negative starting money", _broken("starting_money = 12", "starting_money = -1"), ("setup.starting_money",)),
    ("not an integer", _broken("hand_limit = 7", 'hand_limit = "seven"'), ("cesura.hand_limit", "integer")),
    ("missing scoring field", _broken("laurel = 1\n", ""), ("scoring.laurel", "missing")),
    (
        "unknown obligatory objective",
        _broken('obligatory = ["denarii"]', 'obligatory = ["glory"]'),
        ("victory_cards[2].obligatory",),
    ),
    ("follower table missing", _broken("[followers]\n2 = 6\n3 = 6\n4 = 5\n5 = 4\n", ""), ("followers", "missing")),
    ("faction out of order", _broken('key = "gladiators"', 'key = "romans"'), ("factions[0].key", "romans")),
    (
        "missing faction numbers",
        _broken("numbers = { takeover_laurels = 1, leader_denarii = 10 }", "numbers = { takeover_laurels = 1 }"),
        ("factions[4].numbers.leader_denarii", "missing"),
    ),
    ("region missing", _broken("[regions.latrine]\nfields = 1\n", ""), ("regions.latrine", "missing")),
    ("point variant missing a count", _broken("[point_variant]\n2 = 7\n", "[point_variant]\n"), ("point_variant.2",)),
    ("discard not below deal", _broken("discard = 2", "discard = 6"), ("setup.discard",)),
    ("duplicate victory card ids", _broken('id = "alea_short"', 'id = "alea_long"'), ("victory_cards", "unique")),
    (
        "impossible requirement",
        _broken("required = { 5 = 3 }", "required = { 5 = 9 }"),
        ("victory_cards[6].required.5",),
    ),
]


@pytest.mark.parametrize(("text", "fragments"), [(t, f) for _, t, f in BAD_FILES], ids=[i for i, _, _ in BAD_FILES])
def test_bad_file_is_rejected(tmp_path: Path, text: str, fragments: tuple[str, ...]) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ComponentError) as info:
        load_components(path)
    message = str(info.value)
    assert str(path) in message, "the message names the file"
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert isinstance(info.value, ValueError)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(ComponentError, match="cannot read") as info:
        load_components(path)
    assert "nowhere.toml" in str(info.value)


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="cannot read"):
        load_components(tmp_path)


def test_unknown_victory_card_in_config() -> None:
    with pytest.raises(ValueError, match="victory"):
        GameConfig(players=4, victory_card="nope")
    with pytest.raises(ValueError, match="victory_card"):
        GameConfig(players=5, victory_card="alea_long")  # not for 5 players
    with pytest.raises(ValueError, match="players"):
        GameConfig(players=6)


# --- component sets compare by content ---------------------------------------------------------------


def test_same_file_twice_gives_equal_configs(tmp_path: Path) -> None:
    first = load_components(_write(tmp_path, TEXT, "a.toml"))
    second = load_components(_write(tmp_path, TEXT, "b.toml"))  # another path: the source plays no part
    assert first is not second
    assert first == second == default_components() and hash(first) == hash(second) == hash(default_components())
    assert load_components(PACKAGED) == load_components(PACKAGED)
    config = GameConfig(players=3, components=first)
    assert config == GameConfig(players=3, components=second) == GameConfig(players=3)
    assert hash(config) == hash(GameConfig(players=3, components=second))
    assert "components" not in repr(config) and len(repr(config)) < 200  # the repr stays short


def test_changed_number_gives_unequal_configs(tmp_path: Path) -> None:
    changed = load_components(_write(tmp_path, _replace("first = 7", "first = 8")))
    assert changed.coin_bowl_first == 8
    assert changed != default_components() and changed.digest != default_components().digest
    assert GameConfig(players=3, components=changed) != GameConfig(players=3)
    assert GameConfig(players=3, components=changed) == GameConfig(players=3, components=changed)
    renamed = load_components(_write(tmp_path, _replace('name = "default"', 'name = "my copy"'), "named.toml"))
    assert renamed != default_components()
    assert changed != "not a component set" and default_components() != object()


def test_replaced_fields_change_the_digest() -> None:
    """``dataclasses.replace`` recomputes the digest: it can never carry the old set's identity."""
    comps = default_components()
    changed = dataclasses.replace(comps, coin_bowl_first=8)
    assert changed != comps and changed.digest != comps.digest
    assert dataclasses.replace(changed, coin_bowl_first=7) == comps
    assert dataclasses.replace(comps, source="elsewhere.toml") == comps


def test_tables_cached_per_equal_component_set(tmp_path: Path) -> None:
    first = load_components(_write(tmp_path, TEXT, "a.toml"))
    second = load_components(_write(tmp_path, TEXT, "b.toml"))
    changed = load_components(_write(tmp_path, _replace("first = 7", "first = 8"), "c.toml"))
    assert tables_for(first) is tables_for(second) is tables_for(default_components())
    assert tables_for(changed) is not tables_for(first)
    assert tables_for(changed) is tables_for(dataclasses.replace(first, coin_bowl_first=8))
