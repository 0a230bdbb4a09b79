"""The studio's exports: the animation (GIF, MP4), the plots (PNG, SVG), the histories (CSV).

The rendering and the animation writer are the shared ones of :mod:`tapeviz.ui.plots.export`
(the timeline of a script's loop uses them too); this module says what the studio exports: its
race's steps, its plot area, its histories.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtWidgets import QFileDialog, QWidget

from tapeviz.models.descent.runs import Race, write_csv
from tapeviz.ui.plots.export import (
    FILTERS,
    FPS,
    GIF_WIDTH,
    MAX_FRAMES,
    AnimationExport,
    frame_steps,
    render_image,
    render_svg,
    write_still,
)
from tapeviz.ui.studio.optimizer_panel import translate
from tapeviz.ui.theme import Theme

__all__ = [
    "FILTERS", "FPS", "GIF_WIDTH", "MAX_FRAMES", "AnimationExport", "Studio", "export",
    "frame_steps", "render_image", "render_svg",
]  # fmt: skip


class Studio(Protocol):
    """What an export needs of the studio: the race and its cursor, the plots, the status line.

    :class:`~tapeviz.ui.studio.studio.OptimizationStudio` is one; this module never imports it.
    It is a QObject: an animation's exporter is its child.
    """

    race: Race | None
    k: int
    plot_area: QWidget
    theme: Theme
    busyChanged: Any  # Signal(bool): an animation keeps the studio busy while it renders

    def pause(self) -> None:
        """Stop the playback."""

    def show_step(self, k: int) -> None:
        """Draw step ``k`` (no tape signal)."""

    def set_step(self, k: int) -> None:
        """Move the cursor to step ``k``."""

    def show_status(self, text: str) -> None:
        """Show ``text`` in the studio's status line."""


def export(studio: Studio, kind: str, path: str | Path | None = None, **options: Any) -> Any:
    """Ask for a file name if none is given, then export; returns the path or the exporter.

    Animations take ``frames`` (how many) and ``width`` (pixels) options.
    """
    if kind not in FILTERS:
        raise ValueError(f"unknown export {kind!r}: choose one of {', '.join(FILTERS)}")
    if studio.race is None:
        studio.show_status(
            translate(
                "OptimizationStudio", "Nothing to export yet: the runs are still being computed."
            )
        )
        return None
    if path is None:
        chosen, _ = QFileDialog.getSaveFileName(
            studio, translate("OptimizationStudio", "Export"), f"descent.{kind}", FILTERS[kind]
        )
        if not chosen:
            return None
        path = chosen
    path = Path(path)
    if kind == "csv":
        write_csv(studio.race, path)
    elif kind in ("png", "svg"):
        write_still(kind, studio.plot_area, path, studio.theme.background,
                    "tapeviz optimization studio")  # fmt: skip
    else:
        exporter = AnimationExport(studio, studio.plot_area, studio.race.length, path, kind,
                                   **options)  # fmt: skip
        exporter.start()
        return exporter
    studio.show_status(translate("OptimizationStudio", "Exported {name}.").format(name=path.name))
    return path
