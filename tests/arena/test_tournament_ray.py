"""The Ray backend on a local Ray instance plays the same games as the local backend.

The command-line test comes first: it starts and stops its own Ray before the module's shared instance exists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import ray

from tribune_arena.records import GameRecord
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import ComponentFile, TournamentDefinition
from tribune_arena.tournament.store import ResultStore
from tribune_cli.main import main

pytestmark = pytest.mark.ray
pytestmark = pytest.mark.slow  # Ray instances take seconds to start

DEFINITION = TournamentDefinition.create(("random", "random", "random"), players=3, games=6, seed=4, round_limit=4)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def without_timings(record: GameRecord) -> GameRecord:
    return replace(record, timings=(), seconds=0.0)


def test_command_starts_and_stops_its_own_ray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not ray.is_initialized()
    args = ["tournament", "random", "random", "random", "--games", "6", "--seed", "4", "--round-limit", "4", "--json"]
    assert main([*args, "--backend", "ray", "--workers", "2", "--results", str(tmp_path / "ray.sqlite")]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert not ray.is_initialized()
    assert main([*args, "--workers", "1", "--results", str(tmp_path / "local.sqlite")]) == 0
    local = json.loads(capsys.readouterr().out)
    with ResultStore(tmp_path / "ray.sqlite") as a, ResultStore(tmp_path / "local.sqlite") as b:
        assert [without_timings(r) for r in a.records()] == [without_timings(r) for r in b.records()]
    assert on_ray["games"] == local["games"] == 6


def test_ray_backend_plays_the_same_games_as_the_local_backend(tmp_path: Path, local_ray: None) -> None:
    on_ray = run_tournament(DEFINITION, tmp_path / "ray.sqlite", backend="ray", progress=False)
    local = run_tournament(DEFINITION, tmp_path / "local.sqlite", workers=1, progress=False)
    assert [r.game_id for r in on_ray] == list(range(6))
    assert [without_timings(r) for r in on_ray] == [without_timings(r) for r in local]
    assert ray.is_initialized()  # a Ray this process started is left to it


def test_ray_backend_resumes_from_the_results_file(tmp_path: Path, local_ray: None) -> None:
    first = run_tournament(DEFINITION, tmp_path / "local.sqlite", workers=1, progress=False)
    path = tmp_path / "ray.sqlite"
    with ResultStore(path, DEFINITION.to_dict()) as store:
        for record in first[:4]:
            store.add(record)
    records = run_tournament(DEFINITION, path, backend="ray", progress=False)
    assert records[:4] == first[:4]  # kept as stored, timings included
    assert [without_timings(r) for r in records] == [without_timings(r) for r in first]


def test_ray_backend_plays_with_the_tournaments_component_set(tmp_path: Path, local_ray: None) -> None:
    """The Ray workers receive the component set: the same games as the local backend, not the packaged set's."""
    text = (Path(__file__).resolve().parents[2] / "tribune_env" / "data" / "components.toml").read_text("utf-8")
    plebeians = "benefit_cards = 1, benefit_denarii = 2 }"
    assert plebeians in text
    path = tmp_path / "modified.toml"
    path.write_text(text.replace(plebeians, plebeians.replace("2", "5")), encoding="utf-8")
    definition = replace(DEFINITION, game=replace(DEFINITION.game, components=ComponentFile.read(path).components))
    on_ray = run_tournament(definition, tmp_path / "ray.sqlite", backend="ray", progress=False)
    local = run_tournament(definition, tmp_path / "local.sqlite", workers=1, progress=False)
    assert [without_timings(r) for r in on_ray] == [without_timings(r) for r in local]
    packaged = run_tournament(DEFINITION, tmp_path / "packaged.sqlite", workers=1, progress=False)
    assert [r.actions for r in packaged] != [r.actions for r in on_ray]
