"""A PyTorch loop's network on 2-D data, for the Network view (what ``fit_net`` is for Keras).

Courses train a small ``nn.Sequential`` of ``Linear`` layers and activations (or a subclassed
``nn.Module`` whose ``forward`` chains them, :mod:`._net_chain`) on points of two columns with a
hand-written loop (``logits = model(X).squeeze(); loss = loss_fn(logits, y);
loss.backward(); optimizer.step()``). Once per model, at the first ``backward()`` whose loss a
loss module computed from that model's output (through ``squeeze``/``view`` at most), the
backward tape gets the same description Keras' ``fit`` leaves (:data:`FIT_NET`), with its
kernels marked ``transposed`` (torch keeps ``weight`` as (out, in)); the timeline's recorded
parameters give the weights of every step, so the view replays what the script computed.
Only the latest model call and loss call are remembered, so a long loop costs nothing more.
Once described, the model's first call without gradients on other 2-D points (the course's
``with torch.inference_mode(): test_logits = model(X_test)``) whose output a loss compares with
labels gives the view its test points. A batch of a ``DataLoader`` over a ``TensorDataset(X,
y)`` stands for its data set: the view shows all of X and y (train and test alike).
"""

from __future__ import annotations

import math
import threading
import weakref
from collections import deque
from typing import Any

import numpy as np

from tapeviz.tf import run_state
from tapeviz.tf.keras_src.fit_net import FIT_NET, MAX_POINTS, undrawable
from tapeviz.torch import _autograd
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import _losses
from tapeviz.torch.nn import module as _module
from tapeviz.torch.nn._net_chain import ACTIVATION_KINDS, chain_layers, how
from tapeviz.torch.nn.containers import Sequential
from tapeviz.torch.nn.layers import Dropout, Linear
from tapeviz.torch.optim import optimizer as _optim
from tapeviz.torch.utils import data as _data
from tapeviz.torch.utils.data import TensorDataset

__all__ = ["describe", "note_batch", "note_call", "note_loss", "note_optimizer", "on_backward"]


_CALLS_KEPT = 64  # the latest Linear and activation calls, read when a subclassed model ends


class _State(threading.local):
    """The latest width-2 model call and loss call of this run, and the models described."""

    # (model, its output, its input points, its layers: None for a Sequential, read later)
    model: tuple[Any, Any, np.ndarray, list[dict[str, Any]] | str | None] | None = None
    loss: tuple[Any, str, Any, Any, bool] | None = None  # (output, kind, input, target, logits)
    described: list[int] = []  # noqa: RUF012 (run_state gives every run a fresh list)
    optimizers: list[weakref.ref[Any]] = []  # noqa: RUF012
    calls: deque[tuple[Any, Any, Any]] = deque()  # noqa: RUF012 ((module, input, output) of leaf calls)
    docs: dict[int, dict[str, Any]] = {}  # noqa: RUF012 (model id -> its description)
    test: tuple[dict[str, Any], Any, np.ndarray, Any] | None = None  # (doc, out, points, y)
    batch: tuple[Any, Any, Any] | None = None  # (the latest batch's inputs, X, y of its set)
    # the pending model call's DataLoader: (its data set's labels, the batch's rows), else None
    loader: tuple[Any, int] | None = None


STATE = _State()


def _fresh() -> dict[str, Any]:
    return {"model": None, "loss": None, "described": [], "optimizers": [],
            "calls": deque(maxlen=_CALLS_KEPT), "docs": {}, "test": None,
            "batch": None, "loader": None}  # fmt: skip


run_state.register_attributes(__name__, STATE, _fresh)


def _points(t: Any) -> np.ndarray | None:
    if not isinstance(t, Tensor):
        return None
    a = np.asarray(t._t._value)
    return a if a.dtype.kind in "biuf" else None


def _plane_points(t: Any) -> np.ndarray | None:
    x = _points(t)
    if x is not None and x.ndim == 2 and x.shape[1] == 2 and 4 <= len(x) <= MAX_POINTS:
        return np.array(x, np.float64)
    return None


def note_call(module: Any, args: tuple[Any, ...], result: Any) -> None:
    """Remember a width-2 model call (Module.__call__ calls this after every module).

    A Sequential's layers are read from its children at the loss's backward(); a subclassed
    model's from the Linear and activation calls its forward made (:func:`chain_layers`).
    """
    if len(args) != 1:
        return
    kind = type(module)
    if not _autograd.GRAD.enabled:
        doc = STATE.docs.get(id(module))
        if doc is not None and not len(doc["val_x"]):  # a described model on test points?
            x, labels = _plane_points(args[0]), None
            batch = STATE.batch
            if batch is not None and batch[0] is args[0]:  # a test DataLoader's batch
                x, labels = _plane_points(batch[1]), batch[2]
            if x is not None and not np.array_equal(x, doc["x"]):
                STATE.test = (doc, result, x, labels)
        return
    if kind is Linear or kind in ACTIVATION_KINDS:
        STATE.calls.append((module, args[0], result))
        return
    if id(module) in STATE.described or not (isinstance(module, Sequential) or module._modules):
        return
    x = _plane_points(args[0])
    if x is None:
        return
    batch = STATE.batch
    if batch is not None and batch[0] is args[0]:  # a batch: the view shows its whole data set
        STATE.loader = (batch[2], len(x))
        x = _plane_points(batch[1])
    else:
        STATE.loader = None
    if x is None:
        return
    if isinstance(module, Sequential):
        STATE.model = (module, result, x, None)
    else:  # read now: later calls replace the ones this forward made
        STATE.model = (module, result, x, chain_layers(module, args[0], result, list(STATE.calls)))


def note_batch(dataset: Any, batch: Any) -> None:
    """Remember a DataLoader batch of a ``TensorDataset(X, y)`` whose X has two columns."""
    if type(dataset) is not TensorDataset or len(dataset.tensors) != 2:
        return
    if not isinstance(batch, list | tuple) or len(batch) != 2:
        return
    x_all, y_all = dataset.tensors
    shape = tuple(x_all.shape)
    if len(shape) == 2 and shape[1] == 2 and 4 <= shape[0] <= MAX_POINTS:
        STATE.batch = (batch[0], x_all, y_all)


def note_loss(name: str, input: Any, target: Any, result: Any) -> None:
    """Remember a loss computed while a width-2 model call is pending (functional or module)."""
    if STATE.model is not None and _autograd.GRAD.enabled:
        STATE.loss = (result, name, input, target, name == "BCEWithLogitsLoss")
    elif STATE.test is not None:
        doc, out, x, labels = STATE.test
        STATE.test = None
        _test_points(doc, how(input, out), x, target if labels is None else labels)


def _test_points(doc: dict[str, Any], link: str | None, x: np.ndarray, target: Any) -> None:
    """Give a description the test points a loss compared the model's outputs on with labels."""
    last = doc["layers"][-1]["activation"]
    if link is None or (link != "linear" and (doc["from_logits"] or last != link)):
        return
    y = _points(target)
    if y is None or len(y) != len(x) or y.ndim > 2 or not np.isfinite(y).all():
        return
    y = np.asarray(y, np.float64).reshape(len(y), -1)
    if doc["loss"] == "CrossEntropyLoss":
        if y.shape[1] != 1 or not np.isin(y, (0.0, 1.0)).all():
            return
        y = np.eye(2)[y[:, 0].astype(int)]
    if y.shape[1] == doc["y"].shape[1] and np.isfinite(x).all():
        doc["val_x"], doc["val_y"] = x, y


def note_optimizer(opt: Any) -> None:
    """Remember an optimizer (the description names the one holding the model's weights)."""
    STATE.optimizers = [*STATE.optimizers[-19:], weakref.ref(opt)]


def _layers(model: Any) -> list[dict[str, Any]] | str:
    out: list[dict[str, Any]] = []
    for name, child in model.named_children():
        if isinstance(child, Dropout):
            continue
        act = ACTIVATION_KINDS.get(type(child))
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
    return out or "its model has no Linear layer"


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
    model: Any,
    x: np.ndarray,
    target: Any,
    kind: str,
    from_logits: bool = False,
    chain: list[dict[str, Any]] | str | None = None,
) -> dict[str, Any]:
    """The Network view's description of ``model`` trained on ``x`` against ``target``.

    ``chain``: a subclassed model's layers as its call made them (None: a Sequential's children).
    """
    layers = _layers(model) if chain is None else chain
    if isinstance(layers, str):
        return {"reason": layers}
    if kind == "CrossEntropyLoss" and layers[-1]["activation"] == "linear":
        layers[-1]["activation"] = "softmax"  # (cross-entropy applies the softmax)
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


# How the loss's input may come from the model's output: as it is or reshaped
# (``model(X).squeeze()``, ""), or through ``torch.sigmoid`` into a BCELoss ("sigmoid").
_LINKS = {"linear": "", "sigmoid": "sigmoid"}


def on_backward(outputs: list[Any], tape: Any) -> None:
    """At ``loss.backward()``: describe the model the loss was computed from, once."""
    loss, model = STATE.loss, STATE.model
    if loss is None or model is None or len(outputs) != 1 or outputs[0] is not loss[0]:
        return
    seq, out, x, chain = model
    STATE.model = STATE.loss = None
    link = _LINKS.get(how(loss[2], out))
    if link is None:
        return
    STATE.described.append(id(seq))
    try:
        loader = STATE.loader
        doc = describe(seq, x, loss[3] if loader is None else loader[0], loss[1], loss[4], chain)
        if loader is not None and "layers" in doc:  # (a DataLoader's batches)
            doc["batch_size"] = loader[1]
        if link and "layers" in doc:  # torch.sigmoid(model(X)) into the loss
            last = doc["layers"][-1]
            if last["activation"] != "linear":
                doc = {"reason": "its output goes through two activations"}
            else:
                last["activation"], doc["from_logits"] = link, False
        setattr(tape, FIT_NET, doc)
        if "layers" in doc:
            STATE.docs[id(seq)] = doc
    except Exception as exc:  # a description never breaks the script's backward()
        setattr(tape, FIT_NET, {"reason": f"it could not be described ({type(exc).__name__})"})


_module.CALL_NOTES.append(note_call)
_losses.LOSS_NOTES.append(note_loss)
_autograd.BACKWARD_NOTES.append(on_backward)
_optim.CREATED_NOTES.append(note_optimizer)
_data.BATCH_NOTES.append(note_batch)
