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


# -- the per-op fast paths of a Dense layer's step (matmul, bias add, mean) -------------------
RNG = np.random.default_rng(7)


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_2d_matmul_fast_paths_equal_numpys_swapaxes(ta: bool, tb: bool) -> None:
    from tapeviz.engine import numeric as N

    a = RNG.normal(size=(4, 3) if ta else (3, 4)).astype(np.float32)
    b = RNG.normal(size=(5, 4) if tb else (4, 5)).astype(np.float32)
    want = np.matmul(np.swapaxes(a, -1, -2) if ta else a, np.swapaxes(b, -1, -2) if tb else b)
    assert same(IMPL[P.matmul_p](a, b, transpose_a=ta, transpose_b=tb), want)
    assert same(N.matmul(a, b, transpose_a=ta, transpose_b=tb), want)


def test_matmul_fast_path_leaves_bad_shapes_to_the_op_named_error() -> None:
    with pytest.raises(tv.InvalidArgumentError, match="inner dimensions 4 and 3"):
        tv.matmul(tv.ones((2, 4)), tv.ones((3, 2)))


@pytest.mark.parametrize("shape", [(10, 4), (1, 4), (7, 1), (0, 3)])
def test_unbroadcast_of_a_bias_equals_the_general_sum(shape: tuple[int, int]) -> None:
    from tapeviz.engine import numeric as N

    g = RNG.normal(size=shape).astype(np.float32)
    want = np.add.reduce(g, axis=(0,), dtype=g.dtype).reshape(shape[1:])
    assert same(N.unbroadcast(g, shape[1:]), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(10, 1), (3, 4, 2), (0, 2), (5,)])
def test_mean_of_everything_vjp_equals_the_broadcast_division(
    dtype: type, shape: tuple[int, ...]
) -> None:
    from tapeviz.engine.vjp_rules import VJP

    x = RNG.normal(size=shape).astype(dtype)
    g = dtype(0.7)
    rule = VJP[P.reduce_mean_p][0]
    want = np.broadcast_to(np.reshape(g, (1,) * len(shape)), shape) / max(1, x.size)
    assert same(rule(g, dtype(0), x, axis=None, keepdims=False), want)
    g2 = np.full((1,) * len(shape), g, dtype)  # keepdims: the general path
    assert same(rule(g2, g2, x, axis=None, keepdims=True), want)


def test_bias_add_fast_path_records_what_bind_records() -> None:
    from tapeviz.engine.core import bind

    x = tv.constant(RNG.normal(size=(6, 3)).astype(np.float32))
    b = tv.Variable(RNG.normal(size=(3,)).astype(np.float32))
    with tv.GradientTape() as fast:
        y1 = tv.add(x, b)
        z1 = tv.subtract(y1, b)
    with tv.GradientTape() as slow:
        y2 = bind(P.add_p, x, b)
        z2 = bind(P.subtract_p, y2, b)
    assert same(y1.numpy(), y2.numpy()) and same(z1.numpy(), z2.numpy())
    assert not y1._value.flags.writeable
    for r1, r2 in zip(fast.records, slow.records, strict=True):
        assert (r1.primitive, r1.input_ids[1:], r1.watched, r1.params) == (
            r2.primitive, r2.input_ids[1:], r2.watched, r2.params,
        )  # fmt: skip
    g1, g2 = fast.gradient(z1, b), slow.gradient(z2, b)
    assert same(g1.numpy(), g2.numpy())


def test_bias_add_fast_path_leaves_wrong_shapes_to_binds_error() -> None:
    with pytest.raises(tv.InvalidArgumentError, match="cannot be broadcast"):
        tv.add(tv.ones((6, 3)), tv.ones((4,)))


def test_gradients_of_a_flat_list_are_read_only_tensors_of_the_sources_dtype() -> None:
    w = [tv.Variable(np.ones((3, 2), np.float32)), tv.Variable(np.zeros(2, np.float32))]
    x = tv.constant(np.ones((4, 3), np.float32))
    with tv.GradientTape() as tape:
        loss = tv.reduce_mean(tv.tanh(tv.add(tv.matmul(x, w[0]), w[1])))
    grads = tape.gradient(loss, w)
    assert type(grads) is list and [g.shape for g in grads] == [(3, 2), (2,)]
    assert all(g.dtype == tv.float32 and not g._value.flags.writeable for g in grads)


def test_name_scopes_resolve_relative_and_absolute_names() -> None:
    from tapeviz.engine.state import STATE, NameScope

    with NameScope("outer") as a:
        with NameScope("in/ner") as b:
            assert STATE.scope == ("outer", "in", "ner")
        with NameScope("top/") as c:
            assert STATE.scope == ("top",)
        with NameScope(""):
            assert STATE.scope == ()
        assert STATE.scope == ("outer",)
    assert (a, b, c, STATE.scope) == ("outer/", "outer/in/ner/", "top/", ())
