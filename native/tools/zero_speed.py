"""Simulated decisions per second of ``zero``'s search, on the engine ``TRIBUNE_ENGINE`` chooses (issue 34, item 4).

    TRIBUNE_ENGINE=python python native/tools/zero_speed.py --decisions 20
    TRIBUNE_ENGINE=native python native/tools/zero_speed.py --decisions 20

Plays one seeded base game with ``zero`` (the given settings) in every seat until ``--decisions`` searched
decisions were made, and prints the simulated (playout) decisions per second of CPU time, and the chosen moves'
digest (the same on both engines: the search is deterministic for a seed).
"""

from __future__ import annotations

import argparse
import hashlib
import time

from agents.zero import ZeroAgent, ZeroSettings
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--rules", default="base")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    config = GameConfig.for_rules(args.rules, players=4)
    game = Game.new(config, seed=args.seed)
    settings = ZeroSettings(simulations=args.simulations, threshold=2.0)  # search every decision with 2+ choices
    agents = [ZeroAgent(settings, seed=args.seed + s) for s in range(config.players)]
    for s, agent in enumerate(agents):
        agent.reset(s, config, args.seed + s)
    searched = simulated = 0
    moves = hashlib.sha256()
    cpu = 0.0
    while not game.is_over and searched < args.decisions:
        seat = game.current_seat
        legal = game.legal_actions()
        start = time.process_time()
        action = agents[seat].act(game.view(seat), legal, InfoSet(game, seat))
        cpu += time.process_time() - start
        result = agents[seat].last
        if result is not None and result.searched:
            searched += 1
            simulated += result.decisions
        moves.update(repr(action).encode())
        game.apply(action)
    print(
        f"engine {game.engine}: {searched} searched decisions, {simulated} simulated decisions in {cpu:.2f} s CPU: "
        f"{simulated / cpu:,.0f} simulated decisions/s; moves {moves.hexdigest()[:16]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
