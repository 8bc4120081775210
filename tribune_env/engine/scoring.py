"""Victory objectives, scores, and the end of the game (R23, R24, R25)."""

from __future__ import annotations

from functools import cache

from tribune_env.data import Components, ExpansionScoring, ExpansionVictoryCard, ScoringSpec
from tribune_env.data.schema import find_card
from tribune_env.engine.config import AnyVictoryCard, victory_cards_of
from tribune_env.engine.state import SCROLL, TRIBUNE, GameState, PlayerState


def victory_card(state: GameState) -> AnyVictoryCard | None:
    if state.config.point_variant:
        return None
    return _card(state.config.components, state.config.expansion, state.victory_card)


def objectives(player: PlayerState, card: AnyVictoryCard) -> dict[str, bool]:
    """Which of the card's objectives ``player`` meets now ("at least" thresholds, R24; expansion cards: E72)."""
    t = card.thresholds
    met = {
        "tribune": player.tile == TRIBUNE,
        "favor": player.eternal_favor or player.temporary_favor,
        "laurels": player.laurels >= t["laurels"],
        "legions": player.legions >= t["legions"],
        "markers": player.num_markers >= t["markers"],
    }
    if isinstance(card, ExpansionVictoryCard):
        met["emperor_tiles"] = len(player.emperor_tiles) >= t["emperor_tiles"]  # claimed tiles only (R41)
        met["patrons"] = player.patrons >= t["patrons"]
    else:
        met["denarii"] = player.money >= t["denarii"]
    return met


def fulfils(player: PlayerState, card: AnyVictoryCard, required: int) -> bool:
    """``player`` meets the card's obligatory objectives and ``required`` objectives in all (R24)."""
    met = objectives(player, card)
    if not all(met[o] for o in card.obligatory):
        return False
    return sum(met.values()) >= required


@cache
def _card(components: Components, expansion: bool, card_id: str) -> AnyVictoryCard:
    return find_card(victory_cards_of(components, expansion), card_id)


def refresh(state: GameState, seat: int) -> None:
    """Re-check one player's victory conditions.

    Run at the end of every engine step for each player whose holdings changed
    in it, so ``fulfilled_since[seat]`` holds the ``state.clock`` value of the
    step in which the player's current unbroken fulfilment began, or -1 (R23).
    A step is the unit of time: an exchange inside one step (paying for a
    legion) does not break fulfilment.
    """
    if state.config.point_variant:
        return
    card = _card(state.config.components, state.config.expansion, state.victory_card)
    since = state.fulfilled_since
    if fulfils(state.players[seat], card, state.config.required(card)):
        if since[seat] < 0:
            since[seat] = state.clock
    else:
        since[seat] = -1


def end_step(state: GameState) -> None:
    """Close one engine step: re-check the players it touched, then move the clock on."""
    touched = state.touched
    if touched:
        state.touched = 0
        for seat in range(state.num_players):
            if touched >> seat & 1:
                refresh(state, seat)
    state.clock += 1


def track_fulfilment(state: GameState) -> None:
    """Re-check every player (after loading a position)."""
    for seat in range(state.num_players):
        refresh(state, seat)


def scoring_table(state: GameState) -> ScoringSpec | ExpansionScoring:
    """The game's scoring table: the expansion prints its own (R41, E74)."""
    spec = state.config.components.expansion
    if state.config.expansion and spec is not None:
        return spec.scoring
    return state.config.components.scoring


def _points(p: PlayerState, s: ScoringSpec | ExpansionScoring) -> int:
    tile = s.tribune if p.tile == TRIBUNE else (s.scroll if p.tile == SCROLL else 0)
    total = (
        tile
        + (s.eternal_favor if p.eternal_favor else 0)
        + (s.temporary_favor if p.temporary_favor else 0)
        + s.legion * p.legions
        + s.laurel * p.laurels
        + p.money // s.denarii_per_point
        + s.marker * p.num_markers
    )
    if isinstance(s, ExpansionScoring):
        total += s.patron * p.patrons + s.emperor_tile * len(p.emperor_tiles)
    return total


def first_fulfillers(state: GameState) -> list[int]:
    """Players holding the "first to fulfil" bonus: those whose fulfilment began earliest (R23)."""
    times = [t for t in state.fulfilled_since if t >= 0]
    if not times or state.config.point_variant:
        return []
    first = min(times)
    return [seat for seat, t in enumerate(state.fulfilled_since) if t == first]


def scores(state: GameState) -> list[int]:
    spec = scoring_table(state)
    total = [_points(p, spec) for p in state.players]
    for seat in first_fulfillers(state):
        total[seat] += spec.first_bonus
    return total


def game_ends(state: GameState) -> bool:
    """End-of-round check: a player meets the victory card, or (variant) holds enough markers."""
    if state.config.point_variant:
        need = state.config.point_variant_markers
        return any(p.num_markers >= need for p in state.players)
    return any(t >= 0 for t in state.fulfilled_since)


def contenders(state: GameState) -> list[int]:
    """Players who may win: those meeting the victory card, or everybody (variant or truncation)."""
    if state.config.point_variant or state.truncated:
        return list(range(state.num_players))
    return [seat for seat, t in enumerate(state.fulfilled_since) if t >= 0]


def decide_winners(state: GameState) -> tuple[int, ...]:
    """Highest score among the contenders; equal scores share the win (R23)."""
    total = scores(state)
    pool = contenders(state)
    best = max(total[s] for s in pool)
    return tuple(s for s in pool if total[s] == best)


def ranks(state: GameState) -> list[int]:
    """1 for the best; contenders rank above the others, then by score; ties share a rank."""
    total = scores(state)
    pool = set(contenders(state))
    keys = [(seat in pool, total[seat]) for seat in range(state.num_players)]
    return [1 + sum(other > key for other in keys) for key in keys]
