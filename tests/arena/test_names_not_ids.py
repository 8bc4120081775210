"""Issue 38: what ``tribune log`` and ``tribune replay`` print for a person names things as printed, never by an
internal id of the component data (``card_d``, ``faction:gladiators:1``, ``field_of_mars``, ``vestals:6``,
``[card_placement]``), and the options are words, not a Python dict. The documents keep their ids."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from game_records import play_record, replay_cli

from tribune_arena.replay.html import replay_words
from tribune_arena.replay.text import Stepper, replay_game
from tribune_arena.tournament.store import ResultStore
from tribune_cli.core import main as engine_main
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Phase
from tribune_env.engine.names import component_ids, config_text, decision_name, phase_name

GAMES: dict[str, dict[str, Any]] = {
    "base": {"players": 3, "victory_card": "card_d"},
    "expansion": {"players": 4, "expansion": True},
    "brutii": {"players": 5, "expansion": True, "brutii": True, "brutii_seat": 2},
    "brutii-short": {"players": 6, "expansion": True, "brutii": True, "round_limit": 3},
}
"""One game of each rule set (full length: every phase, take-overs, the expansion board, the Brutii's cards)."""
LOG_FLAGS = {
    "base": ["--players", "3", "--victory-card", "card_d"],
    "expansion": ["--players", "4", "--expansion"],
    "brutii": ["--players", "5", "--brutii", "--brutii-seat", "2"],
    "brutii-short": ["--players", "6", "--brutii", "--round-limit", "3"],
}
REPLAYS = [pytest.param(rules, marks=pytest.mark.slow) if rules == "brutii" else rules for rules in GAMES]
"""The full Brutii game replays in about 5 s on the 2-core machine: slow; its quick variant stops at round 3."""


def ids_in(text: str, config: GameConfig) -> list[str]:
    """The internal ids of ``config``'s component data that ``text`` holds as words of their own (case matters: the
    region key ``thermae`` is an id, the name ``Thermae`` is not), and any dict or phase-key tag."""
    ids = component_ids(config)
    alternatives = "|".join(re.escape(key) for key in sorted(ids, key=len, reverse=True))
    found = re.findall(rf"(?<![\w:])(?:{alternatives})(?![\w:])", text)
    found += re.findall(r"\{'\w+': ", text)  # a Python dict, as the config used to be printed
    return sorted(set(found))


def test_the_scan_finds_the_ids_of_the_engine_text() -> None:
    """The scanner itself: the engine's own log and board are full of ids (so a clean scan means something)."""
    config = GameConfig(**GAMES["brutii"])
    game = replay_game(play_record(config=GAMES["brutii"], seed=3))
    raw = "\n".join(game.log()) + "\n" + game.render()
    found = ids_in(raw, config)
    assert {"field_of_mars", "sic_transit", "quid_est_veritas"} & set(found) and "field_of_mars" in found
    assert any(":" in key for key in found)  # card and space labels
    assert ids_in("config {'players': 3}", config) == ["{'players': "]
    assert ids_in("[card_placement] P0 places a follower on faction:gladiators:1", config) == [
        "card_placement",
        "faction:gladiators:1",
    ]


@pytest.mark.parametrize("rules", list(GAMES))
def test_log_text_names_no_id(rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = GameConfig(**GAMES[rules])
    for seat in (None, 1):
        flags = LOG_FLAGS[rules] + ["--seed", "5"] + ([] if seat is None else ["--seat", str(seat)])
        assert engine_main(["log", *flags]) == 0
        out = capsys.readouterr().out
        assert "--- round 2 ---" in out and "decisions; scores: P0 " in out
        assert ids_in(out, config) == [], (rules, seat)
    assert "[card placement] round 1 begins" in out and config_text(config).split(",")[0] in out


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A results file per rule set, holding one full game between random agents."""
    paths = {}
    for rules, options in GAMES.items():
        path = tmp_path_factory.mktemp(rules) / "results.sqlite"
        with ResultStore(path, {"test": rules}) as store:
            store.add(play_record(game_id=1, seed=9, config=dict(options)))
        paths[rules] = path
    return paths


@pytest.mark.parametrize("rules", REPLAYS)
def test_replay_text_names_no_id(rules: str, results: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    config = GameConfig(**GAMES[rules])
    path = str(results[rules])
    runs = [
        ([path, "--game", "1", "--board"], ""),
        ([path, "--game", "1", "--step"], "\n" * 40 + "b\n100000\n"),  # each decision named, the board, the end
        ([path, "--game", "1", "--step", "--seat", "1"], "\n" * 40 + "q\n"),
        ([path, "--list"], ""),
    ]
    for argv, stdin in runs:
        assert replay_cli(argv, stdin) == 0
        out = capsys.readouterr().out
        assert ids_in(out, config) == [], (rules, argv)
    assert config_text(config) in stepper_header(results[rules])


def stepper_header(path: Path) -> str:
    with ResultStore(path) as store:
        record = store.record(1)
    out = io.StringIO()
    Stepper(record, out).print_all()
    return out.getvalue().split("\n--- set-up ---")[0]


@pytest.mark.parametrize("rules", ["base", "brutii"])
def test_replay_page_log_names_no_id(rules: str) -> None:
    """The HTML replay's log lines and decision texts are in words ("victory card Pecunia non olet ...", not
    "victory card pecunia"); the kinds and phases it shows come as words beside their keys."""
    options = dict(GAMES[rules], victory_card="pecunia") if rules == "base" else GAMES[rules]
    config = GameConfig(**options)
    record = play_record(seed=4, config=dict(options))
    doc = replay_words(record)
    shown = "\n".join(str(e[4]) + " " + str(e[2]) for e in doc.events)
    shown += "\n".join(f"{s['text']} {s['kind_words']} {s['phase_words']}" for s in doc.steps)
    assert ids_in(shown, config) == []
    if rules == "base":
        assert "victory card Pecunia non olet (medium game)" in shown
    assert {s["kind"] for s in doc.steps[1:]} <= {k.key for k in DecisionKind}  # the keys stay for the page's logic


def test_names_of_phases_and_decisions() -> None:
    assert phase_name(Phase.CARD_PLACEMENT) == "card placement" and phase_name(Phase.TAKEOVERS) == "take-overs"
    assert decision_name("field_of_mars_pair") == "Field of Mars pair"
    assert decision_name(DecisionKind.SETUP_DISCARD) == "set-up discard"
    with pytest.raises(ValueError, match="no decision"):
        decision_name("bogus")
    assert config_text(GameConfig(players=3, victory_card="pecunia")) == (
        "3 players, base game, victory card Pecunia non olet (medium game), round limit 60"
    )
