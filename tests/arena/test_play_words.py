"""``tribune play`` reads as a game, not as a debugger (issue 26): a drawn seed printed so that the game can be
replayed, the game's start (not a change) before the person's first decision, the objectives once, every line within
the terminal's width, no internal id and no ``(s)`` plural anywhere a person reads, the log and the board included.

The whole scripted games of every expansion and Brutii decision kind check the width and the words in test_play.py
(:func:`test_play.check_layout`); the base game's decision kinds are checked here.
"""

from __future__ import annotations

import io
import itertools
import random
import re
from typing import Any

import pytest
from test_explain import internal_ids, leaks
from test_play import NARROW, WRONG_PLURAL, Person, Transcribed, check_layout, main

from tribune_arena.human import explain
from tribune_arena.human.terminal import MAX_WIDTH, MIN_WIDTH, HumanGame, fit, terminal_width
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.game import Game
from tribune_env.engine.registry import DECISIONS


class Quit:
    """Input that leaves at once."""

    def readline(self) -> str:
        return "quit\n"


def first_screen(config: GameConfig, seed: int | None = 0, seat: int = 0, width: int = 100) -> tuple[str, HumanGame]:
    """What the person reads up to the first answer."""
    out = io.StringIO()
    session = HumanGame(config, ["random"] * (config.players - 1), seat, seed, Quit(), out, width=width)
    assert session.play() == 0
    return out.getvalue(), session


@pytest.mark.parametrize(
    "config",
    [GameConfig(players=4), GameConfig(players=3, expansion=True), GameConfig(players=5, brutii=True, brutii_seat=2)],
    ids=["base", "expansion", "brutii"],
)
def test_the_first_screen(config: GameConfig) -> None:
    text, session = first_screen(config, seed=12, seat=config.players - 1)
    screen = text[: text.index("> ")]
    assert "Deal: seed 12 (replay this game with --seed 12)\n" in screen
    goal = explain.victory_goal(session.game)
    assert goal is not None
    assert screen.count(f"Meet {goal.required} of these") == 1  # the objectives, once
    assert all(screen.count(f"  - {o.text}") == 1 for o in goal.objectives)
    assert "Victory card: objectives met" not in screen and "Progress (* = met)" not in screen
    # the game's start, not a change: the others' set-up discards are no "-2 cards"
    assert "Since your last decision" not in screen and "cards in hand\n" in screen
    assert "The game begins. P" in screen and "discards 2 of them face down (R4)" in screen
    assert not re.search(r"-\d+ cards?", screen)
    assert re.search(r"Your decision, P\d: Set-up: discard a card", screen)
    check_layout(text, 100, config)


def test_a_drawn_seed_is_printed_and_replays_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = set()
    for _ in range(3):
        text, session = first_screen(GameConfig(players=3), seed=None)
        found = re.search(r"Deal: seed (\d+) \(replay this game with --seed (\d+)\)", text)
        assert found and found[1] == found[2] == str(session.seed)
        seeds.add(session.seed)
        again, _ = first_screen(GameConfig(players=3), seed=session.seed)
        assert again == text  # the same deal, the same opponents' moves
    assert len(seeds) > 1  # drawn, not a fixed default
    monkeypatch.setattr("sys.stdin", Quit())
    assert main(["play", "random", "--players", "2", "--round-limit", "1"]) == 0
    shown = re.search(r"--seed (\d+)\)", capsys.readouterr().out)
    assert shown is not None
    assert main(["play", "random", "--players", "2", "--round-limit", "1", "--seed", shown[1]]) == 0
    assert f"Deal: seed {shown[1]} " in capsys.readouterr().out


def test_lines_fit_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The width is the terminal's (``COLUMNS`` here), within MIN_WIDTH..MAX_WIDTH; long choices wrap under their
    text, other lines four columns deeper than they start."""
    for columns, width in (("50", 50), ("20", MIN_WIDTH), ("400", MAX_WIDTH)):
        monkeypatch.setenv("COLUMNS", columns)
        assert terminal_width() == width
    monkeypatch.setenv("COLUMNS", "50")
    out = io.StringIO()
    config = GameConfig(players=3, round_limit=1)
    assert HumanGame(config, ["random", "random"], 0, 5, io.StringIO("board\nlog\ngoal\n"), out).play() == 0
    check_layout(out.getvalue(), 50, config)
    choice = "  12. place a follower on the Gladiators faction field, space 1 -- in phase 4 you may take over"
    assert fit(choice, 40) == [
        "  12. place a follower on the Gladiators",
        "      faction field, space 1 -- in phase",
        "      4 you may take over",
    ]
    assert fit("  - at least 12 laurels and more words", 20) == ["  - at least 12", "    laurels and more", "    words"]
    assert fit("Victory card: Alea Iacta Est (red) (long game).", 30) == [
        "Victory card: Alea Iacta Est",
        "    (red) (long game).",
    ]
    assert fit("short", 40) == ["short"]
    with pytest.raises(ValueError, match="width must be at least"):
        HumanGame(config, ["random", "random"], width=10)


def test_the_engine_words_read_as_words() -> None:
    """Every log line and the text board of random base, expansion and Brutii games, as a seat reads them: no
    internal id, no ``(s)``, cards by their printed names."""
    configs = [GameConfig(players=4), GameConfig(players=4, expansion=True), GameConfig(players=5, brutii=True)]
    for config in configs:
        ids = internal_ids(config)
        for seed in range(3):
            game = Game.new(config, seed=seed)
            rng = random.Random(seed)
            boards = []
            while game.pending is not None:
                if rng.random() < 0.02:
                    boards.append(explain.board_text(game, game.current_seat))
                game.apply(rng.choice(game.legal_actions()))
            boards.append(explain.board_text(game, 0))
            for seat in range(game.num_players):
                for line in explain.log_lines(game, seat) + "\n".join(boards).splitlines():
                    assert not leaks(line, ids) and not WRONG_PLURAL.search(line), line
    assert explain.plural_words("P1 gains 1 laurel(s) (Field of Mars pair)") == "P1 gains 1 laurel (Field of Mars pair)"
    assert explain.plural_words("take 2 card(s); 1 greek pair(s)") == "take 2 cards; 1 greek pair"
    assert explain.plural_words("game over; winner(s): P1") == "game over; winner: P1"
    assert explain.plural_words("winner(s): P1, P3") == "winners: P1, P3"
    assert explain.plural_words("plays 1 assassin(s): X removed, with the assassin(s)").endswith("the assassin")
    game = Game.new(GameConfig(players=4, victory_card="alea_long"), seed=1)
    assert explain.person_text(game, "victory card alea_long") == "victory card Alea Iacta Est (red) (long game)"
    assert explain.person_text(game, "P1 places a follower on field_of_mars:2") == (
        "P1 places a follower on Field of Mars, space 2"
    )
    assert explain.person_text(game, "hand: vestals:3 vestals:3 ?? ??") == (
        "hand: Vestal Virgins 3, Vestal Virgins 3, 2 face-down cards"
    )
    assert explain.person_text(game, "Waiting for P0: setup_discard") == "Waiting for P0: set-up discard"


class KindsSeen(Transcribed):
    """A scripted game that records the decision kinds the person was asked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kinds: set[DecisionKind] = set()

    def _human(self, pending: Pending) -> Any:
        self.kinds.add(pending.kind)
        return super()._human(pending)


BASE_KINDS = sorted((kind for kind, rule in DECISIONS.items() if not rule.expansion), key=int)


def _position(kind: DecisionKind, limit: int = 400) -> Game:
    """A random base game (3-5 players, 8 rounds) at a decision of ``kind``."""
    for seed in range(limit):
        game = Game.new(GameConfig(players=3 + seed % 3, round_limit=8), seed=seed)
        rng = random.Random(seed)
        while (pending := game.pending) is not None:
            if pending.kind is kind:
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no {kind.name} decision in {limit} random games")


@pytest.mark.parametrize("kind", BASE_KINDS, ids=lambda kind: kind.key)
def test_every_base_decision_fits_the_width_in_words(kind: DecisionKind) -> None:
    """From a position at each base decision kind to the end of the game (commands mixed in): every line within the
    width, no internal id, no ``(s)``; the progress line only when it changed."""
    game = _position(kind)
    pending = game.pending
    assert pending is not None
    out = io.StringIO()
    others = ["random"] * (game.num_players - 1)
    session = KindsSeen(game.config, others, seat=pending.seat, seed=1, output=out, width=NARROW)
    session.game = game
    session.input = Person(session.transcript, int(kind), every=4)
    session.input.BAD = ("board", "log", "goal", "recent", "hand", "choices", "help", "abc")
    assert session.play() == 0
    assert kind in session.kinds and "Final result:" in out.getvalue()
    check_layout(out.getvalue(), NARROW, game.config)
    shown = [ln for ln in session.transcript.getvalue().splitlines() if ln.startswith("Victory card: objectives")]
    assert all(a != b for a, b in itertools.pairwise(shown))
