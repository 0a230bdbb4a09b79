"""Each gradient() call is its own backward pass; nested tapes; names the code gives; nan/inf.

Every check runs on the live ``GradientTape`` (``run``) and on the ``RemoteTape`` the window
gets from a worker process (``run_isolated``): the models read both the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.models.graph.call_sites import call_sites
from tapeviz.models.graph.model import GraphModel
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui.graph.expression_panel import names_of

RUNS = {"live": run, "worker": run_isolated}
PERSISTENT = PRESETS["basics-2-2-4-persistent"].source
NESTED = PRESETS["basics-2-2-3-higher-order"].source
TF_FUNCTION = PRESETS["training-1-4-tf-function"].source


def model_for(runner: Callable[..., RunResult], source: str, **kw: Any) -> GraphModel:
    result = runner(source, **kw)
    assert result.error is None, result.error
    return GraphModel(result.tapes, names_of(result), source=source)


def grads(m: GraphModel) -> dict[str, float]:
    return {m.nodes[nid].label: float(v) for nid, v in m.gradients.items() if not np.ndim(v)}


def targets(m: GraphModel) -> list[str]:
    return [n.label for n in m.nodes.values() if n.kind == "target"]


@pytest.mark.parametrize("how", RUNS)
def test_a_persistent_tape_shows_each_gradient_call_as_its_own_pass(how: str) -> None:
    m = model_for(RUNS[how], PERSISTENT)
    assert m.pass_labels() == ["tape.gradient(y, x) → 6", "tape.gradient(z, x) → 108"]
    assert m.entry.call == 1  # the last call by default: what the second print shows
    assert targets(m) == ["z"]
    assert grads(m) == {"x": 108.0, "y": 18.0, "z": 1.0}  # not 114 = d(y + z)/dx
    m.select_call(0)
    assert targets(m) == ["y"]
    assert grads(m) == {"x": 6.0, "y": 1.0}  # z is downstream of y: no gradient
    with pytest.raises(IndexError):
        m.select_call(2)


@pytest.mark.parametrize("how", RUNS)
def test_nested_tapes_show_the_outer_tape_with_both_results(how: str) -> None:
    m = model_for(RUNS[how], NESTED)
    assert [e.name for e in m.entries] == ["tape_2", "tape_1"]
    assert m.entry.name == "tape_2" and m.inside == [None, 0]
    labels = {n.label: n for n in m.nodes.values()}
    assert float(labels["g_1"].value) == 27.0  # the inner gradient, as a value in the graph
    assert grads(m)["x"] == 18.0  # the outer gradient: the second derivative
    assert targets(m) == ["g_1"]
    assert m.pass_labels() == ["tape_2.gradient(g_1, x) → 18"]
    assert m.pass_labels(1) == ["tape_1.gradient(y, x) → 27"]
    inner = [n.op for n in m.nodes.values() if 1 in n.tapes]
    assert inner == ["pow"]  # the inner tape's op is framed inside the outer tape
    m.select(1)
    assert grads(m)["x"] == 27.0


@pytest.mark.parametrize("how", RUNS)
def test_a_functions_locals_are_named_from_its_gradient_call(how: str) -> None:
    m = model_for(RUNS[how], TF_FUNCTION)
    assert [e.name for e in m.entries] == ["tape", "tape", "tape"]
    m.select(2)  # f(tf.constant(1.0)): the watched x is a local of f
    watched = [n for n in m.nodes.values() if n.kind == "watched"]
    assert [n.label for n in watched] == ["x"]  # not "?"
    assert targets(m) == ["y"]
    assert grads(m)["x"] == 0.0
    assert m.pass_labels() == ["tape.gradient(y, x) → 0"]


def test_an_unnamed_watched_tensor_gets_a_name_not_a_value() -> None:
    c = tv.constant(1.0)
    with tv.GradientTape() as tape:
        tape.watch(c)
        y = c * c
    tape.gradient(y, c)
    m = GraphModel([tape])
    assert [n.label for n in m.nodes.values() if n.kind == "watched"] == ["t1"]
    assert m.names[c.id] == "t1"  # the stepper names it so too: "t1.grad", never "1.grad"


def test_call_sites_in_text_order() -> None:
    sites = call_sites(
        "for i in range(2):\n    g = t.gradient(loss, [a, b[0]])\n"
        "h = t.jacobian(target=y, sources=x)\nk = s.gradient(f(x), w)\n"
    )
    assert sites == {
        "t": [(("loss",), ("a", None)), (("y",), ("x",))],
        "s": [((None,), ("w",))],
    }
    assert call_sites("def broken(:\n") == {}


def test_unwatched_sources_get_no_gradient_as_in_gradient() -> None:
    x = tv.Variable(2.0, name="x")
    c = tv.constant(5.0)
    with tv.GradientTape() as tape:
        y = x * c
    _, dc = tape.gradient(y, [x, c])
    assert dc is None
    m = GraphModel([tape], {c.id: "c", y.id: "y"})
    assert grads(m) == {"x": 5.0, "y": 1.0}


PRESET_SCRIPTS = [name for name, p in PRESETS.items() if p.mode == "script"]


@pytest.mark.parametrize("name", PRESET_SCRIPTS)
def test_every_pass_of_every_preset_shows_what_its_call_returned(name: str) -> None:
    source = PRESETS[name].source
    if "num_epoch = 10000" in source or "range(1000)" in source or "train(1000)" in source:
        source = source.replace("10000", "3").replace("1000", "3")  # the same tapes, fewer
    result = run(source)
    m = GraphModel(result.tapes[-12:], names_of(result), source=source)
    checked = 0
    for j, entry in enumerate(m.entries):
        for k, p in enumerate(entry.passes):
            if p.kind != "gradient":
                continue
            m.select(j, k)
            shown = {m.nodes[nid].tensor_id: v for nid, v in m.gradients.items()}
            for s in p.sources:
                want = p.result(s)
                if want is None:
                    assert s not in shown  # gradient() returned None: no gradient on the node
                else:
                    np.testing.assert_allclose(np.asarray(shown[s]), want, rtol=1e-6)
                checked += 1
    assert checked == sum(len(p.sources) for e in m.entries for p in e.passes
                          if p.kind == "gradient")  # fmt: skip


@pytest.mark.parametrize("how", RUNS)
def test_log_of_a_negative_number_and_an_overflow_are_explained(how: str) -> None:
    source = (
        "import tensorflow as tf\nx = tf.Variable(10.0)\nv = tf.Variable(-1.0)\n"
        "with tf.GradientTape() as tape:\n    big = x ** 1000\n    bad = tf.math.log(v)\n"
        "    both = big + bad\ng = tape.gradient(both, [x, v])\n"
    )
    m = model_for(RUNS[how], source)
    notes = {m.nodes[nid].label: note for nid, note in m.notes.items()}
    assert notes["big"].code == "overflow" and notes["big"].result == "inf"
    assert notes["big"].limit == "3.403e+38" and notes["big"].origin
    assert notes["bad"].code == "log_negative" and notes["bad"].operand == "-1"
    assert notes["bad"].result == "nan"
    assert notes["both"].code == "propagated" and not notes["both"].origin
    assert "x" not in notes  # the sources are finite


def test_division_by_zero_and_bad_inputs() -> None:
    a, z = tv.constant(1.0), tv.constant(0.0)
    n = tv.Variable(float("nan"), name="n")
    with tv.GradientTape() as tape:
        tape.watch([a, z])
        q = a / z
        zz = z / z
        s = tv.sqrt(a - 2.0)
        m2 = n * 2.0
    m = GraphModel([tape], {q.id: "q", zz.id: "zz", s.id: "s", m2.id: "m2"})
    notes = {m.nodes[nid].label: note.code for nid, note in m.notes.items()}
    assert notes == {"q": "divide_zero", "zz": "zero_divide_zero", "s": "sqrt_negative",
                     "n": "input", "m2": "propagated"}  # fmt: skip


def test_call_sites_of_a_text_without_them_and_of_non_ascii_names() -> None:
    assert call_sites("x + sin(x) + tanh(x)*x") == {}  # (not parsed: no method's name in it)
    # Python reads full-width letters as ASCII ones: this is t.gradient(y, x)
    assert call_sites("g = t.\uff47radient(y, x)\n") == {"t": [(("y",), ("x",))]}
