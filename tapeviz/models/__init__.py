"""Headless app state (no Qt): graph, stepper, optimizer runs, sessions, presets."""

from __future__ import annotations
