"""``torch.Tensor``: an engine tensor in a shared cell, with autograd's state around it.

A tensor's value lives in a :class:`~tapeviz.torch._shared.Cell` that ``detach()`` and ``.data``
share, so an in-place change through one is seen through the other, as with torch's shared
storage. An in-place change that records no graph keeps the engine id (a parameter keeps one
identity across optimizer steps, which the timeline follows); one that records a graph makes a
new one. ``numpy()`` and ``torch.from_numpy`` share memory with numpy as torch documents (see
:mod:`tapeviz.torch._shared`). The maths methods are added by :mod:`tapeviz.torch._ops`.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import Variable as _EVariable
from tapeviz.engine.tensor import freeze
from tapeviz.tf import run_state
from tapeviz.torch import _autograd as ag
from tapeviz.torch import _dtypes as D
from tapeviz.torch._handles import add_hook
from tapeviz.torch._shared import Cell
from tapeviz.torch._size import CPU, Size, device, legacy_dtype_name, type_name


class _Leaves(threading.local):
    """The leaves a backward pass watched this run, with the Variable each is seen as."""

    held: list[tuple[weakref.ref[Any], _EVariable]] = []  # noqa: RUF012 (fresh per run)


_LEAVES = _Leaves()
run_state.register_attributes(__name__, _LEAVES, lambda: {"held": []})


def refresh_leaf_variables() -> None:
    """At the end of a run: each watched leaf's Variable takes the leaf's value now.

    A parameter's Variable takes its value at every ``backward()``; ``optimizer.step()`` then
    changes the parameter, so after the last step the Variable would show the value before it.
    The timeline reads a parameter's value "after the last step" from it, as a TensorFlow
    variable's value at the end.
    """
    for ref, v in _LEAVES.held:
        t = ref()
        if t is not None:
            t._refresh(v)


_NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead."
)


class _TensorType(type):
    """The tensor classes' metaclass: they print as torch names them (``torch.Tensor``)."""

    def __repr__(cls) -> str:
        shown = cls.__dict__.get("_shown")
        if shown is None:
            module = str(cls.__module__)
            if module.startswith("tapeviz.torch."):  # torch.nn.parameter.Parameter
                module = module.removeprefix("tapeviz.")
            shown = f"{module}.{cls.__qualname__}"
        return f"<class '{shown}'>"


class Tensor(metaclass=_TensorType):
    """A PyTorch tensor on tapeviz's engine."""

    __slots__ = ("__weakref__", "_c", "_fn", "_grad", "_hooks", "_retains", "_rg", "_var")
    _shown = "torch.Tensor"

    # ``Tensor(...)`` (torch's legacy constructor) and ``backward`` come from _methods.install.

    def _setup(self, t: _ETensor, rg: bool, fn: ag.Node | None) -> None:
        self._c = Cell(t)
        self._rg = rg
        self._fn = fn
        self._grad: Tensor | None = None
        self._retains = False
        self._hooks: dict[int, Any] | None = None  # register_hook's functions, by handle id

    @classmethod
    def _wrap(cls, t: _ETensor, rg: bool = False, fn: ag.Node | None = None) -> Tensor:
        out = object.__new__(cls)
        out._setup(t, rg, fn)
        return out

    # -- the value ---------------------------------------------------------------------------
    @property
    def _t(self) -> _ETensor:
        return self._c.t

    @property
    def _version(self) -> int:
        return self._c.version

    @property
    def dtype(self) -> D.dtype:
        """The element type (``torch.float32``)."""
        return D.of_engine(self._c.meta.dtype)

    @property
    def shape(self) -> Size:
        """The shape, as ``torch.Size``."""
        return Size(self._c.meta._value.shape)

    def size(self, dim: int | None = None) -> Any:
        """The shape (``torch.Size``), or one dimension's length."""
        shape = self._c.meta._value.shape
        return Size(shape) if dim is None else shape[_dim(dim, len(shape))]

    def dim(self) -> int:
        """The number of dimensions."""
        return int(self._c.meta._value.ndim)

    ndimension = dim

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return int(self._c.meta._value.ndim)

    def numel(self) -> int:
        """The number of elements."""
        return int(self._c.meta._value.size)

    nelement = numel

    def element_size(self) -> int:
        """Bytes per element."""
        return int(self._c.meta._value.dtype.itemsize)

    @property
    def device(self) -> device:
        """Always the CPU."""
        return CPU

    @property
    def is_cuda(self) -> bool:
        """Always False."""
        return False

    def type(self, dtype: Any = None) -> Any:
        """The legacy type name (``torch.FloatTensor``), or a cast to ``dtype`` or a legacy type."""
        if dtype is None:
            return type_name(self)
        name = legacy_dtype_name(dtype)
        return self.to(dtype if name is None else D.as_torch(name))

    def is_floating_point(self) -> bool:
        """Whether the dtype is a float dtype."""
        return self.dtype.is_floating_point

    def __len__(self) -> int:
        shape = self._c.meta._value.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return int(shape[0])

    def __iter__(self) -> Iterator[Tensor]:
        if not self._c.meta._value.ndim:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(len(self)))

    def __hash__(self) -> int:
        return id(self)

    # -- conversion --------------------------------------------------------------------------
    def item(self) -> Any:
        """The single element as a Python number."""
        v = self._c.t._value
        if v.size != 1:
            raise RuntimeError(f"a Tensor with {v.size} elements cannot be converted to Scalar")
        return v.reshape(()).item()

    def tolist(self) -> Any:
        """The values as (nested) Python lists of numbers."""
        return np.asarray(self._c.t._value).tolist()

    def numpy(self, force: bool = False) -> np.ndarray:
        """The values as a numpy array sharing memory with the tensor (``force``: even with grad).

        Writes through either side are seen by the other, as in torch; ``.copy()`` it to keep
        the values of now.
        """
        if self._rg and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._c.share().view()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # torch's __array__ is numpy(): shared memory. A tensor that requires grad gives a copy
        # here (torch refuses; tapeviz's own readers of values rely on it).
        out = np.array(self._c.t._value) if copy or self._rg else self._c.share().view()
        return out if dtype is None else out.astype(dtype, copy=False)

    def _scalar(self, kind: str) -> Any:
        v = self._c.t._value
        if v.size != 1:
            raise RuntimeError(f"a Tensor with {v.size} elements cannot be converted to Scalar")
        return v.reshape(()).item()

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._scalar("int"))

    def __bool__(self) -> bool:
        v = self._c.t._value
        if v.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(v.reshape(()).item())

    def __format__(self, spec: str) -> str:
        if self._c.meta._value.ndim == 0:
            return format(self.item(), spec)
        return format(repr(self), spec)

    # -- printing ----------------------------------------------------------------------------
    def _suffixes(self) -> list[str]:
        if self._fn is not None:
            return [f"grad_fn=<{self._fn._name}>"]
        return ["requires_grad=True"] if self._rg else []

    def __repr__(self) -> str:
        from tapeviz.torch._format import tensor_repr

        return tensor_repr(self._c.t._value, self.dtype._name, suffixes=self._suffixes())

    __str__ = __repr__

    # -- autograd ----------------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether autograd records ops on this tensor."""
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Make this leaf require grad (or not); returns the tensor."""
        if self._fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach()."
                )
            return self
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        self._rg = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        """Whether the tensor was made by the user (not by an op recorded in a graph)."""
        return self._fn is None

    @property
    def grad_fn(self) -> ag.Node | None:
        """The backward function of the op that made this tensor (None for leaves)."""
        return self._fn

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by ``backward()`` (leaves, and tensors that retain it)."""
        if self._fn is not None and not self._retains and self._grad is None:
            diagnostics.warn(_NON_LEAF_GRAD, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(
                f"assigned grad expected to be a Tensor or None but got grad of "
                f"{type(value).__name__}"
            )
        if value is not None and tuple(value.shape) != tuple(self.shape):
            raise RuntimeError(
                f"assigned grad has data of a different size ({value.shape} vs {self.shape})"
            )
        self._grad = value

    def retain_grad(self) -> None:
        """Keep this non-leaf tensor's gradient in ``.grad`` at the next ``backward()``."""
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._fn is not None:
            self._retains = True

    def register_hook(self, hook: Any) -> Any:
        """Call ``hook(grad)`` once this tensor's gradient is computed; returns a handle.

        A Tensor the hook returns is the gradient that flows on (and into ``.grad``); the
        handle's ``remove()`` takes the hook away.
        """
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._hooks is None:
            self._hooks = {}
        return add_hook(self._hooks, hook)

    def _hook_runner(self, tid: int, tape: Any) -> Any:
        """The walk's hook for this tensor (engine id ``tid``): its hooks, in order.

        The result is noted in ``tape.hooked`` (engine id -> array), which the window's walk
        gives back in its place.
        """
        dtype = self._t.dtype
        hooks = self._hooks or {}

        def run(g: Any) -> Any:
            taping = isinstance(g, _ETensor)  # create_graph: the hooks' ops are recorded too
            value = g if taping else _ETensor(freeze(np.asarray(g, dtype.np)), dtype)
            for hook in list(hooks.values()):
                out = hook(Tensor._wrap(value, taping))
                if out is None:
                    continue
                if not isinstance(out, Tensor):
                    raise TypeError(
                        f"a gradient hook must return a Tensor or None, got {type(out).__name__}"
                    )
                if tuple(out.shape) != tuple(np.shape(value._value)):
                    raise RuntimeError(
                        f"hook returned a gradient of shape {list(out.shape)} for a tensor of "
                        f"shape {list(np.shape(value._value))}"
                    )
                value = out._t
            if taping:
                return value
            after = freeze(np.asarray(value._value, dtype.np))
            if tape.hooked is None:
                tape.hooked = {}
            tape.hooked[tid] = np.array(after)
            return after

        return run

    @property
    def retains_grad(self) -> bool:
        """Whether ``retain_grad()`` was called on this non-leaf tensor."""
        return self._retains

    def detach(self) -> Tensor:
        """The same values (shared), cut from the graph."""
        out = object.__new__(Tensor)
        out._setup(self._c.meta, False, None)
        out._c = self._c
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        if self._fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                "be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        t = self._c.t
        out = type(self)._wrap(_ETensor(t._value, t.dtype, t.name), self._rg)
        memo[id(self)] = out
        return out

    def detach_(self) -> Tensor:
        """Cut this tensor from the graph, in place."""
        self._fn, self._rg = None, False
        return self

    @property
    def data(self) -> Tensor:
        """The values as a tensor that shares them and records nothing."""
        return self.detach()

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        if value._c is not self._c:
            old = self._c.t
            self._c.unshare()  # torch: the tensor now uses ``value``'s memory, not the array's
            self._c.t = _ETensor(value._c.t._value, value._c.t.dtype, old.name, old.id)
            if value._c.array is not None:
                self._c.share(value._c.array)

    def _as_variable(self) -> _EVariable:
        """The leaf as the engine Variable its tapes watch: one object, its id and value now.

        Like a TensorFlow variable, a parameter is one object across every backward pass, so
        the timeline follows it from step to step and names it (``fc1.weight``).
        """
        try:
            v = self._var
        except AttributeError:
            v = self._var = object.__new__(_EVariable)
            v._snapshot, v.trainable = None, True
            _LEAVES.held.append((weakref.ref(self), v))
        self._refresh(v)
        return v

    def _refresh(self, v: _EVariable) -> None:
        t = self._c.t
        v._value, v.dtype, v.id = t._value, t.dtype, t.id
        v.name = f"{t.name or 'tensor'}:0"

    # -- in-place changes (used by the in-place methods of _ops) ----------------------------
    def _check_inplace(self) -> None:
        if ag.GRAD.enabled and self._rg and self._fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )

    def _become(self, result: Tensor) -> Tensor:
        """Take ``result``'s value in place (the in-place ops' last step)."""
        want = self.dtype
        value = result._c.t
        if value.dtype is not want._engine:
            if result.dtype.is_floating_point and not want.is_floating_point:
                raise RuntimeError(
                    f"result type {_type_word(result.dtype)} can't be cast to the desired output "
                    f"type {_type_word(want)}"
                )
            cast = np.asarray(value._value).astype(want._engine.np)
            value = _ETensor(freeze(cast), want._engine)
        if value.shape != self._c.meta.shape:
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                f"{list(result.shape)}"
            )
        c = self._c
        c.version += 1
        if result._fn is not None:  # recorded: a new node of the graph
            c.t = value
            self._fn, self._rg = result._fn, True
        else:
            c.t = _ETensor(value._value, value.dtype, c.meta.name, c.meta.id)
        return self


def _dim(dim: int, ndim: int) -> int:
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
            f"{max(ndim, 1) - 1}], but got {dim})"
        )
    return dim % max(ndim, 1)


def _type_word(d: D.dtype) -> str:
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
            "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool"}[d._name]  # fmt: skip


def wrap(t: _ETensor, node: ag.Node | None = None) -> Tensor:
    """A torch tensor around an op's engine result (requiring grad if the op recorded)."""
    return Tensor._wrap(t, node is not None, node)
