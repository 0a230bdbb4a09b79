"""Descent histories: TF's exact numbers, eager = replay = batched, divergence, chunks, CSV."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from tapeviz.engine.printing import format_number
from tapeviz.models.descent.optimizer_config import KINDS, OptimizerConfig, RunConfig
from tapeviz.models.descent.problem import Problem, ProblemError
from tapeviz.models.descent.replay import Replay
from tapeviz.models.descent.runs import Cancelled, compute_race, tape_at, write_csv
from tapeviz.sandbox import VariableSpec as V

QUADRATIC = Problem(
    "a*x**2 + b*x + c",
    [V("x", 0.0), V("a", 1.0, "constant"), V("b", -2.0, "constant"), V("c", 1.0, "constant")],
)
ROSENBROCK = Problem(
    "(1 - x)**2 + 100*(y - x**2)**2", [V("x", -1.2, dtype="float64"), V("y", 1.0, dtype="float64")]
)
X = [2013.0, 2014.0, 2015.0, 2016.0, 2017.0]
Y = [12000.0, 14000.0, 15000.0, 16500.0, 17500.0]
LINREG_RAW = Problem(
    "sum(square(a*X + b - y))",
    [V("a", 0.0), V("b", 0.0), V("X", X, "constant"), V("y", Y, "constant")],
)
# What TensorFlow's tf.print shows in the seed's loop (step, y = f(x_k), x = x_k).
TF_LINES = [
    (0, "1", "0"),
    (20, "0.445700467", "0.332391977"),
    (40, "0.19864893", "0.554299474"),
    (60, "0.0885379314", "0.702446759"),
    (80, "0.0394613743", "0.80135107"),
    (100, "0.0175879598", "0.867380381"),
    (120, "0.00783896446", "0.911462188"),
    (140, "0.00349384546", "0.940891385"),
    (160, "0.00155723095", "0.960538507"),
    (180, "0.000694036484", "0.973655164"),
]


def run(kind: str, **values: float) -> RunConfig:
    return RunConfig(OptimizerConfig(kind, values))


def every_optimizer() -> list[RunConfig]:
    return [
        run("SGD", learning_rate=1e-3),
        run("Momentum", learning_rate=1e-3),
        run("Nesterov", learning_rate=1e-3),
        run("Adam", learning_rate=0.05),
        run("RMSprop", learning_rate=1e-3, momentum=0.5),
        run("Adagrad", learning_rate=0.1),
    ]


@pytest.mark.parametrize("method", ["eager", "replay", "batched"])
def test_seed_quadratic_prints_tensorflows_numbers(method: str) -> None:
    runs = [run("SGD", learning_rate=0.01)] * (2 if method == "batched" else 1)
    race = compute_race(QUADRATIC, runs, 200, method=method)
    h = race.runs[0]
    assert race.method == method
    assert h.params.dtype == np.float32
    for step, y, x in TF_LINES:
        assert (format_number(h.loss[step]), format_number(h.param("x")[step])) == (y, x)
    assert format_number(h.param("x")[200]) == "0.98241204"
    assert format_number(h.loss[199]) == "0.0003221035"  # the seed's final "y ="


def test_quadratic_1000_steps_reaches_tfs_minimize_result() -> None:
    h = compute_race(QUADRATIC, [run("SGD", learning_rate=0.01)], 1000).runs[0]
    assert format_number(h.param("x")[1000]) == "0.999998569"
    assert h.loss[1000] == 0  # f evaluates to exactly 0 in float32


@pytest.mark.parametrize("method", ["replay", "batched"])
def test_replay_agrees_with_a_fresh_tape_every_step_bit_for_bit(method: str) -> None:
    eager = compute_race(ROSENBROCK, every_optimizer(), 300, method="eager")
    fast = compute_race(ROSENBROCK, every_optimizer(), 300, method=method)
    assert fast.method == method
    for a, b in zip(eager.runs, fast.runs, strict=True):
        assert np.array_equal(a.params, b.params)
        assert np.array_equal(a.grads, b.grads)
        assert np.array_equal(a.loss, b.loss)


def test_scalar_math_ops_replay_exactly_in_float32() -> None:
    # numpy's scalar pow/mod differ from its array ufuncs in the last bit for some inputs;
    # the batched replay must take the scalar route for them.
    problem = Problem(
        "x**3 + (y - 0.3)**2 * 1.7 + (x*y) % 0.5 + exp(sin(x)) + sqrt(y*y + 1)",
        [V("x", 0.731), V("y", -1.27)],
    )
    runs = [run("SGD", learning_rate=1e-3), run("Adam", learning_rate=1e-2)]
    eager = compute_race(problem, runs, 400, method="eager")
    batched = compute_race(problem, runs, 400, method="batched")
    for a, b in zip(eager.runs, batched.runs, strict=True):
        assert np.array_equal(a.params, b.params)


@pytest.mark.parametrize(
    ("text", "dtype", "points"),
    [
        ("x**2", "float32", [-0.8374545, 2.6934352, -2.708496, 3.7995226]),
        (
            "x**1.7",
            "float64",
            [0.6177485809438543, 1.6669522830578607, 4.031912448351312, 2.2726390267573775],
        ),
    ],
)
def test_batched_replay_takes_numpys_scalar_route(text: str, dtype: str, points: list) -> None:
    # At these points numpy's array pow differed from its scalar pow (the eager path's) by 1 ulp
    # on an AVX-512 machine (SVML): a batched replay with plain arrays would drift from TF.
    loss = Problem(text, [V("x", points[0], dtype=dtype)]).compile()
    replay = Replay(loss.trace(Problem(text, [V("x", 1.0, dtype=dtype)]).start()))
    values, grads = replay.batch([np.array(points, dtype=dtype)])
    for i, p in enumerate(points):
        eager_loss, eager_grads, _ = loss.gradient(loss.variables([p]))
        assert values[i] == eager_loss._value and grads[0][i] == eager_grads[0]._value


def test_pow_with_a_trainable_exponent_replays_exactly() -> None:
    problem = Problem("(x - 2)**2 + 1.5**y + y**2", [V("x", 0.5), V("y", 0.8)])
    runs = [run("SGD", learning_rate=0.01), run("Momentum", learning_rate=0.01)]
    eager = compute_race(problem, runs, 200, method="eager")
    batched = compute_race(problem, runs, 200, method="batched")
    for a, b in zip(eager.runs, batched.runs, strict=True):
        assert np.array_equal(a.params, b.params)


def test_array_parameters_replay_exactly() -> None:
    problem = Problem(
        "mean(square(matmul(A, w) - t)) + 0.01*sum(w*w)",
        [
            V("w", [[0.5], [-0.25]]),
            V("A", [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], "constant"),
            V("t", [[1.0], [2.0], [0.0]], "constant"),
        ],
    )
    eager = compute_race(problem, every_optimizer()[:4], 150, method="eager")
    fast = compute_race(problem, every_optimizer()[:4], 150)
    assert fast.method == "replay"
    assert fast.runs[0].names == ("w[0,0]", "w[1,0]")
    for a, b in zip(eager.runs, fast.runs, strict=True):
        assert np.array_equal(a.params, b.params)


def test_history_columns() -> None:
    h = compute_race(ROSENBROCK, [run("SGD", learning_rate=1e-3)], 100).runs[0]
    assert h.steps == 100 and len(h.step) == 101
    assert h.loss[0] == pytest.approx(24.2)
    assert h.params[0].tolist() == [-1.2, 1.0]
    assert h.grads[0] == pytest.approx([-215.6, -88.0])
    assert h.grad_norm[0] == pytest.approx(np.hypot(215.6, 88.0))
    assert h.update[0] == pytest.approx(1e-3 * h.grad_norm[0])
    assert np.isnan(h.update[100])
    assert [float(v) for v in h.values_at(100)] == h.params[100].tolist()


def test_seed_linear_regression_on_raw_years_diverges_like_tensorflow() -> None:
    race = compute_race(LINREG_RAW, [run("SGD", learning_rate=5e-4)], 10_000)
    h = race.runs[0]
    a, b = h.param("a"), h.param("b")
    assert format_number(h.loss[0]) == "1.1435e+09"
    assert (format_number(a[1]), format_number(b[1])) == ("151138.5", "75")
    assert np.all(np.sign(a[1:8]) == [1, -1, 1, -1, 1, -1, 1])  # flips, ~2·10⁴× per epoch
    assert np.isfinite(h.loss[3]) and np.isinf(h.loss[4])  # loss inf from epoch 4
    assert np.isfinite(a[7]) and a[8] == -np.inf  # a = -inf after epoch 7
    assert np.isnan(h.loss[9]) and np.isnan(a[9])
    assert h.steps == 10 and np.isnan(h.params[10]).all()  # kept until every value is nan
    d = h.divergence
    assert d is not None and d.step == 1 and d.reason == "grew" and d.quadratic
    assert d.lam_max == pytest.approx(2 * sum(v * v for v in X), rel=1e-3)
    assert "lr 5e-4 > 2/λmax = 4.93e-8: gradient descent diverges" in d.text
    assert "lower lr below 4.93e-8" in d.text


def test_divergence_explains_momentum_and_unbounded_losses() -> None:
    ill = Problem("0.1*x1**2 + 2*x2**2", [V("x1", -5.0), V("x2", -2.0)])
    race = compute_race(
        ill, [run("SGD", learning_rate=0.6), run("Momentum", learning_rate=1.5, momentum=0.5)], 40
    )
    gd, heavy = race.runs
    assert gd.divergence is not None and gd.divergence.step == 21
    assert "lr 0.6 > 2/λmax = 0.5" in gd.divergence.text
    assert heavy.divergence is not None
    assert "2(1 + β)/λmax = 0.75" in heavy.divergence.text
    saddle = Problem("x**2 - y**2", [V("x", 1.0), V("y", 0.001)])
    h = compute_race(saddle, [run("Momentum", learning_rate=0.01)], 200).runs[0]
    assert h.divergence is not None and h.divergence.reason == "fell"
    assert "unbounded below" in h.divergence.text


def test_progress_and_cancel() -> None:
    seen: list[float] = []
    race = compute_race(ROSENBROCK, every_optimizer(), 2000, progress=seen.append)
    assert seen[-1] == 1.0 and race.length == 2000
    with pytest.raises(Cancelled):
        compute_race(ROSENBROCK, every_optimizer(), 2000, cancelled=lambda: True)


@pytest.mark.parametrize(
    ("problem", "steps", "message"),
    [
        (Problem("3*c", [V("x", 1.0), V("c", 2.0, "constant")]), 10, "does not depend"),
        (Problem("x*", [V("x", 1.0)]), 10, "syntax|invalid|expected|incomplete"),
        (Problem("x*y", [V("x", 1.0, "constant"), V("y", 1.0, "constant")]), 10, "no trainable"),
        (Problem("x + [1.0, 2.0]", [V("x", 1.0)]), 10, "single number"),
        (Problem("x", [V("x", 1.0)]), 0, "steps"),
    ],
)
def test_bad_problems_raise_problem_error(problem: Problem, steps: int, message: str) -> None:
    with pytest.raises(ProblemError, match=message):
        compute_race(problem, [run("SGD")], steps)


def test_tape_at_gives_the_tape_of_that_step() -> None:
    race = compute_race(QUADRATIC, [run("SGD", learning_rate=0.01)], 200)
    result = race.tape_at(0, 20)
    assert result.ok and format_number(result.namespace["x"].numpy()) == "0.332391977"
    assert format_number(result.value.numpy()) == "0.445700467"
    assert result.gradients["x"].numpy() == race.runs[0].grads[20, 0]
    again = tape_at(QUADRATIC, race.runs[0], 20)
    assert again.tapes[0].tape.pretty() == result.tapes[0].tape.pretty()


def test_csv_has_a_row_per_run_and_step(tmp_path) -> None:
    race = compute_race(ROSENBROCK, every_optimizer()[:3], 50)
    path = write_csv(race, tmp_path / "runs.csv")
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows[0] == [
        "run",
        "optimizer",
        "step",
        "loss",
        "x",
        "y",
        "grad_x",
        "grad_y",
        "update_size",
        "grad_norm",
    ]
    assert len(rows) == 1 + 3 * 51
    assert float(rows[1 + 51 + 7][4]) == race.runs[1].params[7, 0]  # round-trips exactly


def test_optimizer_configs_validate() -> None:
    assert set(KINDS) == {"SGD", "Momentum", "Nesterov", "Adam", "RMSprop", "Adagrad"}
    adam = OptimizerConfig("Adam", {"learning_rate": 0.05})
    assert adam.values == {"learning_rate": 0.05, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}
    assert adam.build().get_config()["learning_rate"] == 0.05
    assert OptimizerConfig("Nesterov").build().nesterov
    assert adam.with_kind("SGD").values == {"learning_rate": 0.05}
    for bad in (
        {"learning_rate": -1.0},
        {"learning_rate": float("nan")},
        {"beta": 0.9},
        {"learning_rate": "0.1"},
        {"beta_1": 1.5},
    ):
        with pytest.raises(ValueError):
            OptimizerConfig("Adam", bad)
    with pytest.raises(ValueError, match="unknown optimizer"):
        OptimizerConfig("LBFGS")


def test_a_races_notes_cross_the_wall_as_messages_and_hostile_ones_say_nothing() -> None:
    from tapeviz.models.descent.remote import _race, _race_doc
    from tapeviz.sandbox.process import wire

    problem = Problem("x**2", [V("x", 1.0), V("y", 2.0)])
    race = compute_race(problem, [RunConfig(OptimizerConfig("SGD", {"learning_rate": 0.1}))], 5)
    (note,) = race.notes
    assert note == "y gets no gradient: the loss does not depend on it"
    writer = wire.Writer()
    doc = _race_doc(race, writer)
    doc["notes"] += [5, None, {"code": "nope"}, {"code": "note_no_gradient"}, {"text": "kept"}]
    frame = wire.loopback(*wire.encode(doc, writer))
    got = _race(frame.doc, frame, problem).notes
    assert got == (note, "kept") and got[0].msg == note.msg  # (a code with missing fields: text)
