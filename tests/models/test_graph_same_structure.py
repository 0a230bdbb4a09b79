"""GraphModel notes when a rebuild drew the same nodes and edges (a loop's next step)."""

from __future__ import annotations

import numpy as np

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import run
from tapeviz.sandbox.process.isolated import run_isolated

LOOP = """import tensorflow as tf
x = tf.Variable(0.0)
for step in range(3):
    with tf.GradientTape() as tape:
        y = x * x - 2.0 * x + 1.0
    x.assign_sub(0.1 * tape.gradient(y, x))
with tf.GradientTape() as other:
    z = tf.sin(x)
g = other.gradient(z, x)
"""


def test_the_steps_of_a_loop_keep_the_structure_and_change_the_values() -> None:
    for result in (run(LOOP), run_isolated(LOOP)):
        tapes = [t.tape for t in result.tapes]
        model = GraphModel()
        events: list[bool] = []
        model.changed.connect(lambda m=model, seen=events: seen.append(m.same_structure))
        model.set_tapes(tapes[:1])
        before = {nid: n.value for nid, n in model.nodes.items()}
        model.set_tapes(tapes[1:2])
        assert model.same_structure
        changed = [
            nid for nid, n in model.nodes.items() if not np.array_equal(n.value, before[nid])
        ]
        assert "s0" in changed and model.nodes["s0"].kind == "variable"  # x moved, not the graph
        assert model.gradients  # the new step's gradients, computed again
        model.set_tapes(tapes[3:4])
        assert not model.same_structure  # sin(x): another graph
        model.set_tapes(tapes, current=1)
        assert model.current == 1 and not model.same_structure
        model.set_tapes(tapes, current=2)
        assert model.same_structure
        assert events == [False, True, False, False, True]
