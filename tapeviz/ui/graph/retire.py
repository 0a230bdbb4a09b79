"""Deleting a scene the graph view no longer shows: its items by slices, then the scene.

Split from :mod:`~tapeviz.ui.graph.view_build`, which calls :func:`retire` when a new scene
replaces the shown one (and for a build cancelled before it was shown).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QGraphicsScene

from tapeviz.ui import workers
from tapeviz.ui.graph.scene import BUILD_SLICE_S, LAZY_TEXT
from tapeviz.ui.turns import after, later

RETIRE_WAIT_MS = 100  # an old scene's deletion waits this long for a build under way to end
WAIT_LIMIT_S = 5.0  # but no longer than this in all (a job may be a long run on its worker)


class _NoDeactivation(QObject):
    """Keeps a scene leaving the view from deactivating each of its items (50 ms at 21,000)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: swallow WindowDeactivate (the scene is about to be deleted)."""
        return event.type() == QEvent.Type.WindowDeactivate


_FILTERS: list[_NoDeactivation] = []  # made with the first scene replaced (Qt is running)


def no_deactivation() -> _NoDeactivation:
    """The one filter every scene leaving the view gets."""
    if not _FILTERS:
        _FILTERS.append(_NoDeactivation())
    return _FILTERS[0]


def retire(
    scene: QGraphicsScene,
    items: list[Any],
    busy: Callable[[], bool] = lambda: False,
    soft: Callable[[], bool] = lambda: False,
) -> None:
    """Delete a scene no longer shown: a big one's items by slices first, then the scene.

    At once, deleting a 3,000-op graph's 21,000 items took 60 ms, a 10,000-op one's ~200 ms.
    While ``busy()`` (a new graph is being built by slices) it waits: one slice per turn. It
    also waits while a pool job runs or ``soft()`` (other slices), WAIT_LIMIT_S in all (not
    counting the build's wait: a run started as the build ends is waited for): each deletion
    lets go of the GIL, and getting it back from a job decoding a big run took a switch
    interval (100 deletions, 100 ms).
    """
    if len(items) <= LAZY_TEXT:  # at once, on a turn of its own (an item's click may be why)
        later(partial(_delete_all, scene, items), scene)
        return
    waited = [0.0]  # seconds waited for jobs and other slices

    def held_up() -> bool:  # (a job started during a slice ends it too)
        return (workers.busy() or soft()) and waited[0] < WAIT_LIMIT_S

    def step() -> None:
        if busy() or held_up():
            waited[0] += 0.0 if busy() else RETIRE_WAIT_MS / 1000
            after(RETIRE_WAIT_MS, step, scene)
            return
        end = time.perf_counter() + BUILD_SLICE_S
        while items and time.perf_counter() < end and not held_up():
            for _ in range(min(100, len(items))):
                _delete(items.pop())
        if items:
            later(step, scene)
        else:
            scene.deleteLater()

    later(step, scene)


def _delete(item: Any) -> None:
    """Delete ``item``'s Qt object, then forget its Python attributes.

    Nodes and edges refer to each other (``NodeItem.edges``, ``EdgeItem.source``): kept, a
    retired graph's wrappers were freed only by a full collection, which the window runs at
    most once a minute (a 20,000-op graph's 540,000 objects: 400 MB held until then, and ~1 s
    of the UI thread when it came). Once the Qt object is gone nothing calls into them, and
    without their attributes they are freed as the last reference goes.
    """
    shiboken6.delete(item)
    item.__dict__.clear()


def _delete_all(scene: QGraphicsScene, items: list[Any]) -> None:
    for item in items:
        _delete(item)
    items.clear()
    scene.deleteLater()
