"""Connections of ``tribune serve`` that no client can hold (issue 42, W14), and the server's own answers in the app's
JSON (W15): :func:`guard`.

waitress keeps at most ``connection_limit`` connections open and, once there, accepts none until one closes (an idle
one after ``channel_timeout`` seconds). A client that opens that many connections and sends nothing (or a request
that never ends) then holds the server for everyone else, key or no key. Here the listening server, when full,
closes the connections that wait for nothing from the app (no request read whole: idle keep-alives, requests still
arriving), the least recently active first, down to :data:`ROOM` below the limit; a new connection is then accepted
at once and its request served, and a client that reconnects only pushes its own oldest connections out. A request
the app is working on (or that waits for a thread) is never closed; an answer left unread may be.

The requests waitress refuses itself, before the app sees them (a start line or header it cannot parse, a
malformed chunked body or ``Content-Length``, headers over its limit, a body over its limit:
:data:`~tribune_cli.serve.SERVER_BODY_LIMIT`, above the app's own), are answered as the app answers every error,
``{"error": message, "status": code}`` in ``application/json`` (:class:`JsonErrorTask`); the connection then stops
sending and reads and drops what the client still sends, for at most :data:`LINGER_SECONDS` and
:data:`LINGER_BYTES`, before it closes, so that a client still sending its body reads the answer rather than a reset.

This module imports waitress: only ``tribune serve`` imports it, when it runs.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from typing import Any

from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import BaseWSGIServer  # type: ignore[import-untyped]
from waitress.task import ErrorTask  # type: ignore[import-untyped]

LINGER_SECONDS = 5.0
"""How long a connection closed after an error answer still reads (and drops) what its client sends."""
LINGER_BYTES = 64 << 20
"""How much it reads so at most."""

ROOM = 0.1
"""The share of the connection limit freed at once when the server is full (at least one connection)."""


def evict_idle(server: Any) -> int:
    """Mark for closing (waitress's ``will_close``) the connections of ``server`` (a waitress listening server) that
    wait for nothing from the app, the least recently active first, so that the open connections drop to
    :data:`ROOM` below the limit; returns how many were marked. A connection with a request read whole (being
    served, or queued) is kept."""
    limit = int(server.adj.connection_limit)
    open_now = len(server._map)
    excess = open_now - (limit - max(1, int(limit * ROOM)))
    if excess <= 0:
        return 0
    idle = [c for c in list(server.active_channels.values()) if not c.requests and not c.will_close]
    idle.sort(key=lambda channel: channel.last_activity)
    for channel in idle[:excess]:
        channel.will_close = True  # closed by the event loop at its next turn (as waitress's idle timeout does)
    return min(excess, len(idle))


class JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's answer to a request it refuses itself, as the app's JSON error, and the connection left to linger
    (see the module docstring)."""

    def execute(self) -> None:
        error = self.request.error
        detail = str(error.body).strip()
        message = f"{error.reason}: {detail}" if detail else str(error.reason)
        body = json.dumps({"error": message, "status": error.code}).encode("utf-8")
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.channel.linger_after_close = True
        self.write(body)


class JsonChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, with :class:`JsonErrorTask` and the lingering close after it."""

    error_task_class = JsonErrorTask
    linger_after_close = False
    _linger_until = 0.0
    _drained = 0

    def handle_close(self) -> None:
        if self.linger_after_close and not self._linger_until and self.connected:
            try:
                self.socket.shutdown(socket.SHUT_WR)  # the answer is out: no more to send, still reading
            except OSError:
                pass
            else:
                self._linger_until = time.monotonic() + LINGER_SECONDS
                self.will_close = self.close_when_flushed = False
                return
        super().handle_close()

    def readable(self) -> bool:
        return True if self._linger_until else bool(super().readable())

    def writable(self) -> bool:
        if self._linger_until:  # "writable" once its time is up: handle_write closes it
            return self.will_close or time.monotonic() > self._linger_until
        return bool(super().writable())

    def handle_write(self) -> None:
        if self._linger_until:
            super().handle_close()
            return
        super().handle_write()

    def handle_read(self) -> None:
        if not self._linger_until:
            super().handle_read()
            return
        try:
            data = self.socket.recv(1 << 16)
        except OSError:
            data = b""
        self._drained += len(data)
        if not data or self._drained > LINGER_BYTES or time.monotonic() > self._linger_until:
            super().handle_close()


class _Guarded:
    """What a waitress listening server gains: when full, it frees room (:func:`evict_idle`) before asking whether
    to accept; its connections are :class:`JsonChannel`."""

    channel_class = JsonChannel

    def readable(self) -> bool:
        if getattr(self, "accepting", False) and len(self._map) >= self.adj.connection_limit:  # type: ignore[attr-defined]
            evict_idle(self)
        return bool(super().readable())  # type: ignore[misc]


_CLASSES: dict[type, type] = {}


def _guarded_class(kind: type) -> type:
    if kind not in _CLASSES:
        _CLASSES[kind] = type(f"Guarded{kind.__name__}", (_Guarded, kind), {})
    return _CLASSES[kind]


class _QuietOverflow(logging.Filter):
    """Leaves out waitress's "connection limit" notices: when full, the server now frees room within one turn."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "connection limit" not in record.getMessage()


def guard(server: Any) -> int:
    """Make every listening server of ``server`` (what waitress's ``create_server`` returned: one listening server,
    or a multi-socket server holding several) close idle connections when full instead of refusing new ones, and
    answer the requests it refuses itself in JSON (see the module docstring); returns how many listening servers
    were changed."""
    sockets = getattr(server, "_map", None)
    if sockets is None:
        sockets = getattr(server, "map", {})
    changed = 0
    for listening in list(sockets.values()):
        if isinstance(listening, BaseWSGIServer) and not isinstance(listening, _Guarded):
            listening.__class__ = _guarded_class(type(listening))
            changed += 1
    logging.getLogger("waitress").addFilter(_QuietOverflow())
    return changed
