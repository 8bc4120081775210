"""The learner's network in torch and its export to the shipped NumpyPolicy ``.npz`` format (:mod:`agents.ppo`).

:class:`PolicyNet`: a first layer shared by the actor and the critic, ``first_width`` wide, over the 1,669-entry
observation, then ``hidden`` layers in each tower, the action head (198 logits) and the value head. The first
layer's weight is kept ``in x out`` so that the ``sparse`` form (an ``embedding_bag`` over the observation's nonzero
entries, about 50 of 1,669 in a 4-player base game) and the ``dense`` form (a matrix product) share it. The export
writes the towers as NumpyPolicy's ``pi``/``vf`` layers (the shared first layer in both), so ``ppo:FILE.npz``,
``zero`` and the trainers' ``init_from`` read it.

:class:`FrozenPolicy` is the actor of any NumpyPolicy network (a shipped one, a distilled one, a snapshot) as a
torch module, for batched opponent moves.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.ppo import FORMAT, NumpyPolicy, environment_signature
from tribune_env.codec import ActionCodec, ObservationEncoder

NEG = -1e9
"""The logit of an illegal action (finite, so that masked probabilities times log-probabilities stay 0)."""


def sparse_rows(obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The nonzero entries of ``obs`` (``(B, n)`` float) in ``embedding_bag``'s flat form: column indices, values
    and the offset of each row's first entry."""
    rows, cols = obs.nonzero(as_tuple=True)
    counts = torch.bincount(rows, minlength=obs.shape[0])
    offsets = torch.zeros(obs.shape[0], dtype=torch.long, device=obs.device)
    offsets[1:] = torch.cumsum(counts, 0)[:-1]
    return cols, obs[rows, cols], offsets


def _activation(name: str) -> nn.Module:
    return nn.Tanh() if name == "tanh" else nn.ReLU()


class PolicyNet(nn.Module):
    """Actor and critic over Tribune observations (module docstring).

    Args:
        obs_size: observation entries; n_actions: codec actions.
        first_width: the shared first layer's width; hidden: each tower's further layers.
        activation: ``relu`` or ``tanh``; first_layer: ``dense`` or ``sparse`` (the same function).
        shared_first: one first layer for both towers (the default); false: the critic has its own (the layout of
            the Stable-Baselines3 networks, ``ppo-4p.npz`` and ``zero-expansion-4p.npz``, so ``init_from`` can start
            from them).
    """

    def __init__(
        self,
        obs_size: int,
        n_actions: int,
        first_width: int = 256,
        hidden: list[int] | None = None,
        activation: str = "relu",
        first_layer: str = "dense",
        shared_first: bool = True,
    ) -> None:
        super().__init__()
        hidden = list(hidden if hidden is not None else [128])
        self.obs_size, self.n_actions = obs_size, n_actions
        self.first_width, self.hidden, self.activation_name = first_width, hidden, activation
        self.first_layer = first_layer
        bound = 1.0 / np.sqrt(obs_size)
        self.first_weight = nn.Parameter(torch.empty(obs_size, first_width).uniform_(-bound, bound))
        self.first_bias = nn.Parameter(torch.zeros(first_width))
        self.shared_first = shared_first
        if not shared_first:
            self.critic_first_weight = nn.Parameter(torch.empty(obs_size, first_width).uniform_(-bound, bound))
            self.critic_first_bias = nn.Parameter(torch.zeros(first_width))
        self.act = _activation(activation)
        self.pi = self._tower(first_width, hidden, activation)
        self.vf = self._tower(first_width, hidden, activation)
        width = hidden[-1] if hidden else first_width
        self.action = nn.Linear(width, n_actions)
        self.value = nn.Linear(width, 1)
        nn.init.orthogonal_(self.action.weight, 0.01)
        nn.init.zeros_(self.action.bias)
        nn.init.orthogonal_(self.value.weight, 1.0)
        nn.init.zeros_(self.value.bias)

    @staticmethod
    def _tower(width: int, hidden: list[int], activation: str) -> nn.Sequential:
        layers: list[nn.Module] = []
        for size in hidden:
            linear = nn.Linear(width, size)
            nn.init.orthogonal_(linear.weight, float(np.sqrt(2)))
            nn.init.zeros_(linear.bias)
            layers += [linear, _activation(activation)]
            width = size
        return nn.Sequential(*layers)

    def trunk(self, obs: torch.Tensor, critic: bool = False) -> torch.Tensor:
        """The first layer, activated: ``(B, first_width)``; ``critic``: the critic's own one when it has one."""
        weight, bias = self.first_weight, self.first_bias
        if critic and not self.shared_first:
            weight, bias = self.critic_first_weight, self.critic_first_bias
        if self.first_layer == "sparse":
            index, values, offsets = sparse_rows(obs)
            out = nn.functional.embedding_bag(index, weight, offsets, mode="sum", per_sample_weights=values)
            hidden: torch.Tensor = self.act(out + bias)
            return hidden
        dense: torch.Tensor = self.act(torch.addmm(bias, obs, weight))
        return dense

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Unmasked logits ``(B, n_actions)`` and values ``(B,)``."""
        h = self.trunk(obs)
        logits: torch.Tensor = self.action(self.pi(h))
        h_vf = h if self.shared_first else self.trunk(obs, critic=True)
        value: torch.Tensor = self.value(self.vf(h_vf))[:, 0]
        return logits, value

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """The actor alone (opponent moves): unmasked logits."""
        out: torch.Tensor = self.action(self.pi(self.trunk(obs)))
        return out

    def settings(self) -> dict[str, Any]:
        return {
            "first_width": self.first_width,
            "hidden": list(self.hidden),
            "activation": self.activation_name,
            "first_layer": self.first_layer,
            "shared_first": self.shared_first,
        }

    def numpy_arrays(self) -> dict[str, np.ndarray]:
        """The weights under NumpyPolicy's ``.npz`` names (``out x in``), a shared first layer in both towers."""
        out: dict[str, np.ndarray] = {}
        for prefix, tower in (("pi", self.pi), ("vf", self.vf)):
            weight, bias = self.first_weight, self.first_bias
            if prefix == "vf" and not self.shared_first:
                weight, bias = self.critic_first_weight, self.critic_first_bias
            out[f"{prefix}.0.weight"] = weight.detach().cpu().T.contiguous().numpy()
            out[f"{prefix}.0.bias"] = bias.detach().cpu().numpy()
            linears = [m for m in tower if isinstance(m, nn.Linear)]
            for k, linear in enumerate(linears, 1):
                out[f"{prefix}.{k}.weight"] = linear.weight.detach().cpu().numpy()
                out[f"{prefix}.{k}.bias"] = linear.bias.detach().cpu().numpy()
        for name, head in (("action", self.action), ("value", self.value)):
            out[f"{name}.weight"] = head.weight.detach().cpu().numpy()
            out[f"{name}.bias"] = head.bias.detach().cpu().numpy()
        return {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in out.items()}

    def to_numpy_policy(
        self, encoder: ObservationEncoder, codec: ActionCodec, extra: dict[str, Any] | None = None
    ) -> NumpyPolicy:
        """This network as a :class:`~agents.ppo.NumpyPolicy` (metadata: format, signature, the encoder's ``space``,
        so that it plays the games of those spaces, net, ``extra``)."""
        towers = [self.first_width, *self.hidden]
        meta = {
            "format": FORMAT,
            "signature": environment_signature(encoder, codec),
            "space": encoder.space.value,
            "net": {"pi": towers, "vf": towers, "activation": self.activation_name},
            **(extra or {}),
        }
        return NumpyPolicy.from_arrays(meta, self.numpy_arrays())


def critic_parameters(net: PolicyNet) -> list[nn.Parameter]:
    """The parameters only the critic uses (its ``vf`` tower, value head and own first layer if any): training them
    leaves the actor's logits unchanged."""
    own = [] if net.shared_first else [net.critic_first_weight, net.critic_first_bias]
    return [*own, *net.vf.parameters(), *net.value.parameters()]


def load_numpy_weights(net: PolicyNet, policy: NumpyPolicy) -> None:
    """Set ``net``'s weights from ``policy`` (an export of a PolicyNet, or a network of the same towers: with one
    first layer for both when ``net.shared_first``); ValueError naming the mismatch otherwise.

    ``net`` may be wider than ``policy`` (as many layers, none narrower): the policy's weights fill the first units
    of each layer, the old units and both heads do not read the new ones, and the new units keep ``net``'s fresh
    weights, so the widened network plays and values exactly as ``policy`` until training moves it (net2net)."""
    arrays = policy.arrays()
    towers = policy.meta["net"]
    wanted = [net.first_width, *net.hidden]
    if (towers["activation"] != net.activation_name or towers["pi"] != towers["vf"]
            or len(towers["pi"]) != len(wanted) or any(o > w for o, w in zip(towers["pi"], wanted, strict=True))):
        raise ValueError(f"{policy.source}: network {towers} does not match {wanted} ({net.activation_name}): "
                         "the same layers and activation, each at most as wide")
    if net.shared_first and not np.array_equal(arrays["pi.0.weight"], arrays["vf.0.weight"]):
        raise ValueError(f"{policy.source}: the actor's and the critic's first layers differ: set "
                         "network.shared_first false to start from it")
    with torch.no_grad():
        _fill(net.first_weight.T, arrays["pi.0.weight"])
        _fill(net.first_bias, arrays["pi.0.bias"])
        if not net.shared_first:
            _fill(net.critic_first_weight.T, arrays["vf.0.weight"])
            _fill(net.critic_first_bias, arrays["vf.0.bias"])
        for prefix, tower in (("pi", net.pi), ("vf", net.vf)):
            for k, linear in enumerate((m for m in tower if isinstance(m, nn.Linear)), 1):
                _fill(linear.weight, arrays[f"{prefix}.{k}.weight"])
                _fill(linear.bias, arrays[f"{prefix}.{k}.bias"])
        for name, head in (("action", net.action), ("value", net.value)):
            _fill(head.weight, arrays[f"{name}.weight"])
            _fill(head.bias, arrays[f"{name}.bias"])


def _fill(param: torch.Tensor, old: np.ndarray) -> None:
    """``old`` into the leading block of ``param`` (a weight ``(out, in)`` or a bias, no smaller in any dimension):
    the old output units get zero weight from the new inputs; new output units keep what ``param`` holds. The first
    layers, stored ``(in, out)``, come as their transposed views (their inputs, the observation, are never new)."""
    if param.dim() == 2:
        param[: old.shape[0], old.shape[1]:] = 0.0
    param[tuple(slice(0, n) for n in old.shape)] = torch.from_numpy(np.ascontiguousarray(old, dtype=np.float32))


class FrozenPolicy(nn.Module):
    """The actor of a NumpyPolicy network as a torch module (no gradients): ``logits(obs)``."""

    def __init__(self, policy: NumpyPolicy) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        act = _activation(policy.meta["net"]["activation"])
        for weight, bias in [*policy.layers]:
            linear = nn.Linear(weight.shape[1], weight.shape[0])
            with torch.no_grad():
                linear.weight.copy_(torch.from_numpy(np.asarray(weight, dtype=np.float32)))
                linear.bias.copy_(torch.from_numpy(np.asarray(bias, dtype=np.float32)))
            layers += [linear, copy.deepcopy(act)]
        head = nn.Linear(policy.action[0].shape[1], policy.action[0].shape[0])
        with torch.no_grad():
            head.weight.copy_(torch.from_numpy(np.asarray(policy.action[0], dtype=np.float32)))
            head.bias.copy_(torch.from_numpy(np.asarray(policy.action[1], dtype=np.float32)))
        self.body = nn.Sequential(*layers, head)
        self.requires_grad_(False)
        self.source = policy.source

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.body(obs)
        return out


def frozen_copy(net: PolicyNet) -> PolicyNet:
    """A copy of ``net`` without gradients (a snapshot opponent)."""
    snap = copy.deepcopy(net)
    snap.requires_grad_(False)
    return snap


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with illegal actions (``mask`` false) at :data:`NEG`."""
    return logits.masked_fill(~mask, NEG)


def choose(
    logits: torch.Tensor, mask: torch.Tensor, generator: torch.Generator | None, deterministic: bool = False
) -> torch.Tensor:
    """One legal action per row: the masked argmax, or a sample of the masked softmax (Gumbel-max, ``generator``)."""
    scores = masked(logits, mask)
    if not deterministic:
        u = torch.rand(scores.shape, generator=generator).clamp_(1e-20, 1.0)
        scores = scores - torch.log(-torch.log(u))
    return scores.argmax(1)
