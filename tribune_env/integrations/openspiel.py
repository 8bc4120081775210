"""Tribune as an OpenSpiel game, through OpenSpiel's Python game API (the ``openspiel`` extra: ``open-spiel``).

Importing this module registers two games with ``pyspiel``::

    import pyspiel
    import tribune_env.integrations.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_tribune", {"players": 4})
    game = pyspiel.load_game("python_tribune_expansion", {"players": 3})

``python_tribune`` plays the base game (2 to 5 players) in the base spaces of ``tribune/Tribune-v0`` (actions:
``Discrete(198)``; observations: 1,669 floats); ``python_tribune_expansion`` plays the Tribune Expansion (2 to 5
players, no Brutii) in the expansion spaces. Parameters: ``players`` (default 4), ``round_limit`` (the engine's
60 by default; a small one makes short games for tests) and ``deals`` (default 1,000).

**Chance.** The engine draws every card from a seed kept in its state. The game therefore has one chance node, at
the root: its outcome ``i`` (uniform over ``deals`` outcomes) is the seed of the deal, and every later draw follows
from it, so OpenSpiel's explicit-stochastic model holds exactly (a history of actions replays one game; serialising
a state is its history).

**Information.** Observations are the project's observation encoder (:class:`~tribune_env.codec.ObservationEncoder`,
the leak tests' standard: only what the seat may know, R1/R2); the observation string is the seat's text board
(:meth:`~tribune_env.engine.game.Game.render` with the seat: the other hands face down). The information state
string is perfect recall: a digest of the sequence of the seat's observations, a new entry each time the seat's
observation changes or the seat acts, so it holds nothing the observations do not.

**Worlds for IS-MCTS.** ``resample_from_infostate`` deals everything hidden from a seat again with the engine's
determinization (:meth:`~tribune_env.engine.game.Game.determinized`), so OpenSpiel's ``ISMCTSBot`` searches Tribune
(with ``allow_inconsistent_action_sets=True``: another seat's choices differ between worlds).

**Returns** are the environments' ``win_loss`` scheme: zero-sum, a winner gets ``(n - k) / (k (n - 1))`` of ``k``
winners, a loser ``-1 / (n - 1)``.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np

from tribune_env.codec import ActionCodec, ObservationEncoder, Space, codec_for, encoder_for
from tribune_env.engine.config import DEFAULT_ROUND_LIMIT, GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.rewards import win_loss
from tribune_env.extras import missing_extra

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(missing_extra("tribune_env.integrations.openspiel", "openspiel", err)) from err

BASE_NAME = "python_tribune"
EXPANSION_NAME = "python_tribune_expansion"
PLAYERS = (2, 3, 4, 5)
DEFAULT_PLAYERS = 4
DEFAULT_DEALS = 1000
SAMPLER_SEEDS = 2**53
"""Seeds of :meth:`TribuneState.resample_from_infostate`'s deals: a float of ``[0, 1)`` times this is an integer."""
DECISIONS_PER_SEAT_ROUND = 120
"""A bound on the decisions of one seat in one round, for ``max_game_length`` (random games make at most a few
dozen; the bound only has to hold)."""


def _game_type(name: str, long_name: str) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(PLAYERS),
        min_num_players=min(PLAYERS),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": DEFAULT_PLAYERS,
            "round_limit": DEFAULT_ROUND_LIMIT,
            "deals": DEFAULT_DEALS,
        },
    )


BASE_TYPE = _game_type(BASE_NAME, "Tribune: Primus Inter Pares (base game)")
EXPANSION_TYPE = _game_type(EXPANSION_NAME, "Tribune: Primus Inter Pares with the Tribune Expansion")


class _Rules:
    """A loaded game's fixed parts (config, codec, encoder, deals), shared by its states and their copies."""

    def __init__(self, config: GameConfig, space: Space, deals: int) -> None:
        self.config, self.deals = config, deals
        self.codec: ActionCodec = codec_for(config.components, space)
        self.encoder: ObservationEncoder = encoder_for(config.components, config.round_limit, space)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self  # immutable: OpenSpiel's clone (a deep copy of the state) shares it


class _Engine:
    """The engine's game inside a state; OpenSpiel's clone copies it with :meth:`Game.clone` (components shared)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.clone())


class TribuneGame(pyspiel.Game):  # type: ignore[misc]
    """A Tribune game of ``params`` (``players``, ``round_limit``, ``deals``) in ``space``."""

    space = Space.BASE
    game_type = BASE_TYPE

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**self.game_type.parameter_specification, **(params or {})}
        players, round_limit, deals = int(values["players"]), int(values["round_limit"]), int(values["deals"])
        if players not in PLAYERS:
            raise ValueError(f"players: {players} is not supported; choose one of {PLAYERS}")
        if deals < 1:
            raise ValueError(f"deals: must be at least 1, got {deals}")
        config = GameConfig(players=players, round_limit=round_limit, expansion=self.space is Space.EXPANSION)
        self.rules = _Rules(config, self.space, deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.codec.n,
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=round_limit * players * DECISIONS_PER_SEAT_ROUND,
        )
        super().__init__(self.game_type, info, {"players": players, "round_limit": round_limit, "deals": deals})

    def new_initial_state(self) -> TribuneState:
        return TribuneState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TribuneObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return TribuneObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class TribuneExpansionGame(TribuneGame):
    """Tribune with the Tribune Expansion (no Brutii), in the expansion spaces."""

    space = Space.EXPANSION
    game_type = EXPANSION_TYPE


class TribuneState(pyspiel.State):  # type: ignore[misc]
    """A Tribune position: before the deal a chance node, then the engine's game (see the module docstring)."""

    def __init__(self, game: TribuneGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._engine: _Engine | None = None
        n = self._rules.config.players
        self._recall = [b""] * n  # each seat's digest of its observation sequence
        self._entries = [0] * n
        self._last: list[bytes | None] = [None] * n

    @property
    def game(self) -> Game | None:
        """The engine's game (None before the deal)."""
        return None if self._engine is None else self._engine.game

    # -- the protocol ----------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.current_seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._rules.deals
        return [(i, 1.0 / deals) for i in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        game = self.game
        if game is None or game.is_over or player != game.current_seat:
            return []
        return sorted(self._rules.codec.indices(game.legal_actions(), player, self._rules.config.players))

    def _apply_action(self, action: int) -> None:
        rules = self._rules
        if self._engine is None:
            self._engine = _Engine(Game.new(rules.config, seed=int(action)))
        else:
            game = self._engine.game
            seat = game.current_seat
            game.apply(rules.codec.decode(int(action), seat, rules.config.players))
            self._remember(seat, acted=True)
        for seat in range(rules.config.players):
            self._remember(seat, acted=False)

    def _remember(self, seat: int, acted: bool) -> None:
        """Add the seat's observation to its recall when it changed, or when the seat has just acted."""
        assert self.game is not None
        obs = self._rules.encoder.encode_game(self.game, seat).tobytes()
        if acted or obs != self._last[seat]:
            self._recall[seat] = hashlib.sha256(self._recall[seat] + (b"A" if acted else b"O") + obs).digest()
            self._entries[seat] += 1
            self._last[seat] = obs

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self._rules.codec.label(int(action)))

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over

    def returns(self) -> list[float]:
        if self.game is None or not self.game.is_over:
            return [0.0] * self._rules.config.players
        return [float(r) for r in win_loss(self.game)]

    def __str__(self) -> str:
        return "before the deal" if self.game is None else self.game.render()

    # -- what a seat knows -----------------------------------------------------------------------

    def observation_vector(self, seat: int) -> np.ndarray:
        """The project's observation of ``seat`` (zeros before the deal)."""
        encoder = self._rules.encoder
        if self.game is None:
            return np.zeros(encoder.size, dtype=np.float32)
        return encoder.encode_game(self.game, seat)

    def observation_text(self, seat: int) -> str:
        return "before the deal" if self.game is None else self.game.render(seat)

    def information_state_text(self, seat: int) -> str:
        return f"P{seat} {self._entries[seat]} {self._recall[seat].hex()}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TribuneState:
        """A copy consistent with everything ``player_id`` knows, the rest dealt again (IS-MCTS's worlds):
        :meth:`Game.determinized` from a seed drawn with ``probability_sampler`` (a callable giving a float in
        ``[0, 1)``, such as ``pyspiel.UniformProbabilitySampler``). The seat's observations and information state,
        the legal actions and the history are the original's; before the deal or at the end there is nothing
        hidden to deal, and the copy is the state as it is."""
        sampled: TribuneState = self.clone()
        game = self.game
        if game is None or game.is_over:
            return sampled
        seed = int(float(probability_sampler()) * SAMPLER_SEEDS)
        sampled._engine = _Engine(game.determinized(int(player_id), random.Random(seed)))
        return sampled


class TribuneObserver:
    """OpenSpiel's Python observer: the observation tensor and string, or (perfect recall) the information state
    string. Observation types that split public from private information are not offered: their strings are
    ``None`` and their tensors empty, which OpenSpiel's checks read as "not provided"."""

    def __init__(self, game: TribuneGame, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.offered = bool(iig_obs_type.public_info) and (
            iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        )
        size = game.rules.encoder.size if self.offered and not self.perfect_recall else 0
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: TribuneState, player: int) -> None:
        if self.tensor.size:
            self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: TribuneState, player: int) -> str | None:
        if not self.offered:
            return None
        return state.information_state_text(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(BASE_TYPE, TribuneGame)
pyspiel.register_game(EXPANSION_TYPE, TribuneExpansionGame)
