"""What durability costs a web action: ``python -m tribune_arena.human.web.benchmark [--games N] [--rounds R]``.

Plays the same games through the app (Flask's test client, random bots, the person taking a middle choice) in three
modes, alternating them round by round so that a busy machine weighs on all alike:

- ``normal``: the games database on disk, ``synchronous=NORMAL`` (what ``tribune serve`` uses);
- ``full``: the same with ``synchronous=FULL`` (an fsync per move);
- ``none``: no database write at all (the store's writes replaced by no-ops).

It prints the median time of ``POST /api/games/ID/action`` per mode, the moves stored per action (the person's and
the bots' after it), and the database's share: (mode - none) per action and per stored move. It also times one
:meth:`~.store.GameStore.add_move` alone, the restoring of a whole game after a restart (read back and replayed),
and one bot decision through the worker pool against the same agent called in the server's process.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from agents import make_agent
from tribune_arena.human.web.app import create_app
from tribune_arena.human.web.bots import BotPool, Decision
from tribune_arena.human.web.manager import GameManager
from tribune_arena.human.web.saving import SaveDir
from tribune_arena.human.web.session import PlaySession
from tribune_arena.human.web.store import GameStore, StoredMove
from tribune_env.engine.config import GameConfig, config_to_dict
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

MODES = ("normal", "full", "none")


def _body(state: dict[str, Any]) -> dict[str, Any]:
    decision = state["decision"]
    if decision["bid"] is not None:
        return {"bid": decision["bid"]["min"], "step": state["step"]}
    return {"choice": len(decision["choices"]) // 2, "step": state["step"]}


def _play(mode: str, directory: Path, games: int, seed: int) -> tuple[list[float], int]:
    """Seconds of each action request and the moves stored, over ``games`` games in ``mode``."""
    app = create_app(directory)
    manager = app.extensions["tribune_games"]
    if mode == "full":
        manager.store.close()
        manager.store = GameStore(directory, synchronous="FULL")
    elif mode == "none":
        manager.store.add_move = lambda *args, **kwargs: None
        manager.store.set_status = lambda *args, **kwargs: None
    client = app.test_client()
    times: list[float] = []
    moves = 0
    try:
        for n in range(games):
            body = {"players": 3, "opponents": "random", "round_limit": 2, "seed": seed + n}
            state = client.post("/api/games", json=body).get_json()
            while not state["over"]:
                step = state["step"]
                start = time.perf_counter()
                response = client.post(f"/api/games/{state['id']}/action", json=_body(state))
                times.append(time.perf_counter() - start)
                state = response.get_json()
                assert response.status_code == 200, state
                moves += state["step"] - step
    finally:
        manager.close()
    return times, moves


def _store_write(directory: Path, synchronous: str, count: int = 300) -> float:
    """Median seconds of one committed :meth:`GameStore.add_move`."""
    store = GameStore(directory, synchronous=synchronous)
    try:
        store.add_game("bench", "base", {}, 0, 0, ["human", "random"], [])
        times = []
        for step in range(count):
            start = time.perf_counter()
            store.add_move("bench", StoredMove(step, step % 2, "card:1", 0.001), 1)
            times.append(time.perf_counter() - start)
    finally:
        store.close()
    return statistics.median(times)


def _restore(directory: Path) -> tuple[int, float]:
    """The moves of a whole 4-player game to its end, and the median seconds to read it back and replay it."""
    manager = GameManager(SaveDir(directory))
    try:
        session = manager.create({"players": 4, "opponents": "random", "seed": 3})
        while not session.game.is_over:
            decision = session.state()["decision"]
            session.act(_body({"decision": decision, "step": session.step}))
        times = []
        for _ in range(5):
            start = time.perf_counter()
            stored = manager.store.game(session.id)
            assert stored is not None
            PlaySession.restore(stored, manager.store, manager.bots, None)
            times.append(time.perf_counter() - start)
        return session.step, statistics.median(times)
    finally:
        manager.close()


def _bot_decision(count: int = 200) -> tuple[float, float]:
    """Median seconds of a ``random`` bot's decision through the worker pool, and in this process."""
    config = GameConfig(players=3)
    game = Game.new(config, seed=1)
    seat = game.current_seat
    pool = BotPool(5.0, 1)
    agent = make_agent("random", 0)
    try:
        decision = Decision("bench", config_to_dict(config), 1, (), seat, "random", 5)
        pool.decide(decision)  # starts the worker
        remote, local = [], []
        for _ in range(count):
            start = time.perf_counter()
            pool.decide(decision)
            remote.append(time.perf_counter() - start)
            start = time.perf_counter()
            agent.reset(seat, config, 5)
            agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
            local.append(time.perf_counter() - start)
    finally:
        pool.close()
    return statistics.median(remote), statistics.median(local)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3, help="games per mode and round (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the three modes (default 3)")
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    moves: dict[str, int] = dict.fromkeys(MODES, 0)
    with tempfile.TemporaryDirectory(prefix="tribune-bench-") as tmp:
        for r in range(args.rounds):
            for mode in MODES:
                seconds, stored = _play(mode, Path(tmp) / f"{mode}-{r}", args.games, seed=100)
                times[mode] += seconds
                moves[mode] += stored
        normal, full = _store_write(Path(tmp) / "normal", "NORMAL"), _store_write(Path(tmp) / "full", "FULL")
        moves_played, restore = _restore(Path(tmp) / "restore")
    remote, local = _bot_decision()
    none = statistics.median(times["none"])
    per_action = moves["none"] / len(times["none"])
    actions = len(times["none"])
    print(f"{actions} actions per mode, {per_action:.1f} moves stored per action (the person's and the bots')")
    for mode in MODES:
        median = statistics.median(times[mode])
        extra = (median - none) * 1000
        print(
            f"{mode:>6}: {median * 1000:7.2f} ms per action (median); database {extra:+.2f} ms per action, "
            f"{extra / per_action:+.3f} ms per stored move"
        )
    print(f"one committed move alone: {normal * 1000:.3f} ms (NORMAL), {full * 1000:.3f} ms (FULL)")
    print(f"reading back and replaying a whole game ({moves_played} moves): {restore * 1000:.1f} ms")
    print(f"a random bot's decision: {remote * 1000:.2f} ms through the worker pool, {local * 1000:.2f} ms in-process")


if __name__ == "__main__":
    main()
