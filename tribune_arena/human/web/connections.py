"""Connections of ``tribune serve`` that no client can hold (issue 42, W14): :func:`evict_idle_when_full`.

waitress keeps at most ``connection_limit`` connections open and, once there, accepts none until one closes (an idle
one after ``channel_timeout`` seconds). A client that opens that many connections and sends nothing (or a request
that never ends) then holds the server for everyone else, key or no key. Here the listening server, when full,
closes the connections that wait for nothing from the app (no request read whole: idle keep-alives, requests still
arriving), the least recently active first, down to :data:`ROOM` below the limit; a new connection is then accepted
at once and its request served, and a client that reconnects only pushes its own oldest connections out. A request
the app is working on (or that waits for a thread) is never closed; an answer left unread may be.

This module imports waitress: only ``tribune serve`` imports it, when it runs.
"""

from __future__ import annotations

import logging
from typing import Any

from waitress.server import BaseWSGIServer  # type: ignore[import-untyped]

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


class _Evicting:
    """What a waitress listening server gains: when full, it frees room (:func:`evict_idle`) before asking whether
    to accept."""

    def readable(self) -> bool:
        if getattr(self, "accepting", False) and len(self._map) >= self.adj.connection_limit:  # type: ignore[attr-defined]
            evict_idle(self)
        return bool(super().readable())  # type: ignore[misc]


_CLASSES: dict[type, type] = {}


def _evicting_class(kind: type) -> type:
    if kind not in _CLASSES:
        _CLASSES[kind] = type(f"Evicting{kind.__name__}", (_Evicting, kind), {})
    return _CLASSES[kind]


class _QuietOverflow(logging.Filter):
    """Leaves out waitress's "connection limit" notices: when full, the server now frees room within one turn."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "connection limit" not in record.getMessage()


def evict_idle_when_full(server: Any) -> int:
    """Make every listening server of ``server`` (what waitress's ``create_server`` returned: one listening server,
    or a multi-socket server holding several) close idle connections when full instead of refusing new ones;
    returns how many listening servers were changed."""
    sockets = getattr(server, "_map", None)
    if sockets is None:
        sockets = getattr(server, "map", {})
    changed = 0
    for listening in list(sockets.values()):
        if isinstance(listening, BaseWSGIServer) and not isinstance(listening, _Evicting):
            listening.__class__ = _evicting_class(type(listening))
            changed += 1
    logging.getLogger("waitress").addFilter(_QuietOverflow())
    return changed
