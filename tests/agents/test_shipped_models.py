"""The trained agents shipped in the package load, fit the current game, say how they were made and play.

- ``ppo`` (agents/models/ppo-4p.npz): the base game, every player count.
- ``ppo-expansion`` (agents/models/ppo-expansion-4p.npz): the expansion spaces at every seat count and both rule sets.
- ``ppo-brutii`` (agents/models/ppo-expansion-brutii.npz): one network for both roles of the Brutii variant
  (R42-R54), the expansion agent fine-tuned on 5-seat Brutii games; it plays both roles at 5 and 6 seats.
- ``zero-net`` (agents/models/zero-4p.npz, agents/models/zero-expansion-4p.npz): in base games a pool-trained network
  (imitation of heuristic, then configs/ppo-pool-4p.yaml, then configs/ppo-pool-4p-tables.yaml against the real
  heuristic); in expansion games ``ppo-expansion`` trained on against three heuristics
  (configs/ppo-expansion-4p-finetune.yaml, then configs/ppo-pool-expansion-4p-tables.yaml); the ``zero`` search uses
  them too (the Brutii variant: the ``ppo-brutii`` network).

If an observation layout or an action table changes, the "fits" test fails: the model must then be retrained
(``configs/<name>.yaml``), because it would no longer read the observations it was trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agents.ppo import (
    SHIPPED,
    SHIPPED_BRUTII,
    SHIPPED_EXPANSION,
    check_fits,
    load_policy,
    read_checkpoint_meta,
    trained_on_expansion,
)
from agents.specs import make_agent
from agents.zero import ZERO_MODELS, ZeroAgent, shipped_network
from training.config import config_from_dict
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig, RuleSet


@dataclass(frozen=True)
class Shipped:
    """A shipped model: its file, spec, training config and the games it must fit."""

    config: str  # the training config's name (configs/<config>.yaml)
    path: Path
    spec: str
    rules: RuleSet  # the rule set it was trained for
    players: int  # the player count it was trained at
    fits: tuple[GameConfig, ...]
    space: str | None  # the checkpoint's "space" entry (None: the base spaces, in files older than the entry)
    fine_tuned: bool  # trained on from another checkpoint (run.init_from)


MODELS = [
    Shipped("ppo-4p", SHIPPED, "ppo", RuleSet.BASE, 4, tuple(GameConfig(players=p) for p in (2, 3, 4, 5)), None, False),
    Shipped(
        "ppo-expansion-4p",
        SHIPPED_EXPANSION,
        "ppo-expansion",
        RuleSet.EXPANSION,
        4,
        tuple(GameConfig(players=p, expansion=e) for p in (2, 3, 4, 5) for e in (True, False)),
        "expansion",
        False,
    ),
    Shipped(
        "ppo-expansion-brutii",
        SHIPPED_BRUTII,
        "ppo-brutii",
        RuleSet.BRUTII,
        5,
        (
            *(GameConfig(players=p, expansion=True, brutii=True) for p in (5, 6)),
            *(GameConfig(players=p, expansion=True) for p in (2, 4, 5)),
        ),
        "expansion",
        True,
    ),
    Shipped(
        "ppo-pool-4p-tables",
        ZERO_MODELS[RuleSet.BASE],
        "zero-net",
        RuleSet.BASE,
        4,
        tuple(GameConfig(players=p) for p in (2, 3, 4, 5)),
        "base",  # checkpoints name their space since the expansion spaces came
        True,
    ),
    Shipped(
        "ppo-pool-expansion-4p-tables",
        ZERO_MODELS[RuleSet.EXPANSION],
        "zero-net",
        RuleSet.EXPANSION,
        4,
        tuple(GameConfig(players=p, expansion=e) for p in (2, 3, 4, 5) for e in (True, False)),
        "expansion",
        True,
    ),
]
BY_CONFIG = {model.config: model for model in MODELS}


def test_zero_net_plays_the_shipped_zero_network_where_one_ships() -> None:
    """Base and expansion games: the fine-tuned networks; the Brutii variant falls back to its ``ppo`` network until
    its own ships. The ``zero`` search uses the same networks (it measured stronger with them than with ``ppo``)."""
    assert shipped_network(RuleSet.BASE) == ZERO_MODELS[RuleSet.BASE] != SHIPPED
    assert shipped_network(RuleSet.EXPANSION) == ZERO_MODELS[RuleSet.EXPANSION] != SHIPPED_EXPANSION
    assert shipped_network(RuleSet.BRUTII) == SHIPPED_BRUTII
    search = make_agent("zero", seed=0)
    assert isinstance(search, ZeroAgent)
    assert search._policy_for(GameConfig()).source == str(ZERO_MODELS[RuleSet.BASE])
    assert search._policy_for(GameConfig(expansion=True)).source == str(ZERO_MODELS[RuleSet.EXPANSION])
    assert search._policy_for(GameConfig(brutii=True)).source == str(SHIPPED_BRUTII)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.config)
def test_the_shipped_model_fits_its_spaces(model: Shipped) -> None:
    assert model.path.is_file()
    assert model.path.stat().st_size < 4 * 2**20  # small enough to ship
    policy = load_policy(model.path)
    assert trained_on_expansion(policy) == (model.space == "expansion")
    for config in model.fits:  # the spaces are the same for every player count (and rule set of the space)
        check_fits(policy, config)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.config)
def test_the_shipped_model_says_how_it_was_made(model: Shipped) -> None:
    meta = read_checkpoint_meta(model.path)
    if meta.get("trained_by", "").startswith("tribune train (algorithm: ppo-pool"):
        check_pool_trained(model, meta)
        return
    assert meta["timesteps"] > 0 and meta.get("space") == model.space
    assert meta["code"]["commit"]
    config = config_from_dict(meta["config"], str(model.path))
    assert config.name == model.config and config.env.players == model.players
    assert config.env.expansion == model.rules.uses_expansion and config.env.brutii == model.rules.has_brutii
    assert bool(config.run.init_from) == model.fine_tuned  # the Brutii agent: fine-tuned from the expansion agent


def check_pool_trained(model: Shipped, meta: dict[str, Any]) -> None:
    """A network of the pool trainer (issue 43): its config, minutes, CPUs, device and code, stage by stage."""
    from training.pool.config import load_pool_config

    training = meta["training"]
    assert meta.get("space") == model.space and training["code"]["commit"]
    assert training["minutes"] > 0 and training["cpus"] >= 1 and training["device"]
    config = load_pool_config(Path("configs") / f"{model.config}.yaml")
    assert config.game.players == model.players and config.game.rules == model.rules
    assert bool(training["init_from"]) == model.fine_tuned
    stages = training.get("lineage", [])
    assert all(stage["minutes"] > 0 and stage["cpus"] >= 1 and stage["device"] for stage in stages)
    assert not stages or f"configs/{model.config}.yaml" in stages[-1]["config"]
    assert training["total_minutes"] == pytest.approx(sum(stage["minutes"] for stage in stages), abs=0.01)


def test_the_shipped_brutii_model_learned_both_roles() -> None:
    meta = read_checkpoint_meta(SHIPPED_BRUTII)
    assert meta["game"]["brutii"] is True and meta["game"]["learner_role"] == "any"


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("ppo-4p", 4),
        ("ppo-expansion-4p", 4),
        ("ppo-expansion-brutii", 5),
        ("ppo-expansion-brutii", 6),
        ("ppo-pool-4p-tables", 4),
        ("ppo-pool-expansion-4p-tables", 4),
    ],
)
def test_the_shipped_model_plays_tournament_games(tmp_path: Path, name: str, players: int) -> None:
    """Base and expansion: 4 games against heuristic and random seats; the Brutii: a game per seat against
    heuristic seats, in both roles (R42-R54). ``zero-net`` without a path plays the file of the game's rule set."""
    model = BY_CONFIG[name]
    spec = model.spec
    if model.rules.has_brutii:
        specs: tuple[str, ...] = (spec, *["heuristic"] * (players - 1))
        games = players
    else:
        specs, games = (spec, "heuristic", "random", "heuristic"), 4
    game = GameConfig.for_rules(model.rules, players=players)
    definition = TournamentDefinition.for_config(specs, game, games=games, seed=3)
    records = run_tournament(definition, tmp_path / "shipped.sqlite", workers=1, progress=False)
    assert len(records) == games and all(r.forfeit is None for r in records)
    roles = summarize(records).roles
    if model.rules.has_brutii:
        assert roles is not None
        games_by_role = {(e.spec, e.role): e.games for e in roles.entries}
        assert games_by_role[(spec, "brutii")] >= 1 and games_by_role[(spec, "family")] >= 1
    else:
        assert roles is None
    variant = spec if spec == "zero-net" else f"{spec}:deterministic=false"  # zero-net always plays its favourite
    agent = make_agent(variant, seed=1)
    assert model.rules in agent.rule_sets and agent.spec == variant
