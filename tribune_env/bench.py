"""``tribune bench``: throughput of the engine and the environments, against PettingZoo's own games.

Every figure comes from random legal play timed with ``time.perf_counter``:

* engine decisions/s: ``Game.legal_actions`` + ``Game.apply`` only, for the
  base game and for the Tribune Expansion in the same run, with their ratio;
* AEC steps/s: the PettingZoo loop ``agent_iter`` / ``last()`` (observation and
  mask built) / ``step``, counting steps that play an action; games/s from the
  same loop;
* single-agent steps/s: learner steps of the Gymnasium wrapper with random
  opponents (each step also plays the opponents' moves up to the learner's next
  decision);
* observation encoding and ``clone()``: mean microseconds over mid-game states.

The peers (``tictactoe_v3``, ``connect_four_v3``, ``texas_holdem_v4``) run the same
AEC loop with the same random policy in the same process, so the ratios compare
like with like on the machine at hand. A peer whose extra dependencies are not
installed is reported as unavailable.
"""

from __future__ import annotations

import math
import platform
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pettingzoo

from tribune_env.codec import encoder_for
from tribune_env.engine.game import Game
from tribune_env.envs.aec import env as tribune_aec
from tribune_env.envs.aec import expansion_env as tribune_expansion_aec
from tribune_env.envs.single import TribuneSingleEnv
from tribune_env.envs.table import Table

PEERS = ("tictactoe_v3", "connect_four_v3", "texas_holdem_v4")
PLAYER_COUNTS = (2, 3, 4, 5)


@dataclass
class TribuneFigures:
    players: int
    engine_decisions_per_s: float
    aec_steps_per_s: float
    games_per_s: float
    single_steps_per_s: float
    encode_us: float
    clone_us: float
    mask_us: float
    expansion_decisions_per_s: float = 0.0  # the same loop with the Tribune Expansion
    expansion_aec_steps_per_s: float = 0.0  # tribune/TribuneExpansion-v0, expansion rules

    @property
    def expansion_ratio(self) -> float:
        """Expansion engine decisions/s divided by the base engine's."""
        return self.expansion_decisions_per_s / self.engine_decisions_per_s if self.engine_decisions_per_s else 0.0


@dataclass
class PeerFigures:
    name: str
    aec_steps_per_s: float | None
    games_per_s: float | None
    error: str = ""


@dataclass
class BenchReport:
    seconds: float
    seed: int
    python: str
    machine: str
    tribune: list[TribuneFigures] = field(default_factory=list)
    peers: list[PeerFigures] = field(default_factory=list)

    def ratios(self, players: int = 4) -> dict[str, float]:
        """AEC steps/s of Tribune at ``players`` divided by each available peer's."""
        ours = next(t.aec_steps_per_s for t in self.tribune if t.players == players)
        return {p.name: ours / p.aec_steps_per_s for p in self.peers if p.aec_steps_per_s}

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for figures, ours in zip(out["tribune"], self.tribune, strict=True):
            figures["expansion_ratio"] = ours.expansion_ratio
        out["ratios_4p"] = self.ratios(4) if any(t.players == 4 for t in self.tribune) else {}
        return out


# -- measurements ------------------------------------------------------------------


def engine_rate(players: int, seconds: float, seed: int, expansion: bool = False) -> float:
    """Decisions per second of the bare engine under random legal play (``expansion``: with the expansion)."""
    rng = random.Random(seed)
    decisions = 0
    game_seed = seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = Game.new(players=players, seed=game_seed, expansion=expansion)
        game_seed += 1
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
            decisions += 1
        if time.perf_counter() >= deadline:
            return decisions / (time.perf_counter() - start)


def aec_rate(make_env: Callable[[], Any], seconds: float, seed: int) -> tuple[float, float]:
    """(steps/s, games/s) of an AEC environment in the standard loop under random legal play."""
    env = make_env()
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    episode = 0
    while time.perf_counter() < deadline:
        env.reset(seed=seed + episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        games += 1
    env.close()
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def single_rate(players: int, seconds: float, seed: int) -> float:
    """Learner steps per second of the single-agent wrapper against random opponents."""
    env = TribuneSingleEnv(players=players)
    rng = random.Random(seed)
    steps = 0
    episode = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + episode)
        episode += 1
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _obs, _reward, terminated, truncated, _info = env.step(int(legal[int(rng.random() * len(legal))]))
            done = terminated or truncated
            steps += 1
    return steps / (time.perf_counter() - start)


def _mid_game_states(players: int, seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    game_seed = seed
    while len(out) < count:
        game = Game.new(players=players, seed=game_seed)
        game_seed += 1
        step = 0
        while not game.is_over and len(out) < count:
            if step % 7 == 3:
                out.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
            step += 1
    return out


def micro_timings(players: int, seed: int, samples: int = 2000) -> tuple[float, float, float]:
    """Mean microseconds of (observation encoding, ``clone()``, action mask) over mid-game states."""
    games = _mid_game_states(players, seed, samples)
    encoder = encoder_for(games[0].config.components, games[0].config.round_limit)
    start = time.perf_counter()
    for game in games:
        encoder.encode(game.state, game.current_seat)
    encode = time.perf_counter() - start
    start = time.perf_counter()
    for game in games:
        game.clone()
    clone = time.perf_counter() - start
    table = Table(players=players)
    start = time.perf_counter()
    for game in games:
        table.game = game
        table.mask(game.current_seat)
    mask = time.perf_counter() - start
    return encode / len(games) * 1e6, clone / len(games) * 1e6, mask / len(games) * 1e6


def peer_factory(name: str) -> Callable[[], Any]:
    """A constructor of a PettingZoo classic game from its registry (``tictactoe_v3`` is ``classic/tictactoe-v3``)."""
    base, version = name.rsplit("_v", 1)
    env_id = f"classic/{base}-v{version}"
    spec = pettingzoo.spec("aec", env_id)
    pettingzoo.make("aec", spec).close()  # fails here, not mid-measurement, when a dependency is missing
    return lambda: pettingzoo.make("aec", spec)


def check_options(seconds: float, seed: int, players: tuple[int, ...], peers: tuple[str, ...]) -> None:
    """``ValueError`` naming the first option :func:`bench` cannot use."""
    if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"seconds: must be a finite number > 0, got {seconds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed: must be an integer in 0..2**63-1, got {seed!r}")
    bad = [n for n in players if n not in PLAYER_COUNTS]
    if bad or not players:
        raise ValueError(f"players: must be among {PLAYER_COUNTS}, got {list(players)}")
    unknown = [p for p in peers if p not in PEERS]
    if unknown:
        raise ValueError(f"peers: unknown {unknown}; choose from {PEERS}")


def bench(
    seconds: float = 2.0,
    seed: int = 0,
    players: tuple[int, ...] = PLAYER_COUNTS,
    peers: tuple[str, ...] = PEERS,
    progress: Callable[[str], None] | None = None,
) -> BenchReport:
    """Run every measurement; ``seconds`` is the time given to each throughput figure.

    Raises:
        ValueError: ``seconds`` is not a finite number > 0 (NaN would never reach a deadline), ``seed`` is not
            in ``0..2**63-1``, or a player count or peer is unknown; checked before anything is measured.
    """
    check_options(seconds, seed, players, peers)
    report = BenchReport(seconds, seed, platform.python_version(), platform.processor() or platform.machine())
    note = progress or (lambda _msg: None)
    for n in players:
        note(f"tribune {n} players")
        decisions = engine_rate(n, seconds, seed)
        expansion = engine_rate(n, seconds, seed, expansion=True)
        steps, games = aec_rate(lambda n=n: tribune_aec(players=n), seconds, seed)  # type: ignore[misc]
        single = single_rate(n, seconds, seed)
        encode, clone, mask = micro_timings(n, seed)
        wide, _ = aec_rate(lambda n=n: tribune_expansion_aec(players=n), seconds, seed)  # type: ignore[misc]
        report.tribune.append(
            TribuneFigures(n, decisions, steps, games, single, encode, clone, mask, expansion, wide)
        )
    for name in peers:
        note(f"peer {name}")
        try:
            factory = peer_factory(name)
        except Exception as err:  # a missing optional dependency: say so and go on
            report.peers.append(PeerFigures(name, None, None, f"unavailable: {err}"))
            continue
        steps, games = aec_rate(factory, seconds, seed)
        report.peers.append(PeerFigures(name, steps, games))
    return report
