"""The pool-backed PPO trainer (``algorithm: ppo-pool``, issue 43): every seat of ``N`` games played in a native
:class:`~tribune_env.envs.pool.TribunePool`, one batched forward per policy each step, masked PPO in torch.

Modules: :mod:`.config` (the YAML config), :mod:`.network` (the torch network and its ``.npz`` export),
:mod:`.opponents` (batched frozen policies), :mod:`.rollout` (the pool loop and the learner's rows),
:mod:`.gae` (advantages per game and learner seat), :mod:`.ppo` (the update), :mod:`.distill` (a network distilled
from ``heuristic``), :mod:`.run` (the run folder, checkpoints, curve, evaluations).
"""
