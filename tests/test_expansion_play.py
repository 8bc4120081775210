"""``tribune play --expansion``: a person plays whole expansion games through scripted input (issue 14).

Every expansion decision kind (Refugium option, patron and pairs R33; Basilica R34; Capitoleum R36; Tribunus
Plebis R38; Augur R39) is asked in words, with what the person needs besides the engine's label: the cards chosen
so far while slaves or a set are assembled, what each official does and who holds it (R36-R40), what an
assassin does in a take-over (R31). No choice is ever shown as a raw action.
"""

from __future__ import annotations

import argparse
import io
import random
import re
from collections.abc import Iterable

import pytest

from agents.base import Agent
from agents.random_agent import RandomAgent
from agents.specs import make_agent, no_more, register_agent
from tribune_arena.human.terminal import DEFAULT_OPPONENT, HumanGame
from tribune_cli import play
from tribune_cli.play import opponents_for
from tribune_env.data import Official
from tribune_env.engine.actions import ChooseOfficial, PickCard
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.game import Game
from tribune_env.engine.registry import DECISIONS, option_labels

EXPANSION_KINDS = {kind: rule for kind, rule in DECISIONS.items() if rule.expansion and not kind.brutii}
"""The expansion's decision kinds that a family meets (the Brutii's own kinds need the Brutii variant, R42-R54)."""
RAW_ACTION = re.compile(
    r"\b(ChooseTile|ChooseOfficial|ChooseOption|ChooseFaction|PickCard|Commit|Decline|Assassinate)\("
)
#: choices a curious player tends to take: they lead into the expansion's decisions
CURIOUS = ("refugium", "basilica", "capitoleum", "patron", "pairs:", "claim the favor", "choose the ", "Assassin")


class BaseOnly(RandomAgent):
    """A random player that does not play the expansion (as every agent not yet taught it)."""

    name = "baseonly"
    rule_sets = frozenset({RuleSet.BASE})


def _base_only(params: dict[str, str], seed: int | None) -> Agent:
    no_more("baseonly", params)
    return BaseOnly(seed)


register_agent("baseonly", _base_only)


class Person:
    """A scripted person: reads the last question on the screen and types a number from its list (a bid from its
    range), preferring :data:`CURIOUS` choices; every ``every``-th answer first tries something invalid."""

    BAD = ("", "abc", "0", "999", "help", "hand", "board", "choices")

    def __init__(self, out: io.StringIO, seed: int, every: int = 0, prefer: Iterable[str] = CURIOUS) -> None:
        self.out = out
        self.rng = random.Random(seed)
        self.every = every
        self.prefer = tuple(prefer)
        self.answers = 0

    def question(self) -> str:
        text = self.out.getvalue()
        return text[text.rfind("Your decision") :]

    def readline(self) -> str:
        self.answers += 1
        if self.every and self.answers % self.every == 0:
            return self.BAD[(self.answers // self.every) % len(self.BAD)] + "\n"
        question = self.question()
        bids = re.search(r"Bid a number of denarii: from (\d+) to (\d+)", question)
        if bids:
            return f"{self.rng.randint(int(bids[1]), int(bids[2]))}\n"
        choices = re.findall(r"^ +(\d+)\. (.*)$", question, re.M)
        assert choices, f"no numbered choices in the question:\n{question}"
        liked = [n for n, text in choices if any(word in text for word in self.prefer)]
        if liked and self.rng.random() < 0.7:
            return f"{self.rng.choice(liked)}\n"
        number: str = self.rng.choice(choices)[0]
        return f"{number}\n"


def play_game(players: int, seed: int, seat: int = 0, every: int = 0) -> str:
    out = io.StringIO()
    config = GameConfig(players=players, expansion=True)
    session = HumanGame(config, ["random"] * (players - 1), seat=seat, seed=seed, output=out)
    session.input = Person(out, seed, every)
    assert session.play() == 0
    return out.getvalue()


def asked(text: str) -> set[DecisionKind]:
    """The expansion decision kinds the person was asked in a transcript."""
    return {kind for kind, rule in EXPANSION_KINDS.items() if f": {rule.prompt}\n" in text}


def test_whole_expansion_games_ask_every_expansion_decision_in_words() -> None:
    """Scripted whole games (with invalid input mixed in) until the person met every expansion decision kind."""
    met: set[DecisionKind] = set()
    transcripts: list[str] = []
    for seed in range(30):
        text = play_game(3, seed, seat=seed % 3, every=7)
        assert "Game over" in text and "Final result:" in text, f"seed {seed}: the game did not end"
        assert "Traceback" not in text and not RAW_ACTION.search(text), f"seed {seed}: a raw action was shown"
        assert "with the expansion" in text  # the set-up log line of an expansion game
        transcripts.append(text)
        met |= asked(text)
        if met == set(EXPANSION_KINDS) and seed >= 2:
            break
    assert met == set(EXPANSION_KINDS), f"never asked: {sorted(k.name for k in set(EXPANSION_KINDS) - met)}"
    text = "\n".join(transcripts)
    # invalid input got its message and the question again, as in the base game
    assert "'abc' is not a choice or a command" in text and "There is no choice 999" in text
    assert "Commands:" in text and "Your hand: " in text
    # R33: the Refugium's option names and its staged slaves
    labels = option_labels(GameConfig(expansion=True).components, DecisionKind.REFUGIUM_OPTION, -1)
    assert labels is not None and any(f". {label}" in text for label in labels)
    assert re.search(r"\d\. add to the patron set: (Nubian|Germanian|Greek) slave \d", text)
    assert re.search(r"\d\. add to your pairs: (Germanian|Greek) slave \d", text)
    assert re.search(r"Chosen so far: (Nubian|Germanian|Greek) slave \d", text)
    assert DECISIONS[DecisionKind.REFUGIUM_PAIRS].decline_words in text
    # R34: emperor tiles by their id and requirements
    assert re.search(r"\d\. claim the favor of the emperor tile #\d+ \(", text)
    assert DECISIONS[DecisionKind.BASILICA_CLAIM].decline_words in text
    # R36-R40: every official by name, with its holder and its effect
    for name in ("Princeps", "Matrona", "Augur", "Quaestor", "Tribunus Plebis"):
        assert re.search(rf"\d\. choose the {name} \((on the Capitoleum|yours|held by P\d); ", text), name
    assert "next round you place 2 followers per turn" in text  # Princeps, R37
    assert "you draw 3 cards and discard 1 of them" in text  # Augur, R39
    # R38, R39: the Tribunus Plebis names factions, the Augur's drawn cards are discarded by name
    assert re.search(r"Tribunus Plebis: .*\n(.*\n)*? +\d\. choose [A-Z]", text)
    assert re.search(r"Augur: .*\n +1\. discard [A-Z]", text)
    # slave and assassin cards are named like any card in hands and lists (R30)
    assert re.search(r"Your hand: .*(slave|Assassin)", text)


def test_the_official_notes_follow_the_holders_and_the_quaestor_payment() -> None:
    """R36: who holds each official is read from the person's view; R40: the Quaestor's payment is the printed
    amount for the number of opponents."""
    config = GameConfig(players=4, expansion=True)
    session = HumanGame(config, ["random"] * 3, seat=1, seed=5, output=io.StringIO())
    state = session.game.state
    state.officials[Official.AUGUR] = 1
    state.officials[Official.QUAESTOR] = 3
    spec = config.components.expansion
    assert spec is not None
    pending = session.game.pending
    assert pending is not None
    words = {o: session._words(pending, ChooseOfficial(int(o))) for o in Official}
    assert words[Official.AUGUR].startswith("choose the Augur (yours; ")
    assert words[Official.QUAESTOR].startswith("choose the Quaestor (held by P3; ")
    assert words[Official.PRINCEPS].startswith("choose the Princeps (on the Capitoleum; ")
    pays = spec.official(Official.QUAESTOR).payment[3]
    assert f"every opponent pays you {pays} " in words[Official.QUAESTOR]
    session.close()


def _assassin_position(limit: int = 600) -> tuple[Game, int]:
    """A random expansion game at a take-over where the attacker may stage an assassin (R31), and its seat."""
    for seed in range(limit):
        game = Game.new(GameConfig(players=4, expansion=True), seed=seed)
        rng = random.Random(seed)
        while (pending := game.pending) is not None:
            legal = game.legal_actions()
            assassin = PickCard(game.state.tables.assassin_card)
            if pending.kind == DecisionKind.TAKEOVER_SET and assassin in legal:
                return game, pending.seat
            game.apply(rng.choice(legal))
    raise AssertionError(f"no assassin take-over in {limit} random games")


def test_an_assassin_in_a_take_over_is_explained_and_shown_staged() -> None:
    """R31: the assassin choice says what it removes; once staged it is listed among the chosen cards."""
    game, seat = _assassin_position()
    out = io.StringIO()
    session = HumanGame(game.config, ["random"] * 3, seat=seat, seed=1, output=out)
    session.game = game
    person = Person(out, 1, prefer=("Assassin",))
    person.rng.random = lambda: 0.0  # type: ignore[method-assign]  # always take the assassin while offered
    session.input = person
    assert session.play() == 0
    text = out.getvalue()
    protected = game.config.components.expansion.assassins.protected  # type: ignore[union-attr]
    assert (
        f"add to your set: Assassin (removes the highest card of the set to beat, never one of its {protected}" in text
    )
    assert "You: add to your set: Assassin" in text
    assert re.search(r"Chosen so far: .*Assassin", text)
    assert "Game over" in text and not RAW_ACTION.search(text)


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments of ``tribune ARGV`` for the play command alone (as tribune_cli.main wires it)."""
    parser = argparse.ArgumentParser(prog="tribune")
    play.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    return play.run(parse(argv))


class Always:
    """Input that answers ``1`` (or the lowest bid) to everything."""

    def __init__(self, out: io.StringIO | None = None) -> None:
        self.out = out

    def readline(self) -> str:
        bid = self.out is not None and "Bid a number of denarii: from 0" in self.out.getvalue()[-300:]
        return "0\n" if bid else "1\n"


def test_cli_play_expansion() -> None:
    out = io.StringIO()
    args = ["play", "random", "--expansion", "--players", "3", "--round-limit", "2", "--seed", "4"]
    assert play.run(parse(args), input_stream=Always(out), output=out) == 0
    text = out.getvalue()
    assert "with the expansion" in text and "refugium" in text and "capitoleum" in text
    assert "officials: " in text and "Final result:" in text
    # the same game without --expansion has no expansion board
    out = io.StringIO()
    assert play.run(parse(args[:2] + args[3:]), input_stream=Always(out), output=out) == 0
    assert "refugium" not in out.getvalue() and "with the expansion" not in out.getvalue()


def test_cli_play_expansion_refuses_agents_that_do_not_play_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "random", "baseonly", "--expansion"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tribune: error: agent 'baseonly' does not play expansion games; agents that do: ")
    assert err.count("\n") == 1
    assert main(["play", "random", "--expansion", "--players", "6"]) == 2
    assert "players: 6 is not supported with the expansion" in capsys.readouterr().err


def test_expansion_victory_cards_need_the_expansion(capsys: pytest.CaptureFixture[str]) -> None:
    """R41: an expansion victory card is a card of expansion games only; the error says to add --expansion."""
    spec = GameConfig(expansion=True).components.expansion
    assert spec is not None
    card = spec.victory_cards[0]
    players = min(card.required)
    assert main(["play", "random", "--players", str(players), "--victory-card", card.id]) == 2
    err = capsys.readouterr().err
    assert f"unknown victory card {card.id!r}" in err and "is an expansion victory card: add --expansion" in err
    out = io.StringIO()
    args = ["play", "random", "--players", str(players), "--victory-card", card.id, "--expansion", "--round-limit", "1"]
    assert play.run(parse(args), input_stream=Always(out), output=out) == 0
    assert f"Victory card: {card.title} " in out.getvalue()  # the card in words (its id is no person's word)


def test_the_default_opponent_of_an_expansion_game_plays_it() -> None:
    """Without opponent specs the default agent fills the seats, or random while the default does not play the
    expansion; whichever it is, it plays it."""
    assert opponents_for([], GameConfig(players=3)) == [DEFAULT_OPPONENT] * 2
    chosen = opponents_for([], GameConfig(players=3, expansion=True))
    assert len(chosen) == 2 and len(set(chosen)) == 1
    agent = make_agent(chosen[0], 0)
    assert agent.plays_expansion
    assert chosen[0] in (DEFAULT_OPPONENT, play.EXPANSION_FALLBACK)
    agent.close()
