"""Whatever an agent does, the tournament finishes: the game ends as a forfeit with its reason, and a rerun resumes.

The hostile agents are registered by :mod:`hostile_agents` (tests/support); worker
processes import it by name (the module of the agent class), so they know them too. Each case
plays a small tournament of three specs at two seats (six games): the four
games of the hostile agent are forfeits, the two others are played out. Then
the same tournament is interrupted after two games and rerun: it completes
with every game stored once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hostile_agents import LyingCard, LyingInt
from hypothesis import given, settings
from hypothesis import strategies as st

import tribune_arena.tournament.runner as runner
from tribune_arena.records import GameRecord
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig
from tribune_env.engine.errors import IllegalActionError
from tribune_env.engine.game import Game

LIMIT = 0.3


@dataclass(frozen=True)
class Case:
    spec: str
    reason: str
    text: str


CASES = [
    # An agent that swallows the alarm is usually killed by the worker ("act() ran ... killed"); the alarm may also
    # land between two of its try blocks and end the call in the process ("act() took ..."): both are timeouts.
    Case("hostile:mode=swallow", "timeout", "act() "),
    Case("hostile:mode=busy", "timeout", "act() "),
    Case("hostile:mode=native", "timeout", "act() ran"),
    Case("hostile:mode=exit", "raised", "act() raised SystemExit"),
    Case("hostile:mode=os-exit", "crashed", "act(): the agent's process exited with code 3"),
    Case("hostile:mode=interrupt", "raised", "act() raised KeyboardInterrupt"),
    Case("hostile:mode=sigterm", "crashed", "act(): the agent's process was killed by SIGTERM"),
    Case("hostile:mode=exit,where=reset", "raised", "reset() raised SystemExit"),
    Case("hostile:mode=os-exit,where=reset", "crashed", "reset(): the agent's process exited with code 3"),
    Case("hostile:mode=interrupt,where=reset", "raised", "reset() raised KeyboardInterrupt"),
    Case("hostile:mode=sigterm,where=reset", "crashed", "reset(): the agent's process was killed by SIGTERM"),
    Case("hostile:mode=any", "illegal", "act() returned <unittest.mock._ANY object>, not one of the"),
    Case("hostile:mode=liar", "illegal", "returned <hostile_agents.LyingCard object>, not one of the"),
]


def definition(spec: str) -> TournamentDefinition:
    # The well-behaved agents are both quick ones: under the 0.3 s limit a loaded CI machine once made greedy
    # forfeit a move (0.555 s), which is the limit working, not the isolation failing.
    return TournamentDefinition.create((spec, "random", "random"), players=2, games=6, round_limit=2,
                                       time_limit=LIMIT)


def check(records: list[GameRecord], case: Case) -> None:
    """Six games: the hostile agent's four are its forfeits with the reason, the two others are played out."""
    assert sorted(r.game_id for r in records) == list(range(6))
    for r in records:
        if case.spec in r.seating:
            assert r.forfeit is not None, r
            assert r.forfeit.seat == r.seating.index(case.spec)
            assert r.forfeit.reason == case.reason, r.forfeit
            assert case.text in r.forfeit.message, r.forfeit.message
            assert r.ranks[r.forfeit.seat] == 2 and r.forfeit.seat not in r.winners
        else:
            assert r.forfeit is None and r.decisions > 0


def stored(path: Path) -> dict[int, str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT game_id, record FROM games").fetchall()
    assert len(rows) == len({game_id for game_id, _ in rows})  # no game stored twice
    return dict(rows)


class _Interrupted(Exception):
    pass


@pytest.mark.parametrize("case", CASES, ids=[c.spec.partition(":")[2] for c in CASES])
def test_a_hostile_agent_forfeits_its_games_and_the_tournament_completes(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = definition(case.spec)
    check(run_tournament(d, tmp_path / "whole.sqlite", workers=2, progress=False), case)

    path = tmp_path / "resumed.sqlite"
    games = runner._games

    def two_then_stop(*args: Any) -> Generator[GameRecord, None, None]:
        stream = games(*args)
        try:
            yield next(stream)
            yield next(stream)
            raise _Interrupted  # as a Ctrl-C would, with games still being played
        finally:
            stream.close()

    with monkeypatch.context() as patch:
        patch.setattr(runner, "_games", two_then_stop)
        with pytest.raises(_Interrupted):
            run_tournament(d, path, workers=2, progress=False)
    before = stored(path)
    assert len(before) == 2
    check(run_tournament(d, path, workers=2, progress=False), case)
    after = stored(path)
    assert sorted(after) == list(range(6))
    assert all(after[i] == text for i, text in before.items())  # nothing played twice
    assert run_tournament(d, path, workers=2, progress=False) and stored(path) == after  # a finished one: no-op


def test_one_worker_is_isolated_too(tmp_path: Path) -> None:
    case = Case("hostile:mode=os-exit", "crashed", "exited with code 3")
    check(run_tournament(definition(case.spec), tmp_path / "r.sqlite", workers=1, progress=False), case)


# -- the engine's legality check ----------------------------------------------------------


@pytest.mark.parametrize("impostor", [mock.ANY, LyingCard(0), LyingCard(-1)], ids=["mock.ANY", "liar", "liar-bad"])
def test_game_apply_refuses_an_object_whose_eq_lies(impostor: object) -> None:
    game = Game.new(GameConfig(players=3, round_limit=2), seed=11)
    for _ in range(40):
        before = game.to_json()
        with pytest.raises(IllegalActionError):
            game.apply(impostor)  # type: ignore[arg-type]
        assert game.to_json() == before
        game.apply(game.legal_actions()[0])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.data())
def test_an_exact_copy_of_a_legal_action_is_legal_and_a_lying_field_is_not(seed: int, data: st.DataObject) -> None:
    game = Game.new(GameConfig(players=2, round_limit=1), seed=seed)
    for _ in range(data.draw(st.integers(0, 30))):
        if game.is_over:
            return
        game.apply(data.draw(st.sampled_from(game.legal_actions())))
    legal = game.legal_actions()
    if not legal:
        return
    action = data.draw(st.sampled_from(legal))
    names = list(getattr(action, "__dataclass_fields__", {}))
    values = {name: getattr(action, name) for name in names}
    if names:
        impostor = type(action)(**{**values, names[0]: LyingInt(-1)})
        before = game.to_json()
        with pytest.raises(IllegalActionError):
            game.apply(impostor)
        assert game.to_json() == before
    twin = game.clone()
    twin.apply(action)
    # a fresh instance of the exact type with equal values, even ints of a lying subclass, is the engine's own choice
    game.apply(type(action)(**{name: LyingInt(value) for name, value in values.items()}))
    assert game.to_json() == twin.to_json()
