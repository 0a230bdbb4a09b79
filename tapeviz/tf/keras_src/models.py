"""``keras.Model`` (subclassed or functional) and ``keras.Sequential``.

A model is a layer that can be compiled and trained. ``keras.Model(inputs, outputs)`` makes a
functional model (named ``functional``), ``keras.Sequential([...])`` a stack of layers (named
``sequential``); a subclass defines ``call``. Their ops are recorded under the model's name
and each layer's (``("sequential", "dense_1")``).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from tapeviz.engine import nest
from tapeviz.engine.tensor import TensorShape
from tapeviz.tf.keras_src import backend, functional, saving, serialization, summary
from tapeviz.tf.keras_src.functional import InputLayer, KerasTensor
from tapeviz.tf.keras_src.layer import Layer
from tapeviz.tf.keras_src.training import Trainer

__all__ = ["Functional", "Model", "Sequential"]


def _is_functional_call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    return (len(args) >= 2 or "inputs" in kwargs) and (len(args) >= 2 or "outputs" in kwargs)


class Model(Trainer, Layer):
    """A layer that trains: ``compile``, ``fit``, ``evaluate``, ``predict`` (subclass: ``call``)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Model and _is_functional_call(args, kwargs):
            return object.__new__(Functional)
        return Layer.__new__(cls, *args, **kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._init_tracking()
        self.__dict__["_metrics"] = []
        self._init_trainer()
        if _is_functional_call(args, kwargs):
            inputs = kwargs.pop("inputs", args[0] if args else None)
            outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
            self._init_graph(inputs, outputs, **kwargs)
            return
        Layer.__init__(self, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        from tapeviz.tf.keras_src.metrics import Metric

        if isinstance(value, Metric) and not name.startswith("_"):
            self.__dict__.setdefault("_metrics", []).append(value)
        super().__setattr__(name, value)

    # -- functional graph --------------------------------------------------------------------
    def _init_graph(
        self,
        inputs: Any,
        outputs: Any,
        name: str | None = None,
        trainable: bool = True,
        **kwargs: Any,
    ) -> None:
        Layer.__init__(
            self, name=name or backend.auto_name("Functional"), trainable=trainable, **kwargs
        )
        flat_in = nest.flatten(inputs)
        flat_out = nest.flatten(outputs)
        for t in flat_in + flat_out:
            if not isinstance(t, KerasTensor):
                raise ValueError(
                    "All `inputs` and `outputs` values must be KerasTensors (from keras.Input "
                    f"and layers called on it). Received: {t!r}"
                )
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self._graph_inputs, self._graph_outputs = flat_in, flat_out
        self._nodes = functional.topological(flat_out)
        known = {id(t) for t in flat_in}
        for node in self._nodes:
            for t in node.parents:
                known.add(id(t))
        for node in self._nodes:
            if isinstance(node.layer, InputLayer) and id(node.outputs) not in {
                id(t) for t in flat_in
            }:
                raise ValueError(
                    f"Functional model: the graph reaches input {node.outputs.name!r}, which is "
                    "not one of `inputs`"
                )
        for node in self._nodes:
            if node.layer is not self:
                self._track(node.layer)
        self.built = True
        self._build_shapes = nest.pack_as(inputs, [TensorShape(t.shape) for t in flat_in])
        self._allow_non_tensor_positional_args = True  # (Keras' Functional converts its inputs)

    @property
    def inputs(self) -> list[KerasTensor]:
        """The model's input KerasTensors."""
        return list(getattr(self, "_graph_inputs", []))

    @property
    def outputs(self) -> list[KerasTensor]:
        """The model's output KerasTensors."""
        return list(getattr(self, "_graph_outputs", []))

    def _run_graph(self, inputs: Any, training: Any = None) -> Any:
        values: dict[int, Any] = {}
        given = nest.flatten(inputs) if isinstance(inputs, list | tuple | dict) else [inputs]
        if len(given) != len(self._graph_inputs):
            raise ValueError(
                f'Layer "{self.name}" expects {len(self._graph_inputs)} input(s), but it received '
                f"{len(given)} input tensors."
            )
        for t, v in zip(self._graph_inputs, given, strict=True):
            values[id(t)] = functional.adjust_rank(self._convert(v), t.shape)
        for node in self._nodes:
            if isinstance(node.layer, InputLayer):
                continue

            def real(x: Any) -> Any:
                return values[id(x)] if isinstance(x, KerasTensor) else x

            args = nest.pack_as(node.args, [real(a) for a in nest.flatten(node.args)])
            kwargs = {k: real(v) for k, v in node.kwargs.items()}
            out = node.layer(*args, **kwargs)
            for sym, val in zip(nest.flatten(node.outputs), nest.flatten(out), strict=True):
                values[id(sym)] = val
        return nest.pack_as(self._outputs_struct, [values[id(t)] for t in self._graph_outputs])

    def call(self, *args: Any, **kwargs: Any) -> Any:
        """A functional model runs its layer graph; a subclass must define ``call``."""
        if hasattr(self, "_nodes"):
            return self._run_graph(args[0], kwargs.get("training"))
        raise NotImplementedError(
            f"Model {type(self).__name__} does not have a `call()` method implemented."
        )

    # -- layers, building, summary -----------------------------------------------------------
    @property
    def layers(self) -> list[Layer]:
        """The model's layers (direct sub-layers, in the order they were assigned)."""
        return list(self._layers)

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """A layer by name or by index."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(
                    f"Was asked to retrieve layer at index {index} but model only "
                    f"has {len(self.layers)} layers."
                )
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(
            f"No such layer: {name}. Existing layers are: {[layer.name for layer in self.layers]}."
        )

    def build(self, input_shape: Any = None) -> None:
        """Create the weights by running the model once on zeros of ``input_shape``."""
        if self.built or self._in_scope:  # a first call: its layers build as they run
            self.built = True
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        spec = (
            KerasTensor(input_shape)
            if not isinstance(input_shape[0], list | tuple)
            else [KerasTensor(s) for s in input_shape]
        )
        with functional._Quiet():
            self(functional._concrete(spec, 1))
        self._build_shapes = input_shape
        self.built = True

    def summary(
        self,
        line_length: int | None = None,
        positions: Any = None,
        print_fn: Any = None,
        expand_nested: bool = False,
        show_trainable: bool = False,
        layer_range: Any = None,
    ) -> None:
        """Print the table of layers, output shapes and parameter counts (Keras 3's layout)."""
        summary.print_summary(self, line_length, positions, print_fn, show_trainable)

    def save(self, filepath: Any, overwrite: bool = True, zipped: Any = None, **kw: Any) -> None:
        """Save the model in the run's own folder (a ``.keras`` or ``.h5`` path, Keras 3)."""
        saving.save_model(self, filepath, overwrite, zipped, **kw)

    def save_weights(self, filepath: Any, overwrite: bool = True, **kw: Any) -> None:
        """Save the weights in the run's own folder (a ``.weights.h5`` path, Keras 3)."""
        saving.save_weights(self, filepath, overwrite, **kw)

    def load_weights(self, filepath: Any, skip_mismatch: bool = False, **kw: Any) -> None:
        """Load weights saved by ``save_weights`` or ``save`` (Keras 3's formats)."""
        saving.load_weights(self, filepath, skip_mismatch, **kw)

    def export(self, filepath: Any, format: str = "tf_saved_model", verbose: bool = True) -> None:
        """Export for inference: a SavedModel (run's own folder) with a ``serve`` endpoint."""
        saving.export_model(self, filepath, format, verbose)

    def get_config(self) -> dict[str, Any]:
        """A Sequential's layers or a functional model's graph; a subclass's own arguments."""
        if type(self) in (Sequential, Functional) or (type(self) is Model and self._graph):
            ctx = serialization.Context(keep_live=False)
            return serialization.LAYERS["config"](self, ctx)["config"]  # type: ignore[no-any-return]
        return super().get_config()

    @property
    def _graph(self) -> bool:
        return "_nodes" in self.__dict__

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: Any = None) -> Any:
        """The model ``get_config()`` describes (custom layer classes from ``custom_objects``)."""
        graph = isinstance(config, dict) and ("nodes" in config or "layers" in config)
        if cls in (Model, Functional, Sequential) and graph:
            kind = Sequential if cls is Sequential or "nodes" not in config else Functional
            loader = serialization._loader(custom_objects, True)
            with serialization.loading(loader):
                return serialization.LAYERS["make"](kind, {"config": config}, loader)
        return cls(**config)

    def to_json(self, **kwargs: Any) -> str:
        """The model's architecture as JSON (Keras 3's ``serialize_keras_object``, no weights)."""
        return json.dumps(serialization.serialize(self), **kwargs)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


class Functional(Model):
    """A model made from ``keras.Input`` and the layers called on it."""

    @property
    def layers(self) -> list[Layer]:
        """Every layer of the graph in order, input layers first."""
        out: list[Layer] = []
        for node in self._nodes:
            if isinstance(node.layer, functional._OpLayer):  # an operation, as in Keras 3
                continue
            if not any(node.layer is layer for layer in out):
                out.append(node.layer)
        return out


class Sequential(Model):
    """A plain stack of layers, each called on the previous one's output."""

    def __init__(self, layers: Any = None, trainable: bool = True, name: str | None = None):
        super().__init__(trainable=trainable, name=name)
        self._stack: list[Layer] = []
        self._input_layer: InputLayer | None = None
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_build_from_input()

    def add(self, layer: Any, rebuild: bool = True) -> None:
        """Append a layer (an ``Input``/``InputLayer`` first fixes the input shape)."""
        if isinstance(layer, KerasTensor) and isinstance(layer._node.layer, InputLayer):
            layer = layer._node.layer
        if not isinstance(layer, Layer):
            raise ValueError(
                "Only instances of `keras.Layer` can be added to a Sequential model. "
                f"Received: {layer} (of type {type(layer)})"
            )
        if isinstance(layer, InputLayer):
            if self._stack or self._input_layer is not None:
                raise ValueError("An InputLayer can only be the first layer of a Sequential")
            self._input_layer = layer
            return
        if not self._stack and self._input_layer is None and layer._input_shape_arg is not None:
            self._input_layer = InputLayer(
                shape=layer._input_shape_arg, batch_size=layer._batch_size_arg
            )
        self._stack.append(layer)
        self._track(layer)
        if rebuild:
            self._maybe_build_from_input()

    def pop(self, rebuild: bool = True) -> Layer:
        """Remove and return the last layer."""
        layer = self._stack.pop()
        self._layers = [x for x in self._layers if x is not layer]
        return layer

    @property
    def layers(self) -> list[Layer]:
        """The stacked layers (without the input layer)."""
        return list(self._stack)

    @property
    def inputs(self) -> list[KerasTensor]:
        """The input KerasTensor of the stack, once it knows its input shape."""
        return [self._input_layer.output] if self._input_layer is not None and self.built else []

    @property
    def outputs(self) -> list[KerasTensor]:
        """The last layer's output KerasTensor, once the stack is built."""
        if not self.inputs or not self._stack:
            return []
        return nest.flatten(self._stack[-1].output)

    def _maybe_build_from_input(self) -> None:
        if self._input_layer is not None and self._stack:
            self._build_graph(self._input_layer.output)

    def _build_graph(self, x: KerasTensor) -> None:
        with self._scope():  # the model's name scope, unless its call opened it already
            for layer in self._stack:
                x = layer(x)
        self.built = True
        self._build_shapes = (
            TensorShape(self._input_layer.output.shape) if (self._input_layer) else None
        )

    def build(self, input_shape: Any = None) -> None:
        """Build every layer for ``input_shape`` (with the batch size, ``None`` allowed)."""
        if input_shape is None and self._input_layer is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if input_shape is not None:
            self._input_layer = InputLayer(batch_shape=tuple(input_shape))
        self._maybe_build_from_input()
        self.built = True

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        """Each layer on the previous output."""
        if not self.built and self._stack:
            shape = (None, *np.shape(getattr(inputs, "_value", inputs))[1:])
            self._input_layer = InputLayer(batch_shape=shape)
            with functional._Quiet():
                self._build_graph(self._input_layer.output)
        x = inputs
        if self._input_layer is not None and not isinstance(x, list | tuple | dict):
            x = functional.adjust_rank(self._convert(x), self._input_layer.output.shape)
        for layer in self._stack:  # each layer sees the training flag through its call context
            x = layer(x)
        return x
