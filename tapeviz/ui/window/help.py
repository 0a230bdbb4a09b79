"""Help: getting started, the keyboard shortcuts and the TensorFlow names, in one dialog.

The dialog is a child of the window, so it has the window's palette (the theme) and its
presenter scale; the pages are built when shown (the keys from the window's menus as they
are, the names from ``tapeviz.tf``). :class:`HelpController` puts its actions in the Help menu.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMainWindow,
    QMenu,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tapeviz.ui.window import help_pages

PAGES = ("start", "keys", "names")


class HelpDialog(QDialog):
    """Three pages in tabs: ``start``, ``keys`` and ``names`` (with a filter)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.setObjectName("helpDialog")
        self.setWindowTitle(self.tr("tapeviz Help"))
        self.setAttribute(Qt.WidgetAttribute.WA_WindowPropagation)  # the window's font, palette
        self.window_ = window
        self.tabs = QTabWidget(self)
        self.start = self._browser("helpStart")
        self.keys = self._browser("helpKeys")
        self.names = self._browser("helpNames")
        self.filter = QLineEdit(self)
        self.filter.setObjectName("helpNamesFilter")
        self.filter.setPlaceholderText(self.tr("Filter, e.g. reduce or keras"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._show_names)
        names_page = QWidget(self)
        box = QVBoxLayout(names_page)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.filter)
        box.addWidget(self.names, 1)
        self.tabs.addTab(self.start, self.tr("Getting started"))
        self.tabs.addTab(self.keys, self.tr("Keyboard shortcuts"))
        self.tabs.addTab(names_page, self.tr("TensorFlow names"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self._names = help_pages.catalog()[0]  # tf, np, math and matplotlib
        self.refresh()
        self.resize(720, 560)

    def _browser(self, name: str) -> QTextBrowser:
        browser = QTextBrowser(self)
        browser.setObjectName(name)
        browser.setOpenLinks(False)
        return browser

    def refresh(self) -> None:
        """Build the pages again (the menus' keys as they are now)."""
        self.start.setHtml(help_pages.getting_started_html())
        self.keys.setHtml(help_pages.shortcuts_html(self.window_.menuBar()))
        self._show_names()

    def _show_names(self) -> None:
        self.names.setHtml(help_pages.names_html(self._names, self.filter.text()))

    def show_page(self, page: str) -> None:
        """Show ``page`` (one of :data:`PAGES`) in front."""
        self.tabs.setCurrentIndex(PAGES.index(page))
        self.refresh()
        self.show()
        self.raise_()
        self.activateWindow()


class HelpController(QObject):
    """The Help menu's pages for ``window``: one dialog, opened on the page asked for."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: HelpDialog | None = None

    def add_actions(self, menu: QMenu) -> list[QAction]:
        """Getting started (F1), Keyboard shortcuts, TensorFlow names, in ``menu``."""
        actions = []
        entries = (
            ("start", self.tr("&Getting started"), "F1"),
            ("keys", self.tr("&Keyboard shortcuts"), "Ctrl+/"),
            ("names", self.tr("&Libraries in tapeviz"), None),
        )
        for page, text, key in entries:
            action = QAction(text, self)
            action.setObjectName(f"help:{page}")
            if key:
                action.setShortcut(QKeySequence(key))
            action.triggered.connect(lambda _=False, p=page: self.show(p))
            menu.addAction(action)
            actions.append(action)
        return actions

    def show(self, page: str = "start") -> HelpDialog:
        """Open (or bring forward) the Help dialog on ``page``."""
        if self.dialog is None:
            self.dialog = HelpDialog(self.window)
        self.dialog.show_page(page)
        return self.dialog
