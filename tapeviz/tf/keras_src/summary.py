"""``model.summary()``: Keras 3's table of layers, output shapes and parameter counts.

Keras draws it with ``rich`` at 76 columns when the output is not a terminal; the column
widths here are the ones rich ends up with (a 33/24/15 split for a sequence of layers).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["print_summary"]


def _ratio_reduce(total: int, widths: list[int]) -> list[int]:
    """The ``ratio_reduce`` of rich with equal ratios: take ``total`` columns off, evenly."""
    remaining, ratio, out = total, len(widths), []
    for w in widths:
        cut = min(w, round(remaining / ratio))
        out.append(w - cut)
        remaining -= cut
        ratio -= 1
    return out


def _widths(line_length: int, positions: list[float]) -> list[int]:
    widths, current = [], 0
    for pos in positions:
        w = int(pos * line_length) - current
        widths.append(w)
        current += w
    cells = [w + 2 for w in widths]  # rich adds one space of padding on each side
    excess = sum(cells) + len(cells) + 1 - line_length
    return _ratio_reduce(excess, cells) if excess > 0 else cells


def _cell_lines(text: str, width: int, align: str) -> list[str]:
    inner = width - 2
    lines = textwrap.wrap(text, inner, break_long_words=True, break_on_hyphens=False) or [""]
    return [" " + (ln.rjust(inner) if align == "right" else ln.ljust(inner)) + " " for ln in lines]


def _row(cells: list[str], widths: list[int], aligns: list[str], bar: str) -> list[str]:
    parts = [_cell_lines(c, w, a) for c, w, a in zip(cells, widths, aligns, strict=True)]
    height = max(len(p) for p in parts)
    out = []
    for i in range(height):
        segs = [p[i] if i < len(p) else " " * w for p, w in zip(parts, widths, strict=True)]
        out.append(bar + bar.join(segs) + bar)
    return out


def _shape_text(shape: Any) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _output_shape(layer: Any) -> str:
    nodes = layer.__dict__.get("_inbound_nodes") or []
    if nodes:
        outs = [t.shape for t in _leaves(nodes[-1].outputs)]
        return _shape_text(outs[0]) if len(outs) == 1 else str([_shape_text(s) for s in outs])
    if not layer.built or layer._build_shapes is None:
        return "?"
    try:
        shape = layer.compute_output_shape(layer._build_shapes)
    except Exception:  # a layer that cannot say: Keras prints "?" too
        return "?"
    if isinstance(shape, list) and shape and isinstance(shape[0], tuple):
        return str([_shape_text(s) for s in shape])
    return _shape_text(shape)


def _leaves(x: Any) -> list[Any]:
    if isinstance(x, list | tuple):
        return [leaf for v in x for leaf in _leaves(v)]
    if isinstance(x, dict):
        return [leaf for v in x.values() for leaf in _leaves(v)]
    return [x]


def _count(weights: list[Any]) -> int:
    return int(sum(int(np.prod(w.shape, dtype=np.int64)) for w in weights))


def _bytes(weights: list[Any]) -> int:
    seen = {id(w): w for w in weights}.values()
    return int(sum(int(np.prod(w.shape, dtype=np.int64)) * w.dtype.np.itemsize for w in seen))


def readable_size(size: float) -> str:
    """Keras' memory size text: ``1.25 KB``."""
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def print_summary(
    model: Any, line_length: int | None = None, positions: Any = None,
    print_fn: Callable[[str], Any] | None = None, show_trainable: bool = False,
) -> None:  # fmt: skip
    """Print ``model.summary()``."""
    from tapeviz.tf.keras_src.progbar import print_line

    layers = model.layers
    connected = hasattr(model, "_nodes") and _branching(model)
    if connected:
        length, pos = 108, [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        aligns = ["left", "left", "right", "left"]
    else:
        length, pos = 88, [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        aligns = ["left", "left", "right"]
    line_length = line_length or min(length, 76)  # a non-terminal is 80 columns: rich uses 76
    widths = _widths(line_length, list(positions or pos))
    out = [f'Model: "{model.name}"']
    out.append("┏" + "┳".join("━" * w for w in widths) + "┓")
    out += _row(header, widths, aligns, "┃")
    out.append("┡" + "╇".join("━" * w for w in widths) + "┩")
    for i, layer in enumerate(layers):
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        cells = [f"{layer.name} ({type(layer).__name__})", _output_shape(layer), params]
        if connected:
            cells.append(_connections(layer))
        out += _row(cells, widths, aligns, "│")
        if i < len(layers) - 1:
            out.append("├" + "┼".join("─" * w for w in widths) + "┤")
    out.append("└" + "┴".join("─" * w for w in widths) + "┘")
    trainable, frozen = model.trainable_weights, model.non_trainable_weights
    opt = getattr(model, "optimizer", None)
    opt_vars = opt.variables if opt is not None and getattr(opt, "built", False) else []
    total = _count(trainable) + _count(frozen) + _count(opt_vars)
    size = _bytes(trainable) + _bytes(frozen) + _bytes(opt_vars)
    out.append(f" Total params: {total:,} ({readable_size(size)})")
    out.append(f" Trainable params: {_count(trainable):,} ({readable_size(_bytes(trainable))})")
    out.append(f" Non-trainable params: {_count(frozen):,} ({readable_size(_bytes(frozen))})")
    if opt_vars:
        out.append(f" Optimizer params: {_count(opt_vars):,} ({readable_size(_bytes(opt_vars))})")
    for line in out:
        (print_fn or print_line)(line)


def _branching(model: Any) -> bool:
    """Whether a functional model is more than a chain (then Keras adds "Connected to")."""
    for node in model._nodes:
        if len(node.parents) > 1:
            return True
    users: dict[int, int] = {}
    for node in model._nodes:
        for p in node.parents:
            users[id(p)] = users.get(id(p), 0) + 1
    return any(n > 1 for n in users.values()) or len(model._graph_inputs) > 1


def _connections(layer: Any) -> str:
    nodes = layer.__dict__.get("_inbound_nodes") or []
    names = []
    for node in nodes[-1:]:
        for t in node.parents:
            names.append(f"{t._node.layer.name}[0][0]")
    return ", ".join(names) or "-"
