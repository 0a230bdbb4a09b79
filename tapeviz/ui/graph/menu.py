"""The main window's Graph menu: fit, export, layout engine and display options.

The options are part of a session's view settings (``Session.settings["graph"]``), so a saved
lesson reopens with the graph drawn the same way.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu

from tapeviz.models.graph import layout

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


class GraphMenuMixin:
    """Builds the Graph menu for :class:`MainWindow` and keeps the graph's view settings."""

    def _build_graph_menu(self, bar: Any) -> QMenu:
        menu = bar.addMenu(translate("GraphMenu", "&Graph"))
        menu.setObjectName("graphMenu")
        self.fit_action = self._action(
            menu, translate("GraphMenu", "&Fit graph"), self.graph.fit, "Ctrl+Shift+F"
        )
        export = menu.addMenu(translate("GraphMenu", "&Export graph"))
        self.graph_export_actions: list[QAction] = []
        labels = {
            "png": translate("GraphMenu", "as &PNG…"),
            "svg": translate("GraphMenu", "as &SVG…"),
            "dot": translate("GraphMenu", "as &DOT (graphviz)…"),
        }
        for kind, label in labels.items():
            action = self._action(export, label, lambda _=False, k=kind: self.export_graph(k))
            action.setObjectName(f"graphExport:{kind}")
            self.graph_export_actions.append(action)
        menu.addSeparator()
        engines = menu.addMenu(translate("GraphMenu", "&Layout"))
        group = QActionGroup(self)
        self.layout_actions: dict[str, QAction] = {}
        for key, label in ENGINES.items():
            action = engines.addAction(translate("GraphMenu", label))
            action.setCheckable(True)
            action.setObjectName(f"graphLayout:{key}")
            action.setChecked(key == self.graph.engine)
            if key == "dot" and not layout.dot_available():
                action.setEnabled(False)
                action.setToolTip(translate("GraphMenu", "Install graphviz to use dot."))
            action.triggered.connect(lambda _=False, k=key: self.set_graph_settings(layout=k))
            group.addAction(action)
            self.layout_actions[key] = action
        self.option_actions: dict[str, QAction] = {}
        for key, label, shortcut in (
            ("fold_constants", translate("GraphMenu", "Fold &constants into the ops"), None),
            ("hide_unreached", translate("GraphMenu", "&Hide ops no source reaches"), None),
            (
                "edge_labels",
                translate("GraphMenu", "Show local &derivatives on the edges"),
                "Ctrl+Shift+L",
            ),
            ("tape_groups", translate("GraphMenu", "Frame nested &tapes"), None),
        ):
            action = QAction(label, self)
            action.setCheckable(True)
            action.setObjectName(f"graphOption:{key}")
            if shortcut:
                action.setShortcut(QKeySequence(shortcut))
            action.toggled.connect(lambda on, k=key: self.set_graph_settings(**{k: on}))
            menu.addAction(action)
            self.option_actions[key] = action
        self._sync_graph_actions()
        return menu

    # -- settings --------------------------------------------------------------------------
    def graph_settings(self) -> dict[str, Any]:
        """The graph's view settings, JSON-safe (saved in sessions)."""
        opts = self.model.options
        return {
            "layout": self.graph.engine,
            "fold_constants": opts.fold_constants,
            "hide_unreached": opts.hide_unreached,
            "edge_labels": self.graph.show_edge_labels,
            "tape_groups": self.graph.show_groups,
        }

    def set_graph_settings(self, **changes: Any) -> None:
        """Change some graph settings (unknown keys and wrong types are ignored)."""
        current = self.graph_settings()
        wanted = {k: v for k, v in changes.items() if k in current and type(v) is type(current[k])}
        if wanted.get("layout") not in (None, *ENGINES):
            del wanted["layout"]
        if wanted.get("layout") == "dot" and not layout.dot_available():
            del wanted["layout"]
            self.statusBar().showMessage(
                translate("GraphMenu", "Graphviz dot is not installed; layout unchanged.")
            )
        new = {**current, **wanted}
        if new == current:
            self._sync_graph_actions()
            return
        self.graph.engine = new["layout"]
        self.graph.show_groups = new["tape_groups"]
        opts = self.model.options
        options = replace(opts, fold_constants=new["fold_constants"],
                          hide_unreached=new["hide_unreached"])  # fmt: skip
        if options != opts:
            self.model.set_options(options)  # rebuilds the graph
        elif (new["layout"], new["tape_groups"]) != (current["layout"], current["tape_groups"]):
            self.graph.rebuild()
        if new["edge_labels"] != current["edge_labels"]:
            self.graph.set_edge_labels(new["edge_labels"])
        self._sync_graph_actions()

    def _sync_graph_actions(self) -> None:
        settings = self.graph_settings()
        for key, action in self.option_actions.items():
            action.blockSignals(True)
            action.setChecked(bool(settings[key]))
            action.blockSignals(False)
        for key, action in self.layout_actions.items():
            action.setChecked(key == settings["layout"])

    def _update_graph_actions(self) -> None:
        has_graph = bool(self.model.nodes)
        self.fit_action.setEnabled(has_graph)
        for action in self.graph_export_actions:
            action.setEnabled(has_graph)

    # -- export ----------------------------------------------------------------------------
    def export_graph(self, kind: str, path: str | Path | None = None) -> Path | None:
        """Write the graph as PNG, SVG or DOT (asks for a file name when none is given)."""
        if not self.model.nodes:
            self.statusBar().showMessage(
                translate("GraphMenu", "There is no graph to export yet: run some code.")
            )
            return None
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(
                self,
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
                self.graph.export_png(out)
            elif kind == "svg":
                self.graph.export_svg(out)
            else:
                out.write_text(self.graph.dot_text(), encoding="utf-8")
        except OSError as exc:
            text = translate("GraphMenu", "Cannot write %1: %2")
            self.statusBar().showMessage(
                "⚠ " + text.replace("%1", str(out)).replace("%2", str(exc))
            )
            return None
        self.statusBar().showMessage(
            translate("GraphMenu", "Graph exported to %1").replace("%1", out.name)
        )
        return out
