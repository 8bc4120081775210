"""Whole-game invariants under random legal play, for every player count.

After every decision: every card is in exactly one place, holdings are never
negative, control and displayed sets are consistent, the pending decision is
well formed, the temporary favor is unique (R18, R21), and the game ends
(possibly truncated by the round limit, R25). Also: JSON round-trips and
clones continue exactly like the original game.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import ROOT
from slow_marks import slow_except

from tribune_env import Faction, Game, Phase
from tribune_env.engine.flow import legal_actions  # noqa: F401  (loads every record)
from tribune_env.engine.registry import DECISIONS, LEGAL

PLAYER_COUNTS = (2, 3, 4, 5)
STATE_FORMAT_DOC = ROOT / "docs" / "state-format.md"


# --- helpers -------------------------------------------------------------------------------------


def check_invariants(game: Game) -> None:
    """Assert every invariant that must hold at each decision point (and at the end)."""
    state = game.position()
    tables = state.tables
    n = state.num_players

    # all 100 cards in exactly one place
    assert state.card_counts() == list(tables.card_copies)
    assert sum(tables.card_copies) == tables.deck_size

    # holdings never negative
    for seat, player in enumerate(state.players):
        assert player.money >= 0, f"P{seat} money {player.money}"
        assert player.laurels >= 0, f"P{seat} laurels {player.laurels}"
        assert player.legions >= 0, f"P{seat} legions {player.legions}"
        assert player.followers >= 0, f"P{seat} followers {player.followers}"
        assert all(c >= 0 for c in player.hand), f"P{seat} hand {player.hand}"
        assert len(player.markers) == len(Faction)
        # R21: the eternal favor excludes the temporary one
        assert not (player.eternal_favor and player.temporary_favor), f"P{seat} holds both favors"
    assert state.colosseum >= 0

    # control: one controller per faction (a list entry), sets consistent with it
    assert len(state.controller) == len(Faction)
    min_size = state.config.components.min_set_size
    for f, seat in enumerate(state.controller):
        cards = state.sets[f]
        if seat < 0:
            assert cards == [], f"uncontrolled faction {f} has a displayed set {cards}"
            continue
        assert 0 <= seat < n
        assert len(cards) >= min_size, f"faction {f} set {cards} smaller than {min_size}"
        assert all(tables.card_faction[c] == f for c in cards), f"faction {f} set holds other cards {cards}"
        # controlling a faction brings its marker (R17: after the take-over benefit and the leader, so
        # not yet at a reward decision of phase 4), and markers are never lost
        if state.phase is not Phase.TAKEOVERS:
            assert state.players[seat].markers[f], f"P{seat} controls faction {f} without its marker"

    # the temporary favor: at most one holder, who controls the Vestal Virgins (R18)
    holders = [s for s, p in enumerate(state.players) if p.temporary_favor]
    assert len(holders) <= 1, f"temporary favor held by {holders}"
    if holders:
        assert state.controller[Faction.VESTALS] == holders[0]

    # the pending decision
    if game.is_over:
        assert game.pending is None
        assert game.legal_actions() == []
        assert game.current_seat == -1
        assert game.winners, "a finished game has at least one winner"
        assert all(0 <= s < n for s in game.winners)
        assert len(set(game.winners)) == len(game.winners)
    else:
        pending = game.pending
        assert pending is not None
        assert 0 <= pending.seat < n
        assert game.current_seat == pending.seat
        actions = game.legal_actions()
        assert actions, f"no legal action at {pending}"
        assert len(set(actions)) == len(actions), f"duplicate legal actions at {pending}: {actions}"
        fresh = LEGAL[pending.kind](game.position(), pending)  # the per-decision cache never goes stale
        assert actions == fresh, f"cached legal actions differ from a fresh computation at {pending}"
        # round 0 is the set-up, then rounds count from 1 (R25 caps them)
        assert (game.round == 0) == (game.phase is Phase.SETUP)
        assert 0 <= game.round <= game.config.round_limit
        if game.config.auto_forced and not DECISIONS[pending.kind].always_asked:  # (R12)
            assert len(actions) >= 2, f"auto_forced left a forced decision pending: {pending} {actions}"


def play_checked(game: Game, seed: int, max_decisions: int = 20_000) -> int:
    """Random legal play to the end, checking the invariants after every decision. Returns #decisions."""
    rng = random.Random(seed)
    check_invariants(game)
    decisions = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        decisions += 1
        check_invariants(game)
        assert decisions < max_decisions, "the game does not end"
    check_end(game)
    return decisions


def check_end(game: Game) -> None:
    assert game.is_over
    assert game.phase is Phase.GAME_OVER
    assert 1 <= game.round <= game.config.round_limit
    if game.truncated:
        assert game.round == game.config.round_limit  # R25
    assert sorted(set(game.ranks())) and min(game.ranks()) == 1
    for seat in game.winners:
        assert game.ranks()[seat] == 1


def roundtrip(game: Game) -> Game:
    return Game.from_json(json.dumps(game.to_json()))


# --- invariants under random play ---------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_games_keep_invariants(players: int, seed: int) -> None:
    game = Game.new(players=players, seed=seed)
    decisions = play_checked(game, seed=1000 + seed)
    assert decisions > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_invariants_without_auto_forced(players: int) -> None:
    game = Game.new(players=players, seed=7, auto_forced=False)
    play_checked(game, seed=70)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_invariants_point_variant(players: int) -> None:
    game = Game.new(players=players, seed=8, point_variant=True)
    assert game.position().victory_card == ""
    play_checked(game, seed=80)
    if not game.truncated:
        need = game.config.components.point_variant[players]
        assert any(p.num_markers >= need for p in game.position().players)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from(PLAYER_COUNTS),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    play_seed=st.integers(min_value=0, max_value=2**32),
    auto_forced=st.booleans(),
    point_variant=st.booleans(),
)
def test_invariants_hypothesis(players: int, seed: int, play_seed: int, auto_forced: bool, point_variant: bool) -> None:
    game = Game.new(players=players, seed=seed, auto_forced=auto_forced, point_variant=point_variant)
    play_checked(game, seed=play_seed)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("round_limit", [1, 2])
def test_round_limit_truncates(players: int, round_limit: int) -> None:
    """R25: a game still running after the round limit ends truncated, with ranks by score."""
    game = Game.new(players=players, seed=3, round_limit=round_limit)
    play_checked(game, seed=30)
    assert game.round <= round_limit
    if game.round == round_limit and not game.truncated:
        # it may only end untruncated if somebody met the victory card
        assert any(t >= 0 for t in game.position().fulfilled_since)
    if game.truncated:
        scores = game.scores()
        assert set(game.winners) == {s for s, v in enumerate(scores) if v == max(scores)}


def test_every_decision_kind_is_reached() -> None:
    """The random games above are only convincing if they reach (almost) every kind of decision."""
    seen = set()
    for seed in range(6):
        for players in PLAYER_COUNTS:
            game = Game.new(players=players, seed=seed, auto_forced=False)
            rng = random.Random(seed)
            while not game.is_over:
                seen.add(game.pending.kind.key)
                game.apply(rng.choice(game.legal_actions()))
    # cesura magna is rare in random play; everything else must show up
    must = {
        "setup_discard",
        "place_follower",
        "latrine_choice",
        "curia_discard",
        "atrium_bid",
        "catacombs_purchase",
        "pantheon_sacrifice",
        "field_of_mars_pair",
        "takeover_set",
        "benefit_option",
        "chariot_bid",
        "chariot_placement",
    }
    assert must <= seen, f"never reached: {sorted(must - seen)}"


# --- JSON round-trip and clone continue identically --------------------------------------------


def _lockstep(game: Game, other: Game, rng: random.Random, refresh_every: int, refresh: Any) -> Game:
    """Play ``game`` and ``other`` with the same choices; every ``refresh_every`` decisions replace
    ``other`` by ``refresh(other)`` (a round-trip or a clone). Returns the final ``other``."""
    step = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert other.legal_actions() == actions
        assert other.pending == game.pending
        action = rng.choice(actions)
        game.apply(action)
        other.apply(action)
        step += 1
        if step % refresh_every == 0:
            other = refresh(other)
            assert other.to_json() == game.to_json()
    assert other.is_over
    return other


#: whole games continued from a copy: forced decisions applied automatically or not, and the point variant, at every
#: player count
CONTINUATIONS = [
    pytest.param(players, auto_forced, point_variant, id=f"{name}-{players}")
    for name, auto_forced, point_variant in (("auto", True, False), ("manual", False, False), ("variant", True, True))
    for players in PLAYER_COUNTS
]


@pytest.mark.parametrize(
    ("players", "auto_forced", "point_variant"),
    slow_except(CONTINUATIONS, {"auto-2", "manual-2", "auto-3", "manual-3"}),
)
def test_json_roundtrip_continues_identically(players: int, auto_forced: bool, point_variant: bool) -> None:
    seed = 40 + players
    game = Game.new(players=players, seed=seed, auto_forced=auto_forced, point_variant=point_variant)
    rng = random.Random(seed)
    copy = roundtrip(game)
    assert copy.to_json() == game.to_json()
    copy = _lockstep(game, copy, rng, refresh_every=11, refresh=roundtrip)
    assert copy.to_json() == game.to_json()
    assert copy.winners == game.winners
    assert copy.scores() == game.scores()
    assert [tuple(e) for e in copy.events] == [tuple(e) for e in game.events]
    # the finished game round-trips too
    assert roundtrip(game).to_json() == game.to_json()


@pytest.mark.parametrize(
    ("players", "auto_forced", "point_variant"),
    slow_except(CONTINUATIONS, {f"{name}-{n}" for name in ("auto", "manual", "variant") for n in (2, 3)}),
)
def test_clone_continues_identically(players: int, auto_forced: bool, point_variant: bool) -> None:
    seed = 50 + players
    game = Game.new(players=players, seed=seed, auto_forced=auto_forced, point_variant=point_variant)
    rng = random.Random(seed)
    copy = _lockstep(game, game.clone(), rng, refresh_every=7, refresh=lambda g: g.clone())
    assert copy.to_json() == game.to_json()
    assert copy.events == game.events


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_clone_is_independent(players: int) -> None:
    game = Game.new(players=players, seed=60 + players)
    rng = random.Random(players)
    for _ in range(150):  # somewhere inside round 1
        game.apply(rng.choice(game.legal_actions()))
    before = json.dumps(game.to_json(), sort_keys=True)
    clone = game.clone()

    # play the clone on, to the end
    clone_rng = random.Random(99)
    while not clone.is_over:
        clone.apply(clone_rng.choice(clone.legal_actions()))
    assert json.dumps(game.to_json(), sort_keys=True) == before

    # mutate every kind of container of a fresh clone by hand
    clone = game.clone()
    s = clone.python_state()
    s.players[0].money += 50
    s.players[0].hand[0] += 1
    s.players[0].markers[0] = not s.players[0].markers[0]
    s.draw.append(0)
    s.discard.append(0)
    s.fields[0][0].append(0)
    s.sets[0].append(0)
    s.controller[0] = 0
    s.spaces[0] = 0
    s.coin_bowl.append(0)
    s.bids[0] = 3
    s.fulfilled_since[0] = 5
    s.atrium_up.append(True)
    s.agenda.append(("round_end",))
    s.staged.append(0)
    s.contest.append(0)
    s.pairs.append((0, 0, 0))
    s.first_laurel[0] = not s.first_laurel[0]
    s.events.append(s.events[0])
    s.log(0, "only in the clone")
    assert json.dumps(game.to_json(), sort_keys=True) == before
    # the other way round: playing the original on leaves an earlier clone as it was
    clone = game.clone()
    play_checked(game, seed=5)
    assert json.dumps(clone.to_json(), sort_keys=True) == before


def test_roundtrip_json_text_and_dict_agree() -> None:
    game = Game.new(players=3, seed=11)
    rng = random.Random(11)
    for _ in range(200):
        game.apply(rng.choice(game.legal_actions()))
    doc = game.to_json()
    from_text = Game.from_json(json.dumps(doc))
    from_dict = Game.from_json(json.loads(json.dumps(doc)))
    assert from_text.to_json() == from_dict.to_json() == doc


# --- round-trips at delicate moments ----------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_roundtrip_during_setup_discards(players: int) -> None:
    game = Game.new(players=players, seed=1)
    rng = random.Random(players)
    assert game.phase is Phase.SETUP
    while game.phase is Phase.SETUP:
        copy = roundtrip(game)
        assert copy.to_json() == game.to_json()
        assert copy.legal_actions() == game.legal_actions()
        action = rng.choice(game.legal_actions())
        copy.apply(action)
        game.apply(action)
        assert copy.to_json() == game.to_json()


def test_roundtrip_during_takeover_rewards() -> None:
    """A game saved inside a take-over (leader, assassin, penalty, Cato) loads although the new
    controller still stands on the faction field until the take-over ends."""
    reached = 0
    for players in PLAYER_COUNTS:
        for seed in range(4):
            game = Game.new(players=players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                if game.phase is Phase.TAKEOVERS and game.pending.kind.key != "takeover_set":
                    reached += 1
                    copy = roundtrip(game)
                    assert copy.to_json() == game.to_json()
                game.apply(rng.choice(game.legal_actions()))
    assert reached > 0


# --- the example of docs/state-format.md --------------------------------------------------------


def _doc_examples() -> list[dict[str, Any]]:
    text = STATE_FORMAT_DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)
    return [json.loads(block) for block in blocks]


def test_state_format_doc_example_loads() -> None:
    """The complete hand-written example in docs/state-format.md loads and plays on (so it cannot rot)."""
    examples = [doc for doc in _doc_examples() if "players" in doc and "config" in doc]
    assert examples, "docs/state-format.md has no complete ```json example"
    for doc in examples:
        original = json.loads(json.dumps(doc))
        game = Game.from_json(doc)
        assert doc == original  # not mutated
        check_invariants(game)
        assert not game.is_over
        assert game.round == doc.get("round", 1)
        out = game.to_json()
        for seat, raw in enumerate(doc["players"]):
            for key in ("money", "laurels", "legions"):
                assert out["players"][seat][key] == raw.get(key, 0)
            assert sorted(out["players"][seat]["hand"]) == sorted(raw.get("hand", []))
            assert out["players"][seat]["sets"] == raw.get("sets", {})
        # the example continues like any game
        play_checked(game, seed=1)
