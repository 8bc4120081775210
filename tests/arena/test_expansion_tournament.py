"""``tribune tournament --expansion`` and ``tribune replay`` of expansion games (issue 14).

The results file records the rule set (a ``rules`` row, and ``expansion`` in the definition and in every game's
config); a file of the other rule set is refused on resume with one line and left unchanged; an agent that does
not play the expansion is refused before any game; resuming replays every stored expansion game (forfeits too)
and refuses a tampered one; ``replay`` reads the rule set from the file. Only ``random`` is relied on to play the
expansion; the agent that does not is registered here.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from game_records import replay_cli
from test_results_integrity import edit, edit_record
from test_tournament_run import without_timings

from agents.base import Agent, AgentError, InfoSet
from agents.random_agent import RandomAgent
from agents.specs import no_more, register_agent
from tribune_arena.human.explain import person_text
from tribune_arena.records import GameRecord
from tribune_arena.replay.text import replay_game
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_arena.tournament.store import ResultStore, StoreError, replay_problem
from tribune_cli.main import main
from tribune_cli.tournament import default_results_path
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.view import PlayerView

EXPANSION = TournamentDefinition.create(("random",) * 3, players=3, games=6, seed=7, round_limit=3, expansion=True)
BASE = dataclasses.replace(EXPANSION, game=dataclasses.replace(EXPANSION.game, expansion=False))


def changed(definition: TournamentDefinition, **changes: object) -> TournamentDefinition:
    """``definition`` with ``changes`` to its stored form (settings or game options)."""
    return TournamentDefinition.from_dict({**definition.to_dict(), **changes})


EXPANSION_REGIONS = ("refugium", "basilica", "capitoleum")


class BaseOnly(RandomAgent):
    """A random player that does not play the expansion (as every agent not yet taught it)."""

    name = "baseonly"
    rule_sets = frozenset({RuleSet.BASE})


class RaisesLate(RandomAgent):
    """A random expansion player whose 6th decision of every game raises (a forfeit)."""

    name = "raiseslate"

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        super().reset(seat, config, seed)
        self.moves = 0

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        self.moves += 1
        if self.moves == 6:
            raise RuntimeError("boom")
        return super().act(view, legal, info)


def _factory(cls: type[RandomAgent]) -> Any:
    def make(params: dict[str, str], seed: int | None) -> Agent:
        no_more(cls.name, params)
        return cls(seed)

    return make


register_agent("baseonly", _factory(BaseOnly))
register_agent("raiseslate", _factory(RaisesLate))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[GameRecord]]:
    path = tmp_path_factory.mktemp("expansion") / "expansion.sqlite"
    return path, run_tournament(EXPANSION, path, workers=1, progress=False)


@pytest.fixture
def results(tmp_path: Path, played: tuple[Path, list[GameRecord]]) -> Path:
    path = tmp_path / "results.sqlite"
    shutil.copy(played[0], path)
    return path


def meta(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    db.close()
    return rows


# -- playing and recording ----------------------------------------------------------------


def test_an_expansion_tournament_plays_expansion_games_and_records_the_rule_set(
    played: tuple[Path, list[GameRecord]],
) -> None:
    path, records = played
    assert [r.game_id for r in records] == list(range(6))
    rows = meta(path)
    assert rows["rules"] == "expansion"
    assert json.loads(rows["definition"])["expansion"] is True
    with ResultStore(path) as store:
        assert store.rules == "expansion" and store.expansion
    regions: set[str] = set()
    for record in records:
        assert record.config["expansion"] is True
        assert replay_problem(record) is None
        game = replay_game(record)
        assert game.config.expansion
        log = "\n".join(game.log())
        assert "with the expansion" in log
        regions |= {r for r in EXPANSION_REGIONS if f"places a follower on {r}:" in log}
    assert regions == set(EXPANSION_REGIONS)  # the expansion board was played on


def test_a_base_tournament_file_records_base_rules(tmp_path: Path) -> None:
    path = tmp_path / "base.sqlite"
    records = run_tournament(changed(BASE, games=3, round_limit=1), path, workers=1, progress=False)
    assert meta(path)["rules"] == "base" and "expansion" not in json.loads(meta(path)["definition"])
    assert all("expansion" not in r.config and not replay_game(r).config.expansion for r in records)


def test_two_workers_play_the_same_expansion_games_as_one(
    tmp_path: Path, played: tuple[Path, list[GameRecord]]
) -> None:
    records = run_tournament(EXPANSION, tmp_path / "two.sqlite", workers=2, progress=False)
    assert [without_timings(r) for r in records] == [without_timings(r) for r in played[1]]


def test_the_default_results_file_differs_by_rule_set() -> None:
    assert default_results_path(EXPANSION) != default_results_path(BASE)
    assert BASE.to_dict() == {k: v for k, v in EXPANSION.to_dict().items() if k != "expansion"}


# -- refusals -------------------------------------------------------------------------------


def test_an_agent_that_does_not_play_the_expansion_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", "random", "baseonly", "random", "--games", "3", "--round-limit", "2", "--workers", "1"]
    assert main([*args, "--expansion", "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tribune: error: agent 'baseonly' does not play expansion games; agents that do: ")
    assert err.count("\n") == 1 and not path.exists()
    with pytest.raises(AgentError, match="agent 'baseonly'"):
        run_tournament(dataclasses.replace(EXPANSION, specs=("random", "baseonly", "random")), path, workers=1)
    assert not path.exists()
    # the same agent plays base games
    assert main([*args, "--results", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3


@pytest.mark.parametrize("first", ["base", "expansion"])
def test_a_results_file_of_the_other_rule_set_is_refused_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str
) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", "random", "random", "--games", "2", "--round-limit", "2", "--results", str(path), "--json"]
    flag = ["--expansion"] if first == "expansion" else []
    other = [] if flag else ["--expansion"]
    assert main([*args, *flag, "--workers", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rules"] == first and doc["tournament"].get("expansion", False) == (first == "expansion")
    before = path.read_bytes()
    assert main([*args, *other]) == 2
    err = capsys.readouterr().err
    second = "base" if first == "expansion" else "expansion"
    rerun = "with --expansion" if first == "expansion" else "without --expansion"
    assert err == (
        f"tribune: error: {path} holds {first} games, not {second} games; rerun {rerun} to resume it, "
        "or choose another results file\n"
    )
    assert path.read_bytes() == before
    assert main([*args, *flag]) == 0  # the same choice resumes it
    assert "2 of 2 games already played" in capsys.readouterr().err


def test_a_file_from_before_the_expansion_holds_base_games(tmp_path: Path) -> None:
    """A results file without a ``rules`` row (written before the expansion) is a base file."""
    path = tmp_path / "old.sqlite"
    base = changed(BASE, games=3, round_limit=1)
    run_tournament(base, path, workers=1, progress=False)
    edit(path, "DELETE FROM meta WHERE key = 'rules'")
    with ResultStore(path, base.to_dict()) as store:
        assert store.rules == "base" and len(store.records()) == 3
    before = path.read_bytes()
    with pytest.raises(StoreError, match="holds base games, not expansion games; rerun without --expansion"):
        ResultStore(path, changed(base, expansion=True).to_dict())
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE meta SET value = 'base' WHERE key = 'rules'", "its rule set row says base games but its definition"),
        ("DELETE FROM meta WHERE key = 'rules'", "its rule set row says base games but its definition"),
        ("UPDATE meta SET value = 'brutii' WHERE key = 'rules'", "its rule set row says brutii games but its"),
        ("UPDATE meta SET value = 'chess' WHERE key = 'rules'", "unknown rule set 'chess'"),
    ],
)
def test_a_rule_set_row_that_disagrees_is_refused(results: Path, sql: str, message: str) -> None:
    edit(results, sql)
    before = results.read_bytes()
    for definition in (EXPANSION.to_dict(), None):  # resuming, and reading (replay)
        with pytest.raises(StoreError, match=f"is not a tournament results file: {message}"):
            ResultStore(results, definition)
    assert results.read_bytes() == before


# -- verified results on resume -----------------------------------------------------------------


def test_resuming_replays_every_expansion_game_and_plays_only_the_missing(
    results: Path, played: tuple[Path, list[GameRecord]]
) -> None:
    with ResultStore(results, EXPANSION.to_dict()) as store:  # verifies: every stored game replays
        assert len(store) == 6
    edit(results, "DELETE FROM games WHERE game_id IN (1, 4)")
    records = run_tournament(EXPANSION, results, workers=1, progress=False)
    assert [without_timings(r) for r in records] == [without_timings(r) for r in played[1]]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda doc: doc.update(scores=[s + 1 for s in doc["scores"]]), "stored scores"),
        (lambda doc: doc["config"].pop("expansion"), "not the scheduled game: config"),
        (lambda doc: doc.update(actions=doc["actions"][:-3], decisions=doc["decisions"] - 3), "end before the game"),
    ],
    ids=["scores", "base config", "cut short"],
)
def test_a_tampered_expansion_game_is_refused_on_resume(results: Path, change: Any, problem: str) -> None:
    edit_record(results, 2, change)
    before = results.read_bytes()
    with pytest.raises(StoreError) as caught:
        ResultStore(results, EXPANSION.to_dict())
    assert "game 2: " in str(caught.value) and problem in str(caught.value)
    with pytest.raises(StoreError, match="game 2: "):
        run_tournament(EXPANSION, results, workers=1, progress=False)
    assert results.read_bytes() == before


def test_forfeited_expansion_games_are_verified_on_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "forfeits.sqlite"
    definition = dataclasses.replace(EXPANSION, specs=("random", "random", "raiseslate"), games=3)
    records = run_tournament(definition, path, workers=1, progress=False)
    forfeits = [r for r in records if r.forfeit is not None]
    assert forfeits
    for record in forfeits:
        assert record.forfeit is not None and record.forfeit.reason == "raised" and "boom" in record.forfeit.message
    assert all(replay_problem(r) is None for r in records)
    with ResultStore(path, definition.to_dict()) as store:  # resuming replays them, forfeits included
        assert len(store.records()) == 3
    game = forfeits[0]
    assert replay_cli([str(path), "--game", str(game.game_id)]) == 0
    out = capsys.readouterr().out
    assert f"Forfeit: P{game.forfeit.seat} raiseslate (raised)" in out  # type: ignore[union-attr]


# -- victory cards ------------------------------------------------------------------------------


def test_expansion_victory_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R41: expansion victory cards only with --expansion (the error says so); a base card may be configured."""
    components = GameConfig().components
    assert components.expansion is not None
    card = next(c for c in components.expansion.victory_cards if 3 in c.required)
    args = ["tournament", "random", "random", "random", "--games", "3", "--round-limit", "2", "--workers", "1"]
    path = tmp_path / "t.sqlite"
    assert main([*args, "--victory-card", card.id, "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"unknown victory card {card.id!r}" in err
    assert f"{card.id!r} is an expansion victory card: add --expansion" in err
    assert err.count("\n") == 1 and not path.exists()
    assert main([*args, "--victory-card", card.id, "--expansion", "--results", str(path), "--json"]) == 0
    capsys.readouterr()
    with ResultStore(path) as store:
        expansion_card_games = store.records()
    base_card = next(c for c in components.victory_cards if 3 in c.required)
    game = dataclasses.replace(EXPANSION.game, round_limit=2, victory_card=base_card.id)
    definition = dataclasses.replace(EXPANSION, games=3, game=game)
    base_card_games = run_tournament(definition, tmp_path / "b.sqlite", workers=1, progress=False)
    for records, wanted in ((expansion_card_games, card.id), (base_card_games, base_card.id)):
        assert len(records) == 3
        for record in records:
            assert record.config["victory_card"] == wanted and record.config["expansion"] is True
            assert f"victory card {wanted}, with the expansion" in "\n".join(replay_game(record).log())


# -- replay ---------------------------------------------------------------------------------------


def test_replay_of_expansion_games(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ResultStore(results) as store:
        record = store.record(3)
    assert replay_cli([str(results), "--list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 stored game(s) of expansion games\n") and "UNUSABLE" not in out
    assert replay_cli([str(results), "--game", "3", "--board"]) == 0
    out = capsys.readouterr().out
    assert "Game 3" in out and "rounds; 3 players, with the expansion, " in out and "Winner(s):" in out
    game = replay_game(record)
    assert all(person_text(game, line) in out for line in game.log())  # in words (issue 38)
    assert "officials: " in out and "emperor tiles" in out  # the expansion board
    assert replay_cli([str(results), "--game", "3", "--step", "--seat", "0"], stdin="\n9\nb\nq\n") == 0
    out = capsys.readouterr().out
    assert "Showing what P0" in out and "#10 P" in out and "Stopped after decision 10" in out


def test_replay_refuses_a_record_whose_rule_set_was_changed(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An expansion game edited into a base game's config is unusable: it is not the file's scheduled game."""
    edit_record(results, 3, lambda doc: doc["config"].pop("expansion"))
    assert replay_cli([str(results), "--game", "3"]) == 2
    assert "game 3: not the scheduled game: config" in capsys.readouterr().err
