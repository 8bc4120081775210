"""Finished games' records in tests: :func:`play_record` plays one between random agents and writes its record by
hand; :func:`replay_cli` runs ``tribune replay ARGV``."""

from __future__ import annotations

import argparse
import io
from typing import Any

from agents import make_agent
from tribune_arena.records import GameRecord, SeatTiming
from tribune_cli import replay
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text
from tribune_env.envs.infoset import InfoSet

CONFIG: dict[str, Any] = {"players": 3, "round_limit": 2, "victory_card": None}


def play_record(game_id: int = 7, seed: int = 11, config: dict[str, Any] | None = None) -> GameRecord:
    """Play ``random`` agents to the end and write the record by hand."""
    options = dict(config or CONFIG)
    cfg = GameConfig(**options)
    game = Game.new(cfg, seed=seed)
    agents = [make_agent("random", seed + s) for s in range(cfg.players)]
    for s, agent in enumerate(agents):
        agent.reset(s, cfg, seed * 10 + s)
    actions = []
    while not game.is_over:
        seat = game.current_seat
        action = agents[seat].act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
        actions.append(action_text(action))
        game.apply(action)
    return GameRecord(
        game_id=game_id,
        deal=0,
        seed=seed,
        seating=tuple("random" for _ in range(cfg.players)),
        config=options,
        actions=tuple(actions),
        scores=tuple(game.scores()),
        ranks=tuple(game.ranks()),
        winners=tuple(game.winners),
        rounds=game.round,
        decisions=len(actions),
        truncated=game.truncated,
        timings=tuple(SeatTiming() for _ in range(cfg.players)),
    )


def replay_cli(argv: list[str], stdin: str = "") -> int:
    """``tribune replay ARGV`` for the replay command alone (as tribune_cli.main wires it)."""
    parser = argparse.ArgumentParser(prog="tribune")
    replay.add_parser(parser.add_subparsers(dest="command", required=True))
    return replay.run(parser.parse_args(["replay", *argv]), input_stream=io.StringIO(stdin))
