"""The ``ppo`` agent on the expansion spaces: a policy trained in ``TribuneExpansionSingle-v0`` plays expansion
games and base games, a base policy refuses expansion games with a clear message, and the ``ppo-expansion`` spec
names its file when it is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from agent_games import play_game
from paths import ROOT

import agents.ppo as ppo
from agents import AgentError, make_agent
from agents.ppo import FORMAT, CheckpointError, load_policy, signature_for, trained_on_expansion, write_checkpoint_meta
from tribune_env import GameConfig
from tribune_env.envs.single import TribuneExpansionSingleEnv, TribuneSingleEnv

pytestmark = pytest.mark.train

PI, VF = [16, 16], [16]


def _train(env: Any, path: Path, expansion: bool) -> Path:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=32,
        n_epochs=1,
        policy_kwargs={"net_arch": {"pi": PI, "vf": VF}},
        seed=1,
        device="cpu",
    )
    model.learn(64)
    model.save(path)
    meta = {
        "format": FORMAT,
        "signature": signature_for(GameConfig(players=4, expansion=expansion)),
        "space": "expansion" if expansion else "base",
        "net": {"pi": PI, "vf": VF, "activation": "tanh"},
    }
    write_checkpoint_meta(path, meta)
    return path


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    import torch

    root = tmp_path_factory.mktemp("ppo-expansion")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return {
            "expansion": _train(TribuneExpansionSingleEnv(players=4), root / "expansion.zip", True),
            "base": _train(TribuneSingleEnv(players=4), root / "base.zip", False),
        }
    finally:
        torch.set_num_threads(threads)


def test_the_signature_and_space_of_an_expansion_policy(models: dict[str, Path]) -> None:
    policy = load_policy(models["expansion"])
    assert trained_on_expansion(policy)
    assert not trained_on_expansion(load_policy(models["base"]))
    assert policy.n_actions == TribuneExpansionSingleEnv(players=2).action_space.n


@pytest.mark.parametrize("expansion", [True, False])
def test_an_expansion_policy_plays_whole_games_of_either_rule_set(models: dict[str, Path], expansion: bool) -> None:
    spec = f"ppo:{models['expansion']}"
    game, _ = play_game([spec, "random", "random", "random"], 3, expansion=expansion)
    assert game.is_over and game.config.expansion is expansion


def test_an_expansion_policy_plays_three_players_too(models: dict[str, Path]) -> None:
    game, _ = play_game([f"ppo:{models['expansion']}", "random", "random"], 4, expansion=True)
    assert game.is_over


def test_a_base_policy_refuses_expansion_games(models: dict[str, Path]) -> None:
    agent = make_agent(f"ppo:{models['base']}", seed=0)
    with pytest.raises(AgentError, match="expansion"):
        agent.reset(0, GameConfig(players=4, expansion=True), seed=0)
    with pytest.raises(CheckpointError, match="trained on base games"):
        ppo.check_fits(load_policy(models["base"]), GameConfig(players=4, expansion=True))
    agent.reset(0, GameConfig(players=4), seed=0)  # base games still work


def test_the_expansion_spec_names_a_missing_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = tmp_path / "nothing.npz"
    monkeypatch.setattr(ppo, "SHIPPED_EXPANSION", missing)
    with pytest.raises(AgentError, match=str(missing)):
        make_agent("ppo-expansion")
    with pytest.raises(AgentError, match="ppo-expansion"):
        make_agent("ppo-expansion:depth=3")


def test_the_expansion_spec_loads_the_shipped_file(
    monkeypatch: pytest.MonkeyPatch, models: dict[str, Path], tmp_path: Path
) -> None:
    exported = ppo.export_policy(models["expansion"], tmp_path / "ppo-expansion-4p.npz")
    monkeypatch.setattr(ppo, "SHIPPED_EXPANSION", exported)
    agent = make_agent("ppo-expansion", seed=2)
    assert agent.plays_expansion
    game, _ = play_game(["ppo-expansion", "random", "random", "random"], 5, expansion=True)
    assert game.is_over
    obs = TribuneExpansionSingleEnv(players=4).reset(seed=0)[0]
    assert np.isfinite(load_policy(exported).logits(obs)).all()


@pytest.mark.slow
def test_a_training_run_on_the_expansion(tmp_path: Path) -> None:
    """`tribune train` with env.expansion: imitation, PPO, self-play snapshots and evaluation on expansion games; the
    checkpoint records the expansion space and plays as an agent."""
    from training_runs import quiet

    from training.config import load_config
    from training.trainer import train

    root = ROOT
    overrides = {
        "output": str(tmp_path),
        "run.total_timesteps": 512,
        "env.expansion": True,
        "opponents.mix": {"random": 1.0},
        "pretrain.teacher": "random",
    }
    config = load_config(root / "configs" / "smoke.yaml", overrides)
    train(config, console=quiet())
    run = tmp_path / "smoke"
    final = next(run.glob("final.zip"))
    policy = load_policy(final)
    assert trained_on_expansion(policy)
    game, _ = play_game([f"ppo:{final}", "random", "random", "random"], 1, expansion=True)
    assert game.is_over


def test_expansion_runs_refuse_agents_that_do_not_play_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agents import specs
    from agents.base import Agent
    from training.config import ConfigError, load_config

    class BaseOnly(Agent):
        name = "baseonly-train"

        def act(self, view: Any, legal: Any, info: Any = None) -> Any:
            return legal[0]

    monkeypatch.setitem(specs._FACTORIES, "baseonly-train", lambda params, seed: BaseOnly(seed))
    root = ROOT
    mix = {"random": 1.0, "baseonly-train": 1.0}
    smoke = root / "configs" / "smoke.yaml"
    with pytest.raises(ConfigError, match="baseonly-train' does not play expansion games"):
        load_config(smoke, {"output": str(tmp_path), "env.expansion": True, "opponents.mix": mix})
    load_config(smoke, {"output": str(tmp_path), "opponents.mix": mix})  # base runs may use it
