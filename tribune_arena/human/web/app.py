"""The Flask app of ``tribune serve``: the page (``static/``) and its JSON API.

Routes (bodies and statuses: :mod:`tribune_arena.human.web.session`):

- ``GET /``: the page; ``GET /api/options``: what the new-game form offers;
- ``GET /api/games``: the games still being played (``games``: their ids; ``unfinished``: what the start page lists
  of each, the most recently played first), to the server's owner only (a request with the server's key; without
  it both lists are empty, since a game's id opens its watch view); ``POST /api/games``: a new game (201, its
  state);
- ``GET /api/games/<id>``: a game's state (the board drawn for the person's seat, the decision and its choices in
  words, the victory card and progress, what changed since the person's last decision, the result, the status:
  ``playing``, ``over``, ``resigned`` or ``abandoned``);
- ``GET /api/games/<id>/log``: the game's whole log from its first event, as the seat (or a spectator) may read it
  (``log``; the state's ``log`` holds only the events since the seat's last decision);
- ``POST /api/games/<id>/name``: ``{"name": "Ada"}``, the name everyone sees for the seat whose key the request
  carries (a person's seat, once; shown as ``Ada (a person)``);
- ``POST /api/games/<id>/action``: play the person's decision, then the bots up to the next one;
- ``POST /api/games/<id>/resign``: give the game up (saved with the person's forfeit); ``POST
  /api/games/<id>/abandon``: leave it unfinished; both answer the game's state; ``DELETE /api/games/<id>``: abandon
  it too, answering ``{"removed": id, "status": "abandoned"}``;
- ``GET /api/games/<id>/record``: the finished or resigned game's record (as saved); ``GET /api/games/<id>/replay``:
  its replay page.

Seats: a new game's answer carries ``seat_keys`` (seat: key), one key per human seat (``humans`` in the request).
A seat's private link is ``/#game=<id>&seat=<key>``; the page sends the key in ``X-Tribune-Seat``
(:data:`SEAT_HEADER`). ``GET /api/games/<id>`` with a seat's key shows the game as that seat sees it, without one as
a spectator sees it (public information only: no hand, no private event, no choices). No viewer, seat or spectator,
gets the game's ``seed`` before the game is over, since the seed deals every hand (issue 42, W12). Playing, naming,
resigning and abandoning (``DELETE`` included) need the seat's own key: nothing else acts for a seat, the server's
key included.

Every game stays reachable by its id, across restarts of the server (see :mod:`.store`).

A request that changes anything (every method but ``GET`` and ``HEAD``), other than a seat's own (above: it carries
the seat's key), must carry the server's key in the header ``X-Tribune-Key`` (:data:`KEY_HEADER`) when the app has
one (``tribune serve`` always makes one and prints it in the link it gives, ``/?key=...``, as notebook servers do;
the page keeps it and sends it); without it: 403. The key is compared in constant time. ``cmd:`` bot programs run
only when the app was created with ``allow_cmd`` (``tribune serve --allow-cmd-bots``), never because a request
asked.

Every error is a JSON object ``{"error": message, "status": code}`` (a bug in the server too: 500, logged, its
message left out of the answer). A body that cannot be read (a malformed chunked body), is not JSON, is nested
deeper than :data:`MAX_DEPTH` or is longer than :data:`MAX_BODY` bytes is a 400 (413, by its ``Content-Length``
before it is read). Under ``tribune serve``, what waitress refuses before the app sees it (malformed framing,
headers or a body over its limits) is answered in the same JSON (:mod:`.connections`). A malformed ``Host`` header
is a 400; unless the app allows remote use, requests whose ``Host`` is not a loopback name are refused (403), so
that a web page elsewhere cannot reach the server by DNS rebinding.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, request, send_from_directory
from werkzeug.exceptions import ClientDisconnected, HTTPException

from tribune_arena.human.web import views
from tribune_arena.human.web.bots import DEFAULT_BOT_SECONDS, DEFAULT_BOT_WORKERS
from tribune_arena.human.web.checks import WebError, check_person_name
from tribune_arena.human.web.manager import GameManager
from tribune_arena.human.web.options import game_options
from tribune_arena.human.web.saving import SaveDir
from tribune_arena.human.web.session import PlaySession
from tribune_arena.human.web.store import ABANDONED, StoreError

STATIC = Path(__file__).parent / "static"
KEY_HEADER = "X-Tribune-Key"
"""The header that carries the server's key."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SEAT_HEADER = "X-Tribune-Seat"
"""The header that carries a seat's key (the secret of its private link, ``#game=ID&seat=KEY``)."""
SEAT_ENDPOINTS = frozenset({"_act", "_resign", "_abandon", "remove", "_name"})
"""The requests a seat makes with its own key rather than the server's."""


def _seat_key() -> str | None:
    key = request.headers.get(SEAT_HEADER)
    return key if key else None


def _viewer(session: PlaySession) -> int | None:
    """The seat the request sees the game as: the seat whose key it carries, else a spectator (an app without a
    key, embedded in tests, shows the creator's seat)."""
    key = _seat_key()
    if key is not None:
        seat = session.seat_of(key)
        if seat is None:
            raise WebError(403, "this link is not a seat of this game (a seat's link opens that seat only)")
        return seat
    if current_app.config["TRIBUNE_SECRET"] is None or (session.keyless(session.seat) and _has_server_key()):
        return session.seat
    return None


def _actor(session: PlaySession) -> int:
    """The seat a request that plays, resigns or abandons acts for: the seat whose key it carries. Nothing else
    acts for a seat: not another seat's key, not the server's key (except for a seat that has no key, in a game
    stored before seats had keys); an app without a key, embedded in tests, acts for the creator's seat."""
    key = _seat_key()
    if key is not None:
        seat = session.seat_of(key)
        if seat is None:
            raise WebError(403, "this link is not a seat of this game: it cannot act for any seat")
        return seat
    if current_app.config["TRIBUNE_SECRET"] is None or (session.keyless(session.seat) and _has_server_key()):
        return session.seat
    raise WebError(403, "only a seat's own link can play, resign or abandon for it (send its key in X-Tribune-Seat)")


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a JSON body may have (the API's bodies are flat)."""
MAX_BODY = 1 << 20
"""The longest request body, in bytes."""
_HOST = re.compile(r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::(?P<port>[0-9]{1,5}))?")


def _host_name(host: str) -> str | None:
    """The name in a ``Host`` header (``[::1]:8000`` -> ``::1``, ``localhost`` -> ``localhost``); ``None`` for a
    malformed one (``127.0.0.1:80:80``, a port above 65535, characters a host name cannot have)."""
    found = _HOST.fullmatch(host)
    if found is None or (found["port"] is not None and int(found["port"]) > 65535):
        return None
    return found["ipv6"] or found["name"]


def _depth(value: object) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (iteratively: any depth is measured)."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            todo.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _body() -> object:
    """The request's JSON body; :class:`WebError` 400 for one that is missing, unreadable or not JSON."""
    try:
        data = request.get_data(cache=True)
    except (OSError, ClientDisconnected):  # a malformed chunked body ("Invalid chunk header"), a body cut short
        raise WebError(400, "the request body could not be read (malformed or incomplete)") from None
    if not data:
        raise WebError(400, "the request needs a JSON body")
    if not request.is_json:
        raise WebError(400, "the request body is not JSON (send Content-Type: application/json)")
    try:
        body = json.loads(data)
    except RecursionError:
        raise WebError(400, f"the JSON body is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError:  # not JSON, or not UTF-8
        raise WebError(400, "the request body is not JSON (send Content-Type: application/json)") from None
    if _depth(body) > MAX_DEPTH:
        raise WebError(400, f"the JSON body is nested too deeply (at most {MAX_DEPTH} levels)")
    return body


def _games() -> GameManager:
    manager: GameManager = current_app.extensions["tribune_games"]
    return manager


def _web_error(exc: WebError) -> tuple[Response, int]:
    return jsonify(error=exc.message, status=exc.status), exc.status


def _http_error(exc: HTTPException) -> tuple[Response, int]:
    status = exc.code or 500
    return jsonify(error=exc.description or exc.name, status=status), status


def _server_error(exc: Exception) -> tuple[Response, int]:
    """A bug (not a bad request): logged with its traceback and message, answered in JSON like every other error with
    the kind of error only (its message may hold what a viewer must not see, such as a hand: issue 42, W12)."""
    current_app.logger.exception("error in %s %s", request.method, request.path)
    return jsonify(error=f"internal error ({type(exc).__name__}); see the server's log", status=500), 500


def _check_length() -> None:
    """Refuse a body over :data:`MAX_BODY` by its ``Content-Length`` (waitress gives it for a chunked body too, once
    read), before anything reads it: a JSON 413 (issue 42, W15)."""
    length = request.content_length
    if length is not None and length > MAX_BODY:
        raise WebError(413, f"the request body is {length} bytes, more than this server's limit of {MAX_BODY} bytes")


def _check_host() -> None:
    raw = request.headers.get("Host")
    name = "" if raw is None else _host_name(raw)
    if name is None:
        raise WebError(400, f"malformed Host header {raw!r:.80}")
    if not current_app.config["TRIBUNE_ALLOW_REMOTE"] and name.lower() not in LOOPBACK_HOSTS:
        raise WebError(403, f"host {raw!r:.60} refused: this server answers on the loopback only")


def _has_server_key() -> bool:
    secret: str | None = current_app.config["TRIBUNE_SECRET"]
    if secret is None:
        return True
    given = request.headers.get(KEY_HEADER, "")
    return secrets.compare_digest(given.encode("utf-8", "replace"), secret.encode("utf-8"))


def _check_key() -> None:
    """Refuse a request that would change something without the server's key (see the module docstring); a
    seat's own requests are checked against the seat's key instead (:func:`_actor`)."""
    if request.method in SAFE_METHODS or request.endpoint in SEAT_ENDPOINTS:
        return
    if not _has_server_key():
        raise WebError(
            403,
            "this request changes a game and needs the server's key: open the link `tribune serve` printed "
            f"(it ends in ?key=...), or send the key in the {KEY_HEADER} header",
        )


def _no_store(response: Response) -> Response:
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _index() -> Response:
    return send_from_directory(STATIC, "index.html")


def _options() -> Response:
    return jsonify(game_options())


def _list_games() -> Response:
    """The unfinished games, for the server's owner only (its key): a game's id opens its watch view, so a client
    without the key lists none (issue 42, W12); it reaches a game by the link it was given."""
    if current_app.config["TRIBUNE_SECRET"] is not None and not _has_server_key():
        return jsonify(games=[], unfinished=[])
    unfinished = _games().unfinished()
    return jsonify(games=[game["id"] for game in unfinished], unfinished=unfinished)


def _new_game() -> tuple[Response, int]:
    games = _games()
    session = games.create(_body())
    keys = {str(seat): key for seat, key in session.new_keys.items()}
    with games.locked(session.id) as held:
        return jsonify({**held.state(held.seat), "seat_keys": keys}), 201


def _game_state(game_id: str) -> Response:
    with _games().locked(game_id) as session:
        return jsonify(session.state(_viewer(session)))


def _log(game_id: str) -> Response:
    """The game's whole log as the request's seat (or a spectator) may read it (:func:`.views.whole_log`)."""
    with _games().locked(game_id) as session:
        viewer = _viewer(session)
        return jsonify(id=session.id, step=session.step, log=views.whole_log(session, viewer))


def _act(game_id: str) -> Response:
    body = _body()
    with _games().locked(game_id) as session:
        seat = _actor(session)
        session.act(body, seat)
        return jsonify(session.state(seat))


def _resign(game_id: str) -> Response:
    with _games().locked(game_id) as session:
        seat = _actor(session)
        session.resign(seat)
        return jsonify(session.state(seat))


def _abandon(game_id: str) -> Response:
    with _games().locked(game_id) as session:
        seat = _actor(session)
        session.abandon(seat)
        return jsonify(session.state(seat))


def _name(game_id: str) -> Response:
    """``POST /api/games/<id>/name`` with ``{"name": ...}`` and a seat's key: that seat's person gives the name
    everyone sees for the seat, once (409 the second time); answers the game's state."""
    name = check_person_name(_body())
    with _games().locked(game_id) as session:
        seat = _actor(session)
        if seat not in session.humans:
            raise WebError(409, f"P{seat} is played by a bot; only a person's seat takes a name")
        try:
            given = session.store.name_person(session.id, seat, name)
        except StoreError as exc:
            raise WebError(503, f"the name could not be stored: {exc}") from None
        if not given:
            raise WebError(409, f"P{seat} has a name already ({session.store.people(session.id).get(seat)})")
        session.people[seat] = name
        return jsonify(session.state(seat))


def _replay(game_id: str) -> Response:
    """The ended game's replay page (the same page ``tribune replay --html`` writes)."""
    from tribune_arena.replay.html import replay_html

    with _games().locked(game_id) as session:
        if session.status == ABANDONED or not session.over:
            raise WebError(409, "only a finished or resigned game has a replay")
        page = replay_html(session.record())
    return Response(page, mimetype="text/html")


def _record(game_id: str) -> Response:
    with _games().locked(game_id) as session:
        if session.status == ABANDONED:
            raise WebError(409, "the game was abandoned; an abandoned game has no record")
        if not session.over:
            raise WebError(409, "the game is not over yet; its record is written when it ends")
        doc: dict[str, Any] = {"record": session.record().to_dict(), "saved": views.saved(session)}
        if session.saved is not None:
            doc["record"]["game_id"] = session.saved["game_id"]
        return jsonify(doc)


def _remove(game_id: str) -> Response:
    """``DELETE /api/games/<id>``: the same as ``POST .../abandon``, by the seat whose key the request carries (the
    server's key alone abandons no game: issue 42, W13); answers ``{"removed": id, "status": "abandoned"}``."""
    with _games().locked(game_id) as session:
        session.abandon(_actor(session))
    return jsonify(removed=game_id, status="abandoned")


def create_app(
    save_dir: str | Path | None = None,
    allow_remote: bool = False,
    max_games: int = 64,
    bot_seconds: float = DEFAULT_BOT_SECONDS,
    bot_workers: int = DEFAULT_BOT_WORKERS,
    secret: str | None = None,
    allow_cmd: bool = False,
) -> Flask:
    """The app. ``save_dir``: where the games database and the finished games' results files are (``None``: games
    in memory only, finished games not saved); raises :class:`~.store.StoreError` if another server uses it.
    ``allow_remote``: accept any ``Host`` and refuse agent specs that load a file. ``max_games``: games held in
    memory (the others are read back from the database when asked for). ``bot_seconds``: each bot's limit per move;
    ``bot_workers``: the processes that run the bots. ``secret``: the key every state-changing request must carry
    (``None``: none asked, for an app embedded in tests; ``tribune serve`` always gives one). ``allow_cmd``: run
    ``cmd:`` bot programs (refused otherwise). ``app.extensions["tribune_games"]`` is the
    :class:`~tribune_arena.human.web.session.GameManager` (close it when the server stops)."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["TRIBUNE_ALLOW_REMOTE"] = allow_remote
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["TRIBUNE_SECRET"] = secret
    saving = SaveDir(save_dir) if save_dir is not None else None
    app.extensions["tribune_games"] = GameManager(
        saving,
        max_games,
        allow_paths=not allow_remote,
        allow_cmd=allow_cmd,
        bot_seconds=bot_seconds,
        bot_workers=bot_workers,
    )
    app.register_error_handler(WebError, _web_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)
    app.before_request(_check_length)
    app.before_request(_check_host)
    app.before_request(_check_key)
    app.after_request(_no_store)
    app.add_url_rule("/", view_func=_index, methods=["GET"])
    app.add_url_rule("/api/options", view_func=_options, methods=["GET"])
    app.add_url_rule("/api/games", view_func=_list_games, methods=["GET"])
    app.add_url_rule("/api/games", endpoint="new_game", view_func=_new_game, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>", view_func=_game_state, methods=["GET"])
    app.add_url_rule("/api/games/<game_id>", endpoint="remove", view_func=_remove, methods=["DELETE"])
    app.add_url_rule("/api/games/<game_id>/log", view_func=_log, methods=["GET"])
    app.add_url_rule("/api/games/<game_id>/name", view_func=_name, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>/action", view_func=_act, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>/resign", view_func=_resign, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>/abandon", view_func=_abandon, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>/record", view_func=_record, methods=["GET"])
    app.add_url_rule("/api/games/<game_id>/replay", view_func=_replay, methods=["GET"])
    return app
