"""The Network view's state as JSON-safe data, and the check of such data read from a file.

``{"version": 1, "config": NetworkConfig.to_dict(), "initial": [[W, b], ...], "weights":
[[W, b], ...], "epoch": n}``: the settings, the first weights and the current ones as nested
lists of numbers (float32 values written as floats: exact), and the epoch reached. Reading
checks everything (shapes against the settings, finite numbers, sizes) and raises ValueError
saying what is wrong; nothing is half applied.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.models.network.config import NetworkConfig
from tapeviz.models.network.model import Weights

VERSION = 1


@dataclass(frozen=True)
class NetworkState:
    """Validated settings, first weights and current weights (float32), and the epoch."""

    config: NetworkConfig
    initial: Weights
    weights: Weights
    epoch: int = 0


def weights_to_lists(weights: Weights) -> list[list[Any]]:
    """``[[W as rows, b], ...]`` with Python floats."""
    return [[np.asarray(w, np.float64).tolist(), np.asarray(b, np.float64).tolist()]
            for w, b in weights]  # fmt: skip


def to_doc(state: NetworkState) -> dict[str, Any]:
    """The JSON-safe document of ``state``."""
    return {
        "version": VERSION,
        "config": state.config.to_dict(),
        "initial": weights_to_lists(state.initial),
        "weights": weights_to_lists(state.weights),
        "epoch": int(state.epoch),
    }


def _weights(doc: Any, sizes: tuple[int, ...], where: str) -> Weights:
    if not isinstance(doc, list) or len(doc) != len(sizes) - 1:
        raise ValueError(f"{where}: expected {len(sizes) - 1} layers of [kernel, bias]")
    out = []
    for layer, (pair, n_in, n_out) in enumerate(zip(doc, sizes[:-1], sizes[1:], strict=True)):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"{where}[{layer}]: expected [kernel, bias]")
        w, b = (_numbers(part, f"{where}[{layer}]") for part in pair)
        if w.shape != (n_in, n_out) or b.shape != (n_out,):
            raise ValueError(
                f"{where}[{layer}]: expected a {n_in}×{n_out} kernel and {n_out} biases, "
                f"got shapes {w.shape} and {b.shape}"
            )
        out.append((w, b))
    return tuple(out)


def _numbers(doc: Any, where: str) -> np.ndarray:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{where}: every weight must be a finite number, got {v!r:.20}")
        if abs(v) > 1e30:
            raise ValueError(f"{where}: a weight of {v:g} is too large")
        return float(v)

    if not isinstance(doc, list):
        raise ValueError(f"{where}: expected a list of numbers")
    rows = [[check(v) for v in _list(r, where)] if isinstance(r, list) else check(r) for r in doc]
    try:
        return np.asarray(rows, dtype=np.float32)
    except ValueError:  # ragged rows
        raise ValueError(f"{where}: the kernel's rows differ in length") from None


def _list(doc: Any, where: str) -> list[Any]:
    if not isinstance(doc, list):
        raise ValueError(f"{where}: expected a list")
    return doc


def from_doc(doc: Any) -> NetworkState:
    """Check ``doc`` (from a session file) and return its state; ValueError says what is wrong."""
    if not isinstance(doc, dict):
        raise ValueError("network: expected an object")
    unknown = set(doc) - {"version", "config", "initial", "weights", "epoch"}
    if unknown:
        raise ValueError(f"network: unknown field {', '.join(sorted(map(str, unknown)))}")
    if doc.get("version", VERSION) != VERSION:
        raise ValueError(f"network: version {doc.get('version')!r:.10} is not known here")
    config = NetworkConfig.from_dict(doc.get("config", {}))
    sizes = config.net.sizes
    initial = _weights(doc["initial"], sizes, "initial") if "initial" in doc else None
    weights = _weights(doc["weights"], sizes, "weights") if "weights" in doc else None
    if initial is None:
        from tapeviz.models.network.trainer import initial_weights

        initial = initial_weights(config.net)
    epoch = doc.get("epoch", 0)
    if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch < 0:
        raise ValueError(f"epoch: expected a whole number ≥ 0, got {epoch!r:.20}")
    return NetworkState(config, initial, weights if weights is not None else initial, epoch)


def same_weights(a: Weights, b: Weights) -> bool:
    """Whether two sets of weights are equal, bit for bit."""
    return all(
        np.array_equal(w1, w2) and np.array_equal(b1, b2)
        for (w1, b1), (w2, b2) in zip(a, b, strict=True)
    )


def shown_state(config: NetworkConfig, pending: Any, built: Any, frame: Any) -> NetworkState:
    """What the panel holds: the settings asked for (``pending``), else the network shown."""
    if pending is not None:
        return pending
    if built is None:  # not shown yet: the settings' own first weights
        from tapeviz.models.network.trainer import initial_weights

        first = initial_weights(config.net)
        return NetworkState(config, first, first, 0)
    run = frame.runs[0] if frame is not None and frame.runs else None
    weights = run.weights if run is not None else built.initial
    return NetworkState(config, built.initial, weights, run.epoch if run is not None else 0)
