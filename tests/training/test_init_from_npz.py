"""run.init_from with an exported ``.npz``: a run can fine-tune a shipped model (actor and critic), and a file of
another network is refused by name with the run's network left as it was."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sb3_contrib
import torch

from agents.ppo import SHIPPED, NumpyPolicy
from training.checkpoints import load_npz_weights
from training.config import config_from_dict
from training.envs import make_env

pytestmark = pytest.mark.train


def model_of(net_pi: list[int], net_vf: list[int], activation: type = torch.nn.Tanh) -> object:
    config = config_from_dict({"env": {"players": 4}, "opponents": {"mix": {"random": 1.0}}})
    kwargs = {"net_arch": {"pi": net_pi, "vf": net_vf}, "activation_fn": activation}
    return sb3_contrib.MaskablePPO("MlpPolicy", make_env(config), policy_kwargs=kwargs, seed=0, device="cpu")


def observations(count: int) -> np.ndarray:
    config = config_from_dict({"env": {"players": 4}, "opponents": {"mix": {"random": 1.0}}})
    env, rng, seen = make_env(config), np.random.default_rng(5), []
    obs, _ = env.reset(seed=3)
    while len(seen) < count:
        seen.append(obs)
        obs, _, done, cut, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if done or cut:
            obs, _ = env.reset()
    return np.asarray(seen, dtype=np.float32)


def test_the_shipped_model_plays_the_same_inside_the_run() -> None:
    model = model_of([256, 256], [256, 256])
    load_npz_weights(model.policy, SHIPPED, "tanh")
    shipped, obs = NumpyPolicy.from_file(SHIPPED), observations(40)
    with torch.no_grad():
        features = model.policy.extract_features(torch.as_tensor(obs), model.policy.pi_features_extractor)
        latent_pi, latent_vf = model.policy.mlp_extractor(features)
        logits = model.policy.action_net(latent_pi).numpy()
        values = model.policy.value_net(latent_vf).numpy()[:, 0]
    np.testing.assert_allclose(logits, shipped.logits(obs), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, shipped.value(obs), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("net_pi", "net_vf", "activation", "message"),
    [
        ([256, 256], [256, 256], "relu", "its layers use 'tanh', the run's 'relu'"),
        ([256], [256, 256], "tanh", "the file has weights the run's network lacks: pi.1.bias, pi.1.weight"),
        ([256, 256, 256], [256, 256], "tanh", "no weights pi.2.weight for mlp_extractor.policy_net.4.weight"),
        ([128, 256], [256, 256], "tanh", "pi.0.weight is (256, 1669) in the file, (128, 1669) in the run"),
    ],
)
def test_another_network_is_refused_and_left_as_it_was(
    net_pi: list[int], net_vf: list[int], activation: str, message: str
) -> None:
    model = model_of(net_pi, net_vf)
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_npz_weights(model.policy, SHIPPED, activation)
    after = model.policy.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_an_actor_without_a_critic_is_refused(tmp_path: Path) -> None:
    shipped = NumpyPolicy.from_file(SHIPPED)
    actor_only = NumpyPolicy(shipped.meta, shipped.layers, shipped.action, source="actor-only")
    path = actor_only.save_npz(tmp_path / "actor.npz")
    with pytest.raises(ValueError, match="has no value network"):
        load_npz_weights(model_of([256, 256], [256, 256]).policy, path, "tanh")
