"""The heuristic families against the Brutii's face-up cards (issue 27 part 4; rulings R45-R48, checklist E92-E102).

Hand-written 5-seat positions (the Brutii in seat 0, the family deciding in seat 1): with "Cards" face up a family
with the means takes a Catacombs space it would otherwise pass over (R47), and buys there once he has chosen
option 2; the Curia discard follows his chosen option; with "Denarii" face up the Latrine's occupant takes the money
instead of paying him, and the coin bowl costs a denarius to him; with "Faction Take-Over" face up a family stands on
the field of a faction he threatens; the Brutii's own "Cards" option counts the Catacombs occupants who can pay.
Then the leak check: re-dealing what a family cannot know never changes its decision.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hidden_info import redeal_everything_hidden
from positions import place, position

from agents import make_agent
from agents.brutii_rules import (
    Outlook,
    cards_options,
    curia_denial,
    placement_denial,
    purchase_denial,
    takeover_defence,
)
from agents.strategy import Valuation
from tribune_env import Action, DecisionKind, Game, GameConfig, Region
from tribune_env.engine.actions import DECLINE, ChooseOption, PlaceFollower
from tribune_env.engine.tables import SpaceSpec
from tribune_env.envs.infoset import InfoSet

BRUTII: dict[str, Any] = {"expansion": True, "brutii": True, "brutii_seat": 0}
CARD = "sic_transit"
MID_PHASE_2 = {"turns": 3, "revealed": ["cross", "arrow", "cross"]}  # three of his six turns to come (R44)
ALL_DISCS = ["cross", "cross", "arrow", "arrow", "arrow", "arrow_follower"]
PILE = ["gladiators:3", "legates:3", "senators:5", "plebeians:3", "vestals:4"]
OFFICIALS_TAKEN = {"capitoleum:1": 2, "capitoleum:2": 3, "capitoleum:3": 4}  # no official to tempt the family


def seats(**first: Any) -> list[dict[str, Any]]:
    """The Brutii (10 denarii, a cheap card) and four families with 3 followers, 12 denarii and one card each."""
    cards = ("senators:4", "legates:2", "vestals:3", "plebeians:2")
    return [{"money": 10, "hand": ["gladiators:0"], **first}] + [
        {"followers": 3, "money": 12, "hand": [card]} for card in cards
    ]


def placement(played: list[str], players: list[dict[str, Any]] | None = None, **fields: Any) -> Game:
    """Family P1's phase-2 placement, with the Brutii's ``played`` cards face up (R45)."""
    fields.setdefault("followers", OFFICIALS_TAKEN)
    g = position(
        players or seats(),
        victory_card=CARD,
        config=BRUTII,
        phase="follower_placement",
        turn_seat=1,
        brutii={**MID_PHASE_2, "played": played},
        **fields,
    )
    assert g.pending is not None and g.pending.kind is DecisionKind.PLACE_FOLLOWER and g.pending.seat == 1
    return g


def evaluation(played: list[str], option: int = 0, money: int = 12, **fields: Any) -> Game:
    """Phase 3 with the Brutii's cards ``played`` and the families holding ``money`` (``family``: more of P1's
    holdings), run to its first decision; with ``option`` (1 or 2) he chooses that option of "Cards" first (R46)."""
    players = seats()
    for family in players[1:]:
        family.update(money=money, followers=0)
    players[1].update(fields.pop("family", {}))
    brutii = {"revealed": ALL_DISCS, "played": played}
    g = position(players, victory_card=CARD, config=BRUTII, phase="region_evaluation", brutii=brutii, **fields)
    if option:
        assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_CARDS_OPTION
        g.apply(ChooseOption(option - 1))
    return g


def decide(g: Game) -> Action:
    seat = g.current_seat
    agent = make_agent("heuristic", seed=0)
    agent.reset(seat, g.config, 0)
    return agent.act(g.view(seat), g.legal_actions(), InfoSet(g, seat))


def valuation(g: Game, seat: int = 1) -> Valuation:
    return Valuation(g.view(seat), g.config.components)


def placed_on(g: Game) -> SpaceSpec:
    """The space the heuristic places on at ``g``'s placement decision."""
    action = decide(g)
    assert isinstance(action, PlaceFollower)
    return g.tables.spaces[action.space]


# -- "Cards" (R46, R47) ------------------------------------------------------------------------------------------------

THERMAE_FIELD = {"thermae": [["gladiators:6"], [], [], []], "catacombs": [PILE]}  # a card a little above the pile's


def test_r47_with_cards_face_up_a_family_takes_the_catacombs() -> None:
    """Without "Cards" the family takes the Thermae card; with "Cards" face up (option 2 would take the whole pile)
    the Catacombs, where its purchase is a card less for him."""
    without = placement([], board=THERMAE_FIELD)
    with_cards = placement(["cards"], board=THERMAE_FIELD)
    assert decide(without) == place(without, "thermae:1")
    spec = placed_on(with_cards)
    assert spec.label.startswith("catacombs")
    assert placement_denial(valuation(with_cards), spec) > 0


def test_r47_a_family_that_cannot_pay_leaves_the_catacombs() -> None:
    """A family with 1 denarius cannot buy there: the Catacombs deny him nothing and it keeps to its own gains."""
    players = seats()
    players[1]["money"] = 1
    assert not placed_on(placement(["cards"], players, board=THERMAE_FIELD)).label.startswith("catacombs")


SPARES = {"catacombs": [["gladiators:1", "legates:0", "legates:1"]]}
OWN_SETS = {"gladiators": ["gladiators:5", "gladiators:6"], "legates": ["legates:6", "legates:7"]}


@pytest.mark.parametrize(("option", "buys"), [(0, False), (2, True), (1, False)])
def test_r47_buys_at_the_catacombs_once_he_chose_option_2(option: int, buys: bool) -> None:
    """A poor family on "4" passes over spare cards of its own factions; with "Cards" option 2 chosen every card it
    leaves goes to him (R47), so it buys one."""
    played = ["cards"] if option else ["official"]
    g = evaluation(played, option, money=5, board=SPARES, followers={"catacombs:1": 1}, family={"sets": OWN_SETS})
    assert g.pending is not None and g.pending.kind is DecisionKind.CATACOMBS_PURCHASE and g.pending.seat == 1
    assert (purchase_denial(valuation(g)) > 0) is buys
    assert (decide(g) != DECLINE) is buys


@pytest.mark.parametrize("option", [0, 1, 2])
def test_r47_the_curia_discard_follows_his_cards_option(option: int) -> None:
    """A spare card for a spare card a little worse: the family keeps its own; with option 1 he takes the Curia field
    nobody discards for, so it discards for it; with option 2 he takes the discards, so it keeps its card."""
    board = {"curia": [["legates:0"], [], []]}
    played = ["cards"] if option else ["official"]
    family = {"hand": ["gladiators:1"], "sets": OWN_SETS}
    g = evaluation(played, option, board=board, followers={"curia:1": 1}, family=family)
    assert g.pending is not None and g.pending.kind is DecisionKind.CURIA_DISCARD and g.pending.seat == 1
    field = g.view(1).board[Region.CURIA][0]
    assert (curia_denial(valuation(g), field) > 0) is (option == 1)
    assert (decide(g) != DECLINE) is (option == 1)


def test_r47_his_cards_option_counts_the_catacombs_occupants_who_can_pay() -> None:
    """Three free Forum cards against a full pile: with three families on the Catacombs who can pay (and buy to deny
    him) option 1; with three who cannot, option 2."""
    board = {"forum": [["legates:3"], ["plebeians:1"], [], []], "catacombs": [PILE]}
    occupants = {"catacombs:1": 1, "catacombs:2": 2, "catacombs:3": 3}
    choices = []
    for money in (12, 1):
        g = evaluation(["cards"], 0, money, board=board, followers=occupants)
        assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_CARDS_OPTION
        v = valuation(g, 0)
        first, second = cards_options(v, Outlook.of(v.view, v.components))
        choices.append(decide(g))
        assert (first > second) is (money == 12)
    assert choices == [ChooseOption(0), ChooseOption(1)]


# -- "Denarii" (R47) ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("played", "option"), [(["official"], 1), (["denarii"], 0)])
def test_r47_with_denarii_face_up_the_latrine_occupant_takes_the_money(played: list[str], option: int) -> None:
    """A spare card worth a little more than its price: bought (option 2) without "Denarii"; with "Denarii" face up
    the price would go to him (R47), so the family takes the money (option 1)."""
    family = {"hand": ["gladiators:1"], "sets": OWN_SETS}
    g = evaluation(played, board={"latrine": [["legates:3"]]}, followers={"latrine:1": 1}, family=family)
    assert g.pending is not None and g.pending.kind is DecisionKind.LATRINE_CHOICE and g.pending.seat == 1
    assert decide(g) == ChooseOption(option)


def test_r47_with_denarii_face_up_the_latrine_denies_and_the_coin_bowl_pays_him() -> None:
    """On the Latrine a family keeps the card's value from him (it takes the money); on the coin bowl it gives him a
    denarius (R47). Without "Denarii" neither counts."""
    worth = []
    for played in (["denarii"], ["official"]):
        g = placement(played)
        v = valuation(g)
        worth.append([placement_denial(v, v.tables.spaces[place(g, s).space]) for s in ("latrine:1", "coin_bowl")])
    (latrine, bowl), without = worth
    assert latrine > 0 > bowl
    assert without == [0.0, 0.0]


# -- "Faction Take-Over" (R48) -----------------------------------------------------------------------------------------

HIS_SETS = {  # every faction but the Praetorians is his: only they are at stake
    "gladiators": ["gladiators:5", "gladiators:6"],
    "legates": ["legates:6", "legates:7"],
    "plebeians": ["plebeians:5", "plebeians:6"],
    "patricians": ["patricians:7", "patricians:8"],
    "vestals": ["vestals:8", "vestals:9"],
    "senators": ["senators:9", "senators:10"],
}
HIS_HAND = [  # sixteen cards (public: his hand size), near his laurels and legions
    *("gladiators:1", "gladiators:2", "legates:0", "legates:1", "praetorians:0", "plebeians:0", "plebeians:1"),
    *("patricians:0", "patricians:2", "vestals:0", "senators:0", "nubian:1", "nubian:2", "greek:1", "greek:2"),
    "germanian:1",
]


@pytest.mark.parametrize(
    ("lone", "defended"),
    [({}, "faction:praetorians:1"), ({"faction:praetorians:1": 3}, "faction:praetorians:2")],
)
def test_r48_a_family_defends_the_faction_faction_takeover_threatens(lone: dict[str, int], defended: str) -> None:
    """The Brutii, near his laurels and legions, holds sixteen cards; P2's Praetorians (a weak 2-card set) are the
    one faction he may take. A poor family with nothing better stands on their empty field (option 1 passes it, option
    2 must get past it) or behind P3's lone follower (option 2 passes a full field); without the card it does not."""
    players = seats(hand=HIS_HAND, sets=HIS_SETS, laurels=8, legions=3)
    players[1].update(money=1, hand=[])
    players[2]["sets"] = {"praetorians": ["praetorians:1", "praetorians:2"]}
    followers = {**OFFICIALS_TAKEN, **lone}
    without = placement([], players, followers=followers)
    with_card = placement(["faction_takeover"], players, followers=followers)
    assert decide(without) == place(without, "coin_bowl")
    assert decide(with_card) == place(with_card, defended)
    assert takeover_defence(valuation(with_card), place(with_card, defended).space) > 0


# -- no hidden information ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_the_reactions_do_not_peek_at_hidden_information(players: int) -> None:
    """At family decisions with his cards face up, a game whose hidden cards (his hand, the others', the Catacombs
    pile, the piles) are re-dealt gets the same decision (R1, R45)."""
    config = GameConfig(players=players, round_limit=2, **BRUTII)
    g = Game.new(config, seed=players)
    agents = [make_agent("heuristic", seed=s) for s in range(players)]
    for s, agent in enumerate(agents):
        agent.reset(s, config, 0)
    rng = random.Random(players)
    checked = 0
    while not g.is_over:
        seat = g.current_seat
        legal = g.legal_actions()
        action = agents[seat].act(g.view(seat), legal, InfoSet(g, seat))
        if seat != 0 and g.position().brutii_played and len(legal) > 1:
            other = Game(redeal_everything_hidden(g.position(), seat, rng))
            assert other.view(seat) == g.view(seat)
            assert agents[seat].act(other.view(seat), other.legal_actions(), InfoSet(other, seat)) == action
            checked += 1
        g.apply(action)
    assert checked >= 20
