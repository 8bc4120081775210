"""The drawn board as SVG (tribune_env.board): well-formed, complete, addressable, and never showing a seat what
its view hides."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths import ROOT
from slow_marks import slow_except_values

from tribune_env import Game
from tribune_env.board import BOARD_HEIGHT, BOARD_WIDTH, board_svg
from tribune_env.data import Faction, Official, Region
from tribune_env.engine.view import HIDDEN, player_view

NS = "{http://www.w3.org/2000/svg}"
GAMES = {
    "base4": {"players": 4},
    "base2": {"players": 2},
    "expansion4": {"players": 4, "expansion": True},
    "brutii5": {"players": 5, "expansion": True, "brutii": True},
    "points3": {"players": 3, "point_variant": True},
}


def positions(options: dict[str, object], seed: int, every: int = 40) -> Iterator[Game]:
    """A random game, yielded every ``every`` decisions and at its end."""
    game = Game.new(seed=seed, **options)
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        if step % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    yield game


def groups(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{NS}g"))


def by_class(svg: str, cls: str) -> list[ET.Element]:
    return [g for g in groups(svg) if cls in g.get("class", "").split()]


def ids(svg: str) -> set[str]:
    return {e.get("id", "") for e in ET.fromstring(svg).iter()} - {""}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_svg_is_well_formed_and_complete(name: str) -> None:
    options = GAMES[name]
    seen_cards = False
    for game in positions(options, seed=3):
        t = game.tables
        for viewer in (None, 0):
            svg = board_svg(game, viewer)
            root = ET.fromstring(svg)
            assert root.tag == f"{NS}svg"
            assert (root.get("width"), root.get("height")) == (str(BOARD_WIDTH), str(BOARD_HEIGHT))
            found = ids(svg)
            assert {"status", "victory", "chariot", "proconsul"} <= found
            assert {f"region-{r.key}" for r in t.regions} <= found
            assert {f"faction-{f.key}" for f in Faction} <= found
            assert {f"player-{s}" for s in range(game.num_players)} <= found
            spaces = by_class(svg, "space")
            assert sorted(int(g.get("data-space-id", "-1")) for g in spaces) == list(range(len(t.spaces)))
            for g in spaces:
                space = int(g.get("data-space-id", "-1"))
                assert g.get("data-space") == t.spaces[space].label
                assert int(g.get("data-occupant", "")) == game.position().spaces[space]
            assert len(by_class(svg, "progress")) == game.num_players
            seen_cards = seen_cards or bool(by_class(svg, "card"))
        if options.get("expansion"):
            svg = board_svg(game)
            assert {o.name.lower() for o in Official} == {g.get("data-official") for g in by_class(svg, "official")}
            assert {f"region-{r.key}" for r in Region if r.expansion} <= ids(svg)
        if options.get("brutii"):
            assert "(Brutii)" in board_svg(game)
    assert seen_cards


def test_words_not_internal_ids() -> None:
    game = next(positions(GAMES["base4"], seed=1, every=30))
    svg = board_svg(game)
    text = " ".join(e.text or "" for e in ET.fromstring(svg).iter(f"{NS}text"))
    assert "Field of Mars" in text and "Vestal Virgins" in text and "Victory card" in text
    assert "field_of_mars" not in text and "card_" not in text


def test_cards_are_addressable_and_counted() -> None:
    """Every card a seat holds is drawn in its hand, face up for its owner, face down for the others."""
    for game in positions(GAMES["base4"], seed=5, every=60):
        state = game.position()
        for viewer in range(game.num_players):
            svg = board_svg(game, viewer)
            hand = [g for g in by_class(svg, "card") if g.get("data-where") == "hand" and g.get("data-card")]
            mine = sorted(g.get("data-card", "") for g in hand if g.get("data-seat") == str(viewer))
            held = state.players[viewer].hand
            assert mine == sorted(state.tables.card_label[c] for c, n in enumerate(held) for _ in range(n))
            assert all(g.get("data-seat") == str(viewer) for g in hand)  # nobody else's hand face up
            view = player_view(state, viewer)
            hidden = [g for g in by_class(svg, "hidden") if g.get("data-where") == "hand"]
            assert len(hidden) == sum(p.hand_size for s, p in enumerate(view.players) if s != viewer)


def test_highlight_marks_elements() -> None:
    game = Game.new(players=3, seed=2)
    space = game.tables.spaces[0].label
    svg = board_svg(game, 0, highlight=[space, "gladiators"])
    marked = [g for g in groups(svg) if "hl" in g.get("class", "").split()]
    assert {g.get("data-space") or g.get("data-faction") for g in marked} == {space, "gladiators"}
    assert "hl" not in " ".join(g.get("class", "") for g in groups(board_svg(game, 0)))


def test_bad_arguments_are_named() -> None:
    game = Game.new(players=3, seed=2)
    with pytest.raises(ValueError, match=r"viewer must be a seat in 0\.\.2"):
        board_svg(game, 3)
    with pytest.raises(TypeError, match="expected a Game or a GameState"):
        board_svg("game")  # type: ignore[arg-type]


# -- the leak test -----------------------------------------------------------------------------------------------


def swap_hidden(game: Game, viewer: int) -> Game | None:
    """A copy of ``game`` that differs only in what ``viewer`` may not see: a card of another seat's hand, and a
    card of each face-down field ``viewer`` may not see, exchanged with different cards of the draw pile."""
    other = game.clone()
    state = other.python_state()
    draw = state.draw
    view = player_view(state, viewer)
    changed = False
    for seat, player in enumerate(state.players):
        if seat == viewer:
            continue
        held = next((c for c, n in enumerate(player.hand) if n), None)
        j = next((i for i, d in enumerate(draw) if held is not None and d != held), None)
        if held is not None and j is not None:
            player.hand[held] -= 1
            player.hand[draw[j]] += 1
            draw[j] = held
            changed = True
    for r, fields in enumerate(state.fields):
        for f, field in enumerate(fields):
            if field and view.board[r][f][0] == HIDDEN:
                j = next((i for i, d in enumerate(draw) if d != field[0]), None)
                if j is not None:
                    field[0], draw[j] = draw[j], field[0]
                    changed = True
    return other if changed else None


@pytest.mark.parametrize("name", slow_except_values(["base4", "expansion4", "brutii5"], quick=["base4", "brutii5"]))
def test_a_seat_sees_nothing_hidden(name: str) -> None:
    """Two games that differ only in what a seat may not see draw the same for that seat, and differently for the
    omniscient drawing (so the swap did change something)."""
    compared = 0
    for game in positions(GAMES[name], seed=11, every=25):
        for viewer in range(game.num_players):
            twin = swap_hidden(game, viewer)
            if twin is None:
                continue
            assert board_svg(twin, viewer) == board_svg(game, viewer)
            assert board_svg(twin) != board_svg(game)
            compared += 1
    assert compared > 10


def test_board_imports_only_the_engine_side() -> None:
    """tribune_env.board reads the engine, data and codec: nothing from the environments, agents or training."""
    import ast

    folder = ROOT / "tribune_env" / "board"
    files = sorted(folder.glob("*.py"))
    assert len(files) >= 4
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                above = ("tribune_env.envs", "agents", "tribune_arena", "training", "gymnasium", "pettingzoo")
                assert not name.startswith(above), (
                    f"{path.name} imports {name}"
                )


def test_docs_pictures_of_the_board() -> None:
    """README shows docs/board.png; both pictures are small PNG files."""
    docs = ROOT / "docs"
    for name in ("board.png", "board-expansion.png"):
        data = (docs / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and 10_000 < len(data) < 300_000
    assert "(docs/board.png)" in (docs.parent / "README.md").read_text(encoding="utf-8")


def test_tribune_board_draws_a_played_position_and_names_bad_input(tmp_path: Path) -> None:
    """``tribune board``: a seeded position as SVG for a seat (other hands face down), errors with exit status 2."""
    import xml.etree.ElementTree as ET

    from tribune_cli.main import main

    out = tmp_path / "b.svg"
    assert main(["board", "--seed", "3", "--round", "2", "--after", "2", "--viewer", "1", "--out", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    hands = [g for g in root.iter() if g.get("data-where") == "hand"]
    assert hands and all(g.get("data-seat") == "1" for g in hands if "hidden" not in (g.get("class") or ""))
    assert main(["board", "--viewer", "9", "--out", str(out)]) == 2
    assert main(["board", "--out", str(tmp_path / "b.gif")]) == 2
    assert main(["board", "--position", str(tmp_path / "missing.json"), "--out", str(out)]) == 2
    assert main(["board", "--agent", "nobody", "--out", str(out)]) == 2
