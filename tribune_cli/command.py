"""The one way a ``tribune`` sub-command is built: a :class:`Command` record, one help formatter, one vocabulary.

A sub-command is a :class:`Command`: its name, a one-line summary (listed by ``tribune --help``), optional details,
examples (real command lines, shown under "examples:" in ``tribune NAME --help``), the function that declares its
arguments on an argparse parser, and the function that runs it. :meth:`Command.add_to` adds it to an argparse
sub-parsers action with :class:`HelpFormatter`, which writes every default one way, ``(default: X)``, computed from
the argument's argparse default so the help cannot drift from the value. Metavars come from :data:`METAVARS`. A
maintainers' command (``hidden``) runs but is neither listed nor offered in an error.
"""

from __future__ import annotations

import argparse
import shlex
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

__all__ = ["METAVARS", "Command", "HelpFormatter", "OneLineParser", "add_commands", "shown_default"]

METAVARS: dict[str, str] = {
    "N": "a whole number: a count, a round",
    "SEED": "a seed, an integer in 0..2**63-1",
    "SEAT": "a seat, from 0",
    "ID": "an id: a stored game's, a victory card's",
    "SPEC": "an agent spec (`tribune agents` lists them)",
    "NAME": "a name from a list the help gives",
    "PATH": "a file",
    "DIR": "a folder",
    "SECONDS": "a time in seconds",
    "HOST": "a host name or address",
    "PORT": "a TCP port",
    "ADDRESS": "a Ray cluster address",
    "KEY=VALUE": "a config key and a YAML value",
    "WxH": "width x height in pixels",
}
"""Every metavar of ``tribune``, with what it stands for (an argument with ``choices`` shows them instead)."""


def shown_default(value: object) -> str | None:
    """``value`` as the help shows a default, or ``None`` where a default says nothing: unset (``None``), a flag's
    ``False``/``True``, an empty list, :data:`argparse.SUPPRESS`. Lists are space-separated, as they are typed."""
    if value is None or value is argparse.SUPPRESS or isinstance(value, bool):
        return None
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value) or None
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class HelpFormatter(argparse.HelpFormatter):
    """The help of every ``tribune`` command: ``(default: X)`` appended from the argparse default where one is
    meaningful (:func:`shown_default`) and the help does not say it already; paragraphs of a description or an epilog
    wrapped to the terminal, an example's comment wrapped as a comment and its command line kept as written (to be
    copied); no line broken at a hyphen (``--allow-remote``); sub-command names aligned with their summaries."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = shown_default(action.default)
        if shown is None or "(default: " in text:
            return text
        return f"{text} (default: {shown.replace('%', '%%')})"

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)  # never "--allow-" / "remote"

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        for block in text.strip("\n").split("\n\n"):
            if out:
                out.append("")
            paragraph: list[str] = []
            for line in [*block.splitlines(), ""]:
                if line and not line[0].isspace():
                    paragraph.append(line)
                    continue
                if paragraph:
                    out.append(_fill(" ".join(paragraph), width, indent, indent))
                    paragraph = []
                if line.lstrip().startswith("#"):  # an example's comment: wrapped as a comment
                    lead = indent + line[: len(line) - len(line.lstrip()) + 2]
                    out.append(_fill(line.lstrip()[2:], width, lead, lead))
                elif line:  # a command line: as written, to be copied
                    out.append(indent + line)
        return "\n".join(out)

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is argparse.SUPPRESS:
            return
        # argparse measures sub-command names without their indentation, so the longest would wrap its summary
        for sub in self._iter_indented_subactions(action):
            length = len(self._format_action_invocation(sub)) + self._current_indent
            self._action_max_length = max(self._action_max_length, length)


def _fill(text: str, width: int, first: str, rest: str) -> str:
    return textwrap.fill(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2), without the usage block, and whose
    unknown-command error offers the listed commands only."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if isinstance(action, argparse._SubParsersAction) and value not in action.choices:
            listed = ", ".join(choice.dest for choice in action._choices_actions)  # hidden commands have no entry
            raise argparse.ArgumentError(action, f"invalid choice: {value!r} (choose from {listed})")
        super()._check_value(action, value)


Example = tuple[str, str]
"""An example of a command: the command line and what it does."""


@dataclass(frozen=True)
class Command:
    """One sub-command of ``tribune``.

    Attributes:
        name: the sub-command, ``tribune NAME``.
        summary: what it does in one line, lower case, no full stop (listed by ``tribune --help``; opens its help).
        examples: at least one ``(command line, what it does)``; each line starts with ``tribune NAME`` and parses.
        add_arguments: declares the arguments on the sub-command's parser (metavars from :data:`METAVARS`).
        run: runs the parsed arguments; returns the exit status.
        details: paragraphs after the summary in ``tribune NAME --help`` (blank lines between paragraphs).
        hidden: a maintainers' command: it runs, but neither ``tribune --help`` nor an error lists it.
    """

    name: str
    summary: str
    examples: tuple[Example, ...]
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    details: str = ""
    hidden: bool = False

    def __post_init__(self) -> None:
        if not self.summary or "\n" in self.summary or self.summary.endswith("."):
            raise ValueError(f"command {self.name!r}: the summary is one line without a full stop")
        if not self.examples:
            raise ValueError(f"command {self.name!r}: give at least one example")
        for line, _ in self.examples:
            if shlex.split(line)[:2] != ["tribune", self.name]:
                raise ValueError(f"command {self.name!r}: example {line!r} does not start with 'tribune {self.name}'")

    @property
    def description(self) -> str:
        """The opening of ``tribune NAME --help``: the summary as a sentence, then the details."""
        first = f"{self.summary[0].upper()}{self.summary[1:]}."
        return f"{first}\n\n{textwrap.dedent(self.details).strip()}" if self.details.strip() else first

    @property
    def epilog(self) -> str:
        """The "examples:" section: each example's comment line, then its command line."""
        lines = ["examples:"]
        for line, what in self.examples:
            lines += [f"  # {what}", f"  {line}"]
        return "\n".join(lines)

    def add_to(self, commands: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
        """Add this command's parser to ``commands`` (a hidden command without a listing entry); returns it."""
        options: dict[str, Any] = {"description": self.description, "epilog": self.epilog}
        if not self.hidden:  # a parser added without help has no line in the listing
            options["help"] = self.summary
        parser: argparse.ArgumentParser = commands.add_parser(self.name, formatter_class=HelpFormatter, **options)
        self.add_arguments(parser)
        return parser


def add_commands(parser: argparse.ArgumentParser, commands: Iterable[Command]) -> argparse._SubParsersAction[Any]:
    """Add the sub-parsers action ``COMMAND`` (required) to ``parser`` and every command in ``commands`` to it."""
    action = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")
    for command in commands:
        command.add_to(action)
    return action
