"""Ray RLlib: the multi-agent environment, the masking module and its export, the `backend: rllib` training run,
and the RLlib recipe (issue 18).

The environment tests need no running Ray; the training tests start a local instance once (module fixture).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from paths import ROOT

from agents.ppo import NumpyPolicy, load_policy, signature_for
from training.config import ConfigError, config_from_dict
from tribune_env import GameConfig
from tribune_env.envs.table import IllegalMoveError

if TYPE_CHECKING:
    from tribune_env.integrations.rllib import TribuneMultiAgentEnv, TribuneTorchModule


pytestmark = pytest.mark.rllib  # every test here; RLlib and torch are imported by the tests, so collecting stays cheap


def _play(env: TribuneMultiAgentEnv, seed: int, rng: np.random.Generator) -> dict[str, Any]:
    """A whole masked random game; checks the turn protocol at every step and returns what it saw."""
    from tribune_env.integrations.rllib import MASK_KEY, OBS_KEY

    obs, infos = env.reset(seed=seed)
    totals: dict[str, float] = {}
    steps = 0
    while True:
        assert len(obs) >= 1
        (agent,) = obs if len(obs) == 1 else (None,)
        assert agent is not None, f"mid-game observations for several agents: {sorted(obs)}"
        seat = env.possible_agents.index(agent)
        assert env.table.game.current_seat == seat
        mask = obs[agent][MASK_KEY]
        assert obs[agent][OBS_KEY].shape == env.observation_spaces[agent][OBS_KEY].shape
        assert env.observation_spaces[agent].contains(obs[agent])
        legal = np.flatnonzero(mask)
        assert sorted(legal.tolist()) == sorted(env.table.legal_indices(seat))
        obs, rewards, terminated, truncated, infos = env.step({agent: int(rng.choice(legal))})
        steps += 1
        for a, r in rewards.items():
            totals[a] = totals.get(a, 0.0) + r
        if terminated["__all__"] or truncated["__all__"]:
            return {"totals": totals, "obs": obs, "infos": infos, "steps": steps, "truncated": truncated["__all__"]}


def test_random_games_follow_the_turn_protocol_and_pay_the_final_result() -> None:
    """Only the seat to act is observed, masks are the legal choices, and at the end every seat gets its obs and
    the win_loss result (1 to the winners, else 0 or -1 under the scheme) exactly once."""
    from tribune_env.integrations.rllib import TribuneMultiAgentEnv

    env = TribuneMultiAgentEnv({"players": 4, "round_limit": 12})
    rng = np.random.default_rng(0)
    for seed in range(3):
        seen = _play(env, seed, rng)
        assert set(seen["obs"]) == set(env.possible_agents)
        game = env.table.game
        expected = dict(zip(env.possible_agents, env.table.rewards(), strict=True))
        assert seen["totals"] == pytest.approx(expected)
        assert seen["infos"]["player_0"]["winners"] == list(game.winners)
        assert seen["truncated"] == game.truncated


def test_dense_reward_sums_to_the_score_change_and_the_result() -> None:
    from tribune_env.integrations.rllib import TribuneMultiAgentEnv

    env = TribuneMultiAgentEnv({"players": 3, "round_limit": 6, "reward": "dense"})
    seen = _play(env, 5, np.random.default_rng(5))
    assert any(abs(v) > 0 for v in seen["totals"].values())
    final = dict(zip(env.possible_agents, env.table.rewards(), strict=True))
    scale = float(env.table.encoder.scales.score)
    scores = env.table.game.scores()
    start = TribuneMultiAgentEnv({"players": 3, "round_limit": 6, "reward": "dense"})
    start.reset(seed=5)  # the same game, before its first move (no inside seats: nothing played yet)
    for seat, agent in enumerate(env.possible_agents):
        # the dense part of a seat's total is its score at the end minus at the start, over the scale
        dense = seen["totals"][agent] - final[agent]
        assert dense == pytest.approx((scores[seat] - start.table.game.scores()[seat]) / scale, abs=1e-6)


def test_illegal_actions_penalty_repeat_penalty_end_and_raise() -> None:
    from tribune_env.integrations.rllib import MASK_KEY, TribuneMultiAgentEnv

    env = TribuneMultiAgentEnv({"players": 4, "illegal_penalty": -2.0})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    illegal = int(np.flatnonzero(obs[agent][MASK_KEY] == 0)[0])
    before = env.table.game.position().clock
    obs2, rewards, terminated, _, infos = env.step({agent: illegal})
    assert list(obs2) == [agent] and rewards == {agent: -2.0} and not terminated["__all__"]
    assert "illegal_action" in infos[agent] and env.table.game.position().clock == before

    ending = TribuneMultiAgentEnv({"players": 4, "illegal_action": "penalty_end"})
    obs, _ = ending.reset(seed=1)
    (agent,) = obs
    _, rewards, terminated, _, _ = ending.step({agent: illegal})
    assert terminated["__all__"] and rewards[agent] == -1.0

    strict = TribuneMultiAgentEnv({"players": 4, "illegal_action": "raise"})
    obs, _ = strict.reset(seed=1)
    (agent,) = obs
    with pytest.raises(IllegalMoveError, match="not a legal choice"):
        strict.step({agent: illegal})
    with pytest.raises(ValueError, match="is to act"):
        strict.step({"nobody": 0})


@pytest.mark.parametrize("bad", [{"player": 4}, {"illegal_action": "ignore"}, {"illegal_penalty": "x"}])
def test_bad_options_are_named(bad: dict[str, Any]) -> None:
    from tribune_env.integrations.rllib import TribuneMultiAgentEnv

    with pytest.raises(ValueError, match=next(iter(bad)).split("_")[0]):
        TribuneMultiAgentEnv(bad)


def test_rllibs_own_environment_check_passes() -> None:
    """RLlib's check steps unmasked random actions: the default penalty mode lets it through (it raised before)."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from tribune_env.integrations.rllib import TribuneMultiAgentEnv

    check_multiagent_environments(TribuneMultiAgentEnv({"players": 4}))
    check_multiagent_environments(TribuneMultiAgentEnv({"players": 5, "expansion": True, "brutii": True}))


def _module(obs_size: int, n: int, activation: str = "tanh") -> TribuneTorchModule:
    from gymnasium import spaces

    from tribune_env.integrations.rllib import MASK_KEY, OBS_KEY, TribuneTorchModule, module_spec

    space = spaces.Dict(
        {OBS_KEY: spaces.Box(0.0, 1.0, (obs_size,), np.float32), MASK_KEY: spaces.Box(0.0, 1.0, (n,), np.float32)}
    )
    module = module_spec(space, spaces.Discrete(n), pi=[32, 16], vf=[8], activation=activation).build()
    assert isinstance(module, TribuneTorchModule)
    return module


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_exported_policy_computes_what_the_module_computes(tmp_path: Path, activation: str) -> None:
    import torch

    from training.rllib_export import export_module
    from tribune_env.integrations.rllib import MASK_KEY, OBS_KEY

    config = GameConfig(players=4)
    signature = signature_for(config)
    size, n = signature["observation"]["size"], signature["actions"]["n"]
    module = _module(size, n, activation)
    meta = {
        "format": "tribune-ppo/1",
        "signature": signature,
        "space": "base",
        "net": {"pi": [32, 16], "vf": [8], "activation": activation},
    }
    path = export_module(module, meta, tmp_path / "p.npz")
    policy = NumpyPolicy.from_file(path)
    rng = np.random.default_rng(0)
    obs = rng.random((5, size), dtype=np.float32)
    mask = (rng.random((5, n)) < 0.3).astype(np.float32)
    mask[:, 0] = 1.0
    with torch.no_grad():
        batch = {"obs": {OBS_KEY: torch.from_numpy(obs), MASK_KEY: torch.from_numpy(mask)}}
        out = module.forward_inference(batch)["action_dist_inputs"].numpy()
        values = module.compute_values(batch).numpy()
    logits = policy.logits(obs)
    assert np.allclose(out[mask > 0.5], logits[mask > 0.5], atol=1e-5)
    assert (out[mask < 0.5] < -1e30).all(), "illegal logits must be pushed to the floor"
    assert np.allclose(values, policy.value(obs), atol=1e-5)
    assert load_policy(path, config).n_actions == n


def test_export_refuses_a_network_that_does_not_match_the_metadata(tmp_path: Path) -> None:
    from agents.ppo import CheckpointError
    from training.rllib_export import export_module

    signature = signature_for(GameConfig(players=4))
    module = _module(signature["observation"]["size"], signature["actions"]["n"])
    meta = {"format": "tribune-ppo/1", "signature": signature, "net": {"pi": [64], "vf": [8], "activation": "tanh"}}
    with pytest.raises(CheckpointError):
        export_module(module, meta, tmp_path / "p.npz")
    assert not (tmp_path / "p.npz").exists()


# -- the league environment and the config ----------------------------------------------------------------


def _train_config(**sections: Any) -> Any:
    data: dict[str, Any] = {"backend": "rllib", "env": {"players": 4, "round_limit": 8}}
    data.update(sections)
    return config_from_dict(data)


def test_league_env_maps_self_seats_to_rllib_and_plays_the_rest_inside() -> None:
    from training.rllib_env import LeagueMultiAgentEnv

    solo = LeagueMultiAgentEnv({"train": _train_config(opponents={"mix": {"random": 1.0}}).resolved()})
    mixed = LeagueMultiAgentEnv({"train": _train_config(opponents={"mix": {"random": 1.0, "self": 1.0}}).resolved()})
    everyone = LeagueMultiAgentEnv({"train": _train_config(opponents={"mix": {"self": 1.0}}).resolved()})
    rng = np.random.default_rng(3)
    counts = []
    for env in (solo, mixed, everyone):
        sizes = set()
        for seed in range(6):
            seen = _play(env, seed, rng)
            sizes.add(len(env.agents))
            assert set(seen["obs"]) == set(env.agents)
        counts.append(sizes)
    assert counts[0] == {1} and counts[2] == {4} and len(counts[1]) > 1


def test_league_env_gives_the_learner_the_brutii_role() -> None:
    from training.rllib_env import LeagueMultiAgentEnv

    data = {
        "backend": "rllib",
        "env": {"players": 5, "expansion": True, "brutii": True, "learner_role": "brutii"},
        "opponents": {"mix": {"random": 1.0}},
    }
    env = LeagueMultiAgentEnv({"train": config_from_dict(data).resolved()})
    for seed in range(4):
        env.reset(seed=seed)
        assert env.agents == [f"player_{env.table.game.brutii_seat}"]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"backend": "rllib", "pretrain": {"enabled": True}}, "pretrain.enabled"),
        ({"backend": "rllib", "run": {"init_from": "x.zip"}}, "run.init_from"),
        ({"opponents": {"mix": {"self": 1.0}}}, "opponents.mix.self"),
        ({"backend": "tf"}, "backend"),
        ({"backend": "rllib", "ray": {"env_runners": -1}}, "ray.env_runners"),
        ({"backend": "rllib", "ray": {"envs_per_env_runner": 0}}, "ray.envs_per_env_runner"),
        ({"backend": "rllib", "ray": {"adress": "auto"}}, "ray.adress"),
    ],
)
def test_config_names_what_the_rllib_backend_cannot_do(data: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config_from_dict(data)


# -- training runs (a local Ray instance) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Any:
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_tribune_train_with_the_rllib_backend_trains_resumes_and_exports(tmp_path: Path, local_ray: Any) -> None:
    from tribune_cli.main import main

    config = _write(
        tmp_path / "rl.yaml",
        f"""
name: rl
backend: rllib
output: {tmp_path / "runs"}
env: {{players: 4, round_limit: 10}}
opponents: {{mix: {{random: 1.0, self: 0.5}}}}
league: {{enabled: true, snapshot_every: 128, pool_size: 2, schedule: [[0.0, 0.5]]}}
ppo: {{n_steps: 128, batch_size: 64, n_epochs: 1, net_pi: [32], net_vf: [32]}}
eval: {{every: 256, games: 4, opponents: [random], workers: 1}}
run: {{total_timesteps: 256, checkpoint_every: 128, keep_checkpoints: 1, progress_bar: false, torch_threads: 1}}
ray: {{env_runners: 0}}
""",
    )
    assert main(["train", str(config)]) == 0
    run = tmp_path / "runs" / "rl"
    final = run / "final.npz"
    assert load_policy(final, GameConfig(players=4, round_limit=10)).meta["net"]["pi"] == [32]
    checkpoints = sorted((run / "checkpoints").glob("step-*.rllib"))
    assert len(checkpoints) == 1, "keep_checkpoints: 1 prunes the older folder"
    assert json.loads((checkpoints[0] / "tribune.json").read_text())["timesteps"] >= 256
    assert json.loads((run / "pool.json").read_text()), "league snapshots join the pool"
    rows = (run / "eval.csv").read_text().splitlines()
    assert len(rows) >= 3 and rows[1].startswith("0,random")
    assert (run / "logs" / "progress.csv").read_text().count("\n") >= 2
    # a second start is refused; --resume goes on from the newest checkpoint
    assert main(["train", str(config)]) == 2
    assert main(["train", str(config), "--resume", "--set", "run.total_timesteps=384"]) == 0
    assert int(json.loads((run / "final.json").read_text())["timesteps"]) >= 384
    # the export of a checkpoint folder is an ordinary policy, and plays as ppo:PATH
    out = tmp_path / "exported.npz"
    assert main(["train", "--export", str(sorted((run / "checkpoints").glob("step-*.rllib"))[-1]), str(out)]) == 0
    store = tmp_path / "t.sqlite"
    assert (
        main(
            [
                "tournament",
                f"ppo:{out}",
                "random",
                "random",
                "random",
                "--games",
                "4",
                "--workers",
                "1",
                "--round-limit",
                "10",
                "--results",
                str(store),
            ]
        )
        == 0
    )


@pytest.mark.slow
def test_rllib_recipe_runs(tmp_path: Path, local_ray: Any) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("rllib_ppo", ROOT / "examples" / "rllib_ppo.py")
    assert spec is not None and spec.loader is not None
    recipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe)
    summary = recipe.main(
        [
            "--iterations",
            "1",
            "--batch",
            "300",
            "--env-runners",
            "0",
            "--export",
            str(tmp_path / "shared.npz"),
            "--games",
            "2",
        ]
    )
    assert summary["steps"] >= 300 and summary["games"] >= 2  # whole seat rotations
    assert load_policy(tmp_path / "shared.npz", GameConfig(players=4)).n_actions > 0


@pytest.mark.slow
def test_an_illegal_move_inside_a_ray_worker_arrives_as_itself(local_ray: Any) -> None:
    """Ray re-creates a task's exception class on the caller's side; ours must survive that (it used to arrive as
    ``TypeError: IllegalMoveError.__init__() missing 2 required positional arguments``)."""
    from tribune_env.integrations.rllib import MASK_KEY, TribuneMultiAgentEnv

    @local_ray.remote
    def illegal_step() -> None:
        env = TribuneMultiAgentEnv({"players": 4, "illegal_action": "raise"})
        obs, _ = env.reset(seed=1)
        (agent,) = obs
        env.step({agent: int(np.flatnonzero(obs[agent][MASK_KEY] == 0)[0])})

    with pytest.raises(IllegalMoveError, match="not a legal choice"):
        local_ray.get(illegal_step.remote())
