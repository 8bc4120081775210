"""The agent interface: specs, the registry, complete games for every reference agent, determinism,
the action notation used to store games, and the information-set sampler agents search with (R1, R2)."""

from __future__ import annotations

import random

import pytest
from agent_games import play_game, texts
from hidden_info import redeal
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_game

from agents import Agent, AgentError, make_agent, parse_spec
from agents.specs import agent_names
from tribune_env import Game, GameConfig
from tribune_env.engine.determinize import resample
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.serialize import state_to_json
from tribune_env.engine.view import player_view
from tribune_env.envs.infoset import InfoSet

# cheap budgets so that every agent plays whole games quickly
QUICK = {"random": "random", "heuristic": "heuristic", "greedy": "greedy", "mcts": "mcts:iterations=8"}


def play(specs: list[str], seed: int, **options: object) -> tuple[Game, list[str]]:
    """Play one game between the agents of ``specs`` (seat order); returns the game and its action texts."""
    game, actions = play_game(specs, seed, **options)
    return game, texts(actions)


# -- specs ---------------------------------------------------------------------------------


def test_spec_parsing() -> None:
    assert parse_spec("random").name == "random"
    assert parse_spec("mcts:iterations=400,rollout=random").params == (("iterations", "400"), ("rollout", "random"))
    assert parse_spec("ppo:path/to/model.zip").params == (("path", "path/to/model.zip"),)
    assert str(parse_spec("mcts:iterations=400")) == "mcts:iterations=400"
    assert str(parse_spec("ppo:m.zip")) == "ppo:m.zip"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("", "non-empty"),
        ("nosuch", "unknown agent 'nosuch'"),
        ("mcts:iterations", "unknown agent"),  # a bare argument is a path; mcts has none -> unknown param below
        ("mcts:iterations=abc", "expected an integer"),
        ("mcts:iterations=0", "must be >= 1"),
        ("random:speed=3", "has no parameter"),
        ("heuristic:a=1,a=2", "given twice"),
        ("mcts:=3", "expected key=value"),
    ],
)
def test_bad_specs_name_the_problem(spec: str, words: str) -> None:
    if spec == "mcts:iterations":
        with pytest.raises(AgentError, match="no parameter"):
            make_agent(spec)
        return
    with pytest.raises(AgentError, match=words):
        make_agent(spec)


def test_every_reference_agent_is_registered() -> None:
    assert {"random", "greedy", "heuristic", "mcts"} <= set(agent_names())
    for name in ("random", "greedy", "heuristic", "mcts"):
        agent = make_agent(QUICK[name], seed=0)
        assert isinstance(agent, Agent)
        assert agent.spec == QUICK[name]


# -- whole games ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("name", ["random", "heuristic", "greedy", "mcts"])
def test_each_agent_plays_complete_games(name: str, players: int) -> None:
    """Each reference agent completes games at 2-5 players against the others, returning only legal actions."""
    rest = ["heuristic", "random", "greedy", "random"]
    specs = [QUICK[name], *rest[: players - 1]]
    round_limit = 60 if name in ("random", "heuristic", "greedy") else 2
    game, texts = play(specs, seed=players, round_limit=round_limit)
    assert game.is_over and texts
    assert game.winners


@pytest.mark.parametrize("name", ["random", "heuristic", "greedy", "mcts"])
def test_agents_are_deterministic_given_their_seed(name: str) -> None:
    specs = [QUICK[name], "random", "heuristic"]
    assert play(specs, seed=7, round_limit=2)[1] == play(specs, seed=7, round_limit=2)[1]


def test_stored_actions_replay_the_game_exactly() -> None:
    game, texts = play(["heuristic", "random", "greedy", "random"], seed=3)
    again = Game.new(game.config, seed=3)
    for text in texts:
        again.apply(parse_action(text))
    assert again.is_over and again.scores() == game.scores() and again.winners == game.winners


# -- notation ------------------------------------------------------------------------------------


def test_notation_round_trips_every_legal_action_of_random_games() -> None:
    for seed in range(6):
        game = random_game(4, seed, 0)
        rng = random.Random(seed)
        while not game.is_over:
            for action in game.legal_actions():
                assert parse_action(action_text(action)) == action
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("text", ["", "place", "place:x", "card:-1", "bid:1:2", "assassinate:1", "jump:3", "commit:1"])
def test_bad_action_text_is_rejected_with_a_clear_error(text: str) -> None:
    with pytest.raises(ValueError, match="bad action"):
        parse_action(text)


# -- information sets -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 5000), steps=st.integers(0, 1200), rseed=st.integers(0, 99))
def test_resampled_states_keep_the_view_and_forget_the_hidden_truth(
    players: int, seed: int, steps: int, rseed: int
) -> None:
    """R1/R2: a sample keeps the seat's view and every count, and depends only on the view: re-dealing the
    hidden cards of the true state first gives the very same sample."""
    state = random_game(players, seed, steps).position()
    for seat in range(players):
        sample = resample(state, seat, random.Random(rseed))
        assert sample.card_counts() == state.card_counts()
        assert player_view(sample, seat) == player_view(state, seat)
        other = resample(redeal(state, seat, random.Random(rseed + 1)), seat, random.Random(rseed))
        assert state_to_json(other) == state_to_json(sample)


def test_resampling_really_moves_hidden_cards() -> None:
    state = random_game(4, 2, 300).position()
    sample = resample(state, 0, random.Random(0))
    assert [p.hand for p in sample.players[1:]] != [p.hand for p in state.players[1:]]
    assert sample.players[0].hand == state.players[0].hand
    assert sample.chance != state.chance


def test_samples_continue_as_legal_games() -> None:
    game = random_game(3, 4, 400)
    sample = InfoSet(game, game.current_seat).sample(random.Random(1))
    rng = random.Random(2)
    while not sample.is_over:
        sample.apply(rng.choice(sample.legal_actions()))
    assert not game.is_over  # the true game is untouched


def test_infoset_observation_matches_the_environment_encoding() -> None:
    game = random_game(4, 9, 250)
    seat = game.current_seat
    info = InfoSet(game, seat)
    obs = info.observation()
    assert obs.shape == (info.encoder.size,)
    mask = info.action_mask()
    assert mask.sum() >= 1


def test_resampling_does_not_tell_whether_another_player_laid_a_pair() -> None:
    """R2: before the reveal, a sealed pair of another player and a refusal look the same in every sample."""
    for seed in range(400):
        game = random_game(3, seed, 0)
        rng = random.Random(seed)
        while not game.is_over and not game.position().pairs:
            game.apply(rng.choice(game.legal_actions()))
        if game.position().pairs:
            break
    state = game.position()
    owner, a, b = state.pairs[0]
    declined = state.clone()
    declined.pairs = [p for p in state.pairs if p[0] != owner]
    for c in (a, b):
        declined.players[owner].hand[c] += 1
    for seat in range(3):
        if seat == owner:
            continue
        if any(p[0] != owner for p in state.pairs):
            continue
        assert player_view(declined, seat) == player_view(state, seat)
        one = resample(state, seat, random.Random(4))
        two = resample(declined, seat, random.Random(4))
        assert state_to_json(one) == state_to_json(two)
        assert all(p[0] == seat for p in one.pairs)


# -- mcts search=flat ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_flat_search_plays_complete_games(players: int) -> None:
    specs = ["mcts:search=flat,iterations=1", *["heuristic"] * (players - 1)]
    game, texts = play(specs, seed=11 + players, round_limit=3)
    assert game.is_over and texts


def test_flat_search_keeps_to_its_time_budget_and_considers_alternatives(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is kept by the search's own clock (here a fake one, so the test does not depend on the machine's
    load): an iteration starts only if it would end within the budget at the pace of the longest so far."""
    import itertools
    import types

    import agents.flat
    from agents.mcts import MctsAgent
    from tribune_env import DecisionKind

    config = GameConfig(players=4)
    game = Game.new(config, seed=5)
    helpers = [make_agent("heuristic", seed=s) for s in range(4)]
    for s, a in enumerate(helpers):
        a.reset(s, config, s)
    while game.pending is not None and game.pending.kind is not DecisionKind.PLACE_FOLLOWER:
        seat = game.current_seat
        game.apply(helpers[seat].act(game.view(seat), game.legal_actions()))
    seat = game.current_seat
    agent = make_agent("mcts:search=flat,seconds=0.3", seed=1)
    assert isinstance(agent, MctsAgent) and agent.flat is not None
    agent.reset(seat, config, 1)
    ticks = itertools.count()
    clock = types.SimpleNamespace(perf_counter=lambda: 0.05 * next(ticks))  # 0.1 s an iteration
    monkeypatch.setattr(agents.flat, "time", clock)
    action = agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
    assert action in game.legal_actions()
    assert agent.flat.last_iterations == 3  # the 4th would end 0.35 s after the start
