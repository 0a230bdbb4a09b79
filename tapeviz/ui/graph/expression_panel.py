"""A live expression box: the graph follows the text as the lecturer types (debounced)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from tapeviz.engine.tensor import TensorLike
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import Limits, RunResult, VariableSpec
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.messages import translated
from tapeviz.ui.theme import font

DEBOUNCE_MS = 300


def names_of(result: RunResult, target: str = "f") -> dict[int, str]:
    """Tensor id -> the user's name, for a run's namespace (and its value as ``target``)."""
    names = {v.id: k for k, v in result.namespace.items() if isinstance(v, TensorLike)}
    if isinstance(result.value, TensorLike) and result.value.id not in names:
        names[result.value.id] = target
    return names


class ExpressionPanel(QWidget):
    """An expression editor above a graph: re-evaluated ~300 ms after the last keystroke."""

    evaluated = Signal(object)  # the RunResult of the last evaluation

    def __init__(
        self,
        model: GraphModel,
        view: GraphView,
        variables: Sequence[VariableSpec] = (),
        text: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("expressionPanel")
        self.model, self.view = model, view
        self.variables = list(variables)
        self.last_good = ""
        self.edit = QLineEdit(text, self)
        self.edit.setObjectName("expressionEdit")
        self.edit.setFont(font(14, mono=True))
        self.edit.setPlaceholderText(self.tr("a function of the variables, e.g. a*x**2 + b*x + c"))
        self.error = QLabel(self)
        self.error.setObjectName("expressionError")
        self.error.setWordWrap(True)
        self.error.setFont(font(11, mono=True))
        self.notes = QLabel(self)
        self.notes.setObjectName("expressionNotes")
        self.notes.setFont(font(10))
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.evaluate)
        self.edit.textChanged.connect(self._on_edit_text_changed)
        row = QHBoxLayout()
        row.addWidget(QLabel("f =", self))
        row.addWidget(self.edit, 1)
        box = QVBoxLayout(self)
        box.addLayout(row)
        box.addWidget(self.error)
        box.addWidget(self.notes)
        box.addWidget(view, 1)
        if text:
            self.evaluate()

    def set_variables(self, variables: Sequence[VariableSpec]) -> None:
        """Use a new variables table and re-evaluate."""
        self.variables = list(variables)
        self.evaluate()

    def _on_edit_text_changed(self, _text: str) -> None:
        self.timer.start()

    def evaluate(self) -> RunResult:
        """Run the expression now; show its graph, or dim the last good one and the error."""
        self.timer.stop()
        text = self.edit.text()
        result = run_isolated(  # in a worker process, like every run of user text
            text, mode="expression", variables=self.variables, limits=Limits(wall_time=2)
        )
        if result.error is not None:
            err = result.error
            where = f"col {err.col}: " if err.col else ""
            hint = f" — {err.hint}" if err.hint and "\n" not in err.hint else ""
            self.error.setText(f"⚠ {where}{err.message}{hint}")
            self.edit.setStyleSheet("QLineEdit { border: 2px solid #D55E00; }")
            if err.col:
                self.edit.setCursorPosition(max(0, err.col - 1))
            self.view.set_dimmed(True)
        else:
            self.last_good = text
            self.error.clear()
            self.edit.setStyleSheet("")
            self.model.set_tapes(result.tapes, names_of(result))
            self.view.set_dimmed(False)
        self.notes.setText("  ".join(translated(n) for n in result.notes))
        self.evaluated.emit(result)
        return result
