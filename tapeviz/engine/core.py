"""Binding primitives: convert operands, run the numpy forward, record onto active tapes."""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics, dtypes, strings, tracelog
from tapeviz.engine.dtypes import DType
from tapeviz.engine.errors import EngineError, EngineTypeError, InvalidArgumentError
from tapeviz.engine.guard import GUARD, check_elements, precheck
from tapeviz.engine.impl_rules import FLOAT_ONLY, IMPL
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.records import _EMPTY, FLAT, OpRecord, Rows, rows_of
from tapeviz.engine.state import STATE
from tapeviz.engine.strings import value_dtype
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, freeze, to_array

__all__ = ["FLAT", "_EMPTY", "OpRecord", "Recorder", "Rows"]  # (re-exported: the engine's names)

NO_RECORDS: tuple[()] = ()  # a recorder's records before the first is made (see Recorder._recs)


class Recorder:
    """Something that records ops while active: a GradientTape or a function trace."""

    for_gradients = True
    _scope: tuple[str, ...] = ()  # the name scope now, kept here while entered (fast to read)

    def __init__(self, watch_accessed_variables: bool = True) -> None:
        self.watch_accessed_variables = watch_accessed_variables
        self._pending = []  # (the rest of _reset_records() is the class's defaults)
        self._tracked, self._watched, self._watched_other = {}, {}, {}

    def _watch(self, t: TensorLike, warn: bool = True) -> None:
        if not t.dtype.is_floating:
            # Like TensorFlow: watched (watched_variables() lists it) but never differentiated.
            if warn:
                diagnostics.warn(
                    f"The dtype of the watched tensor must be floating (e.g. tf.float32), got "
                    f"tf.{t.dtype.name}: it will get no gradient",
                    stacklevel=4,
                )
            self._watched_other.setdefault(t.id, t)
            return
        self._tracked[t.id] = None
        self._watched.setdefault(t.id, t)

    # The made records: the shared empty tuple until the first is made (a loop's tapes that only
    # record columns keep no list of their own: one container fewer for the collector to scan).
    _recs: list[OpRecord] = NO_RECORDS  # type: ignore[assignment]
    # Ops the elementwise fast path recorded as columns, FLAT slots each (primitive, first
    # input, second input or None, output, watched, scope): no record objects until something
    # reads ``records``. gradient() walks them through ``rows()`` without making any, so a
    # loop's tapes hold 6 references per op instead of three tuples (recording ~1.4x faster:
    # the garbage collector had every one of those tuples to scan).
    _pending: list[Any]

    @property
    def records(self) -> list[OpRecord]:
        """The recorded ops, in order (those recorded as columns become records now).

        The list holds the ops recorded so far: an op recorded later joins it the next time
        ``records`` is read (read it again rather than keep it while the tape records).
        """
        recs = self._recs
        if self._pending or recs is NO_RECORDS:
            recs = self._make()
        return recs

    @records.setter
    def records(self, value: list[OpRecord]) -> None:
        self._recs = value
        self._pending = []

    def rows(self) -> Sequence[OpRecord]:
        """The recorded ops as now, making no records to keep (what the backward walk reads)."""
        return Rows(self._recs, self._pending) if self._pending else self._recs

    def parts(self) -> tuple[Sequence[OpRecord], list[Any]]:
        """The records made so far and the column ops after them (no record made; see _pending)."""
        return self._recs, self._pending

    def op_count(self) -> int:
        """How many ops are recorded."""
        return len(self._recs) + len(self._pending) // FLAT

    def _make(self) -> list[OpRecord]:
        recs, flat = self._recs, self._pending
        if recs is NO_RECORDS:
            recs = self._recs = []
        if flat:
            self._pending = []
            recs.extend(rows_of(flat, 0, len(flat), len(recs)))
        return recs

    _tracked: dict[int, None]
    _watched: dict[int, TensorLike]  # float tensors and variables: their gradients can be taken
    _watched_other: dict[int, TensorLike]  # integer and bool ones: watched, no gradient

    _scanned = 0  # records checked for ops that may end a gradient path
    _dead_end = False  # one of them is watched

    def _reset_records(self) -> None:
        self._recs, self._pending = NO_RECORDS, []  # type: ignore[assignment]
        self._tracked, self._watched, self._watched_other = {}, {}, {}
        if self._scanned:
            self._scanned, self._dead_end = 0, False


def push(rec: Recorder) -> None:
    """Make ``rec`` active on this thread (``GradientTape.__enter__`` does this inline)."""
    state = STATE
    rec._scope = state.scope
    state.entered.append(rec)
    state.active.append(rec)


def pop(rec: Recorder) -> None:
    """Deactivate ``rec`` on this thread, wherever it is (``GradientTape.__exit__``: inline)."""
    state = STATE
    entered, active = state.entered, state.active
    if entered and entered[-1] is rec:  # the usual case: the innermost one
        entered.pop()
    else:
        _drop(entered, rec)
    if active and active[-1] is rec:
        active.pop()
    else:
        _drop(active, rec)


def _drop(stack: list[Recorder], rec: Recorder) -> None:
    """Remove ``rec`` from ``stack``, the innermost occurrence (none: nothing to do)."""
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is rec:
            del stack[i]
            return


def is_taping() -> bool:
    """Whether ops run now are recorded by some tape (so a gradient must be recorded too)."""
    for r in STATE.active:  # noqa: SIM110  (hot path: no generator)
        if r.for_gradients:
            return True
    return False


def read_variable(v: Variable) -> Tensor:
    """Read a variable as an op input, watching it on tapes that watch accessed variables."""
    snap = v.value()
    if v.trainable:
        for r in STATE.active:
            if r.watch_accessed_variables and v.id not in r._tracked:
                r._watch(v, False)
    return snap


def _common_dtype(prim: Primitive, args: tuple[Any, ...]) -> DType | None:
    found: DType | None = None
    for i, a in enumerate(args):
        if isinstance(a, TensorLike) and i not in prim.own_dtype_args:
            if found is None:
                found = a.dtype
            elif a.dtype is not found:
                raise InvalidArgumentError(
                    f"{prim.name} of {found.name} and {a.dtype.name} tensors: operands must have "
                    "the same dtype, as in TensorFlow",
                    prim.name,
                    ("cast", {"dtype": found.name}),
                )
    return found


def _python_dtype(args: tuple[Any, ...], prim: Primitive) -> DType:
    """Dtype for an op whose operands are all Python/numpy values."""
    best: DType | None = None
    for i, a in enumerate(args):
        if i in prim.own_dtype_args:
            continue
        if isinstance(a, np.ndarray) and a.ndim > 0:
            return to_dtype(a)
        d = to_dtype(a)
        if best is None or (d.is_floating and not best.is_floating):
            best = d
    return best or dtypes.float32


def to_dtype(a: Any) -> DType:
    """The dtype a non-tensor operand would get on its own."""
    from tapeviz.engine.tensor import _infer_dtype

    return _infer_dtype(a)


# Python numbers converted to each dtype's numpy scalar (cached: numpy scalars are immutable).
NUMBERS: dict[DType, dict[Any, Any]] = {
    d: {} for d in (*dtypes.ALL_DTYPES, dtypes.complex64, dtypes.complex128)
}


def number(value: float | int, dtype: DType) -> Any:
    """A Python int/float as a numpy scalar of ``dtype``."""
    table = NUMBERS[dtype]
    v = table.get(value) if value else None  # 0 and -0.0 are equal keys of different values
    if v is None:
        v = dtype.scalar(value)
        if value:
            if len(table) > 4096:
                table.clear()
            table[value] = v
    return v


def _scalar(value: Any, dtype: DType, prim: Primitive) -> Tensor:
    """A Python int/float operand as a Tensor of ``dtype``."""
    if (
        not dtype.is_floating and not dtype.is_complex and (type(value) is float or dtype.is_string)
    ):  # (1.0 == 1)
        to_array(value, dtype, prim.name)  # raises a clear error
    return Tensor(number(value, dtype), dtype)


def as_inputs(prim: Primitive, args: tuple[Any, ...]) -> tuple[Tensor, ...]:
    """Convert op operands to Tensors: scalars adopt the tensor operand's dtype."""
    if len(args) == 2:
        a, b = args
        ta, tb = type(a), type(b)
        if ta is Tensor and tb is Tensor:  # nothing to convert: the args are the inputs
            if a.dtype is not b.dtype and not prim.own_dtype_args:
                _common_dtype(prim, args)
            return args
        if ta is Variable:
            a, ta = read_variable(a), Tensor
        if tb is Variable:
            b, tb = read_variable(b), Tensor
        if ta is Tensor:
            if tb is Tensor:
                if a.dtype is not b.dtype and not prim.own_dtype_args:
                    _common_dtype(prim, (a, b))
                return (a, b)
            if tb is float or tb is int:
                return (a, _scalar(b, a.dtype, prim))
        elif tb is Tensor and (ta is float or ta is int):
            return (_scalar(a, b.dtype, prim), b)
        return _as_inputs(prim, (a, b))
    if len(args) == 1:
        ta = type(args[0])
        if ta is Tensor:
            return args
        if ta is Variable:
            return (read_variable(args[0]),)
    return _as_inputs(prim, args)


def _as_inputs(prim: Primitive, args: tuple[Any, ...]) -> tuple[Tensor, ...]:
    args = tuple(read_variable(a) if isinstance(a, Variable) else a for a in args)
    dtype = _common_dtype(prim, args)
    if dtype is None:
        dtype = _python_dtype(args, prim)
    out = []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            out.append(a)
        else:
            if i in prim.bool_args:
                want: DType | None = dtypes.bool_
            else:
                want = None if i in prim.int_args else dtype
            arr = to_array(a, want, prim.name)
            out.append(Tensor(arr, want or value_dtype(arr)))
            if STATE.trace_logs and strings.is_text(a):  # a graph constant, as TF makes it
                tracelog.made(a, out[-1])
    return tuple(out)


_COMPLEX = (dtypes.complex64, dtypes.complex128)
_BY_NP = {d.np: d for d in (*dtypes.ALL_DTYPES, *_COMPLEX)}
_BY_SCALAR_TYPE = {d.np.type: d for d in dtypes.ALL_DTYPES}  # np.float32 -> float32, ...
_VALUE = operator.attrgetter("_value")
_new_record = tuple.__new__  # OpRecord(...) without the NamedTuple's Python-level __new__


def _float_advice(op: str, value: Any) -> tuple[str, dict[str, str]]:
    """For an op that needs floats: write the literal as a float, or cast the tensor."""
    if type(value) is int:  # log(-1): the user typed an integer literal
        return "write_float", {"op": op, "literal": str(value), "value": f"{value}.0"}
    return "cast", {"dtype": "float32"}


def bind(prim: Primitive, *args: Any, **params: Any) -> Tensor:
    """Run primitive ``prim`` on ``args`` and record it on every active tape."""
    xs = as_inputs(prim, args)
    if not xs[0].dtype.is_floating:
        if prim in FLOAT_ONLY:
            raise InvalidArgumentError(
                f"{prim.name} needs a float tensor, got {xs[0].dtype.name} {xs[0].shape}",
                prim.name,
                _float_advice(prim.name, args[0]),
            )
        for x in xs:  # (a condition may come first: where(c, "a", "b"))
            if x.dtype.is_string:
                return _bind_strings(prim, xs, params)
            if x.dtype.is_complex:
                return _bind_complex(prim, xs, params)
    limit = GUARD.max_elements
    if limit is not None:
        precheck(prim, [x._value for x in xs], params)
    try:
        if len(xs) == 2:
            out = IMPL[prim](xs[0]._value, xs[1]._value, **params)
        elif len(xs) == 1:
            out = IMPL[prim](xs[0]._value, **params)
        else:
            out = IMPL[prim](*[x._value for x in xs], **params)
    except EngineError:
        raise
    except (ValueError, TypeError, IndexError, OverflowError, MemoryError) as exc:
        raise op_error(prim, xs, exc) from None
    dtype = _BY_SCALAR_TYPE.get(type(out))
    if dtype is None:  # an array (made read-only), or a 0-d array or Python value to normalise
        out = freeze(out if type(out) is np.ndarray else np.asarray(out))
        dtype = _BY_NP[out.dtype]
    if limit is not None:
        check_elements(int(np.size(out)), prim.name)
    t = Tensor(out, dtype)
    active = STATE.active
    if active:
        record(active, prim, xs, t, MappingProxyType(params) if params else _EMPTY)
    return t


def _impl(prim: Primitive, xs: tuple[Tensor, ...], values: list[Any], params: Any) -> Any:
    """``prim``'s numpy kernel on ``values``; a numpy failure as an error naming the op."""
    try:
        return IMPL[prim](*values, **params)
    except EngineError:
        raise
    except (ValueError, TypeError, IndexError, OverflowError, MemoryError) as exc:
        raise op_error(prim, xs, exc) from None


def _bind_complex(prim: Primitive, xs: tuple[Tensor, ...], params: dict[str, Any]) -> Tensor:
    """``bind`` for an op of complex numbers: numpy's value, recorded on no tape.

    tapeviz's tapes, graph and stepper are real-valued; TensorFlow computes these values the
    same way (complex gradients are not drawn here).
    """
    if GUARD.max_elements is not None:
        precheck(prim, [x._value for x in xs], params)
    out = _impl(prim, xs, [x._value for x in xs], params)
    out = freeze(out if type(out) is np.ndarray else np.asarray(out))
    dtype = _BY_NP.get(out.dtype)
    if dtype is None:
        raise InvalidArgumentError(f"{prim.name}: no {out.dtype} tensors in tapeviz", prim.name)
    if GUARD.max_elements is not None:
        check_elements(int(np.size(out)), prim.name)
    return Tensor(out, dtype)


def _bind_strings(prim: Primitive, xs: tuple[Tensor, ...], params: dict[str, Any]) -> Tensor:
    """``bind`` for an op of strings: TensorFlow's string kernels only, recorded off tapes.

    A tf.function's trace records it (its later calls replay it); a GradientTape does not, as
    TensorFlow's tapes record only ops of watched (float) tensors.
    """
    strings.check_op(prim, xs, params)
    if GUARD.max_elements is not None:
        precheck(prim, [x._value for x in xs], params)
    # One string as a 0-d object array: numpy would make it an S array (and drop end NULs).
    values = [np.asarray(v, dtype=object) if type(v) is bytes else v for v in map(_VALUE, xs)]
    out = _impl(prim, xs, values, params)
    if type(out) is bool or (isinstance(out, np.ndarray | np.generic) and out.dtype.kind in "biuf"):
        out = freeze(np.asarray(out))  # a comparison's bools, a condition's indices
        dtype = _BY_NP[out.dtype]
    else:  # bytes, or object arrays of bytes (or numpy's own bytes)
        out, dtype = strings.op_result(prim, out), dtypes.string
    check_elements(int(np.size(out)), prim.name)
    t = Tensor(out, dtype)
    active = [r for r in STATE.active if not r.for_gradients]
    if active:
        record(active, prim, xs, t, MappingProxyType(params) if params else _EMPTY)
    return t


def record(
    active: list[Recorder],
    prim: Primitive,
    xs: tuple[Tensor, ...],
    t: Tensor,
    params: Mapping[str, Any] = _EMPTY,
) -> None:
    """Append the op's record to the ``active`` tapes; its output is tracked where an input is."""
    outs = (t,)
    for r in active:
        tracked = r._tracked
        for x in xs:
            if x.id in tracked:
                tracked[t.id] = None
                watched = True
                break
        else:
            watched = False
        recs = r.records
        recs.append(_new_record(OpRecord, (len(recs), prim, xs, outs, params, watched, r._scope)))


def op_error(prim: Primitive, xs: tuple[Tensor, ...], exc: Exception) -> EngineError:
    """Translate a numpy failure inside an op into an error naming the op and operands."""
    shapes = " and ".join(str(tuple(np.shape(x._value))) for x in xs)
    kinds = ", ".join(dict.fromkeys(x.dtype.name for x in xs))
    text = str(exc)
    if "broadcast" in text:
        reason = "the shapes cannot be broadcast together (each dimension must match or be 1)"
    elif isinstance(exc, MemoryError):
        reason = "the result is too large to allocate"
    else:
        reason = text.split("\n")[0]
    cls = EngineTypeError if isinstance(exc, TypeError) else InvalidArgumentError
    return cls(f"{prim.name} of {shapes} shapes ({kinds}): {reason}", prim.name)
