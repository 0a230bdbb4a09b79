"""The timeline of a script's own training loop: scrubber, playback, per-step plots, exports.

It knows the timeline models and the shared plot widgets only (never the graph, the stepper,
the studio or the window): the window gives it a run's timelines and shows the tapes it
announces (``TimelinePanel.stepTapes``) in the graph.
"""

from __future__ import annotations
