"""Action masks and observations over 1,000 complete random games (2 to 5 players; the quick suite plays the first
25 at each player count, the whole run is marked slow).

At the checked decisions of every game: the mask of the seat to act is a 0/1
int8 vector that is never empty; every index it allows decodes to a legal engine
action (and a sample of them is really applied on a clone); every legal engine
action is in the mask except bids above :data:`BID_CAP` (R11, R22 let a player
bid all its money; the codec expresses 0..60); bids in the mask are exactly
0..min(money, 60); the coin bowl is always allowed when placing (R7) and
declining always allowed at the Catacombs (R12); the masks of the seats not to
act are all zero (R2: simultaneous choices are asked one player at a time).
Observations are float32, of the encoder's size, finite and inside [0, high].

The frequent decision kinds are checked at a sampled rate to keep the file fast
(``CHECK_RATE``); every other decision is checked. The games are always played
to the end, and at checked decisions the move is chosen from the mask and
decoded, as an agent would.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import position

from tribune_env import Bid, DecisionKind
from tribune_env.codec import BID_CAP, ObservationEncoder
from tribune_env.envs import Table

PLAYER_COUNTS = (2, 3, 4, 5)
GAMES = 1000
GAMES_PER_COUNT = GAMES // len(PLAYER_COUNTS)
FEW_GAMES = 25  # per player count: the run of the quick suite (the thousand games are marked slow)
# Share of the decisions of each kind that are checked: the commonest kinds are sampled, the rare ones
# (assassins, leaders, Pantheon, legion purchase, take-over penalty, ...) are always checked.
CHECK_RATE = {
    DecisionKind.PLACE_FOLLOWER: 0.03,
    DecisionKind.CESURA_DISCARD: 0.03,
    DecisionKind.TAKEOVER_SET: 0.03,
    DecisionKind.FIELD_OF_MARS_PAIR: 0.03,
    DecisionKind.CHARIOT_BID: 0.03,
    DecisionKind.CATACOMBS_PURCHASE: 0.03,
    DecisionKind.CURIA_DISCARD: 0.03,
    DecisionKind.BENEFIT_OPTION: 0.3,
    DecisionKind.CHARIOT_PLACEMENT: 0.3,
    DecisionKind.LATRINE_CHOICE: 0.3,
    DecisionKind.ATRIUM_BID: 0.3,
    DecisionKind.SETUP_DISCARD: 0.3,
}
ALL_SEATS_RATE = 0.2  # share of checked decisions at which every seat's observation is checked too
CLONE_SAMPLES = 2  # allowed actions applied on clones at each checked decision


def check_observation(encoder: ObservationEncoder, obs: np.ndarray) -> None:
    assert obs.dtype == np.float32
    assert obs.shape == (encoder.size,)
    assert np.isfinite(obs).all()
    low = np.flatnonzero(obs < 0)
    assert low.size == 0, f"entries below 0 at {low[:10]}"
    high = np.flatnonzero(obs > encoder.high)
    assert high.size == 0, f"entries above high at {high[:10]}: {obs[high[:10]]} > {encoder.high[high[:10]]}"


def check_decision(table: Table, rng: random.Random, samples: int = CLONE_SAMPLES) -> np.ndarray:
    """Check the masks of every seat at the pending decision; returns the acting seat's allowed indices."""
    game, codec = table.game, table.codec
    n = table.num_players
    seat = game.current_seat
    assert 0 <= seat < n
    legal = game.legal_actions()

    mask = table.mask(seat)
    assert mask.dtype == np.int8 and mask.shape == (codec.n,)
    assert set(np.unique(mask)) <= {0, 1}
    allowed = np.flatnonzero(mask)
    assert allowed.size > 0, f"empty mask for P{seat} at {game.pending}"
    assert sorted(table.legal_indices(seat)) == allowed.tolist()

    decoded = [codec.decode(int(i), seat, n) for i in allowed]
    legal_set = set(legal)
    assert len(set(decoded)) == len(decoded)
    outside = [codec.label(int(i)) for i, a in zip(allowed, decoded, strict=True) if a not in legal_set]
    assert not outside, f"mask allows illegal actions {outside} at {game.pending}"
    missing = legal_set.difference(decoded)
    assert all(isinstance(a, Bid) and a.amount > BID_CAP for a in missing), f"legal but not in the mask: {missing}"

    if game.pending.kind is DecisionKind.PLACE_FOLLOWER:  # R7: the coin bowl is always legal
        assert mask[codec.block["place"].start + game.tables.coin_bowl] == 1
    if game.pending.kind is DecisionKind.CATACOMBS_PURCHASE:  # R12: looking without buying is allowed
        assert mask[codec.block["decline"].start] == 1

    bids = [a for a in legal if isinstance(a, Bid)]
    if bids:
        money = game.position().players[seat].money
        block = codec.block["bid"]
        assert np.flatnonzero(mask[block.start : block.stop]).tolist() == list(range(min(money, BID_CAP) + 1))
        assert len(missing) == max(0, money - BID_CAP)

    for other in range(n):
        if other != seat:
            assert not table.mask(other).any(), f"P{other} has a mask while P{seat} is to act"
            assert table.legal_indices(other) == []

    for i in rng.sample(allowed.tolist(), min(samples, allowed.size)):
        clone = game.clone()
        clone.apply(codec.decode(i, seat, n))  # raises IllegalActionError if the engine refuses it
    return allowed


def check_game_over(table: Table) -> None:
    assert table.game.is_over
    for seat in range(table.num_players):
        assert not table.mask(seat).any()
        assert table.legal_indices(seat) == []
        check_observation(table.encoder, table.observation(seat))


def play_checked_game(table: Table, seed: int, stats: Counter[str]) -> None:
    """One complete game; checks a sample of the frequent decisions and every rare one."""
    game = table.new_game(np.random.default_rng(seed))
    rng = random.Random(seed)
    n = table.num_players
    check_observation(table.encoder, table.observation(game.current_seat))
    while not game.is_over:
        pending = game.pending
        assert pending is not None
        if rng.random() >= CHECK_RATE.get(pending.kind, 1.0):
            game.apply(rng.choice(game.legal_actions()))
            stats["unchecked"] += 1
            continue
        allowed = check_decision(table, rng)
        seat = pending.seat
        check_observation(table.encoder, table.observation(seat))
        if rng.random() < ALL_SEATS_RATE:
            for other in range(n):
                check_observation(table.encoder, table.observation(other))
        stats["checked"] += 1
        stats[pending.kind.key] += 1
        table.play(int(rng.choice(allowed.tolist())), seat, f"P{seat}")
    check_game_over(table)
    stats["games"] += 1


@pytest.mark.parametrize(
    "games", [pytest.param(FEW_GAMES, id="few"), pytest.param(GAMES_PER_COUNT, id="all", marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_masks_over_complete_random_games(players: int, games: int) -> None:
    """``games`` complete games at ``players`` seats (the first of the thousand when fewer)."""
    table = Table(players=players)
    stats: Counter[str] = Counter()
    for g in range(games):
        play_checked_game(table, seed=players * 100_000 + g, stats=stats)
    assert stats["games"] == games
    assert stats["checked"] > 10 * games, stats
    # every decision kind that random play reaches regularly was checked
    for kind in (
        "setup_discard",
        "place_follower",
        "latrine_choice",
        "curia_discard",
        "catacombs_purchase",
        "field_of_mars_pair",
        "takeover_set",
        "assassin_target",
        "benefit_option",
        "legion_purchase",
        "chariot_bid",
        "chariot_placement",
        "cesura_discard",
    ):
        assert stats[kind] > 0, f"{kind} never checked: {stats}"


def test_the_run_covers_a_thousand_games() -> None:
    assert GAMES_PER_COUNT * len(PLAYER_COUNTS) >= 1000


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 2000))
def test_every_allowed_action_applies_on_a_clone(players: int, seed: int, steps: int) -> None:
    """At one decision, *every* index of the mask is applied on its own clone; the original is unchanged. A game
    that ends within ``steps`` is checked at its end, then at its last decision."""
    table = Table(players=players)
    game = table.new_game(np.random.default_rng(seed))
    rng = random.Random(seed)
    for _ in range(steps):
        last_decision = game.clone()
        game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            check_game_over(table)
            game = table.game = last_decision
            break
    before = game.to_json()
    allowed = check_decision(table, rng, samples=0)
    seat = game.current_seat
    for i in allowed.tolist():
        clone = game.clone()
        clone.apply(table.codec.decode(i, seat, players))
    assert game.to_json() == before


def test_bid_decisions_above_the_cap_are_masked() -> None:
    """A chariot bid with more money than the cap: the mask ends at 60 (R22) and the mask check accepts it."""
    game = position(
        [{"money": 80, "markers": ["senators"], "sets": {"senators": ["senators:4", "senators:5"]}}, {"money": 65}],
        phase="chariot_auction",
    )
    table = Table(players=2)
    table.game = game
    for seat in (0, 1):
        assert game.current_seat == seat and game.pending.kind is DecisionKind.CHARIOT_BID
        allowed = check_decision(table, random.Random(seat))
        assert allowed.size == BID_CAP + 1
        table.play(int(allowed[-1]), seat, f"P{seat}")
