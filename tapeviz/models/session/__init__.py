"""The user's work on disk: session files, autosave and crash recovery, the preset registry."""

from __future__ import annotations
