"""A tournament played with another component set than the packaged one (``tribune tournament --components``).

The definition keeps the component file's TOML text (its stored form gains a ``components`` key, and only then),
the worker processes play with the set, every record's config names it, and the results file checks, resumes and
replays its games with the set it stores, even when the component file is gone. The same tournament with the
packaged set plays other games.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tribune_arena.human.explain import person_text
from tribune_arena.records import GameRecord
from tribune_arena.replay.text import replay_game
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import ComponentFile, TournamentDefinition
from tribune_arena.tournament.store import ResultStore, StoreError, replay_problem
from tribune_cli.main import main
from tribune_env.data import default_components, load_components
from tribune_env.engine.config import GameConfig

PACKAGED = Path(__file__).resolve().parents[2] / "tribune_env" / "data" / "components.toml"
PLEBEIANS = "numbers = { takeover_cards = 1, leader_cards = 1, benefit_cards = 1, benefit_denarii = 2 }"
ARGS = ["random", "random", "random", "--games", "6", "--seed", "3", "--round-limit", "8", "--no-progress"]


def modified_components(folder: Path) -> Path:
    """A copy of the packaged component file named ``modified`` whose Plebeians' benefit pays 5 denarii, not 2."""
    text = PACKAGED.read_text(encoding="utf-8")
    assert PLEBEIANS in text and 'name = "default"' in text
    text = text.replace(PLEBEIANS, PLEBEIANS.replace("benefit_denarii = 2", "benefit_denarii = 5"))
    path = folder / "modified.toml"
    path.write_text(text.replace('name = "default"', 'name = "modified"', 1), encoding="utf-8")
    return path


def tournament(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``tribune tournament ARGV``."""
    capsys.readouterr()
    code = main(["tournament", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def stored(path: Path) -> tuple[dict[str, object], list[GameRecord]]:
    with ResultStore(path) as store:
        return store.definition, store.records()


@pytest.fixture
def played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, dict[str, object]]:
    """The component file, the results file of the tournament played with it (two workers) and its JSON report."""
    components = modified_components(tmp_path)
    results = tmp_path / "modified.sqlite"
    argv = [*ARGS, "--workers", "2", "--components", str(components), "--results", str(results), "--json"]
    code, out, err = tournament(argv, capsys)
    assert code == 0, err
    return components, results, json.loads(out)


# -- the definition ----------------------------------------------------------------------------------------------


def test_the_stored_form_gains_the_component_text_only_with_another_set(tmp_path: Path) -> None:
    path = modified_components(tmp_path)
    file = ComponentFile.read(path)
    definition = TournamentDefinition.create(("random",) * 3, games=3, component_file=file)
    assert definition.game.components == load_components(path) != default_components()
    doc = definition.to_dict()
    assert list(doc)[-1] == "components" and doc["components"]["name"] == "modified"
    assert doc["components"]["toml"] == path.read_text(encoding="utf-8")
    assert TournamentDefinition.from_dict(json.loads(json.dumps(doc))) == definition
    assert definition.options()["components"] == "modified"
    # made from a GameConfig, the definition reads the set's file again
    assert TournamentDefinition(("random",) * 3, GameConfig(players=3, components=load_components(path)), 3) == (
        definition
    )
    packaged = TournamentDefinition.create(("random",) * 3, games=3)
    assert packaged.component_file is None and "components" not in packaged.to_dict()
    assert "components" not in packaged.options()
    assert {k: v for k, v in doc.items() if k != "components"} == packaged.to_dict()


def test_a_stored_component_text_is_checked(tmp_path: Path) -> None:
    file = ComponentFile.read(modified_components(tmp_path))
    definition = TournamentDefinition.create(("random",) * 3, component_file=file)
    stored = definition.to_dict()
    edited = {**stored["components"], "toml": stored["components"]["toml"].replace("benefit_denarii = 5", "= 6")}
    with pytest.raises(ValueError, match="components: the stored TOML text is not the one its sha256 names"):
        TournamentDefinition.from_dict({**stored, "components": edited})
    with pytest.raises(ValueError, match="components: expected an object"):
        TournamentDefinition.from_dict({**stored, "components": "modified"})
    with pytest.raises(ValueError, match="does not hold the game's component set"):
        TournamentDefinition(("random",) * 3, GameConfig(players=3), component_file=file)


# -- playing, storing, resuming, replaying -----------------------------------------------------------------------


def test_a_tournament_plays_and_stores_its_games_with_its_component_set(
    played: tuple[Path, Path, dict[str, object]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    components, results, report = played
    assert report["games"] == 6 and report["tournament"]["components"]["name"] == "modified"  # type: ignore[index]
    definition, records = stored(results)
    assert definition == report["tournament"]
    comps = load_components(components)
    assert len(records) == 6 and all(r.config["components"] == "modified" for r in records)
    assert all(replay_problem(r, comps) is None for r in records)
    assert all(replay_problem(r) is not None for r in records)  # the packaged set does not make these games
    # the same tournament with the packaged set plays other games
    packaged = tmp_path / "packaged.sqlite"
    code, _, err = tournament([*ARGS, "--workers", "1", "--results", str(packaged)], capsys)
    assert code == 0, err
    _, others = stored(packaged)
    assert [r.seating for r in others] == [r.seating for r in records]
    assert [(r.actions, r.scores) for r in others] != [(r.actions, r.scores) for r in records]


def test_the_results_file_resumes_with_the_same_component_file_only(
    played: tuple[Path, Path, dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    components, results, _ = played
    _, before = stored(results)
    with sqlite3.connect(results) as db:
        db.execute("DELETE FROM games WHERE game_id >= 4")
    db.close()
    argv = [*ARGS, "--workers", "1", "--results", str(results)]
    code, _, err = tournament([*argv, "--components", str(components)], capsys)
    assert code == 0, err
    _, after = stored(results)
    assert [r.actions for r in after] == [r.actions for r in before]  # the missing games played again, the same
    code, _, err = tournament(argv, capsys)  # without --components: another tournament
    assert code == 2 and "holds another tournament (components: None here, {'name': 'modified', 'sha256'" in err
    assert err.count("\n") == 1 and len(err) < 1000


def test_replay_lists_and_shows_the_games_without_the_component_file(
    played: tuple[Path, Path, dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    components, results, _ = played
    comps = load_components(components)
    components.unlink()  # the results file holds the text: it replays anywhere
    capsys.readouterr()
    assert main(["replay", str(results), "--list"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("6 stored game(s)\n") and "UNUSABLE" not in out and not err
    assert main(["replay", str(results), "--game", "0"]) == 0
    out = capsys.readouterr().out
    with ResultStore(results) as store:
        record = store.record(0)
        assert store.components == comps
    assert "component set 'modified'" in out  # the options in words (issue 38)
    game = replay_game(record, comps)
    assert all(person_text(game, line) in out for line in game.log())
    # and resumes, from its own definition
    definition, _ = stored(results)
    again = run_tournament(TournamentDefinition.from_dict(definition), results, workers=1, progress=False)
    assert len(again) == 6


def test_a_component_file_that_cannot_be_read_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "t.sqlite"
    argv = [*ARGS, "--components", str(tmp_path / "missing.toml"), "--results", str(results)]
    code, _, err = tournament(argv, capsys)
    assert code == 2 and err.startswith("tribune: error: --components: cannot read component file")
    assert not results.exists()
    with pytest.raises(StoreError, match="no such results file"):
        ResultStore(results)
