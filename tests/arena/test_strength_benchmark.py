"""The strength benchmark: the suite as data, the seatings of each role, a tiny run measured as the tournament code
counts it, determinism, skipping an agent that does not play a track, and the JSON record."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from agents.random_agent import RandomAgent
from tribune_arena.benchmark import (
    STANDARD_DEALS,
    SUITE_VERSION,
    TRACKS,
    BenchmarkRun,
    RecordError,
    SuiteError,
    Track,
    TrackResult,
    compare_notes,
    read_record,
    record_of,
    run_benchmark,
    select_tracks,
    write_record,
)
from tribune_arena.benchmark.run import PLAYED, SKIPPED, opponents_fingerprint, results_path, track_definition
from tribune_arena.benchmark.suite import BRUTII, EVERY, FAMILY, FINGERPRINTS, check_deals
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.store import ResultStore
from tribune_env.engine.config import RuleSet

FAST = Track("fast-base-3p", RuleSet.BASE, ("random",) * 2, EVERY, seed=7, description="three-player random games")
FAST_BRUTII = Track("fast-brutii", RuleSet.BRUTII, ("random",) * 4, FAMILY, seed=7, description="random families")


def _played(track: Track, agent: str, deals: int = STANDARD_DEALS) -> list[tuple[int, tuple[str, ...]]]:
    """``(deal, seating)`` of the games the track plays with ``agent`` in a suite of ``deals`` deals."""
    definition = track_definition(agent, track, deals, None)
    return [(g.deal, g.seating) for g in definition.schedule() if track.plays(g, agent, deals)]


def test_the_suite_names_its_tracks_once_and_plays_400_games_on_each() -> None:
    assert SUITE_VERSION and len({track.name for track in TRACKS}) == len(TRACKS) == 5
    assert {track.rules for track in TRACKS} == set(RuleSet)
    for track in TRACKS:
        assert track.game().players == track.players == len(track.opponents) + 1
        assert len(_played(track, "greedy")) == 4 * STANDARD_DEALS, track.name


def test_each_role_seats_the_agent_where_it_says() -> None:
    by_name = {track.name: track for track in TRACKS}
    every = Counter(seating.index("greedy") for _, seating in _played(by_name["base-4p-vs-heuristic"], "greedy"))
    assert every == {seat: STANDARD_DEALS for seat in range(4)}  # every seat in turn, every deal
    brutii = _played(by_name["brutii-5p-as-brutii"], "greedy")
    assert {seating.index("greedy") for _, seating in brutii} == {0}  # the Brutii's seat, one game a deal
    assert len({deal for deal, _ in brutii}) == 4 * STANDARD_DEALS
    family = Counter(seating.index("greedy") for _, seating in _played(by_name["brutii-5p-as-family"], "greedy"))
    assert family == {seat: STANDARD_DEALS for seat in range(1, 5)}
    assert by_name["brutii-5p-as-brutii"].role == BRUTII


def test_a_spec_equal_to_the_opponents_is_one_entry_holding_its_seats() -> None:
    family = next(track for track in TRACKS if track.role == FAMILY)
    games = _played(family, "heuristic")
    assert len(games) == STANDARD_DEALS  # the one distinct seating of each deal
    assert all(family.agent_seats(seating, "heuristic") == (1, 2, 3, 4) for _, seating in games)


def test_a_shorter_run_plays_the_first_games_of_the_standard_run_in_its_results_file() -> None:
    track = TRACKS[0]
    short, full = _played(track, "greedy", 3), _played(track, "greedy")
    assert short == full[: len(short)] and len(short) == 12
    paths = {results_path("d", track, track_definition("greedy", track, n, 30.0)) for n in (1, 3, STANDARD_DEALS)}
    assert len(paths) == 1


def test_bad_selections_name_the_problem() -> None:
    with pytest.raises(SuiteError, match="unknown track 'nope'; the tracks are base-4p-vs-heuristic"):
        select_tracks(["nope"])
    assert [t.name for t in select_tracks([TRACKS[2].name, TRACKS[0].name])] == [TRACKS[0].name, TRACKS[2].name]
    for bad in (0, -1, True, 1.5):
        with pytest.raises(SuiteError, match="deals: expected a whole number >= 1"):
            check_deals(bad)
    with pytest.raises(ValueError, match="roles brutii and family"):
        Track("x", RuleSet.BASE, ("random",) * 3, FAMILY, seed=1, description="")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> BenchmarkRun:
    """``greedy`` on the two fast tracks, one deal: the run the tests below measure."""
    return run_benchmark("greedy", [FAST, FAST_BRUTII], 1, workers=1, games_dir=tmp_path_factory.mktemp("tiny"))


def test_a_tiny_run_is_measured_as_the_tournament_counts_it(tiny: BenchmarkRun) -> None:
    first = tiny.tracks[0]
    assert (first.status, first.games, first.seat_games, first.deals, first.standard) == (PLAYED, 3, 3, 1, False)
    with ResultStore(Path(str(first.results_file))) as store:
        records = store.records()
    entry = summarize(records).entry("greedy")
    assert (first.wins, first.win_rate, first.win_rate_ci) == (entry.wins, entry.win_rate, entry.win_rate_ci)
    assert first.parity == pytest.approx(1 / 3) and first.win_rate_ci[0] <= first.win_rate <= first.win_rate_ci[1]
    assert first.moves > 0 and 0 < first.seconds_per_move <= first.max_seconds_per_move
    brutii = tiny.tracks[1]
    assert (brutii.games, brutii.seat_games) == (4, 4) and brutii.parity == pytest.approx(0.2)


def test_the_same_seeds_give_the_same_figures(tiny: BenchmarkRun, tmp_path: Path) -> None:
    again = run_benchmark("greedy", [FAST], 1, workers=1, games_dir=tmp_path)

    def figures(track: TrackResult) -> dict[str, object]:
        doc = dict(vars(track))
        for key in ("moves", "seconds_per_move", "max_seconds_per_move", "results_file"):
            doc.pop(key)
        return doc

    assert figures(tiny.tracks[0]) == figures(again.tracks[0])


def test_a_track_the_agent_does_not_play_is_skipped_with_the_reason(tmp_path: Path) -> None:
    run = run_benchmark("ppo", [FAST_BRUTII], 1, workers=1, games_dir=tmp_path)
    (skipped,) = run.tracks
    assert skipped.status == SKIPPED and skipped.games == 0
    assert skipped.reason is not None and "'ppo' does not play the Brutii variant" in skipped.reason
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_the_record_is_written_atomically_once_and_read_back(tiny: BenchmarkRun, tmp_path: Path) -> None:
    record = record_of(tiny, "tribune benchmark greedy --deals 1")
    assert record["suite"] == {
        "version": SUITE_VERSION,
        "deals": 1,
        "standard_deals": STANDARD_DEALS,
        "standard": False,
    }
    assert record["agent"] == "greedy" and record["interval"]["method"] == "wilson"
    assert set(record["code"]) == {"package", "commit", "dirty"} and record["machine"]["cpus"] >= 1
    track = record["tracks"][0]
    assert track["name"] == FAST.name and track["status"] == PLAYED and len(track["win_rate_ci"]) == 2
    assert track["opponents_fingerprint"] == opponents_fingerprint(FAST)
    path = write_record(record, tmp_path / "out" / "record.json")
    assert read_record(path) == json.loads(json.dumps(record))
    with pytest.raises(RecordError, match="exists: give --force"):
        write_record({**record, "agent": "other"}, path)
    assert read_record(path)["agent"] == "greedy"
    write_record({**record, "agent": "other"}, path, force=True)
    assert read_record(path)["agent"] == "other"
    assert [p.name for p in path.parent.iterdir()] == ["record.json"]  # no temporary file left
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # readable as a plain open() would leave it, not 0600
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(RecordError, match="not a benchmark record"):
        read_record(tmp_path / "bad.json")
    other = {**record, "suite": {**record["suite"], "version": "1999.01-1"}}
    assert any("suite versions differ" in note for note in compare_notes(record, other))


def test_the_opponents_fingerprint_changes_with_what_they_play(
    tiny: BenchmarkRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    fingerprint = opponents_fingerprint(FAST)
    assert fingerprint == tiny.tracks[0].opponents_fingerprint and len(fingerprint) == 16
    monkeypatch.setattr(RandomAgent, "act", lambda self, view, legal, info=None: legal[-1])  # another "random"
    assert opponents_fingerprint(FAST) != fingerprint
    track = {"name": "t", "status": PLAYED, "opponents_fingerprint": fingerprint}
    a = {"suite": {"version": SUITE_VERSION, "deals": 1}, "tracks": [track]}
    b = {**a, "tracks": [{**track, "opponents_fingerprint": "0" * 16}]}
    assert compare_notes(a, a) == []
    note = f"note: t: the opponents play differently in the two records (fingerprints {fingerprint}, {'0' * 16})"
    assert compare_notes(a, b) == [note]


@pytest.mark.parametrize("track", TRACKS, ids=lambda t: t.name)
def test_opponents_play_as_the_suite_version_says(track: Track) -> None:
    """The opponents' games are pinned per suite version: if this fails, the engine, the heuristic or the shipped ppo
    network changed what the opponents play, so records of the old and the new code are not comparable: bump
    SUITE_VERSION and re-pin FINGERPRINTS (tribune_arena/benchmark/suite.py)."""
    assert opponents_fingerprint(track) == FINGERPRINTS[track.name]
