"""The Plots tab: the figures a script drew with matplotlib.pyplot, drawn with pyqtgraph.

:class:`~tapeviz.ui.figures.panel.PlotsPanel` shows one panel per figure of a run
(:mod:`tapeviz.sandbox.figures` data); :class:`~tapeviz.ui.figures.canvas.FigureCanvas` lays a
figure's axes out as matplotlib does and draws their series (:mod:`series`). It knows no other
feature package of the ui.
"""

from __future__ import annotations
