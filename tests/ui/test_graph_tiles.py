"""Tiles: a big scene's items are held by region, and each tile holds its items as drawn."""

from __future__ import annotations

import gc
import itertools
from pathlib import Path

import numpy as np
import pytest
import shiboken6
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsItem
from pytestqt.qtbot import QtBot

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui import workers
from tapeviz.ui.graph import builder
from tapeviz.ui.graph.items import EdgeItem, NodeItem
from tapeviz.ui.graph.tiles import TILE, Tile
from tapeviz.ui.graph.view import GraphView


def chain(n: int) -> tv.GradientTape:
    """``n`` ops alternating ``* 1.0001`` and ``+ 0.001`` (constants: many nodes)."""
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = x
        for i in range(n):
            y = y * 1.0001 if i % 2 == 0 else y + 0.001
    tape.gradient(y, x)
    return tape


@pytest.fixture
def tiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes over 300 nodes are tiled (a 3,000-node graph is slow to build in a test)."""
    monkeypatch.setattr(builder, "TILED_MIN", 300)


def shown(qtbot: QtBot, view: GraphView, model: GraphModel) -> GraphView:
    """``view`` showing ``model`` built in full, no job left in the pool."""
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(model)
    workers.wait_all()
    qtbot.waitUntil(lambda: view._filling is None, timeout=30_000)
    return view


def drawn(item: QGraphicsItem) -> QRectF:
    """What the item draws, with its children, in its parent's coordinates."""
    return item.mapRectToParent(item.boundingRect().united(item.childrenBoundingRect()))


def outside(view: GraphView) -> list[QGraphicsItem]:
    """The nodes and edges not inside their tile's rectangle."""
    items: list[QGraphicsItem] = [*view.items.values(), *view.edge_items]
    return [it for it in items if not it.parentItem().rect().contains(drawn(it))]


def test_a_big_scene_holds_its_items_in_tiles_that_contain_them(
    qtbot: QtBot, tiled: None, graph_view: GraphView
) -> None:
    view = shown(qtbot, graph_view, GraphModel([chain(400)]))
    scene = view.scene()
    tiles = [it for it in scene.items() if isinstance(it, Tile)]
    assert tiles and all(it.parentItem() is None for it in tiles)
    assert all(isinstance(it.parentItem(), Tile) for it in view.items.values())
    assert all(isinstance(it.parentItem(), Tile) for it in view.edge_items)
    assert outside(view) == []
    top = [it for it in scene.items() if it.parentItem() is None]
    assert len(top) < len(view.items) / 4  # a paint visits the tiles, then those in view
    for tile in tiles:  # one region each, edges' tiles under nodes' tiles
        kinds = {type(it) for it in tile.childItems()}
        assert kinds in ({NodeItem}, {EdgeItem})
        assert tile.zValue() == (1.0 if kinds == {NodeItem} else 0.0)
        assert tile.rect().width() < 2 * TILE + 400  # (an edge may reach into the next one)
    # the tiles' Python objects live with the view: dropping every other one deletes nothing
    del tiles, top, tile
    gc.collect()
    qtbot.wait(20)
    assert all(shiboken6.isValid(it) for it in view.items.values())


def test_a_tiled_scene_replaced_is_deleted_with_its_tiles(
    qtbot: QtBot, tiled: None, graph_view: GraphView
) -> None:
    view = shown(qtbot, graph_view, GraphModel([chain(400)]))
    old_scene = view.scene()
    old_items = [*view.items.values(), *view.edge_items]
    old_tiles = [it for it in old_scene.items() if isinstance(it, Tile)]
    gone: list[bool] = []
    old_scene.destroyed.connect(lambda: gone.append(True))
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(300)]))  # fewer ops: a new scene, tiled too
    qtbot.waitUntil(lambda: bool(gone), timeout=20_000)
    assert not any(shiboken6.isValid(it) for it in [*old_items, *old_tiles])
    assert all(shiboken6.isValid(it) for it in view.items.values())
    assert all(isinstance(it.parentItem(), Tile) for it in view.items.values())


def test_a_small_scene_has_no_tiles(qtbot: QtBot, graph_view: GraphView) -> None:
    view = shown(qtbot, graph_view, GraphModel([chain(40)]))
    assert all(it.parentItem() is None for it in view.items.values())
    assert not any(isinstance(it, Tile) for it in view.scene().items())


def test_tiles_grow_with_what_their_items_draw_later(
    qtbot: QtBot, tiled: None, graph_view: GraphView
) -> None:
    """A wider box (a long gradient), the stepper's tick and edge labels stay inside."""
    view = shown(qtbot, graph_view, GraphModel([chain(400)]))
    view.show_visible_text()
    nodes = list(view.items.values())
    for item in nodes[::7]:
        item.set_gradient(np.arange(12.0) * 1000.5)  # a much wider "∂ = [...]" line
    for item in nodes[::5]:
        item.state = "done"  # the tick stands above the box's corner
    assert outside(view) == []
    for item in nodes[1::5]:  # marked first, then wider: the tick moves to the new corner
        item.state = "done"
        item.set_gradient(np.arange(12.0) * 2000.5)
    assert outside(view) == []
    view.set_edge_labels(True)
    assert outside(view) == []


def test_a_tiled_scene_shrinking_is_built_anew(
    qtbot: QtBot, tiled: None, graph_view: GraphView
) -> None:
    """Not updated in place: its tiles would keep the reach of the nodes that went."""
    view = shown(qtbot, graph_view, GraphModel([chain(400)]))
    old = view.scene()
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(380)]))  # the same ids, 40 nodes fewer
    qtbot.waitUntil(lambda: view._filling is None, timeout=30_000)
    assert view.scene() is not old
    nodes = QRectF()
    for item in view.items.values():
        nodes = nodes.united(item.sceneBoundingRect())
    content = view.scene().itemsBoundingRect()
    assert content.width() < nodes.width() + 100  # no blank stretch for a fit or an export


def test_a_click_reaches_a_node_through_its_tile(
    qtbot: QtBot, tiled: None, graph_view: GraphView
) -> None:
    view = shown(qtbot, graph_view, GraphModel([chain(400)]))
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    item = next(it for it in view.items.values() if seen.contains(it.sceneBoundingRect()))
    at: QPoint = view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert item.isSelected()
    # a click on the empty part of a tile (under it: nothing but tiles) clears the selection
    tile = item.parentItem().rect().intersected(seen)
    spots = [tile.topLeft() + QPointF(tile.width() * i / 20, tile.height() * j / 20)
             for i in range(1, 20) for j in range(1, 20)]  # fmt: skip
    empty = next(p for p in spots if all(isinstance(it, Tile) for it in view.scene().items(p)))
    assert view.scene().items(empty)  # (inside a tile)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(empty))
    assert not item.isSelected()


def test_a_tiled_scene_exports_every_node(
    qtbot: QtBot, tiled: None, tmp_path: Path, graph_view: GraphView
) -> None:
    from PySide6.QtGui import QImage

    view = shown(qtbot, graph_view, GraphModel([chain(400)]))
    image = QImage(str(view.export_png(tmp_path / "g.png", scale=0.25)))
    background = image.pixelColor(0, 0)
    drawn_columns = [
        x for x in range(0, image.width(), 25)
        if any(image.pixelColor(x, y) != background for y in range(image.height()))
    ]  # fmt: skip
    # every part of the chain is drawn: no stretch of 100 px (400 scene units) left blank
    assert drawn_columns[0] < 100 and drawn_columns[-1] > image.width() - 100
    assert all(b - a <= 100 for a, b in itertools.pairwise(drawn_columns))
