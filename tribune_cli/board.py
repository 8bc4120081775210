"""``tribune board``: draw one position of the game as SVG or PNG (the pictures in the README come from it).

The position is a saved game document (``--position GAME.json``, as ``Game.to_json`` writes it, read with
``--components`` if given) or a random game of the game flags (:mod:`tribune_cli.game_flags`) played from ``--seed``
until the first follower placement of round ``--round``. ``--viewer K`` draws what seat K may
see (other hands face down); without it the drawing is omniscient. The output's suffix picks the format: ``.svg``
(no extra needed) or ``.png`` (the ``render`` extra), ``--size WxH`` for the PNG (1 to :data:`MAX_SIDE` pixels a
side). Bad values are refused with a message naming the flag: ``--round`` >= 1, ``--after`` >= 0, a ``--position``
file that is not a JSON game document (its path and where the JSON breaks).

    tribune board --agent heuristic --seed 5 --round 4 --after 6 --viewer 0 --out docs/board.png --size 1200x750
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agents import AgentError, make_agent
from tribune_cli.command import Command
from tribune_cli.game_flags import FLAGS, add_game_arguments, bounded_int, config_from_args, positive_int
from tribune_env import Game
from tribune_env.data import load_components
from tribune_env.engine.decisions import Phase
from tribune_env.engine.errors import TribuneError
from tribune_env.envs.infoset import InfoSet

MAX_SIDE = 8192
"""The largest PNG side ``--size`` takes, in pixels: the picture is drawn in memory (3 bytes a pixel, more while
drawing), so 8192x8192 already needs some hundreds of MB."""
DEFAULT_SIZE = "1600x1000"


def add_parser(commands: Any) -> None:
    """Add ``tribune board`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, type=Path, metavar="PATH", help="the picture to write: a .svg or .png file")
    p.add_argument("--position", type=Path, metavar="PATH", help="a game document (JSON) to draw")
    add_game_arguments(p, seed_help="seed of the random game and of its agents' play")
    p.add_argument(
        "--round", type=positive_int, default=3, metavar="N", help="draw the first follower placement of round N"
    )
    p.add_argument("--agent", default="random", metavar="SPEC", help="who plays every seat up to then")
    p.add_argument("--after", type=bounded_int(0, None), default=0, metavar="N", help="then play N more decisions")
    p.add_argument("--viewer", type=int, default=None, metavar="SEAT", help="draw what this seat may see")
    p.add_argument(
        "--size", type=png_size, default=DEFAULT_SIZE, metavar="WxH", help=f"PNG size in pixels, 1 to {MAX_SIDE} a side"
    )


def _played_position(args: argparse.Namespace) -> Game:
    """A game played by ``--agent`` in every seat to the first follower placement of ``--round``, then ``--after``
    more decisions."""
    config = config_from_args(args)
    game = Game.new(config, seed=args.seed)
    agents = [make_agent(args.agent, args.seed + seat) for seat in range(game.num_players)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, config, args.seed + seat)
    later = -1
    try:
        while not game.is_over and later < args.after:
            if later < 0 and game.round >= args.round and game.phase == Phase.FOLLOWER_PLACEMENT:
                later = 0
            if later >= 0:
                later += 1
                if later > args.after:
                    break
            seat = game.current_seat
            game.apply(agents[seat].act(game.view(seat), game.legal_actions(), InfoSet(game, seat)))
    finally:
        for agent in agents:
            agent.close()
    return game


def _no_game_flags(args: argparse.Namespace) -> None:
    """ValueError when a game flag other than ``--components`` comes with ``--position``: the document's game is
    drawn as it is."""
    given = [flag for name, flag in FLAGS.items() if getattr(args, name) not in (None, False)]
    if given:
        raise ValueError(f"--position: the document decides the game; leave out {', '.join(given)}")


def png_size(text: str) -> tuple[int, int]:
    """argparse type of ``--size``: ``WIDTHxHEIGHT`` in pixels, each side 1 to :data:`MAX_SIDE` (ASCII digits)."""
    width, x, height = text.strip().lower().partition("x")
    if not x or not _digits(width) or not _digits(height):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels, e.g. 1200x750, got {text!r}")
    sides = tuple(int(side) if len(side) <= 9 else MAX_SIDE + 1 for side in (width, height))  # no 4,300-digit ints
    if not all(1 <= side <= MAX_SIDE for side in sides):
        raise argparse.ArgumentTypeError(f"each side must be 1 to {MAX_SIDE} pixels, got {text!r}")
    return sides[0], sides[1]


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _document(path: Path) -> Any:
    """The JSON value in the file ``path``; ``ValueError`` naming the path (and where the JSON breaks) when the file
    is not JSON text."""
    what = f"--position {path}: not a JSON game document"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} (not UTF-8 text: byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} ({exc.msg} at line {exc.lineno}, column {exc.colno}, char {exc.pos})") from None
    except RecursionError:
        raise ValueError(f"{what} (nested too deeply)") from None


def _read_position(path: Path, components_path: str | None) -> Game:
    """The game of the document in ``path``; errors name the path."""
    doc = _document(path)
    components = None if components_path is None else load_components(components_path)
    try:
        return Game.from_json(doc, components)
    except (ValueError, TribuneError) as exc:
        raise ValueError(f"--position {path}: {exc}") from None


def _write(svg: str, out: Path, size: tuple[int, int]) -> None:
    if out.suffix.lower() == ".svg":
        out.write_text(svg, encoding="utf-8")
        return
    if out.suffix.lower() != ".png":
        raise ValueError(f"--out {out}: expected a .svg or .png file")
    width, height = size
    from PIL import Image

    from tribune_env.board import svg_to_rgb

    image = Image.fromarray(svg_to_rgb(svg, (height, width, 3)))
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, optimize=True)


def run(args: argparse.Namespace) -> int:
    from tribune_env.board import board_svg

    try:
        if args.position is not None:
            _no_game_flags(args)
            game = _read_position(args.position, args.components)
        else:
            game = _played_position(args)
        if args.viewer is not None and not 0 <= args.viewer < game.num_players:
            raise ValueError(f"--viewer {args.viewer}: seats are 0..{game.num_players - 1}")
        _write(board_svg(game, args.viewer), args.out, args.size)
    except (OSError, ValueError, TribuneError, ImportError, AgentError) as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} (round {game.round}, {game.phase.name.lower().replace('_', ' ')})")
    return 0


COMMAND = Command(
    "board",
    "draw a position of the game as SVG or PNG",
    (
        (
            "tribune board --agent heuristic --round 4 --viewer 0 --out board.png",
            "heuristic agents at round 4, as seat 0 sees it; a PNG needs the render extra",
        ),
        ("tribune board --position game.json --out game.svg", "a saved game document"),
    ),
    _add_arguments,
    run,
    details="Draws a saved position (--position) or a seeded random game at a round. The game flags choose the "
    "random game; a document's game is its own (only --components applies to it). Without --viewer the drawing "
    "shows everything.",
)
