"""A re-run that changed little (a keystroke) updates the graph's scene in place."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import VariableSpec
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui.graph import scene_update
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.items import EdgeItem, NodeItem
from tapeviz.ui.graph.view import GraphView

X = [VariableSpec("x", 0.5)]


def _show(model: GraphModel, source: str) -> None:
    result = run_isolated(source, mode="expression", variables=X)
    assert result.error is None
    model.set_tapes([t.tape for t in result.tapes], names_of(result), source=source)


def _view(qtbot: QtBot) -> tuple[GraphModel, GraphView, list[bool]]:
    model = GraphModel()
    view = GraphView(model)
    view.animation_ms = 0
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    done: list[bool] = []
    view.layoutFinished.connect(lambda: done.append(True))
    return model, view, done


def _consistent(view: GraphView) -> None:
    """Every item drawn belongs to the model, every edge to both its ends; nothing stale."""
    scene_items = view.scene().items()
    nodes = [it for it in scene_items if isinstance(it, NodeItem)]
    edges = [it for it in scene_items if isinstance(it, EdgeItem)]
    assert sorted(it.node.id for it in nodes) == sorted(view.model.nodes)
    assert len(edges) == len(view.edge_items) == len(view.model.edges)
    for nid, item in view.items.items():
        assert item.node is view.model.nodes[nid]
        assert all(e.source is item or e.target is item for e in item.edges)
        assert all(e in view.edge_items for e in item.edges)
    drawn = sorted((e.source.node.id, e.target.node.id, e.input_position) for e in edges)
    wanted = sorted((e.source, e.target, e.position) for e in view.model.edges)
    assert drawn == wanted


def test_a_keystroke_keeps_the_items_of_the_ops_that_stay(qtbot: QtBot) -> None:
    model, view, done = _view(qtbot)
    _show(model, "sin(x) + x*x + exp(-x)")
    qtbot.waitUntil(lambda: len(done) == 1)
    before = dict(view.items)
    scene = view.scene()
    _show(model, "sin(x) + x*x + exp(-x) + x")  # one more op (and its target moves)
    qtbot.waitUntil(lambda: len(done) == 2)
    assert view.scene() is scene  # no new scene
    kept = [nid for nid in before if nid in view.items]
    assert len(kept) == len(before)
    assert all(view.items[nid] is before[nid] for nid in kept)
    assert len(view.items) == len(before) + 1
    _consistent(view)
    target = next(it for it in view.items.values() if it.node.kind == "target")
    assert target.lines()[0][0].endswith("add") or "+" in target.lines()[0][0]
    _show(model, "sin(x) + x*x")  # ops go: their items and edges leave the scene
    qtbot.waitUntil(lambda: len(done) == 3)
    assert view.scene() is scene
    _consistent(view)


def test_the_updated_scene_reads_as_a_fresh_one(qtbot: QtBot) -> None:
    source = "sin(x) + x*x + exp(-x)*tanh(x) + x*1.5"
    model, view, done = _view(qtbot)
    _show(model, "sin(x) + x*x")
    qtbot.waitUntil(lambda: len(done) == 1)
    _show(model, source)
    qtbot.waitUntil(lambda: len(done) == 2)
    updated = {nid: (it.lines(), it.node.kind, it.size()) for nid, it in view.items.items()}
    fresh_model, fresh, fresh_done = _view(qtbot)
    _show(fresh_model, source)
    qtbot.waitUntil(lambda: len(fresh_done) == 1)
    assert {nid: (it.lines(), it.node.kind) for nid, it in fresh.items.items()} == {
        nid: (lines, kind) for nid, (lines, kind, _) in updated.items()
    }
    assert all(fresh.items[nid].size() == size for nid, (_, _, size) in updated.items())


def test_a_different_graph_gets_a_fresh_scene(qtbot: QtBot) -> None:
    model, view, done = _view(qtbot)
    _show(model, "sin(x)")
    qtbot.waitUntil(lambda: len(done) == 1)
    scene = view.scene()
    _show(model, "sin(x) + x*x + exp(-x) * tanh(x)")  # mostly new: not worth updating
    qtbot.waitUntil(lambda: len(done) == 2)
    assert view.scene() is not scene
    _consistent(view)


def test_reusable_wants_most_nodes_kept() -> None:
    class _Plan:
        def __init__(self, ids: list[str]) -> None:
            self.nodes = dict.fromkeys(ids)

    items = dict.fromkeys(["o0", "o1", "o2", "o3"])
    assert scene_update.reusable(items, _Plan(["o0", "o1", "o2", "o3", "o4"]))  # type: ignore[arg-type]
    assert not scene_update.reusable(items, _Plan(["o0", "a", "b", "c"]))  # type: ignore[arg-type]
    assert not scene_update.reusable({}, _Plan(["o0"]))  # type: ignore[arg-type]


@pytest.mark.parametrize("dim", [True, False])
def test_a_scene_built_later_keeps_the_dimming(qtbot: QtBot, dim: bool) -> None:
    model, view, done = _view(qtbot)
    _show(model, "sin(x)")
    qtbot.waitUntil(lambda: len(done) == 1)
    view.set_dimmed(dim)
    _show(model, "tanh(x) * exp(x)")  # a fresh scene, built after the dimming
    qtbot.waitUntil(lambda: len(done) == 2)
    assert view.dimmed is dim
    assert all(it.opacity() == (0.35 if dim else 1.0) for it in view.items.values())


def test_dimming_again_touches_no_item_and_undimming_restores_them(qtbot: QtBot) -> None:
    model, view, done = _view(qtbot)
    _show(model, "sin(x) * cos(x)")
    qtbot.waitUntil(lambda: len(done) == 1)
    view.set_dimmed(True)
    item = next(iter(view.items.values()))
    item.setOpacity(0.5)  # a marker: dimming what is dimmed already leaves it alone
    view.set_dimmed(True)
    assert item.opacity() == 0.5
    view.set_dimmed(False)
    assert not view.dimmed and all(it.opacity() == 1.0 for it in view.items.values())
    view.set_dimmed(False)  # every run without an error says so: nothing to do
    assert all(it.opacity() == 1.0 for it in view.items.values())


def test_a_keystroke_in_a_graph_too_wide_lays_it_out_once(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compact already, and wider than the view at the natural gaps too: no natural layout."""
    from tapeviz.ui.graph import view_build
    from tapeviz.ui.graph.scene import plan_layout

    model, view, done = _view(qtbot)
    view.resize(500, 400)
    source = " + ".join(["x"] + ["sin(x)", "x*x", "tanh(x)"] * 4)
    _show(model, source)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    assert view.layout is not None and view._compact  # the first graph: both layouts
    calls: list[bool] = []

    def counted(*args: object, **kwargs: object) -> object:
        plan = plan_layout(*args, **kwargs)  # type: ignore[arg-type]
        calls.append(plan.compact)
        return plan

    monkeypatch.setattr(view_build, "plan_layout", counted)
    old = {nid: (it.pos().x(), it.pos().y()) for nid, it in view.items.items()}
    _show(model, source + " + x")
    qtbot.waitUntil(lambda: len(done) == 2, timeout=10_000)
    assert calls == [True]
    # what the two layouts would have given: the natural one wanted the compact one
    args = (dict(model.nodes), dict(model.gradients), [(e.source, e.target) for e in model.edges],
            old, view.font_scale, view.engine)  # fmt: skip
    assert view.fitting.wants_compact(plan_layout(*args, False))
    wanted = plan_layout(*args, True).layout.positions
    drawn = {nid: (it.pos().x(), it.pos().y()) for nid, it in view.items.items()}
    assert drawn.keys() == wanted.keys()
    assert all(abs(a - b) < 1e-6 for n in drawn for a, b in zip(drawn[n], wanted[n], strict=True))


def _whole(view: GraphView) -> bool:
    """Whether every item of the graph is built (a big one's part in view comes first)."""
    return not view.building and view._filling is None and bool(view.items)


def _terms(n: int) -> str:
    """An expression of ``n`` terms over x (about 2n ops)."""
    terms = ["sin(x)", "x*x", "tanh(x)", "x*1.5", "exp(-x)"]
    return " + ".join(["x"] + [terms[i % len(terms)] for i in range(n)])


def _big_view(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, labels: bool = False
) -> tuple[GraphModel, GraphView, list[bool]]:
    """A view showing a ~500-node graph whole, whose next update goes by many small slices."""
    from tapeviz.ui.graph import view_build

    monkeypatch.setattr(view_build, "BUILD_SLICE_S", 0.0)  # a few items per event-loop turn
    model, view, done = _view(qtbot)
    view.set_edge_labels(labels)
    _show(model, _terms(200))
    qtbot.waitUntil(lambda: _whole(view), timeout=20_000)  # (a big graph fills by slices)
    return model, view, done


def test_a_keystroke_in_a_big_graph_updates_it_by_slices_behind_the_old_picture(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tapeviz.ui.graph import scene_update, view_build

    model, view, done = _big_view(qtbot, monkeypatch)
    assert len(view.items) > view_build.LAZY_TEXT
    scene = view.scene()
    seen: list[tuple[bool, bool, int]] = []  # (repaints on, building, layouts finished) a slice
    step = scene_update.SceneUpdate.step

    def watched(self: scene_update.SceneUpdate, budget: float) -> bool:
        seen.append((view.viewport().updatesEnabled(), view.building, len(done)))
        return step(self, budget)

    monkeypatch.setattr(scene_update.SceneUpdate, "step", watched)
    _show(model, _terms(200) + " + x*x")
    qtbot.waitUntil(lambda: len(done) == 2, timeout=20_000)
    assert view.scene() is scene and len(seen) > 10  # in place, by many slices
    assert not any(on for on, _, _ in seen)  # the old picture meanwhile
    assert all(building for _, building, _ in seen[:-1])  # (the last: its end, shown at once)
    assert all(finished == 1 for _, _, finished in seen)  # shown once, whole, at the end
    assert view.viewport().updatesEnabled() and not view.building
    _consistent(view)


def _mid_update(monkeypatch: pytest.MonkeyPatch, then: Callable[[], object]) -> None:
    """Call ``then`` on a turn of its own after the next update's second slice."""
    from tapeviz.ui.graph import scene_update
    from tapeviz.ui.turns import later

    step, calls = scene_update.SceneUpdate.step, [0]

    def stepped(self: scene_update.SceneUpdate, budget: float) -> bool:
        calls[0] += 1
        if calls[0] == 2:
            later(then)
        return step(self, budget)

    monkeypatch.setattr(scene_update.SceneUpdate, "step", stepped)


def test_a_new_run_during_a_sliced_update_is_shown_whole(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next run's model arrives between two slices, with more nodes: no mixed graph."""

    model, view, done = _big_view(qtbot, monkeypatch)
    mid: list[bool] = []
    _mid_update(monkeypatch, lambda: (mid.append(view._scene_update is not None),
                                      _show(model, _terms(200) + " + x*x + sin(x)*x")))  # fmt: skip
    _show(model, _terms(200) + " + x*x")
    qtbot.waitUntil(
        lambda: len(done) >= 2 and not view.building and view.items.keys() == model.nodes.keys(),
        timeout=20_000,
    )
    assert mid == [True]  # (it came while the first update went on)
    _consistent(view)  # the second run's graph, nothing of the first left over
    assert view.viewport().updatesEnabled()


def test_a_failed_slice_leaves_no_half_updated_graph(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:

    model, view, done = _big_view(qtbot, monkeypatch)
    scene = view.scene()
    reuse, calls = NodeItem.reuse, [0]

    def failing(self: NodeItem, *args: object) -> None:
        calls[0] += 1
        if calls[0] == 100:
            raise RuntimeError("a bug of ours")
        reuse(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(NodeItem, "reuse", failing)
    with qtbot.captureExceptions() as raised:
        _show(model, _terms(200) + " + x*x")
        qtbot.waitUntil(lambda: len(done) == 2 and _whole(view), timeout=20_000)
    assert [str(e[1]) for e in raised] == ["a bug of ours"]  # (reported, as any slot's error)
    assert view.scene() is not scene  # built afresh
    assert view.viewport().updatesEnabled()
    _consistent(view)


def test_edge_labels_switched_during_a_sliced_update_reach_every_edge(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:

    model, view, _ = _big_view(qtbot, monkeypatch)
    _mid_update(monkeypatch, lambda: view.set_edge_labels(True))
    _show(model, _terms(200) + " + x*x")
    qtbot.waitUntil(lambda: view.show_edge_labels and not view.building, timeout=20_000)
    qtbot.waitUntil(lambda: _whole(view), timeout=20_000)
    labelled = [e for e in view.edge_items if model.edge_label(e.model_edge)]
    assert len(labelled) > 100
    for edge in labelled:
        assert edge.text.isVisible() and edge.text.text() == model.edge_label(edge.model_edge)
    _consistent(view)


def test_nodes_that_jump_to_their_places_take_their_edges_along_once(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too many move to animate: put in place by the update, each edge drawn there once."""
    from PySide6.QtCore import QPointF

    from tapeviz.ui.graph import edge_items, scene

    monkeypatch.setattr(scene, "ANIMATED_MAX", 0)  # any move is a jump
    model, view, done = _view(qtbot)
    view.animation_ms = 200
    _show(model, "sin(x) + x*x + exp(-x)")
    qtbot.waitUntil(lambda: len(done) == 1)
    adjusted: list[int] = []
    adjust = edge_items.EdgeItem.adjust
    monkeypatch.setattr(edge_items.EdgeItem, "adjust",
                        lambda self: (adjusted.append(id(self)), adjust(self))[1])  # fmt: skip
    _show(model, "x + sin(x) + x*x + exp(-x)")  # (the nodes move)
    qtbot.waitUntil(lambda: len(done) == 2)
    places = view.layout.positions
    assert view._animation is None  # no animation: they are there
    assert all(it.pos() == QPointF(*places[nid]) for nid, it in view.items.items())
    assert sorted(adjusted) == sorted(id(e) for e in view.edge_items)  # each once
    for edge in view.edge_items:
        drawn = edge.path()
        adjust(edge)
        assert edge.path() == drawn  # drawn for where its ends are now
    _consistent(view)


def test_an_animated_update_ends_with_every_edge_where_its_ends_are(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tapeviz.ui.graph import scene, view_build

    monkeypatch.setattr(view_build, "BUILD_SLICE_S", 0.0)
    monkeypatch.setattr(scene, "ANIMATED_MAX", 100_000)  # every move animated
    model, view, done = _view(qtbot)
    view.animation_ms = 150
    _show(model, _terms(200))
    qtbot.waitUntil(lambda: _whole(view), timeout=20_000)
    _show(model, "x*x + " + _terms(200))  # (a new first term: most nodes move)
    qtbot.waitUntil(lambda: len(done) == 2 and not view.building, timeout=20_000)
    assert view._animation is not None
    qtbot.waitUntil(lambda: view._animation.state() == view._animation.State.Stopped)
    places = view.layout.positions
    assert all(abs(it.pos().x() - places[nid][0]) < 1e-6 for nid, it in view.items.items())
    for edge in view.edge_items:
        drawn = edge.path()
        edge.adjust()
        assert edge.path() == drawn
    _consistent(view)


def test_a_new_scene_draws_each_edge_along_its_route(qtbot: QtBot) -> None:
    """An edge that crosses layers bends where the layout routed it, from the first paint."""
    model, view, done = _view(qtbot)
    _show(model, _terms(10))
    qtbot.waitUntil(lambda: len(done) == 1)
    routed = [e for e in view.edge_items if e.route]
    assert routed  # (this graph has edges across layers)
    for edge in view.edge_items:
        drawn = edge.path()
        edge.adjust()
        assert edge.path() == drawn


def test_a_graph_shown_whole_tells_the_collector_whether_it_is_big(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big graph's objects are left out of full collections once every item is built."""
    from tapeviz.ui.graph import view_build

    told: list[bool] = []
    monkeypatch.setattr(view_build.workers, "keep_out", told.append)
    monkeypatch.setattr(view_build, "KEPT_OUT_MIN", 20)  # (a big graph, for this test)
    model, view, _ = _view(qtbot)
    assert told == [False]  # (the empty graph it starts with)
    _show(model, _terms(10))  # 25 nodes
    qtbot.waitUntil(lambda: _whole(view) and len(told) == 2)
    assert told == [False, True]
    _show(model, "sin(x) * cos(x)")  # a new, small scene
    qtbot.waitUntil(lambda: len(told) == 3)
    assert told == [False, True, False]


def test_a_selected_node_removed_by_an_update_is_never_announced(qtbot: QtBot) -> None:
    """Its removal changes the scene's selection mid-update; read once, at the end."""
    model, view, done = _view(qtbot)
    _show(model, "sin(x) + x*x + exp(-x)")
    qtbot.waitUntil(lambda: len(done) == 1)
    gone = next(nid for nid, it in view.items.items() if "exp" in it.lines()[0][0])
    view.select(gone)
    announced: list[str] = []
    view.nodeSelected.connect(announced.append)
    _show(model, "sin(x) + x*x")  # the selected node goes
    qtbot.waitUntil(lambda: len(done) == 2)
    assert gone not in announced
    _consistent(view)
