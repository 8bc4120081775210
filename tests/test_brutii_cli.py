"""The command line with the Brutii: ``simulate --expansion --brutii`` and ``log --expansion --brutii`` (R42: 5 or
6 seats, one of them the Brutii; R43: his seat configured or drawn)."""

from __future__ import annotations

import json
import re

import pytest

from tribune_cli.core import main
from tribune_env.simulate import simulate


def run(argv: list[str]) -> int:
    """``main(argv)``'s exit status, also when the argument parser exits (status 2)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _without_timings(doc: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in doc.items() if k not in ("elapsed", "games_per_second", "decisions_per_second")}


@pytest.mark.parametrize("players", [5, 6])
def test_simulate_brutii_summary(players: int) -> None:
    """R42: Brutii games at both seat counts; the Brutii's wins are counted whatever his seat."""
    summary = simulate(3, players=players, seed=2, expansion=True, brutii=True, round_limit=8)
    assert summary.brutii and summary.brutii_seat is None and summary.players == players
    assert summary.total_decisions > 0 and 0 <= summary.brutii_wins <= summary.games
    doc = summary.to_dict()
    assert doc["brutii"] is True and doc["brutii_wins"] == summary.brutii_wins
    assert doc["brutii_win_rate"] == pytest.approx(summary.brutii_wins / 3)
    assert "brutii" not in simulate(1, players=3, seed=2, expansion=True, round_limit=3).to_dict()


def test_a_fixed_brutii_seat_wins_exactly_that_seats_games() -> None:
    """R43: with --brutii-seat every game has him there, so his wins are that seat's wins."""
    summary = simulate(4, players=5, seed=7, expansion=True, brutii=True, brutii_seat=3, round_limit=8)
    assert summary.brutii_seat == 3 and summary.brutii_wins == summary.wins[3]


def test_simulate_brutii_is_reproducible() -> None:
    a = simulate(2, players=6, seed=5, expansion=True, brutii=True, round_limit=6).to_dict()
    b = simulate(2, players=6, seed=5, expansion=True, brutii=True, round_limit=6).to_dict()
    assert _without_timings(a) == _without_timings(b)


@pytest.mark.parametrize("players", [5, 6])
def test_simulate_brutii_command_json(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--expansion", "--brutii", "--players", str(players), "--games", "2", "--json"]
    assert main([*argv, "--round-limit", "8", "--seed", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["brutii"] is True and doc["expansion"] is True and doc["brutii_seat"] is None
    assert doc["games"] == 2 and len(doc["wins"]) == players
    assert doc["games_per_second"] > 0 and doc["decisions_per_second"] > 0


def test_simulate_brutii_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--expansion", "--brutii", "--brutii-seat", "1", "--players", "5", "--games", "2"]
    assert main([*argv, "--round-limit", "8"]) == 0
    out = capsys.readouterr().out
    assert "Brutii seat 1" in out and re.search(r"Brutii wins +│ +\d+ \(", out)
    assert "games / second" in out and "decisions / second" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--brutii", "--players", "4"], "--players: 4 is not supported with the Brutii; choose one of (5, 6)"),
        (["--brutii-seat", "1"], "--brutii-seat: set only with --brutii"),
        (["--expansion", "--brutii", "--players", "3"], "players: 3 is not supported with the Brutii"),
        (["--expansion", "--brutii", "--players", "7"], "players: 7 is not supported with the Brutii"),
        (["--expansion", "--players", "5", "--brutii-seat", "1"], "--brutii-seat: set only with --brutii"),
        (["--expansion", "--brutii", "--players", "5", "--brutii-seat", "5"], "--brutii-seat: must be in 0..4"),
        (["--expansion", "--brutii", "--players", "5", "--brutii-seat", "x"], "invalid int value"),
    ],
)
@pytest.mark.parametrize("command", ["simulate", "log"])
def test_brutii_options_are_checked(
    command: str, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """R42: the Brutii (which implies the expansion) at 5 or 6 seats; a seat only with the Brutii, in range; the
    message names the flag."""
    assert run([command, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_log_brutii_prints_his_turns_and_his_board(capsys: pytest.CaptureFixture[str]) -> None:
    """R44, R45: the log shows his disc reveals and played cards; the board shows his public state."""
    argv = ["log", "--expansion", "--brutii", "--players", "6", "--brutii-seat", "4", "--seed", "3"]
    assert main([*argv, "--round-limit", "6"]) == 0
    out = capsys.readouterr().out
    assert "P4 is the Brutii" in out and "P4 (the Brutii) reveals a disc" in out
    assert "Brutii: P4; phase-2 turns left" in out and "P4 (Brutii): " in out
    assert "action cards played: " in out and "decisions; scores" in out


def test_log_brutii_for_one_seat_hides_other_hands(capsys: pytest.CaptureFixture[str]) -> None:
    """R45: his hand is private like any hand; his cards and discs are public."""
    argv = ["log", "--expansion", "--brutii", "--players", "5", "--brutii-seat", "0", "--seed", "1", "--seat", "2"]
    assert main([*argv, "--round-limit", "6"]) == 0
    out = capsys.readouterr().out
    assert out.count("hand:") == 1 and "Brutii: P0" in out
    assert main(["log", "--expansion", "--brutii", "--players", "5", "--seed", "1", "--seat", "5"]) == 2
