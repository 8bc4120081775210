"""``tribune bench`` runs end to end, the two engines compared where the native core is built. Its figures are the
benchmark's business (``tribune bench``, ``python -m tribune_arena.bench.learners``), not the test suite's: this
smoke test checks only that every figure is reported; option errors are in test_cli_options.py."""

from __future__ import annotations

import io
import json
import time

import pytest

from tribune_arena.bench.environments import BenchReport
from tribune_cli.core import main
from tribune_env.engine import native


@pytest.mark.slow
def test_bench_command_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--players", "2", "--peers", "--clock", "cpu", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= set(BenchReport.__dataclass_fields__)
    (row,) = doc["tribune"]
    assert row["players"] == 2 and doc["peers"] == [] and doc["ratios_4p"] == {}
    figures = {name: value for name, value in row.items() if name != "players"}
    assert figures and all(value > 0 for value in figures.values()), figures
    assert row["expansion_ratio"] == pytest.approx(row["expansion_decisions_per_s"] / row["engine_decisions_per_s"])
    assert row["frame_ms"] <= row["frame_p90_ms"]
    assert doc["engine"] == native.engine_name() and doc["clock"] == "cpu"
    if native.built():  # both engines at the one player count measured, every figure of each > 0
        assert [(e["engine"], e["players"]) for e in doc["engines"]] == [("python", 2), ("native", 2)]
        python, ours = doc["engines"]
        assert all(v > 0 for k, v in ours.items() if k not in ("engine", "players")), ours
        assert python["core_decisions_per_s"] == python["batch_decisions_per_s"] == 0
        assert doc["engine_ratios"]["game_decisions_per_s"] == pytest.approx(
            ours["game_decisions_per_s"] / python["game_decisions_per_s"]
        )
    else:
        assert doc["engines"] == [] and "not built" in doc["engines_note"]
    assert doc["openspiel"]


@pytest.mark.slow  # the learner bench imports torch
def test_the_learner_bench_refuses_bad_options() -> None:
    from tribune_arena.bench.learners import main as learners
    from tribune_arena.bench.learners import sb3_rate

    with pytest.raises(SystemExit):
        learners(["--seconds", "0"])
    with pytest.raises(ValueError, match="unknown vector environment"):
        sb3_rate("nothing", 8, 8)


def test_a_missing_peer_prints_the_exact_install_command() -> None:
    """The peers table's note keeps the hint's brackets (rich would read ``[bench]`` as a style tag and drop it) and
    names the checkout's command, not an unpublished package."""
    from rich.console import Console

    from tribune_arena.bench.environments import PeerFigures
    from tribune_cli.core import _peers_table
    from tribune_env.extras import missing_extra

    hint = missing_extra("connect_four_v3", "bench", ImportError("No module named 'pygame'"))
    report = BenchReport(0.01, 0, "", "", peers=[PeerFigures("connect_four_v3", None, None, f"unavailable: {hint}")])
    console = Console(record=True, width=400, file=io.StringIO())
    console.print(_peers_table(report))
    text = " ".join(console.export_text().split())
    assert "needs the 'bench' extra (No module named 'pygame'): pip install -e '.[bench]' in the repository" in text
    assert "tribune-rl" not in text


def test_the_clock_is_chosen_and_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--clock cpu`` times with the process's CPU time for the run only; an unknown clock is refused first."""
    from tribune_arena.bench import environments

    with pytest.raises(ValueError, match="clock: expected one of wall, cpu"):
        environments.bench(0.01, clock_name="sundial")
    seen: list[float] = []

    def fake(*args: object, **kwargs: object) -> BenchReport:
        seen.append(environments.clock())
        assert environments._clock[0] is time.process_time
        return BenchReport(0.01, 0, "", "", clock="cpu")

    monkeypatch.setattr(environments, "_bench", fake)
    assert environments.bench(0.01, clock_name="cpu").clock == "cpu"
    assert seen and environments._clock[0] is time.perf_counter
