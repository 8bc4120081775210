"""The ``ppo`` agent: numpy forward pass equal to the torch policy, checkpoint metadata and export,
complete games through the spec, and clear errors for missing, corrupt or mismatched checkpoints."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from agent_games import play_game, texts
from paths import ROOT

import agents.ppo as ppo
from agents import AgentError, make_agent
from agents.ppo import (
    FORMAT,
    META_NAME,
    CheckpointError,
    NumpyPolicy,
    describe_mismatch,
    environment_signature,
    export_policy,
    load_policy,
    read_checkpoint_meta,
    signature_for,
    write_checkpoint_meta,
)
from tribune_env import Game, GameConfig
from tribune_env.envs.single import TribuneSingleEnv

pytestmark = pytest.mark.train

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

PI, VF = [16, 16], [16]


def meta_for(activation: str, signature: dict[str, Any] | None = None, pi: list[int] = PI) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "signature": signature if signature is not None else signature_for(GameConfig(players=4)),
        "net": {"pi": pi, "vf": VF, "activation": activation},
        "timesteps": 64,  # extra keys are kept
    }


def build(activation: str, path: Path) -> MaskablePPO:
    """A tiny MaskablePPO after one short update, saved with its metadata at ``path``."""
    import torch
    from sb3_contrib import MaskablePPO

    env = TribuneSingleEnv(players=4)
    fn = torch.nn.Tanh if activation == "tanh" else torch.nn.ReLU
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=32,
        n_epochs=1,
        policy_kwargs={"net_arch": {"pi": PI, "vf": VF}, "activation_fn": fn},
        seed=1,
        device="cpu",
    )
    model.learn(64)
    with torch.no_grad():  # the initial head (gain 0.01) gives near-equal logits; spread them to test argmaxes
        head: Any = model.policy.action_net
        head.weight.mul_(50.0)
    model.save(path)
    write_checkpoint_meta(path, meta_for(activation))
    return model


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, MaskablePPO]]:
    import torch

    root = tmp_path_factory.mktemp("ppo")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return {a: (root / f"{a}.zip", build(a, root / f"{a}.zip")) for a in ("tanh", "relu")}
    finally:
        torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def samples() -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of real decisions (random play, two games)."""
    env = TribuneSingleEnv(players=4)
    rng = np.random.default_rng(0)
    obs_list: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    for seed in (0, 1):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done and len(obs_list) < 100 * (seed + 1):
            mask = env.action_masks()
            obs_list.append(obs)
            masks.append(mask)
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
    return np.stack(obs_list), np.stack(masks)


def torch_outputs(model: MaskablePPO, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import torch

    policy = model.policy
    with torch.no_grad():
        x = torch.as_tensor(obs)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(x))
        values = policy.value_net(policy.mlp_extractor.forward_critic(x))
    return logits.numpy(), values.numpy()[:, 0]


def play(specs: list[str], seed: int, **options: Any) -> tuple[Game, list[str]]:
    """One game between the agents of ``specs``; every answer must be an element of legal."""
    game, actions = play_game(specs, seed, identical=lambda spec: spec.startswith("ppo"), **options)
    return game, texts(actions)


# -- signature ----------------------------------------------------------------------------------


def test_signature_describes_the_environment() -> None:
    env = TribuneSingleEnv(players=4)
    sig = signature_for(env.table.config)
    assert sig == environment_signature(env.table.encoder, env.table.codec)
    assert sig["observation"]["size"] == env.table.encoder.size == 1669
    assert sig["actions"]["n"] == env.table.codec.n == 198
    assert json.loads(json.dumps(sig)) == sig
    assert describe_mismatch(sig, sig) is None
    assert signature_for(GameConfig(players=2)) == sig  # the spaces do not depend on the player count


def test_mismatches_are_described() -> None:
    sig = signature_for(GameConfig())
    other = json.loads(json.dumps(sig))
    other["observation"].update(size=1700, layout="91bc")
    text = describe_mismatch(other, sig)
    assert text is not None and "observation layout differs" in text and "1700" in text and "1669" in text
    other = json.loads(json.dumps(sig))
    other["actions"]["labels"] = "0000"
    assert "action space differs" in (describe_mismatch(other, sig) or "")
    shorter = describe_mismatch(signature_for(GameConfig(round_limit=30)), sig)
    assert shorter is not None and "observation scaling differs" in shorter and "rounds 30.0" in shorter


# -- the numpy policy --------------------------------------------------------------------------


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_numpy_policy_matches_torch(
    activation: str, checkpoints: dict[str, tuple[Path, MaskablePPO]], samples: tuple[np.ndarray, np.ndarray]
) -> None:
    path, model = checkpoints[activation]
    obs, masks = samples
    policy = NumpyPolicy.from_file(path)
    assert policy.meta["timesteps"] == 64
    logits, values = torch_outputs(model, obs)
    np.testing.assert_allclose(policy.logits(obs), logits, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(policy.value(obs), values, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(policy.logits(obs[0]), logits[0], atol=1e-5, rtol=1e-5)
    for o, m in zip(obs[:50], masks[:50], strict=True):
        predicted, _ = model.predict(o, action_masks=m, deterministic=True)
        assert policy.act(o, m, None, deterministic=True) == int(predicted)


def test_sampling_stays_legal_and_follows_the_seed(
    checkpoints: dict[str, tuple[Path, MaskablePPO]], samples: tuple[np.ndarray, np.ndarray]
) -> None:
    policy = NumpyPolicy.from_file(checkpoints["tanh"][0])
    obs, masks = samples
    draws = [policy.act(o, m, np.random.default_rng(3), deterministic=False) for o, m in zip(obs, masks, strict=True)]
    assert all(m[a] for a, m in zip(draws, masks, strict=True))
    again = [policy.act(o, m, np.random.default_rng(3), deterministic=False) for o, m in zip(obs, masks, strict=True)]
    assert draws == again
    with pytest.raises(ValueError, match="allows no action"):
        policy.act(obs[0], np.zeros_like(masks[0]), None, deterministic=True)
    with pytest.raises(ValueError, match="needs a numpy Generator"):
        policy.act(obs[0], masks[0], None, deterministic=False)
    with pytest.raises(ValueError, match="size 1669"):
        policy.logits(obs[0][:10])


def test_npz_export(
    checkpoints: dict[str, tuple[Path, MaskablePPO]], samples: tuple[np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    path, _ = checkpoints["relu"]
    obs, masks = samples
    full = NumpyPolicy.from_file(path)
    exact = NumpyPolicy.from_file(full.save_npz(tmp_path / "exact.npz"))
    assert exact.meta == full.meta == read_checkpoint_meta(tmp_path / "exact.npz")
    np.testing.assert_array_equal(exact.logits(obs), full.logits(obs))
    np.testing.assert_array_equal(exact.value(obs), full.value(obs))
    half_path = export_policy(path, tmp_path / "half.npz")
    assert half_path.stat().st_size < (tmp_path / "exact.npz").stat().st_size
    half = NumpyPolicy.from_file(half_path)
    same = [half.act(o, m, None, True) == full.act(o, m, None, True) for o, m in zip(obs, masks, strict=True)]
    assert np.mean(same) >= 0.9
    np.testing.assert_allclose(half.logits(obs), full.logits(obs), atol=0.05, rtol=0.01)
    with pytest.raises(ValueError, match="dtype"):
        full.save_npz(tmp_path / "x.npz", dtype="int8")


def test_export_command(checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path) -> None:
    ppo.main([str(checkpoints["tanh"][0]), str(tmp_path / "out.npz"), "--dtype", "float32"])
    assert read_checkpoint_meta(tmp_path / "out.npz")["net"]["activation"] == "tanh"


# -- the agent ---------------------------------------------------------------------------------


def test_agent_plays_complete_games(checkpoints: dict[str, tuple[Path, MaskablePPO]]) -> None:
    path = checkpoints["tanh"][0]
    game, texts = play([f"ppo:{path}", "random", "heuristic", f"ppo:path={path},deterministic=false"], seed=5)
    assert game.is_over and texts and game.winners
    assert make_agent(f"ppo:{path}").spec == f"ppo:{path}"


def test_agent_is_deterministic_given_its_seed(checkpoints: dict[str, tuple[Path, MaskablePPO]]) -> None:
    path = checkpoints["relu"][0]
    specs = [f"ppo:path={path},deterministic=false", "random", f"ppo:{path}", "random"]
    assert play(specs, seed=9)[1] == play(specs, seed=9)[1]


def test_agent_needs_the_infoset(checkpoints: dict[str, tuple[Path, MaskablePPO]]) -> None:
    agent = make_agent(f"ppo:{checkpoints['tanh'][0]}", seed=0)
    game = Game.new(GameConfig(players=4), seed=0)
    agent.reset(game.current_seat, game.config, 0)
    with pytest.raises(AgentError, match="InfoSet"):
        agent.act(game.view(game.current_seat), game.legal_actions(), None)


def test_agent_refuses_a_game_it_was_not_trained_for(checkpoints: dict[str, tuple[Path, MaskablePPO]]) -> None:
    path = checkpoints["tanh"][0]
    agent = make_agent(f"ppo:{path}", seed=0)
    agent.reset(0, GameConfig(players=3), 0)  # another player count has the same spaces
    with pytest.raises(CheckpointError, match=r"does not fit this game: observation scaling differs.*rounds"):
        agent.reset(0, GameConfig(players=4, round_limit=20), 0)
    with pytest.raises(CheckpointError, match="does not fit this game"):
        load_policy(path, GameConfig(round_limit=20))


def test_bad_agent_parameters(checkpoints: dict[str, tuple[Path, MaskablePPO]]) -> None:
    path = checkpoints["tanh"][0]
    with pytest.raises(AgentError, match="deterministic"):
        make_agent(f"ppo:path={path},deterministic=maybe")
    with pytest.raises(AgentError, match="no parameter"):
        make_agent(f"ppo:path={path},speed=2")


def test_the_shipped_model(
    monkeypatch: pytest.MonkeyPatch, checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path
) -> None:
    monkeypatch.setattr(ppo, "SHIPPED", tmp_path / "missing.npz")
    with pytest.raises(AgentError, match=r"shipped model .*missing"):
        make_agent("ppo")
    monkeypatch.setattr(ppo, "SHIPPED", export_policy(checkpoints["tanh"][0], tmp_path / "ppo-4p.npz"))
    assert make_agent("ppo").spec == "ppo"


# -- errors --------------------------------------------------------------------------------------


def test_missing_and_corrupt_files_are_named(checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path) -> None:
    missing = tmp_path / "nothing.zip"
    with pytest.raises(CheckpointError, match=r"nothing.zip does not exist"):
        make_agent(f"ppo:{missing}")
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"\x00not a zip file" * 100)
    with pytest.raises(CheckpointError, match=r"garbage.zip: not a readable checkpoint"):
        load_policy(garbage)
    truncated = tmp_path / "truncated.zip"
    data = checkpoints["tanh"][0].read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match=r"truncated.zip"):
        load_policy(truncated)
    with pytest.raises(CheckpointError, match="is not a file"):
        load_policy(tmp_path)


def _rewrite(source: Path, target: Path, replace: dict[str, bytes | None]) -> Path:
    """A copy of the zip ``source`` with entries replaced (``None``: dropped)."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as dst:
        for info in src.infolist():
            if info.filename not in replace:
                dst.writestr(info, src.read(info))
        for name, data in replace.items():
            if data is not None:
                dst.writestr(name, data)
    return target


def test_zips_without_good_metadata_are_refused(
    checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path
) -> None:
    source = checkpoints["tanh"][0]
    bare = _rewrite(source, tmp_path / "bare.zip", {META_NAME: None})
    with pytest.raises(CheckpointError, match=r"no tribune.json.*tribune train"):
        make_agent(f"ppo:{bare}")
    broken = _rewrite(source, tmp_path / "broken.zip", {META_NAME: b"{not json"})
    with pytest.raises(CheckpointError, match="not valid JSON"):
        load_policy(broken)
    old_meta = json.dumps({**meta_for("tanh"), "format": "x/0"}).encode()
    old = _rewrite(source, tmp_path / "old.zip", {META_NAME: old_meta})
    with pytest.raises(CheckpointError, match="format is 'x/0'"):
        load_policy(old)
    bad_weights = _rewrite(source, tmp_path / "weights.zip", {"policy.pth": b"garbage"})
    with pytest.raises(CheckpointError, match=r"weights.zip: cannot read policy.pth"):
        load_policy(bad_weights)


def test_checkpoints_of_another_environment_are_refused(
    checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path
) -> None:
    source = checkpoints["tanh"][0]
    sig = signature_for(GameConfig())
    sig["observation"]["layout"] = "3fa2000000000000"
    other = _rewrite(source, tmp_path / "other.zip", {META_NAME: json.dumps(meta_for("tanh", sig)).encode()})
    agent = make_agent(f"ppo:{other}")  # readable: the sizes agree
    with pytest.raises(CheckpointError, match=r"other.zip does not fit this game: observation layout differs"):
        agent.reset(0, GameConfig(), 0)
    sig["observation"]["size"] = 1700
    larger = _rewrite(source, tmp_path / "larger.zip", {META_NAME: json.dumps(meta_for("tanh", sig)).encode()})
    with pytest.raises(CheckpointError, match=r"larger.zip: the actor's weights .* do not match"):
        load_policy(larger)
    wider = _rewrite(source, tmp_path / "wider.zip", {META_NAME: json.dumps(meta_for("tanh", pi=[32, 32])).encode()})
    with pytest.raises(CheckpointError, match="do not match the metadata"):
        load_policy(wider)


def test_writing_metadata(checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path) -> None:
    path = tmp_path / "ck.zip"
    path.write_bytes(checkpoints["relu"][0].read_bytes())
    before = path.read_bytes()
    for bad, words in [
        ({**meta_for("relu"), "format": "other"}, "format"),
        ({**meta_for("relu"), "net": {"pi": [16], "vf": [], "activation": "gelu"}}, "activation"),
        ({**meta_for("relu"), "net": {"pi": [0], "vf": [], "activation": "relu"}}, "layer sizes"),
        ({**meta_for("relu"), "signature": {}}, "signature"),
        ({**meta_for("relu"), "extra": object()}, "not JSON"),
    ]:
        with pytest.raises(ValueError, match=words):
            write_checkpoint_meta(path, bad)
        assert path.read_bytes() == before
    write_checkpoint_meta(path, {**meta_for("relu"), "note": "again"})
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist().count(META_NAME) == 1 and "policy.pth" in zf.namelist()
    assert read_checkpoint_meta(path)["note"] == "again"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ck.zip"]  # no temporary file left
    with pytest.raises(CheckpointError, match="does not exist"):
        write_checkpoint_meta(tmp_path / "none.zip", meta_for("relu"))


# -- no training library needed ------------------------------------------------------------------


def test_ppo_module_imports_torch_only_inside_functions() -> None:
    tree = ast.parse((ROOT / "agents" / "ppo.py").read_text(encoding="utf-8"))
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    inner = {id(n) for f in functions for n in ast.walk(f)}
    heavy = {"torch", "stable_baselines3", "sb3_contrib", "ray"}
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    names = [
        (n.lineno, a.name if isinstance(n, ast.Import) else n.module or "", id(n) in inner)
        for n in imports
        for a in n.names
    ]
    assert not [(line, m) for line, m, inside in names if m.split(".")[0] in heavy and not inside]
    assert not [(line, m) for line, m, _ in names if m.split(".")[0] in heavy - {"torch"}]


def test_npz_policies_play_without_torch(checkpoints: dict[str, tuple[Path, MaskablePPO]], tmp_path: Path) -> None:
    npz = export_policy(checkpoints["tanh"][0], tmp_path / "p.npz")
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from agents import make_agent\n"
        "from agents.ppo import CheckpointError, load_policy\n"
        "from tribune_env import Game, GameConfig\n"
        "from tribune_env.envs.infoset import InfoSet\n"
        f"agent = make_agent({f'ppo:{npz}'!r}, seed=0)\n"
        "game = Game.new(GameConfig(players=4), seed=0)\n"
        "agent.reset(game.current_seat, game.config, 0)\n"
        "seat = game.current_seat\n"
        "assert agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat)) in game.legal_actions()\n"
        "try:\n"
        f"    load_policy({str(checkpoints['tanh'][0])!r})\n"
        "except CheckpointError as err:\n"
        "    print(err)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "(torch) needs the 'train' extra" in proc.stdout and "pip install -e '.[train]'" in proc.stdout
