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
* ``raw_env`` AEC steps/s (the same loop without the order-enforcing wrapper) and batched learner
  steps/s (:class:`~tribune_env.envs.batched.TribuneBatchedEnv`, :data:`BATCH` games, counted over all games);
* ``+ policy``: the single-agent and batched learner steps/s again with a policy network (:data:`POLICY_HIDDEN`,
  numpy, random weights) choosing every learner action: one forward pass per step, for one game or for
  :data:`BATCH` games at once, which is what collecting a rollout pays; measured with native thread pools limited
  (:func:`~tribune_env.threads.limited_threads`, as the library runs its own policies) and again with the pools as
  this process found them (``..._unlimited_...``): on busy cores the threaded forward pass costs many times more;
* games/s of random play with a ``Game.view()`` per decision (the work of a tournament of random agents);
* the ``rgb_array`` frame (the drawn board, :func:`~tribune_env.board.board_rgb`): median and 90th-percentile
  milliseconds over :data:`FRAMES` decisions of a random game (with the ``render`` extra only);
* observation encoding and ``clone()``: mean microseconds over mid-game states;
* the two engines side by side (:func:`compare_engines`, where the native core is built): ``Game`` random play
  (base and expansion), observation + mask encoding, ``env()`` and ``TribuneBatchedEnv`` on the Python engine and
  on the native core, with the native core's own random play (``_core.random_games``) and batched API
  (``_core.Batch``), all at one player count; and OpenSpiel's C++ games through ``pyspiel`` where it is installed.

The figures above run on the engine ``TRIBUNE_ENGINE`` selects (``report.engine``: the native core where built).

The peers (``tictactoe_v3``, ``connect_four_v3``, ``texas_holdem_v4``) run the same
AEC loop with the same random policy in the same process, so the ratios compare
like with like on the machine at hand. A peer whose extra dependencies are not
installed is reported as unavailable.
"""

from __future__ import annotations

import importlib
import itertools
import os
import platform
import random
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pettingzoo

from tribune_arena.bench.options import BATCH, BATCH_API, PEERS, PLAYER_COUNTS, check_options
from tribune_env.codec import encoder_for, observe_game
from tribune_env.engine import native
from tribune_env.engine.game import Game
from tribune_env.envs.aec import env as tribune_aec
from tribune_env.envs.aec import expansion_env as tribune_expansion_aec
from tribune_env.envs.aec import expansion_raw_env as tribune_expansion_raw_aec
from tribune_env.envs.aec import raw_env as tribune_raw_aec
from tribune_env.envs.single import TribuneSingleEnv
from tribune_env.envs.table import Table
from tribune_env.extras import missing_extra
from tribune_env.threads import limited_threads, thread_limit, threads_in_use

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""The clocks a bench can time with: wall time, or this process's CPU time (all its threads)."""
_clock: list[Callable[[], float]] = [time.perf_counter]


def clock() -> float:
    """The bench's clock now (:data:`CLOCKS`; :func:`bench` chooses it)."""
    return _clock[0]()


ENGINES = ("python", "native")
"""The engines compared (``TRIBUNE_ENGINE``): the Python engine (the specification) and the native core."""


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
    raw_aec_steps_per_s: float = 0.0  # raw_env: the AEC loop without the order-enforcing wrapper
    batched_steps_per_s: float = 0.0  # learner steps/s of TribuneBatchedEnv with BATCH games (all games together)
    expansion_raw_aec_steps_per_s: float = 0.0  # expansion_raw_env, expansion rules
    view_games_per_s: float = 0.0  # games/s of random play taking a Game.view() per decision (a random tournament)
    single_policy_steps_per_s: float = 0.0  # single-agent learner steps/s with a policy network choosing (one obs)
    batched_policy_steps_per_s: float = 0.0  # the same for TribuneBatchedEnv: one forward pass for BATCH games
    frame_ms: float = 0.0  # median ms of a render_mode="rgb_array" frame (board_rgb) over a random game; 0: no resvg
    frame_p90_ms: float = 0.0  # its 90th percentile
    single_policy_unlimited_steps_per_s: float = 0.0  # single_policy_steps_per_s with the thread pools as found
    batched_policy_unlimited_steps_per_s: float = 0.0  # batched_policy_steps_per_s with the thread pools as found

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
class EngineFigures:
    """One engine's figures (``"python"`` or ``"native"``) at ``players``, measured in the same run as the other's.

    ``core_decisions_per_s`` and ``batch_decisions_per_s`` exist for the native engine only (0 for Python): random
    games played inside the core (``_core.random_games``, no Python per decision) and ``_core.Batch.step_random``
    (:data:`~tribune_arena.bench.options.BATCH_API` games, observations, masks, rewards and done flags written into
    numpy arrays every step)."""

    engine: str
    players: int
    game_decisions_per_s: float  # Game.legal_actions + Game.apply, base game
    expansion_decisions_per_s: float  # the same with the Tribune Expansion
    encode_us: float  # observation + action mask of the seat to act, mean µs over mid-game positions
    aec_steps_per_s: float  # env(): the PettingZoo AEC loop
    batched_steps_per_s: float  # TribuneBatchedEnv, BATCH games, learner steps over all of them
    core_decisions_per_s: float = 0.0
    batch_decisions_per_s: float = 0.0
    core_encode_us: float = 0.0  # native only: encode_us with the core's encoder and codec called directly
    live_encode_us: float = 0.0  # encode_us on the position just played, as env.step takes it (live_encode_timing)
    core_expansion_decisions_per_s: float = 0.0  # core_decisions_per_s with the Tribune Expansion
    agent_loop_us: float = 0.0  # µs a decision of a Python agent's loop: Game.view (unread), legal_actions, apply
    agent_loop_read_us: float = 0.0  # the same loop reading the whole view (view.data) every decision


@dataclass
class OpenSpielFigures:
    """Random play of an OpenSpiel game through ``pyspiel`` (decisions/s, chance outcomes not counted)."""

    name: str
    decisions_per_s: float | None
    error: str = ""


@dataclass
class BenchReport:
    seconds: float
    seed: int
    python: str
    machine: str
    tribune: list[TribuneFigures] = field(default_factory=list)
    peers: list[PeerFigures] = field(default_factory=list)
    clock: str = "wall"  # what timed the figures: "wall" (time.perf_counter) or "cpu" (time.process_time)
    engine: str = ""  # the engine the figures above ran on ("native" or "python"; TRIBUNE_ENGINE)
    engines: list[EngineFigures] = field(default_factory=list)  # both engines side by side, where the core is built
    engines_note: str = ""  # why only one engine was measured
    openspiel: list[OpenSpielFigures] = field(default_factory=list)  # OpenSpiel's games, where pyspiel is installed
    threads_found: dict[str, int] = field(default_factory=dict)  # native pools' threads as found (threads_in_use())
    thread_limit: int | None = None  # the "+ policy" figures' limit (tribune_env.threads); None: TRIBUNE_THREADS=0

    def ratios(self, players: int = 4, raw: bool = False) -> dict[str, float]:
        """AEC steps/s of Tribune at ``players`` (``env()``, or ``raw_env`` with ``raw``) divided by each available
        peer's."""
        figures = next(t for t in self.tribune if t.players == players)
        ours = figures.raw_aec_steps_per_s if raw else figures.aec_steps_per_s
        return {p.name: ours / p.aec_steps_per_s for p in self.peers if p.aec_steps_per_s}

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for figures, ours in zip(out["tribune"], self.tribune, strict=True):
            figures["expansion_ratio"] = ours.expansion_ratio
        out["ratios_4p"] = self.ratios(4) if any(t.players == 4 for t in self.tribune) else {}
        out["raw_ratios_4p"] = self.ratios(4, raw=True) if any(t.players == 4 for t in self.tribune) else {}
        out["engine_ratios"] = self.engine_ratios()
        return out

    def engine_ratios(self) -> dict[str, float]:
        """Native over Python for each figure both engines have (same run), and each engine's ``env()`` steps/s
        over each measured PettingZoo peer's (``"env() <engine> ÷ <peer>"``)."""
        by_engine = {f.engine: f for f in self.engines}
        out: dict[str, float] = {}
        ours, base = by_engine.get("native"), by_engine.get("python")
        if ours and base:
            for name, native_figure, python_figure, is_time in ENGINE_RATIOS:
                mine, theirs = getattr(ours, native_figure), getattr(base, python_figure)
                if mine and theirs:  # a time is Python's over native's, a rate native's over Python's
                    out[name] = theirs / mine if is_time else mine / theirs
        for figures in self.engines:
            for peer in self.peers:
                if peer.aec_steps_per_s:
                    out[f"env() {figures.engine} ÷ {peer.name}"] = figures.aec_steps_per_s / peer.aec_steps_per_s
        return out


ENGINE_RATIOS: tuple[tuple[str, str, str, bool], ...] = (
    ("game_decisions_per_s", "game_decisions_per_s", "game_decisions_per_s", False),
    ("expansion_decisions_per_s", "expansion_decisions_per_s", "expansion_decisions_per_s", False),
    ("aec_steps_per_s", "aec_steps_per_s", "aec_steps_per_s", False),
    ("batched_steps_per_s", "batched_steps_per_s", "batched_steps_per_s", False),
    ("encode", "encode_us", "encode_us", True),
    ("live_encode", "live_encode_us", "live_encode_us", True),
    ("core_encode", "core_encode_us", "encode_us", True),
    ("core_decisions_per_s", "core_decisions_per_s", "game_decisions_per_s", False),
    ("core_expansion_decisions_per_s", "core_expansion_decisions_per_s", "expansion_decisions_per_s", False),
    ("batch_decisions_per_s", "batch_decisions_per_s", "batched_steps_per_s", False),
    ("agent_loop", "agent_loop_us", "agent_loop_us", True),
    ("agent_loop_read", "agent_loop_read_us", "agent_loop_read_us", True),
)
"""(ratio name, native figure, Python figure it is compared with, whether the figures are times) of
:meth:`BenchReport.engine_ratios`."""


# -- measurements ------------------------------------------------------------------


def engine_rate(players: int, seconds: float, seed: int, expansion: bool = False) -> float:
    """Decisions per second of the bare engine under random legal play (``expansion``: with the expansion)."""
    rng = random.Random(seed)
    decisions = 0
    game_seed = seed
    start = clock()
    deadline = start + seconds
    while True:
        game = Game.new(players=players, seed=game_seed, expansion=expansion)
        game_seed += 1
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
            decisions += 1
        if clock() >= deadline:
            return decisions / (clock() - start)


def aec_rate(make_env: Callable[[], Any], seconds: float, seed: int) -> tuple[float, float]:
    """(steps/s, games/s) of an AEC environment in the standard loop under random legal play."""
    env = make_env()
    rng = random.Random(seed)
    steps = games = 0
    start = clock()
    deadline = start + seconds
    episode = 0
    while clock() < deadline:
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
    elapsed = clock() - start
    return steps / elapsed, games / elapsed


def single_rate(players: int, seconds: float, seed: int) -> float:
    """Learner steps per second of the single-agent wrapper against random opponents."""
    env = TribuneSingleEnv(players=players)
    rng = random.Random(seed)
    steps = 0
    episode = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        env.reset(seed=seed + episode)
        episode += 1
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _obs, _reward, terminated, truncated, _info = env.step(int(legal[int(rng.random() * len(legal))]))
            done = terminated or truncated
            steps += 1
    return steps / (clock() - start)


def view_play_rate(players: int, seconds: float, seed: int) -> float:
    """Games per second of random legal play that takes each decider's ``Game.view()`` first, as a tournament of
    agents that do not read their view does (the view is built lazily, so it costs little unread)."""
    rng = random.Random(seed)
    games = 0
    game_seed = seed
    start = clock()
    deadline = start + seconds
    while True:
        game = Game.new(players=players, seed=game_seed)
        game_seed += 1
        while not game.is_over:
            game.view(game.current_seat)
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
        games += 1
        if clock() >= deadline:
            return games / (clock() - start)


def agent_loop_timing(players: int, seconds: float, seed: int, read: bool = False) -> float:
    """Mean µs a decision of a Python agent's loop under random legal play: ``Game.view(seat)`` of the seat to act
    (left unread, or with ``read`` every field computed: ``view.data``), ``legal_actions()`` and ``apply``, over
    whole games for about ``seconds``, on the engine of ``TRIBUNE_ENGINE`` (issue 41: at most 20 µs native)."""
    rng = random.Random(seed)
    decisions = 0
    game_seed = seed
    start = clock()
    deadline = start + seconds
    while True:
        game = Game.new(players=players, seed=game_seed)
        game_seed += 1
        while not game.is_over:
            view = game.view(game.current_seat)
            if read:
                view.data  # noqa: B018 (computes every field)
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
            decisions += 1
        if clock() >= deadline:
            return (clock() - start) / decisions * 1e6


def batched_rate(players: int, seconds: float, seed: int, num_envs: int = BATCH) -> float:
    """Learner steps per second (over all games) of :class:`TribuneBatchedEnv` against random opponents."""
    from tribune_env.envs.batched import TribuneBatchedEnv

    env = TribuneBatchedEnv(num_envs, players=players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        masks = env.action_masks()
        choice = (rng.random(num_envs) * masks.sum(axis=1)).astype(np.int64)
        actions = np.asarray([np.flatnonzero(row)[k] for row, k in zip(masks, choice, strict=True)])
        env.step(actions)
        steps += num_envs
    return steps / (clock() - start)


POLICY_HIDDEN = (256, 256)
"""Hidden layers of the policy network in the ``+ policy`` figures: the shipped agents' size."""


class _MlpPolicy:
    """A tanh MLP with random weights choosing the masked argmax: what a rollout pays per step for its policy."""

    def __init__(self, obs_size: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        sizes = [obs_size, *POLICY_HIDDEN, actions]
        self.layers = [
            (rng.standard_normal((i, o)).astype(np.float32) / np.sqrt(i), np.zeros(o, dtype=np.float32))
            for i, o in itertools.pairwise(sizes)
        ]

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        x = obs.astype(np.float32, copy=False)
        for k, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if k < len(self.layers) - 1:
                x = np.tanh(x)
        chosen: np.ndarray = np.where(masks.astype(bool), x, -np.inf).argmax(axis=1)
        return chosen


def _threads(limit: bool) -> AbstractContextManager[object]:
    """Native thread pools limited (:func:`~tribune_env.threads.limited_threads`) or left as found."""
    return limited_threads() if limit else nullcontext()


def single_policy_rate(players: int, seconds: float, seed: int, limit: bool = True) -> float:
    """Learner steps/s of the single-agent wrapper (random opponents) with :class:`_MlpPolicy` choosing; ``limit``:
    inside :func:`~tribune_env.threads.limited_threads`, else with the thread pools as found."""
    env = TribuneSingleEnv(players=players)
    policy = _MlpPolicy(env.observation_space.shape[0], int(env.action_space.n), seed)  # type: ignore[index,attr-defined]
    with _threads(limit):
        return _single_policy_loop(env, policy, seconds, seed)


def _single_policy_loop(env: TribuneSingleEnv, policy: _MlpPolicy, seconds: float, seed: int) -> float:
    steps = episode = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        obs, _ = env.reset(seed=seed + episode)
        episode += 1
        done = False
        while not done:
            action = policy(obs[None, :], env.action_masks()[None, :])[0]
            obs, _reward, terminated, truncated, _info = env.step(int(action))
            done = terminated or truncated
            steps += 1
    return steps / (clock() - start)


def batched_policy_rate(players: int, seconds: float, seed: int, num_envs: int = BATCH, limit: bool = True) -> float:
    """Learner steps/s (all games) of :class:`TribuneBatchedEnv` with one :class:`_MlpPolicy` pass per step;
    ``limit`` as for :func:`single_policy_rate`."""
    from tribune_env.envs.batched import TribuneBatchedEnv

    env = TribuneBatchedEnv(num_envs, players=players)
    obs, _ = env.reset(seed=seed)
    policy = _MlpPolicy(obs.shape[1], env.action_masks().shape[1], seed)
    steps = 0
    with _threads(limit):
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            obs, *_ = env.step(policy(obs, env.action_masks()))
            steps += num_envs
        return steps / (clock() - start)


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
    start = clock()
    for game in games:  # encode_game: a native game is encoded natively (reading game.state would convert it)
        encoder.encode_game(game, game.current_seat)
    encode = clock() - start
    start = clock()
    for game in games:
        game.clone()
    clone = clock() - start
    table = Table(players=players)
    start = clock()
    for game in games:
        table.game = game
        table.mask(game.current_seat)
    mask = clock() - start
    return encode / len(games) * 1e6, clone / len(games) * 1e6, mask / len(games) * 1e6


FRAMES = 150
"""Most frames timed in the rgb_array figure (``tribune bench`` times 50 per second of ``--seconds``, at least 20): one
per decision of a random game; the first, which draws the fixed layer of the board, is left out."""


def frame_timings(players: int, seed: int, frames: int = FRAMES) -> tuple[float, float]:
    """Median and 90th-percentile milliseconds of :func:`~tribune_env.board.board_rgb` (the ``rgb_array`` frame)
    over the decisions of a random game; ``(0.0, 0.0)`` when the ``render`` extra is not installed."""
    try:
        import resvg_py  # noqa: F401  (the rasteriser of board_rgb)

        from tribune_env.board import board_rgb
    except ImportError:
        return 0.0, 0.0
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed)
    board_rgb(game)
    times: list[float] = []
    while len(times) < frames:
        if game.is_over:
            game = Game.new(players=players, seed=seed + len(times))
        game.apply(rng.choice(game.legal_actions()))
        start = clock()
        board_rgb(game)
        times.append(clock() - start)
    times.sort()
    return times[len(times) // 2] * 1e3, times[int(len(times) * 0.9)] * 1e3


def peer_factory(name: str) -> Callable[[], Any]:
    """A constructor of a PettingZoo classic game from its registry (``tictactoe_v3`` is ``classic/tictactoe-v3``)."""
    base, version = name.rsplit("_v", 1)
    env_id = f"classic/{base}-v{version}"
    spec = pettingzoo.spec("aec", env_id)
    pettingzoo.make("aec", spec).close()  # fails here, not mid-measurement, when a dependency is missing
    return lambda: pettingzoo.make("aec", spec)


def bench(
    seconds: float = 2.0,
    seed: int = 0,
    players: tuple[int, ...] = PLAYER_COUNTS,
    peers: tuple[str, ...] = PEERS,
    progress: Callable[[str], None] | None = None,
    engines: bool = True,
    clock_name: str = "wall",
) -> BenchReport:
    """Run every measurement; ``seconds`` is the time given to each throughput figure.

    With ``engines`` and the native core built, both engines are measured side by side at one player count
    (:func:`compare_engines`, ``report.engines``), and OpenSpiel's games where ``pyspiel`` is installed.

    Raises:
        ValueError: ``seconds`` is not a finite number > 0 (NaN would never reach a deadline), ``seed`` is not
            in ``0..2**63-1``, or a player count or peer is unknown; checked before anything is measured.
    """
    check_options(seconds, seed, players, peers)
    if clock_name not in CLOCKS:
        raise ValueError(f"clock: expected one of {', '.join(CLOCKS)}, got {clock_name!r}")
    _clock[0] = CLOCKS[clock_name]
    try:
        return _bench(seconds, seed, players, peers, progress, engines, clock_name)
    finally:
        _clock[0] = time.perf_counter


def _bench(
    seconds: float,
    seed: int,
    players: tuple[int, ...],
    peers: tuple[str, ...],
    progress: Callable[[str], None] | None,
    engines: bool,
    clock_name: str,
) -> BenchReport:
    report = BenchReport(seconds, seed, platform.python_version(), platform.processor() or platform.machine())
    report.engine, report.clock = native.engine_name(), clock_name
    report.threads_found, report.thread_limit = threads_in_use(), thread_limit()
    note = progress or (lambda _msg: None)
    for n in players:
        note(f"tribune {n} players")
        decisions = engine_rate(n, seconds, seed)
        expansion = engine_rate(n, seconds, seed, expansion=True)
        steps, games = aec_rate(lambda n=n: tribune_aec(players=n), seconds, seed)  # type: ignore[misc]
        single = single_rate(n, seconds, seed)
        encode, clone, mask = micro_timings(n, seed)
        wide, _ = aec_rate(lambda n=n: tribune_expansion_aec(players=n), seconds, seed)  # type: ignore[misc]
        figures = TribuneFigures(n, decisions, steps, games, single, encode, clone, mask, expansion, wide)
        figures.raw_aec_steps_per_s, _ = aec_rate(lambda n=n: tribune_raw_aec(players=n), seconds, seed)  # type: ignore[misc]
        figures.batched_steps_per_s = batched_rate(n, seconds, seed)
        raw_wide, _ = aec_rate(lambda n=n: tribune_expansion_raw_aec(players=n), seconds, seed)  # type: ignore[misc]
        figures.expansion_raw_aec_steps_per_s = raw_wide
        figures.view_games_per_s = view_play_rate(n, seconds, seed)
        figures.single_policy_steps_per_s = single_policy_rate(n, seconds, seed)
        figures.batched_policy_steps_per_s = batched_policy_rate(n, seconds, seed)
        figures.single_policy_unlimited_steps_per_s = single_policy_rate(n, seconds, seed, limit=False)
        figures.batched_policy_unlimited_steps_per_s = batched_policy_rate(n, seconds, seed, limit=False)
        figures.frame_ms, figures.frame_p90_ms = frame_timings(n, seed, max(20, min(FRAMES, int(seconds * 50))))
        report.tribune.append(figures)
    for name in peers:
        note(f"peer {name}")
        try:
            factory = peer_factory(name)
        except Exception as err:  # a missing optional dependency: say so and go on
            report.peers.append(PeerFigures(name, None, None, f"unavailable: {missing_extra(name, 'bench', err)}"))
            continue
        steps, games = aec_rate(factory, seconds, seed)
        report.peers.append(PeerFigures(name, steps, games))
    if engines:
        compare_engines(report, engine_players(players), seconds, seed, note)
        note("OpenSpiel games")
        report.openspiel = openspiel_rates(seconds, seed)
    return report


# -- the two engines ---------------------------------------------------------------------------------------------


def engine_players(players: tuple[int, ...]) -> int:
    """The player count the engines are compared at: 4 (the issue's figures) when measured, else the largest."""
    return 4 if 4 in players else max(players)


@contextmanager
def engine(name: str) -> Iterator[None]:
    """New games (``Game.new``, environments' resets) run on ``name`` (``"python"`` or ``"native"``) inside."""
    old = os.environ.get(native.ENGINE_ENV)
    os.environ[native.ENGINE_ENV] = name
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(native.ENGINE_ENV, None)
        else:
            os.environ[native.ENGINE_ENV] = old


def encode_timing(players: int, seed: int, samples: int = 1000) -> float:
    """Mean microseconds of the observation and action mask of the seat to act over stored mid-game positions
    (``tribune_env.codec.observe_game``, as ``Table.observe``: the Python encoder on a Python game, the native one
    on a native game). A thousand stored positions are mostly out of the processor's caches."""
    games = _mid_game_states(players, seed, samples)
    table = Table(players=players)
    encoder, codec = table.encoder, table.codec
    out = np.zeros(encoder.size, dtype=np.float32)
    seats = [game.current_seat for game in games]
    start = clock()
    for game, seat in zip(games, seats, strict=True):
        observe_game(encoder, codec, game, seat, out)
    return (clock() - start) / len(games) * 1e6


def live_encode_timing(players: int, seed: int, decisions: int) -> float:
    """Mean microseconds of the observation and action mask of the seat to act (``observe_game``) taken as
    ``env.step`` takes them: on the position just played, after each decision of random games. Each call pair is timed
    alone with ``time.perf_counter`` (the timer's own cost, measured the same way, taken off); the slowest 0.5% of
    calls, where the machine preempted the process, are left out (both engines alike)."""
    table = Table(players=players)
    encoder, codec = table.encoder, table.codec
    out = np.zeros(encoder.size, dtype=np.float32)
    timer = time.perf_counter
    rng = random.Random(seed)
    game_seed = seed
    game = Game.new(players=players, seed=game_seed)
    spent = np.empty(decisions)
    empty = np.empty(decisions)
    for k in range(decisions):
        if game.is_over:
            game_seed += 1
            game = Game.new(players=players, seed=game_seed)
        seat = game.current_seat  # known to the caller, as an environment knows whose step it is
        start = timer()
        empty[k] = timer() - start
        start = timer()
        observe_game(encoder, codec, game, seat, out)
        spent[k] = timer() - start
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])
    keep = max(1, int(decisions * 0.995))
    return max(float(np.sort(spent)[:keep].mean() - np.sort(empty)[:keep].mean()), 0.0) * 1e6


def raw_encode_timing(players: int, seed: int, samples: int = 1000) -> float:
    """:func:`encode_timing` of the native core called directly: ``_core.ObservationEncoder.encode`` and
    ``_core.ActionCodec.mask`` writing into preallocated arrays, with none of the Python API around them."""
    with engine("native"):
        games = _mid_game_states(players, seed, samples)
    table = Table(players=players)
    core = _core()
    encoder = core.ObservationEncoder(table.encoder.components, table.encoder.round_limit, table.encoder.space.value)
    codec = table.codec.native_codec()
    cores = [core for core in (game.native_core for game in games) if core is not None]
    obs = np.zeros(table.encoder.size, dtype=np.float32)
    mask = np.zeros(table.codec.n, dtype=np.uint8)
    start = clock()
    for position in cores:
        encoder.encode(position, position.current_seat, obs)
        codec.mask(position, mask)
    return (clock() - start) / len(cores) * 1e6


def _core() -> Any:
    """The native core's module (``tribune_env._core``; ImportError where it is not built)."""
    return importlib.import_module("tribune_env._core")


def core_rate(players: int, seconds: float, seed: int, expansion: bool = False) -> float:
    """Decisions/s of random games played inside the native core (``_core.random_games``), base game or with the
    Tribune Expansion."""
    from tribune_env.engine.config import GameConfig

    rules = native.rules_for(GameConfig(players=players, expansion=expansion))
    decisions, games = 0, 0
    start = clock()
    while clock() - start < seconds:
        decisions += _core().random_games(rules, 4, seed + games)
        games += 4
    return decisions / (clock() - start)


def batch_api_rate(players: int, seconds: float, seed: int, num_envs: int = BATCH_API) -> float:
    """Decisions/s (over all games) of ``_core.Batch.step_random``: ``num_envs`` games, one random legal decision
    each per step, observations, masks, rewards and done flags written into the batch's numpy arrays."""
    core = _core()
    table = Table(players=players)
    encoder = core.ObservationEncoder(table.encoder.components, table.encoder.round_limit, table.encoder.space.value)
    batch = core.Batch(native.rules_for(table.config), table.codec.native_codec(), encoder, num_envs)
    batch.reset(np.arange(seed, seed + num_envs, dtype=np.uint64))
    steps = 0
    start = clock()
    while clock() - start < seconds:
        batch.step_random(16)
        steps += 16
    return steps * num_envs / (clock() - start)


LIVE_DECISIONS = {"python": 3000, "native": 30000}
"""Decisions per pass of :func:`live_encode_timing` by engine: a fraction of a second each."""


def engine_figures(name: str, players: int, seconds: float, seed: int) -> EngineFigures:
    """Every figure of one engine at ``players`` (the native-only ones when ``name`` is ``"native"``)."""
    with engine(name):
        figures = EngineFigures(
            name,
            players,
            engine_rate(players, seconds, seed),
            engine_rate(players, seconds, seed, expansion=True),
            encode_timing(players, seed),
            aec_rate(lambda: tribune_aec(players=players), seconds, seed)[0],
            batched_rate(players, seconds, seed),
        )
        figures.live_encode_us = live_encode_timing(players, seed, LIVE_DECISIONS[name])
        figures.agent_loop_us = agent_loop_timing(players, seconds, seed)
        figures.agent_loop_read_us = agent_loop_timing(players, seconds, seed, read=True)
        if name == "native":
            figures.core_decisions_per_s = core_rate(players, seconds, seed)
            figures.core_expansion_decisions_per_s = core_rate(players, seconds, seed, expansion=True)
            figures.batch_decisions_per_s = batch_api_rate(players, seconds, seed)
            figures.core_encode_us = raw_encode_timing(players, seed)
    return figures


def compare_engines(report: BenchReport, players: int, seconds: float, seed: int, note: Callable[[str], None]) -> None:
    """Fill ``report.engines`` with the Python engine and the native core at ``players``, or say why not."""
    if not native.built():
        report.engines_note = f"Python engine only: the native core is not built ({native.BUILD_ERROR or 'no module'})"
        return
    for name in ENGINES:
        note(f"the {name} engine, {players} players")
        report.engines.append(engine_figures(name, players, seconds, seed))


OPENSPIEL_GAMES = ("tic_tac_toe", "connect_four")
"""OpenSpiel's C++ games timed under random play where ``pyspiel`` is installed (the ``openspiel`` extra)."""


def openspiel_rate(name: str, seconds: float, seed: int) -> float:
    """Decisions/s of uniformly random play of the OpenSpiel game ``name`` through ``pyspiel``."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            decisions += 1
    return decisions / (clock() - start)


def openspiel_rates(seconds: float, seed: int) -> list[OpenSpielFigures]:
    """:func:`openspiel_rate` of each of :data:`OPENSPIEL_GAMES`, or one row saying why none was measured."""
    try:
        import pyspiel  # noqa: F401
    except ImportError as err:
        return [OpenSpielFigures("open_spiel", None, f"unavailable: {missing_extra('open_spiel', 'openspiel', err)}")]
    return [OpenSpielFigures(name, openspiel_rate(name, seconds, seed)) for name in OPENSPIEL_GAMES]
