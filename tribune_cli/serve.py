"""``tribune serve``: start the local web app of :mod:`tribune_arena.human.web.app` (Flask is imported only here,
when it runs, so that ``tribune`` works without the ``web`` extra)."""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from typing import Any

DEFAULT_PORT = 8000
DEFAULT_SAVE_DIR = "tribune-games"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("serve", help="play in the browser against agents (a local web app)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT}; 0: any free)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1; loopback only without --allow-remote)",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host that other machines can reach (no authentication: trusted networks only); agent "
        "specs that load a file are then refused",
    )
    parser.add_argument(
        "--save-dir",
        default=DEFAULT_SAVE_DIR,
        metavar="DIR",
        help=f"where finished games are saved, one results file per rule set readable by `tribune replay` "
        f"(default: ./{DEFAULT_SAVE_DIR})",
    )
    parser.add_argument("--no-save", action="store_true", help="do not save finished games")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) resolves to loopback addresses only."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos)


def run(args: argparse.Namespace) -> int:
    """The ``serve`` command: serve until interrupted; bad options print ``tribune: error: ...`` and return 2."""
    if not 0 <= args.port <= 65535:
        print(f"tribune: error: --port must be from 0 to 65535, got {args.port}", file=sys.stderr)
        return 2
    if not args.allow_remote and not is_loopback(args.host):
        print(
            f"tribune: error: --host {args.host} is not a loopback address; the server has no authentication, "
            "so add --allow-remote to open it to other machines",
            file=sys.stderr,
        )
        return 2
    try:
        from werkzeug.serving import make_server

        from tribune_arena.human.web.app import create_app
    except ImportError as exc:
        print(
            f"tribune: error: {exc.name or exc} is missing; install the web extra: pip install 'tribune-rl[web]'",
            file=sys.stderr,
        )
        return 2
    app = create_app(None if args.no_save else args.save_dir, allow_remote=args.allow_remote)
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        print(f"tribune: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    host = f"[{args.host}]" if ":" in args.host else args.host
    saving = "not saved" if args.no_save else f"saved under {args.save_dir}/"
    print(f"Tribune: open http://{host}:{server.server_port}/ in a browser (finished games {saving}); Ctrl+C stops")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("tribune: stopped", file=sys.stderr)
    finally:
        server.server_close()
        app.extensions["tribune_games"].close()
    return 0
