"""The process wall: user code runs in a worker process; the window gets plain data back."""

from __future__ import annotations
