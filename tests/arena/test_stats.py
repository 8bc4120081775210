"""The win-rate interval (tribune_arena.tournament.stats): Wilson's, never a point, in every table that prints one."""

from __future__ import annotations

import io
import itertools
import math
from pathlib import Path
from statistics import NormalDist

import pytest
from rich.console import Console

from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_arena.tournament.stats import INTERVAL_NAME, interval_meta, percent_range, win_rate_interval


def textbook_wilson(wins: int, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson (1927): (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return ((centre - spread) / (1 + z * z / games), (centre + spread) / (1 + z * z / games))


@pytest.mark.parametrize("games", [1, 2, 8, 40, 80, 400, 10_000])
def test_no_wins_and_all_wins_give_an_interval_not_a_point(games: int) -> None:
    low, high = win_rate_interval(0, games)
    assert low == 0.0 < high < 1.0
    low, high = win_rate_interval(games, games)
    assert 0.0 < low < high == 1.0


@pytest.mark.parametrize(("wins", "games"), [(0, 8), (8, 8), (1, 3), (30, 40), (0, 80), (57, 100), (228, 400)])
def test_known_values_scipy_and_the_textbook_formula(wins: int, games: int) -> None:
    from scipy.stats import binomtest

    low, high = win_rate_interval(wins, games)
    assert low <= wins / games <= high
    assert (low, high) == pytest.approx(textbook_wilson(wins, games), abs=1e-12)
    scipy = binomtest(wins, games).proportion_ci(confidence_level=0.95, method="wilson")
    assert (low, high) == pytest.approx((scipy.low, scipy.high), abs=1e-12)


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    # Newcombe, "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17 (1998),
    # table I, method 3 (Wilson score, no continuity correction)
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)],
)
def test_published_values(wins: int, games: int, low: float, high: float) -> None:
    assert win_rate_interval(wins, games) == pytest.approx((low, high), abs=5e-5)


def test_the_interval_shrinks_as_games_grow() -> None:
    for rate in (0.0, 0.25, 0.5, 1.0):
        widths = [high - low for low, high in (win_rate_interval(round(rate * n), n) for n in (4, 8, 40, 400, 4000))]
        assert all(a > b > 0 for a, b in itertools.pairwise(widths)), (rate, widths)


def test_a_fractional_count_gets_the_wilson_intervals_of_the_whole_counts_around_it() -> None:
    assert win_rate_interval(1.5, 4) == (win_rate_interval(1, 4)[0], win_rate_interval(2, 4)[1])
    assert win_rate_interval(1 / 3 + 1 / 3 + 1 / 3, 4) == win_rate_interval(1, 4)  # float sums of shares
    low, high = win_rate_interval(0.5, 10)
    assert low == 0.0 < 0.05 < high


def test_no_games_know_nothing_and_bad_arguments_are_named() -> None:
    assert win_rate_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="wins must be between 0 and games"):
        win_rate_interval(5, 4)
    with pytest.raises(ValueError, match="wins must be between 0 and games"):
        win_rate_interval(-1, 4)
    with pytest.raises(ValueError, match="games must be a whole number"):
        win_rate_interval(0, -1)
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        win_rate_interval(1, 4, confidence=95)


def test_printed_ranges_never_show_a_point() -> None:
    assert percent_range(win_rate_interval(0, 80)) == "0-5%"
    assert percent_range(win_rate_interval(0, 1000)) == "0.0-0.4%"
    assert percent_range(win_rate_interval(8, 8), digits=1) == "67.6-100.0%"
    assert percent_range(win_rate_interval(10**6, 10**6)) == "99.9996-100.0000%"
    assert INTERVAL_NAME == "95% Wilson interval"
    meta = {"method": "wilson", "confidence": 0.95, "unit": "seat-game", "library": "scipy.stats.binomtest"}
    assert interval_meta() == meta


def test_a_tournament_where_one_agent_never_wins_reports_an_interval(tmp_path: Path) -> None:
    """``random`` against three ``heuristic``: no win in 8 games, and the leaderboard says 0-32%, not 0-0%."""
    definition = TournamentDefinition.create(specs=("random", "heuristic", "heuristic", "heuristic"), games=8)
    results = summarize(run_tournament(definition, tmp_path / "t.sqlite", workers=1, progress=False))
    random = results.entry("random")
    assert (random.wins, random.games) == (0, 8)
    low, high = random.win_rate_ci
    assert low == 0.0 and high == pytest.approx(0.3244, abs=1e-4)
    heuristic = results.entry("heuristic")
    assert (heuristic.wins, heuristic.games) == (8, 24)
    assert heuristic.win_rate_ci[0] < 1 / 3 < heuristic.win_rate_ci[1]
    out = io.StringIO()
    Console(file=out, width=200).print(results.leaderboard_table())
    line = next(row for row in out.getvalue().splitlines() if row.strip().startswith("random"))
    assert "0.0%" in line and "0-32%" in line and "0-0%" not in line
    assert "95%" in out.getvalue() and "Wilson" in out.getvalue()
    assert results.to_json()["leaderboard"][-1]["win_rate_ci"] == [0.0, high]
