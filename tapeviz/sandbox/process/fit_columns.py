"""A Keras ``fit``'s marks and the models' variable names, as columns: both sides of the wire.

The worker sends, per tape, the :class:`~tapeviz.tf.keras_src.fit_marks.FitMark` that ``fit``
left on it (four integers, -1 where none) and each epoch's logs as flat columns; and the names
the script's models give their variables (:func:`~tapeviz.tf.keras_src.naming.variable_names`).
The window checks every length, index and name before keeping them on the received tapes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from tapeviz.sandbox.process import fit_nets
from tapeviz.sandbox.process.fit_nets import FitNet
from tapeviz.sandbox.process.wire import ProtocolError, Writer, items, need
from tapeviz.sandbox.result import TapeInfo

MARK_WIDTH = 4  # fit, epoch, step, part
_TAPE = attrgetter("tape")
MAX_LOGS = 100  # log entries of one epoch accepted (fit keeps as many)
MAX_NAMES = 10_000  # variable names accepted (tapeviz.tf names as many)
# (tapeviz.tf is imported where a run's tapes are read, never by the window: it starts light)


class FitColumns(NamedTuple):
    """Every tape's fit mark (rows of fit, epoch, step, part; -1 where none) and epoch logs."""

    marks: np.ndarray  # (tapes, 4) int64
    logs: dict[int, dict[str, float]]  # tape -> the logs of the epoch it ended
    nets: dict[int, FitNet] | None = None  # a fit's (or torch loop's) first tape -> its network


def fit_columns_of(tapes: Sequence[TapeInfo]) -> FitColumns | None:
    """The marks ``fit`` left on in-process tapes (None: no tape has one)."""
    from tapeviz.tf.keras_src.fit_marks import FIT_LOGS, FIT_MARK

    recorders = list(map(_TAPE, tapes))  # (C-level maps: ~5 ms for 100,000 tapes)
    found = list(map(getattr, recorders, repeat(FIT_MARK), repeat(None)))
    nets = fit_nets.nets_of(recorders)
    if not any(found) and not nets:  # (a FitMark is a non-empty tuple)
        return None
    marks = np.full((len(found), MARK_WIDTH), -1, np.int64)
    for k, m in enumerate(found):
        if m is not None:
            marks[k] = tuple(m)[:MARK_WIDTH]
    logs = {}
    for k, tape in enumerate(recorders):
        given = getattr(tape, FIT_LOGS, None) if found[k] is not None else None
        if isinstance(given, Mapping):
            logs[k] = {str(n)[:100]: float(v) for n, v in list(given.items())[:MAX_LOGS]}
    return FitColumns(marks, logs, nets)


def encode(tapes: Sequence[TapeInfo], writer: Writer) -> dict[str, Any]:
    """The fit columns of the records document (nothing when no tape was recorded by ``fit``)."""
    cols = fit_columns_of(tapes)
    if cols is None:
        return {}
    names: dict[str, int] = {}
    tape, count, key, value = [], [], [], []
    for t, logs in sorted(cols.logs.items()):
        tape.append(t)
        count.append(len(logs))
        key += [names.setdefault(n, len(names)) for n in logs]
        value += list(logs.values())
    return {
        "fit_mark": writer.ints(cols.marks.reshape(-1)),
        "fit_log_tape": writer.ints(tape),
        "fit_log_count": writer.ints(count),
        "fit_log_key": writer.ints(key),
        "fit_log_names": list(names),
        "fit_log_value": writer.array(np.array(value, np.float64)),
        **fit_nets.encode(cols.nets or {}, writer),
    }


def _name(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= 200 else None


def decode(doc: Any, frame: Any, n_tapes: int) -> FitColumns | None:
    """The checked fit columns of a records document (None: the run made no ``fit``)."""
    if "fit_mark" not in doc:
        return None
    marks = frame.ints(need(doc, "fit_mark", dict))
    if len(marks) != MARK_WIDTH * n_tapes or (len(marks) and marks.min() < -1):
        raise ProtocolError("the tapes' fit marks are out of range")
    marks = marks.reshape(n_tapes, MARK_WIDTH)
    if np.any((marks < 0).any(axis=1) & (marks >= 0).any(axis=1)):
        raise ProtocolError("a tape's fit mark is incomplete")
    tape = frame.ints(need(doc, "fit_log_tape", dict))
    count = frame.ints(need(doc, "fit_log_count", dict))
    key = frame.ints(need(doc, "fit_log_key", dict))
    names = items(doc, "fit_log_names", _name, 100_000)
    value = frame.array(need(doc, "fit_log_value", dict), "float64", 1)
    if len(count) != len(tape) or int(count.sum()) != len(key) or len(key) != len(value):
        raise ProtocolError("the epochs' logs do not add up")
    if len(tape) and (tape.min() < 0 or tape.max() >= n_tapes or np.any(np.diff(tape) <= 0)):
        raise ProtocolError("epoch logs of a missing tape")
    bad_count = len(count) and (count.min() < 0 or count.max() > MAX_LOGS)
    if bad_count or any(n is None for n in names):
        raise ProtocolError("bad epoch logs")
    if len(key) and (key.min() < 0 or key.max() >= len(names)):
        raise ProtocolError("an epoch log of an unknown name")
    if len(tape) and np.any(marks[tape, 0] < 0):
        raise ProtocolError("epoch logs on a tape fit did not record")
    logs: dict[int, dict[str, float]] = {}
    starts = np.concatenate([[0], np.cumsum(count)]).tolist()
    keys, values = key.tolist(), value.tolist()
    for t, a, b in zip(tape.tolist(), starts[:-1], starts[1:], strict=True):
        logs[t] = {names[keys[i]]: values[i] for i in range(a, b)}
    nets = fit_nets.decode(doc, frame, n_tapes)
    if any(marks[t, 0] < 0 and not all(layer.transposed for layer in n.layers)
           for t, n in nets.items()):  # fmt: skip
        raise ProtocolError("a fit's network on a tape fit did not record")
    return FitColumns(np.array(marks), logs, nets)


def encode_names(namespace: Mapping[str, Any], writer: Writer) -> dict[str, Any]:
    """The names the script's models give their variables (nothing when there are none)."""
    from tapeviz.tf.keras_src.naming import variable_names

    names = variable_names(namespace)
    if not names:
        return {}
    return {"variable_ids": writer.ints(list(names)), "variable_names": list(names.values())}


def decode_names(doc: Any, frame: Any) -> dict[int, str]:
    """The checked variable names of a records document: tensor id → name."""
    if "variable_ids" not in doc:
        return {}
    ids = frame.ints(need(doc, "variable_ids", dict))
    names = items(doc, "variable_names", _name, MAX_NAMES)
    if len(ids) != len(names) or any(n is None for n in names):
        raise ProtocolError("bad variable names")
    return dict(zip(ids.tolist(), names, strict=True))
