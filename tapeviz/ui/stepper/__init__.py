"""The backward-pass tab: the stepper panel and the gradient check."""

from __future__ import annotations
