"""The shipped Brutii agent (agents/models/ppo-expansion-brutii.npz, spec ``ppo-brutii``): one network for both roles
of the Brutii variant (R42-R54). It fits the expansion spaces with and without the Brutii, says how it was made (the
expansion agent fine-tuned on 5-seat Brutii games), and plays tournament games in both roles at 5 and 6 seats.

If the expansion observation layout or action table changes, the first test fails: the model must then be retrained
(configs/ppo-expansion-brutii.yaml)."""

from __future__ import annotations

import pytest

from agents.ppo import SHIPPED_BRUTII, check_fits, load_policy, read_checkpoint_meta, trained_on_expansion
from agents.specs import make_agent
from training.config import config_from_dict
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig


def test_the_shipped_brutii_model_fits_the_expansion_spaces() -> None:
    assert SHIPPED_BRUTII.is_file()
    assert SHIPPED_BRUTII.stat().st_size < 4 * 2**20  # small enough to ship
    policy = load_policy(SHIPPED_BRUTII)
    assert trained_on_expansion(policy)
    for players in (5, 6):
        check_fits(policy, GameConfig(players=players, expansion=True, brutii=True))
    for players in (2, 4, 5):
        check_fits(policy, GameConfig(players=players, expansion=True))


def test_the_shipped_brutii_model_says_how_it_was_made() -> None:
    meta = read_checkpoint_meta(SHIPPED_BRUTII)
    assert meta["timesteps"] > 0 and meta["space"] == "expansion"
    assert meta["code"]["commit"]
    assert meta["game"]["brutii"] is True and meta["game"]["learner_role"] == "any"
    config = config_from_dict(meta["config"], str(SHIPPED_BRUTII))
    assert config.name == "ppo-expansion-brutii" and config.env.brutii and config.env.players == 5
    assert config.run.init_from  # fine-tuned from the expansion agent


@pytest.mark.parametrize("players", [5, 6])
def test_the_shipped_brutii_model_plays_both_roles(tmp_path: object, players: int) -> None:
    specs = ("ppo-brutii", *["heuristic"] * (players - 1))
    definition = TournamentDefinition.create(specs, players=players, games=players, seed=3, brutii=True)
    records = run_tournament(definition, f"{tmp_path}/brutii.sqlite", workers=1, progress=False)
    assert records and all(r.forfeit is None for r in records)
    results = summarize(records, 3).roles
    assert results is not None
    roles = {(e.spec, e.role): e.games for e in results.entries}
    assert roles[("ppo-brutii", "brutii")] >= 1 and roles[("ppo-brutii", "family")] >= 1
    agent = make_agent("ppo-brutii:deterministic=false", seed=1)
    assert agent.plays_brutii and agent.spec == "ppo-brutii:deterministic=false"
