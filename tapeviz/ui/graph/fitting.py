"""How the graph view is zoomed and scrolled: fitted (and kept fitted), or the lecturer's own.

The view follows the presenter scale as a browser's zoom does: its text grows with the scale.
Fit enlarges a small graph (up to :data:`FIT_MAX`) and shrinks a big one, but never below its
natural size (:data:`FIT_MIN`), where node text is as large as the panels' text; a graph that
no longer fits first gets a compact layout, then scrolls, its view starting at the target's end
and never halfway through a node. A fitted view is fitted again when the graph changes shape
or the view resizes, until the lecturer zooms or pans. "Show the whole graph" (W) fits it
however small (down to :data:`WHOLE_MIN`), centred, and stays so (edits, resizes, a new
presenter scale) until Fit (F), a zoom or a pan.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsScene, QWidget

from tapeviz.models.graph.layout import COMPACT_GAPS, H_GAP
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.items import NodeItem
from tapeviz.ui.graph.scene import Plan

FIT_MIN = 1.0  # Fit never shrinks the graph below its natural size (the presenter's text size)
FIT_MAX = 1.5  # nor magnifies a small graph more than this
WHOLE_MIN = 0.05  # "Show the whole graph" shrinks down to this zoom
FIT_MARGIN = 16.0  # scene units kept around the graph when fitting
COMPACT_LIMIT = 300  # nodes: bigger graphs are not laid out a second time, compact

Point = tuple[float, float]


class FittedView(Protocol):
    """What the fitting reads and moves of its view (the graph view is one)."""

    model: GraphModel | None
    items: dict[str, NodeItem]
    engine: str

    def fit(self) -> None:
        """Fit the graph (the view's own method)."""

    def viewport(self) -> QWidget:
        """The viewport widget."""

    def scene(self) -> QGraphicsScene:
        """The scene shown."""

    def mapToScene(self, *args: Any) -> Any:
        """Viewport coordinates to the scene's."""

    def transform(self) -> QTransform:
        """The view's transform."""

    def setTransform(self, matrix: QTransform, combine: bool = False) -> None:
        """Set the view's transform."""

    def centerOn(self, *args: Any) -> None:
        """Scroll so that a point or item is in the middle."""


class Fitting:
    """The view's zoom state: fitted (``auto``) or the lecturer's, and what the next layout does."""

    def __init__(self, view: FittedView) -> None:
        self.view = view
        self.auto = True  # refit when the graph changes shape or the view resizes
        self.pending = True  # fit after the next layout, whatever its shape
        self.after = -1  # ... of the model's tapes after this generation (-1: any layout)
        self.shape: tuple = ()  # the graph's shape when it was last fitted
        self.anchor: str | None = None  # the node kept in the centre across a rescale
        self.restore: dict[str, Any] | None = None  # a view state for the next layout
        self.smallest = FIT_MIN  # the fit's least zoom: readable (Fit), or WHOLE_MIN (W)

    # -- what the next layout does ---------------------------------------------------------
    def request(self, new_tapes: bool = False) -> None:
        """Fit once the next layout is done; with ``new_tapes``, the next of the next run.

        A preset or a session being loaded asks for the latter: the graph on screen may be laid
        out again meanwhile (new settings), and it is not the one to fit.
        """
        self.auto = self.pending = True
        model = self.view.model
        self.after = model.generation if new_tapes and model is not None else -1

    def rescaled(self) -> None:
        """The presenter scale changed: refit a fitted view, else keep its centre node."""
        self.pending = self.auto
        self.anchor = None if self.auto else self.node_at_centre()

    def wants_compact(self, plan: Plan) -> bool:
        """Whether a fitted view should lay this plan out again with the compact gaps."""
        if plan.compact or not self._may_compact(plan):
            return False
        lay = plan.layout
        too_tall = (lay.height + 2 * FIT_MARGIN) * FIT_MIN > self.view.viewport().rect().height()
        return self._too_wide(lay.width) or too_tall

    def wide_anyway(self, compact: Plan) -> bool:
        """Whether ``compact``'s graph, laid out at its natural gaps, would want it instead.

        That layout is wider by the difference of the gaps between each two layers (its
        layers hold the same nodes), so its width is known without laying it out.
        """
        if not compact.compact or not self._may_compact(compact):
            return False
        lay = compact.layout
        rows = max(lay.layers.values(), default=0) + 1
        return self._too_wide(lay.width + (rows - 1) * (H_GAP - COMPACT_GAPS[0]))

    def _may_compact(self, plan: Plan) -> bool:
        """A fitted view of a layered graph small enough for a second layout."""
        view = self.view
        small = len(plan.nodes) <= COMPACT_LIMIT
        return view.engine == "layered" and small and (self.auto or self.pending)

    def _too_wide(self, width: float) -> bool:
        return (width + 2 * FIT_MARGIN) * FIT_MIN > self.view.viewport().rect().width()

    def after_layout(self) -> None:
        """A new scene is on screen: restore a carried view, fit, or keep the centre node."""
        view = self.view
        model = view.model
        asked = self.pending and (model is None or model.generation > self.after)
        if self.restore is not None:
            self.apply_restore()
        elif asked or (self.auto and (self.shape_now() != self.shape or not self.fits())):
            self.pending = False
            view.fit()  # the view's own method: what it does may be replaced (tests)
        elif self.anchor in view.items:
            view.centerOn(view.items[self.anchor])
        self.anchor = None

    # -- state carried across a rebuilt window ---------------------------------------------
    def state(self) -> dict[str, Any]:
        """Fitted (``auto``), or the lecturer's zoom and the scene point at the top left.

        The top left, not the middle: scroll bars that come or go move the middle, not it.
        """
        view = self.view
        corner = view.mapToScene(view.viewport().rect()).boundingRect().topLeft()
        return {"auto": self.auto, "whole": self.whole, "zoom": view.transform().m11(),
                "corner": (corner.x(), corner.y())}  # fmt: skip

    @property
    def whole(self) -> bool:
        """Whether the fit shows the whole graph however small (W), not only readable (F)."""
        return self.smallest < FIT_MIN

    def apply_restore(self) -> None:
        """Apply the carried view state (fit it if it was fitted)."""
        view, state, self.restore = self.view, self.restore, None
        if state is None or state.get("auto", True):
            self.smallest = WHOLE_MIN if state is not None and state.get("whole") else FIT_MIN
            view.fit()
            return
        zoom = min(max(float(state["zoom"]), 0.05), 8.0)
        view.setTransform(QTransform.fromScale(zoom, zoom))
        port = view.viewport().rect()
        x, y = state["corner"]
        view.centerOn(QPointF(x + port.width() / zoom / 2, y + port.height() / zoom / 2))
        self.auto = self.pending = False

    # -- fitting ---------------------------------------------------------------------------
    def shape_now(self) -> tuple:
        """What makes two graphs the same for fitting: their nodes' ids and labels, edges.

        The model's outline, found with its nodes (off the UI thread for a big graph).
        """
        model = self.view.model
        return model.outline if model is not None else ()

    def content(self, scene: Any = None) -> QRectF:
        """The graph's bounding box with the fit's margin (of the view's scene, or ``scene``).

        The planned nodes' boxes when known: after a layout moved the items, Qt measuring them
        took 16-40 ms at 1,000 ops (and a big graph built in part has no items for the rest).
        """
        m = FIT_MARGIN
        extent = getattr(self.view, "extent", None)
        if extent is not None:
            return QRectF(extent).adjusted(-m, -m, m, m)
        scene = self.view.scene() if scene is None else scene
        return scene.itemsBoundingRect().adjusted(-m, -m, m, m)

    def boxes(self) -> list[list[float]]:
        """Each node's [x, y, width, height] at its planned place (x, y: its centre)."""
        return self.view.planned_boxes().centred()

    def fits(self) -> bool:
        """Whether the whole graph is in view at the current zoom."""
        view = self.view
        seen = view.mapToScene(view.viewport().rect()).boundingRect()
        return seen.adjusted(-1, -1, 1, 1).contains(self.content())

    def fit_to(self, smallest: float) -> None:
        """Zoom to fit (not below ``smallest``) and scroll as the module docstring says."""
        view = self.view
        self.pending, self.auto, self.anchor, self.after = False, True, None, -1
        self.smallest = smallest
        self.shape = self.shape_now()
        rect = self.content()
        if rect.isEmpty():
            return
        port = view.viewport().rect()
        end = self.end_point(rect)
        boxes = self.boxes()
        z, x, y = fit_view(
            (rect.left(), rect.top(), rect.width(), rect.height()),
            (port.width(), port.height()), (end.x(), end.y()), smallest, FIT_MAX, boxes,
            FIT_MARGIN,
        )  # fmt: skip
        view.setTransform(QTransform.fromScale(z, z))
        fits = rect.width() * z <= port.width() + 0.5 and rect.height() * z <= port.height() + 0.5
        if fits:  # no scroll bars for a graph the view shows whole
            view.scene().setSceneRect(rect)
        else:  # room to scroll a node past each side: the view starts at a node's edge
            w = max((b[2] for b in boxes), default=0.0) + FIT_MARGIN
            h = max((b[3] for b in boxes), default=0.0) + FIT_MARGIN
            view.scene().setSceneRect(rect.adjusted(-w, -h, w, h))
        view.centerOn(QPointF(x, y))

    def end_point(self, rect: QRectF) -> QPointF:
        """Where the target (else the last op) is planned: what a graph too large shows first."""
        view = self.view
        items = view.items.values()
        targets = [it for it in items if it.node.kind == "target"]
        chosen = targets or list(items)[-1:]
        if not chosen:
            return rect.center()
        places = view.layout.positions if view.layout is not None else {}
        place = places.get(chosen[-1].node.id)  # (the node may still be on its way there)
        return QPointF(*place) if place is not None else chosen[-1].pos()

    def node_at_centre(self) -> str | None:
        """The node nearest the middle of the view."""
        view = self.view
        centre = view.mapToScene(view.viewport().rect().center())
        best = min(view.items.items(), default=None,
                   key=lambda kv: (kv[1].pos() - centre).manhattanLength())  # fmt: skip
        return best[0] if best else None


def _clean_start(
    start: float,
    span: float,
    boxes: list[tuple[float, float]],
    keep: tuple[float, float],
    margin: float,
    order: tuple[int, int],
) -> float:
    """A view start (left or top) that cuts no node in half and still shows ``keep`` whole.

    It moves past the nodes it would cut (``+1``) or back to include them (``-1``), in the
    ``order`` given, until it cuts none; it stays put if neither keeps ``keep`` in view.
    """
    for direction in order:
        at = start
        for _ in range(len(boxes) + 1):
            cut = [b for b in boxes if b[0] < at < b[1]]
            if not cut:
                break
            at = (
                max(b[1] for b in cut) + margin
                if direction > 0
                else min(b[0] for b in cut) - margin
            )
        if not any(b[0] < at < b[1] for b in boxes) and at <= keep[0] and keep[1] <= at + span:
            return at
    return start


def fit_view(
    rect: tuple[float, float, float, float],
    port: tuple[float, float],
    end: Point,
    smallest: float,
    largest: float,
    boxes: list[tuple[float, float, float, float]] | None = None,
    margin: float = 0.0,
) -> tuple[float, float, float]:
    """The zoom and the scene point to centre that fit ``rect`` (left, top, width, height).

    The zoom fits the viewport ``port`` within ``smallest``…``largest``. When the graph is
    then larger than the view, the view shows its right end (the target) and, vertically,
    the ``end`` point's row; its left and top edges never cut a node (``boxes``: each node's
    centre x, y, width and height).
    """
    left, top, width, height = rect
    ratio = min(port[0] / width, port[1] / height)
    z = min(max(ratio, smallest), largest)
    span_w, span_h = port[0] / z, port[1] / z
    nodes = boxes or []
    target = next((b for b in nodes if b[0] == end[0] and b[1] == end[1]), (*end, 0.0, 0.0))
    x, y = left + width / 2, top + height / 2
    if width > span_w:
        across = [(bx - bw / 2, bx + bw / 2) for bx, _, bw, _ in nodes]
        keep = (target[0] - target[2] / 2, target[0] + target[2] / 2)
        start = _clean_start(left + width - span_w, span_w, across, keep, margin, (1, -1))
        x = start + span_w / 2
    if height > span_h:
        start = min(max(end[1] - span_h / 2, top), top + height - span_h)
        down = [(by - bh / 2, by + bh / 2) for _, by, _, bh in nodes]
        keep = (target[1] - target[3] / 2, target[1] + target[3] / 2)
        y = _clean_start(start, span_h, down, keep, margin, (-1, 1)) + span_h / 2
    return z, x, y
