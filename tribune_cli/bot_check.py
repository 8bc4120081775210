"""``tribune bot-check 'cmd:COMMAND'``: does a bot speak ``tribune-agent/1`` (docs/agent-protocol.md)?

The checker drives the bot through the protocol as a host does, one stage after the other, and stops at the first
fault, naming it (exit status 1; 0 when every stage passes):

1. ``hello``: it starts in the box and answers ``hello`` in time, with the protocol, a name and its rule sets;
   then ``box`` says what the bot sees in its box (docs/agent-protocol.md, "The box"), with a ``warn`` line where
   it sees more than it should: no bubblewrap (every file of the user), or a folder that holds a project or data
   (``.git``, ``pyproject.toml``, ``.sqlite`` files, ``tribune-games``); a warning does not fail the check. A bot
   that reads a file outside its box fails the stage where it does, with the host's words and its stderr;
2. ``unknown``: it ignores a message type and fields it does not know (version 1 may add them);
3. ``reset``: it answers ``ready`` for each rule set it names;
4. ``act``: it plays a short game of each rule set to its end, every answer a legal id within the time limit;
5. ``game over``: after ``game_over`` it plays the next game (``reset`` again, then its first decision);
6. ``bye``: it exits when told ``bye``, within the grace the host gives;
7. ``end of input``: a fresh bot exits when its input ends (a host killed with ``SIGKILL`` leaves it so).

A bot that chooses an illegal id, answers too late, writes what is not the expected line or exits is a fault of the
stage where it happened, with the host's own words (:class:`~agents.subprocess_agent.SubprocessAgent`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from agents.base import AgentError
from agents.subprocess_agent import GRACE_SECONDS, START_SECONDS, BotFailure, SubprocessAgent
from tribune_cli.command import Command
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

ROUND_LIMIT = 2
"""Rounds of each checked game: enough for every phase and the end of a game, short enough to check quickly."""


class Fault(Exception):
    """The bot got a stage wrong; the message says what."""


class Checker:
    """One bot checked stage by stage; :meth:`run` prints each stage's result to ``out``."""

    def __init__(self, command: str, move_seconds: float, seed: int, out: TextIO) -> None:
        self.command = command
        self.move_seconds = move_seconds
        self.seed = seed
        self.out = out
        self.agent: SubprocessAgent | None = None
        self.rules: list[RuleSet] = []

    def run(self) -> int:
        stages: list[tuple[str, Callable[[], str]]] = [
            ("hello", self.hello),
            ("box", self.box),
            ("unknown", self.unknown),
            ("reset", self.reset),
            ("act", self.act),
            ("game over", self.game_over),
            ("bye", self.bye),
            ("end of input", self.end_of_input),
        ]
        try:
            for name, stage in stages:
                try:
                    said = stage()
                except (Fault, AgentError, BotFailure) as exc:
                    self.out.write(f"FAIL {name}: {exc}\n")
                    self.out.write(f"the bot fails stage '{name}'; docs/agent-protocol.md says what it should do\n")
                    return 1
                self.out.write(f"ok   {name}: {said}\n")
        finally:
            if self.agent is not None:
                self.agent.close()
        self.out.write("the bot passes every stage\n")
        return 0

    # -- the stages -----------------------------------------------------------------------------------------

    def _agent(self) -> SubprocessAgent:
        assert self.agent is not None
        return self.agent

    def hello(self) -> str:
        self.agent = SubprocessAgent(self.command, self.seed, move_seconds=self.move_seconds)
        self.rules = [r for r in RuleSet if r in self.agent.rule_sets]
        if not self.rules:
            raise Fault("its hello names no rule set this host plays (base, expansion, brutii)")
        observation = " (asks for observations)" if self.agent.observation else ""
        return f"{self.agent.bot_name!r} plays {', '.join(r.value for r in self.rules)}{observation}"

    def box(self) -> str:
        view = self._agent().box_view()
        if view is None:
            self.out.write("warn box: the bot runs unboxed (TRIBUNE_BOT_BOX=off)\n")
            return "none"
        folder = view.folder or "none (it runs in its scratch space)"
        limit = f"{view.scratch_mb} MiB" if view.scratch_mb else "no limit"
        if not view.sandboxed:
            self.out.write(
                "warn box: no bubblewrap here: the bot can read and write every file you can and open connections; "
                "check it where bubblewrap runs (apt-get install bubblewrap)\n"
            )
            return f"its folder {folder}; scratch space {limit}; without the sandbox"
        if view.folder is not None and (found := project_files(Path(view.folder))):
            self.out.write(
                f"warn box: its folder {view.folder} holds {', '.join(found)}, which the bot can read: put the bot "
                "in a folder of its own, or name one with TRIBUNE_BOT_FOLDER\n"
            )
        also = f"; also read-only {', '.join(view.visible)}" if view.visible else ""
        return f"bubblewrap: it sees the system folders, its folder {folder}{also}; scratch space {limit}"

    def unknown(self) -> str:
        agent = self._agent()
        agent.notify({"type": "bot-check-unknown", "future": [1, 2]})
        config = self._config(self.rules[0])
        agent.reset(0, config, self.seed)  # answered ready: the unknown message was ignored
        return "ignores a message type it does not know"

    def reset(self) -> str:
        agent = self._agent()
        for rules in self.rules:
            agent.reset(0, self._config(rules), self.seed)
        return f"ready for {', '.join(r.value for r in self.rules)}"

    def act(self) -> str:
        decisions = 0
        slowest = 0.0
        for rules in self.rules:
            n, slow = self._play(rules, seed=self.seed)
            decisions += n
            slowest = max(slowest, slow)
        return f"{decisions} legal answers in {len(self.rules)} game(s), the slowest in {slowest:.3f} s"

    def game_over(self) -> str:
        n, _ = self._play(self.rules[0], seed=self.seed + 1, stop_after=1)
        return f"plays on after game_over ({n} decision(s) of the next game)"

    def bye(self) -> str:
        agent = self._agent()
        self.agent = None
        if not agent.bye(wait=GRACE_SECONDS):
            raise Fault(f"it did not exit within {GRACE_SECONDS:g} s of bye (the host then kills it)")
        return f"exits within {GRACE_SECONDS:g} s of bye"

    def end_of_input(self) -> str:
        agent = SubprocessAgent(self.command, self.seed, move_seconds=self.move_seconds)
        if not agent.end_input(wait=5.0):
            raise Fault("it did not exit within 5 s of the end of its input (a host killed with SIGKILL)")
        return "exits at the end of its input"

    # -- playing --------------------------------------------------------------------------------------------

    def _config(self, rules: RuleSet) -> GameConfig:
        return GameConfig.for_rules(rules, round_limit=ROUND_LIMIT)

    def _play(self, rules: RuleSet, seed: int, stop_after: int = 0) -> tuple[int, float]:
        """A game with the bot in seat 0 and random play elsewhere; its decisions and its slowest answer."""
        agent = self._agent()
        config = self._config(rules)
        game = Game.new(config, seed=seed)
        agent.reset(0, config, seed)
        rng = random.Random(seed)
        decisions = 0
        slowest = 0.0
        while not game.is_over:
            legal = game.legal_actions()
            pending = game.pending
            assert pending is not None
            if pending.seat != 0:
                game.apply(rng.choice(legal))
                continue
            decisions += 1
            start = time.monotonic()
            try:
                action = agent.act(game.view(0), legal, InfoSet(game, 0))
            except AgentError as exc:
                raise Fault(f"decision {decisions} ({pending.kind.key}): {exc}") from None
            slowest = max(slowest, time.monotonic() - start)
            game.apply(action)
            if stop_after and decisions >= stop_after:
                break
        return decisions, slowest


PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "package.json", "Cargo.toml", "tribune-games")
DATA_SUFFIXES = (".sqlite", ".sqlite3", ".db", ".jsonl")


def project_files(folder: Path) -> list[str]:
    """The names in ``folder`` that say it is a project's root or holds games data (results, games databases),
    sorted; at most 5."""
    try:
        names = sorted(entry.name for entry in folder.iterdir())
    except OSError:
        return []
    return [n for n in names if n in PROJECT_MARKERS or n.endswith(DATA_SUFFIXES)][:5]


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", metavar="SPEC", help="the bot: cmd:COMMAND LINE (quote it once in a shell)")
    parser.add_argument(
        "--move-seconds", type=float, default=10.0, metavar="SECONDS", help="seconds the bot may take for each answer"
    )
    parser.add_argument("--seed", type=int, default=1, metavar="SEED", help="seed of the checked games")


def run(args: argparse.Namespace) -> int:
    spec: str = args.spec
    if not spec.startswith("cmd:") or not spec[4:].strip():
        sys.stderr.write("tribune bot-check: give the bot as cmd:COMMAND LINE, e.g. 'cmd:python mybot.py'\n")
        return 2
    print(f"checking `{spec[4:].strip()}` (tribune-agent/1; start limit {START_SECONDS:g} s)")
    return Checker(spec[4:], args.move_seconds, args.seed, sys.stdout).run()


def add_parser(commands: Any) -> None:
    """Add ``tribune bot-check`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


COMMAND = Command(
    "bot-check",
    "check that a cmd: bot speaks the agent protocol",
    (
        ("tribune bot-check 'cmd:python examples/bots/random_bot.py'", "the Python example bot"),
        ("tribune bot-check 'cmd:node examples/bots/random_bot.js' --move-seconds 2", "the Node.js one, 2 s a move"),
    ),
    _add_arguments,
    run,
    details="The stages: hello, unknown messages, reset, act (a short game of each rule set the bot names, every "
    "answer legal and in time), game over, bye and the end of input. The first fault is named and the exit status "
    "is 1; docs/agent-protocol.md says what a bot should do.",
)
