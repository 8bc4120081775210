"""`tribune train` runs that meet bad specs, kills, finished runs and moved folders (fault injection).

A kill is simulated by raising :class:`Killed` (a ``BaseException``, like the
end of the process) inside an evaluation or a snapshot export; the run is
then resumed and must redo what was cut short, leave no temporary files and
give the same results as a run that was never killed. Runs use the tiny
configs/smoke.yaml with 512 steps (a few seconds each).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from training_runs import SMOKE, quiet
from training_runs import smoke as smoke_config

from training.checkpoints import export_snapshot as real_export
from training.config import ConfigError, TrainConfig, config_from_dict
from tribune_arena.tournament.store import ResultStore
from tribune_cli.main import main

BAD_SPECS = ["heuristic:depth=3", "nosuchagent", "ppo:missing-model.zip"]


class Killed(BaseException):
    """The process ends here (what a kill does; nothing after it runs)."""


def smoke(out: Path, **overrides: object) -> TrainConfig:
    return smoke_config(out, **{"run.total_timesteps": 512, **overrides})


def steps(run: Path) -> list[int]:
    from training.evaluation import read_rows
    return [r.timesteps for r in read_rows(run / "eval.csv")]


def temporary(run: Path) -> list[Path]:
    return [p for p in run.rglob("*") if ".tmp" in p.name]


def digest(paths: list[Path]) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def results(run: Path) -> list[tuple[object, ...]]:
    """The evaluation results in ``eval.csv`` (timings aside)."""
    from training.evaluation import read_rows
    return [(r.timesteps, r.opponent, r.games, r.wins, r.ci_low, r.ci_high) for r in read_rows(run / "eval.csv")]


def pool_names(run: Path) -> list[str]:
    return [Path(p).name for p in json.loads((run / "pool.json").read_text())]


# -- agent specs, checked before anything is written ----------------------------------------------


def _yaml_with(tmp: Path, key: str, spec: str) -> Path:
    data: dict[str, Any] = yaml.safe_load(SMOKE.read_text())
    data["output"] = str(tmp / "runs")
    if key == "opponents.mix":
        data["opponents"]["mix"] = {"random": 1.0, spec: 1.0}
    else:
        data["eval"]["opponents"] = ["random", spec]
    path = tmp / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("key", ["opponents.mix", "eval.opponents"])
@pytest.mark.parametrize("spec", BAD_SPECS)
@pytest.mark.train
def test_a_bad_spec_is_refused_by_check_and_before_a_run(
    key: str, spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from training.trainer import TrainError, train
    config = _yaml_with(tmp_path, key, spec)
    for extra in (["--check"], []):
        assert main(["train", str(config), *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(config) in err and key in err and spec in err, err
    assert not (tmp_path / "runs").exists()  # nothing written
    data = yaml.safe_load(config.read_text())  # through the API too (a config not read by load_config)
    with pytest.raises(TrainError, match=key.replace(".", r"\.")):
        train(config_from_dict(data), console=quiet())
    assert not (tmp_path / "runs").exists()


def test_the_teacher_is_checked_too(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"pretrain\.teacher: agent 'greedy:depth=2' cannot be built"):
        smoke(tmp_path, **{"pretrain.teacher": "greedy:depth=2"})


# -- kills ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run: the reference for the resumed ones."""
    from training.trainer import train
    out = tmp_path_factory.mktemp("finished")
    train(smoke(out), console=quiet())
    return out / "smoke"


@pytest.mark.slow
def test_a_start_killed_before_its_first_checkpoint_does_not_block_a_rerun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, finished: Path
) -> None:
    from training import trainer as trainer_module
    from training.trainer import train
    def killed(*args: Any, **kwargs: Any) -> Any:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(trainer_module, "evaluate_checkpoint", killed)  # the evaluation at step 0
        with pytest.raises(Killed):
            train(smoke(tmp_path), console=quiet())
    train(smoke(tmp_path), console=quiet())  # a plain rerun, no --resume
    run = tmp_path / "smoke"
    assert steps(run) == steps(finished) == [0, 512]
    assert not temporary(run)


@pytest.mark.slow
def test_a_kill_during_an_evaluation_is_redone_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, finished: Path
) -> None:
    from training.trainer import train
    real_add = ResultStore.add
    added: list[int] = []

    def add(store: ResultStore, record: Any) -> bool:
        if "step-000000512" in store.path.name and len(added) == 3:
            raise Killed  # three games of the evaluation at step 512 are stored, the rest never
        if "step-000000512" in store.path.name:
            added.append(record.game_id)
        return real_add(store, record)

    longer = {"run.total_timesteps": 768}  # so that the evaluation at 512 is not also the final one
    with monkeypatch.context() as patch:
        patch.setattr(ResultStore, "add", add)
        with pytest.raises(Killed):
            train(smoke(tmp_path, **longer), console=quiet())
    run = tmp_path / "smoke"
    assert steps(run) == [0]  # the point is missing, a partial results file is there
    train(smoke(tmp_path, **longer), resume="latest", console=quiet())
    assert steps(run) == [0, 512, 768]
    with ResultStore(run / "eval" / "step-000000512-vs-random.sqlite") as store:
        assert len(store.records()) == 8
    assert results(run)[:2] == results(finished)  # as if never killed


@pytest.mark.slow
def test_a_kill_during_a_snapshot_export_is_redone_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, finished: Path
) -> None:
    from training import trainer as trainer_module
    from training.trainer import train
    def export(checkpoint: Path, directory: Path) -> Path:
        if checkpoint.name == "step-000000256.zip" and directory.name == "snapshots":
            (directory / "step-000000256.tmp.npz").write_bytes(b"half an export")
            raise Killed
        return real_export(checkpoint, directory)

    with monkeypatch.context() as patch:
        patch.setattr(trainer_module, "export_snapshot", export)
        with pytest.raises(Killed):
            train(smoke(tmp_path), console=quiet())
    run = tmp_path / "smoke"
    assert temporary(run)
    train(smoke(tmp_path), resume="latest", console=quiet())
    assert not temporary(run)
    assert pool_names(run) == pool_names(finished) == ["step-000000256.npz", "step-000000512.npz"]
    assert steps(run) == [0, 512]


# -- finished and moved runs ---------------------------------------------------------------------


def _results(run: Path) -> list[Path]:
    return sorted([run / "eval.csv", run / "final.zip", run / "final.npz", run / "pool.json",
                   *run.glob("checkpoints/*"), *(run / "eval").glob("*.sqlite")])


@pytest.mark.slow
def test_resuming_a_finished_run_twice_changes_nothing(tmp_path: Path, finished: Path) -> None:
    from training.trainer import train
    run = tmp_path / "smoke"
    shutil.copytree(finished, run)
    before = digest(_results(run))
    for _ in range(2):
        train(smoke(tmp_path), resume="latest", console=quiet())
        assert steps(run) == [0, 512]
        assert digest(_results(run)) == before


@pytest.mark.slow
def test_a_copied_run_folder_resumes_where_it_is(tmp_path: Path, finished: Path) -> None:
    from training.trainer import train
    original = tmp_path / "a" / "smoke"
    shutil.copytree(finished, original)
    train(smoke(tmp_path / "a", **{"run.total_timesteps": 512}), resume="latest", console=quiet())
    copy = tmp_path / "b" / "smoke"
    shutil.copytree(original, copy)
    shutil.rmtree(original)  # nothing of the original place is left
    (copy / "eval.csv").write_text((copy / "eval.csv").read_text().splitlines()[0] + "\n")  # redo every evaluation
    train(smoke(tmp_path / "b"), resume="latest", console=quiet())  # the final evaluation again, in the copy
    assert steps(copy) == [512]
    assert list((copy / "eval" / "superseded").rglob("step-000000512-vs-random.sqlite"))
    train(smoke(tmp_path / "b", **{"run.total_timesteps": 768}), resume="latest", console=quiet())
    assert steps(copy) == [512, 768]
    assert pool_names(copy) == ["step-000000512.npz", "step-000000768.npz"]
    assert all(not Path(p).is_absolute() for p in json.loads((copy / "pool.json").read_text()))
