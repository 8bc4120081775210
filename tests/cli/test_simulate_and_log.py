"""The simulation job and the ``simulate`` and ``log`` commands, for every rule set: the base game, the expansion
(R42: 2-5 players) and the Brutii (R42: 5 or 6 seats, one of them the Brutii; R43: his seat configured or drawn)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tribune_cli.core import main
from tribune_env import __version__
from tribune_env.simulate import simulate

BRUTII = {"expansion": True, "brutii": True}
#: simulate()'s options per case: the base game at both ends of its player range, the expansion, the Brutii
SUMMARIES: dict[str, dict[str, Any]] = {
    "base-2p": {"players": 2, "seed": 11},
    "base-5p": {"players": 5, "seed": 11},
    "expansion-3p": {"players": 3, "seed": 4, "expansion": True, "round_limit": 10},
    "brutii-5p": {"players": 5, "seed": 2, "round_limit": 8, **BRUTII},
    "brutii-6p": {"players": 6, "seed": 2, "round_limit": 8, **BRUTII},
}
TIMINGS = ("elapsed", "games_per_second", "decisions_per_second")


def run(argv: list[str]) -> int:
    """``main(argv)``'s exit status, also when the argument parser exits (status 2)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def without_timings(doc: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in doc.items() if k not in TIMINGS}


# -- the simulation job -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(SUMMARIES))
def test_simulate_summary_is_consistent(case: str) -> None:
    options = SUMMARIES[case]
    games = 3
    summary = simulate(games, **options)
    assert summary.games == games
    assert summary.players == options["players"]
    assert len(summary.wins) == options["players"]
    assert sum(summary.wins) >= summary.games  # a shared win counts for each winner
    assert summary.total_decisions > 0
    assert summary.avg_decisions == summary.total_decisions / games
    assert 1 <= summary.avg_rounds <= summary.round_limit
    assert 0 <= summary.truncated <= summary.games
    assert summary.shared_wins <= summary.games
    assert summary.elapsed > 0


@pytest.mark.parametrize(
    "options",
    [{"players": 3, "round_limit": 8}, {"players": 3, "round_limit": 8, "expansion": True}, {"players": 6, **BRUTII}],
    ids=["base", "expansion", "brutii"],
)
def test_simulate_is_reproducible(options: dict[str, Any]) -> None:
    a = simulate(2, seed=5, **{"round_limit": 6, **options}).to_dict()
    b = simulate(2, seed=5, **{"round_limit": 6, **options}).to_dict()
    assert without_timings(a) == without_timings(b)


def test_simulate_rejects_zero_games() -> None:
    with pytest.raises(ValueError, match="n_games"):
        simulate(0)


def test_simulate_expansion_summary() -> None:
    summary = simulate(2, players=3, seed=4, expansion=True, round_limit=10)
    assert summary.expansion and summary.games == 2 and summary.total_decisions > 0
    assert summary.to_dict()["expansion"] is True
    assert simulate(1, players=3, seed=4, round_limit=3).to_dict()["expansion"] is False


@pytest.mark.parametrize("players", [5, 6])
def test_simulate_brutii_summary(players: int) -> None:
    """R42: Brutii games at both seat counts; the Brutii's wins are counted whatever his seat."""
    summary = simulate(3, players=players, seed=2, round_limit=8, **BRUTII)
    assert summary.brutii and summary.brutii_seat is None and summary.players == players
    assert summary.total_decisions > 0 and 0 <= summary.brutii_wins <= summary.games
    doc = summary.to_dict()
    assert doc["brutii"] is True and doc["brutii_wins"] == summary.brutii_wins
    assert doc["brutii_win_rate"] == pytest.approx(summary.brutii_wins / 3)
    assert "brutii" not in simulate(1, players=3, seed=2, expansion=True, round_limit=3).to_dict()


def test_a_fixed_brutii_seat_wins_exactly_that_seats_games() -> None:
    """R43: with --brutii-seat every game has him there, so his wins are that seat's wins."""
    summary = simulate(4, players=5, seed=7, brutii_seat=3, round_limit=8, **BRUTII)
    assert summary.brutii_seat == 3 and summary.brutii_wins == summary.wins[3]


# -- tribune simulate ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "players", "games"),
    [
        ([], 4, 3),  # the default player count
        (["--expansion", "--players", "2", "--round-limit", "10"], 2, 2),
        (["--expansion", "--players", "5", "--round-limit", "10"], 5, 2),
        (["--expansion", "--brutii", "--players", "5", "--round-limit", "8"], 5, 2),
        (["--expansion", "--brutii", "--players", "6", "--round-limit", "8"], 6, 2),
    ],
    ids=["base", "expansion-2p", "expansion-5p", "brutii-5p", "brutii-6p"],
)
def test_simulate_command_json(flags: list[str], players: int, games: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *flags, "--games", str(games), "--json", "--seed", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == games and doc["players"] == players and len(doc["wins"]) == players
    assert sum(doc["wins"]) >= games and doc["avg_decisions"] > 0
    assert doc["games_per_second"] > 0 and doc["decisions_per_second"] > 0
    assert doc["expansion"] is ("--expansion" in flags)
    if "--brutii" in flags:
        assert doc["brutii"] is True and doc["brutii_seat"] is None
    else:
        assert "brutii" not in doc


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--players", "2", "--point-variant", "--round-limit", "5"], ["wins seat 1"]),
        (["--expansion", "--players", "3", "--round-limit", "8"], ["expansion"]),
        (
            ["--expansion", "--brutii", "--brutii-seat", "1", "--players", "5", "--round-limit", "8"],
            ["Brutii seat 1", r"Brutii wins +│ +\d+ \("],
        ),
    ],
    ids=["base", "expansion", "brutii"],
)
def test_simulate_command_table(flags: list[str], expected: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The table of each rule set (``expected``: patterns it shows), with the rates."""
    assert main(["simulate", "--games", "2", *flags]) == 0
    out = capsys.readouterr().out
    assert "games / second" in out and "decisions / second" in out
    for pattern in expected:
        assert re.search(pattern, out), pattern


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
        (["--expansion", "--players", "6"], "players"),  # R42: no 6-player game without the Brutii
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


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--brutii", "--players", "4"], "--players: 4 is not supported with the Brutii; choose 5 or 6"),
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


# -- tribune log --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        # the full log includes private lines (" drew ")
        (
            ["--players", "3", "--seed", "2"],
            ["--- round 1 ---", "[follower placement]", "Game over; winner", " drew "],
        ),
        (
            ["--expansion", "--players", "3", "--seed", "2", "--round-limit", "8"],
            ["Refugium", "emperor tiles: face up", "officials:", "decisions; scores"],
        ),
        (
            ["--expansion", "--brutii", "--players", "6", "--brutii-seat", "4", "--seed", "3", "--round-limit", "6"],
            # R44, R45: the log shows his disc reveals and played cards; the board shows his public state
            [
                "P4 is the Brutii",
                "P4 (the Brutii) reveals a disc",
                "Brutii: P4; phase-2 turns left",
                "P4 (Brutii): ",
                "action cards played: ",
                "decisions; scores",
            ],
        ),
    ],
    ids=["base", "expansion", "brutii"],
)
def test_log_prints_events_and_board(flags: list[str], expected: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", *flags]) == 0
    out = capsys.readouterr().out
    for text in expected:
        assert text in out


def test_log_for_one_seat_hides_other_seats_secrets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--players", "3", "--seed", "2", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    drawn = [line for line in out.splitlines() if " drew " in line or "(sealed)" in line]
    assert drawn and all("] P1 " in line for line in drawn)


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--expansion", "--players", "2", "--seed", "1", "--seat", "0", "--round-limit", "8"], "patrons"),
        # R45: his hand is private like any hand; his cards and discs are public
        ("--expansion --brutii --players 5 --brutii-seat 0 --seed 1 --seat 2 --round-limit 6".split(), "Brutii: P0"),
    ],
    ids=["expansion", "brutii"],
)
def test_log_for_one_seat_hides_other_hands(
    flags: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", *flags]) == 0
    out = capsys.readouterr().out
    assert out.count("hand:") == 1 and expected in out


@pytest.mark.parametrize(
    "flags",
    [["--players", "3", "--seat", "3"], ["--expansion", "--brutii", "--players", "5", "--seed", "1", "--seat", "5"]],
)
def test_log_rejects_a_seat_out_of_range(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", *flags]) == 2
    assert "--seat" in capsys.readouterr().err
