"""The Flask app of ``tribune serve``: the page (``static/``) and its JSON API.

Routes (bodies and statuses: :mod:`tribune_arena.human.web.session`):

- ``GET /``: the page; ``GET /api/options``: what the new-game form offers;
- ``GET /api/games``: the ids of the games held; ``POST /api/games``: a new game (201, its state);
- ``GET /api/games/<id>``: a game's state (the board drawn for the person's seat, the decision and its choices in
  words, the victory card and progress, what changed since the person's last decision, the result);
- ``POST /api/games/<id>/action``: play the person's decision, then the agents up to the next one;
- ``GET /api/games/<id>/record``: the finished game's record (as saved); ``DELETE /api/games/<id>``: forget a game.

Every error is a JSON object ``{"error": message, "status": code}`` (a bug in the server too: 500, logged). Unless
the app allows remote use, requests whose ``Host`` is not a loopback name are refused (403), so that a web page
elsewhere cannot reach the server by DNS rebinding.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from tribune_arena.human.web.session import LOCK_WAIT, GameManager, PlaySession, SaveDir, WebError, game_options

STATIC = Path(__file__).parent / "static"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def _host_name(host: str) -> str:
    """``Host`` header without its port (``[::1]:8000`` -> ``::1``)."""
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


@contextmanager
def _locked(session: PlaySession) -> Iterator[PlaySession]:
    if not session.lock.acquire(timeout=LOCK_WAIT):
        raise WebError(409, "the game is busy with another request; try again")
    try:
        yield session
    finally:
        session.lock.release()


def _body() -> object:
    if not request.get_data():
        raise WebError(400, "the request needs a JSON body")
    body = request.get_json(silent=True)
    if body is None:
        raise WebError(400, "the request body is not JSON (send Content-Type: application/json)")
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
    """A bug (not a bad request): logged with its traceback, answered in JSON like every other error."""
    current_app.logger.exception("error in %s %s", request.method, request.path)
    return jsonify(error=f"internal error ({type(exc).__name__}: {exc!s:.200}); see the server's log", status=500), 500


def _loopback_only() -> None:
    if not current_app.config["TRIBUNE_ALLOW_REMOTE"] and _host_name(request.host) not in LOOPBACK_HOSTS:
        raise WebError(403, f"host {request.host!r:.60} refused: this server answers on the loopback only")


def _no_store(response: Response) -> Response:
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _index() -> Response:
    return send_from_directory(STATIC, "index.html")


def _options() -> Response:
    return jsonify(game_options())


def _list_games() -> Response:
    return jsonify(games=_games().ids())


def _new_game() -> tuple[Response, int]:
    session = _games().create(_body())
    with _locked(session):
        return jsonify(session.state()), 201


def _game_state(game_id: str) -> Response:
    with _locked(_games().get(game_id)) as session:
        return jsonify(session.state())


def _act(game_id: str) -> Response:
    session = _games().get(game_id)
    body = _body()
    with _locked(session):
        session.act(body)
        return jsonify(session.state())


def _record(game_id: str) -> Response:
    with _locked(_games().get(game_id)) as session:
        if not session.game.is_over:
            raise WebError(409, "the game is not over yet; its record is written when it ends")
        doc: dict[str, Any] = {"record": session.record().to_dict(), "saved": session.saved}
        if session.saved is not None:
            doc["record"]["game_id"] = session.saved["game_id"]
        return jsonify(doc)


def _remove(game_id: str) -> Response:
    _games().remove(game_id)
    return jsonify(removed=game_id)


def create_app(save_dir: str | Path | None = None, allow_remote: bool = False, max_games: int = 64) -> Flask:
    """The app. ``save_dir``: where finished games are saved (``None``: not saved). ``allow_remote``: accept any
    ``Host`` and refuse agent specs that load a file. ``app.extensions["tribune_games"]`` is the
    :class:`~tribune_arena.human.web.session.GameManager` (close it when the server stops)."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["TRIBUNE_ALLOW_REMOTE"] = allow_remote
    saving = SaveDir(save_dir) if save_dir is not None else None
    app.extensions["tribune_games"] = GameManager(saving, max_games, allow_paths=not allow_remote)
    app.register_error_handler(WebError, _web_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)
    app.before_request(_loopback_only)
    app.after_request(_no_store)
    app.add_url_rule("/", view_func=_index, methods=["GET"])
    app.add_url_rule("/api/options", view_func=_options, methods=["GET"])
    app.add_url_rule("/api/games", view_func=_list_games, methods=["GET"])
    app.add_url_rule("/api/games", endpoint="new_game", view_func=_new_game, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>", view_func=_game_state, methods=["GET"])
    app.add_url_rule("/api/games/<game_id>", endpoint="remove", view_func=_remove, methods=["DELETE"])
    app.add_url_rule("/api/games/<game_id>/action", view_func=_act, methods=["POST"])
    app.add_url_rule("/api/games/<game_id>/record", view_func=_record, methods=["GET"])
    return app
