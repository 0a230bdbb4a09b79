"""The backward pass, step by step: the stepper's cursor and explanations, the gradient check."""

from __future__ import annotations
