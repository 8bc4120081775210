"""A network distilled from ``heuristic``: the batched stand-in for the Python heuristic in the pool's seats.

The Python ``heuristic`` costs about 222 µs a decision plus about 100 µs for the engine's view: seated beside the
pool, three of them bound a trainer to a few thousand decisions per second. A network that copies its choices plays
in one batched forward. :func:`fit` trains a :class:`~training.pool.network.PolicyNet` on heuristic decisions
(:func:`training.imitation.collect`: the heuristic in every seat; cross-entropy of its action under the masked
policy, plus the squared error of the critic against the game's ``win_loss`` result) and reports the agreement
(how often the masked argmax is the heuristic's choice) on decisions of held-out games.

    python -m training.pool.distill --games 9600 --epochs 4 --threads 2 --out training/pool/models/heuristic-4p.npz

``--expansion`` copies the expansion ``heuristic`` in expansion games (the expansion spaces and observation).

(about 5.4 GB of float16 observations in memory for 9,600 games: ``--keep`` or ``--games`` lower it.)
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from training.imitation import Demonstrations, collect
from training.pool.network import PolicyNet, masked
from tribune_env.codec import Space, codec_for, encoder_for
from tribune_env.engine.config import GameConfig


@dataclass(frozen=True)
class DistillResult:
    """A fitted network and how well it copies the teacher: agreement on held-out and on training decisions."""

    net: PolicyNet
    held_out_agreement: float
    train_agreement: float
    held_out: int
    trained_on: int
    seconds: float


def split(data: Demonstrations, held_share: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices of training and held-out rows: the last ``held_share`` of the rows (the last games collected, so no
    game is on both sides)."""
    n = len(data)
    held = max(1, int(n * held_share))
    return np.arange(n - held), np.arange(n - held, n)


def agreement(net: PolicyNet, data: Demonstrations, rows: np.ndarray, batch: int = 4096) -> float:
    """The share of ``rows`` where the network's masked argmax is the teacher's action."""
    hits = 0
    net.eval()
    with torch.no_grad():
        for start in range(0, len(rows), batch):
            idx = rows[start : start + batch]
            logits = net.logits(torch.from_numpy(data.obs[idx].astype(np.float32)))
            best = masked(logits, torch.from_numpy(data.masks[idx])).argmax(1).numpy()
            hits += int((best == data.actions[idx]).sum())
    return hits / max(len(rows), 1)


def rate_factor(step: int, total_steps: int, anneal: bool) -> float:
    """The learning rate's share at optimizer ``step`` of ``total_steps``: 1, or falling linearly to 0 (``anneal``)."""
    return max(0.0, 1.0 - step / max(total_steps, 1)) if anneal else 1.0


def fit(
    data: Demonstrations,
    net: PolicyNet,
    epochs: int = 6,
    batch_size: int = 512,
    learning_rate: float = 1e-3,
    value_coef: float = 0.5,
    held_share: float = 0.05,
    seed: int = 0,
    log: bool = True,
    on_epoch: Callable[[int, float], None] | None = None,
    anneal: bool = False,
) -> DistillResult:
    """Fit ``net`` to ``data`` (module docstring); Adam, ``epochs`` passes, rows shuffled with ``seed``;
    ``anneal``: the learning rate falls linearly from ``learning_rate`` to zero over the ``epochs`` passes."""
    start = time.perf_counter()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    train, held = split(data, held_share)
    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate)
    total_steps = epochs * -(-len(train) // batch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: rate_factor(step, total_steps, anneal))
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(train)
        losses = []
        for lo in range(0, len(order), batch_size):
            idx = np.sort(order[lo : lo + batch_size])
            obs = torch.from_numpy(data.obs[idx].astype(np.float32))
            logits, value = net(obs)
            logp = torch.log_softmax(masked(logits, torch.from_numpy(data.masks[idx])), 1)
            policy_loss = -logp.gather(1, torch.from_numpy(data.actions[idx])[:, None]).mean()
            value_loss = ((value - torch.from_numpy(data.returns[idx])) ** 2).mean()
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            losses.append(float(policy_loss.detach()))
        held_agreement = agreement(net, data, held)
        if log:
            print(f"epoch {epoch + 1}: policy loss {np.mean(losses):.3f}, held-out agreement "
                  f"{held_agreement:.1%} ({time.perf_counter() - start:.0f} s)", flush=True)
        if on_epoch is not None:
            on_epoch(epoch + 1, held_agreement)
    sample = train[rng.permutation(len(train))[: len(held)]]
    return DistillResult(net, agreement(net, data, held), agreement(net, data, sample), len(held), len(train),
                         time.perf_counter() - start)


def load_demonstrations(path: Path) -> Demonstrations:
    """Demonstrations saved by :func:`save_demonstrations`."""
    with np.load(path) as npz:
        return Demonstrations(npz["obs"], npz["masks"], npz["actions"], npz["returns"])


def save_demonstrations(data: Demonstrations, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, obs=data.obs, masks=data.masks, actions=data.actions, returns=data.returns)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.pool.distill``: collect heuristic decisions (or read them), fit, export the ``.npz``."""
    p = argparse.ArgumentParser(prog="python -m training.pool.distill", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, help="demonstrations saved before (.npz); else collect --games games")
    p.add_argument("--games", type=int, default=9600)
    p.add_argument("--keep", type=float, default=0.5)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--expansion", action="store_true",
                   help="expansion games: the expansion heuristic, the expansion spaces and observation")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--first-width", type=int, default=256)
    p.add_argument("--hidden", type=int, nargs="*", default=[128])
    p.add_argument("--first-layer", choices=["dense", "sparse"], default="dense",
                   help="sparse: the first layer over the observation's nonzero entries (the same function, faster)")
    p.add_argument("--learning-rate", type=float, default=1e-3)
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--anneal", action="store_true", help="the learning rate falls linearly to zero over the epochs")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=4343)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    config = GameConfig(players=args.players, expansion=args.expansion)
    t0 = time.perf_counter()
    if args.data and args.data.exists():
        data = load_demonstrations(args.data)
        collect_s = None
    else:
        data = collect("heuristic", config, args.games, args.seed, args.keep, "win_loss", args.workers)
        collect_s = time.perf_counter() - t0
        if args.data:
            save_demonstrations(data, args.data)
    space = Space.for_rules(config.rules)
    encoder = encoder_for(config.components, config.round_limit, space)
    codec = codec_for(config.components, space)
    net = PolicyNet(encoder.size, codec.n, args.first_width, args.hidden, "relu", args.first_layer)
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def save(epoch: int, held: float) -> None:  # each epoch's network, so that a stopped fit leaves one
        partial = {"trained_by": "training.pool.distill (imitation of heuristic)", "epochs_done": epoch,
                   "held_out_agreement": round(held, 4), "decisions": len(data)}
        net.to_numpy_policy(encoder, codec, {"distilled": partial}).save_npz(args.out, "float16")

    result = fit(data, net, epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.learning_rate,
                 seed=args.seed, on_epoch=save, anneal=args.anneal)
    info = {
        "trained_by": "training.pool.distill (imitation of heuristic)",
        "teacher": "heuristic",
        "rules": config.rules.value,
        "decisions": len(data),
        "held_out_agreement": round(result.held_out_agreement, 4),
        "train_agreement": round(result.train_agreement, 4),
        "fit_seconds": round(result.seconds, 1),
        "collect_seconds": None if collect_s is None else round(collect_s, 1),
        "epochs": args.epochs,
        "network": {"first_width": args.first_width, "hidden": args.hidden},
        "learning_rate": args.learning_rate,
        "anneal": args.anneal,
        "threads": args.threads,
        "device": "cpu",
    }
    net.to_numpy_policy(encoder, codec, {"distilled": info}).save_npz(args.out, "float16")
    print(json.dumps(info))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
