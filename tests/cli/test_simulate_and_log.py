"""The simulation job and its command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribune_cli.core import main
from tribune_env import __version__
from tribune_env.simulate import simulate


@pytest.mark.parametrize("players", [2, 5])
def test_simulate_summary_is_consistent(players: int) -> None:
    summary = simulate(3, players=players, seed=11)
    assert summary.games == 3
    assert summary.players == players
    assert len(summary.wins) == players
    assert sum(summary.wins) >= summary.games  # a shared win counts for each winner
    assert summary.total_decisions > 0
    assert summary.avg_decisions == summary.total_decisions / 3
    assert 1 <= summary.avg_rounds <= summary.round_limit
    assert 0 <= summary.truncated <= summary.games
    assert summary.shared_wins <= summary.games
    assert summary.elapsed > 0


def test_simulate_is_reproducible() -> None:
    a = simulate(2, players=3, seed=5, round_limit=8)
    b = simulate(2, players=3, seed=5, round_limit=8)
    assert (a.wins, a.total_rounds, a.total_decisions, a.truncated) == (
        b.wins,
        b.total_rounds,
        b.total_decisions,
        b.truncated,
    )


def test_simulate_rejects_zero_games() -> None:
    with pytest.raises(ValueError, match="n_games"):
        simulate(0)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--json", "--seed", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 3
    assert doc["players"] == 4
    assert len(doc["wins"]) == 4
    assert sum(doc["wins"]) >= 3
    assert doc["avg_decisions"] > 0


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--players", "2", "--point-variant", "--round-limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "wins seat 1" in out
    assert "decisions / second" in out


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--victory-card", "no_such_card"], "unknown victory card 'no_such_card'"),
        (["--players", "9"], "players: 9 is not supported"),
        (["--players", "5", "--victory-card", "alea_long"], "is not for 5 players"),
        (["--components", "does/not/exist.toml"], "cannot read component file"),
    ],
)
def test_cli_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("tribune: error: ")
    assert message in lines[0]


def test_cli_bad_components_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml\n", encoding="utf-8")
    assert main(["simulate", "--components", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not valid TOML" in err
    assert "Traceback" not in err


def test_log_prints_events_and_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "--- round 1 ---" in out
    assert "[follower_placement]" in out
    assert "Game over; winner(s):" in out
    assert " drew " in out  # the full log includes private lines


def test_log_for_one_seat_hides_other_seats_secrets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--players", "3", "--seed", "2", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    drawn = [line for line in out.splitlines() if " drew " in line or "(sealed)" in line]
    assert drawn and all("] P1 " in line for line in drawn)


def test_log_rejects_a_seat_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--players", "3", "--seat", "3"]) == 2
    assert "--seat" in capsys.readouterr().err
