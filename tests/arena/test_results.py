"""Tournament results: win rates, Wilson intervals, ranks, openskill ratings, head-to-head, JSON, plots."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from rich.console import Console

from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.tournament.plots import save_plots
from tribune_arena.tournament.results import rate_games, summarize
from tribune_arena.tournament.stats import win_rate_interval


def record(
    game_id: int,
    seating: Sequence[str],
    ranks: Sequence[int],
    scores: Sequence[int] | None = None,
    forfeit: Forfeit | None = None,
    timings: Sequence[SeatTiming] | None = None,
) -> GameRecord:
    """A hand-made record: winners are the seats ranked 1 (unless forfeited)."""
    n = len(seating)
    return GameRecord(
        game_id=game_id,
        deal=game_id,
        seed=game_id,
        seating=tuple(seating),
        config={"players": n},
        actions=(),
        scores=tuple(scores) if scores is not None else tuple(10 - r for r in ranks),
        ranks=tuple(ranks),
        winners=tuple(s for s in range(n) if ranks[s] == 1 and (forfeit is None or forfeit.seat != s)),
        rounds=5,
        decisions=50,
        truncated=False,
        timings=tuple(timings) if timings is not None else tuple(SeatTiming() for _ in range(n)),
        forfeit=forfeit,
    )


def test_win_rate_rank_score_exact() -> None:
    records = [
        record(0, ["a", "b"], [1, 2], scores=[5, 3]),
        record(1, ["b", "a"], [1, 2], scores=[7, 1]),
        record(2, ["a", "b"], [1, 2], scores=[4, 2]),
        record(3, ["b", "a"], [2, 1], scores=[0, 6]),
    ]
    res = summarize(records)
    a, b = res.entry("a"), res.entry("b")
    assert (a.games, a.wins, a.win_rate) == (4, 3, 0.75)
    assert (b.games, b.wins, b.win_rate) == (4, 1, 0.25)
    assert a.mean_rank == pytest.approx(1.25) and b.mean_rank == pytest.approx(1.75)
    assert a.mean_score == pytest.approx((5 + 1 + 4 + 6) / 4)
    assert a.parity == pytest.approx(0.5)
    assert res.games == 4 and res.players == (2,)
    assert [e.spec for e in res.entries] == ["a", "b"]  # by rating ordinal


def test_duplicate_specs_are_one_entry_with_a_result_per_seat() -> None:
    records = [
        record(0, ["heuristic", "random", "random", "random"], [1, 2, 3, 4]),
        record(1, ["random", "heuristic", "random", "random"], [2, 1, 3, 3]),
        record(2, ["random", "random", "heuristic", "random"], [1, 2, 3, 4]),
    ]
    res = summarize(records)
    h, r = res.entry("heuristic"), res.entry("random")
    assert (h.games, h.wins) == (3, 2)
    assert (r.games, r.wins) == (9, 1)
    assert r.mean_rank == pytest.approx((2 + 3 + 4 + 2 + 3 + 3 + 1 + 2 + 4) / 9)
    assert h.parity == pytest.approx(0.25) and r.parity == pytest.approx(0.25)


def test_shared_wins_count_as_wins_and_split_the_win_share() -> None:
    records = [record(0, ["a", "b", "c"], [1, 1, 3]), record(1, ["a", "b", "c"], [2, 1, 3])]
    res = summarize(records)
    a, b, c = res.entry("a"), res.entry("b"), res.entry("c")
    assert (a.wins, b.wins, c.wins) == (1, 2, 0)
    assert a.win_share == pytest.approx(0.5) and b.win_share == pytest.approx(1.5)
    assert a.win_share_rate == pytest.approx(0.25)
    assert sum(e.win_share for e in res.entries) == pytest.approx(res.games)


def test_the_interval_is_wilsons_over_the_seat_games_contains_the_estimate_and_narrows_with_more_games() -> None:
    def games(n: int) -> list[GameRecord]:
        rng = random.Random(n)
        return [record(i, ["a", "b"], [1, 2] if rng.random() < 0.6 else [2, 1]) for i in range(n)]

    widths = []
    for n in (20, 500):
        a = summarize(games(n)).entry("a")
        low, high = a.win_rate_ci
        assert 0.0 <= low <= a.win_rate <= high <= 1.0
        assert a.win_rate_ci == win_rate_interval(a.wins, a.games)
        widths.append(high - low)
    assert widths[1] < widths[0] / 2
    assert summarize(games(20)).entry("a").win_rate_ci == summarize(games(20)[::-1]).entry("a").win_rate_ci


def test_an_entry_with_several_seats_a_game_counts_its_seat_games() -> None:
    """Two seats of ``r`` a game, never winning: Wilson's 0 of 2n, not a point."""
    records = [record(i, ["h", "r", "r"], [1, 2, 3]) for i in range(10)]
    r = summarize(records).entry("r")
    assert (r.wins, r.games) == (0, 20)
    assert r.win_rate_ci == win_rate_interval(0, 20) and r.win_rate_ci[1] > 0.1


def test_ratings_are_openskill_plackett_luce_on_the_same_matches() -> None:
    rng = random.Random(3)
    specs = ["a", "b", "c", "d"]
    records = []
    for i in range(30):
        seating = rng.sample(specs, 3)
        ranks = [rng.randint(1, 3) for _ in seating]
        records.append(record(i, seating, ranks))
    model = PlackettLuce()
    direct = {s: model.rating(name=s) for s in specs}
    for r in records:
        rated = model.rate([[direct[s]] for s in r.seating], ranks=list(r.ranks))
        for s, team in zip(r.seating, rated, strict=True):
            direct[s] = team[0]
    res = summarize(list(reversed(records)))  # fed in game_id order whatever the input order
    for s in specs:
        e = res.entry(s)
        assert e.mu == pytest.approx(direct[s].mu) and e.sigma == pytest.approx(direct[s].sigma)
        assert e.ordinal == pytest.approx(direct[s].ordinal())
    assert [e.ordinal for e in res.entries] == sorted((e.ordinal for e in res.entries), reverse=True)


def test_duplicate_seats_average_their_rating_updates() -> None:
    records = [record(0, ["x", "y", "y"], [2, 1, 3])]
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(3)], ranks=[2, 1, 3])
    ratings = rate_games(records)
    assert ratings["x"] == pytest.approx((rated[0][0].mu, rated[0][0].sigma))
    assert ratings["y"][0] == pytest.approx((rated[1][0].mu + rated[2][0].mu) / 2)
    assert ratings["y"][1] == pytest.approx((rated[1][0].sigma + rated[2][0].sigma) / 2)


def test_the_agent_that_always_wins_is_rated_highest_and_consistent_with_results() -> None:
    rng = random.Random(5)
    records = []
    for i in range(40):
        seating = ["champ", *rng.sample(["p", "q", "r", "s"], 3)]
        rng.shuffle(seating)
        others = iter(rng.sample([2, 3, 4], 3))
        records.append(record(i, seating, [1 if s == "champ" else next(others) for s in seating]))
    res = summarize(records)
    champ = res.entries[0]
    assert champ.spec == "champ" and champ.win_rate == 1.0
    assert champ.mu == max(e.mu for e in res.entries)
    assert champ.ordinal > max(e.mu for e in res.entries[1:])
    by_rank = sorted(res.entries, key=lambda e: e.mean_rank)
    assert by_rank[0].spec == "champ"


def test_head_to_head_counts() -> None:
    records = [
        record(0, ["a", "b", "b"], [1, 2, 3]),
        record(1, ["b", "a", "c"], [1, 1, 3]),
        record(2, ["c", "b", "a"], [1, 2, 3]),
    ]
    res = summarize(records)
    ab = res.pair("a", "b")
    assert (ab.games, ab.meetings, ab.ahead, ab.behind, ab.tied) == (3, 4, 2, 1, 1)
    assert ab.ahead_rate == pytest.approx(0.5)
    ba = res.pair("b", "a")
    assert (ba.ahead, ba.behind, ba.tied) == (1, 2, 1)
    ca = res.pair("c", "a")
    assert (ca.games, ca.ahead, ca.behind, ca.tied) == (2, 1, 1, 0)
    with pytest.raises(KeyError):
        res.pair("a", "a")


def test_forfeits_timings_json_and_tables() -> None:
    records = [
        record(
            0,
            ["a", "b"],
            [2, 1],
            forfeit=Forfeit(0, "timeout", "took 9 s"),
            timings=[SeatTiming(4, 2.0, 1.0), SeatTiming(5, 0.5, 0.2)],
        ),
        record(1, ["a", "b"], [1, 2], timings=[SeatTiming(6, 1.0, 0.5), SeatTiming(5, 0.5, 0.2)]),
    ]
    res = summarize(records)
    a = res.entry("a")
    assert a.forfeits == 1 and res.entry("b").forfeits == 0
    assert a.seconds_per_move == pytest.approx(3.0 / 10)
    assert [(f.game_id, f.seat, f.spec, f.reason) for f in res.forfeits] == [(0, 0, "a", "timeout")]
    doc = res.to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert {"games", "players", "leaderboard", "head_to_head", "forfeits", "rating_model"} <= set(doc)
    assert doc["interval"]["method"] == "wilson" and doc["confidence"] == doc["interval"]["confidence"] == 0.95
    line = doc["leaderboard"][0]
    assert {"spec", "win_rate", "win_rate_ci", "mu", "sigma", "ordinal", "mean_rank", "win_share"} <= set(line)
    out = io.StringIO()
    console = Console(file=out, width=200)
    console.print(res.leaderboard_table())
    console.print(res.head_to_head_table())
    assert "a" in out.getvalue() and "Leaderboard" in out.getvalue() and "Head to head" in out.getvalue()


def test_empty_results() -> None:
    res = summarize([])
    assert res.entries == [] and res.games == 0
    assert json.loads(json.dumps(res.to_json()))["leaderboard"] == []


def test_plots_are_png_files(tmp_path: Path) -> None:
    records = [record(i, ["a", "b", "c"], [1 + (i + s) % 3 for s in range(3)]) for i in range(12)]
    paths = save_plots(summarize(records), tmp_path / "plots")
    assert len(paths) == 2
    for path in paths:
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
