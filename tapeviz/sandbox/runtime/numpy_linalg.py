"""``np.linalg`` in a script: numpy's linear algebra with its work and sizes checked first.

A factorisation of an ``m x n`` matrix takes about ``m * n * min(m, n)`` multiply-adds (a
square one ``n**3``); that is checked against the run's limit on one operation's work before
LAPACK starts, and results that would be bigger than their input (``svd``'s full ``u``) are
sized first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime.checks import budget
from tapeviz.sandbox.runtime.guards import check_matmul
from tapeviz.sandbox.runtime.numpy_core import as_array, check_dtype, check_result, option


def _matrix(a: Any) -> np.ndarray:
    arr = np.asarray(as_array(a))
    check_dtype(arr.dtype)
    return arr


def factor_work(a: np.ndarray, what: str) -> None:
    """Refuse factoring a (stack of) matrices that would take more than the run's work limit."""
    if a.ndim < 2:
        return
    m, n = a.shape[-2:]
    batch = int(np.prod(a.shape[:-2], dtype=np.int64)) if a.ndim > 2 else 1
    budget().check_flops(batch * m * n * min(m, n), what)


def _factoring(fn: Callable[..., Any], data_args: int = 1) -> Callable[..., Any]:
    """Wrap ``np.linalg.<fn>``: operands checked, each matrix's factorisation work too."""
    what = f"np.linalg.{fn.__name__}"

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        arrays = [_matrix(a) for a in args[:data_args]]
        for arr in arrays:
            factor_work(arr, what)
        rest = [option(a) for a in args[data_args:]]
        kwargs = {k: option(v) for k, v in kwargs.items()}
        return check_result(fn(*arrays, *rest, **kwargs))

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = f"``{what}`` with its work checked first."
    return wrapped


def _full(a: np.ndarray, full: bool, what: str) -> None:
    """The square factors ``svd(full_matrices=True)`` and ``qr(mode='complete')`` make."""
    factor_work(a, what)
    if full and a.ndim >= 2:
        m, n = a.shape[-2:]
        batch = int(np.prod(a.shape[:-2], dtype=np.int64)) if a.ndim > 2 else 1
        budget().check_size(batch * (m * m + n * n), what)


def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True, **kwargs: Any) -> Any:
    """``np.linalg.svd``: the full ``u`` and ``vh`` are sized first."""
    arr = _matrix(a)
    _full(arr, bool(full_matrices) and bool(compute_uv), "np.linalg.svd")
    kwargs = {k: option(v) for k, v in kwargs.items()}
    return check_result(np.linalg.svd(arr, full_matrices, compute_uv, **kwargs))


def qr(a: Any, mode: str = "reduced") -> Any:
    """``np.linalg.qr``: the complete ``q`` is sized first."""
    arr = _matrix(a)
    _full(arr, mode == "complete", "np.linalg.qr")
    return check_result(np.linalg.qr(arr, mode=option(mode)))


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """``np.linalg.norm``: a matrix 2-norm or nuclear norm (an SVD) has its work checked."""
    arr = _matrix(x)
    if ord in (2, -2, "nuc") and ((arr.ndim == 2 and axis is None) or isinstance(axis, tuple)):
        factor_work(arr, "np.linalg.norm")
    return check_result(np.linalg.norm(arr, option(ord), option(axis), bool(keepdims)))


def matrix_power(a: Any, n: int) -> Any:
    """``np.linalg.matrix_power``: about ``2 log2(n)`` products, each checked."""
    arr = _matrix(a)
    check_matmul(arr, arr)
    steps = max(int(abs(int(n))).bit_length() * 2, 1)
    if arr.ndim >= 2:
        m = arr.shape[-1]
        batch = int(np.prod(arr.shape[:-2], dtype=np.int64)) if arr.ndim > 2 else 1
        budget().check_flops(batch * m**3 * steps, "np.linalg.matrix_power")
    return check_result(np.linalg.matrix_power(arr, n))


def multi_dot(arrays: Any, **kwargs: Any) -> Any:
    """``np.linalg.multi_dot``: each product of the chain is checked (left to right)."""
    mats = [_matrix(a) for a in arrays]
    out = mats[0]
    for m in mats[1:]:
        check_matmul(out if out.ndim > 1 else out[None], m)
        out = np.dot(out, m)
    return check_result(out)


LINALG = Namespace(
    "numpy.linalg",
    {
        **{n: _factoring(getattr(np.linalg, n)) for n in (
            "inv", "pinv", "det", "slogdet", "eig", "eigh", "eigvals", "eigvalsh", "cholesky",
            "matrix_rank", "cond")},
        "solve": _factoring(np.linalg.solve, 2),
        "lstsq": _factoring(np.linalg.lstsq, 2),
        "svd": svd,
        "qr": qr,
        "norm": norm,
        "matrix_power": matrix_power,
        "multi_dot": multi_dot,
        "LinAlgError": np.linalg.LinAlgError,
    },
)  # fmt: skip
