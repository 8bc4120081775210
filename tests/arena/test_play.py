"""``tribune play`` driven by scripted input, invalid input included: helpful messages, never a crash."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterable, Iterator

import pytest

from tribune_arena.human.terminal import HumanGame
from tribune_cli import play
from tribune_cli.play import opponents_for
from tribune_env.engine.config import GameConfig


def main(argv: list[str]) -> int:
    """``tribune ARGV`` for the play command alone (as tribune_cli.main wires it)."""
    parser = argparse.ArgumentParser(prog="tribune")
    play.add_parser(parser.add_subparsers(dest="command", required=True))
    return play.run(parser.parse_args(argv))


class Script:
    """An input stream: the given lines, then ``then`` forever (or end of input when ``then`` is None)."""

    def __init__(self, lines: Iterable[str], then: str | None = "1") -> None:
        self._lines: Iterator[str] = iter(lines)
        self._then = then
        self.asked = 0

    def readline(self) -> str:
        self.asked += 1
        line = next(self._lines, self._then)
        return "" if line is None else line + "\n"


def session(lines: Iterable[str], then: str | None = "1", seat: int = 1, seed: int = 3) -> tuple[int, str, Script]:
    out = io.StringIO()
    script = Script(lines, then)
    config = GameConfig(players=3, round_limit=2)
    status = HumanGame(config, ["random", "random"], seat=seat, seed=seed, input_stream=script, output=out).play()
    return status, out.getvalue(), script


def test_scripted_game_with_invalid_input_completes() -> None:
    status, text, script = session(["", "abc", "0", "999", "help", "hand", "board", "log", "choices"])
    assert status == 0
    assert "Please type a number (1 to" in text
    assert "'abc' is not a choice or a command" in text
    assert "There is no choice 0; choose from 1 to" in text
    assert "There is no choice 999" in text
    assert "Commands:" in text and "Your hand: " in text
    assert "Your decision, P1" in text and "Set-up: discard a card" in text and "   1. discard " in text
    assert "You: discard " in text and "You: place a follower on " in text
    assert "Game over" in text and "Final result:" in text and "rank 1: P" in text
    assert "Traceback" not in text
    assert script.asked > 10


class Bidder:
    """Answers by looking at the question: at a bid first an impossible amount, then 1 (or 0); elsewhere 1."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.bids = 0

    def readline(self) -> str:
        text = self.out.getvalue()
        question = text[text.rfind("Your decision") :]
        if "Bid a number of denarii" not in question:
            return "1\n"
        self.bids += 1
        if "cannot bid" not in question:
            return "100000\n"
        return "1\n" if "to 0." not in question else "0\n"


def test_bids_take_an_amount() -> None:
    out = io.StringIO()
    bidder = Bidder(out)
    config = GameConfig(players=3, round_limit=2)
    assert HumanGame(config, ["random", "random"], seat=0, seed=2, input_stream=bidder, output=out).play() == 0
    text = out.getvalue()
    assert bidder.bids >= 2
    assert "Bid a number of denarii: from 0 to" in text
    assert "You cannot bid 100000 now; bids: from 0 to" in text
    assert "You: bid 1" in text or "You: bid 0" in text
    assert "Final result:" in text


def test_end_of_input_and_quit_leave_cleanly() -> None:
    status, text, _ = session(["1", "1", "abc"], then=None)
    assert status == 0 and "Leaving the game (end of input)" in text and "Traceback" not in text
    status, text, _ = session(["1", "quit"], then=None)
    assert status == 0 and "Leaving the game (you left the game)" in text


def test_private_lines_of_others_are_not_shown() -> None:
    status, text, _ = session(["1", "recent", "log"], then="1", seat=0)  # the log lines are shown on request
    assert status == 0
    # set-up discards of the others are private ("P1 discarded <card>"); the person sees only "face down"
    assert "P1 discarded" not in text and "P2 discarded" not in text
    assert "P0 discarded" in text


def test_opponent_defaults_and_errors() -> None:
    assert opponents_for(["random"], GameConfig(players=4)) == ["random"] * 3
    assert opponents_for(["random", "greedy"], GameConfig(players=3)) == ["random", "greedy"]
    assert opponents_for([], GameConfig()) == ["heuristic"] * 3
    assert opponents_for([], GameConfig(players=2)) == ["heuristic"]
    with pytest.raises(ValueError, match="needs 3 opponents"):
        opponents_for(["a", "b"], GameConfig(players=4))
    with pytest.raises(ValueError, match="--seat"):
        HumanGame(GameConfig(players=3), ["random", "random"], seat=3)


def test_cli_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", Script(["x", "5000"], then="1"))
    assert main(["play", "random", "random", "--seat", "2", "--round-limit", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Final result:" in out and "P2 you" in out
    monkeypatch.setattr("sys.stdin", Script([], then=None))  # default opponents; end of input at once
    assert main(["play", "--players", "2", "--round-limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "P1 heuristic" in out and "Leaving the game (end of input)" in out
    assert main(["play", "nosuchagent", "--players", "3"]) == 2
    assert "tribune: error: unknown agent 'nosuchagent'" in capsys.readouterr().err
    assert main(["play", "random", "--players", "9"]) == 2
    assert "tribune: error: --players: 9 is not supported" in capsys.readouterr().err


def test_a_bot_that_raises_or_plays_illegally_takes_its_first_legal_choice() -> None:
    """``bot_move``, shared by the terminal and the browser: an agent's bug never ends the person's game."""
    from tribune_arena.human.bot import bot_move
    from tribune_env import Game, GameConfig

    class Raising:
        def act(self, view: object, legal: object, info: object) -> object:
            raise RuntimeError("boom")

    class Illegal:
        def act(self, view: object, legal: object, info: object) -> object:
            return "not an action"

    class Last:
        def act(self, view: object, legal: list[object], info: object) -> object:
            return legal[-1]

    game = Game.new(GameConfig(players=3), seed=4)
    legal = game.legal_actions()
    seat = game.current_seat
    assert bot_move(Raising(), game, seat) == (legal[0], "failed: RuntimeError('boom')")  # type: ignore[arg-type]
    action, problem = bot_move(Illegal(), game, seat)  # type: ignore[arg-type]
    assert action == legal[0] and problem == "chose an illegal action 'not an action'"
    assert bot_move(Last(), game, seat) == (legal[-1], None)  # type: ignore[arg-type]
