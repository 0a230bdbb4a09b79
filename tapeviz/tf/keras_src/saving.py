"""``model.save`` / ``keras.models.load_model``, ``save_weights`` / ``load_weights``, as Keras 3.

Files go to the run's own folder (:mod:`tapeviz.tf.run_files`): a ``.keras`` (or legacy
``.h5``) file holds the model's config (:mod:`.serialization`), its compile config and every
weight, the optimizer's state included, by its path in the model (``layers/0/kernel``,
``optimizer/iterations``, ``layers/0/kernel/.OPTIMIZER_SLOT/optimizer/m``); a ``.weights.h5``
file holds the weights only. Keras 3's rules and messages: ``model.save`` needs a ``.keras`` or
``.h5`` path (``save_format`` is deprecated), ``save_weights`` a ``.weights.h5`` one,
``load_weights`` reads ``.keras``, ``.weights.h5`` and ``.h5`` files; a loaded model is compiled
as it was (optimizer with its state, loss, metrics) unless ``compile=False``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.engine.optimizer_base import Optimizer
from tapeviz.tf import run_files, saved_model, trackable
from tapeviz.tf.keras_src import serialization
from tapeviz.tf.keras_src.progbar import print_line
from tapeviz.tf.keras_src.serialization import Context, Loader

__all__ = [
    "export_model",
    "load_model",
    "load_weights",
    "save_model",
    "save_weights",
    "weights_of",
]

_MODEL_KINDS = ("keras_model", "keras_h5")
_OPT = "optimizer"


def _version() -> str:
    from tapeviz.tf.keras_src import VERSION

    return VERSION


def weights_of(model: Any, include_optimizer: bool = True) -> dict[str, np.ndarray]:
    """Every weight of ``model`` by its path (and the optimizer's, slots included)."""
    graph = trackable.collect([("", model)])
    out = {p: np.asarray(v._value) for p, v in graph.variables.items()
           if include_optimizer or not p.startswith(_OPT + "/")}  # fmt: skip
    if include_optimizer:
        out.update(graph.slots())
    return out


def _optimizer_config(opt: Optimizer, ctx: Context) -> dict[str, Any]:
    config = opt.get_config()
    if opt._schedule is not None:
        config["learning_rate"] = opt._schedule
    for key in ("clipnorm", "clipvalue", "global_clipnorm", "weight_decay"):
        if getattr(opt, key, None) is not None:
            config[key] = getattr(opt, key)
    return ctx.with_config(type(opt), serialization.serialize(config, ctx))


def compile_config(model: Any, ctx: Context, include_optimizer: bool = True) -> dict[str, Any]:
    """Keras 3's ``get_compile_config``: what ``compile`` was given."""
    metrics = model._compile_metrics._ids if model._compile_metrics is not None else None
    opt = model.optimizer
    return {
        "optimizer": _optimizer_config(opt, ctx) if include_optimizer and opt is not None else None,
        "loss": serialization.serialize(model.loss, ctx),
        "metrics": serialization.serialize(metrics, ctx),
        "loss_weights": None, "weighted_metrics": None, "run_eagerly": False,
        "steps_per_execution": 1, "jit_compile": False,
    }  # fmt: skip


def save_model(model: Any, filepath: Any, overwrite: bool = True, zipped: Any = None,
               **kwargs: Any) -> None:  # fmt: skip
    """Save the model (config, weights, optimizer state) at a ``.keras`` or ``.h5`` path."""
    include_optimizer = kwargs.pop("include_optimizer", True)
    save_format = kwargs.pop("save_format", False)
    path = run_files.fspath(filepath)
    legacy = path.endswith((".h5", ".hdf5"))
    if save_format:
        if not (legacy or path.endswith(".keras")):
            raise ValueError(
                "The `save_format` argument is deprecated in Keras 3. Please remove this "
                "argument and pass a file path with either `.keras` or `.h5` extension."
                f"Received: save_format={save_format}"
            )
        diagnostics.warn(
            "The `save_format` argument is deprecated in Keras 3. We recommend removing this "
            "argument as it can be inferred from the file path. "
            f"Received: save_format={save_format}"
        )
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs)}")
    if not (legacy or path.endswith(".keras")):
        raise ValueError(
            "Invalid filepath extension for saving. Please add either a `.keras` extension "
            "for the native Keras format (recommended) or a `.h5` extension. Use "
            "`model.export(filepath)` if you want to export a SavedModel for use with "
            f"TFLite/TFServing/etc. Received: filepath={path}."
        )
    if legacy:
        diagnostics.warn(
            "You are saving your model as an HDF5 file via `model.save()` or "
            "`keras.saving.save_model(model)`. This file format is considered legacy. We "
            "recommend using instead the native Keras format, e.g. "
            "`model.save('my_model.keras')` or `keras.saving.save_model(model, "
            "'my_model.keras')`. "
        )
    if not model.built:
        diagnostics.warn(
            "You are saving a model that has not yet been built. It might not contain any "
            "weights yet. Consider building the model first by calling it on some data."
        )
    ctx = Context()
    config = serialization.LAYERS["config"](model, ctx)
    if getattr(model, "compiled", False):
        config["compile_config"] = compile_config(model, ctx, include_optimizer)
    arrays = weights_of(model, include_optimizer)
    meta = {"model": config, "keras_version": _version()}
    run_files.write(path, _MODEL_KINDS[legacy], meta, arrays, live=ctx.live)


def load_model(filepath: Any, custom_objects: dict[str, Any] | None = None, compile: bool = True,
               safe_mode: bool = True) -> Any:  # fmt: skip
    """The model saved at ``filepath`` by ``model.save``: built, weighted and compiled."""
    path = run_files.fspath(filepath)
    found = run_files.read(path)
    if found is None or found.kind not in _MODEL_KINDS:
        if path.endswith(".keras"):
            raise ValueError(
                f"File not found: filepath={path}. Please ensure the file is an accessible "
                "`.keras` zip file."
            )
        if path.endswith((".h5", ".hdf5")):
            if found is None:
                raise FileNotFoundError(_no_h5(path))
            raise ValueError(f"No model config found in the file at {path}.")
        raise ValueError(
            f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` "
            "files and legacy H5 format files (`.h5` extension). Note that the legacy "
            "SavedModel format is not supported by `load_model()` in Keras 3. In order to "
            "reload a TensorFlow SavedModel as an inference-only layer in Keras 3, use "
            f"`keras.layers.TFSMLayer({path}, call_endpoint='serving_default')` (note that "
            "your `call_endpoint` might have a different name)."
        )
    meta = found.config
    loader = Loader(list(found.live or []), custom_objects, safe_mode)
    with serialization.loading(loader):
        model = serialization._deserialize(meta["model"], loader)
        compiled = meta["model"].get("compile_config")
        if compile and compiled:
            _compile_from_config(model, compiled, loader)
    _load_state(model, dict(found.arrays), skip_mismatch=False)
    return model


def _compile_from_config(model: Any, config: dict[str, Any], loader: Loader) -> None:
    opt = serialization._deserialize(config.get("optimizer"), loader)
    loss = serialization._deserialize(config.get("loss"), loader)
    metrics = serialization._deserialize(config.get("metrics"), loader)
    model.compile(optimizer=opt if opt is not None else "rmsprop", loss=loss, metrics=metrics)
    opt = model.optimizer
    if model.built and isinstance(opt, Optimizer) and opt._known is None:
        trainable = list(model.trainable_variables)  # Keras builds the optimizer on them
        opt._known = dict.fromkeys(v.id for v in trainable)
        for v in trainable:
            opt._state[v.id] = opt.init_state(v._value)


def _no_h5(path: str) -> str:
    return (
        f"[Errno 2] Unable to synchronously open file (unable to open file: name = '{path}', "
        "errno = 2, error message = 'No such file or directory', flags = 0, o_flags = 0)"
    )


def save_weights(model: Any, filepath: Any, overwrite: bool = True, max_shard_size: Any = None,
                 **kwargs: Any) -> None:  # fmt: skip
    """Save every weight (and the optimizer's state) at a ``.weights.h5`` path."""
    path = run_files.fspath(filepath)
    if not path.endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={path}")
    run_files.write(path, "keras_weights", {"keras_version": _version()}, weights_of(model))


def load_weights(model: Any, filepath: Any, skip_mismatch: bool = False, **kwargs: Any) -> None:
    """Assign the weights saved at ``filepath`` (``.weights.h5``, ``.keras`` or ``.h5``)."""
    path = run_files.fspath(filepath)
    kwargs.pop("objects_to_skip", None)
    kwargs.pop("by_name", None)
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {kwargs}")
    if not path.endswith((".keras", ".weights.h5", ".weights.json", ".h5", ".hdf5")):
        raise ValueError(
            f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` "
            "files, `.weights.h5` files, legacy H5 format files (`.h5` extension), or Orbax "
            "checkpoints."
        )
    found = run_files.read(path)
    if found is None or found.kind not in (*_MODEL_KINDS, "keras_weights"):
        if path.endswith(".keras"):
            raise FileNotFoundError(f"[Errno 2] No such file or directory: '{path}'")
        raise FileNotFoundError(_no_h5(path))
    _load_state(model, dict(found.arrays), skip_mismatch)


def _name_of(model: Any, graph: trackable.Graph, owner: str) -> str:
    obj = graph.objects.get(owner, model) if owner else model
    return str(getattr(obj, "name", owner))


def _load_state(model: Any, arrays: dict[str, np.ndarray], skip_mismatch: bool) -> None:
    """Assign each saved weight to the model's weight at the same path (Keras' failures)."""
    graph = trackable.collect([("", model)])
    own = {p: v for p, v in graph.variables.items() if not p.startswith(_OPT + "/")}
    saved = {k: v for k, v in arrays.items()
             if trackable.SLOT not in k and not k.startswith(_OPT + "/")}  # fmt: skip
    errors: dict[str, str] = {}
    if saved and not own and not model.built:
        errors[""] = (
            f"Layer '{model.name}' was never built and thus it doesn't have any variables. "
            f"However the weights file lists {len(saved)} variables for this layer.\nIn most "
            "cases, this error indicates that either:\n\n1. The layer is owned by a parent "
            "layer that implements a `build()` method, but calling the parent's `build()` "
            "method did NOT create the state of the child layer. A `build()` method must "
            "create ALL state for the layer, including the state of any children layers.\n\n"
            "2. You need to implement the `def build_from_config(self, config)` method on "
            f"layer '{model.name}', to specify how to rebuild it during loading."
        )
    by_owner: dict[str, list[str]] = defaultdict(list)
    for key in sorted(set(own) ^ set(saved)):
        by_owner[key.rpartition("/")[0]].append(key)
    for owner in by_owner:
        expected = [k.rpartition("/")[2] for k in own if k.rpartition("/")[0] == owner]
        got = [k for k in saved if k.rpartition("/")[0] == owner]
        errors.setdefault(owner, (
            f"Layer '{_name_of(model, graph, owner)}' expected {len(expected)} variables, but "
            f"received {len(got)} variables during loading. Expected: {expected}"
        ))  # fmt: skip
    for key, var in own.items():
        if key in saved and key.rpartition("/")[0] not in errors:
            value = saved[key]
            if tuple(np.shape(value)) != tuple(np.shape(var._value)):
                errors[key.rpartition("/")[0]] = (
                    "The shape of the target variable and the shape of the target value in "
                    "`variable.assign(value)` must match. "
                    f"variable.shape={tuple(np.shape(var._value))}, Received: "
                    f"value.shape={tuple(np.shape(value))}. Target variable: {var!r}"
                )
                continue
            trackable.assign(var, value, key)
    _load_optimizer(model, graph, arrays)
    if errors:
        first = next(iter(errors))
        names = [_name_of(model, graph, o) for o in errors]
        message = (
            f"A total of {len(errors)} objects could not be loaded. Example error message "
            f"for object {_name_of(model, graph, first)}:\n\n{errors[first]}\n\nList of "
            f"objects that could not be loaded:\n{names}"
        )
        if not skip_mismatch:
            raise ValueError(message)
        diagnostics.warn(message)


def _load_optimizer(model: Any, graph: trackable.Graph, arrays: dict[str, np.ndarray]) -> None:
    opt = model.__dict__.get(_OPT)
    saved = {k: v for k, v in arrays.items() if k.startswith(_OPT + "/")}
    slots = {k: v for k, v in arrays.items() if trackable.SLOT in k}
    if not isinstance(opt, Optimizer) or not (saved or slots):
        return
    wanted = 1 + (opt._schedule is None) + sum(len(s) for s in opt._state.values())
    have = len(saved) + len(slots)
    if slots and not opt._state:
        diagnostics.warn(
            f"Skipping variable loading for optimizer '{opt.name}', because it has {wanted} "
            f"variables whereas the saved optimizer has {have} variables. This is likely "
            "because the optimizer has not been called/built yet."
        )
        return
    for path, var in graph.variables.items():
        if path in saved and tuple(np.shape(saved[path])) == tuple(np.shape(var._value)):
            trackable.assign(var, saved[path], path)
    grouped: dict[str, dict[str, np.ndarray]] = defaultdict(dict)
    for key, value in slots.items():
        var_path, _, rest = key.partition(trackable.SLOT)
        grouped[var_path][rest.rpartition("/")[2]] = value
    for var_path, values in grouped.items():
        var = graph.variables.get(var_path)
        if var is not None and var.id in opt._state:
            trackable.set_slots(opt, var, values)


# -- a Keras model in a SavedModel (tf.saved_model.save, model.export) --------------------------
def _dump(model: Any) -> tuple[dict[str, Any], list[Any], dict[str, np.ndarray]]:
    ctx = Context()
    return serialization.LAYERS["config"](model, ctx), ctx.live, weights_of(model, False)


def _revive(config: dict[str, Any], live: list[Any], arrays: dict[str, np.ndarray]) -> Any:
    loader = Loader(list(live), None, True)
    with serialization.loading(loader):
        model = serialization._deserialize(config, loader)
    _load_state(model, arrays, skip_mismatch=True)
    return model


saved_model.KERAS.update(dump=_dump, revive=_revive)


def _spec(shape: Any, dtype: str, name: str | None) -> str:
    dims = ", ".join("None" if d is None else str(d) for d in shape)
    dims = f"({dims},)" if len(shape) == 1 else f"({dims})"
    return f"TensorSpec(shape={dims}, dtype=tf.{dtype}, name={name!r})"


def export_model(model: Any, filepath: Any, format: str = "tf_saved_model",
                 verbose: bool = True) -> None:  # fmt: skip
    """``model.export``: a SavedModel whose ``serve`` endpoint runs the model (inference)."""
    if format != "tf_saved_model":
        raise ValueError(
            f"Unrecognized format={format}. tapeviz exports 'tf_saved_model' only (ONNX and "
            "OpenVINO need their own libraries)."
        )
    if not model.built:
        raise ValueError(
            "The layer provided has not yet been built. It must be built before export."
        )
    saved_model.save(model, filepath)
    if verbose:
        path = run_files.fspath(filepath)
        inputs = getattr(model, "inputs", None) or []
        if not inputs and getattr(model, "_build_shapes", None) is not None:
            shape = tuple(model._build_shapes)
            ins = [_spec((None, *shape[1:]), model.dtype, "keras_tensor")]
        else:
            ins = [_spec(t.shape, t.dtype.name, "keras_tensor") for t in inputs]
        lines = [f"Saved artifact at '{path}'. The following endpoints are available:", "",
                 "* Endpoint 'serve'"]  # fmt: skip
        lines += [f"  args_{i} (POSITIONAL_ONLY): {text}" for i, text in enumerate(ins)]
        print_line("\n".join(lines))
