"""``zero``: search guided by learned networks over sampled deals; ``zero-net``: the network alone.

The searcher combines the policy and value networks of :mod:`agents.ppo`'s format (:class:`NumpyPolicy`) with
search over determinizations, in the spirit of AlphaZero's root search with sequential halving (Danihelka et al.,
2022, "Policy improvement by planning with Gumbel") and of information-set search (Cowling et al., 2012):

1. **Prior.** The network's masked softmax at the seat's own observation ranks the legal actions. A decision with
   one legal choice is answered at once; one where the top prior reaches ``threshold`` plays it without search
   (the network is sure; this keeps the time per move low). With ``explore=true`` (self-play) Gumbel noise is added
   to the logits before ranking, and no threshold applies.
2. **Candidates.** The ``candidates`` best actions (by logit, plus the Gumbel noise when exploring).
3. **Sequential halving over sampled deals.** The simulation budget (``simulations`` playouts per decision, or
   what fits in ``seconds``) is split over ``ceil(log2(candidates))`` phases. In each phase fresh deals are drawn
   with :meth:`InfoSet.sample` (everything hidden from the seat dealt at random, consistently with its view: other
   hands, piles, face-down cards, sealed bids (R2, R49) and the chance key), every surviving candidate is played on
   every deal (common deals, so candidates are compared on the same cards), and the worse half is dropped.
4. **Playouts.** From each (deal, candidate) the game is played ``depth`` decisions forward by the network's most
   probable legal action in every seat, or in the searching seat only with an opponent model (``others``) playing
   the rest (all playouts of a phase advance together: one batched network call per
   step; forced decisions are applied without a call). Chance (draws, the chariot race) is the engine's, drawn from
   the sampled deal's fresh chance key.
5. **Values, a vector for N players.** A finished playout is worth :func:`~tribune_env.envs.rewards.win_loss` to
   each seat; an unfinished one is scored by the value network from each seat's own observation (one batched call),
   giving a value per seat on the same scale (the networks are trained on ``win_loss``). The searching seat keeps
   its own component; the means of every seat are reported in :class:`SearchResult`.
6. **Choice.** The surviving candidate with the best mean value for the seat (with ``explore``: the best Gumbel
   score ``g + logit + sigma(q)``). :meth:`SearchResult.target` is the improved policy that self-play learns from:
   the softmax of the logits plus ``sigma`` of the completed, min-max-normalised values (Danihelka et al.).

Nothing from the true hidden state reaches the search: it reads the :class:`InfoSet` only through ``observation``,
``action_mask`` and ``sample``, which depend on the seat's view and the agent's generator (tested by re-dealing
hidden cards). The ``simulations`` budget is reproducible from the agent's seed; a ``seconds`` budget
is not (it depends on the machine).

Networks: ``path`` names an ``.npz``/``.zip`` checkpoint. Without it ``zero`` searches with the network ``zero-net``
plays, :func:`shipped_network`: the rule set's ``agents/models/zero-*.npz`` when one ships (base games:
``zero-4p.npz``, expansion games: ``zero-expansion-4p.npz``, both finished by the pool trainer against the real
heuristic), else the ``ppo`` one (the Brutii variant).

Spec parameters (``zero``, ``zero:simulations=64,candidates=8``, ``zero:seconds=0.5``):

* ``simulations`` (int >= 1, default 32): playouts per searched decision (candidates x deals, over all phases).
* ``seconds`` (float > 0): wall-clock budget per decision instead; the simulations then follow from the measured
  cost of a playout, and a phase that would overrun is not started.
* ``candidates`` (int >= 1, default 4), ``depth`` (int >= 0, default 32), ``threshold`` (0 < t <= 1, default 0.95).
* ``explore`` (``true`` | ``false``, default false): Gumbel exploration at the root, for self-play.
* ``leaf`` (``any`` | ``own``, default any): where the value network judges an unfinished playout: wherever
  ``depth`` ends, or (``own``) at the searching seat's next decision, the playout going on until it comes. The value
  network learned its values at its seat's own decisions; read at another seat's it judges worse, which shows in
  shallow searches (docs/agents/zero.md).
* ``path``: the network.
* ``others``: an ``.npz``/``.zip`` network that plays the other seats in the playouts, an opponent model (default:
  the searched network plays every seat). It must share the network's observation layout and action space. Where
  the table is known, a model of it makes the search's values those of the real table: ``training/pool/models/
  heuristic-4p.npz``, distilled from ``heuristic``, models a table of ``heuristic`` seats in base games, and
  ``training/pool/models/heuristic-expansion-4p.npz`` one in expansion games.

``zero-net`` plays the ``zero`` network alone (its most probable legal action; :class:`agents.ppo.PPOAgent`): about
a millisecond per move, the fast level for training opponents and the browser.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from agents.base import Agent, AgentError, InfoSet
from agents.ppo import (
    SHIPPED,
    SHIPPED_BRUTII,
    SHIPPED_EXPANSION,
    CheckpointError,
    Layer,
    NumpyPolicy,
    PPOAgent,
    check_fits,
    load_policy,
    space_of,
)
from agents.specs import Factory, no_more, register_agent, take_choice, take_float, take_int
from tribune_env.codec import ActionCodec, ObservationEncoder, codec_for, encoder_for
from tribune_env.engine import native
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game
from tribune_env.engine.view import PlayerView
from tribune_env.envs.rewards import win_loss
from tribune_env.threads import limited_threads

if TYPE_CHECKING:
    from tribune_env._core import Core


__all__ = [
    "MODELS",
    "Network",
    "SearchResult",
    "Transposed",
    "ZeroAgent",
    "ZeroSearch",
    "ZeroSettings",
    "first_layer",
    "leaf_values",
    "named_network",
    "play_out",
    "shipped_network",
]

Array = npt.NDArray[np.float32]

MODELS = Path(__file__).parent / "models"
ZERO_MODELS: dict[RuleSet, Path] = {
    RuleSet.BASE: MODELS / "zero-4p.npz",
    RuleSet.EXPANSION: MODELS / "zero-expansion-4p.npz",
    RuleSet.BRUTII: MODELS / "zero-brutii.npz",
}
"""The networks of ``zero-net`` and of the ``zero`` search, by rule set: the strongest network of each playing alone
(a rule set without its file falls back to :data:`PPO_MODELS`). Both files are networks of the pool trainer
(configs/ppo-pool-4p-tables.yaml, configs/ppo-pool-expansion-4p-tables.yaml; docs/training/shipped-models.md)."""
PPO_MODELS: dict[RuleSet, Path] = {
    RuleSet.BASE: SHIPPED,
    RuleSet.EXPANSION: SHIPPED_EXPANSION,
    RuleSet.BRUTII: SHIPPED_BRUTII,
}

C_VISIT = 50.0  # sigma(q) = (C_VISIT + max visits) * C_SCALE * q, q min-max normalised (Danihelka et al., 2022)
C_SCALE = 0.1


@cache
def _core_module() -> Any:
    """The native core's module (``tribune_env._core``), or None when it is not built."""
    return importlib.import_module("tribune_env._core") if native.built() else None


def shipped_network(rules: RuleSet) -> Path:
    """The network ``zero-net`` plays, and ``zero`` searches with, in games of ``rules`` when no ``path`` is given.
    ``zero`` with it won 83.0% of 400 base games against three ``heuristic`` (75.0% with ``ppo-4p.npz`` on the same
    deals) and 73.5% of 400 expansion games (62.5% with ``ppo-expansion-4p.npz``; docs/agents/zero.md)."""
    zero = ZERO_MODELS[rules]
    return zero if zero.exists() else PPO_MODELS[rules]


def named_network(name: str, rules: RuleSet) -> Path | None:
    """The shipped network an agent's name stands for in games of ``rules`` (configs name networks this way):
    ``zero-net`` its :func:`shipped_network`, ``ppo`` the rule set's :data:`PPO_MODELS` entry, ``ppo-expansion`` and
    ``ppo-brutii`` their files; None for any other name (then it is a path)."""
    if name == "zero-net":
        return shipped_network(rules)
    if name == "ppo":
        return PPO_MODELS[rules]
    return {"ppo-expansion": SHIPPED_EXPANSION, "ppo-brutii": SHIPPED_BRUTII}.get(name)


@dataclass(frozen=True)
class ZeroSettings:
    """The search's knobs (see the module docstring); validated by the spec parser."""

    simulations: int = 32
    seconds: float | None = None
    candidates: int = 4
    depth: int = 32
    threshold: float = 0.95
    explore: bool = False
    leaf: str = "any"  # "any": the value judges wherever the depth ends; "own": at the searching seat's decision


LEAVES = ("any", "own")
"""``leaf`` settings. The value network is trained at its seat's own decisions; read at another seat's it ranks
the candidates of a shallow search worse (docs/agents/zero.md#depth-and-the-value)."""
OWN_LEAF_LIMIT = 256  # most decisions a playout plays on past ``depth`` to reach the searching seat's decision


class Network:
    """A policy/value network bound to one game kind: its encoder and codec, batched calls."""

    def __init__(self, policy: NumpyPolicy, config: GameConfig) -> None:
        check_fits(policy, config)
        self.policy = policy
        self.config = config
        self.space = space_of(policy)
        self.encoder: ObservationEncoder = encoder_for(config.components, config.round_limit, self.space)
        self.codec: ActionCodec = codec_for(config.components, self.space)
        self.players = config.players
        self._native_encoder: object | None = None
        self.actor = Transposed.of(policy.layers, policy.action, policy.activation)
        self.critic = (
            None
            if policy.value_head is None
            else Transposed.of(policy.value_layers, policy.value_head, policy.activation)
        )

    def native_encoder(self) -> object:
        """The native core's observation encoder of the same layout (identical rows, tests/native)."""
        if self._native_encoder is None:
            module = _core_module()
            assert module is not None
            encoder = self.encoder
            self._native_encoder = module.ObservationEncoder(encoder.components, encoder.round_limit, self.space.value)
        return self._native_encoder

    def _first(self, games: Sequence[Game], seats: Sequence[int] | None, weight_t: Array) -> Array:
        """The first layer's weighted sums (no bias) of the observations of ``seats[i]`` (the seat to act when
        ``seats`` is None) in ``games[i]``: over the nonzero entries only (:func:`first_layer`), written by the native
        core in one call when every game is native (the same sums, bit for bit)."""
        cores = _native_cores(games)
        if cores:
            out = np.empty((len(games), weight_t.shape[1]), dtype=np.float32)
            chosen = None if seats is None else list(seats)
            _core_module().playout_first_layer(self.native_encoder(), cores, chosen, weight_t, out)
            return out
        if seats is None:
            seats = [g.current_seat for g in games]
        return first_layer(self.observations(games, seats), weight_t)

    def playout_logits(self, games: Sequence[Game]) -> Array:
        """The policy's logits at the observation of the seat to act in every game (:class:`Transposed`: the first
        layer over the observation's nonzero entries; the same figures on both engines, bit for bit)."""
        return self.actor.rest(self._first(games, None, self.actor.weights[0]))

    def playout_values(self, games: Sequence[Game], seats: Sequence[int]) -> Array:
        """The value network at the observation of ``seats[i]`` in ``games[i]`` (as :meth:`playout_logits`)."""
        critic = self.critic
        if critic is None:
            raise ValueError(f"{self.policy.source}: this policy has no critic")
        return critic.rest(self._first(games, seats, critic.weights[0]))[:, 0]

    def observations(self, games: Sequence[Game], seats: Sequence[int]) -> Array:
        """The observation of ``seats[i]`` in ``games[i]``, stacked (a native game's written in place by the native
        encoder)."""
        out = np.empty((len(games), self.encoder.size), dtype=np.float32)
        encode = self.encoder.encode_game
        for i, (game, seat) in enumerate(zip(games, seats, strict=True)):
            encode(game, seat, out[i])
        return out

    def best(self, game: Game, row: Array) -> None:
        """Play the legal action of ``game`` with the highest logit in ``row`` (the first of equals; the smallest
        legal bid when the codec expresses none of them)."""
        core = game.native_core
        if core is not None:
            codec = self.codec.native_codec()
            indices = codec.legal_indices(core)
            if len(indices):
                seat = game.current_seat
                best = indices[int(np.argmax(row[indices]))]
                if not game.apply_native(codec.decode(int(best), seat, self.players)):
                    raise RuntimeError(f"the native core refused its own legal action {best}")
                return
        actions, choices = self.choices(game)
        if not actions:  # only inexpressible bids (above the codec's cap): the smallest of them
            game.apply(game.legal_actions()[0])
        else:
            game.apply(actions[int(np.argmax(row[choices]))])

    def choices(self, game: Game) -> tuple[list[Action], list[int]]:
        """The legal actions the codec expresses in ``game`` and their indices (bids above the cap left out)."""
        seat, n, encode = game.current_seat, game.num_players, self.codec.encode
        actions: list[Action] = []
        indices: list[int] = []
        for action in game.legal_actions():
            i = encode(action, seat, n)
            if i >= 0:
                actions.append(action)
                indices.append(i)
        return actions, indices


def _advance_forced(game: Game) -> None:
    """Apply decisions with a single legal choice (no network call needed)."""
    core = game.native_core
    if core is not None:
        core.advance_forced()
        game.apply_native_done()
        return
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) != 1:
            return
        game.apply(legal[0])


def first_layer(obs: Array, weight_t: Array) -> Array:
    """``obs @ weight_t`` summed over each row's nonzero entries only, in increasing order (float32 products and
    sums, the first product then the next ones added, zeros for an all-zero row): an observation is mostly zeros.
    The native core's ``playout_first_layer`` makes the same sums bit for bit, so both engines play the same moves."""
    out = np.zeros((obs.shape[0], weight_t.shape[1]), dtype=np.float32)
    for r in range(obs.shape[0]):
        row = obs[r]
        nonzero = np.flatnonzero(row)
        if nonzero.size:  # a reduction over the rows of a C-ordered array: adds them one after the other
            np.add.reduce(row[nonzero, None] * weight_t[nonzero], axis=0, out=out[r])
    return out


@dataclass(frozen=True)
class Transposed:
    """One of a :class:`NumpyPolicy`'s networks (actor or critic) for the playouts: every weight matrix transposed
    (input-major, C-ordered: the first one's rows are gathered by the observation's nonzero entries, the others are
    multiplied faster so). The playouts' figures may differ from :meth:`NumpyPolicy.logits` in the last bits (other
    summation orders); they are the same on both engines."""

    weights: list[Array]
    biases: list[Array]
    activation: Callable[[Array], Array]

    @classmethod
    def of(cls, layers: Sequence[Layer], head: Layer, activation: Callable[[Array], Array]) -> Transposed:
        chain = [*layers, head]
        return cls([np.ascontiguousarray(w.T) for w, _ in chain], [b for _, b in chain], activation)

    def rest(self, first: Array) -> Array:
        """The outputs from the first layer's weighted sums (:func:`first_layer`): its bias, then activation and the
        next layer in turn up to the head (no activation after it), one BLAS thread (:func:`limited_threads`)."""
        x: Array = first + self.biases[0]
        with limited_threads():
            for weight, bias in zip(self.weights[1:], self.biases[1:], strict=True):
                x = self.activation(x) @ weight + bias
        return x


def _native_cores(games: Sequence[Game]) -> list[Core] | None:
    """The native cores of ``games`` when every one is native (and the core is built), else None."""
    if _core_module() is None:
        return None
    cores = [c for c in (g.native_core for g in games) if c is not None]
    return cores if len(cores) == len(games) else None


def check_same_table(net: Network, others: Network) -> None:
    """Raise :class:`AgentError` unless an opponent model can move in ``net``'s playouts: the same players, observation
    layout and action space."""
    problems = []
    if others.players != net.players:
        problems.append(f"{others.players} players, not {net.players}")
    if others.space != net.space:
        problems.append(f"the {others.space.value} observation layout, not {net.space.value}")
    if others.actor.biases[-1].shape != net.actor.biases[-1].shape:
        problems.append(f"{others.actor.biases[-1].shape[0]} actions, not {net.actor.biases[-1].shape[0]}")
    if problems:
        raise AgentError(f"{others.policy.source}: cannot play the other seats of {net.policy.source}'s playouts: "
                         + "; ".join(problems))


@dataclass(frozen=True)
class Table:
    """Who plays the playouts' other seats: ``others`` (an opponent model, e.g. a network distilled from
    ``heuristic``) moves for every seat but ``seat``, which the searched network plays. Both networks must share one
    observation layout and action space (:meth:`ZeroSearch.__init__` checks)."""

    others: Network
    seat: int


def _split_logits(net: Network, table: Table | None, count: int, seats: Sequence[int],
                  logits_of: Callable[[Network, list[int]], Array]) -> Array:
    """The logits of ``count`` rows: ``logits_of(network, rows)`` of the searched network's rows and the opponent
    model's rows, written in the rows' order."""
    if table is None:
        return logits_of(net, list(range(count)))
    mine = [i for i, s in enumerate(seats) if s == table.seat]
    theirs = [i for i, s in enumerate(seats) if s != table.seat]
    out = np.empty((count, net.actor.biases[-1].shape[0]), dtype=np.float32)
    for network, rows in ((net, mine), (table.others, theirs)):
        if rows:
            out[rows] = logits_of(network, rows)
    return out


def _logits_of(games: Sequence[Game]) -> Callable[[Network, list[int]], Array]:
    """:func:`_split_logits`' ``logits_of`` over Python-engine games."""
    return lambda network, rows: network.playout_logits([games[i] for i in rows])


def play_out(net: Network, games: Sequence[Game], depth: int, table: Table | None = None,
             own: int | None = None) -> int:
    """Play every game ``depth`` decisions forward (or to its end) by the network's most probable legal action in
    every seat (logits by :meth:`Network.playout_logits`), or with a ``table`` by ``table.others``' in the other
    seats; all games advance together, one batched policy call per network and step (native games: their
    observations, first layer and steps in one native call each). With ``own`` (a seat) a game in which another
    seat is to decide after ``depth`` decisions plays on until ``own`` decides or it ends (at most
    :data:`OWN_LEAF_LIMIT` more). Games are changed in place. Returns the number of decisions the networks made
    (forced ones not counted)."""
    cores = _native_cores(games)
    if cores:
        return _play_out_native(net, games, cores, depth, table, own)
    for game in games:
        _advance_forced(game)
    active = [g for g in games if not g.is_over]
    made = 0
    for step in range(_steps(depth, own)):
        if step >= depth:
            active = [g for g in active if g.current_seat != own]
        if not active:
            break
        made += len(active)
        logits = _split_logits(net, table, len(active), [g.current_seat for g in active], _logits_of(active))
        for row, game in zip(logits, active, strict=True):
            net.best(game, row)
            _advance_forced(game)
        active = [g for g in active if not g.is_over]
    return made


def _steps(depth: int, own: int | None) -> int:
    """The most decisions a playout of ``depth`` plays (:func:`play_out`'s ``own``)."""
    return depth if own is None else depth + OWN_LEAF_LIMIT


def _play_out_native(net: Network, games: Sequence[Game], cores: list[Core], depth: int,
                     table: Table | None = None, own: int | None = None) -> int:
    """:func:`play_out` of native games, stepped by the native core (the same choices, tests/native)."""
    module = _core_module()
    codec = net.codec.native_codec()
    networks = [net] if table is None else [net, table.others]
    firsts = {id(n): np.empty((len(cores), n.actor.weights[0].shape[1]), dtype=np.float32) for n in networks}
    over = module.playout_forced(cores)
    active = [c for c, done in zip(cores, over, strict=True) if not done]
    made = 0

    def logits_of(network: Network, rows: list[int]) -> Array:
        actor = network.actor
        out = firsts[id(network)][: len(rows)]
        chosen = active if len(rows) == len(active) else [active[i] for i in rows]
        module.playout_first_layer(network.native_encoder(), chosen, None, actor.weights[0], out)
        return actor.rest(out)

    try:
        for step in range(_steps(depth, own)):
            if step >= depth:
                active = [c for c in active if c.current_seat != own]
            if not active:
                break
            made += len(active)
            seats = [] if table is None else [c.current_seat for c in active]
            logits = _split_logits(net, table, len(active), seats, logits_of)
            over = module.playout_step(codec, active, np.ascontiguousarray(logits, np.float32))
            active = [c for c, done in zip(active, over, strict=True) if not done]
    finally:
        for game in games:
            game.apply_native_done()
    return made


def leaf_values(net: Network, games: Sequence[Game]) -> Array:
    """A value per seat for every game, shape ``(len(games), players)``: ``win_loss`` for finished games, the value
    network from each seat's own observation otherwise (:meth:`Network.playout_values`)."""
    n = net.players
    out = np.zeros((len(games), n), dtype=np.float32)
    open_rows = [i for i, g in enumerate(games) if not g.is_over]
    for i, game in enumerate(games):
        if game.is_over:
            out[i] = win_loss(game)
    if open_rows:
        batch = [games[i] for i in open_rows for _ in range(n)]
        seats = [s for _ in open_rows for s in range(n)]
        values = net.playout_values(batch, seats).reshape(len(open_rows), n)
        out[open_rows] = values
    return out


def masked_softmax(logits: Array, mask: npt.NDArray[np.bool_]) -> Array:
    """The softmax over the last axis of ``logits`` with the actions ``mask`` (broadcast to it) leaves out at zero;
    float32, computed in float64. Every row needs a legal action."""
    z: npt.NDArray[np.float64] = np.where(mask, logits.astype(np.float64), -np.inf)
    z = np.exp(z - z.max(axis=-1, keepdims=True))
    out: Array = (z / z.sum(axis=-1, keepdims=True)).astype(np.float32)
    return out


@dataclass
class SearchResult:
    """What one search found at a decision of ``seat``; arrays over the codec's action indices."""

    seat: int
    index: int  # the chosen action's index
    logits: Array  # the network's logits (unmasked)
    mask: npt.NDArray[np.bool_]
    candidates: list[int] = field(default_factory=list)  # indices searched, best prior first
    q: list[float] = field(default_factory=list)  # mean value for ``seat`` per candidate
    visits: list[int] = field(default_factory=list)  # playouts per candidate
    values: list[list[float]] = field(default_factory=list)  # mean value of every seat per candidate
    searched: bool = False
    simulations: int = 0
    decisions: int = 0  # simulated decisions (playout steps) of the search

    @property
    def prior(self) -> Array:
        """The network's masked softmax."""
        return masked_softmax(self.logits, self.mask)

    @property
    def favourite(self) -> int:
        """The index of the network's own choice: its most probable legal action (the first of equals)."""
        legal = np.flatnonzero(self.mask)
        return int(legal[np.argmax(self.logits[legal])])

    def target(self) -> Array:
        """The improved policy: softmax of the logits plus sigma of the completed, normalised values; the prior for
        a decision that was not searched."""
        if not self.searched or len(self.candidates) < 2:
            return self.prior
        prior = self.prior
        q = np.asarray(self.q, dtype=np.float64)
        v_mix = float(np.dot(prior[self.candidates], q) / max(prior[self.candidates].sum(), 1e-9))
        completed = np.full(self.logits.shape, v_mix)
        completed[self.candidates] = q
        low, high = min(q.min(), v_mix), max(q.max(), v_mix)
        normalised = (completed - low) / (high - low) if high > low else np.zeros_like(completed)
        sigma = (C_VISIT + max(self.visits)) * C_SCALE * normalised
        return masked_softmax((self.logits + sigma).astype(np.float32), self.mask)


class ZeroSearch:
    """The search of one seat (see the module docstring): :meth:`run` on an :class:`InfoSet`."""

    def __init__(self, net: Network, settings: ZeroSettings, seed: int | None, others: Network | None = None) -> None:
        """``others``: the opponent model that plays the playouts' other seats (None: ``net`` plays every seat)."""
        self.bind(net, others)
        self.settings = settings
        self.np_rng = np.random.default_rng(seed)
        #: measured seconds per simulated decision (for the ``seconds`` budget); starts from a typical figure
        self.cost = 1e-4

    def bind(self, net: Network, others: Network | None) -> None:
        """Search with ``net``, ``others`` playing the other seats (checked: :func:`check_same_table`)."""
        if others is not None:
            check_same_table(net, others)
        self.net, self.others = net, others

    def reseed(self, seed: int) -> None:
        self.np_rng = np.random.default_rng(seed)

    def run(self, info: InfoSet, rng_sample: object) -> SearchResult:
        """Search the decision of ``info.seat``; ``rng_sample`` is the ``random.Random`` deals are drawn from."""
        net, settings = self.net, self.settings
        logits = net.policy.logits(info.observation(net.space)).astype(np.float32)
        mask = info.action_mask(net.space).astype(bool)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise AgentError("the network's action space expresses none of the legal actions")
        result = SearchResult(info.seat, -1, logits, mask)
        result.index = result.favourite
        if legal.size == 1:
            return result
        scores = logits[legal].astype(np.float64)
        if settings.explore:
            scores = scores + self.np_rng.gumbel(size=scores.shape)
        elif float(masked_softmax(logits, mask).max()) >= settings.threshold:
            return result
        order = np.argsort(-scores, kind="stable")[: settings.candidates]
        result.candidates = [int(legal[i]) for i in order]
        gumbel = dict(zip(result.candidates, (scores[order] - logits[result.candidates]).tolist(), strict=True))
        with limited_threads():  # once for the whole search: the network calls inside find it held (cheaper)
            self._halve(info, rng_sample, result, gumbel)
        return result

    def _budget(self) -> tuple[int, float]:
        """(simulations, deadline) of this decision."""
        settings = self.settings
        if settings.seconds is None:
            return settings.simulations, math.inf
        per_playout = self.cost * max(settings.depth, 1)
        simulations = max(settings.candidates, int(settings.seconds / per_playout))
        return simulations, time.perf_counter() + settings.seconds

    def _halve(self, info: InfoSet, rng_sample: object, result: SearchResult, gumbel: dict[int, float]) -> None:
        net, seat = self.net, info.seat
        codec, n = net.codec, net.players
        budget, deadline = self._budget()
        remaining = list(result.candidates)
        phases = max(1, math.ceil(math.log2(len(remaining))))
        totals = {c: np.zeros(n, dtype=np.float64) for c in remaining}
        counts = dict.fromkeys(remaining, 0)
        start = time.perf_counter()
        left = budget
        for phase in range(phases):
            per = max(1, left // ((phases - phase) * len(remaining)))  # what is left, shared by the phases to come
            left -= per * len(remaining)
            began = time.perf_counter()
            if phase and began + (began - start) / phase > deadline:
                break  # the next phase would overrun the time budget
            games = []
            for _ in range(per):
                deal = info.sample(rng_sample)  # type: ignore[arg-type]
                for c in remaining:
                    game = deal.clone(events=False)
                    game.apply(codec.decode(c, seat, n))
                    games.append(game)
            steps = self._simulate(games, seat)
            values = leaf_values(net, games).reshape(per, len(remaining), n)
            for j, c in enumerate(remaining):
                totals[c] += values[:, j, :].sum(axis=0)
                counts[c] += per
            result.simulations += len(games)
            result.decisions += steps
            elapsed = time.perf_counter() - began
            self.cost = 0.8 * self.cost + 0.2 * elapsed / max(steps, 1)
            scores = self._scores(remaining, totals, counts, seat, result.logits, gumbel)
            remaining = sorted(remaining, key=lambda c: -scores[c])[: max(1, math.ceil(len(remaining) / 2))]
        result.q = [float(totals[c][seat] / counts[c]) if counts[c] else 0.0 for c in result.candidates]
        result.visits = [counts[c] for c in result.candidates]
        result.values = [(totals[c] / max(counts[c], 1)).tolist() for c in result.candidates]
        result.searched = True
        result.index = max(remaining, key=lambda c: (scores[c], -remaining.index(c)))  # ties: the better ranked

    def _simulate(self, games: list[Game], seat: int) -> int:
        """Play the games out (``seat`` by the network, the others by the opponent model when there is one); the number
        of simulated decisions (for the cost estimate), at least one per game."""
        table = None if self.others is None else Table(self.others, seat)
        own = seat if self.settings.leaf == "own" else None
        return max(play_out(self.net, games, self.settings.depth, table, own), len(games))

    def _scores(
        self,
        remaining: list[int],
        totals: dict[int, np.ndarray],
        counts: dict[int, int],
        seat: int,
        logits: Array,
        gumbel: dict[int, float],
    ) -> dict[int, float]:
        """Each remaining candidate's rank: its mean value for ``seat``, or with ``explore`` the Gumbel score."""
        visits = max(counts.values())
        scores = {}
        for c in remaining:
            mean = float(totals[c][seat] / counts[c]) if counts[c] else -math.inf
            explore = gumbel[c] + float(logits[c]) + (C_VISIT + visits) * C_SCALE * mean
            scores[c] = explore if self.settings.explore else mean
        return scores


class ZeroAgent(Agent):
    """Search guided by a policy/value network (see the module docstring)."""

    name = "zero"
    rule_sets = frozenset(RuleSet)

    def __init__(self, settings: ZeroSettings, path: str | None = None, seed: int | None = None,
                 others: str | None = None) -> None:
        super().__init__(seed)
        self.settings = settings
        self.path = path
        self.others = others
        self._seed = seed
        self.search: ZeroSearch | None = None
        #: the last search's result (for measurements and self-play targets)
        self.last: SearchResult | None = None

    def _policy_for(self, config: GameConfig) -> NumpyPolicy:
        return load_policy(self.path if self.path is not None else shipped_network(config.rules))

    def supports(self, config: GameConfig) -> str | None:
        problem = super().supports(config)
        if problem is not None:
            return problem
        try:
            net, others = self._networks(config)
            if others is not None:
                check_same_table(net, others)
        except (CheckpointError, AgentError) as err:
            return str(err)
        return None

    def _networks(self, config: GameConfig) -> tuple[Network, Network | None]:
        """The network and the opponent model for ``config``'s games (each checked: :func:`check_fits`); the last
        game's are kept when neither their checkpoints (:func:`~agents.ppo.load_policy` reloads a changed file) nor
        the game's config changed, so a reset does not rebuild them."""
        last = self.search
        net = _network(self._policy_for(config), config, None if last is None else last.net)
        if self.others is None:
            return net, None
        return net, _network(load_policy(self.others), config, None if last is None else last.others)

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        super().reset(seat, config, seed)
        search = self.search
        net, others = self._networks(config)
        if search is None or search.net.policy is not net.policy or search.net.players != net.players:
            search = ZeroSearch(net, self.settings, seed, others)
        else:
            search.bind(net, others)
        search.reseed(seed)
        self.search = search

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if info is None:
            raise AgentError("the zero agent needs the InfoSet (info) to search")
        if len(legal) == 1:
            self.last = None
            return legal[0]
        search = self.search
        if search is None:
            raise AgentError("the zero agent was not reset for a game")
        result = search.run(info, self.rng)
        self.last = result
        chosen = search.net.codec.decode(result.index, view.seat, view.num_players)
        for action in legal:
            if action == chosen:
                return action
        raise AgentError(f"the search chose {chosen!r} (action {result.index}), which is not legal here")


def _network(policy: NumpyPolicy, config: GameConfig, last: Network | None) -> Network:
    """``last`` when it is ``policy``'s network for ``config``'s games, else a new one (its encoder, codec and
    transposed weights are built once, not per game)."""
    if last is not None and last.policy is policy and last.config == config:
        return last
    return Network(policy, config)


def _settings(params: dict[str, str]) -> ZeroSettings:
    defaults = ZeroSettings()
    simulations = take_int(params, "simulations", defaults.simulations)
    seconds = take_float(params, "seconds", None)
    candidates = take_int(params, "candidates", defaults.candidates)
    depth = take_int(params, "depth", defaults.depth, low=0)
    threshold = take_float(params, "threshold", defaults.threshold)
    if threshold is None or threshold > 1:
        raise AgentError(f"parameter threshold: expected a number in (0, 1], got {threshold}")
    explore = take_choice(params, "explore", "false", ("true", "false")) == "true"
    leaf = take_choice(params, "leaf", defaults.leaf, LEAVES)
    return ZeroSettings(simulations, seconds, candidates, depth, threshold, explore, leaf)


def _make_zero(params: dict[str, str], seed: int | None) -> Agent:
    path = params.pop("path", None)
    others = params.pop("others", None)
    settings = _settings(params)
    no_more("zero", params)
    return ZeroAgent(settings, path, seed, others)


class ZeroNetAgent(PPOAgent):
    """The ``zero`` network alone: its most probable legal action (the network follows the game's rule set)."""

    name = "zero-net"

    def __init__(self, path: str | None, seed: int | None) -> None:
        self.path = path
        super().__init__(load_policy(path if path is not None else shipped_network(RuleSet.BASE)), True, seed)
        if path is None:  # the shipped networks together play every rule set
            self.rule_sets = frozenset(RuleSet)

    def supports(self, config: GameConfig) -> str | None:
        if self.path is not None:
            return super().supports(config)
        try:
            check_fits(load_policy(shipped_network(config.rules)), config)
        except CheckpointError as err:
            return str(err)
        return Agent.supports(self, config)

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        if self.path is None:  # the shipped network of this rule set
            self.policy = load_policy(shipped_network(config.rules))
            self.space = space_of(self.policy)
            self._misfits.clear()
        super().reset(seat, config, seed)


def _make_net(params: dict[str, str], seed: int | None) -> Agent:
    path = params.pop("path", None)
    no_more("zero-net", params)
    return ZeroNetAgent(path, seed)


_ZERO: Factory = _make_zero
register_agent("zero", _ZERO)
register_agent("zero-net", _make_net)
