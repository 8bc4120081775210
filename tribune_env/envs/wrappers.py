"""Opt-in wrappers of the AEC environment."""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from tribune_env.envs.table import IllegalMoveError


class IllegalActionPenalty(BaseWrapper[str, dict[str, np.ndarray], int]):
    """Turn an illegal action into a penalty instead of an error.

    The offending agent's reward is ``penalty`` and ``infos[agent]["illegal_action"]``
    names the action. With ``terminate=True`` (default, like PettingZoo's
    ``TerminateIllegalWrapper``) the game ends for everybody, the other agents
    getting 0; with ``terminate=False`` the game is unchanged and the same agent
    must act again.
    """

    def __init__(self, env: AECEnv[str, dict[str, np.ndarray], int], penalty: float = -1.0, terminate: bool = True):
        super().__init__(env)
        self.penalty = penalty
        self.terminate = terminate

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self.env.step(action)
            return
        try:
            self.env.step(action)
        except IllegalMoveError as err:
            base: Any = self.env.unwrapped
            for a in base.agents:
                base.rewards[a] = 0.0
            base.rewards[agent] = self.penalty
            base._cumulative_rewards[agent] = 0.0
            base.infos[agent] = {"illegal_action": str(err)}
            if self.terminate:
                for a in base.agents:
                    base.terminations[a] = True
            base._accumulate_rewards()
