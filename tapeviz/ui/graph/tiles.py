"""Tiles: a big scene's nodes and edges held by the region of the scene they are in.

A scene without an index (indexing 40,000 items as they are built is what made big graphs
slow) is drawn by visiting every top-level item and its children: 35-40 ms per paint for a
10,000-op graph, with a dozen nodes in view. Held as children of a :class:`Tile` (a
``ItemContainsChildrenInShape`` rectangle that draws nothing), the items of a tile out of view
are skipped whole, in painting and in hit-testing: 1.5 ms per paint.

A tile's rectangle must hold its items as drawn: :meth:`Tiles.fit` measures the tiles a build
slice touched, and an item whose extent grows later (a wider box, the stepper's tick, an edge's
label) calls :func:`fit_tile`.

An untiled scene is searched by :class:`Boxes`: its nodes' planned boxes as arrays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsScene

TILE = 1600.0  # scene units (a 1366x768 window's graph shows one or two tiles at 100 %)
PAD = 8.0  # around what a tile holds: a thicker pen (a glowing edge at scale 3) stays inside
TILED_MIN = 3000  # nodes: a scene this big is tiled (never updated in place with moves)


class Tile(QGraphicsRectItem):
    """An invisible rectangle whose children are the items of one region of the scene.

    Not ``ItemHasNoContents``: Qt would then not test the tile against the exposed region and
    would visit its children anyway.
    """

    def __init__(self, z: float) -> None:
        super().__init__()
        self.setPen(Qt.PenStyle.NoPen)
        self.setBrush(Qt.BrushStyle.NoBrush)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemContainsChildrenInShape)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(z)  # edges' tiles under nodes' tiles, as the items were

    def include(self, item: QGraphicsItem) -> None:
        """Grow the rectangle to hold ``item`` (one of the tile's children) as drawn now."""
        r = item.mapRectToParent(item.boundingRect().united(item.childrenBoundingRect()))
        rect = self.rect()
        if not rect.contains(r):
            self.setRect(rect.united(r.adjusted(-PAD, -PAD, PAD, PAD)) if not rect.isNull()
                         else r.adjusted(-PAD, -PAD, PAD, PAD))  # fmt: skip

    def fit(self) -> None:
        """Measure everything the tile holds (after a slice added items to it)."""
        self.setRect(self.childrenBoundingRect().adjusted(-PAD, -PAD, PAD, PAD))


def fit_tile(item: QGraphicsItem) -> None:
    """After ``item`` grew: the tile holding it (if any) grows to hold it."""
    tile = item.parentItem()
    if isinstance(tile, Tile):
        tile.include(item)


class Tiles:
    """The tiles of one scene, made as items are placed in them; nodes' and edges' apart.

    Whoever shows the scene keeps this object (its tiles' Python objects) until the scene is
    deleted: a tile whose Python object went could come back from ``scene.items()`` as a new
    one that Python owns, and deleting that one deleted the tile with all its items.
    """

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.tiles: dict[tuple[float, int, int], Tile] = {}
        self._touched: dict[Tile, None] = {}

    def add(self, item: QGraphicsItem, x: float, y: float, z: float) -> None:
        """Put ``item`` (drawn around scene point x, y) in its tile of stacking order ``z``."""
        key = (z, math.floor(x / TILE), math.floor(y / TILE))
        tile = self.tiles.get(key)
        if tile is None:
            tile = self.tiles[key] = Tile(z)
            self.scene.addItem(tile)
        item.setParentItem(tile)
        self._touched[tile] = None

    def all(self) -> list[Tile]:
        """Every tile made so far."""
        return list(self.tiles.values())

    def fit(self) -> None:
        """Measure the tiles items were added to since the last call."""
        for tile in self._touched:
            tile.fit()
        self._touched.clear()


class Boxes:
    """Nodes' boxes at their planned places, as arrays: those meeting a rect in ~0.2 ms.

    Qt's search of an untiled scene visits every item and child (12-40 ms at 1,000 ops); each
    item's own box, ~6 ms. A node whose box grew since keeps its planned box here.
    """

    def __init__(self, items: Mapping[str, Any], places: Mapping[str, tuple[float, float]]) -> None:
        self.items = list(items.values())
        n = len(self.items)
        xy = np.array([places.get(it.node.id) or it.pos().toTuple() for it in self.items])
        wh = np.array([it.size() for it in self.items], dtype=float)
        self.xy, self.wh = xy.reshape(n, 2).astype(float), wh.reshape(n, 2)
        self.low, self.high = self.xy - self.wh / 2, self.xy + self.wh / 2

    def centred(self) -> list[list[float]]:
        """Each node's [x, y, width, height], x and y its centre (in the items' order)."""
        return np.hstack((self.xy, self.wh)).tolist()

    def meeting(self, rect: QRectF) -> list[Any]:
        """The items whose boxes overlap ``rect`` (in the scene), in their order."""
        low, high = self.low, self.high
        hit = (low[:, 0] < rect.right()) & (high[:, 0] > rect.left())
        hit &= (low[:, 1] < rect.bottom()) & (high[:, 1] > rect.top())
        return [self.items[i] for i in np.flatnonzero(hit)]
