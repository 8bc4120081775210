"""``tribune replay``: step through a stored game's event log with the text board.

:func:`replay_steps` re-plays a :class:`~tribune_arena.records.GameRecord`
decision by decision from its config and seed; :func:`replay_game` does it in
one go and returns the finished :class:`~tribune_env.engine.game.Game`. Both
raise :class:`ReplayError` when the stored game does not replay (for example a
different component set or engine version): an action that is not legal, a
game that ends too early or too late, or final scores that differ.

:class:`Stepper` prints a replay, whole or interactively, and :func:`run` is
the command (``tribune replay RESULTS.sqlite --game ID``, ``--list``). With
``--html FILE`` it writes the game as one self-contained HTML page instead
(:mod:`tribune_arena.replay.html`: the drawn board at every decision, the log,
back/forward, a slider, arrow keys, a jump to a round, the perspective of
everything or of one seat, the final scores and a score-by-round chart; it
opens from disk with no network, and holds the whole game: a seat's
perspective hides the rest on screen only); ``--open`` opens the page in
the default browser (a temporary file without ``--html``); ``--seat`` picks
the perspective it starts with.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from tribune_arena.human.explain import person_text
from tribune_arena.human.terminal import LineSource
from tribune_arena.records import GameRecord, forfeit_headline, printable
from tribune_arena.replay.words import board_text, event_line, round_header
from tribune_env.data import Components
from tribune_env.engine.config import RuleSet
from tribune_env.engine.errors import TribuneError
from tribune_env.engine.game import Game
from tribune_env.engine.names import config_text, decision_name
from tribune_env.engine.notation import parse_action
from tribune_env.engine.state import Event


class ReplayError(ValueError):
    """A stored game that does not replay; the message names the game and the decision."""


@dataclass(frozen=True)
class Step:
    """One decision of a replay, after it was applied.

    ``number`` counts decisions from 1 (0 is the setup before the first
    decision, with ``seat`` -1 and empty ``kind``/``action``); ``events`` are the
    log lines it produced; ``game`` is the live game (it moves on with the
    next step, so read it before asking for the next one).
    """

    number: int
    seat: int
    kind: str
    action: str
    description: str
    events: tuple[Event, ...]
    game: Game


def _new_game(record: GameRecord, components: Components | None) -> Game:
    try:
        return Game.new(record.game_config(components), seed=record.seed)
    except ValueError as exc:
        raise ReplayError(f"game {record.game_id}: stored config {record.config} does not make a game: {exc}") from None


def replay_steps(record: GameRecord, components: Components | None = None) -> Iterator[Step]:
    """Yield step 0 (the setup) and then one :class:`Step` per stored action.

    After the last step the game is checked against the record (over, unless
    it was forfeited; same scores); :class:`ReplayError` otherwise.
    """
    game = _new_game(record, components)
    gid = record.game_id
    seen = len(game.events)
    yield Step(0, -1, "", "", "", tuple(game.events), game)
    for number, text in enumerate(record.actions, 1):
        pending = game.pending
        if pending is None:
            raise ReplayError(
                f"game {gid}: the game ended after decision {number - 1} but {len(record.actions)} are stored; "
                "the stored game does not replay (different components or engine version?)"
            )
        try:
            action = parse_action(text)
            description = game.describe(action)
            game.apply(action)
        except (TribuneError, ValueError) as exc:
            raise ReplayError(
                f"game {gid}: decision {number} (P{pending.seat} {pending.kind.key}) {text!r} does not replay: {exc}; "
                "the stored game does not replay (different components or engine version?)"
            ) from None
        events = tuple(game.events[seen:])
        seen = len(game.events)
        yield Step(number, pending.seat, pending.kind.key, text, description, events, game)
    _check_end(record, game)


def _check_end(record: GameRecord, game: Game) -> None:
    gid = record.game_id
    if record.forfeit is None and not game.is_over:
        raise ReplayError(
            f"game {gid}: the stored actions end before the game does (round {game.round}, waiting for "
            f"P{game.current_seat}); the stored game does not replay"
        )
    if tuple(game.scores()) != tuple(record.scores):
        raise ReplayError(
            f"game {gid}: replayed scores {game.scores()} differ from the stored scores {list(record.scores)}; "
            "the stored game does not replay (different components or engine version?)"
        )


def replay_game(record: GameRecord, components: Components | None = None) -> Game:
    """Re-play ``record`` and return the final game; raises :class:`ReplayError` if it does not replay."""
    game: Game | None = None
    for step in replay_steps(record, components):
        game = step.game
    assert game is not None  # step 0 is always yielded
    return game


# -- printing ---------------------------------------------------------------------

GAME_KINDS = {
    RuleSet.BASE: "base game",
    RuleSet.EXPANSION: "expansion game",
    RuleSet.BRUTII: "expansion game with the Brutii",
}
"""How a replay names the games of each rule set."""
STEP_HELP = "Enter: next decision, a number N: jump ahead N decisions, b: board, q: quit, ?: this help"


class Stepper:
    """Prints a replay to ``out``: the log with round headers, boards and the result.

    With ``seat`` only what that seat may read is shown (log lines, the board
    as it sees it, and the choices of other seats are not named).
    With ``board`` the board is printed whenever a new round starts.
    The record's own strings (seating names, the forfeit, the action texts) are printed with their control
    characters escaped (:func:`~tribune_arena.records.printable`): a results file cannot drive the terminal.
    """

    def __init__(
        self,
        record: GameRecord,
        out: TextIO,
        seat: int | None = None,
        board: bool = False,
        components: Components | None = None,
    ) -> None:
        if seat is not None and not 0 <= seat < record.players:
            raise ValueError(f"--seat must be in 0..{record.players - 1}, got {seat}")
        self.record = record
        self.out = out
        self.seat = seat
        self.board = board
        self.components = components
        self._round = -1
        self._board_round = 1

    def _print(self, text: str = "") -> None:
        print(text, file=self.out)

    def _header(self) -> None:
        r = self.record
        seating = ", ".join(f"P{s} {self._name(s)}" for s in range(r.players))
        self._print(f"Game {r.game_id} (deal {r.deal}, seed {r.seed}): {seating}")
        self._print(f"{len(r.actions)} decisions, {r.rounds} rounds; {self._options()}")
        if self.seat is not None:
            self._print(f"Showing what P{self.seat} ({self._name(self.seat)}) may read.")

    def _options(self) -> str:
        """The game's options in words (:func:`~tribune_env.engine.names.config_text`); the rule set alone when the
        stored options make no game (the replay then stops with its error)."""
        try:
            return config_text(self.record.game_config(self.components))
        except ValueError:
            return GAME_KINDS[self.record.rules]

    def _name(self, seat: int) -> str:
        """Seat ``seat``'s agent spec as stored, safe to print."""
        return printable(self.record.seating[seat])

    def _events(self, game: Game, events: Sequence[Event]) -> None:
        for event in events:
            if self.seat is not None and event.private_to not in (-1, self.seat):
                continue
            if event.round != self._round:
                self._print(round_header(event.round))
                self._round = event.round
            self._print(event_line(game, event))

    def _show(self, step: Step, decisions: bool) -> None:
        if decisions and step.number:
            who = f"P{step.seat} ({self._name(step.seat)})"
            kind = decision_name(step.kind)
            if self.seat is None or self.seat == step.seat:
                self._print(f"#{step.number} {who}, {kind}: {person_text(step.game, step.description)}")
            else:
                self._print(f"#{step.number} {who} decides ({kind})")
        self._events(step.game, step.events)
        if self.board and step.game.round > self._board_round and not step.game.is_over:
            self._board_round = step.game.round
            self._print(f"\nBoard at the start of round {step.game.round}:")
            self._print(board_text(step.game, self.seat))

    def _result(self, game: Game) -> None:
        r = self.record
        self._print()
        self._print(board_text(game, self.seat))
        self._print()
        for s in range(r.players):
            won = " (winner)" if s in r.winners else ""
            self._print(f"  P{s} {self._name(s)}: score {r.scores[s]}, rank {r.ranks[s]}{won}")
        winners = ", ".join(f"P{s} {self._name(s)}" for s in r.winners) or "none"
        self._print(f"Winner(s): {winners}" + (" (truncated at the round limit)" if r.truncated else ""))
        if r.forfeit is not None:
            f = r.forfeit
            headline, place = forfeit_headline(f.message)
            self._print(f"Forfeit: P{f.seat} {self._name(f.seat)} ({printable(f.reason)}): {printable(headline)}")
            if place:  # for the agent's developer, apart from the headline
                self._print(f"  (raised at {printable(place)})")

    def print_all(self) -> None:
        """The whole game: header, log, the final board and the result; raises :class:`ReplayError`."""
        self._header()
        game: Game | None = None
        for step in replay_steps(self.record, self.components):
            self._show(step, decisions=False)
            game = step.game
        assert game is not None
        self._result(game)

    def interactive(self, input_stream: LineSource) -> None:
        """Step through the game on commands read from ``input_stream`` (see :data:`STEP_HELP`).

        End of input quits like ``q``. Raises :class:`ReplayError`.
        """
        self._header()
        self._print(STEP_HELP)
        steps = replay_steps(self.record, self.components)
        step = next(steps)
        self._show(step, decisions=True)
        total = len(self.record.actions)
        while step.number < total:
            self.out.write(f"[{step.number}/{total}] > ")
            self.out.flush()
            line = input_stream.readline()
            command = line.strip().lower()
            if not line or command in ("q", "quit"):
                self._print(f"\nStopped after decision {step.number} of {total}.")
                return
            if command in ("b", "board"):
                self._print(board_text(step.game, self.seat))
                continue
            if command in ("?", "h", "help"):
                self._print(STEP_HELP)
                continue
            ahead = 1 if command == "" else _positive(command)
            if ahead is None:
                self._print(f"Unknown command {line.strip()!r}. {STEP_HELP}")
                continue
            for _ in range(min(ahead, total - step.number)):
                step = next(steps)
                self._show(step, decisions=True)
        for _ in steps:  # runs the end-of-game check
            pass
        self._result(step.game)


def _positive(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value > 0 else None
