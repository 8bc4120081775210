"""The game's flags are declared once (``tribune_cli.game_flags``) and mean the same in every command (issue 24).

Every command that sets up a game (``simulate``, ``log``, ``board``, ``play``, ``tournament``) runs over the same
flag combinations and must play the same :class:`GameConfig`, or refuse with the same one-line message naming the
flag. The policy is GameConfig's: ``--brutii`` implies the expansion (R42), ``--players`` omitted is the rule set's
default (5 with the Brutii), ``--brutii-seat`` only with ``--brutii``.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tribune_arena.tournament.schedule import BRUTII_SEAT, TournamentDefinition, default_players
from tribune_arena.tournament.store import ResultStore
from tribune_cli import core, game_flags
from tribune_cli import main as cli_main
from tribune_env.data import ComponentError
from tribune_env.engine.config import DEFAULT_ROUND_LIMIT, GameConfig, RuleSet, config_from_dict
from tribune_env.engine.game import Game

COMMANDS = ("simulate", "log", "board", "play", "tournament")

COMBINATIONS: list[tuple[list[str], GameConfig | str]] = [
    ([], GameConfig()),
    (["--expansion"], GameConfig(expansion=True)),
    (["--brutii"], GameConfig(expansion=True, brutii=True)),
    (["--expansion", "--brutii"], GameConfig(players=5, expansion=True, brutii=True)),
    (["--brutii", "--brutii-seat", "2"], GameConfig(players=5, brutii=True, brutii_seat=2)),
    (["--brutii-seat", "1"], "--brutii-seat: set only with --brutii"),
    (["--players", "7"], "--players: 7 is not supported by the base game; choose 2, 3, 4 or 5"),
    (["--players", "4", "--brutii"], "--players: 4 is not supported with the Brutii; choose 5 or 6"),
    (["--victory-card", "nosuch"], "--victory-card: unknown victory card 'nosuch'; known: "),
    (["--round-limit", "0"], "--round-limit: must be >= 1, got 0"),
]


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[GameConfig]:
    """The config of every game this process starts (``Game.new``)."""
    seen: list[GameConfig] = []
    new = Game.__dict__["new"].__func__

    def spy(cls: type[Game], config: GameConfig | None = None, seed: int = 0, **options: Any) -> Game:
        game: Game = new(cls, config, seed, **options)
        seen.append(game.config)
        return game

    try:
        monkeypatch.setattr(Game, "new", classmethod(spy))
    except (TypeError, AttributeError):  # pragma: no cover - a compiled engine's class cannot be patched
        pytest.skip("the compiled Game cannot be spied on")
    return seen


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit status and stderr of ``tribune ARGV`` run in this process."""
    capsys.readouterr()
    code = cli_main.main(argv)
    return code, capsys.readouterr().err


def _command(
    command: str, flags: list[str], tmp_path: Path, specs: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], Callable[[], list[GameConfig]] | None]:
    """The argv of a tiny run of ``command`` with ``flags``, and how to read the configs it played when they are
    not played in this process (the tournament's worker)."""
    if command == "simulate":
        return ["simulate", "--games", "1", "--json", *flags], None
    if command == "log":
        return ["log", *flags], None
    if command == "board":
        return ["board", "--round", "1", "--out", str(tmp_path / "b.svg"), *flags], None
    if command == "play":
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        return ["play", *flags], None
    results = tmp_path / "t.sqlite"
    argv = ["tournament", *["random"] * specs, "--games", "1", "--workers", "1", "--no-progress", "--json"]

    def stored() -> list[GameConfig]:
        with ResultStore(results) as store:
            return [config_from_dict(record.config) for record in store.records()]

    return [*argv, "--results", str(results), *flags], stored


def _played_config(
    command: str,
    flags: list[str],
    tmp_path: Path,
    specs: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    played: list[GameConfig],
) -> GameConfig | str:
    """The one config ``command`` played with ``flags``, or its one-line error message."""
    played.clear()
    argv, stored = _command(command, flags, tmp_path / command, specs, monkeypatch)
    (tmp_path / command).mkdir(exist_ok=True)
    code, err = _run(argv, capsys)
    if code != 0:
        assert code == 2 and err.count("\n") == 1 and err.startswith("tribune: error: "), (command, err)
        assert not played and not (tmp_path / command / "t.sqlite").exists(), "a game was played before the error"
        return err.removeprefix("tribune: error: ").rstrip("\n")
    configs = stored() if stored is not None else played
    assert configs and all(config == configs[0] for config in configs), (command, configs)
    return configs[0]


@pytest.mark.parametrize(("flags", "expected"), COMBINATIONS, ids=[" ".join(f) or "no flags" for f, _ in COMBINATIONS])
def test_every_command_plays_the_same_game_of_the_same_flags(
    flags: list[str],
    expected: GameConfig | str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    played: list[GameConfig],
) -> None:
    """The same flags give the same game in every command, or the same error (which names the flag). The
    tournament plays as many seats as it has specs, here the game's; it seats the Brutii in seat
    :data:`BRUTII_SEAT` unless ``--brutii-seat`` says otherwise."""
    specs = expected.players if isinstance(expected, GameConfig) else 5
    outcomes = {
        command: _played_config(command, flags, tmp_path, specs, capsys, monkeypatch, played) for command in COMMANDS
    }
    if isinstance(expected, str):
        messages = set(outcomes.values())
        assert len(messages) == 1, outcomes
        assert next(iter(messages)).startswith(expected), outcomes
        return
    tournament = expected
    if expected.brutii and expected.brutii_seat is None:
        tournament = dataclasses.replace(expected, brutii_seat=BRUTII_SEAT)
    wanted = {command: tournament if command == "tournament" else expected for command in COMMANDS}
    assert outcomes == wanted


def test_the_brutii_alone_is_the_expansion_with_the_brutii_at_its_default_table() -> None:
    config = game_flags.config_from_args(argparse.Namespace(brutii=True))
    assert config == GameConfig(players=5, expansion=True, brutii=True) and config.rules is RuleSet.BRUTII


# -- the declaration ------------------------------------------------------------------------------------------------


def _sub_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every sub-command's parser, wired as ``tribune`` wires them."""
    parser = core.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for module in cli_main._modules().values():
        module.add_parser(commands)
    return dict(commands.choices)


def _game_group(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    group = next(g for g in parser._action_groups if g.title == "game")
    return {action.option_strings[0]: action for action in group._group_actions}


FLAG_NAMES = [
    "--players",
    "--expansion",
    "--brutii",
    "--brutii-seat",
    "--victory-card",
    "--point-variant",
    "--round-limit",
    "--components",
    "--seed",
]


def test_every_command_declares_the_same_flags_with_the_same_metavars_defaults_and_help() -> None:
    """One declaration: the same flags in the same order, unset by default (GameConfig supplies the defaults);
    the help is the same except where a command explains its own meaning (how ``play`` and ``tournament`` count
    players, where a tournament seats the Brutii, what the seed seeds). The tournament has ``--components`` too:
    its results file keeps the component file's text for its workers, resumes and replays."""
    parsers = _sub_parsers()
    groups = {command: _game_group(parsers[command]) for command in COMMANDS}
    for command, group in groups.items():
        assert list(group) == FLAG_NAMES, command
        for name, action in group.items():
            seed = None if command == "play" else game_flags.DEFAULT_SEED  # play draws a seed and prints it
            unset = seed if name == "--seed" else False if action.nargs == 0 else None
            assert action.default == unset, (command, name)
    own = {"--players", "--brutii-seat", "--seed"}
    reference = groups["simulate"]
    for command, group in groups.items():
        for name, action in group.items():
            ref = reference[name]
            assert (action.metavar, action.type, action.nargs) == (ref.metavar, ref.type, ref.nargs), (command, name)
            if name not in own:
                assert action.help == ref.help, (command, name)
    assert groups["simulate"]["--players"].help == groups["log"]["--players"].help == groups["board"]["--players"].help
    assert reference["--players"].help == "players per game: 2-5, 5-6 with the Brutii (default: 4; 5 with the Brutii)"
    assert f"(default: {DEFAULT_ROUND_LIMIT}; R25)" in str(reference["--round-limit"].help)
    assert [action.metavar for action in reference.values()] == [
        "N",
        None,
        None,
        "SEAT",
        "ID",
        None,
        "N",
        "PATH",
        "SEED",
    ]


# -- reading the flags ----------------------------------------------------------------------------------------------


def _args(**flags: object) -> argparse.Namespace:
    return argparse.Namespace(**flags)


def test_unset_flags_are_gameconfigs_defaults_and_overrides_win() -> None:
    assert game_flags.config_from_args(_args()) == GameConfig()
    assert game_flags.config_from_args(_args(players=None, expansion=False, round_limit=None)) == GameConfig()
    assert game_flags.config_from_args(_args(players=3), players=None) == GameConfig(players=3)  # None: no override
    assert game_flags.config_from_args(_args(players=3), players=2).players == 2
    assert not game_flags.config_from_args(_args(), auto_forced=False).auto_forced
    assert game_flags.config_from_args(_args(round_limit=7, point_variant=True)) == GameConfig(
        round_limit=7, point_variant=True
    )


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"round_limit": 10**20}, "--round-limit: must be <= 1000"),
        ({"brutii": True, "brutii_seat": 5}, "--brutii-seat: must be in 0..4, got 5"),
        ({"players": 5, "victory_card": "alea_long"}, "--victory-card: 'alea_long' is not for 5 players"),
        ({"victory_card": "quid_est_veritas"}, "is an expansion victory card: add --expansion"),
    ],
)
def test_errors_name_the_flag(flags: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game_flags.config_from_args(_args(**flags))


def test_a_component_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match=r"^--components: cannot read component file"):
        game_flags.config_from_args(_args(components=str(tmp_path / "missing.toml")))


def test_gameconfig_messages_in_flag_words() -> None:
    assert game_flags.flag_message("brutii_seat: set only with brutii=true") == "--brutii-seat: set only with --brutii"
    assert game_flags.flag_message("round_limit: must be >= 1, got 0") == "--round-limit: must be >= 1, got 0"
    assert game_flags.flag_message("seed: other") == "seed: other"


def test_board_refuses_game_flags_with_a_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "g.json"
    position.write_text(json.dumps(Game.new(GameConfig(players=3), seed=1).to_json()), encoding="utf-8")
    out = tmp_path / "b.svg"
    assert _run(["board", "--position", str(position), "--out", str(out)], capsys)[0] == 0
    code, err = _run(["board", "--position", str(position), "--brutii", "--out", str(tmp_path / "c.svg")], capsys)
    assert code == 2 and err == "tribune: error: --position: the document decides the game; leave out --brutii\n"


# -- play and tournament count players their own way ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "players"),
    [
        ([], 4),
        (["--brutii"], 5),
        (["random"], 2),
        (["random", "random", "--brutii"], None),  # 3 seats: not a Brutii table
        (["random", "--players", "3"], 3),
        (["random", "--brutii"], None),
        (["random", "--brutii", "--players", "6"], 6),
    ],
)
def test_play_counts_the_opponents_else_the_rule_sets_default(
    argv: list[str],
    players: int | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    played: list[GameConfig],
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, err = _run(["play", *argv], capsys)
    if players is None:
        assert code == 2 and "is not supported with the Brutii" in err
        return
    assert code == 0 and {config.players for config in played} == {players}


def test_the_tournament_counts_its_specs_within_the_rule_set() -> None:
    assert [default_players(n, RuleSet.BASE) for n in (1, 3, 4, 9)] == [2, 3, 4, 4]
    assert [default_players(n, RuleSet.EXPANSION) for n in (2, 5)] == [2, 4]
    assert [default_players(n, RuleSet.BRUTII) for n in (1, 5, 6, 9)] == [5, 5, 6, 6]


def test_a_tournament_definition_follows_gameconfigs_policy() -> None:
    """``brutii`` implies the expansion; the Brutii sits in :data:`BRUTII_SEAT` unless a seat is named, and naming
    that seat is the same tournament (the same stored form and default results file)."""
    specs = ("random",) * 5
    brutii = TournamentDefinition.create(specs, brutii=True)
    assert brutii.game.expansion and brutii.game.players == 5 and brutii.rules == "brutii"
    assert brutii == TournamentDefinition.create(specs, players=5, expansion=True, brutii=True, brutii_seat=BRUTII_SEAT)
    assert "brutii_seat" not in brutii.to_dict() and brutii.options()["brutii_seat"] == BRUTII_SEAT
    seat2 = TournamentDefinition.create(specs, brutii=True, brutii_seat=2)
    assert seat2.to_dict()["brutii_seat"] == 2 and seat2.config().brutii_seat == 2
    assert TournamentDefinition.from_dict(seat2.to_dict()) == seat2
    plain = TournamentDefinition.from_dict({**brutii.to_dict(), "brutii": False})
    assert plain.rules == "expansion" and "brutii_seat" not in plain.options()
    with pytest.raises(ValueError, match="brutii_seat: set only with brutii"):
        TournamentDefinition.create(specs, brutii_seat=1)


def test_a_tournament_takes_its_game_from_a_config() -> None:
    specs = ("random",) * 5
    definition = TournamentDefinition.for_config(specs, GameConfig(brutii=True, round_limit=9), games=3, seed=2)
    assert definition == TournamentDefinition.create(specs, players=5, games=3, seed=2, round_limit=9, brutii=True)
    assert definition == TournamentDefinition(specs, GameConfig(brutii=True, round_limit=9), games=3, seed=2)
    assert definition.game == GameConfig(brutii=True, brutii_seat=BRUTII_SEAT, round_limit=9)
    four = specs[:4]
    assert TournamentDefinition.for_config(four, GameConfig()).options() == TournamentDefinition.create(four).options()
    with pytest.raises(ValueError, match="start_seat"):
        TournamentDefinition.for_config(specs[:4], GameConfig(start_seat=1))
    with pytest.raises(ValueError, match="auto_forced"):
        TournamentDefinition(specs[:4], GameConfig(auto_forced=False))
