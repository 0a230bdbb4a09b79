"""torch's maths on the engine's ops, named as torch names their ``grad_fn``.

Each function converts dtypes as torch promotes them and runs one engine op with autograd
recording.

Every function takes ``input`` first, so it is also the tensor method of the same name
(:func:`install` adds them to :class:`~tapeviz.torch._tensor.Tensor`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tapeviz import engine as E
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.torch import _dtypes as D
from tapeviz.torch._autograd import GRAD, record
from tapeviz.torch._tensor import Tensor, wrap


def as_tensor_arg(x: Any) -> Any:
    """Tensors and Python numbers pass; lists and arrays become tensors (torch accepts them)."""
    if isinstance(x, Tensor | int | float | bool):
        return x
    if isinstance(x, np.generic):
        return x.item()
    from tapeviz.torch._creation import tensor

    return tensor(x)


class _Cast(NamedTuple):
    """A dtype conversion left for the op to make, so it is recorded in the op's graph."""

    tensor: _ETensor
    dtype: Any


def engine_of(x: Any, want: D.dtype) -> Any:
    """The engine operand for ``x`` at dtype ``want``.

    A tensor that requires grad is converted inside the op (:func:`apply` records the cast, so
    the gradient flows back to the original dtype).
    """
    if isinstance(x, Tensor):
        t = x._c.t
        if t.dtype is want._engine:
            return t
        if x._rg and GRAD.enabled:
            return _Cast(t, want._engine)
        return E.cast(t, want._engine)
    if want is D.bool_:
        return np.bool_(x)
    return want._engine.np.type(x)


def engine_now(x: Any, want: D.dtype) -> Any:
    """As :func:`engine_of`, converted now (for results that need no gradient)."""
    v = engine_of(x, want)
    return E.cast(v.tensor, v.dtype) if type(v) is _Cast else v


def _made(a: Any) -> Any:
    if type(a) is _Cast:
        return E.cast(a.tensor, a.dtype)
    if type(a) is list:
        return [_made(x) for x in a]
    return a


def _pending(a: Any) -> bool:
    return type(a) is _Cast or (type(a) is list and any(type(x) is _Cast for x in a))


def apply(name: str, fn: Callable[..., Any], inputs: list[Any], *args: Any, **kw: Any) -> Tensor:
    """Run engine ``fn(*args, **kw)`` for ``inputs``, recording node ``name``; wrap the result."""
    pending = False
    for a in args:  # (a loop, not any() over a generator: this runs for every op)
        if type(a) is _Cast or (type(a) is list and _pending(a)):
            pending = True
            break
    if pending:
        inner = fn

        def fn(*xs: Any, **k: Any) -> Any:
            return inner(*[_made(x) for x in xs], **k)

    out, node = record(name, [x for x in inputs if isinstance(x, Tensor)], fn, *args, **kw)
    return wrap(out, node)


def _float(d: D.dtype) -> D.dtype:
    return d if d.is_floating_point else D.DEFAULT.value


# -- binary arithmetic -------------------------------------------------------------------------


def _binary(name: str, fn: Callable[..., Any], a: Any, b: Any, *, floats: bool = False) -> Tensor:
    ta, tb = type(a), type(b)
    if ta is Tensor:  # the common cases: no promotion, the engine takes the operands as they are
        ea = a._c.t
        if tb is Tensor:
            eb = b._c.t
            if ea.dtype is eb.dtype and (ea.dtype.is_floating or not floats):
                return wrap(*record(name, (a, b), fn, ea, eb))
        elif (tb is float or tb is int) and ea.dtype.is_floating:
            return wrap(*record(name, (a,), fn, ea, b))
    elif tb is Tensor and (ta is float or ta is int) and b._c.t.dtype.is_floating:
        return wrap(*record(name, (b,), fn, a, b._c.t))
    a, b = as_tensor_arg(a), as_tensor_arg(b)
    want = D.result_type(a, b)
    if floats:
        want = _float(want)
    return apply(name, fn, [a, b], engine_of(a, want), engine_of(b, want))


def add(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``input + alpha * other``."""
    if alpha != 1:
        other = mul(other, alpha)
    return _binary("AddBackward0", E.add, input, other)


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``input - alpha * other``."""
    if alpha != 1:
        other = mul(other, alpha)
    return _binary("SubBackward0", E.subtract, input, other)


def mul(input: Any, other: Any) -> Tensor:
    """Elementwise product."""
    return _binary("MulBackward0", E.multiply, input, other)


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """True division (or ``rounding_mode='floor'``/``'trunc'``)."""
    if rounding_mode == "floor":
        return _binary("FloorDivideBackward0", E.floordiv, input, other)
    out = _binary("DivBackward0", E.divide, input, other, floats=True)
    if rounding_mode == "trunc":
        return apply("TruncBackward0", lambda t: E.multiply(E.sign(t), E.floor(E.abs(t))),
                     [out], out._t)  # fmt: skip
    return out


def pow(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent``."""
    name = "PowBackward1" if isinstance(exponent, Tensor) else "PowBackward0"
    return _binary(name, E.pow, input, exponent)


def remainder(input: Any, other: Any) -> Tensor:
    """Python's ``%`` (the sign of the divisor)."""
    return _binary("RemainderBackward0", E.mod, input, other)


def floor_divide(input: Any, other: Any) -> Tensor:
    """Floor of the quotient."""
    return _binary("FloorDivideBackward0", E.floordiv, input, other)


def maximum(input: Any, other: Any) -> Tensor:
    """Elementwise larger value."""
    return _binary("MaximumBackward0", E.maximum, input, other)


def minimum(input: Any, other: Any) -> Tensor:
    """Elementwise smaller value."""
    return _binary("MinimumBackward0", E.minimum, input, other)


def atan2(input: Any, other: Any) -> Tensor:
    """``atan(input / other)`` in the right quadrant."""
    return _binary("Atan2Backward0", E.atan2, input, other, floats=True)


def _compare(fn: Callable[..., Any]) -> Callable[..., Tensor]:
    def op(input: Any, other: Any) -> Tensor:
        a, b = as_tensor_arg(input), as_tensor_arg(other)
        want = D.result_type(a, b)
        return wrap(fn(engine_now(a, want), engine_now(b, want)))

    return op


eq, ne = _compare(E.equal), _compare(E.not_equal)
lt, le = _compare(E.less), _compare(E.less_equal)
gt, ge = _compare(E.greater), _compare(E.greater_equal)
greater, less, greater_equal, less_equal, not_equal = gt, lt, ge, le, ne


def _logical(fn: Callable[..., Any]) -> Callable[..., Tensor]:
    def op(input: Any, other: Any) -> Tensor:
        a, b = as_tensor_arg(input), as_tensor_arg(other)
        return wrap(fn(engine_now(a, D.bool_), engine_now(b, D.bool_)))

    return op


logical_and, logical_or = _logical(E.logical_and), _logical(E.logical_or)


def logical_not(input: Tensor) -> Tensor:
    """Elementwise not."""
    return wrap(E.logical_not(engine_now(input, D.bool_)))


# -- elementwise functions ----------------------------------------------------------------------


def _unary(name: str, fn: Callable[..., Any], floats: bool = True) -> Callable[..., Tensor]:
    def op(input: Tensor) -> Tensor:
        x = as_tensor_arg(input)
        want = _float(x.dtype) if floats else x.dtype
        return apply(name, fn, [x], engine_of(x, want))

    op.__name__ = name
    op.__doc__ = f"Elementwise, recorded as ``{name}``."
    return op


exp, log, sqrt = (
    _unary("ExpBackward0", E.exp),
    _unary("LogBackward0", E.log),
    _unary("SqrtBackward0", E.sqrt),
)
sin, cos, tan = (
    _unary("SinBackward0", E.sin),
    _unary("CosBackward0", E.cos),
    _unary("TanBackward0", E.tan),
)
tanh, sigmoid = _unary("TanhBackward0", E.tanh), _unary("SigmoidBackward0", E.sigmoid)
asin, acos, atan = (
    _unary("AsinBackward0", E.asin),
    _unary("AcosBackward0", E.acos),
    _unary("AtanBackward0", E.atan),
)
sinh, cosh = _unary("SinhBackward0", E.sinh), _unary("CoshBackward0", E.cosh)
log1p, expm1 = _unary("Log1PBackward0", E.log1p), _unary("Expm1Backward0", E.expm1)
rsqrt, erf = _unary("RsqrtBackward0", E.rsqrt), _unary("ErfBackward0", E.erf)
reciprocal = _unary("ReciprocalBackward0", E.reciprocal)
relu = _unary("ReluBackward0", E.relu, floats=False)
abs = _unary("AbsBackward0", E.abs, floats=False)
neg = negative = _unary("NegBackward0", E.negative, floats=False)
sign = _unary("SignBackward0", E.sign, floats=False)
floor, ceil = _unary("FloorBackward0", E.floor, False), _unary("CeilBackward0", E.ceil, False)
round = _unary("RoundBackward0", E.round, floats=False)
square = _unary("PowBackward0", E.square, floats=False)
log2 = _unary("Log2Backward0", lambda t: E.divide(E.log(t), t.dtype.scalar(np.log(2.0))))
log10 = _unary("Log10Backward0", lambda t: E.divide(E.log(t), t.dtype.scalar(np.log(10.0))))
exp2 = _unary("Exp2Backward0", lambda t: E.pow(t.dtype.scalar(2.0), t))
isnan = _unary("IsnanBackward", E.is_nan, floats=False)
isinf = _unary("IsinfBackward", E.is_inf, floats=False)
isfinite = _unary("IsfiniteBackward", E.is_finite, floats=False)


def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``."""
    x = as_tensor_arg(input)
    want = D.as_torch(dtype) if dtype is not None else _float(x.dtype)
    return apply("SoftmaxBackward0", E.softmax, [x], engine_of(x, want), _axis_of(dim, x.ndim))


def log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``log(softmax(x))`` along ``dim``, computed stably."""
    x = as_tensor_arg(input)
    want = D.as_torch(dtype) if dtype is not None else _float(x.dtype)
    return apply("LogSoftmaxBackward0", E.log_softmax, [x], engine_of(x, want),
                 _axis_of(dim, x.ndim))  # fmt: skip


def _axis_of(dim: Any, ndim: int) -> int:
    from tapeviz.torch._tensor import _dim

    if dim is None:
        raise TypeError("softmax() missing 1 required positional argument: 'dim'")
    return _dim(int(dim), ndim)


def clamp(input: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """Limit every element to ``[min, max]`` (either bound may be None)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    x = as_tensor_arg(input)
    want = D.result_type(x, *(v for v in (min, max) if v is not None))
    ex = engine_of(x, want)
    lo = -np.inf if min is None else engine_of(as_tensor_arg(min), want)
    hi = np.inf if max is None else engine_of(as_tensor_arg(max), want)
    if not want.is_floating_point:
        info = np.iinfo(want._engine.np)
        lo = info.min if min is None else lo
        hi = info.max if max is None else hi
    name = (
        "ClampBackward1"
        if not isinstance(min, Tensor) and not isinstance(max, Tensor)
        else "ClampBackward0"
    )
    return apply(name, E.clip_by_value, [x, min, max], ex, lo, hi)


clip = clamp


def where(condition: Any, input: Any = None, other: Any = None) -> Any:
    """``input`` where ``condition`` holds, else ``other`` (one argument: the indices)."""
    cond = as_tensor_arg(condition)
    if input is None and other is None:
        return nonzero(cond, as_tuple=True)
    a, b = as_tensor_arg(input), as_tensor_arg(other)
    want = D.result_type(a, b)
    return apply("WhereBackward0", E.where, [a, b], engine_of(cond, D.bool_),
                 engine_of(a, want), engine_of(b, want))  # fmt: skip


def nonzero(input: Tensor, *, as_tuple: bool = False) -> Any:
    """The indices of the nonzero elements."""
    found = np.nonzero(np.asarray(input._t._value))
    if as_tuple:
        return tuple(wrap(E.constant(i.astype(np.int64))) for i in found)
    return wrap(E.constant(np.stack(found, axis=-1).astype(np.int64)))


# -- matrix products ----------------------------------------------------------------------------


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """Matrix product with torch's rules for 1-d operands and batches."""
    a, b = as_tensor_arg(input), as_tensor_arg(other)
    want = D.result_type(a, b)
    if a.dtype is not b.dtype:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {_word(a.dtype)} != "
            f"{_word(b.dtype)}"
        )
    ea, eb = engine_of(a, want), engine_of(b, want)
    na, nb = a.ndim, b.ndim
    if na == 0 or nb == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are "
                           f"{na}D and {nb}D")  # fmt: skip
    _check_inner(a, b)
    if na == 1 and nb == 1:
        return apply("DotBackward0", lambda x, y: E.reduce_sum(E.multiply(x, y)), [a, b], ea, eb)
    if na == 2 and nb == 1:
        return apply("MvBackward0", E.matvec, [a, b], ea, eb)
    if na == 1:
        return apply("SqueezeBackward4", _row_times, [a, b], ea, eb)
    if nb == 1:
        return apply("SqueezeBackward4", _times_column, [a, b], ea, eb)
    name = (
        "MmBackward0"
        if na == nb == 2
        else "BmmBackward0"
        if na == nb == 3
        else "UnsafeViewBackward0"
    )
    return apply(name, E.matmul, [a, b], ea, eb)


def _row_times(x: Any, y: Any) -> Any:
    return E.squeeze(E.matmul(E.expand_dims(x, 0), y), -2)


def _times_column(x: Any, y: Any) -> Any:
    return E.squeeze(E.matmul(x, E.expand_dims(y, -1)), -1)


def _check_inner(a: Tensor, b: Tensor) -> None:
    ka = a.shape[-1]
    kb = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:
        if a.ndim == 2 and b.ndim == 2:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                f"{b.shape[0]}x{b.shape[1]})"
            )
        raise RuntimeError(f"size mismatch, got input ({ka}), other ({kb})")


def _word(d: D.dtype) -> str:
    from tapeviz.torch._tensor import _type_word

    return _type_word(d)


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """Product of two matrices."""
    if input.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError("self must be a matrix" if input.ndim != 2 else "mat2 must be a matrix")
    return matmul(input, mat2)


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Batched product of 3-d tensors."""
    if input.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError(
            "batch1 must be a 3D tensor" if input.ndim != 3 else "batch2 must be a 3D tensor"
        )
    return matmul(input, mat2)


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Matrix times vector."""
    return matmul(input, vec)


def dot(input: Tensor, other: Tensor) -> Tensor:
    """Inner product of two 1-d tensors."""
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src "
            f"[{other.shape[0]}] to have the same number of elements, but got "
            f"{input.shape[0]} and {other.shape[0]} elements respectively"
        )
    return matmul(input, other)


inner = dot


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """Outer product of two vectors."""
    a, b = as_tensor_arg(input), as_tensor_arg(vec2)
    want = D.result_type(a, b)
    return apply("MulBackward0", lambda x, y: E.multiply(E.expand_dims(x, 1), E.expand_dims(y, 0)),
                 [a, b], engine_of(a, want), engine_of(b, want))  # fmt: skip


ger = outer


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` (what ``nn.Linear`` runs)."""
    want = D.result_type(input, mat1, mat2)

    def fn(c: Any, x: Any, w: Any) -> Any:
        prod = E.matmul(x, w)
        if alpha != 1:
            prod = E.multiply(prod, want._engine.np.type(alpha))
        if beta != 1:
            c = E.multiply(c, want._engine.np.type(beta))
        return E.add(prod, c)

    _check_inner(mat1, mat2)
    return apply("AddmmBackward0", fn, [input, mat1, mat2],
                 *(engine_of(t, want) for t in (input, mat1, mat2)))  # fmt: skip


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation."""
    if len(operands) == 1 and isinstance(operands[0], list | tuple):
        operands = tuple(operands[0])
    want = D.result_type(*operands)
    return apply("EinsumBackward", E.einsum, list(operands), equation,
                 *(engine_of(t, want) for t in operands))  # fmt: skip
