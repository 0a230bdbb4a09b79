"""The user's work on disk: session files, autosave and crash recovery, the preset registry.

``file.Session`` is the work as data (text, mode, variables, view, optimizer and view settings),
saved as versioned JSON and validated on load; ``autosave`` keeps a copy and a running lock;
``presets.PRESETS`` holds the seed tutorials' blocks, the micrograd examples and the demos;
``checks`` holds the field checks that make a loaded session usable by every reader, and
``safe_io`` the atomic, link-proof writes and the capped, non-blocking reads. It imports no
model feature package (only :mod:`tapeviz.models.values`, the variables table's text form):
sessions hold the work, they do not compute it.
"""

from __future__ import annotations
