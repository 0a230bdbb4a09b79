"""The Qt user interface: the only package that imports PySide6 and pyqtgraph."""

from __future__ import annotations

from typing import Any

__all__ = ["MainWindow"]


def __getattr__(name: str) -> Any:
    if name == "MainWindow":  # lazy: importing tapeviz.ui.theme should not build the window
        from tapeviz.ui.window.main_window import MainWindow

        return MainWindow
    raise AttributeError(name)
