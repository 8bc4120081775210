"""Training configs: every shipped config loads; bad configs fail naming the key and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import ROOT

from training.config import (
    ConfigError,
    TrainConfig,
    algorithm_of,
    config_from_dict,
    laid_over,
    load_config,
    read_config_file,
)
from training.pool.config import ALGORITHM, load_pool_config
from training.zero.config import load_zero_config

CONFIGS = sorted(  # zero-*: test_zero_config; ppo-pool-*: test_pool_trainer
    p for p in (ROOT / "configs").glob("*.yaml") if not p.name.startswith(("zero-", "ppo-pool-"))
)


def test_configs_found() -> None:
    assert {p.name for p in CONFIGS} >= {"smoke.yaml", "ppo-4p.yaml", "ppo-vs-random.yaml", "selfplay.yaml"}


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_load(path: Path) -> None:
    config = load_config(path)
    assert config.name == path.stem
    resolved = config.resolved()
    assert isinstance(resolved["run"]["n_envs"], int) and resolved["run"]["n_envs"] >= 1
    assert resolved["run"]["vec_env"] in ("subproc", "dummy")
    assert config_from_dict(resolved) == config_from_dict(resolved)  # the resolved form loads back


def test_defaults_and_overrides() -> None:
    config = config_from_dict({}, overrides={"run.total_timesteps": 5000, "ppo.net_pi": [8], "name": "x"})
    assert config.run.total_timesteps == 5000
    assert config.ppo.net_pi == [8]
    assert config.name == "x"
    assert config.env == TrainConfig().env
    assert config.ppo.learning_rate == 3e-4  # int-free float default kept


def test_auto_sizes_follow_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    config = config_from_dict({"ppo": {"batch_size": 64, "n_steps": 64}})
    assert config.n_envs == 6 and config.vec_env == "subproc" and config.torch_threads == 6
    one = config_from_dict({"run": {"n_envs": 1}})
    assert one.vec_env == "dummy"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"ppo": {"learning_rat": 0.1}}, "unknown key(s) ppo.learning_rat"),
        ({"envs": {}}, "unknown key(s) envs"),
        ({"env": {"players": 6}}, "env.players: 6 is not supported by the base game; choose 2, 3, 4 or 5"),
        ({"env": {"players": "four"}}, "env.players: expected a player count"),
        ({"env": {"player": 4}}, "unknown key(s) env.player"),
        ({"env": {"start_seat": 1}}, "env.start_seat: a tournament plays None, not 1"),
        ({"env": {"reward": "money"}}, "env.reward: expected one of"),
        ({"opponents": {"mix": {}}}, "opponents.mix: needs at least one"),
        ({"opponents": {"mix": {"random": -1}}}, "weight must be >= 0"),
        ({"opponents": {"mix": {"bad spec!": 1}}}, "bad agent name"),
        ({"run": {"total_timesteps": 0}}, "run.total_timesteps: must be >= 1"),
        ({"run": {"n_envs": "many"}}, "run.n_envs"),
        ({"run": {"vec_env": "threads"}}, "run.vec_env"),
        ({"ppo": {"activation": "gelu"}}, "ppo.activation"),
        ({"ppo": {"batch_size": 4096, "n_steps": 8}, "run": {"n_envs": 2}}, "exceeds n_steps * n_envs"),
        ({"ppo": {"clip_range": True}}, "ppo.clip_range: expected float"),
        ({"league": {"schedule": [[0.5, 0.1], [0.2, 0.3]]}}, "increasing order"),
        ({"league": {"schedule": [[0.5, 1.5]]}}, "league.schedule[0]"),
        ({"pretrain": {"keep": 0}}, "pretrain.keep"),
        ({"eval": {"opponents": ["mcts:x=1,"]}}, "eval.opponents[0]"),
        ({"name": "../escape"}, "name: must be a plain directory name"),
        ([1, 2], "expected a mapping"),
    ],
)
def test_bad_configs_name_the_problem(data: object, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict(data, "cfg.yaml")
    assert message in str(err.value)
    assert str(err.value).startswith("cfg.yaml: ")


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("env: [players: 4\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(broken)
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    assert load_config(empty) == TrainConfig()


def test_the_env_section_holds_the_game_in_its_dictionary_form() -> None:
    """The resolved env section is the game's public dictionary form beside reward and learner_role; it reads back
    equal, and so does the section as today's YAML files write it."""
    from tribune_env.engine.config import GameConfig, config_to_dict

    config = config_from_dict({"env": {"players": 3, "victory_card": "alea_long", "reward": "rank"}})
    assert config.env.game == GameConfig(players=3, victory_card="alea_long")
    resolved = config.resolved()["env"]
    assert resolved == {**config_to_dict(config.env.game), "reward": "rank", "learner_role": "any"}
    assert config_from_dict({"env": resolved}).env == config.env


OLD_ENV = {"players": 4, "victory_card": None, "point_variant": False, "round_limit": 60, "reward": "win_loss",
           "expansion": False, "brutii": False, "learner_role": "any"}
"""An env section as runs resolved it before it held the game's dictionary form."""


@pytest.mark.train
def test_a_checkpoint_written_before_the_dictionary_form_resumes() -> None:
    from training.checkpoints import checkpoint_meta
    from training.trainer import TrainError, check_resume

    config = config_from_dict({})
    meta = checkpoint_meta(config, 0, {})
    meta["config"]["env"] = dict(OLD_ENV)
    assert check_resume(meta, config, Path("step-000000000.zip")) == []
    meta["config"]["env"] = {**OLD_ENV, "round_limit": 40}
    with pytest.raises(TrainError, match=r"differs in env\.round_limit"):
        check_resume(meta, config, Path("step-000000000.zip"))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_extends_lays_a_file_over_its_base_section_by_section(tmp_path: Path) -> None:
    """A variant holds only what it changes: a section's keys replace the base's one by one, a value inside a section
    (a whole opponents table) replaces whole, and a chain of files reads from the first."""
    write(tmp_path / "base.yaml", "name: base\nseed: 1\nselfplay: {games: 64, opponents: {heuristic: 0.5}}\n"
                                  "learner: {learning_rate: 0.0001}\n")
    (tmp_path / "variants").mkdir()
    write(tmp_path / "variants" / "mid.yaml", "extends: ../base.yaml\nname: mid\n"
                                              "selfplay: {opponents: {random: 0.2}}\n")
    leaf = write(tmp_path / "variants" / "leaf.yaml", "extends: mid.yaml\nselfplay: {games: 8}\nrun: {iterations: 2}\n")
    assert read_config_file(leaf) == {
        "name": "mid", "seed": 1, "selfplay": {"games": 8, "opponents": {"random": 0.2}},
        "learner": {"learning_rate": 0.0001}, "run": {"iterations": 2},
    }
    assert laid_over({"a": {"x": 1}, "b": 2}, {"a": 3}) == {"a": 3, "b": 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extends: nowhere.yaml\n", "extends: no config file"),
        ("extends: [a.yaml]\n", "extends: expected the path of a config file"),
        ("extends: loop.yaml\n", "the chain comes back to a file already read (loop.yaml -> loop.yaml)"),
        ("extends: other.yaml\n", "the chain comes back to a file already read (loop.yaml -> other.yaml -> loop.yaml)"),
        ("extends: list.yaml\n", "list.yaml: expected a mapping of sections, got list"),
    ],
)
def test_a_bad_extends_names_the_file_and_the_problem(tmp_path: Path, text: str, message: str) -> None:
    write(tmp_path / "other.yaml", "extends: loop.yaml\n")
    write(tmp_path / "list.yaml", "- 1\n")
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    with pytest.raises(ConfigError) as err:
        read_config_file(write(tmp_path / "loop.yaml", text))
    assert message in str(err.value)
    assert {p.name: p.read_text() for p in tmp_path.iterdir() if p.name != "loop.yaml"} == before


def test_every_loader_and_the_train_command_read_extends(tmp_path: Path) -> None:
    """The PPO, pool and zero loaders, and the dispatch of ``tribune train`` by ``algorithm`` (set in the base only)."""
    zero = write(tmp_path / "zero.yaml", f"extends: {ROOT / 'configs' / 'zero-smoke.yaml'}\nselfplay: {{games: 3}}\n")
    assert algorithm_of(zero) == "zero"
    config = load_zero_config(zero)
    assert config.selfplay.games == 3 and config.search.simulations == 4  # the base's
    pool = write(tmp_path / "pool.yaml", f"extends: {ROOT / 'configs' / 'ppo-pool-4p.yaml'}\nname: mine\n")
    assert algorithm_of(pool) == ALGORITHM and load_pool_config(pool).name == "mine"
    ppo = write(tmp_path / "ppo.yaml", f"extends: {ROOT / 'configs' / 'smoke.yaml'}\nseed: 7\n")
    assert load_config(ppo).seed == 7 and load_config(ppo).env == load_config(ROOT / "configs" / "smoke.yaml").env
