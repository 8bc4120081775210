"""The command line with the Tribune Expansion: ``simulate --expansion``, ``log --expansion`` and the expansion
engine's throughput in ``tribune bench`` (R42: 2-5 players)."""

from __future__ import annotations

import json

import pytest

from tribune_arena.bench.environments import bench
from tribune_cli.core import main
from tribune_env.simulate import simulate


def test_simulate_expansion_summary() -> None:
    summary = simulate(2, players=3, seed=4, expansion=True, round_limit=10)
    assert summary.expansion and summary.games == 2 and summary.total_decisions > 0
    assert summary.to_dict()["expansion"] is True
    assert simulate(1, players=3, seed=4, round_limit=3).to_dict()["expansion"] is False


@pytest.mark.parametrize("players", [2, 5])
def test_simulate_expansion_command_json(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--expansion", "--players", str(players), "--games", "2", "--json", "--round-limit", "10"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["expansion"] is True and doc["games"] == 2 and len(doc["wins"]) == players
    assert doc["games_per_second"] > 0 and doc["decisions_per_second"] > 0


def test_simulate_expansion_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--expansion", "--players", "3", "--games", "2", "--round-limit", "8"]) == 0
    out = capsys.readouterr().out
    assert "expansion" in out and "games / second" in out and "decisions / second" in out


def test_simulate_expansion_rejects_six_players(capsys: pytest.CaptureFixture[str]) -> None:
    """R42: no 6-player game without the Brutii."""
    assert main(["simulate", "--expansion", "--players", "6", "--games", "1"]) == 2
    assert "players" in capsys.readouterr().err


def test_log_expansion_prints_the_expansion_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--expansion", "--players", "3", "--seed", "2", "--round-limit", "8"]) == 0
    out = capsys.readouterr().out
    assert "refugium" in out and "emperor tiles: face up" in out and "officials:" in out
    assert "decisions; scores" in out


def test_log_expansion_for_one_seat_hides_other_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--expansion", "--players", "2", "--seed", "1", "--seat", "0", "--round-limit", "8"]) == 0
    out = capsys.readouterr().out
    assert out.count("hand:") == 1 and "patrons" in out


def test_bench_measures_the_expansion_engine_beside_the_base_one() -> None:
    report = bench(seconds=0.05, players=(2,), peers=())
    figures = report.tribune[0]
    assert figures.engine_decisions_per_s > 0 and figures.expansion_decisions_per_s > 0
    assert figures.expansion_ratio == pytest.approx(figures.expansion_decisions_per_s / figures.engine_decisions_per_s)
    assert report.to_dict()["tribune"][0]["expansion_ratio"] == figures.expansion_ratio


def test_bench_command_reports_the_expansion_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--players", "3", "--peers", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    row = doc["tribune"][0]
    assert row["expansion_decisions_per_s"] > 0 and row["expansion_ratio"] > 0
    assert main(["bench", "--seconds", "0.05", "--players", "2", "--peers"]) == 0
    assert "expansion" in capsys.readouterr().out
