"""One answer to "does this agent play this game": ``Agent.supports`` (issue 24).

Every registered agent answers for base, expansion and Brutii games as it behaves: an agent that supports a game plays
its first decisions, one that does not is refused by ``reset`` with the same message, which lists the registered
agents that do play the rule set. The tournament, terminal play, the web app and training configs refuse such a
lineup up front with that message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import ROOT

from agents import Agent, AgentError, agent_names, agent_supports, agents_playing, check_specs_support, make_agent
from agents.ppo import SHIPPED
from agents.random_agent import RandomAgent
from agents.specs import _FACTORIES
from training.config import ConfigError, load_config
from tribune_arena.human.terminal import HumanGame
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

CONFIGS = {rules: GameConfig.for_rules(rules) for rules in RuleSet}
FAST = {"mcts": "mcts:iterations=4"}
"""Specs that build a registered agent's class with a short search, so that its decisions are quick."""
DECISIONS = 10
"""Decisions played by every seat's agent in turn: a handful, enough to reach each agent's own choices."""
SMOKE = ROOT / "configs" / "smoke.yaml"
BRUTII = CONFIGS[RuleSet.BRUTII]
NOT_BRUTII = "ppo"
"""The shipped base-game policy: a registered agent that does not play the Brutii variant."""


def _build(name: str, seed: int) -> Agent | None:
    """The agent ``name`` (quick settings), or None when it cannot be built here (a model file not shipped)."""
    try:
        return make_agent(FAST.get(name, name), seed)
    except AgentError:
        return None


def _listed(message: str) -> list[str]:
    """The agents a refusal says do play the game."""
    return message.split("; agents that do: ", 1)[1].split(", ")


@pytest.mark.parametrize("rules", list(RuleSet))
@pytest.mark.parametrize("name", agent_names())
def test_supports_says_what_happens_when_the_agent_plays(name: str, rules: RuleSet) -> None:
    config = CONFIGS[rules]
    agents = [_build(name, seat) for seat in range(config.players)]
    if agents[0] is None:
        pytest.skip(f"{name} cannot be built here")
    seated = [agent for agent in agents if agent is not None]
    problem = seated[0].supports(config)
    try:
        if problem is not None:
            assert problem.startswith(f"agent {seated[0].spec!r} does not play ")
            for seat, agent in enumerate(seated):
                with pytest.raises(AgentError) as refused:
                    agent.reset(seat, config, seed=seat)
                assert str(refused.value) == problem
            return
        game = Game.new(config, seed=5)
        for seat, agent in enumerate(seated):
            agent.reset(seat, config, seed=seat)
        for _ in range(DECISIONS):
            if game.is_over:
                break
            seat = game.current_seat
            legal = game.legal_actions()
            action = seated[seat].act(game.view(seat), legal, InfoSet(game, seat))
            assert action in legal
            game.apply(action)
    finally:
        for agent in seated:
            agent.close()


@pytest.mark.parametrize("rules", list(RuleSet))
def test_the_refusal_lists_the_registered_agents_that_play_the_rule_set(rules: RuleSet) -> None:
    config = CONFIGS[rules]
    playing = []
    for name in agent_names():
        agent = _build(name, 0)
        if agent is not None:
            if agent.supports(config) is None:
                playing.append(name)
            agent.close()
    assert agents_playing(rules) == playing
    assert {"greedy", "heuristic", "mcts", "random"} <= set(playing)
    if rules is RuleSet.BASE:
        assert set(playing) >= {"ppo", "ppo-expansion", "ppo-brutii"}
        return
    problem = make_agent(NOT_BRUTII).supports(config)
    games = "expansion games" if rules is RuleSet.EXPANSION else "the Brutii variant"
    assert problem is not None and problem.startswith(f"agent 'ppo' does not play {games}; agents that do: ")
    assert _listed(problem) == playing


class _BaseOnly(RandomAgent):
    name = "baseonly-supports"
    rule_sets = frozenset({RuleSet.BASE})


def test_a_registered_agent_that_plays_only_base_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(_FACTORIES, _BaseOnly.name, lambda params, seed: _BaseOnly(seed))
    assert agent_supports(_BaseOnly.name, CONFIGS[RuleSet.BASE]) is None
    problem = agent_supports(_BaseOnly.name, CONFIGS[RuleSet.EXPANSION])
    assert problem is not None and problem.startswith("agent 'baseonly-supports' does not play expansion games; ")
    assert _BaseOnly.name not in _listed(problem) and _BaseOnly.name in agents_playing(RuleSet.BASE)
    agent = _BaseOnly(0)
    assert not agent.plays_expansion and not agent.plays_brutii  # derived from rule_sets
    with pytest.raises(AgentError) as refused:
        check_specs_support(["random", _BaseOnly.name, "random"], CONFIGS[RuleSet.EXPANSION])
    assert str(refused.value) == problem


def test_the_flags_are_derived_from_the_rule_sets() -> None:
    with pytest.raises(TypeError, match="plays_brutii is derived from rule_sets"):

        class _Old(RandomAgent):
            plays_brutii = False


def _brutii_refusal() -> str:
    problem = agent_supports(NOT_BRUTII, BRUTII)
    assert problem is not None and problem.startswith("agent 'ppo' does not play the Brutii variant; agents that do: ")
    return problem


def test_check_specs_support_names_the_first_refusal() -> None:
    check_specs_support(["random", "heuristic"], BRUTII)
    with pytest.raises(AgentError) as refused:
        check_specs_support(["random", NOT_BRUTII, "random", NOT_BRUTII], BRUTII)
    assert str(refused.value) == _brutii_refusal()
    with pytest.raises(AgentError, match="unknown agent 'nobody'"):
        check_specs_support(["random", "nobody"], BRUTII)


def test_the_tournament_refuses_the_lineup_before_playing(tmp_path: Path) -> None:
    definition = TournamentDefinition.create(
        ("random", "random", NOT_BRUTII, "random", "random"),
        players=5,
        games=5,
        round_limit=2,
        expansion=True,
        brutii=True,
    )
    path = tmp_path / "t.sqlite"
    with pytest.raises(AgentError) as refused:
        run_tournament(definition, path, workers=1, progress=False)
    assert str(refused.value) == _brutii_refusal() and not path.exists()


def test_terminal_play_refuses_the_opponent() -> None:
    with pytest.raises(AgentError) as refused:
        HumanGame(BRUTII, ["random", NOT_BRUTII, "random", "random"])
    assert str(refused.value) == _brutii_refusal()


@pytest.mark.web
def test_the_web_app_refuses_the_opponent(tmp_path: Path) -> None:
    from tribune_arena.human.web.app import create_app  # flask: the web extra

    app = create_app(tmp_path / "games")
    body = {"rules": "brutii", "players": 5, "opponents": ["random", NOT_BRUTII, "random", "random"], "seed": 1}
    try:
        response = app.test_client().post("/api/games", json=body)
    finally:
        app.extensions["tribune_games"].close()
    assert response.status_code == 422
    assert response.get_json()["error"] == f"opponents: {_brutii_refusal()}"


BRUTII_RUN = {"env.players": 5, "env.expansion": True, "env.brutii": True}


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"opponents.mix": {"random": 1.0, NOT_BRUTII: 1.0}}, f"opponents.mix.{NOT_BRUTII}"),
        ({"eval.opponents": ["random", NOT_BRUTII]}, "eval.opponents[1]"),
        ({"pretrain.teacher": NOT_BRUTII}, "pretrain.teacher"),
    ],
)
def test_a_training_config_refuses_an_agent_that_does_not_play_its_game(
    tmp_path: Path, overrides: dict[str, object], key: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(SMOKE, {"output": str(tmp_path), **BRUTII_RUN, **overrides})
    assert str(refused.value) == f"{SMOKE}: {key}: {_brutii_refusal()}"
    load_config(SMOKE, {"output": str(tmp_path), **overrides})  # a base run may use it


def test_a_training_config_refuses_a_learner_that_does_not_play_its_game(tmp_path: Path) -> None:
    """run.init_from: the learner starts from a checkpoint of the base spaces (an exported policy reads too)."""
    start = tmp_path / "base.zip"
    start.write_bytes(SHIPPED.read_bytes())
    with pytest.raises(ConfigError) as refused:
        load_config(SMOKE, {"output": str(tmp_path), **BRUTII_RUN, "run.init_from": str(start)})
    message = str(refused.value)
    assert message.startswith(f"{SMOKE}: run.init_from: agent 'ppo:{start}' does not play the Brutii variant; ")
    load_config(SMOKE, {"output": str(tmp_path), "run.init_from": str(start)})
