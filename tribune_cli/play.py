"""``tribune play``: a person plays a game in the terminal against agents."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from agents import AgentError, make_agent
from tribune_arena.human.terminal import DEFAULT_OPPONENT, EXPANSION_FALLBACK, HumanGame, LineSource
from tribune_arena.tournament.schedule import victory_card_hint
from tribune_env.data import Components
from tribune_env.engine.config import GameConfig

DEFAULT_PLAYERS = 4


# -- the command ------------------------------------------------------------------------


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("play", help="play a game in the terminal against agents")
    parser.add_argument(
        "opponents",
        nargs="*",
        metavar="OPPONENT",
        help=f"agent specs of the other seats in seat order; one spec fills every other seat "
        f"(default: {DEFAULT_OPPONENT})",
    )
    parser.add_argument("--players", type=int, help=f"players (default: 1 + opponents, or {DEFAULT_PLAYERS})")
    parser.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default: 0)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the game and the agents (default: 0)")
    parser.add_argument("--victory-card", metavar="ID", help="victory card id (default: a random valid card)")
    parser.add_argument("--point-variant", action="store_true", help="play the point-value variant")
    parser.add_argument("--round-limit", type=int, default=60, help="truncate after this round (default: 60)")
    parser.add_argument(
        "--expansion",
        action="store_true",
        help=f"play with the Tribune Expansion (2-5 players); every opponent must play it (default opponent: "
        f"{DEFAULT_OPPONENT} if it does, else {EXPANSION_FALLBACK})",
    )
    parser.add_argument(
        "--brutii",
        action="store_true",
        help="play the Brutii variant (with --expansion, 5 or 6 players; one seat is the Brutii, R42-R54)",
    )
    parser.add_argument(
        "--brutii-seat",
        type=int,
        metavar="K",
        help="the Brutii's seat, from 0 (your own --seat makes you the Brutii; default: random)",
    )


def default_opponent(expansion: bool = False) -> str:
    """:data:`DEFAULT_OPPONENT`; in an expansion game :data:`EXPANSION_FALLBACK` while it does not play it."""
    if not expansion:
        return DEFAULT_OPPONENT
    agent = make_agent(DEFAULT_OPPONENT, 0)
    try:
        return DEFAULT_OPPONENT if agent.plays_expansion else EXPANSION_FALLBACK
    finally:
        agent.close()


def opponents_for(specs: Sequence[str], players: int | None, expansion: bool = False) -> list[str]:
    """The opponent specs of every other seat: ``specs`` as given, one spec repeated, or the default agent
    (:func:`default_opponent`)."""
    if not specs:
        return [default_opponent(expansion)] * ((players or DEFAULT_PLAYERS) - 1)
    if players is None or len(specs) == players - 1:
        return list(specs)
    if len(specs) == 1:
        return list(specs) * (players - 1)
    raise ValueError(f"--players {players} needs {players - 1} opponents (or one to fill every seat), got {len(specs)}")


def run(
    args: argparse.Namespace,
    input_stream: LineSource | None = None,
    output: TextIO | None = None,
    components: Components | None = None,
) -> int:
    """The ``play`` command; bad options print ``tribune: error: ...`` and return 2."""
    try:
        opponents = opponents_for(args.opponents, args.players, args.expansion)
        options: dict[str, Any] = {
            "players": len(opponents) + 1,
            "victory_card": args.victory_card,
            "point_variant": args.point_variant,
            "round_limit": args.round_limit,
            "expansion": args.expansion,
        }
        if getattr(args, "brutii", False) and not args.expansion:
            raise ValueError("--brutii needs --expansion")
        if getattr(args, "brutii_seat", None) is not None and not getattr(args, "brutii", False):
            raise ValueError("--brutii-seat needs --brutii")
        if getattr(args, "brutii", False):
            options.update(brutii=True, brutii_seat=args.brutii_seat)
        if components is not None:
            options["components"] = components
        try:
            config = GameConfig(**options)
        except ValueError as exc:
            raise ValueError(f"{exc}{victory_card_hint(args.victory_card, args.expansion)}") from None
        session = HumanGame(config, opponents, args.seat, args.seed, input_stream, output)
    except (ValueError, AgentError) as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 2
    return session.play()
