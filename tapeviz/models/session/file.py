"""Session files (``.tapeviz``) and presets: versioned JSON, validated before anything is used.

A session is data only: the editor text, its mode, the variables table, the optimizer settings
and view settings. Loading one never runs it; the app runs the text through the sandbox only
when the user (or a preset) asks. Files are untrusted: every field is type-checked, sizes are
bounded, and a newer schema version is refused with a clear message.

Every field the window or ``tapeviz export`` uses is checked here, so an accepted file can be
applied: variable values convert to their dtype (:mod:`~tapeviz.models.session.checks`), text
can be written back as UTF-8, numbers in the optimizer and view settings fit a float. What the
settings *mean* is checked by their readers, which ignore what they do not understand: the
graph pane skips unknown or mistyped options (keys other than ``checks.GRAPH_KEYS`` are dropped
here), and the studio falls back to its defaults with a warning when ``optimizer`` does not
validate (``tapeviz export`` reports it and stops); the Network view checks ``network``
(its settings and weights) the same way and keeps its last good state when it fails. Files
are read by :func:`~tapeviz.models.session.safe_io.read_regular` (no pipes or devices, a byte
cap) and written by :func:`~tapeviz.models.session.safe_io.atomic_write_text` (no planted
links).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tapeviz.models.session import checks, safe_io
from tapeviz.sandbox.variables import KINDS, VariableSpec

FORMAT = "tapeviz-session"
VERSION = 1
MODES = ("expression", "script")
VIEWS = ("graph", "stepper", "studio")
DTYPES = ("float32", "float64", "int32")
MAX_BYTES = 5_000_000  # a session is text and a few numbers; anything bigger is not ours
MAX_SOURCE = 200_000
MAX_ELEMENTS = 100_000  # per variable value
MAX_INT = 2**63  # whole numbers anywhere in a file: beyond this they would not fit a float


class SessionError(ValueError):
    """A session file that cannot be used, with a message for the status bar."""


@dataclass(frozen=True)
class Session:
    """Everything needed to restore the user's work (never code to run on load)."""

    source: str = ""
    mode: str = "expression"
    variables: tuple[VariableSpec, ...] = ()
    view: str = "graph"
    optimizer: dict[str, Any] | None = None  # the studio's own JSON-safe config
    network: dict[str, Any] | None = None  # the Network view's state (settings and weights)
    settings: dict[str, Any] = field(default_factory=dict)  # view settings (zoom, options)
    name: str = ""
    title: str = ""
    group: str = ""
    notes: str = ""

    def with_source(self, source: str) -> Session:
        """The same session with other editor text."""
        return replace(self, source=source)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document, ``format`` and ``version`` first."""
        doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        for key in ("name", "title", "group"):
            if getattr(self, key):
                doc[key] = getattr(self, key)
        doc["mode"] = self.mode
        doc["source"] = self.source
        doc["variables"] = [_variable_doc(v) for v in self.variables]
        doc["view"] = self.view
        if self.optimizer is not None:
            doc["optimizer"] = self.optimizer
        if self.network is not None:
            doc["network"] = self.network
        if self.settings:
            doc["settings"] = self.settings
        if self.notes:
            doc["notes"] = self.notes
        return doc

    def dumps(self) -> str:
        """The session as pretty JSON text (UTF-8, Chinese kept readable)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash while saving never leaves half a file, a link is replaced.

        OSError (naming ``path``) when the folder cannot be written; no temporary file is left.
        """
        safe_io.atomic_write_text(path, self.dumps())


def _variable_doc(spec: VariableSpec) -> dict[str, Any]:
    value = spec.value
    if hasattr(value, "tolist"):
        value = value.tolist()
    return {"name": spec.name, "value": value, "kind": spec.kind, "dtype": spec.dtype}


def _fail(where: str, message: str) -> SessionError:
    return SessionError(f"{where}: {message}")


def _text(doc: dict[str, Any], key: str, default: str, limit: int = 2_000) -> str:
    value = doc.get(key, default)
    if not isinstance(value, str):
        raise _fail(key, f"expected text, got {type(value).__name__}")
    if len(value) > limit:
        raise _fail(key, f"longer than {limit:,} characters")
    return _unicode(value, key)


def _unicode(value: str, where: str) -> str:
    try:
        return checks.unicode_text(value)
    except checks.FieldError as exc:
        raise _fail(where, str(exc)) from None


def _number_tree(value: Any, where: str, budget: list[int], depth: int = 0) -> Any:
    """Check a variable value: a finite-or-not number, or nested lists of numbers, bounded."""
    if depth > 8:
        raise _fail(where, "nested more than 8 levels")
    if isinstance(value, bool) or not isinstance(value, int | float | list):
        raise _fail(where, f"expected a number or a list of numbers, got {type(value).__name__}")
    if isinstance(value, list):
        budget[0] -= len(value)
        if budget[0] < 0:
            raise _fail(where, f"more than {MAX_ELEMENTS:,} numbers")
        return [_number_tree(v, where, budget, depth + 1) for v in value]
    if isinstance(value, int) and abs(value) > MAX_INT:
        raise _fail(where, "integer out of range")
    return value


def _variables(raw: Any) -> tuple[VariableSpec, ...]:
    if not isinstance(raw, list):
        raise _fail("variables", "expected a list")
    if len(raw) > 200:
        raise _fail("variables", "more than 200 rows")
    out: list[VariableSpec] = []
    for i, row in enumerate(raw, 1):
        where = f"variables row {i}"
        if not isinstance(row, dict):
            raise _fail(where, "expected an object with name, value and kind")
        name, kind = row.get("name"), row.get("kind", "trainable")
        dtype = row.get("dtype", "float32")
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("__"):
            raise _fail(where, f"{name!r} is not a valid variable name")
        if kind not in KINDS:
            raise _fail(where, f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if dtype not in DTYPES:
            raise _fail(where, f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        if "value" not in row:
            raise _fail(where, "has no value")
        value = _number_tree(row["value"], where, [MAX_ELEMENTS])
        try:
            checks.array_value(value, dtype)
        except checks.FieldError as exc:
            raise _fail(f"{where} ({name}, {dtype})", str(exc)) from None
        if any(v.name == name for v in out):
            raise _fail(where, f"the name {name!r} is used twice")
        out.append(VariableSpec(name, value, kind, dtype))
    return tuple(out)


def _json_only(value: Any, where: str, depth: int = 0) -> Any:
    """Plain JSON data (dicts with text keys, lists, text, numbers, bools, null), bounded."""
    if depth > 12:
        raise _fail(where, "nested too deeply")
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise _fail(where, "keys must be text")
        return {_unicode(k, where): _json_only(v, where, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_only(v, where, depth + 1) for v in value]
    if isinstance(value, str):
        return _unicode(value, where)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise _fail(where, "integer out of range")
    if value is None or isinstance(value, bool | int | float):
        return value
    raise _fail(where, f"unexpected {type(value).__name__}")


def _settings(settings: dict[str, Any]) -> dict[str, Any]:
    if "graph" in settings:
        return {**settings, "graph": checks.graph_settings(settings["graph"])}
    return settings


def from_dict(doc: Any) -> Session:
    """Validate a parsed JSON document; raise :class:`SessionError` saying what is wrong."""
    if not isinstance(doc, dict):
        raise SessionError("not a tapeviz session: the file is not a JSON object")
    if doc.get("format") != FORMAT:
        raise SessionError("not a tapeviz session: the 'format' field is missing or different")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _fail("version", f"expected a positive whole number, got {version!r}")
    if version > VERSION:
        raise SessionError(
            f"this session was saved by a newer tapeviz (file version {version}, this version "
            f"reads up to {VERSION}); update tapeviz to open it"
        )
    mode = _text(doc, "mode", "expression")
    if mode not in MODES:
        raise _fail("mode", f"must be one of {', '.join(MODES)}, got {mode!r}")
    view = _text(doc, "view", "graph")
    if view not in VIEWS:
        raise _fail("view", f"must be one of {', '.join(VIEWS)}, got {view!r}")
    optimizer = doc.get("optimizer")
    if optimizer is not None and not isinstance(optimizer, dict):
        raise _fail("optimizer", "expected an object")
    network = doc.get("network")
    if network is not None and not isinstance(network, dict):
        raise _fail("network", "expected an object")
    settings = doc.get("settings", {})
    if not isinstance(settings, dict):
        raise _fail("settings", "expected an object")
    return Session(
        source=_text(doc, "source", "", MAX_SOURCE),
        mode=mode,
        variables=_variables(doc.get("variables", [])),
        view=view,
        optimizer=None if optimizer is None else _json_only(optimizer, "optimizer"),
        network=None if network is None else _json_only(network, "network"),
        settings=_settings(_json_only(settings, "settings")),
        name=_text(doc, "name", ""),
        title=_text(doc, "title", ""),
        group=_text(doc, "group", ""),
        notes=_text(doc, "notes", "", 5_000),
    )


def loads(text: str) -> Session:
    """Parse and validate session text."""
    if len(text) > MAX_BYTES:
        raise SessionError(f"the file is larger than {MAX_BYTES // 1_000_000} MB")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SessionError(f"the file is not valid JSON ({exc})") from None
    return from_dict(doc)


def load(path: str | Path) -> Session:
    """Read and validate a session file; nothing in it is run.

    Only a regular file (or a link to one) is read, never more than MAX_BYTES of it: a folder,
    a named pipe, a socket or a device is refused at once with a SessionError.
    """
    path = Path(path)
    try:
        raw = safe_io.read_regular(path, MAX_BYTES)
    except safe_io.NotRegularFile as exc:
        raise SessionError(f"{path.name} is {exc.kind}, not a session file") from None
    except safe_io.FileTooLarge:
        raise SessionError(f"the file is larger than {MAX_BYTES // 1_000_000} MB") from None
    except OSError as exc:
        raise SessionError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SessionError(f"{path.name} is not UTF-8 text") from None
    return loads(text)
