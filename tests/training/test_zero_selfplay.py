"""Self-play games of the zero trainer: what a game records, that it is reproducible from its seed alone (in this
process or a worker), and the replay window."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from agents.zero import PPO_MODELS, ZeroSettings
from training.zero.replay import Positions, ReplayBuffer
from training.zero.selfplay import NETWORK, GameData, SelfPlayJob, job_seed, make_pool, play_game
from tribune_env.engine import native
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game

TINY = ZeroSettings(simulations=4, candidates=2, depth=4, explore=True)


def job(index: int = 0, **changes: object) -> SelfPlayJob:
    base = SelfPlayJob(GameConfig(), str(PPO_MODELS[RuleSet.BASE]), TINY, 0.5, "greedy", (("heuristic", 0.25),),
                       job_seed(7, 1, index), index)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def game() -> GameData:
    return play_game(job())


def test_a_game_records_the_network_seats(game: GameData) -> None:
    rows = len(game)
    assert rows > 20 and game.decisions > rows
    assert NETWORK in game.seating and len(game.seating) == 4
    assert game.obs.dtype == np.float16 and game.obs.shape == (rows, 1669)
    assert game.masks.shape == game.targets.shape == (rows, 198)
    assert 0.25 < game.searched.mean() < 0.75  # full_search 0.5 (a searched seat with one codec choice is not)
    targets = game.targets.astype(np.float64)
    np.testing.assert_allclose(targets[game.searched].sum(axis=1), 1.0, atol=2e-3)
    assert (targets[~game.searched] == 0).all()
    assert (targets[~game.masks] == 0).all()  # no target mass on an illegal action
    assert set(game.values.tolist()) <= set(np.array(game.outcome, dtype=np.float32).tolist())
    assert game.simulations > 0


def test_a_game_depends_on_its_seed_only(game: GameData) -> None:
    again = play_game(job())
    for name in ("obs", "masks", "targets", "searched", "values"):
        np.testing.assert_array_equal(getattr(again, name), getattr(game, name))
    assert again.seating == game.seating


def test_opponent_shares_and_fast_moves() -> None:
    alone = play_game(job(full_search=0.0, opponents=(), fast_moves="sample"))
    assert alone.seating == [NETWORK] * 4
    assert not alone.searched.any() and alone.simulations == 0
    assert len(alone) == alone.decisions  # every decision is a network seat's; auto_forced leaves none forced


def test_an_opponent_model_plays_the_searches_other_seats() -> None:
    """``search.others``: the searches' playouts give the other seats to the model, so the game and its labels
    change (the seats at the table are the same)."""
    model = str(Path(__file__).parents[2] / "training/pool/models/heuristic-4p.npz")
    plain, modelled = play_game(job(full_search=1.0)), play_game(job(full_search=1.0, others=model))
    assert modelled.seating == plain.seating and modelled.searched.any()
    assert modelled.targets.tobytes() != plain.targets.tobytes()
    again = play_game(job(full_search=1.0, others=model))
    assert again.targets.tobytes() == modelled.targets.tobytes()  # reproducible from its seed


def test_choice_targets_follow_the_agents_own_search() -> None:
    """``explore: false`` searches only where the network is unsure (the zero agent's threshold); ``target: choice``
    puts all of a searched position's target on the action the search chose, a legal one."""
    unsure = ZeroSettings(simulations=4, candidates=2, depth=4, threshold=0.95, explore=False)
    data = play_game(job(search=unsure, full_search=1.0, target="choice", search_moves=0.0))
    assert 0 < data.searched.sum() < len(data)  # confident decisions are played without a search
    targets = data.targets[data.searched].astype(np.float64)
    assert ((targets == 0) | (targets == 1)).all() and (targets.sum(axis=1) == 1).all()
    assert data.masks[data.searched][targets == 1].all()


def test_significant_targets_overrule_the_network_only_by_a_margin() -> None:
    """``target: significant``: the search's choice is the label only where its mean value beats the network's own
    choice's by ``margin``; otherwise the label is the network's choice."""
    from agents.zero import SearchResult
    from training.zero.selfplay import _policy_target

    logits = np.array([0.0, 2.0, 1.0, -1.0], dtype=np.float32)  # the network's own choice: action 1
    mask = np.array([True, True, True, False])
    result = SearchResult(0, 2, logits, mask, candidates=[1, 2, 0], q=[0.10, 0.25, -0.2], visits=[8, 8, 4],
                          searched=True)
    assert _policy_target(result, "choice").tolist() == [0, 0, 1, 0]  # type: ignore[union-attr]
    assert _policy_target(result, "significant", 0.1).tolist() == [0, 0, 1, 0]  # type: ignore[union-attr]
    assert _policy_target(result, "significant", 0.2).tolist() == [0, 1, 0, 0]  # type: ignore[union-attr]
    skipped = SearchResult(0, 1, logits, mask)
    assert _policy_target(skipped, "significant", 0.1) is None


def test_clear_labels_are_overrules_by_the_margin() -> None:
    """A clear label: the search's choice differs from the network's own and beats it by ``margin`` in mean value
    (both searched); a skipped search, the network's own choice or an unsearched own choice is none."""
    from agents.zero import SearchResult
    from training.zero.selfplay import overrules

    logits = np.array([0.0, 2.0, 1.0, -1.0], dtype=np.float32)  # the network's own choice: action 1
    mask = np.array([True, True, True, False])
    result = SearchResult(0, 2, logits, mask, candidates=[1, 2, 0], q=[0.10, 0.25, -0.2], visits=[8, 8, 4],
                          searched=True)
    assert overrules(result, 0.15) and not overrules(result, 0.16)
    assert not overrules(dataclasses.replace(result, index=1), 0.0)  # the search agrees with the network
    assert not overrules(dataclasses.replace(result, candidates=[2, 0, 3]), 0.0)  # own choice not searched
    assert not overrules(SearchResult(0, 2, logits, mask), 0.0) and not overrules(None, 0.0)


def test_search_gain_is_the_mean_value_over_the_networks_own_choice() -> None:
    """``search_gain`` (the learner's ``gain_scale`` weighs labels by it): the search's choice's mean value minus the
    network's own choice's; 0 where they are the same; NaN without a search or an unsearched own choice."""
    from agents.zero import SearchResult
    from training.zero.selfplay import search_gain

    logits = np.array([0.0, 2.0, 1.0, -1.0], dtype=np.float32)  # the network's own choice: action 1
    mask = np.array([True, True, True, False])
    result = SearchResult(0, 2, logits, mask, candidates=[1, 2, 0], q=[0.10, 0.25, -0.2], visits=[8, 8, 4],
                          searched=True)
    assert search_gain(result) == pytest.approx(0.15)
    assert search_gain(dataclasses.replace(result, index=1)) == 0.0
    assert np.isnan(search_gain(dataclasses.replace(result, candidates=[2, 0, 3])))
    assert np.isnan(search_gain(SearchResult(0, 2, logits, mask))) and np.isnan(search_gain(None))


def test_a_significant_label_on_the_networks_own_choice_teaches_nothing() -> None:
    """``label_gain``: under ``target: significant`` a search that does not overrule by ``margin`` leaves the label
    on the network's own choice, which teaches nothing (0), so ``gain_scale`` trains on the overrules alone; an
    overrule keeps its gain, an unsearched own choice stays unknown; other targets keep the search's gain."""
    from agents.zero import SearchResult
    from training.zero.selfplay import label_gain

    logits = np.array([0.0, 2.0, 1.0, -1.0], dtype=np.float32)  # the network's own choice: action 1
    mask = np.array([True, True, True, False])
    result = SearchResult(0, 2, logits, mask, candidates=[1, 2, 0], q=[0.10, 0.25, -0.2], visits=[8, 8, 4],
                          searched=True)
    assert label_gain(result, "significant", 0.2) == 0.0  # 0.15 under the margin: the label is the network's
    assert label_gain(result, "significant", 0.1) == pytest.approx(0.15)  # an overrule
    assert label_gain(result, "improved", 0.2) == pytest.approx(0.15)
    assert label_gain(result, "choice", 0.2) == pytest.approx(0.15)
    assert np.isnan(label_gain(dataclasses.replace(result, candidates=[2, 0, 3]), "significant", 0.2))
    assert np.isnan(label_gain(None, "significant", 0.1))


def test_a_game_records_each_searchs_gain(game: GameData) -> None:
    """Every labelled position has its search's gain (finite where the network's own choice was searched: with
    Gumbel exploration, not always); an unlabelled one has none."""
    assert game.gains.shape == (len(game),) and game.gains.dtype == np.float32
    assert np.isnan(game.gains[~game.searched]).all()
    known = game.gains[game.searched & ~np.isnan(game.gains)]
    assert len(known) > 0
    unsure = ZeroSettings(simulations=8, candidates=3, depth=4, explore=False, threshold=1.0)
    own = play_game(job(search=unsure, full_search=1.0, target="choice", search_moves=0.0, opponents=()))
    labelled = own.searched
    assert not np.isnan(own.gains[labelled]).any()  # the agent's own search always searches its favourite
    assert (own.gains[labelled] > 0).any() and (own.gains[labelled] == 0).any()  # overrules and agreements
    held = play_game(job(search=unsure, full_search=1.0, target="significant", margin=10.0, search_moves=0.0,
                         opponents=()))
    assert held.searched.any() and (held.gains[held.searched] == 0).all()  # no overrule: no label teaches


class _Handovers:
    """Counts reads of ``game.state`` on native games (each hands its game over to the Python engine)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        live = vars(Game)["state"].fget  # the property itself (mypy reads Game.state as its getter)

        def state(game: Game) -> object:
            if game.native_core is not None:
                self.count += 1
            return live(game)

        monkeypatch.setattr(Game, "state", property(state))


NATIVE_JOB = {"index": 3, "margin": 0.0, "opponents": (("heuristic", 0.25), ("random", 0.25))}


@pytest.mark.skipif(not native.built(), reason="the native core is not built")
def test_a_native_game_stays_native(monkeypatch: pytest.MonkeyPatch) -> None:
    """Self-play on the native core never reads ``game.state`` (which hands a game to the Python engine), in the
    game or in its searches' deals; it finds clear labels."""
    handovers = _Handovers(monkeypatch)
    monkeypatch.setenv(native.ENGINE_ENV, "native")
    data = play_game(job(**NATIVE_JOB))  # type: ignore[arg-type]
    assert handovers.count == 0
    assert 0 < data.clear < data.searched.sum()


@pytest.mark.slow
@pytest.mark.skipif(not native.built(), reason="the native core is not built")
def test_a_native_game_records_the_python_engines_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same job on both engines records the same positions, targets, values and clear labels, bit for bit."""
    handovers = _Handovers(monkeypatch)
    monkeypatch.setenv(native.ENGINE_ENV, "native")
    fast = play_game(job(**NATIVE_JOB))  # type: ignore[arg-type]
    assert handovers.count == 0
    monkeypatch.setenv(native.ENGINE_ENV, "python")
    spec = play_game(job(**NATIVE_JOB))  # type: ignore[arg-type]
    for name in ("obs", "masks", "targets", "searched", "values"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(spec, name))
    assert (fast.seating, fast.decisions, fast.simulations, fast.clear) == (
        spec.seating, spec.decisions, spec.simulations, spec.clear)


def test_confirm_keeps_the_overrules_a_second_search_repeats() -> None:
    """With ``confirm``, an overrule is searched again; where that search does not overrule with the same action the
    label is the network's choice and it is not counted clear. The game itself does not change."""
    unsure = ZeroSettings(simulations=8, candidates=2, depth=4, threshold=0.95, explore=False)
    base = job(2, search=unsure, full_search=1.0, target="significant", margin=0.0, opponents=(("heuristic", 0.5),))
    plain = play_game(base)
    checked = play_game(dataclasses.replace(base, confirm=8))
    for name in ("obs", "masks", "searched", "values"):
        np.testing.assert_array_equal(getattr(checked, name), getattr(plain, name))
    relabelled = (checked.targets != plain.targets).any(axis=1)
    assert 0 < checked.clear < plain.clear
    assert relabelled.sum() == plain.clear - checked.clear
    assert checked.simulations > plain.simulations


def test_value_positions_keep_that_many_results_per_game(game: GameData) -> None:
    """``value_positions: 5``: the same game, five positions with the result as value target, NaN at the rest."""
    fewer = play_game(job(value_positions=5))
    for name in ("obs", "masks", "targets", "searched"):
        np.testing.assert_array_equal(getattr(fewer, name), getattr(game, name))
    valued = ~np.isnan(fewer.values)
    assert valued.sum() == 5
    np.testing.assert_array_equal(fewer.values[valued], game.values[valued])
    assert not np.isnan(play_game(job(value_positions=len(game) + 1)).values).any()  # more than the game has: all


def test_search_moves_choose_whose_move_is_played() -> None:
    """With ``search_moves: 0`` the seat plays the network's move at searched decisions too, so its game is the one
    it plays without searching; the labels stay the search's."""
    unsure = ZeroSettings(simulations=4, candidates=2, depth=4, threshold=0.95, explore=False)
    labelled = play_game(job(search=unsure, full_search=1.0, target="choice", search_moves=0.0, opponents=()))
    plain = play_game(job(search=unsure, full_search=0.0, opponents=()))
    np.testing.assert_array_equal(labelled.obs, plain.obs)
    assert labelled.searched.any() and not plain.searched.any()


def test_the_replay_window_keeps_the_newest_positions() -> None:
    def part(rows: int, value: float) -> Positions:
        p = Positions.empty(3, 2)
        return Positions(np.zeros((rows, 3), np.float16), np.ones((rows, 2), bool), np.zeros((rows, 2), np.float16),
                         np.zeros(rows, bool), np.full(rows, value, np.float32)) if rows else p

    buffer = ReplayBuffer(5, 3, 2)
    for iteration, rows in ((1, 3), (2, 0), (3, 4)):
        buffer.add(iteration, part(rows, float(iteration)))
    assert buffer.data.values.tolist() == [1.0, 3.0, 3.0, 3.0, 3.0]
    assert buffer.iterations() == [1, 2, 3]  # the shards load() reads back (an empty one too)


def test_worker_processes_give_the_same_games() -> None:
    jobs = [job(i, full_search=0.2) for i in range(3)]
    expected = [play_game(j) for j in jobs]
    pool = make_pool("multiprocessing", 2)
    try:
        got = pool.run(jobs)
    finally:
        pool.close()
    assert [g.index for g in got] == [0, 1, 2]
    for a, b in zip(got, expected, strict=True):
        for name in ("obs", "masks", "targets", "searched", "values"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_pool_workers_end_when_the_trainer_is_killed(tmp_path: Path) -> None:
    """A trainer killed with SIGKILL cannot close its pool; its forkserver workers end by themselves (watch_parent)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    pid_file = tmp_path / "worker.pid"
    trainer = (
        "import multiprocessing, os, sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})\n"
        "from training.zero.selfplay import watch_parent\n"
        "def work(path):\n"
        "    open(path, 'w').write(str(os.getpid()))\n"
        "    time.sleep(120)\n"
        "if __name__ == '__main__':\n"
        "    ctx = multiprocessing.get_context('forkserver')\n"
        "    pool = ctx.Pool(1, initializer=watch_parent, initargs=(os.getpid(),))\n"
        f"    pool.apply_async(work, ({str(pid_file)!r},))\n"
        "    time.sleep(120)\n"
    )
    script = tmp_path / "trainer.py"  # a file: forkserver workers import the main module's functions from it
    script.write_text(trainer)
    proc = subprocess.Popen([sys.executable, str(script)], cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        worker = int(pid_file.read_text())
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while True:
            try:
                os.kill(worker, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, "the pool's worker outlived the killed trainer"
            time.sleep(0.1)
    finally:
        proc.kill()
