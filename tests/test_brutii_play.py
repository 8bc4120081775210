"""``tribune play --expansion --brutii``: a person plays the Brutii (or a family beside him) through scripted input,
and ``tribune replay`` names the rule set (R42-R54).

Every decision only the Brutii faces is asked in words, each action card with its effect (R46-R54), and no choice
is shown as a raw action.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from test_expansion_play import RAW_ACTION, Person
from test_replay import cli as replay_cli

from tribune_arena.human.terminal import HumanGame
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_cli import play
from tribune_env.data import BrutiiCard, default_components
from tribune_env.engine.brutii import card_effect
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS
from tribune_env.engine.registry import DECISIONS

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
    session = HumanGame(config, ["random"] * (players - 1), seat=seat, seed=seed, output=out)
    session.input = BrutiiPerson(out, seed, every, prefer=BRUTII_CURIOUS)
    assert session.play() == 0
    return out.getvalue()


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
    assert "opts out of the chariot auction" in text or "opts out (sealed)" in text


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
    assert "rounds, expansion game with the Brutii; config" in out and "is the Brutii" in out
