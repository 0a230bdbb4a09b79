"""The Network tab: TensorFlow Playground's view of a small dense network, on our own tape.

``panel.NetworkPanel`` is the tab; it owns ``trainer_thread.TrainingThread`` (the trainers of
:mod:`tapeviz.models.network`, trained off the UI thread, posting ``frames``), the top bar
(``controls``), the DATA column (``data_controls``), the network ``diagram`` (neurons as heat
maps, links by weight) and the OUTPUT column (``output_panel``: the decision boundary of each
run, the loss curves). It never imports the graph, the stepper, the studio's panels or the
timeline: the window links it to the graph pane through ``NetworkPanel.stepTape``.
"""

from __future__ import annotations
