"""Playing one scheduled game between agents, with forfeits: :func:`play_game`.

An agent forfeits the game when :meth:`~agents.base.Agent.act` (or ``reset``)
raises an ``Exception`` (reason ``"raised"``), returns something that is not
one of the legal choices (``"illegal"``) or takes longer than the per-move time
limit (``"timeout"``). The limit is enforced hard with ``SIGALRM`` when the
game runs in the main thread of its process (a hanging agent is interrupted
at the limit), and by measuring every call in any case. A forfeit ends the
game: see :class:`~training.tournament.records.GameRecord` for how it is scored.

Agents are built once per process and spec (seat copies of a spec are separate
instances) and ``reset`` before every game, so models load once per worker.
"""

from __future__ import annotations

import importlib
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
from agents.specs import make_agent
from training.tournament.records import Forfeit, GameRecord, SeatTiming
from training.tournament.schedule import ScheduledGame
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text
from tribune_env.envs.infoset import InfoSet

_AGENTS: dict[tuple[str, int], Agent] = {}
_IMPORTED: set[str] = set()


@dataclass(frozen=True)
class PlaySettings:
    """What a worker needs besides the scheduled game: game options, per-move limit, modules defining the agents."""

    options: dict[str, Any]
    time_limit: float | None
    modules: tuple[str, ...] = field(default=())


class _Timeout(BaseException):
    """Raised into an agent call by SIGALRM; a BaseException so that ``except Exception`` in agents lets it pass."""


class _Forfeited(Exception):
    def __init__(self, seat: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.forfeit = Forfeit(seat, reason, message)


# -- agents ---------------------------------------------------------------------


def seat_agents(seating: Sequence[str]) -> list[Agent]:
    """The cached agents of a seating: the k-th copy of a spec at the table is that spec's k-th instance."""
    copies: Counter[str] = Counter()
    agents: list[Agent] = []
    for spec in seating:
        key = (spec, copies[spec])
        copies[spec] += 1
        if key not in _AGENTS:
            _AGENTS[key] = make_agent(spec, 0)
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


def agent_modules(specs: Iterable[str]) -> tuple[str, ...]:
    """Build every spec once (raises ``AgentError`` for a bad one) and name the modules of their classes.

    Worker processes import these modules first, so agents registered outside
    the built-ins (in an importable module) work there too.
    """
    modules: list[str] = []
    for spec in dict.fromkeys(specs):
        agent = make_agent(spec, 0)
        try:
            module = type(agent).__module__
        finally:
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
    """Runs agent calls under the per-move limit (hard via SIGALRM where possible) and times them."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.hard = (
            limit is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
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

    def call(self, fn: Callable[[], object]) -> tuple[object, BaseException | None, float]:
        """``(result, exception, seconds)`` of ``fn()``; the exception is an ``Exception`` or a timeout."""
        start = perf_counter()
        result: object = None
        error: BaseException | None = None
        try:
            if self.hard:
                self._armed = True
                signal.setitimer(signal.ITIMER_REAL, float(self.limit or 0))
            try:
                result = fn()
            finally:
                if self.hard:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    self._armed = False
        except (Exception, _Timeout) as exc:
            error = exc
        return result, error, perf_counter() - start

    def check(self, seat: int, what: str, error: BaseException | None, seconds: float) -> None:
        """Raise the forfeit that a call's outcome deserves, if any (an overrun first)."""
        if isinstance(error, _Timeout) or (self.limit is not None and seconds > self.limit):
            raise _Forfeited(seat, "timeout", f"{what} took {seconds:.3f} s (limit {self.limit:g} s)")
        if error is not None:
            raise _Forfeited(seat, "raised", f"{what} raised {_describe(error)}")


def _describe(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {last.filename}:{last.lineno} in {last.name})"
    return text[:1000]


def _is_legal(choice: object, legal: Sequence[Action]) -> bool:
    """Whether ``choice`` is one of ``legal`` (``in`` compares by identity first, then by ``==``)."""
    try:
        return choice in legal
    except Exception:  # an object whose == raises
        return False


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
    allowed = tuple(legal)  # the agent may mutate its list
    info = InfoSet(game, seat)
    choice, error, seconds = deadline.call(lambda: agent.act(view, legal, info))
    clock.add(seat, seconds)
    deadline.check(seat, "act()", error, seconds)
    if not _is_legal(choice, allowed):
        kind = game.pending.kind.name if game.pending is not None else "?"
        message = f"act() returned {choice!r:.200}, not one of the {len(allowed)} legal {kind} choices"
        raise _Forfeited(seat, "illegal", message)
    return choice  # type: ignore[return-value]  # checked: it is one of the legal actions


def _reset(agents: Sequence[Agent], config: GameConfig, seeds: Sequence[int], deadline: _Deadline) -> None:
    for seat, (agent, seed) in enumerate(zip(agents, seeds, strict=True)):
        _, error, seconds = deadline.call(lambda a=agent, s=seat, x=seed: a.reset(s, config, x))  # type: ignore[misc]
        deadline.check(seat, "reset()", error, seconds)


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


def play_game(scheduled: ScheduledGame, options: Mapping[str, Any], time_limit: float | None) -> GameRecord:
    """Play ``scheduled`` to its end or to the first forfeit and return its record.

    ``options`` are :class:`GameConfig` keyword options; ``time_limit`` is the
    per-move limit in seconds (``None``: none). ``decisions`` counts the
    actions played; a forfeiting move is timed but not played.
    """
    start = perf_counter()
    config = GameConfig(**options)
    agents = seat_agents(scheduled.seating)
    clock = _Clock(config.players)
    game = Game.new(config, seed=scheduled.seed)
    actions: list[str] = []
    forfeit: Forfeit | None = None
    with _Deadline(time_limit) as deadline:
        try:
            _reset(agents, config, scheduled.agent_seeds, deadline)
            while not game.is_over:
                seat = game.current_seat
                action = _decide(agents[seat], game, seat, deadline, clock)
                game.apply(action)
                actions.append(action_text(action))
        except _Forfeited as exc:
            forfeit = exc.forfeit
            if forfeit.reason != "illegal":  # interrupted or failed inside: maybe broken, build it afresh next time
                _discard(agents[forfeit.seat])
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
        timings=clock.timings(),
        forfeit=forfeit,
        seconds=perf_counter() - start,
        agent_seeds=scheduled.agent_seeds,
    )


def play_in_worker(scheduled: ScheduledGame, settings: PlaySettings) -> GameRecord:
    """Worker entry point: import the agents' modules, then :func:`play_game`."""
    import_modules(settings.modules)
    return play_game(scheduled, settings.options, settings.time_limit)
