"""The trained agent shipped in the package (agents/models/ppo-4p.npz) loads, fits the current game and plays.

If the observation layout or the action table changes, the first test fails: the shipped model must then be
retrained (configs/ppo-4p.yaml), because it would no longer read the observations it was trained on.
"""

from __future__ import annotations

from agents.ppo import SHIPPED, check_fits, load_policy, read_checkpoint_meta
from agents.specs import make_agent
from training.config import config_from_dict
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig


def test_the_shipped_model_fits_the_current_game() -> None:
    assert SHIPPED.is_file()
    assert SHIPPED.stat().st_size < 4 * 2**20  # small enough to ship
    policy = load_policy(SHIPPED)
    for players in (2, 3, 4, 5):  # the spaces are the same for every player count
        check_fits(policy, GameConfig(players=players))


def test_the_shipped_model_says_how_it_was_made() -> None:
    meta = read_checkpoint_meta(SHIPPED)
    assert meta["timesteps"] > 0
    assert meta["code"]["commit"]
    config = config_from_dict(meta["config"], str(SHIPPED))
    assert config.name == "ppo-4p" and config.env.players == 4


def test_the_shipped_model_plays_tournament_games(tmp_path: object) -> None:
    definition = TournamentDefinition.create(specs=("ppo", "heuristic", "random", "heuristic"), games=4, seed=3)
    records = run_tournament(definition, f"{tmp_path}/shipped.sqlite", workers=1, progress=False)
    assert len(records) == 4 and all(r.forfeit is None for r in records)
    agent = make_agent("ppo:deterministic=false", seed=1)
    assert agent.spec == "ppo:deterministic=false"
