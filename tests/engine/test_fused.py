"""The fused ops give the unfused ops' floats bit for bit: forward, gradient and second order."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tapeviz import engine as E
from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.fused import DENSE, LOSSES, dense, mean_loss
from tapeviz.engine.guard import size_limits
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import Tensor, constant

UNFUSED_ACT: dict[str, Callable[[Tensor], Tensor] | None] = {
    "linear": None, "relu": E.relu, "tanh": E.tanh, "sigmoid": E.sigmoid,
}  # fmt: skip


def unfused_dense(x: Tensor, w: Tensor, b: Tensor, act: str) -> Tensor:
    z = E.add(E.matmul(x, w), b)
    f = UNFUSED_ACT[act]
    return z if f is None else f(z)


def unfused_loss(out: Tensor, y: Tensor, kind: str) -> Tensor:
    if kind == "square":
        return E.multiply(E.reduce_mean(E.square(E.subtract(out, y))), 0.5)
    return E.reduce_mean(E.relu(E.subtract(1.0, E.multiply(y, out))))


def batch(seed: int, dtype: type = np.float32) -> tuple[np.ndarray, ...]:
    """x (7, 3), a 3-4-1 net's [W; b] matrices, labels ±1 (7, 1)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((7, 3)).astype(dtype)
    wb1 = rng.standard_normal((4, 4)).astype(dtype)
    wb2 = rng.standard_normal((5, 1)).astype(dtype)
    y = np.sign(rng.standard_normal((7, 1))).astype(dtype)
    return x, wb1, wb2, y


def both(act: str, kind: str, seed: int, dtype: type = np.float32) -> tuple[list[np.ndarray], ...]:
    """(loss, gradients) of the same net through fused and unfused ops, as arrays."""
    x, wb1, wb2, y = (constant(a) for a in batch(seed, dtype))
    out = []
    for fused in (True, False):
        with GradientTape() as tape:
            tape.watch([wb1, wb2])
            if fused:
                loss = mean_loss(dense(dense(x, wb1, act), wb2, act), y, kind)
            else:
                h = unfused_dense(x, wb1[:-1], wb1[-1], act)
                loss = unfused_loss(unfused_dense(h, wb2[:-1], wb2[-1], act), y, kind)
        grads = tape.gradient(loss, [wb1, wb2])
        out.append([np.asarray(loss._value)] + [g._value for g in grads])
    return out[0], out[1]


@pytest.mark.parametrize("kind", list(LOSSES))
@pytest.mark.parametrize("act", list(DENSE))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fused_ops_give_the_unfused_floats_bit_for_bit(act: str, kind: str, seed: int) -> None:
    fused, unfused = both(act, kind, seed)
    for a, b in zip(fused, unfused, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b), (act, kind, np.abs(a - b).max())


def test_float64_too() -> None:
    fused, unfused = both("tanh", "square", 5, np.float64)
    for a, b in zip(fused, unfused, strict=True):
        assert a.dtype == np.float64 and np.array_equal(a, b)


def test_one_record_per_layer_and_one_for_the_loss() -> None:
    x, wb1, wb2, y = (constant(a) for a in batch(0))
    with GradientTape() as tape:
        tape.watch([wb1, wb2])
        mean_loss(dense(dense(x, wb1, "relu"), wb2, "linear"), y, "hinge")
    assert [r.primitive for r in tape.records] == [
        P.dense_relu_p, P.dense_linear_p, P.hinge_loss_p,
    ]  # fmt: skip
    assert all(r.watched for r in tape.records)


def test_the_general_path_gives_the_fast_paths_floats() -> None:
    """Under the sandbox's size limits the ops go through bind(): the same values."""
    fast, _ = both("sigmoid", "square", 3)
    with size_limits(10_000):
        guarded, _ = both("sigmoid", "square", 3)
    assert all(np.array_equal(a, b) for a, b in zip(fast, guarded, strict=True))


def test_second_derivative_through_the_fused_ops_is_the_unfused_one() -> None:
    """A Hessian-vector product (nested tapes: the rules record themselves)."""
    x, wb1, wb2, y = (constant(a) for a in batch(4, np.float64))
    v = constant(np.random.default_rng(9).standard_normal((4, 4)))
    products = []
    for fused in (True, False):
        with GradientTape() as outer:
            outer.watch(wb1)
            with GradientTape() as inner:
                inner.watch(wb1)
                if fused:
                    loss = mean_loss(dense(dense(x, wb1, "tanh"), wb2, "tanh"), y, "square")
                else:
                    h = unfused_dense(x, wb1[:-1], wb1[-1], "tanh")
                    out = unfused_dense(h, wb2[:-1], wb2[-1], "tanh")
                    loss = unfused_loss(out, y, "square")
            g = inner.gradient(loss, wb1)
            gv = E.reduce_sum(E.multiply(g, v))
        products.append(outer.gradient(gv, wb1)._value)
    assert np.allclose(products[0], products[1], rtol=1e-12, atol=1e-14)


def test_a_shape_mismatch_is_said_as_the_op_fails() -> None:
    x = constant(batch(0)[0])
    with pytest.raises(InvalidArgumentError, match="matmul"):
        dense(x, constant(np.ones((3, 2), np.float32)), "tanh")  # 2 kernel rows for 3 inputs
    with pytest.raises(InvalidArgumentError, match="square_loss"):
        mean_loss(constant(np.ones((7, 1), np.float32)), constant(np.ones((6, 2))), "square")
