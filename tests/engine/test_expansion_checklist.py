"""The checklist statements of the expansion not pinned elsewhere (E8-E22, E30, E31, E44, E53, E64, E65, E71; R32).

The other E statements are tested beside their rules: test_expansion_components (data), test_expansion_takeovers
(R30, R31), test_expansion_board (phase 6), test_expansion_officials (officials, phase 8), test_expansion_games
(whole games, X16) and test_expansion_documents (documents and hidden information).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tribune_env import DecisionKind, Faction, Game, GameConfig, Phase, Region
from tribune_env.engine.actions import place_follower
from tribune_env.engine.ops import give_laurels, give_legions, give_money
from tribune_env.engine.tables import CardKind


def _new(players: int = 4, seed: int = 0, **options: object) -> Game:
    return Game.new(players=players, seed=seed, expansion=True, auto_forced=False, **options)  # type: ignore[arg-type]


def test_e8_denarii_laurels_and_legions_are_unlimited() -> None:
    """E8: the stock has no limit; the extra denarii change nothing."""
    state = _new().python_state()
    money = state.players[0].money
    give_money(state, 0, 10_000, "test")
    give_laurels(state, 0, 500, "test")
    give_legions(state, 0, 500, "test")
    assert (state.players[0].money, state.players[0].laurels, state.players[0].legions) == (money + 10_000, 500, 500)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_e9_e17_e18_base_setup_first_deal_six_keep_four_money_by_seat(players: int) -> None:
    """E9, E17, E18: base set-up: six cards dealt, two discarded; 12 denarii for the starting player, +1 per seat."""
    game = _new(players, seed=players)
    state = game.python_state()
    start = state.start_seat
    assert [state.players[(start + k) % players].money for k in range(players)] == [12 + k for k in range(players)]
    assert all(p.hand_size == 6 for p in state.players)
    rng = random.Random(0)
    while game.pending is not None and game.pending.kind is DecisionKind.SETUP_DISCARD:
        game.apply(rng.choice(game.legal_actions()))
    assert all(p.hand_size == 4 for p in state.players)


def test_e13_slaves_and_assassins_are_shuffled_into_the_draw_pile() -> None:
    """E13 (E1): the 15 slaves and 3 assassins are part of the shuffled deck: over a few deals they reach hands,
    and in every deal the 118 cards are all somewhere."""
    kinds: Counter[CardKind] = Counter()
    for seed in range(30):
        state = _new(seed=seed).position()
        assert sum(state.card_counts()) == 118
        for player in state.players:
            for card, n in enumerate(player.hand):
                kinds[state.tables.card_kind[card]] += n
    assert kinds[CardKind.SLAVE] > 0 and kinds[CardKind.ASSASSIN] > 0


def test_e14_r41_an_expansion_victory_card_by_default_and_a_base_card_on_request() -> None:
    """E14, R41: the default card is drawn among the expansion cards; a base card may be configured."""
    drawn = {_new(seed=s).position().victory_card for s in range(40)}
    assert drawn == {"quid_est_veritas", "sic_transit"}
    assert _new(victory_card="alea_long").position().victory_card == "alea_long"
    with pytest.raises(ValueError, match="victory_card"):
        GameConfig(players=5, expansion=True, victory_card="alea_long")  # that card is for 2-4 players


def test_e15_the_starting_player_is_drawn_at_random() -> None:
    """E15: over seeds, every seat starts some game."""
    assert {_new(seed=s).position().start_seat for s in range(40)} == {0, 1, 2, 3}


def test_e19_r42_no_six_player_game_without_the_brutii() -> None:
    """E19, R42: the expansion without the Brutii is for 2-5 families."""
    with pytest.raises(ValueError, match="players: 6"):
        GameConfig(players=6, expansion=True)
    assert GameConfig(players=5, expansion=True).followers == 5


def test_e21_e22_cards_go_on_the_base_board_only_and_phases_run_in_turn() -> None:
    """E22: phase 1 places cards on the base board only (the expansion regions have no card fields); E21: every
    decision of phase 2 comes after phase 1 is complete."""
    game = _new(seed=3)
    rng = random.Random(3)
    while game.phase is not Phase.FOLLOWER_PLACEMENT:
        game.apply(rng.choice(game.legal_actions()))
    state = game.position()
    for region in (Region.REFUGIUM, Region.BASILICA, Region.CAPITOLEUM):
        assert state.fields[region] == []
        assert state.tables.region_spaces[region], f"{region.key} has follower spaces"
    assert all(state.fields[Region.THERMAE]) and all(state.fields[Region.FORUM])


def test_e30_base_placement_rules_still_apply() -> None:
    """E30: the coin bowl pays 7 then 5, and the Pantheon needs a Vestal Virgins marker, in an expansion game."""
    game = _new(seed=5)
    rng = random.Random(5)
    while game.phase is not Phase.FOLLOWER_PLACEMENT:
        game.apply(rng.choice(game.legal_actions()))
    state = game.python_state()
    seat = game.current_seat
    pantheon = state.tables.region_spaces[Region.PANTHEON]
    legal = game.legal_actions()
    assert not any(place_follower(s) in legal for s in pantheon)  # nobody holds a Vestal marker yet
    before = state.players[seat].money
    game.apply(place_follower(state.tables.coin_bowl))
    assert state.players[seat].money == before + 7
    second = game.current_seat
    before = state.players[second].money
    game.apply(place_follower(state.tables.coin_bowl))
    assert state.players[second].money == before + 5


def test_e31_e44_e65_base_phases_keep_their_rules_and_the_chariot_is_phase_7() -> None:
    """E31, E44, E65: regions I-VIII, take-overs, benefits and the chariot auction run as in the base game; the
    chariot auction comes after the expansion board (phase 7)."""
    game = _new(seed=8)
    rng = random.Random(8)
    order: list[Phase] = []
    while game.round < 2 and not game.is_over:
        if not order or order[-1] is not game.phase:
            order.append(game.phase)
        game.apply(rng.choice(game.legal_actions()))
    assert Phase.REGION_EVALUATION in order and Phase.CHARIOT_AUCTION in order
    assert order.index(Phase.CHARIOT_AUCTION) > order.index(Phase.REGION_EVALUATION)
    if Phase.EXPANSION_EVALUATION in order:
        assert order.index(Phase.CHARIOT_AUCTION) > order.index(Phase.EXPANSION_EVALUATION)


def test_e64_the_princeps_and_the_tribunus_plebis_have_their_records() -> None:
    """E64 (see E29 and E45): the Princeps acts through the placement rule, the Tribunus Plebis through its own
    decision kind, which only expansion games know."""
    from tribune_env.engine.registry import DECISIONS

    assert DECISIONS[DecisionKind.TRIBUNUS_PLEBIS].expansion
    assert not DECISIONS[DecisionKind.PLACE_FOLLOWER].expansion


def test_e71_several_fulfillers_the_highest_score_wins() -> None:
    """E71: when several players fulfil the card at the end of a round, the highest point total wins."""
    from tribune_env.engine.scoring import decide_winners

    state = _new(seed=9).python_state()
    state.fulfilled_since = [3, 5, -1, -1]
    state.players[0].laurels = 2
    state.players[1].laurels = 9
    state.players[2].laurels = 40  # highest score, but not a contender
    assert decide_winners(state) == (1,)


def test_r32_is_folded_into_the_amended_r15() -> None:
    """R32 is folded into R15 (amended): in an expansion game "1" answers "2"'s set alone, as in the base game."""
    from tribune_env.engine.decisions import TakeoverRole
    from tribune_env.engine.takeovers import takeover_target

    state = _new(seed=1).python_state()
    f = int(Faction.SENATORS)
    state.contest = [state.tables.faction_cards[f][3], state.tables.faction_cards[f][4]]
    state.controller[f] = 2
    state.sets[f] = list(state.tables.faction_cards[f][5:9])
    assert takeover_target(state, f, TakeoverRole.FIRST_OVER_SECOND) == state.contest


@pytest.mark.parametrize(("players", "markers"), [(2, 7), (3, 6), (4, 6), (5, 5)])
def test_e75_the_point_variant_ends_at_the_expansion_marker_count(players: int, markers: int) -> None:
    """E75: in the point-value variant an expansion game ends at the end of the round in which a player holds
    7 (2 players), 6 (3, 4) or 5 (5) faction markers; one marker fewer does not end it."""
    from tribune_env.engine.scoring import game_ends

    state = _new(players, point_variant=True).python_state()
    assert state.config.point_variant_markers == markers
    for f in range(markers - 1):
        state.players[1].markers[f] = True
    assert not game_ends(state)
    state.players[1].markers[markers - 1] = True
    assert game_ends(state)


def test_e75_point_variant_expansion_games_finish() -> None:
    """E75: random point-variant expansion games end with a winner among all players."""
    for seed in range(4):
        game = _new(3, seed=seed, point_variant=True, round_limit=40)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        assert game.winners
