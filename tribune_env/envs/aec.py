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
An illegal action raises :class:`IllegalMoveError` and changes nothing; wrap the
environment in :class:`tribune_env.envs.wrappers.IllegalActionPenalty` to turn it
into a penalty instead.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tribune_env.codec import ActionCodec
from tribune_env.data import Components
from tribune_env.engine.game import Game
from tribune_env.envs.rewards import RewardFn
from tribune_env.envs.table import RENDER_MODES, Table, check_render_mode

RESET_OPTIONS = frozenset({"position"})


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The environment as PettingZoo's classic games ship it: ``raw_env`` inside the order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv[str, dict[str, np.ndarray], int], EzPickle):
    """Tribune as an AEC environment.

    Args:
        players: 2 to 5.
        victory_card: a victory card id, or ``None`` for a random one each game (R3).
        point_variant: play the point-value variant.
        reward: ``"win_loss"`` (zero-sum, default), ``"rank"``, ``"score_margin"`` or a callable.
        round_limit: rounds after which the game is truncated (R25).
        components: a :class:`Components` object or a TOML path (default: the packaged set).
        render_mode: ``"ansi"`` (``render()`` returns the text board), ``"human"`` (prints it) or
            ``"rgb_array"`` (the board drawn as an image; needs matplotlib).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "tribune_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    _expansion_space: ClassVar[bool] = False  # the expansion spaces (the expansion environment)
    _rules_expansion = False  # expansion rules (set by the expansion environment's constructor)
    _brutii = False  # the Brutii variant (set by the expansion environment's constructor)
    _brutii_seat: int | None = None  # his seat, None: at random (set by the expansion environment's constructor)

    def __init__(
        self,
        players: int = 4,
        victory_card: str | None = None,
        point_variant: bool = False,
        reward: str | RewardFn = "win_loss",
        round_limit: int = 60,
        components: Components | str | Path | None = None,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, players, victory_card, point_variant, reward, round_limit, components, render_mode)
        super().__init__()
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.table = Table(
            players,
            victory_card,
            point_variant,
            reward,
            round_limit,
            components,
            expansion=self._rules_expansion,
            expansion_space=self._expansion_space,
            brutii=self._brutii,
            brutii_seat=self._brutii_seat,
        )
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        codec, encoder = self.table.codec, self.table.encoder
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=encoder.high, shape=(encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(codec.n,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(codec.n)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._rng = np.random.default_rng()

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

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_seat[agent]
        return {"observation": self.table.observation(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.play(action, self.agent_seat[agent], agent)
        self._cumulative_rewards[agent] = 0.0
        game = self.table.game
        if game.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[game.current_seat]
            for a in self.rewards:
                self.rewards[a] = 0.0
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        """Hand out the end-of-game rewards and end every agent's episode."""
        truncated = self.table.game.truncated
        rewards = self.table.rewards()  # may raise for a bad custom scheme: before any flag changes
        for agent, reward in zip(self.possible_agents, rewards, strict=True):
            self.rewards[agent] = reward
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = self.table.result_info()
        self._accumulate_rewards()
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    # -- rendering --------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass


def expansion_env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """``tribune/TribuneExpansion-v0``: :class:`expansion_raw_env` inside the order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(expansion_raw_env(**kwargs))


class expansion_raw_env(raw_env):
    """Tribune with the Tribune Expansion as an AEC environment (``tribune/TribuneExpansion-v0``).

    The same API as :class:`raw_env`, with the expansion spaces: one ``Discrete`` action space and one observation
    size for every seat count and rule set (``docs/actions-expansion.md``, ``docs/observation-expansion.md``).

    The Brutii variant (R42-R54) plays in the same spaces: one of the agents is the Brutii, an ordinary seat whose
    decisions are masked actions like any other (his action cards and Veto in their own blocks).

    Args:
        expansion: play with the expansion rules (default); ``False`` plays base rules in the same spaces.
        players: 2 to 5; with the Brutii 5 or 6 (the seat counts of ``[expansion.brutii]``).
        brutii: play the Brutii variant (needs ``expansion``).
        brutii_seat: the Brutii's seat (agent ``player_<seat>``), or ``None`` to draw it each game (R43).
        others: as for :class:`raw_env`.
    """

    metadata: ClassVar[dict[str, Any]] = {**raw_env.metadata, "name": "tribune_expansion_v0"}
    _expansion_space: ClassVar[bool] = True

    def __init__(
        self,
        players: int = 4,
        victory_card: str | None = None,
        point_variant: bool = False,
        reward: str | RewardFn = "win_loss",
        round_limit: int = 60,
        components: Components | str | Path | None = None,
        render_mode: str | None = None,
        expansion: bool = True,
        brutii: bool = False,
        brutii_seat: int | None = None,
    ) -> None:
        self._rules_expansion = expansion
        self._brutii = brutii
        self._brutii_seat = brutii_seat
        super().__init__(players, victory_card, point_variant, reward, round_limit, components, render_mode)
        EzPickle.__init__(
            self,
            players,
            victory_card,
            point_variant,
            reward,
            round_limit,
            components,
            render_mode,
            expansion,
            brutii,
            brutii_seat,
        )
