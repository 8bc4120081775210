"""Agent specs: ``name`` or ``name:key=value,key=value`` or ``name:argument``.

Examples: ``random``, ``greedy``, ``heuristic``, ``mcts:iterations=400``,
``mcts:seconds=0.5,rollout=random``, ``ppo:path/to/model.zip``. A bare
argument without ``=`` is passed as the parameter ``path``; so is the command
line of ``cmd:./mybot --level 3`` (a bot program, docs/agent-protocol.md) as it stands. Agent modules
register a factory with :func:`register_agent`; :func:`make_agent` builds an
agent from a spec and raises :class:`AgentError` naming what is wrong.
"""

from __future__ import annotations

import difflib
import importlib
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from agents.base import Agent, AgentError, set_lister
from tribune_env.engine.config import GameConfig, RuleSet

Factory = Callable[[dict[str, str], int | None], Agent]
_FACTORIES: dict[str, Factory] = {}
_BUILTIN = {
    "random": "agents.random_agent",
    "greedy": "agents.greedy",
    "heuristic": "agents.heuristic",
    "mcts": "agents.mcts",
    "ppo": "agents.ppo",
    "ppo-expansion": "agents.ppo",
    "ppo-brutii": "agents.ppo",
    "zero": "agents.zero",
    "zero-net": "agents.zero",
    "cmd": "agents.subprocess_agent",
}
_COMMAND_LINE = frozenset({"cmd"})
"""Agents whose whole argument is one command line (``cmd:./mybot --level=3,fast``): commas and ``=`` are its own."""

STRENGTH: dict[str, str] = {
    "random": "the floor: each other agent wins 100% of 400 base games against three random (2026-11-22)",
    "greedy": "100% against three random; 8% at a table of ppo, mcts:search=flat, heuristic and greedy "
    "(base, 2026-11-22)",
    "heuristic": "100% against three random; 15% at a table of ppo, mcts:search=flat, heuristic and greedy "
    "(base, 2026-11-22)",
    "mcts": "search=flat: 33.8% of 400 base games against three heuristic (parity 25%, 2026-11-22); search=tree: "
    "about 20%",
    "ppo": "56.0% of 400 base games against three heuristic (parity 25%, 2026-11-23)",
    "ppo-expansion": "29.2% of 400 expansion games against three heuristic (parity 25%, 2026-11-23)",
    "ppo-brutii": "28.0% of 400 Brutii games against four heuristic at 5 seats (parity 20%), 45.0% as the Brutii "
    "(2026-11-24)",
    "zero": "83.0% of 400 base games against three heuristic at 7 ms/move; zero:simulations=256,candidates=8: 91.8% "
    "at 44 ms; expansion: 73.5% of 400 (parity 25%, 2026-11-29)",
    "zero-net": "base: 72.7% of 2,000 games against three heuristic at 0.1 ms/move; expansion: 58.9% of 2,000 "
    "(parity 25%, 2026-11-29); Brutii: the ppo-brutii network",
    "cmd": "the program's own",
}
"""A short measured note on each built-in agent's strength: win rates from the tournament runner, with the date
measured; docs/agents/strength.md has the commands, the intervals and the times per move."""


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the agent name and its parameters (strings, converted by the factory)."""

    name: str
    params: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.name
        parts = [v if k == "path" and len(self.params) == 1 else f"{k}={v}" for k, v in self.params]
        return f"{self.name}:{','.join(parts)}"


def parse_spec(text: str) -> AgentSpec:
    """Parse an agent spec; raises :class:`AgentError` on malformed text."""
    if not isinstance(text, str) or not text.strip():
        raise AgentError(f"agent spec must be a non-empty string, got {text!r}")
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if not name.replace("_", "").replace("-", "").isalnum():
        raise AgentError(f"agent spec {text!r}: bad agent name {name!r}")
    params: list[tuple[str, str]] = []
    if rest:
        if "=" not in rest or name in _COMMAND_LINE:
            return AgentSpec(name, (("path", rest),))
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise AgentError(f"agent spec {text!r}: expected key=value, got {part!r}")
            if any(k == key for k, _ in params):
                raise AgentError(f"agent spec {text!r}: parameter {key!r} given twice")
            params.append((key, value))
    return AgentSpec(name, tuple(params))


def register_agent(name: str, factory: Factory) -> None:
    """Make ``name`` usable in specs; ``factory(params, seed)`` builds the agent."""
    _FACTORIES[name] = factory


def agent_names() -> list[str]:
    """Every registered agent name (built-ins included)."""
    return sorted(set(_FACTORIES) | set(_BUILTIN))


def _factory(name: str) -> Factory:
    if name not in _FACTORIES and name in _BUILTIN:
        importlib.import_module(_BUILTIN[name])  # registers itself
    try:
        return _FACTORIES[name]
    except KeyError:
        raise AgentError(unknown_agent(name)) from None


def unknown_agent(name: str) -> str:
    """The message for an agent name nobody registered: the closest known name first when one is near
    (``unknown agent 'heuristc'; did you mean heuristic? Known agents: ...``)."""
    known = agent_names()
    near = difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.6)
    guess = f"; did you mean {near[0]}? Known agents: " if near else "; known agents: "
    return f"unknown agent {name!r}{guess}{', '.join(known)}"


def make_agent(spec: str | AgentSpec, seed: int | None = None) -> Agent:
    """Build the agent named by ``spec``; raises :class:`AgentError` for unknown names or bad parameters."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    agent = _factory(parsed.name)(dict(parsed.params), seed)
    agent.spec = str(parsed)
    return agent


# -- which agents play which games --------------------------------------------------


def agents_playing(rules: RuleSet) -> list[str]:
    """The registered agents (by name, sorted) that play games of ``rules`` as built from their bare name: the
    names :meth:`Agent.supports` lists. An agent that cannot be built here (a model file not shipped) is left out."""
    playing = []
    for name in agent_names():
        try:
            agent = make_agent(name, 0)
        except Exception:  # AgentError, or whatever a registered factory raises: not listed
            continue
        try:
            if rules in agent.rule_sets:
                playing.append(name)
        finally:
            agent.close()
    return playing


set_lister(agents_playing)


def agent_supports(spec: str | AgentSpec, config: GameConfig) -> str | None:
    """Build the agent of ``spec`` (seed 0), ask :meth:`Agent.supports` about ``config`` and close it: ``None`` when
    it plays that game, else the refusal. A bad spec raises :class:`AgentError` as :func:`make_agent` does."""
    agent = make_agent(spec, 0)
    try:
        return agent.supports(config)
    finally:
        agent.close()


def check_specs_support(specs: Iterable[str | AgentSpec], config: GameConfig) -> None:
    """Raise :class:`AgentError` with the refusal (:meth:`Agent.supports`) of the first spec whose agent does not
    play the game ``config``, or for the first bad spec; each distinct spec is built once. Every place that seats
    agents checks them all with this before the first game."""
    for spec in dict.fromkeys(str(s) for s in specs):
        problem = agent_supports(spec, config)
        if problem is not None:
            raise AgentError(problem)


# -- parameter helpers for factories ---------------------------------------------


def take_int(params: dict[str, str], key: str, default: int, low: int = 1) -> int:
    """Pop an integer parameter (>= ``low``), or ``default``."""
    _note(params, AgentParameter(key, f"an integer >= {low}", str(default) if default >= low else None))
    if key not in params:
        return default
    text = params.pop(key)
    try:
        value = int(text)
    except ValueError:
        raise AgentError(f"parameter {key}: expected an integer, got {text!r}") from None
    if value < low:
        raise AgentError(f"parameter {key}: must be >= {low}, got {value}")
    return value


def take_float(params: dict[str, str], key: str, default: float | None, low: float = 0.0) -> float | None:
    """Pop a float parameter (> ``low``), or ``default``."""
    kind = "a number" if low == -math.inf else f"a number > {low:g}"
    _note(params, AgentParameter(key, kind, None if default is None else f"{default:g}"))
    if key not in params:
        return default
    text = params.pop(key)
    try:
        value = float(text)
    except ValueError:
        raise AgentError(f"parameter {key}: expected a number, got {text!r}") from None
    if not value > low:
        raise AgentError(f"parameter {key}: must be > {low}, got {value}")
    return value


def take_choice(params: dict[str, str], key: str, default: str, choices: tuple[str, ...]) -> str:
    """Pop a parameter that must be one of ``choices``."""
    _note(params, AgentParameter(key, "|".join(choices), default))
    value = params.pop(key, default)
    if value not in choices:
        raise AgentError(f"parameter {key}: expected one of {', '.join(choices)}, got {value!r}")
    return value


def no_more(name: str, params: dict[str, str]) -> None:
    """Raise for parameters a factory did not use."""
    if params:
        raise AgentError(f"agent {name!r} has no parameter(s) {', '.join(sorted(params))}")


# -- what a spec takes, for people ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentParameter:
    """A parameter of an agent spec as its factory reads it: ``name=VALUE`` where ``value`` says what it takes (``"an
    integer >= 1"``, ``"a number > 0"``, ``"random|heuristic"``), and its ``default`` as a spec would write it
    (``None``: none, the agent decides). ``path`` is also the bare argument: ``ppo:model.zip``."""

    name: str
    value: str
    default: str | None = None


class _ParameterLog(dict[str, str]):
    """Spec parameters that are empty and note what a factory asks of them (:func:`agent_parameters`)."""

    def __init__(self, agent: str) -> None:
        super().__init__()
        self.agent = agent
        self.asked: dict[str, AgentParameter] = {}

    def pop(self, key: str, default: Any = None) -> Any:
        value = "a command line" if self.agent in _COMMAND_LINE else "a file"
        self.asked.setdefault(key, AgentParameter(key, value, default or None))
        return default


def _note(params: dict[str, str], parameter: AgentParameter) -> None:
    """Note ``parameter`` when ``params`` is a :class:`_ParameterLog`."""
    if isinstance(params, _ParameterLog):
        params.asked.setdefault(parameter.name, parameter)


def agent_parameters(name: str) -> tuple[AgentParameter, ...]:
    """The parameters the agent ``name`` takes, in the order its factory reads them, found by building it with none
    (the ``take_*`` helpers note each one); :class:`AgentError` for an unknown name."""
    factory = _factory(name)
    log = _ParameterLog(name)
    try:
        factory(log, 0).close()
    except Exception:  # an agent that needs a parameter (cmd's command line) has asked for it all the same
        pass
    return tuple(log.asked.values())


SUMMARIES: dict[str, str] = {
    "ppo-expansion": "the shipped expansion policy (sb3-contrib's MaskablePPO, trained on 4-player expansion games), "
    "played with numpy",
    "ppo-brutii": "the expansion policy fine-tuned for both roles of the Brutii variant, played with numpy",
    "zero-net": "zero's policy network alone, without search: one forward pass per decision",
}
"""Summaries of the agents whose module's first line describes another agent of the same module."""


def agent_summary(name: str) -> str:
    """What the agent ``name`` is, in one line: the first line of the docstring of the module that registers it,
    without its spec name or markup (``"information-set Monte Carlo tree search (single-observer IS-MCTS)"``)."""
    if name in SUMMARIES:
        return SUMMARIES[name]
    module = sys.modules.get(_factory(name).__module__)
    lines = ((module.__doc__ if module else None) or "").strip().splitlines() or [""]
    text = lines[0].rstrip(".")
    parts = dict(re.findall(r"``([\w-]+)``: (.*?)(?=; ``[\w-]+``: |$)", text))  # a module of several agents
    text = parts.get(name, re.sub(r"^``[\w-]+``: ", "", text))
    text = re.sub(
        r":\w+:`~?([^`]*)`", lambda m: m.group(1).rsplit(".", 1)[-1] if "~" in m.group(0) else m.group(1), text
    )
    return text.replace("``", "")
