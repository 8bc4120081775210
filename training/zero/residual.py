"""Does a placement head that scores each space from that space's own features learn the search's overrules with
less drift than one over the whole observation? (issue 44)

    python -m training.zero.residual RUN --train 1:30 --test 31:41 --anchors 1,3,10

The run's starting network stays frozen. At the positions of the shards where its own choice is a follower placement
(the codec's ``place`` block, two or more spaces legal), a trained residual is added to its logits over the
placements, by one of three heads:

* ``generic``: one hidden layer of 64 over the observation, one output per space: a head of the network's own kind;
* ``action``: one small network shared by all spaces, over the start's last hidden layer (through a layer of 32),
  a learned embedding of the space (8 numbers) and the space's occupants by relative seat (the observation's
  ``spaces`` entries of that space): an action-conditioned head, whose weights every space shares;
* ``features``: the ``action`` head with richer features of each space gathered from the observation
  (:func:`space_features`): the followers of each relative seat in the space's region or faction, the face-up cards
  of the region's fields and how many lie face down there, and for a faction space each seat's control and
  markers of that faction, its first-controller laurel and whether it holds the chariot.

Each starts at zero (the start's choices), and is trained with Adam (``--epochs`` passes, minibatches of 256,
seeded) on the cross-entropy of the clear labels that overrule the start (a search gain of ``--margin`` or more,
:func:`~training.zero.offline.clear_rows`, on another action than the start's own choice) plus ``anchor`` times
the KL divergence of the policy from the start's at every placement position. For each head and anchor it prints,
on the shards ``--train`` and on the shards ``--test`` (games it never saw), the share of those labels whose action
the network now chooses (``learned``) and the share of the other positions where its choice left the start's
(``moved``): a head that generalises the labels and not the interference learns more at the same drift on the
unseen shards.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from agents.ppo import NumpyPolicy, space_of
from training.zero.offline import clear_rows, disjoint_spans, run_config, shard_positions, shard_span, snapshot
from tribune_env.codec import codec_for
from tribune_env.codec.observation import ObservationEncoder, encoder_for

MASKED = -1e9
HEADS = ("generic", "action", "features")


@dataclass(frozen=True)
class Layout:
    """Where the placements sit in the action space and their spaces' occupants in the observation."""

    place: int  # the first action of the place block
    spaces: int  # how many placements (follower spaces of the base board)
    occupants: int  # the first observation entry of the spaces piece
    seats: int  # entries per space (relative seats)
    gather: np.ndarray  # obs_size x spaces x features: which observation entries sum to each space feature

    @classmethod
    def of(cls, policy: NumpyPolicy, run: Path) -> Layout:
        config = run_config(run).game
        space = space_of(policy)
        block = next(b for b in codec_for(config.components, space).blocks if b.name == "place")
        encoder = encoder_for(config.components, config.round_limit, space)
        piece = next(p for p in encoder.pieces if p.name == "spaces")
        gather = space_features(encoder)[:, :block.size]
        return cls(block.start, block.size, piece.start, encoder.max_players, gather)


def space_features(encoder: ObservationEncoder) -> np.ndarray:
    """An ``obs_size x spaces x F`` matrix of zeros and ones: ``obs @ matrix`` gives each follower space ``F``
    features, in this order: the followers of each relative seat on the spaces of the space's region (or of its
    faction, for a faction space); the face-up cards of the region's fields, per card type, and the cards face down
    there; for a faction space, each relative seat's control and markers of the faction, the faction's
    first-controller laurel and the chariot on it. Features a space has no use for stay zero."""
    seats, cards = encoder.max_players, encoder.tables.num_card_types
    at = {p.name: p.start for p in encoder.pieces}
    player = dict(zip((name for name, _, _ in encoder.per_player), encoder.player_field_offset, strict=True))
    spaces = encoder.tables.spaces
    width = seats + cards + 1 + 2 * seats + 2
    matrix = np.zeros((encoder.size, len(spaces), width), np.float32)
    for s, spec in enumerate(spaces):
        group = [o.id for o in spaces if spec.kind == o.kind and (spec.region, spec.faction) == (o.region, o.faction)]
        for other in group:
            for seat in range(seats):
                matrix[at["spaces"] + other * seats + seat, s, seat] = 1
        f = seats
        for slot, (region, _) in enumerate(encoder.fields):
            if spec.region is not None and region == spec.region:
                for card in range(cards):
                    matrix[at["board"] + slot * cards + card, s, f + card] = 1
                matrix[at["board_hidden"] + slot, s, f + cards] = 1
        f += cards + 1
        if spec.faction is not None:
            for seat in range(seats):
                block = at["players"] + seat * encoder.player_size
                matrix[block + player["controls"] + spec.faction, s, f + seat] = 1
                matrix[block + player["markers"] + spec.faction, s, f + seats + seat] = 1
            matrix[at["first_laurel"] + spec.faction, s, f + 2 * seats] = 1
            matrix[at["chariot"] + spec.faction, s, f + 2 * seats + 1] = 1
    return matrix


@dataclass
class Placements:
    """The placement positions of some shards as tensors (see :func:`placements`)."""

    obs: torch.Tensor  # float32 observations
    hidden: torch.Tensor  # the start's last hidden layer
    start: torch.Tensor  # the start's logits over the placements
    masks: torch.Tensor  # legal placements
    occupants: torch.Tensor  # rows x spaces x seats
    features: torch.Tensor  # rows x spaces x F (:func:`space_features`)
    clear: torch.Tensor  # bool: a clear label on a placement
    labels: torch.Tensor  # the clear label's placement (0 elsewhere)

    def __len__(self) -> int:
        return len(self.clear)

    def take(self, rows: torch.Tensor) -> Placements:
        return Placements(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))


def placements(run: Path, first: int, last: int, margin: float, start: NumpyPolicy, layout: Layout) -> Placements:
    """The positions of the run's shards ``first..last`` where ``start``'s choice is a placement with two or more
    legal, less the clear labels on another kind of action (a placement head cannot choose those); ``clear``: the
    clear labels on another placement than ``start``'s choice."""
    part = shard_positions(run, first, last)
    obs = part.obs.astype(np.float32)
    hidden = start.hidden(obs)
    logits = start.logits_of_hidden(hidden)
    chosen = np.where(part.masks, logits, -np.inf).argmax(axis=1)
    lo, hi = layout.place, layout.place + layout.spaces
    label = part.targets.astype(np.float32).argmax(axis=1)
    clear = clear_rows(part, margin) & (label != chosen)  # overrules of the start (its own choice learns nothing)
    keep = (chosen >= lo) & (chosen < hi) & (part.masks[:, lo:hi].sum(axis=1) >= 2)
    keep &= ~clear | ((label >= lo) & (label < hi))
    rows = np.flatnonzero(keep)
    kept = obs[rows]  # the kept rows once: occupants, features and the head's input read them
    occupants = kept[:, layout.occupants:layout.occupants + layout.spaces * layout.seats]
    features = (kept @ layout.gather.reshape(obs.shape[1], -1)).reshape(len(rows), layout.spaces, -1)

    def tensor(values: np.ndarray) -> torch.Tensor:
        return torch.as_tensor(np.ascontiguousarray(values))

    return Placements(tensor(kept), tensor(hidden[rows].astype(np.float32)),
                      tensor(logits[rows, lo:hi].astype(np.float32)), tensor(part.masks[rows, lo:hi]),
                      tensor(occupants.reshape(len(rows), layout.spaces, layout.seats)), tensor(features),
                      tensor(clear[rows]),
                      tensor(np.where(clear[rows], label[rows] - lo, 0)))


class GenericHead(nn.Module):
    """One hidden layer over the observation, a residual logit per space."""

    def __init__(self, obs_size: int, spaces: int) -> None:
        super().__init__()
        self.hidden = nn.Linear(obs_size, 64)
        self.out = nn.Linear(64, spaces)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, data: Placements) -> torch.Tensor:
        out: torch.Tensor = self.out(torch.relu(self.hidden(data.obs)))
        return out


class ActionHead(nn.Module):
    """One network shared by the spaces, over (state, space embedding, the space's own entries): a logit per space.
    The space's entries are its occupants, or with ``rich`` its :func:`space_features` as well."""

    def __init__(self, hidden_size: int, spaces: int, own: int, rich: bool = False) -> None:
        super().__init__()
        self.rich = rich
        self.state = nn.Linear(hidden_size, 32)
        self.embedding = nn.Embedding(spaces, 8)
        last = nn.Linear(32, 1)
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
        self.score = nn.Sequential(nn.Linear(32 + 8 + own, 32), nn.ReLU(), last)

    def forward(self, data: Placements) -> torch.Tensor:
        rows, spaces = data.masks.shape
        state = torch.relu(self.state(data.hidden))[:, None, :].expand(rows, spaces, -1)
        embedding = self.embedding.weight[None].expand(rows, spaces, -1)
        own = [data.occupants, data.features] if self.rich else [data.occupants]
        out: torch.Tensor = self.score(torch.cat([state, embedding, *own], dim=-1))[..., 0]
        return out


def make_head(kind: str, data: Placements, seed: int = 0) -> nn.Module:
    """A head of ``kind`` for ``data``'s sizes, its weights drawn from ``seed``."""
    torch.manual_seed(seed)
    if kind == "generic":
        return GenericHead(data.obs.shape[1], data.masks.shape[1])
    own = data.occupants.shape[2] + (data.features.shape[2] if kind == "features" else 0)
    return ActionHead(data.hidden.shape[1], data.masks.shape[1], own, rich=kind == "features")


def log_policy(head: nn.Module, data: Placements) -> torch.Tensor:
    """The masked log-softmax of the start's logits plus the head's residual."""
    return torch.log_softmax((data.start + head(data)).masked_fill(~data.masks, MASKED), dim=-1)


def train_head(head: nn.Module, data: Placements, anchor: float, epochs: int, seed: int) -> nn.Module:
    """Fit ``head`` (see the module docstring); the same ``seed`` gives the same order of minibatches."""
    generator = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.Adam(head.parameters(), lr=1e-3)
    start = torch.softmax(data.start.masked_fill(~data.masks, MASKED), dim=-1)
    start_log = torch.log(start.clamp_min(1e-12))
    for _ in range(epochs):
        order = torch.randperm(len(data), generator=generator)
        for first in range(0, len(data), 256):
            rows = order[first:first + 256]
            batch = data.take(rows)
            logp = log_policy(head, batch)
            clear = batch.clear
            cross = -logp[clear, batch.labels[clear]].sum() / max(1, int(clear.sum()))
            kl = (start[rows] * (start_log[rows] - logp)).sum(dim=-1).mean()
            loss = cross + anchor * kl
            optimiser.zero_grad()
            torch.autograd.backward(loss)
            optimiser.step()
    return head.eval()


def learned_and_moved(head: nn.Module, data: Placements) -> tuple[float, float]:
    """The share of clear labels now chosen, and of the other positions whose choice left the start's."""
    with torch.no_grad():
        choice = log_policy(head, data).argmax(dim=-1)
    start = data.start.masked_fill(~data.masks, MASKED).argmax(dim=-1)
    clear = data.clear
    learned = float((choice[clear] == data.labels[clear]).float().mean()) if clear.any() else float("nan")
    moved = float((choice[~clear] != start[~clear]).float().mean()) if (~clear).any() else float("nan")
    return learned, moved


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.zero.residual", description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--train", type=shard_span, required=True, metavar="A:B")
    parser.add_argument("--test", type=shard_span, required=True, metavar="C:D")
    parser.add_argument("--anchors", type=lambda t: [float(a) for a in t.split(",")], default=[1.0, 3.0, 10.0],
                        metavar="A1,A2", help="anchor weights to try")
    parser.add_argument("--heads", type=lambda t: t.split(","), default=list(HEADS), metavar="generic,action,features")
    parser.add_argument("--margin", type=float, default=0.1, help="the least gain of a clear label")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    disjoint_spans(args.train, args.test)
    (a, b), (c, d) = args.train, args.test
    if unknown := [h for h in args.heads if h not in HEADS]:
        raise SystemExit(f"--heads: unknown {', '.join(unknown)} (expected {', '.join(HEADS)})")
    if args.epochs < 1 or args.threads < 1 or any(w < 0 for w in args.anchors):
        raise SystemExit("--epochs and --threads must be at least 1, the anchors at least 0")
    torch.set_num_threads(args.threads)
    start = snapshot(args.run, 0)
    layout = Layout.of(start, args.run)
    train = placements(args.run, a, b, args.margin, start, layout)
    test = placements(args.run, c, d, args.margin, start, layout)
    if not train.clear.any():
        raise SystemExit(f"{args.run}: no clear placement labels in shards {a}..{b} to train on")
    print(f"placement positions: shards {a}..{b} {len(train):,} ({int(train.clear.sum()):,} clear), "
          f"shards {c}..{d} {len(test):,} ({int(test.clear.sum()):,} clear)")
    print(f"{'head':8s} {'anchor':>6s} {'learned':>8s} {'moved':>7s} {'learned':>8s} {'moved':>7s}")
    print(f"{'':15s} {'(shards ' + str(a) + '..' + str(b) + ')':>16s} {'(shards ' + str(c) + '..' + str(d) + ')':>16s}")
    for anchor in args.anchors:
        for kind in args.heads:
            head = train_head(make_head(kind, train, args.seed), train, anchor, args.epochs, args.seed)
            seen, unseen = learned_and_moved(head, train), learned_and_moved(head, test)
            print(f"{kind:8s} {anchor:6g} {seen[0]:8.1%} {seen[1]:7.1%} {unseen[0]:8.1%} {unseen[1]:7.1%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
