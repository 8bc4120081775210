"""One or more tests per ruling R1..R25 of rulings.md (base game).

Every test builds a small position, plays the relevant choices and asserts
the concrete outcome the ruling (and the rulebook) prescribes.
"""

from __future__ import annotations

import pytest
from positions import (
    HIDDEN,
    card,
    discard,
    field,
    hand,
    pick,
    place,
    play,
    position,
    remaining_cards,
    set_of,
)

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
    IllegalActionError,
    Pending,
    PlaceFollower,
    Region,
    TakeoverRole,
)

BOWL_LABEL = "coin_bowl"


def _play_set(g: Game, labels: list[str]) -> None:
    """Stage a take-over set (in ascending card-type order, as the engine requires) and commit it."""
    for c in sorted(labels, key=lambda lab: card(g, lab)):
        g.apply(pick(g, c))
    g.apply(COMMIT)


def _bowl(g: Game) -> PlaceFollower:
    return PlaceFollower(g.tables.coin_bowl)


# --- Information ------------------------------------------------------------------------


def test_r01_hands_are_private_and_holdings_public() -> None:
    """R1: hands are private (others see only the size); money, sets, etc. are public."""
    g = position(
        [
            {"money": 9, "hand": ["senators:7", "legates:3"], "sets": {"senators": ["senators:8", "senators:9"]}},
            {"money": 4, "hand": ["gladiators:1"]},
        ],
        phase="faction_benefits",
    )
    view = g.view(1)
    assert view.hand == tuple(g.position().players[1].hand)
    assert view.hand[card(g, "gladiators:1")] == 1 and sum(view.hand) == 1
    assert not hasattr(view.players[0], "hand")
    assert view.players[0].hand_size == 2
    assert view.players[0].money == 9
    assert view.sets[Faction.SENATORS] == tuple(card(g, c) for c in ["senators:8", "senators:9"])
    # the player who draws a card sees it; the others learn only that a card was drawn
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.SENATORS))
    g.apply(ChooseOption(1))  # draw two cards (no scroll: the option is a choice here)
    assert sum(1 for line in g.log(0) if line.startswith("P0 drew ")) == 2
    assert not any(line.startswith("P0 drew ") for line in g.log(1))
    assert sum(1 for line in g.log(1) if line == "P0 draws a card") == 2
    assert g.view(1).players[0].hand_size == 4


def test_r01_face_down_cards_hidden_face_up_cards_public() -> None:
    """R1: Thermae cards are public, the Latrine, Atrium and Pantheon cards face down are unknown."""
    g = position(
        [{"followers": 1}, {"followers": 1}],
        phase="follower_placement",
        board={
            "thermae": [["gladiators:1"], ["gladiators:2"], ["gladiators:3"], ["gladiators:4"]],
            "latrine": [["senators:9"]],
            "atrium": [["legates:1"], ["legates:2"], ["legates:3"]],
            "pantheon": [["vestals:9"]],
        },
    )
    for seat in (0, 1):
        view = g.view(seat)
        assert view.board[Region.THERMAE] == tuple((card(g, f"gladiators:{v}"),) for v in (1, 2, 3, 4))
        assert view.board[Region.LATRINE] == ((HIDDEN,),)
        assert view.board[Region.ATRIUM] == ((HIDDEN,),) * 3
        assert view.board[Region.PANTHEON] == ((HIDDEN,),)


def test_r02_atrium_bids_are_sealed_until_revealed() -> None:
    """R2: the second bidder cannot see the first bid; each sees only his own."""
    g = position(
        [{"money": 10}, {"money": 10}],
        phase="region_evaluation",
        board={"atrium": [["senators:5"], ["praetorians:3"], ["vestals:6"]]},
        atrium_up=[True, True, True],
        followers={"atrium:1": 0, "atrium:2": 1},
    )
    g.apply(Bid(7))
    assert g.pending == Pending(DecisionKind.ATRIUM_BID, 1, index=1)
    assert g.view(0).my_bid == 7
    assert g.view(1).my_bid == -1
    assert not any("7" in line for line in g.log(1))
    g.apply(Bid(3))
    assert "Atrium bids revealed: P0 7, P1 3" in g.log(1)


def test_r02_chariot_bids_are_sealed_until_revealed() -> None:
    """R2: chariot bids are asked one at a time but not shown to the others."""
    g = position([{"money": 10}, {"money": 10}, {"money": 10}], phase="chariot_auction")
    g.apply(Bid(6))
    g.apply(Bid(2))
    assert g.pending == Pending(DecisionKind.CHARIOT_BID, 2)
    view = g.view(2)
    assert view.my_bid == -1
    assert view.players[0].money == 10  # nothing paid yet
    assert not any("bids 6" in line or "bids 2" in line for line in g.log(2))
    assert g.view(0).my_bid == 6 and g.view(1).my_bid == 2


def test_r02_setup_discards_are_hidden_in_the_log() -> None:
    """R2/R4: a set-up discard is face down: the others learn that a card was discarded, not which."""
    g = Game.new(players=2, seed=3, auto_forced=False, start_seat=0)
    first = g.legal_actions()[0]
    g.apply(first)
    name = g.tables.card_name(first.card)
    assert any(name in line for line in g.log(0))
    assert not any(name in line for line in g.log(1))
    assert g.position().players[0].hand_size == 5


def test_r02_setup_discard_view_shows_only_sizes() -> None:
    """R1/R2: during the set-up discards each player can observe the game; the others' discards stay hidden."""
    g = Game.new(players=2, seed=3, auto_forced=False, start_seat=0)
    g.apply(g.legal_actions()[0])
    view = g.view(1)
    assert view.players[0].hand_size == 5
    assert sum(view.hand) == 6
    assert view.discard_size == 1


# --- Set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "valid"), [(2, {"alea_long", "alea_short", "pecunia", "card_c", "card_d"}), (5, {"card_e", "card_f"})]
)
def test_r03_random_victory_card_is_valid_for_the_player_count(players: int, valid: set[str]) -> None:
    """R3: by default a random victory card valid for the player count (not a player decision)."""
    seen = set()
    for seed in range(25):
        g = Game.new(players=players, seed=seed, auto_forced=False)
        assert g.pending.kind is DecisionKind.SETUP_DISCARD
        seen.add(g.position().victory_card)
    assert seen <= valid
    assert len(seen) >= 2


def test_r03_victory_card_is_a_configuration_choice() -> None:
    """R3: the configuration chooses the card (and the long or short Alea row); invalid choices are refused."""
    assert Game.new(players=3, seed=1, victory_card="alea_short").position().victory_card == "alea_short"
    assert Game.new(players=4, seed=1, victory_card="pecunia").position().victory_card == "pecunia"
    with pytest.raises(ValueError):
        Game.new(players=3, seed=1, victory_card="card_e")  # a 5-player card


def test_r03_point_value_variant_is_a_configuration_choice() -> None:
    """R3: the point-value variant ends the round in which a player holds 7 markers (2 players);
    the best score wins, no victory card is used."""
    markers = ["gladiators", "legates", "praetorians", "plebeians", "patricians", "vestals", "senators"]
    g = position(
        [{"markers": markers}, {"money": 90, "laurels": 3}],
        phase="chariot_auction",
        victory_card=None,
        config={"point_variant": True},
    )
    assert g.position().victory_card == ""
    play(g, Bid(0), Bid(0))
    assert g.is_over
    assert g.scores() == [7, 12]
    assert g.winners == (1,)


def test_r04_setup_discard_position_round_trips() -> None:
    """R4: the set-up discards are ordinary decisions, so a game can be saved and resumed between them."""
    g = Game.new(players=3, seed=1, auto_forced=False)
    g.apply(g.legal_actions()[0])
    h = Game.from_json(g.to_json())
    assert h.pending == g.pending
    assert h.to_json() == g.to_json()


def test_r04_setup_is_two_discard_decisions_per_player() -> None:
    """R4: six cards dealt, then two "discard one card" decisions per player; starting money 12, 13, 14."""
    g = Game.new(players=3, seed=1, auto_forced=False)
    start = g.position().start_seat
    assert [p.hand_size for p in g.position().players] == [6, 6, 6]
    assert [g.position().players[(start + k) % 3].money for k in range(3)] == [12, 13, 14]
    seats = []
    while g.pending.kind is DecisionKind.SETUP_DISCARD:
        seats.append(g.pending.seat)
        g.apply(g.legal_actions()[0])
    assert sorted(seats) == [0, 0, 1, 1, 2, 2]
    assert seats == [(start + k // 2) % 3 for k in range(6)]
    assert [p.hand_size for p in g.position().players] == [4, 4, 4]
    assert g.pending.kind is DecisionKind.PLACE_FOLLOWER
    assert g.round == 1
    assert sum(g.position().card_counts()) == 100
    assert g.position().discard == []  # the discards were shuffled back into the deck


# --- Phase 1 and cesura magna -----------------------------------------------------------


def test_r05_reshuffle_when_the_draw_pile_runs_out() -> None:
    """R5: an empty draw pile during card placement is replaced by the shuffled discard pile."""
    top = ["gladiators:1", "gladiators:2", "gladiators:3"]
    players = [{"hand": ["senators:7"]}, {}]
    rest = remaining_cards({"players": players, "draw_pile": top})
    g = position(players, phase="card_placement", draw_pile=list(reversed(top)), discard_pile=rest)
    assert g.pending.kind is DecisionKind.PLACE_FOLLOWER
    assert [field(g, Region.THERMAE, i) for i in range(3)] == [[c] for c in top]
    assert len(field(g, Region.THERMAE, 3)) == 1
    assert any("shuffled into a new draw pile" in line for line in g.log())
    on_board = sum(len(f) for region in g.position().fields for f in region)
    assert g.position().discard == []
    assert len(g.position().draw) == 100 - 1 - on_board


def test_r05_cesura_magna() -> None:
    """R5: no card to draw anywhere: hands over 7 discard down to 7 (by choice), sets of 4+ lose the two
    lowest cards, sets of 3 the lowest, sets of 2 keep both; then drawing continues."""
    p1_hand = [
        "plebeians:1",
        "plebeians:1",
        "plebeians:2",
        "plebeians:2",
        "plebeians:2",
        "plebeians:3",
        "plebeians:3",
        "plebeians:3",
    ]
    players = [
        {
            "sets": {
                "senators": ["senators:4", "senators:5", "senators:9", "senators:10"],
                "vestals": ["vestals:3", "vestals:9"],
            }
        },
        {"sets": {"legates": ["legates:2", "legates:5", "legates:7"]}, "hand": p1_hand},
    ]
    players[0]["hand"] = remaining_cards({"players": players})
    assert len(players[0]["hand"]) == 100 - 9 - 8
    g = position(players, phase="card_placement", draw_pile=[], discard_pile=[])
    assert set_of(g, Faction.SENATORS) == ["senators:10", "senators:9"]
    assert set_of(g, Faction.LEGATES) == ["legates:5", "legates:7"]
    assert set_of(g, Faction.VESTALS) == ["vestals:3", "vestals:9"]
    seats = []
    while g.pending.kind is DecisionKind.CESURA_DISCARD:
        seats.append(g.pending.seat)
        g.apply(g.legal_actions()[-1])
    assert seats == [0] * 76 + [1]
    assert [p.hand_size for p in g.position().players] == [7, 7]
    # drawing went on from the reshuffled discards: the board is full
    assert g.pending.kind is DecisionKind.PLACE_FOLLOWER
    assert [len(f) for f in g.position().fields[Region.CATACOMBS]] == [5]
    assert all(len(f) == 1 for f in g.position().fields[Region.THERMAE])
    assert sum(g.position().card_counts()) == 100


def test_r06_curia_fills_until_sum_five_or_a_leader() -> None:
    """R6: each Curia field takes cards until its sum is >= 5 or a leader (value 0) lies there."""
    filler = [
        "gladiators:3",
        "gladiators:3",
        "gladiators:3",
        "gladiators:4",
        "gladiators:4",
        "gladiators:4",
        "gladiators:5",
        "gladiators:5",
        "gladiators:5",
    ]  # Thermae 4, Forum 4, Latrine 1
    curia = ["plebeians:1", "plebeians:1", "plebeians:3", "legates:3", "legates:0", "senators:0"]
    g = position(2, phase="card_placement", draw_top=[*filler, *curia, "vestals:9"])
    assert field(g, Region.CURIA, 0) == ["plebeians:1", "plebeians:1", "plebeians:3"]  # 1, 2, 5: stop
    assert field(g, Region.CURIA, 1) == ["legates:3", "legates:0"]  # 3 then the leader: stop
    assert field(g, Region.CURIA, 2) == ["senators:0"]  # a leader first: one card only
    assert field(g, Region.ATRIUM, 0) == ["vestals:9"]
    assert field(g, Region.LATRINE, 0) == ["gladiators:5"]


# --- Phase 2 ----------------------------------------------------------------------------


def test_r07_placement_order_skips_players_without_followers() -> None:
    """R7: one follower at a time from the starting player, clockwise; empty seats skipped; no passing;
    the coin bowl always legal."""
    g = position(
        [{"followers": 1}, {"followers": 2}, {"followers": 0}],
        phase="follower_placement",
        start_seat=1,
    )
    order = []
    while g.pending.kind is DecisionKind.PLACE_FOLLOWER:
        order.append(g.pending.seat)
        legal = g.legal_actions()
        assert _bowl(g) in legal
        assert DECLINE not in legal
        g.apply(_bowl(g))
    assert order == [1, 0, 1]


def test_r07_every_player_gets_the_follower_count_of_the_player_count() -> None:
    """R7 with the set-up table: 2-3 players have 6 followers each, 4 players 5, 5 players 4."""
    for players, count, victory in ((3, 6, "alea_long"), (4, 5, "alea_long"), (5, 4, "card_e")):
        g = position(players, phase="card_placement", victory_card=victory)
        assert [p.followers for p in g.position().players] == [count] * players


def test_r07_coin_bowl_legal_even_when_every_other_space_is_taken_or_forbidden() -> None:
    """R7: the coin bowl is always legal; faction fields the player controls or has used are not."""
    g = position(
        [{"followers": 1, "sets": {"senators": ["senators:4", "senators:5"]}}, {"followers": 0}],
        phase="follower_placement",
        followers={"faction:legates:1": 0, "atrium:1": 0},
    )
    legal = g.legal_actions()
    assert _bowl(g) in legal
    assert place(g, "faction:senators:1") not in legal  # he controls the Senators
    assert place(g, "faction:legates:2") not in legal  # never both spaces of one field
    assert place(g, "atrium:2") not in legal  # never both Atrium spaces
    assert place(g, "faction:praetorians:1") in legal
    assert place(g, "faction:praetorians:2") not in legal  # "1" is filled first


def test_r08_atrium_first_flips_two_random_cards_second_flips_the_third() -> None:
    """R8: "1." turns two of the three cards, chosen by chance (no decision); "2." turns the last."""
    patterns = set()
    for seed in range(20):
        g = position(
            [{"followers": 1}, {"followers": 1}],
            phase="follower_placement",
            board={"atrium": [["senators:5"], ["praetorians:3"], ["vestals:6"]]},
            chance=seed,
        )
        g.apply(place(g, "atrium:1"))
        assert g.pending == Pending(DecisionKind.PLACE_FOLLOWER, 1)
        assert sum(g.position().atrium_up) == 2
        patterns.add(tuple(g.position().atrium_up))
        g.apply(place(g, "atrium:2"))
        assert g.position().atrium_up == [True, True, True]
    assert len(patterns) >= 2


def test_r09_proconsul_is_an_extra_follower_in_the_next_round() -> None:
    """R9: the Patricians' controller receives the proconsul in phase 5 and places it as an extra
    follower in phase 2 of the next round."""
    g = position(
        [{"money": 5, "sets": {"patricians": ["patricians:3", "patricians:4"]}}, {"money": 5}],
        phase="faction_benefits",
    )
    assert g.position().proconsul == 0
    assert g.pending == Pending(DecisionKind.CHARIOT_BID, 0)
    play(g, Bid(0), Bid(0))
    assert g.round == 2
    assert g.pending.kind is DecisionKind.PLACE_FOLLOWER
    assert [p.followers for p in g.position().players] == [7, 6]


def test_r09_proconsul_held_at_the_start_of_phase_2() -> None:
    """R9: a position where seat 1 holds the proconsul at the start of phase 2: 7 followers for seat 1."""
    g = position(
        [{}, {"sets": {"patricians": ["patricians:3", "patricians:4"]}}],
        phase="card_placement",
        proconsul=1,
    )
    assert [p.followers for p in g.position().players] == [6, 7]


# --- Phase 3 ----------------------------------------------------------------------------


def test_r10_thermae_and_forum_paid_space_by_space() -> None:
    """R10: payments are automatic in board order; a space whose owner cannot pay loses its card."""
    g = position(
        [{"money": 5}, {"money": 3}],
        phase="region_evaluation",
        board={
            "thermae": [["gladiators:1"], ["gladiators:2"], ["gladiators:3"], ["gladiators:4"]],
            "forum": [["legates:1"], ["legates:2"], ["legates:3"], ["legates:4"]],
        },
        followers={"thermae:2": 0, "forum:1": 0, "forum:2": 0, "forum:3": 1},
    )
    assert g.pending.kind is DecisionKind.CHARIOT_BID  # no decision in these regions
    assert g.position().players[0].money == 5 - 1 - 3
    assert hand(g, 0) == ["gladiators:2", "legates:1"]  # forum:2 unaffordable (1 left)
    assert g.position().players[1].money == 0
    assert hand(g, 1) == ["legates:3"]
    assert discard(g) == ["gladiators:1", "gladiators:3", "gladiators:4", "legates:2", "legates:4"]


def test_r11_lone_first_bidder_without_money_takes_nothing() -> None:
    """R11: alone on "1." with 0 denarii: nothing is taken; both face-up cards are discarded."""
    g = position(
        [{"money": 0}, {}],
        phase="region_evaluation",
        board={"atrium": [["senators:5"], ["praetorians:3"], ["vestals:6"]]},
        atrium_up=[True, True, False],
        followers={"atrium:1": 0},
    )
    assert hand(g, 0) == []
    assert g.position().players[0].money == 0
    assert discard(g) == ["praetorians:3", "senators:5", "vestals:6"]


def test_r11_bids_range_and_tie_goes_to_the_first_space() -> None:
    """R11: bids 0..money; a tie goes to "1.", who pays the bid to "2."."""
    g = position(
        [{"money": 6}, {"money": 4}],
        phase="region_evaluation",
        board={"atrium": [["senators:5"], ["praetorians:3"], ["vestals:6"]]},
        atrium_up=[True, True, True],
        followers={"atrium:1": 1, "atrium:2": 0},
    )
    assert g.pending == Pending(DecisionKind.ATRIUM_BID, 1, index=0)
    assert g.legal_actions() == [Bid(b) for b in range(5)]
    g.apply(Bid(4))
    assert g.legal_actions() == [Bid(b) for b in range(7)]
    g.apply(Bid(4))
    assert hand(g, 1) == ["praetorians:3", "senators:5", "vestals:6"]
    assert [p.money for p in g.position().players] == [10, 0]


def test_r12_catacombs_only_affordable_purchases_but_looking_is_allowed() -> None:
    """R12: a player who cannot pay the price may look at the pile but only decline."""
    pile = ["plebeians:3", "vestals:5", "patricians:8", "gladiators:6", "legates:7"]
    g = position(
        [{"money": 3}, {"money": 3}],
        phase="region_evaluation",
        board={"catacombs": [pile]},
        followers={"catacombs:1": 0, "catacombs:2": 1},
    )
    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, 0, index=0)
    assert g.legal_actions() == [DECLINE]  # price 4, only 3 denarii
    assert sorted(g.view(0).board[Region.CATACOMBS][0]) == sorted(card(g, c) for c in pile)
    g.apply(DECLINE)
    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, 1, index=1)
    assert len(g.legal_actions()) == 6  # price 3: any of the five, or decline
    g.apply(pick(g, "legates:7"))
    assert g.position().players[1].money == 0
    assert g.position().players[0].money == 3
    assert g.position().colosseum == 3


def test_r13_no_sacrifice_offered_with_eternal_favor() -> None:
    """R13: a player who has an eternal favor is not asked; the sacrifice matches the revealed faction."""
    g = position(
        [
            {"markers": ["vestals"], "eternal_favor": True, "hand": ["legates:2"]},
            {"markers": ["vestals"], "hand": ["legates:6", "legates:1", "senators:4"]},
        ],
        phase="region_evaluation",
        board={"pantheon": [["legates:5"]]},
        followers={"pantheon:1": 0, "pantheon:2": 1},
    )
    assert g.pending == Pending(DecisionKind.PANTHEON_SACRIFICE, 1, index=1)
    assert set(g.legal_actions()) == {pick(g, "legates:1"), pick(g, "legates:6"), DECLINE}
    g.apply(pick(g, "legates:6"))
    assert g.position().players[1].eternal_favor
    assert hand(g, 0) == ["legates:2"]
    assert hand(g, 1) == ["legates:1", "senators:4"]


def test_r14_tied_highest_pair_between_two_players_no_bonus() -> None:
    """R14: two different players share the highest sum: one laurel each, no bonus."""
    g = position(
        [{"hand": ["senators:4", "senators:6"]}, {"hand": ["legates:4", "legates:6"]}],
        phase="region_evaluation",
        followers={"field_of_mars:1": 0, "field_of_mars:3": 1},
    )
    play(g, pick(g, "senators:4"), pick(g, "senators:6"))
    assert g.pending == Pending(DecisionKind.FIELD_OF_MARS_PAIR, 1, index=2)
    play(g, pick(g, "legates:4"), pick(g, "legates:6"))
    assert [p.laurels for p in g.position().players] == [1, 1]


def test_r14_one_player_on_all_spaces_gets_the_bonus_with_one_pair() -> None:
    """R14: the only player on the Field of Mars gets the bonus when he discards at least one pair."""
    g = position(
        [{"hand": ["gladiators:1", "gladiators:2", "legates:3"]}, {"hand": ["plebeians:5"]}],
        phase="region_evaluation",
        followers={"field_of_mars:1": 0, "field_of_mars:2": 0},
    )
    assert g.pending == Pending(DecisionKind.FIELD_OF_MARS_PAIR, 0, index=0)
    assert pick(g, "legates:3") not in g.legal_actions()  # no second Legate: no pair possible
    play(g, pick(g, "gladiators:1"), pick(g, "gladiators:2"))
    # the second follower has no pair left to discard: not asked
    assert g.pending.kind is not DecisionKind.FIELD_OF_MARS_PAIR
    assert [p.laurels for p in g.position().players] == [2, 0]


def test_r14_pair_per_follower_and_bonus_for_one_players_two_equal_pairs() -> None:
    """R14: a laurel per pair; the same player holding the highest sum twice still gets the bonus."""
    g = position(
        [
            {"hand": ["senators:4", "senators:6", "legates:4", "legates:6"]},
            {"hand": ["gladiators:2", "gladiators:3"]},
        ],
        phase="region_evaluation",
        followers={"field_of_mars:1": 0, "field_of_mars:2": 1, "field_of_mars:3": 0},
    )
    play(g, pick(g, "legates:4"), pick(g, "legates:6"))
    play(g, pick(g, "gladiators:2"), pick(g, "gladiators:3"))
    play(g, pick(g, "senators:4"), pick(g, "senators:6"))
    assert [p.laurels for p in g.position().players] == [3, 1]


# --- Phase 4 ----------------------------------------------------------------------------


def test_r15_second_declines_then_first_takes_over_alone() -> None:
    """R15: "2" acts first; when "2" declines, "1" makes an ordinary attempt."""
    g = position(
        [{"hand": ["plebeians:2", "plebeians:3"]}, {"hand": ["plebeians:4", "plebeians:5"]}],
        phase="takeovers",
        followers={"faction:plebeians:1": 0, "faction:plebeians:2": 1},
    )
    plebs = int(Faction.PLEBEIANS)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, 1, plebs, int(TakeoverRole.SECOND_FIRST))
    g.apply(DECLINE)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, 0, plebs, int(TakeoverRole.ALONE))
    _play_set(g, ["plebeians:2", "plebeians:3"])
    assert g.position().controller[Faction.PLEBEIANS] == 0
    assert hand(g, 1) == ["plebeians:4", "plebeians:5"]


def test_r15_first_declines_then_second_takes_over() -> None:
    """R15: "2" plays a sufficient set, "1" does not answer: "2" takes the faction, the old set is discarded."""
    g = position(
        [
            {"sets": {"patricians": ["patricians:2", "patricians:3"]}},
            {"hand": ["patricians:6", "patricians:7"]},
            {"hand": ["patricians:4", "patricians:5", "patricians:8"]},
        ],
        phase="takeovers",
        followers={"faction:patricians:1": 2, "faction:patricians:2": 1},
    )
    _play_set(g, ["patricians:6", "patricians:7"])
    assert g.pending.seat == 2 and g.pending.index == TakeoverRole.FIRST_OVER_SECOND
    # amended R15: the controller's set is discarded as soon as "2" commits
    assert g.position().controller[Faction.PATRICIANS] == -1
    assert discard(g) == ["patricians:2", "patricians:3"]
    # "1" must beat "2"'s set (2 cards, 13): 5+8 = 13 is not enough, 4+5+8 is
    legal = g.legal_actions()
    assert pick(g, "patricians:4") in legal and pick(g, "patricians:5") not in legal
    g.apply(DECLINE)
    assert g.position().controller[Faction.PATRICIANS] == 1
    assert set_of(g, Faction.PATRICIANS) == ["patricians:6", "patricians:7"]
    assert discard(g) == ["patricians:2", "patricians:3"]
    assert hand(g, 2) == ["patricians:4", "patricians:5", "patricians:8"]
    assert g.position().players[1].laurels == 1  # Patricians take-over benefit; no first laurel


def test_r16_assassin_targets_sets_of_three_including_own_and_may_decline() -> None:
    """R16: the Plebeians' assassin may hit any displayed set of 3+ cards (also his own), never a 2-card set."""
    own = ["plebeians:1", "plebeians:2", "plebeians:3"]
    g = position(
        [
            {"hand": own},
            {"sets": {"senators": ["senators:5", "senators:7", "senators:10"], "legates": ["legates:3", "legates:4"]}},
        ],
        phase="takeovers",
        followers={"faction:plebeians:1": 0},
    )
    _play_set(g, own)
    assert g.pending == Pending(DecisionKind.ASSASSIN_TARGET, 0)
    assert set(g.legal_actions()) == {
        Assassinate(1, int(Faction.SENATORS)),
        Assassinate(0, int(Faction.PLEBEIANS)),
        DECLINE,
    }
    assert g.position().players[0].hand_size == 1  # the take-over card came first
    g.apply(Assassinate(1, int(Faction.SENATORS)))
    assert set_of(g, Faction.SENATORS) == ["senators:5", "senators:7"]
    assert "senators:10" in discard(g)


def test_r16_assassin_against_own_set_and_decline() -> None:
    """R16: the own set is a legal target; declining keeps every set intact."""
    own = ["plebeians:1", "plebeians:2", "plebeians:3"]
    doc = {
        "phase": "takeovers",
        "followers": {"faction:plebeians:1": 0},
    }
    g = position([{"hand": own}, {}], **doc)
    _play_set(g, own)
    assert g.legal_actions() == [Assassinate(0, int(Faction.PLEBEIANS)), DECLINE]
    g.apply(Assassinate(0, int(Faction.PLEBEIANS)))
    assert set_of(g, Faction.PLEBEIANS) == ["plebeians:1", "plebeians:2"]

    g = position([{"hand": own}, {}], **doc)
    _play_set(g, own)
    g.apply(DECLINE)
    assert set_of(g, Faction.PLEBEIANS) == own


def test_r16_gladiators_assassin_no_decision_when_only_two_card_sets() -> None:
    """R16: Gladiators benefit option 2 draws a card; with only 2-card sets on the table no assassin is asked."""
    g = position(
        [{"sets": {"gladiators": ["gladiators:4", "gladiators:5"]}}, {"sets": {"legates": ["legates:3", "legates:4"]}}],
        phase="faction_benefits",
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.GLADIATORS))
    g.apply(ChooseOption(1))
    assert g.position().players[0].hand_size == 1
    assert g.pending.kind is not DecisionKind.ASSASSIN_TARGET
    assert set_of(g, Faction.LEGATES) == ["legates:3", "legates:4"]


def test_r17_reward_order() -> None:
    """R17: take-over benefit, leader ability, faction marker, first-controller laurel, in that order."""
    g = position([{"hand": ["legates:0", "legates:5"]}, {}], phase="takeovers", followers={"faction:legates:1": 0})
    _play_set(g, ["legates:0", "legates:5"])
    log = g.log()
    keys = ["(Legates take-over)", "(leader Varus)", "takes a Legates faction marker", "(first controller)"]
    where = [next(i for i, line in enumerate(log) if key in line) for key in keys]
    assert where == sorted(where)
    assert g.position().players[0].laurels == 2 + 1 + 1
    assert not g.position().first_laurel[Faction.LEGATES]


def test_r17_cato_marker_among_markers_the_player_lacks() -> None:
    """R17: Cato's extra marker is chosen among the factions whose marker the player lacks."""
    g = position(
        [{"hand": ["senators:0", "senators:4"], "markers": ["gladiators", "legates", "vestals"]}, {}],
        phase="takeovers",
        followers={"faction:senators:1": 0},
    )
    _play_set(g, ["senators:0", "senators:4"])
    assert g.pending == Pending(DecisionKind.CATO_MARKER, 0, int(Faction.SENATORS))
    choices = {a.faction for a in g.legal_actions()}
    assert choices == {Faction.PRAETORIANS, Faction.PLEBEIANS, Faction.PATRICIANS}
    g.apply(ChooseFaction(int(Faction.PATRICIANS)))
    assert g.position().players[0].num_markers == 5


def test_r18_losing_the_vestals_returns_the_temporary_favor() -> None:
    """R18: the temporary favor goes back to the stock as soon as its holder loses the Vestal Virgins."""
    g = position(
        [
            {"sets": {"vestals": ["vestals:3", "vestals:4"]}, "temporary_favor": True, "markers": ["vestals"]},
            {"hand": ["vestals:5", "vestals:6"]},
        ],
        phase="takeovers",
        followers={"faction:vestals:1": 1},
    )
    _play_set(g, ["vestals:5", "vestals:6"])
    assert not g.position().players[0].temporary_favor
    assert g.position().players[1].money == 5  # Vestals take-over benefit
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 1, int(Faction.VESTALS))
    g.apply(ChooseOption(0))
    assert g.position().players[1].temporary_favor
    assert g.position().players[1].laurels == 1


# --- Phase 5 ----------------------------------------------------------------------------


def test_r19_scroll_only_without_a_tile_and_tribune_flips_it() -> None:
    """R19: a scroll only for a player without a tile; the tribune turns the scroll over (3 -> 7 points)."""
    g = position(
        [
            {
                "tile": "scroll",
                "sets": {
                    "legates": ["legates:3", "legates:4"],
                    "plebeians": ["plebeians:3", "plebeians:4"],
                    "patricians": ["patricians:3", "patricians:4"],
                },
            },
            {},
        ],
        phase="faction_benefits",
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.LEGATES))
    assert g.legal_actions() == [ChooseOption(1)]  # no second scroll
    g.apply(ChooseOption(1))
    if g.pending.kind is DecisionKind.LEGION_PURCHASE:
        g.apply(DECLINE)
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.PLEBEIANS))
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    before = g.scores()[0]
    g.apply(ChooseOption(1))
    assert g.position().players[0].tile == 2
    assert g.scores()[0] == before + 4


def test_r19_tribune_cannot_gain_a_scroll_again() -> None:
    """R19: a player with the tribune is offered neither the Senators' scroll nor Agrippa's scroll."""
    g = position(
        [{"tile": "tribune", "sets": {"senators": ["senators:4", "senators:5"]}}, {}],
        phase="faction_benefits",
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.SENATORS))
    assert g.legal_actions() == [ChooseOption(1)]

    g = position(
        [{"tile": "tribune", "hand": ["plebeians:0", "plebeians:5"]}, {}],
        phase="takeovers",
        followers={"faction:plebeians:1": 0},
    )
    _play_set(g, ["plebeians:0", "plebeians:5"])
    assert g.pending == Pending(DecisionKind.AGRIPPA_CHOICE, 0, int(Faction.PLEBEIANS))
    assert g.legal_actions() == [ChooseOption(1)]


def test_r20_tribune_options_not_offered_when_the_condition_fails() -> None:
    """R20: Plebeians' tribune needs scroll + Patricians; Vestals' tribune needs scroll + Senators."""
    g = position(
        [
            {"tile": "scroll", "sets": {"plebeians": ["plebeians:3", "plebeians:4"]}},
            {"sets": {"vestals": ["vestals:3", "vestals:4"], "senators": ["senators:4", "senators:5"]}},
        ],
        phase="faction_benefits",
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.PLEBEIANS))
    assert g.legal_actions() == [ChooseOption(0)]  # scroll but no Patricians
    g.apply(ChooseOption(0))
    assert g.position().players[0].money == 2 and g.position().players[0].hand_size == 1
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 1, int(Faction.VESTALS))
    assert g.legal_actions() == [ChooseOption(0)]  # Senators but no scroll


def test_r20_legates_option_two_draw_then_optional_legion_for_the_set_sum() -> None:
    """R20: Legates option 2: draw a card, then optionally buy a legion for the displayed set's sum."""
    g = position([{"money": 10, "sets": {"legates": ["legates:3", "legates:5"]}}, {}], phase="faction_benefits")
    g.apply(ChooseOption(1))
    assert g.position().players[0].hand_size == 1
    assert g.pending == Pending(DecisionKind.LEGION_PURCHASE, 0, int(Faction.LEGATES))
    assert g.legal_actions() == [COMMIT, DECLINE]
    g.apply(COMMIT)
    assert g.position().players[0].money == 2
    assert g.position().players[0].legions == 1


def test_r20_legion_not_offered_without_enough_money() -> None:
    """R20: the legion costs the set's sum (8); with 7 denarii the offer is skipped."""
    g = position([{"money": 7, "sets": {"legates": ["legates:3", "legates:5"]}}, {}], phase="faction_benefits")
    g.apply(ChooseOption(1))
    assert g.position().players[0].hand_size == 1
    assert g.pending.kind is DecisionKind.CHARIOT_BID
    assert g.position().players[0].money == 7 and g.position().players[0].legions == 0


def test_r21_eternal_favor_discards_the_temporary_favor() -> None:
    """R21: a Pantheon sacrifice gives the eternal favor and the temporary favor goes back."""
    g = position(
        [
            {
                "markers": ["vestals"],
                "temporary_favor": True,
                "sets": {"vestals": ["vestals:3", "vestals:4"]},
                "hand": ["senators:4"],
            },
            {},
        ],
        phase="region_evaluation",
        board={"pantheon": [["senators:9"]]},
        followers={"pantheon:1": 0},
    )
    g.apply(pick(g, "senators:4"))
    assert g.position().players[0].eternal_favor
    assert not g.position().players[0].temporary_favor
    # later the Vestals benefit gives the laurel but no temporary favor
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 0, int(Faction.VESTALS))
    g.apply(ChooseOption(0))
    assert g.position().players[0].laurels == 1
    assert not g.position().players[0].temporary_favor


# --- Phase 6 ----------------------------------------------------------------------------


def test_r22_unique_highest_bid_pays_and_places_the_chariot() -> None:
    """R22: bids 0..money; the unique highest pays the stock and puts the chariot on his faction."""
    g = position(
        [{"money": 3}, {"money": 8, "sets": {"praetorians": ["praetorians:3", "praetorians:4"]}}],
        phase="chariot_auction",
    )
    assert g.legal_actions() == [Bid(b) for b in range(4)]
    play(g, Bid(3), Bid(4))
    assert [p.money for p in g.position().players] == [3, 4]
    assert g.legal_actions() == [ChooseFaction(int(Faction.PRAETORIANS)), DECLINE]
    g.apply(ChooseFaction(int(Faction.PRAETORIANS)))
    assert g.position().chariot == Faction.PRAETORIANS
    # the next round: nobody may place on the blocked faction's field
    assert g.round == 2 and g.pending == Pending(DecisionKind.PLACE_FOLLOWER, 1)
    g.apply(_bowl(g))
    assert g.position().players[1].money == 4 + 7  # first on the coin bowl in the new round
    assert g.pending == Pending(DecisionKind.PLACE_FOLLOWER, 0)
    legal = g.legal_actions()
    assert place(g, "faction:praetorians:1") not in legal
    assert place(g, "faction:legates:1") in legal
    with pytest.raises(IllegalActionError):
        g.apply(place(g, "faction:praetorians:1"))


def test_r22_tie_nobody_pays_and_chariot_off_board() -> None:
    """R22: a tie for the highest bid: nobody pays and the chariot stays off the board."""
    g = position(
        [{"money": 5, "sets": {"legates": ["legates:3", "legates:4"]}}, {"money": 5}, {"money": 9}],
        phase="chariot_auction",
        chariot="legates",
    )
    play(g, Bid(4), Bid(1), Bid(4))
    assert [p.money for p in g.position().players] == [5, 5, 9]
    assert g.position().chariot == -1  # also the old chariot has left the Legates
    assert g.round == 2


def test_r22_blocked_faction_still_gets_its_benefit() -> None:
    """R22: the controller of the blocked faction still receives its faction benefit."""
    g = position(
        [{"sets": {"praetorians": ["praetorians:3", "praetorians:4"]}}, {}],
        phase="faction_benefits",
        chariot="praetorians",
    )
    assert g.position().players[0].legions == 1


# --- End of the game --------------------------------------------------------------------


def _end_position(p1_laurels: int = 11) -> Game:
    """Seat 0 fulfils alea_long (5 of 6) from the start; seat 1 reaches it in phase 5; seat 2 is rich but
    fulfils only 2 objectives."""
    return position(
        [
            {"tile": "tribune", "eternal_favor": True, "laurels": 12, "legions": 4, "money": 40},
            {
                "tile": "tribune",
                "eternal_favor": True,
                "laurels": p1_laurels,
                "legions": 4,
                "money": 40,
                "markers": ["vestals"],
                "sets": {"vestals": ["vestals:4", "vestals:5"]},
            },
            {"legions": 10, "money": 200},
        ],
        phase="faction_benefits",
    )


def test_r23_end_checked_after_phase_6_first_bonus_decides() -> None:
    """R23: the game ends after phase 6 if a player fulfils the card; among those the highest score wins,
    with +2 for the one who fulfilled first (here seat 0: 36 + 2 beats seat 1's 37)."""
    g = _end_position()
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, 1, int(Faction.VESTALS))
    assert g.legal_actions() == [ChooseOption(0)]
    g.apply(ChooseOption(0))
    assert g.position().players[1].laurels == 12
    assert g.pending.kind is DecisionKind.CHARIOT_BID
    assert not g.is_over  # not before the end of phase 6
    assert g.scores() == [38, 37, 40]
    play(g, Bid(0), Bid(0), Bid(0))
    assert g.is_over
    assert not g.truncated
    assert g.winners == (0,)
    assert g.ranks()[0] == 1 and g.ranks()[2] == 3


def test_r23_equal_scores_share_the_win() -> None:
    """R23: two players fulfilling from the same moment both get the bonus; equal scores share the win."""
    g = position(
        [
            {"tile": "tribune", "eternal_favor": True, "laurels": 12, "legions": 4, "money": 40},
            {"tile": "tribune", "eternal_favor": True, "laurels": 12, "legions": 4, "money": 40},
        ],
        phase="chariot_auction",
    )
    assert g.scores() == [38, 38]
    play(g, Bid(0), Bid(0))
    assert g.is_over and g.winners == (0, 1)


@pytest.mark.parametrize(("money", "ends"), [(40, True), (39, False)])
def test_r24_objectives_are_at_least_thresholds(money: int, ends: bool) -> None:
    """R24: exactly 40 denarii, 12 laurels, 4 legions and 6 markers meet alea_long's objectives."""
    markers = ["gladiators", "legates", "praetorians", "plebeians", "patricians", "vestals"]
    g = position(
        [{"money": money, "laurels": 12, "legions": 4, "markers": markers, "tile": "tribune"}, {}],
        phase="chariot_auction",
    )
    play(g, Bid(0), Bid(0))
    assert g.is_over is ends
    if ends:
        assert g.winners == (0,)
    else:
        assert g.round == 2


def test_r25_round_limit_truncates_the_game() -> None:
    """R25: after the last allowed round the game ends as truncated; the best score ranks first."""
    g = position(
        [{"money": 30}, {"money": 10, "laurels": 1}], phase="chariot_auction", round=3, config={"round_limit": 3}
    )
    play(g, Bid(0), Bid(0))
    assert g.is_over
    assert g.truncated
    assert g.winners == (0,)
    assert g.ranks() == [1, 2]


def test_r25_no_truncation_before_the_limit() -> None:
    """R25: below the limit the next round starts."""
    g = position([{"money": 30}, {"money": 10}], phase="chariot_auction", round=2, config={"round_limit": 3})
    play(g, Bid(0), Bid(0))
    assert not g.is_over and not g.truncated
    assert g.round == 3
