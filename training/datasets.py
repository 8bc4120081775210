"""Games as Minari datasets (Farama's format for offline RL), and back as imitation data.

:func:`write_dataset` plays games with the given agents and writes them as a Minari dataset with one episode per
seat of each game: the seat's observations (the single-agent environment's ``Box``, one per decision of the seat plus
the last one, when the game ended), its actions (indices of the ``Discrete`` action space; an agent's bid above the
space's cap, which the environment cannot express, is left out), its rewards (0 until the
last step, then the ``win_loss`` result), terminations and truncations (the last step; a game stopped by the round
limit is truncated), and in ``infos``: ``action_mask`` (the legal actions at each observation; all zero at the last),
``seat``, ``game`` (the game's index in the dataset) and ``seed`` (its deal). The dataset's metadata (Minari's
``storage.metadata``) adds ``tribune_agents`` (the specs by seat), ``tribune_deals`` (the seed of each game),
``tribune_game`` (the game's options), ``tribune_code_version`` and ``tribune_format``. Nothing of this project is
needed to read it: ``minari.load_dataset(ID)`` in any environment with ``minari[hdf5]``.

:func:`read_demonstrations` turns such a dataset into :class:`training.imitation.Demonstrations` for the imitation
pretraining (``pretrain.dataset`` in a training config).

Needs the ``datasets`` extra (``minari[hdf5]``).
"""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.specs import make_agent
from tribune_env.codec import Space, codec_for, encoder_for
from tribune_env.engine.config import GameConfig, config_to_dict
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.rewards import win_loss
from tribune_env.extras import missing_extra

FORMAT = 1
"""The layout of the episodes (``tribune_format`` in the metadata)."""
DATA_FORMAT = "hdf5"


def _minari() -> Any:
    try:
        import minari
    except ImportError as err:
        raise ImportError(missing_extra("Minari datasets", "datasets", err)) from err
    return minari


def game_seeds(games: int, seed: int) -> list[int]:
    """The deals of ``games`` games derived from ``seed``."""
    rng = np.random.default_rng(seed)
    return [int(s) for s in rng.integers(2**62, size=games)]


def play_episodes(specs: Sequence[str], config: GameConfig, seed: int, index: int = 0) -> list[Any]:
    """One game of ``specs`` (one per seat) on deal ``seed``: one Minari ``EpisodeBuffer`` per seat that decided."""
    from minari.data_collector import EpisodeBuffer

    space = Space.for_rules(config.rules)
    encoder = encoder_for(config.components, config.round_limit, space)
    codec = codec_for(config.components, space)
    n = config.players
    rng = random.Random(seed)
    game = Game.new(config, seed=seed)
    agents = [make_agent(spec, s) for s, spec in enumerate(specs)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, config, rng.randrange(2**62))
    obs: list[list[np.ndarray]] = [[] for _ in range(n)]
    masks: list[list[np.ndarray]] = [[] for _ in range(n)]
    actions: list[list[int]] = [[] for _ in range(n)]
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        action = agents[seat].act(game.view(seat), legal, InfoSet(game, seat))
        code = codec.encode(action, seat, n)
        if code >= 0:  # a bid above the space's cap is no action of the environment: left out
            obs[seat].append(encoder.encode_game(game, seat))
            masks[seat].append(codec.mask(legal, seat, n).astype(np.int8))
            actions[seat].append(code)
        game.apply(action)
    result = win_loss(game)
    episodes = []
    for seat in range(n):
        steps = len(actions[seat])
        if not steps:
            continue
        rewards = [0.0] * steps
        rewards[-1] = float(result[seat])
        ends = [False] * steps
        terminations, truncations = list(ends), list(ends)
        (truncations if game.truncated else terminations)[-1] = True
        mask_rows = [*masks[seat], np.zeros(codec.n, dtype=np.int8)]
        episodes.append(
            EpisodeBuffer(
                seed=seed,
                observations=np.stack([*obs[seat], encoder.encode_game(game, seat)]).astype(np.float32),
                actions=np.asarray(actions[seat], dtype=np.int64),
                rewards=rewards,
                terminations=terminations,
                truncations=truncations,
                infos={
                    "action_mask": np.stack(mask_rows),
                    "seat": np.full(steps + 1, seat, dtype=np.int64),
                    "game": np.full(steps + 1, index, dtype=np.int64),
                    "seed": np.full(steps + 1, seed, dtype=np.int64),
                },
            )
        )
    return episodes


def write_dataset(
    dataset_id: str,
    specs: Sequence[str],
    config: GameConfig,
    games: int,
    seed: int = 0,
    root: Path | None = None,
    tick: Callable[[int], None] | None = None,
) -> Any:
    """Play ``games`` games of ``specs`` and write them as the Minari dataset ``dataset_id`` (under ``root``, else
    Minari's datasets folder: ``MINARI_DATASETS_PATH`` or ``~/.minari/datasets``); returns the ``MinariDataset``.

    Raises:
        ValueError: a dataset of that id exists there, or ``specs`` do not fill the table.
        ImportError: the ``datasets`` extra is missing.
    """
    minari = _minari()
    from tribune_arena.benchmark.record import code_version
    from tribune_env.envs.single import TribuneExpansionSingleEnv, TribuneSingleEnv

    if len(specs) != config.players:
        raise ValueError(f"expected one agent per seat ({config.players}), got {len(specs)}")
    seeds = game_seeds(games, seed)
    episodes: list[Any] = []
    for index, deal in enumerate(seeds):
        episodes.extend(play_episodes(specs, config, deal, index))
        if tick:
            tick(1)
    kind = TribuneExpansionSingleEnv if Space.for_rules(config.rules) is Space.EXPANSION else TribuneSingleEnv
    env = kind(config)
    before = os.environ.get("MINARI_DATASETS_PATH")
    if root is not None:
        os.environ["MINARI_DATASETS_PATH"] = str(Path(root).resolve())  # Minari mishandles a relative one
    try:
        with warnings.catch_warnings():  # "no eval_env" and "no env_spec": by design, the spaces are given
            warnings.simplefilter("ignore", UserWarning)
            dataset = _create(minari, dataset_id, episodes, env, specs, games, config)
    finally:
        if root is not None:
            if before is None:
                del os.environ["MINARI_DATASETS_PATH"]
            else:
                os.environ["MINARI_DATASETS_PATH"] = before
    dataset.storage.update_metadata(
        {
            "tribune_format": FORMAT,
            "tribune_agents": list(specs),
            "tribune_deals": seeds,
            "tribune_game": config_to_dict(config),
            "tribune_code_version": code_version(),
        }
    )
    return dataset


def _create(minari: Any, dataset_id: str, episodes: list[Any], env: Any, specs: Sequence[str], games: int,
            config: GameConfig) -> Any:
    return minari.create_dataset_from_buffers(
        dataset_id=dataset_id,
        buffer=episodes,
        observation_space=env.observation_space,
        action_space=env.action_space,
        algorithm_name=" vs ".join(specs),
        author="tribune dataset",
        description=f"{games} games of Tribune ({config.players} players), one episode per seat",
        data_format=DATA_FORMAT,
    )


def read_demonstrations(dataset: Any, seats: Sequence[int] | None = None) -> Any:
    """Imitation data (:class:`training.imitation.Demonstrations`) from a Minari dataset written by
    :func:`write_dataset`: every decision of the episodes (of ``seats`` only, when given) with its observation,
    mask, action and the episode's final reward. ``dataset`` is a ``MinariDataset`` or a dataset id."""
    from training.imitation import Demonstrations

    if isinstance(dataset, str | os.PathLike):
        dataset = _minari().load_dataset(str(dataset))
    obs, masks, actions, returns = [], [], [], []
    for episode in dataset.iterate_episodes():
        seat = int(episode.infos["seat"][0])
        if seats is not None and seat not in seats:
            continue
        steps = len(episode.actions)
        obs.append(np.asarray(episode.observations[:steps], dtype=np.float16))
        masks.append(np.asarray(episode.infos["action_mask"][:steps], dtype=bool))
        actions.append(np.asarray(episode.actions, dtype=np.int64))
        returns.append(np.full(steps, float(np.sum(episode.rewards)), dtype=np.float32))
    if not actions:
        raise ValueError("the dataset holds no decisions of the seats asked for")
    return Demonstrations(np.concatenate(obs), np.concatenate(masks), np.concatenate(actions), np.concatenate(returns))
