#!/usr/bin/env python3
"""A random bot speaking the agent protocol ``tribune-agent/1`` (docs/agent-protocol.md); standard library only.

Run it as an agent: ``tribune tournament 'cmd:python examples/bots/random_bot.py' heuristic heuristic heuristic``.
It reads one JSON message per line on stdin and writes one per line on stdout: it answers ``hello`` (the rule
sets it plays), ``reset`` (``ready``, and seeds its generator from the game's seed, so a game replays exactly) and
``act`` (a legal id drawn at random); it keeps a tally of its games from ``game_over`` and ends at ``bye`` or at
the end of its input. With ``--observation`` it asks for the observation and mask too and draws among the choices
the mask allows (the same choices, as learners see them). Its log goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

PROTOCOL = "tribune-agent/1"


def answer(message: dict[str, Any]) -> None:
    """Write one message: one line of JSON, flushed at once (the host waits for it)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(message: dict[str, Any], rng: random.Random) -> str:
    """A random legal id; with the mask, among the choices whose index the mask allows."""
    legal = message["legal"]
    mask = message.get("mask")
    if mask is not None:
        allowed = [c for c in legal if c.get("index") is not None and mask[c["index"]] == 1]
        legal = allowed or legal
    choice: str = rng.choice(legal)["id"]
    return choice


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--observation", action="store_true", help="ask for the observation vector and mask")
    parser.add_argument("--name", default="random-bot.py", help="the name the bot gives in hello")
    args = parser.parse_args(argv)
    rng = random.Random(0)
    games, wins = 0, 0
    seat = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["protocol"] != PROTOCOL:
                answer({"type": "error", "message": f"I speak {PROTOCOL}, not {message['protocol']}"})
                return 1
            rules = ["base", "expansion", "brutii"]
            answer(
                {
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "name": args.name,
                    "rules": rules,
                    "observation": args.observation,
                }
            )
        elif kind == "reset":
            seat = message["seat"]
            rng = random.Random(message["seed"])
            answer({"type": "ready"})
        elif kind == "act":
            answer({"type": "action", "id": choose(message, rng)})
        elif kind == "game_over":
            games += 1
            result = message["result"]
            wins += result is not None and seat in result["winners"]
            print(f"{args.name}: game {message['game']} over, {wins} won of {games}", file=sys.stderr)
        elif kind == "bye":
            break
        # other types: a later version of the protocol may add some; a bot ignores what it does not know
    return 0


if __name__ == "__main__":
    sys.exit(main())
