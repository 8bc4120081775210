"""The ``mcts`` agent: legal play at every player count, reproducibility, budgets, a won position, no peeking."""

from __future__ import annotations

import random
import time

import pytest
from agent_games import answers_alike, decide, play_game
from hidden_info import redeal
from positions import pick, position, random_game

from agents import AgentError, make_agent
from agents.mcts import BID_LEVELS, MctsAgent, candidates
from tribune_env import COMMIT, DECLINE, Action, Bid, DecisionKind, Game, GameConfig

FAST = "mcts:iterations=8,depth=10"


def _play(config: GameConfig, seed: int, spec: str = FAST) -> list[Action]:
    """A whole game with ``spec`` in every seat; checks every answer is legal; returns the choices."""
    return play_game([spec] * config.players, seed, config, reset_factor=10, identical=lambda _: True)[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_plays_complete_games_with_legal_actions(players: int) -> None:
    played = _play(GameConfig(players=players, round_limit=2), seed=players)
    assert played


def test_same_seed_and_iterations_give_the_same_game() -> None:
    config = GameConfig(players=3, round_limit=1)
    assert _play(config, seed=5) == _play(config, seed=5)


def test_opponents_by_the_rollout_policy() -> None:
    config = GameConfig(players=3, round_limit=1)
    spec = "mcts:iterations=8,depth=10,opponents=rollout"
    assert _play(config, seed=6, spec=spec) == _play(config, seed=6, spec=spec)


def test_heuristic_rollouts() -> None:
    game = random_game(3, seed=8, steps=60)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    agent = make_agent("mcts:iterations=6,depth=8,rollout=heuristic,opponents=rollout", 0)
    agent.reset(game.current_seat, game.config, 1)
    assert decide(agent, game) in game.legal_actions()


def test_time_budget_is_respected() -> None:
    game = random_game(4, seed=3, steps=40)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    agent = make_agent("mcts:seconds=0.05", 1)
    assert isinstance(agent, MctsAgent)
    start = time.perf_counter()
    decide(agent, game)
    assert time.perf_counter() - start < 0.5
    assert agent.last_iterations >= 1


def _takeover() -> Game:
    """Seat 0 may take the Legates in the last round: that wins the game; declining leaves seat 1 ahead."""
    return position(
        [{"hand": ["legates:3", "legates:4"], "money": 5}, {"laurels": 2, "money": 5}],
        phase="takeovers",
        followers={"faction:legates:1": 0},
        config={"round_limit": 1},
    )


def test_finds_the_winning_takeover() -> None:
    game = _takeover()
    agent = make_agent("mcts:iterations=60", 0)
    assert game.legal_actions() == [pick(game, "legates:3"), DECLINE]
    assert decide(agent, game) == pick(game, "legates:3")
    game.apply(pick(game, "legates:3"))
    game.apply(pick(game, "legates:4"))
    assert game.legal_actions() == [COMMIT, DECLINE]
    assert decide(agent, game) == COMMIT


@pytest.mark.parametrize(("seed", "steps"), [(1, 30), (2, 90), (3, 200)])
def test_does_not_peek_at_hidden_cards(seed: int, steps: int) -> None:
    """Two true games that differ only in cards hidden from the seat get the same answer."""
    game = random_game(4, seed=seed, steps=steps)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    seat = game.current_seat
    other = Game(redeal(game.python_state(), seat, random.Random(seed)))
    assert other.state.players != game.state.players or other.state.draw != game.state.draw
    answers_alike("mcts:iterations=30,depth=20", (game, other), seat)


def test_bias_pulls_towards_the_heuristic_answer() -> None:
    game = random_game(4, seed=9, steps=25)
    while len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    seat = game.current_seat
    heuristic = make_agent("heuristic", 0)
    heuristic.reset(seat, game.config, 0)
    expected = decide(heuristic, game)
    agent = make_agent("mcts:iterations=60,depth=0,bias=1000", 0)
    agent.reset(seat, game.config, 0)
    assert decide(agent, game) == expected


def test_bids_are_thinned_to_levels() -> None:
    game = position([{"money": 30}, {"money": 4}], phase="chariot_auction")
    assert game.pending is not None and game.pending.kind is DecisionKind.CHARIOT_BID
    thinned = candidates(game)
    assert thinned == [Bid(a) for a in sorted(BID_LEVELS) if a <= 30]
    answer = decide(make_agent("mcts:iterations=40", 0), game)
    assert answer in thinned


def test_single_choice_is_returned_at_once_even_without_info() -> None:
    agent = make_agent("mcts", 0)
    game = random_game(2, seed=4, steps=10)
    legal = game.legal_actions()[:1]
    assert agent.act(game.view(game.current_seat), legal, None) is legal[0]


def test_needs_the_infoset() -> None:
    game = random_game(2, seed=4, steps=10)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    with pytest.raises(AgentError, match="InfoSet"):
        make_agent("mcts", 0).act(game.view(game.current_seat), game.legal_actions(), None)


def test_spec_parameters() -> None:
    agent = make_agent("mcts:seconds=0.5,rollout=random,c=1.2,depth=0,opponents=rollout,norm=none", 0)
    assert isinstance(agent, MctsAgent)
    got = (agent.iterations, agent.seconds, agent.c, agent.rollout, agent.depth, agent.opponents, agent.norm)
    assert got == (None, 0.5, 1.2, "random", 0, "rollout", False)
    default = make_agent("mcts", 0)
    assert isinstance(default, MctsAgent) and default.iterations == 200 and default.seconds is None
    assert make_agent("mcts:iterations=400", 0).spec == "mcts:iterations=400"


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:iterations=0",
        "mcts:iterations=many",
        "mcts:seconds=0",
        "mcts:seconds=-1",
        "mcts:c=0",
        "mcts:rollout=greedy",
        "mcts:depth=-1",
        "mcts:opponents=none",
        "mcts:norm=global",
        "mcts:bias=-1",
        "mcts:width=3",
        "mcts:model.zip",
    ],
)
def test_bad_parameters_raise(spec: str) -> None:
    with pytest.raises(AgentError):
        make_agent(spec, 0)
