"""``mcts``: information-set Monte Carlo tree search (single-observer IS-MCTS).

The searcher follows Cowling, Powley & Whitehouse (2012), "Information Set
Monte Carlo Tree Search". The agent cannot see the other hands, the piles,
face-down cards or sealed bids, so it cannot search the true game. Instead
every iteration works on a *determinization*: ``info.sample(rng)`` deals
everything hidden from the agent's seat at random (consistently with its
view, chance key included), and the iteration plays that full game forward
with the engine. All iterations share one tree whose edges are typed actions,
so the statistics of an action are pooled over many plausible deals:

1. **Select.** From the root, at each node only the actions legal in *this*
   determinization are candidates. Each existing candidate child has its
   *availability* counted up (how often it could have been chosen), and the
   best child by UCB1 with availability is followed,
   ``Q[seat] / N + c * sqrt(ln(availability) / N)``, where ``Q`` is the
   child's total value for ``seat``, the player to move in the current
   determinization (``game.current_seat``). Nodes store a value per seat, so
   the same tree serves every player: each one maximises its own value.
   With ``norm=node`` (the default) the means ``Q/N`` of the candidates are
   first min-max scaled to [0, 1] among themselves: leaf values are win
   chances of several players and often differ between moves by a few
   hundredths only, which a fixed ``c`` would drown in exploration.
2. **Expand.** At the first node with a legal candidate that has no child
   yet, one such action (uniformly) gets a new child and the descent stops.
3. **Roll out.** From there at most ``depth`` decisions (default 0) are played, either
   uniformly among the candidates on the game directly (``rollout=random``,
   fast) or by one ``heuristic`` agent per seat (``rollout=heuristic``).
4. **Evaluate.** A finished game is worth 1 to its winners (shared: 1/k
   each) and 0 to the others; an unfinished one is scored for every seat by
   :func:`agents.evaluation.evaluate_all` (each seat reading its own dealt
   hand: in a determinization every card is known).
5. **Back up** the value vector into every node of the path.

With ``opponents=rollout`` the tree branches only at the searching seat's
own decisions: the other seats' decisions, in the descent as in the
rollout, are played by the rollout policy (an opponent model; with
``rollout=heuristic`` the search then improves on the heuristic against
opponents that play like it). A node is then a sequence of the seat's own
actions, and availability handles the deals in which one is not legal.

The chosen action is the most visited root child among the actions legal now
(ties: the better mean value for the agent, then the order of ``legal``).
Opponents inside a determinization act on the dealt cards, as in the paper's
single-observer variant; nothing from the true hidden state reaches the search,
because :meth:`InfoSet.sample` depends only on the view and the generator.

Bids (Atrium and chariot auctions) have up to ``money + 1`` legal amounts;
the tree and the random rollouts consider only the levels in
:data:`BID_LEVELS` (0, 1, 2, 3, 5, 8, 13, ...), which keeps the branching
factor of those decisions near ten. Nothing is reused between decisions.

Spec parameters (``mcts:iterations=400``, ``mcts:seconds=0.5,rollout=random``):

* ``iterations`` (int >= 1): iterations per decision; 200 when neither budget is given.
* ``seconds`` (float > 0): wall-clock budget per decision; with both budgets the
  first one reached stops the search. Only the iteration budget is reproducible.
* ``c`` (float > 0, default 0.7): the exploration constant.
* ``rollout`` (``random`` | ``heuristic``, default ``random``).
* ``depth`` (int >= 0, default 0): decisions per rollout before evaluating; 0
  evaluates the expanded position itself (see "Defaults" below).
* ``opponents`` (``tree`` | ``rollout``, default ``tree``): the other seats choose
  in the tree by UCB1 (plain IS-MCTS), or by the rollout policy.
* ``norm`` (``node`` | ``none``, default ``node``): scale the means per node, or use them raw.
* ``bias`` (float >= 0, default 0): progressive bias towards the ``heuristic`` agent's
  answer at the root: that child's UCB score gets ``bias / (N + 1)`` more.
* ``search`` (``tree`` | ``flat``, default ``tree``): ``flat`` replaces the tree by
  flat Monte Carlo over the heuristic's best ``candidates`` (default 3) follower
  placements, each played out to the end of the game by the heuristic on the same
  samples (:mod:`agents.flat`); ``iterations`` then counts samples per placement
  (default 4) and ``seconds`` defaults to 1. This is the strongest setting against
  the ``heuristic`` agent (docs/agents/strength.md).

Defaults. Against three ``heuristic`` opponents (4 players, 40 games, seats
rotated, 400 iterations) evaluating the expanded node directly (``depth=0``)
won about 21%, four random rollout decisions 3%: random play after a move
spoils plans that need follow-up decisions (a follower on a faction field,
a take-over set) more than it spoils immediate gains (the coin bowl), so
random rollouts bias the search. Without ``norm`` the visits stayed almost
uniform over the candidates (means differ by ~0.01 on a 0..1 scale).

A decision with one legal choice is answered at once. ``act`` needs the
:class:`InfoSet` (``info``); without it the agent raises :class:`AgentError`.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence

from agents.base import Agent, AgentError, InfoSet
from agents.evaluation import evaluate_all
from agents.flat import FlatSearch
from agents.specs import make_agent, no_more, register_agent, take_choice, take_float, take_int
from tribune_env.engine.actions import Action, Bid
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game
from tribune_env.engine.registry import is_bid
from tribune_env.engine.view import PlayerView

__all__ = ["BID_LEVELS", "MctsAgent", "candidates"]

#: bid amounts the search considers (those not above the bidder's money)
BID_LEVELS = frozenset((0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233))

DEFAULT_ITERATIONS = 200
DEFAULT_C = 0.7
DEFAULT_DEPTH = 0
ROLLOUTS = ("random", "heuristic")
OPPONENTS = ("tree", "rollout")
NORMS = ("node", "none")
SEARCHES = ("tree", "flat")
FLAT_ITERATIONS = 4  # samples per placement decision with search=flat
FLAT_SECONDS = 1.0  # time budget per decision with search=flat, unless a budget is given
FLAT_CANDIDATES = 3


def candidates(game: Game) -> list[Action]:
    """The actions the search considers at ``game``'s decision: the legal ones, bids thinned to :data:`BID_LEVELS`."""
    legal = game.legal_actions()
    pending = game.pending
    if pending is not None and is_bid(pending.kind):
        return _thin_bids(legal)
    return legal


def _thin_bids(legal: Sequence[Action]) -> list[Action]:
    """The bids of :data:`BID_LEVELS`, and any choice that is not a bid (the Brutii's chariot opt-out, R49)."""
    bids = [a for a in legal if isinstance(a, Bid) and a.amount in BID_LEVELS]
    if not bids:
        return list(legal)
    return [a for a in legal if not isinstance(a, Bid) or a.amount in BID_LEVELS]


class _Node:
    """Statistics of one action sequence from the root: visits, availability, total value per seat."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = [0.0] * players


class MctsAgent(Agent):
    """Single-observer IS-MCTS over sampled determinizations (see the module docstring)."""

    name = "mcts"
    #: every rule set, the Brutii in both roles: the searches run on the engine, and the heuristic (flat search,
    #: rollouts) plays them all
    rule_sets = frozenset(RuleSet)

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = DEFAULT_C,
        rollout: str = "random",
        depth: int = DEFAULT_DEPTH,
        opponents: str = "tree",
        norm: bool = True,
        bias: float = 0.0,
        search: str = "tree",
        candidates: int = FLAT_CANDIDATES,
    ) -> None:
        super().__init__(seed)
        self.flat: FlatSearch | None = None
        if search == "flat":
            self.flat = FlatSearch(
                self,
                iterations or FLAT_ITERATIONS,
                FLAT_SECONDS if seconds is None and iterations is None else seconds,
                candidates,
            )
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.depth = depth
        self.opponents = opponents
        self.norm = norm
        self.bias = bias
        self._hint: Action | None = None  # the heuristic's answer at the root (with ``bias``)
        self._searcher = -1  # the seat searching (set per decision)
        #: iterations run by the last search (for measurements)
        self.last_iterations = 0
        self._policies: dict[int, Agent] = {}
        if rollout == "heuristic" or bias:
            make_agent("heuristic", 0)  # fail early (AgentError) if the heuristic agent is unavailable

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        super().reset(seat, config, seed)
        self._policies = {}
        if self.flat is not None:
            self.flat.reset(seat, config, seed)

    # -- the decision -------------------------------------------------------------

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if len(legal) == 1:
            return legal[0]
        if info is None:
            raise AgentError("mcts needs the InfoSet of the decision (info=None given): it searches sampled games")
        if self.flat is not None:
            return self.flat.act(view, legal, info)
        self._hint = self._policy(self.config, view.seat).act(view, legal, info) if self.bias else None
        root = self.search(info)
        return self._best(root, _root_moves(view, legal), info.seat)

    def search(self, info: InfoSet) -> _Node:
        """Run the budgeted iterations from ``info``'s decision; returns the root of the tree."""
        start = time.perf_counter()
        deadline = math.inf if self.seconds is None else start + self.seconds
        limit = sys.maxsize if self.iterations is None else self.iterations
        game = info.sample(self.rng)
        root = _Node(game.num_players)
        self._searcher = info.seat
        done = 0
        while True:
            self._iterate(root, game)
            done += 1
            if done >= limit or time.perf_counter() >= deadline:
                break
            game = info.sample(self.rng)
        self.last_iterations = done
        return root

    def _best(self, root: _Node, moves: Sequence[Action], seat: int) -> Action:
        """The most visited root child among ``moves`` (ties: better mean for ``seat``, then order)."""
        best = moves[0]
        best_key = (-1, -1.0)
        for action in moves:
            child = root.children.get(action)
            key = (0, 0.0) if child is None else (child.visits, child.total[seat] / child.visits)
            if key > best_key:
                best, best_key = action, key
        return best

    # -- one iteration ------------------------------------------------------------

    def _iterate(self, root: _Node, game: Game) -> None:
        """Select and expand on ``game`` (a fresh determinization), roll out, back the value up."""
        path = [root]
        node = root
        modelled = self.opponents == "rollout"
        while not game.is_over:
            seat = game.current_seat
            if modelled and seat != self._searcher:
                self._step(game)  # an opponent's move by the rollout policy, outside the tree
                continue
            action, node = self._select(node, candidates(game), seat, self._hint if node is root else None)
            game.apply(action)
            path.append(node)
            if node.visits == 0:
                break
        values = self._leaf_values(game)
        for visited in path:
            visited.visits += 1
            total = visited.total
            for seat, value in enumerate(values):
                total[seat] += value

    def _select(self, node: _Node, moves: list[Action], seat: int, hint: Action | None) -> tuple[Action, _Node]:
        """Count availability, then expand an untried move or follow the best UCB1 child for ``seat``."""
        children = node.children
        untried: list[Action] = []
        known: list[tuple[Action, _Node]] = []
        for action in moves:
            child = children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
                known.append((action, child))
        if untried:
            action = untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = children[action] = _Node(len(node.total))
            return action, child
        return self._ucb(known, seat, hint)

    def _ucb(self, known: list[tuple[Action, _Node]], seat: int, hint: Action | None) -> tuple[Action, _Node]:
        """The child with the best UCB1-with-availability score for ``seat`` (means min-max scaled if ``norm``).

        The ``hint`` child (the heuristic's answer, at the root) gets ``bias / (N + 1)`` more.
        """
        means = [child.total[seat] / child.visits for _, child in known]
        low, scale = 0.0, 1.0
        if self.norm:
            low, high = min(means), max(means)
            scale = 1.0 / (high - low) if high > low else 0.0
        c, log, sqrt = self.c, math.log, math.sqrt
        best = known[0]
        best_score = -math.inf
        for (action, child), mean in zip(known, means, strict=True):
            n = child.visits
            score = (mean - low) * scale + c * sqrt(log(child.avail) / n)
            if hint is not None and action == hint:
                score += self.bias / (n + 1)
            if score > best_score:
                best, best_score = (action, child), score
        return best

    # -- leaves ---------------------------------------------------------------------

    def _leaf_values(self, game: Game) -> list[float]:
        """Roll out ``game`` (in place) for at most ``depth`` decisions; the value of every seat."""
        for _ in range(self.depth):
            if game.is_over:
                break
            self._step(game)
        return evaluate_all(game.position())  # exact for a finished game: 1/k to each of k winners

    def _step(self, game: Game) -> None:
        """Play one decision of ``game`` by the rollout policy."""
        if self.rollout == "random":
            moves = candidates(game)
            game.apply(moves[self.rng.randrange(len(moves))])
            return
        legal = game.legal_actions()
        if len(legal) > 1:
            seat = game.current_seat
            game.apply(self._policy(game.config, seat).act(game.view(seat), legal, InfoSet(game, seat)))
        else:
            game.apply(legal[0])

    def _policy(self, config: GameConfig, seat: int) -> Agent:
        """The rollout ``heuristic`` playing ``seat`` (one per seat, reset for this agent's game)."""
        policy = self._policies.get(seat)
        if policy is None:
            policy = make_agent("heuristic", self.rng.getrandbits(32))
            policy.reset(seat, config, self.rng.getrandbits(32))
            self._policies[seat] = policy
        return policy


def _root_moves(view: PlayerView, legal: Sequence[Action]) -> list[Action]:
    """The elements of ``legal`` the search may answer with (bids thinned like in the tree)."""
    pending = view.pending
    if pending is not None and is_bid(pending.kind):
        return _thin_bids(legal)
    return list(legal)


def _make(params: dict[str, str], seed: int | None) -> Agent:
    iterations = take_int(params, "iterations", 0)
    seconds = take_float(params, "seconds", None)
    c = take_float(params, "c", DEFAULT_C)
    rollout = take_choice(params, "rollout", "random", ROLLOUTS)
    depth = take_int(params, "depth", DEFAULT_DEPTH, low=0)
    opponents = take_choice(params, "opponents", "tree", OPPONENTS)
    norm = take_choice(params, "norm", "node", NORMS) == "node"
    bias = take_float(params, "bias", 0.0, low=-math.inf) or 0.0
    search = take_choice(params, "search", "tree", SEARCHES)
    candidates = take_int(params, "candidates", FLAT_CANDIDATES, low=2)
    if bias < 0:
        raise AgentError(f"parameter bias: must be >= 0, got {bias}")
    no_more("mcts", params)
    assert c is not None
    return MctsAgent(
        seed,
        iterations=iterations or None,
        seconds=seconds,
        c=c,
        rollout=rollout,
        depth=depth,
        opponents=opponents,
        norm=norm,
        bias=bias,
        search=search,
        candidates=candidates,
    )


register_agent("mcts", _make)
