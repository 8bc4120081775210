"""Games beside the pool with the real ``heuristic`` in the other seats (training.pool.tables,
``opponents.table_games``): every row is the learner's, the agent plays only its own seats, results reach the
learner's rows, the same seed gives the same run, and bad settings are named."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytestmark = [pytest.mark.train, pytest.mark.usefixtures("one_torch_thread")]

from agents.heuristic import HeuristicAgent  # noqa: E402
from training.config import ConfigError, with_overrides  # noqa: E402
from training.pool.config import pool_config_from_dict  # noqa: E402
from training.pool.opponents import LEARNER  # noqa: E402
from training.pool.run import PoolTrainer  # noqa: E402
from training.pool.tables import AGENT, AgentTables, TableSeats  # noqa: E402
from tribune_env.codec import Space, codec_for, encoder_for  # noqa: E402
from tribune_env.engine.config import GameConfig  # noqa: E402

CONFIG = GameConfig(players=4)


def play(tables: AgentTables, steps: int, seed: int = 0) -> list[tuple[np.ndarray, ...]]:
    """``steps`` steps of uniformly random legal learner actions; each step's rows (copied)."""
    rng = np.random.default_rng(seed)
    obs, mask, seat = tables.reset(7)
    out = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, seat, reward, done = tables.step(actions)
        out.append((obs.copy(), mask.copy(), seat.copy(), reward.copy(), done.copy()))
    return out


def test_every_row_is_the_learners_seat_with_its_own_view_and_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = AgentTables(3, CONFIG)
    space = Space.for_rules(CONFIG.rules)
    encoder, codec = encoder_for(CONFIG.components, CONFIG.round_limit, space), codec_for(CONFIG.components, space)
    acted: list[tuple[int, int]] = []
    act = HeuristicAgent.act

    def spy(agent: HeuristicAgent, view: Any, legal: Any, info: Any = None) -> Any:
        acted.append((agent.seat, view.seat))
        return act(agent, view, legal, info)

    monkeypatch.setattr(HeuristicAgent, "act", spy)
    obs, mask, seat = tables.reset(3)
    rng = np.random.default_rng(1)
    for _ in range(60):
        for g, game in enumerate(tables.games):
            assert game.current_seat == seat[g] == tables.learner_seat[g]
            np.testing.assert_array_equal(obs[g], encoder.encode_game(game, int(seat[g])))
            np.testing.assert_array_equal(mask[g], codec.mask(game.legal_actions(), int(seat[g]), 4))
        obs, mask, seat, _, _ = tables.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
    assert acted and all(a == v for a, v in acted)  # each agent decided on its own seat's view


def test_the_agents_never_play_the_learners_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = AgentTables(2, CONFIG)
    played: list[tuple[int, int, int]] = []  # (game, seat acting, learner seat)
    original = tables.agents

    class Spy:
        def __init__(self, game: int, agent: Any) -> None:
            self.game, self.agent = game, agent

        def reset(self, seat: int, config: GameConfig, seed: int) -> None:
            self.agent.reset(seat, config, seed)

        def act(self, view: Any, legal: Any, info: Any = None) -> Any:
            played.append((self.game, view.seat, int(tables.learner_seat[self.game])))
            return self.agent.act(view, legal, info)

    tables.agents = [[Spy(g, a) for a in row] for g, row in enumerate(original)]  # type: ignore[misc]
    play(tables, 300)
    assert played and all(seat != learner for _, seat, learner in played)


def test_a_game_that_ends_gives_its_results_and_is_dealt_again() -> None:
    tables = AgentTables(2, GameConfig(players=4, round_limit=2))
    steps = play(tables, 400)
    ended = [(g, r) for _, _, _, reward, done in steps for g in np.flatnonzero(done) for r in [reward[g]]]
    assert len(ended) >= 2
    for _, reward in ended:  # win_loss: +1 for a sole winner, the others lose; zero-sum
        assert reward.max() > 0 and abs(float(reward.sum())) < 1e-6
    assert all(not done.any() or reward[done == 0].sum() == 0 for _, _, _, reward, done in steps)


def test_the_same_seed_deals_the_same_tables() -> None:
    a, b = play(AgentTables(2, CONFIG), 50), play(AgentTables(2, CONFIG), 50)
    for x, y in zip(a, b, strict=True):
        for u, v in zip(x, y, strict=True):
            np.testing.assert_array_equal(u, v)


def test_table_seats_change_owner_only_when_dealt() -> None:
    tables = AgentTables(3, CONFIG)
    tables.reset(0)
    seats = TableSeats(tables)
    owner = seats.owner.copy()
    assert (owner == LEARNER).sum(1).tolist() == [1, 1, 1]
    assert owner[np.arange(3), tables.learner_seat].tolist() == [LEARNER] * 3 and (owner == AGENT).sum() == 9
    tables.learner_seat[:] = (tables.learner_seat + 1) % 4  # as a new deal would
    np.testing.assert_array_equal(seats.owner, owner)
    seats.deal(np.array([1]))
    assert seats.owner[1, tables.learner_seat[1]] == LEARNER and (seats.owner[1] == LEARNER).sum() == 1
    np.testing.assert_array_equal(seats.owner[[0, 2]], owner[[0, 2]])


TABLES: dict[str, Any] = {
    "algorithm": "ppo-pool", "name": "tables", "seed": 3,
    "game": {"players": 4, "round_limit": 2},
    "opponents": {"learner_seats": 1, "mix": {"self": 1.0}, "snapshot_pool": 1, "table_games": 2},
    "network": {"first_width": 16, "hidden": [8]},
    "ppo": {"games": 4, "steps": 16, "epochs": 1, "minibatch": 32, "torch_threads": 1, "device": "cpu"},
    "eval": {"every_minutes": 0, "games": 4, "opponents": []},
    "run": {"decisions": 1500, "max_minutes": None, "progress_bar": False},
}


def table_config(tmp_path: Path, **over: Any) -> Any:
    return pool_config_from_dict(with_overrides(TABLES, {"output": str(tmp_path), **over}, "test"), "test")


def curve(path: Path) -> list[dict[str, str]]:
    clocked = {"elapsed", "wall", "decisions_per_s", "pool_s", "learner_s", "opponents_s", "update_s", "table_s"}
    with path.open() as handle:
        return [{k: v for k, v in row.items() if k not in clocked} for row in csv.DictReader(handle)]


def test_a_run_trains_on_the_tables_rows_and_counts_their_decisions(tmp_path: Path) -> None:
    trainer = PoolTrainer(table_config(tmp_path))
    final = trainer.run()
    rows = curve(final.parent / "curve.csv")
    assert all(int(r["table_rows"]) == 2 * 16 for r in rows)  # a learner row per table game a step
    pool_decisions = 4 * 16 * len(rows)
    assert trainer.state.decisions == pool_decisions + trainer.tables.decisions  # type: ignore[union-attr]
    assert trainer.tables.decisions > 2 * 16 * len(rows)  # type: ignore[union-attr]  # the agents' too
    assert any(r["table_win_rate"] for r in rows)  # some table games ended and were scored


def test_a_run_with_tables_is_reproduced_by_its_seed(tmp_path: Path) -> None:
    a = PoolTrainer(table_config(tmp_path / "a")).run()
    b = PoolTrainer(table_config(tmp_path / "b")).run()
    with np.load(a) as x, np.load(b) as y:
        for key in x.files:
            if key != "meta":
                np.testing.assert_array_equal(x[key], y[key])
    assert curve(a.parent / "curve.csv") == curve(b.parent / "curve.csv")


@pytest.mark.parametrize(("key", "value", "named"), [
    ("opponents.table_games", -1, "opponents.table_games"),
    ("opponents.table_agent", "no-such-bot", "opponents.table_agent"),
])
def test_bad_table_settings_are_named(tmp_path: Path, key: str, value: Any, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        table_config(tmp_path, **{key: value})
