"""The main window and its parts: editor, variables, sessions, presenter mode, dialogs, the tabs."""

from __future__ import annotations
