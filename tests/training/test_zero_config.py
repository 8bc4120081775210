"""``algorithm: zero`` configs: the shipped ones load, bad ones fail with one error naming the key, and
``tribune train`` dispatches on ``algorithm`` (PPO configs unchanged)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from paths import CONFIGS

from training.config import ConfigError, algorithm_of, load_config
from training.zero.config import (
    ZeroConfig,
    config_changes,
    load_zero_config,
    zero_config_from_dict,
)
from tribune_cli.main import main
from tribune_env.engine.config import RuleSet

ZERO_CONFIGS = sorted(CONFIGS.glob("zero-*.yaml"))


def test_zero_configs_found() -> None:
    assert {p.name for p in ZERO_CONFIGS} >= {"zero-smoke.yaml", "zero-4p.yaml"}


@pytest.mark.parametrize("path", ZERO_CONFIGS, ids=lambda p: p.name)
def test_shipped_zero_configs_load(path: Path) -> None:
    config = load_zero_config(path)
    assert config.name == path.stem
    assert algorithm_of(path) == "zero"
    resolved = config.resolved()
    assert isinstance(resolved["selfplay"]["workers"], int) and resolved["selfplay"]["workers"] >= 1
    assert zero_config_from_dict(resolved).resolved() == resolved  # the resolved form loads back equal
    assert config.init_path.is_file()


def test_defaults_follow_the_rule_set() -> None:
    config = zero_config_from_dict({"game": {"expansion": True}})
    assert config.game.rules is RuleSet.EXPANSION
    assert config.init_path.name == "ppo-expansion-4p.npz"
    assert zero_config_from_dict({}).init_path.name == "ppo-4p.npz"
    assert zero_config_from_dict({}) == ZeroConfig()


def test_init_from_names_a_shipped_network_wherever_the_run_starts(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """``init_from: zero-net`` / ``ppo``: that agent's shipped file for the rule set, not a path under the working
    directory (so ``configs/zero-4p.yaml`` loads from any folder)."""
    monkeypatch.chdir(tmp_path)
    assert zero_config_from_dict({"init_from": "zero-net"}).init_path.name == "zero-4p.npz"
    assert zero_config_from_dict({"init_from": "zero-net"}).init_path.is_file()
    assert zero_config_from_dict({"init_from": "ppo", "game": {"expansion": True}}).init_path.name == \
        "ppo-expansion-4p.npz"
    assert load_zero_config(CONFIGS / "zero-4p.yaml").init_path.is_file()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"serach": {}}, "unknown key(s) serach"),
        ({"search": {"simulatons": 3}}, "unknown key(s) search.simulatons"),
        ({"search": {"simulations": 0}}, "search.simulations: must be >= 1"),
        ({"search": {"depth": "deep"}}, "search.depth: expected int"),
        ({"selfplay": {"full_search": 1.5}}, "selfplay.full_search: must be in 0..1"),
        ({"selfplay": {"backend": "dask"}}, "selfplay.backend: expected one of multiprocessing, ray"),
        ({"selfplay": {"target": "visits"}}, "selfplay.target: expected one of improved, choice, significant"),
        ({"selfplay": {"margin": -0.5}}, "selfplay.margin: must be in 0..2"),
        ({"selfplay": {"search_moves": -0.1}}, "selfplay.search_moves: must be in 0..1"),
        ({"gate": {"tolerance": 1.5}}, "gate.tolerance: must be in 0..1"),
        ({"gate": {"tolerance": -0.01}}, "gate.tolerance: must be in 0..1"),
        ({"selfplay": {"confirm": -1, "target": "significant"}}, "selfplay.confirm: must be >= 0"),
        ({"selfplay": {"confirm": 512}}, "selfplay.confirm: confirms significant labels only"),
        ({"selfplay": {"value_positions": -2}}, "selfplay.value_positions: must be >= 0"),
        ({"search": {"threshold": 0}}, "search.threshold: must be in (0, 1]"),
        ({"search": {"explore": "sometimes"}}, "search.explore: expected bool"),
        ({"learner": {"anchor_weight": -1}}, "learner.anchor_weight: must be >= 0"),
        ({"selfplay": {"opponents": {"heuristic": 1.0}}}, "selfplay.opponents: the shares (with selfplay.snapshots)"),
        ({"selfplay": {"opponents": {"heuristic": 0.5}, "snapshots": 0.5}},
         "selfplay.opponents: the shares (with selfplay.snapshots) must add up to less"),
        ({"selfplay": {"snapshots": 1.0}}, "selfplay.snapshots: share of seats must be in 0..1"),
        ({"selfplay": {"snapshot_window": -1}}, "selfplay.snapshot_window: must be >= 0"),
        ({"selfplay": {"workers": "many"}}, "selfplay.workers: expected an integer >= 1 or 'auto'"),
        ({"learner": {"learning_rate": 0}}, "learner.learning_rate: must be > 0"),
        ({"learner": {"device": "tpu"}}, "learner.device: expected auto, cpu, cuda or cuda:N"),
        ({"run": {"max_minutes": -1}}, "run.max_minutes: must be > 0"),
        ({"game": {"players": 9}}, "game.players"),
        ({"game": {"start_seat": 1}}, "game.start_seat"),
        ({"algorithm": "ppo"}, "algorithm: this loader reads zero configs"),
    ],
)
def test_bad_configs_name_the_key(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        zero_config_from_dict(data, "cfg.yaml")
    assert str(err.value).startswith("cfg.yaml: ")
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"selfplay": {"opponents": {"nosuchagent": 0.2}}}, "selfplay.opponents.nosuchagent: agent 'nosuchagent'"),
        ({"eval": {"opponent": "heuristic:depth=3"}}, "eval.opponent: agent 'heuristic:depth=3' cannot be built"),
        ({"init_from": "missing.npz"}, "init_from: checkpoint missing.npz does not exist"),
        ({"game": {"expansion": True}, "init_from": str(CONFIGS.parent / "agents/models/ppo-4p.npz")},
         "init_from: checkpoint"),
        ({"search": {"others": "missing.npz"}}, "search.others: checkpoint missing.npz does not exist"),
        ({"search": {"others": str(CONFIGS.parent / "agents/models/ppo-expansion-4p.npz")}},
         "ppo-expansion-4p.npz: cannot play the other seats"),  # the path as first loaded (the policy cache)
    ],
)
def test_roles_are_checked_when_loaded(tmp_path: Path, data: dict[str, Any], message: str) -> None:
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump({"algorithm": "zero", **data}), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cfg\.yaml: ") as err:
        load_zero_config(path)
    assert message in str(err.value)


def test_algorithm_dispatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ppo = tmp_path / "ppo.yaml"
    ppo.write_text("algorithm: ppo\nname: ppo\n", encoding="utf-8")
    assert algorithm_of(ppo) == "ppo"
    assert load_config(ppo).name == "ppo"  # an explicit `algorithm: ppo` is a PPO config as before
    assert algorithm_of(CONFIGS / "smoke.yaml") == "ppo"
    assert algorithm_of(ppo, {"algorithm": "zero"}) == "zero"
    assert algorithm_of(CONFIGS / "ppo-pool-4p.yaml") == "ppo-pool"
    bad = tmp_path / "bad.yaml"
    bad.write_text("algorithm: alphago\n", encoding="utf-8")
    assert main(["train", str(bad)]) == 2
    assert "algorithm: expected one of ppo, ppo-pool, zero, got 'alphago'" in capsys.readouterr().err
    assert main(["train", str(CONFIGS / "zero-smoke.yaml"), "--check", "--set", "search.depth=7"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["search"]["depth"] == 7
    assert main(["train", str(CONFIGS / "zero-smoke.yaml"), "--set", "search.depth=-1"]) == 2
    assert "search.depth: must be >= 0" in capsys.readouterr().err


def test_resume_changes_split_by_what_they_change() -> None:
    saved = ZeroConfig().resolved()
    current = zero_config_from_dict({"run": {"iterations": 40}, "selfplay": {"workers": 3},
                                     "search": {"simulations": 8}}).resolved()
    harmless, blocking = config_changes(saved, current)
    assert "run.iterations" in harmless and "selfplay.workers" in harmless
    assert blocking == ["search.simulations"]


def test_a_run_saved_before_a_key_existed_resumes_at_its_default() -> None:
    saved = ZeroConfig().resolved()
    del saved["learner"]["anchor_weight"], saved["selfplay"]["target"]
    assert config_changes(saved, ZeroConfig().resolved()) == ([], [])
    anchored = zero_config_from_dict({"learner": {"anchor_weight": 0.5}}).resolved()
    assert config_changes(saved, anchored)[1] == ["learner.anchor_weight"]
