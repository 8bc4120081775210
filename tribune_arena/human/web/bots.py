"""The bots of ``tribune serve`` move in worker processes under a per-move time limit: :class:`BotPool`.

No agent runs in the server's process. Each bot decision goes to one of a few worker processes, which run it with
the machinery tournaments use (:mod:`tribune_arena.supervision`): an agent
is built once per spec and process (``seat_agents``, built under the tournament's building limit), its ``reset()``
and ``act()`` run under the per-move limit (``Deadline``: SIGALRM in the worker's main thread interrupts ordinary
Python), and every call is shown on a board in shared memory (``Board``) that the server watches: a call still
running :data:`~tribune_arena.supervision.KILL_GRACE` past its limit (an agent that swallows the alarm, or
hangs in native code) gets its process killed, as the tournament runner does, and a fresh worker serves the next
decision. A bot that fails, overruns or chooses an illegal action gets :func:`~tribune_arena.human.bot.bot_move`'s
fallback (the first legal choice) with what went wrong, through :class:`RemoteBot`.

Bots are stateless per decision: before each decision the agent is reset for its seat with
:func:`decision_seed` (its agent seed and the step), so what a bot plays depends only on its spec, its seed and the
position. A game restored after a restart therefore continues exactly as it would have, on whichever worker. (A
``cmd:`` bot sees each decision as a game of its own: ``game_over``, then ``reset``.)

A worker keeps the games it has seen (by id, at most :data:`_CACHED_GAMES`) and applies only the actions new since
its last decision; a game it does not hold is replayed from its seed.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import sys
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from time import monotonic
from typing import Any

from agents.base import Agent, InfoSet
from tribune_arena.supervision import (
    BOARD_SIZE,
    KIND,
    LIMIT,
    POLL,
    RESET,
    SEAT,
    START,
    START_LIMIT,
    Board,
    Call,
    Clock,
    Deadline,
    Forfeited,
    close_agents,
    decide,
    discard,
    end_worker,
    exit_text,
    seat_agents,
    watch_parent,
)
from tribune_arena.tournament.play import import_modules
from tribune_env.engine.actions import Action
from tribune_env.engine.config import config_from_dict
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.view import PlayerView

DEFAULT_BOT_SECONDS = 5.0
"""The default per-move limit of a bot in the web app (``tribune serve --bot-seconds``)."""
DEFAULT_BOT_WORKERS = 2
"""The default number of worker processes making bots' decisions (``tribune serve --bot-workers``)."""
MAX_BOT_SECONDS = 600.0
MAX_BOT_WORKERS = 32
_CACHED_GAMES = 32


def decision_seed(agent_seed: int, step: int) -> int:
    """The seed a bot is reset with before deciding at ``step`` (the number of actions played before it): 63 bits of
    a hash of both, so that a bot (a ``cmd:`` program sees its seed) cannot work back to the game's seed and deal
    the other seats' hands from it (issue 42, W12; it was ``agent_seed << 20 | step``)."""
    digest = hashlib.blake2b(f"tribune-bot:{agent_seed}:{step}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << 63) - 1)


class BotFailure(Exception):
    """A bot's decision that did not come back: the message says what happened (``repr`` is the message too, so
    that :func:`~tribune_arena.human.bot.bot_move`'s note reads as a sentence)."""

    def __repr__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Decision:
    """One bot decision to make: the game (id, options in ``config_to_dict`` form, seed, actions so far), the seat,
    the agent's spec and its seed for this decision, and the modules that register the agent."""

    game_id: str
    config: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    seat: int
    spec: str
    agent_seed: int
    modules: tuple[str, ...] = ()


# -- the worker side ---------------------------------------------------------------------


class _Games:
    """The games a worker has seen, each at the last position it decided on (with the actions that led there)."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, tuple[Game, tuple[str, ...]]] = OrderedDict()

    def at(self, decision: Decision) -> Game:
        """The game of ``decision`` at its position: the cached one moved on if its actions lead there, else a
        replay from the seed."""
        actions = decision.actions
        game, seen = self._games.pop(decision.game_id, (None, ()))
        if game is None or actions[: len(seen)] != seen:
            game, seen = Game.new(config_from_dict(decision.config), seed=decision.seed), ()
        for text in actions[len(seen) :]:
            game.apply(parse_action(text))
        self._games[decision.game_id] = (game, actions)
        while len(self._games) > _CACHED_GAMES:
            self._games.popitem(last=False)
        return game


def _answer(decision: Decision, games: _Games, monitor: Board, limit: float) -> tuple[str, str]:
    """``("ok", action text)``, or ``("failed", what the agent did)``; raises for what is not the agent's doing."""
    import_modules(decision.modules)
    game = games.at(decision)
    pending = game.pending
    if pending is None or pending.seat != decision.seat:
        raise ValueError(f"seat {decision.seat} has no decision at step {len(decision.actions)}")
    seat, config = decision.seat, game.config
    agent = seat_agents([decision.spec], monitor, limit)[0]
    with Deadline(limit, monitor) as deadline:
        try:
            _, problem, seconds = deadline.call(seat, RESET, lambda: agent.reset(seat, config, decision.agent_seed))
            deadline.check(seat, "reset()", problem, seconds)
            action = decide(agent, game, seat, deadline, Clock(config.players))
        except Forfeited as exc:
            if exc.forfeit.reason != "illegal":  # interrupted or failed inside: maybe broken, built afresh next time
                discard(agent)
            return "failed", exc.forfeit.message
    return "ok", action_text(action)


def serve(conn: Connection, board: Any, limit: float) -> None:
    """A worker's life: answer each :class:`Decision` received on ``conn`` with :func:`_answer`'s pair, or
    ``("error", message)``; ``None`` ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's business
    watch_parent()
    monitor = Board(board, os.devnull)
    games = _Games()
    try:
        conn.send("ready")
        while True:
            decision = conn.recv()
            if decision is None:
                break
            try:
                answer = _answer(decision, games, monitor, limit)
            except Exception as exc:
                answer = ("error", f"{type(exc).__name__}: {exc!s:.300}")
            conn.send(answer)
    except (EOFError, OSError):  # W10: the server is gone (killed): the worker ends quietly
        pass
    finally:
        close_agents()


# -- the server side ---------------------------------------------------------------------


class _Worker:
    """One worker process (started when first needed, replaced when it dies or is killed)."""

    def __init__(self, context: Any, limit: float) -> None:
        self.context = context
        self.limit = limit
        self.board: Any = context.RawArray("d", BOARD_SIZE)
        self.process: Any = None
        self.conn: Connection | None = None

    def start(self) -> None:
        """Start a fresh worker process (the old one, if any, is killed)."""
        self.stop()
        ours, theirs = self.context.Pipe()
        self.process = self.context.Process(target=serve, args=(theirs, self.board, self.limit), name="tribune-bot")
        self.process.start()
        theirs.close()
        self.conn = ours
        ready = multiprocessing.connection.wait([ours, self.process.sentinel], START_LIMIT)
        if ours not in ready or ours.recv() != "ready":
            self.stop()
            raise BotFailure(f"a bot worker process did not start within {START_LIMIT:g} s")

    def _send(self, decision: Decision) -> None:
        for attempt in range(2):
            if self.process is None or not self.process.is_alive():
                self.start()
            assert self.conn is not None
            try:
                self.conn.send(decision)
                return
            except OSError:  # died while idle
                self.stop()
                if attempt:
                    raise BotFailure("the bot's worker process could not be reached") from None

    def _call(self) -> Call | None:
        board = self.board
        kind = int(board[KIND])
        return None if kind == 0 else Call(kind, int(board[SEAT]), board[START], board[LIMIT])

    def decide(self, decision: Decision) -> tuple[str, str]:
        """What the worker answered (see :func:`serve`), or ``("failed", why)`` when it died or was killed."""
        for i in range(BOARD_SIZE):
            self.board[i] = 0.0
        self._send(decision)
        assert self.conn is not None
        quiet_since = monotonic()  # outside agent calls (watched on the board) a worker only replays and imports
        while True:
            call = self._call()
            timeout = POLL if call is not None and call.limit > 0 else 1.0
            ready = multiprocessing.connection.wait([self.conn, self.process.sentinel], timeout)
            if self.conn in ready:
                with contextlib.suppress(EOFError, OSError):
                    answer: tuple[str, str] = self.conn.recv()
                    return answer
            if ready or not self.process.is_alive():
                return self._died(call)
            now = monotonic()
            call = self._call()
            if call is not None and call.overdue(now):
                self.stop()
                elapsed = now - call.start
                message = f"{call.name} ran {elapsed:.3f} s, past the {call.limit:g} s limit: its process was killed"
                return "failed", message
            if call is not None:
                quiet_since = now
            elif now - quiet_since > START_LIMIT:
                self.stop()
                return "failed", f"its worker process did not answer within {START_LIMIT:g} s"

    def _died(self, call: Call | None) -> tuple[str, str]:
        self.process.join(1.0)
        code = self.process.exitcode
        self.stop()
        where = call.name if call is not None else "between calls"
        return "failed", f"{where}: its worker process {exit_text(code)}"

    def stop(self, graceful: bool = False) -> None:
        """End the worker process: let it close its agents (``graceful``, a few seconds at most) or kill it."""
        process, conn = self.process, self.conn
        self.process, self.conn = None, None
        end_worker(process, conn, graceful)


_PROJECT = frozenset({"tribune_env", "agents", "tribune_arena", "training", "tribune_cli"})


def _preload() -> list[str]:
    """The modules the fork server imports once for all its workers: this one, and the project's modules the server
    has imported (a worker runs its parent's main module as it starts; what that imports is then there already)."""
    main = sys.modules.get("__main__")
    loaded = [name for name, module in list(sys.modules.items()) if module is not main]
    return ["tribune_arena.tournament.play", __name__, *(n for n in loaded if n.partition(".")[0] in _PROJECT)]


class BotPool:
    """``workers`` worker processes making bots' decisions, each call under ``seconds`` (thread-safe: a decision
    waits for a free worker). Processes start when first needed; :meth:`close` ends them."""

    def __init__(self, seconds: float = DEFAULT_BOT_SECONDS, workers: int = DEFAULT_BOT_WORKERS) -> None:
        if not 0 < seconds <= MAX_BOT_SECONDS:
            raise ValueError(f"bot seconds: must be above 0 and at most {MAX_BOT_SECONDS:g}, got {seconds}")
        if not 1 <= workers <= MAX_BOT_WORKERS:
            raise ValueError(f"bot workers: must be from 1 to {MAX_BOT_WORKERS}, got {workers}")
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(_preload())
        self.seconds = seconds
        self._workers = [_Worker(context, seconds) for _ in range(workers)]
        self._free: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        for worker in self._workers:
            self._free.put(worker)
        self.closed = False

    def decide(self, decision: Decision) -> Action:
        """The bot's action for ``decision`` (not yet checked against the legal ones); :class:`BotFailure` says
        what went wrong (an exception, an overrun, an illegal choice, its process dying)."""
        worker = self._free.get()
        try:
            if self.closed:
                raise BotFailure("the server is stopping")
            kind, payload = worker.decide(decision)
        finally:
            self._free.put(worker)
        if kind != "ok":
            raise BotFailure(payload)
        return parse_action(payload)

    def warm(self) -> None:
        """Start the worker processes now rather than at the first decisions (a failure is left to those)."""
        for _ in self._workers:
            worker = self._free.get()
            try:
                if not self.closed and worker.process is None:
                    worker.start()
            except BotFailure:
                pass
            finally:
                self._free.put(worker)

    def close(self) -> None:
        """End every worker process, once the decisions being made are over (each is bounded by the limit)."""
        self.closed = True
        workers = [self._free.get() for _ in self._workers]
        for worker in workers:
            worker.stop(graceful=True)
        for worker in workers:
            self._free.put(worker)


class RemoteBot(Agent):
    """The agent a person's game seats for a bot: :meth:`act` asks the :class:`BotPool` for the decision ``decision``
    (built for this one move), so that :func:`~tribune_arena.human.bot.bot_move` applies its usual fallback."""

    name = "remote"

    def __init__(self, pool: BotPool, decision: Decision) -> None:
        super().__init__(None)
        self.spec = decision.spec
        self.pool = pool
        self.decision = decision

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        return self.pool.decide(self.decision)
