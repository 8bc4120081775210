"""A tournament definition writes the game's options through config_to_dict, their one writer (issue 36)."""

from __future__ import annotations

from typing import Any

import pytest

from tribune_arena.tournament import schedule
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig, config_to_dict

CASES: list[dict[str, Any]] = [
    {},
    {"expansion": True},
    {"brutii": True, "players": 5},
    {"brutii": True, "players": 6, "brutii_seat": 2},
    {"players": 3, "point_variant": True, "round_limit": 7},
]


@pytest.mark.parametrize("options", CASES)
def test_the_stored_form_takes_the_options_from_config_to_dict(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    definition = TournamentDefinition.create(("random", "heuristic") * 3, games=4, time_limit=None, **options)
    seen: list[GameConfig] = []

    def spy(config: GameConfig) -> dict[str, Any]:
        seen.append(config)
        return config_to_dict(config)

    monkeypatch.setattr(schedule, "config_to_dict", spy)
    doc = definition.to_dict()
    assert seen == [definition.game]
    written = config_to_dict(definition.game)
    for name in ("players", "victory_card", "point_variant", "round_limit"):
        assert doc[name] == written[name]
    assert TournamentDefinition.from_dict(doc) == definition


def test_the_stored_form_is_unchanged() -> None:
    """Results files written before keep resuming: the keys and their order are those of the earlier form."""
    definition = TournamentDefinition.create(("random", "heuristic") * 3, players=6, brutii=True, brutii_seat=2)
    assert list(definition.to_dict()) == [
        "specs", "players", "games", "seed", "victory_card", "point_variant", "round_limit", "time_limit", "expansion",
        "brutii", "brutii_seat",
    ]  # fmt: skip
