"""The names people read for the ids of a component set (issue 38).

The engine writes its log lines, its text board and its documents with internal ids (a card label ``vestals:6``, a
space label ``faction:gladiators:1``, a region key ``field_of_mars``, a victory card id ``pecunia``, a phase
``card_placement``, a decision key ``setup_discard``); saved documents hold them and keep holding them. Text meant
for a person (``tribune log``, ``tribune replay``, the replay page, terminal play) shows the printed names instead:

- :func:`region_name`, :func:`phase_name`, :func:`decision_name`: one region, phase or decision in words;
- :func:`victory_card_title` (of a card record) and :func:`victory_card_name` (of an id): a victory card's one name,
  its printed title and length (``Pecunia non olet (medium game)``), or for a card whose title is not known what
  sets it apart (``Tribune obligatory (medium game)``);
- :func:`config_text`: a game's options in one line of words (not the dictionary form of the documents);
- :func:`component_ids`: every internal id of a game's component set with the words a person reads for it (what a
  text for people must not contain, and what replaces each).

The names come from the component set (faction names and leaders, victory card titles, officials' names, slave
nationalities) and, for what the component file does not name (the regions), from the board as printed. Nothing
here changes the engine's texts: it only reads them.
"""

from __future__ import annotations

from tribune_env.data import BrutiiCard, BrutiiDisc, Components, Nationality, Official, Region, Requirement
from tribune_env.engine.config import AnyVictoryCard, GameConfig, victory_cards_of
from tribune_env.engine.decisions import DecisionKind, Phase
from tribune_env.engine.tables import SpaceKind, SpaceSpec, Tables
from tribune_env.engine.view import OBJECTIVE_NAMES

REGION_NAMES: dict[Region, str] = {
    Region.THERMAE: "Thermae",
    Region.FORUM: "Forum",
    Region.LATRINE: "Latrine",
    Region.CURIA: "Curia",
    Region.ATRIUM: "Atrium Auctionorum",
    Region.CATACOMBS: "Catacombs",
    Region.PANTHEON: "Pantheon",
    Region.FIELD_OF_MARS: "Field of Mars",
    Region.REFUGIUM: "Refugium",
    Region.BASILICA: "Basilica",
    Region.CAPITOLEUM: "Capitoleum",
}
"""The regions' names as printed on the board (the component file names no region)."""

PHASE_NAMES: dict[Phase, str] = {
    Phase.SETUP: "set-up",
    Phase.CARD_PLACEMENT: "card placement",
    Phase.FOLLOWER_PLACEMENT: "follower placement",
    Phase.REGION_EVALUATION: "region evaluation",
    Phase.TAKEOVERS: "take-overs",
    Phase.FACTION_BENEFITS: "faction benefits",
    Phase.CHARIOT_AUCTION: "chariot auction",
    Phase.GAME_OVER: "game over",
    Phase.EXPANSION_EVALUATION: "expansion board",
    Phase.PREPARATION: "preparation",
}
"""The phases in the rulebook's words (expansion phase 6 evaluates the expansion board, phase 8 prepares the next
round)."""

BRUTII_CARD_NAMES: dict[BrutiiCard, str] = {
    BrutiiCard.PATRON: "Patron",
    BrutiiCard.FACTION_TAKEOVER: "Faction Take-Over",
    BrutiiCard.ETERNAL_FAVOR: "Eternal Favor",
    BrutiiCard.FAVOR_OF_THE_EMPEROR: "Favor of the Emperor",
    BrutiiCard.OFFICIAL: "Official",
    BrutiiCard.CARDS: "Cards",
    BrutiiCard.DENARII: "Denarii",
    BrutiiCard.LAURELS: "Laurels",
    BrutiiCard.BUY_A_LEGION: "Buy a Legion",
    BrutiiCard.SLAVE_CARDS: "Slave Cards",
    BrutiiCard.MASS_MURDER: "Mass Murder",
    BrutiiCard.VETO: "Veto",
}
"""The Brutii's action cards as printed."""

_PROPER: dict[str, str] = {
    "field of mars": "Field of Mars",
    "atrium": "Atrium",
    "curia": "Curia",
    "catacombs": "Catacombs",
    "pantheon": "Pantheon",
    "latrine": "Latrine",
    "refugium": "Refugium",
    "basilica": "Basilica",
    "tigellinus": "Tigellinus",
    "agrippa": "Agrippa",
    "cato": "Cato",
    "brutii": "Brutii",
    "augur": "Augur",
    "tribunus plebis": "Tribunus Plebis",
    "takeover": "take-over",
    "setup": "set-up",
}
"""The words of the decision keys that are names (or hyphenated) in the rulebook."""


_DECISION_KEYS = frozenset(kind.key for kind in DecisionKind)


def region_name(region: Region | int) -> str:
    """``Field of Mars``, ``Atrium Auctionorum``."""
    return REGION_NAMES[Region(region)]


def phase_name(phase: Phase | int) -> str:
    """``card placement``, ``take-overs``, ``set-up``."""
    return PHASE_NAMES[Phase(phase)]


def decision_name(kind: DecisionKind | str) -> str:
    """A decision in words, its names capitalised as printed: ``field_of_mars_pair`` -> ``Field of Mars pair``,
    ``setup_discard`` -> ``set-up discard``, ``brutii_veto`` -> ``Brutii veto``. A key that names no decision
    raises ``ValueError``."""
    if isinstance(kind, DecisionKind):
        key = kind.key
    elif kind in _DECISION_KEYS:
        key = kind
    else:
        raise ValueError(f"no decision {kind!r}")
    words = " " + key.replace("_", " ") + " "
    for term in sorted(_PROPER, key=len, reverse=True):
        words = words.replace(f" {term} ", f" {_PROPER[term]} ")
    return words.strip()


UNKNOWN_TITLE = "(title unknown)"
"""How the component file starts the title of a card whose printed title is not known (``(title unknown) C``)."""


def _distinction(card: AnyVictoryCard) -> str:
    """What sets a card without a known title apart from the other cards of its set: its obligatory objectives
    (``Tribune obligatory``), else the player counts it is for (``5-player card``)."""
    if card.obligatory:
        words = " and ".join(OBJECTIVE_NAMES.get(key, key.replace("_", " ")) for key in card.obligatory)
        return f"{words[0].upper()}{words[1:]} obligatory"
    counts = sorted(int(n) for n in card.required)
    players = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return f"{players}-player card"


def victory_card_title(card: AnyVictoryCard) -> str:
    """The one name of a victory card, wherever a person reads it (``tribune log``, ``tribune replay`` and its page,
    terminal play, the web table): its printed title and the game's length, ``Pecunia non olet (medium game)``. A
    card whose printed title is not known is named by what sets it apart, never by its id or as unknown:
    ``Tribune obligatory (medium game)``, ``5-player card (short game)``."""
    title = card.title
    if title.startswith(UNKNOWN_TITLE) or not title.strip():
        title = _distinction(card)
    return f"{title} ({card.length} game)" if card.length else title


def victory_card_name(components: Components, card_id: str) -> str:
    """:func:`victory_card_title` of the card ``card_id`` of ``components`` (base or expansion): ``Pecunia non olet
    (medium game)``; ``ValueError`` for an id the set does not hold."""
    for card in victory_cards_of(components, True):
        if card.id == card_id:
            return victory_card_title(card)
    raise ValueError(f"no victory card {card_id!r} in the component set {components.name!r}")


_RULES_WORDS = {"base": "base game", "expansion": "with the expansion", "brutii": "with the expansion and the Brutii"}


def config_text(config: GameConfig) -> str:
    """A game's options in words, e.g. ``3 players, base game, victory card Pecunia non olet (medium game), round
    limit 30``; only what differs from the defaults is said besides the players, the rule set and the card."""
    parts = [f"{config.players} players", _RULES_WORDS[config.rules.value]]
    if config.brutii and config.brutii_seat is not None:
        parts[-1] += f" (the Brutii at seat P{config.brutii_seat})"
    if config.point_variant:
        parts.append("point-value variant")
    elif config.victory_card is None:
        parts.append("victory card drawn at set-up")
    else:
        parts.append(f"victory card {victory_card_name(config.components, config.victory_card)}")
    parts.append(f"round limit {config.round_limit}")
    if config.start_seat is not None:
        parts.append(f"P{config.start_seat} starts")
    if not config.auto_forced:
        parts.append("forced decisions asked")
    if config.components.name != "default":
        parts.append(f"component set {config.components.name!r}")
    return ", ".join(parts)


def space_words(tables: Tables, spec: SpaceSpec) -> str:
    """A follower space in words: ``Thermae, space 2``, ``the Gladiators faction field, space 1``, ``the coin bowl``
    (a region with one space is named alone: ``Latrine``)."""
    if spec.kind is SpaceKind.COIN_BOWL:
        return "the coin bowl"
    if spec.kind is SpaceKind.FACTION:
        assert spec.faction is not None
        return f"the {tables.components.factions[int(spec.faction)].name} faction field, space {spec.slot + 1}"
    assert spec.region is not None
    name = REGION_NAMES[spec.region]
    return name if len(tables.region_spaces[spec.region]) == 1 else f"{name}, space {spec.slot + 1}"


_ORDINARY = frozenset(("setup", "takeovers", "preparation", "cards", "denarii", "laurels", "patron", "scroll", "favor"))
"""Ids that are ordinary words of the log (``pays 3 denarii``, ``take a scroll``)."""


def component_ids(config: GameConfig) -> dict[str, str]:
    """Every internal id of ``config``'s component set and rule set with its words: card labels, space labels,
    faction keys, region keys, victory card ids (of every rule set), officials, slave nationalities, the emperor
    tiles' requirements, the Brutii's action cards and discs, the decision keys and the phases. Ids that are
    ordinary words (``patron``, ``cards``, ``scroll``) are left out: a person reads them as words."""
    tables = config.tables
    ids: dict[str, str] = {tables.card_label[c]: tables.card_name(c) for c in range(tables.num_card_types)}
    ids |= {spec.label: space_words(tables, spec) for spec in tables.spaces}
    ids |= {spec.faction.key: spec.name for spec in config.components.factions}
    ids |= {region.key: name for region, name in REGION_NAMES.items()}
    ids |= {
        card.id: victory_card_name(config.components, card.id) for card in victory_cards_of(config.components, True)
    }
    ids |= {kind.key: decision_name(kind) for kind in DecisionKind}
    ids |= {phase.name.lower(): name for phase, name in PHASE_NAMES.items()}
    extra = config.components.expansion
    if extra is not None:
        ids |= {official.key: extra.official(official).name for official in Official}
    ids |= {nationality.key: nationality.key.capitalize() for nationality in Nationality}
    ids |= {q.key: q.key.replace("_", " ") for q in Requirement if "_" in q.key}
    ids |= {card.key: name for card, name in BRUTII_CARD_NAMES.items() if "_" in card.key}
    ids |= {disc.key: disc.key.replace("_", " + ") for disc in BrutiiDisc if "_" in disc.key}
    return {key: words for key, words in ids.items() if key not in _ORDINARY}
