"""The elementwise fast path (``tapeviz.engine.elementwise``) gives exactly what bind() gives."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import elementwise
from tapeviz.engine import primitives as P
from tapeviz.engine.backward import run_backward
from tapeviz.engine.core import bind
from tapeviz.engine.errors import EngineError, InvalidArgumentError
from tapeviz.engine.guard import ResourceLimitError, size_limits

BINARY = {
    "add": P.add_p,
    "subtract": P.subtract_p,
    "multiply": P.multiply_p,
    "divide": P.divide_p,
    "pow": P.pow_p,
    "maximum": P.maximum_p,
    "minimum": P.minimum_p,
}
UNARY = {
    "negative": P.negative_p, "square": P.square_p, "sqrt": P.sqrt_p, "rsqrt": P.rsqrt_p,
    "reciprocal": P.reciprocal_p, "exp": P.exp_p, "log": P.log_p, "log1p": P.log1p_p,
    "expm1": P.expm1_p, "sin": P.sin_p, "cos": P.cos_p, "tan": P.tan_p, "tanh": P.tanh_p,
    "sigmoid": P.sigmoid_p, "abs": P.abs_p, "sign": P.sign_p, "floor": P.floor_p,
    "round": P.round_p, "relu": P.relu_p, "softplus": P.softplus_p,
}  # fmt: skip
SPECIAL = [-2.5, -0.0, 0.0, 0.5, 3.0, np.inf, -np.inf, np.nan]

Operands = Callable[[], tuple[Any, Any]]


def _f(value: Any, dtype: Any = tv.float32) -> tv.Tensor:
    return tv.constant(value, dtype=dtype)


OPERANDS: dict[str, Operands] = {
    "f32 scalar, float": lambda: (_f(1.5), 2.0),
    "float, f32 scalar": lambda: (-0.5, _f(3.0)),
    "f64 scalar, int": lambda: (_f(2.0, tv.float64), 3),
    "f16 scalars": lambda: (_f(1.25, tv.float16), _f(-4.0, tv.float16)),
    "f32 vector, float": lambda: (_f(SPECIAL), 0.5),
    "f32 matrices": lambda: (_f([[1.0, -2.0], [0.0, 4.0]]), _f([[0.5, 2.0], [-0.0, 3.0]])),
    "f32 scalar, vector": lambda: (_f(2.0), _f(SPECIAL)),
    "variable, f32 scalar": lambda: (tv.Variable(1.5), _f(0.0)),
    "specials, -0.0": lambda: (_f(SPECIAL), -0.0),
}


def same(a: Any, b: Any) -> bool:
    """Bit-for-bit equal numpy values of the same type and dtype."""
    if type(a) is not type(b) or np.shape(a) != np.shape(b):
        return False
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


def recorded(fn: Callable[[], tv.Tensor]) -> tuple[tv.Tensor, list[Any]]:
    """Run ``fn`` on a tape that watches everything; return its result and records."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        with tv.GradientTape(persistent=True) as tape:
            out = fn()
    return out, tape.records


def assert_same_op(fast: Callable[[], tv.Tensor], general: Callable[[], tv.Tensor]) -> None:
    a, recs_a = recorded(fast)
    b, recs_b = recorded(general)
    assert a.dtype is b.dtype and same(a._value, b._value)
    assert not (type(a._value) is np.ndarray and a._value.flags.writeable)
    assert len(recs_a) == len(recs_b)
    for ra, rb in zip(recs_a, recs_b, strict=True):
        assert ra.primitive is rb.primitive and ra.params == rb.params
        assert ra.watched == rb.watched and len(ra.inputs) == len(rb.inputs)
        for xa, xb in zip(ra.inputs, rb.inputs, strict=True):
            assert xa.dtype is xb.dtype and same(xa._value, xb._value)
    assert recs_a[-1].outputs[0] is a


@pytest.mark.parametrize("operands", OPERANDS.values(), ids=OPERANDS.keys())
@pytest.mark.parametrize("name", BINARY)
def test_binary_fast_path_equals_bind(name: str, operands: Operands) -> None:
    op, prim = getattr(tv, name), BINARY[name]
    x, y = operands()
    assert_same_op(lambda: op(x, y), lambda: bind(prim, x, y))


@pytest.mark.parametrize("value", [_f(SPECIAL), _f(0.5), _f(-0.0, tv.float64), _f(7.0, tv.float16)])
@pytest.mark.parametrize("name", UNARY)
def test_unary_fast_path_equals_bind(name: str, value: tv.Tensor) -> None:
    op, prim = getattr(tv, name), UNARY[name]
    assert_same_op(lambda: op(value), lambda: bind(prim, value))


def test_float_operands_never_reach_bind(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **params: Any) -> Any:
        raise AssertionError("the fast path fell back to bind()")

    monkeypatch.setattr(elementwise, "bind", refuse)
    x = tv.Variable(0.5)
    v = _f([1.0, 2.0, 3.0])
    with tv.GradientTape() as tape:
        y = tv.sin(x * 2.0 + 1) ** 2.0 - tv.exp(-x) / (3.0 - x)
        z = tv.reduce_sum(tv.tanh(v * x) * v)  # the reduction is not elementwise: bind()
    assert tape.gradient([y, z], x) is not None
    with pytest.raises(AssertionError):  # broadcasting goes to bind()
        _ = v * _f([[1.0], [2.0]])


def test_integers_mixed_dtypes_and_broadcasting_take_the_general_path() -> None:
    with pytest.raises(InvalidArgumentError, match="pow"):
        _ = tv.constant(2) ** -1  # numpy's ValueError, named by bind()
    with pytest.raises(EngineError, match="float"):
        _ = tv.constant(2) * 1.5
    with pytest.raises(InvalidArgumentError, match="float32 and float64"):
        _ = _f(1.0) + _f(1.0, tv.float64)
    assert (tv.constant(7) / tv.constant(2)).dtype is tv.float64  # int / int, as TensorFlow
    assert tv.sin(_f(1.0)).shape == () and (_f([1.0]) * _f([[2.0], [3.0]])).shape == (2, 1)


def test_size_limits_hold_on_the_fast_path() -> None:
    big = _f(np.zeros(20))
    with size_limits(10):
        with pytest.raises(ResourceLimitError):
            _ = big * 2.0
        with pytest.raises(ResourceLimitError):
            _ = tv.exp(big)
        with pytest.raises(ResourceLimitError):
            _ = _f(np.zeros((5, 1))) * _f(np.zeros((1, 5)))
        assert float(tv.reduce_sum(_f(np.ones(10)) * 2.0)) == 20.0


def test_negative_zero_constants_keep_their_sign() -> None:
    one = _f(1.0)
    assert float(1.0 / (one * 0.0)) == np.inf
    assert float(1.0 / (one * -0.0)) == -np.inf  # after 0.0: the cache keeps the two apart
    assert float(1.0 / (-0.0 + _f(-0.0))) == -np.inf


def test_gradient_without_the_plan_equals_the_planned_walk() -> None:
    x, w = tv.Variable(0.5), tv.Variable([1.0, 2.0])
    with tv.GradientTape(persistent=True) as tape:
        y = tv.reduce_sum(tv.sin(x * w) * tv.abs(w) + w * 3.0) + x**2.0
    seeds = {y.id: np.float32(1)}
    for sources in ([x, w], [w, x]):
        ids = [s.id for s in sources]
        assert tape._reach(ids, taping=False) is tape._tracked  # every watched tensor: no plan
        planned = run_backward(tape.records, seeds, ids)
        for s, g in zip(sources, tape.gradient(y, sources), strict=True):
            assert same(g._value, planned[s.id])


def test_gradient_for_some_watched_tensors_plans_and_computes_nothing_else() -> None:
    x, w = tv.Variable(2.0), tv.Variable(0.0)
    with tv.GradientTape(persistent=True) as tape:
        y = x * x + tv.log(w)  # d/dw = 1/0 would warn if it were computed
    assert tape._reach([x.id], taping=False) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(tape.gradient(y, x)) == 4.0


@pytest.mark.parametrize("dtype", [tv.float16, tv.float32, tv.float64])
def test_tanh_and_sigmoid_gradients_are_tensorflows_formula_bit_for_bit(dtype: Any) -> None:
    x = tv.Variable(np.linspace(-3, 3, 7), dtype=dtype)
    with tv.GradientTape(persistent=True) as tape:
        t, s = tv.tanh(x), tv.sigmoid(x)
    ones = np.ones(7, dtype.np)
    gt, gs = tape.gradient(t, x).numpy(), tape.gradient(s, x).numpy()
    assert same(gt, ones * (1 - t.numpy() * t.numpy()))  # TanhGrad: ḡ · (1 − y²)
    assert same(gs, ones * (s.numpy() * (1 - s.numpy())))  # SigmoidGrad: ḡ · y · (1 − y)


def test_a_branch_cut_off_by_stop_gradient_is_not_walked() -> None:
    x = tv.Variable([1.0, 0.0, 4.0])
    with tv.GradientTape(persistent=True) as tape:
        y = tv.reduce_sum(tv.sqrt(tv.stop_gradient(x)) * 3.0 + x)  # √0's rule would divide by 0
    assert tape._reach([x.id], taping=False) is None  # a dead end: the plan prunes the branch
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        assert tape.gradient(y, x).numpy().tolist() == [1.0, 1.0, 1.0]
    with tv.GradientTape() as clean:
        tv.reduce_sum(x * x)
    assert clean._reach([x.id], taping=False) is clean._tracked


def test_results_of_a_million_elements_let_the_sandbox_check_its_budgets() -> None:
    from tapeviz.engine.guard import checkpoints

    calls: list[int] = []
    x = _f(np.ones((1000, 1000), np.float32))
    with size_limits(10_000_000), checkpoints(lambda: calls.append(1)):
        _ = x * 2.0
        assert calls
        calls.clear()
        _ = tv.exp(x)
        assert calls
