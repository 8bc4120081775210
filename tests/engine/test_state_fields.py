"""The state's fields are declared once (``state.FIELDS``): slots, clone and the JSON keys follow from it."""

from __future__ import annotations

from positions import random_game

from tribune_env import Game
from tribune_env.engine.state import FIELDS, Copy, GameState


def _mid_game(seed: int, steps: int) -> Game:
    return random_game(4, seed, steps)


def test_slots_are_the_declared_fields() -> None:
    assert GameState.__slots__ == tuple(f.name for f in FIELDS)
    assert len({f.name for f in FIELDS}) == len(FIELDS)


def test_clone_copies_every_mutable_field_and_shares_only_declared_ones() -> None:
    game = _mid_game(3, 250)
    state = game.position()
    other = state.clone()
    for f in FIELDS:
        mine, theirs = getattr(state, f.name), getattr(other, f.name)
        assert mine == theirs or f.name == "players", f.name
        if f.copy is not Copy.SHARED:
            assert mine is not theirs, f"{f.name} must be copied"
    other.players[0].hand[0] += 1
    other.fields[0][0].append(0)
    other.sets[0].append(0)
    assert state.players[0].hand[0] != other.players[0].hand[0]
    assert other.fields[0][0] is not state.fields[0][0]
    assert other.sets[0] is not state.sets[0]


def test_json_writes_exactly_the_declared_keys() -> None:
    doc = _mid_game(5, 120).to_json()
    declared = {f.json for f in FIELDS if f.json is not None and not f.expansion}  # a base game
    assert set(doc) == declared | {"format", "version"}
    without_events = _mid_game(5, 120).position()
    from tribune_env.engine.serialize import state_to_json

    assert set(state_to_json(without_events, events=False)) == declared - {"events"} | {"format", "version"}


def test_undeclared_json_fields_are_derived_or_caches() -> None:
    assert {f.name for f in FIELDS if f.json is None} == {"tables", "legal_cache", "touched"}


def _mid_expansion_game(seed: int, steps: int, players: int = 3) -> Game:
    return random_game(players, seed, steps, expansion=True)


def test_expansion_json_writes_exactly_the_declared_keys() -> None:
    """An expansion document (version 2) writes every declared key, the expansion ones included (not the Brutii's:
    this game has no Brutii)."""
    from tribune_env.engine.serialize import state_to_json

    doc = _mid_expansion_game(5, 200).to_json()
    declared = {f.json for f in FIELDS if f.json is not None and not f.brutii}
    assert set(doc) == declared | {"format", "version"}
    assert doc["version"] == 2 and doc["config"]["expansion"] is True
    state = _mid_expansion_game(5, 200).position()
    assert set(state_to_json(state, events=False)) == declared - {"events"} | {"format", "version"}
    for player in doc["players"]:
        assert {"patrons", "emperor_tiles"} <= set(player)


def test_brutii_json_writes_exactly_the_declared_keys() -> None:
    """R42-R54: a document of a game with the Brutii writes every declared key, the Brutii's included, in the
    declared order; its config says so."""
    from tribune_env.engine.serialize import state_to_json
    from tribune_env.engine.state import json_keys

    game = random_game(5, 5, 200, brutii=True)
    doc = game.to_json()
    declared = {f.json for f in FIELDS if f.json is not None}
    assert set(doc) == declared | {"format", "version"}
    assert list(doc)[2:] == list(json_keys(expansion=True, brutii=True))
    assert doc["version"] == 2 and doc["config"]["brutii"] is True and "brutii_seat" in doc["config"]
    assert doc["brutii"]["seat"] == game.position().brutii
    assert set(state_to_json(game.position(), events=False)) == declared - {"events"} | {"format", "version"}
    brutii_keys = {f.json for f in FIELDS if f.brutii}
    assert brutii_keys == {"brutii"} and not brutii_keys & set(_mid_expansion_game(5, 200).to_json())


def test_base_json_has_no_expansion_keys() -> None:
    doc = _mid_game(5, 120).to_json()
    assert doc["version"] == 1 and "expansion" not in doc["config"]
    assert all("patrons" not in p and "emperor_tiles" not in p for p in doc["players"])
    assert not {f.json for f in FIELDS if f.expansion} & set(doc)


def test_expansion_clone_copies_the_expansion_fields() -> None:
    state = _mid_expansion_game(7, 300).position()
    other = state.clone()
    for f in FIELDS:
        if f.expansion and f.copy is not Copy.SHARED:
            assert getattr(state, f.name) == getattr(other, f.name)
            assert getattr(state, f.name) is not getattr(other, f.name), f.name
    other.players[0].emperor_tiles.append(99)
    assert 99 not in state.players[0].emperor_tiles


def test_every_declared_key_has_exactly_one_writer_and_is_read() -> None:
    """The document writer is driven by the declaration: one codec per declared key, none besides; the reader
    accepts exactly the declared keys."""
    from tribune_env.engine import serialize
    from tribune_env.engine.state import json_keys

    assert set(serialize._WRITERS) == set(json_keys(expansion=True, brutii=True))
    assert serialize._TOP_KEYS == {"format", "version", *json_keys(expansion=False)}
    assert serialize._EXPANSION_TOP_KEYS == {"format", "version", *json_keys(expansion=True)}
    assert serialize._BRUTII_TOP_KEYS == {"format", "version", *json_keys(expansion=True, brutii=True)}
    assert list(_mid_game(5, 120).to_json())[2:] == list(json_keys(expansion=False))
