"""``tribune play``: a person takes a seat against chosen agents in the terminal.

The game starts with its seed (drawn from the operating system unless given, and printed so that the game can be
replayed with ``--seed``) and the victory card's objectives, once. At the person's first decision a summary of the
game's start (:func:`tribune_arena.human.explain.start_lines`: the others' set-up discards are no change); at each
later one a compact summary of what changed since the last one (money, laurels, legions, placements, take-overs,
own cards by name: :func:`tribune_arena.human.explain.changes_since`), a one-line progress summary on the victory
card when it changed, the decision in words, in a take-over the set built so far and the set to beat, and the legal
choices numbered 1..k, each with its cost and effect in words (bids: the range of amounts and what is at stake).
Every line fits the terminal's width (:func:`fit`: long choices wrap with a hanging indent), and no internal id
is shown: the log and the text board go through :func:`tribune_arena.human.explain.person_text`. The words come
from :mod:`tribune_arena.human.explain`, which the web app shares. A number
picks; ``help``, ``board`` (the whole board as the seat sees it), ``goal`` (the victory card and everybody's
progress), ``recent`` (the log lines since the last decision), ``log``, ``hand``, ``choices`` and ``quit`` are
commands. Anything else gets a helpful message and the question again; end of input leaves the game cleanly.
Input and output are injectable streams.

With ``--expansion`` every expansion decision is asked the same way, in the engine's words
(:mod:`tribune_env.engine.describe` and the prompts of the decision records), with what a person needs besides:
the cards already chosen while a set or the Refugium slaves are assembled one by one, what each official does and
who holds it (R36-R40), and what an assassin card does in a take-over (R31). Every opponent must play the game
(``Agent.supports``), which is checked before the game starts.
"""

from __future__ import annotations

import re
import secrets
import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Protocol, TextIO

from agents import Agent, check_specs_support, make_agent
from tribune_arena.human import explain
from tribune_arena.human.bot import bot_move
from tribune_env.engine.actions import Action, Bid, Decline
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.decisions import Pending
from tribune_env.engine.game import Game
from tribune_env.engine.registry import DECISIONS, is_bid

DEFAULT_OPPONENT = "heuristic"
EXPANSION_FALLBACK = "random"  # the default opponent of an expansion game while the default one does not play it
HELP = (
    "Type the number of a choice to play it. Commands:\n"
    "  help or ?   this help\n"
    "  choices     list the choices again\n"
    "  board       show the whole board (as you see it)\n"
    "  goal        the victory card's objectives and every player's progress (also: victory)\n"
    "  recent      the game log since your last decision (what you may read)\n"
    "  log         show the whole game log (what you may read)\n"
    "  hand        show your hand\n"
    "  quit        leave the game"
)
TITLES = {
    RuleSet.BASE: "Tribune",
    RuleSet.EXPANSION: "Tribune with the expansion",
    RuleSet.BRUTII: "Tribune with the expansion and the Brutii (P{brutii} is the Brutii)",
}
"""The first words of a game, per rule set (``{brutii}``: the Brutii's seat)."""
SEED_DIGITS = 6
"""A seed drawn for a game has at most this many digits (easy to type again)."""
MIN_WIDTH, MAX_WIDTH = 40, 120
"""The width lines are fitted to: the terminal's, within these bounds (longer lines are hard to read)."""


def draw_seed() -> int:
    """A seed for a new game, drawn from the operating system's randomness (``0`` to ``10**SEED_DIGITS - 1``)."""
    return secrets.randbelow(10**SEED_DIGITS)


def terminal_width() -> int:
    """The terminal's width (``COLUMNS`` when set, 80 when unknown), within :data:`MIN_WIDTH`..:data:`MAX_WIDTH`."""
    return max(MIN_WIDTH, min(MAX_WIDTH, shutil.get_terminal_size().columns))


_HANGING = re.compile(r"^( *)(\d+\. +|- +)?")


def fit(line: str, width: int) -> list[str]:
    """``line`` wrapped to ``width`` columns: a numbered choice (``  12. ...``) or a list item (``  - ...``)
    continues under its text, any other line four columns deeper than it starts; words longer than a line are
    broken."""
    if len(line) <= width:
        return [line]
    found = _HANGING.match(line)
    lead, marker = (found[1], found[2]) if found else ("", None)
    indent = " " * (len(lead) + len(marker)) if marker else lead + "    "
    if len(indent) > width // 2:
        indent = " " * 4
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [line[:width]]


class LineSource(Protocol):
    """Where answers come from: ``readline()`` returns one line, ``""`` at the end (a text stream fits)."""

    def readline(self) -> str: ...


class _Quit(Exception):
    """The person left (quit or end of input)."""


class HumanGame:
    """One game with a person in ``seat`` and agents (specs) in the other seats, in seat order.

    :meth:`play` returns 0 whether the game ends or the person leaves.
    """

    def __init__(
        self,
        config: GameConfig,
        opponents: Sequence[str],
        seat: int = 0,
        seed: int | None = None,
        input_stream: LineSource | None = None,
        output: TextIO | None = None,
        width: int | None = None,
    ) -> None:
        """``seed`` None: drawn (:func:`draw_seed`); ``width``: the columns lines are fitted to (default:
        :func:`terminal_width`). Raises ``ValueError`` for a bad seat, count or width, :class:`~agents.AgentError`
        for a bad spec or an opponent that does not play this game (:meth:`~agents.Agent.supports`'s message),
        before any agent is kept."""
        if len(opponents) != config.players - 1:
            raise ValueError(f"{config.players} players need {config.players - 1} opponents, got {len(opponents)}")
        if not 0 <= seat < config.players:
            raise ValueError(f"--seat must be in 0..{config.players - 1}, got {seat}")
        if width is not None and width < MIN_WIDTH:
            raise ValueError(f"width must be at least {MIN_WIDTH} columns, got {width}")
        check_specs_support(opponents, config)
        seed = draw_seed() if seed is None else seed
        self.seat = seat
        self.seed = seed
        self.width = terminal_width() if width is None else width
        self.input: LineSource = input_stream or sys.stdin
        self.out = output or sys.stdout
        self.game = Game.new(config, seed=seed)
        others = iter(opponents)
        self.agents: dict[int, Agent] = {}
        self.names: list[str] = []
        for s in range(config.players):
            if s == seat:
                self.names.append("you")
                continue
            agent = make_agent(next(others), seed * 1000 + s)
            self.agents[s] = agent
            agent.reset(s, config, seed * 1000 + s)
            self.names.append(agent.spec)
        self._shown = 0  # events already shown to the person
        self._mark: explain.Mark | None = None  # the moment of the person's last decision (None before the first)
        self._progress = ""  # the progress line last shown (or known from the start)

    # -- output helpers ----------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Print ``text``, each line fitted to the width (:func:`fit`)."""
        for line in text.split("\n"):
            for part in fit(line, self.width):
                print(part, file=self.out)

    def _readable(self, start: int = 0) -> list[str]:
        return explain.log_lines(self.game, self.seat, start)

    def _new_log(self) -> None:
        """The log lines since the person's last decision (the ``recent`` command, and at the end of the game)."""
        lines = self._readable(self._shown)
        if lines:
            self.say("Log since your last decision:")
            for line in lines:
                self.say(f"  {line}")

    def _summary(self) -> None:
        """What changed since the person's last decision, in a few lines (not the board); before the first one the
        game's start (:func:`~tribune_arena.human.explain.start_lines`)."""
        if self._mark is None:
            self.say("\n".join(explain.start_lines(self.game, self.seat)))
            return
        self.say("Since your last decision:")
        for line in explain.changes_since(self.game, self.seat, self._mark):
            self.say(f"  {line}")

    def _progress_line(self) -> None:
        """The one-line progress on the victory card, when it changed since it was last shown."""
        line = explain.progress_line(self.game, self.seat)
        if line != self._progress:
            self._progress = line
            self.say(line)

    def _hand(self) -> str:
        tables = self.game.state.tables
        hand = self.game.view(self.seat).hand
        cards = [tables.card_name(c) + (f" x{n}" if n > 1 else "") for c, n in enumerate(hand) if n]
        return "Your hand: " + (", ".join(cards) if cards else "empty")

    def close(self) -> None:
        """Close the opponents' agents."""
        for agent in self.agents.values():
            agent.close()

    def _words(self, pending: Pending, action: Action) -> str:
        """A choice in short words (:func:`tribune_arena.human.explain.choice_words`); ``pending`` is the game's pending
        decision."""
        return explain.choice_words(self.game, self.seat, action)

    def _staged(self, pending: Pending) -> str:
        """The cards chosen so far in a decision that assembles them one by one ('' elsewhere)."""
        if not DECISIONS[pending.kind].stages:
            return ""
        tables = self.game.state.tables
        staged = [tables.card_name(c) for c in self.game.view(self.seat).staged if 0 <= c < tables.num_card_types]
        return "Chosen so far: " + (", ".join(staged) if staged else "nothing")

    def _question(self, pending: Pending) -> str:
        faction = ""
        if pending.faction >= 0:
            faction = f" ({self.game.config.components.factions[pending.faction].name})"
        when = f", round {self.game.round}" if self.game.round else ""  # round 0: the prompt says "Set-up"
        return f"Your decision, P{self.seat}{when}{faction}: {DECISIONS[pending.kind].prompt}"

    def _choices(self, pending: Pending, legal: Sequence[Action]) -> None:
        if is_bid(pending.kind):
            out = f", or '{OPT_OUT}' to {DECLINE_WORDS}" if any(isinstance(a, Decline) for a in legal) else ""
            self.say(f"Bid a number of denarii: {_amounts(legal)}{out}.")
            if stake := explain.auction_line(self.game, self.seat):
                self.say(stake)
            return
        for i, action in enumerate(legal, 1):
            self.say(f"  {i:>2}. {explain.explain_choice(self.game, self.seat, action).text()}")

    # -- input ----------------------------------------------------------------------

    def _read(self) -> str:
        self.out.write("> ")
        self.out.flush()
        line = self.input.readline()
        if not line:
            raise _Quit("end of input")
        return line.strip()

    def _command(self, text: str, pending: Pending, legal: Sequence[Action]) -> bool:
        """Run a command word; False if ``text`` is none."""
        word = text.lower()
        if word in ("help", "?", "h"):
            self.say(HELP)
        elif word in ("choices", "list", "c"):
            self._choices(pending, legal)
        elif word in ("board", "b"):
            self.say(explain.board_text(self.game, self.seat))
        elif word in ("goal", "victory", "g"):
            self.say("\n".join(explain.victory_lines(self.game, self.seat)))
        elif word in ("recent", "r"):
            self._new_log()
        elif word in ("log", "l"):
            self.say("\n".join(f"  {line}" for line in self._readable()))
        elif word == "hand":
            self.say(self._hand())
        elif word in ("quit", "q", "exit"):
            raise _Quit("you left the game")
        else:
            return False
        return True

    def _pick(self, text: str, pending: Pending, legal: Sequence[Action]) -> Action | str:
        """The chosen action, or a helpful message why ``text`` does not choose one."""
        if not text:
            return f"Please type a number ({self._range(pending, legal)}), or 'help' for the commands."
        if is_bid(pending.kind) and text.lower() == OPT_OUT:
            declined = next((a for a in legal if isinstance(a, Decline)), None)
            return declined if declined is not None else "Only the Brutii may opt out of the chariot auction (R49)."
        try:
            number = int(text)
        except ValueError:
            return f"{text!r} is not a choice or a command. Type a number ({self._range(pending, legal)}) or 'help'."
        if is_bid(pending.kind):
            for action in legal:
                if isinstance(action, Bid) and action.amount == number:
                    return action
            return f"You cannot bid {number} now; bids: {_amounts(legal)}."
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return f"There is no choice {number}; choose from 1 to {len(legal)} ('choices' lists them again)."

    def _range(self, pending: Pending, legal: Sequence[Action]) -> str:
        return f"a bid, {_amounts(legal)}" if is_bid(pending.kind) else f"1 to {len(legal)}"

    def _human(self, pending: Pending) -> Action:
        legal = self.game.legal_actions()
        self.say()
        self.say("=" * self.width)
        self._summary()
        self._progress_line()
        self.say(self._question(pending))
        for line in explain.takeover_lines(self.game, self.seat):
            self.say(line)
        if staged := self._staged(pending):
            self.say(staged)
        self._choices(pending, legal)
        while True:
            text = self._read()
            if self._command(text, pending, legal):
                continue
            choice = self._pick(text, pending, legal)
            if isinstance(choice, str):
                self.say(choice)
                continue
            self.say(f"You: {self._words(pending, choice)}")
            self._mark = explain.mark(self.game, self.seat)
            self._shown = len(self.game.events)
            return choice

    def _agent(self, seat: int) -> Action:
        action, problem = bot_move(self.agents[seat], self.game, seat)
        if problem is not None:
            self.say(f"(P{seat} {self.names[seat]} {problem}; it plays its first legal choice instead)")
        return action

    # -- the game ---------------------------------------------------------------------

    def play(self) -> int:
        """Play to the end (or until the person leaves) and print the result; returns 0."""
        seats = ", ".join(f"P{s} {name}" for s, name in enumerate(self.names))
        brutii = self.game.view(self.seat).brutii
        title = TITLES[self.game.config.rules].format(brutii=brutii)
        self.say(f"{title}: {self.game.num_players} players ({seats}). Type 'help' at any question.")
        self.say(f"Deal: seed {self.seed} (replay this game with --seed {self.seed})")
        self.say("\n".join(explain.victory_lines(self.game, self.seat, progress=False)))
        self._progress = explain.progress_line(self.game, self.seat)  # nobody has met anything yet: not shown
        try:
            while (pending := self.game.pending) is not None:
                action = self._human(pending) if pending.seat == self.seat else self._agent(pending.seat)
                self.game.apply(action)
        except _Quit as why:
            self.say(f"\nLeaving the game ({why}) in round {self.game.round}. Goodbye.")
            return 0
        finally:
            self.close()
        self._result()
        return 0

    def _result(self) -> None:
        game = self.game
        self.say()
        self.say("=" * self.width)
        self._new_log()
        self.say(explain.board_text(game, self.seat))
        self.say("\n".join(explain.victory_lines(game, self.seat)))
        self.say("\nGame over" + (" (round limit reached)" if game.truncated else "") + ". Final result:")
        scores, ranks = game.scores(), game.ranks()
        for s in sorted(range(game.num_players), key=lambda s: (ranks[s], s)):
            won = "  winner" if s in game.winners else ""
            self.say(f"  rank {ranks[s]}: P{s} {self.names[s]}, score {scores[s]}{won}")
        if self.seat in game.winners:
            self.say("You win!" if len(game.winners) == 1 else "You share the win!")
        else:
            winners = "Winner: " if len(game.winners) == 1 else "Winners: "
            self.say(winners + ", ".join(f"P{s} {self.names[s]}" for s in game.winners))


OPT_OUT = "out"
"""What the Brutii types to opt out of the chariot auction instead of bidding (R49)."""
DECLINE_WORDS = "opt out of the chariot auction (sealed, R49)"


def _amounts(legal: Sequence[Action]) -> str:
    amounts = sorted(a.amount for a in legal if isinstance(a, Bid))
    if amounts and amounts == list(range(amounts[0], amounts[-1] + 1)):
        return f"from {amounts[0]} to {amounts[-1]}"
    return "one of " + ", ".join(map(str, amounts))
