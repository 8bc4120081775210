"""The agent protocol's cost per decision: an in-process agent against bots over ``tribune-agent/1``.

``python examples/bots/protocol_cost.py`` plays the same games with seat 0 taken in turn by ``random`` (in
process), ``cmd:python examples/bots/random_bot.py``, the same bot with ``--observation`` (observation and mask
in every decision message) and ``cmd:node examples/bots/random_bot.js``; the other seats are ``random``. It times
seat 0's ``act`` calls only and prints milliseconds per decision for each, and the protocol's cost: the difference
to the in-process agent. Starting a bot (process start and ``hello``) is timed apart.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.specs import make_agent
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

BOTS = Path(__file__).resolve().parent
PYTHON_BOT = f"cmd:{sys.executable} {BOTS / 'random_bot.py'}"
SPECS = {
    "in-process random": "random",
    "python bot": PYTHON_BOT,
    "python bot, observation": f"{PYTHON_BOT} --observation",
    "node bot": f"cmd:node {BOTS / 'random_bot.js'}",
}


def decision_cost(spec: str, games: int, rules: RuleSet = RuleSet.BASE, seed: int = 0) -> dict[str, float]:
    """``{"ms_per_decision", "decisions", "start_ms"}`` of ``spec`` in seat 0 over ``games`` games of ``rules``
    against ``random`` seats (seat 0's ``act`` calls only, messages and words included)."""
    config = GameConfig.for_rules(rules)
    start = time.perf_counter()
    agent = make_agent(spec, seed)
    start_ms = (time.perf_counter() - start) * 1e3
    others = [make_agent("random", s) for s in range(1, config.players)]
    seconds, decisions = 0.0, 0
    try:
        for g in range(games):
            game = Game.new(config, seed=seed + g)
            table = [agent, *others]
            for seat, player in enumerate(table):
                player.reset(seat, config, seed * 1000 + g * 10 + seat)
            while not game.is_over:
                seat = game.current_seat
                view, legal, info = game.view(seat), game.legal_actions(), InfoSet(game, seat)
                t = time.perf_counter()
                action = table[seat].act(view, legal, info)
                if seat == 0:
                    seconds += time.perf_counter() - t
                    decisions += 1
                game.apply(action)
    finally:
        agent.close()
    return {"ms_per_decision": seconds * 1e3 / max(decisions, 1), "decisions": decisions, "start_ms": start_ms}


def measure(games: int, rules: RuleSet = RuleSet.BASE, seed: int = 0) -> dict[str, Any]:
    """:func:`decision_cost` of every entry of :data:`SPECS` (the node bot only where ``node`` is installed),
    with each bot's cost over the in-process agent."""
    out: dict[str, Any] = {"rules": str(rules), "games": games}
    for label, spec in SPECS.items():
        if spec.startswith("cmd:node") and shutil.which("node") is None:
            continue
        out[label] = decision_cost(spec, games, rules, seed)
    base = out["in-process random"]["ms_per_decision"]
    for label in SPECS:
        if label in out and label != "in-process random":
            out[label]["protocol_ms"] = out[label]["ms_per_decision"] - base
    return out


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=5, help="games per agent (default: 5)")
    parser.add_argument("--rules", default="base", choices=[r.value for r in RuleSet], help="rule set (default: base)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = measure(args.games, RuleSet.parse(args.rules), args.seed)
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
