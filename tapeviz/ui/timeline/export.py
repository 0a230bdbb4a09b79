"""The timeline's exports, with the shared exporters: GIF, MP4, PNG, SVG, and the series as CSV."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from tapeviz.models.timeline.timeline import Timeline, write_csv
from tapeviz.ui.plots import export as plots
from tapeviz.ui.theme import Theme

translate = QCoreApplication.translate


class Panel(plots.Player, Protocol):
    """What an export needs of the timeline panel (which this module never imports)."""

    timeline: Timeline | None
    plot_area: QWidget
    theme: Theme

    @property
    def length(self) -> int:
        """The last step."""

    def finish_drawing(self) -> None:
        """Draw the plots' parts still waiting for their turn."""


def export(panel: Panel, kind: str, path: str | Path | None = None, **options: Any) -> Any:
    """Ask for a file name if none is given, then export (see ``TimelinePanel.export``)."""
    if kind not in plots.FILTERS:
        raise ValueError(f"unknown export {kind!r}: choose one of {', '.join(plots.FILTERS)}")
    if panel.timeline is None:
        return None
    if path is None:
        chosen, _ = QFileDialog.getSaveFileName(
            panel, translate("OptimizationStudio", "Export"), f"loop.{kind}", plots.FILTERS[kind]
        )
        if not chosen:
            return None
        path = chosen
    try:
        out = write(panel, kind, Path(path), **options)
    except (OSError, ValueError) as exc:
        panel.show_status(
            translate("OptimizationStudio", "Export failed: {error}").format(error=exc)
        )
        return None
    if isinstance(out, Path):
        panel.show_status(translate("OptimizationStudio", "Exported {name}.").format(name=out.name))
    return out


def write(panel: Panel, kind: str, path: Path, **options: Any) -> Any:
    """Write ``path`` (OSError if it cannot be written); an animation returns its exporter."""
    assert panel.timeline is not None
    if kind == "csv":
        return write_csv(panel.timeline, path)
    panel.finish_drawing()  # (a big loop's plots are drawn a part per turn)
    if kind in ("png", "svg"):
        return plots.write_still(kind, panel.plot_area, path, panel.theme.background,
                                 "tapeviz loop")  # fmt: skip
    exporter = plots.AnimationExport(panel, panel.plot_area, panel.length, path, kind, **options)
    exporter.start()
    return exporter
