"""The Brutii variant, rule by rule: checklist E76-E107, rulings R42-R54, worked examples X17, X19, XS2 and X12's
six-seat line.

Positions are built from ``Game.new(..., brutii=True)`` by editing the state (as in test_expansion_takeovers and
test_expansion_board): :func:`blank` puts every card back in the draw pile and empties the board, the test hands
out what it needs and pushes only the steps under test on the agenda. A Brutii disc is forced by revealing every
other disc first (the face-down discs are the multiset rest, R45). The Brutii sits on the last seat unless a test
says otherwise.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from tribune_env import Faction, Game, GameConfig, Region, default_components
from tribune_env.data import BrutiiCard, BrutiiDisc, Official
from tribune_env.data.expansion import IMMEDIATE_CARDS
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    ChooseActionCard,
    bid,
    choose_action_card,
    choose_official,
    choose_option,
    choose_region,
    choose_tile,
    pick_card,
    place_follower,
)
from tribune_env.engine.brutii import face_down
from tribune_env.engine.brutii_ops import BRUTII_SLOT, CARDS_OPTION, TAKEOVER_OPTION
from tribune_env.engine.decisions import DecisionKind, Pending, Phase, TakeoverRole
from tribune_env.engine.flow import advance
from tribune_env.engine.follower_placement import legal_spaces
from tribune_env.engine.ops import faction_name, push
from tribune_env.engine.registry import DECISIONS
from tribune_env.engine.rounds import round_tasks
from tribune_env.engine.scoring import refresh
from tribune_env.engine.state import OPTED_OUT, SCROLL, TRIBUNE, GameState, Task
from tribune_env.engine.view import HIDDEN, player_view

COMPONENTS = default_components()
assert COMPONENTS.expansion is not None and COMPONENTS.expansion.brutii is not None
SPEC = COMPONENTS.expansion.brutii
DISCS = [d for d in BrutiiDisc for _ in range(SPEC.discs[d])]
"""Every disc, by symbol in enum order (the multiset of E81)."""


# --- position helpers ------------------------------------------------------------------------------------


def new(players: int = 5, brutii: int | None = None, seed: int = 0) -> Game:
    """A new Brutii game (set-up pending); the Brutii on ``brutii``, by default the last seat."""
    seat = players - 1 if brutii is None else brutii
    return Game.new(players=players, seed=seed, expansion=True, brutii=True, brutii_seat=seat, auto_forced=False)


def blank(players: int = 5, brutii: int | None = None, seed: int = 0) -> Game:
    """A Brutii game with every card in the draw pile, no money, an empty board and nothing scheduled."""
    game = new(players, brutii, seed)
    state = game.python_state()
    tables = state.tables
    for player in state.players:
        player.hand = [0] * tables.num_card_types
        player.money = 0
    state.draw = [c for c, n in enumerate(tables.card_copies) for _ in range(n)]
    state.discard = []
    for region in state.fields:
        for field in region:
            field.clear()
    state.spaces = [-1] * len(state.spaces)
    state.staged, state.contest, state.agenda = [], [], []
    state.pending = None
    state.legal_cache = None
    return game


def run(game: Game, *tasks: Task, phase: Phase) -> None:
    """Replace the agenda by ``tasks`` (in phase ``phase``) and run up to the first decision."""
    state = game.state
    state.phase = phase
    state.pending = None
    state.legal_cache = None
    state.agenda = []
    push(state, *tasks)
    advance(state)


def cid(state: GameState, label: str) -> int:
    return state.tables.card_id(label)


def take(state: GameState, label: str) -> int:
    card = cid(state, label)
    state.draw.remove(card)
    return card


def give(state: GameState, seat: int, *labels: str) -> None:
    for label in labels:
        state.players[seat].hand[take(state, label)] += 1


def lay(state: GameState, region: Region, i: int, *labels: str) -> None:
    state.fields[region][i].extend(take(state, label) for label in labels)


def control(state: GameState, seat: int, faction: Faction, *labels: str) -> None:
    state.controller[faction] = seat
    state.sets[faction] = [take(state, label) for label in labels]


def hand(state: GameState, seat: int) -> list[str]:
    return sorted(state.tables.card_label[c] for c, n in enumerate(state.players[seat].hand) for _ in range(n))


def labels(state: GameState, cards: list[int]) -> list[str]:
    return sorted(state.tables.card_label[c] for c in cards)


def space(state: GameState, label: str) -> int:
    return next(s.id for s in state.tables.spaces if s.label == label)


def stand(state: GameState, seat: int, label: str) -> None:
    state.spaces[space(state, label)] = seat


def plays(state: GameState, *cards: BrutiiCard, cards_option: int = -1, takeover_option: int = -1) -> None:
    """The Brutii has played ``cards`` this round, with the given options."""
    state.brutii_played = [int(c) for c in cards]
    state.brutii_options = [cards_option, takeover_option]


def pending(game: Game) -> Pending:
    assert game.pending is not None
    return game.pending


def by_card(game: Game, kind: DecisionKind) -> Pending:
    """The pending decision of the Brutii acting through an action card (R47)."""
    return Pending(kind, game.state.brutii, index=BRUTII_SLOT)


def one_turn(disc: BrutiiDisc, players: int = 5, next_followers: int = 1) -> Game:
    """A phase 2 in which only the Brutii's last turn is left, its disc forced to ``disc``, then the seat after
    him with ``next_followers`` followers; run up to the first decision."""
    game = blank(players)
    state = game.state
    b = state.brutii
    rest = list(DISCS)
    rest.remove(disc)
    state.brutii_revealed = [int(d) for d in rest]
    state.brutii_turns = 1
    for player in state.players:
        player.followers = 0
    state.players[(b + 1) % players].followers = next_followers
    state.turn_seat = b
    run(game, ("place_next",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    return game


def card_choices(game: Game) -> list[int]:
    return [a.card for a in game.legal_actions() if isinstance(a, ChooseActionCard)]


def phase_two_turns(game: Game, choose: Callable[[Game], Action]) -> tuple[list[str], Counter[DecisionKind]]:
    """Play the current round's phase 2 with ``choose``; the turn owners in order ("B" for the Brutii's disc
    turns), and the Brutii's decisions by kind."""
    state = game.state
    turns: list[str] = []
    kinds: Counter[DecisionKind] = Counter()
    revealed = len(state.brutii_revealed)
    turns += ["B"] * revealed
    while game.pending is not None and game.phase is Phase.FOLLOWER_PLACEMENT:
        p = pending(game)
        if p.seat == state.brutii:
            kinds[p.kind] += 1
        elif p.kind is DecisionKind.PLACE_FOLLOWER and state.placed_this_turn == 0:
            turns.append(str(p.seat))
        game.apply(choose(game))
        turns += ["B"] * (len(state.brutii_revealed) - revealed)  # his turns run between the decisions
        revealed = len(state.brutii_revealed)
    return turns, kinds


def to_phase_two(game: Game, rng: random.Random) -> None:
    """Random choices (set-up, phase 1) until phase 2 is running."""
    while game.phase is not Phase.FOLLOWER_PLACEMENT:
        game.apply(rng.choice(game.legal_actions()))


def bowl_or_first(game: Game) -> Action:
    """Families place on the coin bowl; every other decision takes the first legal choice."""
    p = pending(game)
    if p.kind is DecisionKind.PLACE_FOLLOWER:
        return place_follower(game.state.tables.coin_bowl)
    return game.legal_actions()[0]


# --- N. set-up (E76-E82; R42, R43) -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_e76_r42_the_brutii_variant_needs_five_or_six_seats(players: int) -> None:
    """E76, R42: 5 or 6 seats, the Brutii included; no other count."""
    with pytest.raises(ValueError, match="players"):
        GameConfig(players=players, expansion=True, brutii=True)


def test_e76_five_and_six_seats_and_only_with_the_expansion() -> None:
    assert GameConfig(players=5, expansion=True, brutii=True).brutii
    assert GameConfig(players=6, expansion=True, brutii=True).brutii
    # The one policy of the rule set: the Brutii variant is played with the expansion, so asking for the Brutii
    # asks for the expansion too (issue 24); player counts other than 5 and 6 are refused.
    implied = GameConfig(players=5, brutii=True)
    assert implied.expansion and implied == GameConfig(players=5, expansion=True, brutii=True)
    assert GameConfig(brutii=True).players == 5
    with pytest.raises(ValueError, match="players: 4 is not supported with the Brutii"):
        GameConfig(players=4, brutii=True)


@pytest.mark.parametrize("players", [5, 6])
def test_e77_r43_the_first_player_sits_after_the_brutii(players: int) -> None:
    """E77, R43: the first player is the seat to the Brutii's left, whichever seat he takes."""
    for seat in range(players):
        state = new(players, seat).position()
        assert (state.brutii, state.start_seat) == (seat, (seat + 1) % players)


def test_e77_r43_an_unconfigured_brutii_seat_is_drawn_at_random() -> None:
    seats = set()
    for seed in range(40):
        state = Game.new(players=5, seed=seed, expansion=True, brutii=True).position()
        assert state.start_seat == (state.brutii + 1) % 5
        seats.add(state.brutii)
    assert seats == set(range(5))


@pytest.mark.parametrize(("players", "followers"), [(5, 6), (6, 5)])
def test_e78_e79_r42_r44_followers_turns_discs_and_cards(players: int, followers: int) -> None:
    """E78, E79, R42, R44: the families get 6 followers at 5 seats and 5 at 6; the Brutii has none but as many
    phase-2 turns, 6 face-down discs and 12 action cards to choose from."""
    game = blank(players)
    state = game.state
    b = state.brutii
    assert state.players[b].followers == 0
    run(game, ("placement",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    assert [p.followers for s, p in enumerate(state.players) if s != b] == [followers] * (players - 1)
    assert state.players[b].followers == 0 and state.brutii_turns == followers
    assert len(face_down(state)) == 6 and state.brutii_revealed == []
    assert len(BrutiiCard) == 12
    game = one_turn(BrutiiDisc.ARROW, players)
    assert card_choices(game) == [int(c) for c in BrutiiCard]


@pytest.mark.parametrize(("players", "brutii"), [(5, 4), (6, 2)])
def test_e80_r43_deal_six_keep_four_and_money_from_the_first_player(players: int, brutii: int) -> None:
    """E80, R43: everyone, the Brutii included, is dealt 6 cards and keeps 4; the first player gets 12 and each
    next seat one more, so the Brutii, last in order, gets 12 + (n - 1)."""
    game = new(players, brutii)
    state = game.python_state()
    start = state.start_seat
    assert [state.players[(start + k) % players].money for k in range(players)] == [12 + k for k in range(players)]
    assert state.players[brutii].money == 12 + players - 1
    assert all(p.hand_size == 6 for p in state.players)
    asked = set()
    while pending(game).kind is DecisionKind.SETUP_DISCARD:
        asked.add(pending(game).seat)
        game.apply(game.legal_actions()[0])
    assert brutii in asked
    assert all(p.hand_size == 4 for p in state.players)


def test_e81_two_crosses_three_arrows_one_arrow_with_follower_shuffled() -> None:
    """E81 (C, reconstructed): 2 cross, 3 arrow, 1 arrow+follower, revealed in a random order."""
    assert SPEC.discs == {BrutiiDisc.CROSS: 2, BrutiiDisc.ARROW: 3, BrutiiDisc.ARROW_FOLLOWER: 1}
    firsts: Counter[int] = Counter()
    for seed in range(60):
        game = blank(seed=seed)
        state = game.state
        state.chance = seed
        assert sorted(face_down(state)) == sorted(DISCS)
        state.brutii_turns = 1
        state.turn_seat = state.brutii
        run(game, ("place_next",), phase=Phase.FOLLOWER_PLACEMENT)
        firsts[state.brutii_revealed[0]] += 1
    assert set(firsts) == set(BrutiiDisc)
    assert firsts[BrutiiDisc.ARROW] > firsts[BrutiiDisc.ARROW_FOLLOWER]


def test_e82_r45_his_hand_is_hidden_his_cards_and_discs_are_public() -> None:
    """E82, R45: the Brutii's hand is private like any hand; his played cards (so also the unplayed ones),
    revealed discs, options and Veto are public, the same in every seat's view."""
    game = blank()
    state = game.state
    b = state.brutii
    give(state, b, "senators:4", "greek:2")
    plays(state, BrutiiCard.CARDS, BrutiiCard.VETO, cards_option=1)
    state.brutii_revealed = [int(BrutiiDisc.ARROW), int(BrutiiDisc.CROSS), int(BrutiiDisc.ARROW)]
    state.veto = int(Region.FORUM)
    mine = player_view(state, b)
    assert mine.hand == tuple(state.players[b].hand)
    for seat in range(4):
        view = player_view(state, seat)
        assert view.players[b].hand_size == 2 and view.hand == tuple(state.players[seat].hand)
        assert (view.brutii, view.brutii_played, view.brutii_revealed, view.brutii_options, view.veto) == (
            mine.brutii,
            mine.brutii_played,
            mine.brutii_revealed,
            mine.brutii_options,
            mine.veto,
        )
        assert view.brutii_played == (int(BrutiiCard.CARDS), int(BrutiiCard.VETO))


# --- O. his phase-2 turn (E83-E91; R44) ----------------------------------------------------------------------


def test_e83_e84_a_turn_reveals_one_disc_a_cross_plays_no_card() -> None:
    """E83: each turn turns one face-down disc up; E84: a cross plays no card and the turn ends (E90)."""
    game = one_turn(BrutiiDisc.CROSS)
    state = game.state
    assert len(state.brutii_revealed) == 6 and state.brutii_revealed[-1] == BrutiiDisc.CROSS
    assert state.brutii_turns == 0 and face_down(state) == []
    assert state.brutii_played == []
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)


@pytest.mark.parametrize("disc", [BrutiiDisc.ARROW, BrutiiDisc.ARROW_FOLLOWER])
def test_e85_an_arrow_must_play_one_unplayed_card(disc: BrutiiDisc) -> None:
    """E85 (and E86's card): an arrow asks for one action card, with no way to decline; it lies face up."""
    game = one_turn(disc)
    state = game.state
    assert pending(game) == Pending(DecisionKind.BRUTII_CARD, state.brutii)
    legal = game.legal_actions()
    assert DECLINE not in legal and all(isinstance(a, ChooseActionCard) for a in legal)
    game.apply(choose_action_card(BrutiiCard.LAURELS))
    assert state.brutii_played == [int(BrutiiCard.LAURELS)]
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)


def test_e86_the_follower_disc_places_the_proconsul_if_he_holds_it() -> None:
    """E86, E91: with the arrow+follower disc he chooses a card, then places the proconsul as a follower."""
    game = blank()
    state = game.state
    b = state.brutii
    state.proconsul = b
    run(game, ("placement",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    assert state.players[b].followers == 1  # the proconsul, his only follower (R9)
    game = one_turn(BrutiiDisc.ARROW_FOLLOWER)
    state = game.state
    state.players[b].followers = 1
    state.proconsul = b
    game.apply(choose_action_card(BrutiiCard.PATRON))
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, b)
    game.apply(place_follower(state.tables.coin_bowl))
    assert state.players[b].money == COMPONENTS.coin_bowl_first and state.coin_bowl == [b]
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)


def test_e86_no_placement_without_the_proconsul_or_on_a_plain_arrow() -> None:
    """E86: without the proconsul the follower disc places nothing; a plain arrow never places it, and an
    unplaced proconsul goes back at the end of phase 2."""
    game = one_turn(BrutiiDisc.ARROW_FOLLOWER)
    game.apply(choose_action_card(BrutiiCard.PATRON))
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)
    game = one_turn(BrutiiDisc.ARROW, next_followers=0)
    state = game.state
    b = state.brutii
    state.players[b].followers = 1
    state.proconsul = b
    game.apply(choose_action_card(BrutiiCard.PATRON))
    assert game.pending is None and state.coin_bowl == []  # the phase ended without his placement
    assert state.players[b].followers == 0


def test_e86_he_holds_the_proconsul_only_through_the_patricians() -> None:
    """E86: the proconsul is the Patricians' benefit (phase 5), and then his follower in the next phase 2."""
    game = blank()
    state = game.state
    b = state.brutii
    control(state, b, Faction.PATRICIANS, "patricians:2", "patricians:3")
    run(game, ("benefit", int(Faction.PATRICIANS)), phase=Phase.FACTION_BENEFITS)
    assert state.proconsul == b
    run(game, ("placement",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    assert state.players[b].followers == 1 and state.brutii_turns == 6


def test_e87_e88_revealed_discs_and_played_cards_stay_for_the_round() -> None:
    """E87: a revealed disc stays face up and cannot be drawn again this phase; E88: a played card stays face up
    and cannot be played again until phase 8 takes it back."""
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    state.brutii_played = [int(BrutiiCard.DENARII), int(BrutiiCard.CARDS)]
    state.legal_cache = None
    assert card_choices(game) == [int(c) for c in BrutiiCard if c not in (BrutiiCard.DENARII, BrutiiCard.CARDS)]
    game.apply(choose_action_card(BrutiiCard.OFFICIAL))
    assert Counter(state.brutii_revealed) == Counter(int(d) for d in DISCS)
    assert all(player_view(state, s).brutii_revealed == tuple(state.brutii_revealed) for s in range(5))
    run(game, ("brutii_reset",), phase=Phase.PREPARATION)
    assert state.brutii_played == [] and state.brutii_revealed == []
    assert sorted(face_down(state)) == sorted(DISCS)


@pytest.mark.parametrize(
    ("card", "kind"),
    [
        (BrutiiCard.BUY_A_LEGION, DecisionKind.BRUTII_LEGION),
        (BrutiiCard.SLAVE_CARDS, DecisionKind.BRUTII_SLAVES),
        (BrutiiCard.VETO, DecisionKind.BRUTII_VETO),
    ],
)
def test_e89_immediate_cards_are_resolved_in_the_turn(card: BrutiiCard, kind: DecisionKind) -> None:
    """E89: Buy a Legion, Slave Cards and Veto ask their decision at once, before the next seat places."""
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    b = state.brutii
    state.players[b].money = SPEC.legion_price
    give(state, b, "legates:1", "legates:2")
    lay(state, Region.THERMAE, 0, "greek:1")
    game.apply(choose_action_card(card))
    assert pending(game) == Pending(kind, b)
    assert state.turn_seat == b


def test_e89_mass_murder_acts_at_once_other_cards_wait() -> None:
    """E89: Mass Murder acts when played; a card such as Laurels does nothing until its location (E88)."""
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    control(state, 0, Faction.SENATORS, "senators:4", "senators:7", "senators:9")
    game.apply(choose_action_card(BrutiiCard.MASS_MURDER))
    assert labels(state, state.sets[Faction.SENATORS]) == ["senators:4", "senators:7"]
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    before = (list(state.discard), [p.laurels for p in state.players])
    game.apply(choose_action_card(BrutiiCard.LAURELS))
    assert (state.discard, [p.laurels for p in state.players]) == before
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)


def test_e90_after_the_card_and_the_proconsul_the_turn_passes_on() -> None:
    """E90: the seat after the Brutii has the next turn (here P0, who then places)."""
    game = one_turn(BrutiiDisc.ARROW, next_followers=2)
    game.apply(choose_action_card(BrutiiCard.OFFICIAL))
    assert game.state.turn_seat == 0 and pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)


def test_e91_the_proconsul_follows_every_follower_rule() -> None:
    """E91: the proconsul may go on a region of either board, a faction space or the coin bowl; the Pantheon still
    needs a Vestal Virgins marker (E30) and a vetoed region is closed (R54)."""
    game = blank()
    state = game.state
    b = state.brutii
    names = {state.tables.spaces[s].label for s in legal_spaces(state, b)}
    for name in ("forum:1", "refugium:1", "basilica:1", "capitoleum:1", "faction:senators:1", "coin_bowl"):
        assert name in names
    assert "pantheon:1" not in names
    state.players[b].markers[Faction.VESTALS] = True
    state.veto = int(Region.BASILICA)
    names = {state.tables.spaces[s].label for s in legal_spaces(state, b)}
    assert "pantheon:1" in names and "basilica:1" not in names


def test_e91_the_proconsul_on_the_basilica_makes_him_an_occupant() -> None:
    """E91: placed on a region space he acts there like any occupant (here at the Basilica, without a card)."""
    game = blank()
    state = game.state
    b = state.brutii
    stand(state, b, "basilica:1")
    run(game, ("evaluate", int(Region.BASILICA)), phase=Phase.EXPANSION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.BASILICA_CLAIM, b, index=0)


def test_x17a_five_seats_setup_and_round_one_turns() -> None:
    """X17 (a), R43, R44: the Brutii on seat 4; start seat 0; money 12..16; families 6 followers, the Brutii 6
    turns; round 1's phase 2 goes (0, 1, 2, 3, B) x 6, all 6 discs revealed, exactly 4 card choices and no
    proconsul placement; in round 2 (starting seat 1) he again has 6 turns."""
    game = new(5, 4)
    state = game.python_state()
    assert state.start_seat == 0 and [p.money for p in state.players] == [12, 13, 14, 15, 16]
    rng = random.Random(0)
    to_phase_two(game, rng)
    assert [p.followers for p in state.players] == [6, 6, 6, 6, 0] and state.brutii_turns == 6
    turns, kinds = phase_two_turns(game, bowl_or_first)
    assert turns == ["0", "1", "2", "3", "B"] * 6
    assert Counter(state.brutii_revealed) == Counter(int(d) for d in DISCS)
    assert kinds[DecisionKind.BRUTII_CARD] == 4 and kinds[DecisionKind.PLACE_FOLLOWER] == 0
    assert len(state.brutii_played) == 4
    while game.round == 1:
        game.apply(rng.choice(game.legal_actions()))
    to_phase_two(game, rng)
    assert state.start_seat == 1
    turns, _ = phase_two_turns(game, bowl_or_first)
    assert turns.count("B") == 6 and turns[:5] == ["1", "2", "3", "B", "0"]


@pytest.mark.parametrize("seed", range(8))
def test_x17b_six_seats_five_turns_one_disc_left(seed: int) -> None:
    """X17 (b): 6 seats, the Brutii on seat 5: families 5 followers, the Brutii 5 turns with one disc left face
    down; 4 card choices if the hidden disc is a cross, else 3."""
    game = new(6, 5, seed=seed)
    state = game.python_state()
    to_phase_two(game, random.Random(seed))
    assert [p.followers for p in state.players] == [5] * 5 + [0] and state.brutii_turns == 5
    turns, kinds = phase_two_turns(game, bowl_or_first)
    assert turns == ["0", "1", "2", "3", "4", "B"] * 5
    hidden = Counter(int(d) for d in DISCS) - Counter(state.brutii_revealed)
    assert sum(hidden.values()) == 1
    expected = 4 if hidden[BrutiiDisc.CROSS] else 3
    assert kinds[DecisionKind.BRUTII_CARD] == expected == len(state.brutii_played)


def test_r44_turn_order_when_he_starts_and_with_the_princeps() -> None:
    """R44: his turns follow seat order from the starting player, even when he starts; the Princeps holder's
    double placements take one turn (R37), and the Princeps gives the Brutii nothing."""
    game = blank()
    state = game.state
    state.start_seat = state.brutii
    state.officials[Official.PRINCEPS] = 1
    run(game, ("placement",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    turns, _ = phase_two_turns(game, bowl_or_first)
    assert turns == ["B", "0", "1", "2", "3"] * 3 + ["B", "0", "2", "3"] * 3
    game = blank()
    state = game.state
    state.officials[Official.PRINCEPS] = state.brutii
    run(game, ("placement",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    turns, _ = phase_two_turns(game, bowl_or_first)
    assert turns == ["0", "1", "2", "3", "B"] * 6


# --- P. what each card does where (E92-E105; R46-R50) ----------------------------------------------------------


def _forum() -> Game:
    game = blank()
    state = game.state
    for i, label in enumerate(("senators:4", "legates:4", "plebeians:2", "gladiators:5")):
        lay(state, Region.FORUM, i, label)
    stand(state, 0, "forum:1")
    stand(state, 1, "forum:2")
    state.players[0].money = 3  # P1 cannot pay for forum:2 (R10)
    return game


@pytest.mark.parametrize("option", [0, 1])
def test_e92_forum_cards_option_1_takes_what_nobody_bought(option: int) -> None:
    """E92, R47: with Cards option 1 the Brutii takes, free, every Forum card no occupant bought (after them);
    with option 2 he gets nothing there."""
    game = _forum()
    state = game.state
    b = state.brutii
    plays(state, BrutiiCard.CARDS, cards_option=option)
    run(game, ("evaluate", int(Region.FORUM)), phase=Phase.REGION_EVALUATION)
    assert hand(state, 0) == ["senators:4"] and state.players[0].money == 0
    leftovers = ["gladiators:5", "legates:4", "plebeians:2"]
    if option == 0:
        assert hand(state, b) == leftovers and state.players[b].money == 0 and state.discard == []
        public = " ".join(e.text for e in state.events if e.private_to == -1)
        assert all(state.tables.card_name(cid(state, c)) in public for c in leftovers)  # R45: a public take
    else:
        assert hand(state, b) == [] and labels(state, state.discard) == leftovers


def _latrine(occupant: int) -> Game:
    game = blank()
    state = game.state
    lay(state, Region.LATRINE, 0, "senators:7")
    if occupant >= 0:
        stand(state, occupant, "latrine:1")
        state.players[occupant].money = 10
    return game


def test_e93_latrine_denarii() -> None:
    """E93, R47: an empty Latrine pays the Brutii its card's value; an occupant who buys pays the Brutii instead of
    the stock; an occupant who takes the money leaves him nothing; without Denarii he gets nothing."""
    game = _latrine(-1)
    state = game.state
    b = state.brutii
    plays(state, BrutiiCard.DENARII)
    run(game, ("evaluate", int(Region.LATRINE)), phase=Phase.REGION_EVALUATION)
    assert state.players[b].money == 7 and labels(state, state.discard) == ["senators:7"]
    for played, choice, brutii_money, p2 in (
        ((BrutiiCard.DENARII,), 1, 7, 3),
        ((BrutiiCard.DENARII,), 0, 0, 17),
        ((), 1, 0, 3),
    ):
        game = _latrine(2)
        state = game.state
        plays(state, *played)
        run(game, ("evaluate", int(Region.LATRINE)), phase=Phase.REGION_EVALUATION)
        assert pending(game) == Pending(DecisionKind.LATRINE_CHOICE, 2)
        game.apply(choose_option(choice))
        assert (state.players[b].money, state.players[2].money) == (brutii_money, p2)
        assert hand(state, 2) == (["senators:7"] if choice == 1 else [])


def test_e93_the_brutii_buying_at_the_latrine_himself_pays_the_stock() -> None:
    """E93: only *another* occupant's payment goes to the Brutii; his proconsul buying there pays the stock."""
    game = _latrine(4)
    state = game.state
    plays(state, BrutiiCard.DENARII)
    run(game, ("evaluate", int(Region.LATRINE)), phase=Phase.REGION_EVALUATION)
    game.apply(choose_option(1))
    assert state.players[4].money == 3 and hand(state, 4) == ["senators:7"]


def _curia() -> Game:
    game = blank()
    state = game.state
    lay(state, Region.CURIA, 0, "senators:4", "senators:5")
    lay(state, Region.CURIA, 1, "legates:5")
    lay(state, Region.CURIA, 2, "vestals:5")
    stand(state, 0, "curia:1")
    stand(state, 1, "curia:2")
    give(state, 0, "plebeians:1")
    give(state, 1, "plebeians:2")
    return game


@pytest.mark.parametrize("option", [0, 1])
def test_e94_curia_cards(option: int) -> None:
    """E94, R47: option 1 takes the fields nobody discarded for; option 2 takes the cards others discarded there
    (the untaken fields are discarded)."""
    game = _curia()
    state = game.state
    b = state.brutii
    plays(state, BrutiiCard.CARDS, cards_option=option)
    run(game, ("evaluate", int(Region.CURIA)), phase=Phase.REGION_EVALUATION)
    game.apply(pick_card(cid(state, "plebeians:1")))  # P0 takes curia:1
    assert pending(game) == Pending(DecisionKind.CURIA_DISCARD, 1, index=1)
    game.apply(DECLINE)  # P1 keeps his card
    assert game.pending is None
    assert hand(state, 0) == ["senators:4", "senators:5"] and hand(state, 1) == ["plebeians:2"]
    if option == 0:
        assert hand(state, b) == ["legates:5", "vestals:5"]
        assert labels(state, state.discard) == ["plebeians:1"]
    else:
        assert hand(state, b) == ["plebeians:1"]
        assert labels(state, state.discard) == ["legates:5", "vestals:5"]


def test_e94_his_own_curia_discard_is_not_his_to_take() -> None:
    """E94: option 2 gives him the cards the *other* players discard; his proconsul's discard is discarded."""
    game = _curia()
    state = game.state
    b = state.brutii
    stand(state, b, "curia:3")
    give(state, b, "gladiators:1")
    plays(state, BrutiiCard.CARDS, cards_option=1)
    run(game, ("evaluate", int(Region.CURIA)), phase=Phase.REGION_EVALUATION)
    game.apply(DECLINE)
    game.apply(DECLINE)
    assert pending(game) == Pending(DecisionKind.CURIA_DISCARD, b, index=2)
    game.apply(pick_card(cid(state, "gladiators:1")))
    assert hand(state, b) == ["vestals:5"]
    assert "gladiators:1" in labels(state, state.discard)


@pytest.mark.parametrize("option", [0, 1])
def test_e95_r45_catacombs_cards_option_2_takes_the_pile_privately(option: int) -> None:
    """E95, R47: with Cards option 2 the Brutii takes, free, the pile nobody bought; R45: nobody else learns which
    cards they are."""
    game = blank()
    state = game.state
    b = state.brutii
    pile = ["senators:4", "legates:2", "vestals:3", "plebeians:4", "gladiators:5"]
    lay(state, Region.CATACOMBS, 0, *pile)
    stand(state, 0, "catacombs:1")
    state.players[0].money = 4
    plays(state, BrutiiCard.CARDS, cards_option=option)
    run(game, ("evaluate", int(Region.CATACOMBS)), phase=Phase.REGION_EVALUATION)
    game.apply(pick_card(cid(state, "vestals:3")))
    events = len(state.events)
    assert game.pending is None
    rest = [c for c in pile if c != "vestals:3"]
    if option == 1:
        assert hand(state, b) == sorted(rest) and state.discard == []
        public = [e.text for e in state.events[events - 3 :] if e.private_to == -1]
        assert not any(name in text for text in public for name in ("senator", "legate", "plebeian", "gladiator"))
    else:
        assert hand(state, b) == [] and labels(state, state.discard) == sorted(rest)


def _pantheon(occupied: bool) -> Game:
    game = blank()
    state = game.state
    b = state.brutii
    lay(state, Region.PANTHEON, 0, "senators:5")
    if occupied:
        stand(state, 0, "pantheon:1")
        state.players[0].markers[Faction.VESTALS] = True
    give(state, b, "senators:6", "legates:3")
    plays(state, BrutiiCard.ETERNAL_FAVOR)
    return game


def test_e96_r47_pantheon_sacrifice_after_the_occupant_without_a_vestal_marker() -> None:
    """E96, R47: another player on the Pantheon lets the Brutii sacrifice a card of the revealed faction after the
    occupant, with no Vestal marker, for an eternal favor."""
    game = _pantheon(occupied=True)
    state = game.state
    b = state.brutii
    run(game, ("evaluate", int(Region.PANTHEON)), phase=Phase.REGION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.PANTHEON_SACRIFICE, 0, index=0)
    game.apply(DECLINE)
    assert pending(game) == by_card(game, DecisionKind.PANTHEON_SACRIFICE)
    assert game.legal_actions() == [pick_card(cid(state, "senators:6")), DECLINE]
    game.apply(pick_card(cid(state, "senators:6")))
    assert state.players[b].eternal_favor and hand(state, b) == ["legates:3"]


def test_e96_no_pantheon_sacrifice_without_another_occupant_or_with_a_favor() -> None:
    """E96: nobody else on the Pantheon, no sacrifice; R13: a player with an eternal favor is not asked."""
    game = _pantheon(occupied=False)
    run(game, ("evaluate", int(Region.PANTHEON)), phase=Phase.REGION_EVALUATION)
    assert game.pending is None and not game.state.players[game.state.brutii].eternal_favor
    game = _pantheon(occupied=True)
    game.state.players[game.state.brutii].eternal_favor = True
    run(game, ("evaluate", int(Region.PANTHEON)), phase=Phase.REGION_EVALUATION)
    game.apply(DECLINE)
    assert game.pending is None


def test_e96_he_never_looks_at_the_pantheon_card_early() -> None:
    """E96: unlike an occupant, the Brutii never sees the Pantheon card in phase 2."""
    game = _pantheon(occupied=True)
    state = game.state
    state.players[0].pantheon_seen = True
    b = state.brutii
    field = player_view(state, b).board[Region.PANTHEON][0]
    assert field == (HIDDEN,) and player_view(state, 0).board[Region.PANTHEON][0] != (HIDDEN,)


def test_e96_with_his_proconsul_on_the_pantheon_he_is_asked_once() -> None:
    """E96, R47: the card works only beside *another* player's follower; standing there himself, he sacrifices as
    an occupant, once."""
    game = _pantheon(occupied=False)
    state = game.state
    b = state.brutii
    stand(state, b, "pantheon:2")
    state.players[b].markers[Faction.VESTALS] = True
    give(state, b, "senators:7")
    run(game, ("evaluate", int(Region.PANTHEON)), phase=Phase.REGION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.PANTHEON_SACRIFICE, b, index=1)
    game.apply(pick_card(cid(state, "senators:6")))
    assert game.pending is None and state.players[b].eternal_favor and "senators:7" in hand(state, b)


def _mars() -> Game:
    game = blank()
    state = game.state
    b = state.brutii
    stand(state, 0, "field_of_mars:1")
    give(state, 0, "senators:4", "senators:5")
    give(state, b, "legates:6", "legates:7", "plebeians:1", "plebeians:2", "gladiators:1", "gladiators:2")
    plays(state, BrutiiCard.LAURELS)
    run(game, ("evaluate", int(Region.FIELD_OF_MARS)), phase=Phase.REGION_EVALUATION)
    game.apply(pick_card(cid(state, "senators:4")))
    game.apply(pick_card(cid(state, "senators:5")))
    return game


def test_e97_field_of_mars_as_many_pairs_as_empty_spaces() -> None:
    """E97, R47: 3 spaces, 1 occupied: the Brutii lays up to 2 sealed pairs after the occupant, a laurel each,
    and the bonus laurel for the single highest pair (R14)."""
    game = _mars()
    state = game.state
    b = state.brutii
    assert pending(game) == by_card(game, DecisionKind.FIELD_OF_MARS_PAIR)
    for label in ("legates:6", "legates:7", "plebeians:1", "plebeians:2"):
        game.apply(pick_card(cid(state, label)))
    assert game.pending is None  # no room for the gladiators pair
    assert (state.players[b].laurels, state.players[0].laurels) == (3, 1)
    assert hand(state, b) == ["gladiators:1", "gladiators:2"]


def test_e97_he_may_lay_fewer_pairs() -> None:
    game = _mars()
    state = game.state
    b = state.brutii
    game.apply(pick_card(cid(state, "gladiators:1")))
    game.apply(pick_card(cid(state, "gladiators:2")))
    assert pending(game) == by_card(game, DecisionKind.FIELD_OF_MARS_PAIR)
    game.apply(DECLINE)
    assert game.pending is None
    assert (state.players[b].laurels, state.players[0].laurels) == (1, 2)  # P0's 9 beats his 3


def test_e97_his_proconsul_pair_does_not_use_up_an_empty_space() -> None:
    """E97, R47: the card gives as many pairs as there are *empty* spaces; his proconsul's pair as an occupant is
    his own besides (the occupant pair and the card pairs are alike once revealed, so only the total counts)."""
    game = blank()
    state = game.state
    b = state.brutii
    stand(state, b, "field_of_mars:1")
    stand(state, 0, "field_of_mars:2")
    give(state, b, "legates:6", "legates:7", "plebeians:1", "plebeians:2", "gladiators:1", "gladiators:2")
    plays(state, BrutiiCard.LAURELS)
    run(game, ("evaluate", int(Region.FIELD_OF_MARS)), phase=Phase.REGION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.FIELD_OF_MARS_PAIR, b, index=0)
    for label in ("legates:6", "legates:7"):
        game.apply(pick_card(cid(state, label)))
    # P0 (no cards) lays nothing; one empty space: one pair by the card
    assert pending(game) == by_card(game, DecisionKind.FIELD_OF_MARS_PAIR)
    for label in ("plebeians:1", "plebeians:2"):
        game.apply(pick_card(cid(state, label)))
    assert game.pending is None and state.players[b].laurels == 3
    assert hand(state, b) == ["gladiators:1", "gladiators:2"]


def test_e98_x19_coin_bowl_one_denarius_per_follower_at_the_end_of_phase_2() -> None:
    """E98, X19: P0 placed 2 followers on the coin bowl and P3 one: the Brutii, with Denarii, gets 3 at the end of
    phase 2, whenever in the phase he played the card; without it nothing."""
    for played, gain in (((BrutiiCard.DENARII,), 3), ((), 0)):
        game = blank()
        state = game.state
        b = state.brutii
        state.coin_bowl = [0, 3, 0]
        plays(state, *played)
        run(game, ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
        assert state.players[b].money == gain


def test_e98_coin_bowl_during_a_whole_phase_2() -> None:
    """E98: a real phase 2: every family follower on the coin bowl pays him one denarius."""
    game = blank()
    state = game.state
    b = state.brutii
    plays(state, BrutiiCard.DENARII)
    run(game, ("placement",), ("brutii_bowl",), phase=Phase.FOLLOWER_PLACEMENT)
    phase_two_turns(game, bowl_or_first)
    assert len(state.coin_bowl) == 24 and state.players[b].money == 24


def _refugium() -> Game:
    game = blank()
    state = game.state
    b = state.brutii
    stand(state, 0, "refugium:1")
    give(state, b, "nubian:2", "germanian:1")
    state.players[b].money = 10
    return game


def test_e99_refugium_patron_acts_like_an_occupant_last() -> None:
    """E99, R47: with Patron the Brutii chooses a Refugium option after the occupants (here a patron tile)."""
    game = _refugium()
    state = game.state
    b = state.brutii
    plays(state, BrutiiCard.PATRON)
    run(game, ("evaluate", int(Region.REFUGIUM)), phase=Phase.EXPANSION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.REFUGIUM_OPTION, 0, index=0)
    game.apply(DECLINE)
    assert pending(game) == by_card(game, DecisionKind.REFUGIUM_OPTION)
    game.apply(choose_option(0))
    assert pending(game) == by_card(game, DecisionKind.REFUGIUM_PATRON)
    game.apply(pick_card(cid(state, "nubian:2")))
    game.apply(pick_card(cid(state, "germanian:1")))
    game.apply(COMMIT)
    assert (state.players[b].patrons, state.players[b].money, hand(state, b)) == (1, 7, [])


def test_e99_no_patron_card_no_refugium() -> None:
    game = _refugium()
    run(game, ("evaluate", int(Region.REFUGIUM)), phase=Phase.EXPANSION_EVALUATION)
    game.apply(DECLINE)
    assert game.pending is None


def test_e99_refugium_pairs_through_the_card() -> None:
    """E99: the pairs option too (two Greeks, 3 laurels)."""
    game = blank()
    state = game.state
    b = state.brutii
    give(state, b, "greek:1", "greek:2")
    plays(state, BrutiiCard.PATRON)
    run(game, ("evaluate", int(Region.REFUGIUM)), phase=Phase.EXPANSION_EVALUATION)
    assert game.legal_actions() == [choose_option(1), DECLINE]
    game.apply(choose_option(1))
    assert pending(game) == by_card(game, DecisionKind.REFUGIUM_PAIRS)
    game.apply(pick_card(cid(state, "greek:1")))
    game.apply(pick_card(cid(state, "greek:2")))
    game.apply(COMMIT)
    assert state.players[b].laurels == 3


def _basilica(up: int = 9, matrona: tuple[int, ...] = ()) -> Game:
    """Tile ``up`` (9: scroll + pay 12) face up; P0 on basilica:1 and the Brutii each hold a scroll and 20."""
    game = blank()
    state = game.state
    b = state.brutii
    every = sorted([*state.emperor_pile, state.emperor_up])
    state.emperor_up = up
    state.matrona_tiles = list(matrona)
    state.emperor_pile = [t for t in every if t != up and t not in matrona]
    stand(state, 0, "basilica:1")
    for seat in (0, b):
        state.players[seat].tile = SCROLL
        state.players[seat].money = 20
    plays(state, BrutiiCard.FAVOR_OF_THE_EMPEROR)
    run(game, ("evaluate", int(Region.BASILICA)), phase=Phase.EXPANSION_EVALUATION)
    return game


def test_e100_r50_basilica_only_if_nobody_claimed_the_face_up_tile() -> None:
    """E100, R50: after the occupants the Brutii may claim the face-up tile, unless an occupant claimed it."""
    game = _basilica()
    state = game.state
    b = state.brutii
    game.apply(choose_tile(9))
    assert pending(game) == by_card(game, DecisionKind.BASILICA_CLAIM)
    assert game.legal_actions() == [DECLINE]
    game = _basilica()
    state = game.state
    game.apply(DECLINE)
    assert game.legal_actions() == [choose_tile(9), DECLINE]
    game.apply(choose_tile(9))
    assert state.players[b].emperor_tiles == [9] and state.players[b].money == 8


def _brutii_matrona(game: Game) -> Game:
    """The Brutii of ``_basilica(matrona=(1, 7))`` holds the Matrona and meets #7 (patron + pay 12), not #1."""
    state = game.state
    state.officials[Official.MATRONA] = state.brutii
    state.players[state.brutii].patrons = 1
    state.legal_cache = None
    return game


def test_r50_amended_no_matrona_tile_once_another_player_claimed_the_face_up_one() -> None:
    """R50 (amended), E100: once another player has claimed the face-up tile this round, the Brutii with "Favor of
    the Emperor" may claim neither it nor one of his Matrona tiles."""
    game = _brutii_matrona(_basilica(matrona=(1, 7)))
    state = game.state
    b = state.brutii
    game.apply(choose_tile(9))  # P0, the occupant, claims the face-up tile
    assert pending(game) == by_card(game, DecisionKind.BASILICA_CLAIM)
    assert game.legal_actions() == [DECLINE]
    game.apply(DECLINE)
    assert game.pending is None and state.players[b].emperor_tiles == [] and state.matrona_tiles == [1, 7]


def test_r50_amended_the_brutii_matrona_may_claim_his_tile_while_nobody_claimed_the_face_up_one() -> None:
    """R50 (amended), E55: while the face-up tile is unclaimed he may claim it or one of his Matrona tiles."""
    game = _brutii_matrona(_basilica(matrona=(1, 7)))
    state = game.state
    b = state.brutii
    game.apply(DECLINE)  # P0 claims nothing
    assert pending(game) == by_card(game, DecisionKind.BASILICA_CLAIM)
    assert game.legal_actions() == [choose_tile(9), choose_tile(7), DECLINE]
    game.apply(choose_tile(7))
    assert state.players[b].emperor_tiles == [7] and state.matrona_tiles == [1] and state.emperor_up == 9


def test_e55_a_matrona_occupant_still_claims_his_tile_after_the_face_up_one_is_gone() -> None:
    """E55: the amended R50 binds only the Brutii's card; a Matrona holder standing on the Basilica keeps his tiles."""
    game = blank()
    state = game.state
    every = sorted([*state.emperor_pile, state.emperor_up])
    state.emperor_up, state.matrona_tiles = 9, [7]
    state.emperor_pile = [t for t in every if t not in (9, 7)]
    state.officials[Official.MATRONA] = 1
    stand(state, 0, "basilica:1")
    stand(state, 1, "basilica:2")
    for seat in (0, 1):
        state.players[seat].tile = SCROLL
        state.players[seat].patrons = 1
        state.players[seat].money = 30
    run(game, ("evaluate", int(Region.BASILICA)), phase=Phase.EXPANSION_EVALUATION)
    game.apply(choose_tile(9))
    assert pending(game) == Pending(DecisionKind.BASILICA_CLAIM, 1, index=1)
    assert game.legal_actions() == [choose_tile(7), DECLINE]


def test_e100_with_his_proconsul_on_the_basilica_he_claims_once() -> None:
    """E100, R47: the card lets him act like an occupant; standing there himself, it adds no second claim."""
    game = blank()
    state = game.state
    b = state.brutii
    state.officials[Official.MATRONA] = b
    every = sorted([*state.emperor_pile, state.emperor_up])
    state.emperor_up, state.matrona_tiles = 9, [7]
    state.emperor_pile = [t for t in every if t not in (9, 7)]
    stand(state, b, "basilica:1")
    state.players[b].tile = SCROLL
    state.players[b].patrons = 1
    state.players[b].money = 30
    plays(state, BrutiiCard.FAVOR_OF_THE_EMPEROR)
    run(game, ("evaluate", int(Region.BASILICA)), phase=Phase.EXPANSION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.BASILICA_CLAIM, b, index=0)
    game.apply(choose_tile(9))
    assert game.pending is None and state.players[b].emperor_tiles == [9]


def test_e101_capitoleum_official_nobody_chose_this_round() -> None:
    """E101, R47: after the occupants the Brutii chooses an official nobody chose this round, even one another
    player holds from an earlier round."""
    game = blank()
    state = game.state
    b = state.brutii
    state.officials[Official.QUAESTOR] = 1
    stand(state, 0, "capitoleum:1")
    plays(state, BrutiiCard.OFFICIAL)
    run(game, ("evaluate", int(Region.CAPITOLEUM)), phase=Phase.EXPANSION_EVALUATION)
    game.apply(choose_official(Official.AUGUR))
    assert pending(game) == by_card(game, DecisionKind.OFFICIAL_CHOICE)
    offered = [a.official for a in game.legal_actions() if a != DECLINE]  # type: ignore[union-attr]
    assert Official.AUGUR not in offered and Official.QUAESTOR in offered
    game.apply(choose_official(Official.QUAESTOR))
    assert state.officials[Official.QUAESTOR] == b and state.officials[Official.AUGUR] == 0
    game = blank()
    stand(game.state, 0, "capitoleum:1")
    run(game, ("evaluate", int(Region.CAPITOLEUM)), phase=Phase.EXPANSION_EVALUATION)
    game.apply(DECLINE)
    assert game.pending is None  # no Official card: nothing for him


def test_e101_with_his_proconsul_on_the_capitoleum_he_chooses_once() -> None:
    game = blank()
    state = game.state
    b = state.brutii
    stand(state, b, "capitoleum:1")
    plays(state, BrutiiCard.OFFICIAL)
    run(game, ("evaluate", int(Region.CAPITOLEUM)), phase=Phase.EXPANSION_EVALUATION)
    assert pending(game) == Pending(DecisionKind.OFFICIAL_CHOICE, b, index=0)
    game.apply(choose_official(Official.AUGUR))
    assert game.pending is None


def test_e99_with_his_proconsul_on_the_refugium_he_acts_once() -> None:
    game = _refugium()
    state = game.state
    b = state.brutii
    stand(state, b, "refugium:2")
    plays(state, BrutiiCard.PATRON)
    run(game, ("evaluate", int(Region.REFUGIUM)), phase=Phase.EXPANSION_EVALUATION)
    game.apply(DECLINE)
    assert pending(game) == Pending(DecisionKind.REFUGIUM_OPTION, b, index=1)
    game.apply(DECLINE)
    assert game.pending is None


# --- take-overs (E102, R48) ---------------------------------------------------------------------------------


def _takeover_board() -> Game:
    """Gladiators: P0 alone on "1"; Legates: P1 controls [2, 3], no follower; Praetorians: the Brutii controls;
    Plebeians: chariot; Patricians: P0 on "1", P1 on "2"; Vestals, Senators: nobody."""
    game = blank()
    state = game.state
    b = state.brutii
    stand(state, 0, "faction:gladiators:1")
    control(state, 1, Faction.LEGATES, "legates:2", "legates:3")
    control(state, b, Faction.PRAETORIANS, "praetorians:1", "praetorians:2")
    state.chariot = int(Faction.PLEBEIANS)
    stand(state, 0, "faction:patricians:1")
    stand(state, 1, "faction:patricians:2")
    return game


def _phase_four(game: Game) -> None:
    run(
        game,
        ("brutii_option", int(BrutiiCard.FACTION_TAKEOVER)),
        *[("takeover", int(f)) for f in Faction],
        phase=Phase.TAKEOVERS,
    )


def _attempts(state: GameState, since: int) -> list[Faction]:
    """The factions the Brutii attempted (R48: his logged stands) in the events after ``since``."""
    names = {faction_name(state, f): f for f in Faction}
    return [
        names[e.text.split("attempts the ")[1].split(" (R48)")[0]]
        for e in state.events[since:]
        if "attempts the" in e.text
    ]


@pytest.mark.parametrize(
    ("option", "attempted"),
    [(0, [Faction.LEGATES, Faction.VESTALS, Faction.SENATORS]), (1, [Faction.GLADIATORS])],
)
def test_e102_r48_the_two_take_over_options(option: int, attempted: list[Faction]) -> None:
    """E102, R48: option 1 attempts, in board order, every faction with no follower that he does not control and
    the chariot does not block; option 2 every faction with exactly one follower (another player's, on "1")."""
    game = _takeover_board()
    state = game.state
    plays(state, BrutiiCard.FACTION_TAKEOVER)
    since = len(state.events)
    _phase_four(game)
    assert pending(game) == Pending(DecisionKind.BRUTII_TAKEOVER_OPTION, state.brutii)
    game.apply(choose_option(option))
    while game.pending is not None:
        game.apply(DECLINE)
    assert _attempts(state, since) == attempted
    assert state.brutii_options[TAKEOVER_OPTION] == option


def test_e102_option_1_lone_attempt_takes_an_empty_faction() -> None:
    """E102, R48: an uncontrolled faction with nobody on its field is taken with any set of 2 (as a lone attempt)."""
    game = _takeover_board()
    state = game.state
    b = state.brutii
    give(state, b, "senators:4", "senators:5")
    plays(state, BrutiiCard.FACTION_TAKEOVER)
    _phase_four(game)
    game.apply(choose_option(0))
    assert pending(game) == Pending(DecisionKind.TAKEOVER_SET, b, int(Faction.SENATORS), TakeoverRole.ALONE)
    game.apply(pick_card(cid(state, "senators:4")))
    game.apply(pick_card(cid(state, "senators:5")))
    game.apply(COMMIT)
    while game.pending is not None:
        game.apply(game.legal_actions()[0])
    assert state.controller[Faction.SENATORS] == b and state.players[b].markers[Faction.SENATORS]
    assert all(state.spaces[s] != b for ids in state.tables.faction_spaces for s in ids)


def test_r48_option_1_beats_a_controller_with_an_assassin() -> None:
    """R48, R31: he may play assassins in his attempts (X5's position, the Brutii attacking)."""
    game = blank()
    state = game.state
    b = state.brutii
    control(state, 2, Faction.SENATORS, "senators:4", "senators:7", "senators:9")
    give(state, b, "senators:8", "senators:10", "assassin:0")
    plays(state, BrutiiCard.FACTION_TAKEOVER)
    _phase_four(game)
    game.apply(choose_option(0))
    assert pending(game).kind is DecisionKind.TAKEOVER_SET and pending(game).faction == Faction.SENATORS
    for label in ("senators:8", "senators:10"):
        game.apply(pick_card(cid(state, label)))
    assert COMMIT not in game.legal_actions()
    game.apply(pick_card(cid(state, "assassin:0")))
    game.apply(COMMIT)
    assert state.controller[Faction.SENATORS] == b
    assert labels(state, state.sets[Faction.SENATORS]) == ["senators:10", "senators:8"]


def test_r48_option_2_stands_on_two_and_pays_the_penalty_when_one_beats_him() -> None:
    """R48, R15: option 2: he acts first as "2"; P0 on "1" answers with a stronger set; the Brutii takes his set
    back and discards one card."""
    game = _takeover_board()
    state = game.state
    b = state.brutii
    give(state, b, "gladiators:1", "gladiators:2")
    give(state, 0, "gladiators:5", "gladiators:6")
    plays(state, BrutiiCard.FACTION_TAKEOVER)
    _phase_four(game)
    game.apply(choose_option(1))
    assert pending(game) == Pending(DecisionKind.TAKEOVER_SET, b, int(Faction.GLADIATORS), TakeoverRole.SECOND_FIRST)
    game.apply(pick_card(cid(state, "gladiators:1")))
    game.apply(pick_card(cid(state, "gladiators:2")))
    game.apply(COMMIT)
    assert pending(game).seat == 0 and pending(game).index == TakeoverRole.FIRST_OVER_SECOND
    game.apply(pick_card(cid(state, "gladiators:5")))
    game.apply(pick_card(cid(state, "gladiators:6")))
    game.apply(COMMIT)
    while pending(game).kind is not DecisionKind.TAKEOVER_PENALTY:
        game.apply(game.legal_actions()[0])
    assert pending(game) == Pending(DecisionKind.TAKEOVER_PENALTY, b, int(Faction.GLADIATORS))
    game.apply(pick_card(cid(state, "gladiators:1")))
    assert state.controller[Faction.GLADIATORS] == 0 and hand(state, b) == ["gladiators:2"]


def test_e102_without_the_card_he_attempts_nothing() -> None:
    """E102: Faction Take-Over is his only way (he has no followers on faction fields)."""
    game = _takeover_board()
    state = game.state
    give(state, state.brutii, "senators:4", "senators:5")
    since = len(state.events)
    _phase_four(game)
    while game.pending is not None:
        assert pending(game).seat != state.brutii
        game.apply(DECLINE)
    assert _attempts(state, since) == []


# --- chariot (E103, R49; X19) --------------------------------------------------------------------------------


def _chariot(bids: dict[int, int], brutii_choice: Action, played: tuple[BrutiiCard, ...]) -> Game:
    game = blank()
    state = game.state
    b = state.brutii
    for seat in range(5):
        state.players[seat].money = 10
    plays(state, *played)
    run(game, ("chariot",), phase=Phase.CHARIOT_AUCTION)
    while game.pending is not None and pending(game).kind is DecisionKind.CHARIOT_BID:
        seat = pending(game).seat
        game.apply(brutii_choice if seat == b else bid(bids[seat]))
    return game


def test_r49_the_brutii_may_bid_or_opt_out_the_others_only_bid() -> None:
    """R49: the Brutii's sealed choice is a bid 0..money or opting out; a family has no opt-out."""
    game = blank()
    state = game.state
    b = state.brutii
    state.players[b].money = 3
    run(game, ("chariot",), phase=Phase.CHARIOT_AUCTION)
    while pending(game).seat != b:
        assert DECLINE not in game.legal_actions()
        game.apply(bid(0))
    assert game.legal_actions() == [bid(0), bid(1), bid(2), bid(3), DECLINE]


def test_x19_e103_chariot_payment_goes_to_the_brutii() -> None:
    """X19, E103: the Brutii opts out with Denarii; bids P0 5, P1 2, P2 0, P3 4: P0 wins and his 5 go to the
    Brutii; with P3 at 5 instead the tie leaves nobody paying and the Brutii with nothing."""
    game = _chariot({0: 5, 1: 2, 2: 0, 3: 4}, DECLINE, (BrutiiCard.DENARII,))
    state = game.state
    assert pending(game) == Pending(DecisionKind.CHARIOT_PLACEMENT, 0)
    assert [p.money for p in state.players] == [5, 10, 10, 10, 15]
    game = _chariot({0: 5, 1: 2, 2: 0, 3: 5}, DECLINE, (BrutiiCard.DENARII,))
    assert game.pending is None and [p.money for p in game.state.players] == [10] * 5


def test_e103_no_payment_to_him_if_he_bid_or_lacks_denarii() -> None:
    """E103: the payment goes to him only if he opted out and played Denarii."""
    game = _chariot({0: 5, 1: 2, 2: 0, 3: 4}, bid(1), (BrutiiCard.DENARII,))
    assert [p.money for p in game.state.players] == [5, 10, 10, 10, 10]
    game = _chariot({0: 5, 1: 2, 2: 0, 3: 4}, DECLINE, ())
    assert [p.money for p in game.state.players] == [5, 10, 10, 10, 10]


def test_r45_r49_the_opt_out_is_sealed_like_a_bid() -> None:
    """R45, R49: before the reveal the others read the same about an opt-out as about a bid."""
    game = blank()
    state = game.state
    b = state.brutii
    state.players[b].money = 5
    state.start_seat = b
    run(game, ("chariot",), phase=Phase.CHARIOT_AUCTION)
    texts = []
    views = []
    for choice in (DECLINE, bid(0), bid(5)):
        branch = game.clone()
        before = len(branch.state.events)
        branch.apply(choice)
        texts.append([e.text for e in branch.state.events[before:] if e.private_to == -1])
        views.append([player_view(branch.state, s) for s in range(4)])
    assert texts[0] == texts[1] == texts[2] and views[0] == views[1] == views[2]
    branch = game.clone()
    branch.apply(DECLINE)
    assert player_view(branch.state, b).my_bid == OPTED_OUT


# --- phase 8 (E104, E105, R50; X12) --------------------------------------------------------------------------


def test_e104_phase_8_takes_cards_back_and_turns_the_discs_down() -> None:
    """E104: in phase 8 his cards come back, his discs are face down again, his options and Veto end."""
    game = blank()
    state = game.state
    plays(state, BrutiiCard.CARDS, BrutiiCard.FACTION_TAKEOVER, BrutiiCard.VETO, cards_option=0, takeover_option=1)
    state.brutii_revealed = [int(d) for d in DISCS]
    state.veto = int(Region.CURIA)
    run(game, ("preparation",), phase=Phase.PREPARATION)
    while game.pending is not None:
        game.apply(game.legal_actions()[0])
    assert (state.brutii_played, state.brutii_revealed, state.brutii_options, state.veto) == ([], [], [-1, -1], -1)
    assert sorted(face_down(state)) == sorted(DISCS)


@pytest.mark.parametrize(("played", "tiles"), [((), 0), ((BrutiiCard.FAVOR_OF_THE_EMPEROR,), 2)])
def test_e105_r50_matrona_tiles_only_with_favor_of_the_emperor(played: tuple[BrutiiCard, ...], tiles: int) -> None:
    """E105, R50: as Matrona holder the Brutii receives the 2 tiles only if he played Favor of the Emperor this
    round; his old Matrona tiles go to the bottom either way (E67)."""
    game = blank()
    state = game.state
    b = state.brutii
    state.officials[Official.MATRONA] = b
    state.matrona_tiles = [state.emperor_pile.pop(0)]
    old = state.matrona_tiles[0]
    plays(state, *played)
    run(game, ("preparation",), phase=Phase.PREPARATION)
    assert len(state.matrona_tiles) == tiles and state.emperor_pile[0] == old


def test_x12_e105_quaestor_with_six_seats() -> None:
    """X12 (6 seats, the Brutii): each of the 5 opponents pays 1, the Quaestor gets +8; the Brutii pays like
    anyone, and as Quaestor collects like anyone."""
    for quaestor in (1, 5):
        game = blank(6)
        state = game.state
        for player in state.players:
            player.money = 10
        state.officials[Official.QUAESTOR] = quaestor
        run(game, ("quaestor",), phase=Phase.PREPARATION)
        assert [p.money for p in state.players] == [18 if s == quaestor else 9 for s in range(6)]


def test_e105_the_brutii_takes_part_in_phase_8_as_augur() -> None:
    """E105: the Augur's draw works for the Brutii too."""
    game = blank()
    state = game.state
    b = state.brutii
    state.officials[Official.AUGUR] = b
    run(game, ("preparation",), phase=Phase.PREPARATION)
    assert pending(game) == Pending(DecisionKind.AUGUR_DISCARD, b)
    game.apply(game.legal_actions()[0])
    assert state.players[b].hand_size == 2


# --- victory (E106) -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_e106_the_with_brutii_row_counts_for_everyone(players: int) -> None:
    """E106: a Brutii game needs the card's "with Brutii" row, for the Brutii and the families alike."""
    spec = COMPONENTS.expansion
    assert spec is not None
    for card in spec.victory_cards:
        config = GameConfig(players=players, expansion=True, brutii=True, victory_card=card.id)
        assert config.required(card) == card.required_brutii[players]
    game = Game.new(players=players, seed=0, expansion=True, brutii=True, victory_card="sic_transit")
    state = game.python_state()
    need = state.config.required(next(c for c in spec.victory_cards if c.id == "sic_transit"))
    for seat in (state.brutii, 0):
        player = state.players[seat]
        player.laurels = player.legions = 0
        player.markers = [False] * len(player.markers)
        holdings = [("tile", TRIBUNE), ("eternal_favor", True), ("patrons", 1)][:need]
        for name, value in holdings[:-1]:
            setattr(player, name, value)
        refresh(state, seat)
        assert state.fulfilled_since[seat] < 0
        setattr(player, *holdings[-1])
        refresh(state, seat)
        assert state.fulfilled_since[seat] >= 0


# --- E107: the four reconstructed cards (R51-R54) ------------------------------------------------------------


def test_e107_e89_the_reconstructed_cards_and_their_numbers() -> None:
    """E107, E89: Buy a Legion, Slave Cards, Mass Murder and Veto act at once; their reconstructed numbers (R51-R53)
    live in the component file: a legion for 5, 2 cards laid per slave, sets of 3 or more murdered."""
    assert IMMEDIATE_CARDS == (BrutiiCard.BUY_A_LEGION, BrutiiCard.SLAVE_CARDS, BrutiiCard.MASS_MURDER, BrutiiCard.VETO)
    assert (SPEC.legion_price, SPEC.slave_lay, SPEC.mass_murder_set) == (5, 2, 3)


def test_r51_buy_a_legion_for_the_printed_price() -> None:
    """R51: without a Legates set he may buy one legion for 5; he may also decline."""
    for choice, legions, money in ((COMMIT, 1, 1), (DECLINE, 0, 6)):
        game = one_turn(BrutiiDisc.ARROW)
        state = game.state
        b = state.brutii
        state.players[b].money = 6
        game.apply(choose_action_card(BrutiiCard.BUY_A_LEGION))
        assert game.legal_actions() == [COMMIT, DECLINE]
        game.apply(choice)
        assert (state.players[b].legions, state.players[b].money) == (legions, money)
        assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)


def test_r51_the_legates_set_sets_the_price_and_poverty_skips_the_offer() -> None:
    """R51: with a displayed Legates set the price is its sum; unable to pay, he is not asked."""
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    b = state.brutii
    control(state, b, Faction.LEGATES, "legates:3", "legates:4")
    state.players[b].money = 7
    game.apply(choose_action_card(BrutiiCard.BUY_A_LEGION))
    game.apply(COMMIT)
    assert (state.players[b].legions, state.players[b].money) == (1, 0)
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    state.players[state.brutii].money = SPEC.legion_price - 1
    game.apply(choose_action_card(BrutiiCard.BUY_A_LEGION))
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0) and state.players[state.brutii].legions == 0


def test_r52_slave_cards_in_board_order_while_he_has_two_cards() -> None:
    """R52: every face-up slave on a free Thermae, Forum or Curia field, in board order, for 2 cards of his hand
    laid on that field, while he holds 2 cards; occupied fields, other regions and a vetoed region are skipped."""
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    b = state.brutii
    lay(state, Region.THERMAE, 0, "greek:3")
    lay(state, Region.THERMAE, 1, "nubian:1")
    stand(state, 0, "thermae:2")
    lay(state, Region.FORUM, 2, "germanian:2")
    lay(state, Region.LATRINE, 0, "greek:1")
    lay(state, Region.CURIA, 0, "senators:4", "greek:5")
    give(state, b, "legates:1", "legates:2", "plebeians:1")
    game.apply(choose_action_card(BrutiiCard.SLAVE_CARDS))
    assert pending(game) == Pending(DecisionKind.BRUTII_SLAVES, b)
    game.apply(pick_card(cid(state, "legates:1")))
    game.apply(pick_card(cid(state, "legates:2")))
    assert labels(state, state.fields[Region.THERMAE][0]) == ["legates:1", "legates:2"]
    assert hand(state, b) == ["greek:3", "plebeians:1"]
    assert pending(game) == Pending(DecisionKind.BRUTII_SLAVES, b)
    for label in sorted(("greek:3", "plebeians:1"), key=lambda x: cid(state, x)):  # ascending card types
        game.apply(pick_card(cid(state, label)))
    assert labels(state, state.fields[Region.FORUM][2]) == ["greek:3", "plebeians:1"]
    assert hand(state, b) == ["germanian:2"]  # one card: the Curia's Greek stays
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)
    assert labels(state, state.fields[Region.CURIA][0]) == ["greek:5", "senators:4"]
    assert labels(state, state.fields[Region.THERMAE][1]) == ["nubian:1"]
    assert sum(state.card_counts()) == sum(state.tables.card_copies)


def test_r52_r54_a_vetoed_region_keeps_its_slaves() -> None:
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    b = state.brutii
    state.veto = int(Region.THERMAE)
    lay(state, Region.THERMAE, 0, "greek:3")
    give(state, b, "legates:1", "legates:2")
    game.apply(choose_action_card(BrutiiCard.SLAVE_CARDS))
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)
    assert hand(state, b) == ["legates:1", "legates:2"]


def test_xs2_r53_mass_murder() -> None:
    """XS2, R53: every displayed set of 3 or more, his own included, loses its highest card to the discard."""
    game = one_turn(BrutiiDisc.ARROW)
    state = game.state
    b = state.brutii
    control(state, 0, Faction.SENATORS, "senators:4", "senators:7", "senators:9")
    control(state, 1, Faction.LEGATES, "legates:2", "legates:3")
    control(state, 2, Faction.GLADIATORS, "gladiators:1", "gladiators:2", "gladiators:3", "gladiators:6")
    control(state, b, Faction.VESTALS, "vestals:3", "vestals:4", "vestals:5")
    game.apply(choose_action_card(BrutiiCard.MASS_MURDER))
    sets = {f: labels(state, state.sets[f]) for f in (Faction.SENATORS, Faction.LEGATES, Faction.GLADIATORS)}
    assert sets == {
        Faction.SENATORS: ["senators:4", "senators:7"],
        Faction.LEGATES: ["legates:2", "legates:3"],
        Faction.GLADIATORS: ["gladiators:1", "gladiators:2", "gladiators:3"],
    }
    assert labels(state, state.sets[Faction.VESTALS]) == ["vestals:3", "vestals:4"]
    assert labels(state, state.discard) == ["gladiators:6", "senators:9", "vestals:5"]
    assert [state.controller[f] for f in (Faction.SENATORS, Faction.GLADIATORS, Faction.VESTALS)] == [0, 2, b]


def test_r54_veto_closes_a_region_for_the_round() -> None:
    """R54: he names one of the 11 regions; no follower may go there for the rest of the round; at its
    evaluation the followers already there go home with no effect and its cards are discarded (his own card
    action there included)."""
    game = one_turn(BrutiiDisc.ARROW, next_followers=2)
    state = game.state
    b = state.brutii
    game.apply(choose_action_card(BrutiiCard.VETO))
    assert game.legal_actions() == [choose_region(int(r)) for r in Region]
    game.apply(choose_region(int(Region.FORUM)))
    assert state.veto == int(Region.FORUM)
    forum = set(state.tables.region_spaces[Region.FORUM])
    assert all(s not in forum for seat in range(5) for s in legal_spaces(state, seat))
    assert pending(game) == Pending(DecisionKind.PLACE_FOLLOWER, 0)
    lay(state, Region.FORUM, 0, "senators:4")
    lay(state, Region.FORUM, 1, "legates:4")
    stand(state, 1, "forum:1")  # placed before the Veto
    state.players[1].money = 3
    plays(state, BrutiiCard.VETO, BrutiiCard.CARDS, cards_option=0)
    state.veto = int(Region.FORUM)
    run(game, ("evaluate", int(Region.FORUM)), phase=Phase.REGION_EVALUATION)
    assert hand(state, 1) == [] and state.players[1].money == 3 and hand(state, b) == []
    assert labels(state, state.discard) == ["legates:4", "senators:4"]
    assert all(state.spaces[s] < 0 for s in forum)


# --- the options' timing (R46) ---------------------------------------------------------------------------------


def test_r46_cards_at_the_start_of_phase_3_take_over_at_the_start_of_phase_4() -> None:
    """R46: the option of Cards is chosen before any region of phase 3 is evaluated; that of Faction Take-Over
    before the first take-over; an unplayed card asks nothing."""
    game = blank()
    state = game.state
    plays(state, BrutiiCard.CARDS, BrutiiCard.FACTION_TAKEOVER)
    stand(state, 0, "latrine:1")
    lay(state, Region.LATRINE, 0, "senators:7")
    state.agenda = []
    push(state, *round_tasks(state, Phase.REGION_EVALUATION))
    advance(state)
    assert pending(game) == Pending(DecisionKind.BRUTII_CARDS_OPTION, state.brutii)
    assert game.phase is Phase.REGION_EVALUATION and state.fields[Region.LATRINE][0]
    game.apply(choose_option(1))
    assert state.brutii_options[CARDS_OPTION] == 1
    assert pending(game).kind is DecisionKind.LATRINE_CHOICE
    game.apply(choose_option(0))
    assert pending(game) == Pending(DecisionKind.BRUTII_TAKEOVER_OPTION, state.brutii)
    assert state.phase is Phase.TAKEOVERS
    game.apply(choose_option(0))
    assert state.brutii_options == [1, 0]
    game = blank()
    state = game.state
    push(state, *round_tasks(state, Phase.REGION_EVALUATION))
    advance(state)
    assert game.pending is None or not pending(game).kind.brutii
    assert state.brutii_options == [-1, -1]


def test_r46_an_option_is_chosen_once() -> None:
    """R46: a chosen option is kept for the round; the record refuses a second choice."""
    game = blank()
    state = game.state
    plays(state, BrutiiCard.CARDS)
    run(game, ("brutii_option", int(BrutiiCard.CARDS)), phase=Phase.REGION_EVALUATION)
    game.apply(choose_option(0))
    check = DECISIONS[DecisionKind.BRUTII_CARDS_OPTION].check
    assert "once" in check(state, Pending(DecisionKind.BRUTII_CARDS_OPTION, state.brutii))
    assert state.brutii_options == [0, -1]
