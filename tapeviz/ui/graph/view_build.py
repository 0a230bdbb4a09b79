"""How the graph view turns its model into a scene: the building half of :class:`GraphView`.

:meth:`SceneBuilding.rebuild` plans the layout (in a pool thread above ``BACKGROUND_LAYOUT``
nodes, with the edges' ports), then either updates the scene in place (a keystroke's re-run
that kept most node ids, :mod:`~tapeviz.ui.graph.scene_update`; by slices above ``LAZY_TEXT``
nodes, the old picture shown until the end) or has a
:class:`~tapeviz.ui.graph.builder.SceneBuilder` build a new one, a big graph's part in view
first; the new scene replaces the old one in one step (``layoutFinished``), the rest of a big
graph fills in by slices (``filled``). :meth:`SceneBuilding.restyle_items` styles a big graph's
nodes in view first, then the rest by slices. The view's other half (appearance, fitting,
navigation, export) is :mod:`~tapeviz.ui.graph.view`.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsScene

from tapeviz.models.graph import layout as layouts
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui import workers
from tapeviz.ui.graph.builder import SceneBuilder
from tapeviz.ui.graph.items import EdgeItem, GroupItem, NodeItem
from tapeviz.ui.graph.retire import WAIT_LIMIT_S, no_deactivation, retire
from tapeviz.ui.graph.scene import (
    ANIMATED_MAX,
    BUILD_SLICE_S,
    LAZY_TEXT,
    Built,
    ItemUpdate,
    Look,
    Plan,
    animate_nodes,
    frames_of,
    plan_layout,
    update_items,
)
from tapeviz.ui.graph.scene_update import SceneUpdate, reusable
from tapeviz.ui.graph.tiles import TILED_MIN, Boxes
from tapeviz.ui.turns import after, later, until_done

BACKGROUND_LAYOUT = 300  # nodes: lay out in a worker thread above this
KEPT_OUT_MIN = TILED_MIN  # nodes: a graph this big is left out of full collections once shown
WAIT_MS = 50  # a restyle's nodes out of view wait while a pool job runs, checking this often


def _nothing() -> None:
    """What follows the last slice of an update in place (nothing: it ends there)."""


class _Restyle:
    """A big graph's restyle by slices, the nodes in view first (see ``restyle_items``).

    An object, not a closure that queues itself: that is a reference cycle, and it held
    ``style`` (the stepper's adjoints) until a full collection.
    """

    def __init__(
        self, view: Any, style: Callable[[NodeItem], None], generation: int,
        todo: list[NodeItem], unseen: int,
    ) -> None:  # fmt: skip
        self.view, self.style, self.generation = view, style, generation
        self.todo, self.unseen = todo, unseen  # (the ones out of view are popped last)
        self.waited = 0.0  # seconds the nodes out of view waited, WAIT_LIMIT_S at most

    def step(self) -> None:
        """Restyle a slice; queue the next."""
        view, todo = self.view, self.todo
        if self.generation != view._restyling:
            return
        # What is out of view waits while a pool job runs (a new result decoding): each item
        # changed now would cost Qt's update pass a GIL wait. Never what is in view.
        waiting = workers.busy() and self.waited < WAIT_LIMIT_S
        stop = self.unseen if waiting else 0  # while waiting, only the nodes in view
        if len(todo) <= stop:
            self.waited += WAIT_MS / 1000
            after(WAIT_MS, self.step, view)
            return
        end = time.perf_counter() + BUILD_SLICE_S
        style = self.style
        while len(todo) > stop and time.perf_counter() < end:
            for _ in range(min(50, len(todo) - stop)):
                style(todo.pop())
        if todo:
            later(self.step, view)


class SceneBuilding:
    """The building half of :class:`~tapeviz.ui.graph.view.GraphView` (a mixin of it).

    It uses the view's state (made in ``GraphView.__init__``), its signals ``layoutFinished``
    and ``filled``, and its ``fitting``, ``_apply_dimming``, ``_update_detail`` and
    ``_on_scene_selection_changed``.
    """

    model: GraphModel | None
    items: dict[str, NodeItem]
    edge_items: list[EdgeItem]
    group_items: list[GroupItem]
    layout: layouts.Layout | None
    extent: QRectF | None

    @property
    def building(self) -> bool:
        """Whether a new scene is being laid out or built (the items shown are the old ones)."""
        return self._job is not None or self._builder is not None or self._scene_update is not None

    def rebuild(self) -> None:
        """Lay out the model's graph (in a worker above 300 nodes), then build its scene.

        The current graph stays on screen, interactive, until the new scene is complete.
        """
        model = self.model
        self._update = None  # an in-place update by slices is superseded
        if self._job is not None:
            self._job.cancelled = True
            self._job = None
        for builder in (self._builder, self._filling):
            if builder is not None:
                builder.cancel()
        unshown = self._builder
        if unshown is not None and not unshown.handed:  # its scene never reached the view
            made = unshown.tiles.all() if unshown.tiles is not None else []
            retire(unshown.scene, [*made, *unshown.edges, *unshown.items.values()])
        self._builder = self._filling = None
        if model is None:
            return
        self._banner.show_for(model.too_large)
        if model.too_large:
            self._end_scene_update()
            self.extent = None
            self._swap_scene(QGraphicsScene(self), {}, [], None)
            workers.keep_out(False)
            return
        # A keystroke's update may still go on by slices (it ends when this layout is done,
        # most often by itself before): its nodes' places are the ones it gives them.
        pending = self._scene_update
        if pending is not None:
            old = dict(pending.plan.layout.positions)
        elif self.layout is not None and len(self.items) > ANIMATED_MAX:  # (they stand there)
            old = dict(self.layout.positions)
        else:
            old = {nid: (it.pos().x(), it.pos().y()) for nid, it in self.items.items()}
        framed = (
            [nid for ids in frames_of(model).values() for nid in ids] if self.show_groups else []
        )
        args = (
            dict(model.nodes),
            dict(model.gradients),
            [(e.source, e.target) for e in model.edges],
            old,
            self.font_scale,
            self.engine,
            False,
            framed,
        )
        if len(model.nodes) > BACKGROUND_LAYOUT:  # (the ports of the edges found there too)
            self._job = workers.submit(plan_layout, *args, None, list(model.edges),
                                       on_done=self._on_plan_done)  # fmt: skip
            return
        compact = None
        if self._compact and self.engine == "layered":  # so the last graph: a keystroke's too
            compact = plan_layout(*args[:6], True, framed)
            if self.fitting.wide_anyway(compact):  # (the natural layout would be laid out
                self._on_plan_done(compact)  # for nothing: the fit would want this one)
                return
        self._on_plan_done(plan_layout(*args, compact.sizes if compact else None), compact)

    _compact = False  # the last plan shown had the compact gaps
    _scene_update: SceneUpdate | None = None  # a keystroke's update in place, by slices

    def _on_plan_done(self, plan: Plan, compact: Plan | None = None) -> None:
        self._job = None
        self._end_scene_update()
        model = self.model
        if model is None or plan.nodes.keys() != model.nodes.keys():
            return  # the model changed meanwhile; a newer layout is on its way
        if self.fitting.wants_compact(plan):  # a more compact layout before the graph must scroll
            plan = compact if compact is not None else self._compact_plan(plan, model)
        self._compact = plan.compact
        look = Look(self.theme, self.font_scale, self.show_edge_labels, self.show_groups)
        if look == self._look and reusable(self.items, plan):  # a keystroke's re-run
            if self._animation is not None:  # (the last one's: its nodes start from here)
                self._animation.stop()
                self._animation = None
            update = SceneUpdate(self.scene(), self.items, self.edge_items, self.group_items,
                                 plan, model, look, self.animation_ms)  # fmt: skip
            self._scene_update = update
            if len(plan.nodes) <= LAZY_TEXT:
                self._end_scene_update()
                return
            # By slices (~90 ms for 1,200 nodes at once), the old picture shown until the end.
            self.viewport().setUpdatesEnabled(False)
            self._step_update(update, BUILD_SLICE_S)
            until_done(partial(self._scene_update_slice, update), self, _nothing)
            return
        big = len(plan.nodes) > BACKGROUND_LAYOUT
        items = self.items  # (big: no move; else only the nodes staying: not all of a big one)
        old = {} if big else {nid: items[nid].pos() for nid in plan.nodes if nid in items}
        if big:  # a full collection would stop the build (and find nothing to free)
            workers.postpone_full_collection()
        near = self._near(plan) if big else None
        self._builder = SceneBuilder(plan, model, look, old, self._on_scene_built, self, near,
                                     self._on_filled)  # fmt: skip
        self._builder.run(chunked=big)

    def _scene_update_slice(self, update: SceneUpdate) -> bool:
        """A slice of a keystroke's update in place; whether it is over (or was ended)."""
        if self._scene_update is not update:
            return True
        if update.built is None:  # (the view's own part, the fit and styles, on its own turn)
            self._step_update(update, BUILD_SLICE_S)
            return False
        self._end_scene_update()
        return True

    def _step_update(self, update: SceneUpdate, budget: float) -> None:
        """Step ``update``; one that fails leaves no half-updated graph: a new scene comes."""
        try:
            update.step(budget)
        except Exception:
            if self._scene_update is update:
                self._scene_update = None
            self.viewport().setUpdatesEnabled(True)
            self._look = None  # (the next plan builds a scene afresh)
            later(self.rebuild, self)
            raise

    def _end_scene_update(self) -> None:
        """Finish a keystroke's update in place now (if one is under way) and show it."""
        update = self._scene_update
        if update is None:
            return
        try:  # (still the pending one meanwhile: the selection it changes is read at the end)
            self._step_update(update, float("inf"))
        except Exception:  # (a new scene comes; the caller goes on)
            traceback.print_exc()
            return
        self._scene_update = None
        self.viewport().setUpdatesEnabled(True)
        if update.built is not None:  # (None: it failed earlier, and a new scene comes)
            # A newer layout on its way (the next run came meanwhile): these items are shown
            # without the fit and the signals of a finished graph; that layout's give them.
            self._on_scene_built(update.built, quiet=self._job is not None)

    def _compact_plan(self, plan: Plan, model: GraphModel) -> Plan:
        """``plan`` laid out again with the compact gaps (its nodes' sizes kept)."""
        old_places = {nid: (it.pos().x(), it.pos().y()) for nid, it in self.items.items()}
        framed = [nid for ids in frames_of(model).values() for nid in ids]
        return plan_layout(plan.nodes, dict(model.gradients),
                           [(e.source, e.target) for e in model.edges], old_places,
                           self.font_scale, self.engine, True,
                           framed if self.show_groups else [], plan.sizes)  # fmt: skip

    def _near(self, plan: Plan) -> QRectF:
        """Where the view will look after this layout: its items are built first.

        Around the target (a big graph is fitted from there at its natural size), and what
        the view shows now if the lecturer moved it.
        """
        port = self.viewport().rect()
        zoom = max(self.transform().m11(), 0.05) if not self.fitting.auto else 1.0
        w, h = 1.5 * port.width() / zoom, 1.5 * port.height() / zoom
        nodes = plan.nodes
        end = next((nid for nid in reversed(nodes) if nodes[nid].kind == "target"), None)
        end = end if end is not None else next(reversed(nodes), None)  # the last target, or node
        x, y = plan.layout.positions[end] if end is not None else (0.0, 0.0)
        near = QRectF(x - w, y - h, 2 * w, 2 * h)
        if not self.fitting.auto:
            near = near.united(self.mapToScene(port).boundingRect())
        return near

    def _on_filled(self, groups: list[GroupItem]) -> None:
        """The rest of a big graph is built: frames, dimming, detail, the last styling."""
        self._filling = None
        self.group_items = groups
        self._text_pending = sum(it.text_pending for it in self.items.values())
        if self._dimmed:
            self._apply_dimming()
        # The nodes built since the hand-over that are in view get their text on a turn of its
        # own: the search walks all 40,000 items of a 10,000-op scene.
        self._update_detail(text=False)
        later(self.show_visible_text, self)
        if self._last_style is not None:
            self.restyle_items(self._last_style)
        if self._styled_selected or self.scene().selectedItems():  # the new items' highlights
            self._on_scene_selection_changed()
        self._shown_whole()

    def finish_building(self) -> None:
        """Build the rest of a graph shown in part now (before an export draws it whole)."""
        self._end_scene_update()
        if self._filling is not None:
            self._filling.complete()
        if self._update is not None:  # and the rest of a re-run's values
            update, self._update = self._update, None  # (its slices stop: not the current one)
            update.step(float("inf"))

    def _update_in_place(self, model: GraphModel) -> None:
        """A re-run of the same graph: its values on the items; a big graph's by slices.

        The nodes in view first (a slice from this turn on), then their edges and the rest, a
        slice per event-loop turn: at once, 20,000 nodes took the window 1.2 s. Each node
        updated gets the last restyle again (the stepper may have marked it already).
        """
        self._update = None
        if len(self.items) <= LAZY_TEXT:
            update_items(self.items, self.edge_items, model, self.show_edge_labels)
            return
        first = [item.node.id for item in self._visible_nodes()]

        def restyled(item: NodeItem) -> None:  # a node's new values reset the stepper's marks
            if self._last_style is not None:
                self._last_style(item)

        update = self._update = ItemUpdate(self.items, self.edge_items, model,
                                           self.show_edge_labels, first, restyled)  # fmt: skip
        if not self._update_slice(update):  # (the nodes in view: from this turn on)
            until_done(partial(self._update_slice, update), self, _nothing)

    def _update_slice(self, update: ItemUpdate) -> bool:
        """A slice of ``update``; whether it is over (done, superseded, or an export ended it)."""
        if self._update is not update:
            return True
        if update.step(BUILD_SLICE_S):
            return False
        self._update = None
        workers.keep_out(len(self.items) >= KEPT_OUT_MIN)  # (the new values' objects too)
        return True

    def _shown_whole(self) -> None:
        """Every item of the graph is built: ``filled``; a big graph's objects are kept out."""
        workers.keep_out(len(self.items) >= KEPT_OUT_MIN)
        self.filled.emit()

    def _on_scene_built(self, built: Built, quiet: bool = False) -> None:
        lay = built.layout
        self._filling = self._builder if built.partial else None
        self._builder = None
        self._look = built.look
        self.extent = built.extent
        self.group_items = built.groups
        # the rect first: a view given a scene without one measures every item, growing it
        built.scene.setSceneRect(self.fitting.content(built.scene))  # (the fit may widen it)
        self._swap_scene(built.scene, built.items, built.edges, lay, built.tiles)
        if self._dimmed:
            self._apply_dimming()
        self._animate_to(lay, built.old)
        if quiet:  # (see _end_scene_update)
            self._update_detail()
            return
        self._update_detail(text=False)  # (the text for what is in view once it is fitted)
        self.layoutFinished.emit()  # the stepper restyles the nodes first, then the fit
        self.fitting.after_layout()
        self._update_detail()
        if self._filling is None:
            self._shown_whole()  # (every item was built before the scene was shown)

    _tiles: Any = None  # the shown scene's Tiles (a big one's), referenced while it is shown

    def _swap_scene(
        self,
        scene: QGraphicsScene,
        items: dict[str, NodeItem],
        edges: list[EdgeItem],
        lay: layouts.Layout | None,
        tiles: Any = None,
    ) -> None:
        old = self.scene()
        gone_nodes, gone_edges = list(self.items.values()), self.edge_items
        was = self.items  # (the nodes staying, as above: not every node of a big graph left)
        selected = [nid for nid in items if nid in was and was[nid].isSelected()]
        self.items, self.edge_items, self.layout = items, edges, lay
        self._boxes = None  # (found again for these items at their places, when asked)
        self._text_pending = sum(it.text_pending for it in items.values())
        if scene is old:  # updated in place: the selection stays, its paths may not
            self._on_scene_selection_changed()
            return
        self._some_hidden = False  # (a new scene's items all show their text)
        gone_tiles = self._tiles.all() if self._tiles is not None else []  # (deleted last)
        self._tiles = tiles
        self._restyling += 1  # slices restyling the old items stop (they are being deleted)
        old.selectionChanged.disconnect(self._on_scene_selection_changed)
        old.installEventFilter(no_deactivation())  # (Qt would send it to each of its items)
        self.setScene(scene)
        scene.selectionChanged.connect(self._on_scene_selection_changed)
        retire(
            old,
            [*gone_tiles, *gone_edges, *gone_nodes],
            lambda: self.building or self._filling is not None,
            lambda: self._update is not None,
        )
        for nid in selected:
            if nid in items:
                items[nid].setSelected(True)

    def _animate_to(self, lay: layouts.Layout, old: dict[str, QPointF]) -> None:
        if self._animation is not None:
            self._animation.stop()
        self._animation = animate_nodes(self.items, lay, old, self.animation_ms, self)

    def restyle_items(self, style: Callable[[NodeItem], None]) -> None:
        """Call ``style`` on every node item: now for a small graph, else in view first.

        A big graph's nodes are restyled from the next event-loop turn (after the fit), those
        in view first, then the rest in slices: the window never waits for 6,000 restyles. A
        newer call replaces the slices of an older one. While a pool job runs (the next run's
        result decoding) the nodes out of view wait, up to WAIT_LIMIT_S: Qt's update pass after
        each slice would call our items' Python methods, each call waiting for the GIL (100 ms
        turns at 10,000 ops). The nodes in view never wait (a step of the stepper shows at
        once, even while the studio computes a race).
        """
        self._restyling += 1
        self._last_style = style
        if len(self.items) <= LAZY_TEXT:
            for item in self.items.values():
                style(item)
            return
        later(lambda n=self._restyling: self._restyle_slices(style, n), self)

    def _restyle_slices(self, style: Callable[[NodeItem], None], generation: int) -> None:
        if generation != self._restyling:
            return  # a newer restyle (or none of this scene's items) took over
        seen = self._visible_nodes()
        todo = [*seen, *(it for it in self.items.values() if it not in seen)]
        todo.reverse()
        _Restyle(self, style, generation, todo, len(todo) - len(seen)).step()

    def _visible_nodes(self) -> dict[NodeItem, None]:
        """The node items in (or near) the view."""
        rect = self.mapToScene(self.viewport().rect()).boundingRect()
        m = self.viewport().width() / 4
        return dict.fromkeys(self.nodes_near(rect.adjusted(-m, -m, m, m)))

    def nodes_near(self, rect: QRectF) -> list[NodeItem]:
        """The node items whose boxes meet ``rect`` (in the scene).

        A tiled scene is searched by Qt, which visits only the tiles there (1-2 ms at 10,000
        ops); an untiled one by its nodes' planned boxes (:class:`~tapeviz.ui.graph.tiles.Boxes`).
        """
        if len(self.items) > TILED_MIN:
            return [it for it in self.scene().items(rect) if isinstance(it, NodeItem)]
        return self.planned_boxes().meeting(rect)

    def planned_boxes(self) -> Boxes:
        """The shown nodes' boxes at their planned places (found once per scene or update)."""
        boxes = self._boxes  # (reset with the items; a big graph's part in view grows by slices)
        if boxes is None or len(boxes.items) != len(self.items):
            places = self.layout.positions if self.layout is not None else {}
            boxes = self._boxes = Boxes(self.items, places)
        return boxes

    _boxes: Boxes | None = None  # of the shown items at their planned places
