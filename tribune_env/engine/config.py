"""Game configuration: one frozen object, validated on creation."""

from __future__ import annotations

from dataclasses import dataclass, field

from tribune_env.data import Components, default_components


@dataclass(frozen=True)
class GameConfig:
    """Options of one game.

    Attributes:
        players: number of players (2..5 with the base components).
        victory_card: id of a victory condition card (e.g. ``"alea_long"``), or
            ``None`` for a random card valid for the player count (R3).
        point_variant: play the point-value variant instead of a victory card.
        round_limit: the game is truncated after this round (R25).
        auto_forced: apply a decision that has exactly one legal choice
            automatically, so that agents only see real choices.
        start_seat: the starting player, or ``None`` to draw one at random.
        components: the component set (default: the packaged one); configs with different numbers
            compare unequal (component sets compare by content, see :class:`Components`).
    """

    players: int = 4
    victory_card: str | None = None
    point_variant: bool = False
    round_limit: int = 60
    auto_forced: bool = True
    start_seat: int | None = None
    components: Components = field(default_factory=default_components, repr=False)

    def __post_init__(self) -> None:
        for name in ("players", "round_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name}: expected an integer, got {value!r}")
        for name in ("point_variant", "auto_forced"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name}: expected true or false, got {getattr(self, name)!r}")
        counts = self.components.player_counts
        if self.players not in counts:
            raise ValueError(f"players: {self.players} is not supported; choose one of {counts}")
        if self.round_limit < 1:
            raise ValueError(f"round_limit: must be >= 1, got {self.round_limit}")
        if self.start_seat is not None and not 0 <= self.start_seat < self.players:
            raise ValueError(f"start_seat: must be in 0..{self.players - 1}, got {self.start_seat}")
        if self.victory_card is not None:
            try:
                card = self.components.victory_card(self.victory_card)
            except ValueError as err:
                raise ValueError(f"victory_card: {err}") from None
            if self.players not in card.required:
                raise ValueError(
                    f"victory_card: {card.id!r} is not for {self.players} players (it is for {sorted(card.required)})"
                )
