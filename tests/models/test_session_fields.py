"""A session the loader accepts is one every reader can use: checked at load, field by field."""

from __future__ import annotations

import importlib.util
import json
import re
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapeviz.models.descent.demos import from_session
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.session import file as sessions
from tapeviz.models.session.checks import GRAPH_KEYS
from tapeviz.models.session.file import DTYPES, Session, SessionError
from tapeviz.models.values import format_value, parse_value
from tapeviz.sandbox.process.isolated import variables_doc
from tapeviz.sandbox.process.wire import Writer
from tapeviz.sandbox.variables import make_tensor


def _docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "session_docs", Path(__file__).with_name("session_docs.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


docs = _docs()


def text(**changes: Any) -> str:
    """The valid document with ``changes``, as file text (NaN and Infinity as Python writes)."""
    return json.dumps({**docs.VALID, **changes})


def variable(value: Any, dtype: str = "float32") -> str:
    return text(variables=[{"name": "x", "value": value, "dtype": dtype}])


REFUSED = {
    "ragged": (variable([[1, 2], [3]]), "row 1 (x, float32): the value is not a rectangular"),
    "mixed-depth": (variable([1, [2]]), "not a rectangular array"),
    "int32-overflow": (variable(2**40, "int32"), "1099511627776 is outside the int32 range"),
    "int32-underflow": (variable([0, -(2**31) - 1], "int32"), "-2147483649 is outside the int32"),
    "int32-inf": (variable(float("inf"), "int32"), "inf is not a whole number, so it cannot be"),
    "int32-nan": (variable([1.0, float("nan")], "int32"), "nan is not a whole number"),
    "float32-overflow": (variable([[0.0], [1e39]], "float32"), "1e+39 is beyond the float32"),
    "too-long": (variable([0.5] * 30_000, "float64"), "longer than the variables table takes"),
    "surrogate-source": (text(source="x\ud800"), "source: holds text that is not valid Unicode"),
    "surrogate-notes": (text(notes="\udfff"), "notes: holds text"),
    "surrogate-optimizer": (text(optimizer={"steps": "\ud800"}), "optimizer: holds text"),
    "surrogate-key": (text(settings={"\ud800": 1}), "settings: holds text"),
    "huge-int-optimizer": (text(optimizer={"steps": 10**30}), "optimizer: integer out of range"),
    "huge-int-settings": (text(settings={"zoom": [-(10**30)]}), "settings: integer out of range"),
}


@pytest.mark.parametrize(("document", "message"), REFUSED.values(), ids=REFUSED.keys())
def test_values_the_readers_cannot_use_are_refused_at_load(document: str, message: str) -> None:
    with pytest.raises(SessionError, match=re.escape(message)):
        sessions.loads(document)


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        ([2**31 - 1, -(2**31)], "int32"),
        (3.4028234e38, "float32"),
        ([float("inf"), float("nan")], "float32"),  # a float may be inf or nan
        (1e300, "float64"),
        (2**63, "float64"),
        ([[1.0, 2.0], [3.0, 4.0]], "float32"),
        ([], "float32"),
        ([[]], "int32"),
    ],
)
def test_edge_values_that_convert_are_kept(value: Any, dtype: str) -> None:
    (spec,) = sessions.loads(variable(value, dtype)).variables
    assert json.dumps(spec.value) == json.dumps(value)  # (nan != nan: compare the text)


def test_graph_settings_keep_only_the_panes_own_keys() -> None:
    graph = {"layout": "dot", "self": True, "edge_labels": 3, "changes": {}}
    loaded = sessions.loads(text(settings={"graph": graph, "zoom": 2}))
    assert loaded.settings == {"graph": {"layout": "dot", "edge_labels": 3}, "zoom": 2}


def readers_accept(session: Session) -> None:
    """What the headless readers do with a session: none of it may fail."""
    session.dumps().encode("utf-8")  # every autosave
    sessions.loads(session.dumps())  # and the file it makes opens again
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a lossy conversion is a failure too
        with np.errstate(all="raise"):
            variables_doc(session.variables, Writer())  # the worker request (run, export)
            for spec in session.variables:
                make_tensor(spec)  # the engine's own conversion
                again = parse_value(format_value(spec.value))  # through the variables table
                np.asarray(again, dtype=spec.dtype)
            Problem(session.source, session.variables, session.mode).start()  # the studio
    graph = session.settings.get("graph")
    if isinstance(graph, dict):
        assert set(graph) <= set(GRAPH_KEYS)
    if session.optimizer is not None:
        try:  # the window falls back to the defaults, `tapeviz export` reports it: ValueError
            from_session(session)
            StudioConfig.from_dict(session.optimizer)
        except ValueError:
            pass


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(docs.documents())
def test_every_document_is_refused_or_usable(document: str) -> None:
    try:
        session = sessions.loads(document)
    except SessionError:
        return
    readers_accept(session)


@settings(max_examples=300, deadline=None, database=None)
@given(docs.values, st.sampled_from(DTYPES))
def test_every_variable_value_is_refused_or_usable(value: Any, dtype: str) -> None:
    try:
        session = sessions.loads(variable(value, dtype))
    except SessionError:
        return
    readers_accept(session)


def test_the_documents_reach_both_outcomes() -> None:
    """The strategy is not vacuous: it makes files that load and files that are refused."""
    outcomes: set[str] = set()

    @settings(max_examples=200, deadline=None, database=None)
    @given(docs.documents())
    def sample(document: str) -> None:
        try:
            sessions.loads(document)
            outcomes.add("loaded")
        except SessionError:
            outcomes.add("refused")

    sample()
    assert outcomes == {"loaded", "refused"}
