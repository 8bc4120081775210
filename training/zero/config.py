"""The configuration of a ``zero`` training run (``algorithm: zero``): a YAML file read into :class:`ZeroConfig`.

Every key is optional; defaults are the dataclass defaults below. Unknown keys, wrong types and out-of-range values
raise :class:`~training.config.ConfigError` naming the file, the dotted key and the problem, before anything is
written; :func:`check_roles` also builds every agent the config names and loads ``init_from``, so a bad spec or a
network for another game fails there. :meth:`ZeroConfig.resolved` is the complete configuration as plain data with
the machine-dependent values (``workers: auto``, ``torch_threads: auto``) filled in; a run saves it, and a resume
must match it except in :data:`RESUMABLE_CHANGES`.

Sections (``docs/training/zero.md`` has the table): ``game`` (the game's options in the public dictionary form of
:func:`~tribune_env.engine.config.config_from_dict`), ``init_from``, ``search``, ``selfplay``, ``learner``, ``eval``,
``gate``, ``run``, ``ray``, and ``algorithm``, ``name``, ``seed``, ``output``.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import AgentError
from agents.ppo import CheckpointError, check_fits, load_policy
from agents.specs import agent_supports
from agents.zero import Network, ZeroSettings, check_same_table, named_network
from training.config import ConfigError, build_section, coerce_value, read_config_file, sections_as_data, with_overrides
from tribune_arena.tournament.backends import default_workers
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig

BACKENDS = ("multiprocessing", "ray")
FAST_MOVES = ("greedy", "sample")
TARGETS = ("improved", "choice", "significant")
DEVICES = ("auto", "cpu", "cuda")
RESUMABLE_CHANGES = (
    "run.", "eval.", "selfplay.workers", "selfplay.backend", "ray.", "learner.device",
    "learner.torch_threads", "name", "output",
)
"""Dotted keys (or their prefixes) that may differ between a run's saved config and its resume: where and how long it
runs and how it is evaluated, never what it trains (the self-play games do not depend on the worker count)."""


@dataclass(frozen=True)
class SearchConfig:
    """The search of the self-play seats (:class:`agents.zero.ZeroSettings`).

    ``explore`` true (the default): Gumbel exploration at the root and every decision searched; false: the ``zero``
    agent's own search, which plays without searching where the network's top prior reaches ``threshold``.
    ``others`` (a network's path; null: the searched network plays every seat): the opponent model that plays the
    other seats of the playouts (the ``zero`` agent's ``others`` parameter), e.g. a network distilled from the
    ``heuristic`` seats the run plays among.
    """

    simulations: int = 32
    candidates: int = 4
    depth: int = 32
    explore: bool = True
    threshold: float = 0.95
    others: str | None = None

    def settings(self) -> ZeroSettings:
        return ZeroSettings(self.simulations, None, self.candidates, self.depth, self.threshold, self.explore)


@dataclass(frozen=True)
class SelfPlayConfig:
    """The games of an iteration.

    ``full_search`` is the playout cap randomisation (Wu, 2019, KataGo): the share of a seat's decisions that are
    searched (and recorded with a policy target); the others are the network's move (``fast_moves``: its most
    probable legal action, or a sample of its softmax), recorded with a value target only. ``opponents`` maps
    agent specs to the share of seats they play (drawn per seat and game; the rest are the network with search).
    ``target`` is what a searched position teaches: ``improved`` (the search's improved policy,
    :meth:`~agents.zero.SearchResult.target`), ``choice`` (all on the action the search chose) or ``significant``
    (all on the search's choice where its mean value beats the network's own choice's by at least ``margin``, else
    all on the network's choice). ``search_moves`` is
    the share of searched decisions at which the seat plays the search's choice; at the others it plays the
    network's most probable action, so the positions come from the network's own games (DAgger, Ross et al., 2011).
    ``confirm`` (``target: significant`` only; 0: off): where the search overrules the network, a second search of
    this many playouts (no Gumbel noise, its own seed) must overrule it with the same action too, or the label is the
    network's own choice (docs/training/zero.md: most clear labels of 64 playouts do not come back).
    ``value_positions`` (0: all): how many of a game's recorded positions carry a value target (drawn at random,
    seeded); the others train the policy only. A game's positions share one result, so a window of few games holds
    each result hundreds of times and the value network learns them by heart; AlphaGo kept one position per game.
    ``sigma_scale`` (``target: improved``): the improved policy is ``softmax(logits + sigma_scale * sigma(q))``; 1 is
    the search's own target (Danihelka et al.), smaller values trust the noisy means of few playouts less.
    ``root_value`` (0..1): at a searched position the value target is ``(1 - root_value) * result + root_value *``
    the search's root value (the visit-weighted mean of its candidates' values, as KataGo mixes them); 0: the result.
    ``snapshots`` (0..1): the share of seats played by ``zero-net`` with a past network of this run (a league of
    snapshots, the start included), drawn per game, seeded, among the last ``snapshot_window`` iterations' networks
    (0: all of them); like ``opponents``, their seats are not recorded. The workers read a snapshot by its path, as
    they read ``search.others``: on a Ray cluster they must see the run folder.
    """

    games: int = 64
    workers: int | str = "auto"
    backend: str = "multiprocessing"
    full_search: float = 0.25
    fast_moves: str = "greedy"
    opponents: dict[str, float] = field(default_factory=dict)
    target: str = "improved"
    margin: float = 0.1
    search_moves: float = 1.0
    confirm: int = 0
    value_positions: int = 0
    sigma_scale: float = 1.0
    root_value: float = 0.0
    snapshots: float = 0.0
    snapshot_window: int = 0


@dataclass(frozen=True)
class LearnerConfig:
    """The network's training after each iteration's games (Adam on the replay window).

    ``anchor_weight`` times the KL divergence of the network's policy from the starting network's, over every
    recorded position, keeps the policy where it started wherever the search does not teach otherwise.
    ``gain_scale`` (0: off) weighs each label by its search's gain over the network's own choice, in these units
    (:mod:`training.zero.learner`); under ``selfplay.target: significant`` a label left on the network's own choice
    gains 0 (:func:`~training.zero.selfplay.label_gain`), so only the overrules teach.
    """

    batch_size: int = 512
    learning_rate: float = 3e-4
    epochs: float = 1.0  # passes over the replay window per iteration
    value_weight: float = 1.0
    anchor_weight: float = 0.0
    gain_scale: float = 0.0  # 0: every label weighs 1; else clip(gain / gain_scale, 0, 1)
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    replay_window: int = 100_000  # positions kept, newest first
    device: str = "auto"  # auto: cuda when torch sees a GPU, else cpu
    torch_threads: int | str = "auto"


@dataclass(frozen=True)
class ZeroEvalConfig:
    """Tournaments of ``zero-net`` (the network alone) against ``players - 1`` copies of ``opponent``."""

    every: int = 1  # iterations (0: never; the last iteration is always evaluated when > 0)
    games: int = 40
    opponent: str = "heuristic"
    workers: int | str = "auto"
    initial: bool = True  # also evaluate the starting network (iteration 0)


@dataclass(frozen=True)
class GateConfig:
    """The gate (AlphaGo Zero's evaluator): the run keeps its best network, and the learner's network of an
    iteration replaces it only when it wins head-to-head and is not worse against ``opponent``.

    Every ``every`` iterations (0: no gate, every iteration's network is the best, as before the gate existed) the
    candidate plays ``games`` games in one seat against ``players - 1`` seats of the best network (seats rotated,
    the same deals at every gate); it passes when the lower bound of its 95% Wilson interval is above parity. Then
    (``heuristic_games``, against ``players - 1`` copies of ``opponent``, the same deals the best network played)
    its win rate must be at least the best network's there, less ``tolerance`` (a share of games; 0: not below
    it). ``short_circuit``: skip the second
    tournament when the first already failed (its figures stay empty in the curve). ``revert``: after a rejection
    the learner starts again from the best network's weights (a fresh optimiser) instead of going on from its own.
    """

    every: int = 1
    games: int = 200
    heuristic_games: int = 200
    opponent: str = "heuristic"
    tolerance: float = 0.0
    short_circuit: bool = True
    revert: bool = False


@dataclass(frozen=True)
class ZeroRunConfig:
    """Length of the run."""

    iterations: int = 20
    max_minutes: float | None = None  # stop at an iteration boundary before this start has run this long
    progress_bar: bool = True


@dataclass(frozen=True)
class ZeroRayConfig:
    """``selfplay.backend: ray``: where Ray runs (``address`` null: a local instance of ``num_cpus`` CPUs, null: all;
    ``auto`` or ``ray://head:10001``: a running cluster)."""

    address: str | None = None
    num_cpus: int | None = None


SECTIONS: dict[str, type[Any]] = {
    "search": SearchConfig,
    "selfplay": SelfPlayConfig,
    "learner": LearnerConfig,
    "eval": ZeroEvalConfig,
    "gate": GateConfig,
    "run": ZeroRunConfig,
    "ray": ZeroRayConfig,
}


@dataclass(frozen=True)
class ZeroConfig:
    """A whole ``zero`` training run."""

    algorithm: str = "zero"
    name: str = "zero"
    seed: int = 0
    output: str = "runs"
    game: GameConfig = field(default_factory=GameConfig)
    init_from: str | None = None
    """A .npz/.zip network; ``zero-net`` or ``ppo``: that agent's shipped network for the game's rule set (wherever
    the run starts from); null: ``ppo``'s."""
    search: SearchConfig = field(default_factory=SearchConfig)
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    eval: ZeroEvalConfig = field(default_factory=ZeroEvalConfig)
    gate: GateConfig = field(default_factory=GateConfig)
    run: ZeroRunConfig = field(default_factory=ZeroRunConfig)
    ray: ZeroRayConfig = field(default_factory=ZeroRayConfig)

    @property
    def run_dir(self) -> Path:
        return Path(self.output) / self.name

    @property
    def init_path(self) -> Path:
        """The network the run starts from: ``init_from`` (a path, or a shipped agent's name), or the shipped ``ppo``
        network of the game's rule set."""
        name = "ppo" if self.init_from is None else self.init_from
        return named_network(name, self.game.rules) or Path(name)

    @property
    def workers(self) -> int:
        return _auto(self.selfplay.workers)

    @property
    def eval_workers(self) -> int:
        return _auto(self.eval.workers)

    @property
    def torch_threads(self) -> int:
        return _auto(self.learner.torch_threads)

    def resolved(self) -> dict[str, Any]:
        """The complete configuration as plain data, ``auto`` worker and thread counts replaced by this machine's."""
        data = sections_as_data(self)
        data["selfplay"]["workers"] = self.workers
        data["eval"]["workers"] = self.eval_workers
        data["learner"]["torch_threads"] = self.torch_threads
        return data


def _auto(value: int | str) -> int:
    """``auto``: one per CPU this process may use."""
    return default_workers() if value == "auto" else int(value)


# -- loading ---------------------------------------------------------------------------


def load_zero_config(path: str | Path, overrides: dict[str, Any] | None = None) -> ZeroConfig:
    """Read and check a YAML config (``overrides``: dotted keys that win); also builds every agent it names."""
    config = zero_config_from_dict(read_config_file(path), str(path), overrides)
    check_roles(config, str(path))
    return config


def zero_config_from_dict(data: Any, source: str = "config", overrides: dict[str, Any] | None = None) -> ZeroConfig:
    """Build and check a :class:`ZeroConfig` from plain data (as read from YAML or saved by a run)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of sections, got {type(data).__name__}")
    data = with_overrides(data, overrides or {}, source)
    fields = {f.name for f in dataclasses.fields(ZeroConfig)}
    unknown = sorted(str(k) for k in set(data) - fields)
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(unknown)}; known: {', '.join(fields)}")
    hints = typing.get_type_hints(ZeroConfig)
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name == "game":
            values[name] = _game(value, source)
        elif name in SECTIONS:
            values[name] = build_section(SECTIONS[name], value or {}, source, name + ".")
        else:
            values[name] = coerce_value(value, hints[name], source, name)
    config = ZeroConfig(**values)
    _check(config, source)
    return config


def _game(value: Any, source: str) -> GameConfig:
    if not isinstance(value, dict):
        raise ConfigError(f"{source}: game: expected a mapping of game options, got {value!r}")
    try:
        return GameConfig.from_dict(value)
    except ValueError as exc:  # the message starts with the option's name
        raise ConfigError(f"{source}: game.{exc}") from None


# -- checks ----------------------------------------------------------------------------

POSITIVE = (
    "search.simulations", "search.candidates", "selfplay.games", "learner.batch_size", "learner.replay_window",
    "eval.games", "run.iterations", "gate.games", "gate.heuristic_games",
)


def _check(config: ZeroConfig, source: str) -> None:  # noqa: C901  (one line per rule)
    """Range and consistency checks that types alone do not express."""

    def fail(key: str, problem: str) -> None:
        raise ConfigError(f"{source}: {key}: {problem}")

    if config.algorithm != "zero":
        fail("algorithm", f"this loader reads zero configs (algorithm: zero), got {config.algorithm!r}")
    if not config.name or "/" in config.name or config.name.startswith("."):
        fail("name", f"must be a plain directory name, got {config.name!r}")
    for key in POSITIVE:
        section, _, name = key.partition(".")
        value = getattr(getattr(config, section), name)
        if value < 1:
            fail(key, f"must be >= 1, got {value}")
    if config.search.depth < 0:
        fail("search.depth", f"must be >= 0, got {config.search.depth}")
    for key, auto in (("selfplay.workers", config.selfplay.workers), ("eval.workers", config.eval.workers),
                      ("learner.torch_threads", config.learner.torch_threads)):
        if auto != "auto" and (isinstance(auto, str) or auto < 1):
            fail(key, f"expected an integer >= 1 or 'auto', got {auto!r}")
    selfplay, learner = config.selfplay, config.learner
    if selfplay.backend not in BACKENDS:
        fail("selfplay.backend", f"expected one of {', '.join(BACKENDS)}, got {selfplay.backend!r}")
    if selfplay.fast_moves not in FAST_MOVES:
        fail("selfplay.fast_moves", f"expected one of {', '.join(FAST_MOVES)}, got {selfplay.fast_moves!r}")
    for key, share in (("selfplay.full_search", selfplay.full_search),
                       ("selfplay.search_moves", selfplay.search_moves)):
        if not 0.0 <= share <= 1.0:
            fail(key, f"must be in 0..1, got {share}")
    if not 0.0 <= selfplay.margin <= 2.0:
        fail("selfplay.margin", f"must be in 0..2 (a difference of win_loss values), got {selfplay.margin}")
    if selfplay.target not in TARGETS:
        fail("selfplay.target", f"expected one of {', '.join(TARGETS)}, got {selfplay.target!r}")
    if selfplay.value_positions < 0:
        fail("selfplay.value_positions", f"must be >= 0 (positions per game; 0: all), got {selfplay.value_positions}")
    if not 0.0 <= selfplay.sigma_scale <= 10.0:
        fail("selfplay.sigma_scale", f"must be in 0..10, got {selfplay.sigma_scale}")
    if not 0.0 <= selfplay.root_value <= 1.0:
        fail("selfplay.root_value", f"must be in 0..1, got {selfplay.root_value}")
    if selfplay.sigma_scale != 1.0 and selfplay.target != "improved":
        fail("selfplay.sigma_scale", f"scales the improved policy only: set selfplay.target: improved "
                                     f"(got {selfplay.target!r})")
    if selfplay.confirm < 0:
        fail("selfplay.confirm", f"must be >= 0 (playouts; 0: off), got {selfplay.confirm}")
    if selfplay.confirm and selfplay.target != "significant":
        fail("selfplay.confirm", f"confirms significant labels only: set selfplay.target: significant "
                                 f"(got {selfplay.target!r})")
    if not 0.0 < config.search.threshold <= 1.0:
        fail("search.threshold", f"must be in (0, 1], got {config.search.threshold}")
    for spec, share in selfplay.opponents.items():
        if not 0.0 <= share <= 1.0:
            fail(f"selfplay.opponents.{spec}", f"share of seats must be in 0..1, got {share}")
    if not 0.0 <= selfplay.snapshots < 1.0:
        fail("selfplay.snapshots", f"share of seats must be in 0..1 (less than 1), got {selfplay.snapshots}")
    if selfplay.snapshot_window < 0:
        fail("selfplay.snapshot_window", f"must be >= 0 (iterations; 0: all), got {selfplay.snapshot_window}")
    if sum(selfplay.opponents.values()) + selfplay.snapshots >= 1.0:
        fail("selfplay.opponents", "the shares (with selfplay.snapshots) must add up to less than 1 "
                                   "(the other seats are the network's)")
    for key, value in (("learner.learning_rate", learner.learning_rate), ("learner.epochs", learner.epochs),
                       ("learner.max_grad_norm", learner.max_grad_norm)):
        if not value > 0:
            fail(key, f"must be > 0, got {value}")
    for key, value in (("learner.value_weight", learner.value_weight), ("learner.anchor_weight", learner.anchor_weight),
                       ("learner.gain_scale", learner.gain_scale),
                       ("learner.weight_decay", learner.weight_decay), ("eval.every", config.eval.every),
                       ("gate.every", config.gate.every)):
        if value < 0:
            fail(key, f"must be >= 0, got {value}")
    if not 0.0 <= config.gate.tolerance < 1.0:
        fail("gate.tolerance", f"must be in 0..1 (a share of games), got {config.gate.tolerance}")
    if learner.device not in DEVICES and not learner.device.startswith("cuda:"):
        fail("learner.device", f"expected auto, cpu, cuda or cuda:N, got {learner.device!r}")
    if config.run.max_minutes is not None and not config.run.max_minutes > 0:
        fail("run.max_minutes", f"must be > 0 (or null: no limit), got {config.run.max_minutes}")
    if config.ray.num_cpus is not None and config.ray.num_cpus < 1:
        fail("ray.num_cpus", f"must be >= 1 (or null: every CPU), got {config.ray.num_cpus}")
    try:  # the evaluations play the run's game as tournaments
        TournamentDefinition.for_config(["random"] * config.game.players, config.game)
    except ValueError as exc:  # the message starts with the option's name
        key, _, problem = str(exc).partition(": ")
        fail(f"game.{key}", f"{problem} (the evaluations are tournaments of the run's game)")


def agent_roles(config: ZeroConfig) -> list[tuple[str, str]]:
    """``(key, spec)`` of every agent the run builds besides its own network: self-play and evaluation opponents."""
    roles = [(f"selfplay.opponents.{spec}", spec) for spec in config.selfplay.opponents]
    gate = [("gate.opponent", config.gate.opponent)] if config.gate.every else []
    return [*roles, ("eval.opponent", config.eval.opponent), *gate]


def check_roles(config: ZeroConfig, source: str = "config") -> None:
    """Build every agent of :func:`agent_roles` once (it must play the run's game) and load the starting network
    (it must fit the game: :func:`~agents.ppo.check_fits`); ConfigError naming the key otherwise."""
    for key, spec in agent_roles(config):
        try:
            problem = agent_supports(spec, config.game)
        except Exception as exc:  # AgentError, or whatever a registered factory raises
            problem = str(exc) if isinstance(exc, AgentError) else f"{type(exc).__name__}: {exc}"
            raise ConfigError(f"{source}: {key}: agent {spec!r} cannot be built: {problem}") from None
        if problem is not None:
            raise ConfigError(f"{source}: {key}: {problem}")
    try:
        policy = load_policy(config.init_path)
        check_fits(policy, config.game)
    except CheckpointError as exc:
        raise ConfigError(f"{source}: init_from: {exc}") from None
    if policy.value_head is None:
        raise ConfigError(f"{source}: init_from: {config.init_path} has no value network (the search needs one)")
    if config.search.others is not None:
        try:
            check_same_table(Network(policy, config.game), Network(load_policy(config.search.others), config.game))
        except (CheckpointError, AgentError) as exc:
            raise ConfigError(f"{source}: search.others: {exc}") from None


def config_changes(saved: dict[str, Any], current: dict[str, Any]) -> tuple[list[str], list[str]]:
    """``(harmless, blocking)``: the dotted keys whose values differ between two resolved configs, split by
    :data:`RESUMABLE_CHANGES`. A key the saved config lacks (written before the key existed) counts as unchanged
    when the current config has it at its default."""
    a, b = _flatten(saved), _flatten(current)
    defaults = _flatten(ZeroConfig().resolved())
    for key in set(b) - set(a):  # a key newer than the saved run, at its default: the run trained with that value
        if key in defaults and b[key] == defaults[key]:
            a[key] = b[key]
    changed = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    harmless = [k for k in changed if k.startswith(RESUMABLE_CHANGES)]
    return harmless, [k for k in changed if k not in harmless]


def _flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(data, dict) or (prefix and not data):
        return {prefix.rstrip("."): data}
    out: dict[str, Any] = {}
    for key, value in data.items():
        out.update(_flatten(value, f"{prefix}{key}."))
    return out
