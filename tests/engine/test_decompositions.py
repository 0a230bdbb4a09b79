"""svd, qr, eigh and tf.norm's orders: TensorFlow's values and gradient rules (linalg_grad.py),
checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine.gradcheck import check_grads

RNG = np.random.default_rng(7)


def _m(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def _sym(n: int) -> np.ndarray:
    a = _m(n, n)
    return a + a.T + np.diag(np.arange(n) * 3.0)  # well separated eigenvalues


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 2)])
def test_svd_values_reconstruct_the_matrix(shape: tuple[int, ...]) -> None:
    a = _m(*shape)
    s, u, v = tv.svd(tv.constant(a))
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False))
    back = u.numpy() @ (s.numpy()[..., None] * np.swapaxes(v.numpy(), -1, -2))
    np.testing.assert_allclose(back, a, atol=1e-12)
    assert tv.svd(tv.constant(a), compute_uv=False).shape == s.shape


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 2)])
@pytest.mark.parametrize("part", [0, 1, 2])
def test_svd_gradients_match_finite_differences(shape: tuple[int, ...], part: int) -> None:
    check_grads(lambda t: tv.svd(t)[part], _m(*shape))


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (3, 3)])
@pytest.mark.parametrize("part", [0, 1, 2])
def test_full_matrices_svd_gradients(shape: tuple[int, ...], part: int) -> None:
    check_grads(lambda t: tv.svd(t, full_matrices=True)[part], _m(*shape))


def test_full_matrices_svd_gradient_refused_as_tensorflow_does() -> None:
    x = tv.constant(_m(4, 2))
    with tv.GradientTape() as tape:
        tape.watch(x)
        u = tv.svd(x, full_matrices=True)[1]
    with pytest.raises(NotImplementedError, match=r"abs\(m - n\) > 1"):
        tape.gradient(u, x)


def test_singular_values_only_and_second_order() -> None:
    check_grads(lambda t: tv.svd(t, compute_uv=False), _m(3, 2), order=2)


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 3)])
@pytest.mark.parametrize("part", ["q", "r"])
def test_qr_values_and_gradients(shape: tuple[int, ...], part: str) -> None:
    a = _m(*shape)
    q, r = tv.qr(tv.constant(a))
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a, atol=1e-12)
    np.testing.assert_allclose(np.tril(r.numpy(), -1), 0.0)
    check_grads(lambda t: getattr(tv.qr(t), part), a)


def test_qr_full_matrices_of_a_tall_matrix_has_no_gradient_in_tensorflow() -> None:
    x = tv.constant(_m(3, 2))
    assert tv.qr(x, full_matrices=True).q.shape == (3, 3)
    with tv.GradientTape() as tape:
        tape.watch(x)
        q = tv.qr(x, full_matrices=True).q
    with pytest.raises(NotImplementedError, match="nrows > ncols"):
        tape.gradient(q, x)


@pytest.mark.parametrize("part", [0, 1])
def test_eigh_values_and_gradients(part: int) -> None:
    a = _sym(3)
    e, v = tv.eigh(tv.constant(a))
    np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(a))
    np.testing.assert_allclose(v.numpy() @ np.diag(e.numpy()) @ v.numpy().T, a, atol=1e-12)
    check_grads(lambda t: tv.eigh(t)[part], a)


def test_eigh_gradient_lives_on_the_lower_triangle() -> None:
    x = tv.constant(_sym(3))
    with tv.GradientTape() as tape:
        tape.watch(x)
        e = tv.eigvalsh(x)
    g = tape.gradient(e, x).numpy()
    np.testing.assert_allclose(np.triu(g, 1), 0.0)
    np.testing.assert_allclose(np.diag(g), 1.0)  # d trace / d a_ii
    check_grads(lambda t: tv.eigvalsh(t), _sym(3), order=2)


# -- tf.norm ----------------------------------------------------------------------------------
CASES: list[tuple[Any, Any]] = [
    ("euclidean", None), ("fro", (0, 1)), (1, 1), (2, 0), (np.inf, None), (3, None),
    (0.5, 1), (1, (0, 1)), (np.inf, (0, 1)), (2, (0, 1)), (2, (1, 0)), ("euclidean", (0, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("ord_", "axis"), CASES)
def test_norm_orders_match_numpy_and_finite_differences(ord_: Any, axis: Any) -> None:
    a = _m(3, 4)
    got = tv.tf_norm(tv.constant(a), ord=ord_, axis=axis)
    if axis is None:
        want = np.linalg.norm(a.ravel(), ord=2 if ord_ == "euclidean" else ord_)
    else:
        kind = None if ord_ in ("euclidean", "fro") else ord_
        want = np.linalg.norm(a, ord=kind, axis=axis)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    check_grads(lambda t: tv.tf_norm(t, ord=ord_, axis=axis), a)


def test_norm_keepdims_and_batches_of_matrices() -> None:
    a = _m(2, 3, 4)
    got = tv.tf_norm(tv.constant(a), ord=2, axis=(-2, -1), keepdims=True)
    assert got.shape == (2, 1, 1)
    np.testing.assert_allclose(got.numpy()[:, 0, 0], np.linalg.norm(a, 2, axis=(1, 2)))
    assert tv.tf_norm(tv.constant(a), ord=1, axis=[0, 2]).shape == (3,)


@pytest.mark.parametrize(
    ("ord_", "axis", "message"),
    [
        ("fro", None, "'ord' must be a supported vector norm, got fro"),
        (-1.1, -1, "'ord' must be a supported vector norm, got -1.1"),
        (0, None, "'ord' must be a supported vector norm, got 0"),
        (1.1, [-2, -1], r"'ord' must be a supported matrix norm in \['euclidean', 'fro', 1, 2, "
         r"inf\], got 1.1"),
        (2, [1, 1], "'axis' must be None, an integer, or a tuple of 2 unique integers"),
        (2, [0, 1, 2], "'axis' must be None, an integer, or a tuple of 2 unique integers"),
    ],
)  # fmt: skip
def test_norm_refuses_what_tensorflow_refuses(ord_: Any, axis: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tv.tf_norm(tv.constant([[0.0, 1.0], [2.0, 3.0]]), ord=ord_, axis=axis)
