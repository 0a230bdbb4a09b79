"""``keras.layers.Layer``: weights, lazy ``build``, ``call`` in the layer's name scope.

As in Keras 3: a layer gets a unique name (``dense``, ``dense_1``), builds its weights on its
first call from the input shape, records its ops under its name (``("sequential", "dense")``,
so the graph can fold a layer into one node), and tracks the layers and Keras variables
(``add_weight``, ``keras.Variable``; not ``tf.Variable``) assigned to its attributes, in
assignment order, for ``weights`` and ``trainable_variables``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import dtypes, nest
from tapeviz.engine.array_ops import cast
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.keras_variable import KerasVariable
from tapeviz.engine.state import NameScope
from tapeviz.engine.tensor import Tensor, TensorLike, TensorShape, Variable, convert_to_tensor
from tapeviz.tf import trackable
from tapeviz.tf.keras_src import auto_config, backend, initializers
from tapeviz.tf.keras_src import dtype_policy as policies
from tapeviz.tf.keras_src.layer_nodes import NodeAttributes
from tapeviz.tf.keras_src.layer_utils import (
    InputSpec,
    Nothing,
    build_takes_shape,
    check_positional,
    fully_defined,
    takes,
    walk,
)
from tapeviz.tf.module import Module

__all__ = ["InputSpec", "Layer"]


# The functional API (keras_src.functional, which subclasses Layer) registers here how a layer
# meets a symbolic KerasTensor: is_symbolic, call_symbolic, output_shape. Symbolic tensors only
# exist once it is imported, so a layer without these hooks only ever sees real tensors.
SYMBOLIC: dict[str, Any] = {}
# tapeviz's own bookkeeping attributes (never a script's sub-layer or weight to track)
_INTERNAL = frozenset(
    "_layers _stack _input_layer _inbound_nodes _trainable_variables _non_trainable_variables "
    "_graph_inputs _graph_outputs _inputs_struct _outputs_struct _nodes _losses".split()
)


class Layer(NodeAttributes, Module):
    """Base class of every layer: subclass it with ``build`` (weights) and ``call`` (maths)."""

    # Keras 3: only tensors (and None) as a call's positional arguments, but in raw-data layers
    _allow_non_tensor_positional_args = False

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        obj = super().__new__(cls)
        auto_config.record(obj, cls, args, kwargs)  # Keras 3's auto config (saving)
        return obj

    def __init__(
        self,
        *,
        activity_regularizer: Any = None,
        trainable: bool = True,
        dtype: Any = None,
        autocast: bool = True,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        self._init_tracking()
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        batch_size = kwargs.pop("batch_size", None)
        kwargs.pop("input_dtype", None)
        if kwargs:
            raise ValueError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}"
            )
        if name is None:
            name = backend.auto_name(type(self).__name__)
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character `/`. "
                f"Received: name={name}"
            )
        self._set_module_name(name)
        self._trainable = bool(trainable)
        self._dtype_policy = policies.get(dtype)
        self._dtype = dtypes.as_dtype(self._dtype_policy.variable_dtype)
        self.autocast = autocast
        self.built = False
        self.supports_masking = False
        self.input_spec: InputSpec | list[InputSpec] | None = None
        self._build_shapes: Any = None
        self._in_scope = 0
        self.activity_regularizer = activity_regularizer
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)
        self._batch_size_arg = batch_size
        if input_shape is not None:
            from tapeviz.engine import diagnostics

            diagnostics.warn(
                "Do not pass an `input_shape`/`input_dim` argument to a layer. When using "
                "Sequential models, prefer using an `Input(shape)` object as the first layer "
                "in the model instead.",
                stacklevel=3,
            )

    # -- tracking ----------------------------------------------------------------------------
    def _init_tracking(self) -> None:
        d = self.__dict__
        if "_layers" not in d:
            d["_layers"] = []
            d["_trainable_variables"] = []
            d["_non_trainable_variables"] = []
            d["_losses"] = []
            d["_regularized"] = []

    def __setattr__(self, name: str, value: Any) -> None:
        if "_layers" not in self.__dict__:
            self._init_tracking()
        if not name.startswith("_") or name not in _INTERNAL:  # Keras 3: private ones too
            for leaf in walk(value):
                self._track(leaf)
        object.__setattr__(self, name, value)

    def _track(self, leaf: Any) -> None:
        # Keras 3 tracks its own variables only (add_weight, keras.Variable): a tf.Variable
        # attribute of a layer is not among its weights, unlike a tf.Module's.
        if isinstance(leaf, Layer) and leaf is not self:
            if not any(layer is leaf for layer in self._layers):
                self._layers.append(leaf)
        elif isinstance(leaf, KerasVariable):
            bucket = self._trainable_variables if leaf.trainable else self._non_trainable_variables
            if not any(
                v is leaf for v in self._trainable_variables + self._non_trainable_variables
            ):
                bucket.append(leaf)

    # -- weights -----------------------------------------------------------------------------
    def add_weight(
        self,
        shape: Any = None,
        initializer: Any = None,
        dtype: Any = None,
        trainable: bool = True,
        autocast: bool = True,
        regularizer: Any = None,
        constraint: Any = None,
        aggregation: str = "none",
        name: str | None = None,
        **_: Any,
    ) -> KerasVariable:
        """Create a weight of ``shape`` in this layer (``initializer`` by name or object)."""
        if constraint is not None:
            raise InvalidArgumentError(
                "weight constraints are not available in tapeviz", "add_weight"
            )
        dt = dtypes.as_dtype(getattr(dtype, "name", dtype) or self._dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dt.is_floating else "zeros"
        init = initializers.get(initializer)
        var_name = name or backend.auto_name("Variable")
        dims = fully_defined(shape, f"{self.name}/{var_name}")
        with self._scope():
            var = KerasVariable(init, dims, dt, trainable=trainable, name=var_name)
        self._track(var)
        if regularizer is not None:
            from tapeviz.tf.keras_src import regularizers

            self._regularized.append((var, regularizers.get(regularizer)))
        return var

    add_variable = add_weight

    def _scope(self) -> Any:
        """The layer's name scope, unless its call already opened it."""
        return Nothing() if self._in_scope else NameScope(self.name)

    @property
    def weights(self) -> list[Variable]:
        """The layer's own weights, then its sub-layers', each once."""
        out: list[Variable] = []
        seen: set[int] = set()
        for w in self._own_weights():
            if id(w) not in seen:
                seen.add(id(w))
                out.append(w)
        for layer in self._layers:
            for w in layer.weights:
                if id(w) not in seen:
                    seen.add(id(w))
                    out.append(w)
        return out

    def _own_weights(self) -> list[Variable]:
        return self._trainable_variables + self._non_trainable_variables

    @property
    def trainable_weights(self) -> list[Variable]:
        """The trainable weights (none when the layer is frozen)."""
        return [w for w in self.weights if w.trainable] if self.trainable else []

    @property
    def non_trainable_weights(self) -> list[Variable]:
        """The weights an optimizer does not change."""
        return self.weights if not self.trainable else [w for w in self.weights if not w.trainable]

    @property
    def variables(self) -> list[Variable]:  # type: ignore[override]
        """Every weight (Keras 3: the same as ``weights``)."""
        return self.weights

    @property
    def trainable_variables(self) -> list[Variable]:  # type: ignore[override]
        """The same as ``trainable_weights``."""
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> list[Variable]:  # type: ignore[override]
        """The same as ``non_trainable_weights``."""
        return self.non_trainable_weights

    @property
    def trainable(self) -> bool:
        """Whether an optimizer should update this layer's weights (setting it freezes them)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)
        for v in self._trainable_variables:
            v.trainable = bool(value)
        for layer in self._layers:
            layer.trainable = value

    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights and computations (``"float32"``)."""
        return self._dtype.name

    @property
    def dtype_policy(self) -> policies.DTypePolicy:
        """The layer's ``DTypePolicy`` (``<DTypePolicy "float32">``)."""
        return self._dtype_policy

    @property
    def submodules(self) -> Any:
        """Not a Keras 3 attribute (``tf.Module`` has it): Python's AttributeError."""
        raise AttributeError(f"'{type(self).__name__}' object has no attribute 'submodules'")

    compute_dtype = dtype
    variable_dtype = dtype

    @property
    def losses(self) -> list[Tensor]:
        """Losses added with ``add_loss`` and weight regularization terms."""
        out = list(self._losses)
        for var, reg in self._regularized:
            out.append(reg(var))
        for layer in self._layers:
            out += layer.losses
        return out

    def _clear_losses(self) -> None:
        self._losses.clear()
        for layer in self._layers:
            layer._clear_losses()

    def add_loss(self, loss: Any) -> None:
        """Add a loss term (fit() adds it to the training loss)."""
        self._losses.append(loss if isinstance(loss, TensorLike) else convert_to_tensor(loss))

    def get_weights(self) -> list[np.ndarray]:
        """The weights as numpy arrays."""
        return [np.array(w.numpy()) for w in self.weights]

    def set_weights(self, weights: Any) -> None:
        """Assign numpy arrays to the weights (same count and shapes)."""
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(
                f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of "
                f"length {len(weights)}, but the layer was expecting {len(mine)} weights."
            )
        for w, value in zip(mine, weights, strict=True):
            arr = np.asarray(getattr(value, "_value", value))
            if tuple(arr.shape) != tuple(w.shape):
                raise ValueError(
                    f"Layer {self.name} weight shape {tuple(w.shape)} is not compatible with "
                    f"provided weight shape {tuple(arr.shape)}."
                )
            w.assign(arr.astype(w.dtype.np))

    def count_params(self) -> int:
        """The number of weight values."""
        if not self.built:
            raise ValueError(
                f"You tried to call `count_params` on layer '{self.name}', but the layer isn't "
                "built. You can build it manually via: `layer.build(input_shape)`."
            )
        return int(sum(int(np.prod(w.shape, dtype=np.int64)) for w in self.weights))

    def _flatten_layers(self, include_self: bool = True, recursive: bool = True) -> list[Layer]:
        out: list[Layer] = [self] if include_self else []
        for layer in self._layers:
            out.append(layer)
            if recursive:
                out += layer._flatten_layers(include_self=False)
        return out

    # -- building and calling ----------------------------------------------------------------
    def build(self, input_shape: Any = None) -> None:
        """Create the weights (subclasses override; the default makes none)."""
        self.built = True

    def call(self, *args: Any, **kwargs: Any) -> Any:
        """The layer's maths (subclasses override)."""
        raise NotImplementedError(
            f"Layer {type(self).__name__} does not have a `call()` method implemented."
        )

    def compute_output_shape(self, input_shape: Any) -> Any:
        """The output shape for an input shape (by running the layer on zeros)."""
        return SYMBOLIC["output_shape"](self, input_shape)

    def _convert(self, x: Any) -> Any:
        """Keras' input conversion: arrays become tensors, floats the layer's dtype."""
        if isinstance(x, TensorLike):
            if self.autocast and x.dtype.is_floating and x.dtype is not self._dtype:
                return cast(x, self._dtype)
            return x
        if isinstance(x, np.ndarray | np.generic):
            t = convert_to_tensor(x)
            if self.autocast and t.dtype.is_floating and t.dtype is not self._dtype:
                return cast(t, self._dtype)
            return t
        return x

    def _maybe_build(self, inputs: Any) -> None:
        if self.built:
            return
        shapes = nest.pack_as(
            inputs, [TensorShape(np.shape(getattr(t, "_value", t))) for t in nest.flatten(inputs)]
        )
        self._build_shapes = shapes
        if build_takes_shape(type(self).build):
            self.build(shapes)
        else:
            self.build()
        self.built = True
        trackable.after_build(self)  # checkpoint values that waited for these weights

    def _check_inputs(self, inputs: Any) -> None:
        spec = self.input_spec
        if spec is None:
            return
        specs = spec if isinstance(spec, list) else [spec]
        for i, (s, x) in enumerate(zip(specs, nest.flatten(inputs), strict=False)):
            if isinstance(x, TensorLike) or hasattr(x, "shape"):
                s.check(self, x, i)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:
            raise ValueError(f"Layer {self.name} was called without inputs")
        if not self._allow_non_tensor_positional_args:
            check_positional(args, SYMBOLIC.get("is_symbolic"))
        if SYMBOLIC and SYMBOLIC["is_symbolic"]((args, kwargs)):
            return SYMBOLIC["call_symbolic"](self, args, kwargs)
        # Keras converts every array argument (keyword ones too) to a tensor of the layer's dtype
        args = tuple(nest.pack_as(a, [self._convert(x) for x in nest.flatten(a)]) for a in args)
        kwargs = {k: v if k == "training" else nest.pack_as(v, [self._convert(x)
                                                                for x in nest.flatten(v)])
                  for k, v in kwargs.items()}  # fmt: skip
        training = kwargs.get("training")
        if takes(type(self).call, "training"):
            if "training" not in kwargs:
                kwargs["training"] = backend.current_training()
        else:  # Keras keeps the flag for the sub-layers, not for a call() without it
            kwargs.pop("training", None)
        if not backend.STATE.training:  # the outermost call: the losses of a new forward pass
            self._clear_losses()
        with NameScope(self.name):
            self._in_scope += 1
            try:
                if not self.built:
                    self._maybe_build(args[0] if args else next(iter(kwargs.values())))
                if args:
                    self._check_inputs(args[0])
                with backend.training_flag(training):
                    outputs = self.call(*args, **kwargs)
            finally:
                self._in_scope -= 1
        if self.activity_regularizer is not None:
            from tapeviz.tf.keras_src import regularizers

            reg = regularizers.get(self.activity_regularizer)
            for out in nest.flatten(outputs):
                self._losses.append(reg(out))
        return outputs

    # -- config ------------------------------------------------------------------------------
    def get_config(self) -> dict[str, Any]:
        """Name, trainable and dtype (subclasses add their arguments)."""
        return {"name": self.name, "trainable": self.trainable,  # Keras 3: dtype as a policy
                "dtype": policies.serialize(self._dtype_policy)}  # fmt: skip

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Layer:
        """A new layer from ``get_config()``'s output."""
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"
