"""Settings seed-fixing code sets: ``torch.backends.cudnn.deterministic = True`` and kin.

There is no GPU in tapeviz, so they change nothing, but courses set them before training
(``torch.backends.cudnn.benchmark = False``, ``torch.use_deterministic_algorithms(True)``):
they are accepted, read back, and start from torch's defaults in every run.
"""

from __future__ import annotations

import threading

from tapeviz.tf import run_state

__all__ = ["CUDNN", "are_deterministic_algorithms_enabled", "use_deterministic_algorithms"]


class CudnnFlags(threading.local):
    """``torch.backends.cudnn``: its flags (settable) and ``is_available()`` (False)."""

    enabled = True
    benchmark = False
    deterministic = False
    allow_tf32 = True

    def is_available(self) -> bool:
        """Whether cuDNN can be used (never in tapeviz)."""
        return False

    def version(self) -> None:
        """The cuDNN version (None: not there)."""
        return None

    def __repr__(self) -> str:
        return "<module 'torch.backends.cudnn'>"


CUDNN = CudnnFlags()
_DEFAULTS = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}
run_state.register_attributes(__name__ + ".cudnn", CUDNN, lambda: dict(_DEFAULTS))


class _Deterministic(threading.local):
    on = False


_DETERMINISTIC = _Deterministic()
run_state.register_attributes(__name__ + ".deterministic", _DETERMINISTIC, lambda: {"on": False})


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Ask for deterministic algorithms (tapeviz's are: numpy on one CPU)."""
    _DETERMINISTIC.on = bool(mode)


def are_deterministic_algorithms_enabled() -> bool:
    """Whether ``use_deterministic_algorithms(True)`` was called in this run."""
    return _DETERMINISTIC.on
