"""Issue 38's small slips, each where a person reads it: no ``-0.0`` in a leaderboard, the player counts in words in
the ``--players`` error, "did you mean heuristic?" for a mistyped agent, an own summary for ``zero-net`` in
``tribune agents``, and a bot's failure without the source file and line it was raised at."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from agents import AgentError, make_agent
from agents.random_agent import RandomAgent
from agents.specs import agent_names, agent_summary, register_agent
from tribune_arena.human.bot import bot_move, failure_text
from tribune_arena.records import forfeit_headline
from tribune_arena.tournament.results import EntryStats, Results
from tribune_arena.tournament.stats import fixed
from tribune_arena.tournament.store import ResultStore
from tribune_cli.main import main
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game


def test_a_rating_near_zero_prints_without_a_minus() -> None:
    entry = EntryStats("random", 4, 1, 0.25, (0.05, 0.7), 1.0, 0.25, 2.5, 10.0, 0, 0.001, 0.25, 12.4, 4.15, -0.04)
    results = Results([entry], [], 4, (4,), 0, [])
    out = io.StringIO()
    Console(file=out, width=200).print(results.leaderboard_table())
    row = next(line for line in out.getvalue().splitlines() if line.lstrip().startswith("random"))
    assert "-0.0" not in row and row.split()[1] == "0.0"
    assert fixed(-0.04) == "0.0" and fixed(-0.06) == "-0.1" and fixed(0.04, 2) == "0.04" and fixed(-0.001, 2) == "0.00"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--players", "9"], "--players: 9 is not supported by the base game; choose 2, 3, 4 or 5\n"),
        (["log", "--brutii", "--players", "4"], "--players: 4 is not supported with the Brutii; choose 5 or 6\n"),
    ],
)
def test_the_players_error_names_the_counts_in_words(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"tribune: error: {message}" and "(" not in err


def test_a_mistyped_agent_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AgentError, match=r"unknown agent 'heuristc'; did you mean heuristic\? Known agents: "):
        make_agent("heuristc")
    with pytest.raises(AgentError, match=r"unknown agent 'zero-nte'; did you mean zero-net\?"):
        make_agent("zero-nte")
    with pytest.raises(AgentError, match=r"unknown agent 'nobody'; known agents: ") as nothing_near:
        make_agent("nobody")
    assert "did you mean" not in str(nothing_near.value)
    assert main(["agents", "greedyy"]) == 2
    assert "unknown agent 'greedyy'; did you mean greedy?" in capsys.readouterr().err


def test_every_agent_has_its_own_summary() -> None:
    summaries = {name: agent_summary(name) for name in agent_names()}
    assert summaries["zero-net"] != summaries["zero"] and "without search" in summaries["zero-net"]
    assert "zero-net" not in summaries["zero"]  # zero's line is its own half of the module's first line
    assert len(set(summaries.values())) == len(summaries), summaries


class _Failing(RandomAgent):
    """Fails as a bot of the browser does: the report of its worker names the file and line it raised at."""

    def __init__(self, error: Exception) -> None:
        super().__init__(0)
        self.error = error

    def act(self, view: object, legal: object, info: object = None) -> object:  # type: ignore[override]
        raise self.error


def test_a_bot_failure_reads_without_its_source_location() -> None:
    game = Game.new(GameConfig(players=3), seed=1)
    seat = game.current_seat
    report = RuntimeError("act() raised RuntimeError: boom (at /home/x/agents/mine.py:12 in act)")
    action, problem = bot_move(_Failing(report), game, seat)
    assert action == game.legal_actions()[0]
    assert problem == "failed (act() raised RuntimeError: boom)"
    _, problem = bot_move(_Failing(ValueError("bad value")), game, seat)
    assert problem == "failed (ValueError: bad value)"
    assert failure_text(KeyError()) == "KeyError" and ".py" not in failure_text(report)


class _Raiser(RandomAgent):
    """Raises at its third decision: a forfeit in a tournament."""

    def act(self, view: object, legal: object, info: object = None) -> object:  # type: ignore[override]
        self.moves = getattr(self, "moves", 0) + 1
        if self.moves >= 3:
            raise RuntimeError("boom")
        return super().act(view, legal, info)  # type: ignore[arg-type]


register_agent("slips_raiser", lambda params, seed: _Raiser(seed))  # at import: the tournament's workers import it


def test_a_forfeit_headline_ends_with_its_reason_not_a_source_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tribune tournament`` and ``tribune replay``: the forfeit's headline says what the agent did; where it
    raised follows on a line of its own, for the agent's developer."""
    path = tmp_path / "forfeits.sqlite"
    argv = ["tournament", "random", "slips_raiser", "--games", "2", "--results", str(path), "--workers", "1"]
    assert main([*argv, "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    forfeits = [i for i, line in enumerate(lines) if line.startswith("forfeit: ")]
    assert forfeits
    for i in forfeits:
        assert lines[i].endswith("(slips_raiser): raised: act() raised RuntimeError: boom"), lines[i]
        assert re.fullmatch(r"  \(raised at .+\.py:\d+ in act\)", lines[i + 1]), lines[i + 1]
    with ResultStore(path) as store:
        game = next(r for r in store.records() if r.forfeit is not None)
    assert main(["replay", str(path), "--game", str(game.game_id)]) == 0
    out = capsys.readouterr().out
    assert "slips_raiser (raised): act() raised RuntimeError: boom\n  (raised at " in out
    assert FORFEIT_LINE.search(out) is None
    headline, place = forfeit_headline("act() raised KeyError: 'x' (at /a/b.py:3 in act)")
    assert (headline, place) == ("act() raised KeyError: 'x'", "/a/b.py:3 in act")
    assert forfeit_headline("act() took 2.000 s (limit 1 s)") == ("act() took 2.000 s (limit 1 s)", "")


FORFEIT_LINE = re.compile(r"^Forfeit: .*\.py:\d+", re.M)
"""A forfeit headline that ends with a source file and line."""
