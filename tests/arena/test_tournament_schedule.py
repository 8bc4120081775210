"""Tournament schedule: tables, seat rotation balance, duplicate deals, rounding, determinism."""

from __future__ import annotations

from collections import Counter

import pytest

from agents.base import AgentError
from tribune_arena.tournament.schedule import (
    ScheduledGame,
    TournamentDefinition,
    derive_seed,
    rotations,
    schedule,
    tables,
)


def seat_counts(games: list[ScheduledGame]) -> Counter[tuple[str, int]]:
    return Counter((spec, seat) for g in games for seat, spec in enumerate(g.seating))


def test_rotations_are_cyclic_and_put_every_entry_in_every_seat() -> None:
    rots = rotations(("a", "b", "c"))
    assert rots == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]
    for entry in "abc":
        assert sorted(r.index(entry) for r in rots) == [0, 1, 2]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_spec_sits_in_every_seat_equally_often(players: int) -> None:
    specs = [f"s{i}" for i in range(players)]
    games = schedule(specs, players, games=3 * players, seed=1)
    assert len(games) == 3 * players
    counts = seat_counts(games)
    assert set(counts.values()) == {3}
    assert len(counts) == players * players


def test_duplicate_deals_replay_one_seed_under_every_rotation() -> None:
    games = schedule(["a", "b", "c", "d"], 4, games=12, seed=7)
    by_deal: dict[int, list[ScheduledGame]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    assert sorted(by_deal) == [0, 1, 2]
    for deal, group in by_deal.items():
        assert len({g.seed for g in group}) == 1
        assert group[0].seed == derive_seed(7, "deal", deal)
        assert sorted(g.seating for g in group) == sorted(rotations(("a", "b", "c", "d")))
    assert len({g.seed for g in games}) == 3  # the deals differ


def test_game_ids_are_consecutive_and_agent_seeds_distinct() -> None:
    games = schedule(["a", "b", "c"], 3, games=9, seed=0)
    assert [g.game_id for g in games] == list(range(9))
    seeds = [s for g in games for s in g.agent_seeds]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**63 for s in seeds)


def test_more_specs_than_seats_plays_every_combination_balanced() -> None:
    specs = ["a", "b", "c", "d", "e"]
    assert len(tables(specs, 4)) == 5
    games = schedule(specs, 4, games=40, seed=3)
    assert len(games) == 40  # 2 deals x 5 tables x 4 rotations
    counts = seat_counts(games)
    assert set(counts.values()) == {8} and len(counts) == 20
    assert all(len(set(g.seating)) == 4 for g in games)
    assert {tuple(sorted(g.seating)) for g in games} == {tuple(sorted(t)) for t in tables(specs, 4)}


def test_repeated_specs_are_separate_entries() -> None:
    games = schedule(["heuristic", "random", "random", "random"], 4, games=8, seed=0)
    counts = seat_counts(games)
    for seat in range(4):
        assert counts[("heuristic", seat)] == 2
        assert counts[("random", seat)] == 6


def test_games_round_up_to_whole_blocks() -> None:
    d = TournamentDefinition.create(("random", "random", "random"), players=3, games=4)
    assert d.block_size() == 3
    assert d.total_games() == 6
    assert len(d.schedule()) == 6
    five = TournamentDefinition.create(("a", "b", "c", "d", "e"), players=4, games=1)
    assert five.total_games() == 20


def test_schedule_is_deterministic_and_depends_on_the_seed() -> None:
    a = schedule(["x", "y"], 2, 10, seed=5)
    assert a == schedule(["x", "y"], 2, 10, seed=5)
    b = schedule(["x", "y"], 2, 10, seed=6)
    assert [g.seed for g in a] != [g.seed for g in b]
    assert [g.seating for g in a] == [g.seating for g in b]


def test_definition_canonical_specs_and_round_trip() -> None:
    d = TournamentDefinition.create(
        (" Random ", "MCTS:iterations=5"), players=2, games=3, seed=4, round_limit=5, time_limit=2
    )
    assert d.specs == ("random", "mcts:iterations=5")
    assert d.time_limit == 2.0
    assert TournamentDefinition.from_dict(d.to_dict()) == d
    assert d.options() == {
        "players": 2,
        "victory_card": None,
        "point_variant": False,
        "round_limit": 5,
        "auto_forced": True,
    }


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"specs": ("random", "random"), "players": 3}, "need at least 3 agent specs"),
        ({"specs": ("random",) * 4, "games": 0}, "games"),
        ({"specs": ("random",) * 4, "victory_card": "nope"}, "victory_card"),
        ({"specs": ("random",) * 7, "players": 7}, "players"),
        ({"specs": ("random",) * 4, "time_limit": 0}, "time limit"),
        ({"specs": ("random",) * 4, "round_limit": 0}, "round_limit"),
    ],
)
def test_bad_definitions_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TournamentDefinition.create(**kwargs)  # type: ignore[arg-type]
    stored = {**TournamentDefinition.create(("random",) * 4).to_dict(), **kwargs}
    with pytest.raises(ValueError, match=message):
        TournamentDefinition.from_dict(stored)


def test_malformed_spec_is_an_agent_error() -> None:
    with pytest.raises(AgentError, match="expected key=value"):
        TournamentDefinition.create(("random", "mcts:iterations=4,x"), players=2)
