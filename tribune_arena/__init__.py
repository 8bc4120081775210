"""Games between agents and people, above the agents and below training.

* :mod:`tribune_arena.records`: a finished game's record (``GameRecord``), the one notion shared by
  tournaments, replays and the browser.
* :mod:`tribune_arena.tournament`: schedules, running games between agents (in process, worker processes or
  Ray), the results store and ratings.
* :mod:`tribune_arena.replay`: a recorded game step by step, as text and as one self-contained HTML page.
* :mod:`tribune_arena.human`: people playing against agents: in the terminal, in the browser, and the words
  that explain the game to them.
* :mod:`tribune_arena.bench`: the benchmarks behind ``tribune bench``.

The ``tribune`` command line itself lives in :mod:`tribune_cli`.
"""
