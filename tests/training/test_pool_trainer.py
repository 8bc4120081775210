"""The pool-backed PPO trainer (training.pool, issue 43): seats, rows, advantages, reproducibility and resume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from paths import CONFIGS

from tribune_env.envs.infoset import InfoSet

pytestmark = [pytest.mark.train, pytest.mark.usefixtures("one_torch_thread")]

from training.config import with_overrides  # noqa: E402
from training.pool.config import PoolConfig, pool_config_from_dict  # noqa: E402
from training.pool.gae import advantages  # noqa: E402
from training.pool.network import PolicyNet  # noqa: E402
from training.pool.opponents import LEARNER, SeatTable, build_opponents  # noqa: E402
from training.pool.rollout import Collector  # noqa: E402
from training.pool.run import PoolTrainer  # noqa: E402
from tribune_env.envs.pool import TribunePool  # noqa: E402

SHIPPED = "agents/models/ppo-4p.npz"

TINY: dict[str, Any] = {
    "algorithm": "ppo-pool", "name": "tiny", "seed": 3,
    "game": {"players": 4},
    "opponents": {"learner_seats": 1, "mix": {SHIPPED: 0.5, "self": 0.5}, "snapshot_every": 200,
                  "snapshot_pool": 2},
    "network": {"first_width": 16, "hidden": [8]},
    "ppo": {"games": 8, "steps": 8, "epochs": 1, "minibatch": 16, "torch_threads": 1, "device": "cpu"},
    "eval": {"every_minutes": 0, "games": 4, "opponents": []},
    "run": {"decisions": 256, "max_minutes": None, "progress_bar": False},
}


def tiny_config(tmp_path: Path, **over: Any) -> PoolConfig:
    return pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path), **over}, "test"), "test")


def collector(config: PoolConfig, games: int = 8) -> Collector:
    pool = TribunePool(games, config.game)
    net = PolicyNet(pool.encoder.size, pool.codec.n, 16, [8])
    opponents = build_opponents(config, torch.device("cpu"))
    opponents.add_snapshot(net)
    seats = SeatTable(games, 4, config.opponents.learner_seats, opponents.weights, np.random.default_rng(0))
    return Collector(pool, net, opponents, seats, torch.device("cpu"), torch.Generator().manual_seed(0), 5,
                     config.opponents.deterministic, carry=config.ppo.carry_pending, whole_games=config.ppo.whole_games)


def test_each_policy_moves_only_on_the_seats_it_owns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every row a policy decides is a row whose deciding seat that policy owns, and each step every game is
    decided by exactly one policy."""
    col = collector(tiny_config(tmp_path))
    seen: list[tuple[int, np.ndarray, np.ndarray]] = []
    learner_forward, opponent_forward = col._forward_learner, col._forward_opponent

    def learner(given: np.ndarray, rows: np.ndarray) -> Any:
        seen.append((LEARNER, rows.copy(), col.seats.owner[rows, col.seat[rows]].copy()))
        return learner_forward(given, rows)

    def opponent(policy_id: int, rows: np.ndarray) -> np.ndarray:
        seen.append((policy_id, rows.copy(), col.seats.owner[rows, col.seat[rows]].copy()))
        return opponent_forward(policy_id, rows)

    monkeypatch.setattr(col, "_forward_learner", learner)
    monkeypatch.setattr(col, "_forward_opponent", opponent)
    batch, stats = col.collect(40)
    assert {pid for pid, _, _ in seen} >= {LEARNER, 1}
    for policy_id, _, owners in seen:
        assert (owners == policy_id).all()
    assert sum(len(rows) for _, rows, _ in seen) == stats.decisions == 8 * 40
    assert len(col.store) + len(batch.trained()) == stats.learner_rows < stats.decisions


@pytest.mark.parametrize("deterministic", [True, False])
def test_deterministic_opponents_play_their_best_legal_action(tmp_path: Path, deterministic: bool) -> None:
    """``opponents.deterministic``: each opponent row's action is its network's masked argmax (as the real heuristic
    plays its best move); else a sample, which differs from the argmax on some rows."""
    config = tiny_config(tmp_path, **{"opponents.deterministic": deterministic})
    col = collector(config)
    played: list[tuple[np.ndarray, np.ndarray]] = []
    forward = col._forward_opponent

    def opponent(policy_id: int, rows: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = col.opponents.module(policy_id).logits(torch.from_numpy(col.obs[rows]))
        legal = torch.from_numpy(col.mask[rows].astype(bool))
        best = logits.masked_fill(~legal, -1e9).argmax(1).numpy()
        action = forward(policy_id, rows)
        assert col.mask[rows, action].all()
        played.append((action, best))
        return action

    col._forward_opponent = opponent  # type: ignore[method-assign]
    col.collect(30)
    actions = np.concatenate([a for a, _ in played])
    best = np.concatenate([b for _, b in played])
    assert len(actions) > 100
    assert (actions == best).all() == deterministic


def test_learner_rows_are_the_deciding_seats_own_observation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored row equals the InfoSet observation of the seat that decides (never another seat's hand)."""
    col = collector(tiny_config(tmp_path))
    checked: list[bool] = []
    seen: list[np.ndarray] = []
    forward = col._forward_learner

    def learner(given: np.ndarray, rows: np.ndarray) -> Any:
        np.testing.assert_array_equal(given, col.obs[rows])  # no sight: the network reads the observation alone
        seen.append(col.obs[rows].copy())
        for g in rows[:2]:
            game = col.pool.game(int(g))
            seat = int(col.seat[g])
            assert game.current_seat == seat
            own = InfoSet(game, seat).observation(col.pool.space)
            np.testing.assert_array_equal(col.obs[g], own)
            other = InfoSet(game, (seat + 1) % 4).observation(col.pool.space)
            checked.append(not np.array_equal(own, other))
        return forward(given, rows)

    monkeypatch.setattr(col, "_forward_learner", learner)
    col.collect(12)
    assert checked and all(checked)
    # the stored rows (no game has ended yet: all wait for their results) are the observations decided on, in order
    np.testing.assert_array_equal(col.store.obs[col.store.stored()], np.concatenate(seen))


def test_advantages_follow_each_seat_of_each_game() -> None:
    """Two seats interleaved in one game: each seat's advantages use its own next value and its own result."""
    value = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    # rows 0 (seat A), 1 (seat B), 2 (seat A), 3 (seat B); the game ends: A wins (+1), B loses (-1/3)
    next_row = np.array([2, 3, -1, -1])
    terminal = np.array([False, False, True, True])
    reward = np.array([0, 0, 1.0, -1 / 3], dtype=np.float32)
    adv, ret = advantages(value, reward, terminal, next_row, [0, 1, 2, 3], gamma=1.0, lam=0.5)
    a2 = 1.0 - 0.3
    a3 = -1 / 3 - 0.4
    a0 = (0.3 - 0.1) + 0.5 * a2
    a1 = (0.4 - 0.2) + 0.5 * a3
    np.testing.assert_allclose(adv, [a0, a1, a2, a3], rtol=1e-6)
    np.testing.assert_allclose(ret, adv + value, rtol=1e-6)


def test_an_unfinished_trajectory_bootstraps_with_its_own_value() -> None:
    adv, _ = advantages(np.array([0.5, 0.2], np.float32), np.zeros(2, np.float32), np.zeros(2, bool),
                        np.array([1, -1]), [0, 1], 1.0, 0.9)
    np.testing.assert_allclose(adv, [0.2 - 0.5, 0.0], atol=1e-7)


def test_advantages_refuse_links_backwards() -> None:
    with pytest.raises(ValueError, match="later rows"):
        advantages(np.zeros(2, np.float32), np.zeros(2, np.float32), np.zeros(2, bool), np.array([-1, 0]), [0, 1],
                   1.0, 0.9)


def curve_without_clock(path: Path) -> list[dict[str, str]]:
    import csv

    clocked = {"elapsed", "wall", "decisions_per_s", "pool_s", "learner_s", "opponents_s", "update_s", "table_s"}
    with path.open() as handle:
        return [{k: v for k, v in row.items() if k not in clocked} for row in csv.DictReader(handle)]


def test_the_same_seed_gives_the_same_run(tmp_path: Path) -> None:
    a = PoolTrainer(tiny_config(tmp_path / "a")).run()
    b = PoolTrainer(tiny_config(tmp_path / "b")).run()
    with np.load(a) as x, np.load(b) as y:
        for key in x.files:
            if key != "meta":
                np.testing.assert_array_equal(x[key], y[key])
    rows = curve_without_clock(a.parent / "curve.csv")
    assert rows == curve_without_clock(b.parent / "curve.csv")
    assert len(rows) == 4 and all(r["decisions"] and r["learner_rows"] for r in rows)


def test_another_seed_gives_another_run(tmp_path: Path) -> None:
    a = PoolTrainer(tiny_config(tmp_path / "a")).run()
    cfg = tiny_config(tmp_path / "b")
    b = PoolTrainer(pool_config_from_dict({**cfg.resolved(), "seed": 4}, "test")).run()
    with np.load(a) as x, np.load(b) as y:
        assert not np.array_equal(x["action.weight"], y["action.weight"])


def test_every_curve_row_has_decisions_and_elapsed(tmp_path: Path) -> None:
    final = PoolTrainer(tiny_config(tmp_path)).run()
    import csv

    with (final.parent / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    decisions = [int(r["decisions"]) for r in rows]
    assert decisions == sorted(decisions) and decisions[-1] >= 256
    assert all(float(r["elapsed"]) > 0 for r in rows)


def test_resume_continues_from_the_checkpoint(tmp_path: Path) -> None:
    first = tiny_config(tmp_path)
    PoolTrainer(first).run()
    more = pool_config_from_dict({**first.resolved(), "run": {**first.resolved()["run"], "decisions": 512}}, "test")
    trainer = PoolTrainer(more)
    final = trainer.run(resume=True)
    assert trainer.state.decisions == 512
    import csv

    with (final.parent / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["decisions"]) for r in rows] == [64, 128, 192, 256, 320, 384, 448, 512]
    walls = [float(r["wall"]) for r in rows]
    assert walls == sorted(walls)  # the wall clock goes on across the resume instead of starting again


def test_a_run_refuses_to_start_over_an_existing_one_and_a_changed_config(tmp_path: Path) -> None:
    from training.pool.run import PoolTrainError

    cfg = tiny_config(tmp_path)
    PoolTrainer(cfg).run()
    with pytest.raises(PoolTrainError, match="--resume"):
        PoolTrainer(cfg).run()
    other = pool_config_from_dict({**cfg.resolved(), "ppo": {**cfg.resolved()["ppo"], "clip": 0.3}}, "test")
    with pytest.raises(PoolTrainError, match=r"ppo\.clip"):
        PoolTrainer(other).run(resume=True)


def test_a_run_saved_before_an_option_existed_resumes_with_its_default(tmp_path: Path) -> None:
    import yaml

    from training.pool.run import PoolTrainError

    cfg = tiny_config(tmp_path)
    PoolTrainer(cfg).run()
    saved = cfg.run_dir / "config.yaml"
    data = yaml.safe_load(saved.read_text())
    del data["network"]["shared_first"]  # as a run of the code before network.shared_first wrote it
    saved.write_text(yaml.safe_dump(data))
    more = pool_config_from_dict({**cfg.resolved(), "run": {**cfg.resolved()["run"], "decisions": 320}}, "test")
    assert PoolTrainer(more).run(resume=True).exists()
    saved.write_text("ppo: [not, a, mapping")
    with pytest.raises(PoolTrainError, match="config cannot be read"):
        PoolTrainer(more).run(resume=True)


def test_the_export_plays_as_a_ppo_agent(tmp_path: Path) -> None:
    from agents.ppo import load_policy
    from training.pool.network import load_numpy_weights

    final = PoolTrainer(tiny_config(tmp_path)).run()
    policy = load_policy(final, tiny_config(tmp_path).game)
    assert policy.meta["trained_by"].startswith("tribune train")
    assert {"minutes", "cpus", "device"} <= set(policy.meta["training"])
    net = PolicyNet(policy.obs_size, policy.n_actions, 16, [8])
    load_numpy_weights(net, policy)
    obs = np.random.default_rng(0).random((3, policy.obs_size)).astype(np.float32)
    with torch.no_grad():
        np.testing.assert_allclose(net.logits(torch.from_numpy(obs)).numpy(), policy.logits(obs), rtol=1e-4,
                                   atol=1e-5)
        sparse = PolicyNet(policy.obs_size, policy.n_actions, 16, [8], first_layer="sparse")
        load_numpy_weights(sparse, policy)
        obs[:, ::3] = 0
        np.testing.assert_allclose(sparse.logits(torch.from_numpy(obs)).numpy(), policy.logits(obs), rtol=1e-4,
                                   atol=1e-5)


@pytest.mark.parametrize("shared_first", [True, False])
def test_a_wider_network_starts_playing_and_valuing_as_its_start(shared_first: bool) -> None:
    """``init_from`` a narrower network (net2net): the same logits and values until training; a narrower or deeper
    network, or another activation, is refused with both shapes named."""
    from agents.ppo import NumpyPolicy
    from training.pool.network import load_numpy_weights

    torch.manual_seed(3)
    small = PolicyNet(120, 9, 16, [8], shared_first=shared_first)
    with torch.no_grad():  # heads with a say (their initial weights are tiny)
        small.action.weight.normal_()
        small.value.weight.normal_()
    widths = [small.first_width, *small.hidden]
    meta = {"format": "tribune-ppo/1", "net": {"activation": "relu", "pi": widths, "vf": widths},
            "signature": {"observation": {"size": 120}, "actions": {"n": 9}}}
    policy = NumpyPolicy.from_arrays(meta, small.numpy_arrays())
    wide = PolicyNet(120, 9, 40, [24], shared_first=shared_first)
    load_numpy_weights(wide, policy)
    obs = torch.from_numpy(np.random.default_rng(1).random((64, 120)).astype(np.float32))
    with torch.no_grad():
        (small_logits, small_values), (wide_logits, wide_values) = small(obs), wide(obs)
        assert wide.first_weight[:, 16:].abs().sum() > 0  # the new units read the observation
    np.testing.assert_allclose(wide_logits.numpy(), small_logits.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(wide_values.numpy(), small_values.numpy(), rtol=1e-5, atol=1e-5)
    for other in (PolicyNet(120, 9, 8, [8], shared_first=shared_first), PolicyNet(120, 9, 16, [8, 8]),
                  PolicyNet(120, 9, 16, [8], activation="tanh")):
        with pytest.raises(ValueError, match=r"does not match .* each at most as wide"):
            load_numpy_weights(other, policy)


def test_bad_keys_are_named(tmp_path: Path) -> None:
    from training.config import ConfigError

    with pytest.raises(ConfigError, match=r"opponents\.learner_seats"):
        tiny_config(tmp_path, **{"opponents.learner_seats": 5})
    with pytest.raises(ConfigError, match=r"network\.first_layer"):
        tiny_config(tmp_path, **{"network.first_layer": "conv"})


def test_tribune_train_picks_the_pool_trainer_by_its_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    from tribune_cli.main import main

    assert main(["train", "configs/ppo-pool-4p.yaml", "--check", "--set", "ppo.games=64"]) == 0
    out = capsys.readouterr().out
    assert "algorithm: ppo-pool" in out and "games: 64" in out
    assert main(["train", "configs/zero-smoke.yaml", "--check"]) == 0
    assert "algorithm: zero" in capsys.readouterr().out


POOL_CONFIGS = sorted(path.stem for path in CONFIGS.glob("ppo-pool-*.yaml"))


@pytest.mark.parametrize("name", POOL_CONFIGS)
def test_shipped_pool_configs_load_and_their_opponents_fit(name: str) -> None:
    from agents.ppo import load_policy
    from training.pool.config import load_pool_config
    from training.pool.network import load_numpy_weights

    config = load_pool_config(f"configs/{name}.yaml")
    assert config.name == name
    assert pool_config_from_dict(config.resolved(), "resolved").resolved() == config.resolved()
    opponents = build_opponents(config, torch.device("cpu"))  # loads each network and checks it fits the game
    assert opponents.names and abs(opponents.weights.sum() - 1) < 1e-9
    if config.init_from:  # the start fits the config's network
        policy = load_policy(config.init_from, config.game)
        net = config.network
        load_numpy_weights(PolicyNet(policy.obs_size, policy.n_actions, net.first_width, net.hidden, net.activation,
                                     net.first_layer, net.shared_first), policy)


@pytest.mark.parametrize("steps", [2, 5])
def test_every_result_reaches_the_seats_last_row_across_rollouts(tmp_path: Path, steps: int) -> None:
    """A game that ends in a later rollout than its learner seat's last decision still gives that row its result:
    the row is carried (pending) into the next rollout, and left out of the update of the one it was made in."""
    col = collector(tiny_config(tmp_path, **{"ppo.games": 8, "ppo.whole_games": False}))
    terminal_rows = learner_games = 0
    for _ in range(600 // steps):
        batch, stats = col.collect(steps)
        trained = batch.trained()
        terminal_rows += int(batch.terminal[trained].sum())
        learner_games += stats.learner_games
        assert batch.pending is not None
        assert not batch.pending[trained].any() and len(trained) + int(batch.pending.sum()) == len(batch)
        # a pending row is there only as the successor a trained row bootstraps from, and waits in the store
        successors = batch.next_row[trained]
        assert set(np.flatnonzero(batch.pending)) <= set(successors[successors >= 0])
        assert not batch.terminal[batch.pending].any()
    assert learner_games >= 8
    assert terminal_rows == learner_games


@pytest.mark.parametrize("whole_games", [True, False])
def test_every_row_made_is_trained_once_as_it_was_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        whole_games: bool) -> None:
    """Across rollouts each learner row is trained exactly once, with the observation, mask, action and
    log-probability it was made with (rows wait in place, never copied or changed), or still waits at the end."""
    config = tiny_config(tmp_path, **{"ppo.games": 8, "ppo.whole_games": whole_games})
    col = collector(config)
    made: list[bytes] = []
    forward = col._forward_learner

    def learner(given: np.ndarray, rows: np.ndarray) -> Any:
        a, logp, value = forward(given, rows)
        for i, g in enumerate(rows):
            made.append(given[i].tobytes() + col.mask[g].tobytes() + a[i:i + 1].tobytes() + logp[i:i + 1].tobytes())
        return a, logp, value

    monkeypatch.setattr(col, "_forward_learner", learner)
    trained: list[bytes] = []
    for _ in range(60):
        batch, _ = col.collect(7)
        for i in batch.trained():
            trained.append(batch.obs[i].tobytes() + batch.mask[i].tobytes() + batch.action[i:i + 1].tobytes()
                           + batch.logp[i:i + 1].tobytes())
    store = col.store
    waiting = [store.obs[i].tobytes() + store.mask[i].tobytes() + store.action[i:i + 1].tobytes()
               + store.logp[i:i + 1].tobytes() for i in store.stored()]
    assert len(trained) > 200
    assert sorted(trained + waiting) == sorted(made)


def test_the_row_store_keeps_rows_in_place_as_it_grows() -> None:
    from training.pool.rows import RowStore

    store = RowStore(3, 2, capacity=4)
    first = store.alloc(3)
    assert first.tolist() == [0, 1, 2]
    store.obs[first] = np.arange(9, dtype=np.float32).reshape(3, 3)
    store.step[first] = [5, 4, 4]
    store.free(first[1:2])
    again = store.alloc(4)  # one free below the top, then growth
    assert again[0] == 1 and len(set(again.tolist()) | {0, 2}) == 6 and store.capacity >= 6
    np.testing.assert_array_equal(store.obs[[0, 2]], [[0, 1, 2], [6, 7, 8]])
    store.step[again] = [1, 2, 3, 3]
    assert store.in_order(np.array([0, 2, *again.tolist()])).tolist()[:2] == [1, again[1]]
    assert len(store) == 6
    with pytest.raises(ValueError, match="holds no row"):
        store.free(np.array([store.capacity - 1]))


def test_the_critic_warmup_leaves_the_actor_as_it_was(tmp_path: Path) -> None:
    from training.pool.ppo import update

    config = tiny_config(tmp_path, **{"ppo.whole_games": False})
    col = collector(config)
    batch, _ = col.collect(16)
    assert len(batch) > 20
    net = col.net
    obs = torch.from_numpy(batch.obs)
    before_logits, before_value = (t.detach().clone() for t in net(obs))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    adv = np.random.default_rng(0).normal(size=len(batch)).astype(np.float32)
    ret = np.ones(len(batch), dtype=np.float32)
    update(net, optimizer, batch, adv, ret, config.ppo, np.random.default_rng(1), torch.device("cpu"),
           critic_only=True)
    logits, value = (t.detach() for t in net(obs))
    torch.testing.assert_close(logits, before_logits, rtol=0, atol=0)
    assert float((value - 1).abs().mean()) < float((before_value - 1).abs().mean())
    update(net, optimizer, batch, adv, ret, config.ppo, np.random.default_rng(1), torch.device("cpu"))
    assert not torch.equal(net(obs)[0], before_logits)


@pytest.mark.parametrize("steps", [3, 40])
def test_whole_games_train_each_row_once_with_its_games_result(tmp_path: Path, steps: int) -> None:
    """``ppo.whole_games``: a rollout trains only rows whose trajectory reaches its game's end, so with gamma and
    lambda 1 each trained row's return is exactly its seat's result; every row is trained once, in the rollout where
    its game ended, and the rows of running games are carried whole, links intact."""
    config = tiny_config(tmp_path, **{"ppo.games": 8, "ppo.whole_games": True})
    col = collector(config)
    made = trained = results = 0
    for _ in range(900 // steps):
        batch, stats = col.collect(steps)
        _, ret = advantages(batch.value, batch.reward, batch.terminal, batch.next_row, batch.step_starts, 1.0, 1.0)
        keep = batch.trained()
        for row in keep:
            end = int(row)
            while batch.next_row[end] >= 0:
                end = int(batch.next_row[end])
            assert batch.terminal[end]
            assert ret[row] == pytest.approx(batch.reward[end], abs=1e-5)
        assert batch.pending is not None and not batch.terminal[batch.pending].any()
        made += stats.learner_rows
        trained += len(keep)
        results += stats.learner_games
    assert results >= 8
    assert made == trained + col.carried_rows


def test_a_network_with_its_own_critic_layer_starts_from_the_shipped_ppo_net(tmp_path: Path) -> None:
    """``network.shared_first: false`` takes the Stable-Baselines3 layout (the critic's own first layer) of
    ``ppo-4p.npz``: it plays and values exactly as the file, exports it unchanged, and a shared net refuses it."""
    from agents.ppo import load_policy
    from training.pool.network import critic_parameters, load_numpy_weights

    policy = load_policy(SHIPPED, tiny_config(tmp_path).game)
    net = PolicyNet(policy.obs_size, policy.n_actions, 256, [256], "tanh", shared_first=False)
    load_numpy_weights(net, policy)
    obs = np.random.default_rng(1).random((4, policy.obs_size)).astype(np.float32)
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs))
    np.testing.assert_allclose(logits.numpy(), policy.logits(obs), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value.numpy(), policy.value(obs), rtol=1e-4, atol=1e-4)
    arrays = policy.arrays()
    for name, array in net.numpy_arrays().items():
        np.testing.assert_allclose(array, arrays[name], rtol=0, atol=1e-6, err_msg=name)
    assert any(p is net.critic_first_weight for p in critic_parameters(net))
    shared = PolicyNet(policy.obs_size, policy.n_actions, 256, [256], "tanh")
    with pytest.raises(ValueError, match="shared_first"):
        load_numpy_weights(shared, policy)


def test_the_curriculum_deals_the_later_mix_after_its_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``opponents.later_after``: until that many decisions every game is dealt ``mix``'s opponents; from then on
    newly dealt games draw only from ``later_mix`` (here: the shipped ``zero-net``, a policy ``mix`` lacks), played
    as ``later_deterministic`` says; the switch survives a resume."""
    from training.config import ConfigError

    config = tiny_config(tmp_path, **{"opponents.later_after": 192, "opponents.later_mix": {"zero-net": 1.0},
                                      "opponents.later_deterministic": True, "run.decisions": 2048})
    trainer = PoolTrainer(config)
    dealt: list[tuple[int, np.ndarray]] = []
    deal = SeatTable.deal

    def spy(self: SeatTable, games: np.ndarray) -> None:
        deal(self, games)
        dealt.append((trainer.state.decisions, self.owner[games].copy()))

    monkeypatch.setattr(SeatTable, "deal", spy)
    modes: list[tuple[int, bool]] = []
    collect = Collector.collect

    def collect_spy(self: Collector, steps: int) -> Any:
        modes.append((trainer.state.decisions, self.deterministic_opponents))
        return collect(self, steps)

    monkeypatch.setattr(Collector, "collect", collect_spy)
    trainer.run()
    assert {m for d, m in modes if d < 192} == {False} and {m for d, m in modes if d >= 192} == {True}
    names = trainer.opponents.names
    zero_id = names.index("zero-net") + 1
    early = np.concatenate([o.ravel() for d, o in dealt if d < 192])
    late = np.concatenate([o.ravel() for d, o in dealt if d >= 256])
    assert len(late) and zero_id not in early
    assert set(late.tolist()) == {LEARNER, zero_id}
    assert trainer.opponents.later_weights is not None and trainer.seats.weights is trainer.opponents.later_weights
    with pytest.raises(ConfigError, match=r"opponents\.later_mix"):
        tiny_config(tmp_path, **{"opponents.later_after": 10})


def test_a_mix_names_the_shipped_network_of_the_games_rule_set():
    """``opponents.mix`` and ``zero``'s ``init_from`` share one resolver: ``ppo`` and ``zero-net`` name the rule set's
    network, the other names stay paths."""
    from training.pool.opponents import opponent_path

    base = pool_config_from_dict({"algorithm": "ppo-pool"})
    expansion = pool_config_from_dict({"algorithm": "ppo-pool", "game": {"expansion": True}})
    assert opponent_path("ppo", base).name == "ppo-4p.npz"
    assert opponent_path("ppo", expansion).name == "ppo-expansion-4p.npz"
    assert opponent_path("zero-net", base).name == "zero-4p.npz"
    assert opponent_path("ppo-brutii", base).name == "ppo-expansion-brutii.npz"
    assert opponent_path("runs/x/final.npz", base) == Path("runs/x/final.npz")
    assert opponent_path("distilled", base) == Path(base.opponents.distilled)


def test_anneal_lr_lowers_the_learning_rate_linearly_to_zero_at_the_runs_decisions(tmp_path: Path) -> None:
    import csv

    final = PoolTrainer(tiny_config(tmp_path, **{"ppo.anneal_lr": True, "ppo.learning_rate": 0.001})).run()
    with (final.parent / "curve.csv").open() as handle:
        rows = [r for r in csv.DictReader(handle) if r["kind"] == "train"]
    made = [0] + [int(r["decisions"]) for r in rows[:-1]]  # each update's rate is set from the decisions before it
    rates = [float(r["learning_rate"]) for r in rows]
    assert rates == pytest.approx([0.001 * (1 - d / 256) for d in made], rel=1e-3)
    assert rates[0] == pytest.approx(0.001) and rates == sorted(rates, reverse=True)
    plain = PoolTrainer(tiny_config(tmp_path / "plain", **{"ppo.learning_rate": 0.001})).run()
    with (plain.parent / "curve.csv").open() as handle:
        assert {float(r["learning_rate"]) for r in csv.DictReader(handle) if r["kind"] == "train"} == {0.001}
