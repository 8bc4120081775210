"""Running tournaments: local backends agree, records replay, forfeits, resume after a kill, the command line.

The misbehaving test agents are registered by this module; worker processes
import it by name (the module of the agent class), so they know them too.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from agents.base import Agent, InfoSet
from agents.random_agent import RandomAgent
from agents.specs import no_more, register_agent, take_choice, take_float, take_int
from tribune_arena.records import GameRecord
from tribune_arena.supervision import close_agents, seat_agents
from tribune_arena.tournament.play import play_game
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_arena.tournament.store import ResultStore
from tribune_cli.main import main
from tribune_env.engine.actions import Action, bid
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.notation import parse_action
from tribune_env.engine.view import PlayerView
from tribune_env.extras import missing_extra

MODES = ("raise", "illegal", "none-return", "slow", "hang", "crash")


class Misbehaving(RandomAgent):
    """Plays randomly, but misbehaves in the way ``mode`` says at its ``at``-th decision of every game."""

    name = "misbehave"

    def __init__(self, mode: str, at: int, seconds: float, seed: int | None) -> None:
        super().__init__(seed)
        self.mode, self.at, self.seconds = mode, at, seconds
        self.moves = 0

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        super().reset(seat, config, seed)
        self.moves = 0

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        self.moves += 1
        if self.moves == self.at:
            return self._misbehave(view, legal, info)
        return super().act(view, legal, info)

    def _misbehave(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None) -> Action:
        if self.mode == "raise":
            raise RuntimeError("boom")
        if self.mode == "illegal":
            return bid(999)
        if self.mode == "none-return":
            return None  # type: ignore[return-value]
        if self.mode == "crash":
            os._exit(3)
        if self.mode == "hang":
            try:
                time.sleep(60)
            except Exception:  # a careless agent: the time limit must still get through
                pass
        time.sleep(self.seconds)
        return super().act(view, legal, info)


def _make(params: dict[str, str], seed: int | None) -> Agent:
    mode = take_choice(params, "mode", "raise", MODES)
    at = take_int(params, "at", 3)
    seconds = take_float(params, "seconds", 0.3) or 0.3
    no_more("misbehave", params)
    return Misbehaving(mode, at, seconds, seed)


register_agent("misbehave", _make)


def definition(*specs: str, players: int | None = None, **options: Any) -> TournamentDefinition:
    options.setdefault("round_limit", 3)
    options.setdefault("games", 4)
    return TournamentDefinition.create(tuple(specs), players=players or len(specs), **options)


def without_timings(record: GameRecord) -> GameRecord:
    return replace(record, timings=(), seconds=0.0)


def replay(record: GameRecord) -> Game:
    game = Game.new(GameConfig(**record.config), seed=record.seed)
    for text in record.actions:
        game.apply(parse_action(text))
    return game


# -- playing ------------------------------------------------------------------------


def test_inline_and_two_workers_play_the_same_games(tmp_path: Path) -> None:
    d = definition("random", "random", "random", players=3, games=6, round_limit=4, seed=9)
    one = run_tournament(d, tmp_path / "one.sqlite", workers=1, progress=False)
    two = run_tournament(d, tmp_path / "two.sqlite", workers=2, progress=False)
    assert [r.game_id for r in one] == list(range(6))
    assert [without_timings(r) for r in one] == [without_timings(r) for r in two]
    assert [r.seating for r in one] == [g.seating for g in d.schedule()]


def test_a_stored_record_replays_to_its_result(tmp_path: Path) -> None:
    d = definition("random", "random", players=2, games=4, round_limit=60, seed=1)
    records = run_tournament(d, tmp_path / "r.sqlite", workers=1, progress=False)
    assert any(not r.truncated for r in records)
    for r in records:
        game = replay(r)
        assert game.is_over
        assert (tuple(game.scores()), tuple(game.ranks()), game.winners) == (r.scores, r.ranks, r.winners)
        assert (game.round, game.truncated) == (r.rounds, r.truncated)
        assert r.decisions == len(r.actions) == sum(t.moves for t in r.timings)
        assert r.config == d.options() and r.forfeit is None


def test_same_spec_twice_gets_two_agents_reset_for_their_seats() -> None:
    d = definition("misbehave:mode=none-return,at=1000", "misbehave:mode=none-return,at=1000")
    try:
        record = play_game(d.schedule()[0], d.options(), None)
        a, b = seat_agents(d.schedule()[0].seating)
    finally:
        close_agents()
    assert a is not b and (a.seat, b.seat) == (0, 1)
    assert record.forfeit is None


def test_progress_bar_and_notes(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=150)
    d = definition("random", "random", games=3, round_limit=2)
    run_tournament(d, tmp_path / "r.sqlite", workers=1, progress=True, console=console)
    text = out.getvalue()
    assert "tournament" in text and "4/4" in text
    assert "3 games rounded up to 4: whole blocks of 2" in text and "played 4 games in" in text


# -- forfeits ------------------------------------------------------------------------


def check_forfeits(records: list[GameRecord], spec: str, reason: str, text: str) -> None:
    forfeited = [r for r in records if spec in r.seating]
    assert forfeited and all(r.forfeit is not None for r in forfeited)
    for r in forfeited:
        assert r.forfeit is not None
        seat = r.forfeit.seat
        assert r.seating[seat] == spec and r.forfeit.reason == reason and text in r.forfeit.message
        assert r.ranks[seat] == r.players and seat not in r.winners and r.winners
        assert not r.truncated
        others = [s for s in range(r.players) if s != seat]
        assert max(r.scores[s] for s in others) == r.scores[r.winners[0]]
        assert replay(r).current_seat == seat  # the game stopped at the forfeited decision
    assert all(r.forfeit is None for r in records if spec not in r.seating)  # the others played on


@pytest.mark.parametrize(
    ("spec", "reason", "text"),
    [
        ("misbehave:mode=raise", "raised", "RuntimeError: boom (at "),
        ("misbehave:mode=illegal", "illegal", "returned Bid(amount=999), not one of the"),
        ("misbehave:mode=none-return", "illegal", "returned None"),
        ("misbehave:mode=slow,seconds=0.6", "timeout", "limit 0.3 s"),
    ],
)
def test_forfeits_are_recorded_and_the_tournament_goes_on(tmp_path: Path, spec: str, reason: str, text: str) -> None:
    d = definition(spec, "random", "random", players=2, games=6, time_limit=0.3)
    records = run_tournament(d, tmp_path / "r.sqlite", workers=1, progress=False)
    assert len(records) == 6
    check_forfeits(records, spec, reason, text)


def test_forfeits_in_worker_processes(tmp_path: Path) -> None:
    d = definition("misbehave:mode=hang", "random", "random", players=2, games=6, time_limit=0.3)
    start = time.perf_counter()
    records = run_tournament(d, tmp_path / "r.sqlite", workers=2, progress=False)
    assert time.perf_counter() - start < 30
    check_forfeits(records, "misbehave:mode=hang", "timeout", "limit 0.3 s")
    assert all(r.timings[r.forfeit.seat].longest < 5 for r in records if r.forfeit)  # interrupted in the worker


def test_a_hanging_agent_is_interrupted_at_the_limit(tmp_path: Path) -> None:
    d = definition("misbehave:mode=hang", "random", games=2, time_limit=0.3)
    start = time.perf_counter()
    records = run_tournament(d, tmp_path / "r.sqlite", workers=1, progress=False)
    assert time.perf_counter() - start < 20
    check_forfeits(records, "misbehave:mode=hang", "timeout", "limit 0.3 s")
    for r in records:
        assert r.forfeit is not None and r.timings[r.forfeit.seat].longest < 5


def test_outside_the_main_thread_an_overrun_is_still_a_timeout() -> None:
    d = definition("misbehave:mode=slow,seconds=0.3,at=1", "random", time_limit=0.1)
    out: list[GameRecord] = []
    thread = threading.Thread(target=lambda: out.append(play_game(d.schedule()[0], d.options(), 0.1)))
    thread.start()
    thread.join()
    close_agents()
    assert out[0].forfeit is not None and out[0].forfeit.reason == "timeout"
    assert out[0].timings[0].longest >= 0.3  # measured, not interrupted


def test_a_dying_agent_forfeits_its_games_and_the_tournament_completes(tmp_path: Path) -> None:
    """An agent that kills its own process (``os._exit``) forfeits each of its games as "crashed"; the worker is
    replaced and every game is stored (issue: a misbehaving agent cannot stop a tournament)."""
    d = definition("misbehave:mode=crash,at=1", "random", "random", players=2, games=6)
    path = tmp_path / "r.sqlite"
    run_tournament(d, path, workers=2, progress=False)
    with ResultStore(path) as store:
        records = list(store.records())
    assert len(records) == 6
    for r in records:
        if "misbehave:mode=crash,at=1" in r.seating:
            assert r.forfeit is not None and r.forfeit.reason == "crashed", r
        else:
            assert r.forfeit is None


# -- resume --------------------------------------------------------------------------

RESUME_ARGS = ["random"] * 4 + ["--games", "48", "--seed", "5", "--round-limit", "8", "--no-progress", "--json"]


def stored_count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def stored_rows(path: Path) -> dict[int, str]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT game_id, record FROM games").fetchall())


def wait_until_gone(marker: str, seconds: float = 15) -> bool:
    """Whether no live process mentions ``marker`` on its command line (the forkserver's names its cwd) in time."""
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = []
        for cmdline in proc.glob("[0-9]*/cmdline"):
            with contextlib.suppress(OSError):
                lines.append(cmdline.read_bytes())
        if not any(marker.encode() in line for line in lines):
            return True
        time.sleep(0.1)
    return False


def test_resume_after_a_killed_run_loses_and_repeats_nothing(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite"
    command = [sys.executable, "-m", "tribune_cli.main", "tournament", *RESUME_ARGS, "--workers", "2"]
    proc = subprocess.Popen([*command, "--results", str(path)], cwd=tmp_path, stdout=subprocess.DEVNULL)
    try:
        while proc.poll() is None and stored_count(path) < 6:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the tournament finished before it could be killed"
    assert wait_until_gone(str(tmp_path)), "worker processes outlived the killed tournament"
    before = stored_rows(path)
    assert 6 <= len(before) < 48

    done = subprocess.run([*command, "--results", str(path)], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"{len(before)} of 48 games already played" in done.stderr
    assert json.loads(done.stdout)["games"] == 48
    after = stored_rows(path)
    assert sorted(after) == list(range(48))
    assert all(after[i] == text for i, text in before.items())  # stored games were not played again

    reference = run_tournament(
        definition(*["random"] * 4, games=48, seed=5, round_limit=8), tmp_path / "ref.sqlite", workers=2, progress=False
    )
    resumed = [GameRecord.from_dict(json.loads(after[i])) for i in range(48)]
    assert [without_timings(r) for r in resumed] == [without_timings(r) for r in reference]


# -- command line --------------------------------------------------------------------


def test_command_prints_json_and_reruns_as_a_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "random", "random", "--games", "3", "--round-limit", "3", "--workers", "1", "--no-progress"]
    path = tmp_path / "t.sqlite"
    assert main([*args, "--json", "--results", str(path)]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["games"] == 4 and doc["results_file"] == str(path)
    assert doc["tournament"]["specs"] == ["random", "random"]
    assert "3 games rounded up to 4" in err
    assert main([*args, "--results", str(path), "--plots", str(tmp_path / "plots")]) == 0
    out, err = capsys.readouterr()
    assert "4 of 4 games already played" in err and "Leaderboard" in out and "plots: " in out
    assert sorted(p.suffix for p in (tmp_path / "plots").iterdir()) == [".png", ".png"]


def test_default_results_file_is_the_same_for_the_same_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "random", "random", "--games", "2", "--round-limit", "2", "--workers", "1", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)["results_file"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["results_file"] == first
    assert main([*args, "--seed", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["results_file"] != first
    assert len(list((tmp_path / "results").glob("tournament-*.sqlite"))) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchagent", "random"], "unknown agent 'nosuchagent'"),
        (["random:x=1", "random"], "agent 'random' has no parameter(s) x"),
        (["random", "random", "--players", "3"], "3-player games need at least 3 agent specs"),
        (["random", "random", "--victory-card", "nope"], "--victory-card: unknown victory card 'nope'"),
        (["random"] * 9 + ["--players", "9"], "players: 9 is not supported"),
    ],
)
def test_command_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    path = tmp_path / "t.sqlite"
    assert main(["tournament", *args, "--results", str(path), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tribune: error: ") and message in err and err.count("\n") == 1
    assert not path.exists()


def test_command_refuses_a_results_file_of_another_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.sqlite"
    base = ["tournament", "random", "random", "--round-limit", "2", "--games", "2", "--results", str(path), "--json"]
    assert main([*base, "--workers", "1"]) == 0
    capsys.readouterr()
    before = path.read_bytes()
    assert main([*base, "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tribune: error: ") and "holds another tournament (seed: 3 here, 0 in the file)" in err
    assert path.read_bytes() == before


def test_ray_backend_without_ray_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["tournament", "random", "random", "--backend", "ray", "--results", str(tmp_path / "t.sqlite")]) == 2
    assert missing_extra("the ray backend", "ray") in capsys.readouterr().err
