"""A script's own training loop as a timeline: the run's tapes as steps you can scrub (no Qt).

:func:`~tapeviz.models.timeline.timeline.timelines_of` finds the loops in a run's tapes (runs of
tapes with the same structure; one timeline per loop) and computes the per-step series (the
loss, every parameter's value, the gradient norm) from the recorded values, vectorised over
the received columns. A Keras ``fit`` is one loop by the marks it leaves on its tapes, with its
epochs and History (:mod:`~tapeviz.models.timeline.fits`); parameters are named as the model
names them (:mod:`~tapeviz.models.timeline.names`).
:mod:`~tapeviz.models.timeline.divergence` says whether and where a loop
diverged and why, with the studio's explanation; :mod:`~tapeviz.models.timeline.output` links
printed lines to steps. Nothing here re-runs the script.
"""

from __future__ import annotations
