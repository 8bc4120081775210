"""Opt-in wrappers of the AEC environment, the illegal-action penalty they share with it, and the order-enforcing
wrapper of ``env()``."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper, OrderEnforcingWrapper

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


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's :class:`OrderEnforcingWrapper` (same checks, errors and iterator) without its per-access cost.

    The wrapper reaches the inner environment's attributes through ``__getattr__``, a failed lookup plus two calls
    for each of the eight reads of a ``last()``/``step()`` round. Here the attributes read every step are
    properties that go straight to the inner environment, still raising ``AttributeError`` before ``reset()``;
    everything else (``step``/``observe``/``render``/``state``/``agent_iter`` before ``reset()``, stepping after
    every agent is done) is the parent's code.
    """

    def _inner(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    @property
    def rewards(self) -> dict[str, float]:
        return self._inner("rewards")  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        return self._inner("terminations")  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        return self._inner("truncations")  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._inner("infos")  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        return self._inner("agent_selection")  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        return self._inner("agents")  # type: ignore[no-any-return]

    @property
    def num_agents(self) -> int:
        return len(self._inner("agents"))

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards  # type: ignore[no-any-return]

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)
