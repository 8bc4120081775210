"""``N`` whole games stepped in one call by the native core: :class:`TribunePool` (EnvPool-style; issue 34).

Every seat of every game is played by the caller: each step takes one action (a codec index) per game for the seat
deciding there, and the core writes every game's next row into preallocated numpy arrays, with no Python object per
decision: the observation of the seat that decides next (float32), its action mask, that seat, the ``win_loss``
reward of every seat for a game that ended in this step (else 0), and a done flag. A game that ends is dealt again
at once (same-step auto-reset): its row already shows the next game. Games keep no event log; otherwise they play
exactly as ``Game.new(config, seed)`` on either engine (tests/native).

Use it for self-play learners and search, where one network plays every seat; :class:`TribuneBatchedEnv` is the
Gymnasium vector environment of one learning seat against opponents (its games also run on the native core).

    pool = TribunePool(64, players=4)
    obs, mask, seat = pool.reset(seed=0)
    for _ in range(1000):
        actions = my_policy(obs, mask)            # one index per game
        obs, mask, seat, reward, done = pool.step(actions)

The arrays returned are the pool's own buffers, overwritten by the next call (copy what you keep).

A pool may be shared between threads: each call holds the pool's lock for its whole native run (with the GIL
released, so other Python threads go on), so calls from several threads take turns and never interleave inside the
core. The rows a call returns are still the shared buffers, which the next call from any thread overwrites: a thread
that needs its rows copies them before another thread steps. Every method raises :class:`RuntimeError` before the
first :meth:`reset`, except :meth:`reset` itself, :attr:`illegal` and :meth:`episode_seeds` (all zeros then).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tribune_env.codec import Space, codec_for, encoder_for
from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.options import config_and_space

Rows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class TribunePool:
    """``num_games`` games of one config stepped together by the native core (module docstring).

    Args:
        num_games: the number of games (>= 1).
        config: the game, or give its fields as keyword options.
        space: the observation and action spaces (default: those of the rule set).
        threads: native threads stepping the games (the GIL is released; default 1).

    Raises:
        NativeUnavailableError: the native core is not built (``pip install -e .`` with a C++ compiler); a
            ``RuntimeError``. The pool has no ``engine`` argument: it runs the native core only.
        ValueError: a bad option.
    """

    def __init__(
        self,
        num_games: int,
        config: GameConfig | None = None,
        *,
        space: Space | str | None = None,
        threads: int = 1,
        **options: Any,
    ) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise ValueError(f"num_games: must be an integer >= 1, got {num_games!r}")
        native.require_native("TribunePool plays on the native core")  # NativeUnavailableError (a RuntimeError)
        self.config, self.space = config_and_space(config, options, space, type(self).__name__)
        components = self.config.components
        self.codec = codec_for(components, self.space)
        self.encoder = encoder_for(components, self.config.round_limit, self.space)
        native_encoder = native.core_module.ObservationEncoder(components, self.config.round_limit, self.space.value)
        self._pool = native.core_module.Batch(
            native.rules_for(self.config), self.codec.native_codec(), native_encoder, num_games, threads
        )
        self.num_games = num_games

    def reset(self, seed: int | np.ndarray = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game: game ``i`` gets ``seed + i`` (or ``seed[i]`` for an array); its observation, mask and
        deciding seat."""
        seeds = np.asarray(seed, dtype=np.uint64)
        if seeds.ndim == 0:
            seeds = int(seed) + np.arange(self.num_games, dtype=np.uint64)
        self._pool.reset(seeds)
        return self._pool.obs, self._pool.mask, self._pool.seat

    def step(self, actions: np.ndarray) -> Rows:
        """One action index per game for its deciding seat: observations, masks, seats, rewards ``(n, players)``
        and done flags. An illegal index leaves its game unchanged and is flagged in :attr:`illegal`.
        RuntimeError before the first :meth:`reset`."""
        self._dealt("step")
        self._pool.step(np.asarray(actions, dtype=np.int32))
        return self._rows()

    def step_random(self, steps: int = 1) -> Rows:
        """``steps`` steps with a uniformly random legal action in every game (benchmarks, random openings).
        RuntimeError before the first :meth:`reset`."""
        self._dealt("step_random")
        self._pool.step_random(steps)
        return self._rows()

    def _dealt(self, method: str) -> None:
        """RuntimeError unless :meth:`reset` has dealt the games (the core checks it again under its lock)."""
        if not self._pool.dealt:
            raise RuntimeError(f"TribunePool.{method}: no game is dealt yet; call reset() first")

    @property
    def illegal(self) -> np.ndarray:
        """Which games refused their action in the last :meth:`step` (bool)."""
        flags: np.ndarray = self._pool.illegal.astype(bool)
        return flags

    def game(self, index: int) -> Game:
        """A copy of game ``index`` as a :class:`Game` (on the native core), to read or to play on apart.
        IndexError for an index outside ``0..num_games-1``; RuntimeError before the first :meth:`reset`."""
        self._dealt("game")
        return Game(core=self._pool.core(index, self.config))

    def native_core(self, index: int) -> Any:
        """A copy of game ``index``'s native core (as :meth:`game`, without the :class:`Game` around it)."""
        self._dealt("native_core")
        return self._pool.core(index, self.config)

    def episode_seeds(self) -> list[int]:
        """The seed of every game's running episode (replay one with ``Game.new(config, seed)``)."""
        return list(self._pool.episode_seeds())

    def _rows(self) -> Rows:
        pool = self._pool
        return pool.obs, pool.mask, pool.seat, pool.reward, pool.done
