"""The engine's fast paths give exactly what the general paths give."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import primitives as P
from tapeviz.engine.backward import BackwardPass, plan, relevant_records, run_backward
from tapeviz.engine.impl_rules import IMPL

SPECIAL = [-2.5, -0.0, 0.0, 1.5, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3e38, -3e38]


def same(a: Any, b: Any) -> bool:
    """Bit-for-bit equal numpy values of the same type (nan equals nan, -0.0 differs from 0.0)."""
    if type(a) is not type(b) or np.shape(a) != np.shape(b):
        return False
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("scalar", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("value", SPECIAL)
def test_relu_of_a_numpy_scalar_is_np_maximum(scalar: type, value: float) -> None:
    with np.errstate(over="ignore"):  # ±3e38 is ±inf in float16
        x = scalar(value)
    assert same(IMPL[P.relu_p](x), np.maximum(x, 0))


def test_relu_of_arrays_and_ints_still_uses_np_maximum() -> None:
    v = np.array(SPECIAL, dtype=np.float32)
    assert same(IMPL[P.relu_p](v), np.maximum(v, 0))
    assert same(IMPL[P.relu_p](np.int32(-3)), np.maximum(np.int32(-3), 0))
    assert same(tv.relu(tv.constant([-1, 2])).numpy(), np.array([0, 2], dtype=np.int32))


def graphs() -> list[tuple[str, Any]]:
    """(name, build) pairs: build() returns (tape, target, sources)."""

    def fan_out() -> Any:
        x = tv.Variable(3.0)
        with tv.GradientTape(persistent=True) as t:
            y = x * x + x * 2.0 - tv.square(x)
        return t, y, [x]

    def variadic() -> Any:
        x = tv.Variable([1.0, -2.0, 3.0])
        w = tv.Variable([[0.5], [1.5], [-1.0]])
        with tv.GradientTape(persistent=True) as t:
            s = tv.stack([x, x * 2.0, tv.sin(x)])
            c = tv.concat([x, tv.reshape(tv.matmul(tv.reshape(x, (1, 3)), w), (1,))], axis=0)
            y = tv.reduce_sum(s * s) + tv.reduce_mean(tv.exp(c)) + tv.reduce_max(x)
        return t, y, [x, w]

    def kinks() -> Any:
        x = tv.Variable([0.0, -1.0, 2.0, 2.0])
        with tv.GradientTape(persistent=True) as t:
            sel = tv.relu(x) + tv.abs(x) + tv.maximum(x, 2.0) + tv.where(x > 0, x, -x)
            cut = tv.floor(x) * x + tv.stop_gradient(x) * x
            y = tv.reduce_sum(sel + cut + tv.cast(tv.cast(x, tv.int32), tv.float32))
        return t, y, [x]

    def broadcast() -> Any:
        a = tv.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = tv.Variable([0.5, -0.5, 2.0])
        c = tv.constant(3.0)
        with tv.GradientTape(persistent=True) as t:
            t.watch(c)
            y = tv.reduce_sum((a * b + c) / (b * b + 1.0)) + a[1, 2] * c
        return t, y, [a, b, c]

    return [
        ("fan_out", fan_out),
        ("variadic", variadic),
        ("kinks", kinks),
        ("broadcast", broadcast),
    ]


@pytest.mark.parametrize(("name", "build"), graphs())
def test_run_equals_the_stepped_walk_and_gradient(name: str, build: Any) -> None:
    tape, y, sources = build()
    ids = [s.id for s in sources]
    seeds = {y.id: np.ones_like(y.numpy())}
    stepped = BackwardPass(tape.records, seeds, ids)
    steps = list(stepped)
    fast = BackwardPass(tape.records, seeds, ids)
    assert fast.run() is fast.adjoints
    assert fast.adjoints.keys() == stepped.adjoints.keys()
    for k, v in stepped.adjoints.items():
        assert same(fast.adjoints[k], v), (name, k)
    assert fast.records == stepped.records == relevant_records(tape.records, ids)[0]
    done = [s.record.id for s in reversed(steps)]  # the records whose output got an adjoint
    assert [r.id for r in fast.records if r.id in done] == done
    # Every contribution the steps show is what ends up in the adjoints.
    final: dict[int, Any] = dict(seeds)
    for s in steps:
        for c in s.contributions:
            assert same(c.after, c.value if c.before is None else c.before + c.value)
            final[c.tensor_id] = c.after
    assert all(same(final[k], v) for k, v in fast.adjoints.items())
    grads = tape.gradient(y, sources)
    for s, g in zip(sources, grads, strict=True):
        want = run_backward(tape.records, seeds, ids).get(s.id)
        assert same(g.numpy(), np.asarray(want, dtype=s.dtype.np)[()]), (name, s)


def test_plan_paths_are_the_reached_inputs_with_rules() -> None:
    x, z = tv.Variable(2.0), tv.Variable(5.0)
    with tv.GradientTape() as tape:
        a = x * z  # both inputs reached when both are sources
        b = tv.floor(a)  # no rule: not a step
        c = a * b + 1.0
    steps, paths, reach = plan(tape.records, [x.id])
    assert [r.name for r in steps] == ["multiply", "multiply", "add"]
    ab = steps[1].output.id
    assert [[(i, xid) for i, xid, _ in p] for p in paths] == [[(0, x.id)], [(0, a.id)], [(0, ab)]]
    assert list(reach) == [x.id, a.id, ab, c.id] and b.id not in reach
    steps2, paths2, _ = plan(tape.records, [x.id, z.id])
    assert [(i, xid) for i, xid, _ in paths2[0]] == [(0, x.id), (1, z.id)]
    assert len(steps2) == 3


def test_second_derivative_through_the_fast_walk_while_taping() -> None:
    x = tv.Variable(3.0)
    with tv.GradientTape() as t2:
        with tv.GradientTape() as t1:
            y = x**3
        g1 = t1.gradient(y, x)  # rules run on Tensors, recorded by t2
    g2 = t2.gradient(g1, x)
    assert float(g1) == 27.0 and float(g2) == 18.0
    assert g1.dtype is tv.float32 and g2.dtype is tv.float32


def test_float_scalar_is_refused_for_int_tensors_even_after_an_int_scalar() -> None:
    t = tv.constant(3)
    assert int(t * 1) == 3  # caches the int32 scalar 1
    with pytest.raises(TypeError, match=r"cannot convert the float value 1\.0 to a int32"):
        _ = t * 1.0  # 1.0 == 1: the scalar cache must not let it through


def test_float64_and_array_gradients_keep_their_dtype() -> None:
    x = tv.Variable(np.float64(2.0))
    v = tv.Variable(np.array([1.0, 2.0], dtype=np.float32))
    with tv.GradientTape() as tape:
        y = x * x
        z = tv.reduce_sum(v * v)
    gx, gv = tape.gradient([y, z], [x, v])
    assert gx.dtype is tv.float64 and type(gx.numpy()) is np.float64 and float(gx) == 4.0
    assert gv.dtype is tv.float32 and gv.numpy().tolist() == [2.0, 4.0]
    assert not gv._value.flags.writeable


def test_optimizer_step_keeps_dtype_shape_checks_and_counts() -> None:
    x = tv.Variable(np.float64(1.0))
    opt = tv.optimizers.SGD(learning_rate=0.5)
    opt.apply_gradients([(tv.constant(np.float64(1.0)), x)])
    assert type(x.numpy()) is np.float64 and float(x) == 0.5
    assert type(opt.iterations.numpy()) is np.int64 and int(opt.iterations.numpy()) == 1
    with pytest.raises(ValueError, match=r"cannot assign a value of shape \(2,\) to variable"):
        x.assign([1.0, 2.0])
