"""Game configuration: one frozen object, validated on creation."""

from __future__ import annotations

from dataclasses import dataclass, field

from tribune_env.data import ComponentError, Components, ExpansionVictoryCard, VictoryCard, default_components
from tribune_env.data.schema import find_card

AnyVictoryCard = VictoryCard | ExpansionVictoryCard


def victory_cards_of(components: Components, expansion: bool) -> tuple[AnyVictoryCard, ...]:
    """Every card a game may use: the expansion cards in an expansion game (listed first), then the base cards,
    which R41 allows to be configured."""
    base: tuple[AnyVictoryCard, ...] = components.victory_cards
    if expansion and components.expansion is not None:
        return components.expansion.victory_cards + base
    return base


def required_for(card: AnyVictoryCard, players: int, brutii: bool) -> int:
    """Objectives of ``card`` a player needs at ``players`` seats: the "with Brutii" row in a Brutii game (E106)."""
    if brutii and isinstance(card, ExpansionVictoryCard):
        return card.required_brutii[players]
    return card.required[players]


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
        expansion: play with the Tribune Expansion (2-5 families, R42); the component set needs its
            expansion tables.
        brutii: play the Brutii variant (expansion only; 5 or 6 seats, one of them the Brutii; R42-R54).
        brutii_seat: the Brutii's seat, or ``None`` to draw one at random (R43); the starting player is
            the seat after him.
        components: the component set (default: the packaged one); configs with different numbers
            compare unequal (component sets compare by content, see :class:`Components`).
    """

    players: int = 4
    victory_card: str | None = None
    point_variant: bool = False
    round_limit: int = 60
    auto_forced: bool = True
    start_seat: int | None = None
    expansion: bool = False
    brutii: bool = False
    brutii_seat: int | None = None
    components: Components = field(default_factory=default_components, repr=False)

    def __post_init__(self) -> None:
        for name in ("players", "round_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name}: expected an integer, got {value!r}")
        for name in ("point_variant", "auto_forced", "expansion", "brutii"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name}: expected true or false, got {getattr(self, name)!r}")
        if self.expansion and self.components.expansion is None:
            raise ValueError(
                f"expansion: the component set {self.components.name!r} has no expansion tables "
                "(add the [expansion] tables to the component file)"
            )
        self._check_brutii()
        counts = self.player_counts
        if self.players not in counts:
            what = "with the Brutii" if self.brutii else "with the expansion" if self.expansion else "by the base game"
            raise ValueError(f"players: {self.players} is not supported {what}; choose one of {counts}")
        if self.round_limit < 1:
            raise ValueError(f"round_limit: must be >= 1, got {self.round_limit}")
        if self.start_seat is not None and not 0 <= self.start_seat < self.players:
            raise ValueError(f"start_seat: must be in 0..{self.players - 1}, got {self.start_seat}")
        if self.brutii_seat is not None and not 0 <= self.brutii_seat < self.players:
            raise ValueError(f"brutii_seat: must be in 0..{self.players - 1}, got {self.brutii_seat}")
        if self.victory_card is not None:
            card = self.find_victory_card(self.victory_card)
            rows = self.required_rows(card)
            if self.players not in rows:
                raise ValueError(
                    f"victory_card: {card.id!r} is not for {self.players} players (it is for {sorted(rows)})"
                )

    def _check_brutii(self) -> None:
        seat = self.brutii_seat
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ValueError(f"brutii_seat: expected an integer or null, got {self.brutii_seat!r}")
        if self.brutii_seat is not None and not self.brutii:
            raise ValueError("brutii_seat: set only with brutii=true")
        if not self.brutii:
            return
        if not self.expansion:
            raise ValueError("brutii: the Brutii variant is played with the expansion (set expansion=true)")
        spec = self.components.expansion
        if spec is None or spec.brutii is None:
            raise ValueError(
                f"brutii: the component set {self.components.name!r} has no [expansion.brutii] table"
            )

    # -- the numbers of this game's rule set (base, or base plus expansion) -------------------

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this configuration's rule set supports."""
        spec = self.components.expansion
        if self.brutii and spec is not None and spec.brutii is not None:
            return spec.brutii.seat_counts
        if self.expansion and spec is not None:
            return tuple(sorted(spec.followers))
        return self.components.player_counts

    @property
    def followers(self) -> int:
        """Followers per family (E16: the expansion has its own table; R42: so has the Brutii variant, whose
        Brutii takes as many phase-2 turns and has no followers)."""
        spec = self.components.expansion
        if self.brutii and spec is not None and spec.brutii is not None:
            return spec.brutii.followers[self.players]
        if self.expansion and spec is not None:
            return spec.followers[self.players]
        return self.components.followers[self.players]

    @property
    def point_variant_markers(self) -> int:
        """Faction markers that end a point-value variant game (E75)."""
        spec = self.components.expansion
        if self.expansion and spec is not None:
            return spec.point_variant[self.players]
        return self.components.point_variant[self.players]

    def victory_cards(self) -> tuple[AnyVictoryCard, ...]:
        """Every card a game of this configuration may use (:func:`victory_cards_of`)."""
        return victory_cards_of(self.components, self.expansion)

    def default_victory_cards(self) -> tuple[AnyVictoryCard, ...]:
        """The cards a random victory card is drawn from (R3; R41: the expansion cards in an expansion game)."""
        spec = self.components.expansion
        cards: tuple[AnyVictoryCard, ...] = spec.victory_cards if self.expansion and spec is not None else ()
        cards = cards or self.components.victory_cards
        return tuple(c for c in cards if self.players in self.required_rows(c))

    def required_rows(self, card: AnyVictoryCard) -> dict[int, int]:
        """The card's row of objectives required by player count: its "with Brutii" row in a Brutii game (E106)."""
        if self.brutii and isinstance(card, ExpansionVictoryCard):
            return card.required_brutii
        return card.required

    def required(self, card: AnyVictoryCard) -> int:
        """How many of ``card``'s objectives a player needs in this game (R24, E106)."""
        return required_for(card, self.players, self.brutii)

    def find_victory_card(self, card_id: str) -> AnyVictoryCard:
        """The card ``card_id`` of this rule set; ValueError names the known ids."""
        try:
            return find_card(self.victory_cards(), card_id)
        except ComponentError as err:
            raise ValueError(f"victory_card: {err}") from None
