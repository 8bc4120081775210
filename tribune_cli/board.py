"""``tribune board``: draw one position of the game as SVG or PNG (the pictures in the README come from it).

The position is a saved game document (``--position GAME.json``, as ``Game.to_json`` writes it) or a random game
played from ``--seed`` until the first follower placement of round ``--round``. ``--viewer K`` draws what seat K may
see (other hands face down); without it the drawing is omniscient. The output's suffix picks the format: ``.svg``
(no extra needed) or ``.png`` (the ``render`` extra), ``--size WxH`` for the PNG.

    tribune board --agent heuristic --seed 5 --round 4 --after 6 --viewer 0 --out docs/board.png --size 1200x750
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agents import AgentError, make_agent
from tribune_env import Game, GameConfig
from tribune_env.engine.decisions import Phase
from tribune_env.engine.errors import TribuneError
from tribune_env.envs.infoset import InfoSet


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "board",
        help="draw a position of the game as SVG or PNG",
        description="Draw a saved position (--position) or a seeded random game at a round as SVG or PNG.",
    )
    p.add_argument("--out", required=True, type=Path, metavar="FILE", help="FILE.svg or FILE.png")
    p.add_argument("--position", type=Path, metavar="GAME.json", help="a game document to draw")
    p.add_argument("--players", type=int, default=4, help="seats of a random game (default 4)")
    p.add_argument("--expansion", action="store_true", help="a random game with the Tribune Expansion")
    p.add_argument("--brutii", action="store_true", help="a random game of the Brutii variant (5 or 6 seats)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random game and of its random play")
    p.add_argument("--round", type=int, default=3, help="draw the first follower placement of this round")
    p.add_argument("--agent", default="random", metavar="SPEC", help="who plays every seat up to then (default random)")
    p.add_argument("--after", type=int, default=0, metavar="N", help="then play N more random decisions")
    p.add_argument("--viewer", type=int, default=None, metavar="K", help="draw what seat K may see")
    p.add_argument("--size", default="1600x1000", metavar="WxH", help="PNG size in pixels (default 1600x1000)")


def _played_position(args: argparse.Namespace) -> Game:
    """A game played by ``--agent`` in every seat to the first follower placement of ``--round``, then ``--after``
    more decisions."""
    config = GameConfig(players=args.players, expansion=args.expansion or args.brutii, brutii=args.brutii)
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


def _size(text: str) -> tuple[int, int]:
    width, x, height = text.lower().partition("x")
    if not x or not width.isdigit() or not height.isdigit() or int(width) < 1 or int(height) < 1:
        raise ValueError(f"--size {text!r}: expected WIDTHxHEIGHT in pixels, e.g. 1200x750")
    return int(width), int(height)


def _write(svg: str, out: Path, size: str) -> None:
    if out.suffix.lower() == ".svg":
        out.write_text(svg, encoding="utf-8")
        return
    if out.suffix.lower() != ".png":
        raise ValueError(f"--out {out}: expected a .svg or .png file")
    width, height = _size(size)
    from PIL import Image

    from tribune_env.board import svg_to_rgb

    image = Image.fromarray(svg_to_rgb(svg, (height, width, 3)))
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, optimize=True)


def run(args: argparse.Namespace) -> int:
    from tribune_env.board import board_svg

    try:
        if args.position is not None:
            game = Game.from_json(json.loads(args.position.read_text(encoding="utf-8")))
        else:
            game = _played_position(args)
        if args.viewer is not None and not 0 <= args.viewer < game.num_players:
            raise ValueError(f"--viewer {args.viewer}: seats are 0..{game.num_players - 1}")
        _write(board_svg(game, args.viewer), args.out, args.size)
    except (OSError, ValueError, TribuneError, ImportError, AgentError) as exc:
        print(f"tribune board: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} (round {game.round}, {game.phase.name.lower().replace('_', ' ')})")
    return 0
