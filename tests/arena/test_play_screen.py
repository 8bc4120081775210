"""Issue 38: terminal play fits a screen. Each decision of a whole game (the summary of what changed, the progress,
the question and its choices, grouped and numbered compactly) takes at most 45 lines of 100 columns; each choice's
cost and effect come on request (``d N``); leaving says so plainly."""

from __future__ import annotations

import io
import random
import re

import pytest
from test_explain import internal_ids, leaks

from tribune_arena.human import terminal
from tribune_arena.human.terminal import CHOICES_FOOTER, SCREEN_LINES, HumanGame, choice_lines
from tribune_env.engine.actions import Bid
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.registry import is_bid

WIDTH = 100


class Picker:
    """A person who types a random listed number (a random allowed bid) at every decision."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.session: HumanGame | None = None

    def readline(self) -> str:
        assert self.session is not None
        game = self.session.game
        legal = game.legal_actions()
        assert game.pending is not None
        if is_bid(game.pending.kind):
            return f"{self.rng.choice([a.amount for a in legal if isinstance(a, Bid)])}\n"
        return f"{self.rng.randint(1, len(legal))}\n"


def screens(config: GameConfig, seed: int, seat: int, width: int = WIDTH) -> list[str]:
    """Every decision screen of a whole game against ``heuristic``: from the blank line above the decision's
    separator to its prompt (the prompt's own line included)."""
    out = io.StringIO()
    picker = Picker(seed)
    session = HumanGame(config, ["heuristic"] * (config.players - 1), seat, seed, picker, out, width=width)
    picker.session = session
    assert session.play() == 0
    text = out.getvalue()
    assert "Final result:" in text
    separator = "\n" + "=" * width + "\n"
    return ["\n" + "=" * width + "\n" + part[: part.index("> ")] for part in text.split(separator)[1:] if "> " in part]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 3), (5, 2)])
def test_each_decision_of_a_whole_base_game_fits_45_lines_of_100_columns(players: int, seed: int) -> None:
    config = GameConfig(players=players)
    shown = screens(config, seed, seat=seed % players)
    assert len(shown) > 20  # a whole game: set-up discards, placements, take-overs, auctions, ...
    ids = internal_ids(config)
    for screen in shown:
        lines = screen.split("\n")  # the last one: the prompt's line
        assert len(lines) <= SCREEN_LINES, f"{len(lines)} lines:\n{screen}"
        assert max(map(len, lines)) <= WIDTH, screen
        assert not leaks(screen, ids), leaks(screen, ids)
    placements = [s for s in shown if "Place a follower on:" in s]
    assert placements and all("  Faction fields  " in s and CHOICES_FOOTER in s for s in placements)


def test_a_long_summary_is_cut_to_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the summary of what changed does not fit, it gives way to the question and the choices: cut to the
    screen, its last line saying how many more lines ``changes`` shows."""
    monkeypatch.setattr(terminal, "SCREEN_LINES", 20)  # the whole games above never need a cut at 45
    shown = screens(GameConfig(players=5), 2, seat=4)
    cut = [s.split("\n") for s in shown if "more (type 'changes' to see them all)" in s]
    assert len(cut) > 5
    for lines in cut:  # 20 lines, or the choices alone take more and the summary is its last line
        assert len(lines) == 20 or any(line.startswith("  ... and ") for line in lines[2:4]), "\n".join(lines)
    assert SCREEN_LINES == 45


def test_choices_are_grouped_and_numbered_in_order() -> None:
    game = Game.new(GameConfig(players=4), seed=5)
    while game.pending is not None and game.round == 0:
        game.apply(game.legal_actions()[0])
    legal = game.legal_actions()
    lines = choice_lines(game, game.current_seat, legal, WIDTH)
    assert lines[0] == "Place a follower on:"
    text = "\n".join(lines)
    numbers = [int(n) for n in re.findall(r"(?<!\S)(\d+)\. ", text)]
    assert numbers == list(range(1, len(legal) + 1))  # every choice once, in the engine's order
    assert len(lines) < len(legal)  # several choices share a line
    assert any(line.startswith("  Thermae ") and ": " in line and ", pay 1" in line for line in lines)
    assert any(line.startswith("  Coin bowl ") and "take 7 denarii now" in line for line in lines)


def test_details_on_request_and_plain_leaving() -> None:
    out = io.StringIO()
    lines = io.StringIO("d 1\nd\nd 99\nd x\nchanges\nquit\n")  # at the first decision
    session = HumanGame(GameConfig(players=3), ["random", "random"], 0, 4, lines, out, width=WIDTH)
    assert session.play() == 0
    text = out.getvalue()
    assert ">    1. discard Gladiators 4 -- value 4; the card leaves your hand\n" in text  # d 1: words and effect
    assert "\n   6. discard Senators 6 -- value 6" in text  # d: every choice
    assert "There is no choice 99; choose from 1 to 6." in text
    assert "Type 'd' and a choice's number (1 to 6), e.g. 'd 1'." in text
    assert text.count("The game begins. P0 (you) is the starting player.") == 2  # changes: the summary again
    assert text.endswith("\nYou left the game in round 0. Goodbye.\n")
    assert "Leaving the game" not in text and "(you left the game)" not in text
