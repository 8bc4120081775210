"""The learner: a torch network of exactly the :class:`~agents.ppo.NumpyPolicy` layout, trained on search targets.

:class:`PolicyValueNet` has the actor (``pi`` hidden layers, ``action`` head) and the critic (``vf`` hidden layers,
``value`` head) as separate towers with the checkpoint's activation, so its weights are the ``.npz`` arrays
(:meth:`PolicyValueNet.arrays`) and back (:meth:`PolicyValueNet.from_policy`). The loss of a batch is

    cross-entropy(search target, masked softmax of the logits)   over the searched positions (weighted)
    + value_weight * mean squared error(value, the seat's final win_loss)   over the positions with a value target
    + anchor_weight * KL(starting network's policy || the policy)              over all positions

where a searched position weighs 1, or with ``gain_scale`` > 0 ``clip(gain / gain_scale, 0, 1)``: its search's gain
over the network's own choice (:func:`~training.zero.selfplay.label_gain`) in units of ``gain_scale``, so a label
teaches in proportion to what the search found and one where the search agreed with the network teaches nothing
(a position whose gain is unknown, from a shard written before gains were recorded, weighs 1).

minimised with Adam (gradient norm clipped). Batches are drawn from the replay window in an order seeded by the
run's seed and the iteration (:func:`~training.zero.selfplay.job_seed`'s kind), so training is reproducible on the
CPU; a GPU may differ in the last bits.
"""

from __future__ import annotations

import io
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.ppo import NumpyPolicy
from training.zero.config import LearnerConfig
from training.zero.replay import Positions

MASKED = -1e9  # the logit of an illegal action (finite: 0 * MASKED stays 0 in the cross-entropy)


def resolve_device(name: str) -> str:
    """``auto``: ``cuda`` when torch sees a GPU, else ``cpu``; other names as given."""
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name


class PolicyValueNet(nn.Module):
    """Actor and critic towers of the :class:`NumpyPolicy` layout (torch ``Linear`` weights are ``out x in``)."""

    def __init__(self, obs_size: int, actions: int, pi: list[int], vf: list[int], activation: str) -> None:
        super().__init__()
        self.pi = nn.ModuleList(nn.Linear(a, b) for a, b in zip([obs_size, *pi], pi, strict=False))
        self.action = nn.Linear(([obs_size, *pi])[-1], actions)
        self.vf = nn.ModuleList(nn.Linear(a, b) for a, b in zip([obs_size, *vf], vf, strict=False))
        self.value = nn.Linear(([obs_size, *vf])[-1], 1)
        self.activation = {"tanh": torch.tanh, "relu": torch.relu}[activation]

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits, value)`` of a batch of observations."""
        v = obs
        for layer in self.vf:
            v = self.activation(layer(v))
        return self.logits(obs), self.value(v)[..., 0]

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """The actor's logits alone (the critic's tower is not run)."""
        x = obs
        for layer in self.pi:
            x = self.activation(layer(x))
        out: torch.Tensor = self.action(x)
        return out

    @classmethod
    def from_policy(cls, policy: NumpyPolicy) -> PolicyValueNet:
        """The network with ``policy``'s weights (it must have a critic)."""
        net = policy.meta["net"]
        model = cls(policy.obs_size, policy.n_actions, list(net["pi"]), list(net["vf"]), net["activation"])
        arrays = policy.arrays()  # the same names as the state dict's
        model.load_state_dict({k: torch.as_tensor(np.asarray(v, dtype=np.float32)) for k, v in arrays.items()})
        return model

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights under their ``.npz`` names (float32)."""
        return {name: p.detach().to("cpu", torch.float32).numpy().copy() for name, p in self.state_dict().items()}


@dataclass(frozen=True)
class LossStats:
    """Mean losses of one iteration's training."""

    policy_loss: float
    value_loss: float
    loss: float
    steps: int
    samples: int


def label_weights(searched: torch.Tensor, gains: torch.Tensor | None, gain_scale: float) -> torch.Tensor:
    """Each row's weight in the policy loss (see the module docstring): 0 where not searched."""
    weight = searched.to(torch.float32)
    if gain_scale > 0 and gains is not None:
        scaled = torch.clamp(gains / gain_scale, 0.0, 1.0)
        weight = weight * torch.where(torch.isnan(gains), torch.ones_like(scaled), scaled)
    return weight


def batch_loss(
    model: PolicyValueNet,
    batch: dict[str, torch.Tensor],
    value_weight: float,
    anchor: PolicyValueNet | None = None,
    anchor_weight: float = 0.0,
    gain_scale: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(loss, policy_loss, value_loss)`` of a batch (tensors ``obs``, ``masks``, ``targets``, ``searched``,
    ``values``, optionally ``gains``; see the module docstring). ``anchor``: the starting network, for the
    ``anchor_weight`` term."""
    logits, value = model(batch["obs"])
    logp = torch.log_softmax(logits.masked_fill(~batch["masks"], MASKED), dim=-1)
    weight = label_weights(batch["searched"], batch.get("gains"), gain_scale).to(logp.dtype)
    per_row = -(batch["targets"] * logp).sum(dim=-1)
    policy_loss = (per_row * weight).sum() / weight.sum().clamp(min=1.0)
    valued = ~torch.isnan(batch["values"])  # NaN: no value target at this position (selfplay.value_positions)
    errors = torch.where(valued, value - torch.nan_to_num(batch["values"]), torch.zeros_like(value)) ** 2
    value_loss = errors.sum() / valued.sum().clamp(min=1)
    loss = policy_loss + value_weight * value_loss
    if anchor is not None and anchor_weight > 0:
        with torch.no_grad():
            start_logp = torch.log_softmax(anchor.logits(batch["obs"]).masked_fill(~batch["masks"], MASKED), dim=-1)
        kl = (start_logp.exp() * (start_logp - logp)).sum(dim=-1).mean()
        loss = loss + anchor_weight * kl
    return loss, policy_loss, value_loss


class Learner:
    """The network being trained, its optimiser and device."""

    def __init__(self, policy: NumpyPolicy, config: LearnerConfig, device: str = "cpu") -> None:
        self.config = config
        self.device = torch.device(device)
        self.model = PolicyValueNet.from_policy(policy).to(self.device)
        self.anchor = PolicyValueNet.from_policy(policy).to(self.device).eval() if config.anchor_weight > 0 else None
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
        )

    def restart(self, policy: NumpyPolicy) -> None:
        """Continue from ``policy``'s weights (of this layout) with a fresh optimiser (the gate's ``revert``)."""
        arrays = policy.arrays()
        self.model.load_state_dict({k: torch.as_tensor(np.asarray(v, dtype=np.float32)) for k, v in arrays.items()})
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=self.config.learning_rate, weight_decay=self.config.weight_decay
        )

    def _tensors(self, data: Positions, rows: np.ndarray) -> dict[str, torch.Tensor]:
        device = self.device
        return {
            "obs": torch.as_tensor(data.obs[rows].astype(np.float32), device=device),
            "masks": torch.as_tensor(data.masks[rows], device=device),
            "targets": torch.as_tensor(data.targets[rows].astype(np.float32), device=device),
            "searched": torch.as_tensor(data.searched[rows], device=device),
            "values": torch.as_tensor(data.values[rows], device=device),
            "gains": torch.as_tensor(data.gains[rows], device=device),
        }

    def step(self, batch: dict[str, torch.Tensor]) -> tuple[float, float, float]:
        """One Adam step on ``batch``; its ``(loss, policy_loss, value_loss)`` before the step."""
        self.model.train()
        loss, policy_loss, value_loss = batch_loss(
            self.model, batch, self.config.value_weight, self.anchor, self.config.anchor_weight, self.config.gain_scale
        )
        self.optimizer.zero_grad(set_to_none=True)
        torch.autograd.backward(loss)
        nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm)
        self.optimizer.step()
        return float(loss.item()), float(policy_loss.item()), float(value_loss.item())

    def train(self, data: Positions, seed: int) -> LossStats:
        """``learner.epochs`` passes over ``data`` in minibatches of ``batch_size``, in an order drawn from ``seed``."""
        if not len(data):
            return LossStats(math.nan, math.nan, math.nan, 0, 0)
        cfg = self.config
        rng = np.random.default_rng(seed)
        samples = max(1, round(cfg.epochs * len(data)))
        passes = -(-samples // len(data))
        order = np.concatenate([rng.permutation(len(data)) for _ in range(passes)])[:samples]
        sums = np.zeros(3)
        steps = 0
        for start in range(0, samples, cfg.batch_size):
            rows = np.sort(order[start : start + cfg.batch_size])
            sums += self.step(self._tensors(data, rows))
            steps += 1
        loss, policy_loss, value_loss = sums / steps
        return LossStats(float(policy_loss), float(value_loss), float(loss), steps, samples)

    def evaluate(self, data: Positions) -> tuple[float, float, float]:
        """``(loss, policy_loss, value_loss)`` of ``data`` as one batch, without training."""
        self.model.eval()
        with torch.no_grad():
            loss, policy_loss, value_loss = batch_loss(
                self.model, self._tensors(data, np.arange(len(data))), self.config.value_weight,
                gain_scale=self.config.gain_scale,
            )
        return float(loss.item()), float(policy_loss.item()), float(value_loss.item())

    def policy(self, meta: dict[str, Any]) -> NumpyPolicy:
        """The current network as a :class:`NumpyPolicy` with ``meta`` (float32 weights)."""
        return NumpyPolicy.from_arrays(meta, self.model.arrays())

    # -- state ---------------------------------------------------------------------------

    def save(self, path: Path) -> Path:
        """The weights and the optimiser's state (all a resume needs), written atomically."""
        buffer = io.BytesIO()
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, buffer)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(buffer.getvalue())
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return path

    def load(self, path: Path) -> None:
        """Restore what :meth:`save` wrote."""
        state = torch.load(path, map_location=self.device, weights_only=True)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
