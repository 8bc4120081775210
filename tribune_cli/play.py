"""``tribune play``: a person plays a game in the terminal against agents."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from agents import AgentError, agent_supports
from tribune_arena.human.terminal import DEFAULT_OPPONENT, EXPANSION_FALLBACK, HumanGame, LineSource
from tribune_cli.command import Command
from tribune_cli.game_flags import add_game_arguments, config_from_args, default_players_text
from tribune_env.data import Components
from tribune_env.engine.config import GameConfig

# -- the command ------------------------------------------------------------------------


def add_parser(commands: Any) -> None:
    """Add ``tribune play`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "opponents",
        nargs="*",
        metavar="SPEC",
        help=f"agent specs of the other seats in seat order; one spec fills every other seat "
        f"(default: {DEFAULT_OPPONENT})",
    )
    parser.add_argument("--seat", type=int, default=0, metavar="SEAT", help="your seat, from 0")
    add_game_arguments(
        parser,
        seed_help="seed of the game and the agents (default: drawn at random and printed, so that the game can be "
        "replayed)",
        players_help=f"players per game (default: 1 + the opponents given, else {default_players_text()})",
        brutii_seat_help="the Brutii's seat, from 0, with --brutii; your own --seat makes you the Brutii "
        "(default: drawn, R43)",
    )
    parser.set_defaults(seed=None)  # HumanGame draws one


def default_opponent(config: GameConfig) -> str:
    """:data:`DEFAULT_OPPONENT`, or :data:`EXPANSION_FALLBACK` while it does not play the game ``config``."""
    return DEFAULT_OPPONENT if agent_supports(DEFAULT_OPPONENT, config) is None else EXPANSION_FALLBACK


def opponents_for(specs: Sequence[str], config: GameConfig) -> list[str]:
    """The opponent specs of the other ``config.players - 1`` seats: ``specs`` as given, one spec repeated, or the
    default agent (:func:`default_opponent`); ValueError when there are neither one nor that many."""
    players = config.players
    if not specs:
        return [default_opponent(config)] * (players - 1)
    if len(specs) == players - 1:
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
    """The ``play`` command; bad options print ``tribune: error: ...`` and return 2. Without ``--players`` the game
    has a seat for each opponent given and one for the person, or the rule set's default player count."""
    try:
        players = args.players
        if players is None and args.opponents:
            players = len(args.opponents) + 1
        config = config_from_args(args, players=players, components=components)
        opponents = opponents_for(args.opponents, config)
        session = HumanGame(config, opponents, args.seat, args.seed, input_stream, output)
    except (ValueError, AgentError) as exc:
        print(f"tribune: error: {exc}", file=sys.stderr)
        return 2
    return session.play()


COMMAND = Command(
    "play",
    "play a game in the terminal against agents",
    (
        ("tribune play", "you in seat 0 against the default opponents"),
        ("tribune play heuristic greedy --seed 7", "3 players: you, heuristic and greedy; deal 7"),
        ("tribune play mcts:iterations=400 --expansion --seat 2", "the expansion against MCTS, you in seat 2"),
    ),
    _add_arguments,
    run,
    details=f"Every opponent must play the game; the default opponent is {DEFAULT_OPPONENT} "
    f"({EXPANSION_FALLBACK} in a game it does not play). `tribune agents` lists the agent specs.",
)
