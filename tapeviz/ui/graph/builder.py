"""The scene builder: a planned graph's items, in slices for a big graph, in view first.

:class:`SceneBuilder` turns a :class:`~tapeviz.ui.graph.scene.Plan` into items on the UI thread,
a slice per event-loop turn, and hands the scene to its ``on_built`` callback (the view swaps it
in whole). A big graph given a ``near`` rectangle (where the view will look) is built in two
parts: the nodes there and the edges between them first, handed over as soon as they are made
(the graph is on screen), then the rest into the same scene, slice by slice, and
``on_filled(frames)`` when every item is there. The builder knows nothing of the view: it gets
the model, the look and the items' previous places.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF
from PySide6.QtWidgets import QGraphicsScene

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.items import EdgeItem, GroupItem, NodeItem
from tapeviz.ui.graph.scene import (
    BUILD_SLICE_S,
    LAZY_TEXT,
    Built,
    Look,
    Plan,
    frame_groups,
    make_edge,
    named_frames,
    plan_ports,
    planned_extent,
)
from tapeviz.ui.graph.tiles import TILED_MIN, Tiles
from tapeviz.ui.turns import later

Port = tuple[str, Any, int, int]  # (target, model edge, port, ports)
NODE_Z, EDGE_Z = 1.0, 0.0  # the tiles' stacking: edges under nodes (as their items' own z)


class SceneBuilder:
    """Builds a planned graph into a fresh scene, in slices for big graphs, then hands it over.

    ``old`` holds the nodes' current places (new items start there and the view animates them
    to the plan); ``on_built`` receives the :class:`Built` scene unless :meth:`cancel` came first.
    With ``near``, the nodes planned inside it come first and the scene is handed over with
    only them (``Built.partial``); ``on_filled`` follows.
    """

    def __init__(
        self,
        plan: Plan,
        model: GraphModel,
        look: Look,
        old: dict[str, QPointF],
        on_built: Callable[[Built], None],
        parent: QObject | None = None,
        near: QRectF | None = None,
        on_filled: Callable[[list[GroupItem]], None] | None = None,
    ) -> None:
        self.plan, self.model, self.look, self.old = plan, model, look, old
        self.on_built, self.on_filled = on_built, on_filled
        self.scene = QGraphicsScene(parent)
        # no BSP index: indexing every added item (and re-indexing as the scene grows) is what
        # made big graphs slow; a scene of a few thousand items is searched fast enough linearly
        self.scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.items: dict[str, NodeItem] = {}
        self.edges: list[EdgeItem] = []
        self.cancelled = False
        self.handed = False  # on_built was called (with part of the graph, or all of it)
        self.filled = False  # every item is made
        self._near = near if on_filled is not None else None
        self._later: tuple[list[Any], list[Port]] | None = None
        self._todo_nodes: list[Any] = []
        self._todo_edges: list[Port] = []
        self.prepared = False  # the work is listed (see _prepare)
        self.total = len(plan.nodes) + len(model.edges)
        self.lazy_text = len(plan.nodes) > LAZY_TEXT
        # a big scene's items in tiles: a paint (and a hit test) skips the tiles out of view
        self.tiles = Tiles(self.scene) if len(plan.nodes) > TILED_MIN else None
        self.slices = 0  # event-loop turns the build took (1 when built at once)

    def _prepare(self) -> None:
        """List the nodes and edges to build: with ``near``, those inside it first."""
        self.prepared = True
        plan, model, lay, near = self.plan, self.model, self.plan.layout, self._near
        ports: list[Port] = plan_ports(plan, model)
        nodes = list(plan.nodes.items())
        if near is not None:
            x0, y0, x1, y1 = near.left(), near.top(), near.right(), near.bottom()
            inside = {
                nid for nid, (x, y) in lay.positions.items() if x0 <= x <= x1 and y0 <= y <= y1
            }
            if 0 < len(inside) < len(nodes):
                now: tuple[list[Any], list[Port]] = ([], [])
                later: tuple[list[Any], list[Port]] = ([], [])
                for pair in nodes:
                    (now if pair[0] in inside else later)[0].append(pair)
                for e in ports:
                    (now if e[0] in inside and e[1].source in inside else later)[1].append(e)
                self._later = later
                nodes, ports = now
        self._load(nodes, ports)

    def _load(self, nodes: list[Any], ports: list[Port]) -> None:
        self._todo_nodes, self._todo_edges = nodes[::-1], ports[::-1]  # popped from the end

    @property
    def progress(self) -> float:
        """How much of the scene is built, 0 to 1."""
        return (len(self.items) + len(self.edges)) / self.total if self.total else 1.0

    def cancel(self) -> None:
        """Stop building (a newer plan replaces this one); no callback is called after."""
        self.cancelled = True

    def run(self, chunked: bool) -> None:
        """Build everything now, or a slice per event-loop turn (the UI stays responsive).

        In slices, the end of a part (``on_built``: the view swaps the scene in, restyles and
        fits it; ``on_filled``: frames, detail, the last styling) gets a turn of its own, not
        the one of the part's last slice. Listing a big graph's work (tens of thousands of
        nodes and edges sorted by place) also gets the first slice's turn, not the caller's.
        """
        if not self.prepared:
            if chunked:
                self._later_turn(self._prepare_and_continue)
                return
            self._prepare()
        self.slices += 1
        if self._step(BUILD_SLICE_S if chunked else float("inf")):
            self._later_turn(self._continue)
            return
        if chunked:
            self._later_turn(self._hand_over)
            return
        self._part_done()
        if self._todo_nodes or self._todo_edges:  # the rest of a graph handed over in part
            self._later_turn(self._continue)

    def _prepare_and_continue(self) -> None:
        if not self.cancelled and not self.filled:
            if not self.prepared:
                self._prepare()
            self.run(chunked=True)

    def complete(self) -> None:
        """Build whatever is left now (an export draws the whole graph)."""
        if not self.prepared:
            self._prepare()
        while not self.cancelled and not self.filled:
            self._step(float("inf"))
            self._part_done()

    def _part_done(self) -> None:
        lay, later = self.plan.layout, self._later
        if not self.handed:
            self.handed = True
            if later is not None:  # the part in view first: the rest follows
                self._later = None
                self._load(*later)
                box = planned_extent(self.plan)
                self.on_built(Built(self.scene, self.items, self.edges, [], lay, self.old,
                                    self.look, box, True, self.tiles))  # fmt: skip
                return
            self.filled = True
            groups = self._frame_groups() if self.look.groups else []
            box = planned_extent(self.plan)
            self.on_built(Built(self.scene, self.items, self.edges, groups, lay, self.old,
                                self.look, box, False, self.tiles))  # fmt: skip
            return
        self.filled = True
        if self.on_filled is not None:
            self.on_filled(self._frame_groups() if self.look.groups else [])

    def _later_turn(self, then: Callable[[], None]) -> None:
        """Call ``then`` on an event-loop pass of its own (:mod:`tapeviz.ui.turns`).

        Not with the scene deleted meanwhile (a newer graph replaced this one).
        """
        later(then, self.scene)

    def _hand_over(self) -> None:
        if not self.cancelled and not self.filled:
            self._part_done()
            if not self.filled and (self._todo_nodes or self._todo_edges):  # the rest, by slices
                self._later_turn(self._continue)

    def _continue(self) -> None:
        if not self.cancelled and not self.filled:
            self.run(chunked=True)

    def _step(self, seconds: float) -> bool:
        """Create items for about ``seconds``; True while work remains in this part."""
        try:
            return self._make(seconds)
        finally:
            if self.tiles is not None:
                self.tiles.fit()  # the tiles given items hold them

    def _make(self, seconds: float) -> bool:
        look, lay, grads, tiles = self.look, self.plan.layout, self.model.gradients, self.tiles
        sizes, end = self.plan.sizes, time.perf_counter() + seconds
        old = {} if self.handed else self.old  # the rest appears in place (no animation)
        n = 0
        while self._todo_nodes:
            n += 1
            if n % 25 == 0 and time.perf_counter() > end:
                return True
            nid, node = self._todo_nodes.pop()
            item = NodeItem(node, look.theme, look.scale, grads.get(nid), sizes.get(nid),
                            self.lazy_text)  # fmt: skip
            x, y = lay.positions[nid]
            item.setPos(old.get(nid, QPointF(x, y)))
            if tiles is None:
                self.scene.addItem(item)
            else:
                tiles.add(item, x, y, NODE_Z)
            self.items[nid] = item
        while self._todo_edges:
            n += 1
            if n % 25 == 0 and time.perf_counter() > end:
                return True
            target, e, port, ports = self._todo_edges.pop()
            label = self.model.edge_label(e) if look.edge_labels else None
            edge = make_edge(self.items, target, e, port, ports, label, lay, look)
            if tiles is None:
                self.scene.addItem(edge)
            else:
                tiles.add(edge, *lay.positions[target], EDGE_Z)
            self.edges.append(edge)
        return False

    def _frame_groups(self) -> list[GroupItem]:
        named = named_frames(self.model)
        return frame_groups(self.scene, self.items, named, self.plan.layout, self.look)
