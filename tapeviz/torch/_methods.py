"""The tensor methods and operators: torch's functions as methods, ``+``, ``@``, ``x[i]``.

The in-place forms (``add_``, ``-=``, ``zero_``) change a tensor's value where it is.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze
from tapeviz.torch import _creation as C
from tapeviz.torch import _dtypes as D
from tapeviz.torch import _ops as O
from tapeviz.torch import _reduce as R
from tapeviz.torch import _shape as S
from tapeviz.torch._autograd_api import run_backward
from tapeviz.torch._tensor import Tensor

# Functions that are also methods with the same name (``x.exp()``, ``x.sum(dim=0)``).
_AS_METHODS = {
    O: "add sub mul div pow remainder floor_divide maximum minimum atan2 eq ne lt le gt ge "
    "greater less greater_equal less_equal not_equal logical_and logical_or logical_not exp log "
    "sqrt sin cos tan tanh sigmoid asin acos atan sinh cosh log1p expm1 rsqrt erf reciprocal "
    "relu abs neg negative sign floor ceil round square log2 log10 exp2 isnan isinf isfinite "
    "softmax log_softmax clamp clip where nonzero matmul mm bmm mv dot inner outer ger addmm",
    R: "sum mean prod max min amax amin argmax argmin topk var std norm logsumexp cumsum all any "
    "allclose equal isclose count_nonzero sort argsort unique bincount",
    S: "reshape view view_as reshape_as flatten squeeze unsqueeze t transpose swapaxes swapdims "
    "permute expand expand_as repeat unbind split chunk flip clone contiguous index_select "
    "gather",
}
_ALIASES = {"multiply": "mul", "subtract": "sub", "divide": "div", "true_divide": "div",
            "absolute": "abs", "arctan2": "atan2", "fmod": "remainder"}  # fmt: skip


def _method(fn: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def _inplace(fn: Callable[..., Any]) -> Callable[..., Tensor]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        self._check_inplace()
        return self._become(fn(self, *args, **kwargs))

    method.__name__ = fn.__name__ + "_"
    method.__doc__ = f"In place: ``{fn.__name__}`` written into this tensor."
    return method


def _reflected(fn: Callable[..., Any], name: str | None = None) -> Callable[..., Any]:
    """``number op tensor``; ``name``: the node torch records for it (``RsubBackward1``)."""

    def method(self: Tensor, other: Any) -> Any:
        out = fn(O.as_tensor_arg(other), self)
        if name is not None and out._fn is not None:
            out._fn._name = name
        return out

    return method


def with_out(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` that also takes torch's ``out=``: the result written into that tensor."""

    def function(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        result = fn(*args, **kwargs)
        if out is None:
            return result
        if not isinstance(out, Tensor) or not isinstance(result, Tensor):
            raise TypeError(f"{fn.__name__}(): argument 'out' must be a Tensor")
        out._check_inplace()
        value = np.asarray(result._t._value).astype(out._t.dtype.np)  # torch resizes ``out``
        old = out._c.t
        out._c.t = _ETensor(freeze(value), old.dtype, old.name, old.id)
        out._c.version += 1
        return out

    function.__name__ = function.__qualname__ = fn.__name__
    function.__doc__ = fn.__doc__
    return function


def _fill(self: Tensor, value: Any) -> Tensor:
    """Every element set to ``value``, in place."""
    self._check_inplace()
    v = value.item() if isinstance(value, Tensor) else value
    arr = np.full(self._t._value.shape, v, self._t.dtype.np)
    return self._become(Tensor._wrap(_ETensor(freeze(arr), self._t.dtype)))


def _zero(self: Tensor) -> Tensor:
    """Every element set to zero, in place."""
    return _fill(self, 0)


def _copy(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """``src``'s values copied into this tensor (broadcast), in place."""
    self._check_inplace()
    s = O.as_tensor_arg(src)
    out = O.apply("CopyBackwards", lambda v: _broadcast(v, self), [s], s._t)
    return self._become(out.to(self.dtype) if out.dtype is not self.dtype else out)


def _broadcast(v: Any, like: Tensor) -> Any:
    from tapeviz import engine as E

    return E.broadcast_to(v, tuple(like.shape))


def _random_fill(kind: str) -> Callable[..., Tensor]:
    def method(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator: Any = None) -> Tensor:
        rng = C._rng(generator)
        shape, dt = self._t._value.shape, self._t.dtype.np
        value = rng.normal(shape, dt, a, b) if kind == "normal" else rng.uniform(shape, dt, a, b)
        self._check_inplace()
        arr = np.asarray(value, self._t.dtype.np)
        return self._become(Tensor._wrap(_ETensor(freeze(arr), self._t.dtype)))

    method.__name__ = kind + "_"
    method.__doc__ = f"Fill with {kind} samples, in place."
    return method


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """The tensor in another dtype (devices are accepted and ignored: all is CPU)."""
    want = kwargs.get("dtype")
    for a in args:
        if isinstance(a, D.dtype):
            want = a
        elif isinstance(a, Tensor):
            want = a.dtype
    if want is None or D.as_torch(want) is self.dtype:
        return self
    w = D.as_torch(want)
    from tapeviz import engine as E

    return O.apply("ToCopyBackward0", E.cast, [self], self._t, w._engine)


def _cast_to(d: D.dtype) -> Callable[..., Tensor]:
    def method(self: Tensor, memory_format: Any = None) -> Tensor:
        return to(self, d)

    method.__doc__ = f"The tensor as {d!r}."
    return method


def _put(name: str, fn: Any) -> None:
    """``Tensor.name = fn``, named so (the sandbox allows a bound method by its name).

    A function of another name is copied under this one (no extra call per method call).
    """
    if not isinstance(fn, property) and getattr(fn, "__name__", name) != name:
        if isinstance(fn, types.FunctionType):
            copy = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__,
                                      fn.__closure__)  # fmt: skip
            copy.__kwdefaults__, copy.__doc__ = fn.__kwdefaults__, fn.__doc__
            fn = copy
        else:
            fn = _method(fn)
        fn.__name__ = fn.__qualname__ = name
    setattr(Tensor, name, fn)


def _init(self: Tensor, *args: Any, dtype: Any = None) -> None:
    """``torch.Tensor(data)`` or ``torch.Tensor(*sizes)``: torch's legacy constructor."""
    value = C.legacy_value(args, D.DEFAULT.value if dtype is None else D.as_torch(dtype))
    Tensor._setup(self, value, False, None)


def _backward(
    self: Tensor,
    gradient: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulate d(self)/d(leaf) into each leaf's ``.grad`` (one backward pass)."""
    run_backward([self], [gradient], retain_graph, create_graph, inputs)


def install() -> None:
    """Add the methods and operators to :class:`Tensor`."""
    Tensor.__init__ = _init  # type: ignore[method-assign]
    _put("backward", _backward)
    for module, names in _AS_METHODS.items():
        for name in names.split():
            _put(name, getattr(module, name))
    for alias, name in _ALIASES.items():
        _put(alias, getattr(Tensor, name))
    for name in ("add sub mul div pow remainder clamp clip exp log sqrt sin cos tanh sigmoid "
                 "relu abs neg sign floor ceil round square reciprocal t transpose "
                 "squeeze unsqueeze").split():  # fmt: skip
        _put(name + "_", _inplace(getattr(Tensor, name)))
    _put("fill_", _fill)
    _put("zero_", _zero)
    _put("copy_", _copy)
    _put("normal_", _random_fill("normal"))
    _put("uniform_", _random_fill("uniform"))
    _put("to", to)
    _put("cpu", lambda self: self)
    _put("cuda", lambda self, *a, **k: self)
    _put("float", _cast_to(D.float32))
    _put("double", _cast_to(D.float64))
    _put("half", _cast_to(D.float16))
    _put("long", _cast_to(D.int64))
    _put("int", _cast_to(D.int32))
    _put("bool", _cast_to(D.bool_))
    _put("T", property(lambda self: S.permute(self, *range(self.ndim)[::-1])))
    _put("mT", property(lambda self: S.transpose(self, -2, -1)))
    _operators()


def _operators() -> None:
    ops = {
        "__add__": O.add, "__sub__": O.sub, "__mul__": O.mul, "__truediv__": O.div,
        "__pow__": O.pow, "__matmul__": O.matmul, "__mod__": O.remainder,
        "__floordiv__": O.floor_divide, "__eq__": O.eq, "__ne__": O.ne, "__lt__": O.lt,
        "__le__": O.le, "__gt__": O.gt, "__ge__": O.ge, "__and__": O.logical_and,
        "__or__": O.logical_or,
    }  # fmt: skip
    for name, fn in ops.items():
        _put(name, fn)
    for name, fn in {"__radd__": O.add, "__rmul__": O.mul, "__rmatmul__": O.matmul,
                     "__rfloordiv__": O.floor_divide, "__rmod__": O.remainder}.items():  # fmt: skip
        _put(name, _reflected(fn))
    _put("__rsub__", _reflected(O.sub, "RsubBackward1"))
    _put("__rtruediv__", _reflected(O.div, "MulBackward0"))  # torch: reciprocal() * number
    _put("__rpow__", _reflected(O.pow, "PowBackward2"))  # pow(Scalar, Tensor)
    for name, fn in {"__iadd__": O.add, "__isub__": O.sub, "__imul__": O.mul,
                     "__itruediv__": O.div, "__ipow__": O.pow}.items():  # fmt: skip
        _put(name, _inplace(fn))
    _put("__neg__", lambda self: O.neg(self))
    _put("__pos__", lambda self: self)
    _put("__abs__", lambda self: O.abs(self))
    _put("__invert__", lambda self: O.logical_not(self))
    _put("__getitem__", lambda self, key: S.getitem(self, key))
    _put("__setitem__", lambda self, key, value: S.setitem(self, key, value))
    Tensor.__hash__ = lambda self: id(self)  # type: ignore[method-assign]
