"""explain: every choice of random base, expansion and Brutii positions is explained in words with no
internal id; victory progress agrees with the engine's own victory check; ``tribune play`` shows the change summary
instead of the board, the board on request, the victory card and, in a take-over, both sets."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator

import pytest
from slow_marks import slow_except_values

from tribune_arena.human import explain
from tribune_arena.human.terminal import HumanGame
from tribune_env.data import BrutiiCard, Faction, Nationality, Official, Region
from tribune_env.engine import scoring
from tribune_env.engine.actions import PickCard, PlaceFollower
from tribune_env.engine.config import GameConfig, victory_cards_of
from tribune_env.engine.decisions import DecisionKind, Phase, TakeoverRole
from tribune_env.engine.game import Game
from tribune_env.engine.registry import DECISIONS

CONFIGS = {
    "base": GameConfig(players=4),
    "base-variant": GameConfig(players=3, point_variant=True),
    "expansion": GameConfig(players=4, expansion=True),
    "brutii": GameConfig(players=5, expansion=True, brutii=True),
}

COLON_ID = re.compile(r"\b[a-z_]+:[a-z0-9_]+")
"""The shape of the codec's and the engine's ids: ``thermae:2``, ``faction:gladiators:1``, ``senators:7``."""


def internal_ids(config: GameConfig) -> re.Pattern[str]:
    """Every id a person must never read (case-sensitive, whole words): follower-space labels, card labels, the
    victory card ids of every rule set, decision keys, phases, region, faction and slave nationality keys (a
    person reads ``Field of Mars``, ``Vestal Virgins``, ``Greek``), and the keys with an underscore of the officials
    and the Brutii's action cards (their one-word keys, such as ``veto`` or ``augur``, are plain words)."""
    game = Game.new(config, seed=0)
    tables = game.tables
    words = {s.label for s in tables.spaces} | set(tables.card_label)
    words |= {card.id for card in victory_cards_of(config.components, True)}
    words |= {kind.key for kind in DecisionKind} | {phase.name.lower() for phase in Phase if "_" in phase.name}
    words |= {e.key for enum in (Region, Faction, Nationality) for e in enum}
    words |= {e.key for enum in (Official, BrutiiCard) for e in enum if "_" in e.key}
    return re.compile(r"(?<![\w:])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")(?![\w:])")


def leaks(text: str, ids: re.Pattern[str]) -> list[str]:
    return [m[0] for m in COLON_ID.finditer(text)] + [m[0] for m in ids.finditer(text)]


def positions(config: GameConfig, games: int, every: int) -> Iterator[Game]:
    """Every ``every``-th decision of ``games`` random games (random choices), the first of each game too."""
    for seed in range(games):
        game = Game.new(config, seed=seed)
        rng = random.Random(seed)
        step = 0
        while game.pending is not None:
            if step % every == 0:
                yield game
            game.apply(rng.choice(game.legal_actions()))
            step += 1


def test_the_id_check_catches_ids() -> None:
    """The check below is able to fail: raw engine words are caught."""
    config = CONFIGS["expansion"]
    ids = internal_ids(config)
    game = Game.new(config, seed=1)
    raw = [game.describe(PlaceFollower(s.id)) for s in game.tables.spaces]  # the engine's log words
    assert leaks("victory card alea_long", ids) and leaks("place a follower on thermae:2", ids)
    assert leaks("faction:gladiators:1", ids) and leaks("choose field_of_mars", ids) and leaks("card_c", ids)
    assert all(leaks(text, ids) for text in raw if "coin bowl" not in text)
    assert not leaks("place a follower on Thermae, space 2 -- costs 1 denarius", ids)


@pytest.mark.parametrize("name", slow_except_values(sorted(CONFIGS), quick=["brutii"]))
def test_every_legal_choice_is_explained_in_words(name: str) -> None:
    config = CONFIGS[name]
    ids = internal_ids(config)
    kinds: set[DecisionKind] = set()
    for game in positions(config, games=5, every=4):
        pending = game.pending
        assert pending is not None
        seat = pending.seat
        kinds.add(pending.kind)
        for action in game.legal_actions():
            choice = explain.explain_choice(game, seat, action)
            text = choice.text()
            assert choice.words.strip(), f"{pending.kind.name}: no words for {action!r}"
            assert not leaks(text, ids), f"{pending.kind.name}: {text!r} shows {leaks(text, ids)}"
        extra = [explain.progress_line(game, seat), *explain.victory_lines(game, seat)]
        extra += [*explain.takeover_lines(game, seat), explain.auction_line(game, seat)]
        for line in extra:
            assert not leaks(line, ids), f"{line!r} shows {leaks(line, ids)}"
    assert DecisionKind.PLACE_FOLLOWER in kinds and len(kinds) >= 5, sorted(k.name for k in kinds)


def test_a_follower_placement_says_its_cost_and_effect() -> None:
    game = Game.new(CONFIGS["base"], seed=4)
    while game.pending is not None and game.pending.kind is not DecisionKind.PLACE_FOLLOWER:
        game.apply(game.legal_actions()[0])
    seat = game.current_seat
    texts = {
        game.tables.spaces[a.space].label: explain.explain_choice(game, seat, a).text()
        for a in game.legal_actions()
        if isinstance(a, PlaceFollower)
    }
    cost = game.config.components.region(Region.THERMAE).numbers["cost"]
    assert texts["thermae:1"].startswith("place a follower on Thermae, space 1 -- costs ")
    assert f"costs {cost} denari" in texts["thermae:1"]
    assert "the Gladiators faction field, space 1" in texts["faction:gladiators:1"]
    assert "take-over: " in texts["faction:gladiators:1"] and "Spartacus" in texts["faction:gladiators:1"]
    bowl = game.config.components.coin_bowl_first
    assert texts["coin_bowl"] == f"place a follower on the coin bowl -- take {bowl} denarii now"


def _finished(config: GameConfig, seed: int) -> Game:
    game = Game.new(config, seed=seed)
    rng = random.Random(seed)
    while game.pending is not None:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("name", ["base", "expansion", "brutii"])
def test_victory_progress_agrees_with_the_engine(name: str) -> None:
    """At the end of finished games each player's progress is the engine's own objectives check; a player the card
    made a winner has every objective he needs."""
    config = CONFIGS[name]
    winners_by_card = 0
    for seed in range(6):
        game = _finished(config, seed)
        card = scoring.victory_card(game.position())
        assert card is not None
        goal = explain.victory_goal(game)
        assert goal is not None and goal.required == config.required(card)
        assert {o.key for o in goal.objectives} == set(scoring.objectives(game.position().players[0], card))
        for seat in range(game.num_players):
            progress = explain.victory_progress(game, seat)
            for p, mine in enumerate(progress):
                engine = scoring.objectives(game.position().players[p], card)
                assert {r.objective.key: r.met for r in mine.objectives} == engine, (seed, p)
                assert mine.fulfils == scoring.fulfils(game.position().players[p], card, config.required(card))
        if not game.truncated:
            winners_by_card += 1
            for w in game.winners:
                assert explain.victory_progress(game, w)[w].fulfils, (seed, w)
    assert winners_by_card >= 1


def test_the_point_variant_has_no_card_but_markers() -> None:
    game = Game.new(CONFIGS["base-variant"], seed=0)
    assert explain.victory_goal(game) is None and explain.victory_progress(game, 0) == ()
    need = game.config.point_variant_markers
    assert f"{need} faction markers" in explain.victory_lines(game, 0)[0]
    assert "Faction markers" in explain.progress_line(game, 0)


def test_changes_since_reports_money_placements_and_cards() -> None:
    game = Game.new(CONFIGS["base"], seed=2)
    while game.pending is not None and game.pending.kind is not DecisionKind.PLACE_FOLLOWER:
        game.apply(game.legal_actions()[0])
    seat = game.current_seat
    since = explain.mark(game, seat)
    assert explain.changes_since(game, seat, since) == ["Nothing changed."]
    bowl = game.tables.coin_bowl
    money = game.position().players[seat].money
    game.apply(next(a for a in game.legal_actions() if getattr(a, "space", None) == bowl))
    got = game.position().players[seat].money - money
    lines = explain.changes_since(game, seat, since)
    assert f"P{seat} (you) placed: the coin bowl" in lines
    assert f"P{seat} (you): +{got} denarii" in lines
    assert len(lines) <= 4


def _takeover_position() -> tuple[Game, int]:
    """A random base game at a take-over decision where another player holds the faction."""
    for seed in range(400):
        game = Game.new(CONFIGS["base"], seed=seed)
        rng = random.Random(seed)
        while (pending := game.pending) is not None:
            holder = game.position().controller[pending.faction] if pending.faction >= 0 else -1
            if pending.kind is DecisionKind.TAKEOVER_SET and holder not in (-1, pending.seat):
                if pending.index == TakeoverRole.ALONE:
                    return game, pending.seat
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no contested take-over in 400 random games")


def test_takeover_lines_show_the_set_so_far_and_the_set_to_beat() -> None:
    game, seat = _takeover_position()
    pending = game.pending
    assert pending is not None
    holder = game.position().controller[pending.faction]
    name = game.config.components.factions[pending.faction].name
    lines = explain.takeover_lines(game, seat)
    shown = [game.tables.card_name(c) for c in game.position().sets[pending.faction]]
    assert lines[0].startswith(f"Take-over of the {name} (held by P{holder}). Your set so far: no card yet")
    assert lines[1].startswith(f"Set to beat: P{holder}'s displayed set, ") and all(c in lines[1] for c in shown)
    pick = next(a for a in game.legal_actions() if isinstance(a, PickCard))
    game.apply(pick)
    assert "Your set so far: " + game.tables.card_name(pick.card) in explain.takeover_lines(game, seat)[0]
    assert explain.takeover_lines(Game.new(CONFIGS["base"], seed=0), 0) == []


# -- the terminal ----------------------------------------------------------------------------------------------------


class Lines:
    """Scripted answers, then ``1`` for ever."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    def readline(self) -> str:
        return (self.lines.pop(0) if self.lines else "1") + "\n"


BOARD_ONLY = "draw pile"
"""Words of the rendered board (``Game.render``) that nothing else prints."""


def test_the_terminal_shows_the_summary_not_the_board() -> None:
    out = io.StringIO()
    config = GameConfig(players=3, round_limit=2)
    session = HumanGame(
        config, ["random", "random"], seat=1, seed=3, input_stream=Lines("1", "1", "d"), output=out, width=1000
    )
    assert session.play() == 0
    text = out.getvalue()
    before_end = text[: text.rfind("=" * 100)]  # the final board follows the last separator
    assert BOARD_ONLY not in before_end and "Since your last decision:" in text
    assert "Victory card: objectives met of " in text and "Progress (* = met):" in text
    assert " -- costs " in text and " -- take-over: " not in text  # costs shown; faction rewards after the space
    assert "faction field, space 1 -- in phase 4 you may take over the " in text
    assert not leaks(text, internal_ids(config)), leaks(text, internal_ids(config))  # the final board too


def test_the_board_and_goal_commands() -> None:
    out = io.StringIO()
    config = GameConfig(players=3, round_limit=1)
    lines = Lines("board", "goal")
    session = HumanGame(config, ["random", "random"], seat=0, seed=1, input_stream=lines, output=out, width=100)
    assert session.play() == 0
    text = out.getvalue()
    first = text[: text.find("You: ")]
    assert BOARD_ONLY in first and "coin bowl:" in first  # the whole board on request
    card = explain.victory_goal(session.game)
    assert card is not None and first.count(f"Victory card: {card.name}. ") == 2  # at the start and on request


def test_a_takeover_prompt_shows_both_sets() -> None:
    game, seat = _takeover_position()
    out = io.StringIO()
    session = HumanGame(game.config, ["random"] * 3, seat=seat, seed=1, input_stream=Lines(), output=out, width=1000)
    session.game = game
    assert session.play() == 0
    text = out.getvalue()
    question = text[text.find("Your decision") :]
    assert DECISIONS[DecisionKind.TAKEOVER_SET].prompt in question.splitlines()[0]
    assert re.match(
        r"Take-over of the .+ \(held by P\d\)\. Your set so far: no card yet\n", question.splitlines(True)[1]
    )
    assert question.splitlines()[2].startswith("Set to beat: P")
