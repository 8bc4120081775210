"""Replaying stored games: exact reproduction, clear errors for records that do not replay, the stepper."""

from __future__ import annotations

import dataclasses
import io
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from game_records import play_record
from game_records import replay_cli as cli
from pytest import CaptureFixture

from agents import register_agent
from agents.random_agent import RandomAgent
from tribune_arena.human.explain import person_text
from tribune_arena.records import GameRecord
from tribune_arena.replay.text import ReplayError, Stepper, replay_game, replay_steps
from tribune_arena.replay.words import board_text
from tribune_arena.tournament.play import play_game
from tribune_arena.tournament.schedule import ScheduledGame
from tribune_arena.tournament.store import ResultStore
from tribune_env.engine.actions import Action
from tribune_env.engine.names import decision_name
from tribune_env.engine.view import PlayerView
from tribune_env.envs.infoset import InfoSet


@pytest.fixture(scope="module")
def rec() -> GameRecord:
    return play_record()


def test_replay_reproduces_the_game(rec: GameRecord) -> None:
    game = replay_game(rec)
    assert game.is_over
    assert tuple(game.scores()) == rec.scores
    assert tuple(game.ranks()) == rec.ranks and tuple(game.winners) == rec.winners
    steps = list(replay_steps(rec))
    assert [s.number for s in steps] == list(range(len(rec.actions) + 1))
    assert sum(len(s.events) for s in steps) == len(game.events)
    assert steps[1].action == rec.actions[0] and steps[1].description


def test_tampered_records_raise_clear_errors(rec: GameRecord) -> None:
    bad_scores = dataclasses.replace(rec, scores=tuple(s + 1 for s in rec.scores))
    with pytest.raises(ReplayError, match="differ from the stored scores"):
        replay_game(bad_scores)
    short = dataclasses.replace(rec, actions=rec.actions[:-3])
    with pytest.raises(ReplayError, match="end before the game does"):
        replay_game(short)
    longer = dataclasses.replace(rec, actions=(*rec.actions, "commit"))
    with pytest.raises(ReplayError, match="ended after decision"):
        replay_game(longer)
    garbled = dataclasses.replace(rec, actions=("bogus:x", *rec.actions[1:]))
    with pytest.raises(ReplayError, match=r"decision 1 .*'bogus:x' does not replay"):
        replay_game(garbled)
    illegal = dataclasses.replace(rec, actions=("place:9999", *rec.actions[1:]))
    with pytest.raises(ReplayError, match="does not replay"):
        replay_game(illegal)
    with pytest.raises(ReplayError, match="stored config"):
        replay_game(dataclasses.replace(rec, config={"players": 42}))


def test_stepper_prints_the_log_board_and_result(rec: GameRecord) -> None:
    out = io.StringIO()
    Stepper(rec, out, board=True).print_all()
    text = out.getvalue()
    game = replay_game(rec)
    assert "--- round 1 ---" in text and "--- round 2 ---" in text
    assert "Board at the start of round 2" in text
    for line in game.log():  # in words: names, not ids (issue 38)
        assert person_text(game, line) in text
    assert board_text(game) in text
    assert "Winner(s): " + ", ".join(f"P{s} random" for s in rec.winners) in text
    assert f"score {rec.scores[0]}, rank {rec.ranks[0]}" in text


def test_stepper_for_one_seat_hides_private_lines(rec: GameRecord) -> None:
    game = replay_game(rec)
    private = [e.text for e in game.events if e.private_to not in (-1, 0)]
    assert private  # setup discards are private
    out = io.StringIO()
    Stepper(rec, out, seat=0).print_all()
    text = out.getvalue()
    assert not any(f"] {person_text(game, line)}\n" in text for line in private)
    assert all(person_text(game, line) in text for line in game.log(0))
    assert board_text(game, 0) in text
    with pytest.raises(ValueError, match="--seat"):
        Stepper(rec, out, seat=5)


def test_interactive_stepper(rec: GameRecord) -> None:
    out = io.StringIO()
    Stepper(rec, out).interactive(io.StringIO("\n\nb\nwhat\n?\n3\n100000\n"))
    text = out.getvalue()
    assert "#1 P" in text and "#5 P" in text and f"#{len(rec.actions)} P" in text
    assert "Unknown command 'what'" in text
    assert "Waiting for P" in text  # the board asked for with b
    assert "Winner(s):" in text


def test_interactive_stepper_quits_on_q_and_end_of_input(rec: GameRecord) -> None:
    for script in ("\nq\n", "\n"):
        out = io.StringIO()
        Stepper(rec, out, seat=1).interactive(io.StringIO(script))
        text = out.getvalue()
        assert f"Stopped after decision 1 of {len(rec.actions)}" in text
        assert "Winner(s):" not in text


def test_interactive_stepper_hides_other_seats_choices(rec: GameRecord) -> None:
    out = io.StringIO()
    Stepper(rec, out, seat=2).interactive(io.StringIO(f"{len(rec.actions)}\n"))
    text = out.getvalue()
    other = next(s for s in replay_steps(rec) if s.number and s.seat != 2)
    assert f"#{other.number} P{other.seat} (random) decides ({decision_name(other.kind)})" in text
    assert "Winner(s):" in text


# -- records from the tournament runner ----------------------------------------------------


class _Raiser(RandomAgent):
    """Plays randomly, then raises at its 6th decision (a forfeit)."""

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        self.moves = getattr(self, "moves", 0) + 1
        if self.moves >= 6:
            raise RuntimeError("boom")
        return super().act(view, legal, info)


def test_runner_records_replay_including_forfeits() -> None:
    register_agent("test_replay_raiser", lambda params, seed: _Raiser(seed))
    options = {"players": 3, "round_limit": 2}
    for gid, seating in enumerate([("random", "random", "random"), ("random", "test_replay_raiser", "random")]):
        scheduled = ScheduledGame(gid, 0, 0, 0, 100 + gid, seating, (1, 2, 3))
        rec = play_game(scheduled, options, None)
        assert (rec.forfeit is not None) == (gid == 1)
        game = replay_game(rec)
        assert tuple(game.scores()) == rec.scores and game.is_over == (rec.forfeit is None)


# -- the command -------------------------------------------------------------------------------


@pytest.fixture
def results_file(tmp_path: Path, rec: GameRecord) -> Path:
    path = tmp_path / "results.sqlite"
    with ResultStore(path, {"test": True}) as store:
        store.add(rec)
        store.add(dataclasses.replace(rec, game_id=8, scores=tuple(s + 1 for s in rec.scores)))
    return path


def test_cli_replay_prints_the_log_and_result(results_file: Path, rec: GameRecord, capsys: CaptureFixture[str]) -> None:
    assert cli([str(results_file), "--game", "7"]) == 0
    out = capsys.readouterr().out
    assert "Game 7" in out and "--- round 1 ---" in out and "Winner(s):" in out
    game = replay_game(rec)
    assert all(person_text(game, line) in out for line in game.log())
    assert cli([str(results_file), "--game", "7", "--seat", "1", "--step", "--board"], stdin="\n4\nb\n") == 0
    out = capsys.readouterr().out
    assert "Showing what P1" in out and "#5 P" in out and "Stopped after decision 5" in out
    assert cli([str(results_file), "--list"]) == 0
    out = capsys.readouterr().out
    assert "2 stored game(s)" in out and "game    7: random | random | random" in out


def test_cli_replay_errors(results_file: Path, tmp_path: Path, capsys: CaptureFixture[str]) -> None:
    cases = [
        ([str(results_file), "--game", "99"], "game 99 is not in"),
        ([str(results_file)], "give --game ID"),
        ([str(results_file), "--game", "7", "--seat", "9"], "--seat must be in 0..2"),
        ([str(results_file), "--game", "8"], "game 8: stored scores"),  # unusable, as --list marks it
        ([str(tmp_path / "missing.sqlite"), "--game", "1"], "no such results file"),
    ]
    text_file = tmp_path / "notes.txt"
    text_file.write_text("hello, not a database\n")
    cases.append(([str(text_file), "--list"], "not a tournament results file"))
    other_db = tmp_path / "other.sqlite"
    with sqlite3.connect(other_db) as db:
        db.execute("CREATE TABLE x (y INTEGER)")
    db.close()
    cases.append(([str(other_db), "--list"], "not a tournament results file"))
    for argv, message in cases:
        assert cli(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("tribune: error: ") and message in err, (argv, err)
        assert "Traceback" not in err
