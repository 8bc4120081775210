"""Results files that were damaged or tampered with: every problem is named by file and game, never used.

Fault injection: bytes overwritten all over the SQLite file, hand-edited rows
(not JSON, missing keys, edited columns), changed scores, ranks and winners
(also as a hypothesis property), extra and foreign game rows, and a directory
given as the results file. ``replay --list`` lists the readable games and
marks the others; resuming (opening with the definition, or the runner)
refuses the file, names the game, and leaves the file unchanged.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import ScheduledGame, TournamentDefinition
from tribune_arena.tournament.store import ResultStore, StoreError
from tribune_cli import replay
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text

DEFINITION = TournamentDefinition.create(("random", "random", "random"), players=3, games=12, seed=5, round_limit=2)
FORFEITED = 4  # this game ends with a forfeit of the seat to move after 10 decisions


def _record(game: ScheduledGame, forfeit_after: int | None = None) -> GameRecord:
    """The scheduled game played with random legal choices (independently of the tournament's player)."""
    options = DEFINITION.options()
    engine = Game.new(GameConfig(**options), seed=game.seed)
    rng = random.Random(game.game_id)
    actions: list[str] = []
    while not engine.is_over and len(actions) != forfeit_after:
        action = rng.choice(engine.legal_actions())
        actions.append(action_text(action))
        engine.apply(action)
    scores = tuple(engine.scores())
    forfeit = None
    ranks, winners = tuple(engine.ranks()), tuple(engine.winners)
    if forfeit_after is not None:
        seat = engine.current_seat
        forfeit = Forfeit(seat, "raised", "act() raised RuntimeError: boom")
        others = [s for s in range(3) if s != seat]
        ranks = tuple(3 if s == seat else 1 + sum(scores[o] > scores[s] for o in others) for s in range(3))
        winners = tuple(o for o in others if scores[o] == max(scores[x] for x in others))
    return GameRecord(
        game_id=game.game_id, deal=game.deal, seed=game.seed, seating=game.seating, config=options,
        actions=tuple(actions), scores=scores, ranks=ranks, winners=winners, rounds=engine.round,
        decisions=len(actions), truncated=forfeit is None and engine.truncated,
        timings=tuple(SeatTiming(1, 0.1, 0.1) for _ in range(3)), forfeit=forfeit, agent_seeds=game.agent_seeds,
    )


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return [_record(g, 10 if g.game_id == FORFEITED else None) for g in DEFINITION.schedule()]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory, records: list[GameRecord]) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "results.sqlite"
    with ResultStore(path, DEFINITION.to_dict()) as store:
        for r in records:
            store.add(r)
    return path


@pytest.fixture
def results(tmp_path: Path, pristine: Path) -> Path:
    path = tmp_path / "results.sqlite"
    shutil.copy(pristine, path)
    return path


def cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tribune")
    replay.add_parser(parser.add_subparsers(dest="command", required=True))
    return replay.run(parser.parse_args(["replay", *argv]), input_stream=io.StringIO(""))


def edit(path: Path, sql: str, *args: Any) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def edit_record(path: Path, game_id: int, change: Any) -> None:
    db = sqlite3.connect(path)
    (text,) = db.execute("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
    doc = json.loads(text)
    change(doc)
    db.execute("UPDATE games SET record = ? WHERE game_id = ?", (json.dumps(doc), game_id))
    db.commit()
    db.close()


def refused(path: Path, game_id: int | None, capsys: pytest.CaptureFixture[str]) -> None:
    """Resume refuses ``path`` naming it (and the game), leaving it unchanged; ``--list`` marks the game."""
    before = path.read_bytes()
    with pytest.raises(StoreError) as caught:
        ResultStore(path, DEFINITION.to_dict())
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    if game_id is not None:
        assert f"game {game_id}:" in message
    assert path.read_bytes() == before
    assert cli([str(path), "--list"]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if line.startswith("  game")]
    assert len(listed) >= len(DEFINITION.schedule()) - 1
    if game_id is not None:
        assert any(line.startswith(f"  game {game_id:>4}: UNUSABLE: ") for line in listed), out
        assert sum("UNUSABLE" not in line for line in listed) >= len(DEFINITION.schedule()) - 1
    assert path.read_bytes() == before


def test_a_sound_file_resumes_and_lists(
    results: Path, records: list[GameRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    with ResultStore(results, DEFINITION.to_dict()) as store:  # every game replays, the forfeit included
        assert store.records() == records
    assert cli([str(results), "--list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("12 stored game(s)\n") and "UNUSABLE" not in out


# -- unreadable rows ---------------------------------------------------------------

BAD_ROWS = {
    "not JSON": ("UPDATE games SET record = '{\"game_id\": 3, truncated' WHERE game_id = ?", "not JSON"),
    "a JSON list": ("UPDATE games SET record = '[1, 2]' WHERE game_id = ?", "not a JSON object"),
    "not text": ("UPDATE games SET record = x'00ff' WHERE game_id = ?", "not text"),
    "seating column": ("UPDATE games SET seating = '[\"mcts\", \"random\", \"random\"]' WHERE game_id = ?", "seating"),
    "deal column": ("UPDATE games SET deal = deal + 1 WHERE game_id = ?", "column deal"),
    "forfeit column": ("UPDATE games SET forfeit = 'timeout' WHERE game_id = ?", "column forfeit"),
}


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_an_unreadable_row_is_named_by_file_and_game(
    case: str, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sql, problem = BAD_ROWS[case]
    edit(results, sql, 3)
    refused(results, 3, capsys)
    assert cli([str(results), "--game", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{results}: game 3: " in err and problem in err, err
    assert cli([str(results), "--game", "2"]) == 0  # the other games still replay
    with ResultStore(results) as store, pytest.raises(StoreError, match="game 3: "):
        store.records()


@pytest.mark.parametrize("key", ["scores", "actions", "seating", "config", "timings", "game_id"])
def test_a_record_missing_a_key_is_named(key: str, results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_record(results, 5, lambda doc: doc.pop(key))
    refused(results, 5, capsys)


# -- tampered records ----------------------------------------------------------------

TAMPER = {
    "a score": lambda doc: doc["scores"].__setitem__(0, doc["scores"][0] + 1),
    "the ranks": lambda doc: doc.__setitem__("ranks", [1, 1, 1]),
    "the winners": lambda doc: doc.__setitem__("winners", [s for s in range(3) if s not in doc["winners"]][:1]),
    "an action": lambda doc: doc["actions"].pop(),
    "the seed": lambda doc: doc.__setitem__("seed", doc["seed"] + 1),
    "the forfeit seat": lambda doc: doc["forfeit"].__setitem__("seat", (doc["forfeit"]["seat"] + 1) % 3),
    "the rounds": lambda doc: doc.__setitem__("rounds", doc["rounds"] + 1),
}


@pytest.mark.parametrize("case", sorted(TAMPER))
def test_a_tampered_record_is_refused(case: str, results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_record(results, FORFEITED, TAMPER[case])
    if case == "the seed":  # the seed column too, so only the schedule or the replay can tell
        edit(results, "UPDATE games SET seed = seed + 1 WHERE game_id = ?", FORFEITED)
    refused(results, FORFEITED, capsys)


def test_an_extra_row_is_refused_by_the_runner(results: Path, records: list[GameRecord]) -> None:
    """The 41st game of a 40-game tournament: a row whose id the schedule does not have."""
    with ResultStore(results) as store:
        store.add(dataclasses.replace(records[0], game_id=12))
    before = results.read_bytes()
    with pytest.raises(StoreError, match=r"game 12: not a game of this tournament"):
        run_tournament(DEFINITION, results, workers=1, progress=False)
    assert results.read_bytes() == before


def test_a_foreign_row_is_refused(
    tmp_path: Path, records: list[GameRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    """A game of another tournament (other seed) under an id this one has not played yet."""
    path = tmp_path / "results.sqlite"
    other = TournamentDefinition.create(DEFINITION.specs, players=3, games=12, seed=6, round_limit=2)
    with ResultStore(path, DEFINITION.to_dict()) as store:
        for r in records[:11]:
            store.add(r)
        foreign = other.schedule()[11]
        store.add(_record(foreign))
    refused(path, 11, capsys)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game_id=st.integers(0, 11),
    field=st.sampled_from(["scores", "ranks", "winners"]),
    seat=st.integers(0, 2),
    delta=st.integers(-3, 3).filter(bool),
)
def test_property_any_changed_result_is_refused(
    pristine: Path, tmp_path_factory: pytest.TempPathFactory, game_id: int, field: str, seat: int, delta: int
) -> None:
    path = tmp_path_factory.mktemp("prop") / "results.sqlite"
    shutil.copy(pristine, path)

    def change(doc: dict[str, Any]) -> None:
        values = doc[field]
        if field == "winners":
            doc[field] = sorted(set(values) ^ {seat})
        else:
            values[seat] += delta

    edit_record(path, game_id, change)
    with pytest.raises(StoreError, match=rf"game {game_id}: "):
        ResultStore(path, DEFINITION.to_dict())


# -- damaged pages, a directory ---------------------------------------------------------------


def _damaged_copies(pristine: Path, tmp: Path) -> Iterator[tuple[int, Path]]:
    size = pristine.stat().st_size
    for offset in range(4096, size, 700):  # every page but the first, at several places
        path = tmp / f"damaged-{offset}.sqlite"
        data = bytearray(pristine.read_bytes())
        data[offset : offset + 12] = b"\xa5" * 12
        path.write_bytes(bytes(data))
        yield offset, path


def test_damaged_pages_are_named_never_a_traceback(
    pristine: Path, tmp_path: Path, records: list[GameRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    tried = refused_count = 0
    for offset, path in _damaged_copies(pristine, tmp_path):
        tried += 1
        before = path.read_bytes()
        try:
            with ResultStore(path, DEFINITION.to_dict()) as store:  # accepted only if every game is intact
                assert store.records() == records, offset
        except StoreError as exc:
            refused_count += 1
            assert str(path) in str(exc), offset
        assert path.read_bytes() == before
        assert cli([str(path), "--list"]) in (0, 2), offset
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err
        if "UNUSABLE" in captured.out:  # a damaged game is named and the others still listed
            assert "cannot be read, the SQLite file is damaged" in captured.out or "record" in captured.out
            assert captured.out.count("  game ") >= 2
    assert tried >= 40 and refused_count >= tried // 2


def test_a_directory_is_not_a_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for definition in (None, DEFINITION.to_dict()):
        with pytest.raises(StoreError, match=r"is a directory, not a tournament results file"):
            ResultStore(tmp_path, definition)
    for argv in (["--list"], ["--game", "0"]):
        assert cli([str(tmp_path), *argv]) == 2
        err = capsys.readouterr().err
        assert err == f"tribune: error: {tmp_path} is a directory, not a tournament results file\n"
    with pytest.raises(StoreError, match=r"is a directory"):
        run_tournament(DEFINITION, tmp_path, workers=1, progress=False)
