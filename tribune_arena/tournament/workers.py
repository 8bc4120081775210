"""Games played in supervised worker processes: :class:`WorkerPool`.

A worker process plays whole games (engine and agents). Through memory shared
with the runner it shows which agent call is running, since when and under
which limit, and the seats' decision times; it appends every action played to
its log file. The runner kills (SIGKILL) a worker whose agent call runs past
its limit by :data:`KILL_GRACE`, and notices a worker that dies (``sys.exit``
escaping, ``os._exit``, a signal, a crash in native code) by its process
sentinel. Either way the game ends as a forfeit of the seat whose call was
running (``"timeout"`` or ``"crashed"``): the runner replays the logged
actions to score the position at that moment and starts a fresh worker for
the next game. Inside a worker the alarm of :mod:`~tribune_arena.tournament.play`
still interrupts ordinary Python at the limit, so most timeouts cost no worker.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import tempfile
from collections import deque
from collections.abc import Generator, Iterable
from multiprocessing.connection import Connection
from time import monotonic
from typing import Any

from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.supervision import (
    ACT,
    BOARD_SIZE,
    KILL_GRACE,
    KIND,
    LAST,
    LIMIT,
    POLL,
    SEAT,
    START,
    START_LIMIT,
    TIMES,
    Board,
    Call,
    close_agents,
    end_worker,
    exit_text,
    watch_parent,
)
from tribune_arena.tournament.play import PlaySettings, import_modules, play_game, replayed_record
from tribune_arena.tournament.schedule import ScheduledGame, TournamentError
from tribune_env.threads import limit_threads


class WorkerCrash(TournamentError):
    """A worker process died outside any agent call (not an agent's doing: those are forfeits)."""


# -- the worker side ---------------------------------------------------------------------


def serve(
    conn: Connection, board: Any, log: str, settings: PlaySettings, environ: dict[str, str] | None = None
) -> None:
    """A worker's life: play each game received on ``conn`` and send back ``("record", record)`` or
    ``("error", message)`` (a failure of the engine or the runner, not of an agent); ``None`` ends it.

    The worker limits its native thread pools (BLAS, OpenMP, torch) to one thread, or ``TRIBUNE_THREADS``
    (:func:`~tribune_env.threads.limit_threads`), before each game: the pool runs a worker per CPU, and a threaded
    matrix product on busy cores costs a policy decision 10-30x more. Applied per game, it covers from the next
    game on the libraries that an agent imported while building (torch for a ``.zip`` checkpoint).

    ``environ``: the runner's environment when the worker was started; a forkserver child would otherwise inherit
    the environment of the moment the forkserver itself started (``TRIBUNE_ENGINE``, ``TRIBUNE_BOT_BOX``, ...)."""
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's business
    watch_parent()
    monitor = Board(board, log)
    conn.send("ready")  # the runner may now unlink the log: nothing is left behind, whatever happens
    import_modules(settings.modules)
    while True:
        game = conn.recv()
        if game is None:
            break
        try:
            limit_threads()
            record = play_game(game, settings.options, settings.time_limit, monitor, settings.components)
            conn.send(("record", record))
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    close_agents()


# -- the runner side ---------------------------------------------------------------------


class _Slot:
    """One worker process and the game it plays."""

    def __init__(self, context: Any, settings: PlaySettings) -> None:
        self.context = context
        self.settings = settings
        self.log = -1  # the runner's descriptor of the worker's action log (a file without a name)
        self.process: Any = None
        self.conn: Connection | None = None
        self.board: Any = context.RawArray("d", BOARD_SIZE)
        self.game: ScheduledGame | None = None
        self.sent = 0.0

    def _start(self) -> None:
        self.stop(graceful=False)
        self.log, path = tempfile.mkstemp(prefix="tribune-game-", suffix=".log")
        try:
            ours, theirs = self.context.Pipe()
            args = (theirs, self.board, path, self.settings, dict(os.environ))
            self.process = self.context.Process(target=serve, args=args, name="tribune-game-worker")
            self.process.start()
            theirs.close()
            self.conn = ours
            ready = multiprocessing.connection.wait([ours, self.process.sentinel], START_LIMIT)
            if ours not in ready or ours.recv() != "ready":
                raise TournamentError(f"a worker process did not start within {START_LIMIT:g} s")
        finally:
            os.unlink(path)

    def assign(self, game: ScheduledGame) -> None:
        """Send ``game`` to this slot's worker (a fresh one if it has none or its worker died)."""
        if self.log >= 0:
            os.ftruncate(self.log, 0)
        for i in range(BOARD_SIZE):
            self.board[i] = 0.0
        self.board[LAST] = -1.0
        for attempt in range(2):
            if self.process is None or not self.process.is_alive():
                self._start()
            assert self.conn is not None
            try:
                self.conn.send(game)
                break
            except OSError:  # died while idle
                if attempt:
                    raise
                self.stop(graceful=False)
        self.game, self.sent = game, monotonic()

    def waitables(self) -> list[Any]:
        assert self.conn is not None
        return [self.conn, self.process.sentinel]

    def call(self) -> Call | None:
        """The agent call running now, if any."""
        board = self.board
        kind, seat = int(board[KIND]), int(board[SEAT])
        start, limit = board[START], board[LIMIT]
        if kind == 0 or int(board[SEAT]) != seat:
            return None
        return Call(kind, seat, start, limit)

    def deadline(self) -> float | None:
        call = self.call()
        return None if call is None or call.limit <= 0 else call.start + call.limit + KILL_GRACE

    def collect(self, now: float) -> GameRecord | None:
        """The record of this slot's game if it is over: finished, or its worker died or ran past a limit (killed)."""
        assert self.game is not None and self.conn is not None
        if self.conn.poll():
            message = self._receive()
            if message is not None:
                return message
            return self._died()
        if not self.process.is_alive():
            return self._died()
        call = self.call()
        if call is not None and call.overdue(now):
            self.process.kill()
            self.process.join()
            finished = self._receive() if self.conn.poll() else None  # it may have finished the game meanwhile
            return finished or self._forfeit(call, "timeout", now)
        return None

    def _receive(self) -> GameRecord | None:
        """The record the worker sent (``None``: it died while sending); raises for a failure it reported."""
        assert self.conn is not None and self.game is not None
        try:
            kind, payload = self.conn.recv()
        except Exception:
            return None
        game, self.game = self.game, None
        if kind == "error":
            raise TournamentError(f"game {game.game_id} failed: {payload}")
        assert isinstance(payload, GameRecord)
        return payload

    def _died(self) -> GameRecord:
        assert self.game is not None
        self.process.join(1.0)
        if self.process.is_alive():  # it closed its end of the pipe yet lives on: as good as dead
            self.process.kill()
            self.process.join()
        code = self.process.exitcode
        call = self.call()
        if call is None:
            last = int(self.board[LAST])
            if last < 0:
                game, self.game = self.game, None
                raise WorkerCrash(
                    f"the worker process playing game {game.game_id} {exit_text(code)} before any agent call; "
                    "the games finished before are stored"
                )
            call = Call(0, last, self.board[START], 0.0)
        return self._forfeit(call, "crashed", monotonic(), code)

    def _forfeit(self, call: Call, reason: str, now: float, code: int | None = None) -> GameRecord:
        """The record of this slot's game, forfeited by the seat of ``call`` (its worker is dead)."""
        assert self.game is not None
        game, self.game = self.game, None  # its dead process is replaced at the next game
        elapsed = max(0.0, now - call.start)
        if reason == "timeout":
            message = f"{call.name} ran {elapsed:.3f} s, past the {call.limit:g} s limit: its process was killed"
        elif call.kind:
            message = f"{call.name}: the agent's process {exit_text(code)}"
        else:
            message = f"the game's process {exit_text(code)} between moves, after seat {call.seat}'s last call"
        timings = self._timings(len(game.seating), call, elapsed)
        try:
            actions = os.pread(self.log, os.fstat(self.log).st_size, 0).decode().splitlines()
            forfeit = Forfeit(call.seat, reason, message)
            settings = self.settings
            return replayed_record(
                game, settings.options, actions, timings, forfeit, now - self.sent, settings.components
            )
        except Exception as exc:
            raise TournamentError(f"game {game.game_id}: cannot replay its actions after {message}: {exc}") from None

    def _timings(self, players: int, call: Call, elapsed: float) -> list[SeatTiming]:
        """The seats' decision times from the board, the fatal ``act()`` call included."""
        timings = []
        for seat in range(players):
            at = TIMES + 3 * seat
            moves, total, longest = int(self.board[at]), self.board[at + 1], self.board[at + 2]
            if seat == call.seat and call.kind == ACT:
                moves, total, longest = moves + 1, total + elapsed, max(longest, elapsed)
            timings.append(SeatTiming(moves, total, longest))
        return timings

    def stop(self, graceful: bool) -> None:
        """End the worker: let it close its agents (``graceful``, a few seconds at most) or kill it."""
        process, conn, log = self.process, self.conn, self.log
        self.process, self.conn, self.log = None, None, -1
        end_worker(process, conn, graceful)
        if log >= 0:
            os.close(log)


class WorkerPool:
    """``workers`` supervised worker processes playing games with ``settings`` (use as a context manager)."""

    def __init__(self, workers: int, settings: PlaySettings) -> None:
        if "__main__" in settings.modules:
            raise TournamentError(
                "an agent is defined in __main__, which worker processes cannot import: "
                "register the agent in an importable module"
            )
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(["tribune_arena.tournament.play"])
        self.settings = settings
        self.slots = [_Slot(context, settings) for _ in range(max(1, workers))]

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(graceful=exc[0] is None)

    def close(self, graceful: bool = True) -> None:
        """Stop every worker (see :meth:`_Slot.stop`)."""
        for slot in self.slots:
            slot.stop(graceful and slot.game is None)
            slot.game = None

    def run(self, games: Iterable[ScheduledGame]) -> Generator[GameRecord, None, None]:
        """Play ``games``, yielding each record as its game ends; an exception (or closing) kills the workers."""
        todo = deque(games)
        try:
            while True:
                for slot in self.slots:
                    if slot.game is None and todo:
                        slot.assign(todo.popleft())
                busy = [s for s in self.slots if s.game is not None]
                if not busy:
                    return
                self._wait(busy)
                now = monotonic()
                for slot in busy:
                    record = slot.collect(now)
                    if record is not None:
                        yield record
        except BaseException:
            self.close(graceful=False)
            raise

    def _wait(self, busy: list[_Slot]) -> None:
        """Until a worker sends, dies, or (with a limit) it is time to look at the running calls again."""
        timeout: float | None = None
        if self.settings.time_limit is not None:
            now = monotonic()
            deadlines = [d for d in (s.deadline() for s in busy) if d is not None]
            timeout = max(0.0, min([POLL, *(d - now for d in deadlines)]))
        multiprocessing.connection.wait([w for s in busy for w in s.waitables()], timeout)
