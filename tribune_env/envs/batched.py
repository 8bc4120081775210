"""``N`` single-agent games stepped together in one process: :class:`TribuneBatchedEnv`, a Gymnasium ``VectorEnv``.

Each of the ``num_envs`` games is a :class:`~tribune_env.envs.single.TribuneSingleEnv` (or, in the expansion spaces,
a :class:`~tribune_env.envs.single.TribuneExpansionSingleEnv`) built with the same game and keyword arguments, so
the learner, its opponents (played inside, up to the learner's next decision), rewards and illegal-action handling
are those of the single-agent environment. What the batch adds:

* stacked outputs: observations ``(num_envs, size)`` float32, rewards float64, terminations and truncations bool,
  and :meth:`TribuneBatchedEnv.action_masks` ``(num_envs, n)`` bool (what sb3-contrib's MaskablePPO asks for);
* auto-reset in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``): a game that ends is reset at once and its
  row holds the new game's first observation; the last observation and info of the finished game are in
  ``infos["final_obs"]`` / ``infos["final_info"]`` (object arrays, set where ``infos["_final_obs"]`` is true);
* seeding as Gymnasium's own vector environments: ``reset(seed=s)`` seeds game ``i`` with ``s + i``; a list seeds
  each game; the auto-resets draw from each game's generator.

So game ``i`` plays exactly the episodes of a ``TribuneSingleEnv`` reset with seed ``s + i`` and then reset without
a seed after each end (tested). No processes, pipes or pickling are involved: use it where the games are cheap next
to the cost of moving them between processes (docs/envs/usage.md, "Batched environment");
``tribune_env.integrations.sb3`` adapts it to Stable-Baselines3's ``VecEnv``.

Threads: ``step`` and ``reset`` play the games, and so the opponents' policies, with native thread pools limited
(:func:`~tribune_env.threads.limited_threads`: one BLAS thread unless ``TRIBUNE_THREADS`` says otherwise). The
learner's own policy, run between steps, is the caller's: on busy cores a threaded forward pass of 16 observations
costs about 10x more, so run the rollout loop inside ``limited_threads()`` (``tribune bench``'s "+ policy" figures).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tribune_env.codec import Space
from tribune_env.engine.config import GameConfig
from tribune_env.envs.options import config_and_space, split_options
from tribune_env.envs.single import TribuneSingleEnv, single_env_class
from tribune_env.threads import limited_threads


class TribuneBatchedEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` single-agent games stepped in one loop (module docstring).

    Args:
        num_envs: the number of games (>= 1).
        config: the game (a :class:`~tribune_env.GameConfig`), or give its fields among ``env_kwargs``.
        space: the spaces (:class:`~tribune_env.codec.Space` or its name): the expansion spaces build
            :class:`TribuneExpansionSingleEnv` games; default: the spaces of the game's rule set
            (``expansion=True`` or ``brutii=True`` choose the expansion environment).
        env_kwargs: the game's options and the single-agent environment's own, the same for every game
            (``obs_format`` must be ``"vector"``, the default).

    Raises:
        ValueError: a bad ``num_envs`` or ``obs_format``; the single-agent environment's own errors for its options.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's field)

    def __init__(
        self,
        num_envs: int = 16,
        config: GameConfig | None = None,
        *,
        space: Space | str | None = None,
        **env_kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs: must be an integer >= 1, got {num_envs!r}")
        if env_kwargs.get("obs_format", "vector") != "vector":
            shown = env_kwargs["obs_format"]
            raise ValueError(f"obs_format: the batched environment stacks vectors only, got {shown!r}")
        options, env_options = split_options(env_kwargs)
        game, chosen = config_and_space(config, options, space, type(self).__name__)
        cls = single_env_class(chosen)
        self.envs: list[TribuneSingleEnv] = [cls(game, **env_options) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = first.render_mode
        assert isinstance(self.single_observation_space, spaces.Box)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self._obs = np.zeros((num_envs, *self.single_observation_space.shape), dtype=np.float32)
        self._masks = np.zeros((num_envs, int(self.single_action_space.n)), dtype=bool)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=bool)
        self._truncations = np.zeros(num_envs, dtype=bool)

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every game; ``seed``: an int (game ``i`` gets ``seed + i``), one seed per game, or ``None``."""
        seeds = self._seeds(seed)
        infos: list[dict[str, Any]] = []
        with limited_threads():
            for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
                obs, info = env.reset(seed=s, options=options)
                self._obs[i] = obs
                infos.append(info)
        return self._obs.copy(), {"infos": infos}

    def reset_game(
        self, index: int, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset game ``index`` alone (its own seed and options); returns its observation and info."""
        obs, info = self.envs[index].reset(seed=seed, options=options)
        self._obs[index] = obs
        return self._obs[index].copy(), info

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int) and not isinstance(seed, bool):
            return [seed + i for i in range(self.num_envs)]
        if isinstance(seed, str | bytes) or not isinstance(seed, Sequence):
            raise ValueError(f"seed: expected an int, a list of {self.num_envs} seeds or None, got {seed!r}")
        if len(seed) != self.num_envs:
            raise ValueError(f"seed: got {len(seed)} seeds for {self.num_envs} games")
        return list(seed)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner action per game (an integer array of shape ``(num_envs,)``); finished games reset at once.

        Raises:
            ValueError: ``actions`` of another shape.
            IllegalMoveError: a value outside the action space (before any game moves), or an illegal action in
                ``"raise"`` mode (the games before it have moved).
        """
        acts = action_array(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), got {acts.shape}")
        for env, action in zip(self.envs, acts, strict=True):
            if env.table.index_in_space(action) is None:
                env.step(action)  # raises IllegalMoveError and changes nothing (in every mode), no game has moved
                raise AssertionError(f"step accepted {action!r}, outside the action space")
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info = np.full(self.num_envs, None, dtype=object)
        done_rows = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = []
        with limited_threads():  # the opponents' policies (tribune_env.threads), one scope for all the games
            for i, env in enumerate(self.envs):
                obs, reward, terminated, truncated, info = env.step(acts[i])
                self._rewards[i] = reward
                self._terminations[i] = terminated
                self._truncations[i] = truncated
                if terminated or truncated:
                    final_obs[i], final_info[i], done_rows[i] = obs, info, True
                    obs, info = env.reset()
                self._obs[i] = obs
                infos.append(info)
        out: dict[str, Any] = {"infos": infos}
        if done_rows.any():
            out.update(final_obs=final_obs, _final_obs=done_rows, final_info=final_info, _final_info=done_rows)
        return self._obs.copy(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), out

    def action_masks(self) -> np.ndarray:
        """Bool masks of every game's legal learner actions, shape ``(num_envs, n)``."""
        for i, env in enumerate(self.envs):
            self._masks[i] = env.action_masks()
        return self._masks.copy()

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in getattr(self, "envs", ()):  # also when the constructor failed
            env.close()


def action_array(actions: Any) -> np.ndarray:
    """``actions`` as an array; a list or tuple keeps its values as given (an object array), since numpy would change
    them: ``[3, 2**63]`` becomes floats and ``[3, True]`` integers, so a bad value would reach a game as another one
    (or another game's action as a float). Each game then judges its own value."""
    if isinstance(actions, list | tuple):
        return np.asarray(actions, dtype=object)
    return np.asarray(actions)
