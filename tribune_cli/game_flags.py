"""The game's command-line flags, declared once for every command that sets up a game.

``simulate``, ``log``, ``board``, ``play`` and ``tournament`` declare them with :func:`add_game_arguments` and read
them back with :func:`config_from_args`, so that the flags, their metavars, defaults, help and errors are the same
in every command::

    --players N  --expansion  --brutii  --brutii-seat SEAT  --victory-card ID  --point-variant
    --round-limit N  --components PATH  --seed SEED

What the flags mean together is :class:`~tribune_env.engine.config.GameConfig`'s to decide, not this module's: an
unset flag is ``None`` (or false) and GameConfig supplies its default, so ``--players`` omitted is the rule set's
default (5 with the Brutii), ``--brutii`` implies ``--expansion`` (R42), and ``--brutii-seat`` without ``--brutii``
is refused. The defaults shown in the help are computed from the rule sets, and GameConfig's errors are reworded
to name the flag (``--players: 4 is not supported with the Brutii; choose 5 or 6``). The seed's default is
shown by :class:`tribune_cli.command.HelpFormatter` from its argparse default.

The argparse number types of the command line (:func:`positive_int`, :func:`bounded_int`, :func:`seed_int`) live
here too, below every command module.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from tribune_env.data import ComponentError, Components, default_components, load_components
from tribune_env.engine.config import (
    DEFAULT_ROUND_LIMIT,
    MAX_ROUND_LIMIT,
    GameConfig,
    RuleSet,
    config_fields,
    victory_cards_of,
)

__all__ = [
    "DEFAULT_SEED",
    "FLAGS",
    "SEED_BOUND",
    "add_game_arguments",
    "bounded_int",
    "config_from_args",
    "default_players_text",
    "flag_message",
    "player_counts_text",
    "positive_int",
    "rules_of",
    "seed_int",
]

SEED_BOUND = 2**63 - 1  # seeds are stored as 63-bit integers and fed to numpy's generators
DEFAULT_SEED = 0
_PLAYERS_HELP = "players per game: {counts} (default: {defaults})"

FLAGS: dict[str, str] = {
    name: "--" + name.replace("_", "-")
    for name in ("players", "expansion", "brutii", "brutii_seat", "victory_card", "point_variant", "round_limit")
}
"""The :class:`GameConfig` options a command sets by flag, and their flags (``components`` is read from a file)."""
assert set(FLAGS) <= set(config_fields()), "every game flag is a GameConfig option"


# -- argparse number types ---------------------------------------------------------------------------------------


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return bounded_int(1, None)(text)


def bounded_int(low: int, high: int | None) -> Callable[[str], int]:
    """argparse type: an integer in ``low..high`` (``high`` ``None``: no upper bound)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in {low}..{high}, got {value}")
        return value

    return parse


def seed_int(text: str) -> int:
    """argparse type: a seed, an integer in ``0..2**63-1``."""
    return bounded_int(0, SEED_BOUND)(text)


# -- declaring the flags -----------------------------------------------------------------------------------------


def _span(counts: tuple[int, ...]) -> str:
    """``"2-5"`` for consecutive counts, else ``"2, 4"``."""
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def player_counts_text() -> str:
    """The player counts of every rule set (the packaged components), e.g. ``"2-5, 5-6 with the Brutii"``."""
    return _per_rule_set(lambda rules, components: _span(rules.player_counts(components)), ", ")


def default_players_text() -> str:
    """The default player count of every rule set (the packaged components), e.g. ``"4; 5 with the Brutii"``."""
    return _per_rule_set(lambda rules, components: str(rules.default_players(components)), "; ")


def _per_rule_set(show: Callable[[RuleSet, Components], str], sep: str) -> str:
    """``show`` of the base game, then of each other rule set where it differs, named by its description."""
    components = default_components()
    base = show(RuleSet.BASE, components)
    others = (rules for rules in (RuleSet.EXPANSION, RuleSet.BRUTII) if show(rules, components) != base)
    return sep.join([base, *(f"{show(rules, components)} {rules.description}" for rules in others)])


def add_game_arguments(
    parser: argparse.ArgumentParser,
    *,
    seed_help: str | None = None,
    players_help: str | None = None,
    brutii_seat_help: str | None = None,
    components: bool = True,
) -> None:
    """Add the game flags to ``parser`` in an argument group "game": ``--players``, ``--expansion``, ``--brutii``,
    ``--brutii-seat``, ``--victory-card``, ``--point-variant``, ``--round-limit``, ``--components`` (unless
    ``components`` is false) and ``--seed`` (default 0).

    ``seed_help``, ``players_help`` and ``brutii_seat_help`` replace the help of a flag whose meaning is the
    command's own (what the seed seeds; how a tournament or ``play`` counts players when ``--players`` is omitted;
    where a tournament seats the Brutii); the rest is the same in every command. Read back with
    :func:`config_from_args`.
    """
    expansion, brutii = (rules.player_counts(default_components()) for rules in (RuleSet.EXPANSION, RuleSet.BRUTII))
    game = parser.add_argument_group("game", "which game is played")
    game.add_argument(
        "--players",
        type=positive_int,
        metavar="N",
        help=players_help or _PLAYERS_HELP.format(counts=player_counts_text(), defaults=default_players_text()),
    )
    game.add_argument(
        "--expansion", action="store_true", help=f"play with the Tribune Expansion ({_span(expansion)} players)"
    )
    game.add_argument(
        "--brutii",
        action="store_true",
        help=f"play the Brutii variant of the expansion (implies --expansion; {_span(brutii)} seats, one of them "
        "the Brutii; R42)",
    )
    game.add_argument(
        "--brutii-seat",
        type=int,
        metavar="SEAT",
        help=brutii_seat_help or "the Brutii's seat, from 0, with --brutii (default: drawn in each game, R43)",
    )
    game.add_argument(
        "--victory-card", metavar="ID", help="victory card id (default: a random card valid for the game, R3)"
    )
    game.add_argument("--point-variant", action="store_true", help="play the point-value variant (no victory card)")
    game.add_argument(
        "--round-limit",
        type=int,
        metavar="N",
        help=f"truncate the game after this round, 1..{MAX_ROUND_LIMIT} (default: {DEFAULT_ROUND_LIMIT}; R25)",
    )
    if components:
        game.add_argument("--components", metavar="PATH", help="component TOML file (default: the packaged set)")
    game.add_argument(
        "--seed", type=seed_int, default=DEFAULT_SEED, metavar="SEED", help=seed_help or "seed of the game"
    )


# -- reading them back -------------------------------------------------------------------------------------------


def rules_of(args: argparse.Namespace) -> RuleSet:
    """The rule set the flags ask for (``--brutii`` implies the expansion), before any other flag is checked."""
    return RuleSet.of(bool(getattr(args, "expansion", False)), bool(getattr(args, "brutii", False)))


def config_from_args(args: argparse.Namespace, **overrides: Any) -> GameConfig:
    """The :class:`GameConfig` of the game flags in ``args`` (an attribute that is missing, ``None`` or false is
    unset: GameConfig's default), with ``overrides`` in place of the flags: GameConfig options the command
    computes, e.g. ``players`` from a list of opponents (an override that is ``None`` leaves the flag as it is;
    with a ``components`` override the ``--components`` file is not read).

    Raises:
        ValueError: the options do not make a game; the message names the flag (``--players: ...``) and, for an
            expansion victory card in a game without the expansion, says to add ``--expansion``.
        ComponentError: ``--components`` names a file that cannot be read or is not a component set (a ValueError).
    """
    flags = {name: getattr(args, name, None) for name in FLAGS}
    options: dict[str, Any] = {name: value for name, value in flags.items() if value is not None and value is not False}
    path = getattr(args, "components", None)
    if path is not None and overrides.get("components") is None:
        try:
            options["components"] = load_components(path)
        except ComponentError as exc:
            raise ComponentError(f"--components: {exc}") from None
    options.update({name: value for name, value in overrides.items() if value is not None})
    round_limit = options.get("round_limit")
    if isinstance(round_limit, int) and round_limit > MAX_ROUND_LIMIT:
        raise ValueError(f"--round-limit: must be <= {MAX_ROUND_LIMIT} (a game document's most), got {round_limit}")
    try:
        return GameConfig(**options)
    except ValueError as exc:
        message = flag_message(str(exc))
        if message.startswith(FLAGS["victory_card"]):
            message += _victory_card_hint(options["victory_card"], options)
        raise ValueError(message) from None


def flag_message(message: str) -> str:
    """A message of :class:`GameConfig` in the words of the command line: an option that leads it and every
    ``option=true`` in it become the option's flag (``brutii_seat: set only with brutii=true`` ->
    ``--brutii-seat: set only with --brutii``)."""
    for name, flag in FLAGS.items():
        if message.startswith(f"{name}: "):
            message = flag + message[len(name) :]
        message = re.sub(rf"\b{name}=true\b", flag, message)
    return message


def _victory_card_hint(card_id: str, options: dict[str, Any]) -> str:
    """``"; 'x' is an expansion victory card: add --expansion"`` when ``card_id`` is an expansion victory card and
    the game is not an expansion game, else ``""`` (R41)."""
    if RuleSet.of(bool(options.get("expansion")), bool(options.get("brutii"))).uses_expansion:
        return ""
    components = options.get("components") or default_components()
    base = {card.id for card in victory_cards_of(components, expansion=False)}
    if card_id not in base and card_id in {card.id for card in victory_cards_of(components, expansion=True)}:
        return f"; {card_id!r} is an expansion victory card: add --expansion"
    return ""
