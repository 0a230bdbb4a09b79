"""Session files: round trip, and untrusted files refused with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapeviz.models.session import file as sessions
from tapeviz.models.session.file import Session, SessionError
from tapeviz.sandbox import VariableSpec

SESSION = Session(
    source="a*x**2 + b*x + c  # 二次函数",
    mode="expression",
    variables=(
        VariableSpec("x", 0.0),
        VariableSpec("a", 1.0, "watched"),
        VariableSpec("w", [[1.0, 2.0], [3.0, 4.0]], "trainable", "float64"),
        VariableSpec("c", 1.0, "constant"),
    ),
    view="studio",
    optimizer={"runs": [{"optimizer": "SGD", "learning_rate": 0.01}], "steps": 200},
    settings={"fold_constants": True},
    name="mine",
    notes="说明",
)


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    path = tmp_path / "work.tapeviz"
    SESSION.save(path)
    assert "二次函数" in path.read_text("utf-8")  # Chinese stays readable in the file
    assert sessions.load(path) == SESSION
    assert list(json.loads(path.read_text("utf-8")))[:2] == ["format", "version"]


def doc(**changes: object) -> str:
    d = SESSION.to_dict()
    d.update(changes)
    return json.dumps(d)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"format": "other"}', "not a tapeviz session"),
        (doc(version=2), "newer tapeviz"),
        (doc(version="1"), "version"),
        (doc(mode="shell"), "mode"),
        (doc(view="web"), "view"),
        (doc(source=42), "source: expected text"),
        (doc(variables={"x": 1}), "variables: expected a list"),
        (doc(variables=[{"name": "__class__", "value": 1}]), "not a valid variable name"),
        (doc(variables=[{"name": "x", "value": "import os"}]), "expected a number"),
        (doc(variables=[{"name": "x", "value": 1, "kind": "secret"}]), "kind must be"),
        (doc(variables=[{"name": "x", "value": 1}, {"name": "x", "value": 2}]), "used twice"),
        (doc(variables=[{"name": "x"}]), "has no value"),
        (doc(variables=[{"name": "x", "value": [0.0] * 200_000}]), "more than 100,000"),
        (doc(optimizer=[1, 2]), "optimizer: expected an object"),
        ("[" * 100_000 + "]" * 100_000, "not"),
    ],
)
def test_bad_files_are_refused_with_a_message(text: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        sessions.loads(text)


def test_unreadable_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="cannot read"):
        sessions.load(tmp_path / "missing.tapeviz")
    bad = tmp_path / "latin1.tapeviz"
    bad.write_bytes('{"format": "tapeviz-session", "source": "é"}'.encode("latin-1"))
    with pytest.raises(SessionError, match="not UTF-8"):
        sessions.load(bad)


def test_loading_never_runs_the_source(tmp_path: Path) -> None:
    path = tmp_path / "trap.tapeviz"
    marker = tmp_path / "ran"
    Session(source=f"open({str(marker)!r}, 'w')", mode="script").save(path)
    assert sessions.load(path).source.startswith("open(")
    assert not marker.exists()


def test_the_network_views_state_round_trips_and_must_be_an_object() -> None:
    from tapeviz.models.network.config import NetworkConfig
    from tapeviz.models.session.file import Session, SessionError, from_dict, loads

    state = {"config": NetworkConfig().to_dict(), "weights": [[[0.5, -0.25]], [0.1]]}
    s = Session(source="", network=state)
    back = loads(s.dumps())
    assert back.network == state and back == s
    doc = s.to_dict()
    doc["network"] = [1, 2]
    with pytest.raises(SessionError, match="network"):
        from_dict(doc)
    doc["network"] = {"w": {"deep": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}}
    with pytest.raises(SessionError, match="network"):
        from_dict(doc)
