"""The round limit has one bound, owned by GameConfig (issue 36): what a config accepts, its saved game reads back."""

from __future__ import annotations

import pytest

from tribune_env import Game, GameConfig
from tribune_env.engine import config, serialize
from tribune_env.engine.errors import InvalidStateError


def test_a_config_past_the_bound_is_refused() -> None:
    words = rf"round_limit: must be <= {config.MAX_ROUND_LIMIT} \(a saved game's most\), got 5000"
    with pytest.raises(ValueError, match=words):
        GameConfig(round_limit=5000)


def test_a_game_at_the_bound_is_saved_and_read_back() -> None:
    game = Game.new(GameConfig(round_limit=config.MAX_ROUND_LIMIT), seed=1)
    game.apply(game.legal_actions()[0])
    again = Game.from_json(game.to_json())
    assert again.config.round_limit == config.MAX_ROUND_LIMIT


def test_the_document_reader_uses_the_same_bound() -> None:
    assert serialize.MAX_ROUND_LIMIT is config.MAX_ROUND_LIMIT
    doc = Game.new(GameConfig(round_limit=3), seed=1).to_json()
    doc["config"]["round_limit"] = config.MAX_ROUND_LIMIT + 1
    with pytest.raises(InvalidStateError, match=r"config\.round_limit"):
        Game.from_json(doc)
