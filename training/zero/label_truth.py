"""Are the search's clear labels real at the table the network is measured at? (issue 44)

    python -m training.zero.label_truth --positions 120 --rollouts 32 --others training/pool/models/heuristic-4p.npz

Plays base games (``--expansion``: expansion games) with the network in one seat among ``heuristic`` ones (the
table ``zero-net`` is measured at) and searches the network seat's *unsure* decisions (top prior under
``--threshold``) as the self-play recipe does (``--simulations`` playouts over ``--candidates`` candidates, depth
``--depth``, the opponent model ``--others`` playing the playouts' other seats, no Gumbel noise). Where the search
overrules the network by ``--margin`` or more in mean value (:func:`~training.zero.selfplay.overrules`; with
``--confirm N``, only where a second search of N playouts overrules with the same action, as ``selfplay.confirm``
does), the position is kept with the search's claimed gain, and the game goes on with the network's move.

Each kept position is then played out ``--rollouts`` times from its **true** state (every hand as dealt, only the
chance of future draws drawn afresh), once after the search's choice and once after the network's own, with the
same chance and the same ``heuristic`` seeds for both (common random numbers): the network plays its seat on, the
real ``heuristic`` the others. The mean difference of the seat's final ``win_loss`` is the label's **true gain**.
A label is real when its true gain is positive; the search's claimed gains should match the true ones on average.

``--versus NETWORK`` measures another network's choices instead of the search's: at every decision of the seat
where ``NETWORK``'s most probable legal action differs from the network's, that action is played out against the
network's own as above (the network plays the seat on in both branches, and its move is the one the game goes on
with). So each such position's true gain is what that one changed choice is worth, and their sum over a game is, to
first order, the difference in win-loss between the two networks at this table; per kind of decision it shows where
a trained network's changes gain and where they lose.

It prints, per kind of decision and in all: the positions, the mean claimed gain, the mean true gain with its
standard error, and the share whose true gain is positive. Runs on the engine ``TRIBUNE_ENGINE`` chooses.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.base import Agent
from agents.ppo import CheckpointError, check_fits, load_policy
from agents.specs import make_agent
from agents.zero import Network, SearchResult, ZeroSearch, ZeroSettings, shipped_network
from training.zero.selfplay import confirming_search, confirms, overrules, search_gain
from tribune_arena.tournament.schedule import derive_seed
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.rewards import win_loss


@dataclass(frozen=True)
class TruthJob:
    """One worker's share: ``positions`` clear labels found from ``seed`` and played out."""

    network: str
    others: str | None
    game: GameConfig
    settings: ZeroSettings
    margin: float
    confirm: int
    positions: int
    rollouts: int
    seed: int
    versus: str | None = None  # another network: measure its changed choices instead of the search's labels


@dataclass(frozen=True)
class Label:
    """A clear label and what playing it out found."""

    kind: str  # the action block of the search's choice
    claimed: float  # the search's gain over the network's own choice
    true: float  # the mean true gain over the rollouts
    spread: float  # the standard deviation of the rollouts' differences


def _heuristics(config: GameConfig, seat: int, rng: random.Random) -> dict[int, Agent]:
    agents = {s: make_agent("heuristic", rng.randrange(2**62)) for s in range(config.players) if s != seat}
    for s, agent in agents.items():
        agent.reset(s, config, rng.randrange(2**62))
    return agents


def _play_out(game: Game, seat: int, net: Network, agents: dict[int, Agent]) -> float:
    """Play ``game`` to its end (the network in ``seat``, ``agents`` elsewhere); the seat's ``win_loss``."""
    while not game.is_over:
        current, legal = game.current_seat, game.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
        elif current == seat:
            net.best(game, net.policy.logits(net.encoder.encode_game(game, seat)).astype(np.float32))
        else:
            game.apply(agents[current].act(game.view(current), legal, InfoSet(game, current)))
    return win_loss(game)[seat]


def true_gain(game: Game, seat: int, net: Network, choice: int, own: int, rollouts: int,
              seed: int) -> tuple[float, float]:
    """The mean and standard deviation over ``rollouts`` of the seat's result after ``choice`` minus that after
    ``own`` (action indices of ``net``'s codec), from ``game``'s true state with fresh chance per rollout and the
    same chance and opponents' seeds for both actions."""
    rng = random.Random(seed)
    differences = []
    for _ in range(rollouts):
        chance, opponents = rng.getrandbits(63), rng.randrange(2**62)
        results = []
        for index in (choice, own):
            state = game.position().clone(events=False)
            state.chance = chance
            branch = Game.from_state(state)
            branch.apply(net.codec.decode(index, seat, game.num_players))
            results.append(_play_out(branch, seat, net, _heuristics(game.config, seat, random.Random(opponents))))
        differences.append(results[0] - results[1])
    values = np.asarray(differences)
    return float(values.mean()), float(values.std(ddof=1)) if rollouts > 1 else 0.0


def _confirmed(job: TruthJob, net: Network, others: Network | None, game: Game, seat: int, result: SearchResult,
               seed: int) -> bool:
    if not job.confirm:
        return True
    confirmer = confirming_search(job.settings, job.confirm, net, others, seed)
    return confirms(confirmer, result, InfoSet(game, seat, net.space), job.margin)[0]


def favourite(net: Network, game: Game, seat: int) -> int:
    """``net``'s most probable legal action (its codec's index) for ``seat`` in ``game``; -1 when the codec
    expresses none of the legal actions (only bids above its cap)."""
    mask = net.codec.mask_game(game, seat)
    if not mask.any():
        return -1
    logits = net.policy.logits(net.encoder.encode_game(game, seat)).astype(np.float64)
    return int(np.argmax(np.where(mask, logits, -np.inf)))


def network_turns(config: GameConfig, rng: random.Random, done: Callable[[], bool],
                  games: int | None = None) -> Iterator[tuple[Game, int]]:
    """Games of one network seat among ``heuristic`` ones, drawn from ``rng``: yields ``(game, seat)`` at each of the
    seat's decisions with more than one legal action (the caller then plays the seat's move), and plays the other
    moves itself, until ``done()`` or after ``games`` games (None: no limit)."""
    played = 0
    while not done() and (games is None or played < games):
        played += 1
        game = Game.new(config, seed=rng.randrange(2**62))
        seat = rng.randrange(config.players)
        agents = _heuristics(config, seat, rng)
        while not game.is_over and not done():
            current, legal = game.current_seat, game.legal_actions()
            if current != seat or len(legal) == 1:
                game.apply(legal[0] if len(legal) == 1 else agents[current].act(game.view(current), legal,
                                                                                   InfoSet(game, current)))
                continue
            yield game, seat


def find_and_compare(job: TruthJob) -> list[Label]:
    """Find ``job.positions`` decisions where the ``versus`` network chooses otherwise than the network, in games of
    the network among ``heuristic`` seats, and play the two choices out (``claimed`` is NaN: nothing claims a gain).
    Gives up after ``10 * positions + 10`` games (two networks that hardly ever differ), with what it found."""
    assert job.versus is not None
    config = job.game
    net, other = Network(load_policy(job.network), config), Network(load_policy(job.versus), config)
    rng = random.Random(job.seed)
    labels: list[Label] = []
    for game, seat in network_turns(config, rng, lambda: len(labels) >= job.positions, 10 * job.positions + 10):
        own, theirs = favourite(net, game, seat), favourite(other, game, seat)
        if own < 0:
            game.apply(game.legal_actions()[0])  # only bids above the codec's cap: the smallest, as Network.best plays
            continue
        if own != theirs:
            mean, spread = true_gain(game, seat, net, theirs, own, job.rollouts, rng.randrange(2**62))
            labels.append(Label(net.codec.block_of(own).name, float("nan"), mean, spread))
        game.apply(net.codec.decode(own, seat, config.players))
    return labels


def measure(job: TruthJob) -> list[Label]:
    """:func:`find_and_compare` when the job names a ``versus`` network, else :func:`find_and_measure`."""
    return find_and_measure(job) if job.versus is None else find_and_compare(job)


def find_and_measure(job: TruthJob) -> list[Label]:
    """Find ``job.positions`` clear labels in games of the network among ``heuristic`` seats and play each out."""
    config = job.game
    net = Network(load_policy(job.network), config)
    others = None if job.others is None else Network(load_policy(job.others), config)
    rng = random.Random(job.seed)
    search = ZeroSearch(net, job.settings, rng.randrange(2**62), others)
    labels: list[Label] = []
    for game, seat in network_turns(config, rng, lambda: len(labels) >= job.positions):
        result = search.run(InfoSet(game, seat, net.space), rng)
        if overrules(result, job.margin) and _confirmed(job, net, others, game, seat, result, rng.randrange(2**62)):
            mean, spread = true_gain(game, seat, net, result.index, result.favourite, job.rollouts,
                                     rng.randrange(2**62))
            labels.append(Label(net.codec.block_of(result.index).name, search_gain(result), mean, spread))
        game.apply(net.codec.decode(result.favourite, seat, config.players))
    return labels


def summary(labels: list[Label]) -> list[str]:
    """Per kind of decision and in all: positions, claimed gain, true gain (standard error), and the shares whose
    true gain is above 0 (``real``) and below it (``worse``)."""
    lines = [f"{'decision':12s} {'labels':>6s} {'claimed':>8s} {'true':>8s} {'(s.e.)':>7s} {'real':>6s} {'worse':>6s}"]
    kinds = sorted({label.kind for label in labels}, key=lambda k: -sum(label.kind == k for label in labels))
    for name, group in [*((k, [label for label in labels if label.kind == k]) for k in kinds), ("all", labels)]:
        true = np.array([label.true for label in group])
        error = float(true.std(ddof=1) / np.sqrt(len(true))) if len(true) > 1 else float("nan")
        claims = [label.claimed for label in group if not np.isnan(label.claimed)]
        claimed = f"{np.mean(claims):8.3f}" if claims else f"{'-':>8s}"
        lines.append(f"{name:12s} {len(group):6d} {claimed} {float(true.mean()):8.3f} {error:7.3f} "
                     f"{float(np.mean(true > 0)):6.1%} {float(np.mean(true < 0)):6.1%}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=120, help="clear labels to play out, over all workers")
    parser.add_argument("--rollouts", type=int, default=32, help="play-outs per label and action")
    parser.add_argument("--simulations", type=int, default=256)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--depth", type=int, default=32)
    parser.add_argument("--threshold", type=float, default=0.95)
    parser.add_argument("--margin", type=float, default=0.1)
    parser.add_argument("--confirm", type=int, default=0, help="playouts of a confirming search (0: none)")
    parser.add_argument("--others", default=None, help="the opponent model of the playouts (default: none)")
    parser.add_argument("--network", default=None, help="an .npz (default: the network zero-net plays)")
    parser.add_argument("--versus", default=None, metavar="NETWORK",
                        help="measure where this network chooses otherwise than --network, instead of the search")
    parser.add_argument("--expansion", action="store_true", help="expansion games (default: base games)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.positions < 1 or args.rollouts < 2 or args.workers < 1:
        parser.error("--positions and --workers must be at least 1, --rollouts at least 2")
    for path in (args.network, args.others, args.versus):
        if path is not None and not Path(path).is_file():
            parser.error(f"no such network: {path}")
    config = GameConfig(players=4, expansion=args.expansion)
    network = args.network or str(shipped_network(config.rules))
    for path in (network, args.others, args.versus):
        if path is None:
            continue
        try:
            check_fits(load_policy(path), config)
        except CheckpointError as exc:
            parser.error(str(exc))
    settings = ZeroSettings(simulations=args.simulations, candidates=args.candidates, depth=args.depth,
                            threshold=args.threshold, explore=False)
    shares = [args.positions // args.workers + (w < args.positions % args.workers) for w in range(args.workers)]
    jobs = [TruthJob(network, args.others, config, settings, args.margin, args.confirm, share, args.rollouts,
                     derive_seed(args.seed, "label-truth", w), args.versus)
            for w, share in enumerate(shares) if share]
    if len(jobs) == 1:
        found = measure(jobs[0])
    else:
        context = multiprocessing.get_context("forkserver")
        with ProcessPoolExecutor(len(jobs), mp_context=context) as pool:
            found = [label for part in pool.map(measure, jobs) for label in part]
    if args.versus is not None:
        print(f"{len(found)} decisions where {args.versus} chooses otherwise than {network} in {config.rules.value} "
              f"games; the true gain of its choice over the network's, {args.rollouts} play-outs per action")
        print("\n".join(summary(found)))
        return 0
    print(f"{len(found)} clear labels of {network} in {config.rules.value} games (search: {args.simulations} "
          f"playouts over {args.candidates} candidates, depth {args.depth}, margin {args.margin}, confirm "
          f"{args.confirm or 'none'}, opponent model {args.others or 'none'}); {args.rollouts} play-outs per action")
    print("\n".join(summary(found)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
