"""The graph pane: the graph view of a model, its Graph menu, its view settings and exports.

The options are part of a session's view settings (``Session.settings["graph"]``), so a saved
lesson reopens with the graph drawn the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMenuBar, QWidget

from tapeviz.models.graph import layout
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.view import GraphView

ENGINES = {
    "layered": QT_TRANSLATE_NOOP("GraphMenu", "Layered (fast)"),
    "grandalf": QT_TRANSLATE_NOOP("GraphMenu", "Sugiyama (grandalf, slow on big tapes)"),
    "dot": QT_TRANSLATE_NOOP("GraphMenu", "Graphviz dot"),
}
EXPORTS = {
    "png": QT_TRANSLATE_NOOP("GraphMenu", "PNG image (*.png)"),
    "svg": QT_TRANSLATE_NOOP("GraphMenu", "SVG drawing (*.svg)"),
    "dot": QT_TRANSLATE_NOOP("GraphMenu", "Graphviz DOT (*.dot)"),
}
translate = QCoreApplication.translate  # lupdate reads translate("GraphMenu", "…")


class GraphPane(QObject):
    """Owns the :class:`GraphView` of ``model``, the Graph menu's actions and the view settings.

    Its messages go to ``status`` (the window's status line); its file dialogs open over
    ``parent``. :meth:`add_menu` puts the Graph menu on a menu bar.
    """

    def __init__(self, model: GraphModel, status: Callable[[str], None], parent: QWidget) -> None:
        super().__init__(parent)
        self.model, self.status, self.dialog_parent = model, status, parent
        self.view = GraphView(model)
        self.fit_action = self._new_action(translate("GraphMenu", "&Fit graph"), "Ctrl+Shift+F")
        self.fit_action.triggered.connect(self.view.fit_readable)
        self.whole_action = self._new_action(
            translate("GraphMenu", "Show the &whole graph"), "Ctrl+Shift+W"
        )
        self.whole_action.triggered.connect(self.view.fit_all)
        labels = {
            "png": translate("GraphMenu", "as &PNG…"),
            "svg": translate("GraphMenu", "as &SVG…"),
            "dot": translate("GraphMenu", "as &DOT (graphviz)…"),
        }
        self.graph_export_actions: list[QAction] = []
        for kind, label in labels.items():
            action = self._new_action(label)
            action.triggered.connect(lambda _=False, k=kind: self.export_graph(k))
            action.setObjectName(f"graphExport:{kind}")
            self.graph_export_actions.append(action)
        self.layout_group = QActionGroup(self)
        self.layout_actions: dict[str, QAction] = {}
        for key, label in ENGINES.items():
            action = self._new_action(translate("GraphMenu", label))
            action.setCheckable(True)
            action.setObjectName(f"graphLayout:{key}")
            action.setChecked(key == self.view.engine)
            if key == "dot" and not layout.dot_available():
                action.setEnabled(False)
                action.setToolTip(translate("GraphMenu", "Install graphviz to use dot."))
            action.triggered.connect(lambda _=False, k=key: self.set_graph_settings(layout=k))
            self.layout_group.addAction(action)
            self.layout_actions[key] = action
        self.option_actions: dict[str, QAction] = {}
        for key, label, shortcut in (
            ("fold_constants", translate("GraphMenu", "Fold &constants into the ops"), None),
            ("hide_unreached", translate("GraphMenu", "&Hide ops no source reaches"), None),
            ("fold_layers", translate("GraphMenu", "Fold the network by &layer"), None),
            (
                "edge_labels",
                translate("GraphMenu", "Show local &derivatives on the edges"),
                "Ctrl+Shift+L",
            ),
            ("tape_groups", translate("GraphMenu", "Frame nested &tapes"), None),
        ):
            action = self._new_action(label, shortcut)
            action.setCheckable(True)
            action.setObjectName(f"graphOption:{key}")
            action.toggled.connect(lambda on, k=key: self.set_graph_settings(**{k: on}))
            self.option_actions[key] = action
        self._sync_actions()

    def _new_action(self, text: str, shortcut: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def add_menu(self, bar: QMenuBar) -> QMenu:
        """Put the Graph menu (fit, export, layout engine, display options) on ``bar``."""
        menu = bar.addMenu(translate("GraphMenu", "&Graph"))
        menu.setObjectName("graphMenu")
        menu.addAction(self.fit_action)
        menu.addAction(self.whole_action)
        export = menu.addMenu(translate("GraphMenu", "&Export graph"))
        for action in self.graph_export_actions:
            export.addAction(action)
        menu.addSeparator()
        engines = menu.addMenu(translate("GraphMenu", "&Layout"))
        for action in self.layout_actions.values():
            engines.addAction(action)
        for action in self.option_actions.values():
            menu.addAction(action)
        return menu

    def fit_after_next_layout(self) -> None:
        """Fit the graph once the next run's tapes are laid out (a preset or session loaded)."""
        self.view.request_fit(new_tapes=True)

    # -- settings --------------------------------------------------------------------------
    def graph_settings(self) -> dict[str, Any]:
        """The graph's view settings, JSON-safe (saved in sessions)."""
        opts = self.model.options
        return {
            "layout": self.view.engine,
            "fold_constants": opts.fold_constants,
            "hide_unreached": opts.hide_unreached,
            "fold_layers": opts.fold_layers,
            "edge_labels": self.view.show_edge_labels,
            "tape_groups": self.view.show_groups,
        }

    def set_graph_settings(self, **changes: Any) -> None:
        """Change some graph settings (unknown keys and wrong types are ignored)."""
        current = self.graph_settings()
        wanted = {k: v for k, v in changes.items() if k in current and type(v) is type(current[k])}
        if wanted.get("layout") not in (None, *ENGINES):
            del wanted["layout"]
        if wanted.get("layout") == "dot" and not layout.dot_available():
            del wanted["layout"]
            self.status(translate("GraphMenu", "Graphviz dot is not installed; layout unchanged."))
        new = {**current, **wanted}
        if new == current:
            self._sync_actions()
            return
        view = self.view
        view.engine = new["layout"]
        view.show_groups = new["tape_groups"]
        opts = self.model.options
        options = replace(opts, fold_constants=new["fold_constants"],
                          hide_unreached=new["hide_unreached"], fold_layers=new["fold_layers"],
                          expanded=opts.expanded if new["fold_layers"] else ())  # fmt: skip
        if options != opts:
            self.model.set_options(options)  # rebuilds the graph
        elif (new["layout"], new["tape_groups"]) != (current["layout"], current["tape_groups"]):
            view.rebuild()
        if new["edge_labels"] != current["edge_labels"]:
            view.set_edge_labels(new["edge_labels"])
        self._sync_actions()

    def _sync_actions(self) -> None:
        settings = self.graph_settings()
        for key, action in self.option_actions.items():
            action.blockSignals(True)
            action.setChecked(bool(settings[key]))
            action.blockSignals(False)
        for key, action in self.layout_actions.items():
            action.setChecked(key == settings["layout"])

    def update_actions(self) -> None:
        """Fit and export are enabled only while there is a graph."""
        has_graph = bool(self.model.nodes)
        self.fit_action.setEnabled(has_graph)
        self.whole_action.setEnabled(has_graph)
        for action in self.graph_export_actions:
            action.setEnabled(has_graph)

    # -- export ----------------------------------------------------------------------------
    def export_graph(self, kind: str, path: str | Path | None = None) -> Path | None:
        """Write the graph as PNG, SVG or DOT (asks for a file name when none is given)."""
        if not self.model.nodes:
            self.status(translate("GraphMenu", "There is no graph to export yet: run some code."))
            return None
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(
                self.dialog_parent,
                translate("GraphMenu", "Export graph"),
                f"graph.{kind}",
                translate("GraphMenu", EXPORTS[kind]),
            )
            if not chosen:
                return None
            path = chosen
        out = Path(path)
        try:
            if kind == "png":
                self.view.export_png(out)
            elif kind == "svg":
                self.view.export_svg(out)
            else:
                out.write_text(self.view.dot_text(), encoding="utf-8")
        except OSError as exc:
            text = translate("GraphMenu", "Cannot write %1: %2")
            self.status("⚠ " + text.replace("%1", str(out)).replace("%2", str(exc)))
            return None
        self.status(translate("GraphMenu", "Graph exported to %1").replace("%1", out.name))
        return out
