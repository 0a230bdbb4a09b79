"""Keras objects as configs and back: ``keras.saving.serialize_keras_object`` and friends.

An object becomes Keras 3's dict ``{"module", "class_name", "config", "registered_name"}``
(layers add ``build_config``). Which config a layer gets follows Keras 3:

- a class that writes ``get_config`` is saved with it, and made again by ``from_config``
  (by default ``cls(**config)``);
- a script's class that does not is saved with the arguments it was constructed with
  (:mod:`.auto_config`), if they are plain values, else saving raises Keras'
  ``NotImplementedError``; its config also has ``trainable`` and ``dtype``, so an ``__init__``
  that takes no ``**kwargs`` cannot be made again from it (Keras 3's ``TypeError``);
- tapeviz's own layers are saved with the arguments they were made with, whatever they are
  (initializers, regularizers, functions), so they come back exactly as they were.

Classes are found again by their registered name (``register_keras_serializable``), in
``custom_objects``, among Keras' own, or, for a class defined in the script, by the class
itself: the file keeps it (the run's own folder lives in memory, see
:mod:`tapeviz.tf.run_files`), as Keras finds a notebook's classes in ``__main__``. Values
that are not data (a script's functions, a layer's own helper function) are kept the same
way; a script's ``lambda`` needs ``safe_mode=False`` to be loaded, as in Keras.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.tensor import TensorLike, TensorShape, constant
from tapeviz.tf.keras_src import activations, auto_config
from tapeviz.tf.keras_src import dtype_policy as policies
from tapeviz.tf.keras_src.layer import Layer
from tapeviz.tf.keras_src.object_registration import (
    _REGISTRY,
    get_registered_object,
    registered_name,
)

__all__ = ["LAYERS", "Context", "Loader", "deserialize", "loading", "serialize"]

_PLAIN = (str, bool, int, float)
# How a layer becomes a config and is made again (``config``, ``make``): set by
# keras_src.functional_config, which knows the models (a Sequential's, a graph's config).
LAYERS: dict[str, Callable[..., Any]] = {}
_BASE_KEYS = ("name", "trainable", "dtype")
_BUILD_ARGS = ("input_shape", "input_dim", "batch_size", "input_dtype")


# -- Keras' own classes ------------------------------------------------------------------------
_BUILTINS: dict[str, Any] = {}


def _builtins() -> dict[str, Any]:
    """``{"by_class": {cls: (module, name)}, "by_name": {(module, name): cls, name: cls}}``."""
    if not _BUILTINS:
        from tapeviz.engine.namespace import Namespace
        from tapeviz.tf.keras_src import KERAS

        by_class: dict[Any, tuple[str, str]] = {}
        by_name: dict[Any, Any] = {}

        def walk(ns: Any, module: str) -> None:
            for n in ns:
                value = getattr(ns, n)
                if type(value) is Namespace and n not in ("datasets", "applications"):
                    walk(value, f"{module}.{n}")
                elif isinstance(value, type):
                    by_class.setdefault(value, (module, value.__name__))
                    by_name.setdefault((module, value.__name__), value)
                    by_name.setdefault(value.__name__, value)

        walk(KERAS, "keras")
        _BUILTINS.update(by_class=by_class, by_name=by_name)
    return _BUILTINS


def _own(cls: type) -> bool:
    """Whether ``cls`` is one of tapeviz's classes (not a script's)."""
    return str(cls.__module__).startswith("tapeviz.")


# -- serializing -------------------------------------------------------------------------------
class Context:
    """What a serialization keeps by reference: the objects (and classes) that are not data."""

    def __init__(self, keep_live: bool = True) -> None:
        self.keep_live = keep_live
        self.live: list[Any] = []

    def keep(self, obj: Any, what: str = "__live__") -> dict[str, Any]:
        """A reference to ``obj``, kept in the file (refused when nothing may be kept)."""
        if not self.keep_live:
            raise TypeError(
                f"Cannot serialize object {obj!r:.60} of type {type(obj).__name__}. To be "
                "serializable, a class must implement the `get_config()` method."
            )
        for i, known in enumerate(self.live):
            if known is obj:
                return {"class_name": what, "config": {"index": i}}
        self.live.append(obj)
        return {"class_name": what, "config": {"index": len(self.live) - 1}}

    def with_config(self, cls: type, config: Any) -> dict[str, Any]:
        """``class_ref`` with the config, in Keras 3's key order (config before registered_name)."""
        ref = self.class_ref(cls)
        head = {"module": ref.pop("module"), "class_name": ref.pop("class_name"), "config": config}
        return {**head, **ref}

    def class_ref(self, cls: type) -> dict[str, Any]:
        """Where the class is found again: Keras' module and name, and the class if needed."""
        builtin = _builtins()["by_class"].get(cls)
        registered = registered_name(cls)
        out: dict[str, Any] = {
            "module": builtin[0] if builtin else str(cls.__module__),
            "class_name": cls.__name__,
            "registered_name": registered or (None if builtin else cls.__name__),
        }
        if builtin is None and self.keep_live:
            out["live_class"] = self.keep(cls, "__class__")["config"]["index"]
        return out


def _is_script_lambda(obj: Any) -> bool:
    return bool(getattr(obj, "_tapeviz_user", False)) and getattr(obj, "__name__", "") == "<lambda>"


def serialize(obj: Any, ctx: Context | None = None) -> Any:
    """Keras 3's ``serialize_keras_object``: data as it is, objects as config dicts."""
    ctx = ctx or Context(keep_live=False)
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, list | tuple):
        return [serialize(x, ctx) for x in obj]
    if isinstance(obj, dict):
        return {str(k): serialize(v, ctx) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return {
            "class_name": "__numpy__",
            "config": {"value": obj.tolist(), "dtype": obj.dtype.name},
        }
    if isinstance(obj, TensorLike):
        value = np.asarray(obj._value)
        return {
            "class_name": "__tensor__",
            "config": {"value": value.tolist(), "dtype": obj.dtype.name},
        }
    if isinstance(obj, dtypes.DType):
        return obj.name
    if isinstance(obj, TensorShape):
        return obj.as_list()
    if isinstance(obj, policies.DTypePolicy):
        return policies.serialize(obj)
    if isinstance(obj, Layer):
        return LAYERS["config"](obj, ctx)
    if isinstance(obj, type):
        return {**ctx.class_ref(obj), "config": None, "class_name": "__type__"}
    if callable(obj) and not hasattr(obj, "get_config"):
        if _is_script_lambda(obj):
            return ctx.keep(obj, "__lambda__")
        if any(fn is obj for fn in activations.ACTIVATIONS.values()):
            return activations.serialize(obj)
        return ctx.keep(obj)
    if hasattr(obj, "get_config"):
        config = obj.get_config()
        if not isinstance(config, dict):
            raise TypeError(
                f"The `get_config()` method of {obj} should return a dict. It returned: {config}"
            )
        out = ctx.with_config(type(obj), serialize(config, ctx))
        if ctx.keep_live:
            out["live"] = ctx.keep(obj)["config"]["index"]
        return out
    return ctx.keep(obj)


def _accepts(cls: type) -> tuple[set[str], bool]:
    sig = auto_config._signature(cls)
    if sig is None:
        return set(), True
    params = list(sig.parameters.values())[1:]
    return {p.name for p in params}, any(p.kind is p.VAR_KEYWORD for p in params)


def _config_owner(cls: type) -> type:
    return next(k for k in cls.__mro__ if "get_config" in k.__dict__)


def _base(layer: Layer, cls: type) -> dict[str, Any]:
    names, varkw = _accepts(cls)
    policy = getattr(layer, "_dtype_policy", None)
    base = {"name": layer.name, "trainable": layer.trainable,
            "dtype": policies.serialize(policy) if policy is not None else layer.dtype}  # fmt: skip
    return {k: v for k, v in base.items() if varkw or k in names}


def plain_config(layer: Layer) -> dict[str, Any]:
    """The layer's config before serialization, as Keras 3's ``get_config`` would give it."""
    cls = type(layer)
    owner = _config_owner(cls)
    if not _own(owner):  # the script wrote get_config
        config = layer.get_config()
        if not isinstance(config, dict):
            raise TypeError(
                f"The `get_config()` method of {layer} should return a dict. It returned: {config}"
            )
        return config
    if not _own(cls) and owner.__name__ in ("Layer", "Model"):
        auto = auto_config.check_user_config(layer)
        names, varkw = _accepts(cls)
        head = {"name": layer.name} if (varkw or "name" in names) else {}
        policy = getattr(layer, "_dtype_policy", None)
        dtype = policies.serialize(policy) if policy is not None else layer.dtype
        return {**head, **auto, "trainable": layer.trainable, "dtype": dtype}
    found = layer.__dict__.get("_auto_config")
    if found is None or found.arguments is None:
        return layer.get_config()
    names, _ = _accepts(cls)
    args = {k: v for k, v in found.arguments.items() if k in names or k not in _BUILD_ARGS}
    return {**args, **_base(layer, cls)}


# -- deserializing -----------------------------------------------------------------------------
class Loader:
    """What a deserialization finds classes and kept objects in."""

    def __init__(self, live: list[Any], custom_objects: dict[str, Any] | None, safe_mode: bool):
        self.live, self.custom_objects, self.safe_mode = live, dict(custom_objects or {}), safe_mode


@contextlib.contextmanager
def loading(loader: Loader) -> Iterator[Loader]:
    """Make ``loader`` the one ``deserialize`` uses (also from a script's ``from_config``)."""
    _REGISTRY.loaders.append(loader)
    try:
        yield loader
    finally:
        _REGISTRY.loaders.remove(loader)


def _loader(custom_objects: dict[str, Any] | None, safe_mode: bool) -> Loader:
    outer = _REGISTRY.loaders[-1] if _REGISTRY.loaders else None
    if outer is not None and not custom_objects:
        return outer
    live = outer.live if outer is not None else []
    return Loader(live, custom_objects, safe_mode if outer is None else outer.safe_mode)


def find_class(config: dict[str, Any], loader: Loader) -> Any:
    """The class a config names (Keras' lookup order), or Keras' TypeError."""
    registered, name = config.get("registered_name"), config.get("class_name")
    for key in (registered, name):
        if key:
            found = get_registered_object(key, loader.custom_objects)
            if found is not None:
                return found
    module = str(config.get("module") or "")
    table = _builtins()["by_name"]
    if module.startswith("keras") and ((module, name) in table or name in table):
        return table.get((module, name), table.get(name))
    index = config.get("live_class")
    if isinstance(index, int) and 0 <= index < len(loader.live):
        return loader.live[index]
    raise TypeError(
        f"Could not locate class '{name}'. Make sure custom classes are decorated with "
        f"`@keras.saving.register_keras_serializable()`. Full object config: {config}"
    )


def deserialize(
    config: Any, custom_objects: dict[str, Any] | None = None, safe_mode: bool = True, **_: Any
) -> Any:
    """Keras 3's ``deserialize_keras_object``: the object a config describes."""
    loader = _loader(custom_objects, safe_mode)
    with loading(loader):
        return _deserialize(config, loader)


def _deserialize(config: Any, loader: Loader) -> Any:
    if config is None or isinstance(config, _PLAIN):
        if isinstance(config, str) and config in loader.custom_objects:
            return loader.custom_objects[config]
        return config
    if isinstance(config, list):
        return [_deserialize(x, loader) for x in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {k: _deserialize(v, loader) for k, v in config.items()}
    name, inner = config["class_name"], config["config"]
    if name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if name == "__tensor__":
        return constant(np.array(inner["value"], dtype=inner["dtype"]))
    if name in ("__live__", "__class__", "__lambda__"):
        if name == "__lambda__" and loader.safe_mode:
            raise ValueError(
                "Requested the deserialization of a `lambda` object. This carries a potential "
                "risk of arbitrary code execution and thus it is disallowed by default. If you "
                "trust the source of the saved model, you can pass `safe_mode=False` to the "
                "loading function in order to allow `lambda` loading."
            )
        return loader.live[inner["index"]]
    if name in ("DTypePolicy", "FloatDTypePolicy") and str(config.get("module")) == "keras":
        return policies.get(config)
    cls = find_class(config, loader)
    if name == "__type__":
        return cls
    if isinstance(cls, type) and issubclass(cls, Layer):
        return LAYERS["make"](cls, config, loader)
    if not isinstance(cls, type):
        return cls  # a registered function
    try:
        if hasattr(cls, "from_config"):
            return cls.from_config(_deserialize(inner, loader))
        return cls(**_deserialize(inner, loader))
    except (TypeError, ValueError):
        index = config.get("live")
        if isinstance(index, int) and 0 <= index < len(loader.live):
            return loader.live[index]
        raise


def own_class(cls: type) -> bool:
    """Whether ``cls`` is tapeviz's (its config is the constructor's arguments, deserialized)."""
    return _own(cls) or (_own(_config_owner(cls)) and _config_owner(cls).__name__ not in (
        "Layer", "Model"
    ))  # fmt: skip


def model_from_json(json_string: str, custom_objects: dict[str, Any] | None = None) -> Any:
    """The model a ``to_json()`` string describes (new weights: JSON holds no values)."""
    import json

    return deserialize(json.loads(json_string), custom_objects=custom_objects)


def clone_model(model: Any, input_tensors: Any = None, clone_function: Any = None, **_: Any) -> Any:
    """A new model of the same architecture, with new weights (Keras' ``clone_model``)."""
    ctx = Context()  # in memory: the script's own functions and classes are kept as they are
    config = serialize(model, ctx)
    loader = Loader(ctx.live, None, safe_mode=False)
    with loading(loader):
        return _deserialize(config, loader)
