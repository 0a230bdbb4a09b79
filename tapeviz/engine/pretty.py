"""Stable text rendering of recorded ops: the tape's "text view" and a golden-test format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tapeviz.engine.core import OpRecord, Recorder
from tapeviz.engine.tensor import TensorLike


def short_value(value: Any, digits: int = 4) -> str:
    """A compact value: scalars to ``digits`` significant digits, arrays as a short preview."""
    arr = np.asarray(value)
    if arr.ndim == 0:
        v = arr[()]
        if arr.dtype.kind == "b":
            return str(bool(v))
        if arr.dtype.kind in "iu":
            return str(int(v))
        return f"{float(v):.{digits}g}"
    flat = arr.reshape(-1)
    items = [short_value(x, digits) for x in flat[:4]]
    more = ", …" if flat.size > 4 else ""
    return f"[{', '.join(items)}{more}]"


def _type(t: TensorLike) -> str:
    shape = tuple(np.shape(t._value))
    dims = "×".join(str(d) for d in shape)
    return f"{t.dtype.name}[{dims}]" if shape else t.dtype.name


def _param_text(params: Mapping[str, Any]) -> str:
    parts = []
    for k, v in params.items():
        if k == "key":
            v = _key_text(v)
        elif hasattr(v, "name") and not isinstance(v, str):
            v = v.name
        parts.append(f"{k}={v}")
    return ", ".join(parts)


def _key_text(key: Any) -> str:
    parts = key if isinstance(key, tuple) else (key,)
    out = []
    for k in parts:
        if isinstance(k, slice):
            text = f"{'' if k.start is None else k.start}:{'' if k.stop is None else k.stop}"
            out.append(text if k.step is None else f"{text}:{k.step}")
        elif k is Ellipsis:
            out.append("...")
        elif k is None:
            out.append("newaxis")
        else:
            out.append(str(np.asarray(k).tolist()))
    return "[" + ", ".join(out) + "]"


class Namer:
    """Assigns stable labels to tensors in order of first appearance (``%0``, ``%1``, ``c0``)."""

    def __init__(self, records: Sequence[OpRecord], names: Mapping[int, str] | None = None) -> None:
        self.labels: dict[int, str] = {}
        given = dict(names or {})
        produced = {o.id for r in records for o in r.outputs}
        n_op = n_const = 0
        for rec in records:
            for x in rec.inputs:
                if x.id in self.labels:
                    continue
                if x.id in given:
                    self.labels[x.id] = given[x.id]
                elif x.id not in produced and x.name:
                    self.labels[x.id] = x.name.split(":")[0]
                elif x.id not in produced:
                    self.labels[x.id] = f"c{n_const}"
                    n_const += 1
            for o in rec.outputs:
                if o.id not in self.labels:
                    self.labels[o.id] = given.get(o.id, f"%{n_op}")
                    n_op += 1

    def __call__(self, t: TensorLike) -> str:
        """The label of ``t``."""
        return self.labels.get(t.id, "?")


def format_records(
    records: Sequence[OpRecord], names: Mapping[int, str] | None = None
) -> list[str]:
    """One line per record: ``%1: float32 = multiply(x, x)  # 9``."""
    label = Namer(records, names)
    lines = []
    for rec in records:
        args = ", ".join(label(x) for x in rec.inputs)
        params = _param_text(rec.params)
        call = f"{rec.name}({args}{', ' + params if params and args else params})"
        outs = ", ".join(f"{label(o)}: {_type(o)}" for o in rec.outputs)
        value = short_value(rec.outputs[0]._value)
        note = "" if rec.watched else "  (not watched)"
        lines.append(f"  {outs} = {call}  # {value}{note}")
    return lines


def format_tape(tape: Recorder, names: Mapping[int, str] | None = None) -> str:
    """The whole tape: a header with its settings, then one line per op."""
    persistent = getattr(tape, "persistent", False)
    watch = tape.watch_accessed_variables
    label = Namer(tape.records, names)
    watched = ", ".join(label(t) if t.id in label.labels else (t.name or "?").split(":")[0]
                        for t in tape._watched.values())  # fmt: skip
    n = len(tape.records)
    kind = getattr(tape, "kind", type(tape).__name__)  # a received tape names what was recorded
    head = (
        f"{kind}(persistent={persistent}, watch_accessed_variables={watch}): "
        f"{n} op{'s' if n != 1 else ''}; watching [{watched}]"
    )
    return "\n".join([head, *format_records(tape.records, names)])
