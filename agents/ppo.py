"""``ppo``: a policy trained with sb3-contrib's MaskablePPO, played with numpy.

Spec: ``ppo`` (the shipped model :data:`SHIPPED`), ``ppo-expansion`` (the shipped expansion model
:data:`SHIPPED_EXPANSION`, 4-player expansion games), ``ppo-brutii`` (:data:`SHIPPED_BRUTII`, the expansion
model fine-tuned for both roles of the Brutii variant), ``ppo:path/to/model.zip`` or
``ppo:path=model.npz,deterministic=false``. Parameters: ``path`` (an SB3
checkpoint ``.zip`` or an exported ``.npz``) and ``deterministic`` (``true``:
the most probable legal action; ``false``: sample from the masked softmax,
seeded by the agent's seed).

Checkpoint contract (format :data:`FORMAT`):

* an SB3 ``.zip`` saved by ``MaskablePPO.save`` from an ``MlpPolicy``, plus an
  entry :data:`META_NAME` that :func:`write_checkpoint_meta` adds: a JSON
  object with ``format``, ``signature`` (:func:`environment_signature` of the
  environment it was trained on) and ``net`` (``pi``/``vf`` hidden sizes and
  the ``activation`` name, a key of :data:`ACTIVATIONS`); other keys are free;
* an ``.npz`` written by :meth:`NumpyPolicy.save_npz` / :func:`export_policy`:
  the same metadata as a JSON string array ``meta`` and the torch ``Linear``
  weights (``out x in``) as ``pi.K.weight``/``pi.K.bias``, ``action.weight``/
  ``action.bias``, ``vf.K.*`` and ``value.*``.

A policy trained on the expansion spaces (``tribune/TribuneExpansion-v0``; metadata ``"space": "expansion"``)
plays every rule set (``PPOAgent.rule_sets``: base, expansion and Brutii games); one trained on the base spaces
plays base games only. ``PPOAgent.supports`` also refuses games the checkpoint does not fit (:func:`check_fits`).

Reading an ``.npz`` needs numpy only; reading a ``.zip`` imports torch (not
Stable-Baselines3), lazily. A checkpoint whose signature differs from the
game's encoder or codec is refused with :class:`CheckpointError` saying what
differs. ``python -m agents.ppo CHECKPOINT.zip OUT.npz`` exports a checkpoint.
"""

from __future__ import annotations

import argparse
import copy
import functools
import hashlib
import io
import itertools
import json
import os
import re
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from agents.base import Agent, AgentError, InfoSet
from agents.specs import Factory, no_more, register_agent, take_choice
from tribune_env.codec import ActionCodec, ObservationEncoder, Space, codec_for, encoder_for
from tribune_env.data import Components
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.view import PlayerView
from tribune_env.extras import missing_extra
from tribune_env.threads import limited_threads

__all__ = [
    "ACTIVATIONS",
    "FORMAT",
    "META_NAME",
    "SB3_PREFIXES",
    "SHIPPED",
    "SHIPPED_BRUTII",
    "SHIPPED_EXPANSION",
    "CheckpointError",
    "NumpyPolicy",
    "PPOAgent",
    "describe_mismatch",
    "environment_signature",
    "export_policy",
    "load_policy",
    "read_checkpoint_meta",
    "signature_for",
    "write_checkpoint_meta",
]

Array = npt.NDArray[np.float32]
Layer = tuple[Array, Array]  # (weight out x in, bias out), as torch.nn.Linear

FORMAT = "tribune-ppo/1"
META_NAME = "tribune.json"
SHIPPED = Path(__file__).parent / "models" / "ppo-4p.npz"
SHIPPED_EXPANSION = Path(__file__).parent / "models" / "ppo-expansion-4p.npz"
SHIPPED_BRUTII = Path(__file__).parent / "models" / "ppo-expansion-brutii.npz"
_NPZ_META = "meta"
_NPZ_DTYPES = ("float16", "float32")
_TRAIN_HINT = "was it saved by `tribune train`?"
_WEIGHT_NAME = re.compile(r"(?:(?:pi|vf)\.\d+|action|value)\.(?:weight|bias)")


def tanh(x: Array) -> Array:
    return np.tanh(x)


def relu(x: Array) -> Array:
    return np.maximum(x, np.float32(0.0))


ACTIVATIONS: dict[str, Callable[[Array], Array]] = {"tanh": tanh, "relu": relu}


class CheckpointError(AgentError):
    """A missing, corrupt or mismatched checkpoint; the message names the file and the problem."""


# -- environment signature --------------------------------------------------------


def _digest(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


LAYOUT_NAMES = {"pending_brutii": "brutii_seat"}
"""Pieces renamed after checkpoints were signed, by the name the layout digest keeps: the reserved ``brutii_seat``
(always zero before the Brutii variant) became ``pending_brutii`` at the same place and size (issue 15)."""


def environment_signature(encoder: ObservationEncoder, codec: ActionCodec) -> dict[str, Any]:
    """What a policy depends on: observation layout, bounds and scales, and the action labels."""
    rows = encoder.layout_rows()
    layout = "\n".join(f"{LAYOUT_NAMES.get(name, name)}:{start}:{size}" for name, start, size, _ in rows)
    high = np.ascontiguousarray(encoder.high, dtype="<f4").tobytes()
    return {
        "observation": {
            "size": int(encoder.size),
            "layout": _digest(layout),
            "high": _digest(high),
            "scales": encoder.scale_values(),
        },
        "actions": {"n": int(codec.n), "labels": _digest("\n".join(codec.labels()))},
    }


def signature_for(config: GameConfig, space: Space | None = None) -> dict[str, Any]:
    """The :func:`environment_signature` of games played with ``config`` in ``space`` (default: the spaces of the
    game's rule set); a copy of the one computed once per layout (every agent's reset checks its checkpoint)."""
    space = Space.for_rules(config.rules) if space is None else space
    return copy.deepcopy(_signature(config.components, config.round_limit, space))


@functools.cache
def _signature(components: Components, round_limit: int, space: Space) -> dict[str, Any]:
    return environment_signature(encoder_for(components, round_limit, space), codec_for(components, space))


def _section(sig: Any, key: str) -> dict[str, Any]:
    part = sig.get(key) if isinstance(sig, dict) else None
    return part if isinstance(part, dict) else {}


def _scaling_mismatch(found: dict[str, Any], expected: dict[str, Any]) -> str | None:
    fs, es = found.get("scales"), expected.get("scales")
    if fs == es and found.get("high") == expected.get("high"):
        return None
    parts = []
    if fs != es:
        fs, es = fs if isinstance(fs, dict) else {}, es if isinstance(es, dict) else {}
        for name in sorted(set(fs) | set(es)):
            if fs.get(name) != es.get(name):
                parts.append(f"{name} {fs.get(name)} (checkpoint) vs {es.get(name)} (this environment)")
    if found.get("high") != expected.get("high"):
        parts.append(f"bounds {found.get('high')} (checkpoint) vs {expected.get('high')} (this environment)")
    return "observation scaling differs: " + ", ".join(parts)


def describe_mismatch(found: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """``None`` if the signatures agree, else what differs, in words."""
    fo, eo = _section(found, "observation"), _section(expected, "observation")
    fa, ea = _section(found, "actions"), _section(expected, "actions")
    problems = []
    if (fo.get("size"), fo.get("layout")) != (eo.get("size"), eo.get("layout")):
        problems.append(
            f"observation layout differs: checkpoint has {fo.get('size')} entries (layout {fo.get('layout')}), "
            f"this environment has {eo.get('size')} entries (layout {eo.get('layout')})"
        )
    else:
        scaling = _scaling_mismatch(fo, eo)
        if scaling:
            problems.append(scaling)
    if (fa.get("n"), fa.get("labels")) != (ea.get("n"), ea.get("labels")):
        problems.append(
            f"action space differs: checkpoint has {fa.get('n')} actions (labels {fa.get('labels')}), "
            f"this environment has {ea.get('n')} actions (labels {ea.get('labels')})"
        )
    return "; ".join(problems) or None


# -- metadata ---------------------------------------------------------------------


def _is_size_list(value: Any) -> bool:
    return isinstance(value, list) and all(type(v) is int and v >= 1 for v in value)


def _meta_problem(meta: Any) -> str | None:
    """What is wrong with a metadata object, or ``None``."""
    if not isinstance(meta, dict):
        return f"metadata must be a JSON object, got {type(meta).__name__}"
    if meta.get("format") != FORMAT:
        return f"format is {meta.get('format')!r}, expected {FORMAT!r}"
    obs, actions = _section(meta.get("signature"), "observation"), _section(meta.get("signature"), "actions")
    if type(obs.get("size")) is not int or type(actions.get("n")) is not int:
        return "signature must give observation.size and actions.n (see environment_signature)"
    net = meta.get("net")
    if not isinstance(net, dict) or not _is_size_list(net.get("pi")) or not _is_size_list(net.get("vf")):
        return "net must give pi and vf as lists of layer sizes >= 1"
    if net.get("activation") not in ACTIVATIONS:
        return f"net.activation must be one of {', '.join(ACTIVATIONS)}, got {net.get('activation')!r}"
    return None


def write_checkpoint_meta(zip_path: str | os.PathLike[str], meta: dict[str, Any]) -> None:
    """Add (or replace) :data:`META_NAME` in the SB3 checkpoint ``zip_path``, atomically.

    Raises ``ValueError`` for bad metadata and :class:`CheckpointError` for a missing
    or corrupt zip; the file is unchanged in both cases.
    """
    problem = _meta_problem(meta)
    if problem:
        raise ValueError(f"checkpoint metadata: {problem}")
    try:
        text = json.dumps(meta, indent=2, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValueError(f"checkpoint metadata is not JSON: {err}") from None
    path = Path(zip_path)
    _check_file(path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out, zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
            for info in src.infolist():
                if info.filename != META_NAME:
                    dst.writestr(info, src.read(info))
            dst.writestr(META_NAME, text, compress_type=zipfile.ZIP_DEFLATED)
        os.chmod(tmp, path.stat().st_mode & 0o777)  # keep the checkpoint's permissions (mkstemp makes 0600)
        os.replace(tmp, path)
    except (zipfile.BadZipFile, zlib.error, EOFError) as err:
        raise CheckpointError(f"{path}: not a readable zip file ({err})") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _check_file(path: Path) -> None:
    if not path.exists():
        raise CheckpointError(f"checkpoint {path} does not exist")
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path} is not a file")


def _parse_meta(text: str | bytes, path: Path) -> dict[str, Any]:
    try:
        meta = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{path}: {META_NAME} is not valid JSON ({err})") from None
    problem = _meta_problem(meta)
    if problem:
        raise CheckpointError(f"{path}: bad checkpoint metadata: {problem}")
    assert isinstance(meta, dict)
    return meta


def read_checkpoint_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The metadata of an SB3 ``.zip`` checkpoint or an exported ``.npz`` (both are zip files)."""
    path = Path(path)
    _check_file(path)
    text: str | bytes | None = None
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if META_NAME in names:
                text = zf.read(META_NAME)
        if text is None and _NPZ_META + ".npy" in names:
            with np.load(path, allow_pickle=False) as npz:
                text = str(npz[_NPZ_META])
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as err:
        raise CheckpointError(f"{path}: not a readable checkpoint ({type(err).__name__}: {err})") from None
    if text is None:
        raise CheckpointError(f"{path}: not a Tribune checkpoint (no {META_NAME}): {_TRAIN_HINT}")
    return _parse_meta(text, path)


# -- the policy -------------------------------------------------------------------


def _forward(x: Array, layers: Sequence[Layer], activation: Callable[[Array], Array]) -> Array:
    for weight, bias in layers:
        x = activation(x @ weight.T + bias)
    return x


class NumpyPolicy:
    """The actor (and critic) of a MaskablePPO ``MlpPolicy`` as numpy arrays.

    ``layers`` are the actor's hidden layers and ``action`` its head; ``value_layers``
    and ``value_head`` the critic (``value_head`` is ``None`` without one). Weights
    are float32 in torch's ``out x in`` layout. Instances are shared: do not mutate.
    """

    def __init__(
        self,
        meta: dict[str, Any],
        layers: list[Layer],
        action: Layer,
        value_layers: list[Layer] | None = None,
        value_head: Layer | None = None,
        source: str = "<memory>",
    ) -> None:
        self.meta = meta
        self.layers = layers
        self.action = action
        self.value_layers = value_layers or []
        self.value_head = value_head
        self.source = source
        self.activation: Callable[[Array], Array] = ACTIVATIONS[meta["net"]["activation"]]
        self._check_shapes()

    @property
    def obs_size(self) -> int:
        return int(self.meta["signature"]["observation"]["size"])

    @property
    def n_actions(self) -> int:
        return int(self.meta["signature"]["actions"]["n"])

    def _check_shapes(self) -> None:
        """The weights must chain from the observation size to the action count and match ``meta["net"]``."""
        net = self.meta["net"]
        self._check_chain("actor", self.layers, self.action, net["pi"], self.n_actions)
        if self.value_head is not None:
            self._check_chain("critic", self.value_layers, self.value_head, net["vf"], 1)

    def _check_chain(self, what: str, layers: list[Layer], head: Layer, hidden: list[int], out: int) -> None:
        sizes = [self.obs_size, *hidden, out]
        wanted = [((o, i), (o,)) for i, o in itertools.pairwise(sizes)]
        found = [(w.shape, b.shape) for w, b in [*layers, head]]
        if found != wanted:
            shown = ", ".join(f"{'x'.join(map(str, w))} + {'x'.join(map(str, b))}" for w, b in found)
            raise CheckpointError(
                f"{self.source}: the {what}'s weights ({shown}) do not match the metadata "
                f"(observation size {self.obs_size}, hidden layers {hidden}, {out} outputs)"
            )

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> NumpyPolicy:
        """Read an SB3 ``.zip`` checkpoint (needs torch) or an exported ``.npz`` (numpy only)."""
        path = Path(path)
        meta = read_checkpoint_meta(path)
        with zipfile.ZipFile(path) as zf:
            is_sb3 = "policy.pth" in zf.namelist()
        arrays = _sb3_arrays(path) if is_sb3 else _npz_arrays(path)
        return cls.from_arrays(meta, arrays, path)

    @classmethod
    def from_arrays(cls, meta: dict[str, Any], arrays: dict[str, Array], path: str | Path = "<memory>") -> NumpyPolicy:
        """A policy from weights under their ``.npz`` names (e.g. another library's trained network, exported).

        Raises:
            CheckpointError: unknown or missing weights, or shapes that do not match ``meta``.
        """
        unknown = sorted(k for k in arrays if not _WEIGHT_NAME.fullmatch(k))
        if unknown:
            raise CheckpointError(f"{path}: unexpected weights {', '.join(unknown)}")

        def layer(prefix: str) -> Layer:
            try:
                return arrays[prefix + ".weight"], arrays[prefix + ".bias"]
            except KeyError as err:
                raise CheckpointError(f"{path}: missing weights {err.args[0]!r}") from None

        def hidden(prefix: str) -> list[Layer]:
            keys = sorted(int(k.split(".")[1]) for k in arrays if k.startswith(prefix + ".") and k.endswith(".weight"))
            return [layer(f"{prefix}.{k}") for k in keys]

        value_head = layer("value") if "value.weight" in arrays else None
        return cls(meta, hidden("pi"), layer("action"), hidden("vf"), value_head, str(path))

    def _input(self, obs: npt.ArrayLike) -> Array:
        x = np.asarray(obs, dtype=np.float32)
        if x.ndim not in (1, 2) or x.shape[-1] != self.obs_size:
            raise ValueError(f"expected observations of size {self.obs_size}, got shape {x.shape}")
        return x

    def logits(self, obs: npt.ArrayLike) -> Array:
        """Unmasked action logits: shape ``(n,)`` or ``(batch, n)``. Computed with native threads limited
        (:func:`~tribune_env.threads.limited_threads`: one BLAS thread unless ``TRIBUNE_THREADS`` says otherwise)."""
        with limited_threads():
            return self.logits_of_hidden(self.hidden(obs))

    def hidden(self, obs: npt.ArrayLike) -> Array:
        """The actor tower's last hidden layer (what the action layer reads): shape ``(h,)`` or ``(batch, h)``."""
        with limited_threads():
            return _forward(self._input(obs), self.layers, self.activation)

    def logits_of_hidden(self, hidden: Array) -> Array:
        """The action layer over :meth:`hidden`'s output: ``logits(obs) == logits_of_hidden(hidden(obs))``."""
        weight, bias = self.action
        return hidden @ weight.T + bias

    def value(self, obs: npt.ArrayLike) -> Array:
        """The critic's value estimate: shape ``()`` or ``(batch,)``; threads limited as for :meth:`logits`."""
        if self.value_head is None:
            raise ValueError(f"{self.source}: this policy has no critic")
        weight, bias = self.value_head
        x = self._input(obs)
        with limited_threads():
            out = _forward(x, self.value_layers, self.activation) @ weight.T + bias
        return out[..., 0]

    def act(self, obs: npt.ArrayLike, mask: npt.ArrayLike, rng: np.random.Generator | None, deterministic: bool) -> int:
        """A legal action index: the masked argmax, or a sample of the masked softmax (needs ``rng``)."""
        legal = np.asarray(mask).astype(bool)
        if legal.shape != (self.n_actions,):
            raise ValueError(f"expected a mask of shape ({self.n_actions},), got {legal.shape}")
        indices = np.flatnonzero(legal)
        if not indices.size:
            raise ValueError("the action mask allows no action")
        scores = self.logits(obs)[indices].astype(np.float64)
        if deterministic:
            return int(indices[int(np.argmax(scores))])
        if rng is None:
            raise ValueError("sampling (deterministic=False) needs a numpy Generator")
        p = np.exp(scores - scores.max())
        return int(indices[rng.choice(indices.size, p=p / p.sum())])

    def arrays(self) -> dict[str, Array]:
        """The weights under their ``.npz`` names (see the module docstring)."""
        out: dict[str, Array] = {}
        named = [*((f"pi.{k}", lay) for k, lay in enumerate(self.layers)), ("action", self.action)]
        named += [(f"vf.{k}", lay) for k, lay in enumerate(self.value_layers)]
        if self.value_head is not None:
            named.append(("value", self.value_head))
        for name, (weight, bias) in named:
            out[name + ".weight"], out[name + ".bias"] = weight, bias
        return out

    def save_npz(self, path: str | os.PathLike[str], dtype: npt.DTypeLike = np.float32) -> Path:
        """Write a compact ``.npz`` (weights in ``dtype``: float32 exact, float16 half the size), atomically."""
        kind = np.dtype(dtype)
        if kind.name not in _NPZ_DTYPES:
            raise ValueError(f"dtype must be one of {', '.join(_NPZ_DTYPES)}, got {kind.name}")
        arrays: dict[str, Any] = {k: v.astype(kind) for k, v in self.arrays().items()}
        if not all(np.isfinite(v).all() for v in arrays.values()):
            raise ValueError(f"the weights do not fit in {kind.name}")
        arrays[_NPZ_META] = np.array(json.dumps(self.meta, sort_keys=True))
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez_compressed(out, **arrays)
            os.chmod(tmp, 0o666 & ~_umask())  # what a plain open() would have given (mkstemp makes 0600)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return path


def _npz_arrays(path: Path) -> dict[str, Array]:
    try:
        with np.load(path, allow_pickle=False) as npz:
            return {k: np.asarray(npz[k], dtype=np.float32) for k in npz.files if k != _NPZ_META}
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as err:
        raise CheckpointError(f"{path}: unreadable weights ({type(err).__name__}: {err})") from None


SB3_PREFIXES = {
    "mlp_extractor.policy_net.": "pi.",
    "mlp_extractor.value_net.": "vf.",
    "action_net.": "action.",
    "value_net.": "value.",
}
"""An SB3 MlpPolicy weight's prefix and the ``.npz`` prefix it takes (the hidden layers keep SB3's indices here;
:meth:`NumpyPolicy.from_arrays` numbers them in order)."""


def _sb3_arrays(path: Path) -> dict[str, Array]:
    """The MlpPolicy weights of an SB3 checkpoint, renamed to the ``.npz`` names."""
    state = _torch_state(path)
    out: dict[str, Array] = {}
    for key, tensor in state.items():
        prefix = next((p for p in SB3_PREFIXES if key.startswith(p)), None)
        if prefix is None:
            raise CheckpointError(f"{path}: unexpected weights {key!r}: only MlpPolicy checkpoints are supported")
        out[SB3_PREFIXES[prefix] + key[len(prefix) :]] = tensor
    return out


def _torch_state(path: Path) -> dict[str, Array]:
    """``policy.pth`` of an SB3 zip as float32 arrays; torch is imported here only."""
    try:
        import torch
    except ImportError:
        raise CheckpointError(
            f"{missing_extra(f'{path}: reading a .zip checkpoint (torch)', 'train')}; "
            "or export it to .npz with `python -m agents.ppo CHECKPOINT.zip OUT.npz` where torch is installed"
        ) from None
    try:
        with zipfile.ZipFile(path) as zf:
            data = zf.read("policy.pth")
        state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
        return {str(k): np.asarray(v.detach().to(torch.float32).numpy()) for k, v in state.items()}
    except Exception as err:  # torch raises many kinds for a corrupt file; all mean the same here
        raise CheckpointError(f"{path}: cannot read policy.pth ({type(err).__name__}: {err})") from None


def export_policy(zip_path: str | os.PathLike[str], npz_path: str | os.PathLike[str], dtype: str = "float16") -> Path:
    """Export an SB3 checkpoint (actor and critic) to a compact ``.npz`` that needs numpy only."""
    return NumpyPolicy.from_file(zip_path).save_npz(npz_path, dtype)


# -- loading and checking ---------------------------------------------------------

_CACHE_SIZE = 16
_cache: dict[tuple[str, int, int], NumpyPolicy] = {}


def _cached(path: Path) -> NumpyPolicy:
    """One :class:`NumpyPolicy` per file version (path, modification time, size)."""
    _check_file(path)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    policy = _cache.get(key)
    if policy is None:
        policy = NumpyPolicy.from_file(path)
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = policy
    return policy


def trained_on_expansion(policy: NumpyPolicy) -> bool:
    """Whether ``policy`` was trained on the expansion spaces (its metadata's ``space``)."""
    return policy.meta.get("space") == "expansion"


def space_of(policy: NumpyPolicy) -> Space:
    """The spaces ``policy`` was trained on (observation layout and action space): its metadata's ``space``."""
    return Space.EXPANSION if trained_on_expansion(policy) else Space.BASE


def check_fits(policy: NumpyPolicy, config: GameConfig) -> None:
    """Raise :class:`CheckpointError` unless ``policy`` was trained for games like ``config``."""
    space = space_of(policy)
    if not space.serves(config.rules):
        raise CheckpointError(
            f"checkpoint {policy.source} was trained on base games (the Tribune-v0 spaces) and cannot play an "
            "expansion game; use an expansion checkpoint such as the spec 'ppo-expansion'"
        )
    problem = describe_mismatch(policy.meta["signature"], signature_for(config, space))
    if problem:
        raise CheckpointError(f"checkpoint {policy.source} does not fit this game: {problem}")


def load_policy(path: str | os.PathLike[str], config: GameConfig | None = None) -> NumpyPolicy:
    """Load a checkpoint (cached per file version); with ``config``, check that it fits those games."""
    policy = _cached(Path(path))
    if config is not None:
        check_fits(policy, config)
    return policy


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- the agent --------------------------------------------------------------------


class PPOAgent(Agent):
    """Plays a trained policy: the masked argmax, or a sample of the masked softmax."""

    name = "ppo"

    def __init__(self, policy: NumpyPolicy, deterministic: bool = True, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self.deterministic = deterministic
        self.np_rng = np.random.default_rng(seed)
        self._misfits: dict[tuple[Components, int, bool], str | None] = {}  # check_fits's answers, per game kind
        #: the policy's spaces decide: an expansion policy plays every rule set (the same spaces serve both roles of
        #: the Brutii variant), a base policy base games only
        self.space = space_of(policy)
        self.rule_sets = frozenset(rules for rules in RuleSet if self.space.serves(rules))

    def supports(self, config: GameConfig) -> str | None:
        """:meth:`Agent.supports`, and then whether the checkpoint fits these games (:func:`check_fits`: the
        encoder's round scaling, the component set)."""
        return super().supports(config) or self._misfit(config)

    def _misfit(self, config: GameConfig) -> str | None:
        """:func:`check_fits`'s refusal of ``config``, or ``None``; asked once per encoder and codec."""
        key = (config.components, config.round_limit, config.expansion)  # what the encoder and codec depend on
        if key not in self._misfits:
            try:
                check_fits(self.policy, config)
                self._misfits[key] = None
            except CheckpointError as err:
                self._misfits[key] = str(err)
        return self._misfits[key]

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        """:meth:`Agent.reset`; a checkpoint that does not fit a game of its rule sets is a :class:`CheckpointError`."""
        misfit = self._misfit(config) if config.rules in self.rule_sets else None
        if misfit is not None:
            raise CheckpointError(misfit)
        super().reset(seat, config, seed)
        self.np_rng = np.random.default_rng(seed)

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if info is None:
            raise AgentError("the ppo agent needs the InfoSet (info) to observe the game")
        space = self.space
        index = self.policy.act(info.observation(space), info.action_mask(space), self.np_rng, self.deterministic)
        chosen = codec_for(self.config.components, space).decode(index, view.seat, view.num_players)
        for action in legal:
            if action is chosen:
                return action
        for action in legal:
            if action == chosen:
                return action
        raise AgentError(f"the policy chose {chosen!r} (action {index}), which is not legal here")


def _make(params: dict[str, str], seed: int | None) -> Agent:
    given = params.pop("path", None)
    deterministic = take_choice(params, "deterministic", "true", ("true", "false")) == "true"
    no_more("ppo", params)
    if given is None and not SHIPPED.exists():
        raise AgentError(f"the shipped model {SHIPPED} is missing; name a checkpoint: ppo:path/to/model.zip")
    return PPOAgent(load_policy(given if given is not None else SHIPPED), deterministic, seed)


def _shipped(name: str, attribute: str) -> Factory:
    """The factory of the spec ``name``: the shipped model at the module's path ``attribute`` (read when the agent is
    made), parameter ``deterministic``."""

    def make(params: dict[str, str], seed: int | None) -> Agent:
        deterministic = take_choice(params, "deterministic", "true", ("true", "false")) == "true"
        no_more(name, params)
        path: Path = globals()[attribute]
        if not path.exists():
            raise AgentError(f"the shipped model {path} of {name!r} is missing; name one: ppo:path/to/model.zip")
        return PPOAgent(load_policy(path), deterministic, seed)

    return make


register_agent("ppo", _make)
register_agent("ppo-expansion", _shipped("ppo-expansion", "SHIPPED_EXPANSION"))
register_agent("ppo-brutii", _shipped("ppo-brutii", "SHIPPED_BRUTII"))


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m agents.ppo CHECKPOINT.zip OUT.npz [--dtype float16|float32]``: export a checkpoint."""
    parser = argparse.ArgumentParser(prog="python -m agents.ppo", description="Export a PPO checkpoint to .npz.")
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--dtype", choices=_NPZ_DTYPES, default="float16")
    args = parser.parse_args(argv)
    try:
        print(export_policy(args.checkpoint, args.out, args.dtype))
    except CheckpointError as err:
        parser.exit(1, f"error: {err}\n")


if __name__ == "__main__":
    main()
