"""The graph view: a GraphModel drawn left to right, zoomable, navigable, exportable."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from tapeviz.models.graph import layout as layouts
from tapeviz.models.graph.dot import to_dot
from tapeviz.models.graph.model import FOLDED_OPS, GraphModel
from tapeviz.ui import workers
from tapeviz.ui.graph import exports, navigation
from tapeviz.ui.graph.builder import SceneBuilder
from tapeviz.ui.graph.fitting import FIT_MIN, WHOLE_MIN, Fitting
from tapeviz.ui.graph.items import EdgeItem, GroupItem, NodeItem
from tapeviz.ui.graph.scene import ItemUpdate, Look, TooLargeBanner
from tapeviz.ui.graph.view_build import SceneBuilding
from tapeviz.ui.theme import LIGHT, Theme

DETAIL_SCALE = 0.35  # zoom below which node text is hidden


class GraphView(SceneBuilding, QGraphicsView):
    """Draws a :class:`GraphModel`; emits ``nodeSelected`` when the selection changes."""

    nodeSelected = Signal(str)  # node id, "" when nothing is selected
    layoutFinished = Signal()
    filled = Signal()  # every item is built (after layoutFinished; later for a big graph)

    def __init__(
        self, model: GraphModel | None = None, theme: Theme = LIGHT, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("graphView")
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.theme = theme
        self.font_scale = 1.0
        self.engine = "layered"
        self.animation_ms = 250
        self.show_edge_labels = False
        self.show_groups = True
        self.group_items: list[GroupItem] = []
        self.model: GraphModel | None = None
        self.items: dict[str, NodeItem] = {}
        self.edge_items: list[EdgeItem] = []
        self.layout: layouts.Layout | None = None
        self._job: workers.Worker | None = None
        self._builder: SceneBuilder | None = None
        self._look: Look | None = None  # what the items on screen were drawn for
        self._dimmed = False
        self._restyling = 0  # counts restyle_items calls (a newer one stops older slices)
        self._update: ItemUpdate | None = None  # a big graph's re-run, put on it by slices
        self._lit: list[EdgeItem] = []  # the edges glowing now
        self._last_style: Callable[[NodeItem], None] | None = None
        self._filling: SceneBuilder | None = None  # builds the rest of a graph shown in part
        self.extent: QRectF | None = None  # the planned graph's box (built whole or in part)
        self.fitting = Fitting(self)
        self._press_scroll: tuple[int, int] | None = None
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.sliderMoved.connect(self._on_scroll_bar_slider_moved)
            bar.valueChanged.connect(self._on_scroll_bar_value_changed)
        self._text_pending = 0  # nodes of a big graph still without their text items
        self._some_hidden = False  # some node's text was hidden (zoomed far out)
        self._styled_selected: list[str] = []  # nodes drawn with the selection border
        self._animation: QVariantAnimation | None = None
        self._banner = TooLargeBanner(self)
        self._banner.fold.connect(self._on_banner_fold)
        self.scene().selectionChanged.connect(self._on_scene_selection_changed)
        self.setBackgroundBrush(QColor(theme.background))
        if model is not None:
            self.set_model(model)

    # -- model -----------------------------------------------------------------------------
    def set_model(self, model: GraphModel) -> None:
        """Show ``model`` and follow its changes (the previous model is let go)."""
        if self.model is not None:
            self.model.changed.disconnect(self._on_model_changed)
            self.model.gradients_changed.disconnect(self._on_model_gradients_changed)
        self.model = model
        model.changed.connect(self._on_model_changed)
        model.gradients_changed.connect(self._on_model_gradients_changed)
        self.request_fit()
        self.rebuild()

    def closeEvent(self, event: Any) -> None:
        if self.model is not None:
            self.model.changed.disconnect(self._on_model_changed)
            self.model.gradients_changed.disconnect(self._on_model_gradients_changed)
        super().closeEvent(event)

    def _on_model_changed(self) -> None:
        model = self.model
        if (model is not None and model.same_structure and not self.building
                and self._filling is None and self.items.keys() == model.nodes.keys()):  # fmt: skip
            self._update_in_place(model)
        else:
            self.rebuild()

    def _on_model_gradients_changed(self) -> None:
        self.refresh_gradients()

    def refresh_gradients(self) -> None:
        """Put the model's gradients on the nodes (hidden where the model has none)."""
        if self.model is None:
            return
        grads = self.model.gradients
        for nid, item in self.items.items():
            item.set_gradient(grads.get(nid))
        for edge in self.edge_items:
            edge.adjust()

    # -- appearance ------------------------------------------------------------------------
    def set_theme(self, theme: Theme) -> None:
        """Switch colours (light/dark) and redraw."""
        self._end_scene_update()  # (a keystroke's update: shown in the old look first)
        self.theme = theme
        self.setBackgroundBrush(QColor(theme.background))
        self.rebuild()

    def set_font_scale(self, scale: float) -> None:
        """Scale every font and line width (presenter mode) and re-lay out.

        As a browser's zoom does, the graph's text grows on screen with the scale: a fitted
        graph is fitted again (never below its natural size, so it scrolls once it no longer
        fits); a graph the lecturer zoomed keeps its zoom, around the same node.
        """
        if scale == self.font_scale:
            return
        self._end_scene_update()  # (its fit first: the one kept for the new scale is this one's)
        self.font_scale = scale
        self.fitting.rescaled()
        self.rebuild()

    def set_edge_labels(self, shown: bool) -> None:
        """Show each edge's local derivative (``∂/∂x = 3``) or hide them."""
        self._end_scene_update()  # (its edges are made for the look it began with)
        self.show_edge_labels = shown
        if self._update is not None:  # the edges a re-run's update has still to reach
            self._update.edge_labels = shown
        for edge in self.edge_items:
            edge.set_label(self.model.edge_label(edge.model_edge) if shown and self.model else None)

    def set_dimmed(self, dimmed: bool) -> None:
        """Dim the graph (the editor's text does not parse; this is the last good graph)."""
        if dimmed != self._dimmed:  # (every run says: 20,000 items of a big graph to touch)
            self._dimmed = dimmed  # a scene built later is dimmed too
            self._apply_dimming()

    def _apply_dimming(self) -> None:
        """Each item's opacity as the dimming says (new items, or after a change)."""
        opacity = 0.35 if self._dimmed else 1.0
        for item in [*self.items.values(), *self.edge_items, *self.group_items]:
            item.setOpacity(opacity)

    def set_glowing(self, keys: Collection[tuple[str, str, int]]) -> None:
        """Make the edges ``keys`` (source id, target id, input position) glow, and no other.

        A step of the stepper changes a few edges: only those are touched (found through their
        target node's edges), not 20,000.
        """
        lit = []
        for source, target, position in keys:
            item = self.items.get(target)
            for edge in item.edges if item is not None else ():
                if (edge.target is item and edge.input_position == position
                        and edge.source.node.id == source):  # fmt: skip
                    lit.append(edge)
        for edge in self._lit:
            if edge not in lit and shiboken6.isValid(edge):  # (an old scene's may be deleted)
                edge.glowing = False
        for edge in lit:
            edge.glowing = True
        self._lit = lit

    @property
    def dimmed(self) -> bool:
        """Whether the graph is dimmed."""
        return bool(self.items) and next(iter(self.items.values())).opacity() < 1.0

    # -- navigation ------------------------------------------------------------------------
    @property
    def auto_fit(self) -> bool:
        """Whether the view keeps the graph fitted (False once the lecturer zooms or pans)."""
        return self.fitting.auto

    def view_state(self) -> dict[str, Any]:
        """Fitted, or the lecturer's zoom and centre (a rebuilt window carries it over)."""
        return self.fitting.state()

    def restore_view_state(self, state: dict[str, Any]) -> None:
        """Take a :meth:`view_state` back, now or after the layout under way."""
        self.fitting.restore = dict(state)
        if self._job is None and self._builder is None and self.items:
            self.fitting.apply_restore()
            self._update_detail()

    def request_fit(self, new_tapes: bool = False) -> None:
        """Fit the graph once the next layout is done (of the next run's tapes, if asked)."""
        self.fitting.request(new_tapes)

    def fit(self) -> None:
        """Fit the graph as last asked: readable (Fit), or whole (W); see ``fitting``."""
        self.fitting.fit_to(self.fitting.smallest)
        self._update_detail()

    def fit_readable(self) -> None:
        """Fit (F): the whole graph if it fits readable, else a compact layout that scrolls."""
        self.fitting.smallest = FIT_MIN
        self.fit()

    def fit_all(self) -> None:
        """Show the whole graph, centred, however small its text gets; kept after edits."""
        self.fitting.smallest = WHOLE_MIN
        self.fit()

    def follow(self, nid: str) -> None:
        """Scroll node ``nid`` into view if it is out of it (the stepper's current node)."""
        if nid not in self.items:
            self.finish_building()  # a node of the part not built yet
        item = self.items.get(nid)
        if item is not None:
            self.ensureVisible(item, 40, 40)

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` around the mouse (or the centre), within 0.05×–8×."""
        current = self.transform().m11()
        factor = max(0.05 / current, min(8.0 / current, factor))
        self.scale(factor, factor)
        self.fitting.auto = False  # the lecturer's zoom stays until Fit
        self._update_detail()

    def _update_detail(self, text: bool = True) -> None:
        """Hide node text when it would be too small to read (and costly to draw).

        Items are made with their text shown: while none was hidden, showing it again needs no
        walk over a big graph's 20,000 items. ``text``: also give the nodes in view their text.
        """
        shown = self.transform().m11() * self.font_scale >= DETAIL_SCALE
        if not shown or self._some_hidden:
            for item in self.items.values():
                item.set_detail(shown)
            self._some_hidden = not shown
        if text:
            self.show_visible_text()

    def text_rect(self) -> QRectF:
        """Where nodes get their text: the scene in view, and half a view around it."""
        margin = self.viewport().width() / 2
        rect = self.mapToScene(self.viewport().rect()).boundingRect()
        return rect.adjusted(-margin, -margin, margin, margin)

    def show_visible_text(self) -> None:
        """Give their text to the nodes of a big graph that are in view (or nearly)."""
        if not self._text_pending or self.transform().m11() * self.font_scale < DETAIL_SCALE:
            return
        for item in self.nodes_near(self.text_rect()):
            if item.text_pending:
                item.show_text()
                self._text_pending -= 1

    def show_all_text(self) -> None:
        """Give every node its text (before an export draws the whole graph)."""
        self.finish_building()
        for item in self.items.values():
            item.show_text()
        self._text_pending = 0

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Qt override: a fitted graph is fitted again to the new size (clean mode, F11)."""
        super().resizeEvent(event)
        if self.fitting.auto and self.items:
            self.fit()
        self.show_visible_text()

    def _on_scroll_bar_value_changed(self, _value: int) -> None:
        self.show_visible_text()  # scrolled (by hand, a fit or the stepper following a node)

    def _on_scroll_bar_slider_moved(self, _value: int) -> None:
        self.fitting.auto = False  # scrolled by hand: the lecturer's view stays

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press_scroll = (self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        now = (self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        if self._press_scroll is not None and now != self._press_scroll:
            self.fitting.auto = False  # the lecturer dragged the graph: keep it where it is
        self._press_scroll = None

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom(1.15**steps)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_F:
            self.fit_readable()
        elif key == Qt.Key.Key_W:
            self.fit_all()
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom(0.8)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.navigate(key)
        elif key == Qt.Key.Key_Escape:
            self.scene().clearSelection()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.selected_node():
            self.toggle_layer(self.selected_node() or "")
        else:
            super().keyPressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        item = self.itemAt(event.position().toPoint())
        while item is not None and not isinstance(item, NodeItem):
            item = item.parentItem()
        if item is None or not self.toggle_layer(item.node.id):
            super().mouseDoubleClickEvent(event)

    def toggle_layer(self, nid: str) -> bool:
        """Double-click, Enter: expand a folded layer into its ops, or fold an op's layer back."""
        model = self.model
        return model is not None and model.toggle_layer(nid)

    def selected_node(self) -> str | None:
        """The selected node id (the first, if several)."""
        for nid, item in self.items.items():
            if item.isSelected():
                return nid
        return None

    def select(self, nid: str | None) -> None:
        """Select one node (None clears) and scroll it into view."""
        self.scene().clearSelection()
        if nid is not None and nid in self.items:
            self.items[nid].setSelected(True)
            self.ensureVisible(self.items[nid], 60, 60)

    def navigate(self, key: int) -> None:
        """Arrow keys: → to a consumer, ← to an input, ↑/↓ to the neighbour in the column."""
        model, current = self.model, self.selected_node()
        if model is None or not self.items:
            return
        if current is None:
            self.select(next(iter(self.items)))
            return
        places = {nid: (it.pos().x(), it.pos().y()) for nid, it in self.items.items()}
        nxt = navigation.neighbour(model, places, current, key)
        if nxt is not None:
            self.select(nxt)

    _on_paths = False  # some node or edge is highlighted (on a selected node's paths)

    def _on_scene_selection_changed(self) -> None:
        if self._scene_update is not None:  # (a removed node was selected; read at its end)
            return
        chosen = [nid for nid, item in self.items.items() if item.isSelected()]
        if not chosen and not self._styled_selected and not self._on_paths:
            self.nodeSelected.emit("")  # nothing was or is selected (a keystroke's re-run)
            return
        path_nodes, path_edges = navigation.paths(self.model, chosen)
        self._on_paths = bool(path_nodes or path_edges)
        for nid, item in self.items.items():
            before = item.highlighted
            item.highlighted = nid in path_nodes
            if before == item.highlighted and (nid in chosen or nid in self._styled_selected):
                item.restyle()  # the selection border changed, the highlight did not
        self._styled_selected = chosen
        for edge in self.edge_items:
            key = (edge.source.node.id, edge.target.node.id, edge.input_position)
            edge.highlighted = key in path_edges
        self.nodeSelected.emit(chosen[0] if chosen else "")

    def _on_banner_fold(self) -> None:
        if self.model is not None:
            opts = self.model.options
            self.model.set_options(replace(opts, max_ops=FOLDED_OPS))

    # -- export ----------------------------------------------------------------------------
    def export_png(self, path: str | Path, scale: float = 2.0) -> Path:
        """Render the whole graph to a PNG at ``scale`` × its natural size."""
        self.show_all_text()
        return exports.write_png(self.scene(), self.theme, path, scale)

    def export_svg(self, path: str | Path) -> Path:
        """Write the graph as SVG (QSvgGenerator; pyqtgraph's exporter is broken on Qt 6.11)."""
        self.show_all_text()
        return exports.write_svg(self.scene(), self.theme, path)

    def dot_text(self) -> str:
        """The graph as graphviz DOT text."""
        return to_dot(self.model) if self.model is not None else "digraph tape {}\n"
