"""Presenter mode: one scale for every font and line width, light/dark themes, a clean layout."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from tapeviz.ui.theme import DARK, LIGHT, THEMES, Theme

BASE_PROPERTY = "tapevizBasePointSize"
DOCK_WIDTH = 430  # px of the editor column at text scale 1
SCALES = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5, 3.0)


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a hex colour."""
    c = QColor(colour)

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def palette(theme: Theme) -> QPalette:
    """A Qt palette matching the theme, for every widget of the window."""
    if theme.name == "light":
        return QApplication.style().standardPalette()
    pal = QPalette()
    base, window, text = QColor("#1E1E1E"), QColor("#2B2B2B"), QColor(theme.text)
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor("#262626"),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor("#353535"),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.ToolTipBase: QColor("#333333"),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.Highlight: QColor("#0072B2"),
        QPalette.ColorRole.HighlightedText: QColor("#FFFFFF"),
        QPalette.ColorRole.PlaceholderText: QColor(theme.muted),
        QPalette.ColorRole.BrightText: QColor("#FF7A45"),
    }
    for role, colour in roles.items():
        pal.setColor(role, colour)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.ButtonText):  # fmt: skip
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7A7A7A"))
    return pal


def scale_fonts(root: QWidget, scale: float, previous: float = 1.0) -> None:
    """Scale the font of ``root`` and every widget in it from its base size.

    A widget seen for the first time was created at the ``previous`` scale (it inherited its
    parent's scaled font), so its base size is its size divided by ``previous``.
    """
    widgets = [root, *root.findChildren(QWidget)]
    bases = []
    for widget in widgets:  # read every base first: setting a parent's font changes its children
        base = widget.property(BASE_PROPERTY)
        if base is None:
            size = widget.font().pointSizeF()
            base = size / previous if size > 0 else None
            widget.setProperty(BASE_PROPERTY, base)
        bases.append(base)
    for widget, base in zip(widgets, bases, strict=True):
        if base:
            f = widget.font()
            f.setPointSizeF(float(base) * scale)
            widget.setFont(f)


class PresenterMixin:
    """The main window's presenter mode (it provides graph, editor, docks and ``_settings``)."""

    font_scale: float
    theme: Theme

    def set_font_scale(self, scale: float) -> None:
        """Scale every font and line width in the window (text, graph, stepper, console)."""
        scale = min(max(scale, SCALES[0]), SCALES[-1])
        previous, self.font_scale = self.font_scale, scale
        scale_fonts(self, scale, previous)
        self.graph.set_font_scale(scale)
        self.studio.set_font_scale(scale)
        width = min(round(DOCK_WIDTH * scale), round(self.width() * 0.4))  # text fits the docks
        self.resizeDocks([self.code_dock], [width], Qt.Orientation.Horizontal)
        self.editor.refresh_metrics()
        self._settings().setValue("prefs/font_scale", scale)
        self.statusBar().showMessage(self.tr("Text size %1 %").replace("%1", f"{scale * 100:.0f}"))

    def zoom_text(self, direction: int) -> None:
        """One step larger (+1) or smaller (-1) on the presenter scale ladder."""
        steps = [s for s in SCALES if (s > self.font_scale + 1e-9 if direction > 0
                                       else s < self.font_scale - 1e-9)]  # fmt: skip
        if steps:
            self.set_font_scale(steps[0] if direction > 0 else steps[-1])

    def set_theme(self, theme: Theme) -> None:
        """Light or dark, for the whole window."""
        self.theme = theme
        self.setPalette(palette(theme))
        self.graph.set_theme(theme)
        self.studio.set_theme(theme)
        self.editor.set_theme(theme)
        self.dark_action.setChecked(theme.name == "dark")
        self._settings().setValue("prefs/theme", theme.name)

    def _on_dark_toggled(self, checked: bool) -> None:
        self.set_theme(DARK if checked else LIGHT)

    def _on_clean_toggled(self, checked: bool) -> None:
        for dock in (self.code_dock, self.variables_dock, self.console_dock, self.tapes_dock):
            dock.setVisible(not checked)

    def _restore_preferences(self) -> None:
        settings = self._settings()
        theme = THEMES.get(str(settings.value("prefs/theme", "light")), LIGHT)
        if theme is not self.theme:
            self.set_theme(theme)
        try:
            scale = float(settings.value("prefs/font_scale", 1.0))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            scale = 1.0
        if abs(scale - self.font_scale) > 1e-9:
            self.set_font_scale(scale)
