"""The Brutii variant in the expansion environments (issue 15): the same spaces as issue 14 (the Brutii's action
cards and Veto in their blocks, his other choices in the shared blocks), masks equal to the legal choices at every
decision of Brutii games, his public state in the observation and nothing hidden (R45, R49), PettingZoo
``api_test``/``seed_test`` at 5 and 6 seats, Gymnasium and SB3 ``check_env`` and the single-agent ``learner_role``."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Callable

import gymnasium
import numpy as np
import pettingzoo
import pytest
from env_checks import run_api_test, sb3_check_env
from gymnasium.utils.env_checker import check_env as gym_check_env
from hidden_info import assert_no_leak as observation_unchanged
from hidden_info import leaky_encoder, redeal_everything_hidden, walk_checking_leaks
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import seed_test
from positions import random_game
from slow_marks import slow_except_values

import tribune_env
from tribune_env import DecisionKind, Game, default_components
from tribune_env.codec import ObservationEncoder, Space, codec_for, encoder_for
from tribune_env.data import BrutiiCard, BrutiiDisc, BrutiiSpec, Region
from tribune_env.engine.actions import DECLINE, Bid, ChooseActionCard, ChooseRegion
from tribune_env.engine.brutii_ops import by_card
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS, FAMILY_DECISION_KINDS
from tribune_env.engine.state import OPTED_OUT, GameState
from tribune_env.envs import EXPANSION_AEC_ID, EXPANSION_SINGLE_ID, Table, TribuneExpansionSingleEnv

COMPONENTS = default_components()
CODEC = codec_for(COMPONENTS, Space.EXPANSION)
ENC = encoder_for(COMPONENTS, 60, Space.EXPANSION)


def _brutii_spec() -> BrutiiSpec:
    extra = COMPONENTS.expansion
    assert extra is not None and extra.brutii is not None
    return extra.brutii


SPEC = _brutii_spec()
SEATS = SPEC.seat_counts  # 5 and 6 (R42)


def brutii_game(players: int, seed: int, steps: int = 0) -> Game:
    """A Brutii game after up to ``steps`` uniformly random decisions."""
    return random_game(players, seed, steps, brutii=True)


# --- the action space ----------------------------------------------------------------------------


def test_the_brutii_blocks_decode_to_his_actions() -> None:
    """E78, R44: one index per action card; R54: one per region a Veto may name (every region I-XI of the
    expansion board); both round-trip for every seat, and the space keeps its size (issue 14)."""
    cards, veto = CODEC.block["brutii_card"], CODEC.block["veto"]
    assert cards.size == len(BrutiiCard)
    assert veto.size == len(CODEC.tables.regions) == len(Region)
    assert veto.stop == CODEC.n
    for seat in range(max(SEATS)):
        for card in BrutiiCard:
            index = cards.start + card
            assert CODEC.decode(index, seat, 6) == ChooseActionCard(card)
            assert CODEC.encode(ChooseActionCard(card), seat, 6) == index
        for k, region in enumerate(CODEC.tables.regions):
            assert CODEC.decode(veto.start + k, seat, 5) == ChooseRegion(region)
            assert CODEC.encode(ChooseRegion(region), seat, 5) == veto.start + k
    assert CODEC.label(cards.start + BrutiiCard.MASS_MURDER) == "brutii_card:mass_murder"
    assert CODEC.label(veto.start + Region.CURIA) == "veto:curia"
    assert "mass murder" in CODEC.describe(cards.start + BrutiiCard.MASS_MURDER)
    assert "veto field of mars" in CODEC.describe(veto.start + Region.FIELD_OF_MARS)
    assert len(set(CODEC.labels())) == CODEC.n


def test_the_observation_keeps_its_size_and_layout() -> None:
    """Issue 15: the Brutii's decision kinds have their own one-hot in the former reserved piece, so
    ``pending_kind`` and every other piece keep their place; sizes come from the enums."""
    assert ENC.piece["pending_kind"].size == len(FAMILY_DECISION_KINDS)
    assert ENC.piece["pending_brutii"].size == len(BRUTII_DECISION_KINDS)
    assert ENC.piece["brutii_played"].size == len(BrutiiCard)
    assert ENC.piece["brutii_discs"].size == len(BrutiiDisc)
    assert "brutii_seat" not in ENC.piece
    sizes = {Table(players=n, brutii=True, space=Space.EXPANSION).encoder.size for n in SEATS} | {
        Table(players=4, space=Space.EXPANSION).encoder.size
    }
    assert sizes == {ENC.size}


# --- masks and observations at every decision ----------------------------------------------------


def _check_observation(obs: np.ndarray, state: GameState, seat: int) -> None:
    """The Brutii's public state as the docs describe it (docs/observation-expansion.md)."""
    parts = ENC.split(obs)
    n = state.num_players
    pending = state.pending
    assert pending is not None
    brutii_kind = parts["pending_brutii"]
    if pending.kind.brutii:
        assert brutii_kind[BRUTII_DECISION_KINDS.index(pending.kind)] == 1 and brutii_kind.sum() == 1
        assert not parts["pending_kind"].any()
    else:
        assert not brutii_kind.any() and parts["pending_kind"][FAMILY_DECISION_KINDS.index(pending.kind)] == 1
    flags = [parts[f"players[{k}].brutii"][0] for k in range(max(SEATS))]
    assert flags == [float(k == (state.brutii - seat) % n) for k in range(max(SEATS))]
    assert sorted(np.flatnonzero(parts["brutii_played"])) == sorted(state.brutii_played)
    discs = [state.brutii_revealed.count(d) / SPEC.discs[d] for d in BrutiiDisc]
    assert np.allclose(parts["brutii_discs"], discs)
    options = [float(state.brutii_options[k // 2] == k % 2) for k in range(4)]
    assert parts["brutii_options"].tolist() == options
    mine = state.bids[seat]
    assert parts["my_bid"][0] == float(mine >= 0 or mine == OPTED_OUT)


def _check_decision(table: Table, seen: Counter[str]) -> None:
    """The mask decodes to exactly the legal choices (R1); observations lie in bounds and show the Brutii."""
    game = table.game
    state = game.position()
    seat = game.current_seat
    legal = game.legal_actions()
    mask = table.mask(seat)
    decoded = {table.codec.decode(int(i), seat, game.num_players) for i in np.flatnonzero(mask)}
    expressible = {a for a in legal if table.codec.encode(a, seat, game.num_players) >= 0}
    assert decoded == expressible, f"mask differs from the legal choices at {game.pending}"
    assert expressible and all(isinstance(a, Bid) and a.amount > CODEC.bid_cap for a in set(legal) - expressible)
    pending = game.pending
    assert pending is not None
    seen[pending.kind.key] += 1
    if by_card(state, pending):
        seen["by card"] += 1
    if pending.kind is DecisionKind.CHARIOT_BID and seat == state.brutii:
        assert DECLINE in legal and mask[CODEC.block["decline"].start]
        seen["chariot opt-out offered"] += 1
    if pending.kind is DecisionKind.PLACE_FOLLOWER and state.veto >= 0:
        vetoed = state.tables.region_spaces[Region(state.veto)]
        assert not mask[[CODEC.block["place"].start + s for s in vetoed]].any(), "R54: a vetoed region is offered"
        seen["veto in force"] += 1
    for s in range(game.num_players):
        obs = table.encoder.encode(state, s)
        assert obs.shape == (ENC.size,) and obs.dtype == np.float32
        assert (obs >= 0).all() and (obs <= ENC.high).all()
        _check_observation(obs, state, s)


@pytest.mark.slow
def test_masks_are_the_legal_choices_in_brutii_games() -> None:
    """Over whole random games at 5 and 6 seats: every Brutii decision kind (R44, R46, R51, R52, R54), the
    decisions he takes at a location through a card (R47, BRUTII_SLOT) and his chariot opt-out (R49) are met, and
    at each decision the mask is exactly the legal choices."""
    seen: Counter[str] = Counter()
    for seed in range(8):
        table = Table(players=SEATS[seed % 2], brutii=True, space=Space.EXPANSION)
        table.game = Game.new(table.config, seed=seed)
        rng = random.Random(seed)
        while not table.game.is_over:
            _check_decision(table, seen)
            table.game.apply(rng.choice(table.game.legal_actions()))
    missing = {k.key for k in BRUTII_DECISION_KINDS} - set(seen)
    assert not missing, f"never met: {missing}"
    for what in ("by card", "chariot opt-out offered", "veto in force"):
        assert seen[what] > 0, f"never met: {what}"


def _opting_out(game: Game) -> bool:
    pending = game.pending
    return pending is not None and pending.kind is DecisionKind.CHARIOT_BID and pending.seat == game.position().brutii


def test_the_brutii_sees_his_opt_out_as_a_bid_of_nothing() -> None:
    """R45, R49: his sealed opt-out is in his own ``my_bid`` (has bid, amount 0); to the others it is as any sealed
    bid of his: not there."""
    for seed in range(40):
        game = brutii_game(SEATS[seed % 2], seed)
        play = random.Random(seed)
        while not game.is_over and game.position().bids[game.position().brutii] != OPTED_OUT:
            game.apply(DECLINE if _opting_out(game) else play.choice(game.legal_actions()))
        if game.is_over:
            continue
        state = game.position()
        bid = ENC.piece["my_bid"]
        assert ENC.encode(state, state.brutii)[bid.start : bid.stop].tolist() == [1.0, 0.0]
        bidding = state.clone()
        bidding.bids[state.brutii] = 3
        for seat in set(range(state.num_players)) - {state.brutii}:
            assert ENC.encode(state, seat).tobytes() == ENC.encode(bidding, seat).tobytes()
        return
    pytest.fail("the Brutii never opted out")


# --- nothing hidden leaks (R1, R2, R45, R49) -----------------------------------------------------


def redeal_brutii_game(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state ``seat`` cannot tell from ``state``: everything the expansion leak test re-deals (every other hand,
    the Brutii's included, hidden board cards, others' staged cards, bids and the chance key, from which his next
    disc is drawn: the disc order is stored nowhere), and the Brutii's sealed chariot choice (an amount or the
    opt-out) unless ``seat`` is the Brutii."""
    other = redeal_everything_hidden(state, seat, rng)
    brutii = other.brutii
    if brutii != seat and (other.bids[brutii] >= 0 or other.bids[brutii] == OPTED_OUT):
        other.bids[brutii] = rng.choice((OPTED_OUT, rng.randint(0, other.players[brutii].money)))
    return other


def assert_no_leak(encoder: ObservationEncoder, state: GameState, seat: int, rng: random.Random, tries: int) -> None:
    observation_unchanged(encoder, state, seat, rng, tries, hide=redeal_brutii_game)


def _special(state: GameState) -> set[str]:
    out = set()
    brutii = state.brutii
    if state.players[brutii].hand_size:
        out.add("brutii hand")
    if state.bids[brutii] == OPTED_OUT:
        out.add("sealed opt-out")
    if state.bids[brutii] >= 0:
        out.add("brutii bid")
    pending = state.pending
    if state.staged and pending is not None and pending.seat == brutii:
        out.add("brutii staged")
    if len(set(state.brutii_revealed)) < len(BrutiiDisc) and state.brutii_turns > 0:
        out.add("face-down discs")
    return out


@pytest.mark.parametrize("players", slow_except_values(SEATS, quick=[5]))
def test_brutii_observations_ignore_hidden_information(players: int) -> None:
    """Along whole Brutii games: every 25th decision and every decision where the Brutii's sealed chariot choice,
    staged cards or face-down discs are in play, for every seat."""
    seen: Counter[str] = Counter()
    rng = random.Random(players)

    def every_seat(state: GameState) -> None:
        for seat in range(players):
            assert_no_leak(ENC, state, seat, rng, tries=1)

    for seed in range(4):
        game = brutii_game(players, 700 * players + seed)
        common = {"brutii hand", "face-down discs"}
        seen += walk_checking_leaks(game, random.Random(seed), _special, common, 25, every_seat)
    for kind in ("brutii hand", "sealed opt-out", "brutii bid", "brutii staged", "face-down discs"):
        assert seen[kind] > 0, f"the games never reached {kind!r}: {seen}"


@settings(max_examples=25, deadline=None)
@given(seat_count=st.sampled_from(SEATS), seed=st.integers(0, 10_000), steps=st.integers(0, 1200))
def test_any_brutii_position_hides_what_it_should(seat_count: int, seed: int, steps: int) -> None:
    """R1, R2, R45: at any reachable position, re-dealing what a seat may not know leaves its observation alone."""
    game = brutii_game(seat_count, seed, steps)
    rng = random.Random(seed)
    for seat in range(seat_count):
        assert_no_leak(ENC, game.position(), seat, rng, tries=1)


LEAK_AT = ENC.piece["brutii_discs"].start


def _leak_opt_out(obs: np.ndarray, state: GameState, seat: int) -> None:
    obs[LEAK_AT] = float(state.bids[state.brutii] == OPTED_OUT)


def _leak_brutii_hand(obs: np.ndarray, state: GameState, seat: int) -> None:
    hand = state.players[state.brutii].hand
    obs[LEAK_AT] = sum(c * n for c, n in enumerate(hand)) % 7 / 7


def _leak_next_disc(obs: np.ndarray, state: GameState, seat: int) -> None:
    """The disc his next turn reveals depends on the chance key: an encoder reading it leaks the disc order."""
    obs[LEAK_AT] = state.chance % 3 / 3


@pytest.mark.parametrize(
    ("leak", "wanted"),
    [(_leak_opt_out, "sealed opt-out"), (_leak_brutii_hand, "brutii hand"), (_leak_next_disc, "face-down discs")],
    ids=["opt-out", "hand", "disc-order"],
)
def test_the_leak_test_catches_leaky_brutii_encoders(leak: Callable[..., None], wanted: str) -> None:
    leaky = leaky_encoder(leak)
    for seed in range(40):
        game = brutii_game(SEATS[seed % 2], seed)
        play = random.Random(seed)
        while not game.is_over and wanted not in _special(game.position()):
            opt_out = wanted == "sealed opt-out" and _opting_out(game)
            game.apply(DECLINE if opt_out else play.choice(game.legal_actions()))
        if game.is_over:
            continue
        state = game.position()
        seat = (state.brutii + 1) % state.num_players
        assert_no_leak(ENC, state, seat, random.Random(0), tries=5)
        with pytest.raises(AssertionError, match="hidden information"):
            assert_no_leak(leaky, state, seat, random.Random(0), tries=8)
        return
    pytest.fail(f"no game reached {wanted}")


# --- the environments ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", SEATS)
def test_api_test(players: int) -> None:
    run_api_test(tribune_env.expansion_env(players=players, brutii=True), num_cycles=600)


@pytest.mark.parametrize("players", SEATS)
def test_api_test_via_registry_with_a_fixed_brutii(players: int) -> None:
    env = pettingzoo.make("aec", EXPANSION_AEC_ID, players=players, brutii=True, brutii_seat=players - 1)
    run_api_test(env, num_cycles=300)


@pytest.mark.parametrize("players", SEATS)
def test_seed_test(players: int) -> None:
    seed_test(lambda: tribune_env.expansion_env(players=players, brutii=True), num_cycles=300)


def test_aec_games_play_the_brutii_blocks() -> None:
    """R42, R43: the Brutii is an ordinary agent; whole games through the AEC environment use his blocks."""
    used: Counter[str] = Counter()
    for players in SEATS:
        env = tribune_env.expansion_env(players=players, brutii=True, brutii_seat=1)
        env.reset(seed=players)
        assert env.unwrapped.game.brutii_seat == 1 and env.unwrapped.game.position().start_seat == 2  # R43
        assert env.action_space("player_1") == gymnasium.spaces.Discrete(CODEC.n)
        rng = np.random.default_rng(players)
        for agent in env.agent_iter(max_iter=20_000):
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            used[CODEC.block_of(action).name] += agent == "player_1"
            env.step(action)
        assert env.unwrapped.game.is_over
    assert used["brutii_card"] > 0 and used["veto"] > 0


def test_the_brutii_environment_pickles_with_its_options() -> None:
    env = tribune_env.expansion_raw_env(players=6, brutii=True, brutii_seat=3)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.table.config == env.table.config and copy.table.config.brutii
    assert copy.table.config.brutii_seat == 3


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 4, "brutii": True}, "players: 4 is not supported with the Brutii"),
        ({"players": 5, "brutii": "yes"}, "brutii: expected true or false"),
        ({"players": 5, "brutii_seat": 1}, "brutii_seat: set only with brutii"),
        ({"players": 5, "brutii": True, "brutii_seat": 5}, "brutii_seat: must be in 0..4"),
    ],
)
def test_bad_brutii_options_are_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tribune_env.expansion_env(**options)


@pytest.mark.parametrize("role", ["any", "brutii", "family"])
@pytest.mark.render
def test_gymnasium_check_env_for_each_role(role: str) -> None:
    env = gymnasium.make(EXPANSION_SINGLE_ID, players=5, brutii=True, learner_role=role).unwrapped
    assert isinstance(env, TribuneExpansionSingleEnv) and env.learner_role == role
    gym_check_env(env)


@pytest.mark.train
def test_sb3_check_env_at_six_seats() -> None:
    sb3_check_env(TribuneExpansionSingleEnv(players=6, brutii=True, learner_role="brutii"))


def _seats(env: TribuneExpansionSingleEnv, resets: int) -> list[tuple[int, int, bool]]:
    """(learner seat, Brutii seat, info["brutii"]) over ``resets`` seeded resets."""
    out = []
    for seed in range(resets):
        _obs, info = env.reset(seed=seed)
        out.append((env.seat, env.game.brutii_seat, info["brutii"]))
    return out


def test_learner_role_brutii_takes_the_brutii_seat_wherever_it_is() -> None:
    seats = _seats(TribuneExpansionSingleEnv(players=5, brutii=True, learner_role="brutii"), 12)
    assert all(seat == brutii and flag for seat, brutii, flag in seats)
    assert len({brutii for _, brutii, _ in seats}) > 1  # the Brutii's seat is drawn each game (R43)
    fixed = _seats(TribuneExpansionSingleEnv(players=6, brutii=True, brutii_seat=4, learner_role="brutii"), 4)
    assert {seat for seat, _, _ in fixed} == {4}


def test_learner_role_family_takes_a_random_family_seat() -> None:
    seats = _seats(TribuneExpansionSingleEnv(players=6, brutii=True, learner_role="family"), 16)
    assert all(seat != brutii and not flag for seat, brutii, flag in seats)
    assert len({seat for seat, _, _ in seats}) > 2


def test_learner_role_any_is_sometimes_the_brutii() -> None:
    seats = _seats(TribuneExpansionSingleEnv(players=5, brutii=True), 40)
    assert {flag for _, _, flag in seats} == {True, False}
    seeded = _seats(TribuneExpansionSingleEnv(players=5, brutii=True), 40)
    assert seeded == seats  # seeded resets repeat


def test_the_brutii_learner_plays_whole_games_through_his_blocks() -> None:
    env = TribuneExpansionSingleEnv(players=6, brutii=True, learner_role="brutii")
    rng = np.random.default_rng(0)
    kinds: Counter[str] = Counter()
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            pending = env.game.pending
            assert pending is not None and pending.seat == env.seat == env.game.brutii_seat
            kinds[pending.kind.key] += 1
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, _reward, terminated, truncated, info = env.step(action)
            assert obs.shape == (ENC.size,) and (obs <= ENC.high).all()
            done = terminated or truncated
        assert "winners" in info and info["brutii"]
    assert kinds["brutii_card"] > 0 and kinds["chariot_bid"] > 0


def test_a_position_keeps_the_role() -> None:
    """A Brutii position: the learner takes the position's Brutii seat; a game without him refuses it."""
    game = brutii_game(5, 9, 200)
    doc = game.to_json()
    env = TribuneExpansionSingleEnv(players=5, brutii=True, learner_role="brutii")
    env.reset(options={"position": doc})
    assert env.seat == game.brutii_seat
    with pytest.raises(ValueError, match="position: brutii is True"):
        TribuneExpansionSingleEnv(players=5).reset(options={"position": doc})
    with pytest.raises(ValueError, match="Brutii sits in seat"):
        fixed = (game.brutii_seat + 1) % 5
        TribuneExpansionSingleEnv(players=5, brutii=True, brutii_seat=fixed).reset(options={"position": doc})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"learner_role": "senator"}, "learner_role: expected one of"),
        ({"players": 4, "learner_role": "brutii"}, "needs brutii=True"),
        ({"brutii": True, "learner_role": "family", "learner_seat": 0}, "not both"),
        ({"players": 4, "brutii": True}, "players: 4 is not supported with the Brutii"),
    ],
)
def test_bad_learner_roles_are_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TribuneExpansionSingleEnv(**{"players": 5, **options})  # type: ignore[arg-type]


def test_a_role_refuses_a_learner_seat_at_reset() -> None:
    env = TribuneExpansionSingleEnv(players=5, brutii=True, learner_role="brutii")
    with pytest.raises(ValueError, match="conflicts with learner_role"):
        env.reset(options={"learner_seat": 1})


def test_the_shipped_expansion_model_fits_brutii_games() -> None:
    """The issue-14 network reads the same inputs (the Brutii only fills pieces that were reserved for him)."""
    from agents.ppo import SHIPPED_EXPANSION, check_fits, load_policy
    from tribune_env.engine.config import GameConfig

    policy = load_policy(SHIPPED_EXPANSION)
    for players in SEATS:
        check_fits(policy, GameConfig(players=players, expansion=True, brutii=True))
