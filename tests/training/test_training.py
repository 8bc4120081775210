"""`tribune train` end to end on a tiny config: a run completes, writes checkpoints that resume and play.

One short run (configs/smoke.yaml: imitation, PPO, self-play snapshots,
evaluation) is shared by the tests of this module; it takes a few seconds.
"""

from __future__ import annotations

import csv
import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from training_runs import SMOKE, quiet, smoke

from agents.ppo import META_NAME, load_policy, read_checkpoint_meta
from agents.specs import make_agent
from training.config import load_config
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_cli.main import main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from training.trainer import train

    out = tmp_path_factory.mktemp("runs")
    final = train(smoke(out, **{"run.total_timesteps": 512}), console=quiet())
    assert final == out / "smoke" / "final.zip"
    return out / "smoke"


def digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_a_run_writes_models_logs_and_evaluations(run: Path) -> None:
    from training.checkpoints import step_checkpoints
    from training.evaluation import read_rows
    from training.trainer import config_of_checkpoint

    assert (run / "final.zip").is_file() and (run / "final.npz").is_file()
    checkpoints = step_checkpoints(run / "checkpoints")
    assert [p.name for p in checkpoints] == ["step-000000256.zip", "step-000000512.zip"]
    meta = read_checkpoint_meta(run / "final.zip")
    assert meta["timesteps"] == 512
    assert meta["config"]["name"] == "smoke" and meta["config"]["run"]["n_envs"] == 2  # resolved config inside
    assert meta["code"]["package"] and "commit" in meta["code"]
    side = json.loads((run / "final.json").read_text())
    assert side["config"] == meta["config"]  # and beside the model
    with zipfile.ZipFile(run / "final.zip") as z:
        assert META_NAME in z.namelist() and "policy.pth" in z.namelist()
    assert load_config(run / "config.yaml") == config_of_checkpoint(run / "final.zip")
    rows = read_rows(run / "eval.csv")
    assert [r.timesteps for r in rows] == [0, 512]
    assert all(r.games == 8 and 0 <= r.ci_low <= r.win_rate <= r.ci_high <= 1 for r in rows)
    assert (run / "learning_curve.png").stat().st_size > 1000
    assert any(p.name.startswith("events.out.tfevents") for p in (run / "logs").iterdir())
    with (run / "logs" / "progress.csv").open() as handle:
        header = next(csv.reader(handle))
    assert "eval/win_rate_vs_random" in header and "pretrain/val_accuracy" in header
    assert "time/total_timesteps" in header
    pool = json.loads((run / "pool.json").read_text())
    assert [Path(p).name for p in pool] == ["step-000000256.npz", "step-000000512.npz"]
    # exports made only for an evaluation (step 0) are removed; the pool's stay
    assert sorted(p.name for p in (run / "snapshots").glob("*.npz")) == ["step-000000256.npz", "step-000000512.npz"]


def test_the_checkpoint_plays_a_tournament(run: Path, tmp_path: Path) -> None:
    for model in ("final.zip", "final.npz"):
        definition = TournamentDefinition.create(specs=(f"ppo:{run / model}", "random", "random", "random"), games=4)
        records = run_tournament(definition, tmp_path / f"{model}.sqlite", workers=1, progress=False)
        assert len(records) == 4
        assert all(r.forfeit is None and r.decisions > 0 for r in records)
    agent = make_agent(f"ppo:{run / 'final.zip'}")
    assert agent.spec.startswith("ppo:")


def test_numpy_export_plays_like_the_checkpoint(run: Path) -> None:
    import numpy as np
    from sb3_contrib import MaskablePPO

    from tribune_env.envs.single import TribuneSingleEnv

    model = MaskablePPO.load(run / "final.zip", device="cpu")
    policy = load_policy(run / "final.npz")
    env = TribuneSingleEnv(players=4)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        mask = env.action_masks()
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert policy.act(obs, mask, None, True) == int(expected)
        obs, _, term, trunc, _ = env.step(expected)
        if term or trunc:
            obs, _ = env.reset()
    assert np.isfinite(policy.logits(obs)).all()


def test_resume_continues_from_the_newest_checkpoint(run: Path, tmp_path: Path) -> None:
    from training.checkpoints import step_checkpoints
    from training.evaluation import read_rows
    from training.trainer import train

    copy = tmp_path / "smoke"
    import shutil

    shutil.copytree(run, copy)
    for p in (copy / "pool.json",):  # snapshot paths point into the original run; re-point them
        p.write_text(p.read_text().replace(str(run), str(copy)))
    (copy / "final.zip").unlink()
    for name in ("step-000000512-vs-random.sqlite",):  # results of the abandoned step-768 part must not be reused
        (copy / "eval" / name.replace("512", "768")).write_bytes((copy / "eval" / name).read_bytes())
    first_log = (copy / "logs" / "progress.csv").read_bytes()
    final = train(smoke(tmp_path, **{"run.total_timesteps": 768}), resume="latest", console=quiet())
    assert read_checkpoint_meta(final)["timesteps"] == 768
    assert [p.name for p in step_checkpoints(copy / "checkpoints")] == ["step-000000512.zip", "step-000000768.zip"]
    rows = read_rows(copy / "eval.csv")
    assert [r.timesteps for r in rows] == [0, 512, 768]
    pool = json.loads((copy / "pool.json").read_text())
    assert [Path(p).name for p in pool] == ["step-000000512.npz", "step-000000768.npz"]  # capacity 2
    assert (copy / "logs" / "progress.csv").read_bytes() == first_log  # the first part's log is kept
    assert len(list((copy / "eval" / "superseded").rglob("step-000000768-vs-random.sqlite"))) == 1
    assert (copy / "logs" / "resume-000000512" / "progress.csv").stat().st_size > 0


def test_resume_from_an_earlier_checkpoint_sets_later_ones_aside(run: Path, tmp_path: Path) -> None:
    import shutil

    from training.checkpoints import step_checkpoints
    from training.trainer import train

    copy = tmp_path / "smoke"
    shutil.copytree(run, copy)
    (copy / "final.zip").unlink()
    earlier = copy / "checkpoints" / "step-000000256.zip"
    abandoned = (copy / "checkpoints" / "step-000000512.zip").read_bytes()
    final = train(smoke(tmp_path, **{"run.keep_checkpoints": 1}), resume=str(earlier), console=quiet())
    assert read_checkpoint_meta(final)["timesteps"] == 1024
    # the new run's checkpoints are the newest, so pruning (keep 1) keeps its own; the abandoned step 512 is set aside
    assert [p.name for p in step_checkpoints(copy / "checkpoints")] == ["step-000001024.zip"]
    aside = list((copy / "checkpoints" / "superseded").rglob("step-000000512.zip"))
    assert len(aside) == 1 and aside[0].read_bytes() == abandoned
    assert len(list((copy / "checkpoints" / "superseded").rglob("*.json"))) == 1  # its metadata went with it


def test_a_new_run_never_overwrites_an_old_one(run: Path) -> None:
    from training.trainer import TrainError, train

    before = digest(run)
    with pytest.raises(TrainError, match="already holds a run"):
        train(smoke(run.parent), console=quiet())
    assert digest(run) == before


def test_resume_refuses_another_network_or_a_damaged_checkpoint(run: Path, tmp_path: Path) -> None:
    from training.trainer import TrainError, train

    before = digest(run)
    with pytest.raises(TrainError, match=r"ppo\.net_pi"):
        train(smoke(run.parent, **{"ppo.net_pi": [8]}), resume="latest", console=quiet())
    with pytest.raises(TrainError, match=r"no such checkpoint"):
        train(smoke(run.parent), resume=str(tmp_path / "nope.zip"), console=quiet())
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(TrainError, match=r"bad\.zip"):
        train(smoke(run.parent), resume=str(bad), console=quiet())
    assert digest(run) == before


def test_cli_reports_bad_configs_and_exports(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ppo: {n_stepz: 3}\n", encoding="utf-8")
    assert main(["train", str(bad)]) == 2
    assert "unknown key(s) ppo.n_stepz" in capsys.readouterr().err
    assert main(["train", str(SMOKE), "--set", "run.total_timesteps=99", "--check"]) == 0
    assert "total_timesteps: 99" in capsys.readouterr().out
    out = tmp_path / "policy.npz"
    assert main(["train", "--export", str(run / "final.zip"), str(out)]) == 0
    assert load_policy(out).meta["timesteps"] == 512
    assert main(["train", "--export", str(bad), str(tmp_path / "x.npz")]) == 2
    assert "bad.yaml" in capsys.readouterr().err
