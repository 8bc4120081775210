"""Benchmarks of the layers above the engine, which ``tribune bench`` (in ``tribune_env``) may not import.

``python -m tribune_arena.bench.learners`` measures, on the machine at hand and in one run:

* tournament games/s: whole games of the tournament runner's ``play_game`` with four ``random`` agents;
* ``mcts`` iterations/s: ``mcts:iterations=N`` deciding at mid-game positions of random games;
* MaskablePPO learner steps/s (with ``--sb3``): sb3-contrib training on one single-agent environment, on
  ``BatchedVecEnv(16)``, on SB3's ``DummyVecEnv`` of 16 and on a ``SubprocVecEnv`` of 2 (256x256 ``MlpPolicy``,
  rollouts of 4,096 steps, one epoch, one torch thread; a warm-up rollout first).

Run it with ``TRIBUNE_ENGINE=python`` to measure the Python engine where the native core is built (``figures["engine"]``
says which engine ran).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from agents.specs import make_agent
from tribune_arena.tournament.play import play_game
from tribune_arena.tournament.schedule import ScheduledGame
from tribune_env import Game
from tribune_env.engine.native import engine_name
from tribune_env.envs.infoset import InfoSet

VEC_KINDS = ("single", "batched16", "dummy16", "subproc2")


def tournament_rate(seconds: float, seed: int = 0, players: int = 4) -> float:
    """Games/s of ``play_game`` with ``players`` random agents (at least one game)."""
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        scheduled = ScheduledGame(games, games, 0, 0, seed + games, ("random",) * players, tuple(range(1, players + 1)))
        play_game(scheduled, {"players": players}, None)
        games += 1
    return games / (time.perf_counter() - start)


def mcts_rate(iterations: int = 100, positions: int = 12, seed: int = 0) -> float:
    """Search iterations/s of ``mcts:iterations=N`` over ``positions`` mid-game positions of a random game."""
    agent = make_agent(f"mcts:iterations={iterations}", seed=seed)
    rng = random.Random(seed)
    game = Game.new(players=4, seed=seed + 3)
    found: list[Game] = []
    while len(found) < positions and not game.is_over:
        if rng.random() < 0.1:
            found.append(game.clone())
        game.apply(rng.choice(game.legal_actions()))
    start = time.perf_counter()
    for position in found:
        seat = position.current_seat
        agent.reset(seat, position.config, seed)
        agent.act(position.view(seat), position.legal_actions(), InfoSet(position, seat))
    agent.close()
    return iterations * len(found) / (time.perf_counter() - start)


def _vec_env(kind: str) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from tribune_env.envs.registration import SINGLE_MODULE_ID, GymEnvFactory
    from tribune_env.envs.single import TribuneSingleEnv
    from tribune_env.integrations.sb3 import BatchedVecEnv

    if kind == "single":
        return DummyVecEnv([lambda: TribuneSingleEnv(players=4)])
    if kind == "dummy16":
        return DummyVecEnv([lambda: TribuneSingleEnv(players=4) for _ in range(16)])
    if kind == "subproc2":
        factories = [GymEnvFactory(SINGLE_MODULE_ID, players=4) for _ in range(2)]
        return SubprocVecEnv(factories, start_method="forkserver")  # type: ignore[arg-type]
    if kind == "batched16":
        return BatchedVecEnv(16, players=4)
    raise ValueError(f"unknown vector environment {kind!r}; known: {', '.join(VEC_KINDS)}")


def sb3_rate(kind: str, timesteps: int = 8192, rollout: int = 4096) -> float:
    """MaskablePPO learner steps/s (collecting and learning) on the vector environment ``kind``."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = _vec_env(kind)
    try:
        n = env.num_envs
        model = MaskablePPO("MlpPolicy", env, n_steps=max(2, rollout // n), batch_size=512, n_epochs=1, seed=0,
                            device="cpu", policy_kwargs={"net_arch": {"pi": [256, 256], "vf": [256, 256]}})
        model.learn(rollout)  # warm-up: the first rollout pays for imports and allocation
        start = time.perf_counter()
        model.learn(timesteps, reset_num_timesteps=False)
        return timesteps / (time.perf_counter() - start)
    finally:
        env.close()


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Measure and print (``--json``: as JSON); returns the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per tournament figure")
    parser.add_argument("--mcts-iterations", type=int, default=100)
    parser.add_argument("--sb3", nargs="*", choices=VEC_KINDS, default=None, metavar="KIND",
                        help=f"MaskablePPO learner steps/s on these vector environments ({', '.join(VEC_KINDS)}; "
                        "none named: all)")
    parser.add_argument("--timesteps", type=int, default=8192, help="timed MaskablePPO steps per vector environment")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.mcts_iterations < 1 or args.timesteps < 1:
        parser.error("--seconds must be > 0, --mcts-iterations and --timesteps >= 1")
    figures: dict[str, Any] = {"engine": engine_name()}
    figures["tournament_games_per_s"] = tournament_rate(args.seconds)
    figures["mcts_iterations_per_s"] = mcts_rate(args.mcts_iterations)
    if args.sb3 is not None:
        for kind in args.sb3 or VEC_KINDS:
            figures[f"sb3_{kind}_steps_per_s"] = sb3_rate(kind, args.timesteps)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:32s} {value:,.1f}" if isinstance(value, float) else f"{key:32s} {value}")
    return figures


if __name__ == "__main__":
    main()
