"""Expansion phase 6: the Refugium, the Basilica and the Capitoleum (E25-E28, E46-E60; R33, R34, R36; X3, X8, X10).

Positions are built from a new expansion game whose state is edited directly (the JSON reader does not read
expansion documents yet): every hand goes back to the draw pile, then the test hands out what it needs.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tribune_env import Game
from tribune_env.data import Nationality, Official, Region
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    Commit,
    PickCard,
    choose_official,
    choose_option,
    choose_tile,
)
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.flow import advance
from tribune_env.engine.follower_placement import legal_spaces
from tribune_env.engine.ops import push
from tribune_env.engine.registry import REGIONS
from tribune_env.engine.state import SCROLL, GameState

PATRON, PAIRS = choose_option(0), choose_option(1)


# --- position helpers ------------------------------------------------------------------------------------


def board(players: int = 4, seed: int = 0) -> Game:
    """An expansion game at the start of phase 6 with empty hands (all cards in the draw pile), no denarii and
    no agenda."""
    game = Game.new(players=players, seed=seed, expansion=True, auto_forced=False)
    state = game.python_state()
    for player in state.players:
        player.money = 0
        for card, n in enumerate(player.hand):
            state.draw.extend([card] * n)
        player.hand = [0] * len(player.hand)
    state.pending = None
    state.legal_cache = None
    state.agenda = []
    state.phase = Phase.EXPANSION_EVALUATION
    return game


def card(state: GameState, label: str) -> int:
    return state.tables.card_id(label)


def give(state: GameState, seat: int, *labels: str) -> None:
    """Move the named cards from the draw pile to the hand of ``seat``."""
    for label in labels:
        c = card(state, label)
        state.draw.remove(c)
        state.players[seat].hand[c] += 1


def hand(state: GameState, seat: int) -> list[str]:
    return sorted(state.tables.card_label[c] for c, n in enumerate(state.players[seat].hand) for _ in range(n))


def space(state: GameState, label: str) -> int:
    return next(s.id for s in state.tables.spaces if s.label == label)


def stand(state: GameState, seat: int, label: str) -> None:
    state.spaces[space(state, label)] = seat


def evaluate(game: Game, region: Region) -> None:
    """Queue the evaluation of ``region`` (with the common clean-up) and run up to the first decision."""
    push(game.state, ("evaluate", int(region)))
    advance(game.state)


def tiles(state: GameState, up: int, matrona: tuple[int, ...] = ()) -> None:
    """Put tile ``up`` face up and ``matrona`` with the Matrona holder; the rest stay in the pile (conserved)."""
    every = sorted([*state.emperor_pile, state.emperor_up, *state.matrona_tiles])
    state.emperor_up = up
    state.matrona_tiles = list(matrona)
    state.emperor_pile = [t for t in every if t != up and t not in matrona]


def markers(state: GameState, seat: int, n: int) -> None:
    state.players[seat].markers = [i < n for i in range(len(state.players[seat].markers))]


def pending(game: Game) -> Pending:
    assert game.pending is not None
    return game.pending


# --- placement (E25-E28) ------------------------------------------------------------------------------


def _region_choices(state: GameState, seat: int, region: Region) -> list[str]:
    ids = set(state.tables.region_spaces[region])
    return [state.tables.spaces[s].label for s in legal_spaces(state, seat) if s in ids]


def test_e26_refugium_any_free_space_one_per_player() -> None:
    state = board().state
    assert _region_choices(state, 0, Region.REFUGIUM) == ["refugium:1", "refugium:2", "refugium:3"]
    stand(state, 0, "refugium:2")
    assert _region_choices(state, 0, Region.REFUGIUM) == []
    assert _region_choices(state, 1, Region.REFUGIUM) == ["refugium:1", "refugium:3"]
    assert REGIONS[Region.REFUGIUM].check(state) == ""
    stand(state, 0, "refugium:3")
    assert REGIONS[Region.REFUGIUM].check(state)


def test_e27_basilica_one_then_two_never_both() -> None:
    state = board().state
    assert _region_choices(state, 0, Region.BASILICA) == ["basilica:1"]
    stand(state, 0, "basilica:1")
    assert _region_choices(state, 0, Region.BASILICA) == []
    assert _region_choices(state, 1, Region.BASILICA) == ["basilica:2"]
    stand(state, 1, "basilica:2")
    assert _region_choices(state, 2, Region.BASILICA) == []
    assert REGIONS[Region.BASILICA].check(state) == ""
    stand(state, 0, "basilica:2")
    assert REGIONS[Region.BASILICA].check(state)  # one player on both
    stand(state, -1, "basilica:1")
    assert REGIONS[Region.BASILICA].check(state)  # "2" without "1"


def test_e28_capitoleum_in_order_one_per_player() -> None:
    state = board().state
    assert _region_choices(state, 0, Region.CAPITOLEUM) == ["capitoleum:1"]
    stand(state, 0, "capitoleum:1")
    assert _region_choices(state, 0, Region.CAPITOLEUM) == []
    assert _region_choices(state, 1, Region.CAPITOLEUM) == ["capitoleum:2"]
    stand(state, 1, "capitoleum:2")
    assert _region_choices(state, 2, Region.CAPITOLEUM) == ["capitoleum:3"]
    assert REGIONS[Region.CAPITOLEUM].check(state) == ""
    stand(state, 0, "capitoleum:3")
    assert REGIONS[Region.CAPITOLEUM].check(state)  # one player twice
    stand(state, -1, "capitoleum:2")
    assert REGIONS[Region.CAPITOLEUM].check(state)  # "3" without "2"


# --- Refugium (R33, E47-E49) ----------------------------------------------------------------------------


def _committable_sets(game: Game) -> dict[tuple[str, ...], int]:
    """Every set a staging decision can commit, with what committing it costs (explored on clones)."""
    out: dict[tuple[str, ...], int] = {}
    legal = game.legal_actions()
    state = game.state
    if COMMIT in legal:
        after = game.clone()
        after.apply(COMMIT)
        out[tuple(state.tables.card_label[c] for c in state.staged)] = (
            state.players[pending(game).seat].money - after.state.players[pending(game).seat].money
        )
    for action in legal:
        if isinstance(action, PickCard):
            branch = game.clone()
            branch.apply(action)
            out.update(_committable_sets(branch))
    return out


def _x3_position() -> Game:
    game = board()
    state = game.state
    stand(state, 0, "refugium:1")
    state.players[0].money = 10
    give(state, 0, "nubian:2", "greek:4", "germanian:1")
    return game


def test_x3_refugium_patron_with_a_nubian() -> None:
    game = _x3_position()
    state = game.state
    evaluate(game, Region.REFUGIUM)
    assert pending(game) == Pending(DecisionKind.REFUGIUM_OPTION, 0, index=0)
    assert game.legal_actions() == [PATRON, DECLINE]  # option 1 (pairs) is not offered
    game.apply(PATRON)
    assert _committable_sets(game) == {
        ("nubian:2", "germanian:1"): 3,
        ("nubian:2", "greek:4"): 6,
        ("nubian:2", "germanian:1", "greek:4"): 7,
    }
    before = game.scores()[0]
    for label in ("nubian:2", "germanian:1"):
        game.apply(PickCard(card(state, label)))
    game.apply(COMMIT)
    player = state.players[0]
    assert (player.money, player.patrons, hand(state, 0)) == (7, 1, ["greek:4"])
    assert Counter(state.discard) >= Counter([card(state, "nubian:2"), card(state, "germanian:1")])
    # +5 for the patron tile; the denarii point of 10 denarii is lost at 7
    assert game.scores()[0] - before == 5 - 1
    assert game.pending is None and state.spaces[space(state, "refugium:1")] == -1


def test_x3_no_second_patron_in_a_later_round() -> None:
    game = _x3_position()
    state = game.state
    state.players[0].patrons = 1  # the patron of X3
    state.round += 1
    give(state, 0, "nubian:1", "nubian:3")
    evaluate(game, Region.REFUGIUM)
    assert game.legal_actions() == [DECLINE]


def test_r33_patron_not_offered_without_supply_or_money() -> None:
    game = _x3_position()
    state = game.state
    state.players[0].money = 2  # the cheapest set costs 3
    evaluate(game, Region.REFUGIUM)
    assert game.legal_actions() == [DECLINE]
    game = _x3_position()
    for seat in (1, 2, 3):
        game.state.players[seat].patrons = 2
    evaluate(game, Region.REFUGIUM)  # supply 6, all held
    assert game.legal_actions() == [DECLINE]


def test_e48_pairs_staged_one_nationality_at_a_time() -> None:
    game = board()
    state = game.state
    stand(state, 1, "refugium:2")
    give(state, 1, "germanian:1", "germanian:2", "greek:1", "greek:2", "greek:3", "greek:4")
    evaluate(game, Region.REFUGIUM)
    assert game.legal_actions() == [PAIRS, DECLINE]  # money 0: no patron set is affordable
    game.apply(PAIRS)
    picks = [state.tables.card_label[a.card] for a in game.legal_actions() if isinstance(a, PickCard)]
    assert picks == ["germanian:1", "greek:1", "greek:2", "greek:3"]
    game.apply(PickCard(card(state, "germanian:1")))
    assert game.legal_actions() == [PickCard(card(state, "germanian:2")), DECLINE]
    game.apply(PickCard(card(state, "germanian:2")))
    for label in ("greek:1", "greek:2", "greek:3", "greek:4"):
        game.apply(PickCard(card(state, label)))
    assert game.legal_actions() == [COMMIT, DECLINE]
    game.apply(COMMIT)
    player = state.players[1]
    assert (player.laurels, player.legions, player.money, hand(state, 1)) == (6, 1, 0, [])


def test_e48_no_nubian_pairs() -> None:
    game = board()
    state = game.state
    stand(state, 0, "refugium:1")
    give(state, 0, "nubian:1", "nubian:2", "germanian:3")
    evaluate(game, Region.REFUGIUM)
    assert game.legal_actions() == [DECLINE]  # money 0: no patron; Nubians do not pair


def test_e49_one_option_only() -> None:
    game = board()
    state = game.state
    stand(state, 0, "refugium:1")
    stand(state, 1, "refugium:3")
    state.players[0].money = 10
    give(state, 0, "nubian:1", "greek:1", "greek:2")
    evaluate(game, Region.REFUGIUM)
    assert game.legal_actions() == [PATRON, PAIRS, DECLINE]
    game.apply(PAIRS)
    game.apply(PickCard(card(state, "greek:1")))
    game.apply(PickCard(card(state, "greek:2")))
    game.apply(COMMIT)
    assert state.players[0].laurels == 3 and state.players[0].patrons == 0
    assert pending(game) == Pending(DecisionKind.REFUGIUM_OPTION, 1, index=2)  # the next occupant, not P0 again


def test_refugium_decline_returns_staged_cards() -> None:
    game = _x3_position()
    state = game.state
    evaluate(game, Region.REFUGIUM)
    game.apply(PATRON)
    game.apply(PickCard(card(state, "nubian:2")))
    game.apply(DECLINE)
    assert hand(state, 0) == ["germanian:1", "greek:4", "nubian:2"] and state.players[0].patrons == 0
    assert state.staged == [] and state.players[0].money == 10


@settings(max_examples=60, deadline=None)
@given(
    slaves=st.lists(st.integers(0, 14), max_size=9, unique=True),
    money=st.integers(0, 20),
    patrons=st.integers(0, 1),
    data=st.data(),
)
def test_refugium_random_staging_commits_only_valid_sets(
    slaves: list[int], money: int, patrons: int, data: st.DataObject
) -> None:
    """R33: whatever is staged, a commit is a valid set, cards are conserved and money never goes negative."""
    game = board()
    state = game.state
    stand(state, 0, "refugium:1")
    player = state.players[0]
    player.money, player.patrons = money, patrons
    labels = [state.tables.card_label[c] for n in Nationality for c in state.tables.slave_cards[n]]
    give(state, 0, *(labels[i] for i in slaves))
    copies = list(state.tables.card_copies)
    discard_before = len(state.discard)
    evaluate(game, Region.REFUGIUM)
    option = -1
    while game.pending is not None:
        legal = game.legal_actions()
        action: Action = data.draw(st.sampled_from(legal))
        kind = pending(game).kind
        staged = list(state.staged)
        if kind is DecisionKind.REFUGIUM_OPTION and action != DECLINE:
            option = action.option  # type: ignore[union-attr]
        game.apply(action)
        assert state.card_counts() == copies and player.money >= 0
        if isinstance(action, Commit):
            _check_committed(state, kind, staged, money, patrons)
    if option < 0:
        assert len(state.discard) == discard_before


def _check_committed(state: GameState, kind: DecisionKind, cards: list[int], money: int, patrons: int) -> None:
    nationality = [state.tables.card_nationality[c] for c in cards]
    player = state.players[0]
    assert Counter(state.discard[-len(cards) :]) == Counter(cards)
    if kind is DecisionKind.REFUGIUM_PATRON:
        nubian = Nationality.NUBIAN in nationality
        assert len(cards) == 3 or (len(cards) == 2 and nubian)
        assert patrons == 0 and player.patrons == 1
        assert player.money == money - sum(state.tables.card_value[c] for c in cards)
    else:
        counts = Counter(nationality)
        assert Nationality.NUBIAN not in counts and all(k % 2 == 0 for k in counts.values())
        assert player.laurels == 3 * counts[Nationality.GREEK] // 2
        assert player.legions == counts[Nationality.GERMANIAN] // 2
        assert player.money == money


# --- Basilica (R34, E50-E55) ----------------------------------------------------------------------------


def test_x8_basilica_tie_is_enough_payment_required() -> None:
    """X8 (E51, E52, E53: the 12 denarii go to the stock: nobody else's money changes)."""
    game = board()
    state = game.state
    tiles(state, up=3)
    pile = list(state.emperor_pile)
    stand(state, 0, "basilica:1")
    stand(state, 1, "basilica:2")
    for seat, n, money in ((0, 3, 11), (1, 3, 15), (2, 2, 0), (3, 1, 0)):
        markers(state, seat, n)
        state.players[seat].money = money
    evaluate(game, Region.BASILICA)
    assert pending(game) == Pending(DecisionKind.BASILICA_CLAIM, 0, index=0)
    assert game.legal_actions() == [DECLINE]  # he cannot pay
    game.apply(DECLINE)
    assert pending(game) == Pending(DecisionKind.BASILICA_CLAIM, 1, index=1)
    assert game.legal_actions() == [choose_tile(3), DECLINE]
    before = game.scores()[1]
    game.apply(choose_tile(3))
    assert (state.players[1].money, state.players[1].emperor_tiles) == (3, [3])
    assert [state.players[s].money for s in (0, 2, 3)] == [11, 0, 0]  # E53: paid to the stock
    assert game.scores()[1] - before == 5 - 1  # +5 for the tile; 15 -> 3 denarii loses a point
    assert state.emperor_up == -1 and state.emperor_pile == pile  # nothing turned before phase 8 (E54)
    assert game.pending is None


def _x10_position() -> Game:
    game = board()
    state = game.state
    tiles(state, up=1, matrona=(4, 9))
    state.officials[Official.MATRONA] = 2
    stand(state, 0, "basilica:1")
    stand(state, 2, "basilica:2")
    state.players[0].eternal_favor = True
    state.players[0].tile = SCROLL
    state.players[2].tile = SCROLL
    state.players[2].money = 20
    return game


def test_x10_basilica_face_up_then_matrona_tile() -> None:
    """X10 (Basilica part), E55: the Matrona holder claims one of his tiles after the face-up one is gone."""
    game = _x10_position()
    state = game.state
    evaluate(game, Region.BASILICA)
    assert game.legal_actions() == [choose_tile(1), DECLINE]
    game.apply(choose_tile(1))
    assert state.players[0].emperor_tiles == [1] and state.emperor_up == -1
    assert pending(game).seat == 2
    assert game.legal_actions() == [choose_tile(9), DECLINE]  # #4 needs the most legions: nobody has one
    game.apply(choose_tile(9))
    assert (state.players[2].money, state.players[2].emperor_tiles, state.matrona_tiles) == (8, [9], [4])


def test_e55_matrona_tiles_only_for_the_holder() -> None:
    game = _x10_position()
    state = game.state
    state.officials[Official.MATRONA] = 3  # P2 no longer holds the Matrona
    evaluate(game, Region.BASILICA)
    game.apply(DECLINE)
    assert game.legal_actions() == [DECLINE]  # #1 needs a favor; #9 is not his


def test_e54_face_up_tile_claimed_once_per_round() -> None:
    game = _x10_position()
    state = game.state
    state.officials[Official.MATRONA] = -1
    state.matrona_tiles = []
    state.emperor_pile += [4, 9]
    state.players[2].eternal_favor = True  # P2 could claim #1 too
    evaluate(game, Region.BASILICA)
    game.apply(choose_tile(1))
    assert game.legal_actions() == [DECLINE]


def test_e52_tie_for_most_is_enough_and_zero_is_not_most() -> None:
    game = board()
    state = game.state
    tiles(state, up=4)  # most legions + most denarii
    stand(state, 0, "basilica:1")
    for seat in (0, 1):
        state.players[seat].legions = 2
        state.players[seat].money = 10
    evaluate(game, Region.BASILICA)
    assert game.legal_actions() == [choose_tile(4), DECLINE]  # tied for both
    game = board()
    state = game.state
    tiles(state, up=4)
    stand(state, 0, "basilica:1")
    state.players[0].money = 10  # the most denarii, but 0 legions is not "the most"
    evaluate(game, Region.BASILICA)
    assert game.legal_actions() == [DECLINE]
    game = board()
    state = game.state
    tiles(state, up=4)
    stand(state, 0, "basilica:1")
    state.players[0].legions, state.players[0].money = 1, 10
    state.players[3].money = 11  # someone has more denarii
    evaluate(game, Region.BASILICA)
    assert game.legal_actions() == [DECLINE]


# --- Capitoleum (R36, E56-E60) --------------------------------------------------------------------------


def _officials(game: Game) -> list[int]:
    return [a.official for a in game.legal_actions() if a != DECLINE]  # type: ignore[union-attr]


def test_e56_e59_officials_taken_rechosen_kept() -> None:
    game = board()
    state = game.state
    state.officials[Official.AUGUR] = 0
    state.officials[Official.QUAESTOR] = 1
    state.officials[Official.MATRONA] = 3
    stand(state, 2, "capitoleum:1")
    stand(state, 0, "capitoleum:2")
    stand(state, 1, "capitoleum:3")
    evaluate(game, Region.CAPITOLEUM)
    assert _officials(game) == list(Official)
    game.apply(choose_official(Official.AUGUR))  # E56: taken from P0
    assert state.officials[Official.AUGUR] == 2
    assert pending(game).seat == 0
    assert Official.AUGUR not in _officials(game)  # E57
    game.apply(choose_official(Official.PRINCEPS))
    assert _officials(game) == [Official.MATRONA, Official.QUAESTOR, Official.TRIBUNUS_PLEBIS]
    game.apply(choose_official(Official.QUAESTOR))  # E58: re-choosing his own keeps it
    assert game.pending is None
    assert state.officials == [0, 3, 2, 1, -1]  # E59: the Matrona stays with P3
    assert state.officials_chosen == [False] * 5  # the round's choices are forgotten after the region
    assert all(state.spaces[s] < 0 for s in state.tables.region_spaces[Region.CAPITOLEUM])


def test_e58_choosing_a_new_official_returns_the_old_one() -> None:
    game = board()
    state = game.state
    state.officials[Official.AUGUR] = 0
    stand(state, 0, "capitoleum:1")
    stand(state, 1, "capitoleum:2")
    evaluate(game, Region.CAPITOLEUM)
    game.apply(choose_official(Official.QUAESTOR))
    assert state.officials[Official.AUGUR] == -1 and state.officials[Official.QUAESTOR] == 0
    assert Official.AUGUR in _officials(game)  # returned, not chosen: P1 may take it
    game.apply(DECLINE)
    assert state.officials == [-1, -1, -1, 0, -1]


def test_e46_regions_in_order_followers_go_home() -> None:
    """E46: phase 6 evaluates IX, X, XI in order; each region's followers go home after it."""
    game = board()
    state = game.state
    tiles(state, up=9)
    stand(state, 0, "refugium:1")
    stand(state, 1, "basilica:1")
    stand(state, 2, "capitoleum:1")
    push(state, *[("evaluate", int(r)) for r in state.tables.regions if r.expansion])
    advance(state)
    kinds = []
    while game.pending is not None:
        kinds.append(pending(game).kind)
        game.apply(DECLINE)
    assert kinds == [DecisionKind.REFUGIUM_OPTION, DecisionKind.BASILICA_CLAIM, DecisionKind.OFFICIAL_CHOICE]
    assert all(state.spaces[s] < 0 for r in Region if r.expansion for s in state.tables.region_spaces[r])
