"""One home for a supervised agent call (issue 36): what tournaments, the web app's bots and the benchmark share.

* The agents of a process, built once per spec and seat copy (:func:`seat_agents`), dropped after a failure
  (:func:`discard`), closed at the end (:func:`close_agents`).
* An agent call under the per-move limit (:class:`Deadline`: ``SIGALRM`` in the main thread interrupts ordinary
  Python; every call is measured), the decision times per seat (:class:`Clock`), and **the forfeit rules**, once:
  :func:`decide` and :func:`reset_agents` raise :class:`Forfeited` with reason ``"timeout"`` (over the limit),
  ``"raised"`` (the agent raised anything, ``SystemExit`` included) or ``"illegal"`` (not one of the legal choices,
  never by the agent's own ``==``).
* Worker processes watched from outside: the board in shared memory on which a worker shows the call it runs
  (:class:`Board`, read as a :class:`Call`; its layout :data:`KIND` ... :data:`TIMES`), the grace past a limit after
  which the watcher kills the worker (:data:`KILL_GRACE`), a worker that exits with its parent
  (:func:`watch_parent`) and its ending (:func:`end_worker`, :func:`exit_text`).

:mod:`tribune_arena.tournament.play` plays a scheduled game with these, :mod:`tribune_arena.tournament.workers` runs
games in watched worker processes, :mod:`tribune_arena.human.web.bots` runs the web app's bot decisions in them, and
the benchmark plays through :func:`~tribune_arena.tournament.play.play_game`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import monotonic, perf_counter
from types import FrameType
from typing import Any

from agents.base import Agent
from agents.specs import make_agent
from tribune_arena.records import Forfeit, SeatTiming
from tribune_env.engine import actions as engine_actions
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.flow import listed_choice
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

#: the kinds of agent call a :class:`Monitor` hears of, and their names in forfeit messages
BUILD, RESET, ACT = 1, 2, 3
CALL_NAMES = {BUILD: "building the agent", RESET: "reset()", ACT: "act()"}
#: a limit on building an agent (models load), as a multiple of the per-move limit, and at least
BUILD_FACTOR, BUILD_MINIMUM = 10.0, 60.0


class Monitor:
    """How a supervising process follows a game as it is played; this base follows nothing."""

    def calling(self, seat: int, kind: int, limit: float | None) -> None:
        """An agent call of ``kind`` (:data:`BUILD`, :data:`RESET`, :data:`ACT`) for ``seat`` starts now."""

    def returned(self, seat: int, kind: int, seconds: float) -> None:
        """That call is over (returned or raised) after ``seconds``."""

    def played(self, text: str) -> None:
        """The action with notation ``text`` was applied to the game."""


QUIET = Monitor()


class AgentTimeout(BaseException):
    """Raised into an agent call by SIGALRM; a BaseException so that ``except Exception`` in agents lets it pass."""


class Forfeited(Exception):
    """A seat lost the game by forfeit (:class:`~tribune_arena.records.Forfeit`); pickles and copies whole."""

    def __init__(self, seat: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.forfeit = Forfeit(seat, reason, message)

    def __reduce__(self) -> tuple[type[Forfeited], tuple[int, str, str]]:
        f = self.forfeit
        return type(self), (f.seat, f.reason, f.message)


# -- agents ---------------------------------------------------------------------


_AGENTS: dict[tuple[str, int], Agent] = {}


def seat_agents(seating: Sequence[str], monitor: Monitor = QUIET, limit: float | None = None) -> list[Agent]:
    """The cached agents of a seating: the k-th copy of a spec at the table is that spec's k-th instance.

    Building one is reported to ``monitor`` as a call with the per-move ``limit`` scaled for loading models.
    """
    build_limit = None if limit is None else max(BUILD_MINIMUM, BUILD_FACTOR * limit)
    copies: Counter[str] = Counter()
    agents: list[Agent] = []
    for seat, spec in enumerate(seating):
        key = (spec, copies[spec])
        copies[spec] += 1
        if key not in _AGENTS:
            start = perf_counter()
            monitor.calling(seat, BUILD, build_limit)
            try:
                _AGENTS[key] = make_agent(spec, 0)
            finally:
                monitor.returned(seat, BUILD, perf_counter() - start)
        agents.append(_AGENTS[key])
    return agents


def close_agent(agent: Agent) -> None:
    try:
        agent.close()
    except Exception:
        pass  # closing is best effort


def discard(agent: Agent) -> None:
    """Close ``agent`` and drop it from the cache, so that the next game builds it afresh."""
    for key, cached in list(_AGENTS.items()):
        if cached is agent:
            del _AGENTS[key]
    close_agent(agent)


def close_agents() -> None:
    """Close and forget every cached agent of this process."""
    agents = list(_AGENTS.values())
    _AGENTS.clear()
    for agent in agents:
        close_agent(agent)


# -- the per-move limit ------------------------------------------------------------


class Deadline:
    """Runs agent calls under the per-move limit (hard via SIGALRM where possible), times them, tells the monitor."""

    def __init__(self, limit: float | None, monitor: Monitor = QUIET) -> None:
        self.limit = limit
        self.monitor = monitor
        main = threading.current_thread() is threading.main_thread()
        self.hard = limit is not None and hasattr(signal, "setitimer") and main
        # a real Ctrl-C reaches the main thread only, never a worker (it ignores SIGINT): elsewhere it is the agent's
        self.ctrl_c = main and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
        self._armed = False
        self._previous: Any = None

    def __enter__(self) -> Deadline:
        if self.hard:
            self._previous = signal.signal(signal.SIGALRM, self._fire)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.hard:
            self._armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL if self._previous is None else self._previous)

    def _fire(self, signum: int, frame: FrameType | None) -> None:
        if self._armed:
            self._armed = False
            raise AgentTimeout

    def call(self, seat: int, kind: int, fn: Callable[[], object]) -> tuple[object, AgentTimeout | str | None, float]:
        """``(result, problem, seconds)`` of the agent call ``fn()``: the problem is a timeout or what it raised."""
        start = perf_counter()
        result: object = None
        problem: AgentTimeout | str | None = None
        self.monitor.calling(seat, kind, self.limit)
        try:
            result = self._run(fn)
        except AgentTimeout as exc:
            problem = exc
        except BaseException as exc:  # SystemExit, KeyboardInterrupt, GeneratorExit: the agent's doing
            if isinstance(exc, KeyboardInterrupt) and self.ctrl_c:
                raise  # the user's Ctrl-C
            problem = describe_error(exc)  # while the supervisor still watches: the agent's __str__ may hang
        finally:
            self.monitor.returned(seat, kind, perf_counter() - start)
        return result, problem, perf_counter() - start

    def _run(self, fn: Callable[[], object]) -> object:
        if not self.hard:
            return fn()
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, float(self.limit or 0))
        try:
            return fn()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self._armed = False

    def check(self, seat: int, what: str, problem: AgentTimeout | str | None, seconds: float) -> None:
        """Raise the forfeit that a call's outcome deserves, if any (an overrun first)."""
        if isinstance(problem, AgentTimeout) or (self.limit is not None and seconds > self.limit):
            raise Forfeited(seat, "timeout", f"{what} took {seconds:.3f} s (limit {self.limit:g} s)")
        if problem is not None:
            raise Forfeited(seat, "raised", f"{what} raised {problem}")


def describe_error(error: BaseException) -> str:
    """One line naming an agent's exception and where it was raised (its ``__str__`` may fail: then without)."""
    try:
        detail = str(error)
    except BaseException:  # an agent's exception with a broken __str__
        detail = "(its message could not be printed)"
    text = f"{type(error).__name__}: {detail}"
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {last.filename}:{last.lineno} in {last.name})"
    return text[:1000]


TRUSTED_TYPES = (type(None), bool, int, float, str)


def shown_choice(choice: object) -> str:
    """``repr`` of an engine action or a plain value; for any other object only its type (its repr is the agent's)."""
    if type(choice) in TRUSTED_TYPES or type(choice).__module__ == engine_actions.__name__:
        try:
            return f"{choice!r:.200}"
        except ValueError:  # an int too long to print
            pass
    return re.sub(r" at 0x[0-9a-fA-F]+", "", object.__repr__(choice))


# -- one game's decisions ------------------------------------------------------------


class Clock:
    """Decision times per seat."""

    def __init__(self, players: int) -> None:
        self.moves = [0] * players
        self.total = [0.0] * players
        self.longest = [0.0] * players

    def add(self, seat: int, seconds: float) -> None:
        self.moves[seat] += 1
        self.total[seat] += seconds
        self.longest[seat] = max(self.longest[seat], seconds)

    def timings(self) -> tuple[SeatTiming, ...]:
        return tuple(SeatTiming(*t) for t in zip(self.moves, self.total, self.longest, strict=True))


def decide(agent: Agent, game: Game, seat: int, deadline: Deadline, clock: Clock) -> Action:
    """The agent's choice for the pending decision of ``seat``; raises :class:`Forfeited`."""
    view = game.view(seat)
    legal = game.legal_actions()
    allowed = list(legal)  # the agent may mutate its list
    info = InfoSet(game, seat)
    choice, error, seconds = deadline.call(seat, ACT, lambda: agent.act(view, legal, info))
    clock.add(seat, seconds)
    deadline.check(seat, "act()", error, seconds)
    action = listed_choice(choice, allowed)  # never by the agent's ==
    if action is None:
        kind = game.pending.kind.name if game.pending is not None else "?"
        message = f"act() returned {shown_choice(choice)}, not one of the {len(allowed)} legal {kind} choices"
        raise Forfeited(seat, "illegal", message)
    return action


def reset_agents(agents: Sequence[Agent], config: GameConfig, seeds: Sequence[int], deadline: Deadline) -> None:
    for seat, (agent, seed) in enumerate(zip(agents, seeds, strict=True)):
        call = lambda a=agent, s=seat, x=seed: a.reset(s, config, x)  # noqa: E731
        _, problem, seconds = deadline.call(seat, RESET, call)
        deadline.check(seat, "reset()", problem, seconds)


# -- worker processes: the shared board the supervisor watches -----------------------------


#: seconds past an agent call's limit before the runner kills its worker (the alarm inside gets the first chance)
KILL_GRACE = 0.25
#: how often (seconds) the runner looks at the running calls when a limit is set
POLL = 0.05
#: the shared board: kind of the running call (0: none), its seat, start (monotonic), limit (0: none), the last seat
#: called in this game (-1: none yet), then (moves, total, longest) per seat
KIND, SEAT, START, LIMIT, LAST, TIMES = range(6)
MAX_SEATS = 8
#: seconds a new worker process may take to start (its agents' modules are imported later, while it plays)
START_LIMIT = 60.0
BOARD_SIZE = TIMES + 3 * MAX_SEATS


def end_worker(process: Any, conn: Any, graceful: bool) -> None:
    """End a worker process and close its pipe: let it close its agents (``graceful``: it is sent ``None`` and given
    a few seconds) or kill it. Either may be ``None`` (nothing to end)."""
    if process is not None:
        if graceful and process.is_alive() and conn is not None:
            with contextlib.suppress(OSError):
                conn.send(None)
            process.join(timeout=5)
        if process.is_alive():
            process.kill()
        process.join()
    if conn is not None:
        conn.close()


class Board(Monitor):
    """The worker's side of the shared board and of the action log (the runner empties both before each game)."""

    def __init__(self, board: Any, log: str) -> None:
        self.board = memoryview(board).cast("B").cast("d")  # faster to write than the ctypes array
        self.fd = os.open(log, os.O_WRONLY | os.O_APPEND)  # appends after the runner's truncation

    def calling(self, seat: int, kind: int, limit: float | None) -> None:
        board = self.board
        board[START] = monotonic()
        board[LIMIT] = limit or 0.0
        board[SEAT] = board[LAST] = float(seat)
        board[KIND] = float(kind)  # written last: the call is now visible

    def returned(self, seat: int, kind: int, seconds: float) -> None:
        board = self.board
        board[KIND] = 0.0
        if kind == ACT and seat < MAX_SEATS:
            at = TIMES + 3 * seat
            board[at] += 1
            board[at + 1] += seconds
            board[at + 2] = max(board[at + 2], seconds)

    def played(self, text: str) -> None:
        os.write(self.fd, text.encode() + b"\n")


def watch_parent() -> None:
    """Exit this worker when the runner dies (even by SIGKILL), instead of waiting for work forever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        if hasattr(signal, "pthread_sigmask"):  # signals (the move timer) belong to the main thread
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="tribune-parent-watch", daemon=True).start()


@dataclass(frozen=True)
class Call:
    """An agent call as the runner saw it on the board."""

    kind: int
    seat: int
    start: float
    limit: float

    @property
    def name(self) -> str:
        return CALL_NAMES.get(self.kind, "an agent call")

    def overdue(self, now: float) -> bool:
        return self.limit > 0 and now - self.start > self.limit + KILL_GRACE


def exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-code).name}"
    return f"exited with code {code}"
