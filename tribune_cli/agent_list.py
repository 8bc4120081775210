"""``tribune agents``: the agent specs, what each agent is, its options, the games it plays and how strong it is.

Everything comes from the agents registry (:mod:`agents.specs`): the registered names, each one's summary (its
module's docstring), its parameters as its factory reads them (:func:`~agents.specs.agent_parameters`), its rule sets
(the agent built with no parameters) and the measured note of :data:`~agents.specs.STRENGTH`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

from agents import AgentError, make_agent
from agents.specs import STRENGTH, AgentParameter, agent_names, agent_parameters, agent_summary, unknown_agent
from tribune_cli.command import Command
from tribune_env.engine.config import RuleSet

SPEC_FORMS = "NAME, NAME:KEY=VALUE,KEY=VALUE or NAME:PATH"


@dataclass(frozen=True)
class AgentEntry:
    """One agent as ``tribune agents`` lists it; ``rules`` is empty when the agent names them itself (a program)."""

    name: str
    summary: str
    parameters: tuple[AgentParameter, ...]
    rules: tuple[str, ...]
    strength: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "parameters": [vars(p) for p in self.parameters],
            "rules": list(self.rules),
            "strength": self.strength,
        }


def _rules(name: str) -> tuple[str, ...]:
    """The rule sets the agent ``name`` plays as built with no parameters; ``()`` when it cannot be built so."""
    try:
        agent = make_agent(name, 0)
    except Exception:  # e.g. cmd without its command line: the program names its rule sets
        return ()
    try:
        return tuple(rules.value for rules in RuleSet if rules in agent.rule_sets)
    finally:
        agent.close()


def entries(names: list[str] | None = None) -> list[AgentEntry]:
    """The agents ``names`` (every registered one when empty or ``None``), the measured ones first in the order of
    :data:`STRENGTH`; :class:`AgentError` for an unknown name."""
    known = agent_names()
    chosen = names or known
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise AgentError(unknown_agent(unknown[0]))
    order = list(STRENGTH)
    chosen = sorted(dict.fromkeys(chosen), key=lambda n: (order.index(n) if n in order else len(order), n))
    return [
        AgentEntry(name, agent_summary(name), agent_parameters(name), _rules(name), STRENGTH.get(name, "not measured"))
        for name in chosen
    ]


def _parameter_line(parameter: AgentParameter) -> tuple[str, str]:
    """``("key=VALUE", what it takes)`` for the listing."""
    default = f" (default: {parameter.default})" if parameter.default is not None else ""
    if parameter.value in ("a file", "a command line"):
        shown = "PATH" if parameter.value == "a file" else "COMMAND LINE"
        return f"{parameter.name}={shown}", f"{parameter.value}, also written NAME:{shown}{default}"
    if "|" in parameter.value:
        return f"{parameter.name}={parameter.value}", f"one of these{default}"
    shown = "N" if parameter.value.startswith("an integer") else "X"
    return f"{parameter.name}={shown}", f"{parameter.value}{default}"


def render(found: list[AgentEntry], width: int) -> str:
    """The listing of ``found`` as text wrapped to ``width`` columns."""
    label = 12
    out = [
        textwrap.fill(
            f"Agent specs: {SPEC_FORMS}. Strength: win rates measured with `tribune tournament` "
            "(docs/agents/strength.md has the commands).",
            width,
        )
    ]

    def field(name: str, text: str) -> None:
        out.append(textwrap.fill(text, width, initial_indent=f"  {name:<{label - 2}}", subsequent_indent=" " * label))

    for entry in found:
        out += ["", entry.name]
        out.append(textwrap.fill(entry.summary, width, initial_indent="  ", subsequent_indent="  "))
        options = [_parameter_line(p) for p in entry.parameters]
        column = max((len(key) for key, _ in options), default=0) + 2
        for i, (key, what) in enumerate(options):
            head = f"  {'options' if i == 0 else '':<{label - 2}}{key:<{column}}"
            out.append(textwrap.fill(what, width, initial_indent=head, subsequent_indent=" " * (label + column)))
        field("plays", ", ".join(entry.rules) if entry.rules else "the rule sets the program names")
        field("strength", entry.strength)
    return "\n".join(out)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME", help="agents to show (default: every registered agent)")
    parser.add_argument("--json", action="store_true", help="print the agents as JSON")


def run(args: argparse.Namespace) -> int:
    """The ``agents`` command; an unknown name prints ``tribune: error: ...`` and returns 2."""
    try:
        found = entries(args.names)
    except AgentError as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([entry.to_dict() for entry in found], indent=2))
    else:
        print(render(found, min(shutil.get_terminal_size().columns, 100)))
    return 0


def add_parser(commands: Any) -> None:
    """Add ``tribune agents`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


COMMAND = Command(
    "agents",
    "list the agent specs: options, games played, measured strength",
    (
        ("tribune agents", "every agent"),
        ("tribune agents mcts ppo", "two of them"),
        ("tribune agents --json", "every agent as JSON"),
    ),
    _add_arguments,
    run,
    details=f"An agent spec is {SPEC_FORMS} (e.g. mcts:iterations=400, ppo:model.zip); every command that seats "
    "agents takes them: play, serve, tournament, board, and training's opponents.",
)
