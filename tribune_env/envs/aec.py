"""The PettingZoo AEC environment: ``raw_env`` and the wrapped ``env``.

Agents are ``player_0`` .. ``player_{n-1}`` (agent ``player_i`` sits in seat
``i``). Every agent has the same spaces: a ``Dict`` observation with
``"observation"`` (float32 ``Box``, see ``docs/observation.md``) and
``"action_mask"`` (int8, 1 for legal actions), and a ``Discrete`` action space
(see ``docs/actions.md``); neither depends on the player count.

The game decides whose turn it is (:attr:`Game.pending`), so agents do not move
in a fixed cycle. Rewards arrive once, at the end of the game, under the chosen
scheme (:mod:`tribune_env.envs.rewards`); a game that ends by its victory card
sets ``terminations``, one cut at the round limit sets ``truncations`` (R25).
An illegal action raises :class:`IllegalMoveError` and changes nothing (``illegal_action="raise"``, the
default). With ``illegal_action="penalty"`` an illegal integer action (masked out or outside the action
space) changes nothing in the game, gives the acting agent ``illegal_penalty`` (default -1), sets
``infos[agent]["illegal_action"]`` to the integer and the same agent acts again, so checkers that step
unmasked random actions (RLlib's) run; ``"penalty_end"`` gives the penalty and terminates every agent's
episode (the others get 0). Values that are not integers (``None``, floats, strings) raise in every mode.
:class:`tribune_env.envs.wrappers.IllegalActionPenalty` does the same as a wrapper.

``obs_format="flat"`` replaces the ``Dict`` observation with one float32 ``Box`` (what SuperSuit's observation
wrappers need): the observation vector, then the action mask as 0.0/1.0 at ``env.mask_slice``
(``obs[env.mask_slice]``; the slice starts at the observation size and has one entry per action). In that
format ``infos[agent]["action_mask"]`` also holds each live agent's int8 mask, where PettingZoo's tools look
for it when the observation is not a ``Dict``.
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from tribune_env.codec import ActionCodec, Space
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.dense_reward import ScoreShaping
from tribune_env.envs.options import (
    DEFAULT_ILLEGAL_PENALTY,
    ILLEGAL_ACTIONS,
    OBS_FORMATS,
    check_choice,
    check_penalty,
    flat_observation,
    flat_space,
    game_config,
    mask_slice,
)
from tribune_env.envs.rewards import RewardFn
from tribune_env.envs.state_encoding import state_encoder_for
from tribune_env.envs.table import RENDER_MODES, IllegalMoveError, Table, as_index, check_render_mode
from tribune_env.envs.wrappers import OrderEnforcing, apply_illegal_penalty

RESET_OPTIONS = frozenset({"position"})


def env(config: GameConfig | None = None, **kwargs: Any) -> AECEnv[str, Any, int]:
    """The environment as PettingZoo's classic games ship it: ``raw_env`` inside the order-enforcing wrapper
    (:class:`~tribune_env.envs.wrappers.OrderEnforcing`, PettingZoo's wrapper with direct attribute reads)."""
    return OrderEnforcing(raw_env(config, **kwargs))


class raw_env(AECEnv[str, Any, int], EzPickle):
    """Tribune as an AEC environment.

    The game is ``config`` or, without one, the :class:`~tribune_env.GameConfig` of the keyword ``options`` (its
    fields: ``players`` 2 to 5, ``victory_card`` (``None``: a random one each game, R3), ``point_variant``,
    ``round_limit`` (R25), ``components`` (a :class:`Components` object or a TOML path), ...), as ``Game.new`` takes
    it. This class plays base games in the base spaces; :class:`expansion_raw_env` plays every rule set.

    Args:
        config: the game (give it or ``options``, not both).
        reward: ``"win_loss"`` (zero-sum, default), ``"rank"``, ``"score_margin"`` or a callable; ``"dense"``
            (``"dense:<scheme>"``) adds each seat's score change at every step (:mod:`tribune_env.envs.rewards`).
        render_mode: ``"ansi"`` (``render()`` returns the text board), ``"human"`` (prints it) or
            ``"rgb_array"`` (the drawn board, a fixed-size image; needs the ``render`` extra).
        illegal_action: ``"raise"`` (default), ``"penalty"`` or ``"penalty_end"`` (see the module docstring).
        illegal_penalty: the reward of an illegal action in the penalty modes (default -1.0).
        obs_format: ``"dict"`` (default) or ``"flat"`` (one ``Box``; the mask at :attr:`mask_slice`).
        engine: ``"python"``, ``"native"`` or ``None`` (default: ``TRIBUNE_ENGINE`` at each new game), the engine
            of every game (:class:`~tribune_env.envs.table.Table`).
        options: the game's options (:func:`~tribune_env.engine.config.config_fields`).

    Raises:
        TypeError: a config with options, or an unknown option.
        ValueError: a bad option, naming it.

    ``state()`` and ``state_space`` (PettingZoo's optional global state) give the whole game as one float32 vector
    for centralised critics (MAPPO-style): every seat's observation plus the hidden cards. It is PRIVILEGED
    information: never give it to a policy acting at the table (:mod:`tribune_env.envs.state_encoding`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "tribune_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    space: ClassVar[Space] = Space.BASE
    """The spaces this class plays in (the one thing the expansion class changes)."""

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        reward: str | RewardFn = "win_loss",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = DEFAULT_ILLEGAL_PENALTY,
        obs_format: str = "dict",
        engine: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_penalty = check_penalty(illegal_penalty)
        self.obs_format = check_choice("obs_format", obs_format, OBS_FORMATS)
        self.render_mode = render_mode
        game = game_config(config, options, self.space, type(self).__name__)
        self.table = Table(game, space=self.space, reward=reward, engine=engine)
        # pickles as the resolved game and the environment's own options
        EzPickle.__init__(
            self,
            game,
            reward=reward,
            render_mode=render_mode,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            obs_format=obs_format,
            engine=self.table.engine,
        )
        players = game.players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        codec, encoder = self.table.codec, self.table.encoder
        self.mask_slice = mask_slice(encoder.size, codec.n)
        """Where the action mask lies in a flat observation (``obs_format="flat"``)."""
        self._observation_space: spaces.Space[Any]
        if self.obs_format == "flat":
            self._observation_space = flat_space(encoder.high, codec.n)
        else:
            self._observation_space = spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=encoder.high, shape=(encoder.size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(codec.n,), dtype=np.int8),
                }
            )
        self._action_space: spaces.Space[Any] = spaces.Discrete(codec.n)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._rng = np.random.default_rng()
        self._init_state_and_shaping()  # state()/state_space and the dense reward (section below)

    # -- spaces -----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    @property
    def codec(self) -> ActionCodec:
        return self.table.codec

    @property
    def game(self) -> Game:
        """The running :class:`tribune_env.Game` (read it; change it only through ``step``)."""
        return self.table.game

    # -- episode ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` seeds this and later games; option ``position`` starts from a JSON document."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = options or {}
        unknown = set(options) - RESET_OPTIONS
        if unknown:
            warnings.warn(f"reset: ignoring unknown options {sorted(unknown)}", stacklevel=2)
        if "position" in options:
            self.table.load_position(options["position"])
        else:
            self.table.new_game(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if self.table.game.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.table.game.current_seat]
            self._info_masks()

    def observe(self, agent: str) -> Any:
        seat = self.agent_seat[agent]
        observation, mask = self.table.observe(seat)
        if self.obs_format == "flat":
            return flat_observation(observation, mask)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        before = self._shaping.before(self.table.game)  # dense reward: the scores before the move (else None)
        try:
            self.table.play(action, self.agent_seat[agent], agent)
        except IllegalMoveError:
            index = as_index(action)
            if self.illegal_action == "raise" or index is None or self.table.game.is_over:
                raise
            apply_illegal_penalty(self, agent, index, self.illegal_penalty, self.illegal_action == "penalty_end")
            if self.illegal_action == "penalty":
                self._info_masks()
            return
        self.infos[agent].pop("illegal_action", None)
        self._cumulative_rewards[agent] = 0.0
        game = self.table.game
        if game.is_over:
            self._finish(before)
        else:
            self.agent_selection = self.possible_agents[game.current_seat]
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._info_masks()
            self._pay_shaping(before)  # dense reward only
        if self.render_mode == "human":
            self.render()

    def _info_masks(self) -> None:
        """The flat format only: every live agent's mask in its ``infos`` (all zero but the agent to act)."""
        if self.obs_format == "flat":
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self.table.mask(self.agent_seat[agent])

    def _finish(self, before: list[int] | None = None) -> None:
        """Hand out the end-of-game rewards (with the last move's dense term) and end every agent's episode."""
        truncated = self.table.game.truncated
        rewards = self.table.rewards()  # may raise for a bad custom scheme: before any flag changes
        shaping = self._shaping.change(self.table.game, before)
        rewards = [r + d for r, d in zip(rewards, shaping, strict=True)]
        for agent, reward in zip(self.possible_agents, rewards, strict=True):
            self.rewards[agent] = reward
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = self.table.result_info()
        self._accumulate_rewards()
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    # -- global state (privileged) and dense reward -----------------------------

    def _init_state_and_shaping(self) -> None:
        self._state_encoder = state_encoder_for(self.table.encoder)
        high = self._state_encoder.high
        self.state_space = spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)
        """The space of :meth:`state` (PRIVILEGED: for centralised critics only)."""
        self._shaping = ScoreShaping(self.table)

    def state(self) -> np.ndarray:
        """The whole game as one float32 vector in :attr:`state_space`: PRIVILEGED information (every hand, the
        draw pile's order) for centralised critics in training; never give it to a policy acting at the table.
        Layout: :mod:`tribune_env.envs.state_encoding`. Works at every step and after the game ends."""
        return self._state_encoder.encode(self.table.game.position())

    def _pay_shaping(self, before: list[int] | None) -> None:
        """Dense reward: pay every seat its score change of the move just played (nothing without it)."""
        if before is None:
            return
        for agent, change in zip(self.possible_agents, self._shaping.change(self.table.game, before), strict=True):
            self.rewards[agent] = change
        self._accumulate_rewards()

    # -- rendering --------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass


def expansion_env(config: GameConfig | None = None, **kwargs: Any) -> AECEnv[str, Any, int]:
    """``tribune/TribuneExpansion-v0``: :class:`expansion_raw_env` inside the order-enforcing wrapper."""
    return OrderEnforcing(expansion_raw_env(config, **kwargs))


class expansion_raw_env(raw_env):
    """Tribune with the Tribune Expansion as an AEC environment (``tribune/TribuneExpansion-v0``).

    The same API as :class:`raw_env`, with the expansion spaces: one ``Discrete`` action space and one observation
    size for every seat count and rule set (``docs/actions-expansion.md``, ``docs/observation-expansion.md``).
    Keyword options play the expansion unless they say ``expansion=False`` (base rules in the same spaces);
    ``players`` 2 to 5, with the Brutii 5 or 6.

    The Brutii variant (``brutii=True``, R42-R54; ``brutii_seat``: agent ``player_<seat>``, or ``None`` to draw it
    each game, R43) plays in the same spaces: one of the agents is the Brutii, an ordinary seat whose decisions
    are masked actions like any other (his action cards and Veto in their own blocks).
    """

    metadata: ClassVar[dict[str, Any]] = {**raw_env.metadata, "name": "tribune_expansion_v0"}
    space: ClassVar[Space] = Space.EXPANSION
