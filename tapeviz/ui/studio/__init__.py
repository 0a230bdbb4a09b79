"""The optimization studio: its panel, background races, playback and exports."""

from __future__ import annotations
