"""GameConfig owns which game is played: its rule set, its defaults, the Brutii policy and its dict form."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tribune_env
from tribune_env import Game, InvalidStateError
from tribune_env.data import default_components
from tribune_env.engine import serialize
from tribune_env.engine.config import (
    DEFAULT_PLAYERS,
    DEFAULT_ROUND_LIMIT,
    GameConfig,
    RuleSet,
    config_fields,
    config_from_dict,
    config_to_dict,
    document_config,
)

COMPS = default_components()
SPEC = COMPS.expansion
assert SPEC is not None and SPEC.brutii is not None
OPTIONS = (
    "players",
    "victory_card",
    "point_variant",
    "round_limit",
    "auto_forced",
    "start_seat",
    "expansion",
    "brutii",
    "brutii_seat",
    "components",
)


# --- the rule set --------------------------------------------------------------------------------------------


def test_rule_set_names_and_flags() -> None:
    assert [r.value for r in RuleSet] == ["base", "expansion", "brutii"]
    assert [(r.uses_expansion, r.has_brutii) for r in RuleSet] == [(False, False), (True, False), (True, True)]
    for rules in RuleSet:
        assert RuleSet.parse(rules.value) is rules and RuleSet.parse(rules) is rules
        assert RuleSet.of(rules.uses_expansion, rules.has_brutii) is rules
        assert str(rules) == rules.value
    assert RuleSet.of(expansion=False, brutii=True) is RuleSet.BRUTII  # the Brutii implies the expansion


@pytest.mark.parametrize("name", ["Base", "brutus", "", None, 3])
def test_an_unknown_rule_set_name_is_refused_naming_the_known_ones(name: object) -> None:
    with pytest.raises(ValueError, match=r"^rules: expected one of base, expansion, brutii, got"):
        RuleSet.parse(name)


def test_player_counts_come_from_the_components() -> None:
    assert SPEC is not None and SPEC.brutii is not None
    assert RuleSet.BASE.player_counts(COMPS) == COMPS.player_counts == (2, 3, 4, 5)
    assert RuleSet.EXPANSION.player_counts(COMPS) == tuple(sorted(SPEC.followers))
    assert RuleSet.BRUTII.player_counts(COMPS) == SPEC.brutii.seat_counts == (5, 6)
    for rules in RuleSet:
        counts = rules.player_counts(COMPS)
        for players in range(1, 9):
            options = {"players": players, "expansion": rules.uses_expansion, "brutii": rules.has_brutii}
            if players in counts:
                assert GameConfig(**options).player_counts == counts  # type: ignore[arg-type]
            else:
                with pytest.raises(ValueError, match=rf"^players: {players} is not supported"):
                    GameConfig(**options)  # type: ignore[arg-type]


def test_default_player_counts() -> None:
    assert SPEC is not None and SPEC.brutii is not None
    assert DEFAULT_PLAYERS == 0
    assert [r.default_players(COMPS) for r in RuleSet] == [4, 4, min(SPEC.brutii.seat_counts)]
    assert GameConfig().players == 4
    assert GameConfig(expansion=True).players == 4
    assert GameConfig(brutii=True).players == 5
    assert GameConfig(players=None).players == 4  # type: ignore[arg-type]  # an unset command-line flag
    assert GameConfig(players=None, brutii=True).players == 5  # type: ignore[arg-type]
    assert GameConfig(players=DEFAULT_PLAYERS, brutii=True) == GameConfig(players=5, expansion=True, brutii=True)


def test_a_rule_set_needs_its_tables() -> None:
    base_only = dataclasses.replace(COMPS, expansion=None)
    assert RuleSet.BASE.player_counts(base_only) == COMPS.player_counts
    for rules in (RuleSet.EXPANSION, RuleSet.BRUTII):
        with pytest.raises(ValueError, match=r"^expansion: .* has no expansion tables"):
            rules.player_counts(base_only)
        with pytest.raises(ValueError, match=r"^expansion: .* has no expansion tables"):
            GameConfig.for_rules(rules, components=base_only)
    assert SPEC is not None
    no_brutii = dataclasses.replace(COMPS, expansion=dataclasses.replace(SPEC, brutii=None))
    assert RuleSet.EXPANSION.default_players(no_brutii) == 4
    with pytest.raises(ValueError, match=r"^brutii: .* has no \[expansion.brutii\] table"):
        RuleSet.BRUTII.default_players(no_brutii)


def test_the_round_limit_default_is_written_once() -> None:
    assert DEFAULT_ROUND_LIMIT == 60 == GameConfig().round_limit
    assert tribune_env.DEFAULT_ROUND_LIMIT is DEFAULT_ROUND_LIMIT
    assert tribune_env.RuleSet is RuleSet
    assert (tribune_env.config_to_dict, tribune_env.config_from_dict) == (config_to_dict, config_from_dict)


# --- the Brutii implies the expansion -----------------------------------------------------------------------


def test_brutii_implies_the_expansion() -> None:
    config = GameConfig(brutii=True)
    assert config.expansion and config.rules is RuleSet.BRUTII
    assert config == GameConfig(players=5, expansion=True, brutii=True)
    assert GameConfig(players=6, expansion=False, brutii=True).expansion  # left false: still the expansion
    assert GameConfig(expansion=True).rules is RuleSet.EXPANSION and GameConfig().rules is RuleSet.BASE
    one = Game.new(brutii=True, players=6, seed=3)
    other = Game.new(players=6, expansion=True, brutii=True, seed=3)
    assert one.to_json() == other.to_json()
    assert one.to_json()["config"]["expansion"] is True


@pytest.mark.parametrize("expansion", ["missing", False, True])
def test_a_document_with_the_brutii_needs_no_expansion_flag(expansion: object) -> None:
    doc = Game.new(players=5, expansion=True, brutii=True, seed=8).to_json()
    if expansion == "missing":
        del doc["config"]["expansion"]
    else:
        doc["config"]["expansion"] = expansion
    for source in (doc, json.dumps(doc)):
        game = Game.from_json(source)
        assert game.config.expansion and game.config.brutii
        assert game.to_json()["config"]["expansion"] is True


def test_brutii_keys_in_a_base_document_are_refused() -> None:
    doc = Game.new(players=5, seed=1).to_json()
    doc["config"]["brutii_seat"] = 1
    with pytest.raises(InvalidStateError, match=r"^config\.brutii_seat:"):
        Game.from_json(doc)


def test_for_rules() -> None:
    assert GameConfig.for_rules("brutii") == GameConfig(brutii=True)
    assert GameConfig.for_rules(RuleSet.EXPANSION, players=3) == GameConfig(players=3, expansion=True)
    assert GameConfig.for_rules("base", expansion=False).rules is RuleSet.BASE
    with pytest.raises(ValueError, match=r"^expansion:"):
        GameConfig.for_rules("base", expansion=True)
    with pytest.raises(ValueError, match=r"^brutii:"):
        GameConfig.for_rules("expansion", brutii=True)
    with pytest.raises(ValueError, match=r"^rules:"):
        GameConfig.for_rules("chess")


# --- the dict form ----------------------------------------------------------------------------------------------


@st.composite
def configs(draw: st.DrawFn) -> GameConfig:
    """Any valid config of the packaged components."""
    rules = draw(st.sampled_from(list(RuleSet)))
    players = draw(st.sampled_from(rules.player_counts(COMPS)))
    shell = GameConfig.for_rules(rules, players=players)
    cards = sorted(c.id for c in shell.victory_cards() if players in shell.required_rows(c))
    seat = st.none() | st.integers(0, players - 1)
    return GameConfig.for_rules(
        rules,
        players=players,
        victory_card=draw(st.none() | st.sampled_from(cards)),
        point_variant=draw(st.booleans()),
        round_limit=draw(st.integers(1, 1000)),
        auto_forced=draw(st.booleans()),
        start_seat=draw(seat),
        brutii_seat=draw(seat) if rules.has_brutii else None,
    )


@settings(max_examples=300, deadline=None)
@given(config=configs())
def test_the_dict_form_round_trips(config: GameConfig) -> None:
    data = config_to_dict(config)
    assert json.loads(json.dumps(data)) == data  # plain JSON values
    assert config_from_dict(data) == config
    assert config_from_dict(json.loads(json.dumps(data)), COMPS) == config
    assert GameConfig.from_dict(config.to_dict()) == config
    assert set(data) <= set(config_fields())
    assert data["components"] == "default"
    assert ("start_seat" in data) == (config.start_seat is not None)
    assert ("expansion" in data) == config.expansion and ("brutii" in data) == config.brutii


@settings(max_examples=40, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32))
def test_a_document_config_is_the_dict_form_of_the_game_played(config: GameConfig, seed: int) -> None:
    """A game document's ``config`` is config_to_dict with the card in play and without start_seat."""
    game = Game.new(config, seed=seed)
    card = game.position().victory_card or None
    written = game.to_json()["config"]
    assert written == document_config(config, card)
    expected = config_to_dict(dataclasses.replace(config, victory_card=card, point_variant=config.point_variant))
    expected.pop("start_seat", None)
    assert written == expected and list(written) == list(expected)
    assert Game.from_json(game.to_json()).config == dataclasses.replace(config, victory_card=card, start_seat=None)


def test_a_dict_may_name_the_rule_set() -> None:
    assert config_from_dict({"rules": "brutii"}) == GameConfig(brutii=True)
    assert config_from_dict({"rules": "expansion", "expansion": True, "players": 2}) == GameConfig(2, expansion=True)
    assert config_from_dict({}) == GameConfig()
    assert config_from_dict({"players": None, "brutii": True}).players == 5


def _keys_of_every_field() -> dict[str, Any]:
    """A dict in which every option differs from its default."""
    return config_to_dict(
        GameConfig(
            players=6,
            victory_card=SPEC.victory_cards[0].id if SPEC is not None else None,
            point_variant=True,
            round_limit=3,
            auto_forced=False,
            start_seat=1,
            expansion=True,
            brutii=True,
            brutii_seat=2,
        )
    )


def test_config_fields_follow_the_dataclass() -> None:
    """Fails when GameConfig gains, loses or reorders a field: config_fields, the dict form and the document
    reader must follow it."""
    assert config_fields() == tuple(f.name for f in dataclasses.fields(GameConfig)) == OPTIONS
    data = _keys_of_every_field()
    assert set(data) == set(config_fields())  # the dict form writes every option
    assert config_from_dict(data) == GameConfig(**{**data, "components": COMPS})
    assert serialize._CONFIG_KEYS == set(config_fields()) - {"start_seat"}


BAD: list[tuple[dict[str, Any], str]] = [
    ({"colour": "red"}, "colour"),
    ({"players": "4"}, "players"),
    ({"players": 4.0}, "players"),
    ({"players": True}, "players"),
    ({"players": 0}, "players"),
    ({"players": 9}, "players"),
    ({"victory_card": 3}, "victory_card"),
    ({"victory_card": "nope"}, "victory_card"),
    ({"victory_card": "sic_transit"}, "victory_card"),  # an expansion card in a base game
    ({"point_variant": 1}, "point_variant"),
    ({"point_variant": None}, "point_variant"),
    ({"round_limit": None}, "round_limit"),
    ({"round_limit": 0}, "round_limit"),
    ({"auto_forced": "yes"}, "auto_forced"),
    ({"start_seat": "1"}, "start_seat"),
    ({"start_seat": 4}, "start_seat"),
    ({"expansion": "true"}, "expansion"),
    ({"brutii": 1}, "brutii"),
    ({"brutii_seat": 1}, "brutii_seat"),
    ({"brutii": True, "brutii_seat": 7}, "brutii_seat"),
    ({"brutii": True, "brutii_seat": False}, "brutii_seat"),
    ({"components": "custom"}, "components"),
    ({"components": None}, "components"),
    ({"rules": "chess"}, "rules"),
    ({"rules": 1}, "rules"),
    ({"rules": "base", "expansion": True}, "expansion"),
    ({"rules": "expansion", "brutii": True}, "brutii"),
    ({"rules": "brutii", "expansion": False}, "expansion"),
]


@pytest.mark.parametrize(("data", "key"), BAD, ids=[f"{k}={json.dumps(d)}" for d, k in BAD])
def test_a_bad_dict_is_refused_naming_the_key(data: dict[str, Any], key: str) -> None:
    with pytest.raises(ValueError, match=rf"^{key}:"):
        config_from_dict(data)


def test_a_dict_must_be_a_mapping() -> None:
    with pytest.raises(ValueError, match="expected an object"):
        config_from_dict([("players", 4)])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"players": None}, "config.players:"),
        ({"players": 0}, "config: players:"),
        ({"start_seat": 1}, "config: unknown key(s) ['start_seat']"),
        ({"rules": "base"}, "config: unknown key(s) ['rules']"),
        ({"round_limit": 1001}, "config.round_limit:"),
        ({"victory_card": None}, "config.victory_card:"),
    ],
)
def test_a_document_config_keeps_its_own_rules(change: dict[str, Any], fragment: str) -> None:
    doc = Game.new(players=3, seed=2).to_json()
    doc["config"].update(change)
    with pytest.raises(InvalidStateError) as info:
        Game.from_json(doc)
    assert str(info.value).startswith(fragment), str(info.value)
