"""Acceptance: every code block of both seed tutorials runs and prints what TensorFlow prints.

The blocks live verbatim in ``assets/seeds`` (with ``import tensorflow as tf``); here ``tensorflow``
is bound to ``tapeviz.tf``, the TF-compatible namespace. Oracles: ``shared/SEED-OUTPUTS.md``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
import tapeviz.tf

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
MANIFEST = json.loads((SEEDS / "seeds.json").read_text(encoding="utf-8"))
CELLS = {c["name"]: c for c in MANIFEST["cells"]}


def _exec_cell(name: str, ns: dict[str, Any]) -> Any:
    """Run one cell in ``ns`` like a notebook does; return its last expression's value."""
    source = (SEEDS / CELLS[name]["file"]).read_text(encoding="utf-8")
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, CELLS[name]["file"], "exec"), ns)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), CELLS[name]["file"], "eval"), ns)


def run_cell(name: str) -> tuple[dict[str, Any], str, Any]:
    """Run a cell after the cells it relies on; return (namespace, its output, its value)."""
    ns: dict[str, Any] = {"__name__": "__seed__"}
    for dep in CELLS[name]["after"]:
        for sub in CELLS[dep]["after"]:
            _exec_cell(sub, ns)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            _exec_cell(dep, ns)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        value = _exec_cell(name, ns)
    return ns, out.getvalue(), value


@pytest.fixture(autouse=True)
def _tensorflow_is_tapeviz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tensorflow", tapeviz.tf)


RUNNABLE = [c["name"] for c in MANIFEST["cells"] if not c["raises"] and c["name"] != "000_0_import"]


def test_manifest_lists_every_cell_file() -> None:
    files = sorted(p.name for p in SEEDS.glob("*.py"))
    assert files == sorted(c["file"] for c in MANIFEST["cells"])
    assert len(RUNNABLE) == 19  # 20 tutorial blocks (one raises) + the normalized variant


@pytest.mark.parametrize("name", RUNNABLE)
def test_seed_block_prints_what_tensorflow_prints(name: str) -> None:
    _, output, value = run_cell(name)
    assert output == CELLS[name]["output"]
    expected = CELLS[name]["value"]
    if expected is not None:
        assert isinstance(value, np.float32)
        assert float(value) == expected


def test_second_gradient_of_non_persistent_tape_raises_runtime_error() -> None:
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        run_cell("000_2_2_3_non_persistent_twice")


def test_control_flow_block_computes_x_cubed_derivatives() -> None:
    ns, _, _ = run_cell("000_2_2_6_control_flow")
    x = ns["x"]
    assert ns["grad"](x, 6).numpy() == 12.0
    assert ns["grad"](x, 5).numpy() == 12.0
    assert ns["f"](x, 4).numpy() == 4.0


def test_sgd_block_reaches_tensorflows_float32_number() -> None:
    ns, _, _ = run_cell("003_2_1_sgd_apply_gradients")
    assert ns["x"].numpy() == np.float32(0.98241204)
    assert ns["x"].dtype is tv.float32
    assert int(ns["optimizer"].iterations.numpy()) == 200


def test_minimize_blocks_reach_the_minimum() -> None:
    for name in (
        "003_2_2_minimize",
        "003_2_3_autograph_apply_gradients",
        "003_2_4_autograph_minimize",
    ):
        ns, _, _ = run_cell(name)
        assert ns["x"].numpy() == np.float32(0.999998569)


def test_tf_function_keeps_the_trace_of_its_last_call() -> None:
    ns, _, _ = run_cell("003_1_4_tf_function")
    f = ns["f"]
    assert f.call_count == 2
    trace = f.last_trace
    assert trace is not None
    names = [r.name for r in trace.records]
    assert "pow" in names and "cast" in names
    dy_dx, y = trace.result
    assert float(dy_dx) == 0.0 and float(y) == 0.0


def test_raw_linear_regression_diverges_to_nan_like_tensorflow() -> None:
    ns, _, _ = run_cell("003_2_1_linear_regression_raw")
    assert np.isnan(ns["a"].numpy()) and np.isnan(ns["b"].numpy())


def test_raw_linear_regression_trajectory_matches_tensorflow() -> None:
    x = tv.constant(np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32))
    y = tv.constant(np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32))
    a, b = tv.Variable(0.0), tv.Variable(0.0)
    opt = tv.optimizers.SGD(learning_rate=5e-4)
    history = []
    for _ in range(12):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(tv.square(a * x + b - y))
        grads = tape.gradient(loss, [a, b])
        history.append((float(loss), float(a), float(b)))
        opt.apply_gradients(zip(grads, [a, b], strict=True))
    assert history[0] == (1143500032.0, 0.0, 0.0)  # 1.1435e9 in float32
    assert history[1][1:] == (151138.5, 75.0)
    signs = [np.sign(h[1]) for h in history[1:8]]
    assert signs == [1, -1, 1, -1, 1, -1, 1]  # the sign of a flips every epoch
    assert np.isinf(history[4][0]) and not np.isinf(history[3][0])  # loss inf from epoch 4
    assert history[8][1] == -np.inf  # a = -inf after epoch 7
    assert all(np.isnan(h[0]) for h in history[9:])  # nan from epoch 9 on


def test_normalized_linear_regression_converges() -> None:
    ns, _, _ = run_cell("003_2_1_linear_regression_normalized")
    assert float(ns["a"]) == pytest.approx(0.97637, rel=1e-4)
    assert float(ns["b"]) == pytest.approx(0.057565, rel=1e-3)


def test_the_seeds_print_through_tf_print_to_stderr_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tapeviz.tf.print("x =", tv.constant(0.332391977))
    captured = capsys.readouterr()
    assert captured.err == "x = 0.332391977\n" and captured.out == ""
