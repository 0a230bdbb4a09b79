"""Test-wide setup: Qt must run offscreen on machines without a display."""

from __future__ import annotations

import os

# Set before anything imports Qt; without it a headless run aborts (exit 134, no message).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
