"""The search's labels learned beside PPO (the ``labels`` section of a ``ppo-pool`` config).

An ``algorithm: zero`` run keeps every iteration's positions as a replay shard (:mod:`training.zero.replay`); a
searched position's ``targets`` is the improved policy of its search. :func:`load_labels` reads the searched rows of
a run's shards; :func:`label_loss` is the KL divergence from those targets to the network's masked policy on a
minibatch of them, which :func:`training.pool.ppo.update` adds to PPO's loss times ``labels.weight``. PPO's signal
(the games' results) and the search's labels then train one network: the search says which move it prefers, PPO
says what the change of every other choice costs at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from training.pool.network import PolicyNet, masked
from training.zero.replay import Positions, shards


class LabelsError(ValueError):
    """Shards that cannot serve as labels; the message names the folder and the problem."""


@dataclass
class SearchLabels:
    """Searched positions on the learner's device: ``obs`` (float16), ``masks`` (bool), ``targets`` (float32,
    each row a distribution over legal actions)."""

    obs: torch.Tensor
    masks: torch.Tensor
    targets: torch.Tensor

    def __len__(self) -> int:
        return int(self.obs.shape[0])


def load_labels(folder: str | Path, obs_size: int, actions: int, device: torch.device,
                min_gain: float | None = None, hard: bool = False) -> SearchLabels:
    """The searched rows of every shard in ``folder`` (a zero run's ``replay/``), in iteration order; with
    ``min_gain``, only those whose gain is at least that (the clear labels); ``hard``: each target one-hot at its
    most probable action.

    :class:`LabelsError` when the folder holds no shard, no such row, rows of another observation or action
    size than the pool's (``obs_size``, ``actions``), or a target that is not a distribution over legal actions."""
    found = shards(Path(folder))
    if not found:
        raise LabelsError(f"{folder}: no replay shards (iter-NNNN.npz) there")
    parts = []
    for iteration in sorted(found):
        try:
            part = Positions.read(found[iteration])
        except (OSError, ValueError, KeyError) as exc:
            raise LabelsError(f"{found[iteration]}: not a readable replay shard ({exc})") from None
        if part.obs.shape[1] != obs_size or part.masks.shape[1] != actions:
            raise LabelsError(f"{found[iteration]}: positions of {part.obs.shape[1]} observation entries and "
                              f"{part.masks.shape[1]} actions, where this game has {obs_size} and {actions}")
        keep = part.searched.astype(bool)
        if min_gain is not None:
            with np.errstate(invalid="ignore"):  # NaN: gain unknown, not kept
                keep &= part.gains >= min_gain
        parts.append(part.take(np.flatnonzero(keep)))
    rows = Positions.concat(parts)
    if not len(rows):
        wanted = "searched position" if min_gain is None else f"searched position with a gain of {min_gain} or more"
        raise LabelsError(f"{folder}: the shards hold no {wanted}")
    targets = rows.targets.astype(np.float32)
    if np.any(targets[~rows.masks] > 0) or not np.allclose(targets.sum(1), 1.0, atol=1e-2):
        raise LabelsError(f"{folder}: a target is not a distribution over its position's legal actions")
    targets /= targets.sum(1, keepdims=True)  # float16's rounding
    if hard:
        targets = np.eye(actions, dtype=np.float32)[targets.argmax(1)]
    return SearchLabels(torch.from_numpy(rows.obs).to(device), torch.from_numpy(rows.masks).to(device),
                        torch.from_numpy(targets).to(device))


def label_loss(net: PolicyNet, labels: SearchLabels, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The mean KL divergence from the targets of ``rows`` to ``net``'s masked policy there, and the share of those
    rows whose most probable action is the target's (no gradient)."""
    logits, _ = net(labels.obs[rows].float())
    logp = torch.log_softmax(masked(logits, labels.masks[rows]), 1)
    target = labels.targets[rows]
    kl = (target * (torch.log(target.clamp_min(1e-12)) - logp)).sum(1).mean()
    with torch.no_grad():
        agree = (logp.argmax(1) == target.argmax(1)).float().mean()
    return kl, agree
