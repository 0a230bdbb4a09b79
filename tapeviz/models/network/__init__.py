"""The Network view's models: TensorFlow Playground's demo on our own tape (no Qt).

``config`` holds the validated, JSON-safe settings; ``datasets`` generates Playground's data;
``trainer`` trains a small dense network step by step, each step recorded on an engine tape;
``curvature`` estimates λmax of the loss Hessian; ``export`` writes Keras and PyTorch scripts
that train to the same numbers.
"""

from __future__ import annotations
