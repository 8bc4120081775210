"""``tribune play``: a person plays whole games through scripted input, in the base game, the expansion (issue 14)
and the Brutii variant (R42-R54); invalid input gets a helpful message, never a crash.

Every decision is asked in words: each expansion decision kind (Refugium option, patron and pairs R33; Basilica R34;
Capitoleum R36; Tribunus Plebis R38; Augur R39) with what the person needs besides the engine's label (the cards
chosen so far while slaves or a set are assembled, what each official does and who holds it, R36-R40, what an
assassin does in a take-over, R31), and every decision only the Brutii faces, each action card with its effect
(R46-R54). No choice is ever shown as a raw action. ``tribune replay`` names the Brutii rule set.
"""

from __future__ import annotations

import argparse
import io
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from game_records import replay_cli
from test_explain import internal_ids, leaks

from agents.base import Agent
from agents.random_agent import RandomAgent
from agents.specs import make_agent, no_more, register_agent
from tribune_arena.human.terminal import DEFAULT_OPPONENT, HumanGame
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_cli import play
from tribune_cli.play import opponents_for
from tribune_env.data import BrutiiCard, Official, default_components
from tribune_env.engine.actions import ChooseOfficial, PickCard
from tribune_env.engine.brutii import card_effect
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS, DecisionKind
from tribune_env.engine.game import Game
from tribune_env.engine.registry import DECISIONS, option_labels

NARROW = 72
"""The terminal width of the whole scripted games: every line printed must fit it."""


@pytest.fixture(autouse=True)
def _terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same terminal width wherever the tests run (``tribune play`` fits its lines to it)."""
    monkeypatch.setenv("COLUMNS", "100")


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments of ``tribune ARGV`` for the play command alone (as tribune_cli.main wires it)."""
    parser = argparse.ArgumentParser(prog="tribune")
    play.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    return play.run(parse(argv))


# -- the base game ------------------------------------------------------------------------------------------------


class Script:
    """An input stream: the given lines, then ``then`` forever (or end of input when ``then`` is None)."""

    def __init__(self, lines: Iterable[str], then: str | None = "1") -> None:
        self._lines: Iterator[str] = iter(lines)
        self._then = then
        self.asked = 0

    def readline(self) -> str:
        self.asked += 1
        line = next(self._lines, self._then)
        return "" if line is None else line + "\n"


def session(lines: Iterable[str], then: str | None = "1", seat: int = 1, seed: int = 3) -> tuple[int, str, Script]:
    out = io.StringIO()
    script = Script(lines, then)
    config = GameConfig(players=3, round_limit=2)
    status = HumanGame(config, ["random", "random"], seat=seat, seed=seed, input_stream=script, output=out).play()
    return status, out.getvalue(), script


def test_scripted_game_with_invalid_input_completes() -> None:
    status, text, script = session(["", "abc", "0", "999", "help", "hand", "board", "log", "choices"])
    assert status == 0
    assert "Please type a number (1 to" in text
    assert "'abc' is not a choice or a command" in text
    assert "There is no choice 0; choose from 1 to" in text
    assert "There is no choice 999" in text
    assert "Commands:" in text and "Your hand: " in text
    assert "Your decision, P1" in text and "Set-up: discard a card" in text and "Discard:\n   1. " in text
    assert "You: discard " in text and "You: place a follower on " in text
    assert "Game over" in text and "Final result:" in text and "rank 1: P" in text
    assert "Traceback" not in text
    assert script.asked > 10


class Bidder:
    """Answers by looking at the question: at a bid first an impossible amount, then 1 (or 0); elsewhere 1."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.bids = 0

    def readline(self) -> str:
        text = self.out.getvalue()
        question = text[text.rfind("Your decision") :]
        if "Bid a number of denarii" not in question:
            return "1\n"
        self.bids += 1
        if "cannot bid" not in question:
            return "100000\n"
        return "1\n" if "to 0." not in question else "0\n"


def test_bids_take_an_amount() -> None:
    out = io.StringIO()
    bidder = Bidder(out)
    config = GameConfig(players=3, round_limit=2)
    assert HumanGame(config, ["random", "random"], seat=0, seed=2, input_stream=bidder, output=out).play() == 0
    text = out.getvalue()
    assert bidder.bids >= 2
    assert "Bid a number of denarii: from 0 to" in text
    assert "You cannot bid 100000 now; bids: from 0 to" in text
    assert "You: bid 1" in text or "You: bid 0" in text
    assert "Final result:" in text


def test_end_of_input_and_quit_leave_cleanly() -> None:
    status, text, _ = session(["1", "1", "abc"], then=None)
    assert status == 0 and "\nEnd of input: you left the game in round " in text and "Traceback" not in text
    status, text, _ = session(["1", "quit"], then=None)
    assert status == 0 and text.endswith("\nYou left the game in round 0. Goodbye.\n")  # issue 38: no echo
    assert "Leaving the game" not in text and "(you left the game)" not in text


def test_private_lines_of_others_are_not_shown() -> None:
    status, text, _ = session(["1", "recent", "log"], then="1", seat=0)  # the log lines are shown on request
    assert status == 0
    # set-up discards of the others are private ("P1 discarded <card>"); the person sees only "face down"
    assert "P1 discarded" not in text and "P2 discarded" not in text
    assert "P0 discarded" in text


def test_opponent_defaults_and_errors() -> None:
    assert opponents_for(["random"], GameConfig(players=4)) == ["random"] * 3
    assert opponents_for(["random", "greedy"], GameConfig(players=3)) == ["random", "greedy"]
    assert opponents_for([], GameConfig()) == ["heuristic"] * 3
    assert opponents_for([], GameConfig(players=2)) == ["heuristic"]
    with pytest.raises(ValueError, match="needs 3 opponents"):
        opponents_for(["a", "b"], GameConfig(players=4))
    with pytest.raises(ValueError, match="--seat"):
        HumanGame(GameConfig(players=3), ["random", "random"], seat=3)


def test_cli_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", Script(["x", "5000"], then="1"))
    assert main(["play", "random", "random", "--seat", "2", "--round-limit", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Final result:" in out and "P2 you" in out
    monkeypatch.setattr("sys.stdin", Script([], then=None))  # default opponents; end of input at once
    assert main(["play", "--players", "2", "--round-limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "P1 heuristic" in out and "End of input: you left the game in round " in out
    assert main(["play", "nosuchagent", "--players", "3"]) == 2
    assert "tribune: error: unknown agent 'nosuchagent'" in capsys.readouterr().err
    assert main(["play", "random", "--players", "9"]) == 2
    assert "tribune: error: --players: 9 is not supported" in capsys.readouterr().err


def test_a_bot_that_raises_or_plays_illegally_takes_its_first_legal_choice() -> None:
    """``bot_move``, shared by the terminal and the browser: an agent's bug never ends the person's game."""
    from tribune_arena.human.bot import bot_move
    from tribune_env import Game, GameConfig

    class Raising:
        def act(self, view: object, legal: object, info: object) -> object:
            raise RuntimeError("boom")

    class Illegal:
        def act(self, view: object, legal: object, info: object) -> object:
            return "not an action"

    class Last:
        def act(self, view: object, legal: list[object], info: object) -> object:
            return legal[-1]

    game = Game.new(GameConfig(players=3), seed=4)
    legal = game.legal_actions()
    seat = game.current_seat
    assert bot_move(Raising(), game, seat) == (legal[0], "failed (RuntimeError: boom)")  # type: ignore[arg-type]
    action, problem = bot_move(Illegal(), game, seat)  # type: ignore[arg-type]
    assert action == legal[0] and problem == "chose an illegal action 'not an action'"
    assert bot_move(Last(), game, seat) == (legal[-1], None)  # type: ignore[arg-type]


# -- the expansion (issue 14) -------------------------------------------------------------------------------


EXPANSION_KINDS = {kind: rule for kind, rule in DECISIONS.items() if rule.expansion and not kind.brutii}
"""The expansion's decision kinds that a family meets (the Brutii's own kinds need the Brutii variant, R42-R54)."""
RAW_ACTION = re.compile(
    r"\b(ChooseTile|ChooseOfficial|ChooseOption|ChooseFaction|PickCard|Commit|Decline|Assassinate)\("
)
#: choices a curious player tends to take: they lead into the expansion's decisions
CURIOUS = ("Refugium", "Basilica", "Capitoleum", "patron", "pairs", "claim the favor", "choose the ", "Assassin")


class BaseOnly(RandomAgent):
    """A random player that does not play the expansion (as every agent not yet taught it)."""

    name = "baseonly"
    rule_sets = frozenset({RuleSet.BASE})


def _base_only(params: dict[str, str], seed: int | None) -> Agent:
    no_more("baseonly", params)
    return BaseOnly(seed)


register_agent("baseonly", _base_only)


class Transcribed(HumanGame):
    """A game that also keeps what it says before the lines are fitted to the width (``transcript``): the scripted
    person reads its questions there, and the tests their words."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.transcript = io.StringIO()

    def say(self, text: str = "") -> None:
        self.transcript.write(text + "\n")
        super().say(text)


WRONG_PLURAL = re.compile(r"\(s\)|(?<![\w.])[+-]?1 (laurels|legions|cards|denarii|followers|tiles|markers|pairs)\b")


def check_layout(screen: str, width: int, config: GameConfig) -> None:
    """What the person read: every line within ``width`` (the answers typed after ``> `` aside), no internal id
    (:func:`test_explain.internal_ids`), no ``(s)`` plural and no ``1 laurels``."""
    ids = internal_ids(config)
    for line in screen.splitlines():
        shown = re.sub(r"^(> )+", "", line)
        assert len(shown) <= width, f"{len(shown)} columns: {shown!r}"
        assert not leaks(shown, ids), f"{leaks(shown, ids)} in {shown!r}"
        assert not WRONG_PLURAL.search(shown), shown


_ITEM = re.compile(r"(?<!\S)(\d+)\. (.*?)(?=\s{2,}\d+\. |$)")


def listed_choices(question: str) -> list[tuple[str, str]]:
    """The numbered choices of a question as (number, words): several may share a line, under the heading of their
    group (``Place a follower on:``, ``Discard:``) and after the group's name (``Forum``, ``Faction fields``),
    which are part of their words here."""
    found: list[tuple[str, str]] = []
    heading = group = ""
    for line in question.splitlines():
        first = re.search(r"(?<!\S)\d+\. ", line)
        if first is None:
            if line.endswith(":") and not line.startswith(" "):
                heading = line
            continue
        if line[: first.start()].strip():
            group = line[: first.start()].strip()
        found += [(n, f"{heading} {group} {words}") for n, words in _ITEM.findall(line[first.start() :])]
    return found


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
        choices = listed_choices(question)
        assert choices, f"no numbered choices in the question:\n{question}"
        liked = [n for n, text in choices if any(word in text for word in self.prefer)]
        if liked and self.rng.random() < 0.7:
            return f"{self.rng.choice(liked)}\n"
        number: str = self.rng.choice(choices)[0]
        return f"{number}\n"


def play_expansion(players: int, seed: int, seat: int = 0, every: int = 0) -> str:
    out = io.StringIO()
    config = GameConfig(players=players, expansion=True)
    session = Transcribed(config, ["random"] * (players - 1), seat=seat, seed=seed, output=out, width=NARROW)
    session.input = Person(session.transcript, seed, every)
    assert session.play() == 0
    check_layout(out.getvalue(), NARROW, config)
    return session.transcript.getvalue()


def asked(text: str) -> set[DecisionKind]:
    """The expansion decision kinds the person was asked in a transcript."""
    return {kind for kind, rule in EXPANSION_KINDS.items() if f": {rule.prompt}\n" in text}


@pytest.mark.slow
def test_whole_expansion_games_ask_every_expansion_decision_in_words() -> None:
    """Scripted whole games (with invalid input mixed in) until the person met every expansion decision kind."""
    met: set[DecisionKind] = set()
    transcripts: list[str] = []
    for seed in range(30):
        text = play_expansion(3, seed, seat=seed % 3, every=7)
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
    assert re.search(r"Add to the patron set:\n +\d+\. (Nubian|Germanian|Greek) slave \d", text)
    assert re.search(r"Add to your pairs:\n +\d+\. (Germanian|Greek) slave \d", text)
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
    assert re.search(r"Augur: .*\nDiscard:\n +1\. [A-Z]", text)
    # slave and assassin cards are named like any card in hands and lists (R30)
    assert re.search(r"Your hand: .*(slave|Assassin)", text)


def test_the_official_notes_follow_the_holders_and_the_quaestor_payment() -> None:
    """R36: who holds each official is read from the person's view; R40: the Quaestor's payment is the printed
    amount for the number of opponents."""
    config = GameConfig(players=4, expansion=True)
    session = HumanGame(config, ["random"] * 3, seat=1, seed=5, output=io.StringIO())
    state = session.game.python_state()
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
            assassin = PickCard(game.tables.assassin_card)
            if pending.kind == DecisionKind.TAKEOVER_SET and assassin in legal:
                return game, pending.seat
            game.apply(rng.choice(legal))
    raise AssertionError(f"no assassin take-over in {limit} random games")


def test_an_assassin_in_a_take_over_is_explained_and_shown_staged() -> None:
    """R31: the assassin choice says what it removes; once staged it is listed among the chosen cards."""
    game, seat = _assassin_position()
    out = io.StringIO()
    session = Transcribed(game.config, ["random"] * 3, seat=seat, seed=1, output=out, width=NARROW)
    session.game = game
    person = Person(session.transcript, 1, prefer=("Assassin",))
    person.rng.random = lambda: 0.0  # type: ignore[method-assign]  # always take the assassin while offered
    session.input = person
    assert session.play() == 0
    check_layout(out.getvalue(), NARROW, game.config)
    text = session.transcript.getvalue()
    protected = game.config.components.expansion.assassins.protected  # type: ignore[union-attr]
    assert f"Assassin (removes the highest card of the set to beat, never one of its {protected}" in text
    assert "You: add to your set: Assassin" in text
    assert re.search(r"Chosen so far: .*Assassin", text)
    assert "Game over" in text and not RAW_ACTION.search(text)


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
    assert "with the expansion" in text and "  Refugium  " in text and "  Capitoleum  " in text  # the final board
    assert "officials: " in text and "Final result:" in text
    # the same game without --expansion has no expansion board
    out = io.StringIO()
    assert play.run(parse(args[:2] + args[3:]), input_stream=Always(out), output=out) == 0
    assert "Refugium" not in out.getvalue() and "with the expansion" not in out.getvalue()


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


# -- the Brutii (R42-R54) -----------------------------------------------------------------------------------


#: choices that lead into the Brutii's own decisions
BRUTII_CURIOUS = ("veto", "slave cards", "buy a legion", "cards", "faction takeover", "option", "opt out")


class BrutiiPerson(Person):
    """The scripted person, who also opts out of the chariot auction now and then when he may (R49)."""

    def readline(self) -> str:
        if "or 'out' to opt out" in self.question() and self.rng.random() < 0.5:
            self.answers += 1
            return "out\n"
        return super().readline()


def play_brutii(players: int, seed: int, seat: int, brutii_seat: int, every: int = 0) -> str:
    out = io.StringIO()
    config = GameConfig(players=players, expansion=True, brutii=True, brutii_seat=brutii_seat)
    session = Transcribed(config, ["random"] * (players - 1), seat=seat, seed=seed, output=out, width=NARROW)
    session.input = BrutiiPerson(session.transcript, seed, every, prefer=BRUTII_CURIOUS)
    assert session.play() == 0
    check_layout(out.getvalue(), NARROW, config)
    return session.transcript.getvalue()


def test_a_person_plays_the_brutii_through_every_decision_of_his_own() -> None:
    """R44-R54: whole games as the Brutii (invalid input mixed in) until every Brutii kind was asked in words."""
    kinds = {kind: DECISIONS[kind] for kind in BRUTII_DECISION_KINDS}
    met: set[str] = set()
    text = ""
    for seed in range(12):
        players = 5 + seed % 2
        transcript = play_brutii(players, seed, seat=seed % players, brutii_seat=seed % players, every=9)
        assert "Game over" in transcript and "Final result:" in transcript, f"seed {seed}: the game did not end"
        assert "Traceback" not in transcript and not RAW_ACTION.search(transcript), f"seed {seed}: a raw action"
        assert f"P{seed % players} is the Brutii" in transcript
        text += transcript
        met |= {kind.name for kind, rule in kinds.items() if f": {rule.prompt}\n" in transcript}
        if len(met) == len(kinds):
            break
    assert met == {kind.name for kind in kinds}, f"never asked: {sorted({k.name for k in kinds} - met)}"
    spec = default_components().expansion
    assert spec is not None and spec.brutii is not None
    for card in BrutiiCard:  # every card is offered with its effect, numbers from the component file
        assert f"({card_effect(card, spec.brutii)})" in text, card
    assert "or 'out' to opt out of the chariot auction (sealed, R49)" in text  # R49
    assert "You: opt out of the chariot auction (sealed" in text


def test_a_person_beside_the_brutii_plays_a_family() -> None:
    text = play_brutii(6, 3, seat=2, brutii_seat=5)
    assert "P5 is the Brutii" in text and "Game over" in text and not RAW_ACTION.search(text)


def _args(**extra: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "opponents": ["random"],
        "players": 5,
        "seat": 0,
        "seed": 0,
        "victory_card": None,
        "point_variant": False,
        "round_limit": 60,
        "expansion": True,
        "brutii": True,
        "brutii_seat": None,
    }
    base.update(extra)
    return argparse.Namespace(**base)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"expansion": False, "players": 7}, "--players: 7 is not supported with the Brutii"),
        ({"brutii": False, "brutii_seat": 1}, "--brutii-seat: set only with --brutii"),
        ({"players": 4}, "--players: 4 is not supported with the Brutii"),
        ({"brutii_seat": 7}, "--brutii-seat: must be in 0..4"),
    ],
)
def test_bad_brutii_play_options_get_one_line_errors(
    extra: dict[str, object], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play.run(_args(**extra), io.StringIO(""), io.StringIO()) == 2
    assert message in capsys.readouterr().err


def test_replay_names_the_brutii_rule_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``tribune replay`` lists and shows a Brutii tournament's games as games with the Brutii (R42)."""
    definition = TournamentDefinition.create(("random",) * 5, players=5, games=2, seed=3, round_limit=4, brutii=True)
    path = tmp_path / "brutii.sqlite"
    records = run_tournament(definition, path, workers=1, progress=False)
    assert replay_cli([str(path), "--list"]) == 0
    assert capsys.readouterr().out.startswith("2 stored game(s) of expansion games with the Brutii\n")
    assert replay_cli([str(path), "--game", str(records[0].game_id)]) == 0
    out = capsys.readouterr().out
    assert (
        "rounds; 5 players, with the expansion and the Brutii (the Brutii at seat P" in out and "is the Brutii" in out
    )
