"""A PyTorch backward pass in the graph: nodes named by grad_fn, the pass named by its call."""

from __future__ import annotations

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import run

NEURON = """import torch
x1 = torch.tensor([2.0], requires_grad=True)
w1 = torch.tensor([-3.0], requires_grad=True)
b = torch.tensor([6.8813735870195432], requires_grad=True)
n = x1*w1 + b
o = torch.tanh(n)
o.backward()
"""


def test_nodes_carry_the_grad_fn_names_and_leaves_the_script_names() -> None:
    result = run(NEURON)
    assert result.error is None, result.error
    m = GraphModel(result.tapes, {v.id: k for k, v in result.namespace.items()})
    ops = [n.symbol for n in m.nodes.values() if n.op]
    assert ops == ["MulBackward0", "AddBackward0", "TanhBackward0"]
    leaves = sorted(n.label for n in m.nodes.values() if n.is_source)
    assert leaves == ["b", "w1", "x1"]
    assert m.pass_labels() == ["o.backward()"]


def test_a_tf_tape_keeps_its_op_symbols() -> None:
    result = run("import tensorflow as tf\nx = tf.Variable(2.0)\nwith tf.GradientTape() as t:\n"
                 "    y = x * x\ng = t.gradient(y, x)\n")  # fmt: skip
    m = GraphModel(result.tapes)
    assert [n.symbol for n in m.nodes.values() if n.op] == ["×"]
    assert m.pass_labels()[0].startswith("t.gradient(")


def test_the_grad_fn_names_cross_the_process_wall() -> None:
    import io

    from tapeviz.sandbox.process import results, results_decode, wire

    local = run(NEURON)
    writer = wire.Writer()
    doc = results.encode(local, writer)
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    received = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
    m = GraphModel(received.tapes, {v.id: k for k, v in received.namespace.items()})
    assert [n.symbol for n in m.nodes.values() if n.op] == [
        "MulBackward0", "AddBackward0", "TanhBackward0",
    ]  # fmt: skip
    assert m.pass_labels() == ["o.backward()"]
    tf_doc = results.encode(run("x = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
                                "    y = x * x\n"), wire.Writer())  # fmt: skip
    assert "label_names" not in tf_doc["records"]
