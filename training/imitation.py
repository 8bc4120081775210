"""Imitation before reinforcement: the policy learns a teacher agent's choices, the critic its results.

:func:`collect` plays games with the teacher in every seat (in worker
processes) and keeps a random share of the decisions as (observation, mask,
action, final reward of the deciding seat). :func:`pretrain` fits the
MaskablePPO policy to them: cross-entropy of the teacher's action under the
masked policy plus ``value_coef`` times the squared error of the critic. This
gives PPO a starting policy near the teacher's strength instead of a random
one; PPO then improves on it by playing.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.specs import make_agent
from tribune_env.codec import Space, codec_for, encoder_for
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.rewards import reward_fn


@dataclass
class Demonstrations:
    """Teacher decisions: observations (float16), masks (bool), action indices, final rewards of the decider."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def concat(cls, parts: list[Demonstrations]) -> Demonstrations:
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("obs", "masks", "actions", "returns")))


def play_games(teacher: str, config: GameConfig, seeds: list[int], keep: float, reward: str) -> Demonstrations:
    """Play one game per seed with ``teacher`` in every seat; keep each decision with probability ``keep``."""
    space = Space.for_rules(config.rules)
    encoder = encoder_for(config.components, config.round_limit, space)
    codec = codec_for(config.components, space)
    score = reward_fn(reward)
    n = config.players
    agents = [make_agent(teacher, s) for s in range(n)]
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(config, seed=seed)
        for seat, agent in enumerate(agents):
            agent.reset(seat, config, rng.randrange(2**62))
        deciders: list[int] = []
        while not game.is_over:
            seat = game.current_seat
            legal = game.legal_actions()
            action = agents[seat].act(game.view(seat), legal, InfoSet(game, seat))
            if len(legal) > 1 and rng.random() < keep:
                obs.append(encoder.encode_game(game, seat).astype(np.float16))
                masks.append(codec.mask(legal, seat, n).astype(bool))
                actions.append(codec.encode(action, seat, n))
                deciders.append(seat)
            game.apply(action)
        final = score(game)
        returns.extend(final[s] for s in deciders)
    size = encoder.size
    return Demonstrations(
        np.array(obs, dtype=np.float16).reshape(-1, size),
        np.array(masks, dtype=bool).reshape(-1, codec.n),
        np.array(actions, dtype=np.int64),
        np.array(returns, dtype=np.float32),
    )


def _play_chunk(args: tuple[str, GameConfig, list[int], float, str]) -> Demonstrations:
    return play_games(*args)


def collect(
    teacher: str,
    config: GameConfig,
    games: int,
    seed: int,
    keep: float,
    reward: str,
    workers: int = 1,
    tick: Callable[[int], None] | None = None,
) -> Demonstrations:
    """Demonstrations from ``games`` teacher games (seeds derived from ``seed``), played by ``workers`` processes."""
    rng = np.random.default_rng(seed)
    seeds = [int(s) for s in rng.integers(2**62, size=games)]
    chunk = 10
    jobs = [(teacher, config, seeds[i : i + chunk], keep, reward) for i in range(0, games, chunk)]
    parts: list[Demonstrations] = []
    with contextlib.ExitStack() as stack:
        mapper: Callable[..., Iterator[Demonstrations]] = map
        if workers > 1:
            mapper = stack.enter_context(multiprocessing.get_context("forkserver").Pool(workers)).imap
        for job, part in zip(jobs, mapper(_play_chunk, jobs), strict=True):
            parts.append(part)
            if tick:
                tick(len(job[2]))
    return Demonstrations.concat(parts)


def pretrain(
    policy: Any,
    data: Demonstrations,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value_coef: float,
    seed: int,
    log: Callable[[dict[str, float]], None] | None = None,
) -> dict[str, float]:
    """Fit ``policy`` (a MaskableActorCriticPolicy) to ``data``; returns the last epoch's metrics.

    5% of the decisions are held out: ``val_accuracy`` is how often the masked
    policy's most likely action is the teacher's on them.
    """
    import torch

    gen = np.random.default_rng(seed)
    order = gen.permutation(len(data))
    held = max(1, len(data) // 20)
    val, train = order[:held], order[held:]
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    device = policy.device
    metrics: dict[str, float] = {}

    def tensors(idx: np.ndarray) -> tuple[Any, Any, Any, Any]:
        return (
            torch.as_tensor(data.obs[idx].astype(np.float32), device=device),
            torch.as_tensor(data.actions[idx], device=device),
            data.masks[idx],
            torch.as_tensor(data.returns[idx], device=device),
        )

    for epoch in range(epochs):
        policy.set_training_mode(True)
        gen.shuffle(train)
        losses, values = [], []
        for start in range(0, len(train), batch_size):
            obs, actions, masks, returns = tensors(train[start : start + batch_size])
            value, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(value.flatten(), returns)
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            losses.append(policy_loss.item())
            values.append(value_loss.item())
        metrics = {
            "epoch": float(epoch + 1),
            "policy_loss": float(np.mean(losses)),
            "value_loss": float(np.mean(values)),
            "val_accuracy": _accuracy(policy, *tensors(val)[:3]),
        }
        if log:
            log(metrics)
    policy.set_training_mode(False)
    return metrics


def _accuracy(policy: Any, obs: Any, actions: Any, masks: np.ndarray) -> float:
    import torch

    with torch.no_grad():
        dist = policy.get_distribution(obs, action_masks=masks)
        best = dist.distribution.probs.argmax(dim=1)
    return float((best == actions).float().mean())
