"""Self-play games with search and what they teach: :func:`play_game`, run by :func:`play_games` on a backend.

A game (:class:`SelfPlayJob`) is seeded from the run's seed, the iteration and the game's index alone
(:func:`job_seed`), so its positions do not depend on which worker plays it, on how many there are, or on the
backend. Each seat is the network with search (:class:`agents.zero.ZeroAgent`) or, with the share
``opponents`` gives, an opponent agent. At a decision of a network seat with more than one legal choice:

* with probability ``full_search`` (playout cap randomisation, KataGo) the seat searches; the position is recorded
  with a policy target: the search's improved policy (:meth:`~agents.zero.SearchResult.target`); with
  ``target: choice`` all on the action the search chose; with ``target: significant`` all on the search's choice
  where its mean value beats that of the network's own choice by ``margin`` or more, else on the network's choice.
  The seat plays the search's choice, or with probability ``1 - search_moves`` the network's most probable action
  (the network's own games, labelled by the search). With ``confirm`` playouts, an overrule (:func:`overrules`)
  is searched again (no Gumbel noise, a generator of its own, so the game itself does not change); unless that
  search overrules with the same action, the label is the network's choice and the label is not counted clear;
* otherwise it plays the network's move (``fast_moves``: its most probable legal action, or a sample of its
  softmax); the position is recorded without a policy target.

Every recorded position gets the game's final :func:`~tribune_env.envs.rewards.win_loss` of its seat as the value
target. Opponent seats are not recorded. Workers need numpy only: the network travels as the path of its ``.npz``
(or, on Ray, as its bytes, written to a local file once per network).

Backends: ``multiprocessing`` (a pool of ``forkserver`` processes kept for the run; one worker plays in this
process) and ``ray`` (a task per game on a local instance or a cluster).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import multiprocessing
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from agents.base import Agent
from agents.specs import make_agent
from agents.zero import Network, SearchResult, ZeroAgent, ZeroSearch, ZeroSettings
from training.zero.config import SelfPlayConfig
from tribune_arena.tournament.schedule import derive_seed
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.rewards import win_loss

NETWORK = "zero"
"""How :attr:`GameData.seating` names a seat the network plays."""


class SelfPlayError(Exception):
    """A self-play game or backend failed; the message says which and why."""


def job_seed(seed: int, iteration: int, index: int) -> int:
    """The seed of game ``index`` of ``iteration`` in a run seeded ``seed``."""
    return derive_seed(seed, "zero-selfplay", iteration, index)


@dataclass(frozen=True)
class SelfPlayJob:
    """One self-play game: everything a worker needs (picklable; ``network`` is an ``.npz`` path)."""

    game: GameConfig
    network: str
    search: ZeroSettings
    full_search: float
    fast_moves: str
    opponents: tuple[tuple[str, float], ...]
    seed: int
    index: int
    target: str = SelfPlayConfig.target  # what a searched position teaches (the config's key of that name)
    margin: float = SelfPlayConfig.margin  # ``significant``: the least gain in mean value that overrules
    search_moves: float = SelfPlayConfig.search_moves  # share of searched decisions playing the search's choice
    confirm: int = SelfPlayConfig.confirm  # playouts of the search that confirms an overrule (0: none)
    value_positions: int = SelfPlayConfig.value_positions  # positions with a value target per game (0: all)
    sigma_scale: float = SelfPlayConfig.sigma_scale  # ``improved``: the weight of the search's sigma(q)
    root_value: float = SelfPlayConfig.root_value  # the share of the search's root value in a searched value target
    others: str | None = None  # the opponent model of the searches' playouts (``search.others``, a resolved path)


@dataclass
class GameData:
    """The recorded positions of one game (rows in decision order) and its summary.

    ``obs`` float16 (rows x observation size), ``masks`` bool and ``targets`` float16 (rows x actions; a target is
    zero where ``searched`` is false), ``values`` float32: the seat's final ``win_loss``, NaN at a position without a
    value target (``value_positions``); ``gains`` float32: :func:`label_gain` of each position's search (none given:
    unknown).
    """

    index: int
    obs: npt.NDArray[np.float16]
    masks: npt.NDArray[np.bool_]
    targets: npt.NDArray[np.float16]
    searched: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]
    gains: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros(0, np.float32))  # :func:`label_gain`
    seating: list[str] = field(default_factory=list)
    outcome: list[float] = field(default_factory=list)
    decisions: int = 0  # every decision of the game, all seats
    simulations: int = 0  # playouts of its searches
    clear: int = 0  # clear labels: searched positions where the search overrules the network (:func:`overrules`)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the process that played it (the rate a loaded machine does not distort)

    def __len__(self) -> int:
        return len(self.values)


def _seating(job: SelfPlayJob, rng: random.Random) -> list[str]:
    """Who plays each seat: an opponent spec with its share, else the network; at least one network seat."""
    seats: list[str] = []
    for _ in range(job.game.players):
        u, spec = rng.random(), NETWORK
        for name, share in job.opponents:
            if u < share:
                spec = name
                break
            u -= share
        seats.append(spec)
    if NETWORK not in seats:
        seats[rng.randrange(len(seats))] = NETWORK
    return seats


def _agents(job: SelfPlayJob, seating: list[str], rng: random.Random) -> list[Agent]:
    agents: list[Agent] = []
    for seat, spec in enumerate(seating):
        seed = rng.randrange(2**62)
        agent: Agent = (ZeroAgent(job.search, job.network, seed, job.others) if spec == NETWORK
                        else make_agent(spec, seed))
        agent.reset(seat, job.game, seed)
        agents.append(agent)
    return agents


class _Recorder:
    """The positions of the network seats as they are played."""

    def __init__(self) -> None:
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.targets: list[np.ndarray | None] = []
        self.seats: list[int] = []
        self.roots: list[float] = []  # the search's root value for the seat (NaN: not searched)
        self.gains: list[float] = []  # :func:`label_gain` (NaN: not searched)

    def add(self, obs: np.ndarray, mask: np.ndarray, target: np.ndarray | None, seat: int,
            root: float = math.nan, gain: float = math.nan) -> None:
        self.obs.append(obs.astype(np.float16))
        self.masks.append(mask)
        self.targets.append(target)
        self.seats.append(seat)
        self.roots.append(root)
        self.gains.append(gain)

    def data(self, index: int, outcome: list[float], obs_size: int, actions: int,
             root_value: float = 0.0) -> GameData:
        rows = len(self.seats)
        targets = np.zeros((rows, actions), dtype=np.float16)
        for i, target in enumerate(self.targets):
            if target is not None:
                targets[i] = target
        return GameData(
            index=index,
            obs=np.array(self.obs, dtype=np.float16).reshape(rows, obs_size),
            masks=np.array(self.masks, dtype=bool).reshape(rows, actions),
            targets=targets,
            searched=np.array([t is not None for t in self.targets], dtype=bool),
            values=mixed_values([outcome[s] for s in self.seats], self.roots, root_value),
            gains=np.array(self.gains, dtype=np.float32),
            outcome=outcome,
        )


def mixed_values(results: list[float], roots: list[float], weight: float) -> npt.NDArray[np.float32]:
    """Value targets: each position's result, mixed with ``weight`` of its search's root value where it has one."""
    values = np.array(results, dtype=np.float64)
    root = np.array(roots, dtype=np.float64)
    if weight > 0 and len(values):
        searched = ~np.isnan(root)
        values[searched] = (1.0 - weight) * values[searched] + weight * root[searched]
    return values.astype(np.float32)


def root_value(result: SearchResult | None) -> float:
    """The search's value of the position for its seat: the visit-weighted mean of its candidates' mean values
    (NaN when it did not search)."""
    if result is None or not result.searched or not result.visits or sum(result.visits) == 0:
        return math.nan
    visits = np.asarray(result.visits, dtype=np.float64)
    return float(np.dot(visits, np.asarray(result.q, dtype=np.float64)) / visits.sum())


def scaled_target(result: SearchResult, scale: float) -> npt.NDArray[np.float32]:
    """The improved policy with the search's ``sigma(q)`` times ``scale``: ``log(target) - log(prior)`` is sigma up
    to a constant, so ``softmax(logits + scale * (log target - log prior))`` over the legal actions."""
    target = result.target().astype(np.float64)
    if scale == 1.0 or not result.searched:
        return target.astype(np.float32)
    mask = result.mask
    logits = np.where(mask, result.logits.astype(np.float64), -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(mask, np.log(target) - logits, 0.0)
    gain = np.where(np.isfinite(gain), gain, 0.0)
    z = logits + scale * gain
    z = np.exp(z - z[mask].max())
    out: npt.NDArray[np.float64] = np.where(mask, z, 0.0)
    scaled: npt.NDArray[np.float32] = (out / out.sum()).astype(np.float32)
    return scaled


def _fast_move(net: Network, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator, sample: bool) -> int:
    """The network's move: the masked argmax, or a sample of the masked softmax."""
    legal = np.flatnonzero(mask)
    scores = net.policy.logits(obs)[legal].astype(np.float64)
    if not sample:
        return int(legal[int(np.argmax(scores))])
    p = np.exp(scores - scores.max())
    return int(legal[rng.choice(legal.size, p=p / p.sum())])


def _onehot(index: int, actions: int) -> np.ndarray:
    out = np.zeros(actions, dtype=np.float32)
    out[index] = 1.0
    return out


def _confirmer(job: SelfPlayJob, net: Network, others: Network | None) -> tuple[ZeroSearch, random.Random] | None:
    """The search that confirms overrules (``job.confirm`` playouts, no Gumbel noise) and the generator of its deals,
    seeded apart from the game's, so that the game is the same with or without it; None without ``confirm``."""
    if not job.confirm:
        return None
    return confirming_search(job.search, job.confirm, net, others, derive_seed(job.seed, "zero-confirm"))


def confirming_search(settings: ZeroSettings, playouts: int, net: Network, others: Network | None,
                      seed: int) -> tuple[ZeroSearch, random.Random]:
    """A search like ``settings``' that confirms overrules: ``playouts`` playouts, no Gumbel noise, every decision
    searched; and the generator of its deals (both from ``seed``)."""
    settings = dataclasses.replace(settings, simulations=playouts, seconds=None, explore=False, threshold=2.0)
    return ZeroSearch(net, settings, seed, others), random.Random(seed + 1)


def confirms(confirmer: tuple[ZeroSearch, random.Random], result: SearchResult, info: InfoSet,
             margin: float) -> tuple[bool, int]:
    """Whether the confirming search overrules the network with ``result``'s action too; and its playouts."""
    search, sample = confirmer
    second = search.run(info, sample)
    return second.index == result.index and overrules(second, margin), second.simulations


def _policy_target(result: SearchResult | None, kind: str, margin: float = 0.0,
                   sigma_scale: float = 1.0) -> np.ndarray | None:
    """What a searched decision teaches (``improved``, ``choice`` or ``significant``, see the module docstring);
    None for a decision the search skipped."""
    if result is None or not result.searched:
        return None
    if kind == "improved":
        return result.target() if sigma_scale == 1.0 else scaled_target(result, sigma_scale)
    label = result.index
    if kind == "significant":
        own = result.favourite
        q = dict(zip(result.candidates, result.q, strict=True))
        if own in q and q[label] - q[own] < margin:
            label = own
    onehot = np.zeros(result.mask.shape, dtype=np.float32)
    onehot[label] = 1.0
    return onehot


def search_gain(result: SearchResult | None) -> float:
    """What a search found over the network's own choice (its most probable action): the mean value of the search's
    choice minus that of the network's, for the searching seat; 0 where the search chose the network's action; NaN
    without a search, or where the network's action was not among the candidates (Gumbel exploration). The learner's
    ``gain_scale`` weighs each label by it."""
    if result is None or not result.searched:
        return math.nan
    if result.index == result.favourite:
        return 0.0
    q = dict(zip(result.candidates, result.q, strict=True))
    own = result.favourite
    return float(q[result.index] - q[own]) if own in q else math.nan


def label_gain(result: SearchResult | None, kind: str, margin: float) -> float:
    """What a position's label teaches over the network's own choice, the gain the learner's ``gain_scale`` weighs
    it by: :func:`search_gain`, except that a ``significant`` label left on the network's own choice (no overrule
    by ``margin``) teaches nothing, 0; so with ``gain_scale`` only the overrules train the policy and the anchor
    holds the rest."""
    gain = search_gain(result)
    if kind == "significant" and not math.isnan(gain) and not overrules(result, margin):
        return 0.0
    return gain


def overrules(result: SearchResult | None, margin: float) -> bool:
    """Whether a search found a **clear label**: its choice is not the network's own and its mean value beats the
    network's own choice's by ``margin`` or more (both searched; what ``target: significant`` labels as an overrule).
    The count of these per hour is what a trainer of a strong network is short of (docs/training/zero.md)."""
    return result is not None and result.index != result.favourite and search_gain(result) >= margin  # NaN: False


def play_game(job: SelfPlayJob) -> GameData:
    """Play ``job``'s game to its end and return its recorded positions (see the module docstring).

    On the native core the game stays native throughout (nothing here reads ``game.state``, which would hand it to
    the Python engine): observations and masks are written by the native encoder and codec, the search plays out
    natively (:mod:`agents.zero`), and an opponent's view reads a copy of the position."""
    start, cpu_start = time.perf_counter(), time.process_time()
    rng = random.Random(job.seed)
    game = Game.new(job.game, seed=rng.randrange(2**62))
    seating = _seating(job, rng)
    agents = _agents(job, seating, rng)
    np_rng = np.random.default_rng(rng.randrange(2**62))
    search = next(a.search for a in agents if isinstance(a, ZeroAgent) and a.search is not None)
    net = search.net
    recorder = _Recorder()
    confirmer = _confirmer(job, net, search.others)
    simulations = decisions = clear = 0
    encoder, codec = net.encoder, net.codec
    while not game.is_over:
        seat, legal = game.current_seat, game.legal_actions()
        decisions += 1
        agent = agents[seat]
        if not isinstance(agent, ZeroAgent) or len(legal) == 1:
            game.apply(agent.act(game.view(seat), legal, InfoSet(game, seat)) if len(legal) > 1 else legal[0])
            continue
        obs, mask = encoder.encode_game(game, seat), codec.mask_game(game, seat).astype(bool)
        if not mask.any():  # only bids above the codec's cap: the smallest, not recorded
            game.apply(legal[0])
            continue
        if rng.random() < job.full_search:
            action = agent.act(game.view(seat), legal, InfoSet(game, seat, net.space))
            result = agent.last
            simulations += result.simulations if result is not None else 0
            target = _policy_target(result, job.target, job.margin, job.sigma_scale)
            gain = label_gain(result, job.target, job.margin)
            if result is not None and overrules(result, job.margin):
                confirmed = True
                if confirmer is not None:
                    confirmed, spent = confirms(confirmer, result, InfoSet(game, seat, net.space), job.margin)
                    simulations += spent
                if confirmed:
                    clear += 1
                else:
                    target = _onehot(result.favourite, mask.shape[0])  # not confirmed: the network's choice
                    gain = 0.0
            recorder.add(obs, mask, target, seat, root_value(result) if target is not None else math.nan, gain)
            if result is not None and result.searched and job.search_moves < 1.0 and rng.random() >= job.search_moves:
                action = net.codec.decode(result.favourite, seat, game.num_players)  # no second network call
        else:
            index = _fast_move(net, obs, mask, np_rng, job.fast_moves == "sample")
            action = net.codec.decode(index, seat, game.num_players)
            recorder.add(obs, mask, None, seat)
        game.apply(action)
    data = recorder.data(job.index, win_loss(game), net.encoder.size, net.codec.n, job.root_value)
    keep_values(data, job.value_positions, random.Random(derive_seed(job.seed, "zero-values")))
    data.seating, data.decisions, data.simulations, data.clear = seating, decisions, simulations, clear
    data.seconds = time.perf_counter() - start
    data.cpu_seconds = time.process_time() - cpu_start
    return data


def keep_values(data: GameData, count: int, rng: random.Random) -> None:
    """Leave a value target (the result) at ``count`` of ``data``'s positions drawn by ``rng``, NaN at the others;
    ``count`` 0 or at least the positions: all are kept. Drawn apart from the game's generator: the game is the same
    whatever ``count`` is."""
    rows = len(data)
    if count <= 0 or count >= rows:
        return
    kept = rng.sample(range(rows), count)
    values = np.full(rows, np.nan, dtype=np.float32)
    values[kept] = data.values[kept]
    data.values = values


def play_checked(job: SelfPlayJob) -> GameData:
    """:func:`play_game`, any failure raised as a :class:`SelfPlayError` naming the game (it travels back from a
    worker process whatever the original exception was)."""
    try:
        return play_game(job)
    except Exception as exc:
        problem = f"{type(exc).__name__}: {exc}"
        raise SelfPlayError(f"self-play game {job.index} (seed {job.seed}) failed: {problem}") from None


# -- backends ----------------------------------------------------------------------------


Tick = Callable[[GameData], None]


PARENT_POLL = 1.0
"""Seconds between a worker's checks that the trainer that made its pool still runs (:func:`watch_parent`)."""


def watch_parent(parent: int) -> None:
    """Pool initializer: end this worker once the process ``parent`` is gone. A trainer killed with SIGKILL cannot
    close its pool, and forkserver workers are not its children, so without this they play on after it died."""

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # alive, another user's process: cannot be ours gone
                continue

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class LocalPool:
    """Games on this machine: ``workers`` forkserver processes, kept until :meth:`close` (one: in this process)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def run(self, jobs: Sequence[SelfPlayJob], tick: Tick | None = None) -> list[GameData]:
        """Play ``jobs``; their data in the jobs' order. ``tick`` hears of each game as it ends."""
        results: list[GameData] = []
        stream: Iterator[GameData]
        if self.workers <= 1 or len(jobs) <= 1:
            stream = map(play_checked, jobs)
        else:
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                self._pool = context.Pool(self.workers, initializer=watch_parent, initargs=(os.getpid(),))
            stream = self._pool.imap_unordered(play_checked, jobs)
        for data in stream:
            results.append(data)
            if tick is not None:
                tick(data)
        return sorted(results, key=lambda d: d.index)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def local_network(blob: bytes) -> str:
    """A local file holding the network ``blob`` (an ``.npz``), written once per content (for Ray workers, which may
    run where the run folder is not)."""
    digest = hashlib.sha256(blob).hexdigest()[:20]
    path = Path(tempfile.gettempdir()) / f"tribune-zero-{digest}.npz"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as out:
            out.write(blob)
        os.replace(tmp, path)
    return str(path)


def _play_remote(job: SelfPlayJob, blob: bytes) -> GameData:
    """The Ray task: the game of ``job`` with its network read from ``blob``."""
    return play_checked(dataclasses.replace(job, network=local_network(blob)))


class RayPool:
    """Games as Ray tasks (one CPU each) on a local Ray instance or a cluster."""

    def __init__(self, address: str | None, num_cpus: int | None) -> None:
        self.address, self.num_cpus = address, num_cpus
        self._started = False

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError:
            raise SelfPlayError("selfplay.backend ray needs Ray: pip install -e '.[rllib]'") from None
        if not ray.is_initialized():
            from tribune_arena.tournament.backends import ray_auth_hint

            options: dict[str, Any] = {"address": self.address, "include_dashboard": False, "configure_logging": False}
            if self.address is None and self.num_cpus is not None:
                options["num_cpus"] = self.num_cpus
            try:
                ray.init(**options)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                where = self.address or "a new local instance"
                raise SelfPlayError(f"cannot start or reach Ray at {where}: {exc}{ray_auth_hint(exc)}") from None
            self._started = True
        return ray

    def run(self, jobs: Sequence[SelfPlayJob], tick: Tick | None = None) -> list[GameData]:
        ray = self._ray()
        blobs = {path: ray.put(Path(path).read_bytes()) for path in {job.network for job in jobs}}
        task = ray.remote(num_cpus=1, max_retries=3)(_play_remote)
        pending = [task.remote(job, blobs[job.network]) for job in jobs]
        results: list[GameData] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                data: GameData = ray.get(done[0])
            except Exception as exc:  # a game's error (or a lost task), raised again here by Ray
                raise SelfPlayError(f"a self-play game failed on Ray: {exc}") from None
            results.append(data)
            if tick is not None:
                tick(data)
        return sorted(results, key=lambda d: d.index)

    def close(self) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False


Pool = LocalPool | RayPool


def make_pool(backend: str, workers: int, address: str | None = None, num_cpus: int | None = None) -> Pool:
    """The self-play backend of a run: ``multiprocessing`` (``workers`` processes) or ``ray``."""
    return RayPool(address, num_cpus) if backend == "ray" else LocalPool(workers)
