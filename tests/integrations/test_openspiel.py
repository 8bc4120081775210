"""Tribune as an OpenSpiel game (tribune_env.integrations.openspiel, issue 37): OpenSpiel's own checks
(``pyspiel.random_sim_test`` and the partial-tree API test of ``open_spiel.integration_tests.api_test``) for 2 to 5
players in the base game and the expansion, seats' strings that hold nothing hidden (the leak tests' standard, R1/R2),
and the example playing OpenSpiel's bots to the end of a game."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel
import pytest
from hidden_info import hide_and_redeal
from open_spiel.integration_tests import api_test
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from paths import ROOT

from tribune_env.engine.game import Game
from tribune_env.engine.view import player_view
from tribune_env.integrations.openspiel import BASE_NAME, EXPANSION_NAME, PLAYERS, TribuneState

pytestmark = pytest.mark.openspiel

NAMES = (BASE_NAME, EXPANSION_NAME)
SHORT = 2
"""Rounds of the quick variants (``round_limit``): a game of a few hundred decisions."""


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", NAMES)
def test_random_simulation_of_short_games(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "round_limit": SHORT})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", NAMES)
def test_random_simulation_of_whole_games(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _api_case(name: str, players: int) -> type:
    """OpenSpiel's partial-tree API test case (sampled states) for one loaded game."""
    game = pyspiel.load_game(name, {"players": players, "round_limit": SHORT})
    return type(f"API_{name}_{players}", (api_test.EnforceAPIOnPartialTreeBase,), {"game": game, "game_name": name})


def _api_test_names() -> list[str]:
    return sorted(n for n in dir(api_test.EnforceAPIOnPartialTreeBase) if n.startswith("test_"))


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("name", NAMES)
def test_openspiel_api_checks(name: str, players: int) -> None:
    """Every test of OpenSpiel's ``EnforceAPIOnPartialTreeBase`` passes on states sampled from the game."""
    import unittest

    case = _api_case(name, players)
    suite = unittest.TestSuite(case(method) for method in _api_test_names())
    result = unittest.TestResult()
    suite.run(result)
    assert result.testsRun == len(_api_test_names()) >= 5
    assert not result.errors and not result.failures, [str(e[1]) for e in result.errors + result.failures]


def _play_to_middle(state: Any, rng: random.Random, decisions: int) -> None:
    if state.is_chance_node():
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
    for _ in range(decisions):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", NAMES)
def test_a_seats_strings_and_tensor_hold_nothing_hidden(name: str) -> None:
    """R1/R2: re-dealing what a seat cannot know leaves its observation tensor and string unchanged; the tensor is
    the project's encoder's (the one the leak tests check)."""
    rng = random.Random(3)
    game = pyspiel.load_game(name, {"players": 4})
    state = game.new_initial_state()
    checked = 0
    for decisions in (0, 40, 120, 300):
        _play_to_middle(state, rng, decisions)
        if state.is_terminal():
            break
        assert isinstance(state, TribuneState) and state.game is not None
        for seat in range(4):
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(tensor, state._rules.encoder.encode(state.game.position(), seat))
            other = Game(hide_and_redeal(state.game.position(), seat, rng))
            assert player_view(other.state, seat) == player_view(state.game.position(), seat)
            assert other.render(seat) == state.observation_string(seat)
            assert state._rules.encoder.encode(other.state, seat).tobytes() == tensor.tobytes()
            checked += 1
    assert checked >= 8


def test_information_states_differ_between_seats_and_follow_each_seats_observations() -> None:
    rng = random.Random(5)
    game = pyspiel.load_game(BASE_NAME, {"players": 3, "round_limit": SHORT})
    state = game.new_initial_state()
    _play_to_middle(state, rng, 30)
    strings = [state.information_state_string(seat) for seat in range(3)]
    assert len(set(strings)) == 3
    before = state.information_state_string(0)
    clone = state.clone()
    assert clone.information_state_string(0) == before and clone.history() == state.history()
    actor = state.current_player()
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(actor) != before or actor != 0  # the actor's recall always grows
    assert clone.information_state_string(0) == before  # the clone is its own game


def test_uniform_random_bots_play_a_game_to_the_end() -> None:
    game = pyspiel.load_game(BASE_NAME, {"players": 3, "round_limit": SHORT})
    bots = [pyspiel.make_uniform_random_bot(seat, 10 + seat) for seat in range(3)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3 and sum(returns) == pytest.approx(0.0)


def test_the_example_runs_openspiels_bots_to_the_end_of_a_game() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "openspiel_bots.py"), "--players", "3", "--round-limit", "2"],
        capture_output=True, text=True, timeout=600, check=True,
    ).stdout
    assert "returns:" in out and "game over" in out


@pytest.mark.parametrize("name", NAMES)
def test_resampled_worlds_keep_what_the_seat_knows(name: str) -> None:
    """``resample_from_infostate``: the seat's information state, observation, legal actions and the history are
    the original's, what is hidden from it is dealt again (other hands differ between worlds), and the original is
    untouched."""
    game = pyspiel.load_game(name, {"players": 3, "round_limit": SHORT})
    state = game.new_initial_state()
    _play_to_middle(state, random.Random(8), 40)
    seat = state.current_player()
    before = state.game.to_json()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(6)]
    for world in worlds:
        assert isinstance(world, TribuneState) and world.history() == state.history()
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        np.testing.assert_array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
    own = {tuple(w.game.position().players[seat].hand) for w in worlds}
    assert own == {tuple(state.game.position().players[seat].hand)}  # the seat's own hand is its own
    hidden = {tuple(w.game.position().players[(seat + 1) % 3].hand) for w in worlds}
    assert len(hidden) > 1  # another seat's hand is dealt again
    assert state.game.to_json() == before
    fresh = game.new_initial_state()  # before the deal nothing is hidden: the copy is the state
    assert fresh.resample_from_infostate(0, sampler).is_chance_node()


def test_openspiels_ismcts_bot_plays_tribune_to_the_end() -> None:
    """OpenSpiel's own IS-MCTS bot (random rollouts) searches a seat's decisions over resampled worlds to the end
    of a short game."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(BASE_NAME, {"players": 3, "round_limit": SHORT})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(0),
                           allow_inconsistent_action_sets=True)
    rng = random.Random(0)
    state, searched = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert searched > 5 and sum(state.returns()) == pytest.approx(0.0)


def test_bad_parameters_are_named() -> None:
    with pytest.raises(Exception, match="players: 6 is not supported"):
        pyspiel.load_game(BASE_NAME, {"players": 6})
