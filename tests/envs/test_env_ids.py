"""One namespace for the environment ids (issue 37): ``tribune/`` in PettingZoo and Gymnasium alike; the Gymnasium
ids of release 0.3 (``tribune_env/``) still make their environments, with a DeprecationWarning naming the new id."""

from __future__ import annotations

import warnings

import gymnasium
import pettingzoo
import pytest

import tribune_env  # noqa: F401  (registers the environments)
from tribune_env.envs.registration import (
    AEC_ID,
    DEPRECATED_IDS,
    EXPANSION_AEC_ID,
    EXPANSION_SINGLE_ID,
    SINGLE_ID,
    SINGLE_MODULE_ID,
)
from tribune_env.envs.single import TribuneExpansionSingleEnv, TribuneSingleEnv


def test_every_id_is_in_the_tribune_namespace() -> None:
    for env_id in (AEC_ID, EXPANSION_AEC_ID, SINGLE_ID, EXPANSION_SINGLE_ID):
        assert env_id.split("/")[0] == "tribune", env_id
    assert SINGLE_MODULE_ID == "tribune_env:tribune/TribuneSingle-v0"
    assert pettingzoo.make("aec", AEC_ID, players=3) is not None


@pytest.mark.parametrize(
    ("env_id", "cls"), [(SINGLE_ID, TribuneSingleEnv), (EXPANSION_SINGLE_ID, TribuneExpansionSingleEnv)]
)
def test_the_new_ids_make_their_environments_without_a_warning(env_id: str, cls: type) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        env = gymnasium.make(env_id, players=3)
    assert type(env.unwrapped) is cls
    env.reset(seed=0)


@pytest.mark.parametrize("old", sorted(DEPRECATED_IDS))
def test_the_old_ids_warn_and_make_the_same_environment(old: str) -> None:
    new = DEPRECATED_IDS[old]
    with pytest.warns(DeprecationWarning, match=f"'{old}' is deprecated .* use '{new}'"):
        env = gymnasium.make(old, players=3)
    assert type(env.unwrapped) is type(gymnasium.make(new, players=3).unwrapped)
    obs, _ = env.reset(seed=0)
    assert obs.shape == gymnasium.make(new, players=3).observation_space.shape
    with pytest.warns(DeprecationWarning):
        gymnasium.make(f"tribune_env:{old}", players=2)  # the module-qualified old form too
