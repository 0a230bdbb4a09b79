"""The optimization studio's models: problems, optimizer settings and races computed ahead.

Also the replay of a recorded loss, divergence, loss surfaces and the demo presets.
"""

from __future__ import annotations
