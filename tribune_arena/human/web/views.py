"""What the page of ``tribune serve`` shows of a game (:func:`state`): the board drawn for the person's seat, the
decision and its choices in words, the victory card and progress, what changed since the person's last decision,
the result. Nothing a seat's view hides is in it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tribune_arena.human import explain
from tribune_arena.human.web.choices import amounts, group, targets
from tribune_arena.human.web.store import ABANDONED, OVER, PLAYING, RESIGNED
from tribune_arena.records import Forfeit
from tribune_arena.tournament.store import expected_outcome
from tribune_env.board import board_svg
from tribune_env.engine.actions import Decline, PickCard
from tribune_env.engine.notation import action_text
from tribune_env.engine.registry import DECISIONS, is_bid

if TYPE_CHECKING:
    from tribune_arena.human.web.session import PlaySession


def decision(session: PlaySession) -> dict[str, Any] | None:
    game = session.game
    pending = game.pending
    if session.status != PLAYING or pending is None or pending.seat != session.seat:
        return None
    rule = DECISIONS[pending.kind]
    faction = f" ({game.config.components.factions[pending.faction].name})" if pending.faction >= 0 else ""
    legal = game.legal_actions()
    choices = []
    for index, action in enumerate(session.choices()):
        text = explain.explain_choice(game, session.seat, action)
        choices.append(
            {
                "index": index,
                "words": text.words,
                "detail": text.detail,
                "action": action_text(action),
                "targets": targets(game, session.seat, action),
                "card": isinstance(action, PickCard),
                "decline": isinstance(action, Decline),
                "group": group(game, action),
            }
        )
    bid = None
    if is_bid(pending.kind):
        bids = amounts(legal)
        bid = {"min": bids[0], "max": bids[-1], "stake": explain.auction_line(game, session.seat)}
    staged = ""
    if rule.stages:
        tables = game.state.tables
        cards = [tables.card_name(c) for c in game.view(session.seat).staged if 0 <= c < tables.num_card_types]
        staged = "Chosen so far: " + (", ".join(cards) if cards else "nothing")
    return {
        "kind": pending.kind.name.lower(),
        "question": f"Round {game.round}{faction}: {rule.prompt}",
        "choices": choices,
        "bid": bid,
        "staged": staged,
        "takeover": explain.takeover_lines(game, session.seat),
    }


def forfeit(session: PlaySession) -> Forfeit | None:
    if session.status != RESIGNED:
        return None
    return Forfeit(session.seat, RESIGNED, f"the person resigned in round {session.game.round}, at step {session.step}")


def result(session: PlaySession) -> dict[str, Any] | None:
    game = session.game
    if session.status == ABANDONED:
        verdict = f"You abandoned this game in round {game.round}; it has no result and is not saved as one."
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
        f"rank {ranks[s]}: P{s} {'you' if s == session.seat else session.names[s]}, score {scores[s]}"
        + ("  (winner)" if s in winners else "")
        for s in sorted(range(game.num_players), key=lambda s: (ranks[s], s))
    ]
    if session.seat in winners:
        verdict = "You win!" if len(winners) == 1 else "You share the win!"
    else:
        verdict = "Winner(s): " + ", ".join(f"P{s} {session.names[s]}" for s in winners)
    if session.status == RESIGNED:
        verdict = f"You resigned. {verdict}"
    return {
        "scores": list(scores),
        "ranks": list(ranks),
        "winners": list(winners),
        "truncated": session.status == OVER and game.truncated,
        "verdict": verdict + (" (round limit reached)" if session.status == OVER and game.truncated else ""),
        "lines": lines,
    }


def state(session: PlaySession) -> dict[str, Any]:
    """Everything the page shows, as seen by the person's seat (nothing their view hides)."""
    game = session.game
    assert session.mark is not None
    progress = [
        {"seat": p.seat, "met": p.met, "required": p.required, "fulfils": p.fulfils, "text": p.text()}
        for p in explain.victory_progress(game, session.seat)
    ]
    log = [e.text for e in game.events[session.shown :] if e.private_to in (-1, session.seat)]
    return {
        "id": session.id,
        "step": session.step,
        "seat": session.seat,
        "names": [("you" if s == session.seat else name) for s, name in enumerate(session.names)],
        "rules": session.rules,
        "seed": session.seed,
        "round": game.round,
        "status": session.status,
        "over": session.over,
        "decision": decision(session),
        "victory": explain.victory_lines(game, session.seat),
        "progress": progress,
        "progress_line": explain.progress_line(game, session.seat),
        "changes": explain.changes_since(game, session.seat, session.mark),
        "log": log[-60:],
        "notes": session.notes[-10:],
        "board": board_svg(game, viewer=session.seat),
        "result": result(session),
        "saved": session.saved,
        "save_error": session.save_error,
    }
