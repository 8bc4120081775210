"""The drawn board as RGB frames (``render_mode="rgb_array"``): one fixed size over whole games, the same picture
as the SVG, no hands shown, and a video written by Gymnasium's RecordVideo."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.wrappers import RecordVideo

import tribune_env
from tribune_env import Game
from tribune_env.board import FRAME_SHAPE, board_rgb, board_svg, svg_to_rgb
from tribune_env.board import raster as raster_module
from tribune_env.envs import TribuneSingleEnv

pytestmark = pytest.mark.render


def play(game: Game, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.slow
@pytest.mark.parametrize(
    "options", [{"players": 2}, {"players": 5, "expansion": True, "brutii": True}], ids=["base2", "brutii5"]
)
def test_frame_size_is_constant_over_a_whole_game(options: dict[str, object]) -> None:
    game = Game.new(seed=4, **options)
    rng = random.Random(4)
    frames = step = 0
    while True:
        if step % 4 == 0 or game.is_over:  # every 4th decision, and the end: the whole game, in a few seconds
            frame = board_rgb(game)
            assert frame.shape == FRAME_SHAPE and frame.dtype == np.uint8
            frames += 1
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    assert frames > 25


def test_frame_is_the_svg_without_hands() -> None:
    """The frame put together from cached pieces shows what rasterising the whole SVG shows."""
    game = Game.new(players=4, seed=7, expansion=True)
    play(game, 7, 90)
    frame = board_rgb(game).astype(int)
    whole = svg_to_rgb(board_svg(game, None, hands=False)).astype(int)
    assert np.abs(frame - whole).mean() < 2.0
    with_hands = svg_to_rgb(board_svg(game, None, hands=True)).astype(int)
    assert np.abs(frame - with_hands).mean() > np.abs(frame - whole).mean()


def test_frames_follow_the_game() -> None:
    game = Game.new(players=3, seed=1)
    before = board_rgb(game)
    play(game, 1, 20)
    assert not np.array_equal(before, board_rgb(game))


def test_missing_rasteriser_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(players=3, seed=1)
    board_rgb(game)  # every piece cached: the error must come all the same
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    raster_module._rasteriser.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"'render' extra .*pip install -e '\.\[render\]'"):
            board_rgb(game)
        env = TribuneSingleEnv(players=2, render_mode="rgb_array")
        env.reset(seed=0)
        with pytest.raises(ImportError, match="render"):
            env.render()
    finally:
        raster_module._rasteriser.cache_clear()


def test_envs_draw_fixed_frames() -> None:
    aec = tribune_env.env(players=3, render_mode="rgb_array")
    aec.reset(seed=2)
    assert aec.render().shape == FRAME_SHAPE
    single = TribuneSingleEnv(players=4, render_mode="rgb_array")
    single.reset(seed=2)
    assert single.render().shape == FRAME_SHAPE
    ansi = TribuneSingleEnv(players=4, render_mode="ansi")
    ansi.reset(seed=2)
    assert isinstance(ansi.render(), str)


@pytest.mark.slow
@pytest.mark.render
def test_record_video_writes_a_file(tmp_path: Path) -> None:
    env = RecordVideo(
        TribuneSingleEnv(players=3, render_mode="rgb_array", learner_seat=0),
        str(tmp_path / "videos"),
        episode_trigger=lambda episode: episode == 0,
        video_length=40,
        name_prefix="board",
    )
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    env.close()
    videos = list((tmp_path / "videos").glob("board*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


@pytest.mark.slow
def test_a_frame_takes_at_most_50_ms_of_cpu_over_a_game() -> None:
    """Issue 36's target, in CPU time (the wall time of a shared machine depends on its load): the median frame of
    the first 150 decisions of a game, as ``tribune bench`` times them. Measured on the 2-core machine under load
    13-15: 17-18 ms before the frame was put together by masked pastes, 11-13 ms after (wall: 59-63 ms, 37-46 ms)."""
    import time

    game = Game.new(players=4, seed=0)
    rng = random.Random(0)
    board_rgb(game)
    times = []
    while len(times) < 150 and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        start = time.process_time()
        board_rgb(game)
        times.append(time.process_time() - start)
    times.sort()
    assert times[len(times) // 2] < 0.050
