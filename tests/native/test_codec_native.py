"""The native codec (native/src/codec.cpp) against tribune_env.codec: the same layouts, action ids, masks and
observation rows, byte for byte, on random positions of every rule set and both spaces.

Each position of a Python game is copied into a native core (``Core.from_fields``), so a difference here is the
codec's, not the engine's; the lockstep tests cover the engine. One quick game per rule set runs in the quick tier,
more under ``slow``.
"""

from __future__ import annotations

import importlib
import random
from functools import cache
from typing import Any

import numpy as np
import pytest

from tribune_env.codec import BID_CAP, ActionCodec, ActionDecodeError, ObservationEncoder, Space, codec_for, encoder_for
from tribune_env.data import default_components
from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.state import GameState

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built ({native.BUILD_ERROR})")

COMPONENTS = default_components()


def core_module() -> Any:
    """The compiled module (``tribune_env._core``)."""
    return importlib.import_module("tribune_env._core")


@cache
def native_codec(space: Space) -> Any:
    return core_module().ActionCodec(COMPONENTS, space, BID_CAP)


@cache
def native_encoder(space: Space, round_limit: int) -> Any:
    return core_module().ObservationEncoder(COMPONENTS, round_limit, space)


def core_of(state: GameState) -> Any:
    """A native core holding ``state`` (its fields copied)."""
    return native.core_of(state)


@pytest.mark.parametrize("space", list(Space))
@pytest.mark.parametrize("round_limit", [60, 17])
def test_layout_is_pythons(space: Space, round_limit: int) -> None:
    """Pieces, per-player fields, bounds and action blocks come out of the same derivation."""
    py_enc = ObservationEncoder(COMPONENTS, round_limit, space)
    enc = native_encoder(space, round_limit)
    assert enc.size == py_enc.size
    assert enc.layout() == [tuple(row[:3]) for row in py_enc.layout_rows()]
    assert np.array_equal(enc.high(), py_enc.high)
    py_codec = ActionCodec(COMPONENTS, space=space)
    codec = native_codec(space)
    assert codec.n == py_codec.n
    assert codec.blocks() == [(b.name, b.start, b.size) for b in py_codec.blocks]


def test_base_encoder_refuses_an_expansion_game() -> None:
    """As in Python, the base observation has no entries for an expansion game (ValueError)."""
    game = Game.new(GameConfig(players=3, expansion=True), seed=1)
    with pytest.raises(ValueError, match="expansion encoder"):
        native_encoder(Space.BASE, 60).encode(core_of(game.position()), 0)


def test_a_difference_is_seen() -> None:
    """The comparison can fail: another seat's row differs from this seat's."""
    game = Game.new(GameConfig(players=4), seed=3)
    rng = random.Random(3)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    py_enc = ObservationEncoder(COMPONENTS, 60, Space.BASE)
    rows = [native_encoder(Space.BASE, 60).encode(core_of(game.position()), seat) for seat in range(4)]
    assert rows[0].tobytes() == py_enc.encode(game.position(), 0).tobytes()
    assert rows[1].tobytes() != py_enc.encode(game.position(), 0).tobytes()


def check_position(state: GameState, space: Space, round_limit: int, legal: list[Any]) -> None:
    """Every seat's row, the mask of the seat to act, each legal action's id and the decoding of every id."""
    py_enc = encoder_for(COMPONENTS, round_limit, space)
    py_codec = codec_for(COMPONENTS, space)
    enc, codec = native_encoder(space, round_limit), native_codec(space)
    core = core_of(state)
    n = state.num_players
    out = np.empty(enc.size, dtype=np.float32)
    for seat in range(n):
        want = py_enc.encode(state, seat)
        got = enc.encode(core, seat, out)
        if got.tobytes() != want.tobytes():
            bad = int(np.nonzero(got != want)[0][0])
            name = next(row[0] for row in reversed(py_enc.layout_rows()) if row[1] <= bad)
            raise AssertionError(f"seat {seat}: entry {bad} ({name}) python {want[bad]} native {got[bad]}")
    if state.pending is None:
        return
    seat = state.pending.seat
    mask = np.empty(codec.n, dtype=np.uint8)
    codec.mask_of([native.action_tuple(a) for a in legal], seat, n, mask)
    assert np.array_equal(mask, py_codec.mask(legal, seat, n).astype(np.uint8))
    assert codec.mask(core, mask) == seat  # the native legal choices of the copied position
    assert np.array_equal(mask, py_codec.mask(legal, seat, n).astype(np.uint8))
    for action in legal:
        assert codec.encode(*native.action_tuple(action), seat, n) == py_codec.encode(action, seat, n)
    for index in range(py_codec.n):
        try:
            want_action = native.action_tuple(py_codec.decode(index, seat, n))
        except ActionDecodeError as err:
            with pytest.raises(ValueError, match=str(err)):
                codec.decode(index, seat, n)
            continue
        assert codec.decode(index, seat, n) == want_action


CONFIGS = [  # (rules, players, space, point variant, round limit)
    ("base", 4, Space.BASE, False, 60),
    ("base", 2, Space.BASE, True, 60),
    ("base", 3, Space.EXPANSION, False, 60),
    ("expansion", 4, Space.EXPANSION, False, 60),
    ("expansion", 2, Space.EXPANSION, True, 20),
    ("brutii", 6, Space.EXPANSION, False, 60),
    ("brutii", 5, Space.EXPANSION, True, 60),
]


def play(
    rules: str, players: int, space: Space, point_variant: bool, round_limit: int, seed: int, every: int, most: int = 0
) -> int:
    """One random game on the Python engine, every ``every``-th position (and the last) checked, at most ``most``
    of them (0: all) before the last; returns the count."""
    config = GameConfig.for_rules(rules, players=players, point_variant=point_variant, round_limit=round_limit)
    game = Game.new(config, seed=seed)
    rng = random.Random(seed)
    checked = step = 0
    while True:
        legal = [] if game.is_over else game.legal_actions()
        if (step % every == 0 and (not most or checked < most)) or game.is_over:
            check_position(game.position(), space, round_limit, legal)
            checked += 1
        if game.is_over:
            return checked
        game.apply(rng.choice(legal))
        step += 1


@pytest.mark.parametrize(("rules", "players", "space", "point_variant", "round_limit"), CONFIGS)
def test_random_positions(rules: str, players: int, space: Space, point_variant: bool, round_limit: int) -> None:
    assert play(rules, players, space, point_variant, round_limit, seed=players, every=9, most=40) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players", "space", "point_variant", "round_limit"), CONFIGS)
def test_random_positions_long(rules: str, players: int, space: Space, point_variant: bool, round_limit: int) -> None:
    for seed in range(100, 102):  # two whole games a configuration, every second decision
        play(rules, players, space, point_variant, round_limit, seed=seed, every=2)


def lockstep_rows(rules: str, players: int, space: Space, seed: int) -> int:
    """One game stepped on both engines: at every decision the native rows of every seat and the native mask of
    the seat to act (from the native engine's own state) equal Python's; returns the decisions compared."""
    config = GameConfig.for_rules(rules, players=players)
    game = Game.new(config, seed=seed, engine="python")
    state = game.python_state()  # the Python engine's live state
    core = native.new_core(config, seed)
    py_enc, enc = ObservationEncoder(COMPONENTS, config.round_limit, space), native_encoder(space, config.round_limit)
    py_codec, codec = ActionCodec(COMPONENTS, space=space), native_codec(space)
    rng = random.Random(seed)
    out = np.empty(enc.size, dtype=np.float32)
    mask = np.empty(codec.n, dtype=np.uint8)
    decisions = 0
    while True:
        for seat in range(players):
            assert enc.encode(core, seat, out).tobytes() == py_enc.encode(state, seat).tobytes(), (decisions, seat)
        if game.is_over:
            assert codec.mask(core, mask) == -1 and not mask.any()
            return decisions
        legal = game.legal_actions()
        seat = game.current_seat
        assert codec.mask(core, mask) == seat
        assert np.array_equal(mask, py_codec.mask(legal, seat, players).astype(np.uint8)), decisions
        action = rng.choice(legal)
        game.apply(action)
        assert core.apply(*native.action_tuple(action))
        decisions += 1


@pytest.mark.parametrize(("rules", "players", "space"), [("base", 3, Space.BASE), ("brutii", 5, Space.EXPANSION)])
def test_lockstep_rows(rules: str, players: int, space: Space) -> None:
    assert lockstep_rows(rules, players, space, seed=11) > 100


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "players", "space"),
    [("base", p, Space.BASE) for p in (2, 3, 4, 5)]
    + [("base", 4, Space.EXPANSION)]
    + [("expansion", p, Space.EXPANSION) for p in (2, 3, 4, 5)]
    + [("brutii", p, Space.EXPANSION) for p in (5, 6)],
)
def test_lockstep_rows_long(rules: str, players: int, space: Space) -> None:
    for seed in range(20, 22):
        lockstep_rows(rules, players, space, seed)


@pytest.mark.parametrize(
    ("config", "space"),
    [
        (GameConfig(players=4), Space.BASE),
        (GameConfig(players=3, expansion=True), Space.EXPANSION),
        (GameConfig(players=6, expansion=True, brutii=True), Space.EXPANSION),
    ],
)
def test_observe_game_is_the_two_python_calls(config: GameConfig, space: Space) -> None:
    """``observe_game`` (one native call on a native game) gives every seat the Python encoder's row and the Python
    codec's mask of the same position (zeros for a seat not to act), into given arrays or new ones."""
    from tribune_env.codec import observe_game

    encoder, codec = encoder_for(COMPONENTS, config.round_limit, space), codec_for(COMPONENTS, space)
    game = Game.new(config, seed=11)
    assert game.native_core is not None
    rng = random.Random(11)
    obs = np.full(encoder.size, 7.0, dtype=np.float32)
    mask = np.full(codec.n, 1, dtype=np.uint8)
    for step in range(120):
        if game.is_over:
            break
        python = Game(game.position())  # the same position on the Python engine (read, never played)
        assert python.native_core is None
        for seat in range(config.players):
            want_obs, want_mask = encoder.encode_game(python, seat), codec.mask_game(python, seat)
            got_obs, got_mask = observe_game(encoder, codec, game, seat)
            assert np.array_equal(got_obs, want_obs) and got_obs.dtype == np.float32
            assert np.array_equal(got_mask, want_mask) and got_mask.dtype == np.int8
            out_obs, out_mask = observe_game(encoder, codec, game, seat, obs, mask)
            assert out_obs is obs and out_mask is mask
            assert np.array_equal(obs, want_obs) and np.array_equal(mask, want_mask)
        if step % 10 == 0:  # and the Python engine's answer through the same function
            py_obs, py_mask = observe_game(encoder, codec, python, game.current_seat)
            assert np.array_equal(py_obs, encoder.encode_game(python, game.current_seat))
            assert py_mask.any()
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])


def test_observe_game_refuses_wrong_arrays_and_seats() -> None:
    """A wrong shape or type of array, or a seat outside the game, is a ValueError naming it; nothing is written."""
    from tribune_env.codec import observe_game

    encoder, codec = encoder_for(COMPONENTS, 60, Space.BASE), codec_for(COMPONENTS, Space.BASE)
    game = Game.new(GameConfig(players=4), seed=2)
    mask = np.zeros(codec.n, dtype=np.int8)
    with pytest.raises(ValueError, match="obs: expected a writeable contiguous 1-d array"):
        observe_game(encoder, codec, game, 0, np.zeros(encoder.size, dtype=np.float64), mask)
    with pytest.raises(ValueError, match="mask: expected a writeable contiguous 1-d array"):
        observe_game(encoder, codec, game, 0, np.zeros(encoder.size, dtype=np.float32), np.zeros(codec.n - 1, np.int8))
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.3"):
        observe_game(encoder, codec, game, 4)
    assert not mask.any()
