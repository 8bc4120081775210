"""Random Brutii games at 5 and 6 seats (R42-R54): invariants after every decision, coverage, determinism, and
the player view's hidden information (R1, R2, R45).

Random agents choose uniformly among the legal actions. After every decision: the 118 cards are conserved (E1),
the expansion's holdings limits hold (test_expansion_games), money is never negative, the Brutii has no follower
but the proconsul of a round in which he holds it (E78, E86), his revealed discs never exceed the component
counts and are face down again from phase 8 on (E81, E87, E104), his played cards are unique and match his arrow
discs (E85, E88), his options and Veto belong to played cards (R46, R54), and a vetoed region offers no space
(R54). Each round's phase-2 turns follow R44 exactly. Across a fixed set of games every decision kind only the
Brutii faces and every decision he takes through an action card (``BRUTII_SLOT``) occurs.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hidden_info import hidden_slots as base_hidden_slots
from hidden_info import redeal
from hypothesis import given, settings
from hypothesis import strategies as st
from test_expansion_games import check_invariants

from tribune_env import Game
from tribune_env.data import BrutiiCard, BrutiiDisc, Official
from tribune_env.engine.actions import DECLINE, Action, PlaceFollower
from tribune_env.engine.brutii_ops import by_card, option
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS, DecisionKind, Phase
from tribune_env.engine.state import OPTED_OUT, GameState
from tribune_env.engine.view import player_view

SEATS = (5, 6)
COVERAGE_SEEDS = range(8)
AUGUR = int(Official.AUGUR)

BY_CARD_KINDS = frozenset(
    {
        DecisionKind.PANTHEON_SACRIFICE,
        DecisionKind.FIELD_OF_MARS_PAIR,
        DecisionKind.REFUGIUM_OPTION,
        DecisionKind.REFUGIUM_PATRON,
        DecisionKind.REFUGIUM_PAIRS,
        DecisionKind.BASILICA_CLAIM,
        DecisionKind.OFFICIAL_CHOICE,
    }
)
"""The location decisions the Brutii takes through an action card, off the follower spaces (R47)."""

SLOT_KINDS = BY_CARD_KINDS | {DecisionKind.CURIA_DISCARD, DecisionKind.ATRIUM_BID, DecisionKind.CATACOMBS_PURCHASE}
"""The decision kinds whose ``pending.index`` is a follower space (or field) of a region."""

BEFORE_PHASE_3 = (Phase.SETUP, Phase.CARD_PLACEMENT, Phase.FOLLOWER_PLACEMENT)


def new_game(players: int, seed: int, round_limit: int = 60) -> Game:
    return Game.new(players=players, seed=seed, expansion=True, brutii=True, auto_forced=False, round_limit=round_limit)


# --- R44: the expected turn order of a phase 2 ----------------------------------------------------------------


@dataclass(frozen=True)
class RoundStart:
    """What decides a phase 2's turn order: the starting seat, the proconsul's and the Princeps' holders."""

    start: int
    proconsul: int
    princeps: int


def expected_turns(state: GameState, r: RoundStart) -> list[int]:
    """R44 (with R7, R9, R37): turns in seat order from the starting seat; a family has a turn while it has
    followers (the proconsul one more), the Princeps holder placing two a turn; the Brutii has as many turns as a
    family has followers, whatever he holds."""
    n, b = state.num_players, state.brutii
    per_turn = 2  # R37 (X14): the Princeps places two per turn
    left = [state.config.followers] * n
    if r.proconsul >= 0 and r.proconsul != b:
        left[r.proconsul] += 1
    turns: list[int] = []
    seat = r.start
    while any(left):
        if left[seat]:
            turns.append(seat)
            left[seat] -= min(left[seat], per_turn if seat == r.princeps and seat != b else 1)
        seat = (seat + 1) % n
    return turns


# --- one random game, checked after every decision ------------------------------------------------------------


@dataclass
class Record:
    """What a game showed: the Brutii's decisions by kind, those through a card, and other Brutii events."""

    kinds: Counter[DecisionKind] = field(default_factory=Counter)
    by_card: Counter[DecisionKind] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    played: Counter[int] = field(default_factory=Counter)
    starts: dict[int, RoundStart] = field(default_factory=dict)
    turns: dict[int, list[int]] = field(default_factory=dict)


def check_brutii(state: GameState, record: Record) -> None:
    """The Brutii's invariants in any state of a Brutii game (see the module docstring)."""
    spec = state.config.components.expansion
    assert spec is not None and spec.brutii is not None
    followers = state.config.followers
    revealed = Counter(state.brutii_revealed)
    assert all(revealed[d] <= spec.brutii.discs[d] for d in BrutiiDisc), "more discs of a kind than exist (E81)"
    phase = state.phase
    if phase is Phase.FOLLOWER_PLACEMENT:
        assert len(state.brutii_revealed) + state.brutii_turns == followers, "a disc per turn (R44)"
    else:
        assert state.brutii_turns == 0
    if phase in (Phase.SETUP, Phase.CARD_PLACEMENT):
        assert state.brutii_revealed == [] and state.brutii_played == [], "phase 8 turns the discs down (E104)"
    elif phase is not Phase.FOLLOWER_PLACEMENT and phase is not Phase.GAME_OVER:
        assert len(state.brutii_revealed) in ((0, followers) if phase is Phase.PREPARATION else (followers,))
    played = state.brutii_played
    assert len(set(played)) == len(played) and all(0 <= c < len(BrutiiCard) for c in played), "E88"
    arrows = sum(1 for d in state.brutii_revealed if d != BrutiiDisc.CROSS)
    asking = state.pending is not None and state.pending.kind is DecisionKind.BRUTII_CARD
    assert len(played) == arrows - asking, "one card per arrow disc (E85, E86)"
    for i, card in enumerate((BrutiiCard.CARDS, BrutiiCard.FACTION_TAKEOVER)):
        if state.brutii_options[i] >= 0:
            assert int(card) in played and phase not in BEFORE_PHASE_3, "an option of a played card (R46)"
    if state.veto >= 0:
        assert int(BrutiiCard.VETO) in played, "a Veto needs the card (R54)"
    _check_pieces(state, record)


def _check_pieces(state: GameState, record: Record) -> None:
    """E78, E86: no follower but the proconsul of a round in which he held it (his take-over stands aside, R48)."""
    b = state.brutii
    start = record.starts.get(state.round)
    holder = start.proconsul if start is not None and state.phase is not Phase.CARD_PLACEMENT else -1
    allowed = 1 if holder == b else 0
    assert state.players[b].followers <= (allowed if state.phase is Phase.FOLLOWER_PLACEMENT else 0)
    tables = state.tables
    faction_spaces = {s for ids in tables.faction_spaces for s in ids}
    standing = state.phase is Phase.TAKEOVERS and option(state, BrutiiCard.FACTION_TAKEOVER) >= 0
    pieces = state.coin_bowl.count(b)
    pieces += sum(1 for s, seat in enumerate(state.spaces) if seat == b and not (standing and s in faction_spaces))
    assert pieces <= allowed, f"the Brutii has {pieces} piece(s) on the board without the proconsul"


def _note_round(state: GameState, record: Record) -> None:
    """In phase 2, what decides the round's turn order (it does not change during the phase)."""
    if state.phase is Phase.FOLLOWER_PLACEMENT:
        record.starts.setdefault(
            state.round, RoundStart(state.start_seat, state.proconsul, state.officials[Official.PRINCEPS])
        )


def _note_decision(state: GameState, legal: list[Action], record: Record) -> None:
    """Record the pending decision (before it is taken), and a family's new phase-2 turn (R44)."""
    pending = state.pending
    assert pending is not None
    b = state.brutii
    if state.phase is Phase.FOLLOWER_PLACEMENT:
        if state.veto >= 0 and pending.kind is DecisionKind.PLACE_FOLLOWER:
            vetoed = set(state.tables.region_spaces[state.veto])
            assert not any(isinstance(a, PlaceFollower) and a.space in vetoed for a in legal), "R54"
        if pending.kind is DecisionKind.PLACE_FOLLOWER and pending.seat != b and state.placed_this_turn == 0:
            record.turns.setdefault(state.round, []).append(pending.seat)
    if pending.seat != b:
        return
    record.kinds[pending.kind] += 1
    if pending.kind in SLOT_KINDS and by_card(state, pending):  # pending.index == BRUTII_SLOT
        record.by_card[pending.kind] += 1
    if pending.kind is DecisionKind.PLACE_FOLLOWER:
        record.events["proconsul placed"] += 1
    if pending.kind is DecisionKind.TAKEOVER_SET and option(state, BrutiiCard.FACTION_TAKEOVER) >= 0:
        record.events[f"take-over attempt, option {option(state, BrutiiCard.FACTION_TAKEOVER) + 1}"] += 1


def _note_action(state: GameState, action: Action, record: Record) -> None:
    pending = state.pending
    if pending is not None and pending.seat == state.brutii:
        if pending.kind is DecisionKind.CHARIOT_BID and action == DECLINE:
            record.events["chariot opt-out"] += 1
        if pending.kind is DecisionKind.BRUTII_CARD:
            record.played[action.card] += 1  # type: ignore[union-attr]


def play(players: int, seed: int, round_limit: int = 60) -> tuple[Game, Record]:
    """A random Brutii game, every invariant checked after every decision."""
    game = new_game(players, seed, round_limit)
    state = game.python_state()
    rng = random.Random(seed)
    record = Record()
    revealed = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal choice at {game.pending}"
        _note_decision(state, legal, record)
        action = rng.choice(legal)
        _note_action(state, action, record)
        before = state.round
        game.apply(action)
        now = len(state.brutii_revealed)
        grown = now if state.round != before else max(0, now - revealed)
        if grown:  # his disc turns ran inside the step
            record.turns.setdefault(state.round, []).extend([state.brutii] * grown)
        revealed = now
        _note_round(state, record)
        check_invariants(state)
        check_brutii(state, record)
    return game, record


def check_turn_order(game: Game, record: Record) -> None:
    """R44: every round's phase 2 had exactly the turns of :func:`expected_turns`."""
    assert set(record.turns) == set(record.starts) == set(range(1, game.round + 1))
    for r, start in record.starts.items():
        assert record.turns[r] == expected_turns(game.position(), start), f"round {r}"


# --- the tests --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", SEATS)
def test_random_brutii_games_keep_every_invariant_and_cover_the_brutii(players: int) -> None:
    """Games finish (a winner, or the round limit), keep every invariant and R44's turn order, and together show
    every decision only the Brutii faces, every decision he takes through a card, and his other moves."""
    kinds: Counter[DecisionKind] = Counter()
    cards: Counter[DecisionKind] = Counter()
    events: Counter[str] = Counter()
    played: Counter[int] = Counter()
    for seed in COVERAGE_SEEDS:
        game, record = play(players, 1000 * players + seed)
        assert game.is_over and game.winners
        check_turn_order(game, record)
        kinds += record.kinds
        cards += record.by_card
        events += record.events
        played += record.played
    missing = [k.name for k in BRUTII_DECISION_KINDS if not kinds[k]]
    assert not missing, f"Brutii decision kinds never asked: {missing}"
    assert set(cards) == BY_CARD_KINDS, f"decisions through a card: {cards}"
    assert set(played) == set(BrutiiCard), f"cards never played: {set(BrutiiCard) - set(played)}"
    for event in ("proconsul placed", "chariot opt-out", "take-over attempt, option 1", "take-over attempt, option 2"):
        assert events[event], f"never seen: {event} ({events})"


@settings(max_examples=8, deadline=None)
@given(players=st.sampled_from(SEATS), seed=st.integers(0, 2**31 - 1))
def test_any_seed_keeps_the_invariants(players: int, seed: int) -> None:
    """The invariants for arbitrary seeds (shorter games)."""
    game, record = play(players, seed, round_limit=6)
    assert game.is_over
    check_turn_order(game, record)


@settings(max_examples=5, deadline=None)
@given(players=st.sampled_from(SEATS), seed=st.integers(0, 2**31 - 1))
def test_a_seed_decides_the_game(players: int, seed: int) -> None:
    """Determinism: the same seed and choices give the same game (events, holdings, result), and a clone taken
    midway continues identically."""
    first, _ = play(players, seed, round_limit=5)
    second, _ = play(players, seed, round_limit=5)
    assert [e.text for e in first.events] == [e.text for e in second.events]
    assert first.scores() == second.scores() and first.winners == second.winners
    assert first.position().chance == second.position().chance
    game = new_game(players, seed, round_limit=5)
    rng = random.Random(seed)
    for _ in range(300):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    clone = game.clone()
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        clone.apply(action)
    assert [e.text for e in game.events] == [e.text for e in clone.events]


# --- the view hides what a seat may not know (R1, R2, R45) ------------------------------------------------------


def hidden_slots(state: GameState, seat: int) -> list[list[int]]:
    """The card lists hidden from ``seat`` (test_view's, and the Augur's draws unless ``seat`` is the Augur)."""
    slots = base_hidden_slots(state, seat)
    if state.augur_cards and state.officials[AUGUR] != seat:
        slots.append(state.augur_cards)
    return slots


def hide(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state ``seat`` cannot tell from ``state``: every hidden card re-dealt (the Brutii's hand among them),
    others' sealed bids changed, the Brutii's sealed opt-out swapped with a bid and back (R45, R49), the emperor
    pile reordered (R35) and the chance key (which draws his next disc, R45) replaced."""
    other = redeal(state, seat, rng, hidden_slots)
    for s, amount in enumerate(other.bids):
        if s == seat or (amount < 0 and amount != OPTED_OUT):
            continue
        if s == other.brutii and rng.random() < 0.5:
            other.bids[s] = OPTED_OUT
        else:
            other.bids[s] = rng.randint(0, other.players[s].money)
    rng.shuffle(other.emperor_pile)
    other.chance = rng.randrange(2**62)
    other.legal_cache = None
    return other


def _special(state: GameState) -> set[str]:
    """The Brutii situations with hidden information in ``state``."""
    b = state.brutii
    pending = state.pending
    out = set()
    if state.bids[b] == OPTED_OUT:
        out.add("sealed opt-out")
    if pending is not None and pending.seat == b:
        if pending.kind is DecisionKind.BRUTII_SLAVES and state.staged:
            out.add("staging slave lays")
        if pending.kind in SLOT_KINDS and by_card(state, pending):
            out.add("acting through a card")
    if state.players[b].hand_size and state.phase is Phase.REGION_EVALUATION:
        out.add("his hand in phase 3")
    return out


@pytest.mark.parametrize("players", SEATS)
def test_views_hide_the_brutii_hand_and_every_private_thing(players: int) -> None:
    """R1, R2, R45: re-dealing what a seat may not know (other hands, the Brutii's included, piles, face-down
    cards, others' staged cards and sealed choices, the Brutii's sealed opt-out) leaves its view unchanged, at
    every 25th decision and at every decision with Brutii hidden information."""
    seen: Counter[str] = Counter()
    rng = random.Random(players)
    for seed in range(3):
        game = new_game(players, 77 * players + seed, round_limit=20)
        agent = random.Random(seed)
        step = 0
        while not game.is_over:
            state = game.position()
            special = _special(state)
            if special - {"his hand in phase 3"} or step % 25 == 0:
                seen.update(special)
                for seat in range(players):
                    other = hide(state, seat, rng)
                    assert other.card_counts() == state.card_counts()
                    assert player_view(other, seat) == player_view(state, seat), (seat, state.pending)
            game.apply(agent.choice(game.legal_actions()))
            step += 1
    for kind in ("sealed opt-out", "staging slave lays", "acting through a card", "his hand in phase 3"):
        assert seen[kind], f"the games never reached {kind!r}: {seen}"


def test_the_brutii_sees_his_own_hand_and_opt_out() -> None:
    """Control: what is hidden from the others is shown to the Brutii (the comparison above is sensitive)."""
    game = new_game(5, 3)
    agent = random.Random(3)
    state = game.python_state()
    while state.phase is not Phase.CHARIOT_AUCTION or state.bids[state.brutii] != OPTED_OUT:
        action = agent.choice(game.legal_actions())
        if state.pending is not None and state.pending.kind is DecisionKind.CHARIOT_BID:
            action = DECLINE if state.pending.seat == state.brutii else action
        game.apply(action)
    b = state.brutii
    moved = redeal(state, (b + 1) % 5, random.Random(1), hidden_slots)
    assert moved.players[b].hand != state.players[b].hand
    assert player_view(moved, b) != player_view(state, b)
    bid_instead = state.clone()
    bid_instead.bids[b] = 0
    assert player_view(bid_instead, b) != player_view(state, b)
    assert player_view(bid_instead, 0) == player_view(state, 0)
