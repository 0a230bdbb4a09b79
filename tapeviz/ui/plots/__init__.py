"""pyqtgraph plots for per-step histories: what the studio draws on.

``step_plots.StepPlots`` (loss, parameters, ‖∇f‖ with a moving cursor), ``surface_plot``
(the loss surface with paths, or the curve with tangents), and their helpers: ``paths``
(decimated, clipped polylines), ``axis`` and ``title``. It imports no feature package of the ui.
"""

from __future__ import annotations
