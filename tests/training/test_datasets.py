"""``tribune dataset`` (training.datasets, issue 37): games written as a Minari dataset, one episode per seat with
the environment's spaces, read back by ``minari.load_dataset`` in a fresh process that cannot import this project,
and read by the imitation pretraining."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tribune_cli.main import main
from tribune_env.envs.single import TribuneSingleEnv

pytestmark = pytest.mark.datasets

READER = """
import json, sys
for name in ("tribune_env", "agents", "training", "tribune_arena", "tribune_cli"):
    sys.modules[name] = None  # this project cannot be imported here
import minari
import numpy as np

dataset = minari.load_dataset(sys.argv[1])
meta = dataset.storage.metadata
episodes = []
for episode in dataset.iterate_episodes():
    episodes.append({
        "steps": len(episode.actions),
        "observations": len(episode.observations),
        "seat": int(episode.infos["seat"][0]),
        "game": int(episode.infos["game"][0]),
        "reward": float(np.sum(episode.rewards)),
        "last_ended": bool(episode.terminations[-1] or episode.truncations[-1]),
        "ended_early": bool(np.any(episode.terminations[:-1]) or np.any(episode.truncations[:-1])),
        "masked": bool(all(episode.infos["action_mask"][t][a] for t, a in enumerate(episode.actions))),
        "mask_width": int(episode.infos["action_mask"].shape[1]),
    })
print(json.dumps({
    "episodes": episodes,
    "total_episodes": dataset.total_episodes,
    "observation_space": str(dataset.observation_space),
    "action_space": str(dataset.action_space),
    "agents": meta["tribune_agents"],
    "deals": meta["tribune_deals"],
    "code": meta["tribune_code_version"],
}))
"""


def write_and_read(tmp_path: Path, specs: list[str], games: int) -> dict[str, object]:
    """``tribune dataset SPECS --games GAMES`` into ``tmp_path``, then what a fresh process reads of it."""
    dataset_id = f"tribune/test-{games}-v0"
    root = tmp_path / "datasets"
    assert main(["dataset", *specs, "--games", str(games), "--seed", "4", "--id", dataset_id, "--out", str(root)]) == 0
    env = {**os.environ, "MINARI_DATASETS_PATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", READER, dataset_id], capture_output=True, text=True, env=env, cwd=tmp_path,
        timeout=600, check=True,
    ).stdout
    found: dict[str, object] = json.loads(out)
    return found


def check(found: dict[str, object], specs: list[str], games: int) -> None:
    players = len(specs)
    env = TribuneSingleEnv(players=players)
    assert found["observation_space"] == str(env.observation_space)
    assert found["action_space"] == str(env.action_space)
    assert found["total_episodes"] == games * players
    assert found["agents"] == specs and len(found["deals"]) == games  # type: ignore[arg-type]
    assert "package" in found["code"] and "commit" in found["code"]  # type: ignore[operator]
    episodes = found["episodes"]
    assert isinstance(episodes, list)
    by_game: dict[int, list[dict[str, object]]] = {}
    for episode in episodes:
        by_game.setdefault(int(episode["game"]), []).append(episode)
        assert episode["observations"] == episode["steps"] + 1  # one per decision, and the last
        assert episode["last_ended"] and not episode["ended_early"] and episode["masked"]
        assert episode["mask_width"] == env.action_space.n
    assert sorted(by_game) == list(range(games))
    for seats in by_game.values():
        assert sorted(int(e["seat"]) for e in seats) == list(range(players))  # one episode per seat
        assert sum(float(e["reward"]) for e in seats) == pytest.approx(0.0)  # win_loss is zero-sum


def test_a_few_games_are_read_back_in_a_fresh_process(tmp_path: Path) -> None:
    specs = ["heuristic", "random", "random"]
    check(write_and_read(tmp_path, specs, 3), specs, 3)


@pytest.mark.slow
def test_a_hundred_games_are_read_back_in_a_fresh_process(tmp_path: Path) -> None:
    specs = ["random", "random"]
    check(write_and_read(tmp_path, specs, 100), specs, 100)


def test_the_imitation_pretraining_reads_the_dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from training.datasets import read_demonstrations, write_dataset
    from tribune_env.engine.config import GameConfig

    config = GameConfig(players=2)
    dataset = write_dataset("tribune/imitate-v0", ["heuristic", "random"], config, 2, 1, tmp_path)
    data = read_demonstrations(dataset)
    assert len(data) == dataset.total_steps
    assert data.obs.shape == (len(data), TribuneSingleEnv(players=2).observation_space.shape[0])
    assert all(data.masks[np.arange(len(data)), data.actions])  # every action was legal
    teacher = read_demonstrations(dataset, seats=[0])
    assert 0 < len(teacher) < len(data)
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    assert len(read_demonstrations("tribune/imitate-v0")) == len(data)  # by id


def test_a_bad_id_and_an_existing_dataset_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dataset", "random", "random", "--id", "no-namespace", "--out", str(tmp_path)]) == 2
    assert "--id: expected NAMESPACE/NAME-vN" in capsys.readouterr().err
    argv = ["dataset", "random", "random", "--games", "1", "--id", "tribune/once-v0", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "tribune: error:" in capsys.readouterr().err


def test_a_training_config_names_a_dataset_to_imitate() -> None:
    from training.config import config_from_dict

    config = config_from_dict({"pretrain": {"enabled": True, "dataset": "tribune/heuristic-4p-v0"}})
    assert config.pretrain.dataset == "tribune/heuristic-4p-v0"
    assert config_from_dict({}).pretrain.dataset is None


def test_a_bid_the_action_space_cannot_express_is_left_out() -> None:
    """Game 39 of these deals has a random bid of 69, above the base space's cap: its decision is not recorded,
    and every recorded action is legal under its mask (the control: the codec has no index for that bid)."""
    from training.datasets import game_seeds, play_episodes
    from tribune_env.codec import Space, codec_for
    from tribune_env.engine.actions import Bid
    from tribune_env.engine.config import GameConfig

    config = GameConfig(players=2)
    assert codec_for(config.components, Space.BASE).encode(Bid(amount=69), 1, 2) == -1
    for episode in play_episodes(["random", "random"], config, game_seeds(100, 4)[39], 39):
        assert len(episode.observations) == len(episode.actions) + 1
        assert all(episode.infos["action_mask"][t][a] for t, a in enumerate(episode.actions))
