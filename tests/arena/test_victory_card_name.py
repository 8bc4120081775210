"""Issue 42, rough edge 4: a victory card has one name, made once (:func:`tribune_env.engine.names.victory_card_title`)
and printed the same by ``tribune log``, ``tribune replay`` (text and page), terminal play and the web table. A card
whose printed title is not known is named by what sets it apart (its obligatory objective, the player counts it is
for, the game's length), never as "unknown" nor by its id. (The web page's own rendering of the name is checked in
Chromium by tests/web/test_web_layout.py.)"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from game_records import play_record, replay_cli

from tribune_arena.human.terminal import HumanGame
from tribune_arena.human.web import views
from tribune_arena.human.web.options import game_options
from tribune_arena.replay.html import replay_document, replay_html
from tribune_arena.tournament.store import ResultStore
from tribune_cli.core import main as engine_main
from tribune_env.data import default_components
from tribune_env.engine.config import GameConfig, victory_cards_of
from tribune_env.engine.game import Game
from tribune_env.engine.names import victory_card_name, victory_card_title

CARDS: dict[str, dict[str, Any]] = {
    "card_c": {"players": 3},  # no printed title known; the tribune is obligatory
    "card_e": {"players": 5},  # no printed title known; a 5-player card
    "alea_long": {"players": 4},  # a printed title with its side
    "quid_est_veritas": {"players": 3, "expansion": True},
}
"""One card of each kind of name, with a game it is played in."""

EXPECTED = {
    "card_c": "Tribune obligatory (medium game)",
    "card_e": "5-player card (medium game)",
    "alea_long": "Alea Iacta Est (red) (long game)",
    "quid_est_veritas": "Quid est veritas? (long game)",
}


def _config(card: str) -> dict[str, Any]:
    return {**CARDS[card], "victory_card": card, "round_limit": 1}


def _flags(card: str) -> list[str]:
    options = CARDS[card]
    flags = ["--players", str(options["players"]), "--victory-card", card, "--round-limit", "1", "--seed", "3"]
    return flags + (["--expansion"] if options.get("expansion") else [])


class _Quit:
    """Terminal input that leaves at the first question."""

    def readline(self) -> str:
        return "quit\n"


def test_every_card_has_one_distinct_name_without_unknown_or_id() -> None:
    cards = victory_cards_of(default_components(), True)
    names = {card.id: victory_card_title(card) for card in cards}
    assert len(set(names.values())) == len(names), names
    for card_id, name in names.items():
        assert "unknown" not in name.lower() and "(title" not in name, name
        assert card_id not in name and name.endswith(" game)"), name
        assert victory_card_name(default_components(), card_id) == name
    assert {card: names[card] for card in EXPECTED} == EXPECTED


@pytest.mark.parametrize("card", list(CARDS))
def test_log_replay_terminal_and_web_print_the_same_name(
    card: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = EXPECTED[card]
    config = GameConfig(**_config(card))
    # tribune log: the options line, the set-up event and the final board
    assert engine_main(["log", *_flags(card)]) == 0
    log = capsys.readouterr().out
    assert log.count(f"victory card {name}") == 2 and f"victory card: {name}" in log, log[:400]
    # tribune replay (text), and its page (the log lines and the drawn board)
    record = play_record(game_id=1, seed=5, config=_config(card))
    path = tmp_path / "results.sqlite"
    with ResultStore(path, {"test": card}) as store:
        store.add(record)
    assert replay_cli([str(path), "--game", "1", "--board"]) == 0
    replayed = capsys.readouterr().out
    assert f"victory card {name}" in replayed and f"victory card: {name}" in replayed, replayed[:400]
    page = replay_html(record)
    assert f"victory card {name}" in page  # the log lines the page shows
    board = replay_document(record).svg(0, 0)  # the drawn board of its first step
    assert f"Victory card: {name}<" in board.replace("&#x27;", "'"), board[:200]
    # terminal play: the first screen names the card once, before its objectives
    out = io.StringIO()
    session = HumanGame(config, ["random"] * (config.players - 1), 0, 3, _Quit(), out, width=120)
    assert session.play() == 0
    assert out.getvalue().count(f"Victory card: {name}. Meet ") == 1
    # the web table: the card panel of a game's state and the new-game form's list (the page shows the title alone)
    assert views.victory(Game.new(config, seed=3))["title"] == name
    rules = "expansion" if config.expansion else "base"
    assert {c["id"]: c["title"] for c in game_options()["rules"][rules]["victory_cards"]}[card] == name
    for text in (log, replayed, page, board, out.getvalue()):
        assert "unknown" not in text.lower()
