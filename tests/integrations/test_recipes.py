"""The recipes in ``examples/`` run (a few hundred steps each) and do what their docstrings say (issue 18).

Each example's ``main(argv)`` is called in-process with small arguments; its summary is checked against what the
run must have done. The RLlib recipe (``examples/rllib_ppo.py``) is tested with the RLlib backend, not here.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from paths import ROOT

import tribune_env

EXAMPLES = ROOT / "examples"
RECIPES = ["sb3_maskable_ppo", "sb3_batched", "tianshou_multiagent", "supersuit_pipeline"]


def load(name: str) -> ModuleType:
    """An example script as a module (``examples/`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"tribune_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- documentation ----------------------------------------------------------------------


@pytest.mark.parametrize("name", RECIPES)
def test_recipe_documents_its_command(name: str) -> None:
    source = (EXAMPLES / f"{name}.py").read_text(encoding="utf-8")
    docstring = source.split('"""')[1]
    assert f"python examples/{name}.py" in docstring, "the module docstring gives the command to run it"
    assert "def main(argv: Sequence[str] | None = None)" in source


def test_examples_readme_and_the_recipes_page_name_every_recipe() -> None:
    listing = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    page = (ROOT / "docs" / "training" / "recipes.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in EXAMPLES.glob("*.py"):
        assert f"]({path.name})" in listing, f"examples/README.md does not link {path.name}"
    for name in RECIPES:
        assert f"`examples/{name}.py`" in page, f"docs/training/recipes.md does not name examples/{name}.py"
    assert "](docs/training/recipes.md)" in readme, "README.md does not link the recipes page"


# -- Stable-Baselines3 --------------------------------------------------------------------


@pytest.mark.slow
def test_sb3_maskable_ppo_trains_saves_and_evaluates(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    path = tmp_path / "single.zip"
    args = ["--timesteps", "256", "--n-steps", "128", "--eval-games", "1", "--save", str(path)]
    summary = load("sb3_maskable_ppo").main(args)
    assert summary["timesteps"] >= 256 and summary["eval_games"] == 1
    assert 0.0 <= summary["win_rate"] <= 1.0 and summary["mean_length"] > 50  # a whole game was played
    model = MaskablePPO.load(path, device="cpu")
    env = tribune_env.TribuneSingleEnv(players=4, illegal_action="raise")
    obs, info = env.reset(seed=5)
    for _ in range(50):  # the saved model, masked, plays only legal actions (an illegal one would raise)
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert info["action_mask"][int(action)] == 1
        obs, _, terminated, truncated, info = env.step(int(action))
        assert not (terminated or truncated)


@pytest.mark.slow
@pytest.mark.parametrize(("vec", "extra"), [("subproc", []), ("dummy", ["--factory"]), ("batched", [])])
def test_sb3_batched_runs_over_several_envs(vec: str, extra: list[str], tmp_path: Path) -> None:
    """``subproc``: fresh worker processes resolve the module-qualified id (a bare id would kill them)."""
    path = tmp_path / "batched.zip"
    args = ["--vec", vec, "--n-envs", "2", "--timesteps", "256", "--n-steps", "64", "--eval-games", "0"]
    summary = load("sb3_batched").main([*args, *extra, "--save", str(path)])
    assert summary["vec"] == vec and summary["n_envs"] == 2
    assert summary["timesteps"] >= 256 and summary["steps_per_s"] > 0
    assert path.is_file()


# -- Tianshou ----------------------------------------------------------------------------


@pytest.mark.slow
def test_tianshou_multiagent_trains_the_learner_seat() -> None:
    args = ["--steps", "300", "--collect-steps", "100", "--updates", "2", "--batch-size", "16", "--eval-games", "1"]
    summary = load("tianshou_multiagent").main([*args, "--players", "3", "--learner-seat", "1"])
    assert summary["steps"] == 300
    assert summary["updates"] >= 2 and np.isfinite(summary["last_loss"])
    assert 0 < summary["learner_moves"] < 300, "the learner acted on its own turns only"
    assert summary["eval_games"] == 1 and summary["learner_win_rate"] in (0.0, 1.0)


def _play_with(algorithm: Any, env: Any, moves: int) -> set[str]:
    """Step ``env`` (Tianshou's PettingZooEnv) with ``algorithm``'s policy for every seat; return who moved."""
    from tianshou.data import Batch

    obs, _ = env.reset(seed=2)
    movers: set[str] = set()
    for _ in range(moves):
        batch = Batch(
            obs=Batch(obs=obs["obs"][None], mask=np.asarray(obs["mask"])[None], agent_id=np.array([obs["agent_id"]])),
            info=Batch(),
        )
        action = int(algorithm.policy(batch).act[0])
        assert obs["mask"][action], f"{obs['agent_id']} chose the masked action {action}"
        movers.add(obs["agent_id"])
        obs, _, terminated, truncated, _ = env.step(action)  # illegal_action="raise": an illegal one would raise
        assert not (terminated or truncated)
    return movers


@pytest.mark.slow
def test_tianshou_glue_every_seat_plays_legal_moves() -> None:
    from tribune_env.integrations import tianshou as ts_glue

    env = ts_glue.make_env(players=4)
    assert ts_glue.agent_ids(env) == ["player_0", "player_1", "player_2", "player_3"]
    assert ts_glue.observation_space(env).shape == (1669,)
    algorithm = ts_glue.multi_agent_algorithm(env, {"player_2": ts_glue.dqn_algorithm(env, hidden_sizes=(32,))})
    assert _play_with(algorithm, env, 300) == set(ts_glue.agent_ids(env))

    expansion = ts_glue.make_env(expansion=True, players=5, brutii=True)
    assert int(expansion.action_space.n) == 267
    algorithm = ts_glue.multi_agent_algorithm(expansion, {0: ts_glue.dqn_algorithm(expansion, hidden_sizes=(32,))})
    assert len(_play_with(algorithm, expansion, 200)) >= 2


@pytest.mark.tianshou
def test_tianshou_vector_env_and_factory_pickle() -> None:
    import pickle

    from tribune_env.integrations import tianshou as ts_glue

    factory = pickle.loads(pickle.dumps(ts_glue.EnvFactory(players=3, reward="dense")))
    assert factory().env.unwrapped.table.game.num_players == 3
    envs = ts_glue.vector_env(2, players=3)
    assert envs.env_num == 2
    envs.close()


@pytest.mark.slow
def test_tianshou_subprocess_vector_env_collects() -> None:
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer

    from tribune_env.integrations import tianshou as ts_glue

    env = ts_glue.make_env(players=3)
    algorithm = ts_glue.multi_agent_algorithm(env)  # every seat masked random
    envs = ts_glue.vector_env(2, subprocess=True, players=3)
    try:
        envs.seed(0)
        buffer = VectorReplayBuffer(1000, 2)
        collector: Collector[CollectStats] = Collector(algorithm, envs, buffer)
        collector.reset()
        assert collector.collect(n_step=200).n_collected_steps == 200
    finally:
        envs.close()
    moved = buffer.obs.agent_id[buffer.sample_indices(0)]  # every stored step of both games
    assert set(moved) <= {"player_0", "player_1", "player_2"} and len(set(moved)) >= 2


@pytest.mark.slow
def test_tianshou_glue_refuses_bad_input() -> None:
    from tribune_env.integrations import tianshou as ts_glue

    with pytest.raises(ValueError, match="obs_format"):
        ts_glue.make_env(players=3, obs_format="flat")
    with pytest.raises(ValueError, match="players"):
        ts_glue.vector_env(1, players=9)
    with pytest.raises(ValueError, match="positive number"):
        ts_glue.vector_env(0, players=3)
    env = ts_glue.make_env(players=3)
    dqn = ts_glue.dqn_algorithm(env, hidden_sizes=(8,))
    with pytest.raises(ValueError, match="unknown seat 'player_7'"):
        ts_glue.multi_agent_algorithm(env, {"player_7": dqn})
    with pytest.raises(ValueError, match="unknown seat 3"):
        ts_glue.multi_agent_algorithm(env, {3: dqn})
    with pytest.raises(ValueError, match="given twice"):
        ts_glue.multi_agent_algorithm(env, {0: dqn, "player_0": dqn})
    with pytest.raises(TypeError, match="off-policy"):
        ts_glue.multi_agent_algorithm(env, {0: object()})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="n_step"):
        ts_glue.dqn_algorithm(env, n_step=0)


def test_tianshou_glue_names_the_extra_when_tianshou_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from tribune_env.integrations import tianshou as ts_glue

    monkeypatch.setitem(sys.modules, "tianshou", None)  # makes "import tianshou" raise ImportError
    with pytest.raises(ImportError, match=re.escape("pip install -e '.[tianshou]'")):
        ts_glue.make_env(players=3)


# -- SuperSuit ---------------------------------------------------------------------------


@pytest.mark.supersuit
def test_supersuit_pipeline_masked_rollout() -> None:
    summary = load("supersuit_pipeline").main(["--steps", "600", "--stack", "3", "--players", "3"])
    flat = tribune_env.env(players=3, obs_format="flat").unwrapped
    assert summary["moves"] == 600
    assert summary["obs_size"] == 3 * (flat.mask_slice.stop + 3), "three frames of observation, mask and indicator"
    assert summary["mask_slice"] == f"{flat.mask_slice.start}:{flat.mask_slice.stop}"


@pytest.mark.supersuit
def test_supersuit_current_mask_is_the_acting_seats_mask() -> None:
    example = load("supersuit_pipeline")
    env = example.make_pipeline(players=4, stack=2, expansion=True)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(100):
        obs, *_ = env.last()
        mask = example.current_mask(obs, env.unwrapped.mask_slice, 2)
        truth = env.unwrapped.table.mask(env.unwrapped.agent_seat[env.agent_selection]).astype(bool)
        assert mask.shape == (267,) and np.array_equal(mask, truth)
        env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.supersuit
def test_supersuit_pipeline_runs_as_a_script() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "supersuit_pipeline.py"), "--steps", "200"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "moves=200 " in done.stdout
