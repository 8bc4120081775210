"""Training configs for the Brutii variant (R42): env.brutii, env.learner_role and run.init_from."""

from __future__ import annotations

import pytest

from training.checkpoints import checkpoint_meta, game_of_meta
from training.config import ConfigError, config_from_dict
from tribune_env.engine.config import RuleSet


def brutii_env(**extra: object) -> dict[str, object]:
    return {"env": {"players": 5, "expansion": True, "brutii": True, **extra}}


@pytest.mark.parametrize("role", ["any", "brutii", "family"])
@pytest.mark.parametrize("players", [5, 6])
def test_brutii_configs_make_brutii_games(players: int, role: str) -> None:
    """R42: 5 or 6 seats with the Brutii; the checkpoint metadata holds the game in its dictionary form and the
    learner's role beside it."""
    config = config_from_dict(brutii_env(players=players, learner_role=role))
    game = config.env.game
    assert game.rules is RuleSet.BRUTII and game.players == players
    meta = checkpoint_meta(config, 0, {})
    assert meta["game"]["brutii"] is True and meta["learner_role"] == role and game_of_meta(meta) == game
    assert meta["space"] == "expansion"


def test_configs_without_the_brutii_keep_their_metadata() -> None:
    meta = checkpoint_meta(config_from_dict({"env": {"expansion": True}}), 0, {})
    assert "brutii" not in meta["game"] and "learner_role" not in meta and "learner_role" not in meta["game"]


def test_the_brutii_implies_the_expansion_and_its_player_count() -> None:
    """GameConfig's policy: ``brutii: true`` alone is a Brutii game of the expansion at its smallest table (R42)."""
    config = config_from_dict({"env": {"brutii": True}})
    assert config.env.game == config_from_dict(brutii_env()).env.game
    assert config.env.expansion and config.env.players == 5
    assert config_from_dict({"env": {"rules": "brutii"}}).env == config.env


def test_checkpoints_written_before_the_dictionary_form_read() -> None:
    """The shipped Brutii model's metadata keeps the learner's role inside its game: it reads as the same game."""
    from agents.ppo import SHIPPED_BRUTII, read_checkpoint_meta

    meta = read_checkpoint_meta(SHIPPED_BRUTII)
    assert "learner_role" in meta["game"]
    assert game_of_meta(meta) == config_from_dict(meta["config"]).env.game == config_from_dict(brutii_env()).env.game


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (brutii_env(players=4), "env.players: 4 is not supported with the Brutii; choose 5 or 6"),
        (brutii_env(players=7), "env.players: 7 is not supported with the Brutii; choose 5 or 6"),
        (
            {"env": {"players": 6, "expansion": True}},
            "env.players: 6 is not supported with the expansion; choose 2, 3, 4 or 5",
        ),
        ({"env": {"rules": "base", "brutii": True}}, "env.brutii: the rule set 'base' is played with brutii=False"),
        (brutii_env(learner_role="senator"), "env.learner_role: expected one of any, brutii, family"),
        ({"env": {"expansion": True, "learner_role": "brutii"}}, "env.learner_role: 'brutii' needs env.brutii: true"),
        (
            {**brutii_env(), "run": {"init_from": "model.pt"}},
            "run.init_from: expected an SB3 checkpoint (.zip) or an exported policy (.npz)",
        ),
    ],
)
def test_bad_brutii_configs_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        config_from_dict(data)


@pytest.mark.parametrize("reward", ["dense", "dense:rank"])
@pytest.mark.train
def test_a_dense_reward_trains_through_the_single_env(reward: str) -> None:
    """Issue 18: the environments' dense reward is a training option too; the env built for the run uses it."""
    from training.envs import make_env

    config = config_from_dict({"env": {"players": 2, "reward": reward}, "opponents": {"mix": {"random": 1.0}}})
    env = make_env(config)
    env.reset(seed=1)
    before_the_end, done = [], False
    while not done:
        mask = env.action_masks()
        _, reward_now, terminated, truncated, _ = env.step(mask.nonzero()[0][0])
        done = terminated or truncated
        if not done:
            before_the_end.append(float(reward_now))
    assert any(r != 0.0 for r in before_the_end)  # shaped rewards arrive during the game, not only at its end


@pytest.mark.parametrize("role", ["brutii", "family"])
@pytest.mark.train
def test_the_training_env_seats_the_learner_by_its_role_and_readies_the_opponents_for_theirs(role: str) -> None:
    """R42 roles in SB3 training: the league lets the environment find the role's seat once the game is dealt (it
    used to pass a random seat, which the role refuses), then resets every opponent agent for its own seat."""
    from agents.base import Agent
    from training.envs import make_env

    config = config_from_dict(
        {
            "env": {"players": 5, "expansion": True, "brutii": True, "learner_role": role},
            "opponents": {"mix": {"random": 1.0}},
        }
    )
    env = make_env(config)
    seen: dict[int, int] = {}
    original = Agent.reset

    def record(agent: Agent, seat: int, game: object, seed: int) -> None:
        seen[id(agent)] = seat
        original(agent, seat, game, seed)  # type: ignore[arg-type]

    for seed in range(6):
        seen.clear()
        Agent.reset = record  # type: ignore[method-assign]
        try:
            _, info = env.reset(seed=seed)
        finally:
            Agent.reset = original  # type: ignore[method-assign]
        brutii = env.single.table.game.brutii_seat
        assert (info["seat"] == brutii) == (role == "brutii") and info["brutii"] == (role == "brutii")
        players = 5
        expected = sorted((info["seat"] + 1 + i) % players for i in range(players - 1))
        assert sorted(seen.values()) == expected
        env.step(int(env.action_masks().nonzero()[0][0]))
