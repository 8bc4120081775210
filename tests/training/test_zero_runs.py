"""``tribune train`` with ``algorithm: zero`` end to end on configs/zero-smoke.yaml: the run folder, the exported
network playing as ``zero-net`` and ``zero``, refusals, and resume after a stop or a kill giving the network an
uninterrupted run gives (whatever the worker count)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from paths import CONFIGS
from rich.console import Console

from agents.specs import make_agent
from training.zero.config import ZeroConfig, load_zero_config
from training.zero.curve import read_curve
from training.zero.learner import Learner
from training.zero.run import ZeroTrainer, ZeroTrainError, train_zero
from training.zero.selfplay import NETWORK, GameData, LocalPool
from tribune_cli.main import main
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

pytestmark = pytest.mark.train

SMOKE = CONFIGS / "zero-smoke.yaml"


class Killed(BaseException):
    """The process ends here (what a kill does; nothing after it runs)."""


def smoke(out: Path, **overrides: object) -> ZeroConfig:
    return load_zero_config(SMOKE, {"output": str(out), **overrides})


def quiet() -> Console:
    return Console(file=io.StringIO())


def weights(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files if k != "meta"}


def assert_same_network(a: Path, b: Path) -> None:
    wa, wb = weights(a), weights(b)
    assert wa.keys() == wb.keys()
    for name in wa:
        np.testing.assert_array_equal(wa[name], wb[name], err_msg=name)


def play(spec: str, seed: int = 3) -> Game:
    """A whole game of ``spec`` against three ``random``."""
    agents = [make_agent(spec, 0), *(make_agent("random", s) for s in (1, 2, 3))]
    game = Game.new(players=4, seed=seed)
    for seat, agent in enumerate(agents):
        agent.reset(seat, game.config, seed + seat)
    while not game.is_over:
        seat = game.current_seat
        game.apply(agents[seat].act(game.view(seat), game.legal_actions(), InfoSet(game, seat)))
    return game


def test_one_iteration_writes_the_run_folder(tmp_path: Path) -> None:
    """One game, no evaluation (the slow tests below evaluate): the quick suite's run."""
    latest = train_zero(smoke(tmp_path, **{"run.iterations": 1, "selfplay.games": 1, "eval.every": 0,
                                           "gate.every": 0}),
                        console=quiet())
    run = tmp_path / "zero-smoke"
    assert latest == run / "latest.npz"
    names = {p.relative_to(run).as_posix() for p in run.rglob("*") if p.is_file()}
    assert names == {"config.yaml", "code.json", "state.json", "latest.npz", "curve.csv", "curve.png",
                     "snapshots/iter-0000.npz", "snapshots/iter-0001.npz", "learner/iter-0001.pt",
                     "replay/iter-0001.npz"}
    state = json.loads((run / "state.json").read_text())
    assert state["iteration"] == 1 and state["positions"] > 0 and state["games"] == 1
    assert state["network"] == "snapshots/iter-0001.npz"
    rows = read_curve(run / "curve.csv")
    assert [r.iteration for r in rows] == [0, 1]
    assert rows[1].positions == state["positions"] and rows[1].eval_games == 0
    meta = json.loads(str(np.load(latest)["meta"]))
    assert meta["trained_by"] == "zero" and meta["iteration"] == 1 and meta["positions"] == state["positions"]
    assert meta["config"] == yaml.safe_load((run / "config.yaml").read_text())
    assert set(meta["code"]) >= {"commit", "dirty"}
    assert_same_network(latest, run / "snapshots/iter-0001.npz")
    assert play(f"zero-net:path={latest}").is_over
    agent = make_agent(f"zero:path={latest},simulations=4,candidates=2,depth=2", 0)
    game = Game.new(players=4, seed=5)
    agent.reset(game.current_seat, game.config, 1)
    assert agent.act(game.view(game.current_seat), game.legal_actions(), InfoSet(game, game.current_seat))


def test_a_league_of_snapshots_seats_past_networks_of_the_run(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``selfplay.snapshots``: games seat ``zero-net`` with a network of an earlier iteration of this run, drawn from
    the window, the same for the same seed; the seats it plays are not recorded (what the league run measures)."""
    played: list[tuple[int, list[GameData]]] = []
    real = LocalPool.run

    def spy(pool: LocalPool, jobs: Any, tick: Any = None) -> list[GameData]:
        games = real(pool, jobs, tick)
        played.append((len(played) + 1, games))
        return games

    monkeypatch.setattr(LocalPool, "run", spy)
    config = smoke(tmp_path, **{"run.iterations": 3, "selfplay.games": 4, "selfplay.opponents": {},
                                "selfplay.snapshots": 0.5, "selfplay.snapshot_window": 1, "eval.every": 0,
                                "gate.every": 0})
    train_zero(config, console=quiet())
    snapshots = (tmp_path / "zero-smoke" / "snapshots").resolve()
    for iteration, games in played:
        league = {spec for game in games for spec in game.seating if spec.startswith("zero-net:")}
        assert league == {f"zero-net:path={snapshots / f'iter-{iteration - 1:04d}.npz'}"}  # window 1: the last
        for game in games:
            network_seats = sum(spec == NETWORK for spec in game.seating)
            assert 0 < network_seats < 4 or league.isdisjoint(game.seating)
            assert len(game) > 0
    trainer = ZeroTrainer(smoke(tmp_path / "other", **{"selfplay.snapshots": 0.3}), quiet())
    drawn = [trainer._snapshot_seats(9, index)[0][0] for index in range(40)]
    assert drawn == [trainer._snapshot_seats(9, index)[0][0] for index in range(40)]  # seeded
    assert {Path(spec.split("=", 1)[1]).name for spec in drawn} == {f"iter-{i:04d}.npz" for i in range(9)}
    assert ZeroTrainer(smoke(tmp_path / "none"), quiet())._snapshot_seats(9, 0) == ()


def test_a_new_run_over_a_run_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "zero-smoke").mkdir()
    (tmp_path / "zero-smoke" / "state.json").write_text("{}")
    with pytest.raises(ZeroTrainError, match="already holds a run: continue it with --resume"):
        train_zero(smoke(tmp_path), console=quiet())
    with pytest.raises(ZeroTrainError, match="holds no run to resume"):
        train_zero(smoke(tmp_path / "elsewhere"), resume=True, console=quiet())


def test_a_resume_refuses_a_changed_config(tmp_path: Path) -> None:
    run = tmp_path / "zero-smoke"
    run.mkdir()
    saved: dict[str, Any] = smoke(tmp_path).resolved()
    saved["search"]["simulations"] = 99
    (run / "config.yaml").write_text(yaml.safe_dump(saved))
    with pytest.raises(ZeroTrainError, match=r"config differs in search\.simulations"):
        ZeroTrainer(smoke(tmp_path, **{"run.iterations": 5}), quiet()).prepare(resume=True)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The smoke run, uninterrupted, through the command line."""
    out = tmp_path_factory.mktemp("whole")
    assert main(["train", str(SMOKE), "--set", f"output={out}"]) == 0
    return out / "zero-smoke"


@pytest.mark.slow
def test_the_smoke_run(whole: Path) -> None:
    rows = read_curve(whole / "curve.csv")
    assert [r.iteration for r in rows] == [0, 1, 2]
    assert [r.eval_games > 0 for r in rows] == [False, False, True]  # eval.every 2, initial false
    assert 0 <= rows[2].ci_low <= rows[2].win_rate <= rows[2].ci_high <= 1
    assert (whole / "eval" / "iter-0002-vs-heuristic.sqlite").is_file()
    assert not [p for p in whole.rglob("*") if ".tmp" in p.name]
    assert rows[2].positions > rows[1].positions > 0 and rows[2].games == 4
    assert sorted(p.name for p in (whole / "learner").iterdir()) == ["iter-0002.pt"]
    assert play(f"zero-net:path={whole / 'latest.npz'}").is_over


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_network(whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    export = ZeroTrainer.export

    def killed(self: ZeroTrainer, learner: Learner, iteration: int) -> Path:
        if iteration == 2:
            raise Killed
        return export(self, learner, iteration)

    monkeypatch.setattr(ZeroTrainer, "export", killed)
    with pytest.raises(Killed):
        train_zero(smoke(tmp_path), console=quiet())
    run = tmp_path / "zero-smoke"
    assert json.loads((run / "state.json").read_text())["iteration"] == 1
    assert (run / "learner" / "iter-0002.pt").exists()  # the unfinished iteration's leftovers
    monkeypatch.setattr(ZeroTrainer, "export", export)
    with pytest.raises(ZeroTrainError, match="already holds a run"):
        train_zero(smoke(tmp_path), console=quiet())
    train_zero(smoke(tmp_path), resume=True, console=quiet())
    assert_same_network(run / "snapshots/iter-0002.npz", whole / "snapshots/iter-0002.npz")
    assert_same_network(run / "latest.npz", whole / "latest.npz")
    assert not (run / "learner" / "iter-0001.pt").exists()
    mine, theirs = read_curve(run / "curve.csv"), read_curve(whole / "curve.csv")
    np.testing.assert_equal([(r.positions, r.loss, r.win_rate) for r in mine],
                            [(r.positions, r.loss, r.win_rate) for r in theirs])


@pytest.mark.slow
def test_a_stopped_run_resumes_with_other_workers(whole: Path, tmp_path: Path) -> None:
    """Stopped after iteration 1 (run.iterations), played by two worker processes, then resumed to 2 by one."""
    train_zero(smoke(tmp_path, **{"run.iterations": 1, "selfplay.workers": 2}), console=quiet())
    assert_same_network(tmp_path / "zero-smoke/snapshots/iter-0001.npz", whole / "snapshots/iter-0001.npz")
    console = quiet()
    train_zero(smoke(tmp_path), resume=True, console=console)
    assert "resuming with changed settings: run.iterations, selfplay.workers" in console.file.getvalue()  # type: ignore[attr-defined]
    assert_same_network(tmp_path / "zero-smoke/latest.npz", whole / "latest.npz")
    train_zero(smoke(tmp_path), resume=True, console=quiet())  # a finished run resumed: nothing changes
    assert_same_network(tmp_path / "zero-smoke/latest.npz", whole / "latest.npz")


@pytest.mark.slow
@pytest.mark.ray
def test_ray_self_play_trains_the_same_network(whole: Path, tmp_path: Path) -> None:
    """``selfplay.backend: ray`` on a local Ray cluster of two CPUs: the same first iteration."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, configure_logging=False)
    try:
        config = smoke(tmp_path, **{"run.iterations": 1, "selfplay.backend": "ray", "eval.every": 0})
        train_zero(config, console=quiet())
    finally:
        ray.shutdown()
    assert_same_network(tmp_path / "zero-smoke/snapshots/iter-0001.npz", whole / "snapshots/iter-0001.npz")
