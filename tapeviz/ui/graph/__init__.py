"""The graph view: a GraphModel drawn as items in a scene, its menu, the live expression box."""

from __future__ import annotations
