"""The desktop app: the only package that imports PySide6 and pyqtgraph."""

from __future__ import annotations
