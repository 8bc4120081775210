"""Games beside the pool in which a real Python agent (``heuristic``) plays every seat but the learner's.

The pool's opponents are networks, batched; the distilled copy of ``heuristic`` is the closest of them and still
not ``heuristic``: a learner that beats three copies 76-79% of the time beats the real one about 66% of the time
(docs/training/pool.md). :class:`AgentTables` gives the learner a share of its rows against the real agent.
Its games run on the native core; the agent decides in Python (about 0.2-0.3 ms a decision), so these games cost
far more a row than the pool's and are kept few (``opponents.table_games``).

:class:`AgentTables` has the pool's row interface (``reset``/``step`` give observations, masks, seats, rewards and
done flags), but every row is the learner's: after the learner's action the agents play the other seats until the
learner's seat decides again or the game ends (then its ``win_loss`` rewards are given and a new game is dealt at
once, its learner seat drawn again). :class:`TableSeats` is the matching seat table for
:class:`~training.pool.rollout.Collector` (the learner's seat ``LEARNER``, the agents' ``AGENT``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from agents.specs import make_agent
from training.pool.opponents import LEARNER
from tribune_env.codec import Space, codec_for, encoder_for
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.rewards import reward_fn

AGENT = -1
"""The owner id of a seat a table's Python agent plays (never a row of the collector's)."""


class AgentTables:
    """``num_games`` games, the learner in one seat of each and ``agent`` in the others (module docstring).

    Args:
        num_games: the number of games (>= 1).
        config: the game.
        agent: the agent spec of the other seats (``heuristic``; any :func:`agents.specs.make_agent` spec).
    """

    def __init__(self, num_games: int, config: GameConfig, agent: str = "heuristic") -> None:
        if num_games < 1:
            raise ValueError(f"num_games: must be >= 1, got {num_games}")
        self.num_games, self.config, self.agent_spec = num_games, config, agent
        space = Space.for_rules(config.rules)
        self.encoder = encoder_for(config.components, config.round_limit, space)
        self.codec = codec_for(config.components, space)
        self.players = config.players
        self.agents = [[make_agent(agent, 0) for _ in range(self.players)] for _ in range(num_games)]
        self.score = reward_fn("win_loss")
        self.obs = np.zeros((num_games, self.encoder.size), dtype=np.float32)
        self.mask = np.zeros((num_games, self.codec.n), dtype=np.uint8)
        self.seat = np.zeros(num_games, dtype=np.int32)
        self.reward = np.zeros((num_games, self.players), dtype=np.float32)
        self.done = np.zeros(num_games, dtype=np.uint8)
        self.learner_seat = np.zeros(num_games, dtype=np.int64)
        self.games: list[Game] = []
        self.decisions = 0
        """Every decision applied so far, all seats (the learner's and the agents')."""
        self._rng = random.Random(0)

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game (deals and learner seats drawn from ``seed``); each game's first learner row."""
        self._rng = random.Random(seed)
        self.games = [self._deal(g) for g in range(self.num_games)]
        for g in range(self.num_games):
            self._to_learner(g)
        return self.obs, self.mask, self.seat

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The learner's action (a codec index) in every game, then the agents' until the learner decides again;
        the learner's next rows, the rewards of the games that ended (then dealt again) and their done flags."""
        self.reward[:] = 0.0
        self.done[:] = 0
        for g, index in enumerate(np.asarray(actions).tolist()):
            game = self.games[g]
            seat = int(self.learner_seat[g])
            game.apply(self.codec.decode(index, seat, self.players))
            self.decisions += 1
            self._to_learner(g)
        return self.obs, self.mask, self.seat, self.reward, self.done

    def native_core(self, g: int) -> Any:
        """Game ``g``'s native core (the live one: to read, not to play on)."""
        return self.games[g].native_core

    def _deal(self, g: int) -> Game:
        seed = self._rng.randrange(2**62)
        self.learner_seat[g] = self._rng.randrange(self.players)
        for seat, agent in enumerate(self.agents[g]):
            agent.reset(seat, self.config, self._rng.randrange(2**62))
        return Game.new(self.config, seed=seed)

    def _to_learner(self, g: int) -> None:
        """Play the agents' seats of game ``g`` until its learner decides (a game that ends is scored and dealt
        again); write the learner's row."""
        while True:
            game = self.games[g]
            if game.is_over:
                self.reward[g] = self.score(game)
                self.done[g] = 1
                game = self.games[g] = self._deal(g)
                continue
            seat = game.current_seat
            if seat == self.learner_seat[g]:
                break
            legal = game.legal_actions()
            game.apply(self.agents[g][seat].act(game.view(seat), legal, InfoSet(game, seat)))
            self.decisions += 1
        seat = int(self.learner_seat[g])
        self.seat[g] = seat
        self.encoder.encode_game(game, seat, self.obs[g])
        self.mask[g] = self.codec.mask_game(game, seat)


class TableSeats:
    """The seat table of :class:`AgentTables` for :class:`~training.pool.rollout.Collector`: ``owner[g, s]`` is
    ``LEARNER`` at the game's learner seat and ``AGENT`` elsewhere. As with the pool's seat table, a game's owners
    change when the collector calls :meth:`deal` for it (after it has scored the ended game), not before."""

    def __init__(self, tables: AgentTables) -> None:
        self.tables = tables
        self._owner: np.ndarray | None = None

    @property
    def owner(self) -> np.ndarray:
        if self._owner is None:  # first read after the tables' reset
            self._owner = np.full((self.tables.num_games, self.tables.players), AGENT, dtype=np.int64)
            self.deal(np.arange(self.tables.num_games))
        return self._owner

    def deal(self, games: np.ndarray) -> None:
        """Read the learner seats the tables drew for ``games``."""
        owner = self.owner
        owner[games] = AGENT
        owner[games, self.tables.learner_seat[games]] = LEARNER
