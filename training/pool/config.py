"""The configuration of a pool-backed PPO run (``algorithm: ppo-pool``): a YAML file read into :class:`PoolConfig`.

Every key is optional; defaults are the dataclass defaults below. Unknown keys, wrong types and out-of-range values
raise :class:`~training.config.ConfigError` naming the file, the dotted key and the problem, before anything is
written. :meth:`PoolConfig.resolved` is the whole configuration as plain data (``auto`` values filled in); a run
saves it and a resume must match it except in :data:`RESUMABLE_CHANGES`.

Sections: ``game`` (the game's options, :func:`~tribune_env.engine.config.config_from_dict`), ``opponents``,
``network``, ``ppo``, ``labels``, ``eval``, ``run``, and ``algorithm``, ``name``, ``seed``, ``output``, ``init_from``.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import AgentError
from agents.specs import make_agent
from training.config import ConfigError, build_section, coerce_value, read_config_file, sections_as_data, with_overrides
from training.pool.sight import SIGHTS
from tribune_arena.tournament.backends import default_workers
from tribune_env.engine.config import GameConfig

ALGORITHM = "ppo-pool"
DEVICES = ("auto", "cpu", "cuda")
ACTIVATIONS = ("tanh", "relu")
FIRST_LAYERS = ("dense", "sparse")
SELF = "self"
"""The ``opponents.mix`` key of frozen snapshots of the learner (the newest ``snapshot_pool`` of them)."""
RESUMABLE_CHANGES = ("run.", "eval.", "ppo.device", "ppo.torch_threads", "name", "output")
"""Dotted keys (or prefixes) that may differ between a run's saved config and its resume."""


@dataclass(frozen=True)
class OpponentsConfig:
    """Who plays the seats the learner does not.

    ``learner_seats``: how many seats of each game the learner plays (1: the table it is measured at; more:
    self-play rows). ``mix`` maps an opponent to its share of the other seats, drawn per seat at every deal: a
    network file (``.npz`` in the NumpyPolicy format, e.g. ``agents/models/ppo-4p.npz``), ``distilled`` (the network
    distilled from ``heuristic``, :attr:`distilled`), or ``self`` (frozen snapshots of the learner, taken every
    ``snapshot_every`` learner rows, the newest ``snapshot_pool`` kept; until the first one, the learner itself).
    ``deterministic``: opponents play their most probable legal action, else a sample of their softmax.

    ``table_games``: games beside the pool (:mod:`training.pool.tables`) in which the Python agent ``table_agent``
    (the real ``heuristic``) plays every seat but the learner's one; their learner rows join each rollout (0: none).

    A curriculum: after ``later_after`` decisions (all seats; 0: never) the games dealt from then on draw their
    opponents from ``later_mix`` (the same kinds of entries as ``mix``), and ``later_deterministic`` (unless null)
    replaces ``deterministic``. Games already running keep their seats.
    """

    learner_seats: int = 1
    mix: dict[str, float] = field(default_factory=lambda: {"distilled": 1.0})
    distilled: str = "agents/models/heuristic-distilled-4p.npz"
    snapshot_every: int = 2_000_000
    snapshot_pool: int = 4
    deterministic: bool = False
    later_after: int = 0
    later_mix: dict[str, float] = field(default_factory=dict)
    later_deterministic: bool | None = None
    table_games: int = 0
    table_agent: str = "heuristic"


@dataclass(frozen=True)
class NetworkConfig:
    """The learner's network: a first layer of ``first_width`` shared by the actor and the critic (``sparse``: over
    the observation's nonzero entries only; ``dense``: a plain linear layer; the same weights either way), then
    ``hidden`` layers in each tower. Exported as the NumpyPolicy ``.npz`` (towers ``[first_width, *hidden]``)."""

    first_width: int = 256
    hidden: list[int] = field(default_factory=lambda: [128])
    activation: str = "relu"
    first_layer: str = "dense"
    shared_first: bool = True
    """False: the critic has its own first layer (the Stable-Baselines3 layout of ``ppo-4p.npz`` and
    ``zero-expansion-4p.npz``, which ``init_from`` can then load)."""
    sight: str = "none"
    """What the network reads beside the observation (:mod:`training.pool.sight`): ``none``, ``forecast`` (the
    other seats' moves by an opponent model on a resampled deal) or ``hands`` (their hands: an oracle). With a sight
    the network's first layer has the features' inputs after the observation's (``init_from`` fills the
    observation's and gives the new ones zero weight), and no agent can play it: ``eval.opponents`` must be empty."""
    forecast_model: str | None = None
    """The opponent model of ``sight: forecast`` (a network file); null: ``opponents.distilled``."""
    sight_scale: float = 1.0
    """The sight's features are multiplied by it before the network reads them. Under Adam a weight moves about
    the learning rate a step whatever its gradient, so the new inputs' weights then move the network as fast as
    ``sight_scale`` times the learning rate would, while the rest of it trains at the run's (a fine-tuning) rate."""


@dataclass(frozen=True)
class PPOSettings:
    """Masked PPO (CleanRL's loss): a rollout is ``steps`` pool steps of ``games`` games; the learner's rows are
    trained ``epochs`` passes in minibatches of ``minibatch``."""

    games: int = 256
    steps: int = 64
    epochs: int = 2
    minibatch: int = 2048
    learning_rate: float = 3e-4
    anneal_lr: bool = False
    """Lower the learning rate linearly, rollout by rollout, from ``learning_rate`` to zero at ``run.decisions``
    (a schedule in decisions, not minutes, so that a seed reproduces it: set ``run.decisions`` to what the run will
    make; a run stopped earlier by ``run.max_minutes`` ends above zero)."""
    gamma: float = 1.0
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    critic_warmup: int = 0
    """Rollouts at the start of a run that train only the critic's own layers (the ``vf`` tower and the value head;
    the shared first layer and the actor stay frozen), so the first policy updates see a critic fitted to this
    table's returns."""
    carry_pending: bool = True
    """Carry each seat's last row of a rollout (its game still running) into the next rollout, where its successor
    or its game's result is known; false: bootstrap it with its own value and lose a result that comes later."""
    whole_games: bool = True
    """Train only on the rows of trajectories whose game has ended (each row's return then holds the game's result,
    not the critic's guess at a rollout's cut); the rows of games still running are carried whole into the next
    rollout. Needs ``carry_pending``. False: a rollout trains every row it can, and a row whose game runs on past the
    cut takes the critic's value there as its return (the first runs did; the policy learned the critic's errors and
    fell, docs/training/pool.md)."""
    device: str = "auto"
    torch_threads: int | str = "auto"
    pool_threads: int = 1


@dataclass(frozen=True)
class LabelsConfig:
    """The search's labels learned beside PPO (:mod:`training.pool.labels`): the searched positions of the replay
    shards in ``shards`` (an ``algorithm: zero`` run's ``replay/`` folder; null: none), ``minibatch`` of them drawn
    with each PPO minibatch, their KL divergence to the network's policy added to the loss times ``weight``."""

    shards: str | None = None
    weight: float = 0.1
    minibatch: int = 256
    min_gain: float | None = None
    """Only the searched rows whose ``gains`` (the search's gain over the network's own choice) is at least this:
    the clear labels, the search's overrules (``selfplay.margin`` in the zero run); null: every searched row."""
    hard: bool = False
    """Each target becomes its most probable action (a firm label), not the search's improved policy."""


@dataclass(frozen=True)
class PoolEvalConfig:
    """Evaluations against ``players - 1`` copies of each ``opponents`` spec (the real agents: the tournament runner),
    every ``every_minutes`` of training and at the end, on ``games`` deals of ``seed``."""

    every_minutes: float = 5.0
    games: int = 400
    opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    seed: int = 1
    workers: int | str = "auto"
    initial: bool = False


@dataclass(frozen=True)
class PoolRunConfig:
    """Length and outputs: stop after ``decisions`` decisions (all seats) or ``max_minutes`` of training."""

    decisions: int = 200_000_000
    max_minutes: float | None = 60.0
    checkpoint_minutes: float = 5.0
    keep_checkpoints: int = 3
    progress_bar: bool = True


SECTIONS: dict[str, type[Any]] = {
    "opponents": OpponentsConfig,
    "network": NetworkConfig,
    "ppo": PPOSettings,
    "labels": LabelsConfig,
    "eval": PoolEvalConfig,
    "run": PoolRunConfig,
}


@dataclass(frozen=True)
class PoolConfig:
    """A whole pool-backed PPO run."""

    algorithm: str = ALGORITHM
    name: str = "ppo-pool"
    seed: int = 0
    output: str = "runs"
    game: GameConfig = field(default_factory=lambda: GameConfig(players=4))
    init_from: str | None = None
    opponents: OpponentsConfig = field(default_factory=OpponentsConfig)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    ppo: PPOSettings = field(default_factory=PPOSettings)
    labels: LabelsConfig = field(default_factory=LabelsConfig)
    eval: PoolEvalConfig = field(default_factory=PoolEvalConfig)
    run: PoolRunConfig = field(default_factory=PoolRunConfig)

    @property
    def run_dir(self) -> Path:
        return Path(self.output) / self.name

    @property
    def torch_threads(self) -> int:
        return _auto(self.ppo.torch_threads)

    @property
    def eval_workers(self) -> int:
        return _auto(self.eval.workers)

    def resolved(self) -> dict[str, Any]:
        """The configuration as plain data, ``auto`` thread and worker counts replaced by this machine's."""
        data = sections_as_data(self)
        data["ppo"]["torch_threads"] = self.torch_threads
        data["eval"]["workers"] = self.eval_workers
        return data


def _auto(value: int | str) -> int:
    """``auto``: one per CPU this process may use."""
    return default_workers() if value == "auto" else int(value)


def load_pool_config(path: str | Path, overrides: dict[str, Any] | None = None) -> PoolConfig:
    """Read and check a YAML config (``overrides``: dotted keys that win)."""
    return pool_config_from_dict(read_config_file(path), str(path), overrides)


def pool_config_from_dict(data: Any, source: str = "config", overrides: dict[str, Any] | None = None) -> PoolConfig:
    """Build and check a :class:`PoolConfig` from plain data (as read from YAML or saved by a run)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of sections, got {type(data).__name__}")
    data = with_overrides(data, overrides or {}, source)
    names = {f.name for f in dataclasses.fields(PoolConfig)}
    unknown = sorted(str(k) for k in set(data) - names)
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(names))}")
    hints = typing.get_type_hints(PoolConfig)
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name == "game":
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: game: expected a mapping of game options, got {value!r}")
            try:
                values[name] = GameConfig.from_dict(value)
            except ValueError as exc:
                raise ConfigError(f"{source}: game.{exc}") from None
        elif name in SECTIONS:
            values[name] = build_section(SECTIONS[name], value or {}, source, name + ".")
        else:
            values[name] = coerce_value(value, hints[name], source, name)
    config = PoolConfig(**values)
    _check(config, source)
    return config


POSITIVE = (
    "ppo.games", "ppo.steps", "ppo.epochs", "ppo.minibatch", "ppo.pool_threads", "network.first_width",
    "eval.games", "run.decisions", "run.keep_checkpoints", "opponents.snapshot_every", "opponents.snapshot_pool",
    "labels.minibatch",
)


def _check(config: PoolConfig, source: str) -> None:  # noqa: C901  (one line per rule)
    def fail(key: str, problem: str) -> None:
        raise ConfigError(f"{source}: {key}: {problem}")

    if config.algorithm != ALGORITHM:
        fail("algorithm", f"this loader reads {ALGORITHM} configs, got {config.algorithm!r}")
    if not config.name or "/" in config.name or config.name.startswith("."):
        fail("name", f"must be a plain directory name, got {config.name!r}")
    for key in POSITIVE:
        section, _, name = key.partition(".")
        if getattr(getattr(config, section), name) < 1:
            fail(key, f"must be >= 1, got {getattr(getattr(config, section), name)}")
    if any(h < 1 for h in config.network.hidden):
        fail("network.hidden", f"layer sizes must be >= 1, got {config.network.hidden}")
    if config.network.activation not in ACTIVATIONS:
        fail("network.activation", f"expected one of {', '.join(ACTIVATIONS)}, got {config.network.activation!r}")
    if config.network.first_layer not in FIRST_LAYERS:
        fail("network.first_layer", f"expected one of {', '.join(FIRST_LAYERS)}, got {config.network.first_layer!r}")
    if config.network.sight not in SIGHTS:
        fail("network.sight", f"expected one of {', '.join(SIGHTS)}, got {config.network.sight!r}")
    if config.network.sight_scale <= 0:
        fail("network.sight_scale", f"must be > 0, got {config.network.sight_scale}")
    if config.network.sight != "none" and config.eval.opponents:
        fail("eval.opponents", f"must be [] with network.sight {config.network.sight} (no agent can play a network "
                               "that reads more than the observation; the training win rates measure it)")
    if config.labels.weight <= 0:
        fail("labels.weight", f"must be > 0, got {config.labels.weight}")
    if config.labels.shards is not None and config.network.sight != "none":
        fail("labels.shards", f"the labels' positions hold no {config.network.sight} features: use network.sight none")
    if config.ppo.device not in DEVICES:
        fail("ppo.device", f"expected one of {', '.join(DEVICES)}, got {config.ppo.device!r}")
    for key, auto in (("ppo.torch_threads", config.ppo.torch_threads), ("eval.workers", config.eval.workers)):
        if auto != "auto" and (isinstance(auto, str) or auto < 1):
            fail(key, f"expected an integer >= 1 or 'auto', got {auto!r}")
    if config.ppo.whole_games and not config.ppo.carry_pending:
        fail("ppo.carry_pending", "false needs ppo.whole_games false too (whole games carry the running games' rows)")
    if config.ppo.critic_warmup < 0:
        fail("ppo.critic_warmup", f"must be >= 0 (rollouts), got {config.ppo.critic_warmup}")
    if not 0.0 <= config.ppo.gamma <= 1.0 or not 0.0 <= config.ppo.gae_lambda <= 1.0:
        fail("ppo.gamma", "gamma and gae_lambda must be in 0..1")
    seats = config.opponents.learner_seats
    if not 1 <= seats <= config.game.players:
        fail("opponents.learner_seats", f"must be in 1..{config.game.players} (the players), got {seats}")
    for key, mix, used in (("mix", config.opponents.mix, seats < config.game.players),
                           ("later_mix", config.opponents.later_mix, config.opponents.later_after > 0)):
        if used and (not mix or any(w < 0 for w in mix.values()) or sum(mix.values()) <= 0):
            fail(f"opponents.{key}", f"expected non-negative shares with a positive sum, got {mix}")
    if config.opponents.table_games < 0:
        fail("opponents.table_games", f"must be >= 0 (0: none), got {config.opponents.table_games}")
    if config.opponents.table_games:
        try:
            make_agent(config.opponents.table_agent, 0)
        except AgentError as exc:
            fail("opponents.table_agent", str(exc))
    if config.opponents.later_after < 0:
        fail("opponents.later_after", f"must be >= 0 (decisions; 0: no curriculum), got {config.opponents.later_after}")
    if config.run.max_minutes is not None and config.run.max_minutes <= 0:
        fail("run.max_minutes", f"must be > 0 or null, got {config.run.max_minutes}")
    if config.eval.every_minutes < 0:
        fail("eval.every_minutes", f"must be >= 0 (0: only at the end), got {config.eval.every_minutes}")
