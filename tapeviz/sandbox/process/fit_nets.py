"""A Keras ``fit``'s network on 2-D data, for the Network view: both sides of the wire.

The worker sends the description :func:`tapeviz.tf.keras_src.fit_net.describe` left on a fit's
first tape (or :mod:`tapeviz.torch.nn._net_view` on a torch loop's first backward tape): the
layers, points, loss, optimizer, or the reason the view cannot draw it. The window checks every
field, length and number before keeping it (:class:`FitNet`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np

from tapeviz.sandbox.process.wire import ProtocolError, Writer, need

MAX_LAYERS = 8  # Dense layers described at most (the view draws 6 hidden and the output)
MAX_UNITS = 64
MAX_POINTS = 5000
MAX_LABELS = 2  # label columns: one, or two (one-hot)
ACTIVATIONS = ("relu", "tanh", "sigmoid", "linear", "softmax")


class NetLayer(NamedTuple):
    """One Dense layer: its name, units, activation and the ids of its kernel and bias."""

    name: str
    units: int
    activation: str
    kernel: int
    bias: int  # -1: no bias
    transposed: bool = False  # the kernel is kept as (units, inputs): a torch Linear's weight


class FitNet(NamedTuple):
    """A fit's network and data as the Network view draws them (or the reason it cannot)."""

    reason: str  # "" when drawable
    layers: tuple[NetLayer, ...] = ()
    x: np.ndarray = np.zeros((0, 2))
    y: np.ndarray = np.zeros((0, 1))
    val_x: np.ndarray = np.zeros((0, 2))
    val_y: np.ndarray = np.zeros((0, 1))
    loss: str = ""
    from_logits: bool = False
    optimizer: str = ""
    learning_rate: float = math.nan
    batch_size: int = 32


def _text(value: Any, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ProtocolError("bad text in a fit's network")
    return value


def encode(nets: Mapping[int, FitNet], writer: Writer) -> dict[str, Any]:
    """The nets' documents (tape → FitNet); nothing when there are none."""
    if not nets:
        return {}
    out = []
    for tape, net in nets.items():
        if net.reason:
            out.append({"tape": int(tape), "reason": net.reason[:300]})
            continue
        lr = net.learning_rate
        out.append({
            "tape": int(tape), "layers": [layer._asdict() for layer in net.layers],
            **{key: writer.array(np.ascontiguousarray(getattr(net, key), np.float64))
               for key in ("x", "y", "val_x", "val_y")},
            "loss": net.loss[:60], "from_logits": net.from_logits,
            "optimizer": net.optimizer[:40], "learning_rate": lr if math.isfinite(lr) else None,
            "batch_size": net.batch_size,
        })  # fmt: skip
    return {"fit_nets": out}


def _layer(doc: Any) -> NetLayer:
    units = need(doc, "units", int)
    act = _text(need(doc, "activation", str), 40)
    if not 1 <= units <= MAX_UNITS or act not in ACTIVATIONS:
        raise ProtocolError("a fit's network has a bad layer")
    kernel, bias = need(doc, "kernel", int), need(doc, "bias", int)
    if kernel < 0 or bias < -1:
        raise ProtocolError("a fit's network has a bad variable id")
    transposed = doc.get("transposed", False)
    if not isinstance(transposed, bool):
        raise ProtocolError("a fit's network has a bad layer")
    return NetLayer(_text(need(doc, "name", str), 100), units, act, kernel, bias, transposed)


def _points(frame: Any, ref: Any, columns: int | None) -> np.ndarray:
    arr = frame.array(ref, "float64", 2)
    if len(arr) > MAX_POINTS or (columns is not None and arr.shape[1] != columns):
        raise ProtocolError("a fit's network has bad points")
    if not np.isfinite(arr).all():
        raise ProtocolError("a fit's network has points that are not finite")
    return np.array(arr)


def _net(doc: Any, frame: Any) -> FitNet:
    if "reason" in doc:
        return FitNet(_text(need(doc, "reason", str), 300) or "unknown")
    raw = need(doc, "layers", list)
    if not 1 <= len(raw) <= MAX_LAYERS:
        raise ProtocolError("a fit's network has too many layers")
    layers = tuple(_layer(r) for r in raw)
    x, y = (_points(frame, need(doc, k, dict), 2 if k == "x" else None) for k in ("x", "y"))
    vx, vy = (_points(frame, need(doc, k, dict), 2 if k == "val_x" else None)
              for k in ("val_x", "val_y"))  # fmt: skip
    if len(y) != len(x) or len(vy) != len(vx) or not 1 <= y.shape[1] <= MAX_LABELS:
        raise ProtocolError("a fit's network has labels that do not match its points")
    lr = doc.get("learning_rate")
    if lr is not None and (isinstance(lr, bool) or not isinstance(lr, int | float)):
        raise ProtocolError("a fit's network has a bad learning rate")
    batch = need(doc, "batch_size", int)
    if not 1 <= batch <= 2**31:
        raise ProtocolError("a fit's network has a bad batch size")
    return FitNet("", layers, x, y, vx, vy, _text(need(doc, "loss", str), 60),
                  bool(need(doc, "from_logits", bool)), _text(need(doc, "optimizer", str), 40),
                  math.nan if lr is None else float(lr), batch)  # fmt: skip


def decode(doc: Any, frame: Any, n_tapes: int) -> dict[int, FitNet]:
    """The checked nets of a records document: tape → FitNet."""
    if "fit_nets" not in doc:
        return {}
    raw = need(doc, "fit_nets", list)
    if len(raw) > 1000:
        raise ProtocolError("too many fits' networks")
    out: dict[int, FitNet] = {}
    for d in raw:
        tape = need(d, "tape", int)
        if not 0 <= tape < n_tapes:
            raise ProtocolError("a fit's network on a missing tape")
        out[tape] = _net(d, frame)
    return out


def nets_of(recorders: Sequence[Any]) -> dict[int, FitNet]:
    """In-process: the nets on live tapes (a Keras fit's first tape, a torch loop's)."""
    from tapeviz.tf.keras_src.fit_net import FIT_NET

    out: dict[int, FitNet] = {}
    found = map(getattr, recorders, repeat(FIT_NET), repeat(None))  # (C-level: 100,000 in ms)
    for k, doc in enumerate(found):
        if isinstance(doc, Mapping):
            out[k] = live_net(doc)
    return out


def live_net(doc: Mapping[str, Any]) -> FitNet:
    """A description made in this process, as the window would receive it."""
    if "reason" in doc:
        return FitNet(str(doc["reason"]))
    layers = tuple(NetLayer(**layer) for layer in doc["layers"])
    arrays = [np.asarray(doc[k], np.float64) for k in ("x", "y", "val_x", "val_y")]
    lr = float(doc.get("learning_rate", math.nan))
    return FitNet("", layers, *arrays, str(doc["loss"]), bool(doc["from_logits"]),
                  str(doc["optimizer"]), lr, int(doc.get("batch_size", 32)))  # fmt: skip
