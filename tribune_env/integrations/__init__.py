"""Glue for RL libraries the project does not write, one module per library, each imported on demand.

* :mod:`tribune_env.integrations.rllib`: Ray RLlib (action-masked multi-agent PPO).
* :mod:`tribune_env.integrations.tianshou`: Tianshou 2.x multi-agent training (the ``tianshou`` extra).

Importing this package imports no RL library; each module raises an :class:`ImportError` naming the extra to
install when its library is missing. Runnable recipes for these and for Stable-Baselines3 and SuperSuit live in
``examples/`` (see ``examples/README.md``).
"""
