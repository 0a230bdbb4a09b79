"""The optimization studio's models: problems, settings and races computed ahead (no Qt).

``problem.Problem`` is a loss from an expression or a ``def loss():`` script over a variables
table; ``optimizer_config`` and ``studio_config`` are the validated, JSON-safe settings;
``runs.compute_race`` records every optimizer's history (eagerly, or by the trace ``replay``
with the engine's own rules); ``divergence`` says when and why a run diverged; ``backdrop`` and
``surface`` sample what the plots draw behind the paths; ``demos`` are the studio presets.
"""

from __future__ import annotations
