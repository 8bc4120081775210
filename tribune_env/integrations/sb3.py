"""Stable-Baselines3 ``VecEnv`` over :class:`~tribune_env.envs.batched.TribuneBatchedEnv`: :class:`BatchedVecEnv`.

``BatchedVecEnv(num_envs=16, players=4)`` is a ``VecEnv`` that sb3-contrib's ``MaskablePPO`` uses directly: its
``env_method("action_masks")`` returns every game's mask (what ``get_action_masks`` stacks), ``has_attr``
says the masks exist. Finished games are reset in the same step, the finished game's last observation in
``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` set for a truncated (not terminated)
game, as SB3's own vector environments do. All games run in this process (no ``SubprocVecEnv`` workers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from tribune_env.codec import Space
from tribune_env.engine.config import GameConfig
from tribune_env.envs.batched import TribuneBatchedEnv, action_array


class BatchedVecEnv(VecEnv):
    """SB3's ``VecEnv`` API over one :class:`TribuneBatchedEnv` (module docstring).

    Args:
        num_envs: the number of games.
        config, space, env_kwargs: as for :class:`TribuneBatchedEnv`: the game (a ``GameConfig`` or its options,
            e.g. ``players``, ``expansion``), the spaces (default: those of the game's rule set) and the
            single-agent environment's options (``opponents``, ``reward``, ...).
    """

    def __init__(
        self,
        num_envs: int = 16,
        config: GameConfig | None = None,
        *,
        space: Space | str | None = None,
        **env_kwargs: Any,
    ) -> None:
        self.batched = TribuneBatchedEnv(num_envs, config, space=space, **env_kwargs)
        super().__init__(num_envs, self.batched.single_observation_space, self.batched.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> VecEnvObs:
        """Reset every game with the seeds of :meth:`seed` and the options of :meth:`set_options`, if any."""
        seeds = list(self._seeds)
        if any(self._options):
            rows = []
            for i, (s, options) in enumerate(zip(seeds, self._options, strict=True)):
                row, self.reset_infos[i] = self.batched.reset_game(i, s, options or None)
                rows.append(row)
            obs = np.stack(rows)
        else:
            obs, extra = self.batched.reset(seed=seeds)
            self.reset_infos = list(extra["infos"])
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = action_array(actions).reshape(self.num_envs)  # Python ints beyond int64 kept as given

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rewards, terminated, truncated, extra = self.batched.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [dict(info) for info in extra["infos"]]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = extra["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            infos[i]["episode_info"] = extra["final_info"][i]
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.batched.close()

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n)`` bool masks of every game's legal learner actions."""
        return self.batched.action_masks()

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.batched.envs[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for i in self._indices(indices):
            setattr(self.batched.envs[i], attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks" and indices is None and not method_args and not kwargs:
            return list(self.batched.action_masks())
        return [getattr(self.batched.envs[i], method_name)(*method_args, **kwargs) for i in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.batched.envs[0], attr_name)

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]


