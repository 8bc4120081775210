"""Reference agents for Tribune and the spec language that names them.

An agent gets its seat's :class:`~tribune_env.engine.view.PlayerView` and the
legal choices and returns one (:class:`Agent`). Agents are built from short
specs such as ``random``, ``heuristic``, ``mcts:iterations=400`` or
``ppo:path/to/model.zip`` with :func:`make_agent`.
"""

from agents.base import Agent, AgentError, InfoSet
from agents.specs import AgentSpec, agent_names, make_agent, parse_spec, register_agent

__all__ = [
    "Agent",
    "AgentError",
    "AgentSpec",
    "InfoSet",
    "agent_names",
    "make_agent",
    "parse_spec",
    "register_agent",
]
