"""pyqtgraph plots shared by the studio (and anything that plots per-step histories)."""

from __future__ import annotations
