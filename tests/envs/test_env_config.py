"""The environments take the game as a GameConfig or its options (issue 24), and a Space names their spaces.

* No environment constructor, Table or factory re-lists GameConfig's fields: they reach it through ``config`` or
  ``**options`` only (compared with :func:`config_fields`), so a new option touches GameConfig alone.
* An environment built from a GameConfig and one built from the same keyword options are the same environment.
* EzPickle round-trips the config and the environment's own options.
* :class:`Space` is the one map from a rule set to its spaces, and the generated docs do not change.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from paths import ROOT

import tribune_env
from tribune_env import GameConfig, RuleSet, Space
from tribune_env.codec import codec_for, encoder_for
from tribune_env.codec.docs import write_docs
from tribune_env.data import default_components
from tribune_env.engine.config import config_fields
from tribune_env.envs import Table, TribuneBatchedEnv, TribuneExpansionSingleEnv, TribuneSingleEnv
from tribune_env.envs.infoset import InfoSet

DOCS = ROOT / "docs"
COMPONENTS = default_components()

GAMES: dict[str, tuple[Any, Any, dict[str, Any]]] = {
    "base": (tribune_env.raw_env, TribuneSingleEnv, {"players": 3, "round_limit": 8}),
    "base-in-expansion-spaces": (
        tribune_env.expansion_raw_env,
        TribuneExpansionSingleEnv,
        {"players": 4, "expansion": False, "round_limit": 8},
    ),
    "expansion": (tribune_env.expansion_raw_env, TribuneExpansionSingleEnv, {"players": 4, "round_limit": 8}),
    "brutii": (
        tribune_env.expansion_raw_env,
        TribuneExpansionSingleEnv,
        {"players": 5, "brutii": True, "brutii_seat": 2, "round_limit": 8},
    ),
}


def _constructors() -> Iterator[tuple[str, Callable[..., Any] | str]]:
    """Every constructor and factory that builds an environment or its table (those of optional libraries when
    installed)."""
    built: list[tuple[str, Callable[..., Any]]] = [
        ("raw_env", tribune_env.raw_env),
        ("expansion_raw_env", tribune_env.expansion_raw_env),
        ("env", tribune_env.env),
        ("expansion_env", tribune_env.expansion_env),
        ("TribuneSingleEnv", TribuneSingleEnv),
        ("TribuneExpansionSingleEnv", TribuneExpansionSingleEnv),
        ("Table", Table),
        ("TribuneBatchedEnv", TribuneBatchedEnv),
    ]
    yield from built
    tianshou = importlib.import_module("tribune_env.integrations.tianshou")  # imports no Tianshou
    for name in ("make_env", "EnvFactory", "vector_env"):
        yield f"tianshou.{name}", getattr(tianshou, name)
    yield "BatchedVecEnv", "tribune_env.integrations.sb3"  # the sb3 extra: imported by the test (it imports torch)


@pytest.mark.parametrize(
    ("name", "build"),
    [pytest.param(n, b, id=n, marks=[pytest.mark.train] if isinstance(b, str) else []) for n, b in _constructors()],
)
def test_no_constructor_re_lists_the_game_options(name: str, build: Callable[..., Any] | str) -> None:
    """The game's options reach an environment through ``config`` or ``**options`` only, never as parameters of
    their own (a new GameConfig field then needs no change here)."""
    if isinstance(build, str):
        build = getattr(importlib.import_module(build), name)
    parameters = inspect.signature(build).parameters
    relisted = sorted(set(parameters) & set(config_fields()))
    assert not relisted, f"{name} re-lists GameConfig's fields {relisted}; take them through config / **options"
    kinds = {p.kind for p in parameters.values()}
    assert inspect.Parameter.VAR_KEYWORD in kinds, f"{name} takes no **options"
    if "config" in parameters:
        assert parameters["config"].default is None


def test_no_private_class_attribute_carries_the_rules() -> None:
    """The expansion classes only choose their space: no ``_rules_expansion``/``_brutii`` side channel."""
    pairs = ((tribune_env.raw_env, tribune_env.expansion_raw_env), (TribuneSingleEnv, TribuneExpansionSingleEnv))
    for base, wide in pairs:
        assert (base.space, wide.space) == (Space.BASE, Space.EXPANSION)
        assert "__init__" not in vars(wide), f"{wide.__name__} declares its own constructor"
        for cls in (base, wide):
            assert not {"_rules_expansion", "_brutii", "_brutii_seat", "_expansion_space"} & set(vars(cls))


def test_the_training_env_section_holds_a_game_config() -> None:
    """The training YAML's env section keeps the game as a GameConfig, not a copy of its fields."""
    training_config = importlib.import_module("training.config")
    names = {f.name for f in dataclasses.fields(training_config.EnvConfig)}
    assert not names & set(config_fields()), "EnvConfig re-lists GameConfig's fields"


@pytest.mark.rllib
def test_the_rllib_environment_takes_the_game_options() -> None:
    """RLlib's env config: GameConfig's fields and the environment's own keys, the latter declared apart."""
    rllib = importlib.import_module("tribune_env.integrations.rllib")
    assert not rllib.ENV_OPTIONS & set(config_fields())
    assert list(inspect.signature(rllib.TribuneMultiAgentEnv).parameters) == ["config"]


@pytest.mark.parametrize(
    ("module", "name"),
    [("tribune_arena.tournament.schedule", "TournamentDefinition"), ("tribune_arena.human.web.checks", "NewGame")],
)
def test_tournaments_and_web_games_hold_a_game_config(module: str, name: str) -> None:
    """A tournament's definition and the web app's new-game request hold the game as one GameConfig field, and
    neither their fields nor their constructors re-list its options (a tournament's stored form flattens them)."""
    cls = getattr(importlib.import_module(module), name)
    relisted = {f.name for f in dataclasses.fields(cls)} & set(config_fields())
    assert not relisted, f"{name} re-lists GameConfig's fields {sorted(relisted)}; hold a GameConfig"
    assert not set(inspect.signature(cls).parameters) & set(config_fields()), f"{name}'s constructor re-lists them"
    hints = typing.get_type_hints(cls)
    assert [field for field, hint in hints.items() if hint is GameConfig], f"{name} holds no GameConfig"


# -- the same game from a config and from options -------------------------------------------------------------


def _aec_trace(env: Any, seed: int) -> list[tuple[str, bytes, bytes]]:
    """(agent, observation, mask) at every decision of a seeded random game."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for agent in env.agent_iter(max_iter=4000):
        obs, _reward, terminated, truncated, _info = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def _single_trace(env: TribuneSingleEnv, seed: int) -> list[tuple[bytes, bytes, float]]:
    obs, _info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(2000):
        mask = env.action_masks()
        out.append((obs.tobytes(), mask.tobytes(), 0.0))
        obs, reward, terminated, truncated, _info = env.step(int(rng.choice(np.flatnonzero(mask))))
        out[-1] = (*out[-1][:2], float(reward))
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("name", list(GAMES))
def test_a_config_and_its_options_build_the_same_aec_environment(name: str) -> None:
    build, _single, options = GAMES[name]
    config = GameConfig(**{"expansion": build is tribune_env.expansion_raw_env, **options})
    from_config, from_options = build(config), build(**options)
    assert from_config.table.config == from_options.table.config == config
    assert from_config.table.space is from_options.table.space is build.space
    assert _aec_trace(from_config, 7) == _aec_trace(from_options, 7)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_config_and_its_options_build_the_same_single_environment(name: str) -> None:
    _build, single, options = GAMES[name]
    config = GameConfig(**{"expansion": single is TribuneExpansionSingleEnv, **options})
    from_config, from_options = single(config, reward="rank"), single(reward="rank", **options)
    assert from_config.table.config == from_options.table.config == config
    assert _single_trace(from_config, 3) == _single_trace(from_options, 3)


def test_the_expansion_classes_play_the_expansion_unless_told_otherwise() -> None:
    assert tribune_env.expansion_raw_env().table.config.rules is RuleSet.EXPANSION
    assert tribune_env.expansion_raw_env(expansion=False).table.config.rules is RuleSet.BASE
    brutii = tribune_env.expansion_raw_env(players=5, brutii=True, brutii_seat=2)
    assert brutii.table.config.rules is RuleSet.BRUTII and brutii.table.config.brutii_seat == 2
    # the one policy of GameConfig: the Brutii imply the expansion, whatever expansion says
    assert TribuneExpansionSingleEnv(brutii=True, expansion=False).table.config.rules is RuleSet.BRUTII
    assert TribuneExpansionSingleEnv(players=6, brutii=True).table.config.players == 6


@pytest.mark.parametrize("options", [{"expansion": True}, {"players": 5, "brutii": True}])
def test_base_environments_refuse_expansion_rules(options: dict[str, Any]) -> None:
    for build in (tribune_env.raw_env, TribuneSingleEnv, Table):
        with pytest.raises(ValueError, match="the Tribune-v0 environments play base games"):
            build(**options)
        with pytest.raises(ValueError, match="TribuneExpansion-v0"):
            build(GameConfig(**options))


def test_bad_constructor_calls_are_clear_errors() -> None:
    with pytest.raises(TypeError, match=r"raw_env: unknown option 'plyers'; the game's options are players"):
        tribune_env.raw_env(plyers=3)
    with pytest.raises(TypeError, match=r"config: expected a GameConfig, got 3 \(give the game's options by keyword"):
        tribune_env.raw_env(3)  # type: ignore[arg-type]  # the first positional parameter was the player count
    with pytest.raises(TypeError, match="either a config or the game's options"):
        TribuneSingleEnv(GameConfig(players=3), players=3)
    with pytest.raises(ValueError, match="players: 7 is not supported"):
        tribune_env.expansion_env(players=7)
    with pytest.raises(ValueError, match="components"):
        tribune_env.raw_env(components=Path("no-such-components.toml"))


def test_the_factories_choose_the_spaces_of_the_rules() -> None:
    """The batched environment (and the Tianshou glue) build the expansion environment for expansion rules, or
    the spaces they are given."""
    assert type(TribuneBatchedEnv(1, players=3).envs[0]) is TribuneSingleEnv
    assert type(TribuneBatchedEnv(1, expansion=True).envs[0]) is TribuneExpansionSingleEnv
    wide = TribuneBatchedEnv(1, GameConfig(players=3), space="expansion").envs[0]
    assert type(wide) is TribuneExpansionSingleEnv and wide.table.config.rules is RuleSet.BASE
    defaulted = TribuneBatchedEnv(1, space=Space.EXPANSION, players=5, brutii=True).envs[0]
    assert defaulted.table.config.rules is RuleSet.BRUTII
    with pytest.raises(ValueError, match="play base games"):
        TribuneBatchedEnv(1, space=Space.BASE, expansion=True)


# -- pickling ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_pickling_round_trips_the_config_and_the_env_options(name: str) -> None:
    build, _single, options = GAMES[name]
    env = build(reward="rank", illegal_action="penalty", illegal_penalty=-2.5, obs_format="flat", **options)
    copy = pickle.loads(pickle.dumps(env))
    assert type(copy) is type(env) and copy.table.config == env.table.config and copy.table.space is env.space
    assert (copy.illegal_action, copy.illegal_penalty, copy.obs_format) == ("penalty", -2.5, "flat")
    assert copy.table.reward is env.table.reward
    env.reset(seed=5)
    copy.reset(seed=5)
    assert np.array_equal(copy.observe(copy.agent_selection), env.observe(env.agent_selection))


# -- spaces --------------------------------------------------------------------------------------------------


def test_space_is_the_one_map_from_rules_to_spaces() -> None:
    assert [Space.for_rules(r) for r in RuleSet] == [Space.BASE, Space.EXPANSION, Space.EXPANSION]
    assert Space.for_rules("brutii") is Space.EXPANSION
    assert Space.EXPANSION.serves(RuleSet.BRUTII) and Space.BASE.serves(RuleSet.BASE)
    assert not Space.BASE.serves(RuleSet.EXPANSION)
    assert Space.parse("expansion") is Space.EXPANSION and Space.parse(Space.BASE) is Space.BASE
    for bad in (True, False, "wide", None):
        with pytest.raises(ValueError, match="space: expected a Space"):
            Space.parse(bad)
    with pytest.raises(ValueError, match="space"):
        codec_for(COMPONENTS, True)  # type: ignore[arg-type]  # the old boolean: refused, never read as a space
    assert codec_for(COMPONENTS, "expansion") is codec_for(COMPONENTS, Space.EXPANSION)
    assert encoder_for(COMPONENTS, 60, "base") is encoder_for(COMPONENTS)


def test_the_infoset_defaults_to_the_spaces_of_the_rules() -> None:
    for config in (GameConfig(players=3), GameConfig(players=4, expansion=True), GameConfig(brutii=True)):
        game = tribune_env.Game.new(config, seed=1)
        info = InfoSet(game, game.current_seat)
        assert info.space is Space.for_rules(config.rules)
        assert info.observation().size == encoder_for(COMPONENTS, 60, info.space).size
    game = tribune_env.Game.new(players=3, seed=1)
    wide = InfoSet(game, game.current_seat, Space.EXPANSION)
    assert wide.action_mask().size == codec_for(COMPONENTS, Space.EXPANSION).n


def test_the_generated_docs_do_not_change(tmp_path: Path) -> None:
    written = write_docs(tmp_path)
    assert {p.name for p in written} == {
        "actions.md",
        "observation.md",
        "actions-expansion.md",
        "observation-expansion.md",
    }
    for path in written:
        assert path.read_text(encoding="utf-8") == (DOCS / path.name).read_text(encoding="utf-8"), path.name
