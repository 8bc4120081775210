"""``tribune serve``: play Tribune in the browser against agents (a local Flask app).

- :mod:`tribune_arena.human.web.session`: the games being played (:class:`.session.PlaySession`, one per game,
  each with its own lock) and their manager; validation of requests (:class:`.session.WebError`);
  saving finished games as replayable records. No web framework is imported there.
- :mod:`tribune_arena.human.web.store`: the games database (SQLite, every move committed as it is played), from
  which games are restored after a restart.
- :mod:`tribune_arena.human.web.bots`: the bots' moves in worker processes under a per-move time limit.
- :mod:`tribune_arena.human.web.app`: the Flask app (JSON API and the page under ``static/``).
- :mod:`tribune_arena.human.web.benchmark`: what durability costs a web action.
- :mod:`tribune_cli.serve`: the ``serve`` sub-command (Flask is imported only when it runs).
"""
