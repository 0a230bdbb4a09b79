"""Building the graph view's scene: the layout plan, the chunked scene builder, the banner.

:func:`plan_layout` runs in a worker thread for big graphs; :class:`SceneBuilder` turns its plan
into items on the UI thread, a chunk per event-loop turn, and swaps the new scene in whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QTimer, Signal
from PySide6.QtWidgets import QFrame, QGraphicsScene, QLabel, QPushButton, QVBoxLayout, QWidget

from tapeviz.models.graph import layout as layouts
from tapeviz.models.graph.model import FOLDED_OPS, Node
from tapeviz.ui.graph.items import EdgeItem, NodeItem, measure
from tapeviz.ui.theme import font

if TYPE_CHECKING:
    from tapeviz.ui.graph.view import GraphView

BUILD_CHUNK = 100  # items created per event-loop turn when building a big scene


@dataclass(frozen=True)
class Plan:
    """What a layout job hands back: the nodes it planned for, their sizes and places."""

    nodes: dict[str, Node]
    sizes: dict[str, tuple[float, float]]
    layout: layouts.Layout


def plan_layout(
    nodes: dict[str, Node],
    gradients: dict[str, Any],
    edges: list[tuple[str, str]],
    previous: dict[str, tuple[float, float]],
    scale: float,
    engine: str,
) -> Plan:
    """Measure every node and lay the graph out (runs in a worker thread for big graphs)."""
    sizes = {nid: measure(n, scale, gradients.get(nid)) for nid, n in nodes.items()}
    ids = list(nodes)
    if engine == "layered":
        lay = layouts.layered(ids, edges, sizes, previous or None)
    else:
        lay = layouts.ENGINES[engine](ids, edges, sizes)
    return Plan(nodes, sizes, lay)


class TooLargeBanner(QFrame):
    """Shown instead of a graph too large to draw: says so and offers the folded view."""

    fold = Signal()

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        self.setObjectName("graphTooLarge")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(self)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setFont(font(12))
        self.button = QPushButton(self.tr("Show folded view"), self)
        self.button.setObjectName("showFoldedButton")
        self.button.clicked.connect(self.fold)
        box.addWidget(self.label)
        box.addWidget(self.button)
        self.hide()

    def show_for(self, ops: int) -> None:
        """Show the banner for a tape of ``ops`` ops (hide it when ``ops`` is 0)."""
        if not ops:
            self.hide()
            return
        self.label.setText(
            self.tr(
                "This tape recorded {n} ops: too many to draw in full. The folded view shows "
                "the first and last {k} ops and one summary node for the middle."
            ).format(n=f"{ops:,}", k=FOLDED_OPS // 2)
        )
        self.setGeometry(20, 20, min(520, max(320, self.parentWidget().width() - 40)), 140)
        self.show()
        self.raise_()


class SceneBuilder:
    """Builds a planned graph into a fresh scene, in chunks for big graphs, then swaps it in."""

    def __init__(self, view: GraphView, plan: Plan) -> None:
        self.view, self.plan = view, plan
        self.scene = QGraphicsScene(view)
        self.items: dict[str, NodeItem] = {}
        self.edges: list[EdgeItem] = []
        self.old = {nid: it.pos() for nid, it in view.items.items()}
        model = view.model
        assert model is not None
        self.model = model
        self._todo_nodes = list(plan.nodes.items())
        incoming: dict[str, list[Any]] = {}
        for e in model.edges:
            incoming.setdefault(e.target, []).append(e)
        self._todo_edges = list(incoming.items())

    def run(self, chunked: bool) -> None:
        """Build everything now, or a chunk per event-loop turn (the UI stays responsive)."""
        while self._step(BUILD_CHUNK if chunked else 10**9):
            if chunked:
                QTimer.singleShot(0, self._continue)
                return
        self._finish()

    def _continue(self) -> None:
        if self.view._builder is self:
            self.run(chunked=True)

    def _step(self, budget: int) -> bool:
        """Create up to ``budget`` items; True while work remains."""
        view, lay, grads = self.view, self.plan.layout, self.model.gradients
        while self._todo_nodes and budget > 0:
            nid, node = self._todo_nodes.pop(0)
            item = NodeItem(node, view.theme, view.font_scale, grads.get(nid))
            x, y = lay.positions[nid]
            item.setPos(self.old.get(nid, QPointF(x, y)))
            self.scene.addItem(item)
            self.items[nid] = item
            budget -= 1
        while not self._todo_nodes and self._todo_edges and budget > 0:
            target, edges = self._todo_edges.pop(0)
            # ports top to bottom in the order of their sources: inputs never cross at the node
            edges.sort(key=lambda e: (lay.positions[e.source][1], e.position))
            for port, e in enumerate(edges):
                edge = EdgeItem(
                    self.items[e.source], self.items[target], port, len(edges), view.theme
                )
                edge.input_position = e.position
                edge.route = [QPointF(*p) for p in lay.routes.get((e.source, target), ())]
                edge.model_edge = e
                if view.show_edge_labels:
                    edge.set_label(self.model.edge_label(e))
                self.scene.addItem(edge)
                self.edges.append(edge)
                budget -= 1
        return bool(self._todo_nodes or self._todo_edges)

    def _finish(self) -> None:
        view, lay = self.view, self.plan.layout
        view._builder = None
        view._add_groups(lay, self.scene, self.items)
        self.scene.setSceneRect(QRectF(-40, -40, lay.width + 80, lay.height + 80))
        view._swap_scene(self.scene, self.items, self.edges, lay)
        view._animate_to(lay, self.old)
        if not view._fitted:
            view.fit()
            view._fitted = True
        view._update_detail()
        view.layoutFinished.emit()
