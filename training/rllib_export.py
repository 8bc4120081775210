"""An RLlib module (:class:`~tribune_env.integrations.rllib.TribuneTorchModule`) as the project's ``.npz`` policy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.ppo import NumpyPolicy
from tribune_env.integrations.rllib import TribuneTorchModule, module_arrays


def export_module(module: TribuneTorchModule, meta: dict[str, Any], path: str | Path, dtype: str = "float32") -> Path:
    """Write ``module`` as an ``.npz`` policy of :mod:`agents.ppo` with ``meta`` (format, signature, net, ...).

    The weights are checked against ``meta`` (sizes, activation) before anything is written.

    Raises:
        CheckpointError: the module's layers do not match ``meta``.
    """
    policy = NumpyPolicy.from_arrays(meta, module_arrays(module), str(path))
    return policy.save_npz(path, dtype=dtype)
