"""What the Network view needs of a Keras ``fit`` on 2-D data: the layers, the data, the names.

A ``fit`` of a model that is a chain of ``Dense`` layers (``Activation`` and ``Dropout`` layers
between them allowed) on inputs of two columns is what TensorFlow Playground draws: the window
shows it in the Network view, step by step, with the weights the timeline recorded. ``describe``
returns the plain description the sandbox sends (the layers' sizes, activations and variable
ids, the training and validation points, the loss and the optimizer), or ``{"reason": …}``
saying why this model cannot be drawn there. It runs once per ``fit``, after the first step
(when every layer is built).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["DRAWN", "FIT_NET", "MAX_POINTS", "describe", "undrawable"]

FIT_NET = "fit_net"  # the attribute of a fit's first tape holding the description
DRAWN = ("relu", "tanh", "sigmoid", "linear")  # what the Network view's neurons draw
MAX_POINTS = 5000  # training (and validation) points sent at most
MODELS = "tapeviz.tf.keras_src.models"
MAX_OUTPUTS = 2  # one output, or two softmax classes (drawn as one: p₁ − p₀)


def _reason(text: str) -> dict[str, Any]:
    return {"reason": text}


def _points(x: Any) -> np.ndarray | None:
    from tapeviz.tf.keras_src.data_adapter import as_numpy

    try:
        arr = np.asarray(as_numpy(x))
    except Exception:  # a dataset, a dict of inputs, ...: not points
        return None
    if arr.dtype.kind not in "biuf":
        return None
    return arr.astype(np.float64)


def _layers(model: Any) -> list[dict[str, Any]] | str:
    from tapeviz.tf.keras_src import activations
    from tapeviz.tf.keras_src.core_layers import Activation, Dense, Dropout
    from tapeviz.tf.keras_src.functional import InputLayer

    kind = type(model)  # (not imported: the models import the training loop, which uses this)
    if kind.__name__ not in ("Sequential", "Functional") or kind.__module__ != MODELS:
        return "its model is a subclassed Model (its call() is Python the view cannot read)"
    if kind.__name__ == "Functional" and (len(model.inputs) != 1 or len(model.outputs) != 1):
        return "its model has more than one input or output"
    out: list[dict[str, Any]] = []
    for layer in model.layers:
        if isinstance(layer, InputLayer | Dropout):
            continue  # (a Dropout is the identity when the view draws the network)
        if isinstance(layer, Activation):
            if not out or out[-1]["activation"] != "linear":
                return f"its layer {layer.name} is an activation after an activation"
            out[-1]["activation"] = activations.serialize(layer.activation)
            continue
        if not isinstance(layer, Dense):
            return f"its layer {layer.name} is a {type(layer).__name__}, not a Dense layer"
        kernel = layer.kernel
        if out and int(kernel.shape[0]) != out[-1]["units"]:
            return "its Dense layers are not one chain"
        bias = layer.bias
        out.append({
            "name": str(layer.name)[:100], "units": int(layer.units),
            "activation": activations.serialize(layer.activation)[:40],
            "kernel": int(kernel.id), "bias": -1 if bias is None else int(bias.id),
        })  # fmt: skip
    if not out:
        return "its model has no Dense layer"
    return out


def _loss(model: Any) -> tuple[str, bool]:
    loss = getattr(model, "loss", None)
    obj = getattr(model, "_compile_loss", None)
    name = loss if isinstance(loss, str) else getattr(obj, "name", None)
    name = name or getattr(loss, "__name__", type(loss).__name__)
    return str(name)[:60], bool(getattr(obj, "from_logits", False))


def _optimizer(model: Any) -> tuple[str, float]:
    opt = getattr(model, "optimizer", None)
    try:
        lr = float(np.asarray(opt.learning_rate.numpy()))  # type: ignore[union-attr]
    except Exception:  # a schedule, or no optimizer
        lr = float("nan")
    return type(opt).__name__[:40], lr


def undrawable(layers: list[dict[str, Any]], xs: np.ndarray, ys: np.ndarray) -> str:
    """Why the view cannot draw these layers trained on these points ("" when it can).

    Shared by Keras' ``fit`` and a torch loop's description (``tapeviz.torch.nn._net_view``).
    """
    if len(ys) != len(xs) or ys.ndim > 2:
        return "its labels do not match its points"
    if not 4 <= len(xs) <= MAX_POINTS:
        return f"it trains on {len(xs):,} points (the view draws 4 to {MAX_POINTS:,})"
    if not (np.isfinite(xs).all() and np.isfinite(ys).all()):
        return "its data hold nan or inf"
    units = layers[-1]["units"]
    if units > MAX_OUTPUTS or (units == 2 and layers[-1]["activation"] != "softmax"):
        return f"its output has {units} units (the view draws one, or two softmax)"
    for layer in layers:
        last = layer is layers[-1]
        if layer["activation"] not in DRAWN and not (last and layer["activation"] == "softmax"):
            return f"its layer {layer['name']} uses {layer['activation']}"
    return ""


def describe(model: Any, x: Any, y: Any, validation: Any, batch_size: Any) -> dict[str, Any]:
    """The Network view's description of a ``fit`` of ``model`` on ``x``, ``y`` (see above)."""
    layers = _layers(model)
    if isinstance(layers, str):
        return _reason(layers)
    xs, ys = _points(x), _points(y)
    if xs is None or ys is None:
        return _reason("its data are not arrays (the view needs the points themselves)")
    if xs.ndim != 2 or xs.shape[1] != 2:
        return _reason(f"its inputs have shape {tuple(xs.shape)}, not (points, 2)")
    why = undrawable(layers, xs, ys)
    if why:
        return _reason(why)
    vx = vy = np.zeros((0, 2))
    if validation is not None:
        try:
            from tapeviz.tf.keras_src.data_adapter import unpack

            vxs, vys, _ = unpack(validation)
            vx, vy = _points(vxs), _points(vys)
        except Exception:
            vx = vy = None
        ok = vx is not None and vy is not None and vx.ndim == 2 and vx.shape[1] == 2
        if not ok or len(vy) != len(vx) or len(vx) > MAX_POINTS or not np.isfinite(vx).all():
            vx = vy = np.zeros((0, 2))
    loss, from_logits = _loss(model)
    optimizer, lr = _optimizer(model)
    return {
        "layers": layers, "x": xs, "y": ys.reshape(len(ys), -1),
        "val_x": np.asarray(vx, np.float64).reshape(-1, 2),
        "val_y": np.asarray(vy, np.float64).reshape(len(vx), -1) if len(vx) else np.zeros((0, 1)),
        "loss": loss, "from_logits": from_logits, "optimizer": optimizer, "learning_rate": lr,
        "batch_size": int(batch_size) if isinstance(batch_size, int | np.integer) else 32,
    }  # fmt: skip
