"""The user's work on disk: session files, autosave and crash recovery, the preset registry.

``file.Session`` is the work as data (text, mode, variables, view, optimizer and view settings),
saved as versioned JSON and validated on load; ``autosave`` keeps a copy and a running lock;
``presets.PRESETS`` holds the seed tutorials' blocks, the micrograd examples and the demos. It
imports no other model package: sessions hold the work, they do not compute it.
"""

from __future__ import annotations
