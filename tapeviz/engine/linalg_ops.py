"""``tf.linalg`` and ``tf.einsum``: eye, diag, trace, solve, inv, det, einsum, tensordot, matvec.

``einsum`` normalises its equation before binding (ellipses spelled out as letters, the implicit
output made explicit), so the recorded ``equation`` param is always ``"ij,jk->ik"``-shaped and
its gradient rule is another einsum.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import _new_shape, matmul, reduce_sum, reshape, transpose
from tapeviz.engine.core import bind
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.tensor import Tensor, TensorLike, constant, convert_to_tensor

__all__ = [
    "det",
    "diag",
    "diag_part",
    "einsum",
    "eye",
    "inv",
    "matrix_transpose",
    "matvec",
    "solve",
    "tensordot",
    "trace",
]


def eye(
    num_rows: int,
    num_columns: int | None = None,
    batch_shape: Sequence[int] | None = None,
    dtype: Any = dtypes.float32,
    name: str | None = None,
) -> Tensor:
    """An identity matrix (ones on the diagonal), optionally repeated over ``batch_shape``."""
    rows = int(num_rows)
    cols = rows if num_columns is None else int(num_columns)
    batch = tuple(int(b) for b in (batch_shape or ()))
    _new_shape((*batch, rows, cols), "eye")
    m = np.eye(rows, cols, dtype=dtypes.as_dtype(dtype).np)
    return constant(np.broadcast_to(m, (*batch, rows, cols)).copy() if batch else m)


def diag(diagonal: Any, name: str | None = None, k: int = 0, **_: Any) -> Tensor:
    """A (batch of) square matrix with ``diagonal`` on its main diagonal."""
    if k:
        raise InvalidArgumentError("diag: only the main diagonal (k=0) is supported", "diag")
    return bind(P.diag_p, diagonal)


def diag_part(input: Any, name: str | None = None, k: int = 0, **_: Any) -> Tensor:
    """The main diagonal of a (batch of) matrix."""
    if k:
        raise InvalidArgumentError("diag_part: only k=0 is supported", "diag_part")
    return bind(P.diag_part_p, input)


def trace(x: Any, name: str | None = None) -> Tensor:
    """Sum of the main diagonal (per matrix of a batch)."""
    return reduce_sum(diag_part(x), axis=-1)


def solve(matrix: Any, rhs: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    """``X`` with ``matrix @ X = rhs`` (``rhs`` is ``(..., M, K)``)."""
    return bind(P.solve_p, matrix, rhs, adjoint=bool(adjoint))


def inv(input: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    """The inverse of a (batch of) square matrix."""
    return bind(P.inv_p, input, adjoint=bool(adjoint))


def det(input: Any, name: str | None = None) -> Tensor:
    """The determinant of a (batch of) square matrix."""
    return bind(P.det_p, input)


def matrix_transpose(a: Any, name: str | None = None, conjugate: bool = False) -> Tensor:
    """Swap the last two dimensions."""
    t = a if isinstance(a, TensorLike) else convert_to_tensor(a)
    nd = len(t.shape)
    if nd < 2:
        raise InvalidArgumentError(
            f"matrix_transpose needs rank ≥ 2, got shape {t.shape}", "matrix_transpose"
        )
    return transpose(t, (*range(nd - 2), nd - 1, nd - 2))


def matvec(
    a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, name: str | None = None
) -> Tensor:
    """Matrix times vector: ``(..., M, N) @ (..., N) -> (..., M)``."""
    bt = b if isinstance(b, TensorLike) else convert_to_tensor(b)
    col = reshape(bt, (*bt.shape, 1))
    out = matmul(a, col, transpose_a=transpose_a or adjoint_a)
    return reshape(out, tuple(out.shape[:-1]))


def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Tensor:
    """Sum of products over ``axes`` (an int N: a's last N with b's first N; or two lists)."""
    ta = a if isinstance(a, TensorLike) else convert_to_tensor(a)
    tb = b if isinstance(b, TensorLike) else convert_to_tensor(b)
    ax_a, ax_b = _tensordot_axes(axes, len(ta.shape), len(tb.shape))
    for i, j in zip(ax_a, ax_b, strict=True):
        if ta.shape[i] != tb.shape[j]:
            raise InvalidArgumentError(
                f"tensordot: dimension {i} of a ({ta.shape[i]}) and {j} of b ({tb.shape[j]}) "
                "must be equal",
                "tensordot",
            )
    free_a = [i for i in range(len(ta.shape)) if i not in ax_a]
    free_b = [j for j in range(len(tb.shape)) if j not in ax_b]
    shape_a = tuple(ta.shape[i] for i in free_a)
    shape_b = tuple(tb.shape[j] for j in free_b)
    k = int(np.prod([ta.shape[i] for i in ax_a], dtype=np.int64))
    # As TensorFlow: transpose and reshape each operand to a matrix, one matmul, reshape back.
    ma = reshape(_permuted(ta, free_a + ax_a), (int(np.prod(shape_a, dtype=np.int64)), k))
    mb = reshape(_permuted(tb, ax_b + free_b), (k, int(np.prod(shape_b, dtype=np.int64))))
    return reshape(matmul(ma, mb), shape_a + shape_b)


def _permuted(t: Any, perm: list[int]) -> Any:
    return t if perm == list(range(len(perm))) else transpose(t, tuple(perm))


def _tensordot_axes(axes: Any, na: int, nb: int) -> tuple[list[int], list[int]]:
    if isinstance(axes, TensorLike):
        axes = np.asarray(axes._value).tolist()
    if isinstance(axes, int | np.integer):
        n = int(axes)
        if n < 0 or n > min(na, nb):
            raise InvalidArgumentError(
                f"tensordot: axes={n} must be between 0 and the smaller rank", "tensordot"
            )
        return list(range(na - n, na)), list(range(n))
    if not isinstance(axes, list | tuple) or len(axes) != 2:
        raise InvalidArgumentError(
            f"tensordot: axes must be an int or a pair of axis lists, got {axes!r}", "tensordot"
        )
    first, second = ([a] if isinstance(a, int | np.integer) else list(a) for a in axes)
    if len(first) != len(second):
        raise InvalidArgumentError(
            f"tensordot: axes {first} and {second} must have the same length", "tensordot"
        )
    return [int(i) % na for i in first], [int(j) % nb for j in second]


# -- einsum --------------------------------------------------------------------------------
_LETTERS = string.ascii_letters


def normalize_einsum(equation: str, ranks: Sequence[int]) -> str:
    """``equation`` with ellipses spelled out as letters and the output made explicit."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(ranks):
        raise InvalidArgumentError(
            f"einsum: the equation {equation!r} names {len(inputs)} operands, {len(ranks)} given",
            "einsum",
        )
    for part in [*inputs, rhs]:
        bad = [c for c in part.replace("...", "") if c not in _LETTERS]
        if bad:
            raise InvalidArgumentError(
                f"einsum: invalid subscript {bad[0]!r} in {equation!r}", "einsum"
            )
    if not arrow:  # implicit output: the letters used once, in alphabetical order
        counts: dict[str, int] = {}
        for part in inputs:
            for c in part.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        single = "".join(sorted(c for c, n in counts.items() if n == 1))
        rhs = ("..." if any("..." in p for p in inputs) else "") + single
    used = set(eq.replace("...", ""))
    fresh = [c for c in _LETTERS if c not in used]
    widths = []
    for part, rank in zip(inputs, ranks, strict=True):
        letters = len(part.replace("...", ""))
        if "..." in part:
            widths.append(rank - letters)
        elif letters != rank:
            raise InvalidArgumentError(
                f"einsum: subscripts {part!r} for an operand of rank {rank}", "einsum"
            )
        else:
            widths.append(0)
    width = max(widths, default=0)
    ell = "".join(fresh[:width])
    spelled = [p.replace("...", ell[width - w :]) for p, w in zip(inputs, widths, strict=True)]
    return ",".join(spelled) + "->" + rhs.replace("...", ell)


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """Einstein summation (``"ij,jk->ik"``; ellipses and the implicit output are allowed)."""
    if not isinstance(equation, str):
        raise EngineTypeError("einsum: the first argument is the equation string", "einsum")
    if len(inputs) == 1 and isinstance(inputs[0], list | tuple):
        inputs = tuple(inputs[0])
    if not inputs:
        raise InvalidArgumentError("einsum needs at least one operand", "einsum")
    xs = [x if isinstance(x, TensorLike) else convert_to_tensor(x) for x in inputs]
    spelled = normalize_einsum(equation, [len(x.shape) for x in xs])
    return bind(P.einsum_p, *xs, equation=spelled)
