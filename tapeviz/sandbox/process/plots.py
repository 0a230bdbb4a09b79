"""A run's figures across the process boundary: JSON fields plus float64 arrays, all checked.

Every field of every series is read against :data:`FIELDS` (its kind of value), every array's
dtype, rank and length against its neighbours', every count against the limits of
:mod:`tapeviz.sandbox.figures`. A malformed figure is a :class:`ProtocolError`, never a crash
and never anything but data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.sandbox import figures as F
from tapeviz.sandbox.process.wire import Frame, ProtocolError, Writer, need

MAX_TICKS = 10_000  # tick marks of one axis
_ARRAY_RANKS = {"array1": (1,), "array12": (1, 2), "image": (2, 3), "rgba": (2,)}
# Field -> the kind of value it holds, per series kind (every field of every dataclass).
FIELDS: dict[str, dict[str, str]] = {
    "line": {"x": "array1", "y": "array1", "color": "color", "label": "text", "width": "float",
             "style": "style", "marker": "marker", "marker_size": "float"},
    "points": {"x": "array1", "y": "array1", "color": "color", "label": "text",
               "sizes": "array1?", "values": "array1?", "colors": "rgba?", "cmap": "cmap",
               "marker": "marker", "vmin": "float?", "vmax": "float?"},
    "bars": {"x": "array1", "height": "array1", "width": "array1", "base": "array1",
             "color": "color", "label": "text", "horizontal": "bool", "edge": "color"},
    "image": {"values": "image", "extent": "extent", "cmap": "cmap", "vmin": "float?",
              "vmax": "float?", "origin": "origin", "label": "text"},
    "contour": {"x": "array1", "y": "array1", "z": "array12", "levels": "array1",
                "filled": "bool", "cmap": "cmap", "color": "color?", "width": "float",
                "labels": "bool", "label": "text"},
    "fill": {"x": "array1", "y1": "array1", "y2": "array1", "color": "color", "label": "text"},
    "refline": {"value": "float", "vertical": "bool", "color": "color", "label": "text",
                "width": "float", "style": "style"},
    "text": {"x": "float", "y": "float", "text": "text", "color": "color", "size": "float"},
}  # fmt: skip
# Arrays of one series that must have the same length.
_SAME_LENGTH = {"line": ("x", "y"), "points": ("x", "y", "sizes", "values", "colors"),
                "bars": ("x", "height", "width", "base"), "fill": ("x", "y1", "y2")}  # fmt: skip


# -- worker side --------------------------------------------------------------------------
def _value(v: Any, writer: Writer) -> Any:
    if isinstance(v, np.ndarray):
        return writer.array(np.ascontiguousarray(v, dtype=np.float64))
    if isinstance(v, tuple):
        return [_value(x, writer) for x in v]
    return v  # numbers (nan and inf travel as JSON allows them), strings, booleans, None


def _series_doc(s: F.Series, writer: Writer) -> dict[str, Any]:
    doc = {"kind": s.kind}
    for f in dataclasses.fields(s):  # type: ignore[arg-type]
        doc[f.name] = _value(getattr(s, f.name), writer)
    return doc


def encode(figures: tuple[F.Figure, ...], writer: Writer) -> list[dict[str, Any]]:
    """The figures as JSON documents (arrays in ``writer``)."""
    out = []
    for fig in figures[: F.MAX_FIGURES]:
        axes = []
        for ax in fig.axes:
            doc = {f.name: _value(getattr(ax, f.name), writer) for f in dataclasses.fields(ax)
                   if f.name != "series"}  # fmt: skip
            doc["series"] = [_series_doc(s, writer) for s in ax.series]
            axes.append(doc)
        out.append({"number": fig.number, "rows": fig.rows, "cols": fig.cols,
                    "title": fig.title, "size": list(fig.size), "saved": list(fig.saved),
                    "axes": axes})  # fmt: skip
    return out


# -- window side --------------------------------------------------------------------------
class _Count:
    def __init__(self) -> None:
        self.points = 0

    def add(self, n: int) -> None:
        self.points += n
        if self.points > F.MAX_POINTS:
            raise ProtocolError("the figures hold more numbers than the limit")


def _float(v: Any) -> float:
    if type(v) is int or type(v) is float:
        return float(v)
    raise ProtocolError("a figure field is not a number")


def _int(doc: Any, key: str, lo: int, hi: int) -> int:
    v = need(doc, key, int)
    if not lo <= v <= hi:
        raise ProtocolError(f"a figure's {key} is out of range")
    return v


def _choice(options: tuple[str, ...]) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if not isinstance(v, str) or v not in options:
            raise ProtocolError("a figure field has an unknown value")
        return v

    return check


def _color(v: Any) -> str:
    if not isinstance(v, str) or not F.COLOR.fullmatch(v):
        raise ProtocolError("a bad colour in a figure")
    return v


def _cmap(v: Any) -> str:
    if not isinstance(v, str) or F.colormap_name(v) != v:
        raise ProtocolError("an unknown colormap in a figure")
    return v


def _short(v: Any) -> str:
    if not isinstance(v, str) or len(v) > F.MAX_TEXT:
        raise ProtocolError("a bad text in a figure")
    return v


def _extent(v: Any) -> tuple[float, float, float, float]:
    if not isinstance(v, list) or len(v) != 4:
        raise ProtocolError("a bad image extent")
    return tuple(_float(x) for x in v)  # type: ignore[return-value]


_SIMPLE: dict[str, Callable[[Any], Any]] = {
    "float": _float,
    "bool": lambda v: v if type(v) is bool else _fail("a figure flag is not a boolean"),
    "text": _short,
    "color": _color,
    "style": _choice(F.LINE_STYLES),
    "marker": _choice(F.MARKERS),
    "cmap": _cmap,
    "origin": _choice(("upper", "lower")),
    "extent": _extent,
}


def _fail(message: str) -> Any:
    raise ProtocolError(message)


def _array(v: Any, kind: str, frame: Frame, count: _Count) -> np.ndarray:
    arr = frame.array(v, "float64")
    if arr.ndim not in _ARRAY_RANKS[kind]:
        raise ProtocolError("a figure array has the wrong rank")
    if kind in ("image", "array12") and max(arr.shape[:2]) > F.MAX_GRID:
        raise ProtocolError("a figure grid is too large")
    if kind == "image" and arr.ndim == 3 and arr.shape[2] not in (3, 4):
        raise ProtocolError("an image's colours are not RGB or RGBA")
    if kind == "rgba" and arr.shape[1] != 4:
        raise ProtocolError("per-point colours are not RGBA")
    count.add(int(arr.size))
    return arr


def _series(doc: Any, frame: Frame, count: _Count) -> F.Series:
    kind = need(doc, "kind", str)
    spec = FIELDS.get(kind)
    if spec is None or len(doc) != len(spec) + 1:
        raise ProtocolError("a figure series of an unknown kind or with unknown fields")
    values: dict[str, Any] = {}
    for name, what in spec.items():
        if name not in doc:
            raise ProtocolError(f"a figure series without its {name}")
        v = doc[name]
        optional = what.endswith("?")
        what = what.rstrip("?")
        if v is None and optional:
            values[name] = None
        elif what == "color" and optional and v == "":
            values[name] = ""
        elif what in _ARRAY_RANKS:
            values[name] = _array(v, what, frame, count)
        else:
            values[name] = _SIMPLE[what](v)
    lengths = {len(values[k]) for k in _SAME_LENGTH.get(kind, ()) if values.get(k) is not None}
    if len(lengths) > 1:
        raise ProtocolError("a figure series' arrays differ in length")
    if kind == "contour" and values["z"].shape != (len(values["y"]), len(values["x"])):
        raise ProtocolError("a contour's grid does not match its axes")
    return F.KINDS[kind](**values)


def _ticks(v: Any) -> Any:
    if v is None:
        return None
    if not isinstance(v, list):
        raise ProtocolError("bad figure ticks")
    if len(v) > MAX_TICKS:
        raise ProtocolError(
            f"{len(v):,} ticks on one axis (the window shows at most {MAX_TICKS:,})"
        )
    out = []
    for t in v:
        if not (isinstance(t, list) and len(t) == 2):
            raise ProtocolError("bad figure ticks")
        out.append((_float(t[0]), _short(t[1])))
    return tuple(out)


def _limits(v: Any) -> Any:
    if v is None:
        return None
    if not isinstance(v, list) or len(v) != 2:
        raise ProtocolError("bad axes limits")
    return (_float(v[0]), _float(v[1]))


def _axes(doc: Any, rows: int, cols: int, frame: Frame, count: _Count) -> F.Axes:
    row, col = _int(doc, "row", 0, rows - 1), _int(doc, "col", 0, cols - 1)
    rowspan = _int(doc, "rowspan", 1, rows - row)
    colspan = _int(doc, "colspan", 1, cols - col)
    series_docs = need(doc, "series", list)
    if len(series_docs) > F.MAX_SERIES:
        raise ProtocolError("an axes with too many series")
    series = tuple(_series(s, frame, count) for s in series_docs)
    legend = need(doc, "legend", (str, type(None)))
    if legend is not None:
        _choice(F.LEGEND_PLACES)(legend)
    return F.Axes(
        row, col, rowspan, colspan,
        title=_short(need(doc, "title", str)), xlabel=_short(need(doc, "xlabel", str)),
        ylabel=_short(need(doc, "ylabel", str)), xlim=_limits(doc.get("xlim")),
        ylim=_limits(doc.get("ylim")), xscale=_choice(F.SCALES)(doc.get("xscale")),
        yscale=_choice(F.SCALES)(doc.get("yscale")), grid=need(doc, "grid", bool),
        legend=legend, equal=need(doc, "equal", bool), frame=need(doc, "frame", bool),
        colorbar=_short(need(doc, "colorbar", str)),
        colorbar_for=_int(doc, "colorbar_for", -1, len(series) - 1),
        xticks=_ticks(doc.get("xticks")), yticks=_ticks(doc.get("yticks")), series=series,
    )  # fmt: skip


def decode(docs: Any, frame: Frame) -> tuple[F.Figure, ...]:
    """Figures from their documents, every field and array checked."""
    if not isinstance(docs, list) or len(docs) > F.MAX_FIGURES:
        raise ProtocolError("bad figures")
    count = _Count()
    out = []
    for doc in docs:
        rows, cols = _int(doc, "rows", 1, 120), _int(doc, "cols", 1, 120)
        size = need(doc, "size", list)
        if len(size) != 2 or not all(0 < _float(v) <= 100 for v in size):
            raise ProtocolError("a bad figure size")
        saved = need(doc, "saved", list)
        if len(saved) > 100:
            raise ProtocolError("a figure saved too often")
        axes_docs = need(doc, "axes", list)
        if len(axes_docs) > F.MAX_AXES:
            raise ProtocolError("a figure with too many axes")
        out.append(F.Figure(
            _int(doc, "number", 0, 2**31), rows, cols, _short(need(doc, "title", str)),
            (_float(size[0]), _float(size[1])),
            tuple(_axes(a, rows, cols, frame, count) for a in axes_docs),
            tuple(_short(s) for s in saved),
        ))  # fmt: skip
    return F.Drawn(tuple(out))  # (its key made here, off the UI thread)


__all__ = ["decode", "encode"]
