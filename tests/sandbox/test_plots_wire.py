"""Figures cross the process boundary as checked data: round trips, hostile documents, fuzz."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import random
import struct

import numpy as np
import pytest

from tapeviz.sandbox import figures as F
from tapeviz.sandbox import run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.process.wire import ProtocolError

EVERY_KIND = """
import matplotlib.pyplot as plt
np.random.seed(0)
fig, axs = plt.subplots(2, 2, figsize=(8, 6))
axs[0, 0].plot([0, 1, 2], [1, float('nan'), 4], 'o--', label='line')
axs[0, 0].axhline(1.0, color='k', ls=':')
axs[0, 0].fill_between([0, 1, 2], [0, 1, 0], [1, 2, 1], alpha=0.3)
axs[0, 0].text(1, 1, 'note')
axs[0, 0].legend(loc='upper left')
axs[0, 0].set_xlim(0, 2)
axs[0, 1].scatter([1, 2, 3], [3, 1, 2], s=[10, 20, 30], c=[0.1, 0.5, 0.9], cmap='plasma')
axs[0, 1].scatter([1, 2], [1, 2], c=['red', 'blue'])
axs[1, 0].hist(np.arange(20.0), bins=4)
axs[1, 0].bar(['a', 'b'], [1, 2])
X, Y = np.meshgrid(np.linspace(-1, 1, 8), np.linspace(-1, 1, 5))
cs = axs[1, 1].contourf(X, Y, X * Y)
axs[1, 1].imshow(np.random.rand(3, 4, 3))
plt.colorbar(cs)
axs[1, 1].set_yscale('log')
fig.suptitle('all of it')
plt.savefig('all.png')
"""


def _frame_bytes(source: str = EVERY_KIND) -> bytes:
    result = run(source)
    assert result.error is None, result.error
    w = wire.Writer()
    doc = results.encode(result, w)
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    return buf.getvalue()


def _decode(data: bytes) -> tuple[F.Figure, ...]:
    return results_decode.decode(wire.read(io.BytesIO(data))).figures


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b, equal_nan=True)  # type: ignore[arg-type]
    if dataclasses.is_dataclass(a):
        return type(a) is type(b) and all(
            _same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    return a == b


def test_every_kind_of_series_round_trips() -> None:
    sent = run(EVERY_KIND).figures
    back = _decode(_frame_bytes())
    assert len(back) == 1 and _same(sent, back)
    kinds = [s.kind for ax in back[0].axes for s in ax.series]
    assert kinds == ["line", "refline", "fill", "text", "points", "points", "bars", "bars",
                     "contour", "image"]  # fmt: skip


def test_figures_come_back_from_the_worker() -> None:
    result = run_isolated("import matplotlib.pyplot as plt\nplt.plot([3.0, 1.0, 2.0])\nplt.show()")
    assert result.error is None
    np.testing.assert_array_equal(result.figures[0].axes[0].series[0].y, [3.0, 1.0, 2.0])
    empty = run_isolated("x = 1")
    assert empty.error is None and empty.figures == ()


def _doc_and_blobs() -> tuple[dict, list[bytes]]:
    frame = wire.read(io.BytesIO(_frame_bytes()))
    return frame.doc, frame.blobs


def _encode(doc: dict, blobs: list[bytes]) -> bytes:
    body = json.dumps(doc).encode()
    parts = [struct.pack("<II", len(body), len(blobs)), body]
    for b in blobs:
        parts += [struct.pack("<Q", len(b)), b]
    return b"".join(parts)


def _series(d: dict, axes: int, k: int) -> dict:
    return d["figures"][0]["axes"][axes]["series"][k]


def _int_blob(d: dict, b: list[bytes]) -> None:
    ref = _series(d, 0, 0)["x"]["$a"]
    b[ref[0]] = np.arange(3, dtype=np.int64).tobytes()
    ref[1] = "int64"


@pytest.mark.parametrize(
    "edit",
    [
        lambda d, b: _series(d, 0, 0).__setitem__("kind", "script"),
        lambda d, b: _series(d, 0, 0).__setitem__("onclick", "x"),
        lambda d, b: _series(d, 0, 0).pop("label"),
        lambda d, b: _series(d, 0, 0).__setitem__("color", "red; background: url(x)"),
        lambda d, b: _series(d, 0, 0).__setitem__("label", "x" * 10_000),
        lambda d, b: _series(d, 0, 0).__setitem__("style", "<b>"),
        lambda d, b: _series(d, 0, 0).__setitem__("width", "wide"),
        lambda d, b: _series(d, 0, 0).__setitem__("x", {"$a": [0, "float64", [10**9]]}),
        lambda d, b: _series(d, 0, 0)["y"]["$a"].__setitem__(2, [2]),
        lambda d, b: _int_blob(d, b),
        lambda d, b: _series(d, 3, 0).__setitem__("cmap", "../../etc"),
        lambda d, b: _series(d, 3, 1).__setitem__("extent", [0, 1]),
        lambda d, b: (
            _series(d, 1, 0).__setitem__("colors", None)
            or _series(d, 1, 1)["colors"]["$a"].__setitem__(2, [2, 3])
        ),
        lambda d, b: d["figures"][0]["axes"][0].__setitem__("colorbar_for", 99),
        lambda d, b: d["figures"][0]["axes"][0].__setitem__("row", 5),
        lambda d, b: d["figures"][0]["axes"][0].__setitem__("rowspan", 0),
        lambda d, b: d["figures"][0]["axes"][0].__setitem__("legend", "everywhere"),
        lambda d, b: d["figures"][0]["axes"][0].__setitem__("xscale", "exec"),
        lambda d, b: d["figures"][0]["axes"][0].__setitem__("xticks", [[0, "a", "b"]]),
        lambda d, b: d["figures"][0].__setitem__("rows", 10**6),
        lambda d, b: d["figures"][0].__setitem__("size", [1e9, 1]),
        lambda d, b: d["figures"][0]["axes"].extend(d["figures"][0]["axes"] * 20),
        lambda d, b: d["figures"].extend(d["figures"] * 60),
        lambda d, b: d.__setitem__("figures", {"a": 1}),
        lambda d, b: d.pop("figures"),
    ],
    ids=[
        "kind",
        "extra field",
        "missing field",
        "colour",
        "long label",
        "style",
        "width",
        "array shape",
        "length mismatch",
        "int dtype",
        "cmap",
        "extent",
        "rgba shape",
        "colorbar index",
        "row",
        "rowspan",
        "legend place",
        "scale",
        "ticks",
        "grid rows",
        "size",
        "axes count",
        "figure count",
        "figures type",
        "figures missing",
    ],
)
def test_hostile_figure_documents_are_refused(edit) -> None:  # type: ignore[no-untyped-def]
    doc, blobs = _doc_and_blobs()
    doc, blobs = copy.deepcopy(doc), list(blobs)
    edit(doc, blobs)
    with pytest.raises(ProtocolError):
        _decode(_encode(doc, blobs))


def _paths(doc: object, prefix: tuple = ()) -> list[tuple]:  # type: ignore[type-arg]
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):
            out += _paths(v, (*prefix, i))
    return out


def test_structured_mutations_of_figures_raise_only_protocol_errors() -> None:
    doc0, blobs = _doc_and_blobs()
    rng = random.Random(15)
    values = [None, True, -1, 0, 1, 2**31, 1e308, float("nan"), float("inf"), "", "x" * 600,
              "#00000000", "viridis", [], [1], [1, 2], {}, {"$a": [0, "float64", [1]]},
              {"$a": [999, "float64", []]}, {"kind": "line"}]  # fmt: skip
    paths = [p for p in _paths({"figures": doc0["figures"]}) if len(p) > 1]
    for _ in range(2000):
        doc = copy.deepcopy(doc0)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(paths)
            ref = doc
            try:
                for p in path[:-1]:
                    ref = ref[p]
                ref[path[-1]] = copy.deepcopy(rng.choice(values))
            except (KeyError, IndexError, TypeError):
                continue
        try:
            back = _decode(_encode(doc, blobs))
        except ProtocolError:
            continue
        for fig in back:  # what decodes is well formed
            for ax in fig.axes:
                assert 0 <= ax.row < fig.rows and ax.row + ax.rowspan <= fig.rows
                assert -1 <= ax.colorbar_for < len(ax.series)
