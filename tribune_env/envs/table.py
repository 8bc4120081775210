"""The game behind an environment: integer actions in, observations and masks out.

:class:`Table` joins one game to the action codec and the observation encoder.
Both environments (AEC and single-agent) are thin shells around it, so the
conversion rules and the illegal-action error exist once.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from tribune_env.codec import (
    ActionCodec,
    ActionDecodeError,
    ObservationEncoder,
    Space,
    codec_for,
    encoder_for,
    observe_game,
)
from tribune_env.engine import native
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.errors import GameOverError, IllegalActionError, TribuneError
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.options import game_config
from tribune_env.envs.rendering import board_frame
from tribune_env.envs.rewards import RewardFn, reward_fn

SEED_BOUND = 2**63 - 1
RENDER_MODES = ("ansi", "human", "rgb_array")


def check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode: expected one of {RENDER_MODES} or None, got {mode!r}")


class IllegalMoveError(TribuneError, ValueError):
    """An integer action that the acting player may not play now; the game is unchanged."""

    def __init__(self, message: str, action: Any, legal: list[int]) -> None:
        super().__init__(message)
        self.action = action
        self.legal = legal


class Table:
    """One configured game seat-table: config, codec, encoder, reward scheme and the current game.

    The game is ``config`` or the :class:`GameConfig` of ``options`` (its fields; ``components`` may be a TOML path:
    :func:`~tribune_env.envs.options.game_config`). ``space`` chooses the codec and encoder: :attr:`Space.BASE`
    (``tribune/Tribune-v0``), for base games only, or :attr:`Space.EXPANSION` (the ``TribuneExpansion``
    environments), which serves every rule set and makes ``options`` play the expansion unless they say
    ``expansion=False``. ``engine`` chooses the engine of every game the table starts or loads: ``"python"``,
    ``"native"``, or ``None`` for ``TRIBUNE_ENGINE`` read at each new game (:meth:`Game.new`).

    Raises:
        TypeError: a config with options, or an unknown option.
        ValueError: a bad option or engine, or expansion rules (the Brutii's too) in the base spaces.
        NativeUnavailableError: ``engine="native"`` where the native core is not built.
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        space: Space | str = Space.BASE,
        reward: str | RewardFn = "win_loss",
        engine: str | None = None,
        **options: Any,
    ) -> None:
        self.engine = native.check_engine(engine)
        """The engine asked for: ``"python"``, ``"native"``, or ``None`` (``TRIBUNE_ENGINE`` at each new game)."""
        self.space = Space.parse(space)
        self.config = game_config(config, options, self.space, "Table")
        if not self.space.serves(self.config.rules):
            raise ValueError(
                "expansion: the Tribune-v0 environments play base games; use tribune/TribuneExpansion-v0 "
                "(tribune_env.expansion_env) or tribune/TribuneExpansionSingle-v0"
            )
        self.reward = reward_fn(reward)
        components = self.config.components
        self.codec: ActionCodec = codec_for(components, self.space)
        self.encoder: ObservationEncoder = encoder_for(components, self.config.round_limit, self.space)
        self.game: Game = Game.new(self.config, seed=0, engine=self.engine)
        self._mask_key: tuple[object, int] | None = None  # (state, clock) of the cached mask of the seat to act
        self._mask = np.zeros(self.codec.n, dtype=np.int8)

    @property
    def num_players(self) -> int:
        return self.config.players

    def new_game(self, rng: np.random.Generator) -> Game:
        self.game = Game.new(self.config, seed=int(rng.integers(SEED_BOUND)), engine=self.engine)
        return self.game

    def observation(self, seat: int) -> np.ndarray:
        return self.encoder.encode_game(self.game, seat)

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``(observation(seat), mask(seat))``: one call into the native core on a native game."""
        if self.game.native_core is not None:
            return observe_game(self.encoder, self.codec, self.game, seat)
        return self.observation(seat), self.mask(seat)

    def infoset(self, seat: int) -> InfoSet:
        """What an agent in ``seat`` may use, with this table's spaces."""
        return InfoSet(self.game, seat, self.space)

    def mask(self, seat: int) -> np.ndarray:
        """The legal actions of ``seat`` (all zero when another player or nobody is to act)."""
        game = self.game
        if game.current_seat != seat:
            return np.zeros(self.codec.n, dtype=np.int8)
        if game.native_core is not None:
            return self.codec.mask_game(game, seat)
        key = (game.state, game.state.clock)  # the clock moves on with every engine step
        if self._mask_key != key:
            self._mask = self.codec.mask(game.legal_actions(), seat, self.num_players)
            self._mask_key = key
        return self._mask.copy()

    def legal_indices(self, seat: int) -> list[int]:
        game = self.game
        if game.current_seat != seat:
            return []
        return self.codec.indices(game.legal_actions(), seat, self.num_players)

    def index_in_space(self, action: Any) -> int | None:
        """The integer of ``action`` when it is one of the action space (``0 <= action < n``, as a Python or numpy
        integer of any size, or a 0-d integer array), else ``None`` (bools, floats, other values). Never raises:
        Gymnasium's ``Discrete.contains`` raises ``OverflowError`` for a Python int beyond int64."""
        index = as_index(action)
        return index if index is not None and 0 <= index < self.codec.n else None

    def play(self, action: Any, seat: int, who: str) -> None:
        """Apply integer ``action`` for ``seat``.

        Raises:
            IllegalMoveError: not an integer of the action space, or not legal now; the game is unchanged.
        """
        index = as_index(action)
        game = self.game
        native_ok = index is not None and 0 <= index < self.codec.n and game.current_seat == seat
        if native_ok and game.native_core is not None:
            try:  # the fast path: decoded and applied natively; anything refused takes the checked path below
                if game.apply_native(self.codec.native_codec().decode(index, seat, self.num_players)):
                    return
            except (ValueError, TypeError):
                pass
        try:
            if index is None:
                raise ActionDecodeError(f"expected an integer action, got {action!r}")
            self.game.apply(self.codec.decode(index, seat, self.num_players))
        except (ActionDecodeError, IllegalActionError, GameOverError) as err:
            raise self._illegal(action, index, seat, who, err) from None

    def play_typed(self, action: Action, seat: int, who: str) -> None:
        """Apply a typed action chosen by ``who`` (e.g. an opponent agent); errors name ``who``."""
        try:
            self.game.apply(action)
        except IllegalActionError as err:
            raise IllegalMoveError(f"{who} played {self.game.describe(action)}: {err}", action, []) from None

    def load_position(self, doc: Any) -> None:
        """Continue from a JSON position whose options agree with this table's.

        Raises:
            InvalidStateError: a malformed document.
            ValueError: the position's players, round limit, point variant, rule set (expansion, Brutii), Brutii
                seat (when the table fixes it) or victory card differ from the table's.
        """
        game = Game.from_json(doc, self.config.components, engine=self.engine)
        if not self.space.serves(game.config.rules):  # the base encoder has no room for it
            raise ValueError("position: an expansion game; the Tribune-v0 environments play base games only")
        mine, theirs = self.config, game.config
        for name in ("players", "round_limit", "point_variant", "expansion", "brutii"):
            if getattr(mine, name) != getattr(theirs, name):
                found, wanted = getattr(theirs, name), getattr(mine, name)
                raise ValueError(f"position: {name} is {found!r}, the environment's {wanted!r}")
        if mine.brutii_seat is not None and game.brutii_seat != mine.brutii_seat:
            found = game.brutii_seat
            raise ValueError(f"position: the Brutii sits in seat {found}, the environment's in {mine.brutii_seat}")
        if mine.victory_card is not None and game.position().victory_card != mine.victory_card:
            raise ValueError(
                f"position: victory_card is {game.position().victory_card!r}, the environment's {mine.victory_card!r}"
            )
        self.game = game

    def _illegal(self, action: Any, index: int | None, seat: int, who: str, err: Exception) -> IllegalMoveError:
        legal = self.legal_indices(seat)
        pending = self.game.pending
        where = f"at a {pending.kind.key} decision" if pending is not None else "after the game ended"
        known = index is not None and 0 <= index < self.codec.n
        what = f"{index} ({self.codec.label(index)})" if known and index is not None else repr(action)
        shown = ", ".join(f"{i} ({self.codec.label(i)})" for i in legal[:20])
        if len(legal) > 20:
            shown += f", ... ({len(legal)} in all)"
        if isinstance(err, GameOverError):
            reason = "the game is over"
        elif isinstance(err, ActionDecodeError):
            reason = str(err)
        else:
            reason = "not a legal choice now"
        message = f"{who} played action {what} {where}: {reason}. Legal actions: [{shown}]"
        return IllegalMoveError(message, action, legal)

    def render(self, mode: str | None) -> str | np.ndarray | None:
        """The text board: returned for ``"ansi"``, printed for ``"human"``; for ``"rgb_array"`` the drawn board as
        a fixed-size RGB array (every hand face down, :mod:`tribune_env.envs.rendering`); a warning without a mode."""
        if mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'", stacklevel=3)
            return None
        if mode == "rgb_array":
            return board_frame(self.game)
        text = self.game.render()
        if mode == "human":
            print(text)
            return None
        return text

    def rewards(self) -> list[float]:
        """End-of-game rewards by seat under the configured scheme (0 while the game runs)."""
        if not self.game.is_over:
            return [0.0] * self.num_players
        values = [float(r) for r in self.reward(self.game)]
        if len(values) != self.num_players:
            raise ValueError(f"reward scheme returned {len(values)} values for {self.num_players} players")
        return values

    def result_info(self) -> dict[str, Any]:
        game = self.game
        return {
            "winners": list(game.winners),
            "scores": game.scores(),
            "ranks": game.ranks(),
            "rounds": game.round,
            "truncated": game.truncated,
        }


def as_index(action: Any) -> int | None:
    if isinstance(action, bool):
        return None
    if isinstance(action, int | np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None
