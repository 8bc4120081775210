"""``tribune play``: a person takes a seat against chosen agents in the terminal.

The game starts with its seed (drawn from the operating system unless given, and printed so that the game can be
replayed with ``--seed``) and the victory card's objectives, once. At the person's first decision a summary of the
game's start (:func:`tribune_arena.human.explain.start_lines`: the others' set-up discards are no change); at each
later one a compact summary of what changed since the last one (money, laurels, legions, placements, take-overs,
own cards by name: :func:`tribune_arena.human.explain.changes_since`), a one-line progress summary on the victory
card when it changed, the decision in words, in a take-over the set built so far and the set to beat, and the legal
choices numbered 1..k, grouped compactly (:func:`choice_lines`: under a heading such as "Place a follower on:", the
choices of one region, of the faction fields or the cards of a hand side by side in columns); bids: the range of
amounts and what is at stake. A decision takes at most :data:`SCREEN_LINES` (45) lines of 100 columns (issue 38):
a summary too long for the rest is cut, its last line pointing to the ``changes`` command. Each choice's cost and
effect come on request (``d N``; ``d`` alone: all of them). Every line fits the terminal's width (:func:`fit`: long
choices wrap with a hanging indent), and no internal id is shown: the log and the text board go through
:func:`tribune_arena.human.explain.person_text`. The words come from :mod:`tribune_arena.human.explain`, which the
web app shares. A number picks; ``help``, ``d N``, ``board`` (the whole board as the seat sees it), ``goal`` (the
victory card and everybody's progress), ``changes``, ``recent`` (the log lines since the last decision), ``log``,
``hand``, ``choices`` and ``quit`` are commands. Anything else gets a helpful message and the question again; end
of input leaves the game cleanly. Input and output are injectable streams.

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
from tribune_env.data import Region
from tribune_env.engine.actions import Action, Bid, Decline, PickCard, PlaceFollower
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.decisions import Pending
from tribune_env.engine.game import Game
from tribune_env.engine.names import REGION_NAMES
from tribune_env.engine.registry import DECISIONS, is_bid
from tribune_env.engine.tables import SpaceKind

DEFAULT_OPPONENT = "heuristic"
EXPANSION_FALLBACK = "random"  # the default opponent of an expansion game while the default one does not play it
HELP = (
    "Type the number of a choice to play it. Commands:\n"
    "  help or ?   this help\n"
    "  choices     list the choices again\n"
    "  d N         what choice N costs and does (d alone: every choice; also: details N)\n"
    "  board       show the whole board (as you see it)\n"
    "  goal        the victory card's objectives and every player's progress (also: victory)\n"
    "  changes     what changed since your last decision, in full\n"
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
        self._changes: list[str] = []  # the summary of the decision asked now, whole (the 'changes' command)

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

    def _summary(self) -> list[str]:
        """What changed since the person's last decision, in a few lines (not the board); before the first one the
        game's start (:func:`~tribune_arena.human.explain.start_lines`)."""
        if self._mark is None:
            return explain.start_lines(self.game, self.seat)
        changes = explain.changes_since(self.game, self.seat, self._mark)
        return ["Since your last decision:", *(f"  {line}" for line in changes)]

    def _progress_text(self) -> str:
        """The one-line progress on the victory card when it changed since it was last shown, else ''."""
        line = explain.progress_line(self.game, self.seat)
        if line == self._progress:
            return ""
        self._progress = line
        return line

    def _height(self, lines: Sequence[str]) -> int:
        """The screen lines ``lines`` take once fitted to the width."""
        return sum(len(fit(part, self.width)) for line in lines for part in line.split("\n"))

    def _trimmed(self, summary: list[str], room: int) -> list[str]:
        """``summary`` cut to ``room`` screen lines, the last one saying how many more the ``changes`` command
        shows (the whole decision then fits :data:`SCREEN_LINES`)."""
        if self._height(summary) <= room:
            return summary
        kept: list[str] = []
        for line in summary:
            if self._height([*kept, line]) > room - 1:
                break
            kept.append(line)
        more = len(summary) - len(kept)
        return [*kept, f"  ... and {more} more (type 'changes' to see them all)"]

    def _hand(self) -> str:
        tables = self.game.tables
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
        tables = self.game.tables
        staged = [tables.card_name(c) for c in self.game.view(self.seat).staged if 0 <= c < tables.num_card_types]
        return "Chosen so far: " + (", ".join(staged) if staged else "nothing")

    def _question(self, pending: Pending) -> str:
        faction = ""
        if pending.faction >= 0:
            faction = f" ({self.game.config.components.factions[pending.faction].name})"
        when = f", round {self.game.round}" if self.game.round else ""  # round 0: the prompt says "Set-up"
        return f"Your decision, P{self.seat}{when}{faction}: {DECISIONS[pending.kind].prompt}"

    def _choices(self, pending: Pending, legal: Sequence[Action]) -> None:
        for line in self._choice_lines(pending, legal):
            self.say(line)

    def _choice_lines(self, pending: Pending, legal: Sequence[Action]) -> list[str]:
        """The choices as listed (:func:`choice_lines`) or the bid's range and stake."""
        if is_bid(pending.kind):
            out = f", or '{OPT_OUT}' to {DECLINE_WORDS}" if any(isinstance(a, Decline) for a in legal) else ""
            stake = explain.auction_line(self.game, self.seat)
            return [f"Bid a number of denarii: {_amounts(legal)}{out}.", *([stake] if stake else [])]
        return [*choice_lines(self.game, self.seat, legal, self.width), CHOICES_FOOTER]

    def _details(self, text: str, pending: Pending, legal: Sequence[Action]) -> None:
        """``d N``: what choice N costs and does; ``d`` alone: every choice with its cost and effect."""
        if is_bid(pending.kind):
            self.say(explain.auction_line(self.game, self.seat) or "Bid a number of denarii.")
            return
        wanted = text.split()[1:]
        if not wanted:
            numbers = list(range(1, len(legal) + 1))
        else:
            try:
                numbers = [int(n) for n in wanted]
            except ValueError:
                self.say(f"Type 'd' and a choice's number (1 to {len(legal)}), e.g. 'd 1'.")
                return
        for n in numbers:
            if not 1 <= n <= len(legal):
                self.say(f"There is no choice {n}; choose from 1 to {len(legal)}.")
                continue
            self.say(f"  {n:>2}. {explain.explain_choice(self.game, self.seat, legal[n - 1]).text()}")

    # -- input ----------------------------------------------------------------------

    def _read(self) -> str:
        self.out.write("> ")
        self.out.flush()
        line = self.input.readline()
        if not line:
            raise _Quit(f"End of input: you left the game in round {self.game.round}. Goodbye.")
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
        elif word == "changes":
            self.say("\n".join(self._changes))
        elif word in ("recent", "r"):
            self._new_log()
        elif word in ("log", "l"):
            self.say("\n".join(f"  {line}" for line in self._readable()))
        elif word == "hand":
            self.say(self._hand())
        elif word.split()[:1] in (["d"], ["details"], ["detail"]):
            self._details(word, pending, legal)
        elif word in ("quit", "q", "exit"):
            raise _Quit(f"You left the game in round {self.game.round}. Goodbye.")
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
        progress = self._progress_text()
        asked = [self._question(pending), *explain.takeover_lines(self.game, self.seat)]
        if staged := self._staged(pending):
            asked.append(staged)
        asked += self._choice_lines(pending, legal)
        head = ["", "=" * self.width]
        rest = ([progress] if progress else []) + asked
        self._changes = self._summary()
        room = SCREEN_LINES - 1 - self._height(head + rest)  # the last line: the prompt
        for line in head + self._trimmed(self._changes, room) + rest:
            self.say(line)
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
            self.say(f"\n{why}")
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


# -- the choices on one screen ----------------------------------------------------------------------------------------

SCREEN_LINES = 45
"""The most lines one decision takes (issue 38): the summary, the question and its choices fit a 45-line terminal;
each choice's cost and effect come on request (``d N``)."""
CHOICES_FOOTER = "Type a number to choose; 'd N' tells what choice N costs and does; 'help' for the commands."
_GAP = 3
"""Columns between two choices on one line."""


def _card_names(game: Game, cards: Sequence[int]) -> str:
    tables = game.tables
    names = [tables.card_name(c) if 0 <= c < tables.num_card_types else "a face-down card" for c in cards]
    return ", ".join(names) or "no card"


def _placement(game: Game, seat: int, action: PlaceFollower) -> tuple[str, str]:
    """A follower space as (group, label): the region and ``space 2: Senators 7, pay 3``; a faction field; the coin
    bowl."""
    tables = game.tables
    spec = tables.spaces[action.space]
    view = game.view(seat)
    comps = game.config.components
    if spec.kind is SpaceKind.COIN_BOWL:
        return "Coin bowl", explain.choice_detail(game, seat, action) or "the coin bowl"
    if spec.kind is SpaceKind.FACTION:
        assert spec.faction is not None
        holder = view.controller[spec.faction]
        held = "" if holder < 0 else " (yours)" if holder == seat else f" (P{holder})"
        return "Faction fields", f"{comps.factions[spec.faction].name}, space {spec.slot + 1}{held}"
    assert spec.region is not None
    region = spec.region
    label = f"space {spec.slot + 1}" if len(tables.region_spaces[region]) > 1 else "its space"
    fields = view.board[region] if region < len(view.board) else ()
    if region in (Region.THERMAE, Region.FORUM) and spec.slot < len(fields):
        label += f": {_card_names(game, fields[spec.slot])}, pay {comps.region(region).numbers.get('cost', 0)}"
    elif region is Region.CURIA and spec.slot < len(fields):
        label += f": {_card_names(game, fields[spec.slot])}"
    elif region is Region.CATACOMBS:
        prices = comps.region(region).prices
        label += f": pay {prices[spec.slot]}" if spec.slot < len(prices) else ""
    return REGION_NAMES[region], label


def _entries(game: Game, seat: int, legal: Sequence[Action]) -> tuple[str, list[tuple[str | None, str]]]:
    """The heading of the choices and each choice as (group, label): choices of one group share a line (or a few),
    a choice of group None has a line of its own."""
    pending = game.pending
    tables = game.tables
    if legal and all(isinstance(a, PlaceFollower) and 0 <= a.space < len(tables.spaces) for a in legal):
        return "Place a follower on:", [_placement(game, seat, a) for a in legal if isinstance(a, PlaceFollower)]
    verb = DECISIONS[pending.kind].card_verb if pending is not None else ""
    entries: list[tuple[str | None, str]] = []
    cards = 0
    for action in legal:
        words = explain.choice_words(game, seat, action)
        if isinstance(action, PickCard) and 0 <= action.card < tables.num_card_types:
            name = tables.card_name(action.card)
            if name in words:
                cards += 1
                entries.append(("", words[words.index(name) :]))
                continue
        entries.append((None, words))
    if cards < 2:  # a card or none: each choice in its own words
        return "", [(None, explain.choice_words(game, seat, a)) for a in legal]
    heading = (verb or "choose").rstrip(":").capitalize() + ":"
    return heading, entries


def choice_lines(game: Game, seat: int, legal: Sequence[Action], width: int) -> list[str]:
    """The legal choices numbered 1..k in their order, grouped compactly for ``width`` columns: a heading, then per
    group (a region, the faction fields, the cards) the choices side by side in columns; other choices one a line
    (:func:`fit` wraps a long one under its words). Their costs and effects are left to the ``d N`` command."""
    heading, entries = _entries(game, seat, legal)
    lines = [heading] if heading else []
    groups = [g for g, _ in entries if g]
    name_width = max(map(len, groups), default=0)
    at = 0
    while at < len(entries):
        group = entries[at][0]
        if group is None:
            lines.append(f"  {at + 1:>2}. {entries[at][1]}")  # wrapped under its words when printed (fit)
            at += 1
            continue
        end = at
        while end < len(entries) and entries[end][0] == group:
            end += 1
        items = [f"{n + 1:>2}. {label}" for n, (_, label) in enumerate(entries[at:end], at)]
        lines += _packed(group, name_width, items, width)
        at = end
    return lines


def _packed(group: str, name_width: int, items: list[str], width: int) -> list[str]:
    """``items`` in columns after the group's name (or under it when the names take half the width)."""
    lead = f"  {group:<{name_width}}  " if group else "  "
    lines: list[str] = []
    if len(lead) > width // 2:
        lines.append(f"  {group}")
        lead = "    "
    room = width - len(lead)
    cell = max(map(len, items)) + _GAP
    columns = max(1, (room + _GAP) // cell)
    if cell - _GAP > room:  # an item longer than the room: one a line, wrapped
        for item in items:
            lines += fit(lead + item, width)
            lead = " " * len(lead)
        return lines
    for row in range(0, len(items), columns):
        cells = items[row : row + columns]
        lines.append((lead + "".join(c.ljust(cell) for c in cells)).rstrip())
        lead = " " * len(lead)
    return lines
