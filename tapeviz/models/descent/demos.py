"""The optimization studio's demos: presets in ``assets/presets/`` whose view is ``studio``.

A preset is a session document (:mod:`tapeviz.models.session.file`) whose ``optimizer`` field holds
:meth:`StudioConfig.to_dict` data. :func:`studio_presets` reads and validates them all;
nothing in a preset runs until the studio computes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.resources import assets_dir
from tapeviz.models.session import file as sessions
from tapeviz.models.session.file import Session


@dataclass(frozen=True)
class StudioPreset:
    """A studio demo: the problem, the studio's settings and the lecturer's notes."""

    name: str
    title: str
    group: str
    notes: str
    problem: Problem
    config: StudioConfig


def from_session(doc: Session) -> StudioPreset:
    """The studio's view of a validated session (ValueError if its settings are bad)."""
    if doc.optimizer is None:
        raise ValueError(f"{doc.name or 'session'}: has no optimizer settings for the studio")
    problem = Problem(doc.source, doc.variables, doc.mode)
    config = StudioConfig.from_dict(doc.optimizer)
    return StudioPreset(doc.name, doc.title, doc.group, doc.notes, problem, config)


def load(path: str | Path) -> StudioPreset:
    """Read, validate and convert one preset file."""
    return from_session(sessions.load(path))


def studio_presets(folder: str | Path | None = None) -> dict[str, StudioPreset]:
    """Every studio preset by name (sorted by file name)."""
    folder = Path(folder) if folder is not None else assets_dir() / "presets"
    out = {}
    for path in sorted(folder.glob("*.json")):
        doc = sessions.load(path)
        if doc.view == "studio":
            out[doc.name] = from_session(doc)
    return out
