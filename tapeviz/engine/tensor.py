"""Tensor (immutable value + dtype + id) and Variable (mutable, trainable)."""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Iterator
from types import MethodType
from typing import Any

import numpy as np

from tapeviz.engine import dtypes, strings, tracelog
from tapeviz.engine.dtypes import DType
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError, UnimplementedError
from tapeviz.engine.guard import check_elements
from tapeviz.engine.shapes import TensorShape
from tapeviz.engine.state import STATE, scope_prefix
from tapeviz.engine.strings import value_dtype
from tapeviz.engine.values import freeze

_ids = itertools.count(1)
CPU_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"  # what TensorFlow eager reports
# What an assign returns: the variable as TensorFlow's UnreadVariable (set by engine.unread).
UNREAD: Callable[[Variable], Any] = lambda v: v  # noqa: E731
# Live variables by id: a recorded op input with one of these ids is that variable's value.
VARIABLES: weakref.WeakValueDictionary[int, Variable] = weakref.WeakValueDictionary()
_VARIABLE_REFS = VARIABLES.data  # (its dict of weak references: read without Python calls)


def is_variable_id(tid: int) -> bool:
    """Whether ``tid`` is a live variable's id (``tid in VARIABLES``, a graph's hot question)."""
    ref = _VARIABLE_REFS.get(tid)
    return ref is not None and ref() is not None


def new_id() -> int:
    """Return a fresh tensor/variable id (monotonic for the process)."""
    return next(_ids)


class TensorLike:
    """What Tensor and Variable share: value access, conversions and printing."""

    __slots__ = ()
    __array_ufunc__ = None  # numpy defers to our reflected operators (np_array * tensor)
    _value: Any
    dtype: DType
    id: int

    @property
    def shape(self) -> TensorShape:
        """The shape as a TensorShape (a tuple)."""
        try:
            return TensorShape(self._value.shape)  # numpy arrays and scalars: no np.shape() call
        except AttributeError:
            return TensorShape(np.shape(self._value))

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return np.ndim(self._value)

    @property
    def size(self) -> int:
        """Total number of elements."""
        return int(np.size(self._value))

    @property
    def device(self) -> str:
        """Where the value lives: TensorFlow eager's CPU device name."""
        return CPU_DEVICE

    def numpy(self) -> Any:
        """Return the value as a numpy array (a numpy scalar for 0-d tensors), a copy."""
        if STATE.trace_logs:
            tracelog.touch()
        v = self._value
        return v.copy() if type(v) is np.ndarray else v

    def get_shape(self) -> TensorShape:
        """The shape (TensorFlow 1 spelling)."""
        return self.shape

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if STATE.trace_logs:
            tracelog.touch()
        return np.array(self._value, dtype=self.dtype.np if dtype is None else dtype)

    def __len__(self) -> int:
        if np.ndim(self._value) == 0:
            raise EngineTypeError("len() of a scalar tensor", "len")
        return len(self._value)

    def __iter__(self) -> Iterator[Any]:
        if np.ndim(self._value) == 0:
            raise EngineTypeError("cannot iterate over a scalar tensor", "iter")
        return (self[i] for i in range(len(self._value)))  # __getitem__: installed by ops

    def __bool__(self) -> bool:
        if np.size(self._value) != 1:
            raise InvalidArgumentError(
                f"the truth value of a tensor of shape {self.shape} is ambiguous; "
                "use tv.reduce_any/reduce_all or compare a single element",
                "bool",
            )
        if STATE.trace_logs:
            tracelog.touch()
        return bool(self._value)

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        if not self.dtype.is_integer:
            raise EngineTypeError(
                f"only integer tensors can be used as an index, got {self.dtype.name}", "index"
            )
        return int(self._scalar("index"))

    def _scalar(self, what: str) -> Any:
        if np.size(self._value) != 1:
            raise InvalidArgumentError(
                f"{what}() needs a tensor with one element, got shape {self.shape}", what
            )
        if STATE.trace_logs:
            tracelog.touch()
        return np.asarray(self._value).reshape(())[()]

    def __format__(self, spec: str) -> str:
        if spec and np.ndim(self._value) == 0:
            v = self._value
            return format(v if type(v) is bytes else v.item(), spec)
        return format(str(self), spec)

    def __hash__(self) -> int:
        return hash(self.id)

    def _value_text(self, is_repr: bool = False) -> str:
        v = self._value
        if isinstance(v, np.generic):
            text = repr(v.item()) if is_repr else str(v)
        else:
            text = repr(v) if is_repr else str(v)
        return "\n" + text if "\n" in text else text


class Tensor(TensorLike):
    """An immutable tensor: a numpy value, a dtype and a stable ``id``.

    ``_sliced`` is set (to the variable and the index key) only on ``v[key]`` of a Variable:
    such a tensor has TensorFlow's ``assign``; any other tensor has none.
    """

    __slots__ = ("_sliced", "_value", "dtype", "id", "name")
    _sliced: tuple[Variable, Any]

    def __init__(self, value: Any, dtype: DType, name: str | None = None, id: int = 0) -> None:
        self._value = value
        self.dtype = dtype
        self.id = id or next(_ids)
        self.name = name

    @property
    def assign(self) -> Callable[..., Variable]:
        """``v[key].assign(value)``: write into the part of the variable ``v[key]`` read."""
        try:
            self._sliced  # noqa: B018  (set only on a slice of a Variable)
        except AttributeError:
            raise AttributeError(
                f"'{type(self).__name__}' object has no attribute 'assign'", name="assign", obj=self
            ) from None
        return MethodType(_assign_to_slice, self)

    def __repr__(self) -> str:
        return (
            f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
            f"numpy={self._value_text(True)}>"
        )

    def __str__(self) -> str:
        return f"tf.Tensor({self._value_text()}, shape={self.shape}, dtype={self.dtype.name})"


def _assign_to_slice(self: Tensor, value: Any, name: str | None = None) -> Variable:
    """Assign ``value`` to the variable's part this tensor was sliced from; return the variable."""
    var, key = self._sliced
    return var._assign_slice(key, value)


_assign_to_slice.__name__ = _assign_to_slice.__qualname__ = "assign"  # as the sandbox allows it


def _infer_dtype(value: Any) -> DType:
    """The dtype TensorFlow gives a Python/numpy value converted without a dtype hint."""
    if isinstance(value, TensorLike):
        return value.dtype
    if isinstance(value, np.ndarray | np.generic):  # before float: np.float64 is a float
        if value.dtype.kind in "fiub":
            return dtypes.from_numpy(value.dtype)
        if value.dtype.kind == "c":
            return dtypes.from_numpy(value.dtype)
        if strings.is_text_array(value):
            return dtypes.string
        raise EngineTypeError(
            f"cannot make a tensor from a numpy array of {value.dtype}", "constant"
        )
    if isinstance(value, str | bytes):
        return dtypes.string
    if isinstance(value, bool):
        return dtypes.bool_
    if isinstance(value, int):
        return dtypes.int32
    if isinstance(value, float):
        return dtypes.float32
    if isinstance(value, range):
        return dtypes.int32
    if isinstance(value, complex):
        return dtypes.complex128
    if isinstance(value, list | tuple):
        if not value:
            return dtypes.float32
        kinds = [_infer_dtype(v) for v in value]
        if dtypes.string in kinds:  # (a number among them: to_array says which)
            return dtypes.string
        if dtypes.complex128 in kinds or dtypes.complex64 in kinds:
            return dtypes.complex128 if dtypes.complex128 in kinds else dtypes.complex64
        for candidate in (dtypes.float64, dtypes.float32, dtypes.int64, dtypes.int32):
            if candidate in kinds:
                return candidate
        return kinds[0]
    raise EngineTypeError(
        f"cannot convert {type(value).__name__} {value!r:.40} to a tensor", "convert_to_tensor"
    )


def to_array(value: Any, dtype: DType | None, op: str = "convert_to_tensor") -> Any:
    """Convert a Python/numpy value to a frozen numpy value of ``dtype`` (inferred if None)."""
    if isinstance(value, TensorLike):
        if dtype is not None and value.dtype is not dtype:
            raise InvalidArgumentError(
                f"{op}: expected a {dtype.name} tensor, got {value.dtype.name}",
                op,
                ("cast", {"dtype": dtype.name}),
            )
        return value._value
    if isinstance(value, range):
        check_elements(len(value), op)
    if dtype is None:
        dtype = _infer_dtype(value)
    elif not dtype.is_string and strings.is_text(value):  # text becomes tf.string only
        raise strings.not_convertible(f"{value!r:.40}", dtype, op)
    elif dtype.is_integer or dtype.is_bool:
        src = _infer_dtype(value)
        if src.is_floating:
            raise EngineTypeError(
                f"{op}: cannot convert the float value {value!r:.40} to a {dtype.name} tensor; "
                "make the other operand float",
                op,
                ("cast", {"dtype": "float32"}),
            )
    if dtype.is_string:
        return strings.to_bytes(value, op)
    try:
        arr = np.array(value, dtype=dtype.np)
    except (ValueError, TypeError) as exc:
        raise EngineTypeError(
            f"{op}: cannot convert {value!r:.60} to a tensor: {exc}", op
        ) from None
    if arr.dtype == object:
        raise EngineTypeError(f"{op}: cannot convert {value!r:.60} to a tensor", op)
    return freeze(arr)


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    """Create a constant tensor (float32 for Python floats, like ``tf.constant``)."""
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(value, TensorLike):
        arr = value._value
        if dt is not None and dt is not value.dtype:
            if dt.is_string or value.dtype.is_string:
                raise strings.not_convertible(f"a {value.dtype.name} tensor", dt, "constant")
            arr = freeze(np.asarray(arr).astype(dt.np))
    else:
        arr = to_array(value, dt, "constant")
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        check_elements(int(np.prod(shape, dtype=np.float64)), "constant")
        arr = freeze(np.array(np.broadcast_to(strings.as_object(arr, shape), shape)))
    out = Tensor(arr, value_dtype(arr), name)
    if STATE.trace_logs and not isinstance(value, TensorLike):
        tracelog.made(value, out)
    return out


def convert_to_tensor(value: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Return ``value`` as a Tensor; Variables are read, Tensors returned as they are."""
    if isinstance(value, Variable):
        value = value.value()
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
            wanted = dtypes.as_dtype(dtype).name
            raise InvalidArgumentError(
                f"convert_to_tensor: requested dtype {wanted} for a {value.dtype.name} tensor",
                "convert_to_tensor",
                ("cast", {"dtype": wanted}),
            )
        return value
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    arr = to_array(value, dt)
    out = Tensor(arr, dt or value_dtype(arr), name)
    if STATE.trace_logs:
        tracelog.made(value, out)
    return out


class Variable(TensorLike):
    """A mutable tensor; trainable variables are watched by a tape when it reads them."""

    __slots__ = ("__weakref__", "_snapshot", "_value", "dtype", "id", "name", "trainable")

    def __init__(
        self,
        initial_value: Any = None,
        trainable: bool = True,
        name: str | None = None,
        dtype: Any = None,
    ) -> None:
        if initial_value is None:
            raise EngineTypeError("Variable needs an initial_value", "Variable")
        if callable(initial_value):
            initial_value = initial_value()
        t = constant(initial_value, dtype=dtype)
        self._value = t._value
        self.dtype = t.dtype
        self.id = next(_ids)
        self.name = f"{scope_prefix()}{name or 'Variable'}:0"  # "scope/name:0", as TF names it
        self.trainable = bool(trainable)
        self._snapshot: Tensor | None = None
        VARIABLES[self.id] = self
        log = STATE.new_variables
        if log is not None:  # a tf.function call is watching for new variables
            log.append(self)

    def value(self) -> Tensor:
        """Return the current value as a Tensor carrying this variable's id."""
        snap = self._snapshot
        if snap is None:
            snap = self._snapshot = Tensor(self._value, self.dtype, self.name, self.id)
        return snap

    def read_value(self) -> Tensor:
        """Return the current value as a Tensor (recorded reads watch trainable variables)."""
        return +self  # __pos__ is ops.identity, installed by ops (which imports this module)

    def _set(self, arr: Any, op: str) -> Variable:
        if getattr(arr, "shape", ()) != getattr(self._value, "shape", ()):  # (bytes: a string)
            raise InvalidArgumentError(
                f"{op}: cannot assign a value of shape {np.shape(arr)} to variable "
                f"'{self.name}' of shape {np.shape(self._value)}",
                op,
            )
        self._value = arr
        self._snapshot = None
        return self

    def assign(self, value: Any, read_value: bool = True) -> Any:
        """Set the variable's value (same shape and dtype); not recorded on tapes."""
        self._set(to_array(value, self.dtype, "assign"), "assign")
        return self._assigned("assign", value, read_value)

    def _assigned(self, kind: str, value: Any, read_value: bool) -> Any:
        """What an assign returns (TensorFlow's ``UnreadVariable``); a tf.function logs it."""
        if STATE.trace_logs:
            tracelog.event(kind, self, (value,), {})
        return UNREAD(self) if read_value else None

    def _assign_slice(self, key: Any, value: Any) -> Variable:
        """``self[key].assign(value)``: TensorFlow's strided-slice assignment (not recorded)."""
        if STATE.trace_logs:
            tracelog.touch()  # not replayed: the call runs its Python again
        arr = to_array(value, self.dtype, "assign")
        new = np.array(self._value)  # a writable copy; slices read before keep their values
        part = np.shape(new[key])
        if int(np.prod(part)) == 0:  # TensorFlow checks nothing and writes nothing
            return self
        if np.shape(arr) != part:  # shapes as TensorFlow's kernel prints them: [2,3]
            lhs, rhs = (str(list(d)).replace(" ", "") for d in (part, np.shape(arr)))
            raise UnimplementedError(
                f"sliced l-value shape {lhs} does not match r-value shape {rhs}. "
                "Automatic broadcasting not yet implemented.",
                "assign",
            )
        new[key] = arr
        return self._set(freeze(new), "assign")

    def assign_add(self, delta: Any, read_value: bool = True) -> Any:
        """Add ``delta`` to the variable's value in place."""
        if self.dtype.is_string:
            raise strings.not_for_strings("AssignAddVariableOp")
        d = to_array(delta, self.dtype, "assign_add")
        self._set(freeze(np.asarray(self._value + d, dtype=self.dtype.np)), "assign_add")
        return self._assigned("assign_add", delta, read_value)

    def assign_sub(self, delta: Any, read_value: bool = True) -> Any:
        """Subtract ``delta`` from the variable's value in place."""
        if self.dtype.is_string:
            raise strings.not_for_strings("AssignSubVariableOp")
        d = to_array(delta, self.dtype, "assign_sub")
        self._set(freeze(np.asarray(self._value - d, dtype=self.dtype.np)), "assign_sub")
        return self._assigned("assign_sub", delta, read_value)

    def __repr__(self) -> str:
        return (
            f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
            f"numpy={self._value_text(True)}>"
        )

    __str__ = __repr__
