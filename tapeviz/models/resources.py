"""Where the shipped data lives: ``assets/`` in a checkout, ``tapeviz/assets`` when installed."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve()


def assets_dir() -> Path:
    """The assets folder (presets, seeds, translations, screenshots)."""
    for candidate in (_HERE.parents[1] / "assets", _HERE.parents[2] / "assets"):
        if (candidate / "presets").is_dir():
            return candidate
    raise FileNotFoundError("tapeviz's assets folder is missing: reinstall tapeviz")
