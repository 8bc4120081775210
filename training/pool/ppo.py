"""The masked PPO update (CleanRL's clipped objective) on a rollout's learner rows."""

from __future__ import annotations

import numpy as np
import torch

from training.pool.config import LabelsConfig, PPOSettings
from training.pool.labels import SearchLabels, label_loss
from training.pool.network import PolicyNet, critic_parameters, masked
from training.pool.rollout import Batch


def update(
    net: PolicyNet,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    advantage: np.ndarray,
    returns: np.ndarray,
    settings: PPOSettings,
    rng: np.random.Generator,
    device: torch.device,
    critic_only: bool = False,
    labels: tuple[SearchLabels, LabelsConfig] | None = None,
) -> dict[str, float]:
    """``settings.epochs`` passes over ``batch`` in shuffled minibatches; the mean losses, entropy, approximate KL
    and clip fraction of the last pass (stops early when ``target_kl`` is passed).

    ``critic_only`` (the critic warm-up, ``ppo.critic_warmup``): the loss is the value loss alone and only the
    critic's own parameters (:func:`~training.pool.network.critic_parameters`) are stepped; the actor's output is
    left exactly as it was.

    ``labels`` (the search's labels and their section, :mod:`training.pool.labels`): each minibatch also draws
    ``minibatch`` labelled rows and adds ``weight`` times their KL divergence to the loss (``label_loss`` and
    ``label_agree`` in the metrics)."""
    net.train()
    n = len(batch)
    obs = torch.from_numpy(batch.obs).to(device)
    mask = torch.from_numpy(batch.mask).to(device)
    action = torch.from_numpy(batch.action).to(device)
    old_logp = torch.from_numpy(batch.logp).to(device)
    adv_all = torch.from_numpy(advantage).to(device)
    ret_all = torch.from_numpy(returns).to(device)
    critic = {id(p) for p in critic_parameters(net)}
    metrics: dict[str, list[float]] = {k: [] for k in ("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac")}
    if labels is not None:
        metrics.update(label_loss=[], label_agree=[])
    size = min(settings.minibatch, n)
    for _ in range(settings.epochs):
        order = torch.from_numpy(rng.permutation(n)).to(device)
        kls = []
        for start in range(0, n - size + 1 if n >= size else 1, size):
            idx = order[start : start + size]
            logits, value = net(obs[idx])
            scores = masked(logits, mask[idx])
            logp_all = torch.log_softmax(scores, 1)
            logp = logp_all.gather(1, action[idx, None])[:, 0]
            entropy = -(logp_all.exp() * logp_all).sum(1).mean()
            ratio = (logp - old_logp[idx]).exp()
            adv = adv_all[idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            pg = torch.max(-adv * ratio, -adv * ratio.clamp(1 - settings.clip, 1 + settings.clip)).mean()
            v_loss = 0.5 * ((value - ret_all[idx]) ** 2).mean()
            if critic_only:
                loss = settings.vf_coef * v_loss
            else:
                loss = pg - settings.ent_coef * entropy + settings.vf_coef * v_loss
                if labels is not None:
                    searched, section = labels
                    drawn = torch.from_numpy(rng.integers(len(searched), size=section.minibatch)).to(device)
                    kl_labels, agree = label_loss(net, searched, drawn)
                    loss = loss + section.weight * kl_labels
                    metrics["label_loss"].append(float(kl_labels.detach()))
                    metrics["label_agree"].append(float(agree))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if critic_only:
                for p in net.parameters():
                    if id(p) not in critic:
                        p.grad = None
            torch.nn.utils.clip_grad_norm_(net.parameters(), settings.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                log_ratio = logp - old_logp[idx]
                kl = float(((ratio - 1) - log_ratio).mean())
                kls.append(kl)
                metrics["policy_loss"].append(float(pg))
                metrics["value_loss"].append(float(v_loss))
                metrics["entropy"].append(float(entropy))
                metrics["approx_kl"].append(kl)
                metrics["clipfrac"].append(float(((ratio - 1).abs() > settings.clip).float().mean()))
        if settings.target_kl is not None and kls and float(np.mean(kls)) > settings.target_kl:
            break
    net.eval()
    return {k: float(np.mean(v)) if v else 0.0 for k, v in metrics.items()}
