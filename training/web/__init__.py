"""``tribune serve``: play Tribune in the browser against agents (a local Flask app).

- :mod:`training.web.session`: the games being played (:class:`~training.web.session.PlaySession`, one per game,
  each with its own lock) and their manager; validation of requests (:class:`~training.web.session.WebError`);
  saving finished games as replayable records. No web framework is imported there.
- :mod:`training.web.app`: the Flask app (JSON API and the page under ``static/``).
- :mod:`training.web.command`: the ``serve`` sub-command (Flask is imported only when it runs).
"""
