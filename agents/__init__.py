"""Reference agents for Tribune and the spec language that names them.

An agent gets its seat's :class:`~tribune_env.engine.view.PlayerView` and the
legal choices and returns one (:class:`Agent`). Agents are built from short
specs such as ``random``, ``heuristic``, ``mcts:iterations=400`` or
``ppo:path/to/model.zip`` with :func:`make_agent`. Whether an agent plays a game (its rule set) is
:meth:`Agent.supports`; :func:`check_specs_support` asks it of every spec of a lineup.
"""

from agents.base import Agent, AgentError, InfoSet
from agents.specs import (
    AgentSpec,
    agent_names,
    agent_supports,
    agents_playing,
    check_specs_support,
    make_agent,
    parse_spec,
    register_agent,
)

__all__ = [
    "Agent",
    "AgentError",
    "AgentSpec",
    "InfoSet",
    "agent_names",
    "agent_supports",
    "agents_playing",
    "check_specs_support",
    "make_agent",
    "parse_spec",
    "register_agent",
]
