"""Tianshou 2.x glue: the Tribune AEC environments as Tianshou multi-agent environments, and the seat algorithms.

Tianshou plays a PettingZoo game through :class:`tianshou.env.PettingZooEnv`, which reads the legal actions from
a ``Dict`` observation's ``"action_mask"`` and hands its policies ``obs.obs`` (the observation vector),
``obs.mask`` (booleans) and ``obs.agent_id`` (``"player_i"``); a multi-agent algorithm holds one algorithm per
seat, in seat order. This module builds those pieces so that a training script writes no glue::

    from tribune_env.integrations import tianshou as ts_glue

    env = ts_glue.make_env(players=4)                       # game options and tribune_env.env's own
    learner = ts_glue.dqn_algorithm(env)                     # a masked DQN for one seat
    algorithm = ts_glue.multi_agent_algorithm(env, {0: learner})   # the other seats: masked random play
    envs = ts_glue.vector_env(4, players=4)                  # for tianshou.data.Collector

``examples/tianshou_multiagent.py`` trains and evaluates that setup.

What Tianshou's multi-agent layer does with a turn-based game (worth knowing before reading its numbers): each
step stores the reward of every seat, and a seat's algorithm learns from the steps on which it acted, its n-step
return summing its own reward column over the steps that follow (whoever moved). Tribune's default reward comes
once, on the game's last step, so it reaches a seat that did not move last only through that n-step return: give
:func:`dqn_algorithm` an ``n_step`` spanning the other seats' moves (``reward="dense"`` adds a shaped signal during
the game; docs/envs/usage.md, "Options for other RL libraries").

Tianshou is imported on first use; without it every function raises an :class:`ImportError` naming the
``tianshou`` extra.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from tribune_env.codec import Space
from tribune_env.engine.config import GameConfig
from tribune_env.envs.options import config_and_space, split_options
from tribune_env.extras import missing_extra

if TYPE_CHECKING:
    from gymnasium import spaces
    from tianshou.algorithm.algorithm_base import Algorithm
    from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.env import BaseVectorEnv, PettingZooEnv

EXTRA = "tianshou"


def require_tianshou() -> ModuleType:
    """Import and return ``tianshou``, or raise an :class:`ImportError` naming the extra to install."""
    try:
        return importlib.import_module("tianshou")
    except ImportError as missing:
        raise ImportError(missing_extra("tribune_env.integrations.tianshou", EXTRA, missing)) from missing


def make_env(config: GameConfig | None = None, *, space: Space | str | None = None, **kwargs: Any) -> PettingZooEnv:
    """Tianshou's ``PettingZooEnv`` around ``tribune_env.env`` or, in the expansion spaces, ``expansion_env``.

    ``config`` is the game, or give its options among ``kwargs`` (``players``, ``expansion``, ``brutii``, ...) with
    the AEC environment's own (``reward``, ``illegal_action``, ...). ``space`` (a :class:`Space` or its name)
    defaults to the spaces of the game's rule set. The observation must stay a ``Dict`` (``obs_format="dict"``,
    the default): Tianshou reads the mask only from there.

    Raises:
        ValueError: ``obs_format`` other than ``"dict"``, or a bad environment option (named by the environment).
        TypeError: an unknown option, or a config with game options.
        ImportError: Tianshou is not installed.
    """
    require_tianshou()
    if kwargs.get("obs_format", "dict") != "dict":
        raise ValueError(
            f"obs_format={kwargs['obs_format']!r}: Tianshou's PettingZooEnv reads the action mask from a Dict "
            "observation only; leave obs_format at 'dict' (with a flat Box it would offer every action as legal)"
        )
    from tianshou.env import PettingZooEnv

    from tribune_env.envs.aec import env, expansion_env

    options, env_options = split_options(kwargs)
    game, chosen = config_and_space(config, options, space, "make_env")
    make = expansion_env if chosen is Space.EXPANSION else env
    return PettingZooEnv(make(game, **env_options))


class EnvFactory:
    """A picklable ``() -> PettingZooEnv`` (for ``SubprocVectorEnv``): :func:`make_env` with fixed arguments."""

    def __init__(self, config: GameConfig | None = None, *, space: Space | str | None = None, **kwargs: Any) -> None:
        self.config = config
        self.space = space
        self.kwargs = kwargs

    def __call__(self) -> PettingZooEnv:
        return make_env(self.config, space=self.space, **self.kwargs)

    def __repr__(self) -> str:
        return f"EnvFactory({self.config!r}, space={self.space!r}, **{self.kwargs!r})"


def vector_env(
    n: int,
    config: GameConfig | None = None,
    *,
    subprocess: bool = False,
    space: Space | str | None = None,
    **kwargs: Any,
) -> BaseVectorEnv:
    """``n`` copies of :func:`make_env` in Tianshou's ``DummyVectorEnv`` (one process), or ``SubprocVectorEnv``
    (one worker process each: worth it when the policy's forward pass is cheap next to the game's steps and there
    are cores to spare); ``config``, ``space`` and ``kwargs`` as for :func:`make_env`.

    Raises:
        ValueError: ``n`` < 1, or a bad environment option.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive number of environments, got {n!r}")
    make_env(config, space=space, **kwargs).close()  # bad options fail here, with the environment's own message
    from tianshou.env import DummyVectorEnv, SubprocVectorEnv

    factories = [EnvFactory(config, space=space, **kwargs) for _ in range(n)]
    return SubprocVectorEnv(factories) if subprocess else DummyVectorEnv(factories)


def observation_space(env: PettingZooEnv) -> spaces.Box:
    """The observation vector's space (the ``"observation"`` part of the Dict): a network's input."""
    space = env.observation_space
    box = space["observation"] if hasattr(space, "spaces") else space
    from gymnasium import spaces

    if not isinstance(box, spaces.Box):
        raise TypeError(f"expected a Box observation vector, got {box!r}")
    return box


def agent_ids(env: PettingZooEnv) -> list[str]:
    """The agent names in seat order (``player_0`` ...), the order of :func:`multi_agent_algorithm`'s seats."""
    return [str(agent) for agent in env.agents]


def random_algorithm(env: PettingZooEnv) -> MARLRandomDiscreteMaskedOffPolicyAlgorithm:
    """A seat that plays a uniformly random legal action (it learns nothing)."""
    require_tianshou()
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm

    return MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space)


def dqn_algorithm(
    env: PettingZooEnv,
    *,
    hidden_sizes: Sequence[int] = (256, 256),
    lr: float = 1e-3,
    gamma: float = 0.99,
    n_step: int = 1,
    target_update_freq: int = 100,
    eps_training: float = 0.1,
    eps_inference: float = 0.0,
) -> DQN[DiscreteQLearningPolicy[Any]]:
    """A DQN seat on the observation vector with an MLP; Tianshou's DQN masks illegal actions (greedy and
    epsilon-random) with ``obs.mask``. ``n_step`` is Tianshou's ``n_step_return_horizon``.

    Raises:
        ValueError: a non-positive ``lr``, ``n_step`` < 1, or ``gamma``/``eps_*`` outside [0, 1].
    """
    if not lr > 0:
        raise ValueError(f"lr must be positive, got {lr!r}")
    if isinstance(n_step, bool) or not isinstance(n_step, int) or n_step < 1:
        raise ValueError(f"n_step must be an integer >= 1, got {n_step!r}")
    for name, value in (("gamma", gamma), ("eps_training", eps_training), ("eps_inference", eps_inference)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    require_tianshou()
    from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.utils.net.common import Net

    box = observation_space(env)
    net = Net(state_shape=box.shape, action_shape=int(env.action_space.n), hidden_sizes=list(hidden_sizes))
    policy = DiscreteQLearningPolicy(
        model=net,
        action_space=env.action_space,
        observation_space=box,
        eps_training=eps_training,
        eps_inference=eps_inference,
    )
    return DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=lr),
        gamma=gamma,
        n_step_return_horizon=n_step,
        target_update_freq=target_update_freq,
    )


def _seat_index(env: PettingZooEnv, seat: int | str) -> int:
    names = agent_ids(env)
    if isinstance(seat, str):
        if seat not in names:
            raise ValueError(f"unknown seat {seat!r}: this game's agents are {names}")
        return names.index(seat)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(names):
        raise ValueError(f"unknown seat {seat!r}: give a seat number 0..{len(names) - 1} or an agent name {names}")
    return seat


def multi_agent_algorithm(
    env: PettingZooEnv, learners: Mapping[int | str, Algorithm[Any, Any]] | None = None
) -> MultiAgentOffPolicyAlgorithm:
    """One algorithm per seat: ``learners`` (keyed by seat number or agent name) where given, masked random play
    (:func:`random_algorithm`) elsewhere. Every learner must be an off-policy algorithm (DQN and its kin), as the
    random seats are: Tianshou keeps on- and off-policy seats apart.

    Raises:
        ValueError: an unknown seat, or one given twice (by number and by name).
        TypeError: a learner that is not a Tianshou off-policy algorithm.
    """
    require_tianshou()
    from tianshou.algorithm.algorithm_base import OffPolicyAlgorithm
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm

    chosen: dict[int, OffPolicyAlgorithm[Any]] = {}
    for seat, algorithm in (learners or {}).items():
        index = _seat_index(env, seat)
        if index in chosen:
            raise ValueError(f"seat {seat!r} is given twice (seat {index} is {agent_ids(env)[index]!r})")
        if not isinstance(algorithm, OffPolicyAlgorithm):
            raise TypeError(
                f"seat {seat!r}: {type(algorithm).__name__} is not a Tianshou off-policy algorithm; the random seats "
                "are off-policy and Tianshou's multi-agent algorithm needs all seats of one kind (use DQN and its kin)"
            )
        chosen[index] = algorithm
    seats: list[OffPolicyAlgorithm[Any]] = [
        chosen[i] if i in chosen else random_algorithm(env) for i in range(len(agent_ids(env)))
    ]
    return MultiAgentOffPolicyAlgorithm(algorithms=seats, env=env)
