"""R1/R2: a player's view holds nothing that player may not know.

The test re-deals every card the viewer cannot see (other hands, the piles,
face-down board cards, other players' sealed pairs and staged cards), keeping
every count, and checks that the view is unchanged. A control re-deals the
viewer's own hand and checks that the view does change, so the comparison is
sensitive.
"""

from __future__ import annotations

import random

from hidden_info import redeal
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_game

from tribune_env.engine.view import player_view


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 1500),
    redeal_seed=st.integers(0, 1000),
)
def test_view_is_unchanged_by_redealing_hidden_cards(players: int, seed: int, steps: int, redeal_seed: int) -> None:
    game = random_game(players, seed, steps)
    state = game.position()
    for seat in range(players):
        other = redeal(state, seat, random.Random(redeal_seed))
        assert other.card_counts() == state.card_counts()
        assert player_view(other, seat) == player_view(state, seat)


def test_redealing_changes_what_is_hidden() -> None:
    """The re-deal really moves cards (the test above is not vacuous)."""
    game = random_game(4, 3, 200)
    other = redeal(game.position(), 0, random.Random(1))
    assert [p.hand for p in other.players[1:]] != [p.hand for p in game.position().players[1:]]
    assert [p.hand_size for p in other.players] == [p.hand_size for p in game.position().players]


def test_view_shows_own_hand() -> None:
    """Control: changing the viewer's own cards changes the view."""
    game = random_game(3, 5, 100)
    seat = 0
    other = redeal(game.position(), 1, random.Random(2))  # seat 0's hand is hidden from seat 1: it moves
    assert other.players[seat].hand != game.position().players[seat].hand
    assert player_view(other, seat) != player_view(game.position(), seat)


def test_private_log_lines_reach_only_their_owner() -> None:
    """Drawn cards and sealed bids appear only in their owner's log."""
    game = random_game(4, 11, 600)
    for seat in range(4):
        secret = [line for line in game.log(seat) if " drew " in line or "(sealed)" in line]
        assert secret, "the game should have private lines for every seat"
        assert all(line.startswith(f"P{seat} ") for line in secret)
    assert len(game.log()) > len(game.log(0))
