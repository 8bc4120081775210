"""The ``zero`` search agent and ``zero-net``: legal play in every rule set and both Brutii roles, reproducibility,
budgets, the improved-policy target, a won position found, and no peeking at hidden information."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest
from agent_games import decide, play_game
from hidden_info import redeal, redeal_everything_hidden
from positions import pick, position, random_game

import agents.zero as zero_module
from agents import AgentError, make_agent
from agents.zero import SearchResult, ZeroAgent, ZeroNetAgent, shipped_network
from tribune_env import COMMIT, DECLINE, Game, GameConfig
from tribune_env.engine.config import RuleSet
from tribune_env.engine.state import GameState

FAST = "zero:simulations=4,candidates=2,depth=4"
SEARCH_ALWAYS = "zero:simulations=8,candidates=3,depth=6,threshold=1"


def _searchable(game: Game) -> Game:
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(),
        GameConfig(expansion=True),
        GameConfig(brutii=True, brutii_seat=0),
        GameConfig(brutii=True, brutii_seat=2),
    ],
    ids=["base", "expansion", "as-the-brutii", "as-a-family"],
)
def test_plays_complete_games_with_legal_actions(config: GameConfig) -> None:
    game, played = play_game([FAST] + ["heuristic"] * (config.players - 1), 3, config)
    assert game.is_over and played


def test_same_seed_gives_the_same_game() -> None:
    config = GameConfig()
    specs = [FAST, FAST, "heuristic", "heuristic"]
    assert play_game(specs, 5, config)[1] == play_game(specs, 5, config)[1]


def _search(spec: str, game: Game, seed: int = 7) -> tuple[ZeroAgent, SearchResult]:
    agent = make_agent(spec, seed)
    assert isinstance(agent, ZeroAgent)
    agent.reset(game.current_seat, game.config, 11)
    decide(agent, game)
    assert agent.last is not None
    return agent, agent.last


def test_search_result_is_a_vector_value_and_an_improved_policy() -> None:
    game = _searchable(random_game(4, seed=2, steps=50))
    _, result = _search(SEARCH_ALWAYS, game)
    assert result.searched and len(result.candidates) == min(3, int(result.mask.sum()))
    assert all(len(v) == 4 for v in result.values)  # one value per seat (not a two-player zero-sum value)
    assert 6 <= result.simulations <= 8 and result.decisions > 0
    target, prior = result.target(), result.prior
    assert target.sum() == pytest.approx(1.0, abs=1e-5) and np.all(target[~result.mask] == 0)
    best = result.candidates[int(np.argmax(result.q))]
    worst = result.candidates[int(np.argmin(result.q))]
    if max(result.q) > min(result.q):  # the search moves probability towards the better value
        assert target[best] / target[worst] > prior[best] / prior[worst]


def test_visits_follow_sequential_halving() -> None:
    game = _searchable(random_game(4, seed=4, steps=30))
    _, result = _search("zero:simulations=32,candidates=4,depth=2,threshold=1", game)
    if len(result.candidates) == 4:
        assert sorted(result.visits, reverse=True)[0] > sorted(result.visits)[0]  # the survivors got more deals
        assert result.index in result.candidates


def test_sure_network_answers_without_search() -> None:
    game = _searchable(random_game(4, seed=2, steps=50))
    _, result = _search("zero:threshold=0.0001", game)
    assert not result.searched and result.simulations == 0
    assert np.array_equal(result.target(), result.prior)


def test_time_budget_is_respected() -> None:
    game = _searchable(random_game(4, seed=3, steps=40))
    agent = make_agent("zero:seconds=0.05,threshold=1", 1)
    agent.reset(game.current_seat, game.config, 1)
    start = time.perf_counter()
    decide(agent, game)
    assert time.perf_counter() - start < 0.6
    assert isinstance(agent, ZeroAgent) and agent.last is not None and agent.last.simulations >= 1


def _takeover() -> Game:
    """Seat 0 may take the Legates in the last round: that wins the game; declining leaves seat 1 ahead."""
    return position(
        [{"hand": ["legates:3", "legates:4"], "money": 5}, {"laurels": 2, "money": 5}] + [{}] * 2,
        phase="takeovers",
        followers={"faction:legates:1": 0},
        round=60,  # the networks fit games of the default round limit (the encoder scales rounds by it)
    )


def test_finds_the_winning_takeover() -> None:
    game = _takeover()
    spec = "zero:simulations=16,candidates=2,depth=40,threshold=1"
    assert game.legal_actions() == [pick(game, "legates:3"), DECLINE]
    agent, _ = _search(spec, game)
    assert decide(agent, game) == pick(game, "legates:3")
    game.apply(pick(game, "legates:3"))
    game.apply(pick(game, "legates:4"))
    assert game.legal_actions() == [COMMIT, DECLINE]
    assert decide(agent, game) == COMMIT


def _same_search(spec: str, games: tuple[Game, Game], seat: int) -> None:
    """Two true games that differ only in what ``seat`` may not know give the same search, number for number."""
    results = []
    for game in games:
        _, result = _search(spec, game)
        results.append((result.index, result.candidates, result.q, result.visits, result.target().tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize(("seed", "steps"), [(1, 30), (2, 90), (3, 200)])
def test_does_not_peek_at_hidden_cards(seed: int, steps: int) -> None:
    game = _searchable(random_game(4, seed=seed, steps=steps))
    seat = game.current_seat
    other = Game(redeal(game.python_state(), seat, random.Random(seed)))
    assert other.state.players != game.state.players or other.state.draw != game.state.draw
    _same_search(SEARCH_ALWAYS, (game, other), seat)


@pytest.mark.parametrize(("brutii", "steps"), [(False, 60), (True, 120)], ids=["expansion", "brutii"])
def test_does_not_peek_in_expansion_games(brutii: bool, steps: int) -> None:
    game = _searchable(random_game(5 if brutii else 4, seed=9, steps=steps, expansion=True, brutii=brutii))
    seat = game.current_seat
    other = Game(redeal_everything_hidden(game.python_state(), seat, random.Random(9)))
    assert isinstance(other.state, GameState)
    _same_search(SEARCH_ALWAYS, (game, other), seat)


def test_spec_parameters() -> None:
    agent = make_agent("zero:simulations=64,candidates=8,depth=16,threshold=0.9,explore=true", 0)
    assert isinstance(agent, ZeroAgent)
    s = agent.settings
    assert (s.simulations, s.candidates, s.depth, s.threshold, s.explore, s.seconds) == (64, 8, 16, 0.9, True, None)
    assert make_agent("zero:seconds=0.5", 0).settings.seconds == 0.5  # type: ignore[attr-defined]
    assert s.leaf == "any" and make_agent("zero:leaf=own", 0).settings.leaf == "own"  # type: ignore[attr-defined]
    with pytest.raises(AgentError, match="parameter leaf: expected one of any, own"):
        make_agent("zero:leaf=deep", 0)


@pytest.mark.parametrize("leaf", ["any", "own"])
def test_leaf_own_values_every_unfinished_playout_at_the_searching_seats_decision(
    leaf: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``leaf=own``: the value network judges a playout only where its seat is to decide (docs/agents/zero.md)."""
    judged: list[int] = []  # the seat to decide at every unfinished leaf
    real = zero_module.leaf_values

    def recording(net: zero_module.Network, games: list[Game]) -> np.ndarray:
        judged.extend(g.current_seat for g in games if not g.is_over)
        return real(net, games)

    monkeypatch.setattr(zero_module, "leaf_values", recording)
    game = _searchable(random_game(4, seed=2, steps=50))
    seat = game.current_seat
    _, result = _search(f"zero:simulations=16,candidates=4,depth=8,threshold=1,leaf={leaf}", game)
    assert result.searched and judged
    elsewhere = sum(turn != seat for turn in judged)
    assert (elsewhere == 0) if leaf == "own" else (elsewhere > 0)  # here depth 8 ends at another seat's decision


@pytest.mark.parametrize(
    "spec",
    [
        "zero:simulations=0",
        "zero:threshold=2",
        "zero:explore=maybe",
        "zero:depth=-1",
        "zero:leaf=deep",
        "zero:bogus=1",
        "zero:path=/nonexistent.npz",
    ],
)
def test_bad_parameters_raise(spec: str) -> None:
    with pytest.raises(AgentError):
        agent = make_agent(spec, 0)
        agent.reset(0, GameConfig(), 0)


def test_needs_the_infoset() -> None:
    game = _searchable(random_game(4, seed=2, steps=50))
    agent = make_agent(FAST, 0)
    agent.reset(game.current_seat, game.config, 0)
    with pytest.raises(AgentError, match="InfoSet"):
        agent.act(game.view(game.current_seat), game.legal_actions(), None)


@pytest.mark.parametrize("rules", list(RuleSet))
def test_zero_net_plays_every_rule_set_with_its_network(rules: RuleSet) -> None:
    config = GameConfig.for_rules(rules)
    agent = make_agent("zero-net", 0)
    assert isinstance(agent, ZeroNetAgent) and agent.supports(config) is None
    game, _ = play_game(["zero-net"] + ["heuristic"] * (config.players - 1), 2, config)
    assert game.is_over
    assert shipped_network(rules).exists()


def test_zero_with_an_opponent_model_searches_other_values_and_refuses_a_model_of_another_space() -> None:
    """``zero:others=PATH``: the playouts' other seats play the model (here the network distilled from heuristic),
    so the search's values differ from the network's self-play ones; a model of other spaces is refused by name."""
    from agents.specs import agent_supports, make_agent
    from tribune_env.engine.config import GameConfig
    from tribune_env.engine.game import Game
    from tribune_env.envs.infoset import InfoSet

    root = Path(__file__).parents[2]  # the checkout: the tests also run from other folders (.ci/native)
    config = GameConfig(players=4)
    found = {}
    for spec in ("zero:simulations=16,threshold=1", "zero:simulations=16,threshold=1,"
                 f"others={root / 'training/pool/models/heuristic-4p.npz'}"):
        agent = make_agent(spec, 7)
        agent.reset(0, config, 7)
        game = Game.new(config, seed=3)
        while game.current_seat != 0 or len(game.legal_actions()) < 3:
            game.apply(game.legal_actions()[0])
        agent.act(game.view(0), game.legal_actions(), InfoSet(game, 0))
        assert agent.last is not None and agent.last.searched  # type: ignore[attr-defined]
        found[spec] = agent.last.values  # type: ignore[attr-defined]
    assert len(set(map(str, found.values()))) == 2
    problem = agent_supports(f"zero:others={root / 'agents/models/zero-expansion-4p.npz'}", config)
    assert problem is not None and "cannot play the other seats" in problem and "expansion" in problem


def test_a_reset_keeps_the_networks_of_the_last_game_unless_the_game_or_a_checkpoint_changes(tmp_path: Path) -> None:
    """``zero`` builds its network and opponent model (encoder, codec, transposed weights) once, not at every game's
    reset; another player count or a changed checkpoint file gets new ones (the new file's weights)."""
    root = Path(__file__).parents[2]
    net_file, model_file = tmp_path / "net.npz", tmp_path / "others.npz"
    net_file.write_bytes(shipped_network(RuleSet.BASE).read_bytes())
    model_file.write_bytes((root / "training/pool/models/heuristic-4p.npz").read_bytes())
    agent = make_agent(f"zero:path={net_file},others={model_file}", 1)
    assert isinstance(agent, ZeroAgent)
    agent.reset(0, GameConfig(players=4), 1)
    assert agent.search is not None
    net, others = agent.search.net, agent.search.others
    agent.reset(2, GameConfig(players=4), 2)
    assert agent.search.net is net and agent.search.others is others
    agent.reset(0, GameConfig(players=3), 3)
    assert agent.search.net is not net and agent.search.net.players == 3 and agent.search.others is not others
    agent.reset(0, GameConfig(players=4), 4)
    net = agent.search.net
    model_file.write_bytes(net_file.read_bytes())  # another checkpoint at the model's path
    agent.reset(0, GameConfig(players=4), 5)
    assert agent.search.net is net and agent.search.others is not None
    assert np.array_equal(agent.search.others.actor.biases[-1], net.actor.biases[-1])
