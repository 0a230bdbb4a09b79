"""The optimization studio: playback of races over plots, computed in the background.

``studio.OptimizationStudio`` plays a race back (a cursor over recorded histories) and owns
``jobs.JobRunner`` (races and slices in the thread pool), ``optimizer_panel.OptimizerPanel``
(runs, hyper-parameters, playback) and the plots of :mod:`tapeviz.ui.plots`; ``export`` writes
GIF, MP4, PNG, SVG and CSV for any object with its ``Studio`` protocol; ``text`` holds the
status sentences. It never imports the graph, the stepper or the window.
"""

from __future__ import annotations
