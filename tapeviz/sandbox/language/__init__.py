"""The language wall: parse user text, check it against the allow-list, compile it to closures.

Nothing here runs user code; :mod:`tapeviz.sandbox.runner` runs what these modules compiled.
"""

from __future__ import annotations
