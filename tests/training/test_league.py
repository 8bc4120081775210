"""Self-play league: the pool schedule, the snapshot pool and the opponent draws of training episodes."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent
from training.config import config_from_dict
from training.league import OpponentSampler, SnapshotPool, pool_probability


def test_schedule_is_linear_between_points_and_flat_outside() -> None:
    schedule = [[0.2, 0.0], [0.6, 0.4], [0.8, 0.4]]
    assert pool_probability(schedule, 0.0) == 0.0
    assert pool_probability(schedule, 0.2) == 0.0
    assert pool_probability(schedule, 0.4) == pytest.approx(0.2)
    assert pool_probability(schedule, 0.7) == pytest.approx(0.4)
    assert pool_probability(schedule, 1.0) == pytest.approx(0.4)
    assert pool_probability([[0.5, 0.3]], 0.1) == 0.3


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=5), st.floats(0, 1))
def test_schedule_stays_within_its_points(points: list[tuple[float, float]], progress: float) -> None:
    schedule = sorted([list(p) for p in points])
    value = pool_probability(schedule, progress)
    ys = [p[1] for p in schedule]
    assert min(ys) - 1e-12 <= value <= max(ys) + 1e-12


def test_pool_keeps_the_newest_and_weights_the_latest() -> None:
    pool = SnapshotPool(capacity=3, latest_weight=0.5)
    for i in range(5):
        pool.add(f"s{i}.npz")
    pool.add("s4.npz")  # already in: nothing changes
    assert pool.paths == ["s2.npz", "s3.npz", "s4.npz"]
    w = pool.weights()
    assert w.sum() == pytest.approx(1.0)
    assert w[-1] == pytest.approx(0.5 + 0.5 / 3)
    assert w[0] == pytest.approx(w[1]) == pytest.approx(0.5 / 3)
    rng = np.random.default_rng(0)
    draws = Counter(pool.draw(rng) for _ in range(6000))
    assert abs(draws["s4.npz"] / 6000 - w[-1]) < 0.03
    with pytest.raises(ValueError, match="empty"):
        SnapshotPool(capacity=2).draw(rng)


def test_sampler_uses_reference_agents_until_the_pool_has_snapshots() -> None:
    sampler = OpponentSampler({"random": 1.0, "heuristic": 3.0}, [[0.0, 1.0]], SnapshotPool(capacity=2))
    rng = np.random.default_rng(1)
    names = Counter(n for _ in range(2000) for n in sampler.draw_names(3, rng))
    assert set(names) == {"random", "heuristic"}
    assert abs(names["heuristic"] / sum(names.values()) - 0.75) < 0.03


def test_sampler_follows_the_schedule_once_snapshots_exist() -> None:
    pool = SnapshotPool(capacity=4)
    pool.add("a.npz")
    pool.add("b.npz")
    sampler = OpponentSampler({"random": 1.0}, [[0.0, 0.0], [1.0, 0.8]], pool)
    rng = np.random.default_rng(2)
    for progress, expected in ((0.0, 0.0), (0.5, 0.4), (1.0, 0.8)):
        sampler.progress = progress
        names = [n for _ in range(3000) for n in sampler.draw_names(1, rng)]
        share = sum(n.startswith("pool:") for n in names) / len(names)
        assert abs(share - expected) < 0.03, (progress, share)


def test_sampler_builds_separate_instances_for_seat_copies_and_reuses_them() -> None:
    sampler = OpponentSampler({"random": 1.0})
    first = sampler.build(["random", "heuristic", "random"])
    assert isinstance(first[0], RandomAgent) and isinstance(first[1], HeuristicAgent)
    assert first[0] is not first[2]
    again = sampler.build(["random", "random", "heuristic"])
    assert again[0] is first[0] and again[1] is first[2] and again[2] is first[1]


@pytest.mark.train
def test_league_env_draws_opponents_per_episode_and_replays_from_a_seed() -> None:
    from training.envs import make_env

    config = config_from_dict({"opponents": {"mix": {"random": 1.0, "heuristic": 1.0}}})

    def episode(seed: int) -> tuple[list[str], int, list[int]]:
        env = make_env(config)
        _, info = env.reset(seed=seed)
        actions = []
        done = False
        rng = np.random.default_rng(0)
        while not done:
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            actions.append(a)
            _, _, term, trunc, info = env.step(np.int64(a))
            done = term or trunc
        return info["opponents"], info["seat"], actions

    assert episode(5) == episode(5)
    seen = {tuple(episode(s)[0]) for s in range(8)}
    assert len(seen) > 1  # opponents change between episodes


@pytest.mark.train
def test_league_env_takes_snapshots_and_progress() -> None:
    from training.envs import make_env

    env = make_env(config_from_dict({"league": {"enabled": True, "pool_size": 2}}), pool=["x.npz"])
    assert env.pool_paths() == ["x.npz"]
    env.add_snapshot("y.npz")
    env.add_snapshot("z.npz")
    assert env.pool_paths() == ["y.npz", "z.npz"]
    env.set_progress(0.25)
    assert env.sampler.progress == 0.25
