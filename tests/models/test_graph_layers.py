"""A network's graph folded by layer: one box per Keras layer or torch module call.

Every check runs on the live tapes (``run``) and on the tapes a worker sends (``run_isolated``),
since the window only ever sees the second kind.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tapeviz.models.graph.layers import LAYER_PREFIX, leaf_scopes
from tapeviz.models.graph.model import GraphModel, GraphOptions
from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui.graph.expression_panel import names_of

RUNS = {"live": run, "worker": run_isolated}

KERAS = """import numpy as np
import tensorflow as tf
from tensorflow import keras
x = np.linspace(-1, 1, 16, dtype="float32").reshape(8, 2)
y = np.ones((8, 1), "float32")
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, activation="tanh"),
                          keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
"""

TORCH = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 8)
        self.fc2 = nn.Linear(8, 1)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
net = Net()
x = torch.randn(16, 2)
loss = F.mse_loss(net(x), torch.zeros(16, 1))
loss.backward()
"""


def model_for(runner: Callable[..., RunResult], source: str, **kw: object) -> GraphModel:
    result = runner(source)
    assert result.error is None, result.error
    return GraphModel(result.tapes, names_of(result), source=source, **kw)  # type: ignore[arg-type]


def layers(m: GraphModel) -> dict[str, object]:
    return {nid: n for nid, n in m.nodes.items() if n.kind == "layer"}


def is_acyclic(m: GraphModel) -> bool:
    order = {nid: k for k, nid in enumerate(m.nodes)}
    return all(order[e.source] < order[e.target] for e in m.edges)


@pytest.mark.parametrize("runner", RUNS.values(), ids=RUNS.keys())
def test_each_dense_layer_is_one_box_with_its_shapes_and_parameters(runner: Callable) -> None:
    m = model_for(runner, KERAS)
    boxes = layers(m)
    assert [n.label for n in boxes.values()] == ["dense", "dense_1"]
    first, second = boxes.values()
    assert first.formula.splitlines()[:2] == ["(8, 2) → (8, 4)", "kernel · bias"]
    assert second.formula.splitlines()[0] == "(8, 4) → (8, 1)"
    # the parameters are inside their boxes, not drawn as separate nodes
    assert not [n for n in m.nodes.values() if n.kind == "variable"]
    assert first.params[0].endswith("kernel") and len(first.members) == 3  # matmul, add, tanh
    assert np.shape(first.value) == (8, 4)
    assert is_acyclic(m)
    # δ of a layer's output is the gradient its box shows
    assert np.shape(m.gradients[next(iter(boxes))]) == (8, 4)


def test_a_torch_modules_glue_stays_between_its_layers() -> None:
    m = model_for(run_isolated, TORCH)  # the worker names the parameters as the module does
    boxes = layers(m)
    assert [n.label for n in boxes.values()] == ["fc1", "fc2"]
    assert next(iter(boxes.values())).formula.splitlines()[1] == "weight · bias"
    relu = [n for n in m.nodes.values() if n.symbol == "ReluBackward0"]
    assert len(relu) == 1  # net's own forward: not folded into a box of its own
    assert is_acyclic(m)


def test_the_innermost_scopes_fold() -> None:
    result = run(TORCH)
    records = result.tapes[0].tape.records
    assert leaf_scopes(records) == [("net", "fc1"), ("net", "fc2")]


def test_a_layer_expands_to_its_ops_and_folds_back() -> None:
    m = model_for(run, KERAS)
    n_folded = len(m.nodes)
    lid = LAYER_PREFIX + "sequential/dense"
    assert m.toggle_layer(lid)
    assert lid not in m.nodes and m.options.expanded == ("sequential/dense",)
    assert len(m.nodes) > n_folded
    op = m.node_for_record(0)
    assert op == "o0"  # the expanded layer's first op is itself again
    assert m.toggle_layer(op)
    assert lid in m.nodes and m.options.expanded == ()
    assert not m.toggle_layer("o7")  # an op outside every layer: nothing to fold


def test_records_map_to_their_box_and_unfolded_graphs_are_unchanged() -> None:
    m = model_for(run, KERAS)
    assert m.node_for_record(0) == LAYER_PREFIX + "sequential/dense"
    assert m.node_for_record(4) == LAYER_PREFIX + "sequential/dense_1"
    flat = model_for(run, KERAS, options=GraphOptions(fold_layers=False))
    assert not layers(flat) and "o0" in flat.nodes
    plain = model_for(run, "import tensorflow as tf\nx = tf.Variable(2.0)\n"
                      "with tf.GradientTape() as t:\n    y = x * x\n")  # fmt: skip
    assert not layers(plain)
