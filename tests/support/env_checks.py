"""PettingZoo's ``api_test`` run on our environments, failing on any warning but the benign ones."""

from __future__ import annotations

import warnings
from typing import Any

# Warnings PettingZoo's api_test raises for every classic (dict-observation, masked) game, and the
# one our reset raises for the junk option that api_test passes on purpose.
BENIGN_API_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "reset: ignoring unknown options ['options']",  # api_test passes options={"options": ...}
    "The old environment creation API has been deprecated",
)
#: what Gymnasium's checker says of an env built without ``gymnasium.make``
NO_SPEC_WARNING = "Not able to test alternative render modes"


def run_api_test(env: Any, num_cycles: int = 1000) -> None:
    """``pettingzoo.test.api_test(env, num_cycles)``; fails naming any warning not in :data:`BENIGN_API_WARNINGS`."""
    from pettingzoo.test import api_test

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=num_cycles)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(BENIGN_API_WARNINGS)}
    assert not unexpected, f"api_test warned: {sorted(unexpected)}"


def sb3_check_env(env: Any, **options: Any) -> None:
    """Stable-Baselines3's ``check_env(env, **options)``, imported when called: it imports torch, which test
    modules must not pay for at collection."""
    from stable_baselines3.common.env_checker import check_env

    check_env(env, **options)
