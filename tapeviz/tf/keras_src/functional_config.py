"""Models as configs: a ``Sequential``'s layers, a functional model's graph, build configs.

A ``Sequential`` is saved as its layers (its ``InputLayer`` first, when it has one); a
functional model as its layers, the calls between them (each call's arguments, with the
symbolic tensors it took named by the call that made them) and its inputs and outputs, and is
made again by calling the layers on new ``keras.Input``s in the same order. Every layer also
saves the input shape it was built for, and is built for it again when loaded (Keras 3's
``get_build_config`` / ``build_from_config``: a layer's own ``build``, or a run of the layer on
zeros). :func:`make_layer` makes a layer from its config the way Keras 3 does, with its errors.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import diagnostics, nest
from tapeviz.engine.tensor import TensorShape
from tapeviz.tf.keras_src import dtype_policy as policies
from tapeviz.tf.keras_src import functional, serialization
from tapeviz.tf.keras_src.functional import InputLayer, KerasTensor
from tapeviz.tf.keras_src.layer import Layer
from tapeviz.tf.keras_src.layer_utils import build_takes_shape
from tapeviz.tf.keras_src.models import Functional, Model, Sequential

__all__ = ["build_config", "build_from_config", "config_of", "layer_config", "make_layer"]

_REF = "__keras_tensor__"


def _policy(layer: Layer) -> Any:
    policy = getattr(layer, "_dtype_policy", None)
    return policies.serialize(policy) if policy is not None else layer.dtype


def config_of(layer: Layer, ctx: serialization.Context) -> dict[str, Any] | None:
    """The config of a ``Sequential`` or functional model (None for other layers)."""
    cls = type(layer)
    if cls is Sequential:
        stack = ([layer._input_layer] if layer._input_layer is not None else []) + layer.layers
        return {"name": layer.name, "trainable": layer.trainable, "dtype": _policy(layer),
                "layers": [layer_config(x, ctx) for x in stack]}  # fmt: skip
    if cls in (Functional, Model) and hasattr(layer, "_nodes"):
        return _functional(layer, ctx)
    return None


def _functional(model: Any, ctx: serialization.Context) -> dict[str, Any]:
    layers: list[Layer] = []
    positions = {id(node): i for i, node in enumerate(model._nodes)}

    def ref(value: Any) -> Any:
        if isinstance(value, KerasTensor):
            node = value._node
            flat = nest.flatten(node.outputs)
            return {_REF: [positions[id(node)], next(i for i, t in enumerate(flat) if t is value)]}
        if isinstance(value, list | tuple):
            return [ref(v) for v in value]
        if isinstance(value, dict):
            return {str(k): ref(v) for k, v in value.items()}
        return serialization.serialize(value, ctx)

    nodes = []
    for node in model._nodes:
        if not any(x is node.layer for x in layers):
            layers.append(node.layer)
        index = next(i for i, x in enumerate(layers) if x is node.layer)
        nodes.append({"layer": index, "args": ref(list(node.args)), "kwargs": ref(node.kwargs)})
    return {
        "name": model.name, "trainable": model.trainable,
        "layers": [layer_config(x, ctx) for x in layers], "nodes": nodes,
        "inputs": ref(model._inputs_struct), "outputs": ref(model._outputs_struct),
    }  # fmt: skip


def _make_functional(config: dict[str, Any], loader: serialization.Loader) -> Any:
    layers = [serialization._deserialize(c, loader) for c in config["layers"]]
    made: dict[tuple[int, int], KerasTensor] = {}

    def resolve(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {_REF}:
            pos, i = value[_REF]
            return made[(pos, i)]
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, dict) and not ("class_name" in value and "config" in value):
            return {k: resolve(v) for k, v in value.items()}
        return serialization._deserialize(value, loader)

    for pos, node in enumerate(config["nodes"]):
        layer = layers[node["layer"]]
        if isinstance(layer, InputLayer):
            outs: Any = layer.output
        else:
            outs = layer(*resolve(node["args"]), **resolve(node["kwargs"]))
        for i, t in enumerate(nest.flatten(outs)):
            made[(pos, i)] = t
    model = Model(inputs=resolve(config["inputs"]), outputs=resolve(config["outputs"]),
                  name=config.get("name"))  # fmt: skip
    model.trainable = bool(config.get("trainable", True))
    return model


def _shapes(value: Any) -> Any:
    if isinstance(value, TensorShape):
        return value.as_list()
    if isinstance(value, list | tuple):
        if all(v is None or isinstance(v, int) for v in value):
            return [None if v is None else int(v) for v in value]
        return [_shapes(v) for v in value]
    return value


def _owner(cls: type, method: str) -> type:
    return next(k for k in cls.__mro__ if method in k.__dict__)


def _script_defines(layer: Layer, method: str) -> bool:
    owner = next((k for k in type(layer).__mro__ if method in k.__dict__), None)
    return owner is not None and not str(owner.__module__).startswith("tapeviz.")


def build_config(layer: Layer) -> dict[str, Any] | None:
    """Keras 3's ``get_build_config``: the input shape the layer was built for."""
    if _script_defines(layer, "get_build_config"):
        return layer.get_build_config()  # type: ignore[attr-defined]
    if hasattr(layer, "_nodes") or isinstance(layer, InputLayer):
        return None
    if isinstance(layer, Sequential):
        entry = layer._input_layer
        return None if entry is None else {"input_shape": _shapes(entry.batch_shape)}
    shapes = layer.__dict__.get("_build_shapes")
    if not layer.built or shapes is None:
        return None
    return {"input_shape": _shapes(shapes)}


def _as_shape(value: Any) -> Any:
    if isinstance(value, list) and all(v is None or isinstance(v, int) for v in value):
        return TensorShape(tuple(value))
    if isinstance(value, list):
        return [_as_shape(v) for v in value]
    return value


def build_from_config(layer: Layer, config: dict[str, Any] | None) -> None:
    """Keras 3's ``build_from_config``: build the layer for the saved input shape."""
    if not config:
        return
    if _script_defines(layer, "build_from_config"):
        layer.build_from_config(config)  # type: ignore[attr-defined]
        return
    shape = config.get("input_shape")
    if layer.built or shape is None:
        return
    try:
        if _owner(type(layer), "build") not in (Layer, Model) or not isinstance(layer, Model):
            if isinstance(layer, Sequential):
                layer.build(shape)
            elif build_takes_shape(type(layer).build):
                layer.build(_as_shape(shape))
            else:
                layer.build()
            layer.built = True
            layer._build_shapes = _as_shape(shape)
        else:  # a model that builds by running (Keras' _build_by_run_for_single_pos_arg)
            spec = (
                KerasTensor(shape)
                if not isinstance(shape[0], list)
                else [KerasTensor(s) for s in shape]
            )
            with functional._Quiet():
                layer(functional._concrete(spec, 1))
            layer._build_shapes = _as_shape(shape)
    except Exception:
        what = "Model" if isinstance(layer, Model) else "Layer"
        diagnostics.warn(
            f"{what} '{layer.name}' had a build config, but the {what.lower()} cannot be built "
            "automatically in `build_from_config(config)`. You should implement `def "
            "build_from_config(self, config)`, and you might also want to implement the "
            "method that generates the config at saving time, `def get_build_config(self)`. "
            "The method `build_from_config()` is meant to create the state of the "
            f"{what.lower()} (i.e. its variables) upon deserialization."
        )


def _revive(cls: type, config: dict[str, Any]) -> Layer:
    default = str(_owner(cls, "from_config").__module__).startswith("tapeviz.")
    try:
        return cls.from_config(config)  # type: ignore[attr-defined,no-any-return]
    except TypeError as e:
        if not default:
            raise
        if issubclass(cls, Model):
            raise TypeError(
                "Unable to revive model from config. When overriding the `get_config()` "
                "method, make sure that the returned config contains all items used as "
                f"arguments in the  constructor to {cls}, which is the default behavior. You "
                "can override this default behavior by defining a `from_config(cls, config)` "
                f"class method to specify how to create an instance of {cls.__name__} from "
                f"its config.\n\nReceived config={config}\n\nError encountered during "
                f"deserialization: {e}"
            ) from None
        raise TypeError(
            f"Error when deserializing class '{cls.__name__}' using config={config}.\n\n"
            f"Exception encountered: {e}"
        ) from None


def make_layer(cls: type, config: dict[str, Any], loader: serialization.Loader) -> Layer:
    """A layer from its serialized config: made (Keras' ``from_config``), then built."""
    inner = config["config"]
    if cls is Sequential:
        layers = [serialization._deserialize(c, loader) for c in inner["layers"]]
        layer: Layer = Sequential(layers, trainable=inner.get("trainable", True),
                                  name=inner.get("name"))  # fmt: skip
    elif cls in (Functional, Model) and isinstance(inner, dict) and "nodes" in inner:
        layer = _make_functional(inner, loader)
    else:
        kwargs = (
            serialization._deserialize(inner, loader) if serialization.own_class(cls) else inner
        )
        try:
            layer = _revive(cls, kwargs)
        except TypeError as e:
            raise TypeError(
                f"{cls} could not be deserialized properly. Please ensure that components that "
                "are Python object instances (layers, models, etc.) returned by `get_config()` "
                "are explicitly deserialized in the model's `from_config()` method."
                f"\n\nconfig={config}.\n\nException encountered: {e}"
            ) from None
    build_from_config(layer, config.get("build_config"))
    return layer


def layer_config(layer: Layer, ctx: serialization.Context) -> dict[str, Any]:
    """A layer (or model) as Keras 3 serializes it, with its build config."""
    special = config_of(layer, ctx)
    config = (
        special
        if special is not None
        else serialization.serialize(serialization.plain_config(layer), ctx)
    )
    out = ctx.with_config(type(layer), config)
    build = build_config(layer)
    if build is not None:
        out["build_config"] = serialization.serialize(build, ctx)
    return out


serialization.LAYERS.update(config=layer_config, make=make_layer)
