"""Game configuration: one frozen object, validated on creation, that owns which game is played.

:class:`GameConfig` holds the options of one game and decides what they mean together: its rule set
(:class:`RuleSet`: base, expansion or Brutii; ``brutii=True`` implies the expansion), its default player count
(the rule set's, :data:`DEFAULT_PLAYERS`) and the round limit (:data:`DEFAULT_ROUND_LIMIT`).
:func:`config_to_dict` and :func:`config_from_dict` are its one text form, which game documents
(:mod:`~tribune_env.engine.serialize`) and every layer above use; :func:`config_fields` names the options.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tribune_env.data import ComponentError, Components, ExpansionVictoryCard, VictoryCard, default_components
from tribune_env.data.schema import find_card
from tribune_env.engine.tables import Tables, tables_for

__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_ROUND_LIMIT",
    "FAMILIES_DEFAULT_PLAYERS",
    "MAX_ROUND_LIMIT",
    "AnyVictoryCard",
    "GameConfig",
    "RuleSet",
    "config_fields",
    "config_from_dict",
    "config_to_dict",
    "document_config",
    "required_for",
    "victory_cards_of",
]

AnyVictoryCard = VictoryCard | ExpansionVictoryCard

DEFAULT_PLAYERS = 0
"""``GameConfig.players`` left at this value (or ``None``) means the rule set's default player count."""
DEFAULT_ROUND_LIMIT = 60
"""The round after which a game is truncated unless configured otherwise (R25)."""
MAX_ROUND_LIMIT = 1_000
"""The most rounds a game may be configured to last: the one bound of ``round_limit``, for a config and for the
game's document alike (a saved game always reads back)."""
FAMILIES_DEFAULT_PLAYERS = 4
"""The default player count of the base game and of the expansion (both without the Brutii)."""


class RuleSet(StrEnum):
    """Which rules a game is played by; the value is the rule set's name (``"base"``, ``"expansion"``,
    ``"brutii"``). The Brutii variant (R42) is played with the expansion."""

    BASE = "base"
    EXPANSION = "expansion"
    BRUTII = "brutii"

    @classmethod
    def of(cls, expansion: bool, brutii: bool = False) -> RuleSet:
        """The rule set of the two flags: ``brutii`` implies the expansion."""
        return cls.BRUTII if brutii else cls.EXPANSION if expansion else cls.BASE

    @classmethod
    def parse(cls, name: object) -> RuleSet:
        """The rule set called ``name`` (a member is returned as it is); ValueError names the known names."""
        if isinstance(name, str):
            try:
                return cls(name)
            except ValueError:
                pass
        known = ", ".join(rules.value for rules in cls)
        raise ValueError(f"rules: expected one of {known}, got {name!r:.60}")

    @property
    def uses_expansion(self) -> bool:
        """Whether the game is played with the Tribune Expansion (the expansion and the Brutii variant)."""
        return self is not RuleSet.BASE

    @property
    def has_brutii(self) -> bool:
        """Whether one seat is the Brutii (R42-R54)."""
        return self is RuleSet.BRUTII

    @property
    def description(self) -> str:
        """How the rule set is named in messages: "by the base game", "with the expansion", "with the Brutii"."""
        return {"base": "by the base game", "expansion": "with the expansion", "brutii": "with the Brutii"}[self.value]

    def check(self, components: Components) -> None:
        """ValueError (naming the option) when ``components`` lacks the tables this rule set is played with."""
        spec = components.expansion
        if self.uses_expansion and spec is None:
            raise ValueError(
                f"expansion: the component set {components.name!r} has no expansion tables "
                "(add the [expansion] tables to the component file)"
            )
        if self.has_brutii and (spec is None or spec.brutii is None):
            raise ValueError(f"brutii: the component set {components.name!r} has no [expansion.brutii] table")

    def player_counts(self, components: Components) -> tuple[int, ...]:
        """The player counts (seats, the Brutii included) this rule set supports with ``components``, ascending;
        ValueError as for :meth:`check`."""
        self.check(components)
        spec = components.expansion
        if spec is not None and self.has_brutii and spec.brutii is not None:
            return spec.brutii.seat_counts
        if spec is not None and self.uses_expansion:
            return tuple(sorted(spec.followers))
        return components.player_counts

    def default_players(self, components: Components) -> int:
        """The player count of a game that names none: the smallest table with the Brutii (R42), else
        :data:`FAMILIES_DEFAULT_PLAYERS`; ValueError as for :meth:`check`."""
        if self.has_brutii:
            return self.player_counts(components)[0]
        self.check(components)
        return FAMILIES_DEFAULT_PLAYERS


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
    """Options of one game; the one owner of which game is played.

    Creation validates every option (a ValueError names it) and settles what the options mean together:
    ``brutii=True`` implies ``expansion=True``, and ``players`` left at :data:`DEFAULT_PLAYERS` (or ``None``)
    becomes the rule set's default player count (:meth:`RuleSet.default_players`). After creation the fields
    hold the game as played (``GameConfig(brutii=True) == GameConfig(players=5, expansion=True, brutii=True)``).

    Attributes:
        players: number of seats (2..5 with the base components); :data:`DEFAULT_PLAYERS` (or ``None``): the rule
            set's default (4, or the smallest table with the Brutii).
        victory_card: id of a victory condition card (e.g. ``"alea_long"``), or
            ``None`` for a random card valid for the player count (R3).
        point_variant: play the point-value variant instead of a victory card.
        round_limit: the game is truncated after this round (R25).
        auto_forced: apply a decision that has exactly one legal choice
            automatically, so that agents only see real choices.
        start_seat: the starting player, or ``None`` to draw one at random.
        expansion: play with the Tribune Expansion (2-5 families, R42); the component set needs its
            expansion tables. Set by ``brutii``.
        brutii: play the Brutii variant (with the expansion, which it implies; 5 or 6 seats, one of them the
            Brutii; R42-R54).
        brutii_seat: the Brutii's seat, or ``None`` to draw one at random (R43); the starting player is
            the seat after him.
        components: the component set (default: the packaged one); configs with different numbers
            compare unequal (component sets compare by content, see :class:`Components`).
    """

    players: int = DEFAULT_PLAYERS
    victory_card: str | None = None
    point_variant: bool = False
    round_limit: int = DEFAULT_ROUND_LIMIT
    auto_forced: bool = True
    start_seat: int | None = None
    expansion: bool = False
    brutii: bool = False
    brutii_seat: int | None = None
    components: Components = field(default_factory=default_components, repr=False)

    def __post_init__(self) -> None:
        self._check_types()
        if self.brutii:  # the one policy: the Brutii variant is played with the expansion (R42)
            object.__setattr__(self, "expansion", True)
        if self.brutii_seat is not None and not self.brutii:
            raise ValueError("brutii_seat: set only with brutii=true")
        rules = self.rules
        rules.check(self.components)
        if self.players is None or self.players == DEFAULT_PLAYERS:
            object.__setattr__(self, "players", rules.default_players(self.components))
        counts = rules.player_counts(self.components)
        if self.players not in counts:
            raise ValueError(f"players: {self.players} is not supported {rules.description}; choose {_or(counts)}")
        if self.round_limit < 1:
            raise ValueError(f"round_limit: must be >= 1, got {self.round_limit}")
        if self.round_limit > MAX_ROUND_LIMIT:
            raise ValueError(f"round_limit: must be <= {MAX_ROUND_LIMIT} (a saved game's most), got {self.round_limit}")
        for name in ("start_seat", "brutii_seat"):
            seat = getattr(self, name)
            if seat is not None and not 0 <= seat < self.players:
                raise ValueError(f"{name}: must be in 0..{self.players - 1}, got {seat}")
        if self.victory_card is not None:
            card = self.find_victory_card(self.victory_card)
            rows = self.required_rows(card)
            if self.players not in rows:
                raise ValueError(
                    f"victory_card: {card.id!r} is not for {self.players} players (it is for {sorted(rows)})"
                )

    def _check_types(self) -> None:
        """ValueError naming the first option of a wrong type (``players`` may be ``None``: the default)."""
        for name, nullable in (("players", True), ("round_limit", False), ("start_seat", True), ("brutii_seat", True)):
            value = getattr(self, name)
            if (value is not None or not nullable) and (isinstance(value, bool) or not isinstance(value, int)):
                what = "an integer or null" if name.endswith("_seat") else "an integer"
                raise ValueError(f"{name}: expected {what}, got {value!r}")
        for name in ("point_variant", "auto_forced", "expansion", "brutii"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name}: expected true or false, got {getattr(self, name)!r}")
        card_id: object = self.victory_card
        if card_id is not None and not isinstance(card_id, str):
            raise ValueError(f"victory_card: expected a card id or null, got {card_id!r}")

    @classmethod
    def for_rules(cls, rules: RuleSet | str, **options: Any) -> GameConfig:
        """A game of the rule set ``rules`` (a :class:`RuleSet` or its name) with the other ``options``;
        ``expansion`` and ``brutii`` may be given only as the rule set has them (ValueError otherwise)."""
        rule_set = RuleSet.parse(rules)
        for name, value in (("expansion", rule_set.uses_expansion), ("brutii", rule_set.has_brutii)):
            if name in options and options[name] is not value:
                raise ValueError(f"{name}: the rule set {rule_set.value!r} is played with {name}={value}")
        return cls(**{**options, "expansion": rule_set.uses_expansion, "brutii": rule_set.has_brutii})

    def to_dict(self) -> dict[str, Any]:
        """The options as plain JSON values (:func:`config_to_dict`)."""
        return config_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], components: Components | None = None) -> GameConfig:
        """The config of a :meth:`to_dict` dict or a hand-written one (:func:`config_from_dict`)."""
        return config_from_dict(data, components)

    # -- the numbers of this game's rule set -------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rule set of this game: base, expansion or Brutii."""
        return RuleSet.of(self.expansion, self.brutii)

    @property
    def tables(self) -> Tables:
        """The card-type and follower-space tables of this game's components and rule set (built once per pair;
        shared, read-only)."""
        return tables_for(self.components, self.expansion)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this configuration's rule set supports (:meth:`RuleSet.player_counts`)."""
        return self.rules.player_counts(self.components)

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


# --- the text form: one writer and one reader, for documents, records, results files, checkpoints, the web ---

_OPTIONS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(GameConfig))


def _or(values: tuple[int, ...]) -> str:
    """``2, 3, 4 or 5``: numbers in words for a message (not a tuple's repr)."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def config_fields() -> tuple[str, ...]:
    """The options a user may set, in declaration order: the fields of :class:`GameConfig`
    (``players``, ``victory_card``, ..., ``components``)."""
    return _OPTIONS


# key -> (accepts, what is expected): the type each key of the dict form holds
_INT = (int,)
_KEY_TYPES: dict[str, tuple[tuple[type, ...], bool, str]] = {
    "players": (_INT, True, "a player count or null (the rule set's default)"),
    "victory_card": ((str,), True, "a card id or null"),
    "point_variant": ((bool,), False, "true or false"),
    "round_limit": (_INT, False, "an integer"),
    "auto_forced": ((bool,), False, "true or false"),
    "start_seat": (_INT, True, "a seat or null"),
    "expansion": ((bool,), False, "true or false"),
    "brutii": ((bool,), False, "true or false"),
    "brutii_seat": (_INT, True, "a seat or null"),
    "components": ((str,), False, "the name of a component set"),
    "rules": ((str,), False, "a rule set name"),
}
"""Every key :func:`config_from_dict` reads: (types, null allowed, what is expected)."""


def config_to_dict(config: GameConfig) -> dict[str, Any]:
    """The options of ``config`` as a JSON-ready dict, which :func:`config_from_dict` reads back equal (given the
    same component set).

    The keys are those of a game document's ``config`` (docs/state-format.md): ``players``, ``victory_card``,
    ``point_variant``, ``round_limit``, ``auto_forced``, ``components`` (the component set's *name*), then
    ``expansion`` (only when true), ``brutii`` and ``brutii_seat`` (only in a game with the Brutii); and
    ``start_seat`` after ``auto_forced`` when it is set. The rule set is not written as a key: it is
    ``RuleSet.of(expansion, brutii)``, and a document's format stays as it was.
    """
    return _to_dict(config, config.victory_card, with_start_seat=True)


def document_config(config: GameConfig, victory_card: str | None) -> dict[str, Any]:
    """The ``config`` object of a game document: :func:`config_to_dict` with the victory card in play
    (``victory_card``: the one drawn when the config left it open, R3; ``None`` in the point-value variant)
    and without ``start_seat`` (a document's top-level ``start_seat`` is the round's starting player)."""
    return _to_dict(config, victory_card, with_start_seat=False)


def _to_dict(config: GameConfig, victory_card: str | None, with_start_seat: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "players": config.players,
        "victory_card": victory_card,
        "point_variant": config.point_variant,
        "round_limit": config.round_limit,
        "auto_forced": config.auto_forced,
    }
    if with_start_seat and config.start_seat is not None:
        out["start_seat"] = config.start_seat
    out["components"] = config.components.name
    if config.expansion:
        out["expansion"] = True
    if config.brutii:
        out["brutii"] = True
        out["brutii_seat"] = config.brutii_seat
    return out


def config_from_dict(data: Mapping[str, Any], components: Components | None = None) -> GameConfig:
    """The :class:`GameConfig` of a dict written by :func:`config_to_dict` or by hand.

    Every key is optional (a missing key has its field's default) and may be null where the field may be
    ``None``. ``components`` is the component set to play with (default: the packaged one); a ``"components"``
    key must name it. A ``"rules"`` key (``"base"``, ``"expansion"``, ``"brutii"``) may stand for the
    ``expansion`` and ``brutii`` flags, which must then agree with it.

    Raises:
        ValueError: naming the key: an unknown key, a value of the wrong type, another component set's name,
            or an invalid game (:class:`GameConfig`'s own checks).
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"expected an object of game options, got {type(data).__name__}")
    unknown = sorted(str(key) for key in data if key not in _KEY_TYPES)
    if unknown:
        raise ValueError(f"{unknown[0]}: unknown option; the options are {', '.join(_KEY_TYPES)}")
    for key, value in data.items():
        types, nullable, what = _KEY_TYPES[key]
        if value is None and nullable:
            continue
        wrong_type = not isinstance(value, types) or (isinstance(value, bool) and bool not in types)
        if wrong_type or (key == "players" and value == DEFAULT_PLAYERS):  # 0 means "unset" to the constructor only
            raise ValueError(f"{key}: expected {what}, got {value!r:.60}")
    comps = default_components() if components is None else components
    name = data.get("components", comps.name)
    if name != comps.name:
        raise ValueError(f"components: written with the component set {name!r}, but {comps.name!r} is given")
    options = {key: value for key, value in data.items() if key not in ("components", "rules")}
    if "rules" in data:
        rules = RuleSet.parse(data["rules"])
        return GameConfig.for_rules(rules, components=comps, **options)
    return GameConfig(components=comps, **options)
