"""Training configuration: a YAML file read into :class:`TrainConfig`, checked key by key.

Every section and key is optional except where noted; defaults are the
dataclass defaults below. Unknown keys, wrong types and out-of-range values
raise :class:`ConfigError` naming the file, the key and the problem, before
anything is written; :func:`load_config` (and a run, before it writes anything)
also builds every agent the config names (:func:`check_agents`), so a spec
with an unknown parameter or a missing model fails there and not hours into
the run. :meth:`TrainConfig.resolved` is the complete
configuration with machine-dependent values (``n_envs: auto``) filled in; it
is saved beside every model so a run can be repeated exactly.
"""

from __future__ import annotations

import dataclasses
import operator
import os
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from agents.base import AgentError
from agents.specs import AgentSpec, agent_supports, make_agent, parse_spec
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig, config_fields, config_to_dict

ACTIVATIONS = ("tanh", "relu")
REWARDS = ("win_loss", "rank", "score_margin", "dense", "dense:win_loss", "dense:rank", "dense:score_margin")
"""The learner's reward (tribune_env.envs.rewards): a final result, or a dense one that adds the score change at each
decision (shaped: for bootstrapping; evaluations always compare game results)."""
POSITIVE = (  # integer keys that must be >= 1
    "run.total_timesteps", "run.checkpoint_every", "run.keep_checkpoints",
    "league.snapshot_every", "league.pool_size",
    "ppo.n_steps", "ppo.batch_size", "ppo.n_epochs",
    "eval.every", "eval.games",
    "pretrain.games", "pretrain.epochs", "pretrain.batch_size",
)


class ConfigError(ValueError):
    """A training configuration that cannot be used; the message names the file, key and problem."""


@dataclass(frozen=True)
class EnvConfig:
    """The game the learner plays (:attr:`game`) and what it learns from it (see
    :class:`~tribune_env.envs.single.TribuneSingleEnv`).

    The YAML section is flat: the game's options in their public dictionary form
    (:func:`~tribune_env.engine.config.config_from_dict`: ``players``, ``victory_card``, ``point_variant``,
    ``round_limit``, ``expansion``, ``brutii``, ...; ``rules`` may name the rule set; ``brutii: true`` implies the
    expansion, and ``players`` left out is the rule set's default) beside the training's own keys :data:`ENV_KEYS`.
    """

    game: GameConfig = field(default_factory=GameConfig)
    reward: str = "win_loss"
    learner_role: str = "any"  # the learner's seat in a Brutii game: any (at random), brutii, or family

    @property
    def players(self) -> int:
        """The game's player count."""
        return self.game.players

    @property
    def expansion(self) -> bool:
        """Whether the game is played with the expansion (in the expansion spaces), the Brutii variant included."""
        return self.game.rules.uses_expansion

    @property
    def brutii(self) -> bool:
        """Whether one seat is the Brutii (R42-R54)."""
        return self.game.rules.has_brutii

    def to_dict(self) -> dict[str, Any]:
        """The section as plain data: :func:`~tribune_env.engine.config.config_to_dict` of the game, then
        :data:`ENV_KEYS`; :func:`env_from_dict` reads it back equal."""
        return {**config_to_dict(self.game), "reward": self.reward, "learner_role": self.learner_role}


ENV_KEYS = tuple(f.name for f in dataclasses.fields(EnvConfig) if f.name != "game")
"""The env section's keys that are not the game's: ``reward`` and ``learner_role``."""
GAME_KEYS = (*config_fields(), "rules")
"""The env section's keys that describe the game: the options :func:`~tribune_env.engine.config.config_from_dict`
reads."""


def env_from_dict(data: Any, source: str = "config") -> EnvConfig:
    """The :class:`EnvConfig` of an env section (as written in YAML, or by :meth:`EnvConfig.to_dict`);
    :class:`ConfigError` names the key: an unknown one, or a game option :class:`GameConfig` refuses."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: env: expected a mapping, got {data!r}")
    unknown = sorted(str(k) for k in data if k not in GAME_KEYS and k not in ENV_KEYS)
    if unknown:
        names = ", ".join(f"env.{k}" for k in unknown)
        raise ConfigError(f"{source}: unknown key(s) {names}; known: {', '.join((*GAME_KEYS, *ENV_KEYS))}")
    hints = typing.get_type_hints(EnvConfig)
    own = {k: coerce_value(data[k], hints[k], source, f"env.{k}") for k in ENV_KEYS if k in data}
    try:
        game = GameConfig.from_dict({k: v for k, v in data.items() if k in GAME_KEYS})
    except ValueError as exc:  # the message starts with the option's name
        raise ConfigError(f"{source}: env.{exc}") from None
    return EnvConfig(game=game, **own)


@dataclass(frozen=True)
class OpponentsConfig:
    """Reference agents in the other seats: spec -> weight, drawn independently for every seat and episode."""

    mix: dict[str, float] = field(default_factory=lambda: {"random": 1.0})


@dataclass(frozen=True)
class LeagueConfig:
    """Self-play: frozen snapshots of the learner join a pool and play opponent seats.

    ``schedule`` gives, as ``[progress, probability]`` points (progress = share
    of ``total_timesteps`` done), the chance that an opponent seat is drawn from
    the pool rather than from the reference mix; it is linear between points and
    flat outside them. Within the pool, ``latest_weight`` of the draws go to the
    newest snapshot and the rest are uniform over the pool.
    """

    enabled: bool = False
    snapshot_every: int = 100_000
    pool_size: int = 8
    schedule: list[list[float]] = field(default_factory=lambda: [[0.0, 0.0], [0.5, 0.5]])
    latest_weight: float = 0.5
    deterministic: bool = False


@dataclass(frozen=True)
class PPOConfig:
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    learning_rate: float = 3e-4
    n_steps: int = 1024
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 1.0
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    net_pi: list[int] = field(default_factory=lambda: [256, 256])
    net_vf: list[int] = field(default_factory=lambda: [256, 256])
    activation: str = "tanh"


@dataclass(frozen=True)
class PretrainConfig:
    """Imitation before PPO: the policy learns a teacher's choices and the critic its game results."""

    enabled: bool = False
    teacher: str = "heuristic"
    games: int = 400
    keep: float = 0.5
    epochs: int = 4
    batch_size: int = 512
    learning_rate: float = 1e-3
    value_coef: float = 0.5
    dataset: str | None = None  # a Minari dataset id (`tribune dataset`): imitate its decisions instead of playing


@dataclass(frozen=True)
class EvalConfig:
    """Evaluation through the tournament runner: the current model with ``players - 1`` copies of each opponent."""

    every: int = 100_000
    games: int = 80
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    workers: int | str = "auto"
    final_games: int = 0


@dataclass(frozen=True)
class RunConfig:
    """Length, parallelism and outputs of the run."""

    total_timesteps: int = 1_000_000
    init_from: str | None = None  # an SB3 checkpoint (.zip) or exported policy (.npz) of the same spaces and network
    n_envs: int | str = "auto"
    vec_env: str = "auto"
    checkpoint_every: int = 100_000
    keep_checkpoints: int = 5
    device: str = "cpu"
    torch_threads: int | str = "auto"
    progress_bar: bool = True


@dataclass(frozen=True)
class RayConfig:
    """Where and how wide the RLlib backend runs (``backend: rllib``; :mod:`training.rllib_trainer`).

    ``address`` null starts a local Ray instance; ``"auto"`` or ``"ray://host:10001"`` joins a running cluster.
    ``env_runners`` (0: sample in the driver) each step ``envs_per_env_runner`` games; a rollout is
    ``ppo.n_steps`` learner steps per environment, as with SB3.
    """

    address: str | None = None
    env_runners: int = 1
    envs_per_env_runner: int = 1
    cpus_per_env_runner: float = 1.0


@dataclass(frozen=True)
class TrainConfig:
    """A whole training run."""

    name: str = "ppo"
    seed: int = 0
    output: str = "runs"
    backend: str = "sb3"  # sb3 (MaskablePPO, training.trainer) or rllib (Ray RLlib PPO, training.rllib_trainer)
    env: EnvConfig = field(default_factory=EnvConfig)
    opponents: OpponentsConfig = field(default_factory=OpponentsConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    run: RunConfig = field(default_factory=RunConfig)
    ray: RayConfig = field(default_factory=RayConfig)

    @property
    def run_dir(self) -> Path:
        return Path(self.output) / self.name

    def resolved(self) -> dict[str, Any]:
        """The complete configuration as plain data, ``auto`` values replaced by what this machine uses."""
        data = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        data["run"]["n_envs"] = self.n_envs
        data["run"]["vec_env"] = self.vec_env
        data["run"]["torch_threads"] = self.torch_threads
        data["eval"]["workers"] = self.eval_workers
        return data

    @property
    def n_envs(self) -> int:
        """Environments stepped per rollout: ``run.n_envs`` (SB3) or every env runner's environments (RLlib)."""
        if self.backend == "rllib":
            return max(1, self.ray.env_runners) * self.ray.envs_per_env_runner
        return _auto(self.run.n_envs, os.cpu_count() or 1)

    @property
    def vec_env(self) -> str:
        if self.run.vec_env == "auto":
            return "subproc" if self.n_envs > 1 else "dummy"
        return self.run.vec_env

    @property
    def torch_threads(self) -> int:
        return _auto(self.run.torch_threads, os.cpu_count() or 1)

    @property
    def eval_workers(self) -> int:
        return _auto(self.eval.workers, os.cpu_count() or 1)


def _plain(value: Any) -> Any:
    """A section as plain data (the env section by :meth:`EnvConfig.to_dict`)."""
    if isinstance(value, EnvConfig):
        return value.to_dict()
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) and not isinstance(value, type) else value


def _auto(value: int | str, default: int) -> int:
    return default if value == "auto" else int(value)


# -- loading -------------------------------------------------------------------------


EXTENDS = "extends"
"""The key of a config file that names the config it is laid over (:func:`read_config_file`)."""


def read_config_file(path: str | Path) -> dict[str, Any]:
    """The mapping of the YAML config file ``path`` (empty: ``{}``), laid over the config its ``extends`` key names.

    ``extends: zero-4p.yaml`` (relative to the file's folder; a chain may extend again) reads that config first; then
    each section of this file replaces that section's keys one by one (``selfplay: {games: 32}`` keeps the base's
    other ``selfplay`` keys) and every other top-level value replaces the base's, so a variant holds only what it
    changes. A value inside a section replaces whole, as ``--set section.key=value`` does (a child's ``opponents``
    is the whole table). ConfigError naming the file when one cannot be read, is not YAML, is no mapping, names no
    file, or the chain comes back to a file already read."""
    return _read_chain(Path(path), ())


def _read_chain(path: Path, chain: tuple[Path, ...]) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config: {exc.strerror or exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of sections, got {type(data).__name__}")
    if EXTENDS not in data:
        return data
    base = data.pop(EXTENDS)
    if not isinstance(base, str) or not base:
        raise ConfigError(f"{path}: {EXTENDS}: expected the path of a config file, got {base!r}")
    base_path = path.parent / base
    if not base_path.is_file():
        raise ConfigError(f"{path}: {EXTENDS}: no config file {base_path}")
    here = path.resolve()
    if base_path.resolve() in (*chain, here):
        loop = " -> ".join(p.name for p in (*chain, here, base_path.resolve()))
        raise ConfigError(f"{path}: {EXTENDS}: the chain comes back to a file already read ({loop})")
    return laid_over(_read_chain(base_path, (*chain, here)), data)


def laid_over(base: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` laid over ``base``: a section (a mapping in both) keeps the base's keys that ``data`` does not set."""
    merged = dict(base)
    for key, value in data.items():
        below = merged.get(key)
        merged[key] = {**below, **value} if isinstance(value, dict) and isinstance(below, dict) else value
    return merged


ALGORITHMS = ("ppo", "ppo-pool", "zero")
"""The trainers of ``tribune train``, by a config's top-level ``algorithm`` key (absent: ``ppo``): this module's
:class:`TrainConfig`, :mod:`training.pool` and :mod:`training.zero`."""


def algorithm_of(path: str | Path, overrides: dict[str, Any] | None = None) -> str:
    """The config's ``algorithm`` (``ppo`` when absent; its ``extends`` chain read, ``overrides`` applied);
    ConfigError for an unreadable file or a value not in :data:`ALGORITHMS`."""
    data = read_config_file(path)
    value = (overrides or {}).get("algorithm", data.get("algorithm", "ppo"))
    if value not in ALGORITHMS:
        raise ConfigError(f"{path}: algorithm: expected one of {', '.join(ALGORITHMS)}, got {value!r}")
    return str(value)


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read and check a YAML config; ``overrides`` (dotted keys, e.g. ``{"run.total_timesteps": 1000}``) win."""
    data = read_config_file(path)
    config = config_from_dict(data, str(path), overrides)
    check_agents(config, str(path))
    return config


SELF = "self"
"""The opponents.mix entry for a seat the learning policy plays itself (``backend: rllib`` only)."""
BACKENDS = ("sb3", "rllib")


def agent_specs(config: TrainConfig) -> list[tuple[str, str]]:
    """``(key, spec)`` of every agent the run builds: opponents, evaluation opponents and the imitation teacher."""
    specs = [(f"opponents.mix.{spec}", spec) for spec in config.opponents.mix if spec != SELF]
    specs += [(f"eval.opponents[{i}]", spec) for i, spec in enumerate(config.eval.opponents)]
    if config.pretrain.enabled:
        specs.append(("pretrain.teacher", config.pretrain.teacher))
    return specs


def check_agents(config: TrainConfig, source: str = "config") -> None:
    """Check every role of the run before it starts: each agent of :func:`agent_specs` is built (and closed) once
    and must play the run's game (:meth:`~agents.base.Agent.supports`), and so must the learner's starting
    checkpoint (``run.init_from``, :func:`_check_learner`). :class:`ConfigError` naming the key and giving the
    agent's refusal otherwise. The self-play pool holds the learner's own snapshots, which play what it plays."""
    game = config.env.game
    for key, spec in agent_specs(config):
        try:
            problem = agent_supports(spec, game)
        except Exception as exc:  # AgentError, or whatever a registered factory raises
            problem = str(exc) if isinstance(exc, AgentError) else f"{type(exc).__name__}: {exc}"
            raise ConfigError(f"{source}: {key}: agent {spec!r} cannot be built: {problem}") from None
        if problem is not None:
            raise ConfigError(f"{source}: {key}: {problem}")
    _check_learner(config, source)


def _check_learner(config: TrainConfig, source: str) -> None:
    """The learner's starting checkpoint (``run.init_from``, when it is a file that plays as a ``ppo`` agent) must
    play the run's rule set; only the rule set, as fine-tuning may change what the encoder scales (the round
    limit). The trainer names a missing or unreadable checkpoint when it starts from it."""
    path = config.run.init_from
    if path is None or not Path(path).is_file():
        return
    try:
        agent = make_agent(AgentSpec("ppo", (("path", str(path)),)), 0)
    except AgentError:
        return
    try:
        problem = agent.supports(config.env.game) if config.env.game.rules not in agent.rule_sets else None
    finally:
        agent.close()
    if problem is not None:
        raise ConfigError(f"{source}: run.init_from: {problem}")


def config_from_dict(data: Any, source: str = "config", overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Build and check a :class:`TrainConfig` from plain data (as read from YAML or saved by a run)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of sections, got {type(data).__name__}")
    data = with_overrides(data, overrides or {}, source)
    if data.get("algorithm", "ppo") == "ppo":  # `algorithm: zero` configs are training.zero's (tribune train picks)
        data = {k: v for k, v in data.items() if k != "algorithm"}
    config: TrainConfig = build_section(TrainConfig, data, source, "")
    _check(config, source)
    return config


def sections_as_data(config: Any) -> dict[str, Any]:
    """A run config (a dataclass of sections) as plain data: its ``GameConfig`` by ``config_to_dict``, every other
    section by ``dataclasses.asdict``, plain values as they are."""
    data: dict[str, Any] = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if isinstance(value, GameConfig):
            data[f.name] = config_to_dict(value)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            data[f.name] = dataclasses.asdict(value)
        else:
            data[f.name] = value
    return data


def with_overrides(data: dict[str, Any], overrides: dict[str, Any], source: str) -> dict[str, Any]:
    merged: dict[str, Any] = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for dotted, value in overrides.items():
        parts = dotted.split(".")
        node = merged
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ConfigError(f"{source}: cannot override {dotted!r}: {part!r} is not a section")
            node = child
        node[parts[-1]] = value
    return merged


def build_section(cls: type[Any], data: Any, source: str, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: {prefix.rstrip('.') or 'top level'}: expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        names = ", ".join(prefix + k for k in unknown)
        raise ConfigError(f"{source}: unknown key(s) {names}; known: {', '.join(fields)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        hint = hints[name]
        key = prefix + name
        if hint is EnvConfig:
            values[name] = env_from_dict(value or {}, source)
        elif dataclasses.is_dataclass(hint):
            values[name] = build_section(typing.cast(type[Any], hint), value or {}, source, key + ".")
        else:
            values[name] = coerce_value(value, hint, source, key)
    return cls(**values)


def coerce_value(value: Any, hint: Any, source: str, key: str) -> Any:  # noqa: C901  (one branch per YAML type)
    """``value`` as type ``hint`` (ints accepted for floats), else a ConfigError naming ``key``."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        for option in typing.get_args(hint):
            try:
                return coerce_value(value, option, source, key)
            except ConfigError:
                continue
        raise ConfigError(f"{source}: {key}: expected {_name(hint)}, got {value!r}")
    if hint is type(None):
        if value is None:
            return None
    elif hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    elif hint is str:
        if isinstance(value, str):
            return value
    elif origin is list:
        if isinstance(value, list):
            (item,) = typing.get_args(hint)
            return [coerce_value(v, item, source, f"{key}[{i}]") for i, v in enumerate(value)]
    elif origin is dict:
        if isinstance(value, dict):
            kt, vt = typing.get_args(hint)
            return {
                coerce_value(k, kt, source, f"{key} key"): coerce_value(v, vt, source, f"{key}.{k}")
                for k, v in value.items()
            }
    raise ConfigError(f"{source}: {key}: expected {_name(hint)}, got {value!r}")


def _name(hint: Any) -> str:
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        return " or ".join(_name(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "null"
    return getattr(hint, "__name__", str(hint))


LEARNER_ROLES = ("any", "brutii", "family")


def _check_game(config: TrainConfig, fail: Any) -> None:
    """What the env section asks of the game beyond :class:`GameConfig`'s own checks (done when it is read)."""
    env = config.env
    if env.learner_role not in LEARNER_ROLES:
        fail("env.learner_role", f"expected one of {', '.join(LEARNER_ROLES)}, got {env.learner_role!r}")
    if env.learner_role != "any" and not env.game.rules.has_brutii:
        fail("env.learner_role", f"{env.learner_role!r} needs env.brutii: true (roles exist only with the Brutii)")
    try:  # the evaluations play the run's game as tournaments
        TournamentDefinition.for_config(["random"] * env.game.players, env.game)
    except ValueError as exc:  # the message starts with the option's name
        key, _, problem = str(exc).partition(": ")
        fail(f"env.{key}", f"{problem} (the evaluations are tournaments of the run's game)")
    if config.run.init_from is not None and not str(config.run.init_from).endswith((".zip", ".npz")):
        fail(
            "run.init_from",
            f"expected an SB3 checkpoint (.zip) or an exported policy (.npz), got {config.run.init_from!r}",
        )


def _check(config: TrainConfig, source: str) -> None:  # noqa: C901  (one line per rule)
    """Range and consistency checks that types alone do not express."""

    def fail(key: str, problem: str) -> None:
        raise ConfigError(f"{source}: {key}: {problem}")

    if not config.name or "/" in config.name or config.name.startswith("."):
        fail("name", f"must be a plain directory name, got {config.name!r}")
    _check_game(config, fail)
    _check_backend(config, fail)
    if config.env.reward not in REWARDS:
        fail("env.reward", f"expected one of {', '.join(REWARDS)}, got {config.env.reward!r}")
    _check_mix(config.opponents.mix, "opponents.mix", fail)
    for key in POSITIVE:
        value = operator.attrgetter(key)(config)
        if value < 1:
            fail(key, f"must be >= 1, got {value}")
    for key, auto in (("run.n_envs", config.run.n_envs), ("run.torch_threads", config.run.torch_threads),
                      ("eval.workers", config.eval.workers)):
        if auto != "auto" and (isinstance(auto, str) or auto < 1):
            fail(key, f"expected an integer >= 1 or 'auto', got {auto!r}")
    if config.run.vec_env not in ("auto", "subproc", "dummy"):
        fail("run.vec_env", f"expected auto, subproc or dummy, got {config.run.vec_env!r}")
    if config.ppo.activation not in ACTIVATIONS:
        fail("ppo.activation", f"expected one of {', '.join(ACTIVATIONS)}, got {config.ppo.activation!r}")
    if not config.ppo.net_pi or min(config.ppo.net_pi + config.ppo.net_vf or [1]) < 1:
        fail("ppo.net_pi/net_vf", "layer sizes must be >= 1 and net_pi non-empty")
    if config.ppo.batch_size > config.ppo.n_steps * config.n_envs:
        rollout = config.ppo.n_steps * config.n_envs
        fail("ppo.batch_size", f"{config.ppo.batch_size} exceeds n_steps * n_envs = {rollout}")
    if config.eval.final_games < 0:
        fail("eval.final_games", f"must be >= 0, got {config.eval.final_games}")
    for i, spec in enumerate(config.eval.opponents):
        _check_spec(spec, f"eval.opponents[{i}]", fail)
    _check_spec(config.pretrain.teacher, "pretrain.teacher", fail)
    if not 0.0 < config.pretrain.keep <= 1.0:
        fail("pretrain.keep", f"must be in (0, 1], got {config.pretrain.keep}")
    _check_schedule(config.league, fail)


def _check_backend(config: TrainConfig, fail: typing.Callable[[str, str], None]) -> None:
    """The RLlib backend's own keys, and the SB3-only features it refuses by name."""
    if config.backend not in BACKENDS:
        fail("backend", f"expected one of {', '.join(BACKENDS)}, got {config.backend!r}")
    ray = config.ray
    if ray.env_runners < 0:
        fail("ray.env_runners", f"must be >= 0, got {ray.env_runners}")
    if ray.envs_per_env_runner < 1:
        fail("ray.envs_per_env_runner", f"must be >= 1, got {ray.envs_per_env_runner}")
    if ray.cpus_per_env_runner <= 0:
        fail("ray.cpus_per_env_runner", f"must be > 0, got {ray.cpus_per_env_runner}")
    if config.backend == "sb3":
        if SELF in config.opponents.mix:
            fail(f"opponents.mix.{SELF}", "the learner in opponent seats needs backend: rllib (SB3 trains one seat)")
        return
    if config.pretrain.enabled:
        fail("pretrain.enabled", "imitation pretraining is an SB3 feature; backend: rllib does not run it")
    if config.run.init_from is not None:
        fail("run.init_from", "starts from an SB3 checkpoint; backend: rllib does not read those")


def _check_spec(spec: str, key: str, fail: typing.Callable[[str, str], None]) -> None:
    try:
        parse_spec(spec)
    except AgentError as exc:
        fail(key, str(exc))


def _check_mix(mix: dict[str, float], key: str, fail: typing.Callable[[str, str], None]) -> None:
    if not mix:
        fail(key, "needs at least one agent spec")
    for spec, weight in mix.items():
        if spec != SELF:
            _check_spec(spec, f"{key}.{spec}", fail)
        if weight < 0:
            fail(f"{key}.{spec}", f"weight must be >= 0, got {weight}")
    if sum(mix.values()) <= 0:
        fail(key, "weights must not all be 0")


def _check_schedule(league: LeagueConfig, fail: typing.Callable[[str, str], None]) -> None:
    points = league.schedule
    if not points:
        fail("league.schedule", "needs at least one [progress, probability] point")
    for i, point in enumerate(points):
        if len(point) != 2 or not all(0.0 <= v <= 1.0 for v in point):
            fail(f"league.schedule[{i}]", f"expected [progress, probability] within 0..1, got {point}")
    if [p[0] for p in points] != sorted(p[0] for p in points):
        fail("league.schedule", "progress points must be in increasing order")
    if not 0.0 <= league.latest_weight <= 1.0:
        fail("league.latest_weight", f"must be in 0..1, got {league.latest_weight}")
