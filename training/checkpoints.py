"""Saving and finding models: every checkpoint carries what made it.

A checkpoint is an SB3 zip (``checkpoints/step-000100000.zip``) with the
Tribune metadata inside (``tribune.json``, see :mod:`agents.ppo`: environment
signature, network, game options) plus, in the same metadata and in a JSON
file beside it, the resolved training config, the code version and the
timestep count. Snapshots for the self-play pool and the final model are
also exported as compact numpy policies (``.npz``) that play without torch.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path
from typing import Any

from agents.ppo import FORMAT, SB3_PREFIXES, export_policy, signature_for, write_checkpoint_meta
from training.config import TrainConfig
from tribune_env.codec import Space
from tribune_env.engine.config import GameConfig, config_from_dict, config_to_dict

STEP_NAME = re.compile(r"^step-(\d{9,})\.zip$")


def checkpoint_meta(config: TrainConfig, timesteps: int, code: dict[str, Any]) -> dict[str, Any]:
    """The metadata stored with a model trained under ``config`` after ``timesteps`` steps.

    ``game`` is the game in its public dictionary form (:func:`config_to_dict`; :func:`game_of_meta` reads it
    back); ``learner_role`` (a Brutii game only) is the learner's role; ``config`` the resolved training config.
    """
    game = config.env.game
    return {
        "format": FORMAT,
        "signature": signature_for(game),
        "space": Space.for_rules(game.rules).value,
        "net": {"pi": list(config.ppo.net_pi), "vf": list(config.ppo.net_vf), "activation": config.ppo.activation},
        "game": config_to_dict(game),
        **({"learner_role": config.env.learner_role} if game.rules.has_brutii else {}),
        "timesteps": int(timesteps),
        "config": config.resolved(),
        "code": code,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


LEGACY_GAME_KEYS = ("learner_role",)
"""Keys a checkpoint's ``game`` held before it was the public dictionary form: the learner's role (now beside it)."""


def game_of_meta(meta: dict[str, Any]) -> GameConfig:
    """The game a checkpoint was trained on, from its metadata's ``game`` (:func:`config_from_dict`; a ``game``
    written before the dictionary form, e.g. by the shipped models, reads too). ValueError names a bad option."""
    game = meta.get("game")
    if not isinstance(game, dict):
        raise ValueError(f"game: expected the checkpoint's game options, got {game!r:.60}")
    return config_from_dict({k: v for k, v in game.items() if k not in LEGACY_GAME_KEYS})


def save_checkpoint(model: Any, path: Path, meta: dict[str, Any]) -> Path:
    """Save ``model`` (an SB3 model) to ``path`` with ``meta`` inside and beside it (``path`` with ``.json``).

    Written to a temporary name first, so an interruption never leaves a half-written checkpoint under ``path``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(tmp)
    write_checkpoint_meta(tmp, meta)
    os.replace(tmp, path)
    write_side_meta(path, meta)
    return path


def write_side_meta(path: Path, meta: dict[str, Any]) -> Path:
    """``meta`` as JSON beside the checkpoint ``path`` (``path`` with ``.json``), written atomically."""
    side = path.with_suffix(".json")
    side_tmp = side.with_name(side.name + ".tmp")
    side_tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    os.replace(side_tmp, side)
    return side


def step_path(directory: Path, timesteps: int) -> Path:
    return directory / f"step-{timesteps:09d}.zip"


def step_checkpoints(directory: Path) -> list[Path]:
    """The step checkpoints in ``directory``, oldest first."""
    if not directory.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in directory.iterdir() if (m := STEP_NAME.match(p.name))]
    return [p for _, p in sorted(found)]


def prune_checkpoints(directory: Path, keep: int) -> None:
    """Delete all but the newest ``keep`` step checkpoints (and their JSON files)."""
    for path in step_checkpoints(directory)[:-keep]:
        path.unlink(missing_ok=True)
        path.with_suffix(".json").unlink(missing_ok=True)


def export_snapshot(checkpoint: Path, directory: Path) -> Path:
    """A compact numpy policy of ``checkpoint`` in ``directory`` (for the self-play pool)."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / checkpoint.with_suffix(".npz").name
    tmp = target.with_name(target.stem + ".tmp.npz")
    export_policy(checkpoint, tmp, dtype="float32")
    os.replace(tmp, target)
    return target


def load_npz_weights(policy: Any, path: Path, activation: str) -> None:
    """Copy the weights of an exported ``.npz`` policy (actor and critic, :mod:`agents.ppo`) into the SB3
    MlpPolicy ``policy`` of the same network, so a run can fine-tune a shipped model (``run.init_from``).

    The hidden layers are matched in order (``pi.k`` to the k-th ``Linear`` of ``mlp_extractor.policy_net``, ``vf.k``
    likewise); every weight of ``policy`` must be given, with its shape, and the file's hidden layers must use
    ``activation``. :class:`ValueError` names the first difference, and ``policy`` is left unchanged then.
    """
    import torch

    from agents.ppo import NumpyPolicy

    source = NumpyPolicy.from_file(path)
    if source.value_head is None:
        raise ValueError(f"{path} has no value network; a run needs the critic as well as the actor")
    if source.meta["net"]["activation"] != activation:
        raise ValueError(f"{path}: its layers use {source.meta['net']['activation']!r}, the run's {activation!r}")
    given = source.arrays()
    state = policy.state_dict()
    renamed = _npz_names(state)
    missing = sorted(set(state) - set(renamed))
    if missing:
        raise ValueError(f"{path}: the run's network has weights the file cannot fill: {', '.join(missing)}")
    for key, name in renamed.items():
        if name not in given:
            raise ValueError(f"{path}: no weights {name} for {key} (the run's network is deeper than the file's)")
        if tuple(given[name].shape) != tuple(state[key].shape):
            raise ValueError(f"{path}: {name} is {given[name].shape} in the file, {tuple(state[key].shape)} in the run")
    unused = sorted(set(given) - set(renamed.values()))
    if unused:
        raise ValueError(f"{path}: the file has weights the run's network lacks: {', '.join(unused)}")
    loaded = {key: torch.as_tensor(given[name], dtype=state[key].dtype) for key, name in renamed.items()}
    policy.load_state_dict(loaded, strict=True)


def _npz_names(state: dict[str, Any]) -> dict[str, str]:
    """The ``.npz`` name of each weight of an SB3 MlpPolicy's ``state`` (:data:`agents.ppo.SB3_PREFIXES`), the
    hidden layers numbered in order as :meth:`agents.ppo.NumpyPolicy.from_arrays` numbers them; a weight under no
    known prefix is left out."""
    renamed: dict[str, str] = {}
    for prefix, short in SB3_PREFIXES.items():
        rests = [key[len(prefix) :] for key in state if key.startswith(prefix)]
        ranks = {index: rank for rank, index in enumerate(sorted({int(r.split(".")[0]) for r in rests if "." in r}))}
        for rest in rests:
            index, _, part = rest.rpartition(".")
            renamed[prefix + rest] = f"{short}{ranks[int(index)]}.{part}" if index else short + part
    return renamed
