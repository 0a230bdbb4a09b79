"""Hypothesis strategies for session documents: a valid one with fields mutated at random.

Shared by tests/models/test_session_fields.py (the headless readers) and
tests/ui/test_session_open.py (the window), which import it by file path (tests are not a
package).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.session.checks import GRAPH_KEYS
from tapeviz.models.session.file import DTYPES, MODES, VIEWS

_TRICKY_TEXT = ["", "\ud800", "a\udfffb", "二次", "self", "x" * 300]
texts = st.integers(0, 9).flatmap(
    lambda i: st.text(max_size=8) if i else st.sampled_from(_TRICKY_TEXT)
)
_EDGES = [2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**40, 2**63, 2**64, -(2**63) - 1,
          3.4028234e38, 3.5e38, -1e39, 1e300, 1e-50, 0.5, -0.0]  # fmt: skip
numbers = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-5, 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(_EDGES),
)
leaves = st.one_of(st.none(), st.booleans(), numbers, texts)


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` nine times in ten, else ``bad``: most fields of a mutated file stay plausible."""
    return st.integers(0, 9).flatmap(lambda i: good if i else bad)


json_values = st.recursive(
    leaves,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(texts, kids, max_size=4)),
    max_leaves=12,
)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
rectangular = st.one_of(
    hnp.arrays(np.float64, shapes, elements=st.floats(allow_nan=True, allow_infinity=True)),
    hnp.arrays(np.float64, shapes, elements=st.sampled_from(_EDGES)),
    hnp.arrays(np.int64, shapes, elements=st.integers(-(2**40), 2**40)),
    hnp.arrays(np.int64, shapes, elements=st.integers(-1000, 1000)),
).map(lambda a: a.tolist())
ragged = st.recursive(numbers, lambda kids: st.lists(kids, max_size=3), max_leaves=8)
values = mostly(st.one_of(numbers, rectangular, ragged), json_values)


@st.composite
def rows(draw: st.DrawFn) -> Any:
    """A variables-table row, each field right, wrong or missing."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    bad_name = st.one_of(st.sampled_from(["__x", "1a", "", "x y"]), json_values)
    row = {
        "name": draw(mostly(st.sampled_from(["x", "y", "w", "b", "c"]), bad_name)),
        "value": draw(values),
        "kind": draw(mostly(st.sampled_from(["trainable", "constant", "watched"]), leaves)),
        "dtype": draw(mostly(st.sampled_from(DTYPES), leaves)),
    }
    drop = draw(mostly(st.just(set()), st.sets(st.sampled_from(sorted(row)), max_size=2)))
    return {k: v for k, v in row.items() if k not in drop}


@st.composite
def optimizers(draw: st.DrawFn) -> Any:
    """Studio settings: the defaults with fields replaced by odd values, or anything at all."""
    if draw(st.booleans()):
        return draw(json_values)
    doc = StudioConfig().to_dict()
    run = dict(doc["runs"][0])
    run["optimizer"] = draw(st.one_of(st.sampled_from(["SGD", "Adam", "RMSprop"]), leaves))
    run["hyperparameters"] = draw(
        st.one_of(st.dictionaries(st.sampled_from(["learning_rate", "beta_1"]), numbers), leaves)
    )
    doc["runs"] = [run]
    for key in draw(st.sets(st.sampled_from(sorted(doc)), max_size=3)):
        doc[key] = draw(st.one_of(numbers, json_values, st.lists(numbers, max_size=3)))
    return doc


@st.composite
def settings(draw: st.DrawFn) -> Any:
    """View settings: graph options with good, odd and clashing keys, or anything at all."""
    if draw(st.integers(0, 4)) == 0:
        return draw(json_values)
    keys = st.sampled_from([*GRAPH_KEYS, "self", "changes", "zoom"])
    graph = draw(st.one_of(st.dictionaries(keys, leaves, max_size=6), leaves))
    return {"graph": graph, **draw(st.dictionaries(texts, json_values, max_size=2))}


VALID = {
    "format": "tapeviz-session",
    "version": 1,
    "name": "mine",
    "mode": "expression",
    "source": "a*x**2 + b",
    "variables": [{"name": "x", "value": 1.0, "kind": "trainable", "dtype": "float32"}],
    "view": "graph",
    "optimizer": StudioConfig().to_dict(),
    "settings": {"graph": {"layout": "layered", "fold_constants": True}},
    "notes": "说明",
}
FIELDS = {
    "version": mostly(st.just(1), leaves),
    "mode": mostly(st.sampled_from(MODES), leaves),
    "view": mostly(st.sampled_from(VIEWS), leaves),
    "source": mostly(st.sampled_from(["x*y", "x + 1"]), st.one_of(texts, leaves)),
    "variables": mostly(st.lists(rows(), max_size=4, unique_by=lambda r: str(r)), json_values),
    "optimizer": optimizers(),
    "settings": settings(),
    "name": texts,
    "title": mostly(texts, leaves),
    "group": texts,
    "notes": mostly(texts, leaves),
}
# The fields the readers interpret are mutated more often than the plain text ones.
MUTATED = sorted(FIELDS) + ["variables"] * 6 + ["optimizer"] * 3 + ["settings"] * 3


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Session file text: the valid document with some fields replaced or removed."""
    doc = json.loads(json.dumps(VALID))
    for key in draw(st.sets(st.sampled_from(MUTATED), min_size=1, max_size=3)):
        if draw(st.integers(0, 15)) == 0:
            doc.pop(key, None)
        else:
            doc[key] = draw(FIELDS[key])
    return json.dumps(doc)
