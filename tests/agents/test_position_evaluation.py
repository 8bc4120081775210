"""The hand-written position evaluation (agents/evaluation.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from positions import pick, position, random_game

from agents.evaluation import evaluate, evaluate_all, potentials
from tribune_env import DECLINE, Game
from tribune_env.engine.determinize import resample

ALEA_SHORT_MET = {"laurels": 8, "legions": 3, "markers": ["gladiators", "legates", "praetorians", "plebeians"]}
"""Three objectives of alea_short (laurels 8, legions 3, markers 4): enough with four players."""
VESTALS = {"vestals": ["vestals:3", "vestals:4"]}


def _ended(players: list[dict[str, Any]]) -> Game:
    """A position at the chariot auction in which nobody can bid: the round, and the game, end at once."""
    return position(players, victory_card="alea_short", auto_forced=True, phase="chariot_auction")


def _four(first: dict[str, Any], **common: Any) -> list[dict[str, Any]]:
    return [{**common, **first}] + [dict(common) for _ in range(3)]


def test_sole_winner_of_a_finished_game_is_one_and_the_others_zero() -> None:
    g = _ended(_four(ALEA_SHORT_MET))
    assert g.is_over and g.winners == (0,)
    assert evaluate_all(g.position()) == [1.0, 0.0, 0.0, 0.0]
    assert evaluate(g.position(), 0) == 1.0
    assert all(evaluate(g.position(), s) == 0.0 for s in (1, 2, 3))


def test_a_shared_win_is_split() -> None:
    g = _ended([ALEA_SHORT_MET, ALEA_SHORT_MET, {}, {}])
    assert g.winners == (0, 1)
    assert evaluate_all(g.position()) == [0.5, 0.5, 0.0, 0.0]


def _midgame(first: dict[str, Any]) -> Game:
    common = {"money": 10, "hand": []}
    players = _four(first, **common)
    for i, p in enumerate(players[1:]):  # opponents with a little of everything, all alike
        p.update(laurels=2, legions=1, markers=[["senators"], ["vestals"], ["patricians"]][i])
    return position(players, victory_card="alea_short", phase="follower_placement", turn_seat=1)


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    [
        ({"laurels": 5}, {"laurels": 7}),  # partial progress
        ({"laurels": 7}, {"laurels": 8}),  # one more objective met
        ({"laurels": 8, "legions": 2}, {"laurels": 8, "legions": 3}),  # two met instead of one
        ({"legions": 3, "laurels": 8, "markers": ["legates"]}, ALEA_SHORT_MET),  # fulfils the card
        ({"money": 10}, {"money": 20}),
        ({"tile": "scroll"}, {"tile": "tribune"}),
        ({"temporary_favor": True, "sets": VESTALS}, {"eternal_favor": True, "sets": VESTALS}),
    ],
)
def test_more_progress_towards_the_victory_card_evaluates_higher(
    weaker: dict[str, Any], stronger: dict[str, Any]
) -> None:
    low, high = _midgame(weaker).position(), _midgame(stronger).position()
    assert evaluate(high, 0) > evaluate(low, 0)
    assert evaluate_all(high)[0] > evaluate_all(low)[0]


def test_diminishing_returns_past_a_threshold() -> None:
    """Laurels short of the threshold are worth much more than laurels past it."""
    values = [evaluate(_midgame({"laurels": n}).position(), 0) for n in (6, 8, 10)]
    assert values[1] - values[0] > 4 * (values[2] - values[1]) > 0


def test_a_ready_take_over_in_hand_is_worth_something() -> None:
    without = _midgame({"hand": ["senators:4", "plebeians:2"]}).position()
    with_set = _midgame({"hand": ["senators:4", "senators:5"]}).position()
    assert evaluate(with_set, 0) > evaluate(without, 0)


def _states() -> list[Game]:
    games = [random_game(n, seed, steps) for n in (2, 3, 4, 5) for seed in range(3) for steps in (0, 150, 700, 3000)]
    games.append(Game.new(players=4, seed=1, point_variant=True))
    return games


def test_values_are_probabilities_over_many_random_states() -> None:
    for game in _states():
        state = game.position()
        every = evaluate_all(state)
        assert len(every) == game.num_players
        assert sum(every) == pytest.approx(1.0)
        for seat in range(game.num_players):
            assert 0.0 <= every[seat] <= 1.0
            assert 0.0 <= evaluate(state, seat) <= 1.0


def test_evaluate_all_follows_the_potentials() -> None:
    for game in _states():
        if game.is_over:
            continue
        phi = potentials(game.position())
        every = evaluate_all(game.position())
        for a in range(game.num_players):
            for b in range(game.num_players):
                if phi[a] > phi[b]:
                    assert every[a] > every[b]


def test_evaluate_reads_only_what_the_seat_may_know() -> None:
    """Dealing everything hidden from the seat afresh does not change its evaluation."""
    rng = random.Random(5)
    for game in _states():
        if game.is_over:
            continue
        seat = game.current_seat
        value = evaluate(game.position(), seat)
        for _ in range(3):
            assert evaluate(resample(game.position(), seat, rng), seat) == pytest.approx(value, abs=1e-12)


def test_evaluate_is_pure() -> None:
    game = random_game(4, 2, 400)
    before = game.to_json()
    state = game.python_state()  # the live state: a change made by the evaluation would show in to_json
    evaluate_all(state)
    evaluate(state, 1)
    assert game.to_json() == before


def test_a_sealed_field_of_mars_choice_of_another_seat_does_not_show() -> None:
    """R2: whether seat 1 laid a pair or not is hidden from seat 0 until the reveal, and so from its evaluation."""

    def after(choice: list[str]) -> Game:
        g = position(
            [{"hand": ["legates:2", "senators:4", "senators:5"]}, {"hand": ["gladiators:1", "gladiators:2"]}],
            phase="region_evaluation",
            followers={"field_of_mars:1": 1, "field_of_mars:2": 0},
        )
        for label in choice:
            g.apply(pick(g, label))
        if not choice:
            g.apply(DECLINE)
        assert g.pending is not None and g.pending.seat == 0
        return g

    laid, declined = after(["gladiators:1", "gladiators:2"]), after([])
    assert laid.view(0) == declined.view(0)
    assert evaluate(laid.position(), 0) == evaluate(declined.position(), 0)
