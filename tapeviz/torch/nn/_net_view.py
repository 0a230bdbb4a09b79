"""A PyTorch loop's network on 2-D data, for the Network view (what ``fit_net`` is for Keras).

Courses train a small ``nn.Sequential`` of ``Linear`` layers and activations on points of two
columns with a hand-written loop (``logits = model(X).squeeze(); loss = loss_fn(logits, y);
loss.backward(); optimizer.step()``). Once per model, at the first ``backward()`` whose loss a
loss module computed from that model's output (through ``squeeze``/``view`` at most), the
backward tape gets the same description Keras' ``fit`` leaves (:data:`FIT_NET`), with its
kernels marked ``transposed`` (torch keeps ``weight`` as (out, in)); the timeline's recorded
parameters give the weights of every step, so the view replays what the script computed.
Only the latest model call and loss call are remembered, so a long loop costs nothing more.
"""

from __future__ import annotations

import math
import threading
import weakref
from typing import Any

import numpy as np

from tapeviz.tf import run_state
from tapeviz.tf.keras_src.fit_net import FIT_NET, MAX_POINTS, undrawable
from tapeviz.torch import _autograd
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import _losses
from tapeviz.torch.nn import module as _module
from tapeviz.torch.nn.activation import ReLU, Sigmoid, Tanh
from tapeviz.torch.nn.containers import Sequential
from tapeviz.torch.nn.layers import Dropout, Identity, Linear
from tapeviz.torch.optim import optimizer as _optim

__all__ = ["describe", "note_call", "note_loss", "note_optimizer", "on_backward"]

_ACTIVATIONS = ((ReLU, "relu"), (Tanh, "tanh"), (Sigmoid, "sigmoid"), (Identity, "linear"))


class _State(threading.local):
    """The latest width-2 model call and loss call of this run, and the models described."""

    model: tuple[Any, Any, np.ndarray] | None = None  # (Sequential, its output, its input)
    loss: tuple[Any, str, Any, Any, bool] | None = None  # (output, kind, input, target, logits)
    described: list[int] = []  # noqa: RUF012 (run_state gives every run a fresh list)
    optimizers: list[weakref.ref[Any]] = []  # noqa: RUF012


STATE = _State()
run_state.register_attributes(
    __name__, STATE, lambda: {"model": None, "loss": None, "described": [], "optimizers": []}
)


def _points(t: Any) -> np.ndarray | None:
    if not isinstance(t, Tensor):
        return None
    a = np.asarray(t._t._value)
    return a if a.dtype.kind in "biuf" else None


def note_call(module: Any, args: tuple[Any, ...], result: Any) -> None:
    """Remember a width-2 Sequential call (Module.__call__ calls this after every module)."""
    if not isinstance(module, Sequential) or len(args) != 1 or not _autograd.GRAD.enabled:
        return
    if id(module) in STATE.described:
        return
    x = _points(args[0])
    if x is not None and x.ndim == 2 and x.shape[1] == 2 and 4 <= len(x) <= MAX_POINTS:
        STATE.model = (module, result, np.array(x, np.float64))


def note_loss(name: str, input: Any, target: Any, result: Any) -> None:
    """Remember a loss computed while a width-2 model call is pending (functional or module)."""
    if STATE.model is not None:
        STATE.loss = (result, name, input, target, name == "BCEWithLogitsLoss")


def note_optimizer(opt: Any) -> None:
    """Remember an optimizer (the description names the one holding the model's weights)."""
    STATE.optimizers = [*STATE.optimizers[-19:], weakref.ref(opt)]


def _layers(model: Any, kind: str) -> list[dict[str, Any]] | str:
    out: list[dict[str, Any]] = []
    for name, child in model.named_children():
        if isinstance(child, Dropout):
            continue
        act = next((a for cls, a in _ACTIVATIONS if type(child) is cls), None)
        if act is not None:
            if not out or out[-1]["activation"] != "linear":
                return f"its layer {name} is an activation after an activation"
            out[-1]["activation"] = act
            continue
        if type(child) is not Linear:
            return f"its layer {name} is a {type(child).__name__}, not a Linear layer"
        n_in = out[-1]["units"] if out else 2
        if child.in_features != n_in:
            return "its Linear layers are not one chain"
        bias = child.bias
        out.append({
            "name": str(name)[:100], "units": int(child.out_features), "activation": "linear",
            "kernel": int(child.weight._t.id), "bias": -1 if bias is None else int(bias._t.id),
            "transposed": True,
        })  # fmt: skip
    if not out:
        return "its model has no Linear layer"
    if kind == "CrossEntropyLoss" and out[-1]["activation"] == "linear":
        out[-1]["activation"] = "softmax"  # (cross-entropy applies the softmax)
    return out


def _optimizer(model: Any) -> tuple[str, float]:
    first = next(iter(model.parameters()), None)
    for ref in reversed(STATE.optimizers):
        opt = ref()
        if opt is None:
            continue
        for group in opt.param_groups:
            if any(p is first for p in group["params"]):
                lr = group.get("lr")
                rate = float(lr) if isinstance(lr, int | float) else math.nan
                return type(opt).__name__[:40], rate
    return "SGD", math.nan


def describe(
    model: Any, x: np.ndarray, target: Any, kind: str, from_logits: bool = False
) -> dict[str, Any]:
    """The Network view's description of ``model`` trained on ``x`` against ``target``."""
    layers = _layers(model, kind)
    if isinstance(layers, str):
        return {"reason": layers}
    y = _points(target)
    if y is None or len(y) != len(x) or y.ndim > 2:
        return {"reason": "its labels do not match its points"}
    y = np.asarray(y, np.float64).reshape(len(y), -1)
    why = undrawable(layers, x, y)  # (the same rules as a Keras fit's)
    if why:
        return {"reason": why}
    if kind == "CrossEntropyLoss":
        if layers[-1]["units"] != 2 or y.shape[1] != 1 or not np.isin(y, (0.0, 1.0)).all():
            return {"reason": "its cross-entropy is not over two classes 0 and 1"}
        y = np.eye(2)[y[:, 0].astype(int)]
    optimizer, lr = _optimizer(model)
    return {
        "layers": layers, "x": x, "y": y, "val_x": np.zeros((0, 2)), "val_y": np.zeros((0, 1)),
        "loss": kind, "from_logits": from_logits and layers[-1]["activation"] == "linear",
        "optimizer": optimizer, "learning_rate": lr, "batch_size": len(x),
    }  # fmt: skip


def _link(a: Any, b: Any) -> str | None:
    """How the loss's input ``a`` came from the model's output ``b`` (None: not from it).

    "" as it is or reshaped (``model(X).squeeze()``), "sigmoid" through ``torch.sigmoid``.
    """
    if a is b:
        return ""
    va, vb = _points(a), _points(b)
    if va is None or vb is None or va.size != vb.size:
        return None
    va, vb = va.reshape(-1), vb.reshape(-1)
    if np.array_equal(va, vb):
        return ""
    with np.errstate(over="ignore"):
        squashed = 1.0 / (1.0 + np.exp(-vb.astype(np.float64)))
    return "sigmoid" if np.allclose(va, squashed, rtol=1e-5, atol=1e-7) else None


def on_backward(outputs: list[Any], tape: Any) -> None:
    """At ``loss.backward()``: describe the model the loss was computed from, once."""
    loss, model = STATE.loss, STATE.model
    if loss is None or model is None or len(outputs) != 1 or outputs[0] is not loss[0]:
        return
    seq, out, x = model
    STATE.model = STATE.loss = None
    link = _link(loss[2], out)
    if link is None:
        return
    STATE.described.append(id(seq))
    try:
        doc = describe(seq, x, loss[3], loss[1], loss[4])
        if link and "layers" in doc:  # torch.sigmoid(model(X)) into the loss
            last = doc["layers"][-1]
            if last["activation"] != "linear":
                doc = {"reason": "its output goes through two activations"}
            else:
                last["activation"], doc["from_logits"] = link, False
        setattr(tape, FIT_NET, doc)
    except Exception as exc:  # a description never breaks the script's backward()
        setattr(tape, FIT_NET, {"reason": f"it could not be described ({type(exc).__name__})"})


_module.CALL_NOTES.append(note_call)
_losses.LOSS_NOTES.append(note_loss)
_autograd.BACKWARD_NOTES.append(on_backward)
_optim.CREATED_NOTES.append(note_optimizer)
