"""A training evaluation reports the tournaments' Wilson interval: never a point, also at 8 wins of 8."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import ROOT

from tribune_arena.tournament.stats import win_rate_interval
from tribune_env.engine.config import GameConfig


def test_an_evaluation_won_every_game_prints_an_interval(tmp_path: Path) -> None:
    """The shipped numpy policy (no torch needed) against three ``random``: 8 of 8, Wilson 67.6-100%."""
    from training.evaluation import evaluate_checkpoint, read_rows, record_rows

    model = ROOT / "agents" / "models" / "ppo-4p.npz"
    (row,) = evaluate_checkpoint(model, 0, ["random"], 8, GameConfig(), tmp_path / "eval", workers=1)
    assert (row.wins, row.games, row.win_rate) == (8, 8, 1.0)
    assert (row.ci_low, row.ci_high) == win_rate_interval(8, 8)
    assert row.ci_low == pytest.approx(0.6756, abs=1e-4) and row.ci_high == 1.0
    assert row.result() == "8/8 = 100.0% (95% Wilson interval 67.6-100.0%, parity 25%)"
    record_rows(tmp_path / "eval.csv", [row])
    assert read_rows(tmp_path / "eval.csv") == [row]


def test_no_win_prints_an_interval_too() -> None:
    from training.evaluation import EvalRow

    low, high = win_rate_interval(0, 8)
    row = EvalRow(100, "heuristic", 8, 0, 0.0, low, high, 0.25, 3.5, 0.001)
    assert row.result() == "0/8 = 0.0% (95% Wilson interval 0.0-32.4%, parity 25%)"
