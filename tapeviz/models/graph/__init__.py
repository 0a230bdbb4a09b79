"""The graph of a run's tapes: nodes and edges with values and gradients, layouts, DOT export.

``model.GraphModel`` turns recorded ops into nodes (stable ids from recording order) and edges,
with the gradients of the engine's backward pass and display options; ``layout`` places them
left to right (ours, grandalf or graphviz ``dot``); ``dot`` writes DOT text. No Qt.
"""

from __future__ import annotations
