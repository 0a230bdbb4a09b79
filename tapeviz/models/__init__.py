"""Headless app state (no Qt): what the window shows, as plain data and observable models.

Feature packages: :mod:`~tapeviz.models.graph` (a run's tapes as a graph, its layouts),
:mod:`~tapeviz.models.backward` (the stepper's cursor over the backward pass, the gradient
check), :mod:`~tapeviz.models.descent` (the studio's problems, settings and races),
:mod:`~tapeviz.models.session` (session files, autosave, presets) and
:mod:`~tapeviz.models.export` (code export). Shared below them: ``events`` (the observer),
``values`` (how values read), ``resources`` (the assets), ``derivatives`` (``tapeviz grad``).
Graph, backward and descent never import each other (an import-linter contract).
"""

from __future__ import annotations
