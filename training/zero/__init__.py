"""Expert iteration (AlphaZero style) for the ``zero`` networks: self-play with search, a learner, the run.

``tribune train CONFIG`` runs it for a config with ``algorithm: zero`` (:mod:`training.zero.run`); the modules:
:mod:`~training.zero.config` (the YAML, checked), :mod:`~training.zero.selfplay` (games with search, numpy only),
:mod:`~training.zero.replay` (the replay window and its shards), :mod:`~training.zero.learner` (the torch network of
the :class:`~agents.ppo.NumpyPolicy` layout), :mod:`~training.zero.curve` (``curve.csv``, ``curve.png``) and
:mod:`~training.zero.run` (the run folder, resume, evaluations). Nothing here imports torch at import time except
:mod:`~training.zero.learner`.
"""
