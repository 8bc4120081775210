"""Views read from the native core (``Core.view``, native/src/view.cpp; issue 41 item 4) equal the Python engine's
``view_data`` of the same position for every seat, in every rule set, and keep the view's contract: a view never
changes after it was made (R1, R2: nothing a seat may not know)."""

from __future__ import annotations

import random

import pytest

from tribune_env.engine import native
from tribune_env.engine.game import Game
from tribune_env.engine.view import PlayerView, native_view_data, view_data

pytestmark = pytest.mark.skipif(not native.built(), reason="the native core is not built")

RULE_SETS = [
    {"players": 2},
    {"players": 4},
    {"players": 5, "point_variant": True},
    {"players": 3, "expansion": True},
    {"players": 5, "expansion": True},
    {"players": 5, "expansion": True, "brutii": True},
    {"players": 6, "brutii": True},
]


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_every_seat_sees_on_the_core_what_it_sees_on_the_python_engine(options: dict[str, object]) -> None:
    for seed in range(1):
        game = Game.new(seed=seed, engine="native", **options)
        rng = random.Random(seed)
        while not game.is_over:
            core, position = game.native_core, game.position()
            for seat in range(game.num_players):
                assert native_view_data(core, seat) == view_data(position, seat), (seed, seat, game.pending)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        for seat in range(game.num_players):  # the finished game too (winners, no pending decision)
            assert native_view_data(game.native_core, seat) == view_data(game.position(), seat)


def test_a_view_taken_before_apply_shows_the_position_it_was_taken_in() -> None:
    game = Game.new(players=4, seed=5, engine="native")
    seat = game.current_seat
    unread, read = game.view(seat), game.view(seat)
    expected = view_data(game.position(), seat)
    assert read.data == expected
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    assert unread.data == expected and read.data == expected
    assert game.view(game.current_seat).data == view_data(game.position(), game.current_seat)


def test_views_are_the_same_objects_on_both_engines() -> None:
    python, core = Game.new(players=3, seed=2, engine="python"), Game.new(players=3, seed=2, engine="native")
    for _ in range(40):
        seat = python.current_seat
        a, b = python.view(seat), core.view(seat)
        assert a == b and repr(a) == repr(b) and hash(a) == hash(b)
        assert type(b.pending) is type(a.pending) and type(b.phase) is type(a.phase)
        action = python.legal_actions()[-1]
        python.apply(action)
        core.apply(action)


def test_a_view_of_a_core_stepped_behind_the_games_back_refuses_to_be_read() -> None:
    game = Game.new(players=2, seed=1, engine="native")
    view = game.view(game.current_seat)
    core = game.native_core
    core.apply(*native.action_tuple(game.legal_actions()[0]))
    with pytest.raises(RuntimeError, match=r"changed outside Game\.apply"):
        view.hand  # noqa: B018


def test_a_seat_outside_the_game_is_refused() -> None:
    game = Game.new(players=2, seed=1, engine="native")
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.1"):
        game.view(2)
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.1"):
        PlayerView.of_core(game.native_core, -1)
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.1"):
        game.native_core.view(5)
