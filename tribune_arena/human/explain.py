"""Explanations in words for a person at the table: shared by ``tribune play`` and the web app.

Pure functions over a :class:`~tribune_env.engine.game.Game` and a seat; nothing here prints. Everything said
comes from what that seat may know (:meth:`Game.view`, the log lines it may read) and from the component set's
numbers, never from hidden cards. No internal id (``thermae:2``, ``faction:gladiators:1``, ``senators:7``, a
victory card id such as ``alea_long``, a decision key) is ever part of the words.

- :func:`victory_goal`, :func:`victory_progress`, :func:`victory_lines`, :func:`progress_line`: the victory card
  (or the point-value variant) and each player's progress on its objectives (all public in Tribune: R1);
- :func:`choice_words`, :func:`choice_detail`, :func:`explain_choice`: a legal choice, its cost and its effect;
- :func:`mark` and :func:`changes_since`: what changed between two moments, in a few lines;
- :func:`takeover_lines`: in a take-over, the set built so far and the set to beat (R15, R31);
- :func:`start_lines`: the game's start, for the first summary (the set-up discards are no change to report, R4);
- :func:`person_text`, :func:`board_text`, :func:`log_lines`: the engine's own text (log lines, the text board) with
  every internal id replaced by the printed name and every ``(s)`` plural settled (:func:`plural_words`).
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from tribune_env.data import BrutiiCard, Faction, Nationality, Official, Region
from tribune_env.engine.actions import (
    Action,
    Assassinate,
    Bid,
    ChooseActionCard,
    ChooseFaction,
    ChooseOfficial,
    ChooseRegion,
    ChooseTile,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.brutii import card_effect
from tribune_env.engine.config import AnyVictoryCard, victory_cards_of
from tribune_env.engine.decisions import DecisionKind, Pending, Phase, TakeoverRole
from tribune_env.engine.game import Game
from tribune_env.engine.names import BRUTII_CARD_NAMES, REGION_NAMES, victory_card_title
from tribune_env.engine.registry import DECISIONS
from tribune_env.engine.state import TRIBUNE
from tribune_env.engine.tables import SpaceKind, SpaceSpec, Tables
from tribune_env.engine.text import tile_text
from tribune_env.engine.view import HIDDEN, OBJECTIVE_NAMES, PlayerView, PublicPlayer, objective_amounts

# -- the victory card ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Objective:
    """One objective of the victory card: ``need`` is its number (None for tribune and favor)."""

    key: str
    name: str
    need: int | None
    obligatory: bool
    text: str


@dataclass(frozen=True)
class VictoryGoal:
    """The victory card in words: ``required`` objectives of ``objectives`` for this game's seats (R24, E106)."""

    name: str
    length: str
    required: int
    objectives: tuple[Objective, ...]

    def text(self) -> str:
        """One line, e.g. ``Alea Iacta Est (red) (long game): meet 4 of 5 objectives: ...``."""
        parts = "; ".join(o.text + (" (obligatory)" if o.obligatory else "") for o in self.objectives)
        return f"{self.name}: meet {self.required} of {len(self.objectives)} objectives: {parts}"


@dataclass(frozen=True)
class ObjectiveProgress:
    """One player's standing on one objective: ``have`` is the amount held (1/0 for tribune and favor)."""

    objective: Objective
    have: int
    met: bool

    def text(self) -> str:
        o = self.objective
        if o.need is None:
            return f"{o.name} {'yes' if self.met else 'no'}"
        return f"{o.name} {self.have}/{o.need}"


@dataclass(frozen=True)
class PlayerProgress:
    """A player's progress on the victory card: ``fulfils`` when he meets it now (every obligatory objective and
    ``required`` in all)."""

    seat: int
    objectives: tuple[ObjectiveProgress, ...]
    met: int
    required: int
    fulfils: bool

    def text(self) -> str:
        done = ", fulfilled" if self.fulfils else ""
        details = ", ".join(p.text() + (" *" if p.met else "") for p in self.objectives)
        return f"P{self.seat}: {self.met} of {self.required} met{done} ({details})"


def _objective_text(key: str, need: int | None) -> str:
    if key == "tribune":
        return "be tribune (hold the tribune tile)"
    if key == "favor":
        return "hold a favor of the gods (eternal or temporary)"
    name = OBJECTIVE_NAMES.get(key, key.replace("_", " "))
    if need == 1:  # the names are plurals: "1 emperor tile", "1 denarius"
        name = "denarius" if name == "denarii" else name.removesuffix("s")
    return f"at least {need} {name}"


def _card_objectives(card: AnyVictoryCard) -> tuple[str, ...]:
    numeric = tuple(card.thresholds)
    return ("tribune", "favor", *numeric)


def victory_card_of(game: Game) -> AnyVictoryCard | None:
    """The game's victory card record, None in the point-value variant."""
    if game.config.point_variant:
        return None
    return game.config.find_victory_card(game.view(0).victory_card)


def victory_goal(game: Game) -> VictoryGoal | None:
    """The victory card's objectives with the numbers of the component set for this player count, point variant,
    expansion and Brutii (R24, E72, E106); None in the point-value variant (see :func:`victory_lines`)."""
    card = victory_card_of(game)
    if card is None:
        return None
    objectives = tuple(
        Objective(
            key,
            OBJECTIVE_NAMES.get(key, key),
            card.thresholds.get(key),
            key in card.obligatory,
            _objective_text(key, card.thresholds.get(key)),
        )
        for key in _card_objectives(card)
    )
    return VictoryGoal(victory_card_title(card), card.length, game.config.required(card), objectives)


def _holding(player: PublicPlayer, key: str) -> int:
    return objective_amounts(player)[key]


def player_progress(goal: VictoryGoal, view: PlayerView, player: int) -> PlayerProgress:
    """``player``'s progress on ``goal`` as ``view`` shows it ("at least" thresholds, R24)."""
    public = view.players[player]
    rows = []
    for o in goal.objectives:
        have = _holding(public, o.key)
        rows.append(ObjectiveProgress(o, have, have >= o.need if o.need is not None else have > 0))
    met = sum(r.met for r in rows)
    obligatory = all(r.met for r in rows if r.objective.obligatory)
    return PlayerProgress(player, tuple(rows), met, goal.required, obligatory and met >= goal.required)


def victory_progress(game: Game, seat: int) -> tuple[PlayerProgress, ...]:
    """Every player's progress on the victory card as ``seat`` sees it; () in the point-value variant."""
    goal = victory_goal(game)
    if goal is None:
        return ()
    view = game.view(seat)
    return tuple(player_progress(goal, view, p) for p in range(view.num_players))


def _markers_to_end(game: Game) -> int:
    return game.config.point_variant_markers


def victory_lines(game: Game, seat: int, progress: bool = True) -> list[str]:
    """The victory card in words and (with ``progress``) each player's progress (the ``goal`` command; the web app's
    card panel)."""
    goal = victory_goal(game)
    view = game.view(seat)
    if goal is None:
        need = _markers_to_end(game)
        lines = [
            f"Point-value variant: the game ends after a round in which a player holds {need} faction markers;"
            " the highest score wins."
        ]
        if progress:
            lines += [
                f"  P{p}{_you(p, seat)}: {sum(view.players[p].markers)}/{need} faction markers"
                for p in range(view.num_players)
            ]
        return lines
    lines = [
        f"Victory card: {goal.name}. Meet {goal.required} of these "
        f"{len(goal.objectives)} objectives at the end of a round to end the game:"
    ]
    lines += [f"  - {o.text}" + (" (obligatory)" if o.obligatory else "") for o in goal.objectives]
    if not progress:
        return lines
    lines.append("Progress (* = met):")
    lines += [
        f"  {p.text().replace(f'P{p.seat}:', f'P{p.seat}{_you(p.seat, seat)}:', 1)}"
        for p in victory_progress(game, seat)
    ]
    return lines


def progress_line(game: Game, seat: int) -> str:
    """One line: each player's count of met objectives (or markers in the variant), the seat's own in detail."""
    view = game.view(seat)
    if game.config.point_variant:
        need = _markers_to_end(game)
        counts = ", ".join(f"P{p}{_you(p, seat)} {sum(view.players[p].markers)}" for p in range(view.num_players))
        return f"Faction markers (the game ends at {need}): {counts}"
    progress = victory_progress(game, seat)
    counts = ", ".join(f"P{p.seat}{_you(p.seat, seat)} {p.met}" for p in progress)
    own = progress[seat]
    missing = (
        ", ".join(r.objective.name if r.objective.need is None else r.text() for r in own.objectives if not r.met)
        or "nothing"
    )
    return f"Victory card: objectives met of {own.required} needed: {counts}; you still lack: {missing}"


def _you(player: int, seat: int) -> str:
    return " (you)" if player == seat else ""


# -- the choices -----------------------------------------------------------------------------------------------------


def space_name(game: Game, space: int) -> str:
    """A follower space in words: ``Thermae, space 2``, ``the Gladiators faction field, space 1``, ``the coin
    bowl``."""
    spec = game.tables.spaces[space]
    return _space_name(game, spec)


def _space_name(game: Game, spec: SpaceSpec) -> str:
    if spec.kind is SpaceKind.COIN_BOWL:
        return "the coin bowl"
    if spec.kind is SpaceKind.FACTION:
        assert spec.faction is not None
        return f"the {_faction(game, int(spec.faction))} faction field, space {spec.slot + 1}"
    assert spec.region is not None
    count = len(game.tables.region_spaces[spec.region])
    name = REGION_NAMES[spec.region]
    return name if count == 1 else f"{name}, space {spec.slot + 1}"


def _faction(game: Game, faction: int) -> str:
    return game.config.components.factions[faction].name


def _cards(game: Game, cards: tuple[int, ...] | list[int]) -> str:
    tables = game.tables
    shown = [tables.card_name(c) for c in cards if c != HIDDEN]
    hidden = sum(1 for c in cards if c == HIDDEN)
    if hidden:
        shown.append("a face-down card" if hidden == 1 else f"{hidden} face-down cards")
    return ", ".join(shown) or "no card yet"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _denarii(n: int) -> str:
    return "1 denarius" if n == 1 else f"{n} denarii"


def _set_text(game: Game, cards: tuple[int, ...] | list[int]) -> str:
    values = game.tables.card_value
    known = [c for c in cards if c != HIDDEN]
    return f"{_cards(game, cards)} ({_plural(len(cards), 'card')}, sum {sum(values[c] for c in known)})"


def faction_rewards(game: Game, faction: int) -> str:
    """What controlling ``faction`` brings, with the component set's numbers: the take-over benefit, the leader's
    ability (when the leader is in the set) and the benefit of every phase 5 (R17, R20)."""
    spec = game.config.components.factions[faction]
    n = spec.numbers
    f = Faction(faction)
    takeover = {
        Faction.GLADIATORS: f"{_plural(n.get('takeover_legions', 0), 'legion')}",
        Faction.LEGATES: f"{_plural(n.get('takeover_laurels', 0), 'laurel')}",
        Faction.PRAETORIANS: f"draw {_plural(n.get('takeover_cards', 0), 'card')}",
        Faction.PLEBEIANS: f"draw {_plural(n.get('takeover_cards', 0), 'card')}, then send an assassin",
        Faction.PATRICIANS: f"{_plural(n.get('takeover_laurels', 0), 'laurel')}",
        Faction.VESTALS: _denarii(n.get("takeover_denarii", 0)),
        Faction.SENATORS: f"{_plural(n.get('takeover_laurels', 0), 'laurel')}",
    }[f]
    leader = {
        Faction.GLADIATORS: f"{_plural(n.get('leader_legions', 0), 'legion')}",
        Faction.LEGATES: f"{_plural(n.get('leader_laurels', 0), 'laurel')}",
        Faction.PRAETORIANS: "discard a card for a legion",
        Faction.PLEBEIANS: "one of two rewards",
        Faction.PATRICIANS: _denarii(n.get("leader_denarii", 0)),
        Faction.VESTALS: "an eternal favor of the gods",
        Faction.SENATORS: "the marker of a faction you lack",
    }[f]
    labels = DECISIONS[DecisionKind.BENEFIT_OPTION].options
    options = labels(game.config.components, faction) if labels is not None else None
    if options:
        benefit = " or ".join(plural_words(o) for o in options)
    elif f is Faction.PRAETORIANS:
        benefit = _plural(n.get("benefit_legions", 0), "legion")
    elif f is Faction.PATRICIANS:
        benefit = "the proconsul (an extra follower next round)"
    else:
        benefit = "nothing"
    return (
        f"take-over: {takeover}, its marker, the first-controller laurel if still there; "
        f"with {spec.leader} in the set: {leader}; each benefit phase: {benefit}"
    )


def _region_effect(game: Game, spec: SpaceSpec, view: PlayerView) -> str:
    region = spec.region
    assert region is not None
    comps = game.config.components
    slot = spec.slot
    if region is Region.REFUGIUM:
        return "late in the round you may discard slaves (paying their value) for a patron tile, or pairs of slaves"
    if region is Region.BASILICA:
        extra = comps.expansion
        up = tile_text(extra, view.emperor_up) if extra is not None and view.emperor_up >= 0 else "none face up"
        return f"late in the round you may claim a favor of the emperor tile whose requirements you meet ({up})"
    if region is Region.CAPITOLEUM:
        return "late in the round you may choose an official not chosen this round"
    numbers = comps.region(region).numbers  # regions I-VIII: the base board's
    if region in (Region.THERMAE, Region.FORUM):
        field = view.board[region][slot] if slot < len(view.board[region]) else ()
        return f"costs {_denarii(numbers['cost'])} in phase 3 to take {_cards(game, field)} (nothing if you cannot pay)"
    if region is Region.LATRINE:
        return (
            "in phase 3 its face-down card is turned over: take its value in denarii, or pay its value "
            "and keep the card"
        )
    if region is Region.CURIA:
        field = view.board[region][slot] if slot < len(view.board[region]) else ()
        return f"in phase 3 you may discard a card from your hand to take {_cards(game, field)}"
    if region is Region.ATRIUM:
        flip = numbers.get("first_flip", 2)
        price = numbers.get("single_bidder_price", 1)
        first = (
            (f"turns over {flip} of its face-down cards now; alone you pay {price} for the face-up cards in phase 3")
            if slot == 0
            else "turns over its last face-down card now"
        )
        return f"{first}; with both spaces taken, sealed bids: the higher bid takes every card and pays the other"
    if region is Region.CATACOMBS:
        price = comps.region(region).prices[slot]
        return f"in phase 3 you look at the Catacombs pile and may buy one card for {price} denarii"
    if region is Region.PANTHEON:
        return (
            "in phase 3 you may sacrifice a card of the revealed card's faction for an eternal favor of the "
            "gods (needs the Vestal Virgins marker)"
        )
    per_pair = _plural(numbers["laurels_per_pair"], "laurel")  # the Field of Mars
    return (
        f"in phase 3 you may lay a pair of cards of one faction: {per_pair} per pair,"
        f" {numbers['bonus_laurels']} more for the single highest pair"
    )


def _placement_effect(game: Game, space: int, view: PlayerView) -> str:
    spec = game.tables.spaces[space]
    if spec.kind is SpaceKind.COIN_BOWL:
        comps = game.config.components
        amount = comps.coin_bowl_first if not view.coin_bowl else comps.coin_bowl_later
        return f"take {amount} denarii now"
    if spec.kind is SpaceKind.FACTION:
        assert spec.faction is not None
        f = int(spec.faction)
        holder = view.controller[f]
        if holder < 0:
            now = f"uncontrolled: any set of {game.config.components.min_set_size} or more of its cards takes it"
        else:
            who = "you" if holder == view.seat else f"P{holder}"
            now = f"held by {who} with {_set_text(game, view.sets[f])}"
        return f"in phase 4 you may take over the {_faction(game, f)} ({now}); {faction_rewards(game, f)}"
    return _region_effect(game, spec, view)


def choice_words(game: Game, seat: int, action: Action) -> str:
    """The choice in a few words, as the person reads it in a list (``place a follower on Thermae, space 2``,
    ``discard Senators 7``, ``choose the Augur (yours; ...)``)."""
    pending = game.pending
    if pending is None:
        return game.describe(action)
    rule = DECISIONS[pending.kind]
    if isinstance(action, Commit) and rule.commit_words:
        return rule.commit_words
    if isinstance(action, Decline) and rule.decline_words:
        return rule.decline_words
    if isinstance(action, PlaceFollower) and 0 <= action.space < len(game.tables.spaces):
        return f"place a follower on {space_name(game, action.space)}"
    if isinstance(action, ChooseRegion) and action.region in set(Region):
        return f"veto the {REGION_NAMES[Region(action.region)]}: no follower may go there this round"
    text = person_text(game, game.describe(action))
    if isinstance(action, PickCard) and rule.card_verb and text.startswith("choose "):
        text = f"{rule.card_verb} {text.removeprefix('choose ')}"
    return text + expansion_note(game, seat, pending, action)


def expansion_note(game: Game, seat: int, pending: Pending, action: Action) -> str:
    """What an expansion choice does beyond its name: an official's effect and holder, an assassin's removal, a
    Brutii action card's effect (R31, R36-R40, R44-R54); '' elsewhere."""
    spec = game.config.components.expansion
    if spec is None or not game.config.expansion:
        return ""
    if isinstance(action, ChooseOfficial) and 0 <= action.official < len(spec.officials):
        official = Official(action.official)
        holder = game.view(seat).officials[official]
        held = "on the Capitoleum" if holder < 0 else "yours" if holder == seat else f"held by P{holder}"
        return f" ({held}; {official_effect(game, official)})"
    if isinstance(action, ChooseActionCard) and spec.brutii is not None:
        return f" ({card_effect(BrutiiCard(action.card), spec.brutii)})"
    tables = game.tables
    if pending.kind == DecisionKind.TAKEOVER_SET and isinstance(action, PickCard):
        if action.card == tables.assassin_card:
            lowest = spec.assassins.protected
            return f" (removes the highest card of the set to beat, never one of its {lowest} lowest; R31)"
    return ""


def official_effect(game: Game, official: Official) -> str:
    """R37-R40 with the numbers of the component set: when and what the official does for its holder."""
    spec = game.config.components.expansion
    if spec is None:
        raise ValueError("officials exist only in an expansion game")
    held = spec.official(official)
    n = held.numbers
    if official is Official.PRINCEPS:
        return f"next round you place {n['placements']} followers per turn"
    if official is Official.MATRONA:
        return f"at the end of this round you take {n['tiles']} emperor tiles only you may claim"
    if official is Official.AUGUR:
        return f"at the end of this round you draw {n['draws']} cards and discard {n['discards']} of them"
    if official is Official.QUAESTOR:
        pays = held.payment.get(game.num_players - 1, 0)
        return f"at the end of this round every opponent pays you {pays} and you take {n['stock']} from the stock"
    return f"in the next faction benefits phase you may name {n['factions']} of your factions to become tribune"


def _card_detail(game: Game, pending: Pending, card: int, view: PlayerView) -> str:
    tables = game.tables
    value = tables.card_value[card] if 0 <= card < tables.num_card_types else 0
    kind = pending.kind
    if kind is DecisionKind.CATACOMBS_PURCHASE:
        prices = game.config.components.region(Region.CATACOMBS).prices
        price = prices[pending.index] if 0 <= pending.index < len(prices) else 0
        return f"costs {_denarii(price)} (to the Colosseum); value {value}"
    if kind is DecisionKind.CURIA_DISCARD:
        field = view.board[Region.CURIA][pending.index] if 0 <= pending.index < 3 else ()
        return f"you give up a card of value {value} and take {_cards(game, field)}"
    if kind is DecisionKind.PANTHEON_SACRIFICE:
        return f"you give up a card of value {value} for an eternal favor of the gods"
    if kind in (
        DecisionKind.TAKEOVER_SET,
        DecisionKind.FIELD_OF_MARS_PAIR,
        DecisionKind.REFUGIUM_PATRON,
        DecisionKind.REFUGIUM_PAIRS,
    ):
        return f"value {value}"
    return f"value {value}; the card leaves your hand" if kind is not DecisionKind.AUGUR_DISCARD else f"value {value}"


def _bid_detail(game: Game, pending: Pending, amount: int, view: PlayerView) -> str:
    if pending.kind is DecisionKind.ATRIUM_BID:
        cards = tuple(c for field in view.board[Region.ATRIUM] for c in field)
        return (
            f"for the Atrium cards ({_cards(game, cards)}): the higher sealed bid takes them and pays "
            f"{amount} to the other bidder (a tie goes to space 1)"
        )
    return (
        "for the chariot: a single highest bid pays the stock and may block a faction it controls from "
        "take-overs until the next auction; a tie leaves it off the board"
    )


def choice_detail(game: Game, seat: int, action: Action) -> str:
    """The cost and effect of a legal choice at the game's pending decision, in words ('' when the words of
    :func:`choice_words` already say everything)."""
    pending = game.pending
    if pending is None:
        return ""
    view = game.view(seat)
    if isinstance(action, PlaceFollower) and 0 <= action.space < len(game.tables.spaces):
        return _placement_effect(game, action.space, view)
    if isinstance(action, PickCard):
        return _card_detail(game, pending, action.card, view)
    if isinstance(action, Bid):
        return _bid_detail(game, pending, action.amount, view)
    if isinstance(action, ChooseFaction):
        return _faction_choice_detail(game, pending, action.faction)
    if isinstance(action, Assassinate):
        cards = list(view.sets[action.faction])
        values = game.tables.card_value
        top = max(cards, key=lambda c: values[c]) if cards else HIDDEN
        return f"removes {_cards(game, [top])} from that set" if top != HIDDEN else ""
    if isinstance(action, ChooseTile):
        spec = game.config.components.expansion
        pay = spec.emperor_pay if spec is not None and "pay" in tile_text(spec, action.tile) else 0
        cost = f"costs {pay} denarii; " if pay else ""
        return f"{cost}the tile counts for the victory card and scores at the end"
    return ""


def _faction_choice_detail(game: Game, pending: Pending, faction: int) -> str:
    name = _faction(game, faction)
    if pending.kind is DecisionKind.CHARIOT_PLACEMENT:
        return f"nobody may place a follower on the {name} faction field until the next chariot auction"
    if pending.kind is DecisionKind.CATO_MARKER:
        return f"you take the {name} faction marker"
    if pending.kind is DecisionKind.TRIBUNUS_PLEBIS:
        return f"the {name} give you no benefit this phase"
    return ""


@dataclass(frozen=True)
class ChoiceText:
    """A legal choice in words: ``words`` (short) and ``detail`` (cost and effect, possibly '')."""

    words: str
    detail: str

    def text(self) -> str:
        return f"{self.words} -- {self.detail}" if self.detail else self.words


def explain_choice(game: Game, seat: int, action: Action) -> ChoiceText:
    """A legal choice of ``seat`` at the pending decision: its words and its cost and effect."""
    return ChoiceText(choice_words(game, seat, action), choice_detail(game, seat, action))


def auction_line(game: Game, seat: int) -> str:
    """What a bid decision auctions, in one line ('' when the pending decision is no bid)."""
    pending = game.pending
    if pending is None or pending.kind not in (DecisionKind.ATRIUM_BID, DecisionKind.CHARIOT_BID):
        return ""
    return "The bid is " + _bid_detail(game, pending, 0, game.view(seat)).replace(" pays 0 to", " pays its bid to")


# -- a take-over -----------------------------------------------------------------------------------------------------


def takeover_lines(game: Game, seat: int) -> list[str]:
    """In a take-over (``seat`` deciding): the set built so far, the set to beat and who holds the faction (R15,
    R31); [] at any other decision."""
    pending = game.pending
    if pending is None or pending.seat != seat or pending.faction < 0:
        return []
    if pending.kind not in (DecisionKind.TAKEOVER_SET, DecisionKind.TAKEOVER_PENALTY):
        return []
    view = game.view(seat)
    f = pending.faction
    name = _faction(game, f)
    holder = view.controller[f]
    held = "nobody" if holder < 0 else "you" if holder == seat else f"P{holder}"
    if pending.kind is DecisionKind.TAKEOVER_PENALTY:
        return [f"Take-over of the {name}: your set from space 2 was beaten: {_set_text(game, view.contest)}."]
    staged = [c for c in view.staged if c != HIDDEN]
    lines = [
        f"Take-over of the {name} (held by {held}). Your set so far: "
        + (_set_text(game, staged) if staged else "no card yet")
    ]
    if pending.index == TakeoverRole.FIRST_OVER_SECOND:
        lines.append(f"Set to beat: the set played from space 2, {_set_text(game, view.contest)}")
    elif holder >= 0:
        whose = "your own" if holder == seat else f"{held}'s"
        lines.append(f"Set to beat: {whose} displayed set, {_set_text(game, view.sets[f])}")
    else:
        lines.append(f"Set to beat: none; any set of {game.config.components.min_set_size} or more cards takes it")
    lines.append("A set beats another with more cards or a higher sum.")
    return lines


# -- what changed ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """A moment of the game as one seat saw it: :func:`mark` takes it, :func:`changes_since` compares with it."""

    view: PlayerView
    events: int


def mark(game: Game, seat: int) -> Mark:
    """The present moment, for a later :func:`changes_since`."""
    return Mark(game.view(seat), len(game.events))


_PLACED = re.compile(r"^P(\d+) places a follower on (\S+)$")


def _placements(game: Game, seat: int, start: int) -> list[str]:
    by_label = {s.label: s for s in game.tables.spaces}
    placed: dict[int, list[str]] = {}
    for event in game.events[start:]:
        if event.private_to not in (-1, seat):
            continue
        found = _PLACED.match(event.text)
        if found:
            spec = by_label.get(found[2])
            where = _space_name(game, spec) if spec is not None else found[2].replace("_", " ")
            placed.setdefault(int(found[1]), []).append(where)
        elif event.text.endswith("places a follower on the coin bowl") and event.text.startswith("P"):
            who = event.text.split(" ", 1)[0][1:]
            if who.isdigit():
                placed.setdefault(int(who), []).append("the coin bowl")
    return [f"P{p}{_you(p, seat)} placed: {'; '.join(where)}" for p, where in sorted(placed.items())]


def _delta(name: str, before: int, after: int, plural: str = "") -> str:
    """``+2 laurels``, ``-1 laurel`` ('' without a change); ``plural`` when it is not ``name`` + s."""
    d = after - before
    word = name if abs(d) == 1 else plural or f"{name}s"
    return f"{'+' if d > 0 else ''}{d} {word}" if d else ""


def _player_changes(game: Game, seat: int, before: PlayerView, after: PlayerView, p: int) -> str:
    a, b = before.players[p], after.players[p]
    factions = game.config.components.factions
    parts = [
        _delta("denarius", a.money, b.money, "denarii"),
        _delta("laurel", a.laurels, b.laurels),
        _delta("legion", a.legions, b.legions),
        _delta("patron tile", a.patrons, b.patrons),
        _delta("emperor tile", len(a.emperor_tiles), len(b.emperor_tiles)),
    ]
    gained = [factions[f].name for f, (x, y) in enumerate(zip(a.markers, b.markers, strict=True)) if y and not x]
    lost = [factions[f].name for f, (x, y) in enumerate(zip(a.markers, b.markers, strict=True)) if x and not y]
    if gained:
        parts.append("marker " + ", ".join(gained))
    if lost:
        parts.append("lost marker " + ", ".join(lost))
    if a.tile != b.tile:
        parts.append("now " + ("tribune" if b.tile == TRIBUNE else "holds a scroll" if b.tile else "no tile"))
    if (a.eternal_favor, a.temporary_favor) != (b.eternal_favor, b.temporary_favor):
        favor = "eternal" if b.eternal_favor else "temporary" if b.temporary_favor else "no"
        parts.append(f"{favor} favor of the gods")
    if p == seat:
        parts.extend(_hand_changes(game, before.hand, after.hand))
    elif a.hand_size != b.hand_size:
        parts.append(_delta("card", a.hand_size, b.hand_size) + " in hand")
    parts = [x for x in parts if x]
    return f"P{p}{_you(p, seat)}: {', '.join(parts)}" if parts else ""


def _hand_changes(game: Game, before: tuple[int, ...], after: tuple[int, ...]) -> list[str]:
    name = game.tables.card_name
    got = [name(c) for c, (x, y) in enumerate(zip(before, after, strict=True)) for _ in range(y - x) if y > x]
    gave = [name(c) for c, (x, y) in enumerate(zip(before, after, strict=True)) for _ in range(x - y) if x > y]
    return ([f"cards in: {', '.join(got)}"] if got else []) + ([f"cards out: {', '.join(gave)}"] if gave else [])


def _control_changes(game: Game, seat: int, before: PlayerView, after: PlayerView) -> list[str]:
    lines = []
    for f, (x, y) in enumerate(zip(before.controller, after.controller, strict=True)):
        if x == y:
            continue
        name = _faction(game, f)
        if y >= 0:
            source = f" from P{x}{_you(x, seat)}" if x >= 0 else ""
            lines.append(f"P{y}{_you(y, seat)} took over the {name}{source} ({_set_text(game, after.sets[f])})")
        else:
            lines.append(f"P{x}{_you(x, seat)} lost the {name}")
    if before.chariot != after.chariot:
        where = f"blocks the {_faction(game, after.chariot)}" if after.chariot >= 0 else "is off the board"
        lines.append(f"The chariot {where}")
    if after.officials and before.officials != after.officials:
        spec = game.config.components.expansion
        assert spec is not None
        held = [f"{spec.official(Official(o)).name} P{h}" for o, h in enumerate(after.officials) if h >= 0]
        lines.append("Officials now: " + (", ".join(held) or "all on the Capitoleum"))
    return lines


def changes_since(game: Game, seat: int, since: Mark) -> list[str]:
    """What changed since ``since`` as ``seat`` may know it, in a few lines: the rounds passed, who placed where,
    each player's gains and losses (money, laurels, legions, markers, tiles, favors; the seat's own cards by
    name, others' hand sizes), take-overs, the chariot and the officials. Not the board."""
    now = game.view(seat)
    before = since.view
    lines = []
    if now.round == before.round + 1:
        lines.append(f"Round {now.round} began")
    elif now.round != before.round:
        lines.append(f"Now round {now.round} (was round {before.round})")
    lines += _placements(game, seat, since.events)
    for p in range(now.num_players):
        if text := _player_changes(game, seat, before, now, p):
            lines.append(text)
    lines += _control_changes(game, seat, before, now)
    return lines or ["Nothing changed."]


def start_lines(game: Game, seat: int) -> list[str]:
    """The game's start as ``seat`` sees it, for the first summary (not a change: the others' set-up discards,
    R4, are part of the start): the starting player, the deal and the set-up discards, each player's money and
    cards in hand, and the placements already made when the person's first decision comes later."""
    view = game.view(seat)
    comps = game.config.components
    deal, discards = comps.deal, comps.setup_discard
    brutii = f"; P{view.brutii}{_you(view.brutii, seat)} is the Brutii" if view.brutii >= 0 else ""
    lines = [
        f"The game begins. P{view.start_seat}{_you(view.start_seat, seat)} is the starting player{brutii}.",
        f"Set-up: every player was dealt {_plural(deal, 'card')} and discards {discards} of them face down (R4).",
    ]
    for p in range(view.num_players):
        public = view.players[p]
        lines.append(f"  P{p}{_you(p, seat)}: {_denarii(public.money)}, {_plural(public.hand_size, 'card')} in hand")
    if view.round >= 1:
        lines += _placements(game, seat, 0)
    return lines


# -- the engine's text for a person ---------------------------------------------------------------------------------

_COUNTED = re.compile(r"\b(\d+) ((?:[A-Za-z]+ )?)([A-Za-z]+)\(s\)")
_UNCOUNTED = re.compile(r"\b([A-Za-z]+)\(s\)")
_WINNERS = re.compile(r"\bwinner\(s\)(: ?)((?:P\d+)(?:, P\d+)*)")


def plural_words(text: str) -> str:
    """``text`` with its ``(s)`` plurals settled: ``1 laurel(s)`` -> ``1 laurel``, ``2 greek pair(s)`` -> ``2 greek
    pairs``, ``winner(s): P1, P3`` -> ``winners: P1, P3``; a ``word(s)`` without a number takes the number the same
    word had before in ``text`` (``plays 1 assassin(s) ... with the assassin(s)``), else reads as a plural."""
    counts: dict[str, int] = {}

    def counted(m: re.Match[str]) -> str:
        n, word = int(m[1]), m[3]
        counts[word] = n
        return f"{m[1]} {m[2]}{word}{'' if n == 1 else 's'}"

    def winners(m: re.Match[str]) -> str:
        return f"winner{'s' if ',' in m[2] else ''}{m[1]}{m[2]}"

    text = _COUNTED.sub(counted, _WINNERS.sub(winners, text))
    return _UNCOUNTED.sub(lambda m: m[1] + ("" if counts.get(m[1]) == 1 else "s"), text)


@dataclass(frozen=True)
class _Vocabulary:
    """The internal ids of one component set and the words a person reads instead: ``pattern`` finds an id,
    ``run`` a run of card labels (``vestals:3 ?? senators:7``), which is written as a list."""

    words: dict[str, str]
    pattern: re.Pattern[str]
    run: re.Pattern[str]


_PROPER = {
    **{region.key.replace("_", " "): name for region, name in REGION_NAMES.items()},
    "setup": "set-up",
    "takeover": "take-over",
    "tigellinus": "Gaius Tigellinus",
    "agrippa": "Agrippa",
    "cato": "Cato",
    "brutii": "Brutii",
    "tribunus plebis": "Tribunus Plebis",
    "augur": "Augur",
}
_PROPER_WORDS = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _PROPER), key=len, reverse=True)) + r")\b")


def _kind_words(key: str) -> str:
    """A decision key or a phase in words, its proper nouns as printed: ``field_of_mars_pair`` -> ``Field of Mars
    pair``, ``setup_discard`` -> ``set-up discard``."""
    return _PROPER_WORDS.sub(lambda m: _PROPER[m[1]], key.replace("_", " "))


def _vocabulary(game: Game) -> _Vocabulary:
    """The ids of ``game``'s component set (cards, spaces, regions, victory cards of every rule set), the decision
    keys, the phases and the slave nationalities, with their words."""
    tables = game.tables
    cards = {tables.card_label[c]: tables.card_name(c) for c in range(tables.num_card_types)}
    words: dict[str, str] = dict(cards)
    words |= {spec.label: _space_name(game, spec) for spec in tables.spaces}
    words |= {region.key: name for region, name in REGION_NAMES.items()}
    words |= {card.id: victory_card_title(card) for card in victory_cards_of(game.config.components, True)}
    words |= {phase.name.lower(): _kind_words(phase.name.lower()) for phase in Phase if "_" in phase.name}
    words |= {kind.key: _kind_words(kind.key) for kind in DecisionKind}
    words |= {nationality.key: nationality.key.capitalize() for nationality in Nationality}
    ids = "|".join(re.escape(key) for key in sorted(words, key=len, reverse=True))
    labels = "|".join(re.escape(key) for key in sorted(cards, key=len, reverse=True))
    card = rf"(?:{labels}|\?\?)"
    return _Vocabulary(
        words,
        re.compile(rf"(?<![\w:])(?:{ids})(?![\w:])"),
        re.compile(rf"(?<![\w:?]){card}(?: {card})+(?![\w:?])"),
    )


_VOCABULARIES: weakref.WeakKeyDictionary[Tables, _Vocabulary] = weakref.WeakKeyDictionary()
"""One vocabulary per component set, by its tables (shared by the games of one configuration)."""


def _words_of(game: Game) -> _Vocabulary:
    tables = game.tables
    vocabulary = _VOCABULARIES.get(tables)
    if vocabulary is None:
        vocabulary = _VOCABULARIES[tables] = _vocabulary(game)
    return vocabulary


_BRUTII_WORDS = {card.key.replace("_", " "): name for card, name in BRUTII_CARD_NAMES.items()}
_BRUTII_ALTERNATIVES = "|".join(sorted(map(re.escape, _BRUTII_WORDS), key=len, reverse=True))
_BRUTII_CARD = re.compile(rf'(action card "?|option \d of )({_BRUTII_ALTERNATIVES})\b')
_BRUTII_LIST = re.compile(rf"(?<=[:,] )({_BRUTII_ALTERNATIVES})(?=[,;]|$| option| -)", re.M)
_BRUTII_ROWS = re.compile(r"^ +(action cards played|options): .*$", re.M)
_ONE = re.compile(r"(?<![\w.])([+-]?1) (?:(laurel|legion|card|follower|marker|patron|pair|turn)s|denarii)\b")


def _brutii_words(text: str) -> str:
    """The Brutii's action cards by their printed names where the engine names them: ``the action card "veto"``,
    ``option 1 of cards`` and the board's rows of played, unplayed and optional cards."""
    text = _BRUTII_CARD.sub(lambda m: m[1] + _BRUTII_WORDS[m[2]], text)
    return _BRUTII_ROWS.sub(lambda row: _BRUTII_LIST.sub(lambda m: _BRUTII_WORDS[m[1]], row[0]), text)


_HIDDEN = re.compile(r"(?<![\w?])\?\?(?![\w?])")


def _hidden(count: int) -> str:
    """``count`` face-down cards in words (the text board writes each as ``??``)."""
    return "face-down card" if count == 1 else f"{count} face-down cards"


def person_text(game: Game, text: str) -> str:
    """The engine's ``text`` (a log line, the text board, an action described) in a person's words: every internal
    id (a card label ``vestals:3``, a space label ``thermae:1``, a region key ``field_of_mars``, a victory card id
    ``alea_long``, a decision key ``setup_discard``, a phase ``follower_placement``) replaced by its printed name,
    runs of cards separated by commas, and the ``(s)`` plurals settled (:func:`plural_words`)."""
    vocabulary = _words_of(game)

    def run(m: re.Match[str]) -> str:
        items: list[str] = []
        hidden = 0
        for card in [*m[0].split(" "), ""]:
            if card == "??":
                hidden += 1
                continue
            if hidden:
                items.append(_hidden(hidden))
                hidden = 0
            if card:
                items.append(vocabulary.words[card])
        return ", ".join(items)

    text = _HIDDEN.sub(_hidden(1), vocabulary.run.sub(run, text))
    text = plural_words(vocabulary.pattern.sub(lambda m: vocabulary.words[m[0]], text))
    text = _ONE.sub(lambda m: f"{m[1]} {m[2] or 'denarius'}", text)
    return _brutii_words(text) if game.config.brutii else text


_BOARD_ROW = re.compile(r"^  ([a-z_]+) +(?=cards|followers)", re.M)


def board_text(game: Game, seat: int) -> str:
    """The text board as ``seat`` sees it (:meth:`Game.render`) in a person's words (:func:`person_text`), the region
    names aligned."""
    width = max(len(name) for name in REGION_NAMES.values()) + 2

    def row(m: re.Match[str]) -> str:
        region = next((r for r in REGION_NAMES if r.key == m[1]), None)
        return f"  {REGION_NAMES[region]:<{width}}" if region is not None else m[0]

    return person_text(game, _BOARD_ROW.sub(row, game.render(seat)))


def log_lines(game: Game, seat: int, start: int = 0) -> list[str]:
    """The log lines from event ``start`` on that ``seat`` may read, in a person's words (:func:`person_text`)."""
    return [person_text(game, e.text) for e in game.events[start:] if e.private_to in (-1, seat)]
