"""What the page of ``tribune serve`` shows of a game (:func:`state`), as one seat sees it or as a spectator does:
the board, the seat's hand, every player's row, the decision and its choices in words, the victory card with each
player's progress, what changed since the seat's last decision, the result. Nothing the seat's view hides is in it;
a spectator's state holds public information only (no hand, no private event, no decision's choices).

People read names here, never ids: cards by their faction and value, agents by the level they play
(:func:`~.options.agent_label`), victory cards by a title (:func:`~.options.card_title`)."""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from tribune_arena.human import explain
from tribune_arena.human.web.choices import amounts, group, targets
from tribune_arena.human.web.options import agent_label, card_title
from tribune_arena.human.web.store import ABANDONED, OVER, PLAYING, RESIGNED
from tribune_arena.human.web.table import table
from tribune_arena.records import Forfeit
from tribune_arena.tournament.store import expected_outcome
from tribune_env.board import scene_svg
from tribune_env.board import style as st
from tribune_env.board.pieces import card_face
from tribune_env.board.scene import Scene, scene
from tribune_env.data import Faction, Region
from tribune_env.engine.actions import Action, Decline, PickCard
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text
from tribune_env.engine.registry import DECISIONS, is_bid
from tribune_env.engine.view import HIDDEN, OBJECTIVE_NAMES, objective_amounts

PUBLIC_SEAT = 0
"""The seat whose view gives a spectator the public parts of the game (its private parts are left out)."""


class Session(Protocol):
    """What the views read of one game of ``tribune serve``: :class:`~.session.PlaySession` is one. The session
    imports this module to show itself, and this module imports nothing of the session (issue 36: no import
    circle)."""

    @property
    def id(self) -> str: ...

    @property
    def game(self) -> Game: ...

    @property
    def seat(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def names(self) -> list[str]: ...

    @property
    def status(self) -> str: ...

    @property
    def notes(self) -> list[str]: ...

    @property
    def saved(self) -> dict[str, Any] | None: ...

    @property
    def save_error(self) -> str | None: ...

    @property
    def humans(self) -> tuple[int, ...]: ...

    @property
    def ended_by(self) -> int | None: ...

    @property
    def marks(self) -> dict[int, explain.Mark]: ...

    @property
    def shown(self) -> dict[int, int]: ...

    @property
    def people(self) -> dict[int, str]: ...

    @property
    def step(self) -> int: ...

    @property
    def rules(self) -> str: ...

    @property
    def over(self) -> bool: ...

    def choices(self, seat: int | None = None) -> list[Action]: ...


_ID = re.compile(r"\b[a-z][a-z_]*(?::[a-z0-9_]+)+\b|\b[a-z]+_[a-z_]+\b")


def _names(game: Game) -> dict[str, str]:
    """The component data's ids and the names people read for them: card labels, space labels, victory cards,
    regions and factions."""
    tables = game.tables
    found = {label: tables.card_name(card) for card, label in enumerate(tables.card_label)}
    found |= {spec.label: explain.space_name(game, space) for space, spec in enumerate(tables.spaces)}
    found |= {card.id: card_title(card) for card in game.config.components.victory_cards}
    found |= {region.key: st.region_title(region).partition(" ")[2] for region in Region}
    found |= {f.key: game.config.components.factions[f].name for f in Faction}
    return found


def words(names: dict[str, str], text: str) -> str:
    """``text`` with the component data's ids in it replaced by their ``names`` (:func:`_names`; the engine's event
    lines name a victory card by its id)."""
    return _ID.sub(lambda found: names.get(found.group(0), found.group(0).replace("_", " ")), text)


def person_name(people: dict[int, str], seat: int) -> str:
    """How everyone sees a human seat: the name its person gave, marked as a person's (``Ada (a person)``, so that
    no name passes for a bot's level), or ``a person``."""
    name = people.get(seat)
    return "a person" if name is None else f"{name} (a person)"


def seat_name(session: Session, seat: int, viewer: int | None) -> str:
    """How the page names ``seat`` for ``viewer``: ``you``, another human seat by :func:`person_name`, or the bot's
    level."""
    if seat == viewer:
        return "you"
    if seat in session.humans:
        return person_name(session.people, seat)
    return agent_label(session.names[seat], session.rules)


def decision(session: Session, seat: int | None) -> dict[str, Any] | None:
    """``seat``'s decision with its choices in words, or ``None`` when the game does not wait for it."""
    game = session.game
    pending = game.pending
    if seat is None or session.status != PLAYING or pending is None or pending.seat != seat:
        return None
    rule = DECISIONS[pending.kind]
    faction = f" ({game.config.components.factions[pending.faction].name})" if pending.faction >= 0 else ""
    legal = game.legal_actions()
    choices = []
    for index, action in enumerate(session.choices(seat)):
        text = explain.explain_choice(game, seat, action)
        choices.append(
            {
                "index": index,
                "words": text.words,
                "detail": text.detail,
                "action": action_text(action),
                "targets": targets(game, seat, action),
                "card": isinstance(action, PickCard),
                "decline": isinstance(action, Decline),
                "group": group(game, action),
            }
        )
    bid = None
    if is_bid(pending.kind):
        bids = amounts(legal)
        bid = {"min": bids[0], "max": bids[-1], "stake": explain.auction_line(game, seat)}
    staged = ""
    if rule.stages:
        tables = game.tables
        cards = [tables.card_name(c) for c in game.view(seat).staged if 0 <= c < tables.num_card_types]
        staged = "Chosen so far: " + (", ".join(cards) if cards else "nothing")
    return {
        "kind": pending.kind.name.lower(),
        "question": f"Round {game.round}{faction}: {rule.prompt}",
        "choices": choices,
        "bid": bid,
        "staged": staged,
        "takeover": explain.takeover_lines(game, seat),
    }


def waiting(session: Session, viewer: int | None) -> str:
    """Whom the game waits for, in words (``""`` when it waits for ``viewer`` or is over)."""
    pending = session.game.pending
    if session.status != PLAYING or pending is None or pending.seat == viewer:
        return ""
    who = seat_name(session, pending.seat, viewer)
    what = DECISIONS[pending.kind].prompt.rstrip(".:?").lower()
    return f"Waiting for P{pending.seat}, {who}: {what}"


def forfeit(session: Session) -> Forfeit | None:
    """The forfeit of the seat that resigned (``None`` unless the game was resigned)."""
    if session.status != RESIGNED:
        return None
    seat = session.seat if session.ended_by is None else session.ended_by
    return Forfeit(seat, RESIGNED, f"the person resigned in round {session.game.round}, at step {session.step}")


def result(session: Session, viewer: int | None) -> dict[str, Any] | None:
    """The end of the game in words for ``viewer``; ``None`` while it is played."""
    game = session.game
    by = session.ended_by
    if session.status == ABANDONED:
        who = "You" if by is None or by == viewer else f"P{by} ({seat_name(session, by, viewer)})"
        verdict = f"{who} abandoned this game in round {game.round}; it has no result and is not saved as one."
        return {
            "scores": game.scores(),
            "ranks": [],
            "winners": [],
            "truncated": False,
            "verdict": verdict,
            "lines": [],
        }
    if not session.over:
        return None
    scores, ranks, winners = expected_outcome(game, forfeit(session))
    lines = [
        f"rank {ranks[s]}: P{s} {seat_name(session, s, viewer)}, score {scores[s]}"
        + ("  (winner)" if s in winners else "")
        for s in sorted(range(game.num_players), key=lambda s: (ranks[s], s))
    ]
    if viewer in winners:
        verdict = "You win!" if len(winners) == 1 else "You share the win!"
    else:
        verdict = "Winner(s): " + ", ".join(f"P{s} {seat_name(session, s, viewer)}" for s in winners)
    if session.status == RESIGNED:
        quitter = session.seat if by is None else by
        verdict = ("You resigned. " if quitter == viewer else f"P{quitter} resigned. ") + verdict
    truncated = session.status == OVER and game.truncated
    return {
        "scores": list(scores),
        "ranks": list(ranks),
        "winners": list(winners),
        "truncated": truncated,
        "verdict": verdict + (" (round limit reached)" if truncated else ""),
        "lines": lines,
    }


def hand(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """``seat``'s hand, one entry per card (``[]`` for a spectator): its label (the board's ``data-card``), name,
    value, kind and colours."""
    if seat is None:
        return []
    tables = game.tables
    cards = []
    for card, count in enumerate(game.view(seat).hand):
        face = card_face(tables, card) if count else None
        for _ in range(count):
            assert face is not None
            cards.append(
                {
                    "label": face.label,
                    "name": tables.card_name(card),
                    "value": face.value,
                    "word": face.word,
                    "kind": face.kind,
                    "fill": face.fill,
                    "ink": face.ink,
                }
            )
    return cards


def players(session: Session, viewer: int | None) -> list[dict[str, Any]]:
    """Every player's row as ``viewer`` sees it (public holdings only, and the victory-card progress)."""
    game = session.game
    view = game.view(PUBLIC_SEAT if viewer is None else viewer)
    progress = {p.seat: p for p in explain.victory_progress(game, PUBLIC_SEAT if viewer is None else viewer)}
    scores = game.scores()
    pending = game.pending
    rows = []
    for seat, public in enumerate(view.players):
        amounts_ = objective_amounts(public)
        mine = progress.get(seat)
        rows.append(
            {
                "seat": seat,
                "name": seat_name(session, seat, viewer),
                "person": seat in session.humans,
                "you": seat == viewer,
                "deciding": session.status == PLAYING and pending is not None and pending.seat == seat,
                "money": public.money,
                "laurels": public.laurels,
                "legions": public.legions,
                "markers": amounts_["markers"],
                "followers": public.followers,
                "hand_size": public.hand_size,
                "tribune": bool(amounts_["tribune"]),
                "favor": bool(amounts_["favor"]),
                "patrons": public.patrons,
                "emperor_tiles": len(public.emperor_tiles),
                "score": scores[seat],
                "met": mine.met if mine else None,
                "required": mine.required if mine else None,
                "fulfils": mine.fulfils if mine else False,
                "objectives": [
                    {"name": o.objective.name, "have": o.have, "need": o.objective.need, "met": o.met}
                    for o in (mine.objectives if mine else ())
                ],
            }
        )
    return rows


def victory(game: Game) -> dict[str, Any]:
    """The victory card (title, length, how many objectives end the game, each objective in words), or the
    point-value variant's rule."""
    goal = explain.victory_goal(game)
    if goal is None:
        need = game.config.point_variant_markers
        return {
            "title": "Point-value variant",
            "length": "",
            "required": need,
            "objectives": [],
            "rule": (
                f"The game ends after a round in which a player holds {need} faction markers; the highest score wins."
            ),
        }
    card = explain.victory_card_of(game)
    assert card is not None
    return {
        "title": card_title(card),
        "length": goal.length,
        "required": goal.required,
        "objectives": [
            {"name": OBJECTIVE_NAMES.get(o.key, o.name), "need": o.need, "text": o.text, "obligatory": o.obligatory}
            for o in goal.objectives
        ],
        "rule": f"Meet {goal.required} of these {len(goal.objectives)} objectives at the end of a round to end it.",
    }


def board_scene(game: Game, viewer: int | None) -> Scene:
    """What ``viewer`` may see of the table; for a spectator, what every seat sees (every hand face down, no
    staged, Augur, bid or pair card, a board card only if no seat's view hides it)."""
    if viewer is not None:
        return scene(game, viewer)
    public = scene(game, PUBLIC_SEAT, hands=False)
    boards = [game.view(seat).board for seat in range(game.num_players)]
    shown = tuple(  # a board card is shown when every seat sees it (a card one seat looked at stays face down)
        tuple(
            tuple(card if all(b[r][f][i] == card for b in boards) else HIDDEN for i, card in enumerate(field))
            for f, field in enumerate(region)
        )
        for r, region in enumerate(boards[PUBLIC_SEAT])
    )
    return replace(
        public,
        viewer=None,
        board=shown,
        staged=tuple(HIDDEN for _ in public.staged),
        augur=tuple(HIDDEN for _ in public.augur),
        bids={},
        pairs=(),
    )


def replay_path(path: str | Path, here: Path | None = None) -> str:
    """The results file ``path`` as the replay command names it: relative to the server's working folder ``here``
    (default: the current one) when it is in it (``tribune-games/tribune-serve-base.sqlite`` for the default save
    folder), else as it is; the command then works from the folder the server was started in (issue 42, rough edge
    1: it named the file alone, which is not where it is)."""
    found = Path(path)
    if not found.is_absolute():
        return found.as_posix()
    try:
        return found.relative_to((here or Path.cwd()).resolve()).as_posix()
    except ValueError:
        return found.as_posix()


def saved(session: Session) -> dict[str, Any] | None:
    """Where the record was saved, for people: the results file's name, the game's number in it, the command that
    replays it (:func:`replay_path`: run from the folder the server was started in) and the page that does."""
    if session.saved is None or session.saved.get("pending"):
        return None
    path = replay_path(str(session.saved["path"]))
    number = session.saved["game_id"]
    return {
        "game_id": number,
        "name": f"game {number} of {Path(path).name}",
        "replay": f"tribune replay {shlex.quote(path)} --game {number}",
        "replay_url": f"/api/games/{session.id}/replay",
    }


FALLBACK = "; it played its first legal choice instead"
"""How the note of a bot's failed move ends (:meth:`~.session.PlaySession._agent_move`)."""
_RAISED = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Failure|Exit|Interrupt)): .*", re.S)


def public_note(note: str) -> str:
    """A note as every viewer reads it: a bot's failed move says what went wrong, the kind of an exception the bot
    raised but not its message (a bot's own words may quote its hand: issue 42, W12), which stays in the games
    database (``moves.note``) for the server's owner."""
    head, sep, tail = note.rpartition(FALLBACK)
    if not sep:
        return note
    cut = _RAISED.sub(r"\1", head)
    if cut != head and head.endswith(")") and not cut.endswith(")"):
        cut += ")"
    return cut + sep + tail


def whole_log(session: Session, viewer: int | None) -> list[str]:
    """The game's whole log from its first event, in words, as seat ``viewer`` may read it: every public event and
    the events private to ``viewer`` (none for a spectator, ``None``); the state's ``log`` holds the recent part."""
    names = _names(session.game)
    return [
        words(names, e.text)
        for e in session.game.events
        if e.private_to == -1 or (viewer is not None and e.private_to == viewer)
    ]


def state(session: Session, viewer: int | None) -> dict[str, Any]:
    """Everything the page shows, as seat ``viewer`` sees it (``None``: a spectator): nothing that seat may not know.
    The game's ``seed`` is ``null`` until the game is over (finished, resigned or abandoned), since whoever has it
    can deal every hidden hand (issue 42, W12); then it is shown, as the record and the replay show it."""
    game = session.game
    if viewer is not None and viewer in session.humans:
        mark = session.marks.get(viewer) or explain.mark(game, viewer)
        changes = explain.changes_since(game, viewer, mark)
        shown = session.shown.get(viewer, 0)
    else:
        changes, shown = [], max(0, len(game.events) - 60)
    names = _names(game)
    log = [
        words(names, e.text)
        for e in game.events[shown:]
        if e.private_to == -1 or (viewer is not None and e.private_to == viewer)
    ]
    public = PUBLIC_SEAT if viewer is None else viewer
    sc = board_scene(game, viewer)
    return {
        "id": session.id,
        "step": session.step,
        "seat": -1 if viewer is None else viewer,
        "spectator": viewer is None,
        "humans": list(session.humans),
        "names": [seat_name(session, s, viewer) for s in range(game.num_players)],
        "people": {str(seat): name for seat, name in sorted(session.people.items())},
        "rules": session.rules,
        "seed": session.seed if session.over else None,  # W12: the seed deals every hand; shown once it is over
        "round": game.round,
        "status": session.status,
        "over": session.over,
        "decision": decision(session, viewer),
        "waiting": waiting(session, viewer),
        "victory_card": victory(game),
        "victory": explain.victory_lines(game, public, progress=False),
        "progress": [
            {"seat": p.seat, "met": p.met, "required": p.required, "fulfils": p.fulfils, "text": p.text()}
            for p in explain.victory_progress(game, public)
        ],
        "progress_line": explain.progress_line(game, public) if viewer is not None else "",
        "players": players(session, viewer),
        "hand": hand(game, viewer),
        "changes": [words(names, line) for line in changes],
        "log": log[-60:],
        "notes": [public_note(note) for note in session.notes[-10:]],
        "board": scene_svg(sc),
        "table": table(sc),
        "result": result(session, viewer),
        "saved": saved(session),
        "save_error": session.save_error,
    }
