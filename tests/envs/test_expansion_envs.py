"""The expansion environments (issue 14): one action space and one observation size for every seat count and
rule set, masks equal to the legal choices, no hidden information in the observation (R1, R2, R35, R39),
PettingZoo ``api_test``/``seed_test`` at 2-5 players, Gymnasium and SB3 ``check_env``."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pytest
from env_checks import run_api_test, sb3_check_env
from gymnasium.utils.env_checker import check_env as gym_check_env
from hidden_info import assert_no_leak as observation_unchanged
from hidden_info import leaky_encoder, redeal_everything_hidden, walk_checking_leaks
from pettingzoo.test import seed_test
from positions import random_game

import tribune_env
from tribune_env import DecisionKind, Game, IllegalMoveError, PickCard, default_components
from tribune_env.codec import ActionCodec, ActionDecodeError, ObservationEncoder, Space, codec_for, encoder_for
from tribune_env.data import Official
from tribune_env.engine.actions import ChooseActionCard, ChooseRegion
from tribune_env.engine.state import GameState
from tribune_env.envs import EXPANSION_AEC_ID, EXPANSION_SINGLE_ID, Table, TribuneExpansionSingleEnv

COMPONENTS = default_components()
CODEC = codec_for(COMPONENTS, Space.EXPANSION)
BASE = codec_for(COMPONENTS)
ENC = encoder_for(COMPONENTS, 60, Space.EXPANSION)
PLAYER_COUNTS = (2, 3, 4, 5)


def expansion_game(players: int, seed: int, steps: int) -> Game:
    """A random expansion game after ``steps`` random decisions (or at its end)."""
    return random_game(players, seed, steps, expansion=True)


# --- the action space ----------------------------------------------------------------------------


def test_the_expansion_space_extends_the_base_space_in_place() -> None:
    """Base blocks first at their current indices, expansion blocks appended (issue 14)."""
    assert CODEC.labels()[: BASE.n] == BASE.labels()
    for block in BASE.blocks:
        assert CODEC.block[block.name] == block
    appended = [b.name for b in CODEC.blocks[len(BASE.blocks) :]]
    assert appended == ["card_x", "place_x", "assassinate_x", "tile", "official", "brutii_card", "veto"]
    assert CODEC.block["card_x"].start == BASE.n
    assert len(set(CODEC.labels())) == CODEC.n
    # sizes derived from the data: 15 slaves + the assassin, 8 expansion spaces, one sixth seat, 10 tiles,
    # 5 officials, 12 Brutii action cards (E78), 11 regions for a Veto (R54)
    spec = COMPONENTS.expansion
    assert spec is not None
    assert CODEC.block["card_x"].size == len({s.label(v) for s in spec.slaves for v in s.values}) + 1
    assert CODEC.block["place_x"].size == sum(r.spaces for r in spec.regions)
    assert CODEC.block["assassinate_x"].size == 7 * (max(spec.seat_counts) - max(COMPONENTS.player_counts))
    assert CODEC.block["tile"].size == len(spec.emperor_tiles)
    assert (CODEC.block["official"].size, CODEC.block["brutii_card"].size, CODEC.block["veto"].size) == (5, 12, 11)
    assert CODEC.block["veto"].size == len(CODEC.tables.regions)  # a Veto may name every region I-XI (R54)


@pytest.mark.parametrize("expansion", [True, False])
def test_one_space_for_every_seat_count_and_rule_set(expansion: bool) -> None:
    wide = Space.EXPANSION
    sizes = {(n, expansion): Table(players=n, expansion=expansion, space=wide).codec.n for n in PLAYER_COUNTS}
    assert set(sizes.values()) == {CODEC.n}
    obs = {Table(players=n, expansion=expansion, space=wide).encoder.size for n in PLAYER_COUNTS}
    assert obs == {ENC.size}


def test_seat_and_out_of_range_indices_are_clear_errors() -> None:
    """The Brutii blocks decode for every seat (issue 15); a seat the game lacks and an index past the space fail."""
    assert CODEC.decode(CODEC.block["brutii_card"].start, 0, 4) == ChooseActionCard(0)
    assert CODEC.decode(CODEC.block["veto"].start, 3, 4) == ChooseRegion(0)
    with pytest.raises(ActionDecodeError, match="relative seat 5"):
        CODEC.decode(CODEC.block["assassinate_x"].start, 0, 5)  # the sixth seat exists only with six seats
    assert CODEC.decode(CODEC.block["assassinate_x"].start + 3, 2, 6) == tribune_env.Assassinate(1, 3)
    with pytest.raises(ActionDecodeError, match="outside"):
        CODEC.decode(CODEC.n, 0, 4)


def test_assassin_targets_round_trip_for_six_seats() -> None:
    """The sixth seat's block (room for the Brutii variant): encode and decode are inverse for every target."""
    for seat in range(6):
        for target in range(6):
            for faction in range(7):
                action = tribune_env.Assassinate(target, faction)
                index = CODEC.encode(action, seat, 6)
                assert CODEC.decode(index, seat, 6) == action
                block = "assassinate" if (target - seat) % 6 < 5 else "assassinate_x"
                assert CODEC.block_of(index).name == block


def test_the_base_codec_cannot_express_expansion_choices() -> None:
    game = expansion_game(4, 3, 0)
    slave = game.tables.slave_cards[0][0]
    assert BASE.encode(PickCard(slave), 0, 4) == -1
    assert CODEC.encode(PickCard(slave), 0, 4) == CODEC.block["card_x"].start


# --- masks are the legal choices, observations are in bounds --------------------------------------


def _check_decision(table: Table, game: Game, seen: Counter[str]) -> None:
    seat = game.current_seat
    legal = game.legal_actions()
    mask = table.mask(seat)
    decoded = {table.codec.decode(int(i), seat, game.num_players) for i in np.flatnonzero(mask)}
    expressible = {a for a in legal if table.codec.encode(a, seat, game.num_players) >= 0}
    assert decoded == expressible, f"mask differs from the legal choices at {game.pending}"
    assert len(expressible) >= 1
    hidden = [a for a in legal if a not in expressible]
    assert all(isinstance(a, tribune_env.Bid) and a.amount > table.codec.bid_cap for a in hidden)
    pending = game.pending
    assert pending is not None
    seen[pending.kind.key] += 1
    if pending.kind is DecisionKind.TAKEOVER_SET and game.tables.assassin_card >= 0:
        if PickCard(game.tables.assassin_card) in legal:
            seen["assassin offered"] += 1
    for s in range(game.num_players):
        obs = table.encoder.encode(game.position(), s)
        assert obs.shape == (table.encoder.size,) and obs.dtype == np.float32
        assert (obs >= 0).all() and (obs <= table.encoder.high).all()


@pytest.mark.slow
def test_masks_are_the_legal_choices_in_expansion_games() -> None:
    """Over whole random games at 2-5 players every expansion decision kind is met, and at each decision the mask
    decodes to exactly the legal choices (bids above the cap aside), with observations inside their bounds."""
    seen: Counter[str] = Counter()
    for seed in range(16):
        table = Table(players=2 + seed % 4, space=Space.EXPANSION)
        table.game = Game.new(table.config, seed=seed)
        rng = random.Random(seed)
        while not table.game.is_over:
            _check_decision(table, table.game, seen)
            table.game.apply(rng.choice(table.game.legal_actions()))
    expansion_kinds = {k.key for k in DecisionKind if k.expansion and not k.brutii}  # the Brutii's: test_brutii_envs
    assert expansion_kinds <= set(seen), f"never met: {expansion_kinds - set(seen)}"
    assert not {k.key for k in DecisionKind if k.brutii} & set(seen)
    assert seen["assassin offered"] > 0


def test_base_rules_through_the_expansion_ids_use_the_base_indices() -> None:
    """A base game played through the expansion spaces: the same indices as in Tribune-v0, no expansion index."""
    base = Table(players=3)
    wide = Table(players=3, expansion=False, space=Space.EXPANSION)
    base.game = Game.new(base.config, seed=11)
    wide.game = Game.new(wide.config, seed=11)
    rng = random.Random(11)
    while not base.game.is_over:
        seat = base.game.current_seat
        narrow_mask = base.mask(seat)
        wide_mask = wide.mask(seat)
        assert not wide_mask[BASE.n :].any()
        assert np.array_equal(wide_mask[: BASE.n], narrow_mask)
        action = rng.choice(base.game.legal_actions())
        base.game.apply(action)
        wide.game.apply(action)
        obs = wide.observation(seat)
        assert (obs <= wide.encoder.high).all()


# --- the leak test (R1, R2, R35, R39) -------------------------------------------------------------


def assert_no_leak(
    encoder: ObservationEncoder, state: GameState, seat: int, rng: random.Random, tries: int = 2
) -> None:
    """R1, R2, R35, R39: re-dealing everything hidden from ``seat`` leaves its observation byte-identical."""
    observation_unchanged(encoder, state, seat, rng, tries, hide=redeal_everything_hidden)


def _special(state: GameState) -> set[str]:
    out = set()
    tables = state.tables
    if state.augur_cards:
        out.add("augur cards")
    if tables.assassin_card in state.staged:
        out.add("staged assassin")
    if any(tables.is_slave(c) for c in state.staged):
        out.add("staged slaves")
    if len(set(state.emperor_pile)) > 1:
        out.add("emperor pile")
    if any(b >= 0 for b in state.bids):
        out.add("sealed bid")
    if state.pairs:
        out.add("sealed pairs")
    return out


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_expansion_observation_ignores_hidden_information(players: int) -> None:
    """Along whole expansion games: every 30th decision and every decision with special hidden information."""
    seen: Counter[str] = Counter()
    rng = random.Random(players)

    def every_seat(state: GameState) -> None:
        for seat in range(players):
            assert_no_leak(ENC, state, seat, rng, tries=1)

    for seed in range(4):
        game = expansion_game(players, 500 * players + seed, 0)
        seen += walk_checking_leaks(game, random.Random(seed), _special, {"emperor pile", "sealed bid"}, 30, every_seat)
    for kind in ("augur cards", "emperor pile", "sealed bid", "staged slaves"):
        assert seen[kind] > 0, f"the games never reached {kind!r}: {seen}"


def test_leak_test_covers_staged_assassins() -> None:
    found = 0
    rng = random.Random(1)
    for seed in range(60):
        game = expansion_game(2 + seed % 4, seed, 0)
        play = random.Random(seed)
        while not game.is_over:
            if "staged assassin" in _special(game.position()):
                found += 1
                for seat in range(game.num_players):
                    assert_no_leak(ENC, game.position(), seat, rng, tries=2)
            game.apply(play.choice(game.legal_actions()))
        if found >= 3:
            break
    assert found >= 3


def _leak_pile_order(obs: np.ndarray, state: GameState, seat: int) -> None:
    obs[ENC.piece["emperor_pile"].start] = state.emperor_pile[0] / 100 if state.emperor_pile else 0.0


def _leak_augur(obs: np.ndarray, state: GameState, seat: int) -> None:
    start = ENC.piece["augur_cards"].start
    for c in state.augur_cards:
        obs[start + c] = 1.0


@pytest.mark.parametrize(
    ("leak", "wanted"), [(_leak_pile_order, "emperor pile"), (_leak_augur, "augur cards")], ids=["pile", "augur"]
)
def test_the_leak_test_catches_leaky_encoders(leak: Callable[..., None], wanted: str) -> None:
    leaky = leaky_encoder(leak)
    for seed in range(40):
        game = expansion_game(4, seed, 0)
        play = random.Random(seed)
        while not game.is_over and wanted not in _special(game.position()):
            game.apply(play.choice(game.legal_actions()))
        if game.is_over:
            continue
        state = game.position()
        seat = next(s for s in range(4) if s != state.officials[Official.AUGUR])
        assert_no_leak(ENC, state, seat, random.Random(0), tries=5)
        with pytest.raises(AssertionError, match="hidden information"):
            assert_no_leak(leaky, state, seat, random.Random(0), tries=8)
        return
    pytest.fail(f"no game reached {wanted}")


def test_the_augur_sees_his_draws_and_only_he() -> None:
    for seed in range(60):
        game = expansion_game(3, seed, 0)
        play = random.Random(seed)
        while not game.is_over and not game.position().augur_cards:
            game.apply(play.choice(game.legal_actions()))
        state = game.position()
        if game.is_over:
            continue
        augur = state.officials[Official.AUGUR]
        piece = ENC.piece["augur_cards"]
        for seat in range(3):
            seen = ENC.encode(state, seat)[piece.start : piece.stop]
            assert seen.sum() == (len(state.augur_cards) if seat == augur else 0)
        return
    pytest.fail("no Augur drew cards")


# --- the environments ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_api_test(players: int) -> None:
    run_api_test(tribune_env.expansion_env(players=players), num_cycles=600)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_api_test_via_registry_and_base_rules(players: int) -> None:
    run_api_test(pettingzoo.make("aec", EXPANSION_AEC_ID, players=players, expansion=False), num_cycles=300)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_seed_test(players: int) -> None:
    seed_test(lambda: tribune_env.expansion_env(players=players), num_cycles=300)


def test_spaces_and_metadata() -> None:
    env = tribune_env.expansion_env(players=5)
    env.reset(seed=0)
    assert env.action_space("player_0") == gymnasium.spaces.Discrete(CODEC.n)
    assert env.observation_space("player_4")["observation"].shape == (ENC.size,)
    assert env.unwrapped.metadata["name"] == "tribune_expansion_v0"
    assert env.unwrapped.game.config.expansion
    assert tribune_env.env(players=4).action_space("player_0") == gymnasium.spaces.Discrete(BASE.n)  # unchanged


def test_the_environment_pickles_with_its_options() -> None:
    env = tribune_env.expansion_raw_env(players=3, expansion=False, reward="rank")
    copy = pickle.loads(pickle.dumps(env))
    assert copy.table.config == env.table.config and not copy.table.config.expansion
    assert copy.table.codec is CODEC


def test_base_ids_refuse_expansion_games() -> None:
    with pytest.raises(ValueError, match="TribuneExpansion-v0"):
        Table(players=4, expansion=True)
    env = tribune_env.env(players=4)
    doc = expansion_game(4, 2, 40).to_json()
    with pytest.raises(ValueError, match="expansion game"):
        env.reset(options={"position": doc})


def test_a_position_needs_the_same_rule_set() -> None:
    env = tribune_env.expansion_env(players=4, expansion=False)
    with pytest.raises(ValueError, match="expansion"):
        env.reset(options={"position": expansion_game(4, 2, 40).to_json()})
    env = tribune_env.expansion_env(players=4)
    env.reset(options={"position": expansion_game(4, 2, 40).to_json()})
    assert env.unwrapped.game.round >= 0


def test_illegal_actions_are_clear_errors_and_change_nothing() -> None:
    env = tribune_env.expansion_env(players=4)
    env.reset(seed=5)
    before = env.unwrapped.game.to_json()
    with pytest.raises(IllegalMoveError, match=r"\(veto:thermae\) .*not a legal choice"):
        env.step(CODEC.block["veto"].start)  # a Veto without the Brutii
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalMoveError, match="not a legal choice"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.unwrapped.game.to_json() == before


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.train
def test_gymnasium_and_sb3_check_env(players: int) -> None:
    env = gymnasium.make(EXPANSION_SINGLE_ID, players=players).unwrapped
    assert isinstance(env, TribuneExpansionSingleEnv)
    gym_check_env(env)
    sb3_check_env(TribuneExpansionSingleEnv(players=players))


def test_single_env_plays_whole_expansion_games_with_agent_opponents() -> None:
    from agents import make_agent

    env = TribuneExpansionSingleEnv(players=4, opponents=[make_agent("random", seed=s) for s in range(3)])
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    decisions = 0
    done = False
    while not done:
        assert obs.shape == (ENC.size,)
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, _reward, terminated, truncated, info = env.step(action)
        decisions += 1
        done = terminated or truncated
    assert env.game.config.expansion and env.game.is_over
    assert decisions > 20 and "winners" in info


def test_agents_get_the_tables_spaces_through_their_infoset() -> None:
    """An agent in the expansion environment gets the expansion observation and mask, also in a base-rule game."""
    captured: list[tuple[int, int]] = []

    class Spy:
        def act(self, view: Any, legal: Any, info: Any = None) -> Any:
            captured.append((info.observation().size, info.action_mask().size))
            return legal[0]

    for expansion in (True, False):
        env = TribuneExpansionSingleEnv(players=2, opponents=Spy(), expansion=expansion)
        env.reset(seed=1)
        for _ in range(30):
            if env.game.is_over:
                break
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert captured and set(captured) == {(ENC.size, CODEC.n)}


def test_random_game_helper_still_plays_base_games() -> None:
    assert not random_game(3, 1, 10).config.expansion


def test_codec_instances_are_shared() -> None:
    assert codec_for(COMPONENTS, Space.EXPANSION) is CODEC and isinstance(CODEC, ActionCodec)
    assert encoder_for(COMPONENTS, 60, Space.EXPANSION) is ENC


def test_api_test_with_the_penalty_wrapper() -> None:
    from tribune_env.envs import IllegalActionPenalty

    run_api_test(IllegalActionPenalty(tribune_env.expansion_env(players=3)), num_cycles=300)
    run_api_test(IllegalActionPenalty(tribune_env.expansion_env(players=4), terminate=False), num_cycles=300)
