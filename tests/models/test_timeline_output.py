"""Printed lines link to the step that wrote them, and each step finds its lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tapeviz.models.timeline.output import LineSteps, OutputLines
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import run
from tapeviz.sandbox.process.isolated import run_isolated

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
TWO_LOOPS = """import tensorflow as tf
print("start")
x = tf.Variable(1.0)
for step in range(4):
    with tf.GradientTape() as tape:
        y = x * x
    print("first loop", step)
    x.assign_sub(0.1 * tape.gradient(y, x))
v = tf.Variable(2.0)
for step in range(3):
    print("before the tape of", step)
    with tf.GradientTape() as tape:
        z = tf.sin(v)
    tf.print("second loop", step, "z =", z)
    v.assign_sub(0.1 * tape.gradient(z, v))
print("end")
"""


@pytest.mark.parametrize("runner", [run, run_isolated])
def test_the_seed_sgd_prints_link_to_their_steps(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner((SEEDS / "003_2_1_sgd_apply_gradients.py").read_text("utf-8"))
    (tl,) = timelines_of(result)
    lines = OutputLines(result.output, result.output_marks)
    links = LineSteps(lines, tl)
    assert lines.count == 11 and lines.line(1).startswith("step = 20 ;")
    assert [links.step_of(i) for i in range(11)] == [*range(0, 200, 20), 199]
    assert links.lines_of(40).tolist() == [2] and links.lines_of(41).tolist() == []
    assert links.lines_of(199).tolist() == [10]  # the final print belongs to the last step
    assert links.marked_steps().tolist() == [*range(0, 200, 20), 199]
    assert links.step_of(11) is None and links.step_of(-1) is None


def test_two_loops_each_get_their_own_lines() -> None:
    result = run(TWO_LOOPS)
    first, second = timelines_of(result)
    lines = OutputLines(result.output, result.output_marks)
    texts = [lines.line(i) for i in range(lines.count)]
    a, b = LineSteps(lines, first), LineSteps(lines, second)
    assert texts[0] == "start" and a.step_of(0) is None and b.step_of(0) is None
    assert [a.step_of(i) for i in range(1, 5)] == [0, 1, 2, 3]
    # a print before the step's tape is written while the previous step's tape is the newest
    assert texts[5] == "before the tape of 0" and a.step_of(5) == 3 and b.step_of(5) is None
    assert texts[6] == "second loop 0 z = 0.909297407" and b.step_of(6) == 0
    assert b.lines_of(1).tolist() == [8, 9]
    assert texts[8].startswith("second loop 1 z =") and texts[9] == "before the tape of 2"
    assert texts[-1] == "end" and b.step_of(lines.count - 1) == 2


def test_text_without_a_final_newline_and_no_marks() -> None:
    lines = OutputLines("a\nb", [(0, 0)])
    assert lines.count == 2 and [lines.line(0), lines.line(1)] == ["a", "b"]
    assert OutputLines("", []).count == 0
    assert np.array_equal(OutputLines("x\n", []).tapes, [0])
