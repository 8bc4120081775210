"""The ``heuristic`` agent's rules, checked in hand-made positions (how it decides: agents/heuristic.py)."""

from __future__ import annotations

import pytest
from positions import card, hand, place, position, set_of, space

from agents import make_agent
from agents.heuristic import HeuristicAgent
from agents.strategy import Valuation, best_set, can_beat
from tribune_env import Action, DecisionKind, Faction, Game, PickCard, PlaceFollower
from tribune_env.engine.tables import tables_for
from tribune_env.envs.infoset import InfoSet

TABLES = tables_for(Game.new(players=2, seed=0).config.components)


def agent_for(game: Game) -> HeuristicAgent:
    seat = game.current_seat
    agent = make_agent("heuristic", seed=0)
    assert isinstance(agent, HeuristicAgent)
    agent.reset(seat, game.config, 0)
    return agent


def decide(game: Game) -> Action:
    seat = game.current_seat
    return agent_for(game).act(game.view(seat), game.legal_actions(), InfoSet(game, seat))


def run_seat(game: Game, seat: int) -> None:
    """Let the heuristic make every decision of ``seat`` while it is that seat's turn."""
    agent = agent_for(game)
    while not game.is_over and game.current_seat == seat:
        game.apply(agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat)))


def ids(*labels: str) -> list[int]:
    return [card(None, x) for x in labels]


# -- set arithmetic -------------------------------------------------------------------------------


def test_best_set_prefers_fewest_cards_then_lowest_sum() -> None:
    held = ids("legates:1", "legates:2", "legates:2", "legates:6")
    target = ids("legates:3", "legates:4")  # two cards, sum 7
    assert sorted(best_set(TABLES, held, [target], 2) or []) == sorted(ids("legates:2", "legates:6"))
    assert best_set(TABLES, ids("legates:1", "legates:2"), [target], 2) is None


def test_can_beat_by_count_and_by_sum() -> None:
    target = ids("senators:8", "senators:8")
    assert can_beat(TABLES, ids("senators:4", "senators:4", "senators:5"), target, 2)  # more cards
    assert can_beat(TABLES, ids("senators:9", "senators:10"), target, 2)  # higher sum
    assert not can_beat(TABLES, ids("senators:4", "senators:9"), target, 2)
    assert not can_beat(TABLES, ids("senators:10"), [], 2)  # a set needs two cards


# -- decisions ----------------------------------------------------------------------------------


def test_takes_over_with_a_winning_set_and_keeps_it_strong() -> None:
    zoe, john = 0, 1
    g = position(
        [
            {"sets": {"legates": ["legates:3", "legates:4"]}, "markers": ["legates"]},
            {"hand": ["legates:1", "legates:2", "legates:2", "legates:6", "senators:4"]},
        ],
        phase="takeovers",
        followers={"faction:legates:1": john},
    )
    assert g.pending is not None and g.pending.kind is DecisionKind.TAKEOVER_SET
    run_seat(g, john)
    assert g.position().controller[Faction.LEGATES] == john
    assert set_of(g, Faction.LEGATES) == ["legates:2", "legates:2", "legates:6"]  # cheapest win, topped up to 3
    assert hand(g, john) == ["legates:1", "senators:4"]
    assert zoe != john


def test_answers_a_contest_only_with_a_set_beating_both() -> None:
    john, mike, michelle = 0, 1, 2
    g = position(
        [
            {"sets": {"senators": ["senators:8", "senators:8"]}, "markers": ["senators"]},
            {"hand": ["senators:6", "senators:7", "senators:9"]},
            {"hand": ["senators:4", "senators:4", "senators:5", "senators:5"]},
        ],
        phase="takeovers",
        followers={"faction:senators:1": michelle, "faction:senators:2": mike},
    )
    run_seat(g, mike)  # "2" acts first: three cards beat the two 8s
    run_seat(g, michelle)  # "1" needs four cards to beat three
    while g.pending is not None and g.pending.kind is DecisionKind.TAKEOVER_PENALTY:
        g.apply(decide(g))
    assert g.position().controller[Faction.SENATORS] == michelle
    assert len(g.position().sets[Faction.SENATORS]) == 4
    assert john == 0


def test_places_on_a_faction_it_can_take_rather_than_elsewhere() -> None:
    g = position(
        [{"hand": ["vestals:5", "vestals:6", "gladiators:2"], "followers": 1, "money": 10}, {"followers": 1}],
        phase="follower_placement",
    )
    assert decide(g) == place(g, "faction:vestals:1")


def test_without_a_winning_set_it_does_not_waste_a_follower_on_a_faction_field() -> None:
    g = position(
        [{"hand": ["vestals:5", "gladiators:2"], "followers": 1, "money": 10}, {"followers": 1}],
        phase="follower_placement",
    )
    action = decide(g)
    assert isinstance(action, PlaceFollower)
    assert not TABLES.spaces[action.space].label.startswith("faction:")


def test_sacrifices_for_an_eternal_favor_in_the_pantheon() -> None:
    g = position(
        [{"followers": 1, "markers": ["vestals"], "hand": ["praetorians:1", "senators:5"]}, {"followers": 1}],
        phase="follower_placement",
        board={"pantheon": [["praetorians:4"]]},
    )
    g.apply(place(g, "pantheon:1"))
    while g.pending is not None and g.pending.kind is not DecisionKind.PANTHEON_SACRIFICE:
        g.apply(decide(g))
    assert g.pending is not None and g.pending.seat == 0
    assert decide(g) == PickCard(card(g, "praetorians:1"))


@pytest.mark.slow
def test_never_sends_the_assassin_against_its_own_set() -> None:
    for seed in range(40):
        g = Game.new(players=4, seed=seed)
        agents = [make_agent("heuristic", seed=s) for s in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, g.config, s)
        while not g.is_over:
            seat = g.current_seat
            action = agents[seat].act(g.view(seat), g.legal_actions(), InfoSet(g, seat))
            if g.pending is not None and g.pending.kind is DecisionKind.ASSASSIN_TARGET:
                assert getattr(action, "seat", -1) != seat
            g.apply(action)


def test_values_cards_that_complete_a_takeover_above_others() -> None:
    g = position(
        [{"hand": ["vestals:5", "gladiators:2"], "followers": 1, "money": 10}, {"followers": 1}],
        phase="follower_placement",
    )
    v = Valuation(g.view(0), g.config.components)
    assert v.card(card(g, "vestals:6")) > v.card(card(g, "legates:6"))


def test_prefers_the_coin_bowl_when_nothing_better_is_on_offer() -> None:
    g = position([{"hand": [], "followers": 1, "money": 0}, {"followers": 1}], phase="follower_placement")
    state = g.python_state()
    state.fields = [[[] for _ in region] for region in state.fields]  # an empty board
    state.legal_cache = None
    assert decide(g) == PlaceFollower(space(g, "coin_bowl"))
