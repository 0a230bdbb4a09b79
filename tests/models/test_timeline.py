"""A script's own training loop as a timeline: every seed training script, in-process and from the
worker, ends its curves on what TensorFlow prints; the raw-years regression says where it
diverged and why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tapeviz.models.timeline.timeline import Timeline, timelines_of, write_csv
from tapeviz.sandbox import Limits, RunResult, run
from tapeviz.sandbox.process.isolated import run_isolated

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
CELLS = {c["name"]: c for c in json.loads((SEEDS / "seeds.json").read_text("utf-8"))["cells"]}
LIMITS = Limits(wall_time=120)
RUNNERS = {"in-process": run, "worker": run_isolated}


def program(name: str) -> str:
    names = [*CELLS[name]["after"], name]
    return "\n".join((SEEDS / CELLS[n]["file"]).read_text("utf-8") for n in names)


def timelines(name: str, where: str) -> tuple[RunResult, list[Timeline]]:
    result = RUNNERS[where](program(name), limits=LIMITS)
    assert result.error is None, result.error
    return result, timelines_of(result)


def f32(text: str) -> np.float32:
    return np.float32(float(text))


def check_sgd_loop(tl: Timeline) -> None:
    """The seed's 200 SGD steps: every value TensorFlow printed is on the curves."""
    assert tl.steps == 200 and tl.loop.period == 1
    assert [p.name for p in tl.parameters] == ["x"]
    x = tl.values(0)
    assert len(x) == 201 and len(tl.loss) == 200
    printed = CELLS["003_2_1_sgd_apply_gradients"]["output"].splitlines()
    for line in printed[:-1]:  # step = k ; y = … ; x = …  (printed before the update)
        k, y, xk = re.fullmatch(r"step = (\d+) ; y = (\S+) ; x = (\S+)", line).groups()
        assert np.float32(tl.loss[int(k)]) == f32(y), line
        assert np.float32(x[int(k)]) == f32(xk), line
    y, xk = re.fullmatch(r"y = (\S+) ; x = (\S+)", printed[-1]).groups()
    assert np.float32(tl.loss[-1]) == f32(y) == np.float32(0.0003221035)
    assert np.float32(x[-1]) == f32(xk) == np.float32(0.98241204)  # after the last step
    assert tl.grad_norm[0] == 2.0 and tl.divergence is None


@pytest.mark.parametrize("where", RUNNERS)
def test_sgd_apply_gradients(where: str) -> None:
    result, found = timelines("003_2_1_sgd_apply_gradients", where)
    (tl,) = found
    check_sgd_loop(tl)
    assert tl.loss_name == "y"
    assert [t.tape for t in tl.step_tapes(7)] == [result.tapes[7].tape]


@pytest.mark.parametrize(
    "name", ["003_2_2_minimize", "003_2_3_autograph_apply_gradients", "003_2_4_autograph_minimize"]
)
@pytest.mark.parametrize("where", RUNNERS)
def test_minimize_and_tf_function_loops_after_the_sgd_loop(name: str, where: str) -> None:
    result, found = timelines(name, where)
    assert len(result.tapes) == 1200
    first, second = found  # the seed runs after 2.1: two loops, one timeline each
    check_sgd_loop(first)
    assert (second.loop.start, second.steps, second.number) == (200, 1000, 2)
    x = second.values(0)
    assert np.float32(x[-1]) == np.float32(0.999998569)  # TensorFlow's final x
    assert x[0] == 0 and np.float32(x[1]) == np.float32(0.02)
    assert second.loss[0] == 1.0 and second.loss[-1] == 0.0  # f in float32 is exactly 0 there
    assert second.divergence is None


@pytest.mark.parametrize("where", RUNNERS)
def test_raw_years_regression_diverges_where_tensorflow_does(where: str) -> None:
    _, (tl,) = timelines("003_2_1_linear_regression_raw", where)
    assert tl.steps == 10_000 and [p.name for p in tl.parameters] == ["a", "b"]
    a, b = tl.values(0), tl.values(1)
    assert np.float32(tl.loss[0]) == np.float32(1.1435e9)
    assert (np.float32(a[1]), np.float32(b[1])) == (np.float32(151138.5), np.float32(75))
    assert a[2] < 0 < a[1] and abs(a[3] / a[2]) > 1e4  # the sign flips and grows ~2·10⁴×
    assert np.isinf(tl.loss[4]) and not np.isinf(tl.loss[3])  # inf from epoch 4
    assert a[8] == -np.inf and np.isfinite(a[7])  # a = -inf after epoch 7
    assert np.isnan(tl.loss[9]) and not np.isnan(tl.loss[8])  # nan from epoch 9 on
    assert np.isnan(a[-1]) and np.isnan(b[-1])
    d = tl.divergence
    assert d is not None and d.step == 1
    assert d.optimizer is not None and d.optimizer.kind == "SGD"
    assert np.isclose(d.optimizer.learning_rate, 5e-4, rtol=1e-3)  # read from the steps
    assert (4, "loss", "inf") in d.milestones and (9, "loss", "nan") in d.milestones
    assert (8, "a", "-inf") in d.milestones
    assert d.text.startswith("Diverged at step 1: the loss grew to 4.64e17")
    assert "lr 5e-4 > 2/λmax = 4.93e-8: gradient descent diverges; normalize the inputs" in d.text
    assert "loss becomes inf at step 4 and nan at step 9." in d.text
    assert "a becomes -inf at step 8 and nan at step 9." in d.text


def test_normalized_regression_converges_to_the_seed_numbers() -> None:
    _, (tl,) = timelines("003_2_1_linear_regression_normalized", "worker")
    assert tl.steps == 10_000 and tl.divergence is None
    assert f"{tl.values(0)[-1]:.5g}" == "0.97637" and f"{tl.values(1)[-1]:.5g}" == "0.057565"
    assert np.all(np.diff(tl.loss) <= 0)  # gradient descent below 2/λmax: the loss only falls


def test_a_few_unrelated_tapes_make_no_timeline() -> None:
    for name in ("000_2_2_3_higher_order", "000_2_2_6_control_flow", "003_1_4_tf_function",
                 "000_2_2_4_persistent", "003_1_3_second_derivative"):  # fmt: skip
        result = run(program(name))
        assert timelines_of(result) == [], name
    assert timelines_of(run("x = 1")) == []


NEWTON = """import tensorflow as tf
x = tf.Variable(3.0)
for i in range(6):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x ** 3 - 2.0 * x - 5.0
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    x.assign_sub(y / dy)
"""


@pytest.mark.parametrize("where", RUNNERS)
def test_nested_tapes_inside_a_loop(where: str) -> None:
    result = RUNNERS[where](NEWTON)
    assert result.error is None and len(result.tapes) == 12
    (tl,) = timelines_of(result)
    assert (tl.steps, tl.loop.period, tl.main) == (6, 2, 1)  # the inner tape holds the loss y
    assert tl.loss_name == "y" and tl.parameters[0].name == "x"
    assert np.isclose(tl.values(0)[-1], 2.0945515, atol=1e-5)  # the root of x³ − 2x − 5
    assert abs(tl.loss[-1]) < 1e-4 < abs(tl.loss[0])
    assert np.isclose(tl.grad_norm[0], 3 * 9 - 2)  # |dy/dx| at x = 3
    assert [t.tape for t in tl.step_tapes(2)] == [result.tapes[4].tape, result.tapes[5].tape]


def test_a_loop_that_changes_structure_is_two_timelines() -> None:
    source = """import tensorflow as tf
x = tf.Variable(1.0)
for step in range(10):
    with tf.GradientTape() as tape:
        y = x * x if step < 4 else x * x * x
    x.assign_sub(0.1 * tape.gradient(y, x))
"""
    first, second = timelines_of(run(source))
    assert (first.loop.start, first.steps) == (0, 4)
    assert (second.loop.start, second.steps) == (4, 6)
    assert first.values(0)[-1] == np.float32(second.values(0)[0])  # the next read, not the end


TENSORS = """import tensorflow as tf
import numpy as np
W = tf.Variable(np.ones((3, 4), dtype=np.float32))
X = tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)
opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.5)
for step in range(20):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(X, tf.transpose(W))))
    opt.apply_gradients([(tape.gradient(loss, W), W)])
"""


@pytest.mark.parametrize("where", RUNNERS)
def test_tensor_parameters_by_norm_or_element(where: str) -> None:
    result = RUNNERS[where](TENSORS)
    (tl,) = timelines_of(result)
    (p,) = tl.parameters
    assert (p.name, p.shape, p.label) == ("W", (3, 4), "‖W‖")
    w0 = np.ones((3, 4))
    assert tl.values(0)[0] == pytest.approx(np.linalg.norm(w0))
    final = result.namespace["W"].numpy()
    assert tl.values(0)[-1] == pytest.approx(float(np.linalg.norm(final)), rel=1e-6)
    assert tl.values(0, element=5)[-1] == final.reshape(-1)[5]
    assert np.array_equal(tl.value_at(0, tl.steps), final)
    assert tl.values(0, element=99)[0] != tl.values(0, element=99)[0]  # nan: no such element


def test_momentum_divergence_names_the_momentum_bound() -> None:
    source = """import tensorflow as tf
x = tf.Variable(1.0)
opt = tf.keras.optimizers.SGD(learning_rate=1.5, momentum=0.5)
for step in range(40):
    with tf.GradientTape() as tape:
        y = 2.0 * x * x
    opt.apply_gradients([(tape.gradient(y, x), x)])
"""
    (tl,) = timelines_of(run(source))
    d = tl.divergence
    assert d is not None and d.optimizer is not None
    assert d.optimizer.kind == "Momentum"
    assert d.optimizer.values["momentum"] == pytest.approx(0.5, rel=1e-3)
    assert "2(1 + β)/λmax = 0.75" in d.text  # λmax = 4: 2·1.5/4


def test_an_update_that_is_no_gradient_step_gets_no_learning_rate_advice() -> None:
    source = """import tensorflow as tf
x = tf.Variable(1.5)
for step in range(12):
    with tf.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x)
    x.assign(x * x + 1.0)
"""
    (tl,) = timelines_of(run(source))
    d = tl.divergence
    assert d is not None and d.optimizer is None
    assert "lr" not in d.text and "do not follow plain gradient descent" in d.text


def test_a_gradient_of_none_has_no_norm() -> None:
    source = """import tensorflow as tf
x = tf.Variable(1.0)
z = tf.Variable(2.0)
for step in range(5):
    with tf.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, [x, z])
    x.assign_sub(0.1 * g[0])
"""
    (tl,) = timelines_of(run(source))
    assert [p.name for p in tl.parameters] == ["x", "z"]
    assert tl.grad_norm[0] == 2.0  # z's None gradient adds nothing
    assert np.isnan(tl.values(1)[0])  # z is never read by the tape


def test_csv_has_a_row_per_step_and_the_final_values(tmp_path: Path) -> None:
    _, (tl,) = timelines("003_2_1_sgd_apply_gradients", "in-process")
    path = write_csv(tl, tmp_path / "loop.csv")
    rows = path.read_text().splitlines()
    assert rows[0] == "step,y,grad_norm,x"
    assert rows[1] == "0,1,2,0"
    assert rows[-1] == "200,,,0.98241204"
    assert rows[-2].startswith("199,0.0003221035,")
    assert len(rows) == 1 + 201
