"""How noisy are the search's labels at a given budget? (issue 35: "enough playouts per label ... measure").

    python -m training.zero.label_noise --positions 48 --budgets 32,128,512

Plays base games with the network in one seat among ``heuristic`` ones (the table ``zero-net`` is measured at) and
keeps the network seat's *unsure* decisions (top prior under ``--threshold``, more than one legal choice), the ones
the distillation recipe labels. Each kept position is searched twice, with two independent seeds, at every budget
(``simulations`` playouts over ``--candidates`` candidates, sequential halving, depth ``--depth``, no Gumbel
noise) and the script prints per budget:

* ``agree``: the share of positions where the two searches choose the same action;
* ``overrule``: the share where a search overrules the network by ``--margin`` or more in mean value
  (:func:`training.zero.selfplay.overrules`: a clear label), averaged over the two searches;
* ``both``: the share where both searches overrule with the same action (a label that holds up);
* ``kept``: ``both / overrule``, the share of clear labels the second search confirms;
* ``by top``: the share of clear labels that the largest budget's searches confirm (either of its two searches
  overrules with the same action): how well a cheap search's clear label survives a costly second look;
* ``cpu ms``: CPU milliseconds per search.

Runs on the engine ``TRIBUNE_ENGINE`` chooses (native by default when built).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

import numpy as np

from agents.ppo import load_policy
from agents.specs import make_agent
from agents.zero import Network, SearchResult, ZeroSearch, ZeroSettings, shipped_network
from training.zero.selfplay import overrules
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet


@dataclass
class BudgetNoise:
    """What the two searches of every position found at one budget."""

    budget: int
    positions: int = 0
    agree: int = 0
    overrule: int = 0  # over both searches (out of 2 * positions)
    both: int = 0
    cpu: float = 0.0
    searches: int = 0
    confirmed: int = 0  # clear labels whose action a search at the largest budget overrules with too
    labels: list[list[int | None]] = field(default_factory=list)  # per position, each search's clear label or None

    def line(self) -> str:
        n = max(self.positions, 1)
        mean_overrule = self.overrule / 2 / n
        kept = self.both / (self.overrule / 2) if self.overrule else float("nan")
        top = self.confirmed / self.overrule if self.overrule else float("nan")
        return (f"{self.budget:>6} playouts: agree {self.agree / n:6.1%}  overrule {mean_overrule:6.1%}  "
                f"both {self.both / n:6.1%}  kept {kept:6.1%}  by top {top:6.1%}  "
                f"cpu {1000 * self.cpu / max(self.searches, 1):7.1f} ms")


def unsure_positions(config: GameConfig, net: Network, count: int, threshold: float, seed: int) -> list[Game]:
    """``count`` positions (copies) of the network seat's unsure decisions in games among ``heuristic`` seats."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game.new(config, seed=rng.randrange(2**62))
        seat_of_net = rng.randrange(config.players)
        others = {s: make_agent("heuristic", rng.randrange(2**62)) for s in range(config.players) if s != seat_of_net}
        for s, agent in others.items():
            agent.reset(s, config, rng.randrange(2**62))
        while not game.is_over and len(found) < count:
            seat, legal = game.current_seat, game.legal_actions()
            if seat != seat_of_net:
                single = len(legal) == 1
                game.apply(legal[0] if single else others[seat].act(game.view(seat), legal, InfoSet(game, seat)))
                continue
            obs = net.encoder.encode_game(game, seat)
            mask = net.codec.mask_game(game, seat).astype(bool)
            if mask.sum() > 1:
                prior = SearchResult(seat, -1, net.policy.logits(obs).astype(np.float32), mask).prior
                if float(prior.max()) < threshold and rng.random() < 0.5:  # every other one: positions from more games
                    found.append(game.clone(events=False))
            if mask.any():
                net.best(game, net.policy.logits(obs).astype(np.float32))  # the network's own move
            else:
                game.apply(legal[0])
    return found


def measure(games: list[Game], net: Network, budgets: list[int], candidates: int, depth: int, margin: float,
            seed: int) -> list[BudgetNoise]:
    """Search every position twice at every budget (see the module docstring)."""
    results = []
    for budget in budgets:
        noise = BudgetNoise(budget)
        settings = ZeroSettings(simulations=budget, candidates=candidates, depth=depth, threshold=2.0)
        for i, game in enumerate(games):
            found = []
            for repeat in (1, 2):
                search = ZeroSearch(net, settings, seed * 1_000_003 + 7919 * i + repeat)
                start = time.process_time()
                result = search.run(InfoSet(game, game.current_seat, net.space),
                                    random.Random(seed * 998_244_353 + 104_729 * i + repeat))
                noise.cpu += time.process_time() - start
                noise.searches += 1
                found.append((result.index, overrules(result, margin)))
            (a, clear_a), (b, clear_b) = found
            noise.positions += 1
            noise.agree += a == b
            noise.overrule += clear_a + clear_b
            noise.both += clear_a and clear_b and a == b
            noise.labels.append([index if clear else None for index, clear in found])
        results.append(noise)
    top = results[-1]
    for noise in results:
        for mine, theirs in zip(noise.labels, top.labels, strict=True):
            noise.confirmed += sum(label is not None and label in theirs for label in mine)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=48)
    parser.add_argument("--budgets", default="32,128,512", help="playouts per search, comma-separated")
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--depth", type=int, default=32)
    parser.add_argument("--margin", type=float, default=0.12)
    parser.add_argument("--threshold", type=float, default=0.95)
    parser.add_argument("--network", default=None,
                        help="an .npz (default: the network zero and zero-net play, agents.zero.shipped_network)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    config = GameConfig(players=4)
    net = Network(load_policy(args.network or shipped_network(config.rules)), config)
    games = unsure_positions(config, net, args.positions, args.threshold, args.seed)
    print(f"{len(games)} unsure positions ({games[0].engine} engine); {args.candidates} candidates, depth "
          f"{args.depth}, margin {args.margin}")
    for noise in measure(games, net, [int(b) for b in args.budgets.split(",")], args.candidates, args.depth,
                         args.margin, args.seed):
        print(noise.line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
