"""Gymnasium single-agent wrapper: one learning seat, the other seats played by opponents.

Registered as ``tribune_env/TribuneSingle-v0``. Observations are the learner's
float32 vector (``Box``), actions the codec's ``Discrete`` integers, and
:meth:`TribuneSingleEnv.action_masks` gives the legal ones (what sb3-contrib's
MaskablePPO asks for). The reward is 0 until the game ends and then the
learner's own result under the reward scheme, whatever seat it sits in.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from tribune_env.data import Components
from tribune_env.engine.game import Game
from tribune_env.envs.aec import RENDER_MODES
from tribune_env.envs.policies import Opponent, RandomPolicy, ViewAgent
from tribune_env.envs.rewards import RewardFn
from tribune_env.envs.table import Table

MAX_RESTARTS = 100  # games that end before the learner ever decides are replaced (practically never happens)


class TribuneSingleEnv(gym.Env[np.ndarray, np.int64]):
    """Tribune for one learner.

    Args:
        players: 2 to 5.
        learner_seat: the learner's seat, or ``None`` for a random seat each episode.
        opponents: one opponent for all other seats, or one per other seat (in seat
            order, skipping the learner); default: :class:`RandomPolicy`.
        victory_card, point_variant, reward, round_limit, components: as for the AEC environment.
        render_mode: ``"ansi"`` or ``"human"``.
    """

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012  (gymnasium declares it an instance variable)

    def __init__(
        self,
        players: int = 4,
        learner_seat: int | None = None,
        opponents: Opponent | Sequence[Opponent] | None = None,
        victory_card: str | None = None,
        point_variant: bool = False,
        reward: str | RewardFn = "win_loss",
        round_limit: int = 60,
        components: Components | str | Path | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode: expected one of {RENDER_MODES} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.table = Table(players, victory_card, point_variant, reward, round_limit, components)
        if learner_seat is not None and not 0 <= learner_seat < players:
            raise ValueError(f"learner_seat: must be in 0..{players - 1} or None, got {learner_seat}")
        self.fixed_seat = learner_seat
        self.opponents = _opponent_list(opponents, players)
        encoder, codec = self.table.encoder, self.table.codec
        self.observation_space = spaces.Box(low=0.0, high=encoder.high, shape=(encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(codec.n)
        self.seat = 0 if learner_seat is None else learner_seat
        self._rng = np.random.default_rng()

    @property
    def game(self) -> Game:
        return self.table.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for i, opponent in enumerate(self.opponents):
                if hasattr(opponent, "seed"):
                    opponent.seed(seed + 1 + i)
        for _ in range(MAX_RESTARTS):
            self.seat = self._pick_seat()
            self.table.new_game(self._rng)
            self._play_opponents()
            if not self.table.game.is_over:
                return self.table.observation(self.seat), self._info()
        raise RuntimeError(f"{MAX_RESTARTS} games in a row ended before the learner's first decision")

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.table.play(action, self.seat, f"the learner (seat {self.seat})")
        self._play_opponents()
        game = self.table.game
        reward = self.table.rewards()[self.seat] if game.is_over else 0.0
        info = self._info()
        if game.is_over:
            info.update(self.table.result_info())
        if self.render_mode == "human":
            self.render()
        return self.table.observation(self.seat), reward, game.is_over and not game.truncated, game.truncated, info

    def _pick_seat(self) -> int:
        if self.fixed_seat is not None:
            return self.fixed_seat
        return int(self._rng.integers(self.table.num_players))

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once the game is over)."""
        return self.table.mask(self.seat).astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "action_mask": self.table.mask(self.seat)}

    def _play_opponents(self) -> None:
        table = self.table
        game = table.game
        while not game.is_over and game.current_seat != self.seat:
            seat = game.current_seat
            opponent = self.opponents[(seat - self.seat - 1) % table.num_players]
            if isinstance(opponent, ViewAgent):
                game.apply(opponent.act(game.view(seat), game.legal_actions()))
            else:
                table.play(opponent(table.observation(seat), table.mask(seat)), seat, f"opponent in seat {seat}")

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _opponent_list(opponents: Opponent | Sequence[Opponent] | None, players: int) -> list[Opponent]:
    if opponents is None:
        return [RandomPolicy() for _ in range(players - 1)]
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        found = list(opponents)
        if len(found) != players - 1:
            raise ValueError(f"opponents: expected {players - 1} opponents for {players} players, got {len(found)}")
    else:
        found = [opponents] * (players - 1)
    for opponent in found:
        if not (callable(opponent) or isinstance(opponent, ViewAgent)):
            raise TypeError(f"opponents: {opponent!r} is neither a (observation, mask) -> int callable nor has act()")
    return found
