"""The shipped expansion agent (agents/models/ppo-expansion-4p.npz, spec ``ppo-expansion``) loads, fits the expansion
spaces at every seat count and both rule sets, says how it was made, and plays tournament games.

If the expansion observation layout or action table changes, the first test fails: the model must then be retrained
(configs/ppo-expansion-4p.yaml)."""

from __future__ import annotations

from agents.ppo import SHIPPED_EXPANSION, check_fits, load_policy, read_checkpoint_meta, trained_on_expansion
from agents.specs import make_agent
from training.config import config_from_dict
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig


def test_the_shipped_expansion_model_fits_the_expansion_spaces() -> None:
    assert SHIPPED_EXPANSION.is_file()
    assert SHIPPED_EXPANSION.stat().st_size < 4 * 2**20  # small enough to ship
    policy = load_policy(SHIPPED_EXPANSION)
    assert trained_on_expansion(policy)
    for players in (2, 3, 4, 5):
        for expansion in (True, False):
            check_fits(policy, GameConfig(players=players, expansion=expansion))


def test_the_shipped_expansion_model_says_how_it_was_made() -> None:
    meta = read_checkpoint_meta(SHIPPED_EXPANSION)
    assert meta["timesteps"] > 0 and meta["space"] == "expansion"
    assert meta["code"]["commit"]
    config = config_from_dict(meta["config"], str(SHIPPED_EXPANSION))
    assert config.name == "ppo-expansion-4p" and config.env.players == 4 and config.env.expansion


def test_the_shipped_expansion_model_plays_tournament_games(tmp_path: object) -> None:
    definition = TournamentDefinition.create(
        specs=("ppo-expansion", "heuristic", "random", "heuristic"), games=4, seed=3, expansion=True
    )
    records = run_tournament(definition, f"{tmp_path}/shipped.sqlite", workers=1, progress=False)
    assert len(records) == 4 and all(r.forfeit is None for r in records)
    agent = make_agent("ppo-expansion:deterministic=false", seed=1)
    assert agent.plays_expansion and agent.spec == "ppo-expansion:deterministic=false"
