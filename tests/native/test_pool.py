"""TribunePool: many games stepped by the native core play exactly as Game does, with rows, rewards and resets."""

from __future__ import annotations

import numpy as np
import pytest

from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.pool import TribunePool
from tribune_env.envs.rewards import win_loss

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built: {native.BUILD_ERROR}")


@pytest.mark.parametrize(("rules", "players"), [("base", 3), ("expansion", 4), ("brutii", 5)])
def test_pool_rows_are_those_of_games_played_alone(rules: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.ENGINE_ENV, "python")  # the reference games on the Python engine
    config = GameConfig.for_rules(rules, players=players, round_limit=4)
    pool = TribunePool(3, config, threads=2)
    obs, mask, seat = pool.reset(seed=40)
    games = [Game.new(config, seed=40 + i) for i in range(3)]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        for i, game in enumerate(games):
            assert seat[i] == game.current_seat
            np.testing.assert_array_equal(obs[i], pool.encoder.encode_game(game, game.current_seat))
            np.testing.assert_array_equal(mask[i].astype(np.int8), pool.codec.mask_game(game, game.current_seat))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int32)
        for i, game in enumerate(games):
            game.apply(pool.codec.decode(int(actions[i]), game.current_seat, players))
        seeds = pool.episode_seeds()
        obs, mask, seat, reward, done = pool.step(actions)
        assert not pool.illegal.any()
        for i, game in enumerate(games):
            if game.is_over:
                ended += 1
                assert done[i]
                np.testing.assert_allclose(reward[i], win_loss(game), rtol=1e-6)
                games[i] = Game.new(config, seed=pool.episode_seeds()[i])
                assert pool.episode_seeds()[i] != seeds[i]
            else:
                assert not done[i] and not reward[i].any()
    assert ended >= 3


def test_an_illegal_index_leaves_its_game_unchanged() -> None:
    pool = TribunePool(2, players=4)
    _, mask, _ = pool.reset(seed=3)
    before = pool.game(0).to_json()
    bad = int(np.flatnonzero(mask[0] == 0)[0])
    good = int(np.flatnonzero(mask[1])[0])
    pool.step(np.array([bad, good]))
    assert pool.illegal.tolist() == [True, False]
    assert pool.game(0).to_json() == before


def test_random_steps_write_observations() -> None:
    pool = TribunePool(8, players=4)
    pool.reset(seed=0)
    obs, mask, seat, _, _ = pool.step_random(200)
    assert obs.shape == (8, pool.encoder.size) and mask.any(axis=1).all() and (seat >= 0).all()


def test_every_method_before_reset_works_or_raises() -> None:
    """Issue 41, N2: stepping before reset divided by zero in batch.cpp (SIGFPE); now a RuntimeError naming reset."""
    pool = TribunePool(3, players=4, threads=2)
    for call in (lambda: pool.step_random(), lambda: pool.step(np.zeros(3, np.int32)), lambda: pool.game(0)):
        with pytest.raises(RuntimeError, match=r"reset\(\) first"):
            call()
    with pytest.raises(RuntimeError, match="reset first"):  # the core's own guard, under its lock
        pool._pool.step_random(1)
    assert not pool.illegal.any() and pool.episode_seeds() == [0, 0, 0]
    _, mask, seat = pool.reset(seed=1)
    assert mask.any(axis=1).all() and (seat >= 0).all()
    with pytest.raises(IndexError):
        pool.game(3)


def test_one_pool_stepped_from_several_threads_survives() -> None:
    """Issue 41, N5: two threads stepping one pool died of SIGFPE or a use-after-free within a second; the pool's
    lock makes the calls take turns. Run in a child process: a signal there is the failure."""
    from support.native_fuzz import run_pool_threads

    status, output = run_pool_threads(threads=4, rounds=60)
    assert status == 0, f"status {status}: {output}"


@pytest.mark.slow
def test_one_pool_stepped_from_many_threads_for_long_survives() -> None:
    from support.native_fuzz import run_pool_threads

    status, output = run_pool_threads(threads=8, rounds=1500, native_threads=3)
    assert status == 0, f"status {status}: {output}"
