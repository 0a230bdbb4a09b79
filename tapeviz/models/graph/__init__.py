"""The graph of a run's tapes: nodes and edges with values and gradients, layouts, DOT export."""

from __future__ import annotations
