"""Presenter mode: one scale for every font and line width, light/dark themes, a clean layout."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QMenu, QToolTip, QWidget

from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.studio.studio import OptimizationStudio
from tapeviz.ui.theme import DARK, LIGHT, THEMES, Theme
from tapeviz.ui.window.editor import CodeEditor
from tapeviz.ui.window.preferences import settings

BASE_PROPERTY = "tapevizBasePointSize"
DOCK_WIDTH = 430  # px of the editor column at text scale 1
SCALES = (0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)  # Ctrl + twice: 150 % (the README)


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
        QPalette.ColorRole.Link: QColor("#7CC4FA"),  # 8.5:1 on the base
        QPalette.ColorRole.LinkVisited: QColor("#C9A8F0"),
        QPalette.ColorRole.Light: QColor("#555555"),  # frames and bevels (Fusion draws with them)
        QPalette.ColorRole.Midlight: QColor("#444444"),
        QPalette.ColorRole.Mid: QColor("#333333"),
        QPalette.ColorRole.Dark: QColor("#1A1A1A"),
        QPalette.ColorRole.Shadow: QColor("#101010"),
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


class Styled(Protocol):
    """A view that draws itself: it takes the theme and the presenter scale."""

    def set_theme(self, theme: Theme) -> None:
        """Light or dark colours."""

    def set_font_scale(self, scale: float) -> None:
        """Fonts and line widths × ``scale``."""


class PresenterController(QObject):
    """Presenter mode: one text scale for everything, the light or dark theme, clean mode, F11.

    It dresses ``window`` (every widget's font, the palette, full screen, the width of
    ``code_dock``), passes the scale and theme to the views that draw themselves (``graph``,
    ``studio``, ``editor`` and ``others``), hides ``docks`` in clean mode, keeps its choices in
    ``store()`` and reports to ``status``. Its actions go in the View menu with
    :meth:`add_actions`.
    """

    def __init__(
        self,
        window: QMainWindow,
        graph: GraphView,
        studio: OptimizationStudio,
        editor: CodeEditor,
        code_dock: QDockWidget,
        docks: Sequence[QDockWidget],
        status: Callable[[str], None],
        store: Callable[[], QSettings] = settings,
        others: Sequence[Styled] = (),
    ) -> None:
        super().__init__(window)
        self.window, self.graph, self.studio, self.editor = window, graph, studio, editor
        self.others = list(others)
        self.code_dock, self.docks = code_dock, list(docks)
        self.status, self.store = status, store
        self.font_scale = 1.0
        self._dock_width = 0  # the code dock's width before clean mode hid it
        self.theme: Theme = LIGHT
        self._themed = False  # set_theme has not dressed the application yet
        self.full_screen_action = self._new_action(self.tr("Full &screen"), "F11")
        self.full_screen_action.triggered.connect(self.toggle_full_screen)
        self.larger_action = self._new_action(self.tr("&Larger text"), "Ctrl++")
        self.larger_action.triggered.connect(lambda: self.zoom_text(+1))
        self.smaller_action = self._new_action(self.tr("&Smaller text"), "Ctrl+-")
        self.smaller_action.triggered.connect(lambda: self.zoom_text(-1))
        self.reset_action = self._new_action(self.tr("&Reset text size"), "Ctrl+0")
        self.reset_action.triggered.connect(lambda: self.set_font_scale(1.0))
        self.larger_alias = QShortcut(QKeySequence("Ctrl+="), window)
        self.larger_alias.activated.connect(lambda: self.zoom_text(+1))
        self.dark_action = self._new_action(self.tr("&Dark theme"), "Ctrl+Shift+D")
        self.dark_action.setCheckable(True)
        self.dark_action.triggered.connect(self._on_dark_action_triggered)
        self.clean_action = self._new_action(
            self.tr("&Clean mode (hide the editor)"), "Ctrl+Shift+H"
        )
        self.clean_action.setCheckable(True)
        self.clean_action.triggered.connect(self.set_clean)

    def _new_action(self, text: str, shortcut: str) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(shortcut))
        return action

    def add_actions(self, menu: QMenu) -> None:
        """Full screen, the text size, dark theme and clean mode, in the View menu's order."""
        menu.addAction(self.full_screen_action)
        menu.addSeparator()
        for action in (self.larger_action, self.smaller_action, self.reset_action,
                       self.dark_action, self.clean_action):  # fmt: skip
            menu.addAction(action)

    def set_font_scale(self, scale: float) -> None:
        """Scale every font and line width in the window (text, graph, stepper, console)."""
        scale = min(max(scale, SCALES[0]), SCALES[-1])
        previous, self.font_scale = self.font_scale, scale
        window = self.window
        scale_fonts(window, scale, previous)
        self.graph.set_font_scale(scale)
        self.studio.set_font_scale(scale)
        for view in self.others:
            view.set_font_scale(scale)
        width = min(round(DOCK_WIDTH * scale), round(window.width() * 0.4))  # text fits the docks
        window.resizeDocks([self.code_dock], [width], Qt.Orientation.Horizontal)
        self.editor.refresh_metrics()
        self.store().setValue("prefs/font_scale", scale)
        self.status(self.tr("Text size %1 %").replace("%1", f"{scale * 100:.0f}"))

    def zoom_text(self, direction: int) -> None:
        """One step larger (+1) or smaller (-1) on the presenter scale ladder."""
        steps = [s for s in SCALES if (s > self.font_scale + 1e-9 if direction > 0
                                       else s < self.font_scale - 1e-9)]  # fmt: skip
        if steps:
            self.set_font_scale(steps[0] if direction > 0 else steps[-1])

    def set_theme(self, theme: Theme) -> None:
        """Light or dark, for the whole window and every dialog and tooltip it opens.

        The palette is the application's, so dialogs (About, Help, Preferences, code export,
        file dialogs) get it too; in the dark theme the file dialogs are Qt's own, which
        follow the palette (a desktop's native dialog would stay light).
        """
        self.theme = theme
        self._dress(theme)
        self.graph.set_theme(theme)
        self.studio.set_theme(theme)
        self.editor.set_theme(theme)
        for view in self.others:
            view.set_theme(theme)
        self.dark_action.setChecked(theme.name == "dark")
        self.store().setValue("prefs/theme", theme.name)

    def _dress(self, theme: Theme) -> None:
        """The palette of the application, its tooltips and the window; which file dialogs."""
        self._themed = True
        pal = palette(theme)
        QApplication.setPalette(pal)
        QToolTip.setPalette(pal)
        QApplication.setAttribute(
            Qt.ApplicationAttribute.AA_DontUseNativeDialogs, theme.name == "dark"
        )
        self.window.setPalette(pal)

    def _on_dark_action_triggered(self, checked: bool) -> None:
        self.set_theme(DARK if checked else LIGHT)

    def set_clean(self, clean: bool) -> None:
        """Clean mode: only the graph and the tabs (the docks hide), or everything back."""
        if clean and self.code_dock.isVisible():
            self._dock_width = self.code_dock.width()  # given back when clean mode ends
        self.clean_action.setChecked(clean)
        for dock in self.docks:
            dock.setVisible(not clean)
        if not clean:  # once the panels have left their clean rows (the next turn)
            QTimer.singleShot(0, self, self._restore_dock_width)

    def _restore_dock_width(self) -> None:
        width = self._dock_width or round(DOCK_WIDTH * self.font_scale)
        width = min(width, round(self.window.width() * 0.4))
        if self.code_dock.isVisible():
            self.window.resizeDocks([self.code_dock], [width], Qt.Orientation.Horizontal)

    def toggle_full_screen(self) -> None:
        """F11: full screen for the projector, and back."""
        window = self.window
        window.setWindowState(window.windowState() ^ Qt.WindowState.WindowFullScreen)

    def restore_preferences(self) -> None:
        """Apply the saved theme and text size (at start, and when Preferences are accepted)."""
        store = self.store()
        theme = THEMES.get(str(store.value("prefs/theme", "light")), LIGHT)
        if theme is not self.theme:
            self.set_theme(theme)
        elif not self._themed:  # the application's palette may be another window's
            self._dress(theme)
        try:
            scale = float(store.value("prefs/font_scale", 1.0))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            scale = 1.0
        if abs(scale - self.font_scale) > 1e-9:
            self.set_font_scale(scale)
