"""The expansion officials and phase 8: Princeps (E29, R37, X14), Tribunus Plebis (E45, R38), the emperor tile pile
and the Matrona (E63, E66, E67, R35, X10), Augur (E61, R39), Quaestor (E62, R40, X12), phase 8 order (E68).

Positions are built from a fresh expansion game whose state fields are edited, then only the steps under test are
put on the agenda (the JSON reader for expansion documents is not used here).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tribune_env import Faction, Game
from tribune_env.data import Official, Region
from tribune_env.engine.actions import DECLINE, choose_faction, choose_option, pick_card, place_follower
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.flow import advance, apply_action, legal_actions
from tribune_env.engine.ops import push
from tribune_env.engine.registry import DECISIONS
from tribune_env.engine.rounds import round_tasks
from tribune_env.engine.state import NO_TILE, SCROLL, TRIBUNE, GameState, Task

TILES = set(range(1, 11))


def expansion_game(players: int = 4, seed: int = 0) -> Game:
    """A fresh expansion game, its set-up still pending (hands dealt, board empty)."""
    return Game.new(players=players, seed=seed, expansion=True, auto_forced=False)


def run(state: GameState, *tasks: Task) -> None:
    """Replace the agenda by ``tasks`` and run them up to the first decision (or to their end)."""
    state.pending = None
    state.legal_cache = None
    state.agenda = []
    push(state, *tasks)
    advance(state)


def top_first(state: GameState) -> list[int]:
    """The emperor tile pile, top first (the state keeps the top at the end)."""
    return state.emperor_pile[::-1]


def set_pile(state: GameState, tiles_top_first: list[int]) -> None:
    state.emperor_pile = tiles_top_first[::-1]


def tile_places(state: GameState) -> list[int]:
    """Every emperor tile id, once per place it lies in (pile, face up, Matrona, claimed)."""
    places = [*state.emperor_pile, *state.matrona_tiles]
    if state.emperor_up >= 0:
        places.append(state.emperor_up)
    for player in state.players:
        places.extend(player.emperor_tiles)
    return places


def park_deck(state: GameState) -> None:
    """Move the draw and discard piles onto a board field, out of reach of any draw."""
    state.fields[Region.FORUM][0].extend(state.draw + state.discard)
    state.draw, state.discard = [], []


# --- Princeps (E29, R37) ------------------------------------------------------------------


def placement_seats(state: GameState) -> list[int]:
    """Run phase 2, every follower on the coin bowl; the deciding seat of each placement."""
    run(state, ("placement",))
    seats: list[int] = []
    while state.pending is not None:
        assert state.pending.kind is DecisionKind.PLACE_FOLLOWER
        seats.append(state.pending.seat)
        apply_action(state, place_follower(state.tables.coin_bowl))
    return seats


def test_x14_princeps_places_two_per_turn() -> None:
    """X14 (E29, R37): 4 players, start seat 0, P1 holds the Princeps, 6 followers each, no proconsul."""
    state = expansion_game().python_state()
    state.officials[Official.PRINCEPS] = 1
    state.start_seat, state.proconsul = 0, -1
    assert state.config.followers == 6
    expected = [0, 1, 1, 2, 3] * 3 + [0, 2, 3] * 3
    assert placement_seats(state) == expected
    assert state.placed_this_turn == 0


def test_r37_princeps_with_proconsul_places_one_when_one_is_left() -> None:
    """R37: the proconsul counts as one of the Princeps' followers; 7 followers go 2, 2, 2, 1."""
    state = expansion_game(players=3).python_state()
    state.officials[Official.PRINCEPS] = 2
    state.start_seat, state.proconsul = 1, 2
    seats = placement_seats(state)
    assert seats == [1, 2, 2, 0] * 3 + [1, 2, 0] + [1, 0] * 2


def test_r37_princeps_on_the_capitoleum_changes_nothing() -> None:
    """R7: without a Princeps holder every player places one follower per turn."""
    state = expansion_game(players=3).python_state()
    state.start_seat, state.proconsul = 2, -1
    assert placement_seats(state) == [2, 0, 1] * 6


def test_r37_loaded_mid_turn_only_for_the_princeps() -> None:
    """A pending placement with ``placed_this_turn`` set fits only the Princeps holder (record check)."""
    state = expansion_game().python_state()
    state.officials[Official.PRINCEPS] = 1
    state.placed_this_turn = 1
    check = DECISIONS[DecisionKind.PLACE_FOLLOWER].check
    assert check(state, Pending(DecisionKind.PLACE_FOLLOWER, 1)) == ""
    assert "Princeps" in check(state, Pending(DecisionKind.PLACE_FOLLOWER, 2))


# --- Tribunus Plebis (E45, R38) -----------------------------------------------------------


PHASE_5: tuple[Task, ...] = (
    ("tribunus_plebis",),
    *[("benefit", int(f)) for f in Faction],
    ("benefits_end",),
)


def tribunus_position(controlled: list[Faction], tile: int = SCROLL) -> GameState:
    """P1 holds the Tribunus Plebis and controls ``controlled``."""
    state = expansion_game().python_state()
    state.officials[Official.TRIBUNUS_PLEBIS] = 1
    state.players[1].tile = tile
    for faction in controlled:
        state.controller[faction] = 1
        state.sets[faction] = []
    return state


def test_e45_r38_naming_blocks_benefits_and_turns_the_tile() -> None:
    """E45/R38: two named factions give no benefit; the tile turns to the tribune side at once."""
    state = tribunus_position([Faction.PRAETORIANS, Faction.PLEBEIANS, Faction.PATRICIANS])
    run(state, *PHASE_5)
    first = Pending(DecisionKind.TRIBUNUS_PLEBIS, 1)
    assert state.pending == first
    assert state.phase is Phase.FACTION_BENEFITS
    controlled = [Faction.PRAETORIANS, Faction.PLEBEIANS, Faction.PATRICIANS]
    assert legal_actions(state) == [*(choose_faction(f) for f in controlled[:2]), DECLINE]  # a second must follow
    apply_action(state, choose_faction(Faction.PRAETORIANS))
    assert state.pending == Pending(DecisionKind.TRIBUNUS_PLEBIS, 1, Faction.PRAETORIANS)
    assert legal_actions(state) == [choose_faction(Faction.PLEBEIANS), choose_faction(Faction.PATRICIANS), DECLINE]
    legions = state.players[1].legions
    apply_action(state, choose_faction(Faction.PATRICIANS))
    assert state.players[1].tile == TRIBUNE
    # The Plebeians still give a benefit, but its tribune option needs a scroll, now turned (at once).
    assert state.pending == Pending(DecisionKind.BENEFIT_OPTION, 1, Faction.PLEBEIANS)
    assert legal_actions(state) == [choose_option(0)]
    assert state.benefit_blocked[Faction.PRAETORIANS] and state.benefit_blocked[Faction.PATRICIANS]
    apply_action(state, choose_option(0))
    assert state.players[1].legions == legions  # no Praetorians benefit
    assert state.proconsul == -1  # no Patricians benefit
    assert not any(state.benefit_blocked)  # benefits_end
    assert any("Tribunus Plebis" in e.text and e.private_to == -1 for e in state.events)


def test_r38_second_name_only_after_the_first() -> None:
    """Each pair of factions has one naming sequence: the second name comes after the first in board order, and
    the last controlled faction is never a first name (no dead end)."""
    state = tribunus_position([Faction.GLADIATORS, Faction.SENATORS])
    run(state, ("tribunus_plebis",))
    assert legal_actions(state) == [choose_faction(Faction.GLADIATORS), DECLINE]
    apply_action(state, choose_faction(Faction.GLADIATORS))
    assert legal_actions(state) == [choose_faction(Faction.SENATORS), DECLINE]


def test_e45_r38_decline_keeps_everything() -> None:
    """R38: declining (at the first or the second name) keeps the scroll and every benefit."""
    for first in (False, True):
        state = tribunus_position([Faction.PRAETORIANS, Faction.PATRICIANS])
        run(state, *PHASE_5)
        legions = state.players[1].legions
        if first:
            apply_action(state, choose_faction(Faction.PRAETORIANS))
        apply_action(state, DECLINE)
        assert state.pending is None
        assert state.players[1].tile == SCROLL
        assert state.players[1].legions > legions
        assert state.proconsul == 1
        assert not any(state.benefit_blocked)


def test_e45_r38_not_offered_without_scroll_or_two_factions() -> None:
    """R38: a holder without a scroll, with a single faction, or no holder at all: no decision."""
    for state in (
        tribunus_position([Faction.PRAETORIANS, Faction.PATRICIANS], tile=NO_TILE),
        tribunus_position([Faction.PRAETORIANS, Faction.PATRICIANS], tile=TRIBUNE),
        tribunus_position([Faction.PRAETORIANS]),
    ):
        run(state, ("tribunus_plebis",))
        assert state.pending is None
    state = tribunus_position([Faction.PRAETORIANS, Faction.PATRICIANS])
    state.officials[Official.TRIBUNUS_PLEBIS] = -1
    run(state, ("tribunus_plebis",))
    assert state.pending is None


def test_r38_record_checks_loaded_positions() -> None:
    state = tribunus_position([Faction.PRAETORIANS, Faction.PATRICIANS])
    check = DECISIONS[DecisionKind.TRIBUNUS_PLEBIS].check
    assert check(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, 1)) == ""
    assert check(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, 1, Faction.PATRICIANS)) == ""
    assert check(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, 0)) != ""
    assert check(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, 1, Faction.SENATORS)) != ""
    state.players[1].tile = TRIBUNE
    assert check(state, Pending(DecisionKind.TRIBUNUS_PLEBIS, 1)) != ""


# --- emperor tiles and the Matrona (E63, E66, E67, R35) -------------------------------------


def test_x10_phase_8_matrona() -> None:
    """X10 phase 8: #1 and #9 claimed in phase 6; #6 turned up, P2 receives #7 and #2, #4 to the bottom."""
    state = expansion_game().python_state()
    state.officials[Official.MATRONA] = 2
    state.players[0].emperor_tiles = [1]
    state.players[2].emperor_tiles = [9]
    state.matrona_tiles = [4]  # #9 was claimed from [#4, #9]
    state.emperor_up = -1  # #1 claimed
    set_pile(state, [6, 7, 2, 8, 10, 3, 5])
    run(state, ("preparation",))
    assert state.phase is Phase.PREPARATION
    assert state.emperor_up == 6
    assert state.matrona_tiles == [7, 2]
    assert top_first(state) == [8, 10, 3, 5, 4]
    assert sorted(tile_places(state)) == sorted(TILES)


def test_e66_unclaimed_face_up_tile_goes_to_the_bottom() -> None:
    state = expansion_game().python_state()
    state.emperor_up = 3
    set_pile(state, [6, 7, 2])
    run(state, ("preparation",))
    assert state.emperor_up == 6
    assert top_first(state) == [7, 2, 3]
    assert state.matrona_tiles == []  # no Matrona holder: no tiles taken


def test_e67_unclaimed_matrona_tiles_go_to_the_bottom_even_if_kept() -> None:
    """E67: the holder keeps the Matrona; his old tiles go under the pile one by one, lowest id first (so the
    highest ends at the very bottom); he gets two new ones."""
    state = expansion_game().python_state()
    state.officials[Official.MATRONA] = 3
    state.matrona_tiles = [9, 4]
    state.emperor_up = -1
    set_pile(state, [1, 2, 3, 5, 6])
    run(state, ("preparation",))
    assert state.emperor_up == 1
    assert state.matrona_tiles == [2, 3]
    assert top_first(state) == [5, 6, 4, 9]


def test_e67_old_matrona_tiles_go_down_without_a_holder() -> None:
    state = expansion_game().python_state()
    state.matrona_tiles = [8]
    state.emperor_up = -1
    set_pile(state, [1, 2])
    run(state, ("preparation",))
    assert (state.emperor_up, state.matrona_tiles, top_first(state)) == (1, [], [2, 8])


def test_r35_empty_pile_keeps_the_face_up_tile() -> None:
    """R35: an empty pile at (1) leaves the unclaimed tile face up; the Matrona gets nothing."""
    state = expansion_game().python_state()
    state.officials[Official.MATRONA] = 0
    state.matrona_tiles = [4, 9]
    state.emperor_up = 5
    state.emperor_pile = []
    run(state, ("preparation",))
    assert state.emperor_up == 5
    assert state.matrona_tiles == []
    assert top_first(state) == [4, 9]


def test_r35_empty_pile_and_claimed_tile_leaves_nothing_face_up() -> None:
    state = expansion_game().python_state()
    state.emperor_up = -1
    state.emperor_pile = []
    run(state, ("preparation",))
    assert state.emperor_up == -1 and state.emperor_pile == []


def test_r35_short_pile_gives_what_there_is() -> None:
    """R35 (3): a short pile gives the Matrona what is left, in the R35 order (the unclaimed tile first goes under)."""
    state = expansion_game().python_state()
    state.officials[Official.MATRONA] = 1
    state.emperor_up = -1
    set_pile(state, [8, 7])
    run(state, ("preparation",))
    assert (state.emperor_up, state.matrona_tiles, state.emperor_pile) == (8, [7], [])
    state = expansion_game().python_state()
    state.officials[Official.MATRONA] = 1
    state.emperor_up = 3
    set_pile(state, [7])
    run(state, ("preparation",))
    assert (state.emperor_up, state.matrona_tiles, state.emperor_pile) == (7, [3], [])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_r35_every_tile_in_exactly_one_place(data: st.DataObject) -> None:
    """R35: across many phase-8 runs (with claims in between) the 10 tiles are always each in one place."""
    players = data.draw(st.sampled_from([2, 3, 4, 5]))
    state = expansion_game(players=players).python_state()
    assert sorted(tile_places(state)) == sorted(TILES)
    for _ in range(data.draw(st.integers(1, 12))):
        state.officials[Official.MATRONA] = data.draw(st.integers(-1, players - 1))
        if state.emperor_up >= 0 and data.draw(st.booleans()):
            state.players[data.draw(st.integers(0, players - 1))].emperor_tiles.append(state.emperor_up)
            state.emperor_up = -1
        holder = state.officials[Official.MATRONA]
        if holder >= 0 and state.matrona_tiles and data.draw(st.booleans()):
            tile = data.draw(st.sampled_from(state.matrona_tiles))
            state.matrona_tiles.remove(tile)
            state.players[holder].emperor_tiles.append(tile)
        run(state, ("preparation",))
        places = tile_places(state)
        assert sorted(places) == sorted(TILES) and len(places) == len(TILES)


# --- Augur (E61, R39) --------------------------------------------------------------------


def augur_position(draw_top_first: list[int]) -> GameState:
    """P2 holds the Augur; the draw pile holds exactly ``draw_top_first`` (the other cards are parked)."""
    state = expansion_game().python_state()
    park_deck(state)
    pool = state.fields[Region.FORUM][0]
    for card in draw_top_first:
        pool.remove(card)
    state.draw = draw_top_first[::-1]
    state.officials[Official.AUGUR] = 2
    return state


def test_e61_r39_augur_keeps_two_of_three() -> None:
    cards = [5, 0, 5, 9]  # the top three (5, 0, 5) are drawn; 9 stays
    state = augur_position(cards)
    counts = state.card_counts()
    hand = state.players[2].hand[:]
    run(state, ("preparation",))
    assert state.pending == Pending(DecisionKind.AUGUR_DISCARD, 2)
    assert sorted(state.augur_cards) == [0, 5, 5]
    assert legal_actions(state) == [pick_card(0), pick_card(5)]
    assert state.card_counts() == counts
    private = [e for e in state.events if e.private_to == 2 and "Augur" in e.text]
    assert len(private) == 3
    apply_action(state, pick_card(0))
    assert state.pending is None
    assert state.augur_cards == []
    assert state.discard == [0]
    assert state.draw == [9]
    hand[5] += 2
    assert state.players[2].hand == hand
    assert state.card_counts() == counts
    assert state.events[-1].text.endswith("(Augur)")
    assert not any(e.private_to == -1 and state.tables.card_name(0) in e.text for e in state.events[-4:])


def test_r39_fewer_than_three_drawn_keeps_all() -> None:
    """R39/R5: the deck runs out (cesura magna takes nothing); the Augur keeps what he drew, no decision."""
    state = augur_position([3, 4])
    counts = state.card_counts()
    hand = state.players[2].hand[:]
    run(state, ("preparation",))
    assert state.pending is None
    hand[3] += 1
    hand[4] += 1
    assert state.players[2].hand == hand
    assert state.card_counts() == counts
    assert any("cesura magna" in e.text for e in state.events)


def test_r39_r5_reshuffle_and_cesura_feed_the_augur() -> None:
    """R5: an empty draw pile is refilled from the discards; with both empty, cesura magna runs, then drawing
    goes on."""
    state = augur_position([3])
    state.discard = [state.fields[Region.FORUM][0].pop()]
    size = state.players[2].hand_size
    run(state, ("preparation",))
    assert state.pending is None and state.players[2].hand_size == size + 2  # 2 drawn, both kept (R39)
    state = augur_position([3])
    pool = state.fields[Region.FORUM][0]
    faction_cards = [c for c in state.tables.faction_cards[Faction.LEGATES] if c in pool][:4]
    assert len(faction_cards) == 4
    for card in faction_cards:
        pool.remove(card)
    state.sets[Faction.LEGATES] = list(faction_cards)
    state.controller[Faction.LEGATES] = 0
    counts = state.card_counts()
    run(state, ("preparation",))  # 1 drawn, cesura: the set loses its 2 lowest, which the Augur draws
    assert state.pending == Pending(DecisionKind.AUGUR_DISCARD, 2)
    assert len(state.augur_cards) == 3 and len(state.sets[Faction.LEGATES]) == 2
    assert state.card_counts() == counts


def test_r39_record_checks_loaded_positions() -> None:
    state = augur_position([1, 2, 3])
    check = DECISIONS[DecisionKind.AUGUR_DISCARD].check
    assert check(state, Pending(DecisionKind.AUGUR_DISCARD, 2)) != ""  # no drawn cards
    state.augur_cards = [1, 2, 3]
    assert check(state, Pending(DecisionKind.AUGUR_DISCARD, 2)) == ""
    assert check(state, Pending(DecisionKind.AUGUR_DISCARD, 1)) != ""


# --- Quaestor (E62, R40) and the phase 8 order (E68) ----------------------------------------


def test_x12_quaestor_four_players() -> None:
    """X12: P1 5 -> 14; P0 10 -> 8, P2 1 -> 0, P3 0 -> 0 (the stock pays the shortfalls)."""
    state = expansion_game().python_state()
    state.officials[Official.QUAESTOR] = 1
    for player, money in zip(state.players, [10, 5, 1, 0], strict=True):
        player.money = money
    run(state, ("quaestor",))
    assert [p.money for p in state.players] == [8, 14, 0, 0]


def test_x12_quaestor_two_players() -> None:
    """X12: with 2 players the opponent pays 4 and the Quaestor gets +7 (shortfall or not)."""
    for opponent_money, left in ((10, 6), (1, 0)):
        state = expansion_game(players=2).python_state()
        state.officials[Official.QUAESTOR] = 0
        state.players[0].money, state.players[1].money = 5, opponent_money
        run(state, ("quaestor",))
        assert (state.players[0].money, state.players[1].money) == (12, left)


def test_e62_no_quaestor_no_payment() -> None:
    state = expansion_game().python_state()
    before = [p.money for p in state.players]
    run(state, ("quaestor",))
    assert [p.money for p in state.players] == before


def test_e68_phase_8_order() -> None:
    """E68/R40: emperor tiles, then the Augur (his discard before any payment), then the Quaestor."""
    state = augur_position([1, 2, 3])
    state.officials[Official.AUGUR] = 0
    state.officials[Official.QUAESTOR] = 0
    state.players[1].money = 10
    state.emperor_up = -1
    set_pile(state, [6, 7])
    start = len(state.events)
    run(state, ("preparation",))
    assert state.emperor_up == 6
    assert state.pending == Pending(DecisionKind.AUGUR_DISCARD, 0)
    assert state.players[1].money == 10  # the Quaestor has not acted yet
    apply_action(state, pick_card(2))
    assert state.players[1].money < 10
    texts = [e.text for e in state.events[start:] if e.private_to == -1]
    turned = next(i for i, t in enumerate(texts) if "turned face up" in t)
    augur = next(i for i, t in enumerate(texts) if "Augur" in t)
    quaestor = next(i for i, t in enumerate(texts) if "Quaestor" in t)
    assert turned < augur < quaestor


def test_e70_round_end_follows_phase_8() -> None:
    """E69/E70: the expansion round's agenda ends with phase 8, then the round end (victory check)."""
    state = expansion_game().position()
    tasks = round_tasks(state)
    assert tasks[-2:] == [("preparation",), ("round_end",)]
