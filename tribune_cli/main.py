"""The ``tribune`` command: the engine tools of :mod:`tribune_cli.core` plus the commands of the top layer.

Every sub-command is one :class:`~tribune_cli.command.Command` record (name, one-line summary, details, examples,
``add_arguments``, ``run``), added to the parser by :func:`~tribune_cli.command.add_commands`: one help formatter
(defaults written ``(default: X)`` from the argparse defaults), one metavar vocabulary
(:data:`~tribune_cli.command.METAVARS`), an "examples:" section in every ``tribune NAME --help``, and maintainers'
commands (``docs``) that run without being listed. Each top-layer command lives in its own module with its
``COMMAND`` record, ``add_parser(commands)`` (adds its sub-parser to an argparse sub-parsers action) and
``run(args) -> int`` (exit status); this module only wires them in, in :data:`ORDER`.

Why one shared argparse layer rather than click or typer: every command, the game flags
(:mod:`tribune_cli.game_flags`, with their argparse types and group) and the tests that build a command's parser
with ``add_parser`` and call ``run(args)`` with an ``argparse.Namespace`` are argparse; moving to click would rewrite
all of them for what a formatter class and a record give here (click's free shell completion is its one gain, and
typer would be a new dependency). The layer keeps the commands' code as it is and puts the conventions in one place.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from tribune_cli import core as engine_cli
from tribune_cli.command import Command, add_commands
from tribune_env.engine import native

COMMANDS = {
    "play": "tribune_cli.play",
    "serve": "tribune_cli.serve",
    "agents": "tribune_cli.agent_list",
    "bot-check": "tribune_cli.bot_check",
    "tournament": "tribune_cli.tournament",
    "benchmark": "tribune_cli.benchmark",
    "replay": "tribune_cli.replay",
    "train": "tribune_cli.train",
    "dataset": "tribune_cli.dataset",
    "board": "tribune_cli.board",
}
"""The top-layer commands and their modules (each with ``COMMAND``, ``add_parser`` and ``run``)."""

ORDER = (
    "play",
    "serve",
    "agents",
    "bot-check",
    "tournament",
    "benchmark",
    "replay",
    "train",
    "dataset",
    "simulate",
    "log",
    "board",
    "bench",
    "docs",
)
"""The order of ``tribune --help``: playing, agents and their games, training, then the engine tools."""


def _modules() -> dict[str, ModuleType]:
    return {name: importlib.import_module(path) for name, path in COMMANDS.items()}


def commands() -> list[Command]:
    """Every sub-command of ``tribune``, in :data:`ORDER` (hidden ones included)."""
    found = {command.name: command for command in engine_cli.COMMANDS}
    found.update({name: module.COMMAND for name, module in _modules().items()})
    assert sorted(found) == sorted(ORDER), "every command has its place in ORDER"
    return [found[name] for name in ORDER]


def build_parser(everything: Sequence[Command] | None = None) -> argparse.ArgumentParser:
    """The parser of ``tribune`` with every sub-command (``everything``: :func:`commands`)."""
    parser = engine_cli.base_parser()
    add_commands(parser, commands() if everything is None else everything)
    return parser


def check_engine() -> int:
    """0 when the engine ``TRIBUNE_ENGINE`` asks for can run; else 2, after one line on stderr (a value that is not
    ``auto``, ``python`` or ``native``, or ``native`` where the native core is not built:
    :func:`~tribune_env.engine.native.require_native` raises, said here in one line). Checked before any command
    runs, so a run never starts on the Python engine when the native one was required."""
    try:
        choice = native.engine_choice()
    except ValueError as exc:
        print(f"tribune: {exc}", file=sys.stderr)
        return 2
    if choice == "native":
        try:
            native.require_native()
        except native.NativeUnavailableError as exc:
            print(f"tribune: {exc}", file=sys.stderr)
            return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    everything = commands()
    args = build_parser(everything).parse_args(argv)
    command = next(command for command in everything if command.name == args.command)
    status = check_engine()
    if status:
        return status
    try:
        return int(command.run(args))
    except BrokenPipeError:  # output piped into `head` and the like
        return engine_cli.broken_pipe()
    except KeyboardInterrupt:
        print("tribune: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
