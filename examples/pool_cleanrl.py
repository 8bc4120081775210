"""A CleanRL-style masked PPO in one file over :class:`tribune_env.envs.vector.TribunePoolVectorEnv`: your seat in
N native pool games, the other seats played inside by batched opponents (here the shipped ``ppo`` network).

Shows: the vector environment's arrays (observations ``(N, 1669)``, ``info["action_mask"]`` ``(N, 198)``), masking
the logits before sampling, GAE with the reward at the end of each game (``win_loss``, gamma 1), and the clipped
PPO update. For the project's own trainer over the pool (every seat batched, snapshots, evaluations), see
``tribune train configs/ppo-pool-4p.yaml`` (docs/training/pool.md).

Run (needs ``pip install -e '.[train]'``)::

    python examples/pool_cleanrl.py --envs 64 --steps 64 --iterations 20
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.batched import network_opponent
from tribune_env.envs.vector import TribunePoolVectorEnv


class Agent(nn.Module):
    def __init__(self, obs_size: int, n_actions: int, width: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, width), nn.ReLU())
        self.pi = nn.Linear(width, n_actions)
        self.v = nn.Linear(width, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        return self.pi(h).masked_fill(~mask, -1e9), self.v(h)[:, 0]


def log_probs(logits: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
    """The log-probability of each row's action under its masked logits."""
    return torch.log_softmax(logits, -1).gather(1, action[:, None])[:, 0]


def entropy(logits: torch.Tensor) -> torch.Tensor:
    """Each row's entropy (masked actions, at -1e9, contribute nothing)."""
    logp = torch.log_softmax(logits, -1)
    return -(logp.exp() * logp).sum(-1)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--steps", type=int, default=64, help="steps per rollout (each one learner decision per game)")
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="agents/models/ppo-4p.npz")
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = TribunePoolVectorEnv(args.envs, players=4, opponents=[network_opponent(args.opponent, seed=args.seed)])
    obs_size, n_actions = int(np.prod(env.single_observation_space.shape or (0,))), int(env.single_action_space.n)  # type: ignore[attr-defined]
    agent = Agent(obs_size, n_actions)
    optim = torch.optim.Adam(agent.parameters(), lr=args.lr)
    obs, info = env.reset(seed=args.seed)
    mask = info["action_mask"]
    n, t_max = args.envs, args.steps
    wins = games = 0
    start = time.perf_counter()
    for _ in range(args.iterations):
        buf_obs = np.zeros((t_max, n, obs_size), np.float32)
        buf_mask = np.zeros((t_max, n, n_actions), bool)
        buf_act = np.zeros((t_max, n), np.int64)
        buf_logp = np.zeros((t_max, n), np.float32)
        buf_val = np.zeros((t_max, n), np.float32)
        buf_rew = np.zeros((t_max, n), np.float32)
        buf_done = np.zeros((t_max, n), bool)
        for t in range(t_max):
            with torch.no_grad():
                logits, value = agent(torch.from_numpy(obs), torch.from_numpy(mask))
                action = torch.multinomial(torch.softmax(logits, -1), 1)[:, 0]
            buf_obs[t], buf_mask[t], buf_act[t] = obs, mask, action.numpy()
            buf_logp[t], buf_val[t] = log_probs(logits, action).numpy(), value.numpy()
            obs, reward, terminated, truncated, info = env.step(action.numpy())
            mask = info["action_mask"]
            buf_rew[t], buf_done[t] = reward, terminated | truncated
            wins += int((reward[buf_done[t]] > 0).sum())
            games += int(buf_done[t].sum())
        with torch.no_grad():
            _, last_value = agent(torch.from_numpy(obs), torch.from_numpy(mask))
        adv = np.zeros((t_max, n), np.float32)
        carry = np.zeros(n, np.float32)
        next_value = last_value.numpy()
        for t in reversed(range(t_max)):  # gamma 1, lambda 0.95; a finished game does not look past its end
            alive = 1.0 - buf_done[t]
            delta = buf_rew[t] + next_value * alive - buf_val[t]
            carry = delta + 0.95 * alive * carry
            adv[t], next_value = carry, buf_val[t]
        ret = adv + buf_val
        flat = [torch.from_numpy(a.reshape(t_max * n, *a.shape[2:])) for a in
                (buf_obs, buf_mask, buf_act, buf_logp, adv, ret)]
        b_obs, b_mask, b_act, b_logp, b_adv, b_ret = flat
        for _ in range(args.epochs):
            order = torch.randperm(t_max * n)
            for start_row in range(0, t_max * n, 1024):
                idx = order[start_row : start_row + 1024]
                logits, value = agent(b_obs[idx], b_mask[idx])
                ratio = (log_probs(logits, b_act[idx]) - b_logp[idx]).exp()
                a = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                loss = torch.max(-a * ratio, -a * ratio.clamp(0.8, 1.2)).mean()
                loss = loss + 0.5 * ((value - b_ret[idx]) ** 2).mean() - 0.01 * entropy(logits).mean()
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optim.step()
    seconds = time.perf_counter() - start
    steps = args.iterations * t_max * n
    summary = {"learner_steps": steps, "games": games, "win_rate": wins / max(games, 1),
               "steps_per_s": steps / seconds}
    print(summary)
    return summary


if __name__ == "__main__":
    main()
