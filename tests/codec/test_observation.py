"""The observation vector holds what one seat may know, and nothing else (R1, R2).

* Leak test: every card the observer may not see (other hands, the piles and
  their order, face-down board cards, other players' sealed pairs and staged
  cards) is re-dealt consistently with the observer's view, other players'
  sealed bids are changed (R2), and the chance key is changed; the encoding
  must stay byte-identical. Controls show the comparison is sensitive: the same
  re-deal changes the observation of a seat that may see the moved cards, and
  encoders patched to leak the draw pile, another hand, a sealed bid or the
  face-down board are caught.
* Determinism, relative seats (slot 0 is the observer), padding of absent seats.
* Pieces in hand-made positions: own hand, pending decision, the Catacombs pile
  seen only by its decider while choosing and the Pantheon card once seen (R1),
  staged take-over cards, sealed bids (R2).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hidden_info import assert_no_leak, differing_pieces, hide_and_redeal
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import card, pick, place, position, random_game
from slow_marks import slow_except_values
from test_codec import modified_components

from tribune_env import Bid, DecisionKind, Faction, Game, GameConfig, Region, default_components
from tribune_env.codec import ObservationEncoder, encoder_for
from tribune_env.codec import observation as observation_module
from tribune_env.engine.state import GameState

COMPONENTS = default_components()
ENC = encoder_for(COMPONENTS)
PLAYER_COUNTS = COMPONENTS.player_counts
NUM_CARDS = ENC.tables.num_card_types

# Pieces that describe the game, not the observer: every seat must see the same values.
PUBLIC_PIECES = (
    "round",
    "phase",
    "victory_card",
    "point_variant",
    "thresholds",
    "obligatory",
    "required",
    "pending_kind",
    "pending_faction",
    "pending_index",
    "staged_size",
    "contest",
    "sets",
    "first_laurel",
    "chariot",
    "colosseum",
    "piles",
)


# --- helpers -------------------------------------------------------------------------------------


def piece(obs: np.ndarray, name: str, encoder: ObservationEncoder = ENC) -> np.ndarray:
    p = encoder.piece[name]
    return obs[p.start : p.stop]


def player_entry(name: str, slot: int, encoder: ObservationEncoder = ENC) -> slice:
    """The entries of per-player field ``name`` (or yes/no flag ``name``) in relative seat ``slot``."""
    rows = {row[0]: (row[1], row[2]) for row in encoder.layout_rows()}
    per = encoder.piece["players"].size // encoder.max_players
    key = f"players[0].{name}"
    if key in rows:
        start, size = rows[key]
    else:  # a yes/no entry inside the per-player flags
        start, size = rows["players[0].flags"][0] + observation_module.PLAYER_FLAGS.index(name), 1
    return slice(start + slot * per, start + slot * per + size)


def player_block(obs: np.ndarray, slot: int, encoder: ObservationEncoder = ENC) -> np.ndarray:
    per = encoder.piece["players"].size // encoder.max_players
    start = encoder.piece["players"].start + slot * per
    return obs[start : start + per]


def board_field(obs: np.ndarray, region: Region, i: int = 0, encoder: ObservationEncoder = ENC) -> np.ndarray:
    """Face-up card counts of card field ``i`` of ``region``."""
    slot = encoder.field_slot[(region, i)]
    start = encoder.piece["board"].start + slot * encoder.tables.num_card_types
    return obs[start : start + encoder.tables.num_card_types]


def board_hidden(obs: np.ndarray, region: Region, i: int = 0, encoder: ObservationEncoder = ENC) -> float:
    return float(piece(obs, "board_hidden", encoder)[encoder.field_slot[(region, i)]])


def counts(*labels: str) -> np.ndarray:
    out = np.zeros(NUM_CARDS, dtype=np.float32)
    for label in labels:
        out[card(None, label)] += 1
    return out


def play_until(game: Game, rng: random.Random, stop: Callable[[Game], bool], limit: int = 20_000) -> Game:
    for _ in range(limit):
        if game.is_over or stop(game):
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the situation did not occur")


def special(state: GameState) -> list[str]:
    """Kinds of hidden information present in ``state`` (for coverage of the leak test)."""
    out = []
    pending = state.pending
    if pending is None:
        return out
    if state.staged:
        out.append("staged cards")
    if state.pairs:
        out.append("sealed pairs")
    if sum(b >= 0 for b in state.bids) >= 1:
        out.append("sealed bid")
    if pending.kind is DecisionKind.CATACOMBS_PURCHASE:
        out.append("catacombs decider")
    if pending.kind is DecisionKind.PANTHEON_SACRIFICE:
        out.append("pantheon sacrifice")
    if any(p.pantheon_seen for p in state.players) and state.fields[Region.PANTHEON][0]:
        out.append("pantheon seen")
    if any(state.atrium_up) and not all(state.atrium_up):
        out.append("atrium half face up")
    if pending.kind is DecisionKind.LATRINE_CHOICE:
        out.append("latrine choice")
    if state.contest:
        out.append("contest")
    return out


# --- the leak test -------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from(PLAYER_COUNTS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 2500),
    redeal_seed=st.integers(0, 2**32 - 1),
)
def test_observation_ignores_hidden_information(players: int, seed: int, steps: int, redeal_seed: int) -> None:
    """R1, R2 at a random point of a random game, for every seat."""
    state = random_game(players, seed, steps).position()
    rng = random.Random(redeal_seed)
    for seat in range(players):
        assert_no_leak(ENC, state, seat, rng)


@pytest.mark.parametrize("players", slow_except_values(PLAYER_COUNTS, quick=[2]))
def test_observation_ignores_hidden_information_along_games(players: int) -> None:
    """R1, R2 along whole games: every 40th decision and every decision with special hidden information."""
    seen: Counter[str] = Counter()
    rng = random.Random(players)
    for seed in range(3):
        game = Game.new(players=players, seed=1000 * players + seed)
        play_rng = random.Random(seed)
        step = 0
        while not game.is_over:
            kinds = special(game.position())
            if kinds or step % 40 == 0:
                seen.update(kinds)
                seen["states"] += 1
                for seat in range(players):
                    assert_no_leak(ENC, game.position(), seat, rng, tries=1)
            game.apply(play_rng.choice(game.legal_actions()))
            step += 1
        for seat in range(players):
            assert_no_leak(ENC, game.position(), seat, rng, tries=1)
    for kind in ("staged cards", "sealed pairs", "sealed bid", "catacombs decider", "atrium half face up"):
        assert seen[kind] > 0, f"the games never reached {kind!r}: {seen}"


def test_leak_test_covers_rare_situations() -> None:
    """The Pantheon (seen card, sacrifice), the Latrine and a contested take-over (R15) also pass the leak test."""
    wanted = {"pantheon seen", "pantheon sacrifice", "latrine choice", "contest"}
    found: set[str] = set()
    rng = random.Random(5)
    for seed in range(40):
        game = Game.new(players=2 + seed % 4, seed=seed)
        play_rng = random.Random(seed)
        while not game.is_over and not wanted <= found:
            kinds = set(special(game.position())) & wanted
            if kinds - found:
                found |= kinds
                for seat in range(game.num_players):
                    assert_no_leak(ENC, game.position(), seat, rng, tries=3)
            game.apply(play_rng.choice(game.legal_actions()))
        if wanted <= found:
            break
    assert found == wanted


# --- the leak test can fail ----------------------------------------------------------------------


def test_redealing_changes_what_the_owner_sees() -> None:
    """Control: a re-deal for another seat moves the observer's own hand, and its observation changes."""
    rng = random.Random(0)
    changed = 0
    for players in PLAYER_COUNTS:
        for steps in (0, 150, 400, 900):
            state = random_game(players, steps + players, steps).position()
            for seat in range(players):
                other = hide_and_redeal(state, (seat + 1) % players, rng)
                if other.players[seat].hand != state.players[seat].hand:
                    assert ENC.encode(other, seat).tobytes() != ENC.encode(state, seat).tobytes()
                    assert "hand" in differing_pieces(ENC.encode(other, seat), ENC.encode(state, seat))
                    changed += 1
    assert changed >= 20


def test_redealing_changes_what_the_catacombs_decider_sees() -> None:
    """Control (R1): a re-deal for a seat that may not see the Catacombs changes what the decider sees."""
    game = play_until(
        Game.new(players=3, seed=2),
        random.Random(2),
        lambda g: (
            g.pending.kind is DecisionKind.CATACOMBS_PURCHASE and len(set(g.position().fields[Region.CATACOMBS][0])) > 1
        ),
    )
    decider = game.current_seat
    other_seat = (decider + 1) % 3
    rng = random.Random(1)
    for _ in range(20):
        other = hide_and_redeal(game.position(), other_seat, rng)
        if sorted(other.fields[Region.CATACOMBS][0]) != sorted(game.position().fields[Region.CATACOMBS][0]):
            before, after = ENC.encode(game.position(), decider), ENC.encode(other, decider)
            assert "board" in differing_pieces(before, after)
            assert_no_leak(ENC, game.position(), other_seat, rng)  # while the other seat sees nothing of it
            return
    raise AssertionError("the re-deal never changed the Catacombs pile")


def _leaky(monkeypatch: pytest.MonkeyPatch, leak: Callable[[np.ndarray, GameState, int], None]) -> ObservationEncoder:
    """A fresh encoder (not the shared one) whose ``encode`` also writes ``leak`` into the vector."""
    encoder = ObservationEncoder(COMPONENTS)
    original = encoder.encode

    def encode(state: GameState, seat: int) -> np.ndarray:
        obs = original(state, seat)
        leak(obs, state, seat)
        return obs

    monkeypatch.setattr(encoder, "encode", encode)
    return encoder


def _leak_draw_pile(obs: np.ndarray, state: GameState, seat: int) -> None:
    if state.draw:
        obs[ENC.piece["hand"].start + state.draw[-1]] += 1  # the top card of the draw pile


def _leak_next_hand(obs: np.ndarray, state: GameState, seat: int) -> None:
    sets = ENC.piece["sets"]
    obs[sets.start : sets.stop] += np.asarray(state.players[(seat + 1) % state.num_players].hand, dtype=np.float32)


def _leak_bids(obs: np.ndarray, state: GameState, seat: int) -> None:
    obs[ENC.piece["my_bid"].start + 1] = sum(max(b, 0) for b in state.bids) / 100


@pytest.mark.parametrize("leak", [_leak_draw_pile, _leak_next_hand], ids=["draw pile", "another hand"])
def test_leak_test_catches_a_leaky_encoder(monkeypatch: pytest.MonkeyPatch, leak: Callable[..., None]) -> None:
    leaky = _leaky(monkeypatch, leak)
    state = random_game(4, 7, 300).position()
    assert state.draw and state.players[1].hand_size > 0
    assert_no_leak(ENC, state, 0, random.Random(0), tries=5)  # the real encoder passes
    with pytest.raises(AssertionError, match="hidden information"):
        assert_no_leak(leaky, state, 0, random.Random(0), tries=5)


def test_leak_test_catches_a_leaked_sealed_bid(monkeypatch: pytest.MonkeyPatch) -> None:
    """R2: an encoder showing another player's sealed bid is caught."""
    game = play_until(
        Game.new(players=3, seed=4),
        random.Random(4),
        lambda g: any(b > 0 for s, b in enumerate(g.position().bids) if s != g.current_seat),
    )
    seat = game.current_seat
    leaky = _leaky(monkeypatch, _leak_bids)
    assert_no_leak(ENC, game.position(), seat, random.Random(0), tries=5)
    with pytest.raises(AssertionError, match="hidden information"):
        assert_no_leak(leaky, game.position(), seat, random.Random(0), tries=5)


def test_leak_test_catches_face_down_board_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """An encoder that treats every board field as face up is caught (the Catacombs pile is face down, R1)."""
    game = play_until(
        Game.new(players=4, seed=6),
        random.Random(6),
        lambda g: g.pending.kind is DecisionKind.PLACE_FOLLOWER and len(g.position().fields[Region.CATACOMBS][0]) > 1,
    )
    fresh = ObservationEncoder(COMPONENTS)
    assert_no_leak(fresh, game.position(), 0, random.Random(0), tries=5)
    monkeypatch.setattr(observation_module, "field_visible", lambda *args: True)
    with pytest.raises(AssertionError, match="board"):
        assert_no_leak(fresh, game.position(), 0, random.Random(0), tries=5)


# --- determinism ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_same_seed_and_actions_give_the_same_observations(players: int) -> None:
    def run() -> list[bytes]:
        game = Game.new(players=players, seed=77)
        rng = random.Random(77)
        out = []
        while not game.is_over and len(out) < 3000:
            out.extend(ENC.encode(game.position(), s).tobytes() for s in range(players))
            game.apply(rng.choice(game.legal_actions()))
        out.extend(ENC.encode(game.position(), s).tobytes() for s in range(players))
        return out

    first, second = run(), run()
    assert first == second
    assert len(set(first)) > 100  # the observations do change along the game


def test_encoding_is_pure() -> None:
    """encode neither changes the state nor shares its output array between calls."""
    game = random_game(3, 9, 500)
    before = game.to_json()
    state = game.python_state()  # the live state: a change made by encode would show in to_json
    a = ENC.encode(state, 1)
    copy = a.copy()
    a[:] = 7
    b = ENC.encode(state, 1)
    assert np.array_equal(b, copy)
    ENC.encode(state, 0)
    ENC.encode(state, 2)
    assert np.array_equal(ENC.encode(state, 1), copy)
    assert game.to_json() == before


def test_a_saved_game_gives_the_same_observations() -> None:
    """A game read back from its JSON document is observed exactly like the original, and goes on so."""
    game = random_game(4, 12, 700)
    copy = Game.from_json(json.dumps(game.to_json()))
    rng = random.Random(3)
    for _ in range(300):
        for seat in range(4):
            assert ENC.encode(copy.position(), seat).tobytes() == ENC.encode(game.position(), seat).tobytes()
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        game.apply(action)
        copy.apply(action)


def test_encoders_of_the_same_components_agree() -> None:
    fresh = ObservationEncoder(COMPONENTS)
    assert fresh.size == ENC.size
    assert np.array_equal(fresh.high, ENC.high)
    assert [(p.name, p.start, p.size) for p in fresh.pieces] == [(p.name, p.start, p.size) for p in ENC.pieces]
    state = random_game(5, 1, 800).position()
    for seat in range(5):
        assert fresh.encode(state, seat).tobytes() == ENC.encode(state, seat).tobytes()


# --- layout and relative seats -------------------------------------------------------------------


def test_layout_pieces_are_contiguous() -> None:
    start = 0
    for p in ENC.pieces:
        assert p.start == start and p.size > 0, p
        start = p.stop
    assert ENC.size == start
    assert ENC.high.shape == (ENC.size,) and ENC.high.dtype == np.float32
    assert (ENC.high >= 1).all()
    assert ENC.piece["players"].size % ENC.max_players == 0
    assert len({p.name for p in ENC.pieces}) == len(ENC.pieces)
    rows = ENC.layout_rows()
    assert [r[0] for r in rows[: len(ENC.pieces)]] == [p.name for p in ENC.pieces]
    assert all(r[0].startswith("players[0].") for r in rows[len(ENC.pieces) :])


def test_size_does_not_depend_on_the_player_count() -> None:
    sizes = {players: ENC.encode(Game.new(players=players, seed=0).position(), 0).shape for players in PLAYER_COUNTS}
    assert set(sizes.values()) == {(ENC.size,)}


def _random_states() -> list[GameState]:
    return [
        random_game(players, seed, steps).position() for players in PLAYER_COUNTS for seed, steps in ((1, 60), (2, 700))
    ]


def test_slot_zero_is_the_observer() -> None:
    sc = ENC.scales
    for state in _random_states():
        n = state.num_players
        for seat in range(n):
            obs = ENC.encode(state, seat)
            for slot in range(n):
                p = state.players[(seat + slot) % n]
                assert obs[player_entry("present", slot)] == [1.0]
                assert obs[player_entry("money", slot)] == pytest.approx([min(p.money / sc.money, 1.0)])
                assert obs[player_entry("hand_size", slot)] == pytest.approx([min(p.hand_size / sc.cards, 1.0)])
                assert obs[player_entry("laurels", slot)] == pytest.approx([min(p.laurels / sc.laurels, 1.0)])
                assert np.array_equal(obs[player_entry("markers", slot)], np.asarray(p.markers, dtype=np.float32))
            assert np.array_equal(piece(obs, "hand"), np.asarray(state.players[seat].hand, dtype=np.float32))
            pending = state.pending
            if pending is not None:
                relative = (pending.seat - seat) % n
                assert np.flatnonzero(piece(obs, "pending_seat")).tolist() == [relative]
                assert obs[player_entry("to_act", relative)] == [1.0]
                assert sum(float(obs[player_entry("to_act", k)][0]) for k in range(ENC.max_players)) == 1.0


def test_absent_seats_are_zero_padding() -> None:
    for state in _random_states():
        n = state.num_players
        for seat in range(n):
            obs = ENC.encode(state, seat)
            for slot in range(ENC.max_players):
                block = player_block(obs, slot)
                if slot < n:
                    assert obs[player_entry("present", slot)] == [1.0]
                else:
                    assert not block.any(), f"slot {slot} of a {n}-player game is not zero"
            assert not piece(obs, "pending_seat")[n:].any()
            spaces = piece(obs, "spaces").reshape(-1, ENC.max_players)
            assert not spaces[:, n:].any()


def test_rotation_consistency() -> None:
    """Every per-player entry is public (R1): seat s's slot k is seat (s+k)'s slot 0, and the public pieces agree."""
    for state in _random_states():
        n = state.num_players
        observations = [ENC.encode(state, seat) for seat in range(n)]
        for seat in range(n):
            for slot in range(n):
                assert np.array_equal(
                    player_block(observations[seat], slot), player_block(observations[(seat + slot) % n], 0)
                ), (seat, slot)
            for name in PUBLIC_PIECES:
                assert np.array_equal(piece(observations[seat], name), piece(observations[0], name)), name
            spaces = piece(observations[seat], "spaces").reshape(-1, ENC.max_players)
            for space, occupant in enumerate(state.spaces):
                expected = [] if occupant < 0 else [(occupant - seat) % n]
                assert np.flatnonzero(spaces[space]).tolist() == expected


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 2500))
def test_observations_are_bounded(players: int, seed: int, steps: int) -> None:
    state = random_game(players, seed, steps).position()
    for seat in range(players):
        obs = ENC.encode(state, seat)
        assert obs.dtype == np.float32 and obs.shape == (ENC.size,)
        assert np.isfinite(obs).all()
        assert (obs >= 0).all() and (obs <= ENC.high).all()


# --- pieces in hand-made positions ----------------------------------------------------------------


def test_own_hand_counts_and_other_hand_sizes() -> None:
    game = position(
        [
            {"money": 9, "hand": ["senators:7", "senators:7", "vestals:3"]},
            {"money": 4, "hand": ["gladiators:1", "legates:2", "legates:3", "plebeians:4"]},
        ],
        phase="follower_placement",
        start_seat=0,
        turn_seat=1,
    )
    obs0, obs1 = ENC.encode(game.position(), 0), ENC.encode(game.position(), 1)
    assert np.array_equal(piece(obs0, "hand"), counts("senators:7", "senators:7", "vestals:3"))
    assert np.array_equal(piece(obs1, "hand"), counts("gladiators:1", "legates:2", "legates:3", "plebeians:4"))
    sc = ENC.scales
    assert obs0[player_entry("hand_size", 0)] == pytest.approx([3 / sc.cards])
    assert obs0[player_entry("hand_size", 1)] == pytest.approx([4 / sc.cards])
    assert obs1[player_entry("hand_size", 0)] == pytest.approx([4 / sc.cards])
    assert obs1[player_entry("money", 1)] == pytest.approx([9 / sc.money])
    assert obs0[player_entry("start_player", 0)] == [1.0] and obs0[player_entry("start_player", 1)] == [0.0]


def test_pending_kind_is_one_hot() -> None:
    game = Game.new(players=3, seed=8)
    rng = random.Random(8)
    kinds: set[DecisionKind] = set()
    while not game.is_over:
        pending = game.pending
        obs = ENC.encode(game.position(), 0)
        assert np.flatnonzero(piece(obs, "pending_kind")).tolist() == [int(pending.kind)]
        faction = np.flatnonzero(piece(obs, "pending_faction")).tolist()
        assert faction == ([pending.faction] if pending.faction >= 0 else [])
        index = np.flatnonzero(piece(obs, "pending_index")).tolist()
        assert index == ([int(pending.index)] if pending.index >= 0 else [])
        assert np.flatnonzero(piece(obs, "phase")).tolist() == [int(game.phase)]
        kinds.add(pending.kind)
        game.apply(rng.choice(game.legal_actions()))
    assert len(kinds) >= 10
    for seat in range(3):
        obs = ENC.encode(game.position(), seat)
        assert not piece(obs, "pending_kind").any() and not piece(obs, "pending_seat").any()
        assert not any(obs[player_entry("to_act", k)][0] for k in range(ENC.max_players))


CATACOMBS = ["plebeians:6", "vestals:3", "gladiators:0", "patricians:3", "praetorians:2"]


def test_catacombs_pile_is_seen_only_by_its_decider_while_choosing() -> None:
    """R1: a player evaluating the Catacombs sees the remaining pile cards; nobody else, and not afterwards."""
    game = position(
        [{"money": 10}, {"money": 10}, {"money": 10}],
        phase="region_evaluation",
        followers={"catacombs:1": 0, "catacombs:2": 1},
        board={"catacombs": [CATACOMBS]},
    )
    hidden_5 = pytest.approx(5 / ENC.scales.cards)
    assert game.pending.kind is DecisionKind.CATACOMBS_PURCHASE and game.current_seat == 0
    obs = [ENC.encode(game.position(), s) for s in range(3)]
    assert np.array_equal(board_field(obs[0], Region.CATACOMBS), counts(*CATACOMBS))
    assert board_hidden(obs[0], Region.CATACOMBS) == 0
    for s in (1, 2):
        assert not board_field(obs[s], Region.CATACOMBS).any()
        assert board_hidden(obs[s], Region.CATACOMBS) == hidden_5
    game.apply(pick(game, "vestals:3"))  # P0 buys; P1 now chooses from the four left
    assert game.pending.kind is DecisionKind.CATACOMBS_PURCHASE and game.current_seat == 1
    rest = [c for c in CATACOMBS if c != "vestals:3"]
    obs = [ENC.encode(game.position(), s) for s in range(3)]
    assert np.array_equal(board_field(obs[1], Region.CATACOMBS), counts(*rest))
    for s in (0, 2):
        assert not board_field(obs[s], Region.CATACOMBS).any(), f"P{s} still sees the Catacombs"
        assert board_hidden(obs[s], Region.CATACOMBS) == pytest.approx(4 / ENC.scales.cards)
    assert piece(obs[0], "hand")[card(None, "vestals:3")] == 1  # the bought card is in P0's hand only
    assert piece(obs[2], "hand")[card(None, "vestals:3")] == 0


def test_pantheon_card_is_seen_once_placed() -> None:
    """R1: a player on the Pantheon sees its card when placing, and keeps seeing it; the others do not."""
    game = position(
        [{"markers": ["vestals"], "followers": 1, "hand": ["vestals:4"]}, {"followers": 1}],
        phase="follower_placement",
        board={"pantheon": [["vestals:9"]]},
    )
    vestals_9 = counts("vestals:9")
    for seat in (0, 1):
        obs = ENC.encode(game.position(), seat)
        assert not board_field(obs, Region.PANTHEON).any()
        assert board_hidden(obs, Region.PANTHEON) == pytest.approx(1 / ENC.scales.cards)
    game.apply(place(game, "pantheon:1"))
    assert game.current_seat == 1
    assert np.array_equal(board_field(ENC.encode(game.position(), 0), Region.PANTHEON), vestals_9)
    assert not board_field(ENC.encode(game.position(), 1), Region.PANTHEON).any()
    game.apply(place(game, "coin_bowl"))
    assert game.pending.kind is DecisionKind.PANTHEON_SACRIFICE and game.current_seat == 0
    obs0 = ENC.encode(game.position(), 0)
    assert np.array_equal(board_field(obs0, Region.PANTHEON), vestals_9)
    assert board_hidden(obs0, Region.PANTHEON) == 0
    for seat in (0, 1):
        assert_no_leak(ENC, game.position(), seat, random.Random(seat), tries=3)


def test_staged_take_over_cards_are_seen_only_by_their_owner() -> None:
    """Cards being assembled for a take-over set: the owner sees them; for the others they still count as held."""
    game = position(
        [{"hand": ["senators:7", "senators:8", "senators:9"]}, {"hand": ["legates:2"]}],
        phase="takeovers",
        followers={"faction:senators:1": 0},
    )
    assert game.pending.kind is DecisionKind.TAKEOVER_SET and game.pending.faction == Faction.SENATORS
    game.apply(pick(game, "senators:7"))
    assert game.position().staged == [card(game, "senators:7")]
    obs0, obs1 = ENC.encode(game.position(), 0), ENC.encode(game.position(), 1)
    assert np.array_equal(piece(obs0, "staged"), counts("senators:7"))
    assert np.array_equal(piece(obs0, "hand"), counts("senators:8", "senators:9"))
    assert not piece(obs1, "staged").any()
    assert float(piece(obs0, "staged_size")[0]) == pytest.approx(1 / ENC.scales.cards)
    assert float(piece(obs1, "staged_size")[0]) == 0
    assert obs1[player_entry("hand_size", 1)] == pytest.approx([3 / ENC.scales.cards])
    assert_no_leak(ENC, game.position(), 1, random.Random(1), tries=3)


def test_sealed_bids_are_private() -> None:
    """R2: the second bidder's observation is the same whatever the first bid; the bidder sees its own bid."""

    def after_first_bid(amount: int) -> Game:
        game = position(
            [{"money": 20}, {"money": 15}],
            phase="region_evaluation",
            followers={"atrium:1": 0, "atrium:2": 1},
            board={"atrium": [["senators:4"], ["senators:5"], ["vestals:3"]]},
        )
        assert game.pending.kind is DecisionKind.ATRIUM_BID and game.current_seat == 0
        game.apply(Bid(amount))
        assert game.pending.kind is DecisionKind.ATRIUM_BID and game.current_seat == 1
        return game

    low, high = after_first_bid(0), after_first_bid(17)
    assert ENC.encode(low.position(), 1).tobytes() == ENC.encode(high.position(), 1).tobytes()
    own = piece(ENC.encode(high.position(), 0), "my_bid")
    assert own.tolist() == pytest.approx([1.0, 17 / ENC.scales.money])
    assert piece(ENC.encode(high.position(), 1), "my_bid").tolist() == [0.0, 0.0]


def test_field_of_mars_pairs_are_private() -> None:
    """R2: sealed pairs are seen by their owner only; for the others the pair cards still count as held."""
    game = play_until(Game.new(players=3, seed=3), random.Random(3), lambda g: bool(g.position().pairs))
    owner = game.position().pairs[0][0]
    for seat in range(3):
        obs = ENC.encode(game.position(), seat)
        mine = Counter(c for s, a, b in game.position().pairs if s == seat for c in (a, b))
        expected = np.zeros(NUM_CARDS, dtype=np.float32)
        for c, k in mine.items():
            expected[c] = k
        assert np.array_equal(piece(obs, "my_pairs"), expected)
        for other in range(3):
            held = sum(game.position().players[other].hand) + 2 * sum(s == other for s, _, _ in game.position().pairs)
            expected_size = min(held / ENC.scales.cards, 1.0)
            assert obs[player_entry("hand_size", (other - seat) % 3)] == pytest.approx([expected_size])
        assert_no_leak(ENC, game.position(), seat, random.Random(seat), tries=3)
    pairs = game.position().pairs
    assert piece(ENC.encode(game.position(), owner), "my_pairs").sum() == 2 * sum(s == owner for s, _, _ in pairs)


# --- variants and other component files -----------------------------------------------------------


def test_point_variant_observations() -> None:
    """The point-value variant: no victory card, the marker goal, bounded and leak-free observations (R1, R2)."""
    rng = random.Random(11)
    for players in PLAYER_COUNTS:
        game = Game.new(players=players, seed=players, point_variant=True)
        play_rng = random.Random(players)
        step = 0
        while not game.is_over:
            if step % 97 == 0:
                for seat in range(players):
                    obs = ENC.encode(game.position(), seat)
                    assert piece(obs, "point_variant").tolist() == [1.0]
                    assert not piece(obs, "victory_card").any()
                    assert piece(obs, "thresholds")[3] == pytest.approx(
                        COMPONENTS.point_variant[players] / len(Faction)
                    )
                    assert (obs >= 0).all() and (obs <= ENC.high).all()
                    assert_no_leak(ENC, game.position(), seat, rng, tries=1)
            game.apply(play_rng.choice(game.legal_actions()))
            step += 1


def test_round_is_scaled_by_the_round_limit() -> None:
    """R25: the round entry is round / round limit, so it reaches 1 exactly at the limit."""
    encoder = encoder_for(COMPONENTS, 5)
    assert encoder.size == ENC.size
    game = Game.new(players=2, seed=1, round_limit=5)
    rng = random.Random(1)
    while not game.is_over:
        assert piece(encoder.encode(game.position(), 0), "round")[0] == pytest.approx(game.round / 5)
        game.apply(rng.choice(game.legal_actions()))
    assert piece(encoder.encode(game.position(), 0), "round")[0] <= 1.0


def test_user_component_file_changes_the_layout(tmp_path: Path) -> None:
    """A user file with another card type, a fifth Thermae field and 6 players: the pieces follow the file."""
    comps = modified_components(tmp_path)
    encoder = encoder_for(comps)
    tables = encoder.tables
    assert tables.num_card_types == NUM_CARDS + 1
    assert encoder.max_players == 6
    assert encoder.piece["hand"].size == NUM_CARDS + 1
    assert encoder.piece["pending_seat"].size == 6
    assert encoder.piece["spaces"].size == len(tables.spaces) * 6 == (len(ENC.tables.spaces) + 1) * 6
    assert encoder.piece["board_hidden"].size == len(ENC.fields) + 1
    assert encoder.piece["board"].size == (len(ENC.fields) + 1) * (NUM_CARDS + 1)
    assert encoder.piece["players"].size == 6 * (ENC.piece["players"].size // ENC.max_players)
    assert encoder.high.shape == (encoder.size,)
    assert encoder.high[encoder.piece["hand"].start + tables.card_by_label["senators:11"]] == 1
    game = Game.new(GameConfig(players=6, components=comps), seed=2)
    rng = random.Random(2)
    for step in range(1500):
        if game.is_over:
            break
        if step % 150 == 0:
            for seat in range(6):
                obs = encoder.encode(game.position(), seat)
                assert obs.shape == (encoder.size,)
                assert (obs >= 0).all() and (obs <= encoder.high).all()
                assert obs[player_entry("present", 5, encoder)] == [1.0]
                assert_no_leak(encoder, game.position(), seat, rng, tries=1)
        game.apply(rng.choice(game.legal_actions()))


def test_split_names_every_entry_once() -> None:
    game = random_game(4, 8, 300)
    obs = ENC.encode(game.position(), game.current_seat)
    parts = ENC.split(obs)
    assert sum(part.size for part in parts.values()) == ENC.size
    assert np.array_equal(parts["hand"], piece(obs, "hand"))
    assert parts["players[0].flags"][0] == 1  # slot 0 is the observer, who is present
    assert not parts["players[4].flags"].any()  # a fifth seat does not exist in a four-player game
    assert float(parts["players[0].money"][0]) == pytest.approx(
        min(game.position().players[game.current_seat].money / ENC.scales.money, 1.0)
    )
    with pytest.raises(ValueError, match="shape"):
        ENC.split(obs[:-1])
