"""Ray RLlib glue: a turn-based :class:`MultiAgentEnv`, a masking PPO module and the export to the numpy format.

Everything RLlib needs from the project is here, so a user writes no glue::

    from ray.rllib.algorithms.ppo import PPOConfig
    from tribune_env.integrations.rllib import shared_policy_config

    algo = shared_policy_config({"players": 4}).env_runners(num_env_runners=2).build_algo()
    algo.train()

* :class:`TribuneMultiAgentEnv` plays one game per episode. Agents are ``player_0`` ... ``player_{n-1}``; only
  the seat to act gets an observation, a ``Dict`` with ``"observations"`` (the codec's float32 vector) and
  ``"action_mask"`` (float32 0/1), the keys RLlib's masking modules read. Seats given to ``opponents`` are
  played inside the environment (reference agents, snapshots) and never appear to RLlib. Rewards are the
  environment's reward scheme (``reward=``, dense ones included); a seat's reward reaches RLlib when it next
  acts or when the game ends. ``illegal_action`` defaults to ``"penalty"`` because RLlib's own environment
  check steps unmasked random actions.
* :class:`TribuneTorchModule` is a PPO ``TorchRLModule`` with separate actor and critic MLPs, the layout of
  sb3-contrib's ``MlpPolicy``; illegal logits are pushed to the float minimum. :func:`module_spec` builds its
  spec from the environment's spaces and :func:`module_arrays` reads its weights under the names of the project's
  ``.npz`` policy format; ``training.rllib_export.export_module`` writes that file, so an RLlib-trained network
  plays as ``ppo:PATH`` in tournaments and ``tribune play``.

Ray and torch are imported when this module is; install them with the ``rllib`` extra (``pip install -e '.[rllib]'``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from tribune_env.extras import missing_extra

try:
    import torch
    from gymnasium import spaces
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as err:  # pragma: no cover - depends on the install
    raise ImportError(missing_extra("tribune_env.integrations.rllib", "rllib", err)) from err

from tribune_env.engine.config import config_fields
from tribune_env.envs.dense_reward import ScoreShaping
from tribune_env.envs.options import (
    DEFAULT_ILLEGAL_PENALTY,
    ILLEGAL_ACTIONS,
    check_choice,
    check_penalty,
    config_and_space,
    split_options,
)
from tribune_env.envs.policies import Opponent, opponent_kind, play_opponent
from tribune_env.envs.table import IllegalMoveError, Table

__all__ = [
    "OBS_KEY",
    "SHARED_POLICY",
    "TribuneMultiAgentEnv",
    "TribuneTorchModule",
    "module_arrays",
    "module_spec",
    "shared_policy_config",
]

OBS_KEY = "observations"  # the key RLlib's masking modules read the observation under
MASK_KEY = "action_mask"
SHARED_POLICY = "shared"  # the module id of the one policy every seat plays in shared_policy_config
ENV_OPTIONS = frozenset({"reward", "illegal_action", "illegal_penalty", "seed", "space"})
"""The environment's own options; the others of its env config are the game's (``config_fields()``)."""
MultiAgentDict = dict[Any, Any]
StepResult = tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]
ACTIVATIONS: dict[str, type[torch.nn.Module]] = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


class TribuneMultiAgentEnv(MultiAgentEnv):
    """One Tribune game per episode as an RLlib multi-agent environment (see the module docstring).

    ``config`` (RLlib's env config, a plain dict): the game's options (the fields of
    :class:`~tribune_env.GameConfig`: ``players``, ``victory_card``, ``round_limit``, ``components`` (also a TOML
    path), ``expansion``, ``brutii``, ...) and the environment's own (:data:`ENV_OPTIONS`): ``reward``,
    ``illegal_action`` (``"penalty"``, ``"penalty_end"`` or ``"raise"``), ``illegal_penalty``, ``seed`` and
    ``space`` (``"base"`` or ``"expansion"``; default: the spaces of the game's rule set, so expansion and Brutii
    games use the expansion spaces).

    Raises:
        ValueError: an unknown or bad option, named.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        game_options, options = split_options(dict(config or {}))
        unknown = sorted(set(options) - ENV_OPTIONS)
        if unknown:
            known = ", ".join(sorted({*ENV_OPTIONS, *config_fields()}))
            raise ValueError(f"TribuneMultiAgentEnv: unknown option(s) {', '.join(unknown)}; known: {known}")
        self.illegal_action = check_choice("illegal_action", options.get("illegal_action", "penalty"), ILLEGAL_ACTIONS)
        self.illegal_penalty = check_penalty(options.get("illegal_penalty", DEFAULT_ILLEGAL_PENALTY))
        game, chosen = config_and_space(None, game_options, options.get("space"), type(self).__name__)
        self.table = Table(game, space=chosen, reward=options.get("reward", "win_loss"))
        codec, encoder = self.table.codec, self.table.encoder
        self.possible_agents = [f"player_{i}" for i in range(self.table.num_players)]
        self.agents = list(self.possible_agents)
        space = spaces.Dict({
            OBS_KEY: spaces.Box(0.0, encoder.high, shape=(encoder.size,), dtype=np.float32),
            MASK_KEY: spaces.Box(0.0, 1.0, shape=(codec.n,), dtype=np.float32),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(codec.n))
        self._shaping = ScoreShaping(self.table)
        self._rng = np.random.default_rng(options.get("seed"))
        self.opponents: dict[int, tuple[Opponent, str]] = {}
        self._owed: dict[str, float] = {}
        self._seen: set[str] = set()

    # -- who plays which seat (subclasses draw opponents) ----------------------------

    def draw_opponents(self, rng: np.random.Generator) -> dict[int, Opponent]:
        """The seats played inside the environment this episode, and by whom; none here (every seat is RLlib's)."""
        return {}

    # -- episode --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.table.new_game(self._rng)
        drawn = self.draw_opponents(self._rng)
        self.opponents = {seat: (o, opponent_kind(o)) for seat, o in drawn.items()}
        self.agents = [str(a) for seat, a in enumerate(self.possible_agents) if seat not in self.opponents]
        if not self.agents:
            raise ValueError("TribuneMultiAgentEnv: draw_opponents left no seat to RLlib")
        self._owed = {str(a): 0.0 for a in self.agents}
        self._seen = set()
        before = self._shaping.before(self.table.game)
        self._play_opponents()
        self._owe(before)
        if self.table.game.is_over:  # every seat inside: cannot happen with an RLlib seat, but stay correct
            raise ValueError("TribuneMultiAgentEnv: the game ended before an RLlib seat acted")
        agent = self._to_act()
        self._seen.add(agent)
        return {agent: self._observe(agent)}, {agent: {}}

    def step(self, action_dict: MultiAgentDict) -> StepResult:  # type: ignore[override]  # gym.Env's step
        agent = self._to_act()
        if agent not in action_dict:
            raise ValueError(f"TribuneMultiAgentEnv: {agent} is to act, got actions for {sorted(action_dict)}")
        before = self._shaping.before(self.table.game)
        try:
            self.table.play(action_dict[agent], self.possible_agents.index(agent), agent)
        except IllegalMoveError as err:
            if self.illegal_action == "raise":
                raise
            return self._illegal(agent, str(err))
        self._play_opponents()
        self._owe(before)
        if self.table.game.is_over:
            return self._finish()
        nxt = self._to_act()
        self._seen.add(nxt)
        rewards = self._pay(lambda a: a in self._seen)
        infos: dict[str, Any] = {nxt: {}}
        return {nxt: self._observe(nxt)}, rewards, {"__all__": False}, {"__all__": False}, infos

    # -- internals -------------------------------------------------------------------

    def _to_act(self) -> str:
        return str(self.possible_agents[self.table.game.current_seat])

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {OBS_KEY: self.table.observation(seat), MASK_KEY: self.table.mask(seat).astype(np.float32)}

    def _play_opponents(self) -> None:
        game = self.table.game
        while not game.is_over and game.current_seat in self.opponents:
            seat = game.current_seat
            opponent, kind = self.opponents[seat]
            play_opponent(self.table, opponent, kind, seat, f"opponent in seat {seat}")

    def _owe(self, before: list[int] | None) -> None:
        """Book the dense term of the moves since ``before`` (nothing for the final-result schemes)."""
        for agent, change in zip(self.possible_agents, self._shaping.change(self.table.game, before), strict=True):
            if agent in self._owed:
                self._owed[agent] += change

    def _pay(self, who: Callable[[str], bool]) -> dict[str, float]:
        """The owed rewards of the agents ``who`` selects (RLlib accepts rewards only for agents it has seen)."""
        paid = {a: r for a, r in self._owed.items() if who(a)}
        for agent in paid:
            self._owed[agent] = 0.0
        return paid

    def _finish(self) -> StepResult:
        table = self.table
        final = table.rewards()
        for agent in self._owed:
            self._owed[agent] += final[self.possible_agents.index(agent)]
        ended = [a for a in self.agents if a in self._seen]
        rewards = self._pay(lambda a: a in self._seen)
        truncated = table.game.truncated
        info = table.result_info()
        observations = {a: self._observe(a) for a in ended}
        return (observations, rewards, {"__all__": not truncated}, {"__all__": truncated},
                {a: dict(info) for a in ended})

    def _illegal(self, agent: str, detail: str) -> StepResult:
        """A penalty for ``agent``; it acts again (``penalty``) or the episode ends for everyone (``penalty_end``)."""
        self._owed[agent] += self.illegal_penalty
        infos = {agent: {"illegal_action": detail}}
        if self.illegal_action == "penalty":
            return {agent: self._observe(agent)}, self._pay(lambda a: a == agent), {"__all__": False}, \
                {"__all__": False}, infos
        rewards = {a: (self._owed[a] if a == agent else 0.0) for a in self.agents if a in self._seen}
        self._owed = dict.fromkeys(self._owed, 0.0)
        observations = {a: self._observe(a) for a in rewards}
        return observations, rewards, {"__all__": True}, {"__all__": False}, {a: infos.get(a, {}) for a in rewards}


# -- the masking PPO module ------------------------------------------------------------------


def _mlp(sizes: list[int], activation: type[torch.nn.Module]) -> torch.nn.Sequential:
    layers: list[torch.nn.Module] = []
    for size_in, size_out in itertools.pairwise(sizes):
        layers += [torch.nn.Linear(size_in, size_out), activation()]
    return torch.nn.Sequential(*layers)


class TribuneTorchModule(TorchRLModule, ValueFunctionAPI):
    """PPO actor and critic MLPs over ``"observations"``, logits masked by ``"action_mask"``.

    ``model_config``: ``pi`` and ``vf`` (hidden sizes, default ``[256, 256]``) and ``activation``
    (``"tanh"`` or ``"relu"``). Layer names follow the ``.npz`` format of :mod:`agents.ppo`
    (``pi``/``action``, ``vf``/``value``); :func:`module_arrays` reads them out.
    """

    def setup(self) -> None:
        config: dict[str, Any] = self.model_config if isinstance(self.model_config, dict) else {}
        activation = ACTIVATIONS[config.get("activation", "tanh")]
        observation_space: Any = self.observation_space
        action_space: Any = self.action_space
        size = int(np.prod(observation_space[OBS_KEY].shape))
        pi, vf = list(config.get("pi", [256, 256])), list(config.get("vf", [256, 256]))
        self.pi = _mlp([size, *pi], activation)
        self.action = torch.nn.Linear(([size, *pi])[-1], int(action_space.n))
        self.vf = _mlp([size, *vf], activation)
        self.value = torch.nn.Linear(([size, *vf])[-1], 1)

    def _masked_logits(self, batch: dict[str, Any]) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.action(self.pi(obs[OBS_KEY]))
        floor = torch.finfo(logits.dtype).min
        return {Columns.ACTION_DIST_INPUTS: torch.where(obs[MASK_KEY] > 0.5, logits, floor)}

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked_logits(batch)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        out = self._masked_logits(batch)
        out[Columns.EMBEDDINGS] = self.vf(batch[Columns.OBS][OBS_KEY])
        return out

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None:
            embeddings = self.vf(batch[Columns.OBS][OBS_KEY])
        return self.value(embeddings).squeeze(-1)


def module_spec(observation_space: Any = None, action_space: Any = None, *, pi: list[int] | None = None,
                vf: list[int] | None = None, activation: str = "tanh") -> RLModuleSpec:
    """The :class:`TribuneTorchModule` spec (spaces may be left to RLlib, which takes them from the env)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation: expected one of {', '.join(ACTIVATIONS)}, got {activation!r}")
    config = {"pi": list(pi or [256, 256]), "vf": list(vf or [256, 256]), "activation": activation}
    return RLModuleSpec(module_class=TribuneTorchModule, observation_space=observation_space,
                        action_space=action_space, model_config=config)


def module_arrays(module: TribuneTorchModule) -> dict[str, np.ndarray]:
    """The module's weights under the ``.npz`` names of :mod:`agents.ppo` (float32, torch's out x in layout)."""
    out: dict[str, np.ndarray] = {}
    for prefix, sequence in (("pi", module.pi), ("vf", module.vf)):
        linears = [m for m in sequence if isinstance(m, torch.nn.Linear)]
        for k, linear in enumerate(linears):
            out[f"{prefix}.{k}.weight"] = linear.weight.detach().cpu().numpy().astype(np.float32)
            out[f"{prefix}.{k}.bias"] = linear.bias.detach().cpu().numpy().astype(np.float32)
    for name, head in (("action", module.action), ("value", module.value)):
        out[f"{name}.weight"] = head.weight.detach().cpu().numpy().astype(np.float32)
        out[f"{name}.bias"] = head.bias.detach().cpu().numpy().astype(np.float32)
    return out


def shared_policy_config(env_config: Mapping[str, Any] | None = None, *, pi: list[int] | None = None,
                         vf: list[int] | None = None, activation: str = "tanh") -> PPOConfig:
    """A PPO config in which one masking policy (:data:`SHARED_POLICY`) plays every seat: self-play.

    Set env runners, batch sizes and learning rates on the result as usual in RLlib.
    """
    spec = module_spec(pi=pi, vf=vf, activation=activation)
    return (
        PPOConfig()  # type: ignore[no-untyped-call]
        .environment(TribuneMultiAgentEnv, env_config=dict(env_config or {}))
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=_everyone_shared, policies_to_train=[SHARED_POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: spec}))
    )


def _everyone_shared(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    return SHARED_POLICY
