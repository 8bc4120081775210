"""Gymnasium single-agent wrapper: one learning seat, the other seats played by opponents.

Registered as ``tribune/TribuneSingle-v0``. Observations are the learner's
float32 vector (``Box``), actions the codec's ``Discrete`` integers, and
:meth:`TribuneSingleEnv.action_masks` gives the legal ones (what sb3-contrib's
MaskablePPO asks for). The reward is 0 until the game ends and then the
learner's own result under the reward scheme, whatever seat it sits in;
``reward="dense"`` (``"dense:<scheme>"``) adds at every step the change of the
learner's score since its previous decision (:mod:`tribune_env.envs.rewards`).

Every integer of the action space is accepted, as Gymnasium's API expects: an
illegal one (by default) costs ``illegal_penalty``, leaves the game unchanged and
sets ``info["illegal_action"]``; after ``illegal_limit`` illegal actions in a row
the episode is truncated. ``illegal_action="penalty_end"`` costs the penalty and
terminates the episode (the game unchanged); ``illegal_action="raise"`` raises
:class:`~tribune_env.envs.table.IllegalMoveError` instead. Values outside the
action space (integers of any size, numpy's included, bools, floats, other values)
always raise :class:`~tribune_env.envs.table.IllegalMoveError`, the game unchanged.

``obs_format`` chooses the observation: ``"vector"`` (default) the float32 vector alone, ``"dict"`` the AEC
environment's ``{"observation", "action_mask"}``, ``"flat"`` one float32 ``Box``: the vector followed by the
mask as 0.0/1.0 at :attr:`TribuneSingleEnv.mask_slice`. :meth:`TribuneSingleEnv.action_masks` works in every
format.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from tribune_env.codec import Space
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.dense_reward import ScoreShaping
from tribune_env.envs.options import flat_observation, flat_space, game_config, mask_slice
from tribune_env.envs.policies import Opponent, RandomPolicy, ViewAgent, opponent_kind, play_opponent
from tribune_env.envs.rewards import RewardFn
from tribune_env.envs.table import RENDER_MODES, IllegalMoveError, Table, check_render_mode

MAX_RESTARTS = 100  # games that end before the learner ever decides are replaced (practically never happens)
ILLEGAL_MODES = ("penalty", "raise", "penalty_end")
OBS_FORMATS = ("vector", "dict", "flat")
"""The single-agent observation formats (``obs_format=``); ``"vector"``, the default, is the observation alone."""
RESET_OPTIONS = frozenset({"position", "learner_seat"})
LEARNER_ROLES = ("any", "brutii", "family")
"""Which seat the learner takes in a Brutii game: any seat at random, the Brutii's, or a family's (at random)."""


class TribuneSingleEnv(gym.Env[Any, np.int64]):
    """Tribune for one learner.

    The game is ``config`` or, without one, the :class:`~tribune_env.GameConfig` of the keyword ``options`` (its
    fields: ``players`` 2 to 5, ``victory_card``, ``point_variant``, ``round_limit``, ``components``, ...), as for
    the AEC environment. This class plays base games in the base spaces; :class:`TribuneExpansionSingleEnv` plays
    every rule set.

    Args:
        config: the game (give it or ``options``, not both).
        learner_seat: the learner's seat, or ``None`` for a random seat each episode.
        opponents: one opponent for all other seats, or a list of ``players - 1``:
            ``opponents[i]`` plays the seat ``i + 1`` places after the learner in turn
            order (so the list is relative to the learner, like observations);
            default: :class:`RandomPolicy` in every other seat.
        reward: as for the AEC environment.
        illegal_action: ``"penalty"`` (default), ``"penalty_end"`` (the penalty, and the episode terminates)
            or ``"raise"``.
        illegal_penalty: the reward of an illegal action in the penalty modes.
        illegal_limit: illegal actions in a row that truncate the episode (``"penalty"`` mode).
        render_mode: ``"ansi"``, ``"human"`` or ``"rgb_array"`` (as for the AEC environment).
        obs_format: ``"vector"`` (default), ``"dict"`` or ``"flat"`` (see the module docstring).
        learner_role: in a Brutii game, the learner's seat: ``"any"`` (``learner_seat``, or a random seat, the
            Brutii's included), ``"brutii"`` (the Brutii's seat) or ``"family"`` (a random family seat). A role
            other than ``"any"`` needs the Brutii and no ``learner_seat``. ``info["brutii"]`` says whether the
            learner is the Brutii.
        engine: ``"python"``, ``"native"`` or ``None`` (default: ``TRIBUNE_ENGINE`` at each new game), the engine
            of every game.
        options: the game's options (:func:`~tribune_env.engine.config.config_fields`).

    Raises:
        TypeError: a config with options, or an unknown option.
        ValueError: a bad option, naming it (an unknown role, a role without the Brutii or with a fixed
            ``learner_seat``).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012  (declared so by gymnasium)
    space: ClassVar[Space] = Space.BASE
    """The spaces this class plays in (the one thing the expansion class changes)."""

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        learner_seat: int | None = None,
        opponents: Opponent | Sequence[Opponent] | None = None,
        reward: str | RewardFn = "win_loss",
        illegal_action: str = "penalty",
        illegal_penalty: float = -1.0,
        illegal_limit: int = 100,
        render_mode: str | None = None,
        obs_format: str = "vector",
        learner_role: str = "any",
        engine: str | None = None,
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        self.render_mode = render_mode
        if learner_role not in LEARNER_ROLES:
            raise ValueError(f"learner_role: expected one of {LEARNER_ROLES}, got {learner_role!r}")
        game = game_config(config, options, self.space, type(self).__name__)
        if learner_role != "any" and not game.brutii:
            raise ValueError(f"learner_role: {learner_role!r} needs brutii=True (roles exist only with the Brutii)")
        self.learner_role = learner_role
        self.table = Table(game, space=self.space, reward=reward, engine=engine)
        players = game.players
        self.fixed_seat = _check_seat(learner_seat, players)
        if self.fixed_seat is not None and self.learner_role != "any":
            raise ValueError(f"learner_seat: give a seat or learner_role={self.learner_role!r}, not both")
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_MODES:
            # the first two modes quoted as a tuple, as before "penalty_end" came
            raise ValueError(
                f"illegal_action: expected one of {ILLEGAL_MODES[:2]}, got {illegal_action!r} (or {ILLEGAL_MODES[2]!r})"
            )
        if not isinstance(obs_format, str) or obs_format not in OBS_FORMATS:
            raise ValueError(f"obs_format: expected one of {OBS_FORMATS}, got {obs_format!r}")
        self.obs_format = obs_format
        if isinstance(illegal_limit, bool) or not isinstance(illegal_limit, int) or illegal_limit < 1:
            raise ValueError(f"illegal_limit: expected an integer >= 1, got {illegal_limit!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.illegal_limit = illegal_limit
        self._illegal_streak = 0
        self.set_opponents(opponents)
        encoder, codec = self.table.encoder, self.table.codec
        vector = spaces.Box(low=0.0, high=encoder.high, shape=(encoder.size,), dtype=np.float32)
        self.mask_slice = mask_slice(encoder.size, codec.n)
        """Where the action mask lies in a flat observation (``obs_format="flat"``)."""
        self.observation_space: spaces.Space[Any]
        if obs_format == "flat":
            self.observation_space = flat_space(encoder.high, codec.n)
        elif obs_format == "dict":
            mask = spaces.Box(low=0, high=1, shape=(codec.n,), dtype=np.int8)
            self.observation_space = spaces.Dict({"observation": vector, "action_mask": mask})
        else:
            self.observation_space = vector
        self.action_space = spaces.Discrete(codec.n)
        self.seat = 0 if learner_seat is None else learner_seat
        self.on_seat: Callable[[int], None] | None = None
        """Called with the learner's seat once each new game is dealt, before any opponent plays (a league uses it
        to ready its opponents for their seats when a Brutii role decides the learner's seat)."""
        self._rng = np.random.default_rng()
        self._shaping = ScoreShaping(self.table)  # the dense reward's score term (reward="dense")

    def set_opponents(self, opponents: Opponent | Sequence[Opponent] | None) -> None:
        """Replace the opponents (same forms as the constructor's ``opponents``); used from the next decision on."""
        self.opponents = _opponent_list(opponents, self.table.num_players)
        # how each opponent is called, decided once: protocol isinstance checks are slow
        self._opponent_kinds = [opponent_kind(o) for o in self.opponents]

    @property
    def game(self) -> Game:
        return self.table.game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        options = options or {}
        unknown = set(options) - RESET_OPTIONS
        if unknown:
            raise ValueError(f"reset: unknown options {sorted(unknown)}; known: {sorted(RESET_OPTIONS)}")
        requested = _check_seat(options.get("learner_seat"), self.table.num_players)  # before anything changes
        if requested is not None and self.learner_role != "any":
            raise ValueError(f"reset: option learner_seat conflicts with learner_role={self.learner_role!r}")
        if "position" in options:
            return self._reset_to_position(options["position"], requested, seed)
        super().reset(seed=seed)
        self._seed_all(seed)
        self._illegal_streak = 0
        for _ in range(MAX_RESTARTS):
            self._deal(requested)
            self._play_opponents()
            if not self.table.game.is_over:
                return self._observe(), self._info()
        raise RuntimeError(f"{MAX_RESTARTS} games in a row ended before the learner's first decision")

    def _reset_to_position(self, doc: Any, seat: int | None, seed: int | None) -> tuple[Any, dict[str, Any]]:
        """Start from a JSON position; the learner sits in ``seat`` (or the seat rule of the environment).

        Raises ``ValueError`` (and keeps the current game) when the position gives the learner nothing to decide.
        """
        previous, previous_seat = self.table.game, self.seat
        self.table.load_position(doc)
        super().reset(seed=seed)
        self._seed_all(seed)
        self.seat = self._pick_seat(seat)
        self._play_opponents()
        if self.table.game.is_over:
            self.table.game, self.seat = previous, previous_seat
            raise ValueError("position: the game is over before the learner decides anything")
        self._illegal_streak = 0
        return self._observe(), self._info()

    def _seed_all(self, seed: int | None) -> None:
        if seed is None:
            return
        self._rng = np.random.default_rng(seed)
        for i, opponent in enumerate(self.opponents):
            if hasattr(opponent, "seed"):
                opponent.seed(seed + 1 + i)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        before = self._shaping.before(self.table.game)  # dense reward: the scores before the move (else None)
        try:
            self.table.play(action, self.seat, f"the learner (seat {self.seat})")
        except IllegalMoveError:
            index = self.table.index_in_space(action)  # not action_space.contains: it overflows beyond int64
            if self.illegal_action == "raise" or self.table.game.is_over or index is None:
                raise
            return self._illegal_step(index)
        self._illegal_streak = 0
        self._play_opponents()
        game = self.table.game
        reward = self.table.rewards()[self.seat] if game.is_over else 0.0
        reward += self._shaping.change(game, before)[self.seat]  # dense reward only (else 0)
        info = self._info()
        if game.is_over:
            info.update(self.table.result_info())
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, game.is_over and not game.truncated, game.truncated, info

    def _illegal_step(self, index: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Penalty modes, for the illegal action ``index`` of the action space: nothing changes in the game; too many
        in a row truncate the episode ("penalty"), or the episode terminates at once ("penalty_end")."""
        self._illegal_streak += 1
        info = self._info()
        info["illegal_action"] = index
        if self.illegal_action == "penalty_end":
            return self._observe(), self.illegal_penalty, True, False, info
        truncated = self._illegal_streak >= self.illegal_limit
        return self._observe(), self.illegal_penalty, False, truncated, info

    def _observe(self) -> Any:
        """The learner's observation in the chosen ``obs_format``."""
        if self.obs_format == "vector":
            return self.table.observation(self.seat)
        observation, mask = self.table.observe(self.seat)
        if self.obs_format == "flat":
            return flat_observation(observation, mask)
        return {"observation": observation, "action_mask": mask}

    def _deal(self, requested: int | None) -> None:
        """A new game and the learner's seat in it. A role's seat depends on the game (where the Brutii sits); any
        other seat is drawn before the game, as it always was, so seeded episodes without roles stay the same."""
        if self.learner_role == "any":
            self.seat = self._pick_seat(requested)
            self.table.new_game(self._rng)
        else:
            self.table.new_game(self._rng)
            self.seat = self._pick_seat(requested)
        if self.on_seat is not None:
            self.on_seat(self.seat)

    def _pick_seat(self, requested: Any = None) -> int:
        """The learner's seat: asked for in ``reset`` options, else fixed, else the role's seat in the current game
        (the Brutii's, or a family's at random), else drawn at random."""
        if requested is not None:
            seat = _check_seat(requested, self.table.num_players)
            assert seat is not None
            return seat
        if self.fixed_seat is not None:
            return self.fixed_seat
        n = self.table.num_players
        brutii = self.table.game.brutii_seat
        if self.learner_role == "brutii":
            return brutii
        if self.learner_role == "family":
            families = [s for s in range(n) if s != brutii]
            return families[int(self._rng.integers(len(families)))]
        return int(self._rng.integers(n))

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once the game is over)."""
        return self.table.mask(self.seat).astype(bool)

    def _info(self) -> dict[str, Any]:
        """The learner's seat and mask; in a Brutii game also whether the learner is the Brutii."""
        info: dict[str, Any] = {"seat": self.seat, "action_mask": self.table.mask(self.seat)}
        brutii = self.table.game.brutii_seat
        if brutii >= 0:
            info["brutii"] = self.seat == brutii
        return info

    def _play_opponents(self) -> None:
        table = self.table
        game = table.game
        while not game.is_over and game.current_seat != self.seat:
            seat = game.current_seat
            slot = (seat - self.seat - 1) % table.num_players
            play_opponent(table, self.opponents[slot], self._opponent_kinds[slot], seat, f"opponent in seat {seat}")

    def render(self) -> Any:  # gymnasium 1.2 and 1.4 type RenderFrame differently
        return self.table.render(self.render_mode)


class TribuneExpansionSingleEnv(TribuneSingleEnv):
    """Tribune with the Tribune Expansion for one learner (``tribune/TribuneExpansionSingle-v0``).

    The same API as :class:`TribuneSingleEnv`, with the expansion spaces (``docs/actions-expansion.md``,
    ``docs/observation-expansion.md``): keyword options play the expansion unless they say ``expansion=False``
    (base rules in the same spaces); ``brutii=True`` plays the Brutii variant (R42-R54; 5 or 6 players;
    ``brutii_seat``: his seat, or ``None`` to draw it each game, R43), where ``learner_role`` applies. Opponents
    are view agents that play the game (``Agent.supports``) or policies over the expansion spaces.
    """

    space: ClassVar[Space] = Space.EXPANSION


def single_env_class(space: Space) -> type[TribuneSingleEnv]:
    """The single-agent environment class of ``space``."""
    return TribuneExpansionSingleEnv if space is Space.EXPANSION else TribuneSingleEnv


def _check_seat(seat: Any, players: int) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < players:
        raise ValueError(f"learner_seat: must be an integer in 0..{players - 1} or None, got {seat!r}")
    return int(seat)


def _opponent_list(opponents: Opponent | Sequence[Opponent] | None, players: int) -> list[Opponent]:
    if opponents is None:
        return [RandomPolicy() for _ in range(players - 1)]
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        found = list(opponents)
        if len(found) != players - 1:
            raise ValueError(f"opponents: expected {players - 1} opponents for {players} players, got {len(found)}")
    else:
        found = [opponents] * (players - 1)
    for opponent in found:
        if not (callable(opponent) or isinstance(opponent, ViewAgent)):
            raise TypeError(f"opponents: {opponent!r} is neither a (observation, mask) -> int callable nor has act()")
    return found
