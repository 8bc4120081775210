"""The games of one ``tribune serve``: :class:`GameManager` keeps them in memory (a bounded number) and in the
games database, and hands each request its game under the game's lock."""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tribune_arena.human.web.bots import DEFAULT_BOT_SECONDS, DEFAULT_BOT_WORKERS, BotPool
from tribune_arena.human.web.checks import COMMAND_AGENTS, WebError, check_budgets, parse_new_game
from tribune_arena.human.web.options import agent_label
from tribune_arena.human.web.saving import SaveDir
from tribune_arena.human.web.session import PlaySession
from tribune_arena.human.web.store import OVER, RESIGNED, GameStore, StoreError
from tribune_arena.human.web.views import person_name

LOCK_WAIT = 60.0
"""Seconds a request waits for a game another request is busy with before it gets a 409."""


class GameManager:
    """The games of one server: every game is in ``store`` (the save directory's games database, or one in memory
    without a save directory), so none is ever lost; at most ``max_games`` are kept in memory (the least recently
    used one that no request holds is dropped, and rebuilt from the store when asked for again). Bots move in a
    :class:`BotPool` of ``bot_workers`` processes, ``bot_seconds`` per move."""

    def __init__(
        self,
        save_dir: SaveDir | None = None,
        max_games: int = 64,
        allow_paths: bool = True,
        allow_cmd: bool = False,
        bot_seconds: float = DEFAULT_BOT_SECONDS,
        bot_workers: int = DEFAULT_BOT_WORKERS,
        store: GameStore | None = None,
    ) -> None:
        self.save_dir = save_dir
        self.max_games = max(1, max_games)
        self.allow_paths = allow_paths
        self.allow_cmd = allow_cmd
        self.store = store or GameStore(save_dir.path if save_dir is not None else None)
        try:
            self.bots = BotPool(bot_seconds, bot_workers)
        except BaseException:
            self.store.close()
            raise
        self._games: OrderedDict[str, PlaySession] = OrderedDict()
        self._lock = threading.Lock()
        self.complete_saves()

    def complete_saves(self) -> list[str]:
        """Save the records of the ended games whose saving a stopped server did not finish (each once: see
        :meth:`PlaySession.complete_save`); returns their ids."""
        if self.save_dir is None:
            return []
        done = []
        for stored in self.store.games():
            if stored.status in (OVER, RESIGNED) and (stored.saved is None or stored.saved.get("pending")):
                with contextlib.suppress(WebError), self.locked(stored.id):
                    done.append(stored.id)
        return done

    def create(self, body: object) -> PlaySession:
        """A new game from a new-game request (:func:`parse_new_game`), stored; the bots play up to the person's
        turn (each move stored as it is played)."""
        request = parse_new_game(body, self.allow_paths, self.allow_cmd)
        check_budgets(request.opponents, self.bots.seconds)
        session = PlaySession.create(request, self.store, self.bots, self.save_dir)
        self._keep(session)
        with self.locked(session.id) as held:
            return held

    def _keep(self, session: PlaySession) -> None:
        """Hold ``session`` in memory as the most recently used game, dropping the least recently used games that no
        request holds beyond :attr:`max_games`."""
        with self._lock:
            self._games[session.id] = session
            self._games.move_to_end(session.id)
            for victim in list(self._games.values()):
                if len(self._games) <= self.max_games:
                    break
                if victim is session or not victim.lock.acquire(blocking=False):
                    continue
                victim.evicted = True
                del self._games[victim.id]
                victim.lock.release()

    def _session(self, game_id: str) -> PlaySession:
        """The game ``game_id`` from memory or, rebuilt, from the store; :class:`WebError` 404 if there is none."""
        with self._lock:
            session = self._games.get(game_id)
            if session is not None:
                self._games.move_to_end(game_id)
                session.touched = time.monotonic()
                return session
        try:
            stored = self.store.game(game_id) if isinstance(game_id, str) and len(game_id) <= 64 else None
        except StoreError as exc:  # a damaged row, or the database cannot be read
            raise WebError(409, f"game {game_id!r:.40} cannot be read back from the games database: {exc}") from None
        if stored is None:
            raise WebError(404, f"unknown game id {game_id!r:.40}")
        programs = [name for name in stored.seating if name.partition(":")[0].strip().lower() in COMMAND_AGENTS]
        if programs and not self.allow_cmd:
            raise WebError(
                409,
                f"game {game_id} has a bot program ({programs[0]!r:.60}); this server does not run them (its owner "
                "can allow them by starting it with `tribune serve --allow-cmd-bots`)",
            )
        restored = PlaySession.restore(stored, self.store, self.bots, self.save_dir)
        with self._lock:
            session = self._games.get(game_id)  # another request may have restored it meanwhile
            if session is None:
                self._games[game_id] = session = restored
        return session

    @contextmanager
    def locked(self, game_id: str) -> Iterator[PlaySession]:
        """The game ``game_id``, held (its lock) and brought to the person's decision (:meth:`PlaySession.resume`);
        404 for an unknown id, 409 when another request holds it for :data:`LOCK_WAIT` seconds."""
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            session = self._session(game_id)
            if not session.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise WebError(409, "the game is busy with another request; try again")
            if not session.evicted:
                break
            session.lock.release()
        try:
            self._keep(session)
            self._resume(session)
            yield session
        finally:
            if session.broken:  # what is in memory is ahead of the store: rebuild it from the store next time
                session.evicted = True
                with self._lock:
                    if self._games.get(session.id) is session:
                        del self._games[session.id]
            session.lock.release()

    def _resume(self, session: PlaySession) -> None:
        try:
            session.resume()
        except WebError:
            raise
        except Exception:  # the game must be rebuilt from what the store holds before it is used again
            session.broken = True
            raise

    def get(self, game_id: str) -> PlaySession:
        """The game ``game_id`` (not held: prefer :meth:`locked`)."""
        with self.locked(game_id) as session:
            return session

    def resign(self, game_id: str) -> PlaySession:
        with self.locked(game_id) as session:
            session.resign()
            return session

    def abandon(self, game_id: str) -> PlaySession:
        with self.locked(game_id) as session:
            session.abandon()
            return session

    def remove(self, game_id: str) -> None:
        """Abandon a game (kept for ``DELETE /api/games/<id>``; the game stays in the store as abandoned)."""
        self.abandon(game_id)

    def unfinished(self) -> list[dict[str, Any]]:
        """The games still being played (from the store), the most recently played first."""
        games = []
        for game in self.store.unfinished():
            summary = game.summary()
            humans = set(game.humans or (game.seat,))
            people = self.store.people(game.id)
            summary["names"] = [
                person_name(people, s) if s in humans else agent_label(name, game.rules)
                for s, name in enumerate(game.seating)
            ]
            games.append(summary)
        return games

    def ids(self) -> list[str]:
        """The ids of the games still being played."""
        return [game["id"] for game in self.unfinished()]

    def live(self) -> list[str]:
        """The ids of the games held in memory, the least recently used first."""
        with self._lock:
            return list(self._games)

    def close(self) -> None:
        """End the bots' processes and close the store (the games stay in it)."""
        with self._lock:
            games, self._games = list(self._games.values()), OrderedDict()
        for session in games:
            session.close()
        self.bots.close()
        self.store.close()
