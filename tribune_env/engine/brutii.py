"""The Brutii variant (R42-R54; E76-E107): his phase-2 turns, his action cards and what they do.

The Brutii is an ordinary seat with no followers. In phase 2 he takes as many turns as a family has followers;
each turn reveals one of his face-down discs at random (R44): a cross does nothing, an arrow asks him to play an
unplayed action card, the arrow with follower also has him place the proconsul if he holds it. Four cards act at
once (E89, R51-R54); the others let him act at a location after its occupants (R47, :func:`brutii_at`), in the
take-overs (R48, see :mod:`tribune_env.engine.takeovers`) and at the chariot auction (R49). Phase 8 takes his cards
back and turns his discs face down (E104).
"""

from __future__ import annotations

from tribune_env.data import BrutiiCard, BrutiiDisc, BrutiiSpec, Faction, Region
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    ChooseActionCard,
    ChooseOption,
    ChooseRegion,
    Commit,
    Decline,
    PickCard,
    choose_action_card,
    choose_option,
    choose_region,
    pick_card,
)
from tribune_env.engine.brutii_ops import (
    BRUTII_SLOT,
    OPTION_OF,
    OPTION_PHASE,
    brutii_spec,
    is_brutii,
    played,
)
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.ops import (
    ask,
    card_names,
    chance,
    faction_name,
    give_legions,
    give_money,
    pay,
    push,
    remove_highest,
    seat_name,
    set_sum,
    stage,
    take_from_hand,
)
from tribune_env.engine.registry import CheckFn, DecisionRule, ResolveFn, agenda_has, decision, step
from tribune_env.engine.state import GameState, Task

SLAVE_REGIONS = (Region.THERMAE, Region.FORUM, Region.CURIA)
"""The regions whose face-up slaves "Slave Cards" takes, in board order (R52)."""


def card_name(card: int) -> str:
    return BrutiiCard(card).key.replace("_", " ")


def card_effect(card: BrutiiCard, spec: BrutiiSpec) -> str:
    """What ``card`` does for the Brutii, in words, with the numbers of ``spec`` (R46-R54)."""
    return {
        BrutiiCard.PATRON: "at the Refugium you act like an occupant, last",
        BrutiiCard.FACTION_TAKEOVER: "at the start of phase 4 choose: attempt every faction with no follower, or "
        "every faction with one other player's follower as if on space 2",
        BrutiiCard.ETERNAL_FAVOR: "at the Pantheon, if another player stands there, you may sacrifice for an "
        "eternal favor, last",
        BrutiiCard.FAVOR_OF_THE_EMPEROR: "at the Basilica, last, if nobody claimed the face-up tile, you may claim it "
        "(or a Matrona tile); as Matrona you get tiles only with this card",
        BrutiiCard.OFFICIAL: "at the Capitoleum you choose an official nobody chose this round, last",
        BrutiiCard.CARDS: "at the start of phase 3 choose: the Forum and Curia leftovers, or the others' Curia "
        "discards and the Catacombs pile left over",
        BrutiiCard.DENARII: "1 denarius per follower on the coin bowl; the Latrine card's value (empty Latrine) or "
        "its price (from a buyer); the chariot winner's payment if you opt out",
        BrutiiCard.LAURELS: "on the Field of Mars, one sealed pair per empty space, revealed with the others",
        BrutiiCard.BUY_A_LEGION: f"now: buy a legion for the sum of your Legates set, or {spec.legion_price} "
        "without one",
        BrutiiCard.SLAVE_CARDS: f"now: for each face-up slave on a free Thermae, Forum or Curia field, lay "
        f"{spec.slave_lay} cards there and take it",
        BrutiiCard.MASS_MURDER: f"now: every displayed set of {spec.mass_murder_set} or more cards, yours included, "
        "loses its highest card",
        BrutiiCard.VETO: "now: name a region; nobody may place there and it is not evaluated this round",
    }[card]


def disc_name(disc: int) -> str:
    return BrutiiDisc(disc).key.replace("_", " + ")


# --- phase 2: his turns (R44) ---------------------------------------------------------------------


def face_down(state: GameState) -> list[int]:
    """His face-down discs, by symbol in a fixed order (their order on the table is unknown to all, R45)."""
    spec = brutii_spec(state)
    return [d for d in BrutiiDisc for _ in range(spec.discs[d] - state.brutii_revealed.count(d))]


def brutii_turn(state: GameState) -> None:
    """One phase-2 turn: reveal a disc at random and queue what it asks (E83-E86, E90)."""
    seat = state.brutii
    state.brutii_turns -= 1
    left = face_down(state)
    disc = left[chance(state).randrange(len(left))]
    state.brutii_revealed.append(int(disc))  # a plain int, as the field is typed and a document reads it back
    state.log(seat, f"{seat_name(seat)} (the Brutii) reveals a disc: {disc_name(disc)}")
    tasks: list[Task] = []
    if disc != BrutiiDisc.CROSS:
        tasks.append(("brutii_card",))
    if disc == BrutiiDisc.ARROW_FOLLOWER:
        tasks.append(("brutii_proconsul",))
    push(state, *tasks, ("brutii_pass",))


def _in_turn(state: GameState, *_: int) -> str:
    if state.brutii < 0 or state.phase is not Phase.FOLLOWER_PLACEMENT or state.turn_seat != state.brutii:
        return "runs in the Brutii's phase-2 turn"
    return ""


@step(check=_in_turn, expansion=True)
def brutii_card(state: GameState) -> None:
    ask(state, Pending(DecisionKind.BRUTII_CARD, state.brutii))


def _legal_card(state: GameState, pending: Pending) -> list[Action]:
    return [choose_action_card(int(c)) for c in BrutiiCard if c not in state.brutii_played]


_IMMEDIATE_STEP: dict[BrutiiCard, Task] = {
    BrutiiCard.BUY_A_LEGION: ("brutii_legion",),
    BrutiiCard.SLAVE_CARDS: ("brutii_slaves",),
    BrutiiCard.MASS_MURDER: ("mass_murder",),
}


def _resolve_card(state: GameState, pending: Pending, action: ChooseActionCard) -> None:
    """E88, E89: the card lies face up; Buy a Legion, Slave Cards, Mass Murder and Veto act at once."""
    card = BrutiiCard(action.card)
    state.brutii_played.append(int(card))
    state.log(pending.seat, f"{seat_name(pending.seat)} (the Brutii) plays the action card {card_name(card)}")
    if card is BrutiiCard.VETO:
        ask(state, Pending(DecisionKind.BRUTII_VETO, pending.seat))
    elif card in _IMMEDIATE_STEP:
        push(state, _IMMEDIATE_STEP[card])


@step(check=_in_turn, expansion=True)
def brutii_proconsul(state: GameState) -> None:
    """E86, E91: with the follower disc he places the proconsul, if he holds it, as a normal placement."""
    seat = state.brutii
    if state.players[seat].followers > 0:
        ask(state, Pending(DecisionKind.PLACE_FOLLOWER, seat))
    else:
        state.log(seat, f"{seat_name(seat)} (the Brutii) holds no proconsul to place")


@step(check=_in_turn, expansion=True)
def brutii_pass(state: GameState) -> None:
    """E90: his turn ends; the next seat's turn follows."""
    state.turn_seat = (state.brutii + 1) % state.num_players
    push(state, ("place_next",))


def _brutii_game(state: GameState, *_: int) -> str:
    return "" if state.brutii >= 0 else "runs only in a game with the Brutii"


@step(check=_brutii_game, expansion=True)
def brutii_bowl(state: GameState) -> None:
    """The end of phase 2: with "Denarii" he takes 1 per follower on the coin bowl (R47, E98); a proconsul he did
    not place goes back."""
    seat = state.brutii
    state.players[seat].followers = 0
    if played(state, BrutiiCard.DENARII):
        give_money(state, seat, len(state.coin_bowl), "a denarius per follower on the coin bowl, Denarii (R47)")


# --- the cards that act at once (R51-R54) -----------------------------------------------------------


def _legion_price(state: GameState) -> int:
    """R51: the sum of his displayed Legates set, or the printed price without one."""
    if state.controller[Faction.LEGATES] == state.brutii:
        return set_sum(state, state.sets[Faction.LEGATES])
    return brutii_spec(state).legion_price


@step(check=_brutii_game, expansion=True)
def brutii_legion(state: GameState) -> None:
    seat = state.brutii
    price = _legion_price(state)
    if state.players[seat].money >= price:
        ask(state, Pending(DecisionKind.BRUTII_LEGION, seat))
    else:
        state.log(seat, f"{seat_name(seat)} (the Brutii) cannot pay {price} for a legion (R51)")


def _legal_legion(state: GameState, pending: Pending) -> list[Action]:
    return [COMMIT, DECLINE]


def _resolve_legion(state: GameState, pending: Pending, action: Commit | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} (the Brutii) buys no legion")
        return
    pay(state, seat, _legion_price(state), "a legion, Buy a Legion (R51)")
    give_legions(state, seat, 1, "Buy a Legion (R51)")


@step(check=_brutii_game, expansion=True)
def brutii_slaves(state: GameState) -> None:
    """R52: every face-up slave on a Thermae, Forum or Curia field with no follower yet, in board order."""
    tasks: list[Task] = []
    for region in SLAVE_REGIONS:
        if state.veto == int(region):
            continue
        for i, field in enumerate(state.fields[region]):
            if state.spaces[state.tables.region_spaces[region][i]] >= 0:
                continue
            tasks.extend(("brutii_slave", int(region), i, c) for c in field if state.tables.is_slave(c))
    push(state, *tasks)


def _slave_there(state: GameState, region: int, i: int, slave: int) -> bool:
    fields = state.fields[region]
    return 0 <= i < len(fields) and slave in fields[i] and state.spaces[state.tables.region_spaces[region][i]] < 0


def _slave_problem(state: GameState, region: int, i: int, slave: int) -> str:
    if state.brutii < 0 or region not in [int(r) for r in SLAVE_REGIONS]:
        return "takes a slave from a Thermae, Forum or Curia field in a game with the Brutii"
    return "" if _slave_there(state, region, i, slave) else "the slave is not on that free field"


@step(check=_slave_problem, expansion=True)
def brutii_slave(state: GameState, region: int, i: int, slave: int) -> None:
    """R52: while he holds enough cards he lays them on the field, one at a time, then takes the slave."""
    seat = state.brutii
    if state.players[seat].hand_size < brutii_spec(state).slave_lay:
        state.log(seat, f"{seat_name(seat)} (the Brutii) has too few cards to take another slave (R52)")
        return
    state.staged = []
    push(state, ("brutii_lay", region, i, slave))
    ask(state, Pending(DecisionKind.BRUTII_SLAVES, seat))


def _lay_problem(state: GameState, region: int, i: int, slave: int) -> str:
    problem = _slave_problem(state, region, i, slave)
    if problem:
        return problem
    pending = state.pending
    asked = pending is not None and pending.kind is DecisionKind.BRUTII_SLAVES
    if not asked and len(state.staged) != brutii_spec(state).slave_lay:
        return "needs the Brutii's cards staged (or being staged) for the field"
    return ""


@step(check=_lay_problem, expansion=True)
def brutii_lay(state: GameState, region: int, i: int, slave: int) -> None:
    seat = state.brutii
    cards, state.staged = state.staged, []
    field = state.fields[region][i]
    field.remove(slave)
    field.extend(cards)
    state.players[seat].hand[slave] += 1
    state.log(
        seat,
        f"{seat_name(seat)} (the Brutii) lays {card_names(state, cards)} on {Region(region).key} field {i + 1} "
        f"and takes {state.tables.card_name(slave)} (R52)",
    )


def _legal_slaves(state: GameState, pending: Pending) -> list[Action]:
    """Cards of the hand in ascending card-type order (one sequence per set), each offered only if the cards of
    its type and higher still complete the set."""
    hand = state.players[pending.seat].hand
    need = brutii_spec(state).slave_lay - len(state.staged)
    start = state.staged[-1] if state.staged else 0
    out: list[Action] = []
    remaining = 0
    for card in range(len(hand) - 1, start - 1, -1):
        remaining += hand[card]
        if hand[card] and remaining >= need:
            out.append(pick_card(card))
    out.reverse()
    return out


def _resolve_slaves(state: GameState, pending: Pending, action: PickCard) -> None:
    if len(state.staged) + 1 < brutii_spec(state).slave_lay:
        stage(state, pending, action.card)
        return
    take_from_hand(state, pending.seat, action.card)
    state.staged.append(action.card)


@step(check=_brutii_game, expansion=True)
def mass_murder(state: GameState) -> None:
    """R53: every displayed set of the printed size or more, his own included, loses its highest card."""
    seat = state.brutii
    least = brutii_spec(state).mass_murder_set
    for faction, cards in enumerate(state.sets):
        if len(cards) >= least:
            card = remove_highest(state, cards)
            state.discard.append(card)
            owner = state.controller[faction]
            state.log(
                seat,
                f"Mass Murder: {seat_name(owner)}'s {faction_name(state, faction)} set loses "
                f"{state.tables.card_name(card)} (R53)",
            )


def _legal_veto(state: GameState, pending: Pending) -> list[Action]:
    return [choose_region(int(r)) for r in state.tables.regions]


def _resolve_veto(state: GameState, pending: Pending, action: ChooseRegion) -> None:
    """R54: no follower may go there for the rest of the round; the region is not evaluated."""
    state.veto = action.region
    state.log(pending.seat, f"{seat_name(pending.seat)} (the Brutii) vetoes {Region(action.region).key} (R54)")


# --- options at the start of phases 3 and 4 (R46) -----------------------------------------------------

_OPTION_KIND = {
    BrutiiCard.CARDS: DecisionKind.BRUTII_CARDS_OPTION,
    BrutiiCard.FACTION_TAKEOVER: DecisionKind.BRUTII_TAKEOVER_OPTION,
}


def _option_problem(state: GameState, card: int) -> str:
    if state.brutii < 0:
        return "runs only in a game with the Brutii"
    return "" if card in [int(c) for c in OPTION_OF] else "a card with options is Cards or Faction Take-Over"


@step(check=_option_problem, expansion=True)
def brutii_option(state: GameState, card: int) -> None:
    """R46: "Cards" is chosen at the start of phase 3, "Faction Take-Over" at the start of phase 4."""
    which = BrutiiCard(card)
    state.phase = OPTION_PHASE[which]
    if played(state, which):
        ask(state, Pending(_OPTION_KIND[which], state.brutii))


def _legal_option(state: GameState, pending: Pending) -> list[Action]:
    return [choose_option(0), choose_option(1)]


def _option_resolver(card: BrutiiCard) -> ResolveFn:
    def resolve(state: GameState, pending: Pending, action: ChooseOption) -> None:
        state.brutii_options[OPTION_OF[card]] = action.option
        state.log(
            pending.seat,
            f"{seat_name(pending.seat)} (the Brutii) chooses option {action.option + 1} of {card_name(card)}",
        )

    return resolve


# --- at the locations, after the occupants (R47) ----------------------------------------------------


def _take_all(state: GameState, region: Region, fields: list[list[int]], private: bool = False) -> None:
    seat = state.brutii
    cards = [c for field in fields for c in field]
    for field in fields:
        field.clear()
    for card in cards:
        state.players[seat].hand[card] += 1
    if private:  # R45: the Catacombs' cards are his secret
        state.log(seat, f"{seat_name(seat)} (the Brutii) takes {len(cards)} card(s) from {region.key}")
        state.log(seat, f"{seat_name(seat)} takes {card_names(state, cards)} from {region.key}", private_to=seat)
    elif cards:
        state.log(seat, f"{seat_name(seat)} (the Brutii) takes {card_names(state, cards)} from {region.key} (R47)")


def _occupied(state: GameState, region: Region) -> bool:
    return any(state.spaces[s] >= 0 for s in state.tables.region_spaces[region])


@step(check=lambda state, region: "" if state.brutii >= 0 else "runs only in a game with the Brutii", expansion=True)
def brutii_at(state: GameState, region: int) -> None:
    """R47: the Brutii acts at ``region`` after every follower there."""
    r = Region(region)
    seat = state.brutii
    fields = state.fields[r]
    if r in (Region.FORUM, Region.CURIA):  # Cards 1: what no occupant bought or discarded for
        _take_all(state, r, [f for f in fields if f])
    elif r is Region.CATACOMBS:  # Cards 2: the pile left after the occupants
        _take_all(state, r, fields, private=True)
    elif r is Region.LATRINE:  # Denarii: an empty Latrine pays him its card's value
        if fields[0] and not _occupied(state, r):
            value = state.tables.card_value[fields[0][0]]
            state.log(seat, f"Latrine card revealed: {state.tables.card_name(fields[0][0])}")
            give_money(state, seat, value, "the empty Latrine's card, Denarii (R47)")
    elif r is Region.PANTHEON:
        if fields[0] and _occupied(state, r) and not state.players[seat].eternal_favor:
            ask(state, Pending(DecisionKind.PANTHEON_SACRIFICE, seat, index=BRUTII_SLOT))
    elif r is Region.FIELD_OF_MARS:
        push(state, ("brutii_mars",))
    elif r is Region.REFUGIUM:
        state.staged = []
        ask(state, Pending(DecisionKind.REFUGIUM_OPTION, seat, index=BRUTII_SLOT))
    elif r is Region.BASILICA:
        ask(state, Pending(DecisionKind.BASILICA_CLAIM, seat, index=BRUTII_SLOT))
    elif r is Region.CAPITOLEUM:
        ask(state, Pending(DecisionKind.OFFICIAL_CHOICE, seat, index=BRUTII_SLOT))


def mars_room(state: GameState) -> int:
    """Pairs the Brutii may still lay with "Laurels": the Field of Mars' empty spaces, plus the pair his proconsul
    may lay there as an occupant, less his pairs (R47; a sealed pair counts the same whichever way he laid it)."""
    spaces = state.tables.region_spaces[Region.FIELD_OF_MARS]
    empty = sum(1 for s in spaces if state.spaces[s] < 0)
    standing = sum(1 for s in spaces if state.spaces[s] == state.brutii)
    return empty + standing - sum(1 for seat, _, _ in state.pairs if seat == state.brutii)


@step(check=_brutii_game, expansion=True)
def brutii_mars(state: GameState) -> None:
    """R47, E97: another sealed pair while the Field of Mars has room for it (asked again after each pair)."""
    from tribune_env.engine.regions import mars_offer  # the Field of Mars' own pair rules

    if mars_room(state) > 0:
        mars_offer(state, state.brutii, BRUTII_SLOT)


# --- phase 8 (E104) ----------------------------------------------------------------------------------


@step(check=_brutii_game, expansion=True)
def brutii_reset(state: GameState) -> None:
    """E104: he takes his action cards back and turns his discs face down; his options and Veto end."""
    state.brutii_played = []
    state.brutii_revealed = []
    state.brutii_options = [-1, -1]
    state.veto = -1
    state.log(state.brutii, f"{seat_name(state.brutii)} (the Brutii) takes his action cards back")


# --- the records -------------------------------------------------------------------------------------


def _brutii_decides(phase: Phase, then: CheckFn | None = None) -> CheckFn:
    def check(state: GameState, pending: Pending) -> str:
        if not is_brutii(state, pending.seat):
            return f"pending.seat: only the Brutii makes a {pending.kind.key} decision"
        if state.phase is not phase:
            return f"pending.kind: a {pending.kind.key} decision is asked in phase {phase.name.lower()}, not here"
        return then(state, pending) if then is not None else ""

    return check


def _played_check(card: BrutiiCard) -> CheckFn:
    def check(state: GameState, pending: Pending) -> str:
        return "" if played(state, card) else f"brutii.played: a {pending.kind.key} decision needs {card_name(card)}"

    return check


def _card_turn(state: GameState, pending: Pending) -> str:
    if state.turn_seat != state.brutii or not agenda_has(state, "brutii_pass"):
        return "agenda: the Brutii chooses a card in his own phase-2 turn"
    return ""


def _slaves_check(state: GameState, pending: Pending) -> str:
    if not state.agenda or state.agenda[-1][0] != "brutii_lay":
        return "agenda: laying cards for a slave needs the field still to receive them (brutii_lay)"
    if len(state.staged) >= brutii_spec(state).slave_lay:
        return "staged: the cards for this slave are all chosen"
    return _played_check(BrutiiCard.SLAVE_CARDS)(state, pending)


def _option_check(card: BrutiiCard) -> CheckFn:
    def check(state: GameState, pending: Pending) -> str:
        problem = _played_check(card)(state, pending)
        if problem:
            return problem
        return "" if state.brutii_options[OPTION_OF[card]] < 0 else "brutii.options: the option is chosen once"

    return check


decision(
    DecisionRule(
        DecisionKind.BRUTII_CARD,
        _legal_card,
        _resolve_card,
        "Brutii: play one of your unplayed action cards face up.",
        check=_brutii_decides(Phase.FOLLOWER_PLACEMENT, _card_turn),
        expansion=True,
    )
)


def _option_decision(card: BrutiiCard, prompt: str, labels: tuple[str, str]) -> None:
    """The record of the option decision of ``card``, asked at the start of its phase (R46)."""
    decision(
        DecisionRule(
            _OPTION_KIND[card],
            _legal_option,
            _option_resolver(card),
            prompt,
            check=_brutii_decides(OPTION_PHASE[card], _option_check(card)),
            options=lambda comps, faction: labels,
            always_asked=True,
            expansion=True,
        )
    )


_option_decision(
    BrutiiCard.CARDS,
    "Brutii, Cards: option 1 (Forum and Curia leftovers) or option 2 (others' Curia discards and the Catacombs pile).",
    (
        "option 1: the Forum cards nobody bought and the Curia fields nobody discarded for",
        "option 2: the cards others discard at the Curia and the Catacombs pile left over",
    ),
)
_option_decision(
    BrutiiCard.FACTION_TAKEOVER,
    "Brutii, Faction Take-Over: option 1 (factions with no follower) or option 2 (factions with one follower, "
    "attacking from space 2).",
    (
        "option 1: attempt every faction with no follower on its field",
        "option 2: attempt every faction with one follower, as if on space 2",
    ),
)
decision(
    DecisionRule(
        DecisionKind.BRUTII_VETO,
        _legal_veto,
        _resolve_veto,
        "Brutii, Veto: name a region where no follower may go this round; it is not evaluated.",
        check=_brutii_decides(Phase.FOLLOWER_PLACEMENT, _played_check(BrutiiCard.VETO)),
        expansion=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.BRUTII_SLAVES,
        _legal_slaves,
        _resolve_slaves,
        "Brutii, Slave Cards: lay a card from your hand on the field to take its slave.",
        check=_brutii_decides(Phase.FOLLOWER_PLACEMENT, _slaves_check),
        card_verb="lay",
        stages=True,
        expansion=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.BRUTII_LEGION,
        _legal_legion,
        _resolve_legion,
        "Brutii, Buy a Legion: buy one legion (the sum of your Legates set, or the printed price), or not.",
        check=_brutii_decides(Phase.FOLLOWER_PLACEMENT, _played_check(BrutiiCard.BUY_A_LEGION)),
        commit_words="buy the legion",
        decline_words="buy no legion",
        always_asked=True,
        expansion=True,
    )
)
