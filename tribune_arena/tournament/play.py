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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from agents.specs import check_specs_support, make_agent
from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.supervision import (
    QUIET,
    Clock,
    Deadline,
    Forfeited,
    Monitor,
    decide,
    discard,
    reset_agents,
    seat_agents,
)
from tribune_arena.tournament.schedule import ScheduledGame
from tribune_env.data import Components
from tribune_env.engine.config import GameConfig, config_from_dict
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text, parse_action

_IMPORTED: set[str] = set()


@dataclass(frozen=True)
class PlaySettings:
    """What a worker needs besides the scheduled game: the game's options (their dictionary form, as records store
    them), the per-move limit, the modules defining the agents and the component set the options are read with
    (``None``: the packaged one)."""

    options: dict[str, Any]
    time_limit: float | None
    modules: tuple[str, ...] = field(default=())
    components: Components | None = None


# -- agents ---------------------------------------------------------------------


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


# -- one game ---------------------------------------------------------------------


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
    monitor: Monitor = QUIET,
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
    clock = Clock(config.players)
    game = Game.new(config, seed=scheduled.seed)
    actions: list[str] = []
    forfeit: Forfeit | None = None
    with Deadline(time_limit, monitor) as deadline:
        try:
            reset_agents(agents, config, scheduled.agent_seeds, deadline)
            while not game.is_over:
                seat = game.current_seat
                action = decide(agents[seat], game, seat, deadline, clock)
                game.apply(action)
                actions.append(action_text(action))
                monitor.played(actions[-1])
        except Forfeited as exc:
            forfeit = exc.forfeit
            if forfeit.reason != "illegal":  # interrupted or failed inside: maybe broken, build it afresh next time
                discard(agents[forfeit.seat])
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
