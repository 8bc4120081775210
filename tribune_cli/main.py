"""The ``tribune`` command: the engine tools of :mod:`tribune_cli.core` plus the commands of the top layer.

Each top-layer command lives in its own module with ``add_parser(commands)``
(adds its sub-parser) and ``run(args) -> int`` (exit status); this module only
wires them in, so the engine package never imports the layers above it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from tribune_cli import core as engine_cli

COMMANDS = {
    "tournament": "tribune_cli.tournament",
    "replay": "tribune_cli.replay",
    "play": "tribune_cli.play",
    "train": "tribune_cli.train",
    "serve": "tribune_cli.serve",
    "board": "tribune_cli.board",
}


def _modules() -> dict[str, ModuleType]:
    return {name: importlib.import_module(path) for name, path in COMMANDS.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = engine_cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")  # the sub-parsers action
    modules = _modules()
    for module in modules.values():
        module.add_parser(commands)
    args = parser.parse_args(argv)
    try:
        if args.command in modules:
            return int(modules[args.command].run(args))
        return engine_cli._run(args)
    except BrokenPipeError:  # output piped into `head` and the like
        return engine_cli.broken_pipe()
    except KeyboardInterrupt:
        print("tribune: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
