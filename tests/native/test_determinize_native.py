"""The native core's deals for search (native/src/determinize.cpp) against ``tribune_env.engine.determinize``: the
same generator state gives the same state, field for field, and leaves the generator where Python's leaves it.

``Game.determinized`` and ``InfoSet.sample`` deal natively on a native game, so ``zero``'s searches depend on this.
Positions come from random games of every rule set; every seat is dealt for (its own view differs).
"""

from __future__ import annotations

import random

import pytest
from support.lockstep import compare

from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.determinize import resample
from tribune_env.engine.game import Game

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built ({native.BUILD_ERROR})")

CONFIGS = {
    "base-2": GameConfig(players=2),
    "base-4": GameConfig(players=4),
    "base-5": GameConfig(players=5),
    "expansion-3": GameConfig(players=3, expansion=True),
    "expansion-5": GameConfig(players=5, expansion=True),
    "brutii-5": GameConfig(players=5, expansion=True, brutii=True),
    "brutii-6": GameConfig(players=6, expansion=True, brutii=True),
}


def deal_in_lockstep(config: GameConfig, seed: int, every: int) -> int:
    """Play a random native game; at every ``every``-th decision deal for each seat on both engines from equal
    generators and compare. Returns the deals compared."""
    game = Game.new(config, seed=seed)
    assert game.native_core is not None
    rng = random.Random(seed)
    dealt = step = 0
    while not game.is_over:
        if step % every == 0:
            position, core = game.position(), game.native_core
            for seat in range(config.players):
                key = rng.randrange(2**62)
                mine, theirs = random.Random(key), random.Random(key)
                expected = resample(position, seat, mine)
                got = core.resample(seat, theirs)
                compare(expected, got, f"{config} seed {seed} decision {step} seat {seat}", events=False)
                assert got.events(0) == [] and expected.events == []
                assert theirs.getstate() == mine.getstate()
                dealt += 1
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])
        step += 1
    return dealt


@pytest.mark.parametrize("name", list(CONFIGS))
def test_deals_are_pythons(name: str) -> None:
    assert deal_in_lockstep(CONFIGS[name], seed=5, every=7) > 20


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONFIGS))
def test_deals_are_pythons_long(name: str) -> None:
    # Two games a rule set, every second decision, every seat: six games took 9 min of CI's slow tier (load 5)
    # and met no more kinds of deal than two do.
    for seed in range(100, 102):
        deal_in_lockstep(CONFIGS[name], seed=seed, every=2)


def test_a_different_generator_deals_differently() -> None:
    """The comparison can fail: two generators in different states give different deals."""
    game = Game.new(GameConfig(players=4), seed=9)
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    a = game.native_core.resample(0, random.Random(1)).fields()
    b = game.native_core.resample(0, random.Random(2)).fields()
    assert a != b
    assert a["players"][0] == b["players"][0]  # the seat's own hand is its own in every deal


def test_determinized_keeps_the_engine_and_the_view() -> None:
    """``Game.determinized`` on a native game is native, and the seat's own view is unchanged by the deal."""
    game = Game.new(GameConfig(players=4, expansion=True), seed=4)
    for _ in range(60):
        game.apply(game.legal_actions()[-1])
    seat = game.current_seat
    deal = game.determinized(seat, random.Random(3))
    assert deal.native_core is not None and deal.native_core is not game.native_core
    assert deal.view(seat).hand == game.view(seat).hand
    assert deal.legal_actions() == game.legal_actions()


def test_bad_arguments_are_named() -> None:
    core = Game.new(GameConfig(players=3), seed=1).native_core
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.2"):
        core.resample(3, random.Random(0))
    with pytest.raises(AttributeError):
        core.resample(0, object())
