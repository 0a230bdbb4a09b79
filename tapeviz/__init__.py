"""tapeviz: make automatic differentiation and optimization visible.

``import tapeviz as tv`` gives the engine: ``tv.constant``, ``tv.Variable``, ``tv.GradientTape``,
the ops (``tv.sin``, ``tv.matmul``, ...), ``tv.function`` and ``tv.optimizers``. No Qt is imported
here; the desktop app lives in ``tapeviz.ui``.
"""

from __future__ import annotations

from tapeviz.engine import *  # noqa: F403
from tapeviz.engine import __all__ as _engine_all

__version__ = "0.1.0"

__all__ = ["__version__", *_engine_all]
