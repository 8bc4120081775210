"""``tribune tournament --expansion --brutii`` (issue 15; R42-R54): the Brutii seat rotates like any other seat and
the results are reported per role.

The definition and every game's config carry ``brutii`` (and the Brutii's seat), the results file's ``rules`` row
says ``brutii``; a file of another rule set is refused on resume with a message naming the flags; with one agent
under test and N-1 reference agents the agent is the Brutii in 1/N of the games; the per-role tables give each
agent's win rate (95% CI) as the Brutii and as a family, and the Brutii seat's share of the wins against parity
(1/N). Base and expansion tournaments carry none of it.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.random_agent import RandomAgent
from agents.specs import no_more, register_agent
from tribune_arena.records import GameRecord, SeatTiming
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.roles import ROLES, brutii_seat, role_results
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import BRUTII_SEAT, TournamentDefinition, default_players
from tribune_arena.tournament.store import ResultStore, StoreError, replay_problem
from tribune_cli.main import main
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game

BRUTII = TournamentDefinition.create(
    ("heuristic", "random", "random", "random", "random"), players=5, games=10, seed=3, expansion=True, brutii=True
)


def changed(definition: TournamentDefinition, **changes: object) -> TournamentDefinition:
    """``definition`` with ``changes`` to its stored form (settings or game options)."""
    return TournamentDefinition.from_dict({**definition.to_dict(), **changes})


EXPANSION = changed(BRUTII, brutii=False)


class NoBrutii(RandomAgent):
    """A random expansion player that does not play the Brutii variant."""

    name = "nobrutii2"
    rule_sets = frozenset({RuleSet.BASE, RuleSet.EXPANSION})


def _make(params: dict[str, str], seed: int | None) -> NoBrutii:
    no_more("nobrutii2", params)
    return NoBrutii(seed)


register_agent("nobrutii2", _make)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[GameRecord]]:
    path = tmp_path_factory.mktemp("brutii") / "brutii.sqlite"
    return path, run_tournament(BRUTII, path, workers=1, progress=False)


def meta(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    db.close()
    return rows


# -- the definition and its schedule --------------------------------------------------------------------------------


def test_r42_the_definition_carries_the_brutii() -> None:
    assert BRUTII.rules == "brutii" and EXPANSION.rules == "expansion"
    assert BRUTII.options()["brutii"] is True and BRUTII.options()["brutii_seat"] == BRUTII_SEAT
    assert BRUTII.config().brutii and BRUTII.config().brutii_seat == BRUTII_SEAT
    assert BRUTII.to_dict()["brutii"] is True
    assert TournamentDefinition.from_dict(BRUTII.to_dict()) == BRUTII
    # tournaments without the Brutii keep their form, options and default file name
    for plain in (EXPANSION, changed(EXPANSION, expansion=False)):
        assert "brutii" not in plain.to_dict() and "brutii" not in plain.options()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 4}, "not supported with the Brutii"),
        ({"players": 7, "specs": ("random",) * 7}, "not supported with the Brutii"),
        ({"brutii": 1}, "brutii"),
    ],
)
def test_r42_a_brutii_tournament_needs_5_or_6_players(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        changed(BRUTII, **changes)


@settings(max_examples=20, deadline=None)
@given(players=st.sampled_from([5, 6]), extra=st.integers(0, 1), blocks=st.integers(1, 3))
def test_r43_each_entry_is_the_brutii_in_turn(players: int, extra: int, blocks: int) -> None:
    """The Brutii seat rotates like any other: one agent under test and N-1 reference agents (or N+1 distinct
    entries at N seats) give every entry the Brutii seat in 1/N of its games."""
    specs = (
        ("mcts", *(["random"] * (players - 1)))
        if not extra
        else tuple(f"mcts:iterations={i + 1}" for i in range(players + 1))
    )
    definition = TournamentDefinition.create(specs, players=players, games=1, expansion=True, brutii=True)
    games = dataclasses.replace(definition, games=blocks * definition.block_size()).schedule()
    as_brutii: Counter[str] = Counter(g.seating[BRUTII_SEAT] for g in games)
    played: Counter[str] = Counter(spec for g in games for spec in set(g.seating))
    for spec in set(definition.specs) - {"random"}:
        assert as_brutii[spec] * players == played[spec]


def test_one_spec_in_every_seat_plays_one_game_a_deal() -> None:
    """Equal players measure the Brutii's balance: every game is a new deal (the N rotations of one seating on one
    deal would repeat the same game); tournaments without the Brutii keep their N copies a deal."""
    equal = TournamentDefinition.create(("heuristic",) * 6, players=6, games=4, expansion=True, brutii=True)
    assert equal.block_size() == 1
    assert len({g.seed for g in equal.schedule()}) == len(equal.schedule()) == 4
    assert changed(equal, brutii=False, players=5, specs=["heuristic"] * 5).block_size() == 5
    assert BRUTII.block_size() == 5


# -- playing, recording, resuming ------------------------------------------------------------------------------


def test_a_brutii_tournament_records_its_rule_set(played: tuple[Path, list[GameRecord]]) -> None:
    path, records = played
    assert meta(path)["rules"] == "brutii"
    assert json.loads(meta(path)["definition"])["brutii"] is True
    with ResultStore(path) as store:
        assert store.rules == "brutii" and store.brutii and store.expansion
    for record in records:
        assert record.config["brutii"] is True and brutii_seat(record) == BRUTII_SEAT
        assert replay_problem(record) is None
    assert Counter(r.seating[BRUTII_SEAT] for r in records) == {"heuristic": 2, "random": 8}


def test_a_brutii_tournament_resumes_and_refuses_other_rule_sets(
    tmp_path: Path, played: tuple[Path, list[GameRecord]]
) -> None:
    path = tmp_path / "r.sqlite"
    path.write_bytes(played[0].read_bytes())
    again = run_tournament(BRUTII, path, workers=1, progress=False)
    assert [r.game_id for r in again] == list(range(10))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="holds brutii games, not expansion games; rerun with --expansion --brutii"):
        ResultStore(path, EXPANSION.to_dict())
    assert path.read_bytes() == before
    expansion = tmp_path / "e.sqlite"
    run_tournament(changed(EXPANSION, games=5, round_limit=1), expansion, workers=1, progress=False)
    message = "holds expansion games, not brutii games; rerun with --expansion and without --brutii"
    with pytest.raises(StoreError, match=message):
        ResultStore(expansion, changed(BRUTII, games=5, round_limit=1).to_dict())


# -- results per role ---------------------------------------------------------------------------------------------


def test_roles_of_the_tournament(played: tuple[Path, list[GameRecord]]) -> None:
    """Per agent and role: 2 Brutii games and 8 family seat-games for the heuristic (1/5 of its games as the
    Brutii), 8 and 32 for random; the Brutii seat's line counts every game once."""
    records = played[1]
    results = summarize(records)
    roles = results.roles
    assert roles is not None
    assert [(e.spec, e.role, e.games) for e in roles.entries] == [
        ("heuristic", "brutii", 2),
        ("heuristic", "family", 8),
        ("random", "brutii", 8),
        ("random", "family", 32),
    ]
    seat = roles.seat
    brutii_wins = sum(BRUTII_SEAT in r.winners for r in records)
    assert (seat.games, seat.wins, seat.parity) == (10, brutii_wins, pytest.approx(0.2))
    assert seat.family_games == 40
    assert seat.share_ratio == pytest.approx(seat.share / 0.2)
    heuristic = results.entry("heuristic")
    as_brutii, as_family = roles.entry("heuristic", "brutii"), roles.entry("heuristic", "family")
    assert as_brutii.wins + as_family.wins == heuristic.wins
    doc = results.to_json()
    assert doc["roles"]["brutii_seat"]["games"] == 10 and len(doc["roles"]["entries"]) == 4
    json.dumps(doc)


def record(game_id: int, winners: tuple[int, ...], players: int = 5, seat: int | None = 0) -> GameRecord:
    config = {"players": players, "expansion": True, "brutii": True, "brutii_seat": seat}
    return GameRecord(
        game_id=game_id,
        deal=game_id,
        seed=game_id,
        seating=("a",) + ("b",) * (players - 1),
        config=config,
        actions=(),
        scores=(0,) * players,
        ranks=tuple(1 if s in winners else 2 for s in range(players)),
        winners=winners,
        rounds=1,
        decisions=0,
        truncated=False,
        timings=(SeatTiming(),) * players,
    )


def test_role_shares_count_shared_wins_against_parity() -> None:
    """The Brutii seat (0) wins alone once, shares a win once and loses twice in four 5-seat games: win rate 2/4,
    share (1 + 1/2)/4 against parity 1/5; the family seats win 3 of their 16 seat-games."""
    records = [record(0, (0,)), record(1, (0, 2)), record(2, (1,)), record(3, (3,))]
    roles = role_results(records)
    assert roles is not None
    seat = roles.seat
    assert (seat.games, seat.wins, seat.win_rate) == (4, 2, 0.5)
    assert seat.share == pytest.approx(1.5 / 4) and seat.parity == pytest.approx(0.2)
    assert seat.share_ratio == pytest.approx(1.5 / 4 / 0.2)
    assert (seat.family_games, seat.family_wins) == (16, 3)
    a = roles.entry("a", "brutii")
    assert (a.games, a.wins, a.win_share) == (4, 2, 1.5)
    assert [(e.spec, e.role) for e in roles.entries] == [("a", ROLES[0]), ("b", ROLES[1])]
    assert role_results([dataclasses.replace(record(0, (0,)), config={"players": 5})]) is None


def test_a_drawn_brutii_seat_is_read_from_the_set_up() -> None:
    config = {"players": 6, "expansion": True, "brutii": True, "brutii_seat": None}
    drawn = dataclasses.replace(record(0, (0,), players=6), config=config, seed=12)
    assert brutii_seat(drawn) == Game.new(GameConfig(**config), seed=12).brutii_seat


def test_tournaments_without_the_brutii_report_no_roles(tmp_path: Path) -> None:
    plain = changed(EXPANSION, games=5, round_limit=1)
    records = run_tournament(plain, tmp_path / "e.sqlite", workers=1, progress=False)
    results = summarize(records)
    assert results.roles is None and "roles" not in results.to_json()


# -- the command line ---------------------------------------------------------------------------------------------


def test_cli_prints_the_role_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", "heuristic", "random", "random", "random", "random", "random", "--expansion", "--brutii"]
    args += ["--players", "6", "--games", "6", "--round-limit", "2", "--workers", "1", "--results", str(path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Roles: each agent as the Brutii and as a family" in out
    assert "The Brutii seat (all agents): share of the wins against parity" in out
    assert f"results (brutii games): {path}" in out
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rules"] == "brutii" and doc["tournament"]["brutii"] is True
    assert doc["roles"]["brutii_seat"]["parity"] == pytest.approx(1 / 6)
    assert {(e["spec"], e["role"]): e["games"] for e in doc["roles"]["entries"]}[("heuristic", "brutii")] == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--players", "4"], "tribune: error: --players: 4 is not supported with the Brutii"),
        (["--expansion", "--players", "4"], "tribune: error: --players: 4 is not supported with the Brutii"),
    ],
)
def test_cli_refuses_a_brutii_tournament_at_other_seat_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    path = tmp_path / "t.sqlite"
    assert main(["tournament", *["random"] * 5, "--brutii", "--results", str(path), *extra]) == 2
    assert capsys.readouterr().err.startswith(message) and not path.exists()


def test_cli_refuses_an_agent_that_does_not_play_the_brutii(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", "nobrutii2", *["random"] * 4, "--expansion", "--brutii", "--results", str(path)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("tribune: error: agent 'nobrutii2' does not play the Brutii variant; agents that do: ")
    assert not path.exists()


def test_default_players_with_the_brutii() -> None:
    assert [default_players(n, RuleSet.BRUTII) for n in (2, 5, 6, 7)] == [5, 5, 6, 6]
    assert [default_players(n, RuleSet.BASE) for n in (1, 2, 5)] == [2, 2, 4]
