"""Playing one scheduled game between agents, with forfeits: :func:`play_game`.

An agent forfeits the game when :meth:`~agents.base.Agent.act` (or ``reset``)
raises anything, ``SystemExit`` and ``KeyboardInterrupt`` included (reason
``"raised"``), returns something that is not one of the legal choices
(``"illegal"``: the same object, or one of exactly the same type and field
values; never the agent's own ``==``) or takes longer than the per-move time
limit (``"timeout"``). In the game's own process the limit is enforced with
``SIGALRM`` when the game runs in the main thread (ordinary Python code is
interrupted at the limit), and by measuring every call in any case; the
runner's supervisor (:mod:`~tribune_arena.tournament.workers`) follows the calls
through a :class:`Monitor` and kills a worker whose agent ignores the alarm or
dies (reason ``"crashed"``). A forfeit ends the game: see
:class:`~tribune_arena.records.GameRecord` for how it is scored.

Agents are built once per process and spec (seat copies of a spec are separate
instances) and ``reset`` before every game, so models load once per worker.
"""

from __future__ import annotations

import importlib
import re
import signal
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from types import FrameType
from typing import Any

from agents.base import Agent
from agents.specs import check_specs_support, make_agent
from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.tournament.schedule import ScheduledGame
from tribune_env.data import Components
from tribune_env.engine import actions as engine_actions
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig, config_from_dict
from tribune_env.engine.flow import listed_choice
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.envs.infoset import InfoSet

_AGENTS: dict[tuple[str, int], Agent] = {}
_IMPORTED: set[str] = set()

#: the kinds of agent call a :class:`Monitor` hears of, and their names in forfeit messages
BUILD, RESET, ACT = 1, 2, 3
CALL_NAMES = {BUILD: "building the agent", RESET: "reset()", ACT: "act()"}
#: a limit on building an agent (models load), as a multiple of the per-move limit, and at least
_BUILD_FACTOR, _BUILD_MINIMUM = 10.0, 60.0


class Monitor:
    """How a supervising process follows a game as it is played; this base follows nothing."""

    def calling(self, seat: int, kind: int, limit: float | None) -> None:
        """An agent call of ``kind`` (:data:`BUILD`, :data:`RESET`, :data:`ACT`) for ``seat`` starts now."""

    def returned(self, seat: int, kind: int, seconds: float) -> None:
        """That call is over (returned or raised) after ``seconds``."""

    def played(self, text: str) -> None:
        """The action with notation ``text`` was applied to the game."""


_QUIET = Monitor()


@dataclass(frozen=True)
class PlaySettings:
    """What a worker needs besides the scheduled game: the game's options (their dictionary form, as records store
    them), the per-move limit, the modules defining the agents and the component set the options are read with
    (``None``: the packaged one)."""

    options: dict[str, Any]
    time_limit: float | None
    modules: tuple[str, ...] = field(default=())
    components: Components | None = None


class _Timeout(BaseException):
    """Raised into an agent call by SIGALRM; a BaseException so that ``except Exception`` in agents lets it pass."""


class _Forfeited(Exception):
    def __init__(self, seat: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.forfeit = Forfeit(seat, reason, message)


# -- agents ---------------------------------------------------------------------


def seat_agents(seating: Sequence[str], monitor: Monitor = _QUIET, limit: float | None = None) -> list[Agent]:
    """The cached agents of a seating: the k-th copy of a spec at the table is that spec's k-th instance.

    Building one is reported to ``monitor`` as a call with the per-move ``limit`` scaled for loading models.
    """
    build_limit = None if limit is None else max(_BUILD_MINIMUM, _BUILD_FACTOR * limit)
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


def _close(agent: Agent) -> None:
    try:
        agent.close()
    except Exception:
        pass  # closing is best effort


def _discard(agent: Agent) -> None:
    """Close ``agent`` and drop it from the cache, so that the next game builds it afresh."""
    for key, cached in list(_AGENTS.items()):
        if cached is agent:
            del _AGENTS[key]
    _close(agent)


def close_agents() -> None:
    """Close and forget every cached agent of this process."""
    agents = list(_AGENTS.values())
    _AGENTS.clear()
    for agent in agents:
        _close(agent)


def agent_modules(specs: Iterable[str], config: GameConfig) -> tuple[str, ...]:
    """Check that every spec plays the games ``config`` and name the modules of their agents' classes.

    An agent that does not play them (:meth:`~agents.base.Agent.supports`; with the Brutii every agent plays the
    Brutii seat in turn), like a bad spec, is an ``AgentError`` with that refusal
    (:func:`~agents.specs.check_specs_support`), so a tournament refuses it before any game. Worker processes
    import these modules first, so agents registered outside the built-ins (in an importable module) work there too.
    """
    check_specs_support(specs, config)
    modules: list[str] = []
    for spec in dict.fromkeys(specs):
        agent = make_agent(spec, 0)
        module = type(agent).__module__
        agent.close()
        if module not in modules:
            modules.append(module)
    return tuple(modules)


def import_modules(modules: Iterable[str]) -> None:
    """Import (once per process) the modules that register the agents."""
    for module in modules:
        if module not in _IMPORTED:
            importlib.import_module(module)
            _IMPORTED.add(module)


# -- the per-move limit ------------------------------------------------------------


class _Deadline:
    """Runs agent calls under the per-move limit (hard via SIGALRM where possible), times them, tells the monitor."""

    def __init__(self, limit: float | None, monitor: Monitor = _QUIET) -> None:
        self.limit = limit
        self.monitor = monitor
        main = threading.current_thread() is threading.main_thread()
        self.hard = limit is not None and hasattr(signal, "setitimer") and main
        # a real Ctrl-C reaches the main thread only, never a worker (it ignores SIGINT): elsewhere it is the agent's
        self.ctrl_c = main and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
        self._armed = False
        self._previous: Any = None

    def __enter__(self) -> _Deadline:
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
            raise _Timeout

    def call(self, seat: int, kind: int, fn: Callable[[], object]) -> tuple[object, _Timeout | str | None, float]:
        """``(result, problem, seconds)`` of the agent call ``fn()``: the problem is a timeout or what it raised."""
        start = perf_counter()
        result: object = None
        problem: _Timeout | str | None = None
        self.monitor.calling(seat, kind, self.limit)
        try:
            result = self._run(fn)
        except _Timeout as exc:
            problem = exc
        except BaseException as exc:  # SystemExit, KeyboardInterrupt, GeneratorExit: the agent's doing
            if isinstance(exc, KeyboardInterrupt) and self.ctrl_c:
                raise  # the user's Ctrl-C
            problem = _describe(exc)  # while the supervisor still watches: the agent's __str__ may hang
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

    def check(self, seat: int, what: str, problem: _Timeout | str | None, seconds: float) -> None:
        """Raise the forfeit that a call's outcome deserves, if any (an overrun first)."""
        if isinstance(problem, _Timeout) or (self.limit is not None and seconds > self.limit):
            raise _Forfeited(seat, "timeout", f"{what} took {seconds:.3f} s (limit {self.limit:g} s)")
        if problem is not None:
            raise _Forfeited(seat, "raised", f"{what} raised {problem}")


def _describe(error: BaseException) -> str:
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


_TRUSTED_TYPES = (type(None), bool, int, float, str)


def _shown(choice: object) -> str:
    """``repr`` of an engine action or a plain value; for any other object only its type (its repr is the agent's)."""
    if type(choice) in _TRUSTED_TYPES or type(choice).__module__ == engine_actions.__name__:
        try:
            return f"{choice!r:.200}"
        except ValueError:  # an int too long to print
            pass
    return re.sub(r" at 0x[0-9a-fA-F]+", "", object.__repr__(choice))


# -- one game ---------------------------------------------------------------------


class _Clock:
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


def _decide(agent: Agent, game: Game, seat: int, deadline: _Deadline, clock: _Clock) -> Action:
    """The agent's choice for the pending decision of ``seat``; raises :class:`_Forfeited`."""
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
        message = f"act() returned {_shown(choice)}, not one of the {len(allowed)} legal {kind} choices"
        raise _Forfeited(seat, "illegal", message)
    return action


def _reset(agents: Sequence[Agent], config: GameConfig, seeds: Sequence[int], deadline: _Deadline) -> None:
    for seat, (agent, seed) in enumerate(zip(agents, seeds, strict=True)):
        call = lambda a=agent, s=seat, x=seed: a.reset(s, config, x)  # noqa: E731
        _, problem, seconds = deadline.call(seat, RESET, call)
        deadline.check(seat, "reset()", problem, seconds)


def _outcome(game: Game, forfeit: Forfeit | None) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """``(scores, ranks, winners)``: the engine's at a normal end; after a forfeit, the others by score."""
    scores = tuple(game.scores())
    if forfeit is None:
        return scores, tuple(game.ranks()), tuple(game.winners)
    n = len(scores)
    others = [s for s in range(n) if s != forfeit.seat]
    ranks = [n if s == forfeit.seat else 1 + sum(scores[o] > scores[s] for o in others) for s in range(n)]
    best = max(scores[o] for o in others)
    return scores, tuple(ranks), tuple(o for o in others if scores[o] == best)


def play_game(
    scheduled: ScheduledGame,
    options: Mapping[str, Any],
    time_limit: float | None,
    monitor: Monitor = _QUIET,
    components: Components | None = None,
) -> GameRecord:
    """Play ``scheduled`` to its end or to the first forfeit and return its record.

    ``options`` are the game's options in their dictionary form
    (:func:`~tribune_env.engine.config.config_from_dict`, read with ``components``, default the packaged set;
    the record stores them as given); ``time_limit`` is the
    per-move limit in seconds (``None``: none). ``decisions`` counts the
    actions played; a forfeiting move is timed but not played. ``monitor``
    hears of every agent call and every action played.
    """
    start = perf_counter()
    config = config_from_dict(options, components)
    agents = seat_agents(scheduled.seating, monitor, time_limit)
    clock = _Clock(config.players)
    game = Game.new(config, seed=scheduled.seed)
    actions: list[str] = []
    forfeit: Forfeit | None = None
    with _Deadline(time_limit, monitor) as deadline:
        try:
            _reset(agents, config, scheduled.agent_seeds, deadline)
            while not game.is_over:
                seat = game.current_seat
                action = _decide(agents[seat], game, seat, deadline, clock)
                game.apply(action)
                actions.append(action_text(action))
                monitor.played(actions[-1])
        except _Forfeited as exc:
            forfeit = exc.forfeit
            if forfeit.reason != "illegal":  # interrupted or failed inside: maybe broken, build it afresh next time
                _discard(agents[forfeit.seat])
    return _record(scheduled, options, game, actions, clock.timings(), forfeit, perf_counter() - start)


def replayed_record(
    scheduled: ScheduledGame,
    options: Mapping[str, Any],
    actions: Sequence[str],
    timings: Sequence[SeatTiming],
    forfeit: Forfeit,
    seconds: float,
    components: Components | None = None,
) -> GameRecord:
    """The record of a game cut short by ``forfeit`` after ``actions``, rebuilt by replaying them (``options``
    and ``components`` as for :func:`play_game`).

    The runner uses it when a game's worker process was killed or died. Raises
    ``ValueError`` (or ``IllegalActionError``) if the actions do not replay.
    """
    game = Game.new(config_from_dict(options, components), seed=scheduled.seed)
    for text in actions:
        game.apply(parse_action(text))
    return _record(scheduled, options, game, list(actions), tuple(timings), forfeit, seconds)


def _record(
    scheduled: ScheduledGame,
    options: Mapping[str, Any],
    game: Game,
    actions: list[str],
    timings: tuple[SeatTiming, ...],
    forfeit: Forfeit | None,
    seconds: float,
) -> GameRecord:
    scores, ranks, winners = _outcome(game, forfeit)
    return GameRecord(
        game_id=scheduled.game_id,
        deal=scheduled.deal,
        seed=scheduled.seed,
        seating=scheduled.seating,
        config=dict(options),
        actions=tuple(actions),
        scores=scores,
        ranks=ranks,
        winners=winners,
        rounds=game.round,
        decisions=len(actions),
        truncated=forfeit is None and game.truncated,
        timings=timings,
        forfeit=forfeit,
        seconds=seconds,
        agent_seeds=scheduled.agent_seeds,
    )
