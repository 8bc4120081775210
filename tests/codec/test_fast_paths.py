"""The fast paths of issue 16 give the same results as the plain ones.

* the observation encoder against the reference copy of the encoder it replaced (``reference_observation.py``),
  bit for bit, at every decision of random base, point-variant, expansion and Brutii games, for every seat;
* the action mask against one built action by action with :meth:`ActionCodec.encode`;
* ``clone(events=False)`` plays on like a full clone;
* lazy views (:meth:`Game.view`) read late equal the eager views of their time;
* plain random opponents choosing from the legal indices play the games of the mask path.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest
from reference_observation import ObservationEncoder as ReferenceEncoder
from slow_marks import slow_except

from tribune_env import Game
from tribune_env.codec import Space, codec_for, encoder_for
from tribune_env.data import default_components
from tribune_env.engine.flow import apply_action
from tribune_env.engine.view import PlayerView, player_view
from tribune_env.envs.policies import RandomPolicy, opponent_kind
from tribune_env.envs.single import TribuneSingleEnv

COMPONENTS = default_components()

WIDE = Space.EXPANSION
GAMES = [
    pytest.param({"players": n}, Space.BASE, id=f"base-{n}p") for n in (2, 3, 4, 5)
] + [
    pytest.param({"players": 3, "point_variant": True}, Space.BASE, id="base-point-variant"),
    pytest.param({"players": 4}, Space.EXPANSION, id="base-rules-expansion-space"),
    *(pytest.param({"players": n, "expansion": True}, Space.EXPANSION, id=f"expansion-{n}p") for n in (2, 3, 5)),
    pytest.param({"players": 3, "expansion": True, "point_variant": True}, WIDE, id="expansion-point-variant"),
    *(pytest.param({"players": n, "expansion": True, "brutii": True}, WIDE, id=f"brutii-{n}p") for n in (5, 6)),
]
GAMES = slow_except(GAMES, {"base-2p", "base-3p", "base-point-variant", "expansion-2p", "expansion-3p", "brutii-5p"})


def _reference_mask(game: Game, seat: int, space: Space) -> np.ndarray:
    codec = codec_for(game.config.components, space)
    out = np.zeros(codec.n, dtype=np.int8)
    for action in game.legal_actions():
        i = codec.encode(action, seat, game.num_players)
        if i >= 0:
            out[i] = 1
    return out


@pytest.mark.parametrize(("options", "space"), GAMES)
def test_encoder_and_mask_match_the_reference_at_every_decision(
    options: dict[str, object], space: Space
) -> None:
    fast = encoder_for(COMPONENTS, 60, space)
    reference = ReferenceEncoder(COMPONENTS, 60, space is Space.EXPANSION)
    codec = codec_for(COMPONENTS, space)
    assert fast.size == reference.size and np.array_equal(fast.high, reference.high)
    decisions = 0
    for seed in range(2):
        game = Game.new(seed=seed, **options)  # type: ignore[arg-type]
        rng = random.Random(seed)
        while True:
            for seat in range(game.num_players):
                new, old = fast.encode(game.position(), seat), reference.encode(game.position(), seat)
                assert new.dtype == old.dtype == np.float32
                assert new.tobytes() == old.tobytes(), f"seed {seed}, decision {decisions}, seat {seat}"
            if game.is_over:
                break
            seat = game.current_seat
            mask = codec.mask(game.legal_actions(), seat, game.num_players)
            assert np.array_equal(mask, _reference_mask(game, seat, space))
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
    assert decisions > 100


def test_the_reference_comparison_can_fail() -> None:
    """A changed entry is caught: the comparison is over the bytes, not a tolerance."""
    game = Game.new(players=4, seed=1)
    obs = encoder_for(COMPONENTS).encode(game.position(), 0)
    changed = obs.copy()
    changed[-1] = np.nextafter(changed[-1], np.float32(2))
    assert changed.tobytes() != ReferenceEncoder(COMPONENTS).encode(game.position(), 0).tobytes()


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 5, "expansion": True, "brutii": True}])
def test_clone_without_events_plays_identically(options: dict[str, object]) -> None:
    game = Game.new(seed=5, **options)  # type: ignore[arg-type]
    rng = random.Random(5)
    for _ in range(150):
        game.apply(rng.choice(game.legal_actions()))
    log = list(game.events)
    assert log
    full, bare = game.clone(), game.clone(events=False)
    assert game.events == log and bare.events == [] and full.events == log
    rng_full, rng_bare = random.Random(9), random.Random(9)
    while not full.is_over:
        assert full.legal_actions() == bare.legal_actions()
        full.apply(rng_full.choice(full.legal_actions()))
        bare.apply(rng_bare.choice(bare.legal_actions()))
    assert bare.is_over and bare.scores() == full.scores() and bare.winners == full.winners
    doc_full, doc_bare = full.to_json(), bare.to_json()
    assert doc_full.pop("events")[: len(log)] == [list(e) for e in log]
    doc_bare.pop("events")
    assert doc_full == doc_bare
    assert game.events == log, "cloning leaves the original's log alone"


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 5, "expansion": True, "brutii": True}])
def test_lazy_views_read_late_equal_the_views_of_their_time(options: dict[str, object]) -> None:
    """Views read only after later moves (or never) still show the game as it was when they were made."""
    game = Game.new(seed=2, **options)  # type: ignore[arg-type]
    state = game.python_state()  # the Python engine's views: they read the live state when first read
    rng = random.Random(2)
    kept: list[tuple[PlayerView, PlayerView]] = []
    while not game.is_over:
        seat = game.current_seat
        lazy = game.view(seat)
        if rng.random() < 0.3:
            kept.append((lazy, player_view(state, seat)))
        if rng.random() < 0.1:
            assert lazy.hand == tuple(state.players[seat].hand)  # read at once: computed from the live state
        game.apply(rng.choice(game.legal_actions()))
    assert len(kept) > 20
    for lazy, eager in kept:
        assert lazy == eager and lazy.data == eager.data and repr(lazy) == repr(eager)


def test_a_view_whose_state_changed_behind_its_back_refuses_to_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIBUNE_ENGINE", "python")  # views of the live state; a native game's views read a copy
    game = Game.new(players=4, seed=0)
    view = game.view(game.current_seat)
    apply_action(game.state, game.legal_actions()[0], str)  # the engine directly: Game.apply never ran
    with pytest.raises(RuntimeError, match=r"outside Game\.apply"):
        _ = view.hand
    with pytest.raises(ValueError, match="seat must be in"):
        game.view(7)


class _MaskRandom(RandomPolicy):
    """A RandomPolicy subclass: called through ``from_mask`` (the plain class takes the index path)."""


def test_random_opponents_without_masks_play_the_same_games() -> None:
    assert opponent_kind(RandomPolicy()) == "random" and opponent_kind(_MaskRandom()) == "mask"
    fast = TribuneSingleEnv(players=4)
    slow = TribuneSingleEnv(players=4, opponents=[_MaskRandom() for _ in range(3)])
    for seed in range(3):
        obs_fast, _ = fast.reset(seed=seed)
        obs_slow, _ = slow.reset(seed=seed)
        done = False
        rng = random.Random(seed)
        while not done:
            assert np.array_equal(obs_fast, obs_slow)
            legal = np.flatnonzero(fast.action_masks())
            action = int(legal[rng.randrange(len(legal))])
            obs_fast, r_fast, term, trunc, _ = fast.step(action)
            obs_slow, r_slow, *_ = slow.step(action)
            assert r_fast == r_slow
            done = term or trunc
        assert fast.game.to_json() == slow.game.to_json()
    with pytest.raises(ValueError, match="allows no action"):
        RandomPolicy(0).from_indices([])


def test_lazy_views_pickle_and_copy_as_computed_views(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIBUNE_ENGINE", "python")  # a Python game pickles with its views (a native one: its position)
    game = Game.new(players=4, seed=1)
    view = game.view(game.current_seat)
    for other in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view), pickle.loads(pickle.dumps(game))._views[0]):
        assert other == view and other.hand == view.hand and other.seat == view.seat
    with pytest.raises(ValueError, match="fields of seat"):
        PlayerView(view.data, (view.seat + 1) % 4)
