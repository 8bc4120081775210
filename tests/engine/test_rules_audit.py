"""Adversarial audit of the engine against the base rulebook and rulings R1..R25.

Every test builds a small position for an edge case or an interaction that the
worked examples (test_examples.py) and the one-test-per-ruling suite
(test_rulings.py) do not reach, and asserts what the rulebook plus rulings
prescribe. The one engine bug it found (a legion purchase breaking continuous
fulfilment, R23) is fixed and kept here as a regression test.
"""

from __future__ import annotations

import pytest
from positions import card, discard, field, hand, pick, place, play, position, remaining_cards, set_of

from tribune_env import (
    COMMIT,
    DECLINE,
    Assassinate,
    Bid,
    ChooseFaction,
    ChooseOption,
    DecisionKind,
    Faction,
    Game,
    Pending,
    PlaceFollower,
    Region,
    TakeoverRole,
)
from tribune_env.engine.scoring import first_fulfillers

ALL_BUT_SENATORS = ["gladiators", "legates", "praetorians", "plebeians", "patricians", "vestals"]


def _play_set(g: Game, labels: list[str]) -> None:
    """Stage a take-over set in ascending card-type order (as the engine requires) and commit it."""
    for c in sorted(labels, key=lambda lab: card(g, lab)):
        g.apply(pick(g, c))
    g.apply(COMMIT)


def _bowl(g: Game) -> PlaceFollower:
    return PlaceFollower(g.tables.coin_bowl)


def _bids(g: Game, amount: int = 0) -> None:
    """Every player bids ``amount`` in the chariot auction."""
    while g.pending is not None and g.pending.kind is DecisionKind.CHARIOT_BID:
        g.apply(Bid(amount))


# --- Set-up ------------------------------------------------------------------------------


def test_setup_starting_money_runs_clockwise_from_the_starting_player() -> None:
    """Set-up step 8: the starting player takes 12 denarii, the player to his left 13, the next 14 ...
    (4 players, starting seat 2: seats 2, 3, 0, 1 get 12, 13, 14, 15)."""
    g = Game.new(players=4, seed=5, start_seat=2, auto_forced=False)
    assert [p.money for p in g.position().players] == [14, 15, 12, 13]


def test_setup_deal_six_discard_two_and_discards_return_to_the_deck() -> None:
    """Set-up step 5: six cards each, two discarded face down, the discards shuffled back into the deck
    (5 players: 30 dealt, 10 go back, 80 in the draw pile before the first card placement)."""
    g = Game.new(players=5, seed=11, auto_forced=False)
    assert [p.hand_size for p in g.position().players] == [6] * 5
    assert len(g.position().draw) == 70
    while g.pending.kind is DecisionKind.SETUP_DISCARD:
        g.apply(g.legal_actions()[0])
    assert [p.hand_size for p in g.position().players] == [4] * 5
    on_board = sum(len(f) for region in g.position().fields for f in region)
    assert len(g.position().draw) + on_board == 80
    assert g.position().discard == []


# --- Phase 2 -----------------------------------------------------------------------------


def test_coin_bowl_first_payment_is_seven_again_in_every_round() -> None:
    """Coin bowl: "The first player to place one of his followers on the coin bowl *in a given round*
    immediately takes 7 denarii"; the bowl empties between rounds."""
    g = position([{"money": 0, "followers": 1}, {"money": 0, "followers": 1}], phase="follower_placement")
    play(g, _bowl(g), _bowl(g))
    assert [p.money for p in g.position().players] == [7, 5]
    # phases 3-6 pass with nothing to decide but the chariot bids
    _bids(g, 0)
    assert g.round == 2 and g.pending == Pending(DecisionKind.PLACE_FOLLOWER, 1)
    g.apply(_bowl(g))
    assert g.position().players[1].money == 5 + 7


def test_proconsul_holder_may_place_seven_followers_but_only_one_per_space() -> None:
    """R9 with phase 2: the proconsul is one more follower; the other placement rules still apply (never both
    spaces of one faction field, never the field of a faction the player controls)."""
    g = position(
        [{"followers": 2, "sets": {"patricians": ["patricians:2", "patricians:3"]}}, {"followers": 0}],
        phase="follower_placement",
        proconsul=0,
    )
    g.apply(place(g, "faction:senators:1"))
    legal = g.legal_actions()
    assert place(g, "faction:senators:2") not in legal
    assert place(g, "faction:patricians:1") not in legal


# --- Phase 3 -----------------------------------------------------------------------------


def test_atrium_with_only_two_cards_first_flips_both_and_the_auction_is_for_two() -> None:
    """Atrium when the board was only partly filled (R5): "1." turns up to two cards, "2." the rest (none);
    the auction winner takes every card there is and pays the loser."""
    g = position(
        [{"money": 5, "followers": 1}, {"money": 5, "followers": 1}],
        phase="follower_placement",
        board={"atrium": [["senators:5"], ["praetorians:3"], []]},
    )
    g.apply(place(g, "atrium:1"))
    assert g.position().atrium_up[:2] == [True, True]
    g.apply(place(g, "atrium:2"))
    assert g.pending == Pending(DecisionKind.ATRIUM_BID, 0, index=0)
    play(g, Bid(1), Bid(2))
    assert hand(g, 1) == ["praetorians:3", "senators:5"]
    assert [p.money for p in g.position().players] == [7, 3]


def test_atrium_lone_first_bidder_with_a_single_card() -> None:
    """Atrium, only "1." occupied and a single card on the board: he pays 1 and takes the face-up card."""
    g = position(
        [{"money": 3}, {}],
        phase="region_evaluation",
        board={"atrium": [[], ["vestals:7"], []]},
        atrium_up=[False, True, False],
        followers={"atrium:1": 0},
    )
    assert hand(g, 0) == ["vestals:7"]
    assert g.position().players[0].money == 2


def test_catacombs_unoccupied_space_is_passed_over_and_rest_discarded() -> None:
    """Catacombs: "4" then "3" then "2"; an unoccupied space is simply passed over; the money goes to the
    Colosseum; the cards nobody bought are discarded."""
    pile = ["plebeians:3", "vestals:5", "patricians:8", "gladiators:6", "legates:7"]
    g = position(
        [{"money": 9}, {"money": 9}],
        phase="region_evaluation",
        board={"catacombs": [pile]},
        followers={"catacombs:1": 1, "catacombs:3": 0},
    )
    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, 1, index=0)
    g.apply(pick(g, "patricians:8"))
    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, 0, index=2)
    g.apply(pick(g, "legates:7"))
    assert g.position().colosseum == 4 + 2
    assert [p.money for p in g.position().players] == [7, 5]
    assert discard(g) == ["gladiators:6", "plebeians:3", "vestals:5"]


def test_field_of_mars_one_player_on_all_three_spaces_two_pairs() -> None:
    """Field of Mars: a pair (and a laurel) per follower; alone on the field he also takes the bonus."""
    g = position(
        [{"hand": ["gladiators:1", "gladiators:2", "senators:4", "senators:5", "legates:3"]}, {}],
        phase="region_evaluation",
        followers={"field_of_mars:1": 0, "field_of_mars:2": 0, "field_of_mars:3": 0},
    )
    play(g, pick(g, "gladiators:1"), pick(g, "gladiators:2"))
    play(g, pick(g, "senators:4"), pick(g, "senators:5"))
    assert g.pending.kind is not DecisionKind.FIELD_OF_MARS_PAIR  # no third pair possible
    assert g.position().players[0].laurels == 2 + 1
    assert hand(g, 0) == ["legates:3"]


def test_field_of_mars_only_one_of_two_players_discards_a_pair_takes_the_bonus() -> None:
    """Field of Mars: the bonus goes to the highest discarded pair; if only one player discards a pair,
    his is the highest."""
    g = position(
        [{"hand": ["gladiators:1", "gladiators:2"]}, {"hand": ["senators:9", "senators:10"]}],
        phase="region_evaluation",
        followers={"field_of_mars:1": 0, "field_of_mars:2": 1},
    )
    play(g, pick(g, "gladiators:1"), pick(g, "gladiators:2"))
    g.apply(DECLINE)  # the player with the better pair keeps it
    assert [p.laurels for p in g.position().players] == [2, 0]


def test_pantheon_two_sacrifices_both_get_eternal_favor_and_temp_favor_returns() -> None:
    """Pantheon: each player who sacrificed takes an eternal favor; one who held the temporary favor must
    discard it (R21); the Vestals benefit later gives only the laurel."""
    g = position(
        [
            {
                "markers": ["vestals"],
                "hand": ["legates:2"],
                "temporary_favor": True,
                "sets": {"vestals": ["vestals:3", "vestals:4"]},
            },
            {"markers": ["vestals"], "hand": ["legates:6"]},
        ],
        phase="region_evaluation",
        board={"pantheon": [["legates:5"]]},
        followers={"pantheon:1": 1, "pantheon:2": 0},
    )
    g.apply(pick(g, "legates:6"))
    assert not g.position().players[1].eternal_favor  # handed out only after all have chosen
    g.apply(pick(g, "legates:2"))
    assert [p.eternal_favor for p in g.position().players] == [True, True]
    assert not g.position().players[0].temporary_favor
    assert "legates:5" in discard(g)


# --- Phase 4: take-over sequences ------------------------------------------------------


def test_second_plays_leader_first_answers_no_leader_benefit_for_second() -> None:
    """Two-player take-over: "2" plays a set with Cato, "1" beats it. Only the winner's rewards are given;
    "2" takes his set back and may discard the leader itself as the penalty."""
    g = position(
        [
            {"hand": ["senators:4", "senators:5", "senators:5"], "markers": ["gladiators"]},
            {"hand": ["senators:0", "senators:9"]},
        ],
        phase="takeovers",
        followers={"faction:senators:1": 0, "faction:senators:2": 1},
    )
    senators = int(Faction.SENATORS)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, 1, senators, int(TakeoverRole.SECOND_FIRST))
    _play_set(g, ["senators:0", "senators:9"])
    _play_set(g, ["senators:4", "senators:5", "senators:5"])
    assert g.pending == Pending(DecisionKind.TAKEOVER_PENALTY, 1, senators)
    assert set(g.legal_actions()) == {pick(g, "senators:0"), pick(g, "senators:9")}
    g.apply(pick(g, "senators:0"))
    assert hand(g, 1) == ["senators:9"]
    assert g.position().controller[Faction.SENATORS] == 0
    assert g.position().players[1].num_markers == 0 and g.position().players[1].laurels == 0
    # the winner: take-over laurel + first laurel, the Senators marker, no Cato choice (no leader in his set)
    assert g.position().players[0].laurels == 2
    assert g.position().players[0].num_markers == 2


def test_second_plays_leader_first_declines_second_gets_leader_benefit() -> None:
    """Two-player take-over: "1" declines to answer, so "2" takes over and gets the leader ability (Cato)."""
    g = position(
        [{"hand": ["senators:4", "senators:5", "senators:5"]}, {"hand": ["senators:0", "senators:9"]}],
        phase="takeovers",
        followers={"faction:senators:1": 0, "faction:senators:2": 1},
    )
    _play_set(g, ["senators:0", "senators:9"])
    g.apply(DECLINE)
    assert g.pending == Pending(DecisionKind.CATO_MARKER, 1, int(Faction.SENATORS))
    g.apply(ChooseFaction(int(Faction.VESTALS)))
    assert g.position().controller[Faction.SENATORS] == 1
    assert hand(g, 0) == ["senators:4", "senators:5", "senators:5"]  # no penalty for "1"
    assert g.position().players[1].num_markers == 2


def test_first_answer_only_has_to_beat_second_after_the_controller_set_is_gone() -> None:
    """R15 (amended): "2" beats the controller by count (4 cards); the controller's 3-card set (sum 20) is
    discarded at once, so "1" only has to beat "2"'s set: 2 cards of sum 15 beat 4 cards of sum 11."""
    g = position(
        [
            {"sets": {"vestals": ["vestals:5", "vestals:6", "vestals:9"]}, "markers": ["vestals"]},
            {"hand": ["vestals:0", "vestals:3", "vestals:4", "vestals:4"]},
            {"hand": ["vestals:7", "vestals:8"]},
        ],
        phase="takeovers",
        followers={"faction:vestals:1": 2, "faction:vestals:2": 1},
    )
    _play_set(g, ["vestals:0", "vestals:3", "vestals:4", "vestals:4"])
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, 2, int(Faction.VESTALS), int(TakeoverRole.FIRST_OVER_SECOND))
    assert g.position().controller[Faction.VESTALS] == -1  # the old set left the table when "2" committed
    assert sorted(discard(g)) == ["vestals:5", "vestals:6", "vestals:9"]
    _play_set(g, ["vestals:7", "vestals:8"])
    assert g.pending == Pending(DecisionKind.TAKEOVER_PENALTY, 1, int(Faction.VESTALS))
    g.apply(pick(g, "vestals:3"))
    assert g.position().controller[Faction.VESTALS] == 2
    assert set_of(g, Faction.VESTALS) == ["vestals:7", "vestals:8"]
    assert hand(g, 1) == ["vestals:0", "vestals:4", "vestals:4"]


def test_r15_second_commit_returns_the_temporary_favor_at_once() -> None:
    """R15 (amended) with R18: the controller's set is discarded when "2" commits, so the Vestal Virgins'
    temporary favor goes back at that moment, even if "1" then takes the faction from "2"."""
    g = position(
        [
            {"sets": {"vestals": ["vestals:3", "vestals:4"]}, "markers": ["vestals"], "temporary_favor": True},
            {"hand": ["vestals:5", "vestals:6"]},
            {"hand": ["vestals:8", "vestals:9"]},
        ],
        phase="takeovers",
        followers={"faction:vestals:1": 2, "faction:vestals:2": 1},
    )
    _play_set(g, ["vestals:5", "vestals:6"])
    assert not g.position().players[0].temporary_favor
    assert g.position().controller[Faction.VESTALS] == -1
    assert g.pending.seat == 2 and g.pending.index == TakeoverRole.FIRST_OVER_SECOND


def test_assassin_weakens_a_set_that_is_attacked_later_in_the_same_phase() -> None:
    """Plebeians take-over assassin (phase 4) removes the Senators' highest card; the Senators take-over,
    later in the same phase, only has to beat the weakened set."""
    g = position(
        [
            {"hand": ["plebeians:1", "plebeians:2", "senators:5", "senators:6"]},
            {"sets": {"senators": ["senators:4", "senators:4", "senators:10"]}, "markers": ["senators"]},
        ],
        phase="takeovers",
        followers={"faction:plebeians:1": 0, "faction:senators:1": 0},
    )
    _play_set(g, ["plebeians:1", "plebeians:2"])
    assert g.pending == Pending(DecisionKind.ASSASSIN_TARGET, 0)
    g.apply(Assassinate(1, int(Faction.SENATORS)))
    assert set_of(g, Faction.SENATORS) == ["senators:4", "senators:4"]
    # 5 + 6 = 11 > 8 now (it was 11 < 18 before the assassin)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, 0, int(Faction.SENATORS), int(TakeoverRole.ALONE))
    _play_set(g, ["senators:5", "senators:6"])
    assert g.position().controller[Faction.SENATORS] == 0
    assert "senators:10" in discard(g)


def test_cesura_in_phase_4_reward_draw_weakens_a_later_target() -> None:
    """Cesura magna in the middle of phase 4 (R5): the Praetorians take-over draw finds both piles empty;
    the Senators' 3-card set loses its lowest card at once, then the draw goes on (the discarded card is
    reshuffled and drawn), and the later Senators take-over faces a 2-card set."""
    players = [
        {"hand": ["praetorians:1", "praetorians:2", "senators:7", "senators:8"]},
        {"sets": {"senators": ["senators:4", "senators:5", "senators:6"]}, "markers": ["senators"]},
    ]
    rest = remaining_cards({"players": players})
    g = position(
        players,
        phase="takeovers",
        draw_pile=[],
        discard_pile=[],
        board={"catacombs": [rest]},  # parks the other cards out of both piles
        followers={"faction:praetorians:1": 0, "faction:senators:1": 0},
    )
    _play_set(g, ["praetorians:1", "praetorians:2"])
    assert set_of(g, Faction.SENATORS) == ["senators:5", "senators:6"]
    assert hand(g, 0) == ["senators:4", "senators:7", "senators:8"]  # the cesura discard was drawn
    # 2 cards, 15 > 11: sufficient now (against 3 cards / 15 before the cesura it would not be)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, 0, int(Faction.SENATORS), int(TakeoverRole.ALONE))
    assert COMMIT not in g.legal_actions()
    play(g, pick(g, "senators:7"), pick(g, "senators:8"))
    assert COMMIT in g.legal_actions()


def test_cesura_set_of_five_loses_its_two_lowest_cards() -> None:
    """Cesura magna: a displayed set of four *or more* cards loses its two lowest cards (5 -> 3)."""
    players = [
        {"sets": {"gladiators": ["gladiators:1", "gladiators:2", "gladiators:3", "gladiators:5", "gladiators:6"]}},
        {},
    ]
    rest = remaining_cards({"players": players})
    g = position(
        players,
        phase="faction_benefits",
        draw_pile=[],
        discard_pile=[],
        board={"catacombs": [rest]},
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.GLADIATORS))
    g.apply(ChooseOption(1))  # draw a card: cesura
    assert set_of(g, Faction.GLADIATORS) == ["gladiators:3", "gladiators:5", "gladiators:6"]
    assert hand(g, 0) in (["gladiators:1"], ["gladiators:2"])


def test_cesura_senators_two_card_draw_with_only_one_card_available() -> None:
    """R5: after a cesura, a draw that still finds nothing does not happen: the Senators' two-card benefit
    yields the single card the cesura freed."""
    players = [
        {"sets": {"senators": ["senators:4", "senators:5", "senators:6"]}, "markers": ["senators"], "tile": "scroll"},
        {},
    ]
    rest = remaining_cards({"players": players})
    g = position(players, phase="faction_benefits", draw_pile=[], discard_pile=[], board={"catacombs": [rest]})
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.SENATORS))
    g.apply(ChooseOption(1))
    assert hand(g, 0) == ["senators:4"]
    assert set_of(g, Faction.SENATORS) == ["senators:5", "senators:6"]


# --- Vestal Virgins: the temporary favor across control changes -------------------------


def test_aquilia_takeover_from_temp_favor_holder() -> None:
    """R18 + Aquilia Severa: the old controller returns the temporary favor at once; the new controller
    gains the eternal favor, so his Vestals benefit gives the laurel but not the temporary favor."""
    g = position(
        [
            {"sets": {"vestals": ["vestals:3", "vestals:4"]}, "temporary_favor": True, "markers": ["vestals"]},
            {"hand": ["vestals:0", "vestals:5", "vestals:6"]},
        ],
        phase="takeovers",
        followers={"faction:vestals:1": 1},
    )
    _play_set(g, ["vestals:0", "vestals:5", "vestals:6"])
    assert not g.position().players[0].temporary_favor
    assert g.position().players[1].eternal_favor
    assert g.position().players[1].money == 5
    g.apply(ChooseOption(0))
    assert g.position().players[1].laurels == 1 + 0  # the first laurel is gone: seat 0 controlled them before
    assert not g.position().players[1].temporary_favor
    assert not any(p.temporary_favor for p in g.position().players)


def test_temporary_favor_lost_in_phase_4_does_not_fulfil_obligatory_favor() -> None:
    """card_d: "Favor of the gods" is obligatory; the temporary favor counts only while held. Losing the
    Vestals in phase 4 takes it away, so the game does not end at the end of the round."""
    markers = ["gladiators", "legates", "praetorians", "plebeians", "patricians", "vestals"]
    g = position(
        [
            {
                "sets": {"vestals": ["vestals:3", "vestals:4"]},
                "temporary_favor": True,
                "markers": markers,
                "laurels": 12,
                "legions": 4,
                "money": 35,
            },
            {"hand": ["vestals:5", "vestals:6"]},
        ],
        phase="takeovers",
        victory_card="card_d",
        followers={"faction:vestals:1": 1},
    )
    assert g.position().fulfilled_since[0] >= 0
    _play_set(g, ["vestals:5", "vestals:6"])
    assert g.position().fulfilled_since[0] == -1
    g.apply(ChooseOption(0))  # seat 1's Vestals benefit
    _bids(g, 0)
    assert not g.is_over and g.round == 2


# --- Scroll / tribune interplay (R19) ------------------------------------------------------


def test_legates_scroll_then_plebeians_tribune_in_the_same_phase_5() -> None:
    """R19/R20 with the board order of phase 5: the Legates' scroll (faction 2) is already held when the
    Plebeians' tribune option (faction 4) comes, so it may be taken in the same phase."""
    g = position(
        [
            {
                "sets": {
                    "legates": ["legates:3", "legates:4"],
                    "plebeians": ["plebeians:3", "plebeians:4"],
                    "patricians": ["patricians:3", "patricians:4"],
                }
            },
            {},
        ],
        phase="faction_benefits",
    )
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    g.apply(ChooseOption(0))
    assert g.position().players[0].tile == 1
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.PLEBEIANS))
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    g.apply(ChooseOption(1))
    assert g.position().players[0].tile == 2


def test_senators_scroll_comes_after_the_vestals_in_phase_5() -> None:
    """R19/R20 with the board order: the Vestals (faction 6) are resolved before the Senators (faction 7),
    so a scroll taken from the Senators cannot be turned by the Vestals in the same phase."""
    g = position(
        [{"sets": {"vestals": ["vestals:3", "vestals:4"], "senators": ["senators:4", "senators:5"]}}, {}],
        phase="faction_benefits",
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.VESTALS))
    assert g.legal_actions() == [ChooseOption(0)]
    g.apply(ChooseOption(0))
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.SENATORS))
    g.apply(ChooseOption(0))
    assert g.position().players[0].tile == 1


def test_agrippa_scroll_then_plebeians_tribune_next_phase() -> None:
    """Agrippa gives a scroll in phase 4; in phase 5 the Plebeians controller who also controls the
    Patricians may turn it into the tribune."""
    g = position(
        [{"hand": ["plebeians:0", "plebeians:6"], "sets": {"patricians": ["patricians:3", "patricians:4"]}}, {}],
        phase="takeovers",
        followers={"faction:plebeians:1": 0},
    )
    _play_set(g, ["plebeians:0", "plebeians:6"])
    assert g.pending == Pending(DecisionKind.AGRIPPA_CHOICE, 0, int(Faction.PLEBEIANS))
    g.apply(ChooseOption(0))
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.PLEBEIANS))
    g.apply(ChooseOption(1))
    assert g.position().players[0].tile == 2


# --- Proconsul (R9) ------------------------------------------------------------------------


def test_proconsul_moves_with_the_patricians() -> None:
    """R9: the proconsul goes to whoever controls the Patricians in phase 5; the old holder places only his
    normal followers in the next round."""
    g = position(
        [
            {"sets": {"patricians": ["patricians:2", "patricians:3"]}, "markers": ["patricians"]},
            {"hand": ["patricians:7", "patricians:8"]},
        ],
        phase="takeovers",
        proconsul=0,
        followers={"faction:patricians:1": 1},
    )
    _play_set(g, ["patricians:7", "patricians:8"])
    assert g.position().proconsul == 1
    _bids(g, 0)
    assert g.round == 2
    assert [p.followers for p in g.position().players] == [6, 7]


# --- Phase 6: the chariot ------------------------------------------------------------------


def test_chariot_winner_controlling_nothing_pays_and_blocks_nothing() -> None:
    """Phase 6: the highest bidder pays his bid even when he controls no faction; the chariot then stays
    off the board."""
    g = position(
        [{"money": 5}, {"money": 5, "sets": {"legates": ["legates:3", "legates:4"]}}],
        phase="chariot_auction",
    )
    play(g, Bid(2), Bid(1))
    assert g.pending == Pending(DecisionKind.CHARIOT_PLACEMENT, 0)
    assert g.legal_actions() == [DECLINE]
    g.apply(DECLINE)
    assert [p.money for p in g.position().players] == [3, 5]
    assert g.position().chariot == -1


def test_chariot_blocks_for_one_round_only() -> None:
    """Phase 6: the chariot blocks its faction "in the next round"; at the following auction it leaves,
    and in the round after that the faction may be attacked again."""
    g = position(
        [{"money": 5, "sets": {"legates": ["legates:3", "legates:4"]}}, {"money": 0}],
        phase="chariot_auction",
    )
    play(g, Bid(1), Bid(0), ChooseFaction(int(Faction.LEGATES)))
    assert g.round == 2 and g.position().chariot == Faction.LEGATES
    while g.pending.kind is DecisionKind.PLACE_FOLLOWER:
        assert place(g, "faction:legates:1") not in g.legal_actions()
        g.apply(_bowl(g))
    while g.pending.kind is not DecisionKind.CHARIOT_BID:
        g.apply(g.legal_actions()[-1])
    _bids(g, 0)
    assert g.round == 3 and g.position().chariot == -1
    assert g.pending.kind is DecisionKind.PLACE_FOLLOWER and g.pending.seat == 0
    g.apply(_bowl(g))
    assert place(g, "faction:legates:1") in g.legal_actions()


# --- Scoring --------------------------------------------------------------------------------


@pytest.mark.parametrize(("money", "points"), [(9, 0), (10, 1), (39, 3), (40, 4)])
def test_every_full_ten_denarii_is_one_point(money: int, points: int) -> None:
    """Scoring table: "Every 10 Denarii 1" (only full tens count)."""
    g = position([{"money": money}, {}], phase="chariot_auction")
    assert g.scores()[0] == points


def test_scoring_table_all_items() -> None:
    """Scoring table: tribune 7 (not 7 + 3), eternal favor 5, each legion 2, each laurel 1, each marker 1;
    temporary favor 2 and scroll 3."""
    g = position(
        [
            {"tile": "tribune", "eternal_favor": True, "legions": 3, "laurels": 4, "markers": ["legates", "vestals"]},
            {"tile": "scroll", "temporary_favor": True, "sets": {"vestals": ["vestals:3", "vestals:4"]}},
        ],
        phase="chariot_auction",
    )
    assert g.scores() == [7 + 5 + 6 + 4 + 2, 3 + 2]


# --- End of the game ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("victory_card", "player", "ends"),
    [
        # Pecunia non olet (2p: 5 objectives, denarii obligatory)
        ("pecunia", {"tile": "tribune", "eternal_favor": True, "laurels": 10, "legions": 3,
                     "markers": ALL_BUT_SENATORS[:5], "money": 29}, False),
        ("pecunia", {"tile": "tribune", "eternal_favor": True, "laurels": 10, "legions": 3, "money": 30}, True),
        # card_c (2p: 5 objectives, tribune obligatory): a scroll is not a tribune
        ("card_c", {"tile": "scroll", "eternal_favor": True, "laurels": 10, "legions": 3,
                    "markers": ALL_BUT_SENATORS[:5], "money": 30}, False),
        ("card_c", {"tile": "tribune", "laurels": 10, "legions": 3, "markers": ALL_BUT_SENATORS[:5],
                    "money": 30}, True),
        # card_d (2p: 5 objectives, favor obligatory)
        ("card_d", {"tile": "tribune", "laurels": 12, "legions": 4, "markers": ALL_BUT_SENATORS, "money": 35},
         False),
        ("card_d", {"eternal_favor": True, "laurels": 12, "legions": 4, "markers": ALL_BUT_SENATORS,
                    "money": 35}, True),
    ],
)
def test_obligatory_objectives(victory_card: str, player: dict, ends: bool) -> None:
    """The end of play: obligatory objectives must be among those met; they count toward the total."""
    g = position([player, {}], phase="chariot_auction", victory_card=victory_card)
    _bids(g, 0)
    assert g.is_over is ends
    if ends:
        assert g.winners == (0,)


def test_temporary_favor_fulfils_obligatory_favor_while_held() -> None:
    """Favor of the gods objective: the temporary favor counts while held (card_d, favor obligatory)."""
    g = position(
        [
            {
                "temporary_favor": True,
                "sets": {"vestals": ["vestals:3", "vestals:4"]},
                "laurels": 12,
                "legions": 4,
                "markers": ALL_BUT_SENATORS,
                "money": 35,
            },
            {},
        ],
        phase="chariot_auction",
        victory_card="card_d",
    )
    _bids(g, 0)
    assert g.is_over and g.winners == (0,)


def test_fulfilment_lost_before_the_end_of_the_round_does_not_end_the_game() -> None:
    """R23: victory conditions are checked at the end of the round. A player who met them during the round
    (40 denarii) but paid for the chariot (39 left) no longer meets them: the game goes on."""
    g = position(
        [{"money": 40, "laurels": 12, "legions": 4, "tile": "tribune", "eternal_favor": True}, {"money": 0}],
        phase="chariot_auction",
    )
    assert g.position().fulfilled_since[0] >= 0
    play(g, Bid(1), Bid(0), DECLINE)
    assert not g.is_over and g.round == 2


def test_higher_score_beats_first_fulfiller() -> None:
    """End of play: several players fulfil in the same round; the highest total wins even though the other
    one fulfilled first (+2)."""
    g = position(
        [
            {"tile": "tribune", "eternal_favor": True, "laurels": 12, "legions": 4, "money": 40},
            {"tile": "tribune", "eternal_favor": True, "laurels": 11, "legions": 6, "money": 40, "markers": ["vestals"],
             "sets": {"vestals": ["vestals:4", "vestals:5"]}},
        ],
        phase="faction_benefits",
    )
    g.apply(ChooseOption(0))  # seat 1 reaches 12 laurels now
    assert first_fulfillers(g.position()) == [0]
    _bids(g, 0)
    assert g.is_over
    assert g.scores() == [7 + 5 + 12 + 8 + 4 + 2, 7 + 5 + 12 + 12 + 4 + 1]
    assert g.winners == (1,)


def test_first_bonus_after_an_interrupted_fulfilment_counts_from_the_restart() -> None:
    """R23: the +2 goes to the player whose *continuous* fulfilment began earliest in the round. Seat 0 meets
    alea_long from the start, drops out at the Catacombs (phase 3, 40 -> 36 denarii) and is back with the
    Vestals take-over money (phase 4), after seat 1 started fulfilling with the Gladiators legion (phase 4):
    seat 1 is first."""
    g = position(
        [
            {"money": 40, "laurels": 12, "legions": 4, "tile": "tribune", "eternal_favor": True,
             "hand": ["vestals:5", "vestals:6"]},
            {"money": 40, "laurels": 12, "legions": 3, "tile": "tribune", "eternal_favor": True,
             "hand": ["gladiators:1", "gladiators:2"]},
        ],
        phase="region_evaluation",
        board={"catacombs": [["senators:9", "legates:1", "legates:2", "legates:3", "legates:4"]]},
        followers={"catacombs:1": 0, "faction:gladiators:1": 1, "faction:vestals:1": 0},
    )
    assert g.position().fulfilled_since[0] >= 0 and g.position().fulfilled_since[1] == -1
    g.apply(pick(g, "senators:9"))  # 36 denarii: seat 0 no longer meets alea_long
    assert g.position().fulfilled_since[0] == -1
    _play_set(g, ["gladiators:1", "gladiators:2"])  # seat 1: 4 legions
    assert g.position().fulfilled_since[1] >= 0
    _play_set(g, ["vestals:5", "vestals:6"])  # seat 0: +5 denarii = 41
    assert g.position().fulfilled_since[0] > g.position().fulfilled_since[1]
    assert first_fulfillers(g.position()) == [1]


def test_legion_purchase_does_not_interrupt_continuous_fulfilment() -> None:
    """R23: the +2 goes to the player whose continuous fulfilment began earliest in the round.

    alea_short, 2 players (4 of 6): seat 0 meets laurels, denarii (26), favor and markers from the start of
    the round. Seat 1 starts meeting the card in phase 4 (Gladiators take-over legion). In phase 5 seat 0
    buys a legion with the Legates benefit for 5 denarii: 26 -> 21 denarii (denarii objective lost) and
    2 -> 3 legions (legions objective gained) in one purchase; he meets the card before and after it, so his
    fulfilment is continuous and he keeps the "first" bonus: 25 + 2 = 27 against seat 1's 23 (sole winner).
    """
    g = position(
        [
            {
                "money": 26,
                "laurels": 8,
                "legions": 2,
                "eternal_favor": True,
                "markers": ["legates", "senators", "vestals", "plebeians"],
                "sets": {"legates": ["legates:2", "legates:3"]},
            },
            {"money": 25, "laurels": 8, "legions": 2, "eternal_favor": True, "hand": ["gladiators:1", "gladiators:2"]},
        ],
        phase="takeovers",
        victory_card="alea_short",
        followers={"faction:gladiators:1": 1},
    )
    assert g.position().fulfilled_since[0] >= 0 and g.position().fulfilled_since[1] == -1
    _play_set(g, ["gladiators:1", "gladiators:2"])
    assert g.position().fulfilled_since[1] >= 0
    g.apply(ChooseOption(0))  # seat 1's Gladiators benefit: the (empty) Colosseum
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.LEGATES))
    g.apply(ChooseOption(1))
    g.apply(COMMIT)  # buy the legion
    assert g.position().players[0].money == 21 and g.position().players[0].legions == 3
    assert first_fulfillers(g.position()) == [0]
    _bids(g, 0)
    assert g.is_over
    assert g.winners == (0,)


def test_point_variant_ends_at_round_end_and_equal_scores_share_the_win() -> None:
    """Point-value variant (5 players: 5 markers): the game ends at the end of the round in which a player
    has at least 5 markers; the highest score wins; equal scores share; no victory card, no "first" bonus."""
    five = ALL_BUT_SENATORS[:5]
    g = position(
        [{"markers": five}, {"laurels": 5}, {"legions": 1}, {"money": 30}, {}],
        phase="chariot_auction",
        victory_card=None,
        config={"point_variant": True},
    )
    assert g.scores() == [5, 5, 2, 3, 0]
    _bids(g, 0)
    assert g.is_over and not g.truncated
    assert g.winners == (0, 1)
    assert g.ranks() == [1, 1, 4, 3, 5]


def test_point_variant_four_players_needs_six_markers() -> None:
    """Point-value variant table: 4 players need 6 faction markers; 5 are not enough."""
    g = position(
        [{"markers": ALL_BUT_SENATORS[:5]}, {}, {}, {}],
        phase="chariot_auction",
        victory_card=None,
        config={"point_variant": True},
    )
    _bids(g, 0)
    assert not g.is_over and g.round == 2


def test_truncated_game_ranks_follow_the_score_with_shared_ranks() -> None:
    """R25: at the round limit the game is truncated; ranks follow the score, equal scores share a rank."""
    g = position(
        [{"money": 20}, {"laurels": 3}, {"laurels": 2}],
        phase="chariot_auction",
        round=4,
        config={"round_limit": 4},
    )
    _bids(g, 0)
    assert g.is_over and g.truncated
    assert g.winners == (1,)
    assert g.ranks() == [2, 1, 2]


def test_fulfiller_ranks_above_a_richer_non_fulfiller() -> None:
    """End of play: only players meeting the victory card can win, even against a higher score."""
    g = position(
        [{"money": 40, "laurels": 12, "legions": 4, "tile": "tribune", "eternal_favor": True}, {"legions": 30}],
        phase="chariot_auction",
    )
    _bids(g, 0)
    assert g.is_over
    assert g.scores()[1] > g.scores()[0]
    assert g.winners == (0,)
    assert g.ranks() == [1, 2]


# --- Board filling ----------------------------------------------------------------------------


def test_curia_field_with_several_cards_is_taken_whole_for_one_discard() -> None:
    """Curia: one discard takes *all* the cards of the field (here four cards, 1+1+1+2 = 5)."""
    g = position(
        [{"hand": ["senators:4"]}, {}],
        phase="region_evaluation",
        board={"curia": [["plebeians:1", "plebeians:1", "gladiators:1", "gladiators:2"], [], []]},
        followers={"curia:1": 0},
    )
    g.apply(pick(g, "senators:4"))
    assert hand(g, 0) == ["gladiators:1", "gladiators:2", "plebeians:1", "plebeians:1"]
    assert field(g, Region.CURIA, 0) == []
