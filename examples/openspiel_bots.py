"""OpenSpiel's bots play Tribune to the end of a game: ``python_tribune`` loaded through ``pyspiel.load_game``.

Shows: registering the games (importing ``tribune_env.integrations.openspiel``), loading one with parameters,
OpenSpiel's uniform random bots (``pyspiel.make_uniform_random_bot``) played by OpenSpiel's own game loop
(``open_spiel.python.algorithms.evaluate_bots``), and the returns (the ``win_loss`` scheme: zero-sum).

Run (needs ``pip install -e '.[openspiel]'``)::

    python examples/openspiel_bots.py --players 4
    python examples/openspiel_bots.py --players 3 --expansion --round-limit 4
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from tribune_env.integrations.openspiel import BASE_NAME, EXPANSION_NAME


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--expansion", action="store_true", help="play python_tribune_expansion")
    parser.add_argument("--round-limit", type=int, default=None, help="end the game after this many rounds")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    params: dict[str, int] = {"players": args.players}
    if args.round_limit is not None:
        params["round_limit"] = args.round_limit
    game = pyspiel.load_game(EXPANSION_NAME if args.expansion else BASE_NAME, params)
    print(f"{game}: {game.num_distinct_actions()} actions, observation tensor of {game.observation_tensor_size()}")
    bots = [pyspiel.make_uniform_random_bot(seat, args.seed + seat) for seat in range(args.players)]
    state = game.new_initial_state()
    start = time.perf_counter()
    returns = evaluate_bots(state, bots, np.random.RandomState(args.seed))
    seconds = time.perf_counter() - start
    print(f"game over after {len(state.history())} moves (the deal and the decisions) in {seconds:.1f} s")
    print("returns: " + ", ".join(f"P{seat} {value:+.3f}" for seat, value in enumerate(returns)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
