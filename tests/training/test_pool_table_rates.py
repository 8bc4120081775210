"""The table win rates of a pool run per span of decisions (training.pool.table_rates)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from training.pool.table_rates import main, table_rates

HEADER = "kind,decisions,table_win_rate,win_rate\n"


def curve(tmp_path: Path, rows: str) -> Path:
    (tmp_path / "curve.csv").write_text(HEADER + rows, encoding="utf-8")
    return tmp_path


def test_rollouts_are_grouped_by_their_decisions_and_evaluations_left_out(tmp_path: Path) -> None:
    run = curve(tmp_path, "eval,0,,0.7\ntrain,100,0.5,\ntrain,200,0.7,\ntrain,201,0.9,\ntrain,300,,\n"
                          "eval,300,,0.1\ntrain,400,0.6,\n")
    spans = table_rates(run, 200)
    assert [(s.start, s.stop, s.rollouts) for s in spans] == [(0, 200, 2), (200, 400, 2)]
    assert spans[0].mean == pytest.approx(0.6) and spans[1].mean == pytest.approx(0.75)
    assert spans[0].half_width == pytest.approx(1.96 * math.sqrt(0.02) / math.sqrt(2))


def test_one_rollout_has_no_spread_and_bad_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert table_rates(curve(tmp_path, "train,5,0.4,\n"), 10)[0].half_width == 0.0
    with pytest.raises(ValueError, match="span: must be >= 1"):
        table_rates(tmp_path, 0)
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing")])
    assert "missing/curve.csv: cannot read" in capsys.readouterr().err
    assert main([str(tmp_path), "--span", "0.00001"]) == 0
    assert "40.0% (+-0.0, 1 rollouts)" in capsys.readouterr().out
