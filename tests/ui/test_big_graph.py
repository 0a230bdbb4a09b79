"""Big graphs: built in slices (a newer model cancels a build under way), text when in view."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui import workers
from tapeviz.ui.graph import builder as scene
from tapeviz.ui.graph.items import EdgeItem, NodeItem
from tapeviz.ui.graph.scene import planned_extent
from tapeviz.ui.graph.view import GraphView


def chain(n: int, start: float = 1.0) -> tv.GradientTape:
    """A tape of ``n`` sin ops in a row (``n + 1`` nodes)."""
    x = tv.Variable(start)
    with tv.GradientTape() as tape:
        y = x
        for _ in range(n):
            y = tv.sin(y)
    tape.gradient(y, x)
    return tape


@pytest.fixture
def builders(monkeypatch: pytest.MonkeyPatch) -> list[scene.SceneBuilder]:
    """Every SceneBuilder made during the test, in order."""
    made: list[scene.SceneBuilder] = []
    real = scene.SceneBuilder.__init__

    def keep(self: scene.SceneBuilder, *args: object, **kwargs: object) -> None:
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(scene.SceneBuilder, "__init__", keep)
    return made


def test_a_big_scene_is_built_in_slices_and_a_newer_model_cancels_it(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    builders: list[scene.SceneBuilder],
    graph_view: GraphView,
) -> None:
    monkeypatch.setattr(scene, "BUILD_SLICE_S", 0.0)  # one small slice per event-loop turn
    view = graph_view
    finished: list[int] = []
    view.layoutFinished.connect(lambda: finished.append(len(view.items)))
    model = GraphModel([chain(400)])
    view.set_model(model)
    qtbot.waitUntil(lambda: bool(builders) and 0 < builders[0].progress < 1, timeout=20_000)
    assert not builders[0].filled  # the first build is under way
    shown = len(finished)  # (its end may be on screen already: the rest is being built)
    model.set_tapes([chain(500, 0.5)])  # a new run arrives mid-build
    with qtbot.waitSignal(view.filled, timeout=20_000):
        qtbot.waitUntil(lambda: len(finished) > shown, timeout=20_000)
    qtbot.wait(50)
    assert len(finished) == shown + 1 and 0 < finished[-1] < 501  # the newer one, its end first
    assert builders[0].cancelled and builders[0].progress < 1
    assert builders[-1].progress == 1 and builders[-1].slices > 1
    assert not view.building and len(view.items) == 501 and len(view.edge_items) == 500
    workers.wait_all()


def test_a_big_graph_gives_text_to_the_nodes_in_view(
    qtbot: QtBot, tmp_path: Path, graph_view: GraphView
) -> None:
    view = graph_view
    with qtbot.waitSignal(view.filled, timeout=20_000):
        view.set_model(GraphModel([chain(600)]))
    items = view.items
    assert len(items) == 601
    shown = [nid for nid, it in items.items() if not it.text_pending]
    assert 0 < len(shown) < len(items) // 2  # the fitted view shows one end of the chain
    in_view = [i for i in view.scene().items(view.text_rect()) if isinstance(i, NodeItem)]
    assert in_view  # and they all get their text, also those built last:
    qtbot.waitUntil(lambda: not any(i.text_pending for i in in_view), timeout=5_000)
    far = next(nid for nid, it in items.items() if it.text_pending)
    assert items[far]._texts == [] and items[far].size()[0] > 0  # a box, and its look
    view.follow(far)  # the stepper follows a node: it gets its text as it comes into view
    assert not items[far].text_pending
    assert [t.text() for t in items[far]._texts[:2]] == [t for t, _ in items[far].lines()][:2]
    view.export_png(tmp_path / "big.png")  # an export draws every node with its text
    assert not any(it.text_pending for it in items.values())
    workers.wait_all()


def test_an_untiled_graphs_nodes_near_a_rect_are_those_whose_boxes_meet_it(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    """Found by the planned boxes (arrays), as a walk over every item's box would find them."""
    view = graph_view
    with qtbot.waitSignal(view.filled, timeout=20_000):
        view.set_model(GraphModel([chain(600)]))
    qtbot.waitUntil(lambda: not view.building, timeout=10_000)
    whole = view.fitting.content()
    for k in range(12):
        x = whole.left() + whole.width() * k / 12
        rect = QRectF(x, whole.top() + 40 * k, 300 + 50 * k, 200)
        walked = [it for it in view.items.values() if rect.intersects(it.box())]
        assert view.nodes_near(rect) == walked
    assert view.nodes_near(rect.translated(0, 1e6)) == []


def test_a_small_graph_is_built_at_once_with_all_its_text(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    view = graph_view
    view.set_model(GraphModel([chain(20)]))
    assert len(view.items) == 21 and not view.building
    assert not any(it.text_pending for it in view.items.values())


def test_the_log_of_a_long_tape_shows_its_last_step(qtbot: QtBot, graph_view: GraphView) -> None:
    """A 3,000-step log (uniform lines) is scrolled to the step gradient() ended with."""
    from tapeviz.ui.stepper.panel import StepperPanel

    view = graph_view
    model = GraphModel([chain(3000)])
    panel = StepperPanel(model, view)
    qtbot.addWidget(panel)
    panel.resize(800, 400)
    panel.show()
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(model)
    log = panel.log
    qtbot.waitUntil(lambda: log.selectionModel().hasSelection(), timeout=5_000)
    assert log.count() == 3000 and log.uniformItemSizes()
    last = log.visualRect(log.model_.index(2999))
    assert log.currentRow() == 2999 and log.viewport().rect().intersects(last)
    workers.wait_all()


def test_a_big_run_is_modelled_in_the_thread_pool(
    window: object, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its graph and steppers are built off the UI thread; the window adopts them."""
    import threading

    from tapeviz.ui.stepper import panel as stepper_panel

    built_in: list[bool] = []
    real_build = stepper_panel.build_steppers

    def build(model: GraphModel) -> object:
        built_in.append(threading.current_thread() is threading.main_thread())
        return real_build(model)

    monkeypatch.setattr(stepper_panel, "build_steppers", build)
    adopted: list[int] = []
    real_adopt = GraphModel.adopt
    monkeypatch.setattr(GraphModel, "adopt", lambda m, o: (adopted.append(1), real_adopt(m, o)))
    w = window  # type: ignore[assignment]
    w.mode.setCurrentIndex(1)  # type: ignore[attr-defined]
    w.editor.setPlainText(  # type: ignore[attr-defined]
        "import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
        "    y = x\n    for i in range(400):\n        y = y * 1.0001 + 0.001\n"
        "g = t.gradient(y, x)\n"
    )
    with qtbot.waitSignal(w.graph.filled, timeout=30_000):  # type: ignore[attr-defined]
        w.run_code()  # type: ignore[attr-defined]
    assert adopted == [1] and built_in == [False]  # built once, in a pool thread
    assert len(w.model.nodes) == 1601 and w.stepper.backward is not None  # type: ignore[attr-defined]
    assert w.stepper.backward.done and w.stepper.log.count() == 800  # type: ignore[attr-defined]


def test_the_planned_extent_is_the_box_of_the_built_nodes(
    qtbot: QtBot, builders: list[scene.SceneBuilder], graph_view: GraphView
) -> None:
    """Found with the layout (in its thread): the box the fit uses while the rest fills in."""
    view = graph_view
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(700)]))
    plan = builders[-1].plan
    assert plan.extent is not None  # (the layout thread found it)
    box = QRectF()
    for item in view.items.values():
        w, h = item.size()
        box = box.united(QRectF(item.pos().x() - w / 2, item.pos().y() - h / 2, w, h))
    got = planned_extent(plan)
    for a, b in zip(got.getRect(), box.getRect(), strict=True):
        assert a == pytest.approx(b, abs=1e-6)


def test_a_big_graphs_hand_over_has_an_event_loop_turn_of_its_own(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, graph_view: GraphView
) -> None:
    """The swap, restyle and fit of the part in view do not run in a slice's turn."""
    in_slice: list[bool] = [False]
    real_run = scene.SceneBuilder.run

    def run(self: scene.SceneBuilder, chunked: bool) -> None:
        in_slice[0] = True
        try:
            real_run(self, chunked)
        finally:
            in_slice[0] = False

    monkeypatch.setattr(scene.SceneBuilder, "run", run)
    view = graph_view
    seen: list[bool] = []
    view.layoutFinished.connect(lambda: seen.append(in_slice[0]))
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(700)]))
    assert seen == [False]
    small = GraphModel([chain(5)])  # a small graph is built and handed over at once
    view.set_model(small)
    assert len(seen) == 2 and not view.building


def texts_shown(view: GraphView) -> list[bool]:
    """Per node: whether its text items are visible (made ones only)."""
    return [all(t.isVisible() for t in it._texts) for it in view.items.values()]


def test_text_hides_when_zoomed_far_out_and_shows_again_in_every_scene(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    view = graph_view
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(40)]))
    assert all(texts_shown(view))
    view.zoom(0.1 / view.transform().m11())  # far out: unreadable, hidden
    assert not any(texts_shown(view))
    view.zoom(1.0 / view.transform().m11())
    assert all(texts_shown(view))
    view.zoom(0.1 / view.transform().m11())
    with qtbot.waitSignal(view.filled, timeout=30_000):  # a new scene while zoomed out
        view.set_model(GraphModel([chain(45, 0.5)]))
    view.fitting.auto = False
    view.zoom(0.1 / view.transform().m11())
    assert not any(texts_shown(view))
    view.zoom(1.0 / view.transform().m11())
    assert all(texts_shown(view))


def test_a_big_scene_replaced_is_deleted_by_slices(qtbot: QtBot, graph_view: GraphView) -> None:
    import shiboken6

    view = graph_view
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(700)]))
    old_scene, old_items = view.scene(), list(view.items.values())
    destroyed: list[bool] = []
    old_scene.destroyed.connect(lambda: destroyed.append(True))
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(1000, 0.5)]))  # 300 new nodes: a new scene
    assert view.scene() is not old_scene
    qtbot.waitUntil(lambda: bool(destroyed), timeout=20_000)
    assert not any(shiboken6.isValid(it) for it in old_items)
    assert all(shiboken6.isValid(it) for it in view.items.values())


def test_a_scene_leaving_the_view_is_not_deactivated_item_by_item(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    """Qt would send WindowDeactivate to each of its items (50 ms at 21,000 items)."""
    from PySide6.QtCore import QEvent, QObject

    class Seen(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.types: list[QEvent.Type] = []

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            self.types.append(event.type())
            return False

    view = graph_view
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=5_000)
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(400)]))
    old, seen = view.scene(), Seen()
    old.installEventFilter(seen)  # (before the view's own filter, so it sees what passes)
    with qtbot.waitSignal(view.filled, timeout=30_000):
        view.set_model(GraphModel([chain(800, 0.5)]))
    assert view.scene() is not old
    assert QEvent.Type.WindowDeactivate not in seen.types


def filled_view(qtbot: QtBot, view: GraphView, n: int) -> GraphView:
    """A shown view with a chain of ``n`` ops built in full, no job left in the pool."""
    with qtbot.waitSignal(view.filled, timeout=20_000):
        view.set_model(GraphModel([chain(n)]))
    workers.wait_all()
    return view


def test_a_big_restyle_waits_while_a_pool_job_runs(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, graph_view: GraphView
) -> None:
    view = filled_view(qtbot, graph_view, 600)
    styled: list[object] = []
    busy = [True]  # a new result decodes in the pool: Qt's updates would wait for the GIL
    monkeypatch.setattr(workers, "busy", lambda: busy[0])
    seen = view._visible_nodes()
    view.restyle_items(styled.append)
    qtbot.wait(200)
    assert styled == list(seen)  # the nodes in view at once, nothing else while the job runs
    busy[0] = False
    qtbot.waitUntil(lambda: len(styled) == len(view.items), timeout=10_000)
    assert styled[: len(seen)] == list(seen)  # then those in view first, every node once
    assert len(set(map(id, styled))) == len(view.items)


def test_a_big_restyle_waits_for_a_long_job_only_so_long(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, graph_view: GraphView
) -> None:
    from tapeviz.ui.graph import view_build

    view = filled_view(qtbot, graph_view, 600)
    monkeypatch.setattr(workers, "busy", lambda: True)  # a run waiting on its worker, say
    monkeypatch.setattr(view_build, "WAIT_LIMIT_S", 0.3)
    styled: list[object] = []
    view.restyle_items(styled.append)
    qtbot.waitUntil(lambda: len(styled) == len(view.items), timeout=10_000)


def test_a_big_graphs_re_run_puts_its_values_on_the_items_in_view_first(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    view = graph_view
    model = GraphModel([chain(600)])
    with qtbot.waitSignal(view.filled, timeout=20_000):
        view.set_model(model)
    items = dict(view.items)
    in_view = list(view._visible_nodes())
    assert 0 < len(in_view) < len(items) // 2
    model.set_tapes([chain(600, 0.5)])  # the same graph, other values: updated in place
    assert model.same_structure and view.items == items  # the same items

    def current(item: NodeItem) -> bool:
        return item.node is model.nodes[item.node.id]

    assert all(current(it) for it in in_view)  # at once
    assert not all(current(it) for it in items.values())  # the rest by slices
    qtbot.waitUntil(lambda: view._update is None, timeout=10_000)
    assert all(current(it) for it in items.values())
    workers.wait_all()


def test_a_newer_run_or_an_export_during_a_re_runs_update_leaves_the_last_values(
    qtbot: QtBot,
    graph_view: GraphView,
) -> None:
    view = graph_view
    model = GraphModel([chain(600)])
    with qtbot.waitSignal(view.filled, timeout=20_000):
        view.set_model(model)
    items = view.items

    def current() -> bool:
        return all(it.node is model.nodes[it.node.id] for it in items.values())

    model.set_tapes([chain(600, 0.5)])
    assert view._update is not None and not current()
    model.set_tapes([chain(600, 0.25)])  # a newer run mid-update: it takes over
    qtbot.waitUntil(lambda: view._update is None, timeout=10_000)
    assert view.items is items and current()
    assert abs(items["s0"].node.value - 0.25) < 1e-12
    model.set_tapes([chain(600, 0.75)])
    view.finish_building()  # an export draws the graph now: every value is put on it first
    assert view._update is None and current()
    model.set_tapes([chain(300)])  # another structure mid-update: a new scene, no error
    qtbot.waitUntil(lambda: len(view.items) == 301 and not view.building, timeout=20_000)
    workers.wait_all()


def test_a_build_cancelled_before_its_scene_was_shown_deletes_that_scene(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    builders: list[scene.SceneBuilder],
    graph_view: GraphView,
) -> None:
    from tapeviz.ui.graph import view_build

    monkeypatch.setattr(scene, "BUILD_SLICE_S", 0.0)  # one small slice per event-loop turn
    everywhere = QRectF(-1e9, -1e9, 2e9, 2e9)  # the whole graph is "in view": shown when built
    monkeypatch.setattr(view_build.SceneBuilding, "_near", lambda self, plan: everywhere)
    view = graph_view
    model = GraphModel([chain(400)])
    view.set_model(model)
    qtbot.waitUntil(lambda: bool(builders) and builders[0].progress > 0, timeout=20_000)
    first = builders[0]
    assert not first.handed  # still building the part in view: its scene is not shown
    gone: list[bool] = []
    first.scene.destroyed.connect(lambda: gone.append(True))
    with qtbot.waitSignal(view.filled, timeout=20_000):
        model.set_tapes([chain(500, 0.5)])  # a newer run supersedes it
    qtbot.waitUntil(lambda: bool(gone), timeout=10_000)  # (it was a child of the view)
    assert view.scene() is builders[-1].scene
    workers.wait_all()


@pytest.mark.parametrize(("ops", "then"), [(100, 400), (400, 800)])  # (201 items, 801 items)
def test_a_replaced_graphs_items_are_freed_without_a_collection(
    qtbot: QtBot, graph_view: GraphView, ops: int, then: int
) -> None:
    view = graph_view
    with qtbot.waitSignal(view.filled, timeout=20_000):
        view.set_model(GraphModel([chain(ops)]))
    for item in [*view.items.values(), *view.edge_items]:
        item.probe = True  # (its Python side, as long as it lives)
    gc.collect()  # (old now, as a graph shown for a while is)
    was = gc.isenabled()
    gc.disable()  # (as in the window: its own timer collects, a full pass at most once a minute)
    try:
        with qtbot.waitSignal(view.filled, timeout=20_000):
            view.set_model(GraphModel([chain(then, 0.5)]))  # (other ids: a new scene)

        def left() -> list[object]:  # the old items' Python sides still alive
            kinds = NodeItem | EdgeItem
            return [o for o in gc.get_objects() if isinstance(o, kinds) and getattr(o, "probe", 0)]

        # Nodes and edges refer to each other: the wrappers of the old ones were left to a
        # full collection (a 20,000-op graph: 540,000 objects, ~1 s of the UI thread).
        qtbot.waitUntil(lambda: not left(), timeout=20_000)
    finally:
        if was:
            gc.enable()
