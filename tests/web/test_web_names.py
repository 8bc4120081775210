"""Names, not ids, in what the web page shows (issue 38, item 4): every text of a game's state that a person reads
(the decision, the players, the victory card, the table, the log, what changed, the result) holds no internal id of
the component data: no card label (``senators:7``), space label (``faction:gladiators:1``), region or faction key
with an underscore (``field_of_mars``), victory card id (``card_d``) or bracketed kind (``[card_placement]``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tribune_arena.human.web.app import create_app
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game

pytestmark = pytest.mark.web

SKIP = {"id", "board", "label", "fill", "ink", "where", "key", "rules", "kind", "action", "targets", "colours",
        "seat_keys", "group_id", "replay_url"}  # fmt: skip
"""Keys whose values are for the page's code, not for people (the drawn board is checked by its own tests)."""


def _ids(rules: str) -> set[str]:
    config = GameConfig.for_rules(RuleSet.parse(rules))
    tables = Game.new(config, seed=0).tables
    ids = set(tables.card_label) | {space.label for space in tables.spaces}
    ids |= {card.id for card in config.components.victory_cards}
    return {i for i in ids if ":" in i or "_" in i}


def _texts(value: Any, key: str = "") -> Iterator[str]:
    if key in SKIP:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, key)


@pytest.mark.parametrize(("rules", "players"), [("base", 4), ("expansion", 4), ("brutii", 5)])
def test_what_people_read_has_no_internal_id(rules: str, players: int) -> None:
    app = create_app(None)
    client = app.test_client()
    ids = _ids(rules)
    pattern = re.compile(r"\[[a-z_]+\]|\b[a-z]+_[a-z_]+\b")
    try:
        state = client.post("/api/games", json={"rules": rules, "players": players, "opponents": "random", "seed": 2})
        state = state.get_json()
        seen = 0
        while not state["over"] and seen < 40:
            texts = list(_texts(state))
            found = [t for t in texts if any(i in t for i in ids) or pattern.search(t)]
            assert not found, found[:5]
            decision = state["decision"]
            body = {"bid": decision["bid"]["min"]} if decision["bid"] else {"choice": len(decision["choices"]) // 2}
            state = client.post(f"/api/games/{state['id']}/action", json=body).get_json()
            seen += 1
    finally:
        app.extensions["tribune_games"].close()
