"""Whole expansion games: invariants over random play at 2-5 players, and the end of an expansion game (X16).

Every random expansion game must keep the 118 cards and the 10 emperor tiles each in exactly one place, give
each official at most one holder and each player at most one official, never drive money below zero, always
offer a legal choice until it ends, and continue identically from a clone.
"""

from __future__ import annotations

import random

import pytest

from tribune_env import Bid, ChooseTile, DecisionKind, Faction, Game, Phase, Region
from tribune_env.engine.flow import advance
from tribune_env.engine.ops import push
from tribune_env.engine.rounds import round_tasks
from tribune_env.engine.scoring import track_fulfilment
from tribune_env.engine.state import SCROLL, TRIBUNE, GameState


def check_invariants(state: GameState) -> None:
    """The expansion's conservation laws and holdings limits (E1, E5, E58, R33-R36)."""
    spec = state.config.components.expansion
    assert spec is not None
    assert state.card_counts() == list(state.tables.card_copies), "118-card conservation"
    tiles = [*state.emperor_pile, *state.matrona_tiles]
    tiles += [state.emperor_up] if state.emperor_up >= 0 else []
    for player in state.players:
        tiles += player.emperor_tiles
    assert sorted(tiles) == sorted(t.id for t in spec.emperor_tiles), "each emperor tile in exactly one place"
    holders = [h for h in state.officials if h >= 0]
    assert len(holders) == len(set(holders)), "a player holds at most one official (E58)"
    assert all(0 <= h < state.num_players for h in holders)
    for player in state.players:
        assert player.money >= 0 and player.laurels >= 0 and player.legions >= 0
        assert 0 <= player.patrons <= spec.patrons_per_player
    assert sum(p.patrons for p in state.players) <= spec.patron_supply


def play_random(players: int, seed: int, auto_forced: bool = True, check_every: int = 1) -> Game:
    game = Game.new(players=players, seed=seed, expansion=True, auto_forced=auto_forced, round_limit=30)
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal choice at {game.pending}"
        game.apply(rng.choice(legal))
        step += 1
        if step % check_every == 0:
            check_invariants(game.position())
    check_invariants(game.position())
    return game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_random_expansion_games_keep_every_invariant(players: int, seed: int) -> None:
    game = play_random(players, seed, auto_forced=seed % 2 == 0)
    assert game.winners
    assert all(e.phase in {int(p) for p in Phase} for e in game.events)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_expansion_games(players: int) -> None:
    for seed in range(100, 140):
        play_random(players, seed, check_every=7)


@pytest.mark.parametrize("players", [2, 5])
def test_clone_continues_identically(players: int) -> None:
    """A clone taken at many decisions, played on with the same choices, ends in the same game."""
    rng = random.Random(players)
    game = Game.new(players=players, seed=11, expansion=True, round_limit=12)
    clones: list[tuple[Game, int]] = []
    choices: list[int] = []
    while not game.is_over:
        if len(choices) % 37 == 0:
            clones.append((game.clone(), len(choices)))
        legal = game.legal_actions()
        i = rng.randrange(len(legal))
        choices.append(i)
        game.apply(legal[i])
    for clone, start in clones:
        for i in choices[start:]:
            clone.apply(clone.legal_actions()[i])
        assert clone.is_over and clone.scores() == game.scores() and clone.winners == game.winners
        assert clone.log() == game.log()


def test_same_seed_same_expansion_game() -> None:
    assert play_random(4, 3).log() == play_random(4, 3).log()


def test_expansion_round_has_eight_phases_in_order() -> None:
    """E20: every phase of the round appears in the log, in the printed order."""
    game = play_random(3, 1)
    order = [
        Phase.CARD_PLACEMENT,
        Phase.FOLLOWER_PLACEMENT,
        Phase.REGION_EVALUATION,
        Phase.TAKEOVERS,
        Phase.FACTION_BENEFITS,
        Phase.EXPANSION_EVALUATION,
        Phase.CHARIOT_AUCTION,
        Phase.PREPARATION,
    ]
    seen = []
    for event in game.events:
        if event.round == 2 and (not seen or seen[-1] != event.phase):
            seen.append(event.phase)
    ranks = [order.index(Phase(p)) for p in seen if Phase(p) in order]
    assert ranks == sorted(ranks), "phases of round 2 in the order of E20"


def test_x16_the_game_ends_after_phase_8_with_the_expansion_scores() -> None:
    """X16 (E70, E74, R41): P0 fulfils "Quid est veritas?" (5 of 7 at 4 players) by claiming an emperor tile in
    phase 6; the game does not end there, phases 7 and 8 are played, then P0 wins with 37 points to P1's 24."""
    game = Game.new(players=4, seed=2, expansion=True, victory_card="quid_est_veritas", auto_forced=False)
    state = game.python_state()
    state.agenda = []
    state.pending = None
    state.round = 3
    state.phase = Phase.EXPANSION_EVALUATION
    for player in state.players:  # the hands go back to the draw pile (conservation)
        state.draw.extend(c for c, n in enumerate(player.hand) for _ in range(n))
        player.hand = [0] * len(player.hand)
        player.money = 0
    p0, p1 = state.players[0], state.players[1]
    p0.tile, p0.eternal_favor, p0.patrons, p0.legions, p0.laurels, p0.money = TRIBUNE, True, 1, 3, 4, 23
    for f in (Faction.GLADIATORS, Faction.LEGATES, Faction.PRAETORIANS):
        p0.markers[f] = True
    p1.tile, p1.temporary_favor, p1.legions, p1.laurels, p1.money = SCROLL, True, 2, 8, 12
    for f in (Faction.GLADIATORS, Faction.LEGATES, Faction.PRAETORIANS, Faction.PLEBEIANS, Faction.VESTALS):
        p1.markers[f] = True
    vestals = list(state.tables.faction_cards[Faction.VESTALS][1:3])
    for c in vestals:
        state.draw.remove(c)
    state.controller[Faction.VESTALS], state.sets[Faction.VESTALS] = 1, vestals
    # all other cards leave the board and hands for the draw pile, so conservation holds
    for region in state.fields:
        for field in region:
            state.draw.extend(field)
            field.clear()
    tile = 1  # favor + scroll
    state.emperor_pile = [t for t in [*state.emperor_pile, state.emperor_up] if t != tile]
    state.emperor_up = tile
    state.spaces[state.tables.region_spaces[Region.BASILICA][0]] = 0  # P0 on basilica:1
    push(state, *round_tasks(state, resume_from=Phase.EXPANSION_EVALUATION))
    track_fulfilment(state)
    advance(state)
    assert game.pending is not None and game.pending.kind is DecisionKind.BASILICA_CLAIM
    game.apply(ChooseTile(tile))
    assert not game.is_over and p0.emperor_tiles == [tile]
    assert game.position().fulfilled_since[0] >= 0  # fulfilled from phase 6 on ...
    while game.pending is not None and game.pending.kind is DecisionKind.CHARIOT_BID:
        game.apply(Bid(0))  # ... the game goes on through phase 7 (a tie: nobody pays)
    while not game.is_over:  # ... and phase 8
        assert game.phase in (Phase.CHARIOT_AUCTION, Phase.PREPARATION), game.pending
        game.apply(game.legal_actions()[0])
    assert game.winners == (0,)
    scores = game.scores()
    assert scores[0] == 7 + 5 + 5 + 5 + 6 + 4 + 3 + 2 == 37  # no +2 "first" bonus (R41)
    assert scores[1] == 3 + 3 + 4 + 8 + 5 + 1 == 24  # temporary favor 3 (E74)
