"""The native core plays exactly like the Python engine (issue 34, item 6).

Random games stepped in lockstep on both engines (tests/support/lockstep.py): at every decision the same pending
decision and legal choices in order, and every field of the state and the log equal at regular steps and at the
end. A quick game per rule set and player count here; many more under ``slow``; the 2,000-game runs of the issue's
done-when are ``python native/tools/lockstep.py --rules ... --games 2000``. Also: seeded tournaments give the same
records on both engines, and the chance streams (CPython's ``random``) match for every shuffle size and sample the
engine draws.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lockstep import Divergence, compare, run_from, run_game, run_many

from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.flow import advance, apply_action, legal_actions
from tribune_env.engine.serialize import state_from_json, state_to_json
from tribune_env.engine.setup import new_state

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built: {native.BUILD_ERROR}")

TABLES = [("base", n) for n in (2, 3, 4, 5)] + [("expansion", n) for n in (2, 3, 4, 5)] + [("brutii", 5), ("brutii", 6)]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_a_random_game_is_identical_on_both_engines(rules: str, players: int) -> None:
    config = GameConfig.for_rules(rules, players=players)
    assert run_game(config, seed=players, choice_seed=100 + players, every=25) > 50


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_many_random_games_are_identical_on_both_engines(rules: str, players: int) -> None:
    config = GameConfig.for_rules(rules, players=players)
    # Six games a table here; the long identity runs (2,000 games a rule set, issue 34)
    # are native/tools/lockstep.py's.
    totals = run_many(config, games=6, first_seed=1_000 * players, every=40)
    assert totals.games == 6


@pytest.mark.parametrize(
    "options", [{"point_variant": True, "round_limit": 8}, {"round_limit": 3}, {"auto_forced": False, "round_limit": 6}]
)
def test_variant_options_are_identical_on_both_engines(options: dict[str, object]) -> None:
    for rules in ("base", "expansion"):
        config = GameConfig.for_rules(rules, players=4, **options)
        run_game(config, seed=5, choice_seed=6, every=10)


def test_a_difference_is_found_and_named() -> None:
    """The comparison can fail: a changed field is reported with its name."""
    config = GameConfig(players=4)
    state = new_state(config, 3)
    advance(state)
    core = native.new_core(config, 3)
    compare(state, core, "start")
    state.players[2].money += 1
    with pytest.raises(Divergence, match=r"state\.players\[2\]\.money"):
        compare(state, core, "changed")


def test_positions_cross_between_the_engines_unchanged() -> None:
    """A state copied into the native core and back is the same state, log included."""
    config = GameConfig.for_rules("brutii", players=6)
    state = new_state(config, 11)
    advance(state)
    back = native.state_of(native.core_of(state), config)
    assert native.fields_of(back) == native.fields_of(state)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 20, 21, 22, 23, 60, 85, 86, 200])
def test_chance_draws_are_cpythons(n: int) -> None:
    """The core's generator is CPython's: seeding, getrandbits(63), shuffle, both branches of sample, randrange."""
    for seed in (0, 1, 2**32, 2**40 + n, 2**63 - 1 - n):
        pool = list(range(n))
        for k in sorted({0, 1, n // 2, n}):
            rng = random.Random(seed)
            bits = rng.getrandbits(63)
            deck = list(range(n))
            rng.shuffle(deck)
            expected = (bits, deck, rng.sample(pool, k), rng.randrange(n))
            assert native.core_module.random_draws(seed, n, k) == expected


def test_new_games_deal_as_the_python_engine() -> None:
    """The set-up's chance (deck shuffle, victory card, starting seat, Brutii seat, emperor tiles) is the same."""
    for rules, players in TABLES:
        for seed in (0, 2**63 - 1, 12345):
            config = GameConfig.for_rules(rules, players=players)
            core = native.core_module.Core.new_unadvanced(native.rules_for(config), config, seed)
            compare(new_state(config, seed), core, f"{rules} {players} seed {seed}")


@pytest.mark.parametrize(("rules", "players"), [("base", 4), ("expansion", 3), ("brutii", 6)])
def test_saved_positions_play_on_identically(rules: str, players: int) -> None:
    """Documents saved at random points of a game, read back (the Python reader checks them) and copied into the
    core, play on exactly as the Python engine plays them."""
    config = GameConfig.for_rules(rules, players=players)
    rng = random.Random(players)
    state = new_state(config, 21)
    advance(state)
    saved, decisions = 0, 0
    while state.pending is not None and saved < 3:
        if decisions in (40, 170, 400):
            doc = state_to_json(state)
            run_from(state_from_json(doc), native.core_of(state_from_json(doc)), saved, f"saved {saved}", steps=30)
            saved += 1
        legal = legal_actions(state)
        apply_action(state, legal[rng.randrange(len(legal))])
        decisions += 1
    assert saved == 3


def _records(path: Path, monkeypatch: pytest.MonkeyPatch, engine: str) -> list[tuple[object, ...]]:
    from tribune_arena.tournament.runner import run_tournament
    from tribune_arena.tournament.schedule import TournamentDefinition

    monkeypatch.setenv(native.ENGINE_ENV, engine)
    definition = TournamentDefinition(("heuristic", "random", "greedy", "random"), GameConfig(players=4), 4, seed=9)
    records = run_tournament(definition, path / f"{engine}.sqlite", workers=1, progress=False)
    return [(r.game_id, r.seed, r.seating, r.actions, r.scores, r.ranks, r.winners, r.rounds) for r in records]


def test_seeded_tournaments_give_identical_records_on_both_engines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _records(tmp_path, monkeypatch, "native") == _records(tmp_path, monkeypatch, "python")
