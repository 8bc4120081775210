"""RL environments: the PettingZoo AEC environment and the Gymnasium single-agent wrapper."""

from tribune_env.envs.aec import env, raw_env
from tribune_env.envs.policies import RandomPolicy, ViewAgent, model_policy
from tribune_env.envs.registration import AEC_ID, SINGLE_ID, register_envs
from tribune_env.envs.rewards import SCHEMES
from tribune_env.envs.single import TribuneSingleEnv
from tribune_env.envs.table import IllegalMoveError, Table
from tribune_env.envs.wrappers import IllegalActionPenalty

__all__ = [
    "AEC_ID",
    "SCHEMES",
    "SINGLE_ID",
    "IllegalActionPenalty",
    "IllegalMoveError",
    "RandomPolicy",
    "Table",
    "TribuneSingleEnv",
    "ViewAgent",
    "env",
    "model_policy",
    "raw_env",
    "register_envs",
]
