"""``tribune serve``: start the local web app of :mod:`tribune_arena.human.web.app` (Flask is imported only here,
when it runs, so that ``tribune`` works without the ``web`` extra; the games database and the bots' processes need
no Flask).

The app runs under waitress, a production WSGI server: a fixed number of threads (:data:`THREADS`) serves the
requests while idle connections wait in its event loop (they hold no thread), at most :data:`CONNECTION_LIMIT` of
them, each closed after :data:`IDLE_SECONDS` without activity; when that many are open, the least recently active
ones that wait for nothing from the app are closed to make room, so no client holds the server with idle
connections (:mod:`tribune_arena.human.web.connections`, issue 42 W14). Every start makes a new key, printed in the link
(``/?key=...``), which every request that changes a game must carry (see :mod:`tribune_arena.human.web.app`)."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import secrets
import signal
import socket
import sys
import threading
from typing import Any

from tribune_arena.human.web.bots import DEFAULT_BOT_SECONDS, DEFAULT_BOT_WORKERS, MAX_BOT_SECONDS, MAX_BOT_WORKERS
from tribune_arena.human.web.store import GAMES_FILE, StoreError
from tribune_cli.command import Command
from tribune_env.extras import missing_extra

DEFAULT_PORT = 8765
"""The port ``tribune serve`` listens on without ``--port`` (not 8000, which ``mkdocs serve`` takes: issue 42); when
it is taken, the server listens on a free port instead and says so."""
THREADS = 8
"""Threads that serve requests (a request waits for a free one; idle connections hold none)."""
CONNECTION_LIMIT = 1000
"""Connections held open at once (further ones wait in the listening socket's backlog)."""
IDLE_SECONDS = 30
"""A connection with no request in progress and no traffic for this long is closed."""
DEFAULT_SAVE_DIR = "tribune-games"
SERVER_BODY_LIMIT = 4 << 20
"""The longest body waitress reads, above the app's own limit (:data:`~tribune_arena.human.web.app.MAX_BODY`, 1 MiB)
so that the app refuses a body over its limit with its JSON 413; a longer one waitress refuses as it arrives
(in the same JSON: :mod:`tribune_arena.human.web.connections`)."""


def add_parser(commands: Any) -> None:
    """Add ``tribune serve`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        metavar="PORT",
        help=f"port to listen on; 0: any free; without it {DEFAULT_PORT}, or a free one when that is taken",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="HOST",
        help="address to listen on; loopback only without --allow-remote",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host that other machines can reach (anyone with the printed link can start and play "
        "games; the link is not encrypted: trusted networks only); agent specs that load a file are then refused",
    )
    parser.add_argument(
        "--idle-seconds",
        type=int,
        default=IDLE_SECONDS,
        metavar="SECONDS",
        help="close a connection that sends nothing for this long while no request of it runs",
    )
    parser.add_argument(
        "--allow-cmd-bots",
        action="store_true",
        help="let games seat `cmd:` bot programs, which run as the user who started the server (refused otherwise, "
        "whatever a request asks)",
    )
    parser.add_argument(
        "--save-dir",
        default=DEFAULT_SAVE_DIR,
        metavar="DIR",
        help=f"where every game is kept, move by move ({GAMES_FILE}: unfinished games continue after a restart), "
        f"and finished games are saved, one results file per rule set readable by `tribune replay`",
    )
    parser.add_argument(
        "--no-save", action="store_true", help="keep games in memory only: lost when the server stops, none saved"
    )
    parser.add_argument(
        "--bot-seconds",
        type=float,
        default=DEFAULT_BOT_SECONDS,
        metavar="SECONDS",
        help=f"each bot's time limit per move, at most {MAX_BOT_SECONDS:g}; a bot past it plays its first legal "
        "choice and the page says so",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=DEFAULT_BOT_WORKERS,
        metavar="N",
        help=f"processes that run the bots' moves, at most {MAX_BOT_WORKERS}",
    )


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) resolves to loopback addresses only."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos)


def _bad_option(args: argparse.Namespace) -> str | None:
    """What is wrong with the command's options (``None``: nothing)."""
    if args.port is not None and not 0 <= args.port <= 65535:
        return f"--port must be from 0 to 65535, got {args.port}"
    if not 0 < args.bot_seconds <= MAX_BOT_SECONDS:  # refuses nan and inf too
        return f"--bot-seconds must be above 0 and at most {MAX_BOT_SECONDS:g}, got {args.bot_seconds:g}"
    if not 1 <= args.idle_seconds <= 3600:
        return f"--idle-seconds must be from 1 to 3600, got {args.idle_seconds}"
    if not 1 <= args.bot_workers <= MAX_BOT_WORKERS:
        return f"--bot-workers must be from 1 to {MAX_BOT_WORKERS}, got {args.bot_workers}"
    return None


def _connection_limit() -> int:
    """:data:`CONNECTION_LIMIT`, or fewer when the process may not open that many files (leaving room for the
    database, the bots' pipes and the listening socket)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return CONNECTION_LIMIT
    if soft == resource.RLIM_INFINITY:
        return CONNECTION_LIMIT
    return max(16, min(CONNECTION_LIMIT, soft - 128))


class _Stopped(Exception):
    """SIGTERM arrived."""


def _stop(signum: int, frame: object) -> None:
    raise _Stopped


def run(args: argparse.Namespace) -> int:
    """The ``serve`` command: serve until interrupted; bad options print ``tribune: error: ...`` and return 2."""
    problem = _bad_option(args)
    if problem is not None:
        print(f"tribune: error: {problem}", file=sys.stderr)
        return 2
    if not args.allow_remote and not is_loopback(args.host):
        print(
            f"tribune: error: --host {args.host} is not a loopback address; its link (key) travels unencrypted, "
            "so add --allow-remote to open it to other machines",
            file=sys.stderr,
        )
        return 2
    try:
        from waitress import create_server  # type: ignore[import-untyped]

        from tribune_arena.human.web.app import create_app
        from tribune_arena.human.web.connections import guard
    except ImportError as exc:
        print(f"tribune: error: {missing_extra('tribune serve', 'web', exc)}", file=sys.stderr)
        return 2
    save_dir = None if args.no_save else args.save_dir
    key = secrets.token_urlsafe(24)
    try:
        app = create_app(
            save_dir,
            args.allow_remote,
            bot_seconds=args.bot_seconds,
            bot_workers=args.bot_workers,
            secret=key,
            allow_cmd=args.allow_cmd_bots,
        )
    except StoreError as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 2
    games = app.extensions["tribune_games"]
    threading.Thread(target=games.bots.warm, name="tribune-bot-warm-up", daemon=True).start()
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "task queue depth": a busy moment, not an error
    port = DEFAULT_PORT if args.port is None else args.port
    settings = {
        "threads": THREADS,
        "connection_limit": _connection_limit(),
        "channel_timeout": args.idle_seconds,
        "cleanup_interval": max(1, min(args.idle_seconds, 10)),
        "max_request_body_size": SERVER_BODY_LIMIT,
        "asyncore_use_poll": True,
        "ident": "tribune",
    }
    try:
        try:
            server: Any = create_server(app, host=args.host, port=port, **settings)
        except OSError as exc:
            if args.port is not None or exc.errno != errno.EADDRINUSE:
                raise
            print(f"tribune: port {port} is in use; listening on a free port instead", file=sys.stderr)
            server = create_server(app, host=args.host, port=0, **settings)
    except OSError as exc:
        games.close()
        print(f"tribune: error: cannot listen on {args.host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    guard(server)
    signal.signal(signal.SIGTERM, _stop)  # `kill`: stop as Ctrl+C does (the bots' processes end quietly)
    host = f"[{args.host}]" if ":" in args.host else args.host
    try:
        if save_dir is None:
            saving = "games are kept in memory only"
        else:
            saving = f"games kept in {save_dir}/, {len(games.unfinished())} unfinished"
        for problem in games.store.damaged.values():  # before the address: whoever reads that has the warnings
            print(f"tribune: warning: {problem}: it cannot be read and is left out", file=sys.stderr)
        sys.stderr.flush()
        print(f"Tribune: open http://{host}:{server.effective_port}/?key={key} in a browser ({saving}); Ctrl+C stops")
        sys.stdout.flush()
        server.run()
    except (KeyboardInterrupt, _Stopped):
        print("tribune: stopped", file=sys.stderr)
    finally:
        server.close()
        games.close()
    return 0


COMMAND = Command(
    "serve",
    "play in the browser against agents (a local web app)",
    (
        (
            "tribune serve",
            f"serve on http://127.0.0.1:{DEFAULT_PORT}/ (or a free port), games kept in ./{DEFAULT_SAVE_DIR}",
        ),
        ("tribune serve --port 0 --no-save", "any free port, nothing saved"),
    ),
    _add_arguments,
    run,
    details="Needs the web extra. Stop it with Ctrl+C; unfinished games continue after a restart unless --no-save.",
)
