"""Opt-in wrappers of the AEC environment, and the illegal-action penalty they share with it."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from tribune_env.envs.table import IllegalMoveError


def apply_illegal_penalty(base: Any, agent: str, detail: Any, penalty: float, end: bool) -> None:
    """Book an illegal action of ``agent`` on the unwrapped AEC environment ``base``; the game is not touched.

    ``agent`` is rewarded ``penalty`` (every other agent 0), ``infos[agent]`` becomes ``{"illegal_action": detail}``;
    with ``end`` every agent's episode terminates, otherwise the same agent must act again.
    """
    for a in base.agents:
        base.rewards[a] = 0.0
    base.rewards[agent] = penalty
    base._cumulative_rewards[agent] = 0.0
    base.infos[agent] = {"illegal_action": detail}
    if end:
        for a in base.agents:
            base.terminations[a] = True
    base._accumulate_rewards()


class IllegalActionPenalty(BaseWrapper[str, Any, int]):
    """Turn an illegal action into a penalty instead of an error.

    The offending agent's reward is ``penalty`` and ``infos[agent]["illegal_action"]``
    names the action (the error message). With ``terminate=True`` (default, like PettingZoo's
    ``TerminateIllegalWrapper``) the game ends for everybody, the other agents
    getting 0; with ``terminate=False`` the game is unchanged and the same agent
    must act again. Every value the environment rejects is penalised, non-integers included.

    The environments do the same themselves with ``illegal_action="penalty_end"`` (``terminate=True``) or
    ``"penalty"`` (``terminate=False``), where ``infos[agent]["illegal_action"]`` is the action's integer.
    """

    def __init__(self, env: AECEnv[str, Any, int], penalty: float = -1.0, terminate: bool = True):
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
            apply_illegal_penalty(self.env.unwrapped, agent, str(err), self.penalty, self.terminate)
