"""Agents in Brutii games (issue 15; rulings R42-R54, checklist E76-E107).

The heuristic's Brutii rules (agents/brutii_rules.py) are checked in hand-written positions: Denarii with many
followers on the coin bowl (R47), the option of "Cards" by the board (R46, R47), the option of "Faction Take-Over"
with more takeable factions (R48), the Veto where the leading rival gains (R54), the Veto held back until the
placements show (R44), the cards laid for a slave (R52), the legion (R51), the chariot opt-out with Denarii (R49);
the victory card's "with Brutii" row (E106) in the needs and the evaluation; then whole Brutii games at 5 and 6
seats for every agent, each playing both roles, and the heuristic Brutii against random families.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from agent_games import play_game
from positions import position

from agents import make_agent
from agents.base import AgentError
from agents.brutii_rules import RULES, Outlook, card_values, held_back, option_values, veto_values
from agents.evaluation import _card, potentials
from agents.greedy import bid_candidates
from agents.heuristic import _HANDLERS
from agents.mcts import _thin_bids
from agents.random_agent import RandomAgent
from agents.strategy import Valuation
from tribune_env import Action, DecisionKind, Game, GameConfig, PickCard
from tribune_env.data import BrutiiCard, ExpansionVictoryCard, Region, default_components
from tribune_env.engine.actions import COMMIT, DECLINE, Bid, ChooseActionCard, ChooseOption, ChooseRegion, bid
from tribune_env.engine.actions import choose_action_card as play
from tribune_env.engine.config import RuleSet, victory_cards_of
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS
from tribune_env.envs.infoset import InfoSet

COMPONENTS = default_components()
BRUTII = {"expansion": True, "brutii": True, "brutii_seat": 0}
CARD = "sic_transit"  # laurels 8, legions 3, markers 4, one emperor tile, one patron
SPEC = COMPONENTS.expansion.brutii if COMPONENTS.expansion is not None else None
assert SPEC is not None
ALL_DISCS = [d.key for d, n in SPEC.discs.items() for _ in range(n)]
CROSSES = [d for d in ALL_DISCS if d == "cross"]


# -- positions ---------------------------------------------------------------------------------------------------


def brutii_game(players: list[dict[str, Any]], **fields: Any) -> Game:
    """A hand-written 5-seat Brutii position (the Brutii in seat 0; victory card "sic_transit")."""
    return position(players, victory_card=CARD, config=BRUTII, **fields)


def his_turn(players: list[dict[str, Any]], revealed: Sequence[str] = CROSSES, **fields: Any) -> Game:
    """The Brutii's phase-2 turn after ``revealed`` (by default both crosses: the next disc is an arrow, R44)."""
    turns = SPEC.followers[len(players)] - len(revealed) if SPEC is not None else 0
    brutii = {"turns": turns, "revealed": list(revealed), **fields.pop("brutii", {})}
    g = brutii_game(players, phase="follower_placement", turn_seat=0, brutii=brutii, **fields)
    assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_CARD
    return g


def families(followers: int, first: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The Brutii (``first``, 10 denarii and one cheap card by default) and four families with ``followers`` left."""
    return [first or {"money": 10, "hand": ["gladiators:0"]}] + [{"followers": followers} for _ in range(4)]


def decide(g: Game) -> Action:
    seat = g.current_seat
    agent = make_agent("heuristic", seed=0)
    agent.reset(seat, g.config, 0)
    return agent.act(g.view(seat), g.legal_actions(), InfoSet(g, seat))


def valuation(g: Game, seat: int = 0) -> Valuation:
    return Valuation(g.view(seat), g.config.components)


def values(g: Game) -> dict[BrutiiCard, float]:
    return card_values(valuation(g))


# -- the table of rules and the agents' flags ---------------------------------------------------------------------


def test_every_brutii_decision_kind_has_a_heuristic_rule() -> None:
    assert set(RULES) == set(BRUTII_DECISION_KINDS)
    assert set(_HANDLERS) == set(DecisionKind)


class NoBrutii(RandomAgent):
    name = "nobrutii"
    rule_sets = frozenset({RuleSet.BASE, RuleSet.EXPANSION})


def test_agents_declare_the_brutii_variant() -> None:
    """heuristic, greedy, mcts and random play both roles; an agent that does not is refused at reset (R42)."""
    config = GameConfig(players=5, **BRUTII)
    for name in ("heuristic", "greedy", "mcts", "random"):
        agent = make_agent(name, seed=0)
        assert agent.plays_brutii
        agent.reset(0, config, 0)
    other = NoBrutii(0)
    other.reset(0, GameConfig(players=5, expansion=True), 0)  # the expansion without the Brutii: fine
    with pytest.raises(AgentError, match="does not play the Brutii variant"):
        other.reset(1, config, 0)


EXPANSION_CARDS = [c for c in victory_cards_of(COMPONENTS, True) if isinstance(c, ExpansionVictoryCard)]


@pytest.mark.parametrize("card_id", [c.id for c in EXPANSION_CARDS])
def test_e106_the_needs_and_the_evaluation_use_the_with_brutii_row(card_id: str) -> None:
    """E106: at 6 seats (a count only the Brutii variant has) the objectives pursued and the evaluation's
    threshold are the card's "with Brutii" row."""
    g = Game.new(GameConfig(players=6, victory_card=card_id, **BRUTII), seed=1)
    card = next(c for c in EXPANSION_CARDS if c.id == card_id)
    needed = card.required_brutii[6]
    assert 6 not in card.required
    for seat in range(6):
        pursued = [o for o, w in valuation(g, seat).needs.weight.items() if w == 1.0]
        assert len(pursued) == needed
    assert _card(COMPONENTS, card_id, 6, True, True).required == needed
    assert len(potentials(g.position())) == 6


# -- the action cards (R44, R47, R51-R54) --------------------------------------------------------------------------


def test_r47_plays_denarii_when_many_followers_are_on_the_coin_bowl() -> None:
    """R47: "Denarii" pays a denarius per follower on the coin bowl; with twelve there (the Official played, no
    cards on the board) it is played before a legion; with an empty bowl the legion is bought (R51)."""
    first = {"money": 5, "eternal_favor": True, "hand": ["gladiators:0"]}
    brutii = {"played": ["official"]}
    revealed = [*CROSSES, "arrow"]
    full = his_turn(families(3, first), revealed, brutii=brutii, coin_bowl=[1, 2, 3, 4] * 3)
    empty = his_turn(families(3, first), revealed, brutii=brutii)
    assert values(full)[BrutiiCard.DENARII] > values(empty)[BrutiiCard.DENARII] + 11 * valuation(full).money(1)
    assert decide(full) == play(int(BrutiiCard.DENARII))
    assert decide(empty) == play(int(BrutiiCard.BUY_A_LEGION))


def hold_back_position(followers_left: int) -> Game:
    """Four rivals on the Thermae (the leader among them) and the Capitoleum's officials free: the Veto is worth
    most, the Official next."""
    players = families(followers_left)
    players[2].update(laurels=8, legions=3)
    board = {"thermae": [["senators:8"], ["vestals:9"], ["patricians:8"], ["praetorians:7"]]}
    followers = {f"thermae:{s}": s for s in range(1, 5)}
    revealed = CROSSES if followers_left else [*CROSSES, "arrow", "arrow", "arrow"]
    return his_turn(players, revealed, board=board, followers=followers)


def test_r44_holds_the_veto_back_until_the_placements_show() -> None:
    """R44, R54: early in phase 2 (12 family placements to come) the Veto, worth most, waits and the Official is
    played; on his last turn, with every follower placed, the same Veto is played."""
    early, late = hold_back_position(3), hold_back_position(0)
    for g in (early, late):
        worth = values(g)
        assert max(worth, key=lambda c: worth[c]) is BrutiiCard.VETO
    v = valuation(early)
    assert held_back(v, BrutiiCard.VETO, 10.0) < held_back(v, BrutiiCard.OFFICIAL, 10.0) < 10.0
    assert held_back(v, BrutiiCard.BUY_A_LEGION, 10.0) == 10.0  # an immediate card never waits
    assert held_back(valuation(late), BrutiiCard.VETO, 10.0) == 10.0
    assert decide(early) == play(int(BrutiiCard.OFFICIAL))
    assert decide(late) == play(int(BrutiiCard.VETO))


def veto_position(leader_on: str, other_on: str) -> Game:
    """The same card on Thermae and Forum field 1; the leading rival (P2: laurels and legions met) on one, a rival
    with nothing on the other; the Brutii has just played the Veto."""
    players = families(3)
    players[2].update(laurels=8, legions=3)
    board = {"thermae": [["senators:7"], [], [], []], "forum": [["senators:7"], [], [], []]}
    g = his_turn(players, board=board, followers={leader_on: 2, other_on: 3})
    g.apply(play(int(BrutiiCard.VETO)))
    assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_VETO
    return g


@pytest.mark.parametrize(
    ("leader_on", "other_on", "vetoed"),
    [("forum:1", "thermae:1", Region.FORUM), ("thermae:1", "forum:1", Region.THERMAE)],
)
def test_r54_vetoes_the_region_where_the_leading_rival_gains(leader_on: str, other_on: str, vetoed: Region) -> None:
    g = veto_position(leader_on, other_on)
    v = valuation(g)
    worth = veto_values(v, Outlook.of(v.view, v.components))
    assert max(worth, key=lambda r: worth[r]) is vetoed
    assert decide(g) == ChooseRegion(int(vetoed))


def test_r52_lays_the_least_useful_cards_for_a_slave() -> None:
    """R52: for the free Thermae field's slave he lays the two cards worth least to him, then holds the slave."""
    first = {"money": 10, "hand": ["senators:8", "senators:9", "gladiators:0", "legates:0", "vestals:9"]}
    g = his_turn(families(3, first), board={"thermae": [["nubian:2"], [], [], []]})
    g.apply(play(int(BrutiiCard.SLAVE_CARDS)))
    v = valuation(g)
    hand = v.hand_cards()
    cheapest = sorted(v.card(c) for c in hand)[:2]
    laid = []
    while g.pending is not None and g.pending.kind is DecisionKind.BRUTII_SLAVES:
        action = decide(g)
        assert isinstance(action, PickCard)
        laid.append(action.card)
        g.apply(action)
    assert sorted(v.card(c) for c in laid) == cheapest
    assert g.position().players[0].hand[g.tables.card_id("nubian:2")] == 1
    assert sorted(g.position().fields[Region.THERMAE][0]) == sorted(laid)


def test_r51_buys_a_legion_it_can_pay_and_prices_none_it_cannot() -> None:
    g = his_turn(families(3))
    g.apply(play(int(BrutiiCard.BUY_A_LEGION)))
    assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_LEGION
    assert decide(g) == COMMIT
    poor = his_turn(families(3, {"money": 4, "hand": ["gladiators:0"]}))  # R51: 5 denarii without a Legates set
    assert values(poor)[BrutiiCard.BUY_A_LEGION] == 0.0


# -- the options (R46-R48) ----------------------------------------------------------------------------------------

AFTER_PHASE_2 = {"revealed": ALL_DISCS}


def test_r47_cards_option_follows_the_board() -> None:
    """R47: free Forum and Curia fields make option 1; Curia occupants (who discard) and a full Catacombs pile
    with nobody there make option 2."""
    brutii = {**AFTER_PHASE_2, "played": ["cards"]}
    forum = {"forum": [["senators:7"], ["vestals:8"], ["legates:3"], []], "curia": [["praetorians:4"], [], []]}
    g = brutii_game(families(0), phase="region_evaluation", brutii=brutii, board=forum)
    assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_CARDS_OPTION
    first, second = option_values(valuation(g), BrutiiCard.CARDS)
    assert first > second and decide(g) == ChooseOption(0)
    board = {
        "curia": [["praetorians:4"], ["senators:5"], ["vestals:3"]],
        "catacombs": [["gladiators:3", "legates:2", "senators:4", "plebeians:2", "vestals:4"]],
    }
    occupied = {"curia:1": 1, "curia:2": 2, "curia:3": 3}
    g = brutii_game(families(0), phase="region_evaluation", brutii=brutii, board=board, followers=occupied)
    first, second = option_values(valuation(g), BrutiiCard.CARDS)
    assert second > first and decide(g) == ChooseOption(1)


SETS = ["gladiators:5", "gladiators:6", "legates:6", "legates:7", "praetorians:6", "praetorians:7"]


@pytest.mark.parametrize(
    ("hand", "lone", "choice"),
    [
        (SETS, {"faction:praetorians:1": 2}, 0),  # option 1: Gladiators and Legates; option 2: Praetorians
        (
            [*SETS, "vestals:8", "vestals:9"],
            {"faction:praetorians:1": 2, "faction:legates:1": 3, "faction:gladiators:1": 4},
            1,  # option 1: the Vestals; option 2: three factions behind a lone follower
        ),
    ],
)
def test_r48_takeover_option_with_more_takeable_factions(hand: list[str], lone: dict[str, int], choice: int) -> None:
    brutii = {**AFTER_PHASE_2, "played": ["faction_takeover"]}
    g = brutii_game(families(0, {"money": 10, "hand": hand}), phase="takeovers", brutii=brutii, followers=lone)
    assert g.pending is not None and g.pending.kind is DecisionKind.BRUTII_TAKEOVER_OPTION
    worth = option_values(valuation(g), BrutiiCard.FACTION_TAKEOVER)
    assert worth[choice] > worth[1 - choice]
    assert decide(g) == ChooseOption(choice)


@pytest.mark.parametrize(
    ("played", "rival_controls", "expected"),
    [(["denarii"], True, DECLINE), ([], True, bid(0)), (["denarii"], False, bid(0))],
)
def test_r49_opts_out_of_the_chariot_with_denarii_when_a_rival_will_bid(
    played: list[str], rival_controls: bool, expected: Action
) -> None:
    """R49: with "Denarii" played and a rival protecting a small set (a likely bidder), the Brutii opts out for the
    winner's payment; without Denarii, or with nobody likely to bid, he bids as a family would (nothing to
    protect: 0)."""
    sets = {"praetorians": ["praetorians:5", "praetorians:6"]} if rival_controls else {}
    players = [{"money": 10, "hand": ["gladiators:0"]}, {"money": 10, "sets": sets}, {}, {}, {}]
    g = brutii_game(players, phase="chariot_auction", brutii={**AFTER_PHASE_2, "played": played})
    assert g.pending is not None and g.pending.kind is DecisionKind.CHARIOT_BID and DECLINE in g.legal_actions()
    assert decide(g) == expected


# -- greedy and mcts ----------------------------------------------------------------------------------------------


def test_r49_bid_thinning_keeps_the_opt_out() -> None:
    legal: list[Action] = [*[bid(a) for a in range(20)], DECLINE]
    assert DECLINE in bid_candidates(legal, 0) and DECLINE in _thin_bids(legal)
    bids = [a for a in _thin_bids(legal) if isinstance(a, Bid)]
    assert bids == [a for a in _thin_bids(legal[:-1]) if isinstance(a, Bid)]  # the bids as without the opt-out


def test_r47_evaluation_counts_what_his_played_cards_promise() -> None:
    """The evaluation (greedy's, mcts's) counts a played "Cards" as the free Forum fields' cards for the Brutii."""
    board = {"forum": [["senators:7"], ["vestals:8"], ["legates:7"], ["patricians:7"]]}
    revealed = [*CROSSES, "arrow"]
    without = his_turn(families(3), revealed, board=board, brutii={"played": ["official"]})
    with_cards = his_turn(families(3), revealed, board=board, brutii={"played": ["cards"]})
    assert potentials(with_cards.position())[0] > potentials(without.position())[0]


# -- whole games ----------------------------------------------------------------------------------------------------

AGENTS = ["heuristic", "greedy", "mcts:iterations=6", "mcts:search=flat,iterations=1,candidates=2", "random"]


@pytest.mark.parametrize("players", [5, 6])
@pytest.mark.parametrize("spec", AGENTS)
def test_every_agent_completes_brutii_games_in_both_roles(spec: str, players: int) -> None:
    """The agent holds the Brutii seat (0) and a family seat (1) against random families; every answer is legal
    (play_game checks it) and the Brutii's own decisions are the agent's."""
    specs = [spec, spec] + ["random"] * (players - 2)
    config = GameConfig(players=players, round_limit=3, **BRUTII)
    game, actions = play_game(specs, 3, config)
    assert game.is_over
    assert any(isinstance(a, ChooseActionCard) for a in actions)


def test_heuristic_meets_every_brutii_decision_kind() -> None:
    """Over a few games the heuristic Brutii meets each decision only the Brutii faces, and each of its answers is
    legal; at every slave it lays the two cards worth least to it (R52)."""
    seen: set[DecisionKind] = set()
    for seed in range(16):
        config = GameConfig(players=5 + seed % 2, **BRUTII)
        g = Game.new(config, seed=seed)
        agents = [make_agent("heuristic" if s == 0 else "random", seed=s) for s in range(config.players)]
        for s, agent in enumerate(agents):
            agent.reset(s, config, seed)
        while not g.is_over:
            seat = g.current_seat
            pending = g.pending
            assert pending is not None
            legal = g.legal_actions()
            view = g.view(seat)
            action = agents[seat].act(view, legal, InfoSet(g, seat))
            assert action in legal
            if seat == 0:
                seen.add(pending.kind)
                if pending.kind is DecisionKind.BRUTII_SLAVES and not view.staged:
                    v = Valuation(view, config.components)
                    assert isinstance(action, PickCard)
                    assert v.card(action.card) <= sorted(v.card(c) for c in v.hand_cards())[1]
            g.apply(action)
    assert set(BRUTII_DECISION_KINDS) <= seen


@pytest.mark.parametrize("players", [5, 6])
def test_heuristic_brutii_beats_random_families(players: int) -> None:
    """The heuristic in the Brutii seat wins nearly every game against random families."""
    config = GameConfig(players=players, **BRUTII)
    games = 12
    wins = sum(
        0 in play_game(["heuristic"] + ["random"] * (players - 1), seed, config)[0].winners for seed in range(games)
    )
    assert wins >= 0.8 * games
