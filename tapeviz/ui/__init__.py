"""The Qt user interface: the only package that imports PySide6 and pyqtgraph.

Feature packages: :mod:`~tapeviz.ui.window` (the main window and its parts),
:mod:`~tapeviz.ui.graph` (the graph view and its pane), :mod:`~tapeviz.ui.stepper` (the
Backward pass tab), :mod:`~tapeviz.ui.studio` (the optimization studio) and
:mod:`~tapeviz.ui.plots` (the studio's pyqtgraph plots). Graph, stepper and studio never
import the window, and the studio never imports the graph or the stepper: the window links
them. Shared: ``theme``, ``i18n``, ``workers`` (the thread pool), ``elided_combo``; entry
points ``app`` (the GUI), ``headless`` (``tapeviz export``) and ``screenshots``.
"""

from __future__ import annotations

from typing import Any

from tapeviz.ui.pyside_imports import quicken_feature_check

quicken_feature_check()  # before the window's ~200 imports

__all__ = ["MainWindow"]


def __getattr__(name: str) -> Any:
    if name == "MainWindow":  # lazy: importing tapeviz.ui.theme should not build the window
        from tapeviz.ui.window.main_window import MainWindow

        return MainWindow
    raise AttributeError(name)
