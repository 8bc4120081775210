"""The worked examples of the base rulebook and extra-examples.md, replayed on the engine.

Each test builds the example's position by hand, plays the choices the
example describes and checks the outcome the rulebook states.
"""

from __future__ import annotations

import pytest
from positions import HIDDEN, card, discard, hand, pick, place, play, position, set_of

from tribune_env import (
    COMMIT,
    DECLINE,
    Bid,
    ChooseFaction,
    ChooseOption,
    DecisionKind,
    Faction,
    IllegalActionError,
    Pending,
    PlaceFollower,
    Region,
    TakeoverRole,
)

# --- Phase 2: the coin bowl ----------------------------------------------------------


def test_coin_bowl_example() -> None:
    """Yellow is first on the coin bowl (7 denarii); two red and one white follower come later (5 each)."""
    yellow, red, white, other = 0, 1, 2, 3
    g = position(
        [
            {"money": 12, "followers": 1},
            {"money": 13, "followers": 2},
            {"money": 14, "followers": 1},
            {"money": 15, "followers": 0},
        ],
        phase="follower_placement",
    )
    bowl = g.tables.coin_bowl
    assert g.pending == Pending(DecisionKind.PLACE_FOLLOWER, yellow)
    g.apply(PlaceFollower(bowl))
    assert g.position().players[yellow].money == 12 + 7
    assert g.pending.seat == red
    g.apply(PlaceFollower(bowl))
    assert g.position().players[red].money == 13 + 5
    assert g.pending.seat == white
    g.apply(PlaceFollower(bowl))
    assert g.position().players[white].money == 14 + 5
    # the seat without followers is skipped; red places a second follower on the bowl
    assert g.pending.seat == red
    assert PlaceFollower(bowl) in g.legal_actions()
    g.apply(PlaceFollower(bowl))
    assert [p.money for p in g.position().players] == [19, 23, 19, 15]
    assert g.position().players[other].money == 15


# --- Phase 3: Curia -------------------------------------------------------------------


def test_curia_example_left_to_right_and_discarding_the_new_legate() -> None:
    """Michelle takes field 1, John field 2, then Michelle discards the 0 Legate she just took for field 3."""
    michelle, john = 0, 1
    g = position(
        [{"money": 5, "hand": ["praetorians:7"]}, {"money": 5, "hand": ["gladiators:4"]}],
        phase="region_evaluation",
        board={
            "curia": [["gladiators:2", "legates:0"], ["gladiators:1", "plebeians:1", "patricians:3"], ["senators:7"]]
        },
        followers={"curia:1": michelle, "curia:2": john, "curia:3": michelle},
    )
    assert g.pending == Pending(DecisionKind.CURIA_DISCARD, michelle, index=0)
    g.apply(pick(g, "praetorians:7"))
    assert hand(g, michelle) == ["gladiators:2", "legates:0"]
    assert g.pending == Pending(DecisionKind.CURIA_DISCARD, john, index=1)
    g.apply(pick(g, "gladiators:4"))
    assert hand(g, john) == ["gladiators:1", "patricians:3", "plebeians:1"]
    assert g.pending == Pending(DecisionKind.CURIA_DISCARD, michelle, index=2)
    assert pick(g, "legates:0") in g.legal_actions()
    g.apply(pick(g, "legates:0"))
    assert hand(g, michelle) == ["gladiators:2", "senators:7"]
    assert discard(g) == ["gladiators:4", "legates:0", "praetorians:7"]
    assert all(not f for f in g.position().fields[Region.CURIA])


# --- Phase 3: Catacombs ---------------------------------------------------------------


def test_catacombs_example_money_goes_to_the_colosseum_and_back_to_the_gladiators() -> None:
    """Mike buys on "4" and "2", Zoe on "3" declines; 6 denarii lie on the Colosseum until the Gladiators take them."""
    mike, zoe = 0, 1
    pile = ["plebeians:3", "vestals:5", "patricians:8", "gladiators:6", "legates:7"]
    g = position(
        [
            {"money": 10, "sets": {"gladiators": ["gladiators:5", "gladiators:5"]}},
            {"money": 10},
        ],
        phase="region_evaluation",
        board={"catacombs": [pile]},
        followers={"catacombs:1": mike, "catacombs:2": zoe, "catacombs:3": mike},
    )
    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, mike, index=0)
    # Mike looks through the five cards; Zoe does not see them (R1)
    assert sorted(g.view(mike).board[Region.CATACOMBS][0]) == sorted(card(g, c) for c in pile)
    assert g.view(zoe).board[Region.CATACOMBS][0] == (HIDDEN,) * 5
    g.apply(pick(g, "patricians:8"))
    assert g.position().players[mike].money == 6
    assert g.position().colosseum == 4

    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, zoe, index=1)
    assert len([a for a in g.legal_actions() if a != DECLINE]) == 4
    g.apply(DECLINE)
    assert g.position().players[zoe].money == 10
    assert hand(g, zoe) == []

    assert g.pending == Pending(DecisionKind.CATACOMBS_PURCHASE, mike, index=2)
    assert len([a for a in g.legal_actions() if a != DECLINE]) == 4  # Zoe took none
    g.apply(pick(g, "vestals:5"))
    assert g.position().players[mike].money == 4
    assert g.position().colosseum == 6
    assert hand(g, mike) == ["patricians:8", "vestals:5"]
    assert sorted(discard(g)) == ["gladiators:6", "legates:7", "plebeians:3"]

    # phase 5: Mike, controlling the Gladiators, takes the Colosseum money
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, mike, int(Faction.GLADIATORS))
    g.apply(ChooseOption(0))
    assert g.position().players[mike].money == 10
    assert g.position().colosseum == 0


# --- Phase 3: Field of Mars -----------------------------------------------------------


def test_field_of_mars_example() -> None:
    """John's Senators 6+4 and Michelle's Legates 4+2: a laurel each, and John the bonus laurel (10 > 6)."""
    john, michelle = 0, 1
    g = position(
        [
            {"hand": ["senators:6", "senators:4", "gladiators:1"]},
            {"hand": ["legates:4", "legates:2", "plebeians:5"]},
        ],
        phase="region_evaluation",
        followers={"field_of_mars:1": john, "field_of_mars:2": michelle},
    )
    assert g.pending == Pending(DecisionKind.FIELD_OF_MARS_PAIR, john, index=0)
    play(g, pick(g, "senators:4"), pick(g, "senators:6"))  # a pair is staged in ascending order
    assert g.pending == Pending(DecisionKind.FIELD_OF_MARS_PAIR, michelle, index=1)
    # the discards are simultaneous: Michelle does not see John's pair, nor that he laid one (R2)
    view = g.view(michelle)
    assert view.my_pairs == () and view.players[john].hand_size == 3
    assert not any("pair" in line and "sealed choice" not in line for line in g.log(michelle))
    play(g, pick(g, "legates:2"), pick(g, "legates:4"))
    assert g.position().players[john].laurels == 2
    assert g.position().players[michelle].laurels == 1
    assert hand(g, john) == ["gladiators:1"]
    assert hand(g, michelle) == ["plebeians:5"]
    assert discard(g) == ["legates:2", "legates:4", "senators:4", "senators:6"]


# --- Phases 2 and 3: Pantheon -----------------------------------------------------------


def test_pantheon_example() -> None:
    """Zoe, with a Vestal marker, places on the Pantheon, sees the Praetorian privately, sacrifices a Praetorian."""
    zoe, other = 0, 1
    g = position(
        [
            {"followers": 1, "markers": ["vestals"], "hand": ["praetorians:1", "senators:5"]},
            {"followers": 1},
        ],
        phase="follower_placement",
        board={"pantheon": [["praetorians:6"]]},
    )
    assert place(g, "pantheon:1") in g.legal_actions()
    pantheon = card(g, "praetorians:6")
    assert g.view(zoe).board[Region.PANTHEON][0] == (HIDDEN,)
    g.apply(place(g, "pantheon:1"))
    # she (and only she) sees the card before phase 3
    assert g.view(zoe).board[Region.PANTHEON][0] == (pantheon,)
    assert g.view(other).board[Region.PANTHEON][0] == (HIDDEN,)
    assert any("Praetorians 6" in line for line in g.log(zoe))
    assert not any("Praetorians 6" in line for line in g.log(other))
    assert g.pending == Pending(DecisionKind.PLACE_FOLLOWER, other)
    assert place(g, "pantheon:2") not in g.legal_actions()  # no Vestal marker
    g.apply(PlaceFollower(g.tables.coin_bowl))

    # phase 3: the card is turned face up; Zoe sacrifices a Praetorian of any value
    assert g.pending == Pending(DecisionKind.PANTHEON_SACRIFICE, zoe, index=0)
    assert g.view(other).board[Region.PANTHEON][0] == (pantheon,)
    assert set(g.legal_actions()) == {pick(g, "praetorians:1"), DECLINE}
    g.apply(pick(g, "praetorians:1"))
    assert g.position().players[zoe].eternal_favor
    assert hand(g, zoe) == ["senators:5"]
    assert discard(g) == ["praetorians:1", "praetorians:6"]


def test_other_players_cannot_place_on_the_pantheon_without_a_vestal_marker() -> None:
    g = position([{"followers": 1}, {"followers": 1}], phase="follower_placement", board={"pantheon": [["legates:3"]]})
    assert place(g, "pantheon:1") not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(place(g, "pantheon:1"))


# --- Phase 3: Latrine -----------------------------------------------------------------


def test_latrine_option_one_takes_the_value_in_denarii_and_discards_the_card() -> None:
    g = position(
        [{"money": 3}, {}], phase="region_evaluation", board={"latrine": [["senators:8"]]}, followers={"latrine:1": 0}
    )
    assert g.pending == Pending(DecisionKind.LATRINE_CHOICE, 0)
    # the card is turned over for everybody
    assert g.view(1).board[Region.LATRINE][0] == (card(g, "senators:8"),)
    assert g.legal_actions() == [ChooseOption(0)]  # 3 denarii cannot buy an 8
    g.apply(ChooseOption(0))
    assert g.position().players[0].money == 11
    assert hand(g, 0) == []
    assert discard(g) == ["senators:8"]


def test_latrine_option_two_buys_the_card() -> None:
    g = position(
        [{"money": 6}, {}], phase="region_evaluation", board={"latrine": [["patricians:5"]]}, followers={"latrine:1": 0}
    )
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    g.apply(ChooseOption(1))
    assert g.position().players[0].money == 1
    assert hand(g, 0) == ["patricians:5"]
    assert discard(g) == []


def test_latrine_leader_is_taken_for_free() -> None:
    g = position(
        [{"money": 0}, {}], phase="region_evaluation", board={"latrine": [["gladiators:0"]]}, followers={"latrine:1": 0}
    )
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    g.apply(ChooseOption(1))
    assert g.position().players[0].money == 0
    assert hand(g, 0) == ["gladiators:0"]


# --- Phases 2 and 3: Atrium Auctionorum (extra-examples.md) ----------------------------


def test_atrium_example_two_bidders() -> None:
    """John on "1." turns two cards, Michelle on "2." the third; John bids 9, Michelle 5: John pays her 9."""
    john, michelle = 0, 1
    cards = ["senators:5", "praetorians:3", "vestals:6"]
    g = position(
        [{"money": 12, "followers": 1}, {"money": 10, "followers": 1}],
        phase="follower_placement",
        board={"atrium": [[c] for c in cards]},
    )
    assert g.pending == Pending(DecisionKind.PLACE_FOLLOWER, john)
    assert place(g, "atrium:2") not in g.legal_actions()  # "1." is filled first
    g.apply(place(g, "atrium:1"))
    assert sum(g.position().atrium_up) == 2
    for seat in (john, michelle):
        shown = g.view(seat).board[Region.ATRIUM]
        assert sum(f == (HIDDEN,) for f in shown) == 1
    assert g.pending == Pending(DecisionKind.PLACE_FOLLOWER, michelle)
    g.apply(place(g, "atrium:2"))
    assert g.position().atrium_up == [True, True, True]
    assert [f[0] for f in g.view(john).board[Region.ATRIUM]] == [card(g, c) for c in cards]

    assert g.pending == Pending(DecisionKind.ATRIUM_BID, john, index=0)
    g.apply(Bid(9))
    assert g.pending == Pending(DecisionKind.ATRIUM_BID, michelle, index=1)
    assert g.view(michelle).my_bid == -1
    g.apply(Bid(5))
    assert g.position().players[john].money == 12 - 9
    assert g.position().players[michelle].money == 10 + 9
    assert hand(g, john) == sorted(cards)
    assert hand(g, michelle) == []


def test_atrium_example_lone_first_bidder_pays_one() -> None:
    """Nobody on "2.": John pays 1 denarius and takes the two face-up cards; the face-down one is discarded."""
    g = position(
        [{"money": 12}, {"money": 10}],
        phase="region_evaluation",
        board={"atrium": [["senators:5"], ["praetorians:3"], ["vestals:6"]]},
        atrium_up=[True, False, True],
        followers={"atrium:1": 0},
    )
    assert g.pending.kind is DecisionKind.CHARIOT_BID  # no decision in the Atrium
    assert g.position().players[0].money == 11
    assert hand(g, 0) == ["senators:5", "vestals:6"]
    assert discard(g) == ["praetorians:3"]


# --- Phase 4: faction take-overs ---------------------------------------------------------


def _play_set(g, labels: list[str]) -> None:
    """Stage ``labels`` (ascending card types, as the engine requires) and commit."""
    for c in sorted(labels, key=lambda lab: card(g, lab)):
        g.apply(pick(g, c))
    g.apply(COMMIT)


def test_takeover_example_1_higher_sum() -> None:
    """John's four Legates (sum 15) beat Zoe's set (sum 11): +2 laurels and a Legate marker for John."""
    zoe, john = 0, 1
    zoe_set = ["legates:1", "legates:2", "legates:2", "legates:6"]
    john_set = ["legates:3", "legates:3", "legates:4", "legates:5"]
    g = position(
        [{"sets": {"legates": zoe_set}, "markers": ["legates"]}, {"hand": john_set}],
        phase="takeovers",
        followers={"faction:legates:1": john},
    )
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, john, int(Faction.LEGATES), int(TakeoverRole.ALONE))
    _play_set(g, john_set)
    assert g.position().controller[Faction.LEGATES] == john
    assert set_of(g, Faction.LEGATES) == sorted(john_set)
    assert discard(g) == sorted(zoe_set)
    assert g.position().players[john].laurels == 2  # no first-controller laurel: Zoe controlled them before
    assert g.position().players[john].markers[Faction.LEGATES]
    assert g.position().players[zoe].markers[Faction.LEGATES]  # the loser keeps his marker


def test_takeover_example_2_more_cards() -> None:
    """Mike's four Legates (sum 8) beat Michelle's three (sum 12) by count; Mike already has the marker."""
    michelle, mike = 0, 1
    mike_set = ["legates:1", "legates:2", "legates:2", "legates:3"]
    g = position(
        [
            {"sets": {"legates": ["legates:3", "legates:4", "legates:5"]}, "markers": ["legates"]},
            {"hand": mike_set, "markers": ["legates"], "laurels": 3},
        ],
        phase="takeovers",
        followers={"faction:legates:1": mike},
    )
    _play_set(g, mike_set)
    assert g.position().controller[Faction.LEGATES] == mike
    assert discard(g) == ["legates:3", "legates:4", "legates:5"]
    assert g.position().players[mike].laurels == 3 + 2
    assert g.position().players[mike].num_markers == 1
    assert g.position().players[michelle].laurels == 0 and g.position().players[michelle].markers[Faction.LEGATES]


def test_takeover_example_3_two_challengers() -> None:
    """Mike on "2" plays 22 over John's 16; Michelle on "1" answers with four cards and wins.

    John discards his set, Mike takes his set back and discards the 6, Michelle
    gets the 1-laurel take-over benefit but no first-controller laurel.
    """
    john, mike, michelle = 0, 1, 2
    john_set = ["senators:8", "senators:8"]
    mike_set = ["senators:6", "senators:7", "senators:9"]
    michelle_set = ["senators:4", "senators:4", "senators:5", "senators:5"]
    g = position(
        [
            {"sets": {"senators": john_set}, "markers": ["senators"]},
            {"hand": mike_set},
            {"hand": michelle_set},
        ],
        phase="takeovers",
        followers={"faction:senators:1": michelle, "faction:senators:2": mike},
    )
    senators = int(Faction.SENATORS)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, mike, senators, int(TakeoverRole.SECOND_FIRST))
    _play_set(g, mike_set)
    assert g.pending == Pending(DecisionKind.TAKEOVER_SET, michelle, senators, int(TakeoverRole.FIRST_OVER_SECOND))
    _play_set(g, michelle_set)
    assert g.pending == Pending(DecisionKind.TAKEOVER_PENALTY, mike, senators)
    g.apply(pick(g, "senators:6"))

    assert g.position().controller[Faction.SENATORS] == michelle
    assert set_of(g, Faction.SENATORS) == sorted(michelle_set)
    assert hand(g, mike) == ["senators:7", "senators:9"]
    assert discard(g) == ["senators:6", "senators:8", "senators:8"]
    assert g.position().players[michelle].laurels == 1
    assert g.position().players[michelle].markers[Faction.SENATORS]
    assert g.position().players[mike].laurels == 0
    assert not g.position().players[mike].markers[Faction.SENATORS]
    assert g.position().controller[Faction.SENATORS] != john and g.position().players[john].markers[Faction.SENATORS]


def test_leader_example_varus() -> None:
    """Mike takes the Legates with Varus: two laurels (take-over benefit) plus one (Varus)."""
    zoe, mike = 0, 1
    mike_set = ["legates:0", "legates:4", "legates:6"]
    g = position(
        [{"sets": {"legates": ["legates:1", "legates:2"]}, "markers": ["legates"]}, {"hand": mike_set}],
        phase="takeovers",
        followers={"faction:legates:1": mike},
    )
    _play_set(g, mike_set)
    assert g.position().controller[Faction.LEGATES] == mike
    assert g.position().players[mike].laurels == 3
    assert discard(g) == ["legates:1", "legates:2"]  # Zoe's beaten set
    assert g.position().players[zoe].laurels == 0


def test_cato_example() -> None:
    """Mike takes the Senators with Cato: a Senators marker, and a Vestal marker of his choice."""
    mike = 0
    mike_set = ["senators:0", "senators:6", "senators:7"]
    g = position(
        [{"hand": mike_set, "markers": ["gladiators"]}, {}], phase="takeovers", followers={"faction:senators:1": mike}
    )
    _play_set(g, mike_set)
    assert g.pending == Pending(DecisionKind.CATO_MARKER, mike, int(Faction.SENATORS))
    assert ChooseFaction(int(Faction.VESTALS)) in g.legal_actions()
    assert ChooseFaction(int(Faction.GLADIATORS)) not in g.legal_actions()  # he has it already
    g.apply(ChooseFaction(int(Faction.VESTALS)))
    markers = g.position().players[mike].markers
    assert [Faction(f).key for f, on in enumerate(markers) if on] == ["gladiators", "vestals", "senators"]


@pytest.mark.parametrize(
    ("faction", "leader_set", "check"),
    [
        ("gladiators", ["gladiators:0", "gladiators:6"], lambda p: p.legions == 2),  # 1 + Spartacus 1
        ("patricians", ["patricians:0", "patricians:8"], lambda p: p.money == 10 and p.laurels == 2),
        ("vestals", ["vestals:0", "vestals:9"], lambda p: p.eternal_favor and p.money == 5),
    ],
)
def test_leader_abilities_without_choices(faction: str, leader_set: list[str], check) -> None:
    """Spartacus: an extra legion; Scipio Africanus: 10 denarii; Aquilia Severa: the eternal favor."""
    g = position([{"hand": leader_set}, {}], phase="takeovers", followers={f"faction:{faction}:1": 0})
    _play_set(g, leader_set)
    assert check(g.position().players[0])


def test_leader_tigellinus_discard_for_a_legion() -> None:
    """Gaius Tigellinus: the new controller may discard a card from his hand for one legion."""
    g = position(
        [{"hand": ["praetorians:0", "praetorians:7", "senators:4"]}, {}],
        phase="takeovers",
        followers={"faction:praetorians:1": 0},
    )
    _play_set(g, ["praetorians:0", "praetorians:7"])
    assert g.pending == Pending(DecisionKind.TIGELLINUS_DISCARD, 0, int(Faction.PRAETORIANS))
    assert g.position().players[0].hand_size == 2  # senators:4 and the take-over benefit card
    assert DECLINE in g.legal_actions()
    g.apply(pick(g, "senators:4"))
    assert any(line == "P0 gains 1 legion(s) (leader Gaius Tigellinus)" for line in g.log())
    assert g.position().players[0].legions == 2  # Tigellinus, then the Praetorians' faction benefit in phase 5
    assert g.position().players[0].hand_size == 1
    assert "senators:4" in discard(g)


def test_leader_agrippa_scroll_or_card() -> None:
    """Agrippa: a scroll (when the player has none) or a card from the draw pile."""
    g = position(
        [{"hand": ["plebeians:0", "plebeians:6"]}, {}], phase="takeovers", followers={"faction:plebeians:1": 0}
    )
    _play_set(g, ["plebeians:0", "plebeians:6"])
    assert g.pending == Pending(DecisionKind.AGRIPPA_CHOICE, 0, int(Faction.PLEBEIANS))
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    g.apply(ChooseOption(0))
    assert g.position().players[0].tile == 1  # scroll
    assert g.position().players[0].hand_size == 1  # only the Plebeians take-over card


# --- Phase 5: Vestal Virgins benefit ---------------------------------------------------


def test_vestal_virgins_benefit_example_tribune() -> None:
    """Michelle, with a scroll and the Senators, gains the Vestals and takes the tribune option."""
    michelle = 0
    g = position(
        [
            {
                "tile": "scroll",
                "markers": ["senators", "vestals"],
                "sets": {"senators": ["senators:7", "senators:8"], "vestals": ["vestals:5", "vestals:6"]},
            },
            {},
        ],
        phase="faction_benefits",
    )
    assert g.pending == Pending(DecisionKind.BENEFIT_OPTION, michelle, int(Faction.VESTALS))
    assert g.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    before = g.scores()[michelle]
    g.apply(ChooseOption(1))
    assert g.position().players[michelle].tile == 2  # tribune
    assert g.position().players[michelle].laurels == 0
    assert not g.position().players[michelle].temporary_favor
    assert g.scores()[michelle] == before + 4  # scroll 3 -> tribune 7


# --- Phase 6: chariot auction (extra-examples.md) --------------------------------------


def test_chariot_auction_example() -> None:
    """Michelle 2, John 0, Mike 4, Zoe 5: Zoe pays 5 to the stock; the others keep their money."""
    michelle, john, mike, zoe = 0, 1, 2, 3
    g = position(
        [
            {"money": 10},
            {"money": 10},
            {"money": 10},
            {"money": 10, "sets": {"praetorians": ["praetorians:3", "praetorians:4"]}},
        ],
        phase="chariot_auction",
    )
    for seat, amount in ((michelle, 2), (john, 0), (mike, 4), (zoe, 5)):
        assert g.pending == Pending(DecisionKind.CHARIOT_BID, seat)
        g.apply(Bid(amount))
    assert g.pending == Pending(DecisionKind.CHARIOT_PLACEMENT, zoe)
    assert [p.money for p in g.position().players] == [10, 10, 10, 5]
    assert g.legal_actions() == [ChooseFaction(int(Faction.PRAETORIANS)), DECLINE]
    g.apply(ChooseFaction(int(Faction.PRAETORIANS)))
    assert g.position().chariot == Faction.PRAETORIANS


def test_chariot_auction_tie_nobody_pays() -> None:
    g = position(
        [
            {"money": 10},
            {"money": 10},
            {"money": 10},
            {"money": 10, "sets": {"praetorians": ["praetorians:3", "praetorians:4"]}},
        ],
        phase="chariot_auction",
    )
    play(g, Bid(2), Bid(5), Bid(4), Bid(5))
    assert [p.money for p in g.position().players] == [10, 10, 10, 10]
    assert g.position().chariot == -1
    assert g.pending.kind is not DecisionKind.CHARIOT_PLACEMENT
    assert g.round == 2  # the next round has begun
