"""What a drawing shows: :class:`Scene`, built from what one seat may see or from the whole game.

A seat's scene is built from :func:`~tribune_env.engine.view.player_view` alone (plus the printed components),
so a drawing for a seat cannot show what the view hides. The omniscient scene takes the hidden parts (face-down
board cards, others' staged and Augur cards, every hand, every sealed bid and pair) from the state itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribune_env.engine.config import AnyVictoryCard, GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.scoring import scores, victory_card
from tribune_env.engine.state import GameState
from tribune_env.engine.tables import Tables
from tribune_env.engine.view import PlayerView, player_view

Board = tuple[tuple[tuple[int, ...], ...], ...]  # [region][field] -> card types, HIDDEN if face down


@dataclass(frozen=True)
class Scene:
    """Everything one drawing shows. The public part comes from ``view``; the parts a seat may not always see are
    fields of their own: ``board``, ``staged`` and ``augur`` (HIDDEN where face down), ``hands`` (seat -> counts
    per card type, for the seats whose hands are drawn face up; the others face down by their public size),
    ``bids`` and ``pairs`` (the sealed choices shown)."""

    view: PlayerView
    viewer: int | None  # None: omniscient
    config: GameConfig
    tables: Tables
    card: AnyVictoryCard | None  # None in the point-value variant
    required: int  # objectives a player needs (0 in the point-value variant)
    board: Board
    staged: tuple[int, ...]
    augur: tuple[int, ...]
    hands: dict[int, tuple[int, ...]]
    bids: dict[int, int]  # seat -> amount (-2: the Brutii opted out)
    pairs: tuple[tuple[int, int, int], ...]  # sealed Field of Mars pairs: (seat, card, card)
    scores: tuple[int, ...] = ()  # each seat's score now (from public holdings only)


def _state(game: Game | GameState) -> GameState:
    if isinstance(game, Game):
        return game.position()
    if isinstance(game, GameState):
        return game
    raise TypeError(f"expected a Game or a GameState, got {type(game).__name__}")


def scene(game: Game | GameState, viewer: int | None = None, *, hands: bool = True) -> Scene:
    """The scene of ``game`` as seat ``viewer`` sees it, or omniscient with ``viewer=None``.

    ``hands=False`` draws every hand face down (the seat-neutral frame of ``render_mode="rgb_array"``)."""
    state = _state(game)
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < state.num_players):
        raise ValueError(f"viewer must be a seat in 0..{state.num_players - 1} or None, got {viewer!r}")
    card = victory_card(state)
    required = 0 if card is None else state.config.required(card)
    if viewer is not None:
        view = player_view(state, viewer)
        return Scene(
            view,
            viewer,
            state.config,
            state.tables,
            card,
            required,
            board=view.board,
            staged=view.staged,
            augur=view.augur_cards,
            hands={viewer: view.hand} if hands else {},
            bids={viewer: view.my_bid} if view.my_bid != -1 else {},
            pairs=tuple((viewer, a, b) for a, b in view.my_pairs),
            scores=tuple(scores(state)),
        )
    return Scene(
        player_view(state, 0),  # its public fields only
        None,
        state.config,
        state.tables,
        card,
        required,
        board=tuple(tuple(tuple(field) for field in region) for region in state.fields),
        staged=tuple(state.staged),
        augur=tuple(state.augur_cards),
        hands={s: tuple(p.hand) for s, p in enumerate(state.players)} if hands else {},
        bids={s: b for s, b in enumerate(state.bids) if b != -1},
        pairs=tuple(state.pairs),
        scores=tuple(scores(state)),
    )
