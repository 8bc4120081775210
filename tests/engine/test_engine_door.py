"""One door to the engines (issue 41 item 3): ``engine=`` on ``Game.new``, ``from_json``, ``from_state`` and the
environments; exceptions, never ``SystemExit``, from library code; no silent hand-over of a native game to the
Python engine (``game.state`` warns, ``game.python_state()`` asks by name)."""

from __future__ import annotations

import json
import pickle
import random
import warnings

import pytest

from tribune_env.engine import native
from tribune_env.engine.game import Game
from tribune_env.engine.serialize import state_from_json
from tribune_env.envs.aec import raw_env
from tribune_env.envs.batched import TribuneBatchedEnv
from tribune_env.envs.single import TribuneSingleEnv
from tribune_env.envs.table import Table

needs_core = pytest.mark.skipif(not native.built(), reason="the native core is not built")


def _doc(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


@needs_core
def test_both_engines_give_the_same_document_from_one_seed() -> None:
    python = Game.new(players=4, seed=3, engine="python")
    core = Game.new(players=4, seed=3, engine="native")
    assert (python.engine, core.engine) == ("python", "native")
    assert _doc(python) == _doc(core)


@needs_core
@pytest.mark.parametrize(("environment", "asked"), [("native", "python"), ("python", "native"), ("auto", "python")])
def test_the_argument_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch, environment: str, asked: str) -> None:
    monkeypatch.setenv(native.ENGINE_ENV, environment)
    doc = Game.new(players=3, seed=1, engine="python").to_json()
    assert Game.new(players=3, seed=1, engine=asked).engine == asked
    assert Game.from_json(doc, engine=asked).engine == asked
    assert Game.from_state(state_from_json(doc), engine=asked).engine == asked


@needs_core
@pytest.mark.parametrize("environment", ["native", "python"])
def test_no_argument_reads_the_environment(monkeypatch: pytest.MonkeyPatch, environment: str) -> None:
    monkeypatch.setenv(native.ENGINE_ENV, environment)
    assert Game.new(players=2, seed=0).engine == environment


@pytest.mark.parametrize("bad", ["fortran", "Native", "", 3])
def test_a_name_that_is_no_engine_is_a_value_error_naming_engine(bad: object) -> None:
    with pytest.raises(ValueError, match=r"^engine: expected one of"):
        Game.new(players=2, seed=0, engine=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^engine: expected one of"):
        Table(players=2, engine=bad)  # type: ignore[arg-type]


def test_an_unbuilt_core_raises_an_exception_not_system_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "core_module", None)
    monkeypatch.setattr(native, "BUILD_ERROR", "No module named 'tribune_env._core'")
    with pytest.raises(native.NativeUnavailableError, match=r"^engine='native', but the native core is not built"):
        Game.new(players=2, seed=0, engine="native")
    monkeypatch.setenv(native.ENGINE_ENV, "native")
    with pytest.raises(native.NativeUnavailableError, match=r"^TRIBUNE_ENGINE=native, but the native core"):
        Game.new(players=2, seed=0)
    with pytest.raises(native.NativeUnavailableError):
        native.use_native()
    with pytest.raises(native.NativeUnavailableError, match=r"^engine='native'"):
        raw_env(players=2, engine="native")
    assert Game.new(players=2, seed=0, engine="python").engine == "python"  # the Python engine still runs


@needs_core
def test_reading_state_on_a_native_game_warns_and_python_state_asks_by_name() -> None:
    game = Game.new(players=4, seed=2, engine="native")
    with pytest.warns(DeprecationWarning, match=r"game\.python_state\(\)"):
        state = game.state
    assert game.engine == "python" and state is game.python_state()
    other = Game.new(players=4, seed=2, engine="native")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        live = other.python_state()  # named: no warning
        assert other.engine == "python" and live is other.state  # a Python game's state: no warning either
    assert _doc(other) == _doc(game)


@needs_core
def test_a_view_taken_before_the_hand_over_keeps_its_position() -> None:
    game = Game.new(players=3, seed=4, engine="native")
    seat = game.current_seat
    view = game.view(seat)
    expected = Game.new(players=3, seed=4, engine="python").view(seat).data
    game.python_state().round = 99  # the live state, mutated by hand after the hand-over
    assert view.data == expected


@needs_core
@pytest.mark.parametrize("engine", ["python", "native"])
def test_environments_play_on_the_engine_asked_for(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    monkeypatch.setenv(native.ENGINE_ENV, "python" if engine == "native" else "native")
    aec = raw_env(players=3, engine=engine)
    aec.reset(seed=1)
    assert aec.game.engine == engine
    assert pickle.loads(pickle.dumps(aec)).table.engine == engine
    single = TribuneSingleEnv(players=2, engine=engine)
    single.reset(seed=1)
    assert single.table.game.engine == engine
    batched = TribuneBatchedEnv(2, players=2, engine=engine)
    batched.reset(seed=0)
    assert {env.table.game.engine for env in batched.envs} == {engine}
    position = Game.new(players=3, seed=8, engine="python").to_json()
    aec.reset(options={"position": position})
    assert aec.game.engine == engine


@needs_core
def test_imitation_reads_native_games_where_they_are() -> None:
    from training.imitation import play_games
    from tribune_env.engine.config import GameConfig

    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # a hand-over (game.state) would raise here
        demos = play_games("random", GameConfig(players=2), [1], 1.0, "win_loss")
    assert len(demos) > 0


@needs_core
@pytest.mark.datasets
def test_datasets_read_native_games_where_they_are() -> None:
    from training.datasets import play_episodes
    from tribune_env.engine.config import GameConfig

    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        episodes = play_episodes(["random", "random"], GameConfig(players=2), 5)
    assert len(episodes) == 2


@needs_core
def test_both_engines_play_one_random_game_alike() -> None:
    games = [Game.new(players=5, seed=11, engine=name) for name in ("python", "native")]
    rng = random.Random(11)
    while not games[0].is_over:
        legal = games[0].legal_actions()
        assert games[1].legal_actions() == legal
        action = legal[rng.randrange(len(legal))]
        for game in games:
            game.apply(action)
    assert _doc(games[0]) == _doc(games[1])
