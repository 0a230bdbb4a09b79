"""Code export: a session as a runnable TensorFlow, PyTorch or JAX script, and its training loop."""

from __future__ import annotations
