"""Keras' functional API: ``keras.Input``, symbolic ``KerasTensor``s and the layer graph.

Calling a layer on a KerasTensor builds the layer for that input shape and records a node; the
output's shape comes from running the layer once on zeros (``None`` sizes taken as 1, and as
2 to see which output sizes follow them), with every tape paused. ``keras.Model(inputs,
outputs)`` then replays the recorded nodes on real tensors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import array_ops, dtypes, nest
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor, TensorShape, freeze
from tapeviz.tf.keras_src import backend
from tapeviz.tf.keras_src import layer as layer_module
from tapeviz.tf.keras_src.layer import Layer

__all__ = ["Input", "InputLayer", "KerasTensor", "Node"]

_NOT_A_TENSOR = (
    "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
    "symbolic placeholder for a shape and dtype, used when constructing Keras Functional "
    "models or Keras Functions. You can only use it as input to a Keras layer or a Keras "
    "operation (from the namespaces `keras.layers` and `keras.ops`)."
)


class Node:
    """One call of a layer on KerasTensors: its inputs (args, kwargs) and its outputs."""

    def __init__(self, layer: Layer, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.layer, self.args, self.kwargs = layer, args, kwargs
        self.outputs: Any = None
        self.parents = [t for t in nest.flatten((args, kwargs)) if isinstance(t, KerasTensor)]


class KerasTensor:
    """A symbolic tensor: a shape (``None`` for the batch) and a dtype, made by ``keras.Input``."""

    def __init__(
        self,
        shape: Any,
        dtype: Any = "float32",
        name: str | None = None,
        node: Node | None = None,
    ) -> None:
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.as_dtype(getattr(dtype, "name", dtype))
        self.name = name or backend.auto_name("keras_tensor")
        self._node = node

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(_NOT_A_TENSOR)

    def __bool__(self) -> bool:
        raise TypeError("A symbolic KerasTensor cannot be used as a Python bool")

    def __repr__(self) -> str:
        return (
            f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, sparse=False, "
            f"ragged=False, name={self.name}>"
        )

    def _op(self, fn: Callable[..., Any], *others: Any) -> KerasTensor:
        return _OpLayer(fn)(self, *others)


def _binary(op: str, fn: Callable[[Any, Any], Any], reflected: bool = False) -> Any:
    def method(self: KerasTensor, other: Any) -> KerasTensor:
        if reflected:
            return _OpLayer(op, lambda a, b: fn(b, a))(self, other)
        return _OpLayer(op, fn)(self, other)

    return method


# Operators on KerasTensors are Keras operations, named as Keras names them.
for _name, (_op, _fn) in {
    "add": ("Add", lambda a, b: a + b), "sub": ("Subtract", lambda a, b: a - b),
    "mul": ("Multiply", lambda a, b: a * b), "truediv": ("TrueDivide", lambda a, b: a / b),
    "pow": ("Power", lambda a, b: a**b), "matmul": ("Matmul", lambda a, b: a @ b),
}.items():  # fmt: skip
    setattr(KerasTensor, f"__{_name}__", _binary(_op, _fn))
    setattr(KerasTensor, f"__r{_name}__", _binary(_op, _fn, reflected=True))
KerasTensor.__neg__ = lambda self: _OpLayer("Negative", lambda a: -a)(self)  # type: ignore[attr-defined]
KerasTensor.__getitem__ = lambda self, key: _OpLayer("GetItem", lambda a: a[key])(self)  # type: ignore[attr-defined]


def is_symbolic(structure: Any) -> bool:
    """Whether a KerasTensor is anywhere in ``structure``."""
    return any(isinstance(t, KerasTensor) for t in nest.flatten(structure))


class _Quiet:
    """Pause every tape and function trace: a shape-finding run records nothing."""

    def __enter__(self) -> None:
        self.saved = STATE.active[:]
        STATE.active[:] = []

    def __exit__(self, *exc: object) -> None:
        STATE.active[:] = self.saved


def _concrete(structure: Any, size: int) -> Any:
    """Zeros for the KerasTensors: an unknown batch of ``size``, other unknown sizes 32·size.

    (A 3×3 VALID conv or a pool needs room: 32 and 64 also differ after strides.)
    """

    def zeros(t: Any) -> Any:
        if not isinstance(t, KerasTensor):
            return t
        shape = tuple(
            (size if i == 0 else 32 * size) if d is None else d for i, d in enumerate(t.shape)
        )
        return Tensor(freeze(np.zeros(shape, dtype=t.dtype.np)), t.dtype)

    return nest.pack_as(structure, [zeros(t) for t in nest.flatten(structure)])


def call_symbolic(layer: Layer, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``layer(*args)`` on KerasTensors: build it, find the output shapes, record a node."""
    node = Node(layer, args, kwargs)
    flat_in = [t for t in nest.flatten(args) if isinstance(t, KerasTensor)]
    varying = any(d is None for t in flat_in for d in t.shape[1:])
    batch_free = any(t.shape and t.shape[0] is None for t in flat_in)
    with _Quiet():
        one = layer(*_concrete(args, 1), **_concrete(kwargs, 1))
        two = layer(*_concrete(args, 2), **_concrete(kwargs, 2)) if varying else None
    if not layer.built:
        layer.built = True
    if layer._build_shapes is not None:  # the build saw the dummy sizes: keep the real shapes
        layer._build_shapes = (
            nest.pack_as(
                args[0],
                [
                    TensorShape(t.shape) if isinstance(t, KerasTensor) else t
                    for t in nest.flatten(args[0])
                ],
            )
            if args
            else None
        )
    flat_one = nest.flatten(one)
    flat_two = nest.flatten(two) if two is not None else [None] * len(flat_one)
    outs = []
    for a, b in zip(flat_one, flat_two, strict=True):
        shape = list(np.shape(a._value))
        if b is not None:
            shape = [None if x != y else x for x, y in zip(shape, np.shape(b._value), strict=True)]
        if batch_free and shape:
            shape[0] = None
        outs.append(KerasTensor(shape, a.dtype, node=node))
    node.outputs = nest.pack_as(one, outs)
    layer.__dict__.setdefault("_inbound_nodes", []).append(node)
    return node.outputs


def output_shape(layer: Layer, input_shape: Any) -> Any:
    """The output shape(s) of ``layer`` for ``input_shape`` (None for unknown sizes)."""
    shapes = input_shape
    if isinstance(shapes, tuple | list) and (not shapes or not isinstance(shapes[0], list | tuple)):
        spec: Any = KerasTensor(shapes)
    else:
        spec = [KerasTensor(s) for s in shapes]
    out = call_symbolic(layer, (spec,), {})
    layer._inbound_nodes.pop()
    return nest.pack_as(out, [t.shape for t in nest.flatten(out)])


layer_module.SYMBOLIC.update(
    is_symbolic=is_symbolic, call_symbolic=call_symbolic, output_shape=output_shape
)


class _OpLayer(Layer):
    """An operator on KerasTensors (``x * 2``) as a node of the graph: not one of its layers."""

    _allow_non_tensor_positional_args = True  # (x * 2: a number beside the tensor)

    def __init__(self, op: str, fn: Callable[..., Any]) -> None:
        super().__init__(name=backend.auto_name(op))
        self.fn = fn

    def call(self, *args: Any) -> Any:
        return self.fn(*args)


class InputLayer(Layer):
    """The entry of a functional or Sequential model: its output is a ``KerasTensor``."""

    _allow_non_tensor_positional_args = True

    def __init__(
        self,
        shape: Any = None,
        batch_size: int | None = None,
        dtype: Any = None,
        sparse: Any = None,
        batch_shape: Any = None,
        input_tensor: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        if "input_shape" in kwargs and shape is None:
            shape = kwargs.pop("input_shape")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            if isinstance(shape, int):
                shape = (shape,)
            batch_shape = (batch_size, *tuple(shape))
        self._batch_shape = tuple(batch_shape)
        node = Node(self, (), {})
        node.outputs = KerasTensor(self._batch_shape, self._dtype, name=name)
        node.outputs._node = node
        self._inbound_nodes = [node]  # (its ``output``: that KerasTensor)
        self.built = True

    @property
    def batch_shape(self) -> tuple[Any, ...]:
        """The input shape including the batch dimension (``(None, 3)``)."""
        return self._batch_shape

    def call(self, inputs: Any) -> Any:
        return inputs

    def get_config(self) -> dict[str, Any]:
        """The batch shape, dtype and name."""
        return {"batch_shape": self._batch_shape, "dtype": self.dtype, "name": self.name}


def Input(
    shape: Any = None,
    batch_size: int | None = None,
    dtype: Any = None,
    sparse: Any = None,
    batch_shape: Any = None,
    name: str | None = None,
    tensor: Any = None,
    optional: bool = False,
) -> KerasTensor:
    """A symbolic input of ``shape`` (without the batch size) for a functional model."""
    layer = InputLayer(
        shape=shape, batch_size=batch_size, dtype=dtype, batch_shape=batch_shape, name=name
    )
    return layer.output


def topological(outputs: list[KerasTensor]) -> list[Node]:
    """The nodes that produce ``outputs``, each after the nodes it reads."""
    order: list[Node] = []
    done: set[int] = set()

    def visit(node: Node | None) -> None:
        if node is None or id(node) in done:
            return
        done.add(id(node))
        for parent in node.parents:
            visit(parent._node)
        order.append(node)

    for t in outputs:
        visit(t._node)
    return order


def adjust_rank(x: Any, ref_shape: Any) -> Any:
    """``x`` fitted to an input of ``ref_shape`` as Keras 3's models do (``_adjust_input_rank``).

    One rank short of an input whose last size is 1: a trailing axis is added (a 1-D column
    of numbers into ``Input(shape=(1,))``); one rank over with a last size of 1: it is dropped.
    """
    shape = getattr(x, "shape", None)
    if shape is None or ref_shape is None:
        return x
    rank, ref_rank = len(shape), len(ref_shape)
    if rank == ref_rank + 1 and shape[-1] == 1:
        return array_ops.squeeze(x, axis=-1)
    if rank == ref_rank - 1 and ref_rank and ref_shape[-1] == 1:
        return array_ops.expand_dims(x, axis=-1)
    if rank != ref_rank:
        raise ValueError(
            f"Invalid input shape for input {x}. Expected shape {tuple(ref_shape)}, but input "
            f"has incompatible shape {tuple(shape)}"
        )
    return x
